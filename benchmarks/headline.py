"""``headline``: the run the performance issue is about, timed end to end.

    python -m benchmarks.headline [--limit N] [--jobs 2] [--depth 1-7] [--keep DIR]

runs ``harness run --suite wac.epd --variants core --depth 1-7 --jobs 2`` (all 300
positions; depths 1-5 took about an hour before the optimisation work, 12.4 minutes with
the Python chess tree; ``--depth 1-5`` gives that figure) as a subprocess and reports its
wall time and peak memory: the largest resident set of any one process
(``getrusage(RUSAGE_CHILDREN).ru_maxrss``, which covers the workers the harness waits
for) and, sampled every second from ``/proc``, the peak of the summed proportional set sizes
(PSS: shared pages split between the processes sharing them) of the harness process and
all its descendants (what the machine must hold at once).
``--limit N`` searches only the first N positions (a temporary EPD with their lines),
to check the benchmark itself. While ``harness run`` has no ``--jobs`` option the run is
made without it, and the record says so. The result goes into ``results/bench/bench.json``
as ``headline`` (``headline-firstN`` with ``--limit``). The harness runs from a copy of
``harness/`` taken at the start (see ``benchmarks/common.py``).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks import common
from benchmarks.common import (
    ROOT,
    Figure,
    Outcome,
    Target,
    drop_snapshot,
    environment,
    first_positions_epd,
    format_table,
    use_snapshot,
    wac_path,
    write_record,
)

WALL_TARGET = Target("<=", 15 * 60)
"""Issue 5: the whole suite in under 15 minutes (seconds)."""
MEMORY_TARGET = Target("<=", 2048)
"""Issue 5: under 2 GiB for all processes together (MiB)."""

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def cli_accepts(option: str) -> bool:
    """Whether ``harness run`` has ``--option`` (the harness grows options meanwhile)."""
    from harness.cli import run

    return any(f"--{option}" in getattr(p, "opts", ()) for p in run.params)


class TreeMemory:
    """Samples the summed resident memory of a process and its descendants (Linux /proc)."""

    def __init__(self, pid: int, interval: float = 1.0) -> None:
        self.pid = pid
        self.interval = interval
        self.peak_bytes = 0
        self.peak_processes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemory:
        if Path("/proc").is_dir():
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            pids = self._tree()
            total = sum(self._rss(pid) for pid in pids)
            if total > self.peak_bytes:
                self.peak_bytes = total
            self.peak_processes = max(self.peak_processes, len(pids))

    def _tree(self) -> list[int]:
        parents: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2:].split()
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
        found, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo.extend(parents.get(pid, []))
        return found

    @staticmethod
    def _rss(pid: int) -> int:
        """The process's proportional set size (shared pages split among the processes
        sharing them, so forked workers are not counted twice), else its resident set."""
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
        except (OSError, IndexError, ValueError):
            pass
        try:
            return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            return 0


def headline(suite: Path, limit: int | None, jobs: int, depth: str, variants: str,
             keep: Path | None) -> Outcome:
    start = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="bench-headline-"))
    try:
        if limit is not None:
            suite = first_positions_epd(suite, limit, folder)
        run_dir = (keep if keep is not None else folder / "run").resolve()
        command = [sys.executable, "-m", "harness", "run", "--suite", str(suite),
                   "--variants", variants, "--depth", depth, "--out", str(run_dir)]
        has_jobs = cli_accepts("jobs")
        if has_jobs:
            command += ["--jobs", str(jobs)]
        print("$ " + " ".join(command), flush=True)
        began = time.perf_counter()
        process = subprocess.Popen(command, cwd=common.SOURCE_DIR or ROOT)  # harness from the snapshot
        with TreeMemory(process.pid) as memory:
            code = process.wait()
        wall = time.perf_counter() - began
        maxrss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if code != 0:
            raise SystemExit(f"harness run failed with exit code {code}")
        rows = _count_rows(run_dir / "results.csv")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    positions = limit if limit is not None else "all"
    note = "" if has_jobs else f"harness run has no --jobs yet: ran with 1 process, not {jobs}"
    # The targets are for the whole suite; a limited run is only a check.
    full = limit is None
    figures = [
        Figure("wall time", wall, "s", WALL_TARGET if full else None,
               note or f"{rows} result rows"),
        Figure("peak RSS, largest process", maxrss_kb / 1024, "MiB", None, "getrusage ru_maxrss"),
        Figure("peak PSS, all processes", memory.peak_bytes / 2**20 if memory.peak_bytes else None,
               "MiB", MEMORY_TARGET if full else None,
               f"/proc sampled every {memory.interval}s, up to {memory.peak_processes} processes"),
    ]
    details: dict[str, Any] = {
        "command": command, "positions": positions, "jobs_requested": jobs,
        "jobs_used": jobs if has_jobs else 1, "rows": rows, "wall_s": round(wall, 2),
        "maxrss_mib": round(maxrss_kb / 1024, 1),
        "peak_tree_pss_mib": round(memory.peak_bytes / 2**20, 1),
        "run_dir_kept": str(run_dir) if keep is not None else None,
    }
    method = (f"harness run --suite {suite.name} --variants {variants} --depth {depth}"
              f"{f' --jobs {jobs}' if has_jobs else ''} on {positions} positions, "
              "one run (no repeats), report included; targets (whole suite only): under 15 "
              "minutes and 2 GiB.")
    name = "headline" if full else f"headline-first{limit}"
    return Outcome(name, figures, 1, "full" if full else "limited", method, details,
                   time.perf_counter() - start)


def _count_rows(path: Path) -> int:
    with path.open(encoding="utf-8") as file:
        return max(0, sum(1 for _ in file) - 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.headline",
                                     description="Time the full WAC core run.")
    parser.add_argument("--limit", type=int, metavar="N", help="Only the first N positions.")
    parser.add_argument("--jobs", type=int, default=2, help="Worker processes [default: 2].")
    parser.add_argument("--depth", default="1-7", help="Depths [default: 1-7].")
    parser.add_argument("--variants", default="core", help="Variants [default: core].")
    parser.add_argument("--suite", type=Path, help="EPD file [default: wac.epd, found as the "
                                                   "harness finds suites].")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="Write the run folder here and keep it [default: a temporary one].")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="Record file [default: results/bench/bench.json].")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit needs at least 1")
    os.chdir(ROOT)
    keep = args.keep.resolve() if args.keep is not None else None
    use_snapshot()
    try:
        suite = (args.suite or wac_path()).resolve()
        outcome = headline(suite, args.limit, args.jobs, args.depth, args.variants, keep)
        env = environment()
    finally:
        drop_snapshot()
    path = write_record([outcome], env, args.out)
    print(f"\n{format_table([outcome])}\n{outcome.method}\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
