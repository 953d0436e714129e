"""What a run's ``report.html`` shows, as plain values for its template
(``templates/report.html.j2``): every number already formatted, every text as it is (the
template escapes it), and flags where the page marks something (a significant ratio, a
hash drawn as code). No markup here: the templates hold all of it."""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from harness.report.answers import DISAGREEMENTS_FILE, AnswerCheck
from harness.report.compare import Comparison
from harness.report.measures import brief_verdict, format_p
from harness.report.render import png_source
from harness.report.summary import SetNames, set_names
from harness.results import UNKNOWN_FRAME

EMPTY = "–"
"""What a cell without a value shows."""


@dataclass(frozen=True)
class Cell:
    """One table cell."""

    text: str
    """What it shows (plain text)."""
    strong: bool = False
    """Drawn bold: a significant difference."""
    code: bool = False
    """Drawn as code (a hash)."""


@dataclass(frozen=True)
class Table:
    """A table of plain cells."""

    headers: tuple[str, ...]
    """The column headings."""
    rows: tuple[tuple[Cell, ...], ...]
    """The rows, each as wide as ``headers``."""
    text_columns: int = 1
    """How many columns, from the left, hold text (aligned left, wrapped); the others
    hold numbers (aligned right)."""


@dataclass(frozen=True)
class SetTable:
    """A table of one problem set."""

    label: str
    """The set's short name (what sets the page's sets apart)."""
    table: Table
    """Its rows."""


@dataclass(frozen=True)
class VerdictEntry:
    """A variant's verdict on one problem set, at its deepest depth."""

    ratio: str
    """B/A, formatted."""
    interval: str
    """Its 95% interval."""
    counts: str
    """Problems with fewer / equal / more nodes than the baseline."""
    verdict: str
    """A few words of verdict."""
    significant: bool
    """Whether the difference is significant (drawn bold)."""
    conditions: str
    """How B and A searched differently; empty when alike."""


@dataclass(frozen=True)
class VerdictRow:
    """One variant's verdicts, a problem set beside the other."""

    variant: str
    """The variant (B)."""
    entries: tuple[VerdictEntry | None, ...]
    """One per problem set of :attr:`VerdictTable.sets`; ``None``: not searched there."""


@dataclass(frozen=True)
class VerdictTable:
    """Every variant's verdict per problem set, side by side."""

    sets: tuple[str, ...]
    """Each set's heading: its short name and the depth compared."""
    rows: tuple[VerdictRow, ...]
    """One per variant other than the baseline."""


@dataclass(frozen=True)
class FullVerdict:
    """A verdict in full at one depth."""

    depth: str
    """The depth."""
    verdict: str
    """The sentence."""
    largest: str
    """The problems that differ most; empty: none named."""


@dataclass(frozen=True)
class SetVerdicts:
    """The full verdicts of one problem set."""

    label: str
    """The set's short name."""
    verdicts: tuple[FullVerdict, ...]
    """One per variant at its deepest depth."""


@dataclass(frozen=True)
class Figure:
    """A chart embedded in the page."""

    name: str
    """Its file name without suffix (the anchor ``chart-NAME``)."""
    title: str
    """Its heading and alternative text."""
    source: str
    """The PNG as a ``data:`` URL."""


@dataclass(frozen=True)
class AnswersBox:
    """What the page says of the exact variants' answers, above everything else."""

    disagree: bool
    """Whether some disagree (the page opens with a red box then)."""
    text: str
    """When they disagree, which variants and on how many problems; else one line: they
    agree, or why they were not checked."""
    first: tuple[str, ...] = ()
    """When they disagree: the first few disagreements."""
    file: str = DISAGREEMENTS_FILE
    """The file that holds every answer to those problems."""


@dataclass(frozen=True)
class ProblemSetCount:
    """A problem set in the page's opening sentence."""

    label: str
    """The set's short name."""
    problems: str
    """Its number of problems, formatted."""


@dataclass(frozen=True)
class RunField:
    """A line of the run's description."""

    name: str
    """What it is."""
    value: str
    """Its value."""
    code: bool = False
    """Drawn as code (a command, a hash)."""


@dataclass(frozen=True)
class RunInfo:
    """The run, from its ``run.json``."""

    fields: tuple[RunField, ...]
    """Command, hash, versions, machine..."""
    config: str
    """The configuration as indented JSON."""
    variants: Table | None
    """Each variant's name, options and source; ``None``: not recorded."""
    problem_sets: Table | None
    """Each problem set's game, options, source and sha256; ``None``: not recorded."""
    engines: Table | None = None
    """Each UCI engine's name, ``id name``, command, options set and limits; ``None``: the
    run had none."""


@dataclass(frozen=True)
class ReportPage:
    """Everything ``report.html`` shows, in the order it shows it."""

    title: str
    """The page's title and first heading: what it shows (:func:`page_title`)."""
    config_hash: str
    """The run's configuration hash (the page's metadata; empty: not recorded)."""
    answers: AnswersBox | None
    """Whether the exact variants' answers agree; ``None``: not said."""
    variants: int
    """How many variants the run compared."""
    baseline: str
    """Variant A."""
    depths: str
    """The depths searched, in words."""
    common: str
    """What the problem sets' names share (said once); empty: nothing."""
    sets: tuple[ProblemSetCount, ...]
    """Every problem set with its number of problems."""
    lead_figure: Figure | None
    """The relative-nodes chart the page opens with; ``None``: not drawn."""
    verdicts: VerdictTable | None
    """The verdicts per variant and set; ``None``: only one variant."""
    side_by_side: tuple[SetTable, ...]
    """In a run with UCI engines, the summary at each set's deepest depth shown open: the
    variants' and the engines' nodes and solve rates side by side; empty otherwise."""
    left_out: tuple[str, ...]
    """A line for each chart left out, and why."""
    figures: tuple[Figure, ...]
    """The other charts."""
    summary_rows: int
    """Rows of the summary."""
    summary: tuple[SetTable, ...]
    """The summary, a table per problem set."""
    comparison_rows: int
    """Rows of the comparison."""
    comparison: tuple[SetTable, ...]
    """Every variant against the baseline at every depth, a table per problem set."""
    full_verdicts: tuple[SetVerdicts, ...]
    """The verdicts in full with the problems that differ most."""
    resamples: int
    """Bootstrap resamples per interval (the method)."""
    seed: int
    """The bootstrap's seed (the method)."""
    run: RunInfo
    """The run."""


def number(value: object, digits: int = 3) -> str:
    """A number with ``digits`` decimals; :data:`EMPTY` for none or NaN."""
    if value is None:
        return EMPTY
    x = float(value)  # type: ignore[arg-type]
    return EMPTY if math.isnan(x) else f"{x:.{digits}f}"


def percent(value: object) -> str:
    """A rate as a percentage with one decimal; :data:`EMPTY` for none or NaN."""
    if value is None:
        return EMPTY
    x = float(value)  # type: ignore[arg-type]
    return EMPTY if math.isnan(x) else f"{x * 100:.1f}%"


def count(value: object) -> str:
    """A count with thousands separators; :data:`EMPTY` for none or NaN."""
    if value is None:
        return EMPTY
    x = float(value)  # type: ignore[arg-type]
    return EMPTY if math.isnan(x) else f"{int(x):,}"


def _interval(row: Mapping[Any, Any]) -> str:
    return f"{number(row['ratio_low'])} to {number(row['ratio_high'])}"


def _cells(*texts: object) -> tuple[Cell, ...]:
    return tuple(Cell(str(t)) for t in texts)


def summary_tables(summary: pd.DataFrame, baseline: str, names: SetNames) -> tuple[SetTable, ...]:
    """The summary, a table per problem set (solve columns only when some set has
    solved values; the frame beside the time when the run's searches ran in several)."""
    has_solved = bool(summary["solve_rate"].notna().any())
    frames = "frame" in summary.columns and (summary["frame"].nunique() > 1
                                             or UNKNOWN_FRAME in set(summary["frame"]))
    headers = ["variant", "depth", "problems", "nodes", "leaves",
               f"nodes / {baseline} (geo. mean)", "95% interval"]
    if has_solved:
        headers += ["solved", "solve rate"]
    headers += ["re-search rate", "first-move fail-high rate", "time (s)"]
    headers += ["frame"] if frames else []
    tables = []
    for suite, part in summary.groupby("suite", sort=False):
        rows = []
        for r in part.to_dict("records"):
            texts = [r["variant"], r["depth"], count(r["problems"]), count(r["nodes"]),
                     count(r["leaves"]), number(r["ratio"]), _interval(r)]
            if has_solved:
                texts += [count(r["solved"]), percent(r["solve_rate"])]
            texts += [percent(r["research_rate"]), percent(r["fh_first_rate"]), number(r["time_s"])]
            texts += [r["frame"]] if frames else []
            rows.append(_cells(*texts))
        tables.append(SetTable(names.label(str(suite)), Table(tuple(headers), tuple(rows))))
    return tuple(tables)


COMPARISON_HEADERS = ("variant (B)", "depth", "n", "B/A (geo. mean)", "95% interval",
                      "median B/A", "wins / ties / losses", "sign test p", "nodes A", "nodes B",
                      "re-search A", "re-search B", "fh first A", "fh first B")
"""The columns of the comparison's tables."""


def comparison_tables(comparison: Comparison, names: SetNames) -> tuple[SetTable, ...]:
    """Every variant against the baseline at every depth, a table per problem set (the
    ratio bold where significant)."""
    tables = []
    for suite, part in comparison.table.groupby("suite", sort=False):
        rows = []
        for r in part.to_dict("records"):
            rows.append((
                Cell(str(r["variant"])), Cell(str(r["depth"])), Cell(count(r["n"])),
                Cell(number(r["ratio"]), strong=bool(r["significant"])),
                *_cells(_interval(r), number(r["median_ratio"]),
                        f"{r['wins']} / {r['ties']} / {r['losses']}", format_p(float(r["sign_p"])),
                        count(r["nodes_a"]), count(r["nodes_b"]), percent(r["research_rate_a"]),
                        percent(r["research_rate_b"]), percent(r["fh_first_rate_a"]),
                        percent(r["fh_first_rate_b"]))))
        tables.append(SetTable(names.label(str(suite)), Table(COMPARISON_HEADERS, tuple(rows))))
    return tuple(tables)


def deepest_rows(comparison: Comparison) -> pd.DataFrame:
    """Each variant's row at its deepest depth, per problem set."""
    table = comparison.table
    if table.empty:
        return table
    return table.loc[table.groupby(["suite", "variant"], sort=False)["depth"].idxmax()]


def verdict_table(comparison: Comparison, names: SetNames) -> VerdictTable | None:
    """One row per variant, for each problem set its ratio, interval, counts and a few
    words of verdict side by side, so a contrast between the sets shows in each row;
    ``None`` with nothing to compare."""
    rows = deepest_rows(comparison)
    if rows.empty:
        return None
    suites = [str(s) for s in pd.unique(rows["suite"])]
    by_key = {(str(r["suite"]), str(r["variant"])): r for r in rows.to_dict("records")}
    headings = tuple(f'{names.label(s)} (depth {rows.loc[rows["suite"] == s, "depth"].max()})'
                     for s in suites)
    body = []
    for variant in pd.unique(rows["variant"]):
        entries: list[VerdictEntry | None] = []
        for suite in suites:
            r = by_key.get((suite, str(variant)))
            entries.append(None if r is None else VerdictEntry(
                number(r["ratio"]), _interval(r), f"{r['wins']} / {r['ties']} / {r['losses']}",
                brief_verdict(r), bool(r["significant"]), str(r.get("conditions") or "")))
        body.append(VerdictRow(str(variant), tuple(entries)))
    return VerdictTable(headings, tuple(body))


def full_verdicts(comparison: Comparison, names: SetNames) -> tuple[SetVerdicts, ...]:
    """The verdicts in full per problem set, with the problems that differ most."""
    rows = deepest_rows(comparison)
    if rows.empty:
        return ()
    return tuple(
        SetVerdicts(names.label(str(suite)), tuple(
            FullVerdict(str(r["depth"]), str(r["verdict"]), str(r["largest"] or ""))
            for r in part.to_dict("records")))
        for suite, part in rows.groupby("suite", sort=False))


def _options(options: Mapping[str, Any] | None) -> str:
    return ", ".join(f"{k}={v}" for k, v in (options or {}).items())


def run_info(info: Mapping[str, Any]) -> RunInfo:
    """The run's command, hash, versions, machine, configuration, variants and sets."""
    command = info.get("command") or []
    command_text = (shlex.join(str(c) for c in command) if isinstance(command, list)
                    else str(command))
    fields = [
        RunField("command", command_text, code=True),
        RunField("configuration hash", str(info.get("config_hash", EMPTY)), code=True),
        RunField("schema version", str(info.get("schema_version", EMPTY))),
        RunField("started", str(info.get("started", EMPTY))),
        RunField("finished", str(info.get("finished") or f"{EMPTY} (unfinished)")),
        RunField("git revision", str(info.get("git_revision") or EMPTY), code=True),
        RunField("python", str(info.get("python", EMPTY))),
    ]
    versions = info.get("versions") or {}
    if isinstance(versions, Mapping):
        fields.append(RunField("versions", ", ".join(
            f"{k} {v if v is not None else '(not installed)'}" for k, v in versions.items())))
    machine = info.get("machine") or {}
    if isinstance(machine, Mapping):
        fields.append(RunField("machine", ", ".join(f"{k}: {v}" for k, v in machine.items())))
    config = json.dumps(info.get("config", {}), indent=2, sort_keys=True, default=str)

    variants_table = None
    variants = info.get("variants") or {}
    if isinstance(variants, Mapping) and variants:
        rows = []
        for label, spec in variants.items():
            spec = spec if isinstance(spec, Mapping) else {}
            rows.append(_cells(label, spec.get("name", ""), _options(spec.get("options")),
                               spec.get("source", "")))
        variants_table = Table(("label", "name", "options", "source"), tuple(rows), 4)
    sets_table = None
    suites = info.get("suites") or {}
    if isinstance(suites, Mapping) and suites:
        rows = []
        for name, record in suites.items():
            record = record if isinstance(record, Mapping) else {}
            source = record.get("path") or record.get("spec") or ""
            rows.append((*_cells(name, record.get("game", record.get("kind", "")),
                                 _options(record.get("options")), source),
                         Cell(str(record.get("sha256", "")), code=True)))
        sets_table = Table(("problem set", "game", "options", "source", "sha256"), tuple(rows), 5)
    return RunInfo(tuple(fields), config, variants_table, sets_table, engines_table(info))


def engines_table(info: Mapping[str, Any]) -> Table | None:
    """Each UCI engine of the run as ``run.json`` records it; ``None``: none."""
    engines = info.get("engines") or {}
    if not isinstance(engines, Mapping) or not engines:
        return None
    rows = []
    for name, record in engines.items():
        record = record if isinstance(record, Mapping) else {}
        command = record.get("command") or []
        limits = record.get("limits") or {}
        rows.append(_cells(name, record.get("id_name", ""),
                           shlex.join(str(c) for c in command) if isinstance(command, list)
                           else command, _options(record.get("settings")),
                           _options(limits if isinstance(limits, Mapping) else {})))
    return Table(("name", "id name", "command", "options set", "limits"), tuple(rows), 5)


def side_by_side_tables(summary: pd.DataFrame, baseline: str, names: SetNames,
                        info: Mapping[str, Any]) -> tuple[SetTable, ...]:
    """The summary's rows at each set's deepest depth when the run has engines (its
    variants and engines side by side: nodes, ratio, solve rate); none otherwise."""
    if not info.get("engines"):
        return ()
    deepest = summary.groupby("suite", sort=False)["depth"].transform("max")
    return summary_tables(summary[summary["depth"] == deepest], baseline, names)


def answers_box(answers: AnswerCheck | None, stopped: int = 0,
                searches: int = 0) -> AnswersBox | None:
    """Above everything: the exact variants disagree (which, on how many problems, the
    first few), or one line saying they agree or why they were not checked; first, when
    ``stopped`` of the run's ``searches`` stopped before their end, that they are no results."""
    if answers is None:
        return None
    if answers.rows.empty:
        said = (f"STOPPED: {stopped} of {searches} searches stopped before their end (a node "
                "or OPEN limit, an engine's timeout or crash): they are not results, and no "
                "ratio, verdict, chart or cross-check counts them. " if stopped else "")
        return AnswersBox(False, said + answers.note())
    head, *first = answers.lines(first=5)
    head = head.removeprefix("ANSWERS DISAGREE: ")
    return AnswersBox(True, head[:1].upper() + head[1:], tuple(line.strip() for line in first))


def depth_span(depths: Iterable[int]) -> str:
    """Depths in words: ``depth 3``, ``depths 1-6`` when consecutive, else a list."""
    found = sorted(set(depths))
    if len(found) == 1:
        return f"depth {found[0]}"
    if found == list(range(found[0], found[-1] + 1)):
        return f"depths {found[0]}-{found[-1]}"
    return "depths " + ", ".join(str(d) for d in found)


def depths_text(summary: pd.DataFrame, comparison: Comparison) -> str:
    """The depths searched, in words: :func:`depth_span`, or each problem to its own depth."""
    depths = [int(d) for d in summary["depth"].unique()]
    suites = {str(x) for x in summary["suite"].unique()}
    if suites and suites <= comparison.own_depth:
        return f"each problem to its own depth (at most {max(depths)})"
    return depth_span(depths)


def page_title(head: str, suites: Sequence[str], variants: int, depths: str) -> str:
    """A page's title by what it shows: ``harness report: wac.epd, bench.epd, 6 variants,
    depths 1-6`` (the sets' short names, :func:`harness.report.summary.set_names`)."""
    names = set_names(suites)
    sets = ", ".join(names.label(s) for s in dict.fromkeys(suites))
    return f"{head}: {sets}, {variants} variant{'' if variants == 1 else 's'}, {depths}"


def report_page(summary: pd.DataFrame, comparison: Comparison, info: Mapping[str, Any],
                charts_png: Sequence[tuple[str, str, bytes]], left_out: Sequence[str] = (),
                answers: AnswerCheck | None = None) -> ReportPage:
    """The page's values: the relative-nodes chart and a verdict per variant and problem
    set first, then the other charts (and a line for each chart ``left_out``), the tables,
    the method and the run."""
    baseline = comparison.baseline
    names = set_names([str(s) for s in pd.unique(summary["suite"])])
    figures = [Figure(name, title, png_source(data)) for name, title, data in charts_png]
    lead = next((f for f in figures if f.name == "relative_nodes"), None)
    counts = summary.groupby("suite", sort=False)["problems"].max()
    variants = int(summary["variant"].nunique())
    depths = depths_text(summary, comparison)
    return ReportPage(
        title=page_title("harness report", [str(s) for s in counts.index], variants, depths),
        config_hash=str(info.get("config_hash", "")),
        answers=answers_box(answers, int(summary["stopped"].sum()) if "stopped" in summary
                            else 0, int(summary["problems"].sum())),
        variants=variants,
        baseline=baseline,
        depths=depths,
        common=names.common,
        sets=tuple(ProblemSetCount(names.label(str(s)), count(n)) for s, n in counts.items()),
        lead_figure=lead,
        verdicts=verdict_table(comparison, names),
        side_by_side=side_by_side_tables(summary, baseline, names, info),
        left_out=tuple(left_out),
        figures=tuple(f for f in figures if f is not lead),
        summary_rows=len(summary),
        summary=summary_tables(summary, baseline, names),
        comparison_rows=len(comparison.table),
        comparison=comparison_tables(comparison, names),
        full_verdicts=full_verdicts(comparison, names),
        resamples=comparison.resamples,
        seed=comparison.seed,
        run=run_info(info))
