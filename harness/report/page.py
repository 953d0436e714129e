"""The report of a run: ``summary.csv``, ``comparison.csv``, charts (PNG and SVG) and one
self-contained ``report.html`` (charts embedded, no other file needed to read it)."""

from __future__ import annotations

import base64
import html
import json
import math
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from harness.errors import HarnessError
from harness.files import write_whole
from harness.lock import hold_folder
from harness.report import charts, stats
from harness.report.answers import DISAGREEMENTS_FILE, AnswerCheck, check_answers
from harness.report.compare import (
    Comparison,
    brief_verdict,
    column_rate,
    compare,
    default_baseline,
    format_p,
    pairs,
    variants_in,
)
from harness.report.depths import group_own_depths
from harness.report.selection import REPORT_CHARTS, choose_charts
from harness.report.summary import SetNames, set_names

SUMMARY_FILE = "summary.csv"
COMPARISON_FILE = "comparison.csv"
REPORT_FILE = "report.html"
CHARTS_DIR = "charts"

SUMMARY_COLUMNS = (
    "suite", "variant", "depth", "problems", "nodes", "leaves", "paired", "ratio", "ratio_low",
    "ratio_high", "solved", "solve_rate", "research_rate", "fh_first_rate", "time_s",
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


def solved_flags(values: pd.Series) -> pd.Series:
    """A ``solved`` column as 1.0 (True), 0.0 (False) or NaN (empty: not a test position).

    Accepts booleans, ``True``/``False``/``1``/``0`` in any case, numbers and empties, as
    ``results.csv`` may be read with or without type inference.
    """
    def flag(value: object) -> float:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return math.nan
        if isinstance(value, bool | np.bool_):
            return 1.0 if value else 0.0
        if isinstance(value, int | float | np.integer | np.floating):
            return 1.0 if value else 0.0
        text = str(value).strip().lower()
        if text in ("", "nan", "none"):
            return math.nan
        if text in ("true", "1", "1.0", "yes"):
            return 1.0
        if text in ("false", "0", "0.0", "no"):
            return 0.0
        raise HarnessError(f"solved: {value!r} is not True, False or empty")

    return pd.Series([flag(v) for v in values], index=values.index, dtype=np.float64)


def summary_table(results: pd.DataFrame, baseline: str | None = None, seed: int = 0,
                  resamples: int = stats.DEFAULT_RESAMPLES) -> pd.DataFrame:
    """Per suite x variant x depth, in the order rows first appear (columns
    :data:`SUMMARY_COLUMNS`).

    ``problems``, ``nodes``, ``leaves`` and ``time_s`` are totals; ``ratio`` is the
    geometric mean of per-problem node ratios to ``baseline`` over the ``paired`` problems
    both searched, with its paired bootstrap 95% interval (the baseline's own rows: 1);
    ``solved`` and ``solve_rate`` count True among the non-empty ``solved`` values (NaN
    without a ``solved`` column or with none filled in); ``research_rate`` is researches /
    zw_searches and ``fh_first_rate`` fail_highs_first / fail_highs (NaN for 0 / 0).
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
            "nodes": int(part["nodes"].sum()),
            "leaves": int(part["leaves"].sum()) if "leaves" in part.columns else math.nan,
            "solved": int(known.sum()) if len(known) else math.nan,
            "solve_rate": float(known.mean()) if len(known) else math.nan,
            "research_rate": column_rate(part, "researches", "zw_searches"),
            "fh_first_rate": column_rate(part, "fail_highs_first", "fail_highs"),
            "time_s": float(part["time_s"].sum()) if "time_s" in part.columns else math.nan,
        }
        if variant == baseline:
            row.update(paired=len(part), ratio=1.0, ratio_low=1.0, ratio_high=1.0)
        else:
            paired = paired_with[str(variant)]
            paired = paired[(paired["suite"] == suite) & (paired["depth"] == depth)]
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
    answers = check_answers(results, info)
    run_dir.mkdir(parents=True, exist_ok=True)
    summary_path = run_dir / SUMMARY_FILE
    write_whole(summary_path, summary.to_csv(index=False))
    comparison_path = run_dir / COMPARISON_FILE
    write_whole(comparison_path, comparison.table.to_csv(index=False))

    chart_dir = run_dir / CHARTS_DIR
    chart_dir.mkdir(exist_ok=True)
    choice = choose_charts(results, comparison, baseline, others)
    written: list[Path] = []
    embedded: list[tuple[str, str, bytes]] = []
    for chart in choice.drawn:
        png, svg = charts.save(chart.build(), chart_dir / chart.name)
        written += [png, svg]
        embedded.append((chart.name, chart.title, png.read_bytes()))
    # A rebuilt report leaves no file of a chart it no longer draws.
    for name in REPORT_CHARTS:
        for stale in (chart_dir / f"{name}.png", chart_dir / f"{name}.svg"):
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
    from harness.results import find_runs

    folder = Path(folder)
    runs = find_runs(folder)
    if runs == [folder]:
        return [rebuild_report(folder, baseline, seed)]
    built = [report_files(run) if index_only else rebuild_report(run, baseline, seed) for run in runs]
    write_index(folder, [(run, files) for run, files in zip(runs, built, strict=True)])
    return built


def write_index(folder: Path, runs: list[tuple[Path, ReportFiles]]) -> Path:
    """``folder/index.html``: one line per run folder, linking its report."""
    from harness.results import load_results, load_run_info

    items = []
    for run, files in runs:
        info = load_run_info(run)
        results = load_results(run)
        config = info.get("config", {})
        what = ", ".join(config.get("problems") or [  # schema 1 named them by kind
            *config.get("suites", []), *config.get("tree_specs", []), *config.get("tree_files", [])])
        items.append(f'<li><a href="{_e(run.name)}/{_e(files.html.name)}">{_e(run.name)}</a>: '
                     f"{_e(what)}; {results['problem_id'].nunique()} problems x "
                     f"{results['variant'].nunique()} variants, depths "
                     f"{_e(', '.join(str(d) for d in sorted(results['depth'].unique())))}; "
                     f"baseline {_e(files.baseline)}</li>")
    page = (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>harness runs</title>"
            f"<style>{_CSS}</style></head><body><h1>harness runs in {_e(folder.name)}</h1>"
            f"<ul>{''.join(items)}</ul></body></html>\n")
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
                     info: Mapping[str, Any] | None = None) -> ComparisonFiles:
    """Compare ``others`` with ``baseline`` and write ``compare.csv`` and the scatter chart
    (``compare_scatter.png|svg``) into ``out_dir``: per problem set, or with ``pooled``
    every set in one group (see :func:`harness.report.compare.compare`; ``info``, the
    run's ``run.json``, says whether answers are checked)."""
    comparison = compare(results, baseline, others, seed, pooled=pooled, info=info)
    out_dir.mkdir(parents=True, exist_ok=True)
    table = out_dir / "compare.csv"
    write_whole(table, comparison.table.to_csv(index=False))
    chart = charts.save(charts.scatter_chart(results, baseline, list(comparison.table["variant"].unique())),
                        out_dir / "compare_scatter")
    return ComparisonFiles(comparison, table, chart)


PAGE_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
th { background: #f0f0f0; }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
img { max-width: 100%; height: auto; display: block; margin: 0.5em 0 1.5em; }
"""
"""The style every harness page starts from (run reports, their index, ``harness
reproduce``'s report); a page adds its own rules after it."""

_CSS = PAGE_CSS + """
th, td { text-align: right; } td:first-child, th:first-child { text-align: left; }
td.text, th.text { text-align: left; } td { white-space: nowrap; }
td.text { white-space: normal; } td:first-child { white-space: nowrap; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; white-space: pre-wrap; }
.significant { font-weight: bold; } .note { color: #555; font-size: 0.9em; }
.wide { overflow-x: auto; } details { margin: 0.6em 0; } summary { cursor: pointer; }
summary h3 { display: inline; font-size: 1.05em; } p.lead { font-size: 1.05em; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: bold; } dd { margin: 0; }
.alarm { border: 3px solid #b00020; background: #fdecee; padding: 0.3em 1em 0.6em; }
.alarm h2 { color: #b00020; margin-top: 0.3em; border: none; }
@media print { h2 { page-break-after: avoid; } img, table { page-break-inside: avoid; }
               details > *:not(summary) { display: block; } }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _num(value: object, digits: int = 3) -> str:
    if value is None:
        return "–"
    number = float(value)  # type: ignore[arg-type]
    return "–" if math.isnan(number) else f"{number:.{digits}f}"


def _pct(value: object) -> str:
    if value is None:
        return "–"
    number = float(value)  # type: ignore[arg-type]
    return "–" if math.isnan(number) else f"{number * 100:.1f}%"


def _int(value: object) -> str:
    if value is None:
        return "–"
    number = float(value)  # type: ignore[arg-type]
    return "–" if math.isnan(number) else f"{int(number):,}"


def _table(headers: list[str], rows: list[list[str]], text_columns: int = 1) -> str:
    """An HTML table of already escaped cells; the first ``text_columns`` align left."""
    def cell(tag: str, i: int, content: str) -> str:
        kind = ' class="text"' if i < text_columns else ""
        return f"<{tag}{kind}>{content}</{tag}>"

    head = "".join(cell("th", i, _e(h)) for i, h in enumerate(headers))
    body = "\n".join("<tr>" + "".join(cell("td", i, c) for i, c in enumerate(r)) + "</tr>"
                     for r in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def _summary_html(summary: pd.DataFrame, baseline: str, names: SetNames) -> str:
    has_solved = bool(summary["solve_rate"].notna().any())
    parts = []
    for suite, part in summary.groupby("suite", sort=False):
        headers = ["variant", "depth", "problems", "nodes", "leaves",
                   f"nodes / {baseline} (geo. mean)", "95% interval"]
        if has_solved:
            headers += ["solved", "solve rate"]
        headers += ["re-search rate", "first-move fail-high rate", "time (s)"]
        rows = []
        for r in part.to_dict("records"):
            row = [_e(r["variant"]), _e(r["depth"]), _int(r["problems"]), _int(r["nodes"]),
                   _int(r["leaves"]), _num(r["ratio"]),
                   f"{_num(r['ratio_low'])} to {_num(r['ratio_high'])}"]
            if has_solved:
                row += [_int(r["solved"]), _pct(r["solve_rate"])]
            row += [_pct(r["research_rate"]), _pct(r["fh_first_rate"]), _num(r["time_s"], 3)]
            rows.append(row)
        parts.append(f"<h4>Problem set <code>{_e(names.label(str(suite)))}</code></h4>\n"
                     + _table(headers, rows))
    return "\n".join(parts)


def _comparison_html(comparison: Comparison, names: SetNames) -> str:
    headers = ["variant (B)", "depth", "n", "B/A (geo. mean)", "95% interval", "median B/A",
               "wins / ties / losses", "sign test p", "nodes A", "nodes B", "re-search A",
               "re-search B", "fh first A", "fh first B"]
    parts = []
    for suite, part in comparison.table.groupby("suite", sort=False):
        rows = []
        for r in part.to_dict("records"):
            mark = (lambda s: f'<span class="significant">{s}</span>') if r["significant"] else _e
            rows.append([
                _e(r["variant"]), _e(r["depth"]), _int(r["n"]), mark(_num(r["ratio"])),
                f"{_num(r['ratio_low'])} to {_num(r['ratio_high'])}", _num(r["median_ratio"]),
                f"{r['wins']} / {r['ties']} / {r['losses']}", _e(format_p(float(r["sign_p"]))),
                _int(r["nodes_a"]), _int(r["nodes_b"]), _pct(r["research_rate_a"]),
                _pct(r["research_rate_b"]), _pct(r["fh_first_rate_a"]), _pct(r["fh_first_rate_b"]),
            ])
        parts.append(f"<h4>Problem set <code>{_e(names.label(str(suite)))}</code></h4>\n"
                     + _table(headers, rows))
    return "\n".join(parts)


def _deepest_rows(comparison: Comparison) -> pd.DataFrame:
    """Each variant's row at its deepest depth, per problem set."""
    table = comparison.table
    if table.empty:
        return table
    return table.loc[table.groupby(["suite", "variant"], sort=False)["depth"].idxmax()]


def _verdict_table(comparison: Comparison, names: SetNames) -> str:
    """One row per variant, for each problem set its ratio, interval, counts and a few
    words of verdict side by side, so a contrast between the sets shows in each row."""
    rows = _deepest_rows(comparison)
    if rows.empty:
        return "<p>Only one variant: nothing to compare.</p>"
    suites = [str(s) for s in pd.unique(rows["suite"])]
    by_key = {(str(r["suite"]), str(r["variant"])): r for r in rows.to_dict("records")}
    top = "".join(f'<th colspan="4" class="text">{_e(names.label(s))} (depth '
                  f'{_e(rows.loc[rows["suite"] == s, "depth"].max())})</th>' for s in suites)
    sub = "".join("<th>B/A</th><th>95% interval</th><th>fewer / equal / more</th>"
                  '<th class="text">verdict</th>' for _ in suites)
    body = []
    for variant in pd.unique(rows["variant"]):
        cells = [f'<td class="text">{_e(variant)}</td>']
        for suite in suites:
            r = by_key.get((suite, str(variant)))
            if r is None:
                cells.append('<td colspan="4" class="text">–</td>')
                continue
            wrap = ((lambda t: f'<span class="significant">{t}</span>') if r["significant"]
                    else (lambda t: t))
            cells += [f"<td>{wrap(_num(r['ratio']))}</td>",
                      f"<td>{_num(r['ratio_low'])} to {_num(r['ratio_high'])}</td>",
                      f"<td>{r['wins']} / {r['ties']} / {r['losses']}</td>",
                      f'<td class="text">{wrap(_e(brief_verdict(r)))}{_conditions_note(r)}</td>']
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="wide"><table>\n<thead><tr><th class="text" rowspan="2">variant (B)'
            f"</th>{top}</tr>\n<tr>{sub}</tr></thead>\n<tbody>\n" + "\n".join(body)
            + "\n</tbody>\n</table></div>")


def _conditions_note(row: Mapping[Any, Any]) -> str:
    """How B and A searched differently, under a verdict (nothing when alike)."""
    said = str(row.get("conditions") or "")
    return f'<br><span class="note">searched differently: {_e(said)}</span>' if said else ""


def _verdicts_html(comparison: Comparison, names: SetNames) -> str:
    rows = _deepest_rows(comparison)
    if rows.empty:
        return "<p>Only one variant: nothing to compare.</p>"
    parts = []
    for suite, part in rows.groupby("suite", sort=False):
        items = []
        for r in part.to_dict("records"):
            text = f"<li>Depth {_e(r['depth'])}: {_e(r['verdict'])}"
            if r["largest"]:
                text += f'<br><span class="note">Largest differences: {_e(r["largest"])}</span>'
            items.append(text + "</li>")
        parts.append(f"<h4>Problem set <code>{_e(names.label(str(suite)))}</code></h4>\n"
                     "<ul>\n" + "\n".join(items) + "\n</ul>")
    return "\n".join(parts)


def _info_html(info: Mapping[str, Any]) -> str:
    command = info.get("command") or []
    command_text = (shlex.join(str(c) for c in command) if isinstance(command, list)
                    else str(command))
    fields = [
        ("command", f"<code>{_e(command_text)}</code>"),
        ("configuration hash", f"<code>{_e(info.get('config_hash', '–'))}</code>"),
        ("schema version", _e(info.get("schema_version", "–"))),
        ("started", _e(info.get("started", "–"))),
        ("finished", _e(info.get("finished") or "– (unfinished)")),
        ("git revision", f"<code>{_e(info.get('git_revision') or '–')}</code>"),
        ("python", _e(info.get("python", "–"))),
    ]
    versions = info.get("versions") or {}
    if isinstance(versions, Mapping):
        text = ", ".join(f"{k} {v if v is not None else '(not installed)'}"
                         for k, v in versions.items())
        fields.append(("versions", _e(text)))
    machine = info.get("machine") or {}
    if isinstance(machine, Mapping):
        fields.append(("machine", _e(", ".join(f"{k}: {v}" for k, v in machine.items()))))
    body = "\n".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in fields)
    config = json.dumps(info.get("config", {}), indent=2, sort_keys=True, default=str)
    parts = [f"<dl>\n{body}\n</dl>", "<details><summary><h3>Configuration</h3></summary>",
             f"<pre>{_e(config)}</pre></details>"]
    variants = info.get("variants") or {}
    if isinstance(variants, Mapping) and variants:
        rows = []
        for label, spec in variants.items():
            spec = spec if isinstance(spec, Mapping) else {}
            options = ", ".join(f"{k}={v}" for k, v in (spec.get("options") or {}).items())
            rows.append([_e(label), _e(spec.get("name", "")), _e(options),
                         _e(spec.get("source", ""))])
        parts += ["<h3>Variants</h3>", _table(["label", "name", "options", "source"], rows, 4)]
    suites = info.get("suites") or {}
    if isinstance(suites, Mapping) and suites:
        rows = []
        for name, record in suites.items():
            record = record if isinstance(record, Mapping) else {}
            options = ", ".join(f"{k}={v}" for k, v in (record.get("options") or {}).items())
            source = record.get("path") or record.get("spec") or ""
            rows.append([_e(name), _e(record.get("game", record.get("kind", ""))), _e(options),
                         _e(source), f"<code>{_e(record.get('sha256', ''))}</code>"])
        parts += ["<h3>Problem sets</h3>",
                  _table(["problem set", "game", "options", "source", "sha256"], rows, 5)]
    return "\n".join(parts)


def _sets_html(names: SetNames, summary: pd.DataFrame) -> str:
    """The problem sets in one sentence: the shared part once, then each set's own part
    and its number of problems."""
    counts = summary.groupby("suite", sort=False)["problems"].max()
    each = ", ".join(f"<code>{_e(names.label(str(s)))}</code> ({_int(n)} problems)"
                     for s, n in counts.items())
    if names.common:
        return (f"Problem sets: <code>{_e(names.common)}</code> with {each}; each compared "
                "on its own.")
    word = "Problem sets" if len(counts) > 1 else "Problem set"
    return f"{word}: {each}."


def _answers_html(answers: AnswerCheck | None) -> str:
    """Above everything: the exact variants disagree (which, on how many problems, the first
    few, where the rest are), or one line saying they agree or why they were not checked."""
    if answers is None:
        return ""
    if answers.rows.empty:
        return f'<p class="note">{_e(answers.note())}.</p>'
    head, *first = answers.lines(first=5)
    head = head.removeprefix("ANSWERS DISAGREE: ")
    head = head[:1].upper() + head[1:]
    items = "".join(f"<li>{_e(line.strip())}</li>" for line in first)
    return (f'<div class="alarm" role="alert"><h2>Answers disagree</h2><p>{_e(head)}. Every '
            f"answer to those problems is in <code>{DISAGREEMENTS_FILE}</code>; node counts of "
            f"a variant that answers wrongly measure a wrong search.</p><ul>{items}</ul></div>")


def render_html(summary: pd.DataFrame, comparison: Comparison, info: Mapping[str, Any],
                charts_png: list[tuple[str, str, bytes]], left_out: Sequence[str] = (),
                answers: AnswerCheck | None = None) -> str:
    """The report page, opening with what a reader came for: the relative-nodes chart and
    a verdict per variant and problem set; then the other charts (and a line for each
    chart ``left_out``), the tables (folded), the method and the run. Every chart an
    embedded base64 PNG, every value escaped."""
    baseline = comparison.baseline
    names = set_names([str(s) for s in pd.unique(summary["suite"])])
    figures, lead_figure = [], ""
    for name, title, data in charts_png:
        encoded = base64.b64encode(data).decode("ascii")
        heading = "h2" if name == "relative_nodes" else "h3"  # the page opens with it
        figure = (f'<{heading} id="chart-{_e(name)}">{_e(title)}</{heading}>\n'
                  f'<img alt="{_e(title)}" src="data:image/png;base64,{encoded}">')
        if name == "relative_nodes":
            lead_figure = figure
        else:
            figures.append(figure)
    config_hash = str(info.get("config_hash", ""))
    title = f"harness report {config_hash[:12]}" if config_hash else "harness report"
    depths = sorted(int(d) for d in summary["depth"].unique())
    suites = {str(x) for x in summary["suite"].unique()}
    depth_text = (f"each problem to its own depth (at most {max(depths)})"
                  if suites and suites <= comparison.own_depth
                  else "depths " + ", ".join(str(d) for d in depths))
    method = (
        f"A is the baseline <code>{_e(baseline)}</code>, B each other variant. Problems are "
        "paired on problem set, problem and depth, and every problem set is compared on its "
        "own (never pooled). B/A is the geometric mean of the per-problem "
        "node ratios; its 95% interval is a paired percentile bootstrap "
        f"({comparison.resamples} resamples of the problems, numpy PCG64 seed "
        f"{comparison.seed}). Wins are problems where B searched fewer nodes; the sign test "
        "is exact and two-sided, ties left out. A difference is called significant at 5% "
        "when the interval excludes 1 and the sign test gives p &lt; 0.05 (bold ratios). A "
        "pair with a zero count is compared as (B + 1) / (A + 1). Re-search rate: "
        "researches / zero-window searches; first-move fail-high rate: fail-highs caused by "
        "the first move / fail-highs; both as ratios of totals."
    )
    rows = len(summary)
    tables = (
        f"<details><summary><h3>Summary per problem set, variant and depth ({rows} rows)</h3>"
        f"</summary>\n{_summary_html(summary, baseline, names)}\n</details>\n"
        f"<details><summary><h3>Every variant against {_e(baseline)} at every depth "
        f"({len(comparison.table)} rows)</h3></summary>\n"
        + (_comparison_html(comparison, names) if not comparison.table.empty
           else "<p>Nothing to compare.</p>")
        + "\n</details>\n<details><summary><h3>Verdicts in full, with the problems that "
        f"differ most</h3></summary>\n{_verdicts_html(comparison, names)}\n</details>")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>{_e(title)}</h1>
{_answers_html(answers)}
<p class="lead">{summary["variant"].nunique()} variants against the baseline (A)
<code>{_e(baseline)}</code>, {_e(depth_text)}.
{_sets_html(names, summary)}</p>
{lead_figure}
<h2>Verdicts at each variant's deepest depth</h2>
{_verdict_table(comparison, names)}
<p class="note">Bold: significant at 5% (the interval excludes 1 and the sign test gives
p &lt; 0.05). How these are computed: see Method, near the end.</p>
<h2>Charts</h2>
{chr(10).join([*(f'<p class="note">{_e(line)}</p>' for line in left_out), *figures])}
<h2>Tables</h2>
<p class="note">Click a heading to open its table.</p>
{tables}
<h2>Method</h2>
<p>{method}</p>
<h2>Run</h2>
{_info_html(info)}
</body>
</html>
"""
