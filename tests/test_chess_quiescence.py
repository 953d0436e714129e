"""Chess's quiescence options (``qsee``, ``delta``, ``qchecks``) and static exchange
evaluation: hand cases, the Python and compiled SEE equal on random positions, each option
changing qnodes on the project's positions with both trees and both frames node for node
equal, the Python cache never reusing another option's results, and the first 20 WAC
positions at depth 5 with each option (printed with ``-s``; skipped where the public
suites are absent).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import chess
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import cli
from harness.games.chess import compiled
from harness.games.chess.compiled import CompiledTree
from harness.games.chess.epd import load_suite, solved
from harness.games.chess.evaluation import MATE
from harness.games.chess.game import INEXACT_DELTA
from harness.games.chess.movegen import move_code
from harness.games.chess.quiescence import DELTA_ENDGAME_PHASE, QuiescenceRules
from harness.games.chess.see import see
from harness.games.chess.suite_files import project_positions
from harness.games.chess.tree import ChessTree, Ordering, PositionCache
from harness.games.registry import find_game, load_problems
from harness.search import Switches, make_spec, run_search
from harness.search.counters import Counters
from harness.search.run import SearchResult

needs_compiled = pytest.mark.skipif(not compiled.compiled_available(),
                                    reason="the compiled chess tree was not built")

SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"
BENCH = [p.board().fen() for p in load_suite(project_positions() / "bench.epd").positions]
RULES = (QuiescenceRules(see=True), QuiescenceRules(delta=True), QuiescenceRules(checks=True),
         QuiescenceRules(see=True, delta=True, checks=True))
ALL_RULES = (QuiescenceRules(), *RULES, QuiescenceRules(see=True, checks=True),
             QuiescenceRules(delta=True, checks=True), QuiescenceRules(see=True, delta=True))


def move(fen: str, uci: str) -> tuple[chess.Board, chess.Move]:
    board = chess.Board(fen)
    found = chess.Move.from_uci(uci)
    assert found in board.legal_moves, (fen, uci)
    return board, found


# -- static exchange evaluation -------------------------------------------------------------

HAND_CASES = (
    # a pawn takes a queen a rook defends: the queen for the pawn
    ("3rk3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5", 950 - 100),
    # a rook takes a pawn a pawn defends: the rook for the pawn
    ("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100 - 500),
    # x-ray: the rook behind the capturing rook recaptures once the first has gone
    ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100),
    # without the rook behind, the same capture loses the exchange
    ("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100 - 500),
    # x-ray: the queen behind the bishop takes back the pawn that took the bishop
    ("4k3/8/8/4p3/3p4/8/1B6/Q3K3 w - - 0 1", "b2d4", 100 - 330 + 100),
    ("4k3/8/8/4p3/3p4/8/1B6/4K3 w - - 0 1", "b2d4", 100 - 330),
    # the king recaptures a queen that took an undefended pawn next to it
    ("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", "d1d7", 100 - 950),
    # ... but not one a knight defends: the king may not take a defended piece
    ("4k3/3p4/8/4N3/8/8/8/3QK3 w - - 0 1", "d1d7", 100),
    # an undefended piece, a quiet move to an attacked square, a quiet move to a safe one
    ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", 320),
    ("4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1", "a1a5", 0),
    ("4k3/8/4p3/8/8/8/8/3RK3 w - - 0 1", "d1d5", -500),
    # en passant, the capturing pawn then taken by a pawn: even
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100),
    ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0),
    # a promotion the rook takes back: the promoted queen is lost, the pawn's gain kept
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", 850 - 950),
)


@pytest.mark.parametrize(("fen", "uci", "expected"), HAND_CASES)
def test_see_of_hand_cases(fen: str, uci: str, expected: int) -> None:
    board, found = move(fen, uci)
    assert see(board, found) == expected
    if compiled.compiled_available():
        assert CompiledTree(board).see(move_code(found)) == expected  # type: ignore[attr-defined]


def playout(start: str, choices: list[int]) -> chess.Board:
    board = chess.Board(start)
    for choice in choices:
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(legal[choice % len(legal)])
    return board


@needs_compiled
@settings(max_examples=150, deadline=None)
@given(start=st.sampled_from(BENCH), choices=st.lists(st.integers(0, 1 << 16), max_size=30))
def test_see_is_the_same_in_both_trees_on_random_positions(start: str, choices: list[int]) -> None:
    """Every legal move's SEE (captures, promotions, quiet moves, en passant) from both
    trees, on positions reached by random playouts of the project's positions."""
    board = playout(start, choices)
    native: Any = CompiledTree(board)
    for m in board.legal_moves:
        assert see(board, m) == native.see(move_code(m)), (board.fen(), m.uci())


# -- the options, tree by tree -------------------------------------------------------------

def quiescence_of(tree: Any, windows: tuple[tuple[int, int], ...]) -> tuple[list[int], int]:
    counters = Counters()
    values = [tree.quiesce(a, b, counters) for a, b in windows]
    return values, counters.qnodes


WINDOWS = ((-50, 50), (-10**6, 10**6), (0, 1), (-400, -399), (300, 301))


@needs_compiled
@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_both_trees_quiesce_alike_under_every_option(rules: QuiescenceRules) -> None:
    """Each bench position and each of its children: the same values and qnodes."""
    for fen in BENCH:
        board = chess.Board(fen)
        ordering = Ordering(quiescence=rules)
        python, native = ChessTree(board, ordering), CompiledTree(board, ordering)
        assert quiescence_of(python, WINDOWS) == quiescence_of(native, WINDOWS), fen
        for m in list(board.legal_moves)[:8]:
            python.push(m)
            native.push(move_code(m))
            assert quiescence_of(python, WINDOWS) == quiescence_of(native, WINDOWS), (fen, m)
            python.pop()
            native.pop()


TACTICAL = (
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",                    # a quiet mate at the horizon
    "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",                      # in check, castling rights
    "r3k2r/pP6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",            # promotions, en passant
    "2kr3r/ppp2ppp/2n5/2b1q3/4n3/2N1BN2/PPP1QPPP/R3KB1R w KQ - 0 1",
)


@needs_compiled
@settings(max_examples=80, deadline=None)
@given(start=st.sampled_from(BENCH + list(TACTICAL)), rules=st.sampled_from(ALL_RULES),
       choices=st.lists(st.integers(0, 1 << 16), max_size=30), draws=st.booleans())
def test_both_trees_quiesce_alike_along_random_playouts(start: str, rules: QuiescenceRules,
                                                         choices: list[int], draws: bool) -> None:
    """Positions reached by random moves pushed into both trees (checks, mates, endgames
    and, with draws on, repetitions among them): the same quiescence values, qnodes and
    draws at each, under any rules."""
    board = chess.Board(start)
    ordering = Ordering(quiescence=rules)
    python = ChessTree(board, ordering, draws=draws)
    native: Any = CompiledTree(board, ordering, draws=draws)
    for choice in choices:
        assert quiescence_of(python, WINDOWS) == quiescence_of(native, WINDOWS), board.fen()
        assert python.repetition_draws == native.repetition_draws
        legal = list(board.legal_moves)
        if not legal:
            break
        m = legal[choice % len(legal)]
        board.push(m)
        python.push(m)
        native.push(move_code(m))


def total_qnodes(rules: QuiescenceRules) -> int:
    total = 0
    for fen in BENCH:
        total += quiescence_of(ChessTree(chess.Board(fen), Ordering(quiescence=rules)), WINDOWS)[1]
    return total


def test_each_option_changes_qnodes_on_the_bench_positions() -> None:
    """SEE and delta pruning search fewer qnodes; checks at the first ply more."""
    full = total_qnodes(QuiescenceRules())
    assert total_qnodes(QuiescenceRules(see=True)) < full
    assert total_qnodes(QuiescenceRules(delta=True)) < full
    assert total_qnodes(QuiescenceRules(checks=True)) > full


def test_delta_pruning_prunes_a_hopeless_capture_and_not_in_the_endgame() -> None:
    """Down a queen, taking a pawn cannot reach alpha: pruned (no qnode) and its bound,
    stand pat + pawn + 200, is the value; in a late endgame the same capture is searched."""
    middle = chess.Board("rn1qkbnr/ppp2ppp/8/3p4/4P3/8/PPP2PPP/RNB1KBNR w KQkq - 0 1")
    rules = Ordering(quiescence=QuiescenceRules(delta=True))
    stand_pat = ChessTree(middle).value()
    counters = Counters()
    alpha = stand_pat + 100 + 200
    value = ChessTree(middle, rules).quiesce(alpha, alpha + 1, counters)
    assert counters.qnodes == 0 and value == stand_pat + 100 + 200
    plain = Counters()
    ChessTree(middle).quiesce(alpha, alpha + 1, plain)
    assert plain.qnodes > 0
    ending = chess.Board("4k3/8/8/8/3p4/8/5PPP/3QK3 w - - 0 1")      # phase 4
    assert sum(len(ending.pieces(t, c)) * w for t, w in ((2, 1), (3, 1), (4, 2), (5, 4))
               for c in chess.COLORS) <= DELTA_ENDGAME_PHASE
    tree = ChessTree(ending, rules)
    counters = Counters()
    tree.quiesce(tree.value() + 300, tree.value() + 301, counters)
    assert counters.qnodes > 0


def test_see_pruning_skips_the_losing_capture_and_keeps_promotions() -> None:
    board, _ = move("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5")
    pruned = Counters()
    ChessTree(board, Ordering(quiescence=QuiescenceRules(see=True))).quiesce(-1000, 1000, pruned)
    plain = Counters()
    ChessTree(board).quiesce(-1000, 1000, plain)
    assert pruned.qnodes == 0 and plain.qnodes > 0
    promotion = chess.Board("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")      # b8=Q loses the queen
    counters = Counters()
    ChessTree(promotion, Ordering(quiescence=QuiescenceRules(see=True))).quiesce(-1000, 1000, counters)
    assert counters.qnodes > 0


@pytest.mark.parametrize("tree_kind", ["python", "compiled"])
def test_quiet_checks_find_a_mate_at_the_horizon(tree_kind: str) -> None:
    """A back-rank mate by a quiet rook move: found by the horizon leaf's quiet checks, and
    scored as the tree scores a mate one ply deeper; without the option, stand pat."""
    if tree_kind == "compiled" and not compiled.compiled_available():
        pytest.skip("the compiled chess tree was not built")
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    make = ChessTree if tree_kind == "python" else CompiledTree
    checks: Any = make(board, Ordering(quiescence=QuiescenceRules(checks=True)))
    plain: Any = make(board)
    assert checks.quiesce(-MATE, MATE, Counters()) == MATE - 1
    assert plain.quiesce(-MATE, MATE, Counters()) == plain.value()


def test_a_cache_never_gives_a_tree_another_option_s_results() -> None:
    """A cache shared by trees with different rules, and one tree switching its rules
    between searches: every search counts what a fresh tree with its rules counts."""
    fen = BENCH[3]
    expected = {rules: quiescence_of(ChessTree(chess.Board(fen), Ordering(quiescence=rules)), WINDOWS)
                for rules in ALL_RULES}
    cache = PositionCache()
    for rules in (*ALL_RULES, *reversed(ALL_RULES)):
        shared = ChessTree(chess.Board(fen), Ordering(quiescence=rules), cache=cache)
        assert quiescence_of(shared, WINDOWS) == expected[rules]
        assert cache.rules == rules
    switching = ChessTree(chess.Board(fen))
    for rules in (*ALL_RULES, *ALL_RULES):
        switching.set_ordering(Ordering(quiescence=rules))
        assert quiescence_of(switching, WINDOWS) == expected[rules]


# -- searches ---------------------------------------------------------------------------------

def searched(tree: Any, variant: str, depth: int, switches: Switches, native: bool) -> SearchResult:
    return dataclasses.replace(run_search(tree, make_spec(variant), depth, switches, native=native),
                               time_s=0.0, frame="")


@needs_compiled
@pytest.mark.parametrize("options", [",qsee=1", ",delta=1", ",qchecks=1",
                                     ",qsee=1,delta=1,qchecks=1,killers=1,history=1"])
def test_both_trees_and_both_frames_search_alike_with_the_options(options: str) -> None:
    """The game's options reach both trees: pvs and alphabeta at depth 3 (a table, null
    move and check extension on some) give the same result and counters from the Python
    tree, and from the compiled tree in the compiled frame and in the Python frame."""
    python_set = load_problems(f"chess:bench.epd{options},tree=python").problems
    compiled_set = load_problems(f"chess:bench.epd{options},tree=compiled").problems
    game = find_game("chess")
    plain = load_problems("chess:bench.epd").problems
    configs = (Switches(), Switches(tt_size=1 << 12, iterative_deepening=True),
               Switches(null_move=2, check_extension=True, tt_size=1 << 10))
    changed = 0
    triples = list(zip(python_set, compiled_set, plain, strict=True))[:6]
    for i, (py_problem, c_problem, plain_problem) in enumerate(triples):
        switches = configs[i % len(configs)]
        for variant in ("pvs", "alphabeta"):
            native = game.tree(c_problem)
            found = searched(native, variant, 3, switches, True)
            assert found == searched(game.tree(py_problem), variant, 3, switches, False)
            assert found == searched(native, variant, 3, switches, False)
            base = searched(game.tree(plain_problem), variant, 3, switches, True)
            changed += found.counters["qnodes"] != base.counters["qnodes"]
    assert changed > 0


def test_harness_games_lists_the_options() -> None:
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    for name in ("qsee=0", "delta=0", "qchecks=0"):
        assert f"option {name}:" in result.stdout


def test_a_bad_option_value_is_one_line() -> None:
    result = CliRunner().invoke(cli, ["run", "--problems", "chess:bench.epd,qsee=maybe",
                                      "--variants", "pvs", "--depth", "1", "--no-progress"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "qsee" in result.output


# -- WAC -------------------------------------------------------------------------------------

WAC_POSITIONS = 20
WAC_DEPTH = 5


@needs_compiled
@pytest.mark.filterwarnings("ignore::harness.games.chess.epd.SkippedLineWarning")
def test_the_first_wac_positions_with_each_option(capsys: pytest.CaptureFixture[str]) -> None:
    """pvs at depth 5 on the first 20 WAC positions (../shared/positions/wac.epd), with
    each option and all three: solved and qnodes beside the full capture search's (printed);
    SEE and delta pruning search fewer qnodes, checks more."""
    path = SHARED / "wac.epd"
    if not path.is_file():
        pytest.skip("wac.epd: the public suites (../shared/positions) are not here")
    positions = load_suite(path, skip_invalid=True).positions[:WAC_POSITIONS]
    table = {}
    for rules in (QuiescenceRules(), *RULES):
        solved_count = qnodes = nodes = 0
        for position in positions:
            tree = CompiledTree(position.board(), Ordering(quiescence=rules))
            result = run_search(tree, make_spec("pvs"), WAC_DEPTH, Switches())
            solved_count += bool(solved(position, chess.Move.from_uci(result.best_move)))
            qnodes += result.counters["qnodes"]
            nodes += result.counters["nodes"]
        table[rules] = (solved_count, nodes, qnodes)
    with capsys.disabled():
        print(f"\nWAC 1-{WAC_POSITIONS}, pvs depth {WAC_DEPTH}: solved, nodes, qnodes")
        for rules, (count, nodes, qnodes) in table.items():
            print(f"  {rules}: {count}, {nodes:,}, {qnodes:,}")
    full = table[QuiescenceRules()][2]
    assert table[RULES[0]][2] < full and table[RULES[1]][2] < full and table[RULES[2]][2] > full


def test_a_run_with_delta_pruning_is_not_called_cross_checked(tmp_path: Path) -> None:
    """Delta pruning prunes by the window: run.json's set says so, and the answers are not
    cross-checked; SEE pruning and checks are (they do not depend on the window)."""
    for options, checked in ((",delta=1", False), (",qsee=1,qchecks=1", True)):
        out = tmp_path / options.replace(",", "_")
        result = CliRunner().invoke(cli, ["run", "--problems", f"chess:bench.epd{options}",
                                          "--variants", "alphabeta,pvs,mtdf", "--depth", "1-2",
                                          "--limit", "2", "--no-progress", "--out", str(out)])
        assert result.exit_code == 0, result.output
        record = json.loads((out / "run.json").read_text())["suites"][f"bench.epd{options}"]
        if checked:
            assert "inexact" not in record and "answers cross-checked" in result.output
        else:
            assert record["inexact"] == INEXACT_DELTA
            assert f"answers not cross-checked: bench.epd{options}: {INEXACT_DELTA}" in result.output


@pytest.mark.parametrize("tree_kind", ["python", "compiled"])
def test_a_quiet_check_that_repeats_the_game_is_a_draw(tree_kind: str) -> None:
    """With draws on (``repetition=1``), a quiet check at the horizon leaf that repeats a
    position of the game is a draw, counted as one, in both trees alike: the game's queen
    checks back and forth, and the root's Qd8+ repeats the position after its first move."""
    if tree_kind == "compiled" and not compiled.compiled_available():
        pytest.skip("the compiled chess tree was not built")
    board = chess.Board("6k1/5pp1/7p/8/8/8/5PPP/3Q2K1 w - - 0 1")
    for uci in ("d1d8", "g8h7", "d8d3", "h7g8"):
        board.push_uci(uci)
    ordering = Ordering(quiescence=QuiescenceRules(checks=True))
    found = {}
    for draws in (False, True):
        tree: Any = (ChessTree(board, ordering, draws=draws) if tree_kind == "python"
                     else CompiledTree(board, ordering, draws=draws))
        counters = Counters()
        found[draws] = (tree.quiesce(-MATE, MATE, counters), counters.qnodes, tree.repetition_draws)
    assert found[True][2] >= 1 and found[False][2] == 0
    python = ChessTree(board, ordering, draws=True)
    counters = Counters()
    expected = (python.quiesce(-MATE, MATE, counters), counters.qnodes, python.repetition_draws)
    assert found[True] == expected
