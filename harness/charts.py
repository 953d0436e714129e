"""Charts of a results frame, as matplotlib figures (object API, Agg canvas, no pyplot).

Every chart function returns a :class:`matplotlib.figure.Figure`; :func:`save` writes it
as PNG and SVG with the same bytes for the same data (no dates or software versions in
the metadata, a fixed SVG hash salt).
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullLocator
from matplotlib.typing import RcKeyType

from harness import stats
from harness.compare import Comparison, pair, variants_in
from harness.errors import HarnessError

STYLE: dict[RcKeyType, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.4,
    "lines.markersize": 5,
    "savefig.dpi": 150,
    "svg.fonttype": "path",
    "svg.hashsalt": "harness-charts",
}
"""The rcParams charts are drawn and saved under (applied with ``rc_context`` only)."""

PNG_METADATA: dict[str, str | None] = {"Software": None}
"""PNG text chunks: none (matplotlib writes no date into PNG; ``Software`` is removed)."""

SVG_METADATA: dict[str, str | None] = {"Date": None, "Creator": None}
"""SVG metadata: no date and no matplotlib version."""

_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
_LINESTYLES = ("-", "--", ":", "-.")


@contextmanager
def chart_style() -> Iterator[None]:
    with mpl.rc_context(STYLE):
        yield


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def variant_style(index: int) -> dict[str, str]:
    """Colour, marker and line style of the ``index``-th variant: distinct for 40 variants
    and still told apart in grey print by marker and line style."""
    return {"color": _COLORS[index % 10], "marker": _MARKERS[index % 10],
            "linestyle": _LINESTYLES[(index // 10) % 4]}


def _wrap(text: str, width: int = 60) -> str:
    """Break long labels (suite specs have no spaces) after commas or spaces."""
    lines: list[str] = []
    line = ""
    for token in re.findall(r"[^,\s]+[,\s]*|[,\s]+", text):
        if line and len(line) + len(token.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += token
    lines.append(line.rstrip())
    return "\n".join(lines)


def _deepest(depths: pd.Series | Sequence[int], depth: int | None) -> int:
    values = sorted({int(d) for d in depths})
    if not values:
        raise HarnessError("no results to chart")
    if depth is None:
        return values[-1]
    if depth not in values:
        raise HarnessError(f"depth {depth} is not in the results (they hold {values})")
    return depth


def relative_nodes_chart(comparison: Comparison, depth: int | None = None) -> Figure:
    """Geometric-mean nodes of each variant relative to the baseline at ``depth`` (default:
    the deepest), with the bootstrap interval; filled markers are significant at 5%."""
    table = comparison.table
    depth = _deepest(table["depth"], depth)
    rows = table[(table["depth"] == depth) & (table["n"] > 0)].sort_values("ratio", kind="stable")
    rows = rows.iloc[::-1]  # fewest nodes at the top
    with chart_style():
        fig = _figure(7.5, 1.7 + 0.32 * max(len(rows), 3))
        ax = fig.add_subplot()
        y = np.arange(len(rows))
        ratio = rows["ratio"].to_numpy(dtype=float)
        low = rows["ratio_low"].to_numpy(dtype=float)
        high = rows["ratio_high"].to_numpy(dtype=float)
        significant = rows["significant"].to_numpy(dtype=bool)
        ax.errorbar(ratio, y, xerr=[ratio - low, high - ratio], fmt="none", ecolor="#444444",
                    elinewidth=1.2, capsize=3)
        ax.scatter(ratio[significant], y[significant], color="#1f4e79", zorder=3,
                   label="significant at 5%")
        ax.scatter(ratio[~significant], y[~significant], facecolor="white", edgecolor="#1f4e79",
                   zorder=3, label="not significant")
        ax.axvline(1.0, color="#b22222", linewidth=1, linestyle="--",
                   label=f"{comparison.baseline} (= 1)")
        for yi, r, hi in zip(y, ratio, high, strict=True):
            ax.annotate(f"{r:.3f}", (hi, yi), xytext=(4, 0), textcoords="offset points",
                        va="center", fontsize=8)
        ax.set_yticks(y, rows["variant"].tolist())
        ax.set_xscale("log")
        ax.set_xlabel(f"nodes relative to {comparison.baseline} (B/A, geometric mean over "
                      f"problems; log scale)")
        n = int(rows["n"].max()) if len(rows) else 0
        ax.set_title(f"Nodes relative to {comparison.baseline} at depth {depth} "
                     f"({n} problems, {comparison.level:.0%} bootstrap intervals)")
        ax.grid(axis="y", visible=False)
        if len(rows):
            finite = np.concatenate([low, high, [1.0]])
            ax.set_xlim(float(finite.min()) / 1.08, float(finite.max()) * 1.2)  # room for labels
        _log_ticks(ax, "x")
        fig.legend(loc="outside lower center", ncols=3, frameon=False)
    return fig


def _log_ticks(ax: Axes, axis: str) -> None:
    """Plain numbers on a log axis (call after setting its limits): 1-2-5 steps over a wide
    range, evenly spaced round numbers over a narrow one (so there are always a few ticks);
    no minor ticks."""
    target = ax.xaxis if axis == "x" else ax.yaxis
    low, high = ax.get_xlim() if axis == "x" else ax.get_ylim()
    if high / low < 10:
        target.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    else:
        target.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    target.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    target.set_minor_locator(NullLocator())


def _suites(results: pd.DataFrame, suite: str | None) -> list[str]:
    suites = [str(s) for s in pd.unique(results["suite"])]
    if suite is None:
        return suites
    if suite not in suites:
        raise HarnessError(f"suite {suite!r} is not in the results")
    return [suite]


def has_minimal(results: pd.DataFrame) -> bool:
    """Whether the results carry a minimal tree (a ``minimal_leaves`` column, not all NaN)."""
    if "minimal_leaves" not in results.columns:
        return False
    return bool(pd.to_numeric(results["minimal_leaves"], errors="coerce").notna().any())


def nodes_by_depth_chart(results: pd.DataFrame, suite: str | None = None,
                         counter: str = "nodes") -> Figure:
    """Per suite: mean ``counter`` per problem against depth per variant (log scale), with
    the minimal tree's leaves when known, and the effective branching factor
    ``nodes(d) / nodes(d-1)`` beside it."""
    variants = variants_in(results)
    if counter not in results.columns:
        raise HarnessError(f"results have no column {counter!r}")
    suites = _suites(results, suite)
    minimal = has_minimal(results)
    with chart_style():
        fig = _figure(11.0, 0.3 + 3.9 * len(suites))
        rows = fig.subfigures(len(suites), 1, squeeze=False)
        handles: dict[str, Line2D] = {}
        for row, name in enumerate(suites):
            sub = rows[row][0]
            if len(suites) > 1 or len(name) > 20:
                sub.suptitle(_wrap(f"suite {name}", 110), fontsize=STYLE["axes.titlesize"])
            left, right = sub.subplots(1, 2)
            part = results[results["suite"] == name]
            means = part.groupby(["variant", "depth"], sort=True)[counter].mean()
            for i, variant in enumerate(variants):
                if variant not in means.index.get_level_values(0):
                    continue
                series = means.loc[variant]
                depths = series.index.to_numpy(dtype=int)
                values = series.to_numpy(dtype=float)
                (line,) = left.plot(depths, values, label=variant, **variant_style(i))
                handles.setdefault(variant, line)
                ebf_d, ebf = _branching(depths, values)
                right.plot(ebf_d, ebf, label=variant, **variant_style(i))
            if minimal:
                known = part.assign(minimal=pd.to_numeric(part["minimal_leaves"], errors="coerce"))
                per_problem = known.groupby(["depth", "problem_id"], sort=True)["minimal"].first()
                low = per_problem.groupby(level=0).mean().dropna()
                if len(low):
                    (line,) = left.plot(low.index.to_numpy(dtype=int), low.to_numpy(dtype=float),
                                        color="black", linewidth=2.2, linestyle=(0, (4, 2)),
                                        marker="_", markersize=14, label="minimal tree (leaves)")
                    handles.setdefault("minimal tree (leaves)", line)
            left.set_yscale("log")
            left.set_xlabel("search depth (plies)")
            left.set_ylabel(f"{counter} per problem (mean, log scale)")
            left.set_title(f"{counter.capitalize()} by depth")
            right.set_xlabel("search depth (plies)")
            right.set_ylabel(f"effective branching factor\n{counter}(d) / {counter}(d-1)")
            right.set_title("Effective branching factor")
            searched = sorted(int(d) for d in part["depth"].unique())
            for ax in (left, right):
                ax.set_xticks(searched)
                ax.set_xlim(searched[0] - 0.5, searched[-1] + 0.5)
            if len(searched) < 2:
                right.text(0.5, 0.5, "needs runs at two or more depths", ha="center",
                           va="center", transform=right.transAxes, color="#555555")
                right.set_yticks([])
        fig.legend(list(handles.values()), list(handles.keys()), loc="outside right upper",
                   title="variant")
    return fig


def _branching(depths: np.ndarray, values: np.ndarray) -> tuple[list[int], list[float]]:
    by_depth = dict(zip(depths.tolist(), values.tolist(), strict=True))
    xs, ys = [], []
    for d in depths.tolist():
        before = by_depth.get(d - 1)
        if before:
            xs.append(d)
            ys.append(by_depth[d] / before)
    return xs, ys


def rates_chart(results: pd.DataFrame, depth: int | None = None) -> Figure:
    """Re-search rate (researches / zw_searches) and first-move fail-high rate
    (fail_highs_first / fail_highs) per variant at ``depth`` (default: the deepest), over
    every problem of every suite."""
    variants = variants_in(results)
    for column in ("researches", "zw_searches", "fail_highs", "fail_highs_first"):
        if column not in results.columns:
            raise HarnessError(f"results have no column {column!r}")
    depth = _deepest(results["depth"], depth)
    part = results[results["depth"] == depth]
    research, first = [], []
    for variant in variants:
        rows = part[part["variant"] == variant]
        research.append(stats.rate(rows["researches"], rows["zw_searches"]) * 100)
        first.append(stats.rate(rows["fail_highs_first"], rows["fail_highs"]) * 100)
    with chart_style():
        fig = _figure(11.0, 1.4 + 0.3 * max(len(variants), 3))
        left, right = fig.subplots(1, 2, sharey=True)
        y = np.arange(len(variants))
        panels = (
            (left, research, "re-searches per zero-window search (%)",
             "Re-search rate", "no zero-window searches"),
            (right, first, "fail-highs caused by the first move (%)",
             "First-move fail-high rate", "no fail-highs"),
        )
        for ax, values, label, title, missing in panels:
            shown = [0.0 if math.isnan(v) else v for v in values]
            colors = [variant_style(i)["color"] for i in range(len(variants))]
            ax.barh(y, shown, color=colors, edgecolor="black", linewidth=0.4)
            for yi, v in zip(y, values, strict=True):
                text = f"n/a ({missing})" if math.isnan(v) else f"{v:.1f}%"
                ax.annotate(text, (0 if math.isnan(v) else v, yi), xytext=(3, 0),
                            textcoords="offset points", va="center", fontsize=8,
                            color="#555555" if math.isnan(v) else "black")
            ax.set_xlabel(label)
            ax.set_title(f"{title} at depth {depth}")
            ax.grid(axis="y", visible=False)
            finite = [v for v in values if not math.isnan(v)]
            ax.set_xlim(0, max([*finite, 1.0]) * 1.25 if ax is left else 112)
        left.set_yticks(y, variants)
        left.invert_yaxis()
    return fig


def scatter_chart(results: pd.DataFrame, baseline: str, others: Sequence[str],
                  depth: int | None = None, columns: int = 4) -> Figure:
    """Per problem, baseline nodes (x) against each other variant's (y), log-log, with the
    diagonal (points below it: the other variant searched fewer nodes); one panel per
    other variant at ``depth`` (default: the deepest), points marked by suite."""
    if not others:
        raise HarnessError("scatter: no variant to compare with the baseline")
    depth = _deepest(results["depth"], depth)
    suites = [str(s) for s in pd.unique(results["suite"])]
    cols = max(1, min(columns, len(others)))
    rows = math.ceil(len(others) / cols)
    with chart_style():
        fig = _figure(0.6 + 3.4 * cols, 0.8 + 3.3 * rows)
        axes = fig.subplots(rows, cols, squeeze=False)
        handles: dict[str, Any] = {}
        for k, other in enumerate(others):
            ax = axes[k // cols][k % cols]
            paired = pair(results, baseline, other)
            paired = paired[paired["depth"] == depth]
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
                    style = variant_style(s)
                    points = ax.scatter(np.maximum(a[mask], 1), np.maximum(b[mask], 1), s=16,
                                        alpha=0.75, color=style["color"], marker=style["marker"],
                                        linewidths=0)
                    handles.setdefault(_wrap(name, 70), points)
            bottom, top = _square_limits(np.concatenate([a, b]))
            ax.plot([bottom, top], [bottom, top], color="black", linewidth=1, linestyle="--")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlim(bottom, top)
            ax.set_ylim(bottom, top)
            _log_ticks(ax, "x")
            _log_ticks(ax, "y")
            ax.set_aspect("equal", adjustable="box")
            ratio = stats.geometric_mean_ratio(a, b)
            ax.set_title(f"{other}: B/A = {ratio:.3f}")
            ax.set_xlabel(f"nodes, {baseline} (A)")
            ax.set_ylabel(f"nodes, {other} (B)")
        for k in range(len(others), rows * cols):
            axes[k // cols][k % cols].set_axis_off()
        fig.suptitle(_wrap(f"Nodes per problem at depth {depth}: each variant against {baseline} "
                           f"(log-log; below the diagonal: fewer nodes than {baseline})",
                           12 + 28 * cols))
        if len(suites) > 1:
            fig.legend(list(handles.values()), list(handles.keys()), loc="outside lower center",
                       title="suite")
    return fig


def _square_limits(values: np.ndarray) -> tuple[float, float]:
    """Log-axis limits around ``values`` with a margin, spanning at least a factor of 4."""
    low = max(float(values.min()), 1.0) / 1.25
    high = max(float(values.max()), 1.0) * 1.25
    if high / low < 4:
        middle = math.sqrt(high * low)
        low, high = middle / 2, middle * 2
    return low, high


def save(fig: Figure, path_without_suffix: str | Path) -> tuple[Path, Path]:
    """Write ``fig`` as ``<path>.png`` and ``<path>.svg``; the same figure gives the same
    bytes every time (no timestamps or versions in the metadata, fixed SVG ids)."""
    base = Path(path_without_suffix)
    png = base.with_name(base.name + ".png")
    svg = base.with_name(base.name + ".svg")
    png.write_bytes(png_bytes(fig))
    with chart_style():
        fig.savefig(svg, format="svg", metadata=SVG_METADATA)
    return png, svg


def png_bytes(fig: Figure) -> bytes:
    """The PNG :func:`save` writes, in memory."""
    buffer = io.BytesIO()
    with chart_style():
        fig.savefig(buffer, format="png", metadata=PNG_METADATA)
    return buffer.getvalue()
