"""Claims 5 and 6: two variants compared problem by problem, counting the problems where
conditions hold (PVS searched more nodes than alpha-beta, or visited a node alpha-beta did
not; two searches searched the same), per set (synthetic trees of each value model, chess
positions with the ordering steps each set pools), per ordering level and per chess
configuration, with a table and a chart of the shares. A claim of this kind is a
:class:`Pair` (and, where it keeps an observation outside its verdict, a second one) and
two functions: its judge and its sentence."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from harness.report import charts
from harness.reproduce.analysis import (
    ClaimInfo,
    Context,
    Section,
    fmt,
    interval,
    not_measured,
    pair_ratio,
    paired,
    wtl,
)
from harness.reproduce.measure import ORDERING_LEVELS, VALUE_MODELS
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import Check

Shares = dict[str, dict[str, float]]
"""Per value model and ordering level (``model/level``) or chess configuration: the
problems (``problems``) and, under each count's key, the problems where it holds."""


@dataclass(frozen=True)
class Count:
    """A condition counted on paired rows (``effort_a``, ``effort_b``: total nodes; and the
    pair's further columns, ``new_nodes_b`` ...)."""

    key: str
    """Its name in each set's numbers and in the shares."""
    heading: str
    """Its column in the table."""
    label: str
    """Its series in the chart."""
    keep: Callable[[pd.DataFrame], pd.Series]
    """Where it holds."""


@dataclass(frozen=True)
class Pair:
    """What a pairwise comparison compares, counts and calls things."""

    a: str
    """The first variant (A of every ratio B/A)."""
    b: str
    """The second variant."""
    counts: tuple[Count, ...]
    """What is counted, each per set, level and configuration."""
    chess_sets: tuple[tuple[str, tuple[str, ...]], ...]
    """The chess sets: each a name and the configurations (ordering steps) it pools."""
    variants: str
    """The variants as the setup names them."""
    counted: str
    """What is counted and how it is checked, as the setup says it."""
    caption: str
    """The table's caption."""
    ratio_columns: tuple[str, str]
    """The table's headings for the ratio B/A and for B's fewer / equal / more."""
    columns: tuple[str, ...] = ()
    """Further columns of the rows the counts read (``new_nodes`` of a traced run)."""


@dataclass(frozen=True)
class Comparison:
    """A pair compared: its numbers (per set), its table's rows and its shares."""

    numbers: dict[str, Any]
    rows: list[list[str]]
    by_level: Shares
    by_config: Shares | None


def _shares(both: pd.DataFrame, counts: Sequence[Count]) -> Shares:
    out: Shares = {}
    for config, part in both.groupby("config", sort=False):
        out[str(config)] = {"problems": float(len(part)),
                            **{c.key: float(c.keep(part).sum()) for c in counts}}
    return out


def _summary(both: pd.DataFrame, counts: Sequence[Count]) -> dict[str, Any]:
    differ = both["effort_a"] != both["effort_b"]
    no_research = (both["researches_a"] == 0) & (both["researches_b"] == 0)
    return {"problems": len(both), **{c.key: int(c.keep(both).sum()) for c in counts},
            "b_fewer": int((both["effort_b"] < both["effort_a"]).sum()),
            "b_more": int((both["effort_b"] > both["effort_a"]).sum()),
            "research_free_differences": int((differ & no_research).sum())}


def compare(ctx: Context, pair: Pair, boot: Bootstrap) -> Comparison:
    """Per set, the problems where each of ``pair.counts`` holds; also per ordering level and
    per chess configuration (a chess problem is a position searched with one ordering step),
    with the ratio B/A of total nodes and its interval by ``boot``."""
    a, b = pair.a, pair.b
    sweep = ctx.sweep()
    both = paired(sweep, a, b, extra=pair.columns)
    by_level = _shares(both, pair.counts)
    sets: dict[str, dict[str, Any]] = {}
    for model in VALUE_MODELS:
        sets[f"synthetic trees, {model} values"] = _summary(
            both[both["config"].str.startswith(model + "/")], pair.counts)

    def row(label: str, step: str, config: str, found: Mapping[str, float],
            frame: pd.DataFrame) -> list[str]:
        ratio = pair_ratio(frame[frame["config"] == config], a, b, boot)
        return [label, step, *(f"{found[c.key]:.0f} of {found['problems']:.0f}" for c in pair.counts),
                fmt(ratio["ratio"], 4), interval(ratio), wtl(ratio)]

    rows = [row(f"synthetic, {config.split('/')[0]}", config.split("/")[1], config, found, sweep)
            for config, found in by_level.items()]
    by_config: Shares | None = None
    if ctx.chess is not None:
        chess = ctx.chess
        paired_chess = paired(chess, a, b, extra=pair.columns)
        by_config = _shares(paired_chess, pair.counts)
        for name, configs in pair.chess_sets:
            sets[name] = _summary(paired_chess[paired_chess["config"].isin(configs)], pair.counts)
        rows += [row("chess", config, config, found, chess) for config, found in by_config.items()]
    numbers: dict[str, Any] = {"sets": sets, "by_level": by_level, "by_config": by_config,
                               "chess_measured": ctx.chess is not None,
                               "counted": {c.key: c.label for c in pair.counts},
                               "variants": [a, b]}
    return Comparison(numbers, rows, by_level, by_config)


def _headers(pair: Pair, boot: Bootstrap) -> list[str]:
    ratio, fewer = pair.ratio_columns
    return ["set", "ordering", *(c.heading for c in pair.counts), ratio,
            f"{boot.level:.0%} interval", fewer]


def setup_text(ctx: Context, pair: Pair, observe: Pair | None = None) -> str:
    """What was searched and counted: the sweep, the chess ladder and its sets, the pair and
    the observation beside it."""
    variants = pair.variants + ("" if observe is None else
                                f"; beside them, as an observation outside the verdict, "
                                f"{observe.variants}")
    sets = "; ".join(f"{name}: {', '.join(configs)}" for name, configs in pair.chess_sets)
    return (f"{ctx.sweep_text(variants)}. Chess: {ctx.chess_text()}, every step of claim 4's "
            f"ordering ladder, in {len(pair.chess_sets)} sets ({sets}). {pair.counted}")


def analyse(ctx: Context, info: ClaimInfo, pair: Pair,
            judge: Callable[[Mapping[str, Any]], list[Check]],
            describe: Callable[[Mapping[str, Any], Shares], str], boot: Bootstrap,
            chart: tuple[str, str, str, str], observe: Pair | None = None) -> Section:
    """The claim's section: :func:`compare` (its intervals by ``boot``), judged by ``judge``
    and described by ``describe`` (from the numbers and the shares by level); ``observe``,
    a second pair compared the same way, goes to the numbers (``observation``), a table and
    the chart, and never to the checks. ``chart``: the chart's file name, title, axis label
    (a share in %) and panel title."""
    main = compare(ctx, pair, boot)
    numbers = main.numbers
    tables = [(pair.caption, _headers(pair, boot), main.rows)]
    series = [(f"{c.label}{'' if observe is None else f' ({pair.a}, {pair.b})'}", c.key,
               main.by_level, main.by_config) for c in pair.counts]
    if observe is not None:
        other = compare(ctx, observe, boot)
        numbers["observation"] = other.numbers
        tables.append((observe.caption, _headers(observe, boot), other.rows))
        series += [(f"{c.label} ({observe.a}, {observe.b}; observation)", c.key, other.by_level,
                    other.by_config) for c in observe.counts]
    checks = judge(numbers)
    measured = describe(numbers, main.by_level)
    if not numbers["chess_measured"]:
        measured += " Chess part not measured: WAC not found."
    name, title, ylabel, panel = chart
    fig = share_chart(series, ctx.scale.sweep_branching, ylabel, panel)
    return Section(info, setup_text(ctx, pair, observe), measured, numbers, checks, tables,
                   [(name, title, fig)])


Series = tuple[str, str, Shares, Shares | None]
"""One series of a share chart: its label, the count's key, its shares by level and by
chess configuration."""


def share_chart(series: Sequence[Series], branching: int, ylabel: str, title: str) -> Figure:
    """The share of problems where each count holds: against the ordering probability on
    synthetic trees (random ordering at 1/b), and per ordering step on chess."""
    with charts.chart_style():
        fig = charts.figure(11.0, 4.2 + 0.3 * max(0, len(series) - 1))
        left, right = fig.subplots(1, 2, width_ratios=[3, 2])
        levels = [lv for lv in ORDERING_LEVELS if lv != "random"]
        for k, (label, key, by_level, _) in enumerate(series):
            for i, model in enumerate(VALUE_MODELS):
                found = [by_level[f"{model}/{lv}"] for lv in levels]
                style = charts.variant_style(k * len(VALUE_MODELS) + i)
                left.plot([float(lv) for lv in levels], [100 * f[key] / f["problems"] for f in found],
                          label=f"{label}, {model} values", **style)
                r = by_level[f"{model}/random"]
                left.scatter([1.0 / branching], [100 * r[key] / r["problems"]], s=90,
                             facecolors="none", edgecolors=style["color"], linewidths=1.5, zorder=4)
        left.set_xlabel("probability that the best child comes first (circles: random, at 1/b)")
        left.set_ylabel(ylabel)
        left.set_ylim(-3, 103)
        left.set_title(f"Synthetic trees: {title}")
        left.legend(fontsize=6)
        chess = [(label, key, by_config) for label, key, _, by_config in series if by_config is not None]
        if not chess:
            not_measured(right, "chess: not measured (WAC not found)")
            return fig
        names = list(chess[0][2])
        height = 0.8 / len(chess)
        for k, (label, key, by_config) in enumerate(chess):
            y = np.arange(len(names)) + (k - (len(chess) - 1) / 2) * height
            share = [100 * by_config[n][key] / by_config[n]["problems"] if n in by_config else 0.0
                     for n in names]
            right.barh(y, share, height=height * 0.9, label=label,
                       color=charts.variant_style(k * len(VALUE_MODELS))["color"])
            for yi, v in zip(y, share, strict=True):
                right.annotate(f"{v:.0f}%", (v, yi), xytext=(3, 0), textcoords="offset points",
                               va="center", fontsize=7)
        right.set_yticks(np.arange(len(names)), names)
        right.invert_yaxis()
        right.set_xlim(0, 115)
        right.set_xlabel(ylabel)
        right.set_title(f"Chess: {title}")
        right.grid(axis="y", visible=False)
        if len(chess) > 1:
            right.legend(fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    return fig
