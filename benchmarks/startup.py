"""``startup``: how long small commands take from the shell, against ``python -c pass``.

Three commands, each a fresh process (``subprocess``, wall clock, stdout and stderr
captured), run in rounds so that a burst of load on the machine hits all of them alike:

- ``python -c pass``: the interpreter alone (with the virtual environment's site
  packages), the floor every command stands on;
- ``harness --help``: importing the command line and listing every command;
- ``harness run --tree fig.json``: a nine-node tree (``[[1,2],[3,[4,5]]]``), every variant
  at its height, with the run folder and its report (summary, comparison, charts,
  report.html), as a first-time user would try the harness.

Each figure is the median wall time in seconds, with its ratio to ``python -c pass`` of
the same rounds and the median CPU time (user + system, which other work on a shared
machine disturbs less) beside it. The harness runs as ``python -m harness`` in the source
snapshot (see :mod:`benchmarks.common`), so the measured code is the snapshot's.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, Figure, Outcome, Target, median, spread

TREE = [[1, 2], [3, [4, 5]]]
"""Nine nodes: the root, two inner nodes, a third under the second, five leaves."""
TARGETS = {"help": Target("<=", 0.5), "run": Target("<=", 2.0)}
"""Seconds, from the issue (small runs are quick)."""
REPEATS = {"full": 7, "quick": 3}
"""Rounds; one round of the three commands takes about 2.5 s here."""


def snapshot() -> Path:
    """Where the commands run: the source snapshot when one is in use, else the repository."""
    from benchmarks import common

    return common.SOURCE_DIR or ROOT


def timed_process(command: Sequence[str], cwd: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of ``command`` run to its end; a failure
    stops the benchmark. CPU time is what a busy machine disturbs less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def commands(folder: Path, round_number: int) -> dict[str, list[str]]:
    """The three commands of one round; each run writes a folder of its own."""
    harness = [sys.executable, "-m", "harness"]
    return {
        "pass": [sys.executable, "-c", "pass"],
        "help": [*harness, "--help"],
        "run": [*harness, "run", "--tree", str(folder / "fig.json"), "--no-progress",
                "--out", str(folder / f"run-{round_number}")],
    }


def imported_from(cwd: Path) -> str:
    """The folder ``python -m harness`` imports the harness from, run in ``cwd``."""
    done = subprocess.run([sys.executable, "-c", "import harness; print(harness.__file__)"],
                          cwd=cwd, capture_output=True, text=True, check=True)
    return str(Path(done.stdout.strip()).parent)


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    cwd = snapshot()
    source = imported_from(cwd)
    times: dict[str, list[float]] = {"pass": [], "help": [], "run": []}
    cpu: dict[str, list[float]] = {"pass": [], "help": [], "run": []}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as name:
        folder = Path(name)
        (folder / "fig.json").write_text(json.dumps(TREE), encoding="utf-8")
        for r in range(repeats):
            round_commands = commands(folder, r)
            order = list(round_commands) if r % 2 == 0 else list(reversed(round_commands))
            for key in order:
                wall_s, used = timed_process(round_commands[key], cwd)
                times[key].append(wall_s)
                cpu[key].append(used)
            print(f"  round {r + 1}: " + ", ".join(f"{k} {times[k][-1]:.3f}s" for k in times),
                  flush=True)
        run_dir = folder / "run-0"
        charts = sorted(p.name for p in (run_dir / "charts").glob("*.png"))
        written = sorted(p.name for p in run_dir.iterdir())
    floor = median(times["pass"])
    seconds = {key: median(values) for key, values in times.items()}
    ratios = {key: seconds[key] / floor for key in ("help", "run")}
    details: dict[str, Any] = {
        "tree": TREE, "harness_imported_from": source,
        "seconds": {key: spread(values) for key, values in times.items()},
        "cpu_seconds": {key: spread(values) for key, values in cpu.items()},
        "ratio_to_python": {key: round(value, 2) for key, value in ratios.items()},
        "run_folder": written, "charts": charts,
    }
    figures = [
        Figure("python -c pass", seconds["pass"], "s", None, "the interpreter alone"),
        Figure("harness --help", seconds["help"], "s", TARGETS["help"],
               f"{ratios['help']:.1f} x python -c pass; CPU {median(cpu['help']):.3f} s"),
        Figure("harness run, nine-node tree, with report", seconds["run"], "s", TARGETS["run"],
               f"{ratios['run']:.1f} x python -c pass; CPU {median(cpu['run']):.3f} s; charts: "
               f"{', '.join(c.removesuffix('.png') for c in charts)}"),
    ]
    method = (f"each command a fresh process (python -m harness in the source snapshot), "
              f"wall clock (CPU time recorded too); {repeats} round(s) of the three, order "
              f"alternating; medians, ratios to python -c pass of the same rounds.")
    return Outcome("startup", figures, repeats, mode, method, details,
                   time.perf_counter() - start)
