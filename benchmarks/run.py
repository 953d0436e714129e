"""Run the performance benchmarks side by side and write ``results/bench/bench.json``.

    python -m benchmarks.run [--quick] [--only NAME[,NAME...]] [--repeats N]

Benchmarks (each figure is the median of its repeats; targets from the performance issue):

- ``startup``: wall time of ``harness --help`` (target < 0.5 s) and of ``harness run`` on
  a nine-node tree with its report (target < 2 s), each a fresh process, with the ratio to
  ``python -c pass`` of the same rounds beside it.
- ``memory``: peak memory of ``harness run --limit 1000`` on ``random:b=2,d=2,n=N``,
  N = 100,000,000 / N = 1,000 (flat in the problems not reached: target <= 1.2), and the
  seconds ``--limit 2`` on a 50 MB EPD file takes beyond the same two lines alone (<= 1 s).
- ``overhead``: harness ``alphabeta`` / a bare python-chess alpha-beta, same nodes
  (first 10 WAC positions, depth 3, quiescence, no table); target <= 1.10.
- ``trees``: harness ``alphabeta`` nodes/s on ``random:b=8,d=7,n=20`` (target >= 500,000)
  and its time / a bare array alpha-beta, same nodes (target <= 1.3).
- ``observer``: harness ``alphabeta`` through ``run_search`` with the trace off / the same
  search with no tracing machinery (a plain ``Search``, the driver called directly), same
  nodes, on ``random:b=8,d=6,n=6`` and 5 WAC positions at depth 3 (target <= 1.05); and,
  for information, with the trace on / off.
- ``openspiel``: harness ``minimax`` on OpenSpiel's full tic-tac-toe tree / a bare
  recursive loop over ``State.child``, same nodes (549,946); target <= 1.3.
- ``chess_tree``: chess nodes+qnodes a second with the compiled chess tree / the Python tree,
  core variants at depths 1-4 on the first 20 WAC positions, every counter equal (target >= 5).
- ``sharing``: core variants x depths 1-4 x 20 WAC positions in one run / the sum of the
  variants run alone, each in a fresh process, the Python chess tree (target <= 0.25).
- ``parallel``: core variants, depths 1-5, the same 20 WAC positions, 2 worker processes / 1
  (target >= 1.8).
- ``connect4``: ``mtd-pons`` on Pons's later Connect Four tree, nodes/s with the compiled
  tree (target >= 1,000,000; counters equal to the Python tree's), and the time to solve
  the 3,000 positions of ``../shared/connect4`` with 2 workers (target < 120 s).
- ``pons``: the harness's time per Connect Four position against Pons's final solver built
  from ``../shared/connect4/pons-solver``, alternating in one run, per shared set (target
  <= 2.5 on each).
- ``othello``: ``mtdf`` (iterative deepening, a table) on the project's Othello suite,
  nodes/s with the compiled tree (target >= 1,000,000) and with the Python tree in the
  same run, every counter equal.
- ``checkers``: alpha-beta, PVS, NegaScout and MTD(f) with iterative deepening and a table
  on the start and the package's checkers suite, nodes/s with the compiled tree (target
  >= 1,000,000; counters equal to the Python tree's).
- ``perft``: ``harness perft``'s compiled count (the last ply bulk-counted), leaf nodes a
  second on the start position to depth 6 and Kiwipete to depth 5 (target >= 20,000,000),
  and its ratio to the harness's Python generator and to python-chess's on smaller counts;
  every count the published one.
- ``sss``: SSS* and DUAL* (the variants ``sss`` and ``dual``), nodes a second per game in
  the compiled best-first frame on chess, Othello and checkers (target >= 1,000,000) and in
  the Python reference on random trees, beside alpha-beta's on the same searches; every
  score alpha-beta's.
- ``frames``: on Connect Four, Othello, checkers and chess, the time a node of the slowest
  core variant over the fastest's, the same positions and depths (target <= 1.25), each
  variant's frame beside it; and the compiled frame's gain over the mypyc one (pvs, every
  counter equal) where the game's tree is native.
- ``modern``: ``pvs --profile modern`` on WAC to depth 10 with 2 workers (target under 10
  minutes, at least 270 of 300 solved), beside full width at depth 6; nodes + qnodes to
  depth 8, modern over full width, median per position (target <= 0.2); GNU Chess at depth 6
  on the same positions where installed.
- ``modern_match``: ``harness match`` at 20,000 nodes a move on bench.epd's openings:
  ``pvs@modern`` against ``pvs@classic`` (target a score of at least 70%), and two modern
  sides' repetitions either could have avoided while ahead by more than a pawn (target 0).

``--quick`` uses fewer trees, positions and depths (see each module). Nothing here fails
on a missed target: the table and the file say which were met. Timings are wall clock;
a busy machine (see the load average printed first) makes them unreliable. The harness
is imported from a copy of ``harness/`` taken at the start (see ``benchmarks/common.py``),
so edits made while it runs do not mix into the measurements.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import (
    ROOT,
    Outcome,
    drop_snapshot,
    environment,
    format_table,
    source_digest,
    use_snapshot,
    write_record,
)

BENCHMARKS = ("startup", "memory", "overhead", "trees", "observer", "openspiel", "chess_tree", "sharing",
              "parallel", "connect4", "pons", "othello", "checkers", "perft", "sss", "frames",
              "modern", "modern_match")
"""In the order they run (cheap first); each is ``benchmarks.<name>.measure``."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run",
                                     description="Performance benchmarks of the harness.")
    parser.add_argument("--quick", action="store_true",
                        help="Fewer trees, positions and depths (a couple of minutes).")
    parser.add_argument("--only", metavar="NAME[,NAME]",
                        help=f"Run only these: {', '.join(BENCHMARKS)}.")
    parser.add_argument("--repeats", type=int, metavar="N",
                        help="Repeats per benchmark (default: each benchmark's own).")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="Record file [default: results/bench/bench.json].")
    args = parser.parse_args(argv)
    names = list(BENCHMARKS)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in BENCHMARKS]
        if unknown:
            parser.error(f"unknown benchmark {', '.join(unknown)} (valid: {', '.join(BENCHMARKS)})")
    if args.repeats is not None and args.repeats < 1:
        parser.error("--repeats needs at least 1")
    if Path.cwd().resolve() != ROOT:
        os.chdir(ROOT)
    working_tree = source_digest(ROOT / "harness")
    use_snapshot()
    try:
        return _run(names, "quick" if args.quick else "full", args.repeats, args.out, working_tree)
    finally:
        drop_snapshot()


def _run(names: list[str], mode: str, repeats: int | None, out: Path | None,
         working_tree: str) -> int:
    measures: dict[str, Callable[[str, int | None], Outcome]] = {
        name: importlib.import_module(f"benchmarks.{name}").measure for name in names}
    env = environment()
    load = env["machine"].get("load_average")
    print(f"benchmarks ({mode}): {', '.join(names)}; python {env['python']}, "
          f"{env['machine'].get('cpu_model')}, {env['machine']['cpus']} CPUs, "
          f"load average {load}, revision {env['git_revision']}", flush=True)
    if load and load[0] > 0.5:
        print(f"warning: the machine is busy (load {load[0]}): timings will be noisy", flush=True)
    outcomes: list[Outcome] = []
    start = time.perf_counter()
    for name in names:
        print(f"\n[{name}] running ...", flush=True)
        outcome = measures[name](mode, repeats)
        outcomes.append(outcome)
        print(format_table([outcome]), flush=True)
        print(f"[{name}] {outcome.elapsed_s:.1f}s: {outcome.method}", flush=True)
    env["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if source_digest(ROOT / "harness") != working_tree:
        env["harness_sources"]["edited_during_run"] = True
        print("\nnote: harness/ was edited while the benchmarks ran; they measured the copy "
              "taken at the start (digest " + env["harness_sources"]["digest"] + ")")
    path = write_record(outcomes, env, out)
    print(f"\nall ({mode}, {time.perf_counter() - start:.0f}s):\n{format_table(outcomes)}")
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
