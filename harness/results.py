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
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from harness.errors import HarnessError
from harness.files import read_json, write_whole, writing
from harness.games.checkers import compiled as checkers_compiled
from harness.games.chess import movegen
from harness.games.connect4 import compiled as connect4_compiled
from harness.games.openspiel import cursor as openspiel_cursor
from harness.games.othello import compiled as othello_compiled
from harness.search import compiled, engine
from harness.search.counters import COUNTER_NAMES, SELECTIVE_COUNTERS, TREE_COUNTER_NAMES

SCHEMA_VERSION = 4
"""Version of the layout of ``results.csv`` and ``run.json``; loading checks it. Version 4
added UCI engines' rows (the ``subject``, ``depth_reached`` and ``seldepth`` columns, and
``run.json``'s ``engines``), version 3 the ``frame`` column, version 2 the ``game`` column
(and made ``fen`` chess's own column); versions 1 to 3 are still read."""
READABLE_VERSIONS = (1, 2, 3, SCHEMA_VERSION)
"""Versions :func:`load_results` reads (a version-1 run's ``game`` comes from its suites;
a run before version 3 has an empty ``frame``: :data:`UNKNOWN_FRAME`; one before version 4
holds only the harness's own searches: ``subject`` :data:`VARIANT`)."""

ROW_COLUMNS = (
    "game", "suite", "problem_id", "variant", "options", "depth", "tt_size", "iterative",
    "score", "bound", "best_move", "pv", "solved", "status", *COUNTER_NAMES,
    *TREE_COUNTER_NAMES, "minimal_leaves", "minimal_source", "subject", "depth_reached", "seldepth",
    "time_s", "frame",
)
"""The columns of every ``results.csv``, in order; the games of a run add theirs after
(:attr:`harness.games.base.Game.columns`, recorded in ``run.json``)."""

VARIANT = "variant"
"""The ``subject`` of a row searched by the harness's own search (a variant)."""
ENGINE = "engine"
"""The ``subject`` (and the ``frame``) of a row searched by a UCI engine
(:mod:`harness.engines`): its ``variant`` is the engine's name."""
NOT_MEASURED = tuple(c for c in (*COUNTER_NAMES, *TREE_COUNTER_NAMES, "tt_size", "iterative")
                     if c != "nodes")
"""The columns an engine's row leaves empty: the harness's own counters (and its table and
deepening), which no engine reports; ``nodes`` is the engine's own count."""

LATER_COLUMNS = {"tt_deep_cutoffs": "0", "frame": "", "repetition_draws": "0",
                 **{name: "0" for name in SELECTIVE_COUNTERS}, "refutation_moves": "0",
                 "subject": VARIANT, "depth_reached": "", "seldepth": ""}
"""Columns added after schema version 2 was first written, each with what a results file
without it is read with: 0 for a counter (its searches were made before the harness counted
it; the selective switches' counters: before those switches), an empty ``frame`` (nobody
recorded which frame ran them: :data:`UNKNOWN_FRAME`), the ``subject`` :data:`VARIANT` and
no depth reached (no engine searched before version 4)."""

UNKNOWN_FRAME = "frame unknown"
"""What is said of a row whose ``frame`` is empty (a results file of schema version 1 or 2)."""

RESULTS_FILE = "results.csv"
RUN_FILE = "run.json"


class ResultsWriter:
    """Appends rows to ``results.csv`` as they are computed, flushed after each batch, so
    an interrupted run keeps every finished problem."""

    def __init__(self, path: Path, columns: Sequence[str] = ROW_COLUMNS) -> None:
        self.path = path
        new = not path.exists()
        self._file = path.open("a", newline="", encoding="utf-8")
        self._csv = csv.DictWriter(self._file, fieldnames=list(columns))
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


class DamagedResultsWarning(UserWarning):
    """``results.csv`` held lines that are not complete rows (a run killed mid-write):
    they were skipped, every complete row was read."""


def read_rows(path: Path) -> list[dict[str, str]]:
    """The complete rows of a ``results.csv`` as text (see :func:`scan_rows`), unchecked."""
    return scan_rows(path)[0]


def scan_rows(path: Path) -> tuple[list[dict[str, str]], list[int], str]:
    """The complete rows of a ``results.csv`` as text, the line each ends on, and what was
    skipped (``""``: the file is whole): a last line torn by a crash, a torn or missing
    header, rows with too few or too many fields."""
    text = path.read_text(encoding="utf-8", errors="replace")
    skipped = []
    if text and not text.endswith("\n"):
        torn = text[text.rfind("\n") + 1:]
        text = text[:len(text) - len(torn)]          # the last line was being written
        skipped.append(f"a last line torn mid-write ({len(torn)} bytes)")
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None:
        return [], [], "; ".join(skipped) if skipped else "an empty file (no header)"
    missing = [c for c in ROW_COLUMNS if c not in reader.fieldnames and c != "game"
               and c not in LATER_COLUMNS]
    if missing:
        raise HarnessError(f"{path}: columns differ from this harness's results (schema "
                           f"version {SCHEMA_VERSION}; no {', '.join(missing)})")
    rows = []
    lines = []
    malformed = 0
    for row in reader:
        if None in row.values() or None in row:
            malformed += 1
        else:
            rows.append({**LATER_COLUMNS, **row})
            lines.append(reader.line_num)
    if malformed:
        skipped.append(f"{malformed} row{'s' if malformed > 1 else ''} with the wrong number "
                       "of fields")
    return rows, lines, "; ".join(skipped)


def rewrite_results(path: Path, rows: Iterable[Mapping[str, Any]],
                    columns: Sequence[str] = ROW_COLUMNS) -> None:
    """Replace ``results.csv`` with ``rows`` atomically (header included)."""
    with writing(path) as file:
        writer = csv.DictWriter(file, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(rows)


NUMBER_COLUMNS = ("depth", "tt_size", "iterative", "score", "solved", *COUNTER_NAMES,
                  *TREE_COUNTER_NAMES, "minimal_leaves", "depth_reached", "seldepth", "time_s")
"""Columns of ``results.csv`` read as numbers; the others (a game's columns too) are text."""
OPTIONAL_NUMBERS = ("minimal_leaves", "solved", "score", "depth_reached", "seldepth")
"""Numeric columns that may be empty (NaN); an engine's row leaves :data:`NOT_MEASURED`
empty too, and its ``nodes`` when its search ended without a result."""


SEARCH_KEY = ("suite", "problem_id", "variant", "depth")
"""What identifies one search of a run: a second row with the same is a duplicate."""
COUNT_COLUMNS = (*COUNTER_NAMES, *TREE_COUNTER_NAMES, "minimal_leaves", "tt_size")
"""Numeric columns that count something: never negative."""


@dataclass(frozen=True)
class CheckedRows:
    """The rows of a ``results.csv`` that passed :func:`check_rows`."""

    text: list[dict[str, str]]
    """Each row as its text, in file order (what a resume writes back unchanged)."""
    frame: pd.DataFrame
    """The same rows with :data:`NUMBER_COLUMNS` as numbers."""
    skipped: str
    """What was left out as damage (a torn line, a count that is not a number); ``""``: none."""


def read_results(path: Path, info: Mapping[str, Any]) -> CheckedRows:
    """The rows of the ``results.csv`` at ``path`` of the run ``info`` (its ``run.json``),
    checked (:func:`check_rows`). The one way every command reads rows."""
    rows, lines, skipped = scan_rows(path) if path.exists() else ([], [], "")
    if info.get("schema_version") == 1:
        _add_games(rows, info)
    return check_rows(path, rows, lines, skipped, info)


def check_rows(path: Path, rows: list[dict[str, str]], lines: list[int], skipped: str,
               info: Mapping[str, Any]) -> CheckedRows:
    """``rows`` (read from ``path``, each ending on its line of ``lines``) without those a
    crash may have damaged (a count that is not a number: said in ``skipped``), and a
    :class:`HarnessError` naming the file, line and field of the first row that cannot
    be right: a negative count or depth, a variant or problem set the run does not have
    (by ``info``, its ``run.json``), the same search twice (both lines named)."""
    extra = [c for c in (rows[0] if rows else {}) if c not in ROW_COLUMNS]
    frame = pd.DataFrame(rows, columns=[*ROW_COLUMNS, *extra])
    for column in NUMBER_COLUMNS:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")    # "" is NaN
    line = pd.Series(lines, dtype="int64")
    required = [c for c in NUMBER_COLUMNS if c not in OPTIONAL_NUMBERS]
    ours = [c for c in required if c not in (*NOT_MEASURED, "nodes")]
    engine = (frame["subject"] == ENGINE).to_numpy()
    bad = np.where(engine, frame[ours].isna().any(axis=1).to_numpy(),
                   frame[required].isna().any(axis=1).to_numpy())
    if bad.any():
        skipped = "; ".join(filter(None, [skipped, f"{int(bad.sum())} rows with a count that "
                                                   "is not a number"]))
        keep = ~bad
        frame, line = frame[keep].reset_index(drop=True), line[keep].reset_index(drop=True)
        rows = [row for row, ok in zip(rows, keep, strict=True) if ok]
    at = f"{path}:{{}}: "
    checks: list[tuple[str, pd.Series, str]] = [
        *((c, frame[c] < 0, "a count cannot be negative") for c in COUNT_COLUMNS),
        ("depth", frame["depth"] < 1, "a depth is at least 1"),
        ("time_s", ~(frame["time_s"] >= 0) | ~np.isfinite(frame["time_s"]),
         "a time is finite and not negative"),
    ]
    subjects = {**dict(info.get("variants") or {}), **dict(info.get("engines") or {})}
    subject = "variant or engine" if info.get("engines") else "variant"
    for name, recorded in (("variant", subjects), ("suite", info.get("suites"))):
        if isinstance(recorded, Mapping) and recorded:
            checks.append((name, ~frame[name].isin(list(recorded)),
                           f"not a {subject if name == 'variant' else 'problem set'} of this "
                           f"run (run.json: {', '.join(map(str, recorded))})"))
    for name, wrong, reason in checks:
        if wrong.any():
            i = int(np.flatnonzero(wrong.to_numpy())[0])
            raise HarnessError(at.format(line[i]) + f"{name} {rows[i][name]!r}: {reason}")
    twice = frame.duplicated(list(SEARCH_KEY), keep=False).to_numpy()
    if twice.any():
        i = int(np.flatnonzero(twice)[0])
        same = (frame[list(SEARCH_KEY)] == frame.loc[i, list(SEARCH_KEY)]).all(axis=1).to_numpy()
        first, second = (int(line[j]) for j in np.flatnonzero(same)[:2])
        row = rows[i]
        what = f"{row['suite']} problem {row['problem_id']}, {row['variant']} at depth {row['depth']}"
        raise HarnessError(f"{path}:{second}: the same search as line {first} ({what}): a row "
                           "is there twice")
    return CheckedRows(rows, frame, skipped)


OUTPUTS = (("a run (harness run)", RESULTS_FILE), ("a match (harness match)", "games.csv"),
           ("a reproduction (harness reproduce)", "report.md"))
"""What each command leaves in its folder, by a file only it writes (the match's
``games.csv``, the reproduction's ``report.md``), so that one command refuses another's folder."""


def held_by(folder: Path) -> str | None:
    """What ``folder`` holds of :data:`OUTPUTS` (``None``: none of them)."""
    for what, name in OUTPUTS:
        if (folder / name).exists():
            return what
    return None


def refuse_other_output(folder: Path, mine: str, hint: str = "choose another --out") -> None:
    """Refuse ``folder`` when it holds another command's output than ``mine`` (one of
    :data:`OUTPUTS`' descriptions' command names: ``run``, ``match``, ``reproduce``)."""
    held = held_by(folder)
    if held is not None and f"harness {mine})" not in held:
        wanted = next(what for what, _ in OUTPUTS if f"harness {mine})" in what)
        raise HarnessError(f"{folder}: holds {held}, not {wanted.split(' (')[0]}: {hint}")


def missing_searches(info: Mapping[str, Any], results: pd.DataFrame) -> int:
    """How many searches a finished run planned (``run.json``: its problems x (variants and
    engines) x depths, one depth per problem searched to its own) that ``results`` lacks: a file cut
    or edited after the run (0 for an unfinished run, which says so itself)."""
    if not info.get("finished"):
        return 0
    try:
        depths = len((info.get("config") or {}).get("depths") or [None])
        planned = int(info["problems"]) * (len(info["variants"]) + len(info.get("engines") or {})) * depths
    except (KeyError, TypeError, ValueError):
        return 0
    return max(0, planned - len(results))


def incomplete_line(run_dir: Path, info: Mapping[str, Any], results: pd.DataFrame) -> str:
    """The warning for a run whose results.csv lacks searches it made (empty if none, and
    for a file torn mid-row: :class:`DamagedResultsWarning` already says that)."""
    missing = missing_searches(info, results)
    path = run_dir / RESULTS_FILE
    if not missing or (path.is_file() and not path.read_bytes().endswith(b"\n")):
        return ""
    return (f"INCOMPLETE: {run_dir / RESULTS_FILE} holds {len(results)} of the "
            f"{len(results) + missing} searches the run made ({missing} missing: the file was "
            "cut or edited); what is shown covers only the rows it holds")


def load_results(run_dir: str | Path) -> pd.DataFrame:
    """Read a run folder's ``results.csv``, checking the schema version in ``run.json`` and
    every row (:func:`check_rows`).

    A damaged file (a run killed mid-write) is read as far as its rows are complete; what
    was skipped is said in a :class:`DamagedResultsWarning` (``harness run --resume``
    repairs the file). A file without one complete row is a :class:`HarnessError`.
    """
    if not isinstance(run_dir, str | Path):
        raise HarnessError(f"load_results: {run_dir!r} is not a run folder's path")
    run_dir = Path(run_dir)
    if run_dir.is_file():
        raise HarnessError(f"{run_dir}: a file; load_results reads a run folder (the folder "
                           f"that holds {RESULTS_FILE} and {RUN_FILE})")
    if not (run_dir / RESULTS_FILE).exists():
        refuse_other_output(run_dir, "run", "this reads a run's results.csv")
    info = load_run_info(run_dir)
    version = info.get("schema_version")
    if version not in READABLE_VERSIONS:
        raise HarnessError(f"{run_dir / RUN_FILE}: schema version {version!r} is not "
                           f"supported (this harness reads versions "
                           f"{', '.join(map(str, READABLE_VERSIONS))})")
    path = run_dir / RESULTS_FILE
    if not path.exists():
        raise HarnessError(f"{path}: no results file")
    checked = read_results(path, info)
    frame, skipped = checked.frame, checked.skipped
    repair = f"finish or repair it with: harness run --resume {run_dir}"
    if frame.empty:
        what = f"no complete result rows (skipped {skipped})" if skipped else \
            "a header and no rows (no problem finished)"
        raise HarnessError(f"{path}: {what}; {repair}")
    for column in NUMBER_COLUMNS:
        # An engine's rows leave the harness's counters empty (NaN): those stay floats.
        if column not in OPTIONAL_NUMBERS and column != "time_s" and frame[column].notna().all():
            frame[column] = frame[column].astype("int64")
    if skipped:
        warnings.warn(f"{path}: read {len(frame)} complete rows, skipped {skipped}; {repair}",
                      DamagedResultsWarning, stacklevel=2)
    return frame


V1_GAMES = {"epd": "chess", "synthetic": "random", "tree": "tree"}
"""The game of each kind of problem set a version-1 ``run.json`` records."""


def _add_games(rows: list[dict[str, str]], info: Mapping[str, Any]) -> None:
    """A version-1 run's rows with their ``game``, from its record of each suite's kind."""
    kinds = {name: record.get("kind", "") for name, record in info.get("suites", {}).items()}
    for row in rows:
        row["game"] = V1_GAMES.get(kinds.get(row["suite"], ""), "")


def find_runs(folder: str | Path) -> list[Path]:
    """``folder`` when it is a run folder, else the run folders directly inside it (the
    default run writes ``trees/`` and ``chess/`` side by side), in name order."""
    folder = Path(folder)
    if (folder / RUN_FILE).exists():
        return [folder]
    runs = sorted(p for p in folder.iterdir() if (p / RUN_FILE).exists()) if folder.is_dir() else []
    if not runs:
        raise HarnessError(f"{folder}: neither a run folder nor a folder of runs (no {RUN_FILE})")
    return runs


def load_run_info(run_dir: Path) -> dict[str, Any]:
    path = run_dir / RUN_FILE
    info = read_json(path, f"{path}: not a run folder (no {RUN_FILE})")
    if not isinstance(info, dict):
        raise HarnessError(f"{path}: expected a JSON object")
    return info


def write_run_info(run_dir: Path, info: Mapping[str, Any]) -> None:
    """Write ``run.json`` atomically (a crash leaves the old or the new file, never half)."""
    write_whole(run_dir / RUN_FILE, json.dumps(info, indent=2, sort_keys=False) + "\n")


def config_hash(config: Mapping[str, Any]) -> str:
    """sha256 of the configuration's canonical JSON: equal configurations, equal hashes."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def environment() -> dict[str, Any]:
    """Versions, git revision and machine, for ``run.json``."""
    versions: dict[str, str | None] = {}
    for package in ("harness", "numpy", "pandas", "click", "chess", "matplotlib"):
        try:
            # Recorded as "harness" still (what run.json's readers know), read from the
            # distribution's own name (the name harness is someone else's on PyPI).
            versions[package] = metadata.version("gametree-harness" if package == "harness" else package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "python": sys.version.split()[0],
        "versions": versions,
        "compiled_movegen": movegen.compiled_in_use(),
        "compiled_search": compiled.compiled_in_use(),
        "compiled_frame": engine.engine_in_use(),
        "compiled_connect4": connect4_compiled.compiled_in_use(),
        "compiled_othello": othello_compiled.compiled_in_use(),
        "compiled_checkers": checkers_compiled.compiled_in_use(),
        "compiled_openspiel": openspiel_cursor.compiled_in_use(),
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
