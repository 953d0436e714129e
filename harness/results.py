"""The results of a run: ``results.csv`` (tidy, one row per problem x variant x depth) and
``run.json`` (configuration, versions, machine), with a schema version and loading."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import platform
import subprocess
import sys
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import HarnessError
from harness.search import compiled
from harness.search.counters import COUNTER_NAMES
from harness.trees import movegen

SCHEMA_VERSION = 1
"""Version of the layout of ``results.csv`` and ``run.json``; loading checks it."""

ROW_COLUMNS = (
    "suite", "problem_id", "variant", "options", "depth", "tt_size", "iterative",
    "score", "bound", "best_move", "pv", "solved", "status", *COUNTER_NAMES,
    "minimal_leaves", "minimal_source", "fen", "time_s",
)
"""The columns of ``results.csv``, in order."""

RESULTS_FILE = "results.csv"
RUN_FILE = "run.json"


class ResultsWriter:
    """Appends rows to ``results.csv`` as they are computed, flushed after each batch, so
    an interrupted run keeps every finished problem."""

    def __init__(self, path: Path) -> None:
        self.path = path
        new = not path.exists()
        self._file = path.open("a", newline="", encoding="utf-8")
        self._csv = csv.DictWriter(self._file, fieldnames=ROW_COLUMNS)
        if new:
            self._csv.writeheader()
            self._flush()

    def write(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Append ``rows`` and make them durable."""
        self._csv.writerows(rows)
        self._flush()

    def _flush(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a ``results.csv`` as text, without a last line torn by a crash."""
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        text = text[:text.rfind("\n") + 1]          # the last line was being written
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is not None and list(reader.fieldnames) != list(ROW_COLUMNS):
        raise HarnessError(f"{path}: columns differ from this harness's results (schema "
                           f"version {SCHEMA_VERSION})")
    return [row for row in reader if None not in row.values() and None not in row]


def rewrite_results(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    """Replace ``results.csv`` with ``rows`` atomically (header included)."""
    tmp = path.with_suffix(".csv.tmp")
    with tmp.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=ROW_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
        file.flush()
        os.fsync(file.fileno())
    os.replace(tmp, path)


def load_results(run_dir: str | Path) -> pd.DataFrame:
    """Read a run folder's ``results.csv``, checking the schema version in ``run.json``."""
    run_dir = Path(run_dir)
    info = load_run_info(run_dir)
    version = info.get("schema_version")
    if version != SCHEMA_VERSION:
        raise HarnessError(f"{run_dir / RUN_FILE}: schema version {version!r} is not "
                           f"supported (this harness reads version {SCHEMA_VERSION})")
    path = run_dir / RESULTS_FILE
    if not path.exists():
        raise HarnessError(f"{path}: no results file")
    text_columns = ("suite", "problem_id", "variant", "options", "bound", "best_move", "pv",
                    "status", "minimal_source", "fen")
    frame = pd.read_csv(path, dtype={c: str for c in text_columns}, keep_default_na=False,
                        na_values={"minimal_leaves": [""], "solved": [""], "score": [""]})
    missing = [c for c in ROW_COLUMNS if c not in frame.columns]
    if missing:
        raise HarnessError(f"{path}: missing columns: {', '.join(missing)}")
    return frame


def load_run_info(run_dir: Path) -> dict[str, Any]:
    path = run_dir / RUN_FILE
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HarnessError(f"{path}: not a run folder (no {RUN_FILE})") from None
    except json.JSONDecodeError as exc:
        raise HarnessError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    if not isinstance(info, dict):
        raise HarnessError(f"{path}: expected a JSON object")
    return info


def write_run_info(run_dir: Path, info: Mapping[str, Any]) -> None:
    """Write ``run.json`` atomically (a crash leaves the old or the new file, never half)."""
    path = run_dir / RUN_FILE
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(info, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def config_hash(config: Mapping[str, Any]) -> str:
    """sha256 of the configuration's canonical JSON: equal configurations, equal hashes."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def environment() -> dict[str, Any]:
    """Versions, git revision and machine, for ``run.json``."""
    versions: dict[str, str | None] = {}
    for package in ("harness", "numpy", "pandas", "click", "chess", "matplotlib"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "python": sys.version.split()[0],
        "versions": versions,
        "compiled_movegen": movegen.compiled_in_use(),
        "compiled_search": compiled.compiled_in_use(),
        "git_revision": _git_revision(),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "node": platform.node(),
        },
    }


def _git_revision() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                             text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                           capture_output=True, text=True, timeout=5, check=False)
    return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def now() -> str:
    """The current UTC time, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds")
