"""``parallel``: core variants on the first WAC positions (as ``sharing``, one depth
deeper) through ``run_experiment`` with 2 worker processes against 1.

The chess tree is the game's default, the compiled one where it was built: at depths 1-4
it searches the 20 positions in about 2 s, too little work to measure a pool by (1.13x
here, 2026-11-25), and at depths 1-5 in about 5 s, where starting the pool still shows
(1.79x, the busy CPUs 1.89); the full figure goes to depth 6, the quick one to 5.

Each run is a fresh process (``python -m benchmarks.parallel --worker``) timing only the
``run_experiment`` call (planning, searching, writing ``results.csv``; no report), so
the 2-worker figure includes starting the pool. Both runs must give the same node total.
The harness gains its ``jobs`` parameter in a parallel change: the benchmark finds it by
signature (``jobs=N``, or ``execution=Execution(jobs=N)``) and says "not available" when
neither exists.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import (
    Figure,
    Outcome,
    Target,
    check_counts,
    first_positions_epd,
    median,
    parallel_keyword,
    parse_range,
    range_text,
    run_worker,
    source_digest,
    spread,
    wac_path,
)
from harness.games.registry import find_game, load_problems
from harness.run.executors import start_order

TARGET = Target(">=", 1.8)
SETTINGS = {"full": (20, (1, 2, 3, 4, 5, 6)), "quick": (8, (1, 2, 3, 4, 5))}
"""Positions (the first N of WAC) and depths, by mode."""
REPEATS = {"full": 3, "quick": 3}
"""Repeats (each pair of runs takes under a minute; one pair varies by 15% here)."""
WORKERS = 2


def worker(suite_path: str, depths: tuple[int, ...], jobs: int) -> dict[str, Any]:
    from harness.run.experiment import run_experiment
    from harness.run.plan import ExperimentConfig

    keyword, _ = parallel_keyword(jobs)
    if keyword is None:
        raise SystemExit("run_experiment takes no jobs parameter")
    config = ExperimentConfig(problems=(f"chess:{suite_path}",), variants="core", depths=depths)
    with tempfile.TemporaryDirectory(prefix="bench-parallel-") as folder:
        start, start_cpu = time.perf_counter(), _cpu()
        output = run_experiment(config, Path(folder) / "run", report=False, **keyword)
        seconds, cpu = time.perf_counter() - start, _cpu() - start_cpu
        frame = output.results
        nodes = int(frame["nodes"].sum())
        rows = len(frame)
        # search time of each job (problem), in the plan's order (results.csv keeps it)
        jobs_s = [float(t) for t in frame.groupby("problem_id", sort=False)["time_s"].sum()]
    return {"time_s": seconds, "cpu_s": cpu, "nodes": nodes, "rows": rows, "jobs_s": jobs_s}


def schedule_bound(jobs_s: list[float], workers: int) -> float:
    """The speed-up ``workers`` processes could reach with these job times if nothing else
    cost anything: total / makespan when each free worker takes the next job in the order
    given (pass them in the harness's start order). Below the target, the jobs are too
    coarse or too uneven, or the order starts a long one late."""
    finish = [0.0] * workers
    for seconds in jobs_s:
        i = finish.index(min(finish))
        finish[i] += seconds
    return sum(jobs_s) / max(finish) if max(finish) > 0 else 1.0


def _cpu() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    positions, depths = SETTINGS[mode]
    keyword, how = parallel_keyword(WORKERS)
    if keyword is None:
        figure = Figure(f"speed-up {WORKERS} workers / 1", None, "x", TARGET, f"not available: {how}")
        return Outcome("parallel", [figure], 0, mode, "not run: " + how, {"available": False},
                       time.perf_counter() - start)
    digest = source_digest()
    times: dict[int, list[float]] = {1: [], WORKERS: []}
    walls: dict[int, list[float]] = {1: [], WORKERS: []}
    busy: dict[int, list[float]] = {1: [], WORKERS: []}
    nodes: dict[int, int] = {}
    bounds: list[float] = []
    jobs_s: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-parallel-") as folder:
        suite = first_positions_epd(wac_path(), positions, Path(folder))
        problems = load_problems(f"chess:{suite}").problems
        order = start_order([find_game(p.game).work(p) for p in problems])   # the harness's start order
        for r in range(repeats):
            for jobs in (1, WORKERS) if r % 2 == 0 else (WORKERS, 1):
                result = run_worker("benchmarks.parallel", ["--worker", "--suite", str(suite),
                                                            "--depths", range_text(depths),
                                                            "--jobs", str(jobs)],
                                    expect_digest=digest)
                times[jobs].append(result["time_s"])
                print(f"  {jobs} worker(s): {result['time_s']:.1f}s", flush=True)
                if jobs == 1:
                    jobs_s = result["jobs_s"]
                    bounds.append(schedule_bound([jobs_s[i] for i in order], WORKERS))
                walls[jobs].append(result["process_wall_s"])
                busy[jobs].append(result["cpu_s"] / result["time_s"])
                first = nodes.setdefault(jobs, result["nodes"])
                check_counts(f"repeat {r + 1}:", {f"jobs={jobs}": first},
                             {f"jobs={jobs}": result["nodes"]})
    check_counts(f"1 vs {WORKERS} workers:", {"nodes": nodes[1]}, {"nodes": nodes[WORKERS]})
    speedup = median(times[1]) / median(times[WORKERS])
    details: dict[str, Any] = {
        "available": True, "how": how, "positions": positions, "depths": list(depths),
        "variants": "core", "nodes": nodes[1],
        "one_worker_s": spread(times[1]), f"{WORKERS}_workers_s": spread(times[WORKERS]),
        "process_wall_s": {str(k): spread(v) for k, v in walls.items()},
        "cpu_per_wall": {str(k): spread(v) for k, v in busy.items()},
        "speedup": round(speedup, 4),
        "schedule_bound": round(median(bounds), 3),
        "job_search_s_one_worker": [round(t, 3) for t in jobs_s],
        "start_order": order,
    }
    note = (f"1 worker {median(times[1]):.1f}s, {WORKERS} workers {median(times[WORKERS]):.1f}s; "
            f"{positions} positions, depths {range_text(depths)}; node totals "
            f"equal; CPUs kept "
            f"busy: {median(busy[1]):.2f} and {median(busy[WORKERS]):.2f}; job-order bound "
            f"{median(bounds):.2f}")
    method = (f"run_experiment (core, first {positions} WAC positions, depths {range_text(depths)}, "
              f"report off) via {how}, N=1 vs N={WORKERS}, each in a fresh process timing the "
              f"call; median of {repeats} repeat(s), order alternating.")
    figures = [Figure(f"speed-up {WORKERS} workers / 1", speedup, "x", TARGET, note)]
    return Outcome("parallel", figures, repeats, mode, method, details, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worker", action="store_true", required=True)
    parser.add_argument("--suite", required=True)
    parser.add_argument("--depths", required=True)
    parser.add_argument("--jobs", type=int, required=True)
    args = parser.parse_args(argv)
    digest = source_digest()
    result = worker(args.suite, parse_range(args.depths), args.jobs)
    result["source_digest"] = digest
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
