"""``trees``: nodes per second of the harness's ``alphabeta`` on synthetic trees, and its
time against a bare recursive alpha-beta over the same flat arrays, written here.

The bare loop is the textbook fail-hard alpha-beta on the tree's ``first``, ``kids`` and
``values`` arrays (see ``harness/trees/arrays.py``), counting each call as a node as the
harness does; node counts and root scores must be equal. Only the searches are timed,
never the tree generation.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from functools import partial
from typing import Any

from benchmarks.common import Figure, Outcome, Target, median, spread, timed
from harness.search.registry import make_spec
from harness.search.run import Switches, run_search
from harness.trees import ArrayTree, generate_tree, parse_spec

SPEC = "random:b=8,d=7,n=20"
RATE_TARGET = Target(">=", 500_000)
RATIO_TARGET = Target("<=", 1.3)
REPEATS = {"full": 5, "quick": 3}
TREES = {"full": 20, "quick": 5}

INF = 1_000_000_000


def bare_alphabeta(first: array[int], kids: array[int], values: array[int],
                   depth: int) -> tuple[int, int]:
    """Fail-hard alpha-beta from the root (node 0) to ``depth``: ``(score, nodes)``."""
    nodes = 0

    def search(n: int, depth: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        lo, hi = first[n], first[n + 1]
        if depth <= 0 or lo == hi:
            return values[n]
        for child in kids[lo:hi]:
            v = -search(child, depth - 1, -beta, -alpha)
            if v >= beta:
                return beta
            if v > alpha:
                alpha = v
        return alpha

    score = search(0, depth, -INF, INF)
    return score, nodes


def harness_alphabeta(tree: ArrayTree, depth: int) -> tuple[int, int]:
    """The harness's ``alphabeta`` variant through ``run_search`` (every counter on, as
    always; no table): ``(score, nodes)``."""
    result = run_search(tree, make_spec("alphabeta"), depth, Switches())
    assert result.score is not None
    return result.score, result.counters["nodes"]


def measure(mode: str, repeats: int | None = None, spec_text: str = SPEC) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    spec = parse_spec(spec_text)
    count = min(spec.count, TREES[mode])
    depth = spec.depth
    harness_s, harness_cpu = [0.0] * repeats, [0.0] * repeats
    bare_s, bare_cpu = [0.0] * repeats, [0.0] * repeats
    nodes = 0
    generation = 0.0
    for index in range(count):
        seconds, _, tree = timed(partial(generate_tree, spec, index))
        generation += seconds
        h_score, h_nodes = harness_alphabeta(tree, depth)        # check once, untimed
        b_score, b_nodes = bare_alphabeta(tree.first, tree.kids, tree.values, depth)
        if (h_score, h_nodes) != (b_score, b_nodes):
            raise AssertionError(f"tree {index}: harness (score, nodes) {(h_score, h_nodes)} "
                                 f"!= bare {(b_score, b_nodes)}")
        nodes += h_nodes
        runs: list[tuple[list[float], list[float], Callable[[], tuple[int, int]]]] = [
            (harness_s, harness_cpu, partial(harness_alphabeta, tree, depth)),
            (bare_s, bare_cpu, partial(bare_alphabeta, tree.first, tree.kids, tree.values, depth))]
        for r in range(repeats):                 # interleaved, order alternating per repeat
            for wall_sink, cpu_sink, function in runs if r % 2 == 0 else runs[::-1]:
                seconds, cpu_seconds, _ = timed(function)
                wall_sink[r] += seconds
                cpu_sink[r] += cpu_seconds
        del tree, runs                            # free the arrays before the next tree
    rate = nodes / median(harness_s)
    ratio = median(harness_s) / median(bare_s)
    cpu_ratio = median(harness_cpu) / median(bare_cpu)
    details: dict[str, Any] = {
        "spec": str(spec), "trees": count, "depth": depth, "nodes": nodes,
        "harness_s": spread(harness_s), "bare_s": spread(bare_s),
        "harness_cpu_s": spread(harness_cpu), "bare_cpu_s": spread(bare_cpu),
        "cpu_ratio": round(cpu_ratio, 4), "harness_cpu_nodes_per_s": round(nodes / median(harness_cpu)),
        "harness_nodes_per_s": round(rate), "bare_nodes_per_s": round(nodes / median(bare_s)),
        "ratio": round(ratio, 4), "generation_s_untimed": round(generation, 2),
    }
    figures = [
        Figure("harness alphabeta nodes/s", rate, "nodes/s", RATE_TARGET,
               f"{nodes:,} nodes over {count} trees in {median(harness_s):.3f}s; "
               f"by CPU time {nodes / median(harness_cpu):,.0f}"),
        Figure("time harness/bare", ratio, "x", RATIO_TARGET,
               f"node counts equal; bare {nodes / median(bare_s):,.0f} nodes/s; "
               f"CPU-time ratio {cpu_ratio:.3f}"),
    ]
    method = (f"harness alphabeta (run_search, no table) vs a bare recursive fail-hard loop over "
              f"the same arrays, on the first {count} trees of {spec} searched to depth {depth}; "
              f"each timing sums the {count} searches (generation untimed); median of {repeats} "
              "interleaved repeats.")
    return Outcome("trees", figures, repeats, mode, method, details, time.perf_counter() - start)
