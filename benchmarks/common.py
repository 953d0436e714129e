"""What every benchmark shares: the source snapshot, timing, targets, the record written
to ``bench.json``, the printed table, the suite lookup and small adapters to the
harness's API (which others change while these benchmarks are written).

Source snapshot. A run takes minutes and its sides run in several processes; if
``harness/`` is edited meanwhile they would measure different code. So a run first copies
``harness/`` and ``benchmarks/`` into a temporary folder and imports the harness from
there, in this process (:func:`use_snapshot`, before anything imports ``harness``) and in
every worker process (which runs with that folder as its working directory). Nothing
here imports ``harness`` at module level, so that order can be kept."""

from __future__ import annotations

import contextlib
import gc
import inspect
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
"""The repository root (benchmark subprocesses run there, so ``benchmarks`` imports)."""
OUT_DIR = Path("results") / "bench"
"""Where results go, relative to the repository root."""
BENCH_FILE = "bench.json"
SCHEMA = 1
"""Version of ``bench.json``'s layout."""

SOURCE_DIR: Path | None = None
"""The snapshot the harness is imported from (``None``: the working tree)."""


# -- the source snapshot ---------------------------------------------------------------------

def use_snapshot() -> Path:
    """Copy ``harness/`` and ``benchmarks/`` to a temporary folder and import the harness
    from it from now on (workers too: :func:`run_worker` runs them there). Call it before
    anything imports ``harness``; remove the folder with :func:`drop_snapshot`."""
    global SOURCE_DIR
    if "harness" in sys.modules:
        raise RuntimeError("use_snapshot() must run before harness is imported")
    folder = Path(tempfile.mkdtemp(prefix="bench-src-"))
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("harness", "benchmarks"):
        shutil.copytree(ROOT / package, folder / package, ignore=ignore)
    sys.path.insert(0, str(folder))
    SOURCE_DIR = folder
    import harness

    if Path(harness.__file__).resolve().parent != (folder / "harness").resolve():
        raise RuntimeError(f"harness imported from {harness.__file__}, not from the snapshot")
    return folder


def drop_snapshot() -> None:
    if SOURCE_DIR is not None:
        shutil.rmtree(SOURCE_DIR, ignore_errors=True)


def source_digest(folder: Path | None = None) -> str:
    """sha256 of the harness's Python sources (by default those imported): workers report
    it, so the parent can check they ran the same code; comparing the working tree's at
    the start and the end tells whether ``harness/`` was edited during a run."""
    import hashlib

    if folder is None:
        import harness

        folder = Path(harness.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# -- timing ------------------------------------------------------------------------------

def timed(function: Callable[[], T]) -> tuple[float, float, T]:
    """``(wall, cpu, value)`` of one call, after a full garbage collection: wall time
    (``perf_counter``, what the figures use) and this process's CPU time
    (``process_time``, recorded too: it is less disturbed by other work on the machine)."""
    gc.collect()
    cpu = time.process_time()
    start = time.perf_counter()
    value = function()
    return time.perf_counter() - start, time.process_time() - cpu, value


def median(samples: Sequence[float]) -> float:
    return float(statistics.median(samples))


def spread(samples: Sequence[float]) -> dict[str, Any]:
    """The samples and their median, min and max, rounded for the record."""
    return {"median": round(median(samples), 4), "min": round(min(samples), 4),
            "max": round(max(samples), 4), "samples": [round(s, 4) for s in samples]}


# -- equal work ----------------------------------------------------------------------------

def check_counts(what: str, expected: dict[str, int], got: dict[str, int]) -> None:
    """Check that the same searches made in two processes counted the same nodes.

    They must be equal: chess keys hold no ``None`` (whose hash on Python 3.11 is an
    address), so the table places positions alike in every process. Any difference stops
    the benchmark: the two sides did not do the same work."""
    differences = [f"{what} {name}: {expected.get(name, 0)} vs {got.get(name, 0)}"
                   for name in sorted(set(expected) | set(got))
                   if expected.get(name, 0) != got.get(name, 0)]
    if differences:
        raise AssertionError(f"node counts differ, the sides did different work: "
                             f"{'; '.join(differences)}")


# -- targets and records -----------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """A goal for one figure: ``value <= limit`` or ``value >= limit``."""

    op: str
    limit: float

    def met(self, value: float | None) -> bool | None:
        if value is None:
            return None
        return value <= self.limit if self.op == "<=" else value >= self.limit

    def __str__(self) -> str:
        return f"{self.op} {self.limit:,g}"


@dataclass
class Figure:
    """One measured number with its target."""

    name: str
    """What it is, e.g. ``time ratio harness/bare``."""
    value: float | None
    """The number; ``None`` when the benchmark could not run (see ``note``)."""
    unit: str = ""
    target: Target | None = None
    note: str = ""

    @property
    def met(self) -> bool | None:
        return None if self.target is None else self.target.met(self.value)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "unit": self.unit,
                "target": None if self.target is None else str(self.target),
                "met": self.met, "note": self.note}


@dataclass
class Outcome:
    """What one benchmark measured: its figures, how (repeats, mode) and the details."""

    benchmark: str
    figures: list[Figure]
    repeats: int
    mode: str
    """``full`` or ``quick``."""
    method: str
    """One paragraph: what was timed against what, and the choices made."""
    details: dict[str, Any] = field(default_factory=dict)
    elapsed_s: float = 0.0
    """Wall time of the whole benchmark (setup, every repeat, checks)."""

    def as_dict(self) -> dict[str, Any]:
        return {"benchmark": self.benchmark, "mode": self.mode, "repeats": self.repeats,
                "method": self.method, "figures": [f.as_dict() for f in self.figures],
                "details": self.details, "elapsed_s": round(self.elapsed_s, 1)}


def format_table(outcomes: Sequence[Outcome]) -> str:
    """The printed summary: one line per figure."""
    header = ("benchmark", "figure", "value", "target", "met", "repeats", "note")
    lines: list[tuple[str, ...]] = [header]
    for outcome in outcomes:
        for f in outcome.figures:
            value = "n/a" if f.value is None else _number(f.value) + (f" {f.unit}" if f.unit else "")
            met = {None: "-", True: "yes", False: "NO"}[f.met]
            lines.append((outcome.benchmark, f.name, value, str(f.target or "-"), met,
                          f"{outcome.repeats} ({outcome.mode})", f.note))
    widths = [max(len(row[i]) for row in lines) for i in range(len(header) - 1)]
    out = []
    for n, row in enumerate(lines):
        cells = [cell.rjust(w) if i == 2 else cell.ljust(w)
                 for i, (cell, w) in enumerate(zip(row[:-1], widths, strict=True))]
        out.append("  ".join([*cells, row[-1]]).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _number(value: float) -> str:
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3f}"


# -- the record ------------------------------------------------------------------------------

def environment() -> dict[str, Any]:
    """Machine, Python, package versions and git revision (the harness's own record, plus
    the CPU model and load, which matter for timings)."""
    from harness.results import environment as harness_environment

    info = harness_environment()
    info["git_revision"] = _git_revision()        # the snapshot is not in the repository
    info["harness_sources"] = {"snapshot": SOURCE_DIR is not None, "digest": source_digest(),
                               "working_tree_digest": source_digest(ROOT / "harness")}
    info["python_implementation"] = platform.python_implementation()
    info["python_full"] = sys.version
    info["executable"] = sys.executable
    info["machine"]["cpu_model"] = _cpu_model()
    with contextlib.suppress(OSError):
        info["machine"]["load_average"] = [round(x, 2) for x in os.getloadavg()]
    info["git_status"] = _git_status()
    return info


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                             timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def _git_revision() -> str | None:
    head = _git("rev-parse", "HEAD")
    if head is None:
        return None
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return head.strip() + ("-dirty" if dirty else "")


def _git_status() -> list[str] | None:
    """Changed tracked files (benchmarks measure the working tree, not the commit)."""
    out = _git("status", "--porcelain", "--untracked-files=no")
    return None if out is None else out.splitlines()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_record(outcomes: Sequence[Outcome], env: dict[str, Any], path: Path | None = None) -> Path:
    """Merge ``outcomes`` into ``results/bench/bench.json``: each benchmark's entry is
    replaced and stamped with this run's time and revision; the others are kept (each
    says when and at which revision it was measured)."""
    path = path or ROOT / OUT_DIR / BENCH_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {}
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            data = {}
    if data.get("schema") != SCHEMA:
        data = {}
    benchmarks = data.get("benchmarks", {})
    stamp = now()
    for outcome in outcomes:
        benchmarks[outcome.benchmark] = {**outcome.as_dict(), "measured_at": stamp,
                                         "git_revision": env.get("git_revision")}
    data = {"schema": SCHEMA, "updated": stamp, "environment": env, "benchmarks": benchmarks}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


# -- problems ------------------------------------------------------------------------------

def wac_path() -> Path:
    """``wac.epd``: looked up as the harness does (the package's own suites,
    ``$HARNESS_SUITES``), then in ``../shared/positions`` beside the repository (where the
    Makefile points)."""
    from harness.errors import HarnessError
    from harness.games.chess.suite_files import find_suite

    try:
        return find_suite("wac.epd").resolve()
    except HarnessError:
        fallback = ROOT.parent / "shared" / "positions" / "wac.epd"
        if fallback.is_file():
            return fallback
        raise SystemExit("wac.epd not found: set HARNESS_SUITES to the folder holding it "
                         "(e.g. ../shared/positions)") from None


def first_positions_epd(source: Path, count: int, folder: Path) -> Path:
    """A copy of the first ``count`` positions of the EPD file ``source`` (their lines, as
    written), as ``folder/<stem>-first<count>.epd``."""
    from harness.games.chess.epd import load_suite

    suite = load_suite(source)
    if count > len(suite.positions):
        raise SystemExit(f"{source} has only {len(suite.positions)} positions (asked for {count})")
    wanted = {p.line for p in suite.positions[:count]}
    lines = source.read_text(encoding="utf-8").splitlines()
    text = "".join(lines[n - 1] + "\n" for n in sorted(wanted))
    path = folder / f"{source.stem}-first{count}.epd"
    path.write_text(text, encoding="utf-8")
    return path


def parse_range(text: str) -> tuple[int, ...]:
    """``N`` or ``A-B`` as a tuple of integers."""
    lo, sep, hi = text.partition("-")
    return tuple(range(int(lo), int(hi if sep else lo) + 1))


def range_text(values: Sequence[int]) -> str:
    return f"{values[0]}-{values[-1]}" if len(values) > 1 else str(values[0])


# -- adapters to the harness API (others change it while these benchmarks are written) --------

def search_problem_variants(labels: Sequence[str]) -> Sequence[Any]:
    """What ``harness.run.job.search_problem`` takes as ``variants``: labels (new API)
    or parsed ``VariantSpec`` objects (the API of issue 2)."""
    from harness.run.job import search_problem
    from harness.search.registry import parse_variants

    annotation = str(inspect.signature(search_problem).parameters["variants"].annotation)
    if "VariantSpec" in annotation:
        return parse_variants(",".join(labels))
    return list(labels)


def parallel_keyword(jobs: int) -> tuple[dict[str, Any] | None, str]:
    """The keyword arguments that make ``run_experiment`` use ``jobs`` worker processes,
    and how it was found; ``None`` when the harness has no such parameter yet."""
    from harness.run.experiment import run_experiment

    parameters = inspect.signature(run_experiment).parameters
    if "jobs" in parameters:
        return {"jobs": jobs}, "run_experiment(..., jobs=N)"
    if "execution" in parameters:
        try:
            from harness.run.executors import Execution
        except ImportError:
            return None, "run_experiment has 'execution' but harness.run.executors is missing"
        fields = inspect.signature(Execution).parameters
        if "jobs" in fields:
            return {"execution": Execution(jobs=jobs)}, \
                "run_experiment(..., execution=Execution(jobs=N))"
    return None, "run_experiment has no 'jobs' parameter yet"


def run_worker(module: str, args: Sequence[str], timeout: float | None = None,
               expect_digest: str | None = None,
               environment: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``python -m module args`` in a fresh process in the snapshot (else at the
    repository root), with ``environment`` added to this one's; return the JSON object it
    prints last on stdout (plus ``process_wall_s``). With ``expect_digest``, the worker's
    ``source_digest`` must equal it."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=SOURCE_DIR or ROOT,
                          capture_output=True, text=True, timeout=timeout, check=False,
                          env={**os.environ, **(environment or {})})
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{module} {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"{module} {' '.join(args)} printed no result:\n{done.stdout[-2000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    result["process_wall_s"] = wall
    if expect_digest is not None and result.get("source_digest") != expect_digest:
        raise SourceChanged(f"a worker ran other harness sources ({result.get('source_digest')}) "
                            f"than this process ({expect_digest})")
    return result


class SourceChanged(RuntimeError):
    """A worker imported other harness sources than the parent: its sides would compare
    different code."""
