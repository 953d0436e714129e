"""``othello``: nodes per second of the compiled Othello tree, and of the Python tree in
the same run, on the project's suite (``othello:phases.txt``).

The configuration is Plaat's: ``mtdf`` with iterative deepening and a table of 2^20
entries, every position of the suite (20 to 51 discs) to one depth. The compiled
searches are timed ``repeats`` times (median); the Python tree's once, and every counter
and score of every search must be equal between the two trees (the benchmark stops
otherwise). The figure is the compiled rate (target: 1,000,000 nodes/s), the ratio to
the Python tree's beside it.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from benchmarks.common import Figure, Outcome, Target, median, spread, timed
from harness.games.base import Problem, Tree
from harness.games.othello.compiled import compiled_available, othello_tree
from harness.games.othello.game import read_position
from harness.games.registry import load_problems
from harness.search.registry import VariantSpec, make_spec
from harness.search.run import Switches, run_search

RATE_TARGET = Target(">=", 1_000_000)
VARIANT = "mtdf"
TT_SIZE = 1 << 20
DEPTH = {"full": 7, "quick": 5}
REPEATS = {"full": 3, "quick": 2}


def search(tree: Tree, depth: int, spec: VariantSpec) -> dict[str, Any]:
    """One search with the benchmark's configuration: its counters and score."""
    result = run_search(tree, spec, depth, Switches(tt_size=TT_SIZE, iterative_deepening=True))
    return {"score": result.score, **result.counters}


def time_sample(problems: list[Problem], depth: int, repeats: int) -> dict[str, Any]:
    """Both trees on ``problems``: the Python tree's searches timed once and compared with
    the compiled tree's, then the compiled searches timed ``repeats`` times (trees built
    and the variant read before, untimed)."""
    spec = make_spec(VARIANT)
    boards = [read_position(p.position)[0] for p in problems]
    nodes = 0
    python_s = 0.0
    for problem, board in zip(problems, boards, strict=True):
        seconds, _, slow = timed(partial(search, othello_tree(board, compiled=False), depth, spec))
        python_s += seconds
        fast = search(othello_tree(board, compiled=True), depth, spec)
        if fast != slow:
            raise AssertionError(f"othello {problem.problem_id}: the compiled tree's search differs "
                                 f"from the Python tree's: {fast} != {slow}")
        nodes += int(fast["nodes"])
    compiled_s = [0.0] * repeats
    for r in range(repeats):
        trees = [othello_tree(board, compiled=True) for board in boards]
        for tree in trees:
            seconds, _, _ = timed(partial(search, tree, depth, spec))
            compiled_s[r] += seconds
    return {"nodes": nodes, "compiled_s": compiled_s, "python_s": python_s}


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    name = f"{VARIANT} nodes/s, compiled tree"
    if not compiled_available():
        why = "the compiled Othello tree was not built"
        return Outcome("othello", [Figure(name, None, "nodes/s", RATE_TARGET, why)], 0, mode,
                       f"not available: {why}", {}, time.perf_counter() - start)
    problems = list(load_problems("othello:phases.txt").problems)
    depth = DEPTH[mode]
    sample = time_sample(problems, depth, repeats)
    nodes = sample["nodes"]
    rate = nodes / median(sample["compiled_s"])
    python_rate = nodes / sample["python_s"]
    figures = [
        Figure(name, rate, "nodes/s", RATE_TARGET,
               f"{nodes:,} nodes on the {len(problems)} positions of phases.txt at depth {depth}; "
               "every counter equal to the Python tree's"),
        Figure("the same, Python tree", python_rate, "nodes/s", None,
               f"compiled / Python {rate / python_rate:.1f}x in the same run"),
    ]
    details = {"configuration": f"{VARIANT}, iterative deepening, table {TT_SIZE:,}, depth {depth}",
               "positions": len(problems), "nodes": nodes,
               "compiled_s": spread(sample["compiled_s"]), "python_s": round(sample["python_s"], 3)}
    method = (f"{VARIANT} with iterative deepening and a {TT_SIZE:,}-entry table on the "
              f"{len(problems)} positions of othello:phases.txt to depth {depth}: the compiled "
              f"tree, median of {repeats} repeats; the Python tree once, every counter compared.")
    return Outcome("othello", figures, repeats, mode, method, details, time.perf_counter() - start)
