"""``connect4``: nodes per second of the harness's best exact Connect Four configuration,
and the time to strongly solve every position of Pons's three shared test sets on two cores.

The configuration is ``mtd-pons`` (Pons's zero-window root) on his later tree
(``order=threats,anticipate=1``: no move that loses at once, moves that make the most
threats first) with a table of 2^20 entries: the fewest nodes of every search the harness
has on these sets (see claim 9 of ``harness reproduce``).

- Rate: the searches of a sample (the first positions of Test_L2_R1 and Test_L1_R1, where
  a search is long enough to time) with the compiled tree, median of interleaved repeats;
  the same sample with the Python tree once, for information, and every counter of every
  search equal between the two trees (the benchmark stops otherwise).
- Solve: ``run_experiment`` on all 3,000 positions with 2 worker processes (planning,
  searching, writing results.csv; no report), in a fresh process; every score must be the
  file's.

Needs ``../shared/connect4`` (or ``$HARNESS_CONNECT4``); without it, both figures are "not
available".
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.common import Figure, Outcome, Target, median, run_worker, spread, timed
from harness.games.base import Problem, Tree
from harness.games.connect4.compiled import compiled_available, connect4_tree
from harness.games.connect4.tree import board_from
from harness.games.registry import load_problems
from harness.reproduce.claims.pons import connect4_folder
from harness.search.registry import VariantSpec, make_spec
from harness.search.run import Switches, run_search

RATE_TARGET = Target(">=", 1_000_000)
SOLVE_TARGET = Target("<=", 120)
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L1_R1")
TREE = "order=threats,anticipate=1"
VARIANT = "mtd-pons"
TT_SIZE = 1 << 20
SAMPLE = {"full": (("Test_L2_R1", 300), ("Test_L1_R1", 100)),
          "quick": (("Test_L2_R1", 100), ("Test_L1_R1", 20))}
REPEATS = {"full": 3, "quick": 2}


def _problems(folder: Path, name: str, count: int | None = None) -> list[Problem]:
    return list(load_problems(f"connect4:{folder / name},{TREE}").problems[:count])


def search(tree: Tree, problem: Problem, spec: VariantSpec) -> dict[str, Any]:
    """One search of ``problem``'s ``tree`` with the benchmark's configuration: its
    counters and score."""
    result = run_search(tree, spec, problem.default_depth, Switches(tt_size=TT_SIZE))
    return {"score": result.score, **result.counters}


def time_sample(problems: list[Problem], repeats: int) -> dict[str, Any]:
    """Compiled and Python trees on ``problems``: counters and scores compared once, then
    the compiled searches timed ``repeats`` times (the trees built and the variant read
    before, untimed: the figure is the search's rate). The Python tree is timed once, for
    information."""
    spec = make_spec(VARIANT)
    trees = [connect4_tree(board_from(p.position.split()[0]), "threats", True, compiled=True)
             for p in problems]
    nodes = 0
    python_s = 0.0
    for problem, tree in zip(problems, trees, strict=True):
        slow_tree = connect4_tree(board_from(problem.position.split()[0]), "threats", True,
                                  compiled=False)
        seconds, _, slow = timed(partial(search, slow_tree, problem, spec))
        python_s += seconds
        fast = search(tree, problem, spec)
        if fast != slow:
            raise AssertionError(f"{problem.suite} {problem.problem_id}: the compiled tree's search "
                                 f"differs from the Python tree's: {fast} != {slow}")
        if str(fast["score"]) != problem.position.split()[1]:
            raise AssertionError(f"{problem.problem_id}: score {fast['score']}, the file gives "
                                 f"{problem.position.split()[1]}")
        nodes += int(fast["nodes"])
    compiled_s = [0.0] * repeats
    for r in range(repeats):
        for problem, tree in zip(problems, trees, strict=True):
            seconds, _, _ = timed(partial(search, tree, problem, spec))
            compiled_s[r] += seconds
    return {"nodes": nodes, "compiled_s": compiled_s, "python_s": python_s}


def solve_all(folder: str, jobs: int) -> dict[str, Any]:
    """The worker: ``run_experiment`` on every position of the three sets; wall time."""
    from harness.run.executors import Execution
    from harness.run.experiment import run_experiment
    from harness.run.plan import ExperimentConfig

    config = ExperimentConfig(problems=tuple(f"connect4:{Path(folder) / name},{TREE}" for name in SETS),
                              variants=VARIANT, switches=Switches(tt_size=TT_SIZE))
    with tempfile.TemporaryDirectory(prefix="bench-connect4-") as out:
        start = time.perf_counter()
        output = run_experiment(config, Path(out) / "run", report=False,
                                execution=Execution(jobs=jobs))
        seconds = time.perf_counter() - start
        frame = output.results
    return {"time_s": seconds, "positions": len(frame), "solved": int(frame["solved"].sum()),
            "nodes": int(frame["nodes"].sum()),
            "mean_nodes": {str(s): float(p["nodes"].mean()) for s, p in frame.groupby("suite")}}


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    folder = connect4_folder()
    if folder is None or not compiled_available():
        why = ("../shared/connect4 not found" if folder is None
               else "the compiled Connect Four tree was not built")
        figures = [Figure("mtd-pons nodes/s, compiled tree", None, "nodes/s", RATE_TARGET, why),
                   Figure("solve 3,000 positions, 2 workers", None, "s", SOLVE_TARGET, why)]
        return Outcome("connect4", figures, 0, mode, f"not available: {why}", {},
                       time.perf_counter() - start)
    problems = [p for name, count in SAMPLE[mode] for p in _problems(folder, name, count)]
    sample = time_sample(problems, repeats)
    nodes = sample["nodes"]
    rate = nodes / median(sample["compiled_s"])
    python_rate = nodes / sample["python_s"]
    solved = run_worker("benchmarks.connect4", ["--solve", str(folder), "2"])
    if solved["solved"] != solved["positions"]:
        raise AssertionError(f"{solved['positions'] - solved['solved']} positions not solved")
    sample_text = ", ".join(f"the first {n} of {name}" for name, n in SAMPLE[mode])
    figures = [
        Figure("mtd-pons nodes/s, compiled tree", rate, "nodes/s", RATE_TARGET,
               f"{nodes:,} nodes on {sample_text}; every counter equal to the Python tree's"),
        Figure("the same, Python tree", python_rate, "nodes/s", None,
               f"compiled / Python {rate / python_rate:.1f}x; for information"),
        Figure("solve 3,000 positions, 2 workers", solved["time_s"], "s", SOLVE_TARGET,
               f"{solved['solved']:,} of {solved['positions']:,} solved, {solved['nodes']:,} nodes; "
               "mean nodes " + ", ".join(f"{k} {v:,.0f}" for k, v in sorted(solved["mean_nodes"].items()))),
    ]
    details = {"configuration": f"{VARIANT}, connect4 {TREE}, table {TT_SIZE:,}",
               "sample": [list(s) for s in SAMPLE[mode]], "nodes": nodes,
               "compiled_s": spread(sample["compiled_s"]), "python_s": round(sample["python_s"], 3),
               "solve": solved}
    method = (f"{VARIANT} on Pons's later tree ({TREE}) with a {TT_SIZE:,}-entry table: the "
              f"searches of {sample_text}, compiled tree, median of {repeats} repeats (the Python "
              "tree once, counters compared); then run_experiment on all 3,000 positions of the "
              "three sets with 2 workers in a fresh process (no report), every score checked.")
    return Outcome("connect4", figures, repeats, mode, method, details, time.perf_counter() - start)


if __name__ == "__main__":              # the worker: python -m benchmarks.connect4 --solve FOLDER JOBS
    if sys.argv[1:2] != ["--solve"] or len(sys.argv) != 4:
        sys.exit("usage: python -m benchmarks.connect4 --solve FOLDER JOBS")
    print(json.dumps(solve_all(sys.argv[2], int(sys.argv[3]))))
