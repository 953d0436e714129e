"""The compiled frame (``harness/search/_engine.c``) is the Python frame, search by search.

On the compiled Connect Four tree (the native tree there is), every variant the engine
runs gives the same score, bound, best move, principal variation, status and every
counter in both frames: over positions from every phase of the game, partial and full
depths, tables from tiny (slots shared, replacement) to large, and every switch the frame
has (hash move, leaves in the table, narrowing hits, value bounds, a weak window,
iterative deepening, a node limit); Hypothesis draws more. The choice of frame is checked
too: what runs natively does, what cannot runs in Python. Skipped where the engine or the
compiled tree was not built.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from typing import Any

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.checkers import compiled as checkers_compiled
from harness.games.chess import compiled as chess_compiled
from harness.games.connect4 import compiled as connect4_compiled
from harness.games.connect4.compiled import connect4_tree
from harness.games.connect4.tree import board_from
from harness.games.othello import compiled as othello_compiled
from harness.games.othello.game import read_position
from harness.games.registry import find_game, load_problems
from harness.results import environment
from harness.search import VARIANTS, Switches, engine, make_spec, parse_variants, run, run_search
from harness.search.counters import Counters
from harness.search.run import SearchResult
from tests.twins import same

pytestmark = pytest.mark.skipif(
    engine.BUILT is None or not connect4_compiled.compiled_available(),
    reason="the compiled frame or the compiled Connect Four tree was not built")

NATIVE = [v.name for v in VARIANTS if v.native_loop is not None]
"""Every variant the compiled frame runs."""
ALPHA_BETA_FAMILY = [v.name for v in VARIANTS if v.native_loop is not None and (
    v.name in ("minimax", "alphabeta", "alphabeta-fs") or v.uses_table)]
"""The variants whose every pass is a loop of alphabeta.py (the MTD drivers')."""
WINDOWED = [name for name in NATIVE if name not in ALPHA_BETA_FAMILY]
"""The variants with loops of their own: PVS, NegaScout, Scout, Belle, zwp, aspiration."""
WITH_OPTIONS = [
    "pvs:zw_min_depth=3", "pvs:research_min_depth=2", "pvs-fs:zw_min_depth=2",
    "moreland:zw_min_depth=2,research_min_depth=2", "negascout:research_min_depth=2",
    "negascout-fs:research_min_depth=2", "zwp:improve=false", "zwp:researched_pv=false",
    "zwp-all:improve=false", "zwp-pv:researched_pv=false", "aspiration:inner=belle",
    "aspiration:inner=negascout,window=3", "aspiration:inner=zwp-pv,widen=double",
    "aspiration:inner=pvs-marsland,window=1", "aspiration:inner=alphabeta",
]
"""Every option of the loops, each a parameter of the compiled twin."""


PARAMETERS = engine.NativeLoop("alphabeta").parameters()
"""A loop's parameters as the engine takes them (the defaults)."""
NO_ENHANCEMENTS = (False, 0, "either", False)
"""The engine's quiescence, null move (R, rule) and check extension: off."""
FULL_WIDTH_RULES = (False, (), (), (), (), False, 0)
"""The engine's selective rules (SelectiveRules.engine_parameters): all off."""


def random_position(seed: int, stones: int) -> str:
    """A position of ``stones`` stones reached by seeded random play (no finished game)."""
    rng = random.Random(seed)
    while True:
        moves = ""
        tree = connect4_tree(board_from(""), "centre", False, compiled=True)
        for _ in range(stones):
            legal = tree.moves()
            if not legal:
                break
            column = rng.choice(legal)
            moves += str(column + 1)
            tree.push(column)
        if len(moves) == stones:
            return moves


POSITIONS = [random_position(seed, stones) for seed, stones in
             ((1, 30), (2, 34), (3, 24), (4, 20), (5, 14), (6, 8))]
"""End game to opening: the later ones searched to a partial depth."""


def both(moves: str, name: str, depth: int, switches: Switches, order: str = "threats",
         anticipate: bool = True, max_nodes: int | None = None) -> tuple[SearchResult, SearchResult]:
    """The search in the compiled frame and in the Python frame, on the compiled tree;
    ``name`` may carry options (``pvs:zw_min_depth=3``)."""
    results = []
    spec = parse_variants(name)[0]
    for native in (True, False):
        tree = connect4_tree(board_from(moves), order, anticipate, compiled=True)
        results.append(run_search(tree, spec, depth, switches, max_nodes=max_nodes,
                                  native=native))
    assert results[0].frame == "compiled" and results[1].frame in ("python", "pure-python")
    return results[0], results[1]



SWITCHES = [
    Switches(tt_size=1 << 16),
    Switches(tt_size=61),                                  # slots shared: replacement
    Switches(tt_size=1 << 16, hash_move=False),
    Switches(tt_size=1 << 12, tt_leaves=True, tt_narrow=True),
    Switches(tt_size=997, tt_narrow=True, iterative_deepening=True),
    Switches(tt_size=1 << 16, value_bounds=False),
    Switches(tt_size=1 << 16, window=(-1, 1)),
    Switches(iterative_deepening=True),
    Switches(iterative_deepening=True, refutations=True),
    Switches(tt_size=997, iterative_deepening=True, refutations=True),
    Switches(),
]


@pytest.mark.parametrize("name", ALPHA_BETA_FAMILY)
def test_every_variant_of_the_engine_searches_the_same_nodes(name: str) -> None:
    for moves in POSITIONS:
        full = 42 - len(moves)
        # The opening (8 stones) to 12, the rest to 16 or the end: the opening at 16 took
        # nine tenths of this test's time and reaches no path that 12 does not.
        depths = [3, 6] if name == "minimax" else [3, 7, min(full, 16 if len(moves) > 8 else 12)]
        for depth in depths:
            for switches in SWITCHES:
                same(*both(moves, name, depth, switches))


@pytest.mark.parametrize("name", WINDOWED + WITH_OPTIONS)
def test_every_windowed_loop_searches_the_same_nodes(name: str) -> None:
    """PVS, NegaScout, Scout, Belle, the note's zwp and aspiration over each, from the end
    game to the opening; the plain centre order without anticipation too (with threats
    first, most of these positions are settled in a few nodes)."""
    options = name not in WINDOWED      # a variant with an option: fewer searches
    for moves in POSITIONS:
        full = 42 - len(moves)
        depths = (2, 5) if options else (2, 5, min(full, 9 if len(moves) > 20 else 7))
        for depth in depths:
            for switches in SWITCHES:
                same(*both(moves, name, depth, switches))
    for moves in ("627555371161544327", "41366133", "5225"):
        for switches in SWITCHES[::4 if options else 2]:
            same(*both(moves, name, 6 if options else 7, switches, "centre", False))


def test_the_windowed_loops_make_tests_and_research_them() -> None:
    """What makes these loops differ happens in the diff tests: tests, re-searches and
    their nodes (nested ones counted once), on Othello's values."""
    board = read_position(list(load_problems("othello:phases.txt").problems)[10].position)[0]
    for name in ("pvs", "negascout", "negascout-fs", "scout", "zwp", "pvs-marsland", "belle"):
        native, python = (run_search(othello_compiled.CompiledTree(board), make_spec(name), 5,
                                     Switches(tt_size=1 << 12), native=native)
                          for native in (True, False))
        same(native, python)
        counts = native.counters
        assert counts["zw_searches"] > 0 and counts["researches"] > 0, name
        assert 0 < counts["research_nodes"] < counts["nodes"], name


def test_a_native_loop_s_parameters_are_its_fields_in_order() -> None:
    loop = engine.NativeLoop("zwp", True, False, 3, 2, False, True, True, False)
    assert loop.parameters() == dataclasses.astuple(loop)[1:]
    assert set(engine.BUILT.LOOPS) >= {v.native_loop({k: o.default for k, o in v.options.items()}).name
                                       for v in VARIANTS if v.native_loop is not None}


@pytest.mark.parametrize("limit", [1, 2, 10, 100, 1000])
def test_a_node_limit_stops_both_frames_at_the_same_node(limit: int) -> None:
    stopped = 0
    for name in ("alphabeta", "mtd-pons", "mt-sss"):
        native, python = both("4453", name, 12, Switches(tt_size=1 << 12), max_nodes=limit)
        same(native, python)
        stopped += native.status == "max-nodes"
    assert stopped


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), stones=st.integers(0, 38), name=st.sampled_from(NATIVE),
       depth=st.integers(1, 10), size=st.sampled_from([0, 7, 256, 1 << 14]),
       hash_move=st.booleans(), leaves=st.booleans(), narrow=st.booleans(),
       bounds=st.booleans(), deepening=st.booleans(), refutations=st.booleans())
def test_random_searches_agree(seed: int, stones: int, name: str, depth: int, size: int,
                               hash_move: bool, leaves: bool, narrow: bool, bounds: bool,
                               deepening: bool, refutations: bool) -> None:
    moves = random_position(seed, stones)
    switches = Switches(tt_size=size, hash_move=hash_move, tt_leaves=leaves, tt_narrow=narrow,
                        value_bounds=bounds, iterative_deepening=deepening,
                        refutations=refutations)
    # Minimax, Scout and the zwp loops without a table run to millions of nodes past these
    # depths near the start (zwp at 10 from the empty board: 190 million, most of a minute).
    deepest = 6 if name in ("minimax", "scout") else 7 if name.startswith("zwp") else depth
    same(*both(moves, name, min(depth, deepest), switches))


def test_searches_one_after_another_share_nothing() -> None:
    """The table is reused from search to search (stamped, not cleared): a search after
    others, and one made while another engine is alive, are the search made alone."""
    alone = both(POSITIONS[1], "mtd-pons", 8, Switches(tt_size=1 << 10))[0]
    for moves in POSITIONS:
        both(moves, "mtd-pons", 8, Switches(tt_size=1 << 10))
    tree = connect4_tree(board_from(POSITIONS[2]), "threats", True, compiled=True)
    kept = run.Search(tree)          # noqa: F841 -- alive while the next search runs
    other = engine.NativeSearch(tree, run.TranspositionTable(1 << 10),
                                engine.NativeLoop("alphabeta-fs"))
    again = both(POSITIONS[1], "mtd-pons", 8, Switches(tt_size=1 << 10))[0]
    del other
    same(again, alone)


def spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the frame each search is made in."""
    made: list[str] = []
    real = run.NativeSearch

    def native(*args: Any, **kwargs: Any) -> Any:
        made.append("compiled")
        return real(*args, **kwargs)

    monkeypatch.setattr(run, "NativeSearch", native)
    return made


def test_what_can_run_natively_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "PURE_PYTHON", False)
    made = spy(monkeypatch)
    tree = connect4_tree(board_from("4453"), "threats", True, compiled=True)
    for name in NATIVE:
        run_search(tree, make_spec(name), 3, Switches(tt_size=64))
    assert made == ["compiled"] * len(NATIVE)
    assert run_search(tree, make_spec("sss"), 3).frame == "compiled-best-first"
    assert engine.engine_in_use()
    assert environment()["compiled_frame"] is True         # run.json says which ran


def test_what_cannot_runs_in_the_python_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    made = spy(monkeypatch)
    compiled_tree = connect4_tree(board_from("4453"), "threats", True, compiled=True)
    python_tree = connect4_tree(board_from("4453"), "threats", True, compiled=False)
    run_search(python_tree, make_spec("sss"), 3)                   # best-first, in Python
    run_search(compiled_tree, make_spec("sss"), 3, trace=True)
    run_search(python_tree, make_spec("alphabeta"), 3)             # no native methods
    run_search(compiled_tree, make_spec("alphabeta"), 3, trace=True)   # an observer
    run_search(compiled_tree, make_spec("alphabeta"), 3, native=False)
    monkeypatch.setattr(engine, "PURE_PYTHON", True)     # HARNESS_PURE_PYTHON at start
    assert not engine.engine_in_use()
    assert environment()["compiled_frame"] is False
    run_search(compiled_tree, make_spec("alphabeta"), 3)
    assert made == []


class Wrapper:
    """A tree seen through another object that hands on every attribute (as ``harness
    check``'s ``RootedTree`` does), ``native_tree`` too."""

    def __init__(self, tree: Any) -> None:
        self._tree = tree

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tree, name)


def test_wrappers_keep_the_python_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine calls its C functions on the object whose capsule it holds: a wrapper,
    which hands on its tree's capsule (and may change what the methods answer), must not
    reach it. Once, one did, and the engine read the wrapper's memory as a board. (The C
    tree's type cannot be subclassed; its native_tree() answers None for a subclass all
    the same.)"""
    made = spy(monkeypatch)
    tree = connect4_tree(board_from("4453"), "centre", False, compiled=True)
    wrapped = Wrapper(tree)
    same(run_search(wrapped, make_spec("minimax"), 4),
         run_search(tree, make_spec("minimax"), 4, native=False))
    with pytest.raises(ValueError, match="no native methods of its own"):
        engine.BUILT.Engine(wrapped, "minimax", PARAMETERS, 0, True, False, False, False,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, Counters(), FULL_WIDTH_RULES)
    assert made == []


def test_harness_pure_python_keeps_every_search_in_python() -> None:
    code = ("from harness.search import engine; from harness.results import environment; "
            "print(engine.engine_in_use(), environment()['compiled_frame'])")
    for value, expected in (("1", "False False"), ("", "True True")):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "HARNESS_PURE_PYTHON": value}, check=True)
        assert done.stdout.split() == expected.split()


def test_bad_engines_are_exceptions() -> None:
    assert engine.BUILT is not None
    tree = connect4_tree(board_from(""), "threats", True, compiled=True)
    with pytest.raises(ValueError, match="loop sss"):
        engine.BUILT.Engine(tree, "sss", PARAMETERS, 0, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, Counters(), FULL_WIDTH_RULES)
    with pytest.raises(ValueError, match="not negative"):
        engine.BUILT.Engine(tree, "alphabeta", PARAMETERS, -1, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, Counters(), FULL_WIDTH_RULES)
    with pytest.raises(AttributeError):
        engine.BUILT.Engine(object(), "alphabeta", PARAMETERS, 0, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, Counters(), FULL_WIDTH_RULES)
    with pytest.raises(TypeError, match="by position"):
        engine.BUILT.Engine(tree, "alphabeta", PARAMETERS, 0, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, counters=Counters())
    with pytest.raises(TypeError):
        engine.BUILT.Engine(tree, "alphabeta", (1, 2), 0, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, Counters(), FULL_WIDTH_RULES)
    assert tuple(engine.BUILT.COUNTER_NAMES) == engine.COUNTER_NAMES


@pytest.mark.parametrize("name", ["mtdf", "mtd-bi", "mtd-pons", "mt-sss", "mt-dual"])
@pytest.mark.parametrize("passes", [1, 2, 3])
def test_the_pass_cap_stops_both_frames_at_the_same_pass(name: str, passes: int) -> None:
    """The MTD drivers' passes run in one call of the engine (``drivers.passes`` in C):
    stopped by ``max_passes`` they leave the same bound, move and status as the Python
    loop, with or without value bounds (the bounds start at infinity without them)."""
    statuses = set()
    for bounds in (True, False):
        for moves in POSITIONS[:4]:
            spec = make_spec(name, {"max_passes": str(passes)})
            results = [run_search(connect4_tree(board_from(moves), "threats", True, compiled=True),
                                  spec, 8, Switches(tt_size=1 << 12, value_bounds=bounds),
                                  native=native) for native in (True, False)]
            same(*results)
            assert results[0].counters["passes"] <= passes
            statuses.add(results[0].status)
    assert passes > 1 or statuses == {"pass-cap"}


def test_the_engine_has_every_rule_of_the_drivers_and_counts_every_counter() -> None:
    from harness.search.drivers import RULES
    assert set(engine.RULES) == set(RULES)
    assert set(Counters().as_dict()) == set(engine.COUNTER_NAMES)
    assert not any(Counters().as_dict().values())
    with pytest.raises(ValueError, match="no rule 9"):
        engine.BUILT.Engine(connect4_tree(board_from(""), "threats", True, compiled=True),
                            "alphabeta-fs", PARAMETERS, 0, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached,
                            Counters(), FULL_WIDTH_RULES).zero_window_passes(4, 10, 0, 9, -10, 10)


BOARD_SWITCHES = (Switches(), Switches(tt_size=1 << 12), Switches(tt_size=61, tt_leaves=True),
                  Switches(tt_size=1 << 12, iterative_deepening=True), Switches(window=(-1, 1)),
                  Switches(iterative_deepening=True, refutations=True))


def board_trees(game: str, ordering: str = "") -> list[Any]:
    """Compiled trees of positions from every phase of the game's suite, with the game
    options ``ordering`` (``,killers=1,history=1``)."""
    if game == "othello":
        problems = list(load_problems("othello:phases.txt" + ordering).problems)[::12]
        return [othello_compiled.CompiledTree(read_position(p.position)[0],
                                              bool(p.option("killers")), bool(p.option("history")))
                for p in problems]
    problems = list(load_problems("checkers:suite.txt" + ordering).problems)[::5]
    return [find_game("checkers").tree(p) for p in problems]


@pytest.mark.parametrize("ordering", ["", ",killers=1,history=1"])
@pytest.mark.parametrize("game", ["othello", "checkers"])
@pytest.mark.parametrize("name", NATIVE + WITH_OPTIONS[:4])
def test_board_games_search_the_same_nodes_in_both_frames(game: str, name: str,
                                                          ordering: str) -> None:
    """The compiled Othello and checkers trees are native too: Othello's passes and exact
    end-game values, checkers' jumps and draws by the quiet-move rule, every
    loop, in both frames; and the killers and history they learn from the compiled
    frame's native cutoff as from the Python frame's ``cutoff``."""
    built = (othello_compiled if game == "othello" else checkers_compiled).compiled_available()
    if not built:
        pytest.skip(f"the compiled {game} tree was not built")
    spec = parse_variants(name)[0]
    for i, tree in enumerate(board_trees(game, ordering)):
        depth = 2 if name == "minimax" else 2 + i % 3 + (game == "checkers")
        switches = BOARD_SWITCHES[i % len(BOARD_SWITCHES)]
        native = run_search(tree, spec, depth, switches)
        python = run_search(tree, spec, depth, switches, native=False)
        assert native.frame == "compiled"
        same(native, python)


CHESS_SWITCHES = (
    Switches(), Switches(tt_size=1 << 12), Switches(quiescence=False, tt_size=1 << 10),
    Switches(tt_size=1 << 10, null_move=2), Switches(null_move=3, null_rule="both",
                                                     check_extension=True, tt_size=997),
    Switches(check_extension=True, iterative_deepening=True, tt_size=1 << 12),
    Switches(tt_size=61, tt_leaves=True, tt_narrow=True), Switches(tt_size=1 << 14, tt_leaves=True),
    Switches(iterative_deepening=True, refutations=True),
    Switches(tt_size=1 << 10, null_move=2, iterative_deepening=True, refutations=True))
"""The frame's chess switches: quiescence, null move under both rules, check extension,
leaves in the table; tables that share slots."""


@pytest.mark.skipif(not chess_compiled.compiled_available(),
                    reason="the compiled chess tree was not built")
@pytest.mark.parametrize("ordering", ["", ",killers=1,history=1", ",mvv_lva=0"])
@pytest.mark.parametrize("name", NATIVE + WITH_OPTIONS[:4])
def test_chess_searches_the_same_nodes_in_both_frames(name: str, ordering: str) -> None:
    """The compiled chess tree is native with everything it offers the Python frame: its
    quiescence search (qnodes), null move, check extension, and the killers and history
    it learns from cut-offs. Its keys are tuples: the table compares their digests and
    takes its slot from their Python hash, as the Python table does (tested here by
    transpositions, and pieces on a1 and f8, whose hashes CPython folds together)."""
    spec = parse_variants(name)[0]
    problems = list(load_problems(f"chess:bench.epd{ordering}").problems)[:6]
    for i, problem in enumerate(problems):
        tree = find_game("chess").tree(problem)
        switches = CHESS_SWITCHES[(i + len(name)) % len(CHESS_SWITCHES)]
        depth = 2 if name in ("minimax", "scout") else 3
        native = run_search(tree, spec, depth, switches)
        python = run_search(tree, spec, depth, switches, native=False)
        assert native.frame == "compiled"
        same(native, python)


def test_an_engine_refuses_what_the_tree_does_not_offer() -> None:
    tree = connect4_tree(board_from(""), "threats", True, compiled=True)
    assert engine.BUILT.abilities(tree) == ()
    for enhancements, lacking in (((True, 0, "either", False), "quiescence"),
                                  ((False, 2, "either", False), "null move"),
                                  ((False, 0, "either", True), "checks")):
        with pytest.raises(ValueError, match=f"offers no native {lacking}"):
            engine.BUILT.Engine(tree, "alphabeta", PARAMETERS, 0, True, False, False, True,
                                *enhancements, run.NodeLimitReached, Counters(), FULL_WIDTH_RULES)
    with pytest.raises(ValueError, match="the rule either or both"):
        engine.BUILT.Engine(tree, "alphabeta", PARAMETERS, 0, True, False, False, True,
                            False, 1, "sometimes", False, run.NodeLimitReached, Counters(),
                            FULL_WIDTH_RULES)
    with pytest.raises(ValueError, match="offers no native selective"):
        engine.BUILT.Engine(tree, "alphabeta", PARAMETERS, 0, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, Counters(),
                            (True, (), (), (), (), False, 0))
    with pytest.raises(ValueError, match="a tuple of at most 16 ints"):
        engine.BUILT.Engine(tree, "alphabeta", PARAMETERS, 0, True, False, False, True,
                            *NO_ENHANCEMENTS, run.NodeLimitReached, Counters(),
                            (False, (), (100,) * 17, (), (), False, 0))
    if chess_compiled.compiled_available():
        chess = find_game("chess").tree(next(iter(load_problems("chess:bench.epd").problems)))
        assert engine.BUILT.abilities(chess) == ("quiescence", "null move", "checks", "selective")



DRAWN_GAMES = (
    ("6k1/q5p1/8/7Q/8/pppp4/6PP/7K w - - 0 1", ()),                       # a perpetual check
    ("4k3/8/8/8/8/3q4/8/4K3 w - - 95 80", ()),                          # the fifty-move rule
    (chess.STARTING_FEN, ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6")),   # the game repeats
)
"""Chess positions with draws below the root (repetition=1): of the path, of the clock,
of the game before the root."""


@pytest.mark.skipif(not chess_compiled.compiled_available(),
                    reason="the compiled chess tree was not built")
@pytest.mark.parametrize("name", NATIVE + WITH_OPTIONS[:4])
def test_chess_draws_search_the_same_nodes_in_both_frames(name: str) -> None:
    """With draws by repetition and the fifty-move rule on, the compiled tree answers the
    compiled frame's C calls as it answers the Python frame's methods: the same nodes,
    the same draws counted."""
    spec = parse_variants(name)[0]
    draws = 0
    for i, (fen, moves) in enumerate(DRAWN_GAMES):
        board = chess.Board(fen)
        for move in moves:
            board.push_uci(move)
        tree = chess_compiled.CompiledTree(board, draws=True)
        switches = CHESS_SWITCHES[(i + len(name)) % len(CHESS_SWITCHES)]
        depth = 3 if name in ("minimax", "scout") else 4
        native = run_search(tree, spec, depth, switches, max_nodes=300_000)
        python = run_search(tree, spec, depth, switches, max_nodes=300_000, native=False)
        assert native.frame == "compiled"
        same(native, python)
        draws += native.tree_counters["repetition_draws"]
    assert draws > 0
