"""The report of a run: ``summary.csv``, ``comparison.csv``, charts (PNG and SVG) and one
self-contained ``report.html`` (charts embedded, no other file needed to read it)."""

from __future__ import annotations

import math
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd

from harness.errors import HarnessError
from harness.files import write_whole
from harness.lock import hold_folder
from harness.report import charts, counter_charts, stats
from harness.report.answers import AnswerCheck, check_answers, load_rechecks
from harness.report.compare import (
    TABLE_COLUMNS,
    Comparison,
    column_rate,
    compare,
    default_baseline,
    pairs,
    variants_in,
)
from harness.report.depths import group_own_depths
from harness.report.drawing import save_charts
from harness.report.frames import frame_column, frames_text
from harness.report.measures import NODES, Measure, brief_verdict
from harness.report.render import render
from harness.report.selection import REPORT_CHARTS, ChartChoice, choose_charts
from harness.report.solved import solved_flags
from harness.report.stopped import finished, stopped_mask
from harness.report.summary import set_names
from harness.report.view import depth_span, page_title, report_page

SUMMARY_FILE = "summary.csv"
COMPARISON_FILE = "comparison.csv"
REPORT_FILE = "report.html"
CHARTS_DIR = "charts"

SUMMARY_COLUMNS = (
    "suite", "variant", "depth", "problems", "stopped", "nodes", "leaves", "paired", "ratio",
    "ratio_low",
    "ratio_high", "solved", "solve_rate", "research_rate", "fh_first_rate", "time_s", "frame",
)
"""The columns of :func:`summary_table`, in order."""


@dataclass(frozen=True)
class ReportFiles:
    """What :func:`write_report` wrote."""

    html: Path
    """The self-contained page."""
    summary: Path
    """``summary.csv``: :func:`summary_table`."""
    comparison: Path
    """``comparison.csv``: every variant against the baseline (:func:`harness.report.compare.compare`)."""
    charts: tuple[Path, ...]
    """Every chart, PNG and SVG."""
    baseline: str
    """The variant the ratios divide by."""


def summary_table(results: pd.DataFrame, baseline: str | None = None, seed: int = 0,
                  resamples: int = stats.DEFAULT_RESAMPLES) -> pd.DataFrame:
    """Per suite x variant x depth, in the order rows first appear (columns
    :data:`SUMMARY_COLUMNS`).

    ``problems``, ``nodes``, ``leaves`` and ``time_s`` are totals; ``ratio`` is the
    geometric mean of per-problem node ratios to ``baseline`` over the ``paired`` problems
    both searched, with its paired bootstrap 95% interval (the baseline's own rows: 1);
    ``solved`` and ``solve_rate`` count True among the non-empty ``solved`` values (NaN
    without a ``solved`` column or with none filled in); ``research_rate`` is researches /
    zw_searches and ``fh_first_rate`` fail_highs_first / fail_highs (NaN for 0 / 0);
    ``stopped`` the searches that stopped before their end (:mod:`harness.report.stopped`):
    a variant with one among its pairs has no ratio; ``frame`` the frames that ran the
    searches (:func:`harness.report.frames.frames_text`: said beside ``time_s``, which
    compares only within one).
    """
    if baseline is None:
        baseline = default_baseline(results)
    variants = variants_in(results)
    if baseline not in variants:
        raise HarnessError(f"baseline {baseline!r} is not in the results "
                           f"(they hold: {', '.join(variants)})")
    flags = solved_flags(results["solved"]) if "solved" in results.columns else None
    frame = results.assign(_solved=flags if flags is not None else math.nan)
    paired_with = pairs(results, baseline, [v for v in variants if v != baseline])
    rows: list[dict[str, object]] = []
    for (suite, variant, depth), part in frame.groupby(["suite", "variant", "depth"], sort=False):
        known = part["_solved"].dropna()
        row: dict[str, object] = {
            "suite": suite, "variant": variant, "depth": depth, "problems": len(part),
            "stopped": int(stopped_mask(part).sum()),
            "nodes": int(part["nodes"].sum()),
            # An engine's leaves are not measured: empty, not 0 (harness.results.NOT_MEASURED).
            "leaves": (int(part["leaves"].sum()) if "leaves" in part.columns
                       and part["leaves"].notna().any() else math.nan),
            "solved": int(known.sum()) if len(known) else math.nan,
            "solve_rate": float(known.mean()) if len(known) else math.nan,
            "research_rate": column_rate(part, "researches", "zw_searches"),
            "fh_first_rate": column_rate(part, "fail_highs_first", "fail_highs"),
            "time_s": float(part["time_s"].sum()) if "time_s" in part.columns else math.nan,
            "frame": frames_text(frame_column(part)),
        }
        if variant == baseline:
            row.update(paired=len(part), ratio=1.0, ratio_low=1.0, ratio_high=1.0)
        else:
            paired = paired_with[str(variant)]
            paired = paired[(paired["suite"] == suite) & (paired["depth"] == depth)]
            halted = (stopped_mask(paired.rename(columns={"status_a": "status"}))
                      | stopped_mask(paired.rename(columns={"status_b": "status"})))
            if halted.any():        # a stopped search is not a result: no ratio
                # (an engine's stopped search has no count at all: nothing to divide)
                row.update(paired=int((~halted).sum()), ratio=math.nan, ratio_low=math.nan,
                           ratio_high=math.nan)
            else:
                ratios = stats.ratios(paired["nodes_a"].to_numpy(), paired["nodes_b"].to_numpy())
                low, high = stats.bootstrap_interval(ratios, seed, resamples)
                row.update(paired=len(paired), ratio=stats.geometric_mean(ratios), ratio_low=low,
                           ratio_high=high)
        rows.append(row)
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))


def write_report(run_dir: Path, results: pd.DataFrame, info: Mapping[str, Any],
                 baseline: str | None = None, seed: int = 0,
                 resamples: int = stats.DEFAULT_RESAMPLES) -> ReportFiles:
    """Write ``summary.csv``, ``comparison.csv``, ``charts/*.png|svg`` and ``report.html``
    into ``run_dir``; ``info`` is the run's ``run.json``. Default baseline: ``alphabeta``
    when present, else the first variant. The same inputs give the same bytes."""
    results = group_own_depths(results)
    run_dir = Path(run_dir)
    if results.empty:
        raise HarnessError(f"{run_dir}: no results to report")
    if baseline is None:
        baseline = default_baseline(results)
    summary = summary_table(results, baseline, seed, resamples)
    others = [v for v in variants_in(results) if v != baseline]
    comparison = compare(results, baseline, others, seed, resamples, info=info)
    answers = check_answers(results, info, rechecks=load_rechecks(run_dir))
    run_dir.mkdir(parents=True, exist_ok=True)
    summary_path = run_dir / SUMMARY_FILE
    write_whole(summary_path, summary.to_csv(index=False))
    comparison_path = run_dir / COMPARISON_FILE
    write_whole(comparison_path, comparison.table.to_csv(index=False))

    chart_dir = run_dir / CHARTS_DIR
    chart_dir.mkdir(exist_ok=True)
    # A stopped search's counts say how far it got, not what it costs: never drawn.
    drawn = finished(results)
    choice = (choose_charts(drawn, comparison, baseline,
                            [v for v in others if v in set(drawn["variant"])])
              if baseline in set(drawn["variant"]) else
              ChartChoice((), ("No chart: every search of the baseline stopped before its "
                               "end.",)))
    written: list[Path] = []
    embedded: list[tuple[str, str, bytes]] = []
    saved = save_charts([(chart.name, chart.build) for chart in choice.drawn], chart_dir)
    for chart, (png, svg) in zip(choice.drawn, saved, strict=True):
        written += [png, svg]
        embedded.append((chart.name, chart.title, png.read_bytes()))
    # A rebuilt report leaves no file of a chart it no longer draws.
    for name in REPORT_CHARTS:
        for stale in charts.files_of(chart_dir / name):
            if stale not in written:
                stale.unlink(missing_ok=True)

    page = render_html(summary, comparison, info, embedded, choice.left_out, answers)
    html_path = run_dir / REPORT_FILE
    write_whole(html_path, page)
    return ReportFiles(html_path, summary_path, comparison_path, tuple(written), baseline)


def where_to_read(run_dir: str | Path) -> str:
    """The lines ``harness run`` prints after its brief summary: where the full tables and
    the report of ``run_dir`` are."""
    run_dir = Path(run_dir)
    return (f"Full tables per variant and depth: harness show {shlex.quote(str(run_dir))}\n"
            f"  (or {run_dir / SUMMARY_FILE} and {COMPARISON_FILE} beside it)\n"
            f"Report with charts: {run_dir / REPORT_FILE}")


def report_files(run_dir: Path) -> ReportFiles:
    """The report files a run folder already holds (as :func:`write_report` names them)."""
    from harness.results import load_results

    charts = tuple(sorted((run_dir / CHARTS_DIR).glob("*.*")))
    return ReportFiles(run_dir / REPORT_FILE, run_dir / SUMMARY_FILE, run_dir / COMPARISON_FILE,
                       charts, default_baseline(load_results(run_dir)))


def rebuild_report(run_dir: str | Path, baseline: str | None = None, seed: int = 0) -> ReportFiles:
    """Rebuild the summary, charts and page of a run folder from its ``results.csv`` (and
    the configuration in ``run.json``) alone."""
    from harness.results import load_results, load_run_info

    run_dir = Path(run_dir)
    with hold_folder(run_dir):
        results = load_results(run_dir)
        return write_report(run_dir, results, load_run_info(run_dir), baseline, seed)


def rebuild_reports(folder: str | Path, baseline: str | None = None, seed: int = 0,
                    index_only: bool = False) -> list[ReportFiles]:
    """Rebuild the report of a run folder, or of every run folder directly inside
    ``folder`` and then an ``index.html`` that links them (a CI artifact's front page).
    With ``index_only``, the runs' reports are taken as they are and only the index is
    written."""
    from harness.report.ablation import stored_section
    from harness.results import find_runs

    folder = Path(folder)
    runs = find_runs(folder)
    if runs == [folder]:
        return [rebuild_report(folder, baseline, seed)]
    built = [report_files(run) if index_only else rebuild_report(run, baseline, seed) for run in runs]
    write_index(folder, [(run, files) for run, files in zip(runs, built, strict=True)],
                stored_section(folder))
    return built


@dataclass(frozen=True)
class Headline:
    """What a run found on one problem set, in a line: the variant with the fewest nodes
    against the baseline at the deepest depth."""

    label: str
    """The set's short name."""
    depth: int
    """The depth compared (the set's deepest)."""
    text: str
    """The variant, its node ratio with the 95% interval, and a few words of verdict."""
    significant: bool
    """Whether that difference is significant (drawn bold)."""


@dataclass(frozen=True)
class IndexEntry:
    """A run folder's line in ``index.html``."""

    name: str
    """The folder's name (the link's text)."""
    href: str
    """Its report, relative to the index (URL-quoted)."""
    problems: str
    """The problem sets, as given."""
    count: int
    """Problems."""
    variants: int
    """Variants."""
    depths: str
    """The depths searched."""
    baseline: str
    """The variant the ratios divide by."""
    headlines: tuple[Headline, ...] = ()
    """Per problem set, its headline (:func:`headlines`); empty: nothing compared."""
    chart: str = ""
    """The run's relative-nodes chart, relative to the index (URL-quoted); empty: none."""


def headlines(comparison: pd.DataFrame, baseline: str) -> tuple[Headline, ...]:
    """Per problem set of a comparison table (``comparison.csv``, the comparison the run's
    brief summary and report show) at its deepest depth: the variant with the fewest nodes
    against ``baseline``, its ratio and 95% interval and a verdict in a few words; or that
    none searched fewer nodes. Variants with wrong answers or a stopped search are never
    ranked."""
    found = []
    names = set_names([str(s) for s in pd.unique(comparison["suite"])])
    for suite, part in comparison.groupby("suite", sort=False):
        depth = int(part["depth"].max())
        part = part[(part["depth"] == depth) & (part["n"] > 0)]
        stopped = part["stopped"].fillna(0) if "stopped" in part.columns else 0
        ranked = part[(part["disagree"].fillna(0) == 0) & (stopped == 0)
                      & part["ratio"].notna()].sort_values("ratio", kind="stable")
        label = names.label(str(suite))
        if ranked.empty:
            found.append(Headline(label, depth, f"no variant to rank against {baseline}", False))
            continue
        best = ranked.iloc[0]
        numbers = (f"{best['ratio']:.3f} of {baseline}'s nodes ({best['ratio_low']:.3f} to "
                   f"{best['ratio_high']:.3f}), {brief_verdict(best)}")
        fewer = bool(best["ratio"] < 1)
        text = (f"{best['variant']}: {numbers}" if fewer else
                f"no variant searched fewer nodes than {baseline} (the fewest, {best['variant']}: "
                f"{numbers})")
        found.append(Headline(label, depth, text, fewer and bool(best["significant"])))
    return tuple(found)


def stored_headlines(files: ReportFiles) -> tuple[Headline, ...]:
    """:func:`headlines` of a run's ``comparison.csv``; none where there is no such file, or
    one without the columns of :data:`harness.report.compare.TABLE_COLUMNS` (written by an
    older harness, or by hand): the index then lists the run without its headline."""
    try:
        table = pd.read_csv(files.comparison)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError):
        return ()
    later = {"stopped", "stopped_a", "stopped_b", "measure", "time_a", "time_b", "nodes_per_s_a",
             "nodes_per_s_b", "frame_a", "frame_b"}
    needed = set(TABLE_COLUMNS) - later                 # older files lack them
    return headlines(table, files.baseline) if needed <= set(table.columns) else ()


def write_index(folder: Path, runs: list[tuple[Path, ReportFiles]],
                ablation: Mapping[str, Any] | None = None) -> Path:
    """``folder/index.html``: each run's headline per problem set (:func:`headlines`) and
    relative-nodes chart first, then one line per run folder, linking its report; titled
    by the problem sets, variants and depths the runs hold. ``ablation``: the section of an
    ablation's folder (:func:`harness.report.ablation.ablation_section`), first."""
    from harness.results import load_results, load_run_info

    entries = []
    suites: list[str] = []
    variants: set[str] = set()
    depths: set[int] = set()
    for run, files in runs:
        info = load_run_info(run)
        results = load_results(run)
        config = info.get("config", {})
        what = ", ".join(config.get("problems") or [  # schema 1 named them by kind
            *config.get("suites", []), *config.get("tree_specs", []), *config.get("tree_files", [])])
        suites += [str(s) for s in pd.unique(results["suite"])]
        variants |= {str(v) for v in results["variant"].unique()}
        depths |= {int(d) for d in results["depth"].unique()}
        chart = run / CHARTS_DIR / "relative_nodes.png"
        entries.append(IndexEntry(
            run.name, f"{quote(run.name)}/{quote(files.html.name)}", what,
            int(results["problem_id"].nunique()), int(results["variant"].nunique()),
            ", ".join(str(d) for d in sorted(results["depth"].unique())), files.baseline,
            stored_headlines(files),
            f"{quote(run.name)}/{CHARTS_DIR}/{chart.name}" if chart.exists() else ""))
    title = page_title(f"harness runs in {folder.name}", suites, len(variants), depth_span(depths))
    page = render("index.html.j2", {"title": title, "folder": folder.name, "runs": entries,
                                    "ablation": ablation})
    index = folder / "index.html"
    write_whole(index, page)
    return index


@dataclass(frozen=True)
class ComparisonFiles:
    """A comparison and the files written for it."""

    comparison: Comparison
    """The statistics."""
    table: Path
    """The comparison table as CSV."""
    charts: tuple[Path, ...]
    """The per-problem scatter chart(s), PNG and SVG."""


def write_comparison(results: pd.DataFrame, baseline: str, others: list[str], out_dir: Path,
                     seed: int = 0, pooled: bool = False,
                     info: Mapping[str, Any] | None = None,
                     measure: Measure = NODES) -> ComparisonFiles:
    """Compare ``others`` with ``baseline`` and write ``compare.csv`` and the scatter chart
    (``compare_scatter.png|svg``) into ``out_dir``: per problem set, or with ``pooled``
    every set in one group (see :func:`harness.report.compare.compare`; ``info``, the
    run's ``run.json``, says whether answers are checked; ``measure``: nodes, or time)."""
    comparison = compare(results, baseline, others, seed, pooled=pooled, info=info,
                         measure=measure)
    out_dir.mkdir(parents=True, exist_ok=True)
    table = out_dir / "compare.csv"
    write_whole(table, comparison.table.to_csv(index=False))
    others = list(comparison.table["variant"].unique())
    chart = charts.save(counter_charts.scatter_chart(results, baseline, others),
                        out_dir / "compare_scatter")
    return ComparisonFiles(comparison, table, chart)


def render_html(summary: pd.DataFrame, comparison: Comparison, info: Mapping[str, Any],
                charts_png: list[tuple[str, str, bytes]], left_out: Sequence[str] = (),
                answers: AnswerCheck | None = None) -> str:
    """The report page (``templates/report.html.j2`` with :func:`harness.report.view.report_page`'s
    values), opening with what a reader came for: the relative-nodes chart and a verdict
    per variant and problem set; then the other charts (and a line for each chart
    ``left_out``), the tables (folded), the method and the run. Every chart an embedded
    base64 PNG, every value escaped."""
    page = report_page(summary, comparison, info, charts_png, left_out, answers)
    meta = (("harness-config-hash", page.config_hash),) if page.config_hash else ()
    return render("report.html.j2", {"title": page.title, "page": page, "meta": meta})
