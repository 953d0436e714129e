"""Charts of a run's rates and of its variants against a baseline, problem by problem:
the report's ``rates`` and ``scatter`` figures (the shared style and helpers are
:mod:`harness.report.charts`')."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from harness.errors import HarnessError
from harness.report import charts, stats
from harness.report.compare import pair, variants_in
from harness.report.summary import set_names

_HATCHES = ("", "///", "...", "xxx", "\\\\\\", "ooo")
"""Bar fills telling problem sets apart in the rates chart (colour stays the variant's)."""


def rates_chart(results: pd.DataFrame, depth: int | None = None) -> Figure:
    """Re-search rate (researches / zw_searches) and first-move fail-high rate
    (fail_highs_first / fail_highs) per variant at ``depth`` (default: the deepest), one
    bar per problem set (hatched differently), never pooled across sets."""
    variants = variants_in(results)
    for column in ("researches", "zw_searches", "fail_highs", "fail_highs_first"):
        if column not in results.columns:
            raise HarnessError(f"results have no column {column!r}")
    depth = charts.deepest_depth(results["depth"], depth)
    part = results[results["depth"] == depth]
    suites = charts.suites_of(part, None)
    names = set_names(suites)
    research: list[list[float]] = []
    first: list[list[float]] = []
    for suite in suites:
        rows = part[part["suite"] == suite]
        research.append([])
        first.append([])
        for variant in variants:
            mine = rows[rows["variant"] == variant]
            research[-1].append(stats.rate(mine["researches"], mine["zw_searches"]) * 100)
            first[-1].append(stats.rate(mine["fail_highs_first"], mine["fail_highs"]) * 100)
    count = len(suites)
    height = 0.8 / count
    with charts.chart_style():
        fig = charts.figure(11.0, 1.6 + 0.3 * max(len(variants), 3) * (1 + 0.6 * (count - 1)))
        left, right = fig.subplots(1, 2, sharey=True)
        y = np.arange(len(variants))
        colors = [charts.variant_style(i)["color"] for i in range(len(variants))]
        panels = (
            (left, research, "re-searches per zero-window search (%)",
             "Re-search rate", "no zero-window searches"),
            (right, first, "fail-highs caused by the first move (%)",
             "First-move fail-high rate", "no fail-highs"),
        )
        for ax, per_suite, label, title, missing in panels:
            for k, values in enumerate(per_suite):
                at = y + (k - (count - 1) / 2) * height
                shown = [0.0 if math.isnan(v) else v for v in values]
                ax.barh(at, shown, height=height * 0.92, color=colors, edgecolor="black",
                        linewidth=0.4, hatch=_HATCHES[k % len(_HATCHES)])
                for yi, v in zip(at, values, strict=True):
                    if math.isnan(v):
                        continue
                    ax.annotate(f"{v:.1f}%", (v, yi), xytext=(3, 0), textcoords="offset points",
                                va="center", fontsize=8 if count == 1 else 7)
            for j in range(len(variants)):  # once per variant and panel, not once per set
                gaps = [k for k in range(count) if math.isnan(per_suite[k][j])]
                if gaps:
                    which = "" if len(gaps) == count else " in " + ", ".join(
                        names.label(suites[k]) for k in gaps)
                    ax.annotate(f"n/a ({missing}{which})", (0, y[j]), xytext=(3, 0),
                                textcoords="offset points", va="center", fontsize=8,
                                color="#555555")
            ax.set_xlabel(label)
            ax.set_title(f"{title} at depth {depth}")
            ax.grid(axis="y", visible=False)
            finite = [v for values in per_suite for v in values if not math.isnan(v)]
            ax.set_xlim(0, max([*finite, 1.0]) * 1.25 if ax is left else 112)
        left.set_yticks(y, variants)
        left.invert_yaxis()
        if count > 1:
            keys = [Patch(facecolor="white", edgecolor="black", hatch=_HATCHES[k % len(_HATCHES)])
                    for k in range(count)]
            title = "problem set" + (f" (all: {names.common})" if names.common else "")
            fig.legend(keys, [charts.wrap(names.label(s), 70) for s in suites],
                       loc="outside lower center", ncols=min(count, 3), title=charts.wrap(title, 110))
    return fig


def scatter_chart(results: pd.DataFrame, baseline: str, others: Sequence[str],
                  depth: int | None = None, columns: int = 4) -> Figure:
    """Per problem, baseline nodes (x) against each other variant's (y), log-log, with the
    diagonal (points below it: the other variant searched fewer nodes); one panel per
    other variant at ``depth`` (default: the deepest), points marked by suite."""
    if not others:
        raise HarnessError("scatter: no variant to compare with the baseline")
    depth = charts.deepest_depth(results["depth"], depth)
    suites = [str(s) for s in pd.unique(results["suite"])]
    names = set_names(suites)
    cols = max(1, min(columns, len(others)))
    rows = math.ceil(len(others) / cols)
    with charts.chart_style():
        fig = charts.figure(0.6 + 3.4 * cols, 0.8 + 3.3 * rows)
        axes = fig.subplots(rows, cols, squeeze=False)
        handles: dict[str, Any] = {}
        for k, other in enumerate(others):
            ax = axes[k // cols][k % cols]
            paired = pair(results, baseline, other)
            # an engine's search that timed out or crashed has no count: no point to draw
            paired = paired[(paired["depth"] == depth)].dropna(subset=["nodes_a", "nodes_b"])
            a = paired["nodes_a"].to_numpy(dtype=float)
            b = paired["nodes_b"].to_numpy(dtype=float)
            if len(paired) == 0:
                ax.text(0.5, 0.5, "no problems in common", ha="center", va="center",
                        transform=ax.transAxes)
                ax.set_title(other)
                continue
            for s, name in enumerate(suites):
                mask = (paired["suite"] == name).to_numpy()
                if mask.any():
                    style = charts.variant_style(s)
                    points = ax.scatter(np.maximum(a[mask], 1), np.maximum(b[mask], 1), s=16,
                                        alpha=0.75, color=style["color"], marker=style["marker"],
                                        linewidths=0)
                    handles.setdefault(charts.wrap(names.label(name), 70), points)
            bottom, top = _square_limits(np.concatenate([a, b]))
            ax.plot([bottom, top], [bottom, top], color="black", linewidth=1, linestyle="--")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlim(bottom, top)
            ax.set_ylim(bottom, top)
            charts.log_ticks(ax, "x")
            charts.log_ticks(ax, "y")
            ax.set_aspect("equal", adjustable="box")
            # B/A per problem set: a ratio over all of them would pool what they contrast
            found = []
            for name in suites:
                mask = (paired["suite"] == name).to_numpy()
                if mask.any():
                    ratio = stats.geometric_mean_ratio(a[mask], b[mask])
                    found.append(f"{ratio:.3f}" + (f" ({names.label(name)})" if len(suites) > 1
                                                   else ""))
            ax.set_title(charts.wrap(f"{other}: B/A = {', '.join(found)}", 42), fontsize=9)
            ax.set_xlabel(f"nodes, {baseline} (A)")
            ax.set_ylabel(f"nodes, {other} (B)")
        for k in range(len(others), rows * cols):
            axes[k // cols][k % cols].set_axis_off()
        fig.suptitle(charts.wrap(f"Nodes per problem at depth {depth}: each variant against {baseline} "
                           f"(log-log; below the diagonal: fewer nodes than {baseline})",
                           12 + 28 * cols))
        if len(suites) > 1:
            title = "problem set" + (f" (all: {names.common})" if names.common else "")
            fig.legend(list(handles.values()), list(handles.keys()), loc="outside lower center",
                       title=charts.wrap(title, 12 + 28 * cols), ncols=min(len(suites), 3))
    return fig


def _square_limits(values: np.ndarray) -> tuple[float, float]:
    """Log-axis limits around ``values`` with a margin, spanning at least a factor of 4."""
    low = max(float(values.min()), 1.0) / 1.25
    high = max(float(values.max()), 1.0) * 1.25
    if high / low < 4:
        middle = math.sqrt(high * low)
        low, high = middle / 2, middle * 2
    return low, high


