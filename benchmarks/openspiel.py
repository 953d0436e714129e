"""``openspiel``: the harness's ``minimax`` on OpenSpiel's full tic-tac-toe tree against a
bare recursive loop over ``pyspiel.State.child``, in the same process.

The bare loop is the least a search of an OpenSpiel game can do: at each state, stop at
the end of the game (reading the returns, as a search reads a terminal value), else make
every child with ``State.child`` and recurse, counting each state as a node. The harness
searches the same tree to its end (depth 9) with ``minimax`` and no table: 549,946 nodes
on both sides (the counts must be equal, else the benchmark stops). Both are timed in
interleaved repeats; the figure is the ratio of the medians (target <= 1.3).

``python -m benchmarks.openspiel --perft N`` is a check run by hand, not a figure: minimax
on checkers from the start to depths 1 to N, each count against 1 + the sum of the
standard perft counts (the suite checks depths 1-6; 7 and 8 take a while).
"""

from __future__ import annotations

import sys
import time
from functools import partial
from typing import Any

from benchmarks.common import Figure, Outcome, Target, median, spread, timed
from harness.errors import HarnessError
from harness.games.base import Tree
from harness.games.openspiel.game import load_game, openspiel_tree
from harness.run.executors import collector_paused
from harness.search.registry import VariantSpec, make_spec
from harness.search.run import run_search

RATIO_TARGET = Target("<=", 1.3)
NODES = 549_946
"""tic-tac-toe's states, the initial one included: the nodes of both sides."""
REPEATS = {"full": 5, "quick": 3}
CHECKERS_PERFT = (7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931)


def bare_count(state: Any) -> int:
    """The states of the tree below ``state`` (itself included), each made with
    ``State.child``; the returns read at each end of the game."""
    if state.is_terminal():
        state.returns()
        return 1
    nodes = 1
    for action in state.legal_actions():
        nodes += bare_count(state.child(action))
    return nodes


def harness_count(tree: Tree, spec: VariantSpec, depth: int) -> int:
    """A search of ``tree`` to ``depth``: the nodes counted."""
    return int(run_search(tree, spec, depth).counters["nodes"])


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    try:
        game = load_game("tic_tac_toe")
    except HarnessError as exc:                 # the extra is not installed
        why = str(exc)
        figure = Figure("minimax time / bare State.child loop", None, "x", RATIO_TARGET, why)
        return Outcome("openspiel", [figure], 0, mode, f"not available: {why}", {},
                       time.perf_counter() - start)
    bare_s: list[float] = []
    harness_s: list[float] = []
    spec = make_spec("minimax")
    for _ in range(repeats):
        # Both with the cyclic collector paused, as a run's job searches (collector_paused).
        with collector_paused():
            seconds, _, nodes = timed(partial(bare_count, game.new_initial_state()))
        if nodes != NODES:
            raise AssertionError(f"the bare loop counted {nodes:,} states, not {NODES:,}")
        bare_s.append(seconds)
        tree = openspiel_tree("tic_tac_toe")      # made before the clock starts, as the bare root
        with collector_paused():
            seconds, _, nodes = timed(partial(harness_count, tree, spec, tree.height))
        if nodes != NODES:
            raise AssertionError(f"minimax counted {nodes:,} nodes, not {NODES:,}")
        harness_s.append(seconds)
    ratio = median(harness_s) / median(bare_s)
    figures = [
        Figure("minimax time / bare State.child loop", ratio, "x", RATIO_TARGET,
               f"tic-tac-toe's full tree, {NODES:,} nodes on both sides"),
        Figure("minimax nodes/s", NODES / median(harness_s), "nodes/s", None, "for information"),
        Figure("bare State.child loop nodes/s", NODES / median(bare_s), "nodes/s", None,
               "for information"),
    ]
    details = {"nodes": NODES, "harness_s": spread(harness_s), "bare_s": spread(bare_s)}
    method = (f"minimax (no table) on OpenSpiel's tic-tac-toe from the empty board to the end, "
              f"against a bare recursive loop over State.child reading the returns at each end, "
              f"both with Python's cyclic collector paused as a run's job searches; "
              f"{repeats} interleaved repeats, medians; node counts equal ({NODES:,}).")
    return Outcome("openspiel", figures, repeats, mode, method, details, time.perf_counter() - start)


def perft_check(deepest: int) -> None:
    """minimax on checkers to depths 1 to ``deepest``: nodes against the perft counts."""
    tree = openspiel_tree("checkers")
    for depth in range(1, deepest + 1):
        start = time.perf_counter()
        nodes = int(run_search(tree, make_spec("minimax"), depth).counters["nodes"])
        expected = 1 + sum(CHECKERS_PERFT[:depth])
        verdict = "ok" if nodes == expected else f"DIFFERS from {expected:,}"
        print(f"depth {depth}: {nodes:,} nodes ({verdict}), {time.perf_counter() - start:.1f} s",
              flush=True)
        if nodes != expected:
            sys.exit(1)


if __name__ == "__main__":           # by hand: python -m benchmarks.openspiel --perft 8
    if sys.argv[1:2] != ["--perft"] or len(sys.argv) != 3 or not sys.argv[2].isdigit() \
            or not 1 <= int(sys.argv[2]) <= len(CHECKERS_PERFT):
        sys.exit(f"usage: python -m benchmarks.openspiel --perft N (N from 1 to {len(CHECKERS_PERFT)})")
    perft_check(int(sys.argv[2]))
