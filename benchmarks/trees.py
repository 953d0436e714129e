"""``trees``: nodes per second of the harness's ``alphabeta`` on synthetic trees, and its
time against a bare recursive alpha-beta over the same flat arrays, written here.

The bare loop is the textbook fail-hard alpha-beta on the tree's ``first``, ``kids`` and
``values`` arrays (see ``harness/games/trees/arrays.py``), counting each call as a node as the
harness does; node counts and root scores must be equal. Only the searches are timed,
never the tree generation.

The harness runs its search core as installed: compiled with mypyc where the install found
a C compiler (``harness/search/compiled.py``). The same timing is then repeated in a
worker process with the core run from source (``HARNESS_PURE_PYTHON=1``), reported for
information: what a machine without a compiler gets.
"""

from __future__ import annotations

import json
import sys
import time
from array import array
from collections.abc import Callable
from functools import partial
from typing import Any

from benchmarks.common import Figure, Outcome, Target, median, run_worker, spread, timed
from harness.games.trees import ArrayTree, generate_tree, parse_spec
from harness.search import compiled
from harness.search.registry import make_spec
from harness.search.run import Switches, run_search

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


def time_searches(spec_text: str, count: int, repeats: int) -> dict[str, Any]:
    """Both searches on the first ``count`` trees of ``spec_text``, checked equal once
    (untimed), then timed interleaved, order alternating per repeat: per repeat, the sums
    over the trees of each side's wall and CPU seconds."""
    spec = parse_spec(spec_text)
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
    return {"nodes": nodes, "harness_s": harness_s, "harness_cpu_s": harness_cpu,
            "bare_s": bare_s, "bare_cpu_s": bare_cpu, "generation_s": generation,
            "compiled_search": compiled.compiled_in_use()}


def measure(mode: str, repeats: int | None = None, spec_text: str = SPEC) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    spec = parse_spec(spec_text)
    count = min(spec.count, TREES[mode])
    depth = spec.depth
    timings = time_searches(spec_text, count, repeats)
    nodes = timings["nodes"]
    harness_s, bare_s = timings["harness_s"], timings["bare_s"]
    harness_cpu, bare_cpu = timings["harness_cpu_s"], timings["bare_cpu_s"]
    rate = nodes / median(harness_s)
    ratio = median(harness_s) / median(bare_s)
    cpu_ratio = median(harness_cpu) / median(bare_cpu)
    # The same measurement with the search core run from source, in a worker process (a
    # process imports one core or the other): what a machine without a compiler gets.
    source = run_worker("benchmarks.trees", ["--time", spec_text, str(count), str(repeats)],
                        environment={"HARNESS_PURE_PYTHON": "1"})
    if source["compiled_search"]:
        raise AssertionError("the source-core worker ran the compiled core")
    source_ratio = median(source["harness_s"]) / median(source["bare_s"])
    details: dict[str, Any] = {
        "spec": str(spec), "trees": count, "depth": depth, "nodes": nodes,
        "compiled_search": timings["compiled_search"],
        "harness_s": spread(harness_s), "bare_s": spread(bare_s),
        "harness_cpu_s": spread(harness_cpu), "bare_cpu_s": spread(bare_cpu),
        "cpu_ratio": round(cpu_ratio, 4), "harness_cpu_nodes_per_s": round(nodes / median(harness_cpu)),
        "harness_nodes_per_s": round(rate), "bare_nodes_per_s": round(nodes / median(bare_s)),
        "ratio": round(ratio, 4), "generation_s_untimed": round(timings["generation_s"], 2),
        "source_core": {"harness_s": spread(source["harness_s"]), "bare_s": spread(source["bare_s"]),
                        "ratio": round(source_ratio, 4),
                        "harness_nodes_per_s": round(nodes / median(source["harness_s"]))},
    }
    core = "compiled search core" if timings["compiled_search"] else "search core from source"
    figures = [
        Figure("harness alphabeta nodes/s", rate, "nodes/s", RATE_TARGET,
               f"{core}; {nodes:,} nodes over {count} trees in {median(harness_s):.3f}s; "
               f"by CPU time {nodes / median(harness_cpu):,.0f}"),
        Figure("time harness/bare", ratio, "x", RATIO_TARGET,
               f"{core}; node counts equal; bare {nodes / median(bare_s):,.0f} nodes/s; "
               f"CPU-time ratio {cpu_ratio:.3f}"),
        Figure("time harness/bare, core from source", source_ratio, "x", None,
               "HARNESS_PURE_PYTHON=1 in a worker process, both sides timed again there "
               "(a machine without a C compiler); for information"),
    ]
    method = (f"harness alphabeta (run_search, no table; {core}) vs a bare recursive fail-hard "
              f"loop over the same arrays, on the first {count} trees of {spec} searched to depth "
              f"{depth}; each timing sums the {count} searches (generation untimed); median of "
              f"{repeats} interleaved repeats; then the same in a worker with the core from source.")
    return Outcome("trees", figures, repeats, mode, method, details, time.perf_counter() - start)


if __name__ == "__main__":                       # the worker: python -m benchmarks.trees --time SPEC N R
    if sys.argv[1:2] != ["--time"] or len(sys.argv) != 5:
        sys.exit("usage: python -m benchmarks.trees --time SPEC COUNT REPEATS")
    print(json.dumps(time_searches(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
