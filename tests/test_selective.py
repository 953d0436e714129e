"""The selective switches (``harness/search/selective.py``, docs/selective.md).

Each switch alone does what it says on a chess position (its counter moves, the tree it
changes shrinks); every switch is the same in both frames, node for node, for every kind
of loop; the compiled chess tree and the python-chess one agree on which moves are quiet
(checks included); a tree without what a switch needs searches without it; and the run's
record and summary say a run was selective.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import cli
from harness.games.chess import compiled as chess_compiled
from harness.games.chess.tree import ChessTree, Ordering
from harness.games.registry import find_game, load_problems
from harness.search import Switches, engine, make_spec, parse_variants, run_search
from harness.search.counters import SELECTIVE_COUNTERS
from harness.search.run import SearchResult, switches_from_json
from harness.search.selective import (
    IID_DEPTH,
    IID_REDUCTION,
    LATE_MOVE_REDUCTIONS,
    MATE_WINDOW,
    SWITCHES,
    Selectivity,
    reduction,
)
from tests.twins import same

needs_compiled_chess = pytest.mark.skipif(
    not chess_compiled.compiled_available(), reason="the compiled chess tree was not built")

MIDDLE_GAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"
"""A quiet Queen's Gambit position: many quiet moves, nothing forced."""
MATE_IN_TWO = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
"""WAC.002's position: Qg6 mates in two (a mate three plies deep)."""
ALL_ON = Selectivity(**{name: True for name in SWITCHES})
ONE_EACH = [Selectivity(**{name: True}) for name in SWITCHES]
CLASSIC = dict(tt_size=1 << 16, iterative_deepening=True, null_move=2, check_extension=True)
"""Today's best full-width configuration, under which each switch is tried."""
COUNTER_OF = {
    "late_move_reductions": "reductions", "late_move_pruning": "late_move_prunes",
    "futility": "futility_prunes", "reverse_futility": "reverse_futility_cutoffs",
    "razoring": "razor_cutoffs", "internal_iterative_deepening": "iid_searches",
    "mate_distance": "mate_distance_cutoffs",
}


def chess_search(fen: str, variant: str, depth: int, selectivity: Selectivity,
                 native: bool = True, tree: str = "compiled", **switches: object) -> SearchResult:
    board = chess.Board(fen)
    ordering = Ordering(killers=True, history=True)
    made = (chess_compiled.CompiledTree(board, ordering) if tree == "compiled"
            else ChessTree(board, ordering))
    chosen = Switches(**{**CLASSIC, **switches}, selectivity=selectivity)   # type: ignore[arg-type]
    return run_search(made, parse_variants(variant)[0], depth, chosen, native=native)



def test_the_reduction_table() -> None:
    assert [reduction(d, k) for d, k in ((2, 10), (3, 2), (3, 3), (5, 20), (6, 11), (6, 12))] \
        == [0, 0, 1, 1, 1, 2]
    assert all(reduction(d, k) <= d - 2 for d in range(3, 30) for k in range(60))


@pytest.mark.skipif(engine.BUILT is None, reason="the compiled frame was not built")
def test_the_compiled_frame_has_the_same_numbers() -> None:
    assert engine.BUILT.LATE_MOVE_REDUCTIONS == LATE_MOVE_REDUCTIONS
    assert (engine.BUILT.IID_DEPTH, engine.BUILT.IID_REDUCTION, engine.BUILT.MATE_WINDOW) \
        == (IID_DEPTH, IID_REDUCTION, MATE_WINDOW)


@needs_compiled_chess
@pytest.mark.parametrize("switch", SWITCHES)
def test_each_switch_alone_does_what_it_says(switch: str) -> None:
    """Its counter moves, and the tree shrinks (the best move of a quiet position stays a
    legal one; a forced mate is still found, at the same distance)."""
    fen = MATE_IN_TWO if switch == "mate_distance" else MIDDLE_GAME
    off = chess_search(fen, "pvs", 6, Selectivity())
    on = chess_search(fen, "pvs", 6, Selectivity(**{switch: True}))
    assert on.counters[COUNTER_OF[switch]] > 0
    assert not any(off.counters[name] for name in SELECTIVE_COUNTERS)
    others = set(SELECTIVE_COUNTERS) - {COUNTER_OF[switch], "reduction_researches",
                                        "razor_searches"}
    assert not any(on.counters[name] for name in others)
    if switch == "internal_iterative_deepening":    # it reorders: no fewer nodes promised
        assert on.counters["nodes"] != off.counters["nodes"]
    else:
        assert on.counters["nodes"] < off.counters["nodes"]
    if switch == "mate_distance":
        assert on.score == off.score == 30_000 - 3 and on.best_move == off.best_move == "g3g6"


@needs_compiled_chess
def test_every_switch_together_shrinks_the_tree_and_keeps_the_mate() -> None:
    off = chess_search(MIDDLE_GAME, "pvs", 7, Selectivity())
    on = chess_search(MIDDLE_GAME, "pvs", 7, ALL_ON)
    assert on.counters["nodes"] * 4 < off.counters["nodes"]
    assert on.counters["reduction_researches"] <= on.counters["reductions"]
    assert on.counters["razor_cutoffs"] <= on.counters["razor_searches"]
    for variant in ("alphabeta", "pvs", "negascout"):
        mate = chess_search(MATE_IN_TWO, variant, 6, ALL_ON)
        assert (mate.score, mate.best_move) == (30_000 - 3, "g3g6")


@needs_compiled_chess
@pytest.mark.skipif(engine.BUILT is None, reason="the compiled frame was not built")
@pytest.mark.parametrize("variant", ["alphabeta", "alphabeta-fs", "pvs", "pvs-fs", "negascout",
                                     "moreland", "belle", "zwp", "scout", "mtdf",
                                     "aspiration:inner=negascout,window=25"])
def test_both_frames_reduce_and_prune_alike(variant: str) -> None:
    """Score, bound, best move, line and every counter, each switch alone and all together."""
    depth = 4 if variant == "scout" else 5
    for i, selectivity in enumerate([ALL_ON, *ONE_EACH]):
        fen = (MATE_IN_TWO, MIDDLE_GAME)[i % 2]
        native = chess_search(fen, variant, depth, selectivity)
        python = chess_search(fen, variant, depth, selectivity, native=False)
        assert native.frame == "compiled" and python.frame != "compiled"
        same(native, python)


@needs_compiled_chess
@pytest.mark.skipif(engine.BUILT is None, reason="the compiled frame was not built")
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 11), st.sampled_from(["alphabeta-fs", "pvs", "negascout", "mtdf"]),
       st.lists(st.booleans(), min_size=len(SWITCHES), max_size=len(SWITCHES)),
       st.booleans(), st.sampled_from([0, 2, 3]), st.integers(2, 5))
def test_both_frames_agree_on_drawn_switches(index: int, variant: str, on: list[bool],
                                             checks: bool, null: int, depth: int) -> None:
    problem = list(load_problems("chess:bench.epd,killers=1,history=1").problems)[index]
    selectivity = Selectivity(**dict(zip(SWITCHES, on, strict=True)))
    switches = Switches(tt_size=1 << 12, iterative_deepening=True, null_move=null,
                        check_extension=checks, selectivity=selectivity)
    native = run_search(find_game("chess").tree(problem), make_spec(variant), depth, switches)
    python = run_search(find_game("chess").tree(problem), make_spec(variant), depth, switches,
                        native=False)
    same(native, python)


@needs_compiled_chess
def test_the_python_chess_tree_prunes_as_the_compiled_one() -> None:
    """Both trees call the same moves tactical (captures, promotions, checks) and declare
    the same margins, so they search the same selective tree."""
    for fen in (MIDDLE_GAME, MATE_IN_TWO):
        compiled = chess_search(fen, "pvs", 5, ALL_ON, native=False)
        python = chess_search(fen, "pvs", 5, ALL_ON, native=False, tree="python")
        same(compiled, python)
    board = chess.Board("4k3/8/8/8/8/8/4P3/R3K3 w Q - 0 1")
    compiled_tree = chess_compiled.CompiledTree(board)
    python_tree = ChessTree(board)
    for move in python_tree.moves():
        assert python_tree.tactical(move) == compiled_tree.tactical(  # type: ignore[attr-defined]
            compiled_tree.moves()[list(python_tree.moves()).index(move)])
    assert python_tree.tactical(chess.Move.from_uci("a1a8"))          # a check
    assert not python_tree.tactical(chess.Move.from_uci("a1a7"))
    assert compiled_tree.selective_margins == python_tree.selective_margins  # type: ignore[attr-defined]


def test_a_tree_without_quiet_moves_searches_only_with_what_it_can() -> None:
    """A random tree declares no margins and no quiet moves: every switch that needs them
    is off (its counters stay 0, its tree unchanged); internal iterative deepening needs a
    table only, and runs."""
    problem = next(iter(load_problems("random:b=5,d=6,n=1,seed=3").problems))
    tree = find_game(problem.game).tree(problem)
    plain = run_search(tree, make_spec("pvs"), 6, Switches(tt_size=1 << 12))
    selective = run_search(tree, make_spec("pvs"), 6, Switches(tt_size=1 << 12,
                                                               selectivity=ALL_ON))
    assert selective.counters["iid_searches"] > 0
    assert not any(selective.counters[name] for name in SELECTIVE_COUNTERS
                   if name != "iid_searches")
    without_iid = dataclasses.replace(ALL_ON, internal_iterative_deepening=False)
    same(plain, run_search(tree, make_spec("pvs"), 6, Switches(tt_size=1 << 12,
                                                               selectivity=without_iid)))


@pytest.mark.skipif(engine.BUILT is None, reason="the compiled frame was not built")
def test_internal_iterative_deepening_alone_runs_natively_on_a_tree_without_quiet_moves() -> None:
    """Connect Four's native tree has no tactical(): internal iterative deepening, which
    needs only a table, runs in the compiled frame, as the Python frame runs it."""
    for moves in ("4453", "start"):
        problem = next(iter(load_problems(f"connect4:{moves}").problems))
        switches = Switches(tt_size=1 << 16, selectivity=Selectivity(
            internal_iterative_deepening=True))
        native = run_search(find_game("connect4").tree(problem), make_spec("pvs"), 9, switches)
        python = run_search(find_game("connect4").tree(problem), make_spec("pvs"), 9, switches,
                            native=False)
        assert native.frame == "compiled" and native.counters["iid_searches"] > 0
        same(native, python)


def test_the_switches_survive_run_json() -> None:
    switches = Switches(tt_size=8, window=(-1, 1), selectivity=Selectivity(futility=True))
    assert switches_from_json(json.loads(json.dumps(dataclasses.asdict(switches)))) == switches
    # A run's worker processes receive them pickled (compiled, a frozen dataclass needs
    # its own __reduce__ for that).
    assert pickle.loads(pickle.dumps(switches)) == switches
    assert pickle.loads(pickle.dumps(ALL_ON)) == ALL_ON
    older = dataclasses.asdict(Switches())
    del older["selectivity"]                  # a run.json from before the switches
    assert switches_from_json(older) == Switches()


@needs_compiled_chess
def test_a_selective_run_says_so(tmp_path: object) -> None:
    out = f"{tmp_path}/run"
    result = CliRunner().invoke(cli, [
        "run", "--suite", "bench.epd", "--limit", "2", "--variants", "alphabeta,pvs",
        "--depth", "4", "--tt", "4096", "--lmr", "--futility", "--out", out, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "answers not cross-checked: selective search (late_move_reductions, futility)" \
        in result.output
    info = json.loads(Path(out, "run.json").read_text(encoding="utf-8"))
    assert info["config"]["switches"]["selectivity"]["futility"] is True
    header = Path(out, "results.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert set(SELECTIVE_COUNTERS) <= set(header)
    resumed = CliRunner().invoke(cli, ["run", "--resume", out, "--no-progress"])
    assert resumed.exit_code == 0, resumed.output


def test_a_switch_no_game_offers_is_a_warning(tmp_path: object) -> None:
    result = CliRunner().invoke(cli, [
        "run", "--problems", "random:b=3,d=3,n=2", "--variants", "pvs", "--lmr",
        "--out", f"{tmp_path}/run", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "--lmr, --lmp, --futility" in result.output and "offers" in result.output
