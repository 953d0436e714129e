"""The compiled chess tree (``_board.c``) is the Python tree, node for node.

Perft gives the standard counts; every method agrees with :class:`ChessTree` along random
games (Hypothesis), keys hash as :func:`position_key`'s tuples; every variant's search
gives the same result (score, best move, PV, status) and every counter from both, over
the project's positions and positions with checks, promotions, castling and en passant,
with and without a table, iterative deepening, killers, history, null move and check
extension. Skipped where the extension was not built (no C compiler).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import chess
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.chess import compiled, movegen
from harness.games.chess.compiled import CompiledTree, chess_tree, resolve
from harness.games.chess.epd import load_suite
from harness.games.chess.movegen import move_code
from harness.games.chess.perft import GENERATORS, count
from harness.games.chess.quiescence import QuiescenceRules
from harness.games.chess.suite_files import project_positions
from harness.games.chess.tree import ChessTree, Ordering, position_key
from harness.games.registry import find_game, load_problems
from harness.results import load_results
from harness.search import VARIANTS, Switches, make_spec, run_search
from harness.search.counters import Counters
from harness.search.registry import CORE
from harness.search.run import SearchResult

pytestmark = pytest.mark.skipif(not compiled.compiled_available(),
                                reason="the compiled chess tree was not built")

SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"
SPECIAL = (
    "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",                                 # check, castling rights
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",       # en passant
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",                                  # en passant out of check
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",                                  # en passant exposes the king
    "8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1",                                    # promotions
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",                               # castling both ways
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",                               # mate in one
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                     # stalemate
)
ORDERINGS = (Ordering(), Ordering(killers=True), Ordering(history=True),
             Ordering(killers=True, history=True), Ordering(mvv_lva=False),
             Ordering(mvv_lva=False, killers=True, history=True))


def project_fens() -> list[str]:
    """The project's positions: the bench suite, the six perft positions, the special ones."""
    fens = [p.board().fen() for p in load_suite(project_positions() / "bench.epd").positions]
    fens += [p.board().fen() for p in load_suite(project_positions() / "perft.epd").positions]
    return fens + list(SPECIAL)


FENS = project_fens()


# -- perft ------------------------------------------------------------------------------

def test_perft_gives_the_standard_counts() -> None:
    """The six standard positions (the project's perft.epd) to depth 5 (468 million
    leaves, about 3 s)."""
    for position in load_suite(project_positions() / "perft.epd").positions:
        tree = CompiledTree(position.board())
        for depth in range(1, 6):
            assert tree.perft(depth) == position.ops[f"D{depth}"], (position.id, depth)  # type: ignore[attr-defined]


def test_perft_suite_to_a_million_leaves() -> None:
    """The public perft suite (../shared/positions/perftsuite.epd: 128 positions, counts
    to depth 6), every depth whose count is at most a million."""
    path = SHARED / "perftsuite.epd"
    if not path.is_file():
        pytest.skip("perftsuite.epd: the public suites (../shared/positions) are not here")
    checked = 0
    for line in path.read_text().splitlines():
        fen, *counts = line.split(";")
        tree = CompiledTree(chess.Board(fen.strip()))
        for item in counts:
            depth, count = re.fullmatch(r"\s*D(\d+)\s+(\d+)\s*", item).groups()  # type: ignore[union-attr]
            if int(count) <= 1_000_000:
                assert tree.perft(int(depth)) == int(count), (fen, depth)  # type: ignore[attr-defined]
                checked += 1
    assert checked > 400


@settings(max_examples=80, deadline=None)
@given(start=st.sampled_from(FENS), choices=st.lists(st.integers(0, 1 << 16), max_size=40),
       depth=st.integers(1, 3))
def test_perft_is_python_chess_perft_after_random_playouts(start: str, choices: list[int],
                                                            depth: int) -> None:
    """``harness perft``'s compiled count (compiled.perft, bulk-counted at the last ply)
    is python-chess's own perft from positions reached by random playouts from the
    project's positions and the special ones (checks, castling, en passant, promotions)."""
    board = chess.Board(start)
    for choice in choices:
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(legal[choice % len(legal)])
    reference = movegen.perft(board.copy(stack=False), depth, GENERATORS["python-chess"])
    assert compiled.perft(board, depth) == reference, (board.fen(), depth)
    assert count(board, depth, "harness") == reference


def test_harness_perft_counts_with_the_compiled_board() -> None:
    """The command counts with the compiled board, not python-chess, and says so: the start
    position to depth 5 (4,865,609 leaves). Its speed is `make bench`'s perft figure, not a
    test's (machines are noisy)."""
    result = CliRunner().invoke(cli, ["perft", "--fen", chess.STARTING_FEN, "--depth", "5"])
    assert result.exit_code == 0, result.output
    last = result.stdout.splitlines()[4].split()
    assert last[:2] == ["D5", "4,865,609"], result.stdout
    assert "generator harness (compiled), the last ply bulk-counted" in result.stdout


# -- method by method ---------------------------------------------------------------------

def names(tree: Any, moves: Any) -> list[str]:
    return [tree.move_name(m) for m in moves]


def answers(tree: Any, python: bool) -> dict[str, object]:
    """Everything a tree says about its current node; moves by name, the key as a tuple."""
    moves = list(tree.moves())
    counters = Counters()
    found: dict[str, object] = {
        "moves": names(tree, moves),
        "value": tree.value(),
        "in_check": tree.in_check(),
        "key": position_key(tree._sync()) if python else tree.key_tuple(),
        "null_allowed": (tree.null_allowed("either"), tree.null_allowed("both")),
        "child_value": [tree.child_value(m) for m in moves],
        "quiesce": [tree.quiesce(a, b, counters) for a, b in ((-50, 50), (-10**9, 10**9), (0, 1))],
        "child_quiesce": [tree.child_quiesce(m, -100, 100, counters) for m in moves[:6]],
    }
    found["qnodes"] = counters.qnodes
    if not moves:
        found["terminal_value"] = tree.terminal_value()
    return found


def check_stages(native: CompiledTree) -> None:
    """The compiled frame's two stages (captures and promotions, then quiet moves) are
    moves() cut in two, and has_rest says whether the second holds any."""
    first, rest, has_rest = native.staged_moves()  # type: ignore[attr-defined]
    assert first + rest == list(native.moves())
    assert has_rest == bool(rest)


@settings(max_examples=60, deadline=None)
@given(start=st.sampled_from(FENS), ordering=st.sampled_from(ORDERINGS),
       choices=st.lists(st.integers(0, 1 << 16), min_size=4, max_size=24),
       back=st.integers(0, 24))
def test_every_method_agrees_along_random_games(start: str, ordering: Ordering,
                                                choices: list[int], back: int) -> None:
    """Random legal moves (and a null move now and then), pushed into both trees; they
    agree after every push, after cutoffs teach killers and history, after pops back and
    after a reset."""
    board = chess.Board(start)
    python, native = ChessTree(board, ordering), CompiledTree(board, ordering)
    history = [answers(python, True)]
    assert answers(native, False) == history[0]
    for choice in choices:
        moves = list(python.moves())
        if choice % 7 == 0 and python.null_allowed("either"):
            python.push_null()
            native.push_null()  # type: ignore[attr-defined]
        elif moves:
            move = moves[choice % len(moves)]
            if choice % 3 == 0:                       # a cutoff here: killers, history
                python.cutoff(move, choice % 5)
                native.cutoff(move_code(move), choice % 5)
            python.push(move)
            native.push(move_code(move))
        else:
            break
        history.append(answers(python, True))
        assert answers(native, False) == history[-1]
        check_stages(native)
    for _ in range(min(back, len(history) - 1)):
        history.pop()
        python.pop()
        native.pop()
        now = answers(native, False)
        assert now == answers(python, True)
        assert now["key"] == history[-1]["key"]          # (the order may have learned since)
    python.reset()
    native.reset()
    assert answers(native, False) == answers(python, True)


def test_quiescence_in_check_agrees_along_random_games() -> None:
    """At every node in check along seeded random games from the project's positions (the
    compiled tree finds a checked node's captures and promotions by their own path, not
    from every legal move), both trees' quiescence gives the same value and qnodes, for
    several windows, with SEE and delta pruning off and on."""
    rng = random.Random(39)
    rules = (Ordering(), Ordering(quiescence=QuiescenceRules(see=True, delta=True)))
    checked = 0
    for game in range(60):
        board = chess.Board(FENS[game % len(FENS)])
        trees = [(ChessTree(board, o), CompiledTree(board, o)) for o in rules]
        for _ in range(40):
            python = trees[0][0]
            if python.in_check():
                checked += 1
                for py_tree, c_tree in trees:
                    for alpha, beta in ((-50, 50), (-10**9, 10**9), (0, 1), (-300, -299)):
                        py_counts, c_counts = Counters(), Counters()
                        assert (c_tree.quiesce(alpha, beta, c_counts)
                                == py_tree.quiesce(alpha, beta, py_counts)), board.fen()
                        assert c_counts.qnodes == py_counts.qnodes
            moves = list(python.moves())
            if not moves:
                break
            move = rng.choice(moves)
            for py_tree, c_tree in trees:
                py_tree.push(move)
                c_tree.push(move_code(move))
    assert checked > 100, checked



@settings(max_examples=40, deadline=None)
@given(start=st.sampled_from(FENS), choices=st.lists(st.integers(0, 1 << 16), max_size=12))
def test_keys_hash_and_compare_as_position_key_tuples(start: str, choices: list[int]) -> None:
    """A key equals, and hashes as, position_key's tuple (the table's slot is hash % size);
    keys of the same position are equal, of different ones not."""
    board = chess.Board(start)
    tree = CompiledTree(board)
    keys = []
    for choice in choices:
        legal = list(board.legal_moves)
        if not legal:
            break
        move = legal[choice % len(legal)]
        board.push(move)
        tree.push(move_code(move))
        key = tree.key()
        expected = position_key(board)
        assert key == expected and hash(key) == hash(expected) and key.fields() == expected  # type: ignore[attr-defined]
        assert tree.key() == key and (tree.key() != key) is False
        keys.append((key, expected))
    for key, expected in keys:
        for other, other_expected in keys:
            assert (key == other) == (expected == other_expected)


def test_bad_calls_are_python_exceptions() -> None:
    tree: Any = CompiledTree(chess.Board())
    with pytest.raises(IndexError):
        tree.pop()
    with pytest.raises(ValueError, match="not a move code"):
        tree.push(1 << 20)
    with pytest.raises(ValueError, match="no piece"):
        tree.push(move_code(chess.Move.from_uci("e4e5")))
    with pytest.raises(TypeError):
        tree.push("e2e4")
    assert tree.move_name(move_code(chess.Move.from_uci("a7a8q"))) == "a7a8q"
    assert tree.move_name(None) == "0000"


# -- search by search ---------------------------------------------------------------------

CONFIGS = (
    Switches(),
    Switches(tt_size=1 << 12, iterative_deepening=True),
    Switches(tt_size=1 << 10, tt_leaves=True, tt_narrow=True),
    Switches(null_move=2, check_extension=True),
    Switches(tt_size=1 << 12, null_move=1, null_rule="both", hash_move=False),
    Switches(quiescence=False, check_extension=True),
    Switches(quiescence=False, null_move=2),
    Switches(window=(-60, 40), tt_size=1 << 10, tt_narrow=True),
)
CAP = 20_000
"""Nodes per search: a search stopped there must have stopped at the same node in both."""
BUDGET = 150_000
"""Nodes per variant (about a second of the Python tree): the plan, shuffled, is searched
until it is spent."""


def plan(variant: str) -> list[tuple[str, int, Switches, Ordering]]:
    """Every (position, depth 1-3, switches, ordering) in an order of the variant's own, the
    depth-4 searches of two positions first; minimax, which quiesces every leaf with the
    full window (millions of qnodes in the Python tree, uncapped), without quiescence."""
    rng = random.Random(variant)
    configs = [c for c in CONFIGS if not c.quiescence] if variant == "minimax" else CONFIGS
    rows = [(fen, depth, switches, ORDERINGS[(i + depth) % len(ORDERINGS)])
            for depth in (1, 2, 3) for i, fen in enumerate(FENS) for switches in configs]
    rng.shuffle(rows)
    deep = [(FENS[0], 4, CONFIGS[1], Ordering(killers=True, history=True)),
            (FENS[-8], 4, CONFIGS[3], Ordering())]
    return rows if variant == "minimax" else deep + rows


def same_search(python: Any, native: Any, variant: str, depth: int, switches: Switches,
                ordering: Ordering) -> SearchResult:
    """One search with each tree (the ordering switched on each, as the reproduction
    does); equal in everything but the time."""
    found = []
    for tree in (python, native):
        tree.set_ordering(ordering)
        found.append(dataclasses.replace(run_search(tree, make_spec(variant), depth, switches,
                                                    max_nodes=CAP), time_s=0.0, frame=""))
    assert found[0] == found[1], (variant, depth, switches, ordering)
    return found[0]


# SSS* and DUAL* (a ``counting`` of their own) ask the tree nothing minimax does not.
@pytest.mark.parametrize("variant", [v.name for v in VARIANTS if v.origin == "built in" and not v.counting])
def test_every_variant_counts_node_for_node(variant: str) -> None:
    """Both trees, one of each per position for all its searches (as a run keeps one tree
    a problem), searched alike: the same score, move, PV, status and counters."""
    trees: dict[str, tuple[ChessTree, Any]] = {}
    spent = 0
    for fen, depth, switches, ordering in plan(variant):
        if spent > BUDGET:
            break
        if fen not in trees:
            trees[fen] = (ChessTree(chess.Board(fen)), CompiledTree(chess.Board(fen)))
        result = same_search(*trees[fen], variant, depth, switches, ordering)
        spent += result.counters["nodes"] + result.counters["qnodes"]


SHARED_CONFIGS = ((Switches(), Ordering()),
                  (Switches(tt_size=1 << 16, iterative_deepening=True), Ordering()),
                  (Switches(null_move=2, check_extension=True, tt_size=1 << 14),
                   Ordering(killers=True, history=True)))


@pytest.mark.filterwarnings("ignore::harness.games.chess.epd.SkippedLineWarning")   # kaufman's line 3
@pytest.mark.parametrize("suite", ["wac.epd", "bk.epd", "kaufman.epd"])
def test_the_shared_suites_count_node_for_node(suite: str) -> None:
    """The first positions of the public suites (../shared/positions), the core variants
    at depth 3 with three sets of switches, killers and history on in the last: one tree
    of each kind a position, every result equal."""
    path = SHARED / suite
    if not path.is_file():
        pytest.skip(f"{suite}: the public suites (../shared/positions) are not here")
    for position in load_suite(path, skip_invalid=True).positions[:3]:
        python, native = ChessTree(position.board()), CompiledTree(position.board())
        for switches, ordering in SHARED_CONFIGS:
            for variant in CORE:
                same_search(python, native, variant, 3, switches, ordering)


# -- the game's option --------------------------------------------------------------------

def test_the_game_option_chooses_the_tree_and_run_json_records_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HARNESS_PURE_PYTHON", raising=False)
    auto = load_problems("chess:bench.epd")
    python = load_problems("chess:bench.epd,tree=python")
    assert auto.record["tree"] == "compiled" and python.record["tree"] == "python"
    assert python.name == "bench.epd,tree=python" and auto.name == "bench.epd"
    game = find_game("chess")
    assert type(game.tree(auto.problems[0])).__name__ == "ChessTree"
    assert not isinstance(game.tree(auto.problems[0]), ChessTree)
    assert isinstance(game.tree(python.problems[0]), ChessTree)
    monkeypatch.setenv("HARNESS_PURE_PYTHON", "1")
    assert load_problems("chess:bench.epd").record["tree"] == "python"
    assert load_problems("chess:bench.epd,tree=compiled").record["tree"] == "compiled"


def test_a_compiled_tree_that_was_not_built_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled.BUILD, "built", None)
    with pytest.raises(HarnessError, match="tree=compiled, but the compiled chess tree was not built"):
        load_problems("chess:bench.epd,tree=compiled")
    assert resolve("auto") == "python"
    assert isinstance(chess_tree(chess.Board()), ChessTree)


def test_chess960_boards_get_the_python_tree() -> None:
    board = chess.Board.from_chess960_pos(100)
    assert isinstance(chess_tree(board), ChessTree)
    with pytest.raises(HarnessError, match="standard chess only"):
        CompiledTree(board)


def test_harness_run_records_the_tree_and_both_count_alike(tmp_path: Path) -> None:
    """``harness run`` on the same positions with each tree: run.json names the tree of
    each set, and every row but its set's name and its time is the same."""
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", "--problems", "chess:bench.epd,killers=1",
                                      "--problems", "chess:bench.epd,killers=1,tree=python",
                                      "--variants", "core", "--depth", "1-2", "--tt", "4096",
                                      "--null-move", "2", "--check-extension", "--limit", "3",
                                      "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    suites = json.loads((out / "run.json").read_text())["suites"]
    assert suites["bench.epd,killers=1"]["tree"] == "compiled"
    assert suites["bench.epd,killers=1,tree=python"]["tree"] == "python"
    rows = load_results(out)
    # The compiled tree searches in the compiled frame, the Python tree in the mypyc one.
    assert set(rows["frame"]) == {"compiled", "python"}
    frame = rows.drop(columns=["time_s", "frame"])
    compiled_rows, python_rows = (frame[frame["suite"] == name].drop(columns=["suite"])
                                  .reset_index(drop=True) for name in suites)
    assert len(compiled_rows) == 3 * 2 * 10
    assert compiled_rows.equals(python_rows)
