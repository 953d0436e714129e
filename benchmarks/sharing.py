"""``sharing``: all core variants at several depths on WAC positions in one run (each
problem's tree, and so its position cache, shared by every variant and depth, as
``search_problem`` does), against the sum of the same variants each run alone.

Both sides run in fresh processes (``python -m benchmarks.sharing --worker``), so neither
inherits a warm interpreter: the one-run is one process searching every variant, each
"alone" run is one process searching one variant (its depths still share that variant's
tree, as a separate ``harness run --variants V`` would). A worker times only its
``search_problem`` calls (not interpreter start, imports or loading the suite); the
process wall times are recorded too. Node counts must be equal on both sides (the cache
changes no count).

What is shared is the Python chess tree's position cache, so the benchmark runs that tree
(``tree=python``): the compiled tree (``chess_tree`` measures it) keeps no cache, a node
costing it less than a look-up, and so shares nothing between variants.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from benchmarks.common import (
    Figure,
    Outcome,
    Target,
    check_counts,
    median,
    parse_range,
    range_text,
    run_worker,
    search_problem_variants,
    source_digest,
    spread,
    wac_path,
)

TARGET = Target("<=", 0.25)
SETTINGS = {"full": (20, (1, 2, 3, 4)), "quick": (8, (1, 2, 3))}
"""Positions (the first N of WAC) and depths, by mode."""
REPEATS = {"full": 3, "quick": 3}
"""Three in full mode too: single runs of the same code an hour apart gave alone sums of
44.3 s and 55.9 s (ratios 0.239 and 0.177)."""


def worker(suite_path: str, positions: int, depths: tuple[int, ...], variants: str) -> dict[str, Any]:
    """Search the first ``positions`` problems with ``variants`` at ``depths``, each problem
    one ``search_problem`` call; time the calls only."""
    from harness.games.chess.game import position_of
    from harness.games.registry import load_problems
    from harness.run.job import search_problem
    from harness.search.registry import parse_variants
    from harness.search.run import Switches

    problems = load_problems(f"chess:{suite_path},tree=python").problems[:positions]
    for problem in problems:
        position_of(problem)               # parse each position now (cached), not while timed
    labels = [spec.label for spec in parse_variants(variants)]
    given = search_problem_variants(labels)
    seconds = cpu = 0.0
    nodes: dict[str, int] = dict.fromkeys(labels, 0)
    qnodes: dict[str, int] = dict.fromkeys(labels, 0)
    for problem in problems:
        start, start_cpu = time.perf_counter(), time.process_time()
        rows = search_problem(problem, given, depths, Switches())
        seconds += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        for row in rows:
            nodes[row["variant"]] += int(row["nodes"])
            qnodes[row["variant"]] += int(row["qnodes"])
    return {"time_s": seconds, "cpu_s": cpu, "nodes": nodes, "qnodes": qnodes}


def measure(mode: str, repeats: int | None = None) -> Outcome:
    from harness.search.registry import CORE

    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    positions, depths = SETTINGS[mode]
    suite = str(wac_path())
    base = ["--worker", "--suite", suite, "--positions", str(positions), "--depths", range_text(depths)]
    digest = source_digest()
    one_s: list[float] = []
    alone_s: list[float] = []
    cpu: dict[str, list[float]] = {"one": [], "alone": []}
    alone_by_variant: dict[str, list[float]] = {v: [] for v in CORE}
    walls: dict[str, list[float]] = {"one": [], "alone": []}
    shared: dict[str, Any] = {}
    for _ in range(repeats):
        one = run_worker("benchmarks.sharing", [*base, "--variants", ",".join(CORE)],
                         expect_digest=digest)
        one_s.append(one["time_s"])
        cpu["one"].append(one["cpu_s"])
        walls["one"].append(one["process_wall_s"])
        shared = one
        print(f"  one run (all {len(CORE)} variants): {one['time_s']:.1f}s", flush=True)
        total = wall = total_cpu = 0.0
        for variant in CORE:
            alone = run_worker("benchmarks.sharing", [*base, "--variants", variant],
                               expect_digest=digest)
            for key in ("nodes", "qnodes"):
                check_counts(f"{key} shared vs alone:", {variant: one[key][variant]},
                             {variant: alone[key][variant]})
            alone_by_variant[variant].append(alone["time_s"])
            print(f"  {variant} alone: {alone['time_s']:.1f}s", flush=True)
            total += alone["time_s"]
            total_cpu += alone["cpu_s"]
            wall += alone["process_wall_s"]
        alone_s.append(total)
        cpu["alone"].append(total_cpu)
        walls["alone"].append(wall)
    ratio = median(one_s) / median(alone_s)
    cpu_ratio = median(cpu["one"]) / median(cpu["alone"])
    details: dict[str, Any] = {
        "positions": positions, "depths": list(depths), "variants": list(CORE),
        "one_run_s": spread(one_s), "sum_alone_s": spread(alone_s),
        "alone_s_by_variant": {v: round(median(s), 3) for v, s in alone_by_variant.items()},
        "process_wall_s": {k: spread(v) for k, v in walls.items()},
        "nodes": shared.get("nodes"), "qnodes": shared.get("qnodes"),
        "cpu_s": {k: spread(v) for k, v in cpu.items()},
        "ratio": round(ratio, 4), "cpu_ratio": round(cpu_ratio, 4),
    }
    note = (f"one run {median(one_s):.1f}s, alone sum {median(alone_s):.1f}s; "
            f"{positions} positions, depths {range_text(depths)}; counts equal; "
            f"CPU-time ratio {cpu_ratio:.3f}")
    method = (f"{len(CORE)} core variants x depths {range_text(depths)} x first {positions} WAC "
              "positions: one fresh process running search_problem with all variants, against "
              "one fresh process per variant; search_problem time only (no startup/imports); "
              f"median of {repeats} repeat(s).")
    figures = [Figure("one-run / sum-of-alone time", ratio, "x", TARGET, note)]
    return Outcome("sharing", figures, repeats, mode, method, details, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worker", action="store_true", required=True)
    parser.add_argument("--suite", required=True)
    parser.add_argument("--positions", type=int, required=True)
    parser.add_argument("--depths", required=True)
    parser.add_argument("--variants", required=True)
    args = parser.parse_args(argv)
    digest = source_digest()
    result = worker(args.suite, args.positions, parse_range(args.depths), args.variants)
    result["source_digest"] = digest
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
