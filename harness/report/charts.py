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

from harness.errors import HarnessError
from harness.files import write_whole, writing
from harness.report.compare import Comparison, variants_in
from harness.report.summary import set_names

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
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">",
            "d", "x", "h", "+", "p", "1", "H", "2", "8", "|")
"""Twenty shapes: the colours repeat after ten, so variants 10-19 take other shapes, each
chosen to look unlike the shape of the variant with the same colour (10: thin diamond
against 0's circle)."""
_LINESTYLES = ("-", "--", ":", "-.")


@contextmanager
def chart_style() -> Iterator[None]:
    with mpl.rc_context(STYLE):
        yield


def figure(width: float, height: float) -> Figure:
    """An empty figure of ``width`` x ``height`` inches, laid out by matplotlib's constrained
    layout and drawn by Agg: no pyplot state, nothing left open once it is saved."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def variant_style(index: int) -> dict[str, str]:
    """Colour, marker and line style of the ``index``-th variant: a distinct marker for 20
    variants, a distinct combination for 40, and still told apart in grey print by marker
    and line style."""
    return {"color": _COLORS[index % 10], "marker": _MARKERS[index % 20],
            "linestyle": _LINESTYLES[(index // 10) % 4]}


def wrap(text: str, width: int = 60) -> str:
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


def deepest_depth(depths: pd.Series | Sequence[int], depth: int | None) -> int:
    values = sorted({int(d) for d in depths})
    if not values:
        raise HarnessError("no results to chart")
    if depth is None:
        return values[-1]
    if depth not in values:
        raise HarnessError(f"depth {depth} is not in the results (they hold {values})")
    return depth


SIGNIFICANT_LABEL = "filled: significant at 5% (interval excludes 1 and sign test p < 0.05)"
"""Legend text of the relative-nodes chart's filled markers."""

NOT_SIGNIFICANT_LABEL = ("hollow: not significant, including intervals that exclude 1 "
                         "when the sign test disagrees (p >= 0.05)")
"""Legend text of its hollow markers: an interval clear of 1 can still be drawn hollow."""


OFF_SCALE = 4.0
"""Ratios beyond this factor either way do not stretch the relative-nodes chart's axis (one
variant at 90 times the nodes would squeeze every other one onto the line at 1); they are
drawn as an arrow at the edge with their value."""


def relative_nodes_chart(comparison: Comparison, depth: int | None = None) -> Figure:
    """Geometric-mean nodes of each variant relative to the baseline, one panel per problem
    set at ``depth`` (default: each set's deepest), with the bootstrap interval; filled
    markers are significant at 5%. Panels share both axes, so a variant's row can be read
    across sets; rows are ordered by the first set's ratio, fewest nodes at the top.
    Ratios beyond :data:`OFF_SCALE` are arrows at the edge, labelled with their value."""
    table = comparison.table
    deepest_depth(table["depth"], depth)  # refuses an empty table and a depth never compared
    suites = [str(s) for s in pd.unique(table["suite"])]
    names = set_names(suites)
    panels: list[tuple[str, int, pd.DataFrame]] = []
    for suite in suites:
        part = table[table["suite"] == suite]
        shown = int(part["depth"].max()) if depth is None else depth
        panels.append((suite, shown, part[(part["depth"] == shown) & (part["n"] > 0)]))
    first = panels[0][2].sort_values("ratio", kind="stable")["variant"].tolist()
    order = list(dict.fromkeys([*first, *(str(v) for v in pd.unique(table["variant"]))]))
    y_of = {variant: k for k, variant in enumerate(order)}
    limits = _ratio_limits(pd.concat([part for _, _, part in panels]))
    cols = min(len(panels), 3)
    rows = math.ceil(len(panels) / cols)
    with chart_style():
        fig = figure(1.8 + 4.3 * cols, 1.9 + rows * (0.7 + 0.3 * max(len(order), 3)))
        axes = fig.subplots(rows, cols, squeeze=False, sharex=True, sharey=True)
        for k, (suite, shown, part) in enumerate(panels):
            ax = axes[k // cols][k % cols]
            y = np.array([y_of[str(v)] for v in part["variant"]], dtype=float)
            _draw_ratios(ax, part, y, limits)
            n = int(part["n"].max()) if len(part) else 0
            depth_text = (f"each problem to its own depth (at most {shown})"
                          if suite in comparison.own_depth else f"depth {shown}")
            ax.set_title(wrap(f"{names.label(suite)}: {depth_text}, {n} problems", 45))
            ax.set_xlabel(f"nodes / {comparison.baseline} (log scale)")
            ax.grid(axis="y", visible=False)
        for k in range(len(panels), rows * cols):
            axes[k // cols][k % cols].set_axis_off()
        ax = axes[0][0]
        ax.set_yticks(range(len(order)), order)
        ax.set_ylim(len(order) - 0.5, -0.5)  # the first set's fewest nodes at the top
        ax.set_xscale("log")
        ax.set_xlim(*limits)
        log_ticks(ax, "x")
        grouping = ("; every problem set pooled" if comparison.pooled
                    else "; each problem set on its own" if len(panels) > 1 else "")
        width = int(11 * (1.8 + 4.3 * cols))  # characters of title font across the figure
        title = wrap(f"Nodes relative to {comparison.baseline} (B/A, geometric mean over "
                      f"problems, {comparison.level:.0%} bootstrap interval){grouping}", width)
        if names.common:
            title += "\n" + wrap(f"every problem set: {names.common}", width)
        fig.suptitle(title, fontsize=STYLE["axes.titlesize"])
        # proxies: a panel without significant (or hollow) points still explains both
        keys = [Line2D([], [], marker="o", linestyle="none", color=_INK),
                Line2D([], [], marker="o", linestyle="none", markerfacecolor="white",
                       markeredgecolor=_INK),
                Line2D([], [], color="#b22222", linewidth=1, linestyle="--")]
        fig.legend(keys, [SIGNIFICANT_LABEL, NOT_SIGNIFICANT_LABEL,
                          f"{comparison.baseline} (= 1)"],
                   loc="outside lower center", ncols=1, frameon=False)
    return fig


_INK = "#1f4e79"
"""Colour of the relative-nodes chart's points."""


def _ratio_limits(rows: pd.DataFrame) -> tuple[float, float]:
    """The x range of the relative-nodes chart: 1 and every interval of a ratio within
    :data:`OFF_SCALE` (of every ratio when none is), with room for the value labels."""
    ratio = rows["ratio"].to_numpy(dtype=float)
    inside = (ratio >= 1 / OFF_SCALE) & (ratio <= OFF_SCALE)
    if not inside.any():
        # Nothing to squeeze (an engine against one variant, 10 times fewer nodes): the
        # axis takes every ratio rather than draw none.
        inside = np.isfinite(ratio) & (ratio > 0)
    bounds = [1.0, *rows["ratio_low"].to_numpy(dtype=float)[inside],
              *rows["ratio_high"].to_numpy(dtype=float)[inside]]
    finite = [b for b in bounds if math.isfinite(b) and b > 0]
    return min(finite) / 1.1, max(finite) * 1.3


def _draw_ratios(ax: Axes, part: pd.DataFrame, y: np.ndarray,
                 limits: tuple[float, float]) -> None:
    """One panel's points, intervals and value labels; ratios off the scale as arrows."""
    ratio = part["ratio"].to_numpy(dtype=float)
    low = part["ratio_low"].to_numpy(dtype=float)
    high = part["ratio_high"].to_numpy(dtype=float)
    significant = part["significant"].to_numpy(dtype=bool)
    inside = (ratio >= limits[0]) & (ratio <= limits[1])
    ax.axvline(1.0, color="#b22222", linewidth=1, linestyle="--")
    ax.errorbar(ratio[inside], y[inside], xerr=[(ratio - low)[inside], (high - ratio)[inside]],
                fmt="none", ecolor="#444444", elinewidth=1.2, capsize=3)
    for shape, xs, where in (("o", ratio, inside), (">", np.full_like(ratio, limits[1]),
                                                     ratio > limits[1]),
                             ("<", np.full_like(ratio, limits[0]), ratio < limits[0])):
        filled, hollow = where & significant, where & ~significant
        ax.scatter(xs[filled], y[filled], marker=shape, color=_INK, zorder=3, clip_on=False)
        ax.scatter(xs[hollow], y[hollow], marker=shape, facecolor="white", edgecolor=_INK,
                   zorder=3, clip_on=False)
    for yi, r, hi, ok in zip(y, ratio, high, inside, strict=True):
        if ok:
            ax.annotate(f"{r:.3f}", (min(hi, limits[1]), yi), xytext=(4, 0),
                        textcoords="offset points", va="center", fontsize=8)
        else:
            edge = limits[1] if r > limits[1] else limits[0]
            ax.annotate(f"{r:.3g} (off scale)", (edge, yi), xytext=(-8 if r > 1 else 8, 0),
                        textcoords="offset points", va="center", fontsize=8,
                        ha="right" if r > 1 else "left")


TICK_LABEL_ROOM = {"x": 0.45, "y": 0.3}
"""Inches of axis a compact tick label (five 9-point characters at most) needs, gap included."""


def compact_number(value: float) -> str:
    """A tick label that stays short at any scale: ``50``, ``0.25``, ``5k``, ``12.5k``,
    ``1M``, ``2G`` (thousands, millions, billions); full digits ran into each other."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


def log_ticks(ax: Axes, axis: str) -> None:
    """Compact numbers (:func:`compact_number`) on a log axis (call after setting its
    limits and the figure's size): evenly spaced round numbers over a narrow range, else
    the densest of 1-2-5, 1-3 and 1 per decade (then every other decade or fewer) whose
    labels fit the axis's length; no minor ticks."""
    target = ax.xaxis if axis == "x" else ax.yaxis
    low, high = ax.get_xlim() if axis == "x" else ax.get_ylim()
    inches = (ax.bbox.width if axis == "x" else ax.bbox.height) / ax.figure.dpi
    room = max(2, int(inches / TICK_LABEL_ROOM[axis]))
    if high / low < 10:
        target.set_major_locator(MaxNLocator(nbins=min(5, room), steps=[1, 2, 2.5, 5, 10]))
    else:
        def fits(subs: tuple[float, ...]) -> bool:
            ticks = np.asarray(LogLocator(base=10, subs=subs).tick_values(low, high))
            return int(((ticks >= low) & (ticks <= high)).sum()) <= room
        subs = next((s for s in ((1.0, 2.0, 5.0), (1.0, 3.0)) if fits(s)), (1.0,))
        target.set_major_locator(LogLocator(base=10, subs=subs, numticks=room + 2))
    target.set_major_formatter(FuncFormatter(lambda v, _pos: compact_number(v)))
    target.set_minor_locator(NullLocator())


def suites_of(results: pd.DataFrame, suite: str | None) -> list[str]:
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


DODGE = 0.09
"""Horizontal shift, in depths, of a series drawn over an equal one (per copy)."""


def nodes_by_depth_chart(results: pd.DataFrame, suite: str | None = None,
                         counter: str = "nodes") -> Figure:
    """Per suite: mean ``counter`` per problem against depth per variant (log scale), with
    the minimal tree's leaves when known, and the effective branching factor
    ``nodes(d) / nodes(d-1)`` beside it.

    A series equal to an earlier variant's (``alphabeta-fs`` searches exactly as
    ``alphabeta`` does on these trees) would hide under it: it is drawn shifted right by
    :data:`DODGE` with open markers, and a line under the panels says which are equal."""
    variants = variants_in(results)
    if counter not in results.columns:
        raise HarnessError(f"results have no column {counter!r}")
    suites = suites_of(results, suite)
    names = set_names(suites)
    minimal = has_minimal(results)
    with chart_style():
        fig = figure(11.0, 0.5 + 4.2 * len(suites))
        rows = fig.subfigures(len(suites), 1, squeeze=False)
        handles: dict[str, Line2D] = {}
        for row, name in enumerate(suites):
            sub = rows[row][0]
            if len(suites) > 1 or len(name) > 20:
                sub.suptitle(wrap(f"problem set {names.label(name)}", 110),
                             fontsize=STYLE["axes.titlesize"])
            left, right = sub.subplots(1, 2)
            part = results[results["suite"] == name]
            means = part.groupby(["variant", "depth"], sort=True)[counter].mean()
            series: dict[str, tuple[np.ndarray, np.ndarray]] = {}
            branching: dict[str, tuple[np.ndarray, np.ndarray]] = {}
            for variant in variants:
                if variant in means.index.get_level_values(0):
                    found = means.loc[variant]
                    series[variant] = (found.index.to_numpy(dtype=int),
                                       found.to_numpy(dtype=float))
                    ebf_d, ebf = _branching(*series[variant])
                    branching[variant] = (np.array(ebf_d, dtype=int), np.array(ebf))
            same = _equal_series(series)
            same_ebf = _equal_series(branching)
            for i, variant in enumerate(variants):
                if variant not in series:
                    continue
                _plot_series(left, series[variant], same.get(variant), variant, i)
                # the legend shows the plain style: open markers only mean "drawn over"
                plain: dict[str, Any] = dict(variant_style(i))
                handles.setdefault(variant, Line2D([], [], **plain))
                _plot_series(right, branching[variant], same_ebf.get(variant), variant, i)
            note = _equal_note(same, same_ebf)
            if note:
                sub.supxlabel(wrap(note, 150), fontsize=8, color="#333333")
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
        if names.common:
            fig.suptitle(wrap(f"every problem set: {names.common}", 110),
                         fontsize=STYLE["axes.titlesize"])
        fig.legend(list(handles.values()), list(handles.keys()), loc="outside right upper",
                   title="variant")
    return fig


def _equal_series(series: dict[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, tuple[str, int]]:
    """Each variant whose series (depths and values) equals an earlier variant's: that
    earlier variant and which copy of it this one is (1, 2, ...)."""
    found: dict[str, tuple[str, int]] = {}
    copies: dict[str, int] = {}
    for name, (x, y) in series.items():
        for first in copies:
            fx, fy = series[first]
            if len(y) and np.array_equal(fx, x) and np.array_equal(fy, y):
                copies[first] += 1
                found[name] = (first, copies[first])
                break
        else:
            copies[name] = 0
    return found


def _plot_series(ax: Axes, series: tuple[np.ndarray, np.ndarray], same: tuple[str, int] | None,
                 variant: str, index: int) -> None:
    """One variant's line in its style; a copy of an earlier series shifted right, open."""
    x, y = series
    style: dict[str, Any] = dict(variant_style(index))
    if same is not None:
        x = x + DODGE * same[1]
        style.update(markerfacecolor="none", markeredgewidth=1.3)
    ax.plot(x, y, label=variant, **style)


def _equal_note(same: dict[str, tuple[str, int]], same_ebf: dict[str, tuple[str, int]]) -> str:
    """The sentence under a suite's panels naming the variants drawn over equal ones."""
    def groups(found: dict[str, tuple[str, int]]) -> list[str]:
        members: dict[str, list[str]] = {}
        for name, (first, _) in found.items():
            members.setdefault(first, [first]).append(name)
        return [" = ".join(m) for m in members.values()]

    both = groups(same)
    only_ebf = [g for g in groups(same_ebf) if g not in both]
    parts = []
    if both:
        parts.append(f"equal values (open markers, shifted right to stay visible): "
                     f"{'; '.join(both)}")
    if only_ebf:
        parts.append(f"equal branching factors only: {'; '.join(only_ebf)}")
    return ". ".join(parts)


def _branching(depths: np.ndarray, values: np.ndarray) -> tuple[list[int], list[float]]:
    by_depth = dict(zip(depths.tolist(), values.tolist(), strict=True))
    xs, ys = [], []
    for d in depths.tolist():
        before = by_depth.get(d - 1)
        if before:
            xs.append(d)
            ys.append(by_depth[d] / before)
    return xs, ys


def files_of(path_without_suffix: str | Path) -> tuple[Path, Path]:
    """The files :func:`save` writes a chart to: ``<path>.png`` and ``<path>.svg``."""
    base = Path(path_without_suffix)
    return base.with_name(base.name + ".png"), base.with_name(base.name + ".svg")


def save(fig: Figure, path_without_suffix: str | Path) -> tuple[Path, Path]:
    """Write ``fig`` as ``<path>.png`` and ``<path>.svg``; the same figure gives the same
    bytes every time (no timestamps or versions in the metadata, fixed SVG ids)."""
    png, svg = files_of(path_without_suffix)
    write_whole(png, png_bytes(fig))
    # Drawing the PNG laid the figure out; the SVG keeps that layout (the same to a fraction
    # of a percent) instead of computing it again at 72 dpi, about half its drawing time.
    fig.set_layout_engine("none")
    with chart_style(), writing(svg, binary=True) as file:
        fig.savefig(file, format="svg", metadata=SVG_METADATA)
    return png, svg


def png_bytes(fig: Figure) -> bytes:
    """The PNG :func:`save` writes, in memory."""
    buffer = io.BytesIO()
    with chart_style():
        fig.savefig(buffer, format="png", metadata=PNG_METADATA)
    return buffer.getvalue()
