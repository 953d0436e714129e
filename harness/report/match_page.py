"""A match's page: the LLR after each pair between the SPRT's bounds, the Elo estimate
with its 95% interval as the pairs come in, and the result in words, as one
self-contained ``report.html`` (charts embedded) beside ``llr.png/svg`` and
``elo.png/svg``.

Made from plain values (a report knows no match: :mod:`harness.match` computes the
trace and hands it here)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from harness.files import write_whole
from harness.report.charts import chart_style, figure, png_bytes, save, variant_style
from harness.report.render import png_source, render
from harness.report.view import Figure as PageFigure

REPORT_FILE = "report.html"


@dataclass(frozen=True)
class TracePoint:
    """The state of a match after one more pair."""

    pairs: int
    """Pairs played."""
    llr: float
    """The log-likelihood ratio."""
    elo: float | None
    """Side A's Elo (``None`` before it is finite)."""
    elo_error: float | None
    """Half the width of its 95% interval; NaN while it is undefined (every pair scored
    alike so far)."""


@dataclass(frozen=True)
class RungPoint:
    """Side A against one rung of a calibration ladder."""

    nodes: int
    """The ladder engine's nodes a move."""
    elo: float | None
    """A's Elo against it (``None``: no pair; infinite: every game won or lost)."""
    elo_error: float
    """Half the width of its 95% interval; NaN where undefined."""


@dataclass(frozen=True)
class MatchPage:
    """What the page shows."""

    title: str
    """What the page shows: ``harness match: A pvs against B alphabeta on chess:bench.epd,
    nodes 20000 per move``."""
    facts: Sequence[tuple[str, str]]
    """Rows of the summary table: what, value."""
    lines: Sequence[str]
    """The command's closing lines (the result in words)."""
    trace: Sequence[TracePoint]
    """The match pair by pair."""
    bounds: tuple[float, float]
    """The SPRT's LLR bounds."""
    ladder: Sequence[RungPoint] = ()
    """The calibration ladder's rungs (empty: no ladder)."""
    ladder_engine: str = ""
    """The ladder engine's name."""
    placed: float | None = None
    """The engine's nodes a move at which A scores even (``None``: not placed)."""


def llr_chart(trace: Sequence[TracePoint], bounds: tuple[float, float]) -> Figure:
    """The LLR after each pair, with the bounds where the test stops."""
    with chart_style():
        fig = figure(6.4, 3.4)
        ax = fig.add_subplot()
        style = variant_style(0)
        ax.plot([p.pairs for p in trace], [p.llr for p in trace], color=style["color"],
                marker=style["marker"] if len(trace) <= 40 else None, label="LLR")
        for bound, name in zip(bounds, ("H0 accepted below", "H1 accepted above"), strict=True):
            ax.axhline(bound, color="#555555", linestyle="--", linewidth=1)
            ax.text(0.01, bound, f" {name} ({bound:.2f})", transform=ax.get_yaxis_transform(),
                    va="bottom" if bound > 0 else "top", fontsize=8)
        ax.set_xlabel("pairs")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))   # no half pairs
        ax.set_ylabel("log-likelihood ratio")
        ax.set_title("GSPRT on normalized Elo")
        return fig


def elo_chart(trace: Sequence[TracePoint]) -> Figure:
    """Side A's Elo after each pair, with its 95% interval."""
    with chart_style():
        fig = figure(6.4, 3.4)
        ax = fig.add_subplot()
        finite = [(p.pairs, p.elo, p.elo_error) for p in trace
                  if p.elo is not None and p.elo_error is not None and math.isfinite(p.elo)]
        banded = [(x, e, w) for x, e, w in finite if math.isfinite(w)]
        style = variant_style(0)
        if banded:
            ax.fill_between([x for x, _, _ in banded], [e - w for _, e, w in banded],
                            [e + w for _, e, w in banded], color=style["color"], alpha=0.2,
                            label="95% interval")
        ax.plot([x for x, _, _ in finite], [e for _, e, _ in finite], color=style["color"],
                marker=style["marker"] if len(finite) <= 40 else None, label="Elo of A")
        undefined = [x for x, _, w in finite if math.isnan(w)]
        if undefined:   # a band of zero width there would claim a certainty the pairs lack
            where = ("at every pair" if len(undefined) == len(trace)
                     else f"up to pair {max(undefined)}")
            ax.text(0.01, 0.02, f"interval undefined {where}: every pair scored alike",
                    transform=ax.transAxes, fontsize=8, color="#555555")
        ax.axhline(0, color="#555555", linewidth=1)
        ax.set_xlabel("pairs")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("Elo (A against B)")
        ax.set_title("Elo estimate as the pairs come in")
        ax.legend(loc="best")
        return fig


def ladder_chart(page: MatchPage) -> Figure:
    """A's Elo against each rung of the ladder, its 95% interval as a bar, on a logarithmic
    axis of the engine's nodes a move, and where A scores even."""
    with chart_style():
        fig = figure(6.4, 3.4)
        ax = fig.add_subplot()
        style = variant_style(0)
        shown = [(p.nodes, p.elo, p.elo_error if math.isfinite(p.elo_error) else 0.0)
                 for p in page.ladder if p.elo is not None and math.isfinite(p.elo)]
        ax.errorbar([n for n, _, _ in shown], [e for _, e, _ in shown],
                    yerr=[w for _, _, w in shown],
                    color=style["color"], marker=style["marker"], capsize=4,
                    label=f"Elo of A against {page.ladder_engine}")
        for point in page.ladder:
            if point.elo is not None and not math.isfinite(point.elo):
                ax.annotate("every game won" if point.elo > 0 else "every game lost",
                            (point.nodes, 0), textcoords="offset points", xytext=(0, 8),
                            ha="center", fontsize=8)
        ax.axhline(0, color="#555555", linewidth=1)
        if page.placed is not None:
            ax.axvline(page.placed, color="#555555", linestyle="--", linewidth=1,
                       label=f"A scores even: {page.placed:,.0f} nodes")
        ax.set_xscale("log")
        ax.set_xticks([p.nodes for p in page.ladder], [f"{p.nodes:,}" for p in page.ladder])
        ax.set_xlabel(f"{page.ladder_engine}'s nodes a move (go nodes)")
        ax.set_ylabel("Elo (A against the rung)")
        ax.set_title("The calibration ladder")
        ax.legend(loc="best")
        return fig


def write_match_report(out: Path, page: MatchPage) -> Path:
    """Write the charts and ``report.html`` into ``out``; the page's path."""
    figures = []
    charts = [("llr", "LLR after each pair", llr_chart(page.trace, page.bounds)),
              ("elo", "Elo with its 95% interval", elo_chart(page.trace))]
    if page.ladder:
        charts.append(("ladder", "The calibration ladder: A against each rung",
                       ladder_chart(page)))
    for name, title, fig in charts:
        save(fig, out / name)
        figures.append(PageFigure(name, title, png_source(png_bytes(fig))))
    html = render("match.html.j2", {"title": page.title, "page": page, "figures": figures})
    return write_whole(out / REPORT_FILE, html)
