"""Summary table, charts (deterministic bytes) and the self-contained HTML report."""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection

from harness.errors import HarnessError
from harness.report import charts, counter_charts
from harness.report.compare import compare
from harness.report.page import (
    SUMMARY_COLUMNS,
    rebuild_report,
    summary_table,
    write_report,
)
from harness.report.selection import REPORT_CHARTS, choose_charts
from harness.report.solved import solved_flags
from harness.run.experiment import RunOutput, run_experiment
from harness.run.plan import ExperimentConfig
from harness.search.registry import parse_variants
from tests.test_compare import BASE, frame


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunOutput:
    config = ExperimentConfig(problems=("random:b=3,d=3,n=8,seed=4,ordering=0.7",),
                              variants="alphabeta,pvs,mtdf", depths=(1, 2, 3))
    return run_experiment(config, tmp_path_factory.mktemp("report") / "run")


def test_solved_flags_accept_every_spelling() -> None:
    values = pd.Series([True, False, "True", "false", "", None, math.nan, 1, 0.0, "1"])
    flags = solved_flags(values).tolist()
    assert flags[:5] == [1.0, 0.0, 1.0, 0.0, flags[4]] and math.isnan(flags[4])
    assert math.isnan(flags[5]) and math.isnan(flags[6])
    assert flags[7:] == [1.0, 0.0, 1.0]
    with pytest.raises(HarnessError):
        solved_flags(pd.Series(["maybe"]))


def test_summary_table_with_and_without_solved() -> None:
    results = frame({"pvs": [n // 2 for n in BASE], "alphabeta": BASE}, solved=True)
    summary = summary_table(results, "alphabeta")
    assert list(summary.columns) == list(SUMMARY_COLUMNS)
    pvs, alphabeta = summary.iloc[0], summary.iloc[1]
    assert (pvs["variant"], pvs["problems"], pvs["paired"], pvs["nodes"]) == ("pvs", 10, 10, sum(BASE) // 2)
    assert pvs["ratio"] == pytest.approx(0.5)
    assert alphabeta["ratio"] == 1.0 and alphabeta["ratio_low"] == 1.0
    assert (pvs["solved"], pvs["solve_rate"]) == (5, 1.0)  # odd problems True, even ones empty
    assert pvs["research_rate"] == pytest.approx(0.1)
    assert pvs["fh_first_rate"] == pytest.approx(0.75)
    plain = summary_table(results.drop(columns="solved"), "alphabeta")
    assert plain["solve_rate"].isna().all() and plain["solved"].isna().all()
    assert plain["ratio"].equals(summary["ratio"])


def test_summary_table_is_per_suite_and_checks_the_baseline() -> None:
    results = pd.concat([frame({"alphabeta": BASE, "b": BASE}, suite="x"),
                         frame({"alphabeta": BASE, "b": [2 * n for n in BASE]}, suite="y")])
    summary = summary_table(results)
    b = summary[summary["variant"] == "b"].set_index("suite")
    assert b.loc["x", "ratio"] == pytest.approx(1.0) and b.loc["y", "ratio"] == pytest.approx(2.0)
    with pytest.raises(HarnessError, match="baseline"):
        summary_table(results, "nosuch")


def _figures(results: pd.DataFrame) -> dict[str, Any]:
    comparison = compare(results, "alphabeta", [], resamples=500)
    return {"relative": charts.relative_nodes_chart(comparison),
            "rates": counter_charts.rates_chart(results)}


def test_charts_are_deterministic(run: RunOutput, tmp_path: Path) -> None:
    # every chart is also rendered twice from scratch by the report test below
    again = _figures(run.results)
    for name, fig in _figures(run.results).items():
        png, svg = charts.save(fig, tmp_path / f"{name}-1")
        assert png.name == f"{name}-1.png" and svg.name == f"{name}-1.svg"
        png2, svg2 = charts.save(again[name], tmp_path / f"{name}-2")
        assert png.read_bytes() == png2.read_bytes(), name
        assert svg.read_bytes() == svg2.read_bytes(), name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"Software" not in png.read_bytes()[:4096]
        text = svg.read_text(encoding="utf-8")
        assert "<dc:date>" not in text and "Matplotlib v" not in text


def test_nodes_by_depth_draws_the_minimal_tree_only_when_known(run: RunOutput) -> None:
    def labels(fig: Any) -> list[str]:
        return [t.get_text() for legend in fig.legends for t in legend.get_texts()]

    assert "minimal tree (leaves)" in labels(charts.nodes_by_depth_chart(run.results))
    unknown = run.results.assign(minimal_leaves=np.nan)
    assert "minimal tree (leaves)" not in labels(charts.nodes_by_depth_chart(unknown))
    assert "minimal tree (leaves)" not in labels(charts.nodes_by_depth_chart(
        run.results.drop(columns="minimal_leaves")))


def test_charts_reject_bad_requests(run: RunOutput) -> None:
    with pytest.raises(HarnessError, match="depth 9"):
        counter_charts.rates_chart(run.results, depth=9)
    with pytest.raises(HarnessError):
        counter_charts.scatter_chart(run.results, "alphabeta", [])
    with pytest.raises(HarnessError):
        counter_charts.scatter_chart(run.results, "alphabeta", ["nosuch"])


def test_report_is_self_contained_and_deterministic(run: RunOutput, tmp_path: Path) -> None:
    info = dict(run.info)
    info["command"] = ["harness", "run", "--note", "<script>alert('x')</script> & more"]
    first = write_report(tmp_path / "a", run.results, info, resamples=500)
    second = write_report(tmp_path / "b", run.results, info, resamples=500)
    assert first.baseline == "alphabeta"
    for path in (first.html, first.summary, first.comparison, *first.charts):
        assert path.exists() and path.stat().st_size > 0
    assert {p.suffix for p in first.charts} == {".png", ".svg"}
    assert len(first.charts) == 8
    for mine, theirs in zip((first.html, first.summary, first.comparison, *first.charts),
                            (second.html, second.summary, second.comparison, *second.charts),
                            strict=True):
        assert mine.read_bytes() == theirs.read_bytes(), mine.name

    page = first.html.read_text(encoding="utf-8")
    sources = re.findall(r'(?:src|href)\s*=\s*["\']?([^"\'\s>]*)', page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert "<link" not in page and "<script" not in page
    assert "&lt;script&gt;alert(" in page and "&lt;/script&gt; &amp; more" in page
    assert str(info["config_hash"]) in page
    assert page.count("<table") >= 3
    for variant in ("alphabeta", "pvs", "mtdf"):
        assert f">{variant}</td>" in page
    assert "solve rate" not in page  # no solved values in synthetic runs

    summary = pd.read_csv(first.summary)
    assert list(summary.columns) == list(SUMMARY_COLUMNS)
    assert len(summary) == 3 * 3


def test_report_with_solved_values_and_a_single_variant(tmp_path: Path) -> None:
    results = frame({"pvs": BASE}, solved=True)
    files = write_report(tmp_path, results, {"config_hash": "abc123", "config": {"x": 1}})
    page = files.html.read_text(encoding="utf-8")
    assert files.baseline == "pvs"
    assert "solve rate" in page and "100.0%" in page
    assert "nothing to compare" in page
    # one depth: no depth chart, and the page says so; one variant: no scatter, silently
    assert {p.stem for p in files.charts} == {"rates"}
    assert "No nodes-by-depth chart: no problem set was searched at two or more depths" in page
    assert "No per-problem scatter" not in page


def _contrast() -> pd.DataFrame:
    """Two problem sets with opposite effects: b halves the nodes on x, doubles them on y;
    c equals the baseline everywhere (a series drawn exactly over it), at depths 1-3."""
    parts = []
    for depth in (1, 2, 3):
        base = [n * depth for n in BASE]
        parts += [frame({"alphabeta": base, "b": [n // 2 for n in base], "c": base},
                        depth=depth, suite="random:b=3,d=3,ordering=0.9"),
                  frame({"alphabeta": base, "b": [2 * n for n in base], "c": base},
                        depth=depth, suite="random:b=3,d=3,ordering=random")]
    return pd.concat(parts, ignore_index=True)


def test_comparison_csv_has_a_suite_column_and_a_row_per_set(tmp_path: Path) -> None:
    files = write_report(tmp_path, _contrast(), {"config_hash": "abc"}, resamples=200)
    table = pd.read_csv(files.comparison)
    assert table.columns[0] == "suite"
    deepest = table[(table["variant"] == "b") & (table["depth"] == 3)].set_index("suite")
    assert len(deepest) == 2
    assert deepest.loc["random:b=3,d=3,ordering=0.9", "ratio"] == pytest.approx(0.5)
    assert deepest.loc["random:b=3,d=3,ordering=random", "ratio"] == pytest.approx(2.0)
    assert deepest["significant"].all()


def test_relative_chart_has_a_panel_per_set_and_explains_hollow_markers() -> None:
    fig = charts.relative_nodes_chart(compare(_contrast(), "alphabeta", [], resamples=200))
    panels = [ax for ax in fig.axes if ax.axison]
    assert [ax.get_title().split(":")[0] for ax in panels] == ["ordering=0.9", "ordering=random"]
    assert "every problem set: random:b=3,d=3" in fig.get_suptitle()
    legend = [t.get_text() for lg in fig.legends for t in lg.get_texts()]
    assert legend[0] == ("filled: significant at 5% (interval excludes 1 and sign test "
                         "p < 0.05)")
    assert legend[1].startswith("hollow: not significant, including intervals that exclude 1 "
                                "when the sign test disagrees")
    # b's point sits left of 1 in the first panel and right of it in the second
    b_row = [label.get_text() for label in panels[0].get_yticklabels()].index("b")
    xs = []
    for ax in panels:
        points = np.concatenate([c.get_offsets() for c in ax.collections
                                 if isinstance(c, PathCollection) and len(c.get_offsets())])
        xs.append(float(points[points[:, 1] == b_row][0, 0]))
    assert xs == pytest.approx([0.5, 2.0])


def test_every_variant_gets_its_own_marker() -> None:
    markers = [charts.variant_style(i)["marker"] for i in range(20)]
    assert len(set(markers[:15])) == 15 and len(set(markers)) == 20
    # the first ten are unchanged: the reproduce charts keep their look
    assert markers[:10] == ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]
    variants = [f"v{i:02d}" for i in range(15)]
    results = pd.concat([frame({v: [10 + i] * 3}, depth=d) for d in (1, 2)
                         for i, v in enumerate(variants)], ignore_index=True)
    fig = charts.nodes_by_depth_chart(results)
    handles = fig.legends[0].legend_handles
    assert len({h.get_marker() for h in handles}) == 15


def test_equal_series_stay_visible() -> None:
    fig = charts.nodes_by_depth_chart(_contrast())
    left = fig.subfigs[0].axes[0]
    lines = {line.get_label(): line for line in left.get_lines()}
    base, copy = lines["alphabeta"], lines["c"]
    assert list(base.get_ydata()) == list(copy.get_ydata())     # equal values...
    shift = np.asarray(copy.get_xdata()) - np.asarray(base.get_xdata())
    assert shift == pytest.approx([charts.DODGE] * 3)             # ...drawn beside them
    assert copy.get_markerfacecolor() == "none" and base.get_markerfacecolor() != "none"
    notes = [t.get_text() for t in fig.subfigs[0].texts]   # supxlabel: the line under a set
    assert any(t.startswith("equal values") and "alphabeta = c" in t for t in notes)
    assert fig.subfigs[0].get_suptitle() == "problem set ordering=0.9"


def test_rates_and_scatter_are_per_set() -> None:
    results = _contrast()
    rates = counter_charts.rates_chart(results)
    assert len(rates.axes[0].patches) == 3 * 2      # a bar per variant and problem set
    scatter = counter_charts.scatter_chart(results, "alphabeta", ["b"])
    assert scatter.axes[0].get_title() == "b: B/A = 0.500 (ordering=0.9), 2.000\n(ordering=random)"


def test_page_opens_with_the_chart_and_a_verdict_per_variant_and_set(tmp_path: Path) -> None:
    files = write_report(tmp_path, _contrast(), {"config_hash": "abc"}, resamples=200)
    page = files.html.read_text(encoding="utf-8")
    order = [page.index(mark) for mark in ('id="chart-relative_nodes"', "<h2>Verdicts",
                                           'id="chart-nodes_by_depth"', "<h2>Tables",
                                           "<h2>Method", "<h2>Run")]
    assert order == sorted(order)
    assert ("Problem sets: <code>random:b=3,d=3</code> with <code>ordering=0.9</code> (10 "
            "problems), <code>ordering=random</code> (10 problems)") in page
    verdicts = page[page.index("<h2>Verdicts"):page.index("<h2>Charts")]
    assert verdicts.count("<tr>") == 2 + 2          # two header rows, one row per variant
    b_row = verdicts[verdicts.index('<td class="text">b</td>'):].split("</tr>")[0]
    assert "50.0% fewer nodes, significant" in b_row and "2 times the nodes, significant" in b_row
    assert "ordering=0.9 (depth 3)" in verdicts and "ordering=random (depth 3)" in verdicts
    assert "random:b=3,d=3,ordering=0.9" not in page.split("<h2>Run")[0]  # short names above


NINE_NODES = [[1, 2], [3, [4, 5]]]
"""The root, two inner nodes, a third under the second, five leaves: a first try."""


@pytest.fixture(scope="module")
def nine_nodes(tmp_path_factory: pytest.TempPathFactory) -> RunOutput:
    folder = tmp_path_factory.mktemp("nine")
    tree = folder / "fig.json"
    tree.write_text(json.dumps(NINE_NODES), encoding="utf-8")
    return run_experiment(ExperimentConfig(problems=(f"tree:{tree}",), variants="all"),
                          folder / "run")


def test_a_nine_node_report_keeps_what_it_needs_and_says_which_charts_it_left_out(
        nine_nodes: RunOutput) -> None:
    run_dir = nine_nodes.run_dir
    page = (run_dir / "report.html").read_text(encoding="utf-8")
    variants = [spec.label for spec in parse_variants("all")]
    assert len(variants) > 10
    # the chart that carries the result, the verdicts, the rates, the tables, the method
    assert re.findall(r'id="chart-(\w+)"', page) == ["relative_nodes", "rates"]
    verdicts = page[page.index("<h2>Verdicts"):page.index("<h2>Charts")]
    for variant in (v for v in variants if v != "alphabeta"):
        assert f'<td class="text">{variant}</td>' in verdicts, variant
    assert f"{len(variants)} variants against the baseline (A)" in page
    assert "depth 3." in page and "fig.json</code> (1 problems)" in page
    for heading in ("<h2>Tables", "<h2>Method", "<h2>Run", "Summary per problem set"):
        assert heading in page
    # a line for each chart left out, under Charts, instead of an empty chart
    charts_part = page[page.index("<h2>Charts"):page.index("<h2>Tables")]
    assert ('<p class="note">No nodes-by-depth chart: no problem set was searched at two or '
            "more depths, so there is no curve and no branching factor to draw") in charts_part
    assert ('<p class="note">No per-problem scatter: each problem set has one problem, so its '
            "nodes against alphabeta are the ratios above.</p>") in charts_part


def test_no_chart_file_of_a_chart_left_out(nine_nodes: RunOutput, tmp_path: Path) -> None:
    """The charts folder holds the drawn charts and nothing else of the report's; each is
    the picture the page embeds; a rebuild removes a chart it no longer draws."""
    charts_dir = nine_nodes.run_dir / "charts"
    drawn = ["relative_nodes", "rates"]
    assert sorted(p.name for p in charts_dir.iterdir()) == sorted(
        f"{name}.{suffix}" for name in drawn for suffix in ("png", "svg"))
    page = (nine_nodes.run_dir / "report.html").read_text(encoding="utf-8")
    embedded = [base64.b64decode(data) for data in
                re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]
    assert embedded == [(charts_dir / f"{name}.png").read_bytes() for name in drawn]
    for name in set(REPORT_CHARTS) - set(drawn):
        assert f"chart-{name}" not in page and f"{name}.png" not in page

    # a folder reported before: its old depth chart and scatter go, other files stay
    copy = tmp_path / "run"
    copy.mkdir()
    for name in ("results.csv", "run.json"):
        (copy / name).write_bytes((nine_nodes.run_dir / name).read_bytes())
    (copy / "charts").mkdir()
    for stale in ("nodes_by_depth.png", "nodes_by_depth.svg", "scatter.png", "scatter.svg",
                  "mine.png"):
        (copy / "charts" / stale).write_bytes(b"old")
    files = rebuild_report(copy)
    assert sorted(p.name for p in (copy / "charts").iterdir()) == sorted(
        [*(p.name for p in files.charts), "mine.png"])
    assert {p.stem for p in files.charts} == set(drawn)


def test_charts_are_left_out_only_where_they_hold_nothing() -> None:
    def drawn(results: pd.DataFrame, others: list[str]) -> list[str]:
        comparison = compare(results, "alphabeta", others, resamples=50)
        return [c.name for c in choose_charts(results, comparison, "alphabeta", others).drawn]

    one_depth = frame({"alphabeta": BASE, "b": [n // 2 for n in BASE]})      # ten problems
    assert drawn(one_depth, ["b"]) == ["relative_nodes", "rates", "scatter"]
    one_problem = _contrast()[lambda f: f["problem_id"] == "0"]            # depths 1-3
    assert drawn(one_problem, ["b", "c"]) == ["relative_nodes", "nodes_by_depth", "rates"]
    assert drawn(_contrast(), ["b", "c"]) == list(REPORT_CHARTS)
    # one set at one depth beside a depth sweep: the sweep's curves are drawn
    mixed = pd.concat([one_depth.assign(suite="single"), _contrast()], ignore_index=True)
    assert "nodes_by_depth" in drawn(mixed, ["b"])


def _shown_tick_labels(fig: Any) -> list[tuple[str, list[Any]]]:
    """For each axis of each visible panel: its tick labels inside its limits, drawn."""
    fig.canvas.draw()
    found = []
    for ax in fig.axes:
        if not ax.axison:
            continue
        for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            labels = [label for label, at in zip(axis.get_ticklabels(), axis.get_ticklocs(), strict=True)
                      if label.get_visible() and label.get_text() and low <= at <= high]
            found.append((axis.axis_name, labels))
    return found


@pytest.mark.parametrize(("low", "high"), [(1, 60), (2000, 120_000), (3000, 300_000),
                                           (30_000, 2_500_000), (1_200_000, 2_000_000), (1, 10**8)])
def test_log_axis_tick_labels_never_overlap(low: int, high: int) -> None:
    """The scatter grid (six variants, four panels a row) at small and large scales: every
    panel's tick labels are short (``5k``, ``1.5M``), at least two per axis, and no two of
    an axis overlap as drawn (before, ``5000 10000 20000 50000`` ran into each other)."""
    base = [int(n) for n in np.geomspace(low, high, 8)]
    variants = {f"v{k}": [int(n * (0.7 + 0.1 * k)) for n in base] for k in range(6)}
    fig = counter_charts.scatter_chart(frame({"alphabeta": base, **variants}), "alphabeta", list(variants))
    renderer = fig.canvas.get_renderer()
    axes = _shown_tick_labels(fig)
    assert len(axes) == 12
    for name, labels in axes:
        texts = [label.get_text() for label in labels]
        assert len(texts) >= 2 and all(len(t) <= 5 for t in texts), (name, texts)
        boxes = [label.get_window_extent(renderer) for label in labels]
        assert not any(a.overlaps(b) for a, b in itertools.pairwise(boxes)), (name, texts)


def test_compact_tick_numbers() -> None:
    assert [charts.compact_number(v) for v in (0.25, 1, 50, 999, 1000, 5000, 12_500, 200_000,
                                               1_500_000, 2e9)] == \
        ["0.25", "1", "50", "999", "1k", "5k", "12.5k", "200k", "1.5M", "2G"]


def _two_sets(depths: tuple[int, ...] = (1, 2, 3)) -> pd.DataFrame:
    """Three variants on two chess sets at ``depths``: pvs halves the nodes, mtdf doubles them."""
    parts = [frame({"alphabeta": BASE, "pvs": [n // 2 for n in BASE], "mtdf": [2 * n for n in BASE]},
                   depth=d, suite=s) for s in ("chess:wac.epd", "chess:bench.epd") for d in depths]
    return pd.concat(parts, ignore_index=True)


def test_a_report_is_titled_by_what_it_shows(tmp_path: Path) -> None:
    """The title names the sets (short names), the variants and the depths; the hash is
    metadata, not the title (every page read "harness report 15adca7fadc8" before)."""
    files = write_report(tmp_path, _two_sets(), {"config_hash": "15adca7fadc8" + "0" * 52},
                         resamples=200)
    page = files.html.read_text(encoding="utf-8")
    title = "harness report: wac.epd, bench.epd, 3 variants, depths 1-3"
    assert f"<title>{title}</title>" in page and f"<h1>{title}</h1>" in page
    assert f'<meta name="harness-config-hash" content="15adca7fadc8{"0" * 52}">' in page
    assert "15adca7fadc8" not in re.search(r"<title>(.*)</title>", page).group(1)  # type: ignore[union-attr]


def test_depths_in_words() -> None:
    from harness.report.view import depth_span

    assert depth_span([3]) == "depth 3"
    assert depth_span([3, 1, 2, 2]) == "depths 1-3"
    assert depth_span([2, 4, 6]) == "depths 2, 4, 6"


def test_the_index_leads_with_each_sets_headline_figure(tmp_path: Path) -> None:
    """The index of a folder of runs opens with each run's headline per problem set (the
    variant with the fewest nodes, its ratio and interval, from the run's comparison.csv)
    and its relative-nodes chart, before the list of links; it is titled by the sets,
    variants and depths it holds."""
    from harness.report.page import report_files, write_index

    folder = tmp_path / "runs"
    specs = ("random:b=3,d=4,n=6,seed=1,ordering=0.9", "random:b=3,d=4,n=6,seed=1,ordering=random")
    runs = [run_experiment(ExperimentConfig(problems=specs, variants="alphabeta,pvs,sss",
                                            depths=(1, 2, 3)), folder / "both").run_dir,
            run_experiment(ExperimentConfig(problems=specs[:1], variants="alphabeta,pvs",
                                            depths=(4,)), folder / "one").run_dir]
    page = write_index(folder, [(run, report_files(run)) for run in runs]).read_text(encoding="utf-8")
    title = "harness runs in runs: ordering=0.9, ordering=random, 3 variants, depths 1-4"
    assert f"<title>{title}</title>" in page
    comparison = pd.read_csv(runs[0] / "comparison.csv")
    random_set = pd.unique(comparison["suite"])[1]             # the spec in full, as stored
    deepest = comparison[(comparison["suite"] == random_set) & (comparison["depth"] == 3)]
    best = deepest.sort_values("ratio").iloc[0]
    numbers = (f"{best['ratio']:.3f} of alphabeta&#39;s nodes ({best['ratio_low']:.3f} to "
               f"{best['ratio_high']:.3f})")
    line = page[page.index("<li><code>ordering=random</code> at depth 3: "):]
    line = line[:line.index("</li>")]
    assert numbers in line and (f"{best['variant']}: " in line or f"the fewest, {best['variant']}" in line)
    assert page.count("<li><code>") == 3                 # two sets, then one
    assert page.index(line) < page.index('src="both/charts/relative_nodes.png"') \
        < page.index('src="one/charts/relative_nodes.png"') < page.index("Every run") \
        < page.index('<li><a href="both/report.html">both</a>')


@pytest.mark.parametrize("comparison", [None, "", "suite,variant\ns,pvs\n"])
def test_an_index_lists_a_run_without_a_usable_comparison_without_its_headline(
        tmp_path: Path, comparison: str | None) -> None:
    """A run whose comparison.csv is missing, empty or of other columns (an older harness)
    is still listed, with its chart, and without a headline."""
    from harness.report.page import COMPARISON_FILE, report_files, write_index

    folder = tmp_path / "runs"
    run = run_experiment(ExperimentConfig(problems=("random:b=2,d=3,n=4,seed=1",),
                                          variants="alphabeta,pvs", depths=(2, 3)), folder / "r").run_dir
    if comparison is None:
        (run / COMPARISON_FILE).unlink()
    else:
        (run / COMPARISON_FILE).write_text(comparison, encoding="utf-8")
    page = write_index(folder, [(run, report_files(run))]).read_text(encoding="utf-8")
    assert "<li><code>" not in page and 'src="r/charts/relative_nodes.png"' in page
    assert '<li><a href="r/report.html">r</a>: random:b=2,d=3,n=4,seed=1;' in page
