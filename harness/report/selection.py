"""Which charts a run's report draws: each only where it says something.

A chart that would hold no information is left out and the page says why in one line:
with every problem set searched at a single depth, the nodes-by-depth chart is a column of
points and an empty branching-factor panel (the tables hold the nodes); with one problem
per set, the per-problem scatter is one point per panel, the ratio the relative-nodes chart
already shows. A nine-node tree's report is then two charts, not four.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

from harness.report import charts, counter_charts
from harness.report.compare import Comparison

REPORT_CHARTS = ("relative_nodes", "nodes_by_depth", "rates", "scatter")
"""Every chart a run's report may draw, by file name (``charts/<name>.png|svg``), in the
page's order."""


@dataclass(frozen=True)
class PlannedChart:
    """A chart the report draws."""

    name: str
    """Its file name without suffix, one of :data:`REPORT_CHARTS`."""
    title: str
    """Its heading on the page."""
    build: Callable[[], Figure]
    """Draws it."""


@dataclass(frozen=True)
class ChartChoice:
    """The charts of one report."""

    drawn: tuple[PlannedChart, ...]
    """The charts that say something, in :data:`REPORT_CHARTS` order."""
    left_out: tuple[str, ...]
    """One sentence for each chart left out for holding no information (none for a chart
    with nothing to compare: a single variant's report says that once, in its verdicts)."""


def single_depth(results: pd.DataFrame) -> bool:
    """Whether every problem set was searched at one depth (after
    :func:`harness.report.depths.group_own_depths`)."""
    return bool(results.groupby("suite", sort=False)["depth"].nunique().max() <= 1)


def single_problem(results: pd.DataFrame) -> bool:
    """Whether every problem set holds one problem."""
    return bool(results.groupby("suite", sort=False)["problem_id"].nunique().max() <= 1)


def choose_charts(results: pd.DataFrame, comparison: Comparison, baseline: str,
                  others: Sequence[str]) -> ChartChoice:
    """The charts of a report on ``results`` (every variant in ``others`` against
    ``baseline``), and a line for each left out."""
    drawn: list[PlannedChart] = []
    left_out: list[str] = []
    if others:
        drawn.append(PlannedChart("relative_nodes", f"Nodes relative to {baseline}",
                                  lambda: charts.relative_nodes_chart(comparison)))
    if single_depth(results):
        left_out.append("No nodes-by-depth chart: no problem set was searched at two or more "
                        "depths, so there is no curve and no branching factor to draw (the nodes "
                        "are in the tables below).")
    else:
        drawn.append(PlannedChart("nodes_by_depth", "Nodes and effective branching factor by "
                                  "depth", lambda: charts.nodes_by_depth_chart(results)))
    drawn.append(PlannedChart("rates", "Re-search and first-move fail-high rates",
                              lambda: counter_charts.rates_chart(results)))
    if others and single_problem(results):
        left_out.append("No per-problem scatter: each problem set has one problem, so its "
                        f"nodes against {baseline} are the ratios above.")
    elif others:
        drawn.append(PlannedChart("scatter", "Per-problem nodes against the baseline",
                                  lambda: counter_charts.scatter_chart(results, baseline, others)))
    return ChartChoice(tuple(drawn), tuple(left_out))
