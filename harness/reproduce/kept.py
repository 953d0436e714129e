"""A reproduction kept in the repository, and a run compared with a kept one.

:func:`keep` writes the compact form of a finished run into a dated folder
(``docs/reproduction/<date>/``): its ``claims.json`` and ``verdicts.md`` as written, and the
data behind each verdict, ``data/<dataset>.csv.gz``: every row's question, variant and
counts, without the times (they differ from run to run; the counts must not). A second run
kept on the same day goes to ``<date>-2`` and so on. The README's table of verdicts, between
two markers (:func:`readme_table`), is the kept runs' ``verdicts.md`` rows, each claim's row
from the newest kept run that measured it (:func:`kept_table`: a confirmation of some claims
alone, such as one new rules version, replaces only their rows), and a test checks they are
equal.

:func:`compare` takes a run and an earlier one (kept or not). For every claim both judged by
the same rules (the rules' sha256) on the same data (their digest) at the same scale, it
compares the counts of the rows both measured, dataset by dataset: a count that differs
names both runs' commits and, where git knows both, the commits between them that touched
the searches or the games (:data:`TOUCHING`), the commits that can explain it. A difference
that no commit explains (the same commit, or none touching those folders, both trees clean)
is :attr:`Comparison.unexplained`: counts are meant to reproduce to the last digit.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import HarnessError
from harness.files import write_whole
from harness.reproduce.claims import CLAIMS
from harness.reproduce.document import QUESTION_COLUMNS, datasets_of
from harness.reproduce.measure import MEASURING_FILE
from harness.reproduce.provenance import TOUCHING, UNKNOWN, commits_between

KEPT_FOLDER = Path("docs") / "reproduction"
"""Where the kept runs are, relative to the checkout's top: one dated folder each."""

NOT_COUNTS = ("time_s", "frame")
"""Columns of the data that are not counts: left out of the compact form and of a comparison
(a time, and the frame that ran the search: ``harness.search.run.FRAMES``)."""

SHOWN = 5
"""Differing rows a comparison shows per claim and dataset (their number is always given)."""

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")

_FOLDER = re.compile(r"^\d{4}-\d{2}-\d{2}(-(\d+))?$")
"""A kept run's folder: its date, and ``-2`` and on for a second run of the day."""

README_BEGIN = "<!-- kept reproduction: "
"""How the README's block of the kept runs' verdicts begins: the marker names the files its
rows come from, ``<!-- kept reproduction: docs/reproduction/<date>/verdicts.md, ... -->``."""

README_END = "<!-- end of kept reproduction -->"
"""How the block ends."""


def _data_files(folder: Path) -> dict[str, Path]:
    """A run's data, by dataset: ``data/<name>.csv`` or ``data/<name>.csv.gz``."""
    found: dict[str, Path] = {}
    for path in sorted((folder / "data").glob("*.csv*")):
        name = path.name.removesuffix(".gz").removesuffix(".csv")
        if path.name.endswith((".csv", ".csv.gz")) and name != "disagreements":
            found[name] = path
    return found


def _record(folder: Path) -> dict[str, Any]:
    """A run's ``claims.json``."""
    path = folder / "claims.json"
    try:
        found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HarnessError(f"{path}: not found (is {folder} a finished reproduction?)") from None
    except ValueError as exc:
        raise HarnessError(f"{path}: not readable as JSON: {exc}") from None
    return found


def _finished(run: Path) -> str:
    """When the reproduction in ``run`` finished, from its ``measuring.json`` (``""``: not
    finished, or no readable record of it)."""
    try:
        settings = json.loads((run / MEASURING_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    return str(settings.get("finished") or "") if isinstance(settings, dict) else ""


def finished_run(run: Path) -> bool:
    """Whether ``run`` holds a finished reproduction (its ``measuring.json`` records a
    finish)."""
    return bool(_DATE.match(_finished(run)))


def keep(run: Path, root: Path) -> Path:
    """Write the compact form of the finished reproduction in ``run`` into ``root/<date>``
    (the date it finished, from its ``measuring.json``; ``-2`` and on after a run kept that
    day) and return that folder. Refuses a quick run, an unfinished one and one kept already
    (the same ``claims.json``)."""
    record = _record(run)
    if record.get("mode") == "quick":
        raise HarnessError(f"{run}: a quick run (the CI scale) is not kept: keep a full or a "
                           "confirmation run")
    finished = _finished(run)
    if not _DATE.match(finished):
        raise HarnessError(f"{run}: unfinished (its measuring.json records no finish); finish it "
                           f"with harness reproduce --resume {run}")
    claims = (run / "claims.json").read_bytes()
    for earlier in kept_runs(root):
        if (earlier / "claims.json").read_bytes() == claims:
            raise HarnessError(f"{run}: kept already, in {earlier}")
    dest = root / finished[:10]
    same_day = 2
    while dest.exists():            # a kept run is never overwritten
        dest, same_day = root / f"{finished[:10]}-{same_day}", same_day + 1
    (dest / "data").mkdir(parents=True)
    for name in ("claims.json", "verdicts.md"):
        shutil.copyfile(run / name, dest / name)
    for name, path in _data_files(run).items():
        frame = _read(path)
        text = frame.drop(columns=[c for c in NOT_COUNTS if c in frame.columns]).to_csv(index=False)
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as packed:
            packed.write(text.encode("utf-8"))
        (dest / "data" / f"{name}.csv.gz").write_bytes(buffer.getvalue())
    return dest


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype={"problem_id": str}, low_memory=False)


def _age(folder: Path) -> tuple[str, int]:
    found = _FOLDER.match(folder.name)
    return folder.name[:10], int(found.group(2)) if found and found.group(2) else 1


def kept_runs(root: Path) -> list[Path]:
    """The kept runs under ``root``, oldest first (their folders are dates, ``-2`` and on for
    a second run of a day)."""
    if not root.is_dir():
        return []
    return sorted((p for p in root.iterdir()
                   if p.is_dir() and _FOLDER.match(p.name) and (p / "claims.json").exists()), key=_age)


def _claim_keys(run: Path) -> set[str]:
    return {str(c["key"]) for c in _record(run).get("claims", [])}


@dataclass(frozen=True)
class CountDifference:
    """Rows of one dataset where a claim's two runs counted differently."""

    claim: str
    """The claim's key."""
    dataset: str
    """The dataset (``chess``, ``sweep``, a claim's own)."""
    differing: int
    """Rows measured by both runs whose counts differ."""
    compared: int
    """Rows measured by both runs."""
    examples: tuple[str, ...]
    """The first :data:`SHOWN` of them: the question, the variant, and each count that differs."""


@dataclass
class Comparison:
    """A run against an earlier one."""

    new: str
    """The new run's folder."""
    old: str
    """The earlier run's folder."""
    new_source: Mapping[str, Any]
    """The new run's commit and whether its tree was clean (``claims.json``'s source)."""
    old_source: Mapping[str, Any]
    """The earlier run's."""
    between: list[str] | None
    """The commits after the earlier run's, up to the new run's, that touched
    :data:`TOUCHING` (``hash subject``), newest first; ``None`` where git cannot say."""
    compared: list[str] = field(default_factory=list)
    """The claims compared (same rules, data and scale)."""
    skipped: dict[str, str] = field(default_factory=dict)
    """The claims not compared, with why."""
    differences: list[CountDifference] = field(default_factory=list)
    """Every claim's and dataset's rows whose counts differ."""

    @property
    def unexplained(self) -> bool:
        """Counts differ and no commit explains it: the same commit, or none between the two
        touching the searches or games, and both trees clean."""
        if not self.differences:
            return False
        clean = self.new_source.get("clean") is True and self.old_source.get("clean") is True
        return clean and self.between == []

    def lines(self) -> list[str]:
        """The comparison in words, one line each."""
        out = [f"compared with {self.old} (commit {_short(self.old_source)}) at commit "
               f"{_short(self.new_source)}: " + (", ".join(self.compared) or "no claim")
               + " under the same rules, data and scale"]
        out += [f"  {key}: not compared ({why})" for key, why in self.skipped.items()]
        if not self.differences:
            if self.compared:
                out.append("  every count of the rows both measured is the same")
            return out
        for d in self.differences:
            out.append(f"  {d.claim}, {d.dataset}: {d.differing} of {d.compared} rows counted "
                       "differently")
            out += [f"    {example}" for example in d.examples]
        if self.between is None:
            out.append("  the commits between the two runs: git cannot say (a commit unknown or "
                       "not in this checkout)")
        elif self.between:
            out.append(f"  commits between them that touched {' or '.join(TOUCHING)} (any may "
                       "explain it):")
            out += [f"    {line}" for line in self.between]
        else:
            out.append(f"  no commit between them touched {' or '.join(TOUCHING)}")
        for name, source in (("new", self.new_source), ("earlier", self.old_source)):
            if source.get("clean") is not True:
                out.append(f"  the {name} run's tree was not clean ({source.get('clean')}): "
                           "uncommitted changes may explain it")
        if self.unexplained:
            out.append("  unexplained: no commit accounts for these differences")
        return out


def _short(source: Mapping[str, Any]) -> str:
    commit = str(source.get("commit", UNKNOWN))
    return commit[:12] + ("" if source.get("clean") is True else " (tree not clean)")


def _rules_key(claim: Mapping[str, Any]) -> tuple[Any, ...] | None:
    rules = claim.get("rules")
    if not rules:
        return None
    data = rules.get("data") or {}
    return rules.get("rules_sha256"), data.get("digest")


def _differences(key: str, dataset: str, new: pd.DataFrame, old: pd.DataFrame) -> CountDifference:
    """The rows of ``dataset`` both runs measured, and those whose counts differ."""
    keys = [c for c in (*QUESTION_COLUMNS, "variant") if c in new.columns and c in old.columns]
    counts = [c for c in new.columns if c in old.columns and c not in keys and c not in NOT_COUNTS]
    both = new[keys + counts].merge(old[keys + counts], on=keys, how="inner", suffixes=("", "@old"))
    differs = pd.Series(False, index=both.index)
    for c in counts:
        a, b = both[c], both[f"{c}@old"]
        differs |= ~((a == b) | (a.isna() & b.isna()))
    examples = []
    for _, row in both[differs].head(SHOWN).iterrows():
        where = ", ".join(f"{k}={row[k]}" for k in keys if pd.notna(row[k]))
        changed = "; ".join(f"{c} {row[f'{c}@old']} -> {row[c]}" for c in counts
                            if not (row[c] == row[f"{c}@old"]
                                    or (pd.isna(row[c]) and pd.isna(row[f"{c}@old"]))))
        examples.append(f"{where}: {changed}")
    return CountDifference(key, dataset, int(differs.sum()), len(both), tuple(examples))


def compare(new: Path, old: Path) -> Comparison:
    """Compare the run in ``new`` with the earlier run in ``old`` (see the module's docstring)."""
    new_record, old_record = _record(new), _record(old)
    sources = [r.get("provenance", {}).get("source", {}) for r in (new_record, old_record)]
    found = Comparison(str(new), str(old), sources[0], sources[1],
                       commits_between(str(sources[1].get("commit", UNKNOWN)),
                                       str(sources[0].get("commit", UNKNOWN))))
    earlier = {c["key"]: c for c in old_record.get("claims", [])}
    infos = {c.key: c for c in CLAIMS}
    new_data, old_data = _data_files(new), _data_files(old)
    frames: dict[tuple[str, str], pd.DataFrame] = {}

    def frame(which: str, dataset: str) -> pd.DataFrame:
        if (which, dataset) not in frames:
            files = new_data if which == "new" else old_data
            frames[which, dataset] = _read(files[dataset])
        return frames[which, dataset]

    for claim in new_record.get("claims", []):
        key = claim["key"]
        why = _not_comparable(claim, earlier.get(key), new_record, old_record, key in infos)
        if why:
            found.skipped[key] = why
            continue
        found.compared.append(key)
        for dataset in datasets_of(infos[key]):
            if dataset in new_data and dataset in old_data:
                diff = _differences(key, dataset, frame("new", dataset), frame("old", dataset))
                if diff.differing:
                    found.differences.append(diff)
    return found


def _not_comparable(claim: Mapping[str, Any], before: Mapping[str, Any] | None,
                    new: Mapping[str, Any], old: Mapping[str, Any], known: bool) -> str:
    """Why a claim of two runs is not compared (empty: it is)."""
    if before is None:
        return "the earlier run did not measure it"
    if not known:
        return "no longer a claim"
    mine, theirs = _rules_key(claim), _rules_key(before)
    if mine is None or theirs is None:
        return "no rules file"
    if mine[0] != theirs[0]:
        return (f"other rules: version {claim['rules']['version']} against "
                f"{before['rules']['version']}")
    if mine[1] != theirs[1]:
        return "other data"
    if new.get("scale") != old.get("scale") or new.get("mode") != old.get("mode"):
        return "another scale"
    return ""


def write_comparison(out_dir: Path, comparison: Comparison) -> Path:
    """``comparison.md`` in ``out_dir``: the comparison's lines."""
    path = out_dir / "comparison.md"
    write_whole(path, "# Counts against an earlier run of the same rules\n\n```\n"
                + "\n".join(comparison.lines()) + "\n```\n")
    return path


def readme_table(readme: str) -> tuple[str, str] | None:
    """The README's block of the kept runs' verdicts: the files it names (as written in its
    marker) and the table between the markers; ``None`` without a block."""
    start = readme.find(README_BEGIN)
    if start < 0:
        return None
    head_end = readme.find("-->", start)
    end = readme.find(README_END, head_end)
    if head_end < 0 or end < 0:
        raise HarnessError(f"README: the block {README_BEGIN.strip()} ... is not closed by "
                           f"{README_END}")
    name = readme[start + len(README_BEGIN):head_end].strip()
    return name, readme[head_end + 3:end].strip("\n") + "\n"


def _rows(verdicts: str) -> tuple[list[str], dict[int, str]]:
    """A ``verdicts.md``'s two header lines and its rows by claim number."""
    lines = [line for line in verdicts.splitlines() if line.startswith("|")]
    rows = {}
    for line in lines[2:]:
        number = line.split("|")[1].strip()
        if number.isdigit():
            rows[int(number)] = line
    return lines[:2], rows


def kept_table(kept: Sequence[Path], top: Path) -> tuple[str, str]:
    """The kept runs' table: each claim's row from the newest kept run with a row for it, in
    claim order, and the files the rows come from (relative to ``top``, oldest first, comma
    separated). ``kept`` is oldest first (:func:`kept_runs`)."""
    header: list[str] = []
    chosen: dict[int, tuple[str, Path]] = {}
    for run in kept:
        found_header, rows = _rows((run / "verdicts.md").read_text(encoding="utf-8"))
        header = header or found_header
        chosen.update({number: (row, run) for number, row in rows.items()})
    used = sorted({run for _, run in chosen.values()}, key=_age)
    names = ", ".join((run / "verdicts.md").resolve().relative_to(top.resolve()).as_posix()
                      for run in used)
    return names, "\n".join([*header, *(chosen[n][0] for n in sorted(chosen))]) + "\n"


def readme_block(kept: Sequence[Path], top: Path) -> str:
    """The README's block for the kept runs under ``top`` (:func:`kept_table`)."""
    names, table = kept_table(kept, top)
    return f"{README_BEGIN}{names} -->\n{table}{README_END}\n"


def readme_differences(readme: str, kept: Sequence[Path], top: Path) -> list[str]:
    """Where the README's table is not the kept runs' table (:func:`kept_table`; empty: it
    is, or there is no kept run and no table)."""
    block = readme_table(readme)
    if not kept:
        return [] if block is None else [f"the README shows {block[0]}, but no run is kept"]
    names, table = kept_table(kept, top)
    if block is None:
        return [f"the README shows no kept run's verdicts ({names} kept)"]
    shown, shown_table = block
    problems = []
    if shown != names:
        problems.append(f"the README's block names {shown}, the kept rows come from {names}")
    if shown_table != table:
        problems.append(f"the README's table differs from the kept rows of {names}")
    return problems


def readme_with_kept(readme: str, kept: Sequence[Path], top: Path) -> str:
    """``readme`` with its block replaced by the kept runs' (:func:`readme_block`)."""
    start = readme.find(README_BEGIN)
    end = readme.find(README_END, start)
    if start < 0 or end < 0:
        raise HarnessError(f"README: no block {README_BEGIN.strip()} ... {README_END} to replace")
    return readme[:start] + readme_block(kept, top) + readme[end + len(README_END) + 1:]


def compare_with_earlier(out_dir: Path, against: Path | None, root: Path | None) -> Comparison | None:
    """Compare the run in ``out_dir`` with ``against`` or, without it, with the newest kept
    run under ``root`` that measured one of its claims (or else the newest; none kept:
    ``None``), and write ``comparison.md`` into ``out_dir``."""
    if against is None:
        kept = [p for p in kept_runs(root) if p.resolve() != out_dir.resolve()] if root else []
        mine = _claim_keys(out_dir)
        sharing = [p for p in kept if _claim_keys(p) & mine]   # a run of other claims says nothing
        if not kept:
            return None
        against = (sharing or kept)[-1]
    found = compare(out_dir, against)
    write_comparison(out_dir, found)
    return found
