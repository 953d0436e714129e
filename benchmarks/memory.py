"""``memory``: a run's memory against the number of problems it has not reached, and the
time ``--limit`` saves on a big file.

Problems are made as a run reaches them (``harness.games.base.ProblemStream``), so what a
set holds beyond the run's ``--limit`` costs neither memory nor time. Two figures, each
command a fresh process (``python -m harness`` in the source snapshot):

- peak memory: ``harness run --problems random:b=2,d=2,n=N --limit 1000`` (``alphabeta``,
  its report written) for N = 1,000, 1,000,000 and 100,000,000, the issue's example: the
  same 1,000 problems searched out of sets a hundred thousand times larger. Each process's
  peak resident set (``ru_maxrss`` of that child alone, from ``os.wait4``); the figure is
  the ratio of the largest set's to the smallest's (flat in N: target <= 1.2). Before the
  problems were made lazily, N = 1,000,000 took three times the memory of N = 1,000 and
  100,000,000 ran out of memory. The rows of the problems reached are held for the
  summary, so the reached count is the same on every side.
- ``--limit 2`` on a 50 MB EPD file (about 870,000 positions): the run's wall time minus
  that of the same run on a file of the same two positions alone, paired per round
  (target <= 1 s: only the two lines are read and checked; the whole file is hashed for
  ``run.json``). Before, the whole file was read and checked (over 300 s).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import Figure, Outcome, Target, median, spread
from benchmarks.startup import snapshot

SETS = (1_000, 1_000_000, 100_000_000)
"""Problems in the set (``n``); every run searches the first :data:`LIMIT` of them."""
LIMIT = 1_000
"""Problems searched on every side."""
EPD_BYTES = 50 * 1024 * 1024
"""The size of the big EPD file, as in the issue."""
TARGETS = {"memory": Target("<=", 1.2), "limit": Target("<=", 1.0)}
"""Peak memory of the largest set / the smallest (flat in n); seconds the big file adds."""
REPEATS = {"full": 2, "quick": 1}
"""Rounds of the five commands (about 15 s each on the project's machine)."""


def peak_process(command: Sequence[str], cwd: Path) -> tuple[float, int]:
    """Wall time and peak resident set (KiB) of ``command`` run to its end in a fresh
    process: ``os.wait4`` gives that child's own peak, where ``RUSAGE_CHILDREN`` would give
    the largest of every child so far. A failure stops the benchmark."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(list(command), cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        if process.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n"
                               f"{err.read().decode(errors='replace')[-3000:]}")
    return seconds, int(usage.ru_maxrss)


def write_epd_files(folder: Path) -> tuple[Path, Path]:
    """A file of about :data:`EPD_BYTES` of legal positions (each line the four position
    fields of one of the project's own suite, so every id is its line's) and a file of its
    first two lines."""
    from harness.games.chess.suite_files import project_positions

    fields = [" ".join(line.split()[:4]) for line in
              (project_positions() / "bench.epd").read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    block = "".join(f"{line}\n" for line in fields)
    big, small = folder / "big.epd", folder / "two.epd"
    big.write_text(block * (EPD_BYTES // len(block.encode()) + 1), encoding="utf-8")
    small.write_text("".join(f"{line}\n" for line in fields[:2]), encoding="utf-8")
    return big, small


def run_command(problems: str, folder: Path, name: str, limit: int) -> list[str]:
    """``harness run`` on ``problems`` with ``--limit``: ``alphabeta`` at depth 1, the
    report written, no progress lines, into ``folder/name``."""
    return [sys.executable, "-m", "harness", "run", "--problems", problems, "--limit", str(limit),
            "--variants", "alphabeta", "--depth", "1", "--no-progress",
            "--out", str(folder / name)]


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    cwd = snapshot()
    peaks: dict[int, list[int]] = {n: [] for n in SETS}
    seconds: dict[int, list[float]] = {n: [] for n in SETS}
    epd: dict[str, list[float]] = {"big": [], "two": []}
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as name:
        folder = Path(name)
        big, small = write_epd_files(folder)
        big_bytes = big.stat().st_size
        for r in range(repeats):
            sets = SETS if r % 2 == 0 else tuple(reversed(SETS))
            for n in sets:
                wall, kib = peak_process(run_command(f"random:b=2,d=2,n={n}", folder,
                                                     f"random-{n}-{r}", LIMIT), cwd)
                seconds[n].append(wall)
                peaks[n].append(kib)
            files = (("big", big), ("two", small)) if r % 2 == 0 else (("two", small), ("big", big))
            for key, path in files:
                wall, _ = peak_process(run_command(f"chess:{path}", folder, f"{key}-{r}", 2), cwd)
                epd[key].append(wall)
            print(f"  round {r + 1}: " + ", ".join(f"n={n:,} {peaks[n][-1] / 1024:.0f} MiB "
                                                  f"{seconds[n][-1]:.1f}s" for n in SETS)
                  + f"; --limit 2 on {big_bytes / 2**20:.0f} MB {epd['big'][-1]:.2f}s, "
                  f"on two lines {epd['two'][-1]:.2f}s", flush=True)
    peak = {n: median(values) for n, values in peaks.items()}
    ratio = peak[SETS[-1]] / peak[SETS[0]]
    extra = median([b - t for b, t in zip(epd["big"], epd["two"], strict=True)])
    details: dict[str, Any] = {
        "sets": list(SETS), "limit": LIMIT,
        "peak_kib": {str(n): spread(values) for n, values in peaks.items()},
        "seconds": {str(n): spread(values) for n, values in seconds.items()},
        "epd_bytes": big_bytes, "epd_seconds": {k: spread(v) for k, v in epd.items()},
    }
    figures = [
        Figure(f"peak memory, n={SETS[-1]:,} / n={SETS[0]:,} ({LIMIT:,} searched)", ratio, "x",
               TARGETS["memory"], ", ".join(f"n={n:,}: {peak[n] / 1024:.0f} MiB, "
                                            f"{median(seconds[n]):.1f} s" for n in SETS)),
        Figure(f"--limit 2 on a {big_bytes / 2**20:.0f} MB EPD file, beyond two lines", extra,
               "s", TARGETS["limit"], f"{median(epd['big']):.2f} s against "
               f"{median(epd['two']):.2f} s on a file of the two positions alone"),
    ]
    method = (f"each command a fresh process (python -m harness in the source snapshot); peak "
              f"resident set of that process (os.wait4); {repeats} round(s), order alternating; "
              "medians. The EPD figure is the paired difference of wall times.")
    return Outcome("memory", figures, repeats, mode, method, details,
                   time.perf_counter() - start)
