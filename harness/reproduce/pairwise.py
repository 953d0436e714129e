"""Claims 5 and 6: two variants compared problem by problem, counting the problems where a
condition holds (PVS searched more than alpha-beta; PVS and NegaScout searched the same),
per set (synthetic trees of each value model, chess), per ordering level and per chess
configuration, with a table and a chart of the share. A claim of this kind is a
:class:`Pair` and two functions (its judge and its sentence)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
problems and the count of those where the condition holds."""


@dataclass(frozen=True)
class Pair:
    """What a pairwise claim compares, counts and calls things."""

    a: str
    """The first variant (A of every ratio B/A)."""
    b: str
    """The second variant."""
    keep: Callable[[pd.DataFrame], pd.Series]
    """The condition, on paired rows (``effort_a``, ``effort_b``: total nodes)."""
    key: str
    """The count's name in each set's numbers."""
    noun: str
    """What is counted, for ``claims.json``."""
    variants: str
    """The variants as the setup names them."""
    counted: str
    """What is counted, as the setup says it."""
    caption: str
    """The table's caption."""
    columns: tuple[str, str, str]
    """The table's headings for the count, the ratio B/A and B's fewer / equal / more."""
    chart: tuple[str, str, str, str]
    """The chart's file name, title, axis label (a share in %) and synthetic panel's title."""


def _shares(both: pd.DataFrame, keep: Callable[[pd.DataFrame], pd.Series]) -> Shares:
    out: Shares = {}
    for config, part in both.groupby("config", sort=False):
        out[str(config)] = {"problems": float(len(part)), "count": float(keep(part).sum())}
    return out


def compare(ctx: Context, pair: Pair,
            boot: Bootstrap) -> tuple[dict[str, Any], list[list[str]], Shares, Shares | None]:
    """Per set, the problems where ``pair.keep`` holds; also per ordering level and per chess
    configuration (a chess problem is a position searched with one ordering step): the
    numbers, the table's rows, and the shares by level and by configuration."""
    a, b, keep = pair.a, pair.b, pair.keep

    def summary(both: pd.DataFrame) -> dict[str, Any]:
        differ = both["effort_a"] != both["effort_b"]
        no_research = (both["researches_a"] == 0) & (both["researches_b"] == 0)
        return {"problems": len(both), pair.key: int(keep(both).sum()),
                "b_fewer": int((both["effort_b"] < both["effort_a"]).sum()),
                "b_more": int((both["effort_b"] > both["effort_a"]).sum()),
                "research_free_differences": int((differ & no_research).sum())}

    sweep = ctx.sweep()
    both = paired(sweep, a, b, keys=("suite", "problem_id", "config"))
    by_level = _shares(both, keep)
    sets: dict[str, dict[str, Any]] = {}
    for model in VALUE_MODELS:
        sets[f"synthetic trees, {model} values"] = summary(both[both["config"].str.startswith(model + "/")])
    rows = []
    for config, found in by_level.items():
        model, level = config.split("/")
        ratio = pair_ratio(sweep[sweep["config"] == config], a, b, boot)
        rows.append([f"synthetic, {model}", level, f"{found['count']:.0f} of {found['problems']:.0f}",
                     fmt(ratio["ratio"], 4), interval(ratio), wtl(ratio)])
    by_config: Shares | None = None
    if ctx.chess is not None:
        chess = ctx.chess
        paired_chess = paired(chess, a, b)
        by_config = _shares(paired_chess, keep)
        sets["chess (positions x ordering steps)"] = summary(paired_chess)
        for config, found in by_config.items():
            ratio = pair_ratio(chess[chess["config"] == config], a, b, boot)
            rows.append(["chess", config, f"{found['count']:.0f} of {found['problems']:.0f}",
                         fmt(ratio["ratio"], 4), interval(ratio), wtl(ratio)])
    numbers: dict[str, Any] = {"sets": sets, "by_level": by_level, "by_config": by_config,
                               "chess_measured": ctx.chess is not None, "counted": pair.noun}
    return numbers, rows, by_level, by_config


def analyse(ctx: Context, info: ClaimInfo, pair: Pair,
            judge: Callable[[Mapping[str, Any]], list[Check]],
            describe: Callable[[Mapping[str, Any], Shares], str], boot: Bootstrap) -> Section:
    """The claim's section: :func:`compare` (its intervals by ``boot``), judged by ``judge``
    and described by ``describe`` (from the numbers and the shares by level)."""
    numbers, rows, by_level, by_config = compare(ctx, pair, boot)
    checks = judge(numbers)
    measured = describe(numbers, by_level)
    if not numbers["chess_measured"]:
        measured += " Chess part not measured: WAC not found."
    setup = (f"{ctx.sweep_text(pair.variants)}. Chess: {ctx.chess_text()}, every step of claim "
             f"4's ordering ladder. Counted per set: {pair.counted}; each set is one exact "
             "check, its count of counter-examples against the band.")
    name, title, ylabel, panel = pair.chart
    fig = share_chart(by_level, by_config, ctx.scale.sweep_branching, ylabel, panel)
    count, ratio, fewer = pair.columns
    headers = ["set", "ordering", count, ratio, f"{boot.level:.0%} interval", fewer]
    return Section(info, setup, measured, numbers, checks, [(pair.caption, headers, rows)],
                   [(name, title, fig)])


def share_chart(by_level: Mapping[str, Mapping[str, float]],
                by_config: Mapping[str, Mapping[str, float]] | None, branching: int,
                ylabel: str, title: str) -> Figure:
    """The share of problems where the condition holds: against the ordering probability on
    synthetic trees (random ordering at 1/b), and per ordering step on chess."""
    with charts.chart_style():
        fig = charts.figure(11.0, 4.2)
        left, right = fig.subplots(1, 2, width_ratios=[3, 2])
        for i, model in enumerate(VALUE_MODELS):
            levels = [lv for lv in ORDERING_LEVELS if lv != "random"]
            share = [100 * by_level[f"{model}/{lv}"]["count"] / by_level[f"{model}/{lv}"]["problems"]
                     for lv in levels]
            style = charts.variant_style(i)
            left.plot([float(lv) for lv in levels], share, label=f"{model} values", **style)
            r = by_level[f"{model}/random"]
            left.scatter([1.0 / branching], [100 * r["count"] / r["problems"]], s=90,
                         facecolors="none", edgecolors=style["color"], linewidths=1.5,
                         label=f"{model}, random ordering (at 1/b)", zorder=4)
        left.set_xlabel("probability that the best child comes first")
        left.set_ylabel(ylabel)
        left.set_ylim(-3, 103)
        left.set_title(f"Synthetic trees: {title}")
        left.legend(fontsize=7)
        if by_config is None:
            not_measured(right, "chess: not measured (WAC not found)")
        else:
            names = list(by_config)
            share = [100 * by_config[n]["count"] / by_config[n]["problems"] for n in names]
            y = np.arange(len(names))
            right.barh(y, share, color="#1f77b4")
            for yi, v in zip(y, share, strict=True):
                right.annotate(f"{v:.0f}%", (v, yi), xytext=(3, 0), textcoords="offset points",
                               va="center", fontsize=8)
            right.set_yticks(y, names)
            right.invert_yaxis()
            right.set_xlim(0, 112)
            right.set_xlabel(ylabel)
            right.set_title(f"Chess: {title}")
            right.grid(axis="y", visible=False)
    return fig
