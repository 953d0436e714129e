"""Draws by repetition and the fifty-move rule (chess's option ``repetition``).

A perpetual check is found as a draw; the fifty-move rule strikes at ``hmvc 99`` but not
at a checkmate; the game before the root makes a quiet move a draw; both trees (the Python
reference and ``_board.c``) and both frames count every node, and the draws, alike; and a
match's side that is ahead no longer walks into a repetition of the game.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import chess
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import cli
from harness.games.base import Problem
from harness.games.chess import compiled
from harness.games.chess.compiled import CompiledTree
from harness.games.chess.evaluation import MATE
from harness.games.chess.keys import history_keys, position_key
from harness.games.chess.movegen import move_code
from harness.games.chess.tree import ChessTree, Ordering
from harness.games.registry import find_game, load_problems
from harness.match.play import Budget, Side, choose
from harness.match.rules import ChessPlaying
from harness.results import load_results
from harness.search import Switches, make_spec, run_search
from harness.search.counters import Counters
from harness.search.registry import CORE
from harness.search.run import SearchResult

pytestmark = pytest.mark.skipif(not compiled.compiled_available(),
                                reason="the compiled chess tree was not built")

PERPETUAL = "6k1/q5p1/8/7Q/8/pppp4/6PP/7K w - - 0 1"
"""White, a queen and more behind, checks on e8 and h5 for ever (Black's king has h7 and
g8 only, and nothing of Black's can block or check in time)."""
FIFTY = "4k3/8/8/8/8/3q4/8/4K3 w - - 99 80"
"""White's bare king against a queen, the half-move clock at 99: every move of White's
(king moves: none zeroes the clock) is a draw by the fifty-move rule."""
MATE_AT_FIFTY = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"
"""Ra8 mates with the clock reaching 100: checkmate, not a draw."""
KNIGHTS = ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6")
"""Out and back and out again: the start position after 1. Nf3 Nf6 has occurred twice."""


def board_after(moves: tuple[str, ...], start: str = chess.STARTING_FEN) -> chess.Board:
    board = chess.Board(start)
    for move in moves:
        board.push_uci(move)
    return board


def trees(board: chess.Board, draws: bool = True) -> tuple[ChessTree, Any]:
    return ChessTree(board, draws=draws), CompiledTree(board, draws=draws)


PLAIN = Switches()


def searched(tree: Any, depth: int, switches: Switches = PLAIN, variant: str = "pvs",
             native: bool = True) -> SearchResult:
    return dataclasses.replace(run_search(tree, make_spec(variant), depth, switches,
                                          max_nodes=200_000, native=native),
                               time_s=0.0, frame="")


def every_way(board: chess.Board, depth: int, switches: Switches = PLAIN,
              variant: str = "pvs") -> SearchResult:
    """The search of ``board`` with draws on by the Python tree in the Python frame, the
    compiled tree in the compiled frame and in the Python frame: all equal."""
    python, native = trees(board)
    found = [searched(python, depth, switches, variant), searched(native, depth, switches, variant),
             searched(CompiledTree(board, draws=True), depth, switches, variant, native=False)]
    assert found[0] == found[1] == found[2], (board.fen(), depth, switches, variant)
    return found[0]


# -- what is a draw -----------------------------------------------------------------------

def test_a_perpetual_check_is_found_as_a_draw() -> None:
    board = chess.Board(PERPETUAL)
    blind = searched(ChessTree(board), 5)
    assert blind.score is not None and blind.score < -200
    assert blind.tree_counters == {"repetition_draws": 0}
    seen = every_way(board, 5)
    assert seen.score == 0 and seen.best_move == "h5e8"
    assert seen.pv[:3] == ["h5e8", "g8h7", "e8h5"]
    assert seen.tree_counters["repetition_draws"] > 0


def test_the_fifty_move_rule_strikes_at_hmvc_99_but_not_at_checkmate() -> None:
    board = chess.Board(FIFTY)
    blind = searched(ChessTree(board), 2)
    assert blind.score is not None and blind.score < -500
    assert every_way(board, 2).score == 0
    board = chess.Board(MATE_AT_FIFTY)
    for tree in trees(board):
        tree.push(move_code(chess.Move.from_uci("a1a8")) if not isinstance(tree, ChessTree)
                  else chess.Move.from_uci("a1a8"))
        assert list(tree.moves()) == [] and tree.terminal_value() == -(MATE - 1)
        assert tree.repetition_draws == 0
    assert every_way(board, 3).score == MATE - 1


def test_the_epd_hmvc_starts_the_clock(tmp_path: Path) -> None:
    """The suite's ``hmvc`` is the tree's half-move clock: the bare king draws."""
    suite = tmp_path / "fifty.epd"
    suite.write_text('4k3/8/8/8/8/3q4/8/4K3 w - - hmvc 99; id "fifty";\n'
                     '4k3/8/8/8/8/3q4/8/4K3 w - - hmvc 90; id "ninety";\n')
    game = find_game("chess")
    scores: dict[tuple[str, str], int] = {}
    for spec in (f"chess:{suite},repetition=1", f"chess:{suite},repetition=1,tree=python",
                 f"chess:{suite}"):
        for problem in load_problems(spec).problems:
            score = searched(game.tree(problem), 2).score
            assert score is not None
            scores[spec, problem.problem_id] = score
    assert scores[f"chess:{suite},repetition=1", "fifty"] == 0
    assert scores[f"chess:{suite},repetition=1,tree=python", "fifty"] == 0
    assert scores[f"chess:{suite}", "fifty"] == scores[f"chess:{suite}", "ninety"] < -500
    assert scores[f"chess:{suite},repetition=1", "ninety"] < -500


def test_the_game_before_the_root_makes_a_quiet_move_a_draw() -> None:
    board = board_after(KNIGHTS)
    assert len(history_keys(board)) == 6 and history_keys(board)[0] == position_key(chess.Board())
    back = chess.Move.from_uci("f3g1")
    for tree in trees(board):
        move = back if isinstance(tree, ChessTree) else move_code(back)
        assert tree.child_value(move) == 0          # the position after 1. Nf3 Nf6 2. Ng1
        tree.push(move)
        assert list(tree.moves()) == [] and tree.terminal_value() == 0 and tree.value() == 0
        assert tree.quiesce(-100, 100, Counters()) == 0
        assert tree.repetition_draws == 4
        tree.reset()
        assert tree.repetition_draws == 0
    # Without the game (a board without its moves), or without draws, the move is a move.
    for tree in (*trees(board.copy(stack=False)), *trees(board, draws=False)):
        tree.push(back if isinstance(tree, ChessTree) else move_code(back))
        assert len(tree.moves()) == 22 and tree.value() != 0


def test_a_pawn_move_ends_what_can_repeat() -> None:
    """After 3. e4 Nc6 the knights' dance repeats nothing of before (the start position
    after 1. Nf3 Nf6 has no pawn on e4); going out and back repeats the root (a position
    of the path)."""
    board = board_after((*KNIGHTS, "e2e4", "b8c6"))
    assert history_keys(board) == (position_key(board_after((*KNIGHTS, "e2e4"))),)
    python, native = trees(board)
    for ply, move in enumerate(("f3g1", "f6g8", "g1f3", "g8f6", "f3g1"), 1):
        python.push(chess.Move.from_uci(move))
        native.push(move_code(chess.Move.from_uci(move)))
        assert python.drawn() == (ply in (4, 5))       # 5: the position after ply 1
        assert len(native.moves()) == len(python.moves()) == (0 if ply in (4, 5) else
                                                               len(python._static_moves()))


# -- node for node ------------------------------------------------------------------------

CONFIGS = (
    Switches(),
    Switches(tt_size=1 << 12, iterative_deepening=True),
    Switches(tt_size=1 << 10, tt_leaves=True, tt_narrow=True),
    Switches(null_move=2, check_extension=True),
    Switches(quiescence=False, tt_size=1 << 10, null_move=1, null_rule="both"),
)
BOARDS = (chess.Board(PERPETUAL), chess.Board(FIFTY), board_after(KNIGHTS),
          chess.Board("6k1/8/8/8/8/8/R7/6K1 w - - 90 70"),
          board_after(("e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8", "g1f3", "b8c6")))


@pytest.mark.parametrize("variant", CORE)
def test_both_trees_and_both_frames_count_node_for_node(variant: str) -> None:
    """Every core variant, each set of switches, depths 1-4: the same score, move, PV,
    counters and draws from the Python tree, the compiled one in the compiled frame and
    the compiled one in the Python frame; and draws are found."""
    draws = 0
    for index, board in enumerate(BOARDS):
        for depth in (1, 2, 3, 4):
            switches = CONFIGS[(index + depth) % len(CONFIGS)]
            draws += every_way(board, depth, switches, variant).tree_counters["repetition_draws"]
    assert draws > 0


def answers(tree: Any) -> dict[str, object]:
    """What a tree says at its node (the cursor left there): moves by name, values, draws."""
    moves = list(tree.moves())
    counters = Counters()
    found: dict[str, object] = {
        "moves": [tree.move_name(m) for m in moves],
        "value": tree.value(),
        "child_value": [tree.child_value(m) for m in moves],
        "quiesce": tree.quiesce(-50, 50, counters),
        "child_quiesce": [tree.child_quiesce(m, -100, 100, counters) for m in moves[:6]],
    }
    if not moves:
        found["terminal_value"] = tree.terminal_value()
    found["qnodes"] = counters.qnodes
    found["draws"] = tree.repetition_draws
    return found


@settings(max_examples=40, deadline=None)
@given(start=st.sampled_from(["4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 b - - 93 1",
                              "r3k3/8/8/8/8/8/8/4K2R w - - 0 1"]),
       prefix=st.lists(st.integers(0, 1 << 16), max_size=8),
       choices=st.lists(st.integers(0, 1 << 16), min_size=4, max_size=24))
def test_every_method_agrees_along_random_shuffles(start: str, prefix: list[int],
                                                   choices: list[int]) -> None:
    """A game of a few moves (the history), then random quiet moves and null moves pushed
    into both trees, which repeat and pass the fifty-move mark: both trees answer alike at
    every node."""
    board = chess.Board(start)
    for choice in prefix:
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(legal[choice % len(legal)])
    python, native = trees(board)
    assert answers(native) == answers(python)
    for choice in choices:
        if choice % 9 == 0 and python.null_allowed("either"):
            python.push_null()
            native.push_null()
        else:
            legal = list(python._static_moves())     # the moves even where a draw has none
            if not legal:
                break
            move = legal[choice % len(legal)]
            python.push(move)
            native.push(move_code(move))
        assert answers(native) == answers(python)


# -- play and the command -----------------------------------------------------------------

def rook_problem(repetition: bool) -> Problem:
    game = find_game("chess")
    options = tuple((key, repetition if key == "repetition" else option.default)
                    for key, option in game.options.items())
    return Problem("chess", "t", "rook", "t", 0, options, 3,
                   position='6k1/8/8/8/8/8/R7/6K1 w - - id "rook";')


def test_a_side_ahead_no_longer_walks_into_a_repetition() -> None:
    """A rook ahead, after 1. Ra7 Kh8 2. Ra2 Kg8: the search without the game plays Ra7
    again (the position's second occurrence); with it, another move."""
    played = {}
    for repetition in (False, True):
        position = ChessPlaying(rook_problem(repetition))
        for move in ("a2a7", "g8h8", "a7a2", "h8g8"):
            position.play(move)
        choice = choose(position, Side("pvs"), Budget("depth", depth=3))
        played[repetition] = choice.move
        assert choice.score is not None and choice.score > 400
    assert played[False] == "a2a7"
    assert played[True] != "a2a7"
    board = board_after(("a2a7", "g8h8", "a7a2", "h8g8", "a2a7"), "6k1/8/8/8/8/8/R7/6K1 w - - 0 1")
    assert board.is_repetition(2)


def test_harness_run_counts_draws_in_results(tmp_path: Path) -> None:
    suite = tmp_path / "perpetual.epd"
    suite.write_text(" ".join(PERPETUAL.split()[:4]) + ' id "perpetual";\n')
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", "--problems", f"chess:{suite}", "--repetition",
                                      "--variants", "alphabeta,pvs", "--depth", "5",
                                      "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = load_results(out)
    assert set(rows["suite"]) == {"perpetual.epd,repetition=1"}
    assert (rows["score"] == 0).all() and (rows["repetition_draws"] > 0).all()


def test_repetition_without_chess_warns(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["run", "--trees", "random:b=2,d=2,n=1", "--variants",
                                      "alphabeta", "--repetition", "--no-progress", "--out",
                                      str(tmp_path / "r")])
    assert result.exit_code == 0
    assert "--repetition: chess's draws, and no problem of this run is chess" in result.output
    assert "Traceback" not in result.output


def test_the_tree_refuses_a_bad_history() -> None:
    board = chess.Board()
    with pytest.raises(TypeError, match="position_key's tuple"):
        compiled.BUILD.module().ChessTree(board.pawns, board.knights, board.bishops, board.rooks,
                                          board.queens, board.kings, board.occupied_co[1],
                                          board.occupied_co[0], True, board.castling_rights, -1,
                                          Ordering(), True, 0, [(1, 2)])


def test_harness_match_takes_the_flag_for_both_sides(tmp_path: Path) -> None:
    openings = tmp_path / "rook.epd"
    openings.write_text('6k1/8/8/8/8/8/R7/6K1 w - - id "rook";\n')
    out = tmp_path / "match"
    result = CliRunner().invoke(cli, ["match", "pvs", "alphabeta", "--problems",
                                      f"chess:{openings}", "--depth", "2", "--max-plies", "12",
                                      "--link-depth", "0", "--repetition", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"chess:{openings},repetition=1" in result.output
    assert "Traceback" not in result.output
