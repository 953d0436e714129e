"""Claim 4. The PVS article: about 90% of fail-highs on the first move, and PVS saves about
10% over alpha-beta with good move ordering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from harness.report import charts, stats
from harness.reproduce import rules
from harness.reproduce.analysis import (
    ClaimInfo,
    Context,
    Section,
    fmt,
    interval,
    no_chess,
    pair_ratio,
    rate_summary,
    wtl,
)
from harness.reproduce.measure import BEST, chess_configs, ladder
from harness.reproduce.verdicts import Check, interval_check, pct, ratio_text

RULES = rules.load("pvs-article")
"""The registered rules (``rules/pvs-article.json``): "about 90%" is a first-move
fail-high rate in [0.85, 0.95] and "saves about 10%" a node ratio in [0.85, 0.95], each
with its interval."""


def judge_pvs_article(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 4: with the best ordering, ~90% first-move fail-highs and ~10% saved by PVS,
    each the interval of its estimate against its band. Both are claim checks."""
    best = numbers["best_config"]
    found = numbers["configs"][best]
    rate = found["fh_first_pvs_interval"]
    ratio = found["ratio"]
    first, saves = RULES.check("first-move"), RULES.check("saves")
    return [
        interval_check(f"with good ordering ({best}) about 90% of PVS's fail-highs come from "
                       f"the first move (rate in {first.band})", rate["low"], rate["high"],
                       first.band, f"{pct(rate['rate'])} (interval {pct(rate['low'])} to "
                       f"{pct(rate['high'])}, n = {rate['n']:.0f} positions)", first.kind),
        interval_check(f"with good ordering ({best}) PVS saves about 10% over alpha-beta (total "
                       f"nodes ratio in {saves.band})", ratio["low"], ratio["high"], saves.band,
                       ratio_text(ratio), saves.kind),
    ]


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.chess
    if frame is None:
        return no_chess(ctx, info)
    configs: dict[str, dict[str, Any]] = {}
    rows = []
    boot = RULES.bootstrap
    for config in chess_configs(ctx.scale.tt_size):
        part = frame[frame["config"] == config.name]
        rates = {}
        for variant in ("alphabeta", "pvs"):
            v = part[part["variant"] == variant]
            rates[variant] = stats.rate(v["fail_highs_first"], v["fail_highs"])
        pvs_rows = part[part["variant"] == "pvs"]
        rate = rate_summary(pvs_rows["fail_highs_first"].to_numpy(dtype=float),
                            pvs_rows["fail_highs"].to_numpy(dtype=float), boot)
        ratio = pair_ratio(part, "alphabeta", "pvs", boot)
        research = stats.rate(part.loc[part["variant"] == "pvs", "researches"],
                              part.loc[part["variant"] == "pvs", "zw_searches"])
        configs[config.name] = {"description": config.description, "fh_first_alphabeta":
                                rates["alphabeta"], "fh_first_pvs": rates["pvs"],
                                "fh_first_pvs_interval": rate, "ratio": ratio,
                                "research_rate_pvs": research}
        rows.append([config.name, config.description, pct(rates["alphabeta"]),
                     f"{pct(rates['pvs'])} ({pct(rate['low'])} to {pct(rate['high'])})",
                     fmt(ratio["ratio"], 4), interval(ratio), wtl(ratio), pct(research)])
    numbers = {"configs": configs, "best_config": BEST}
    checks = judge_pvs_article(numbers)
    best = configs[BEST]
    measured = (f"With every ordering enhancement ({BEST}) {pct(best['fh_first_pvs'])} of PVS's "
                f"fail-highs (alpha-beta: {pct(best['fh_first_alphabeta'])}) came from the first "
                f"move, and PVS / alpha-beta total nodes was {ratio_text(best['ratio'])}. "
                "Per ordering step: " + "; ".join(
                    f"{k} {pct(v['fh_first_pvs'])}, ratio {v['ratio']['ratio']:.3f}"
                    for k, v in configs.items()) + ".")
    setup = (f"Chess: {ctx.chess_text()}; alphabeta and pvs with each step of the ordering "
             "ladder: " + "; ".join(f"{c.name}: {c.description}" for c in
                                    chess_configs(ctx.scale.tt_size))
             + ". First-move fail-high rate: fail_highs_first / fail_highs over all positions; "
             "saving: geometric mean of per-position total-node ratios PVS / alpha-beta. "
             "Intervals: a bootstrap over positions (the rate's totals and the ratio's pairs "
             "drawn with their position).")
    return Section(info, setup, measured, numbers, checks,
                   [("First-move fail-highs and PVS against alpha-beta per ordering step",
                     ["ordering", "switches", "fail-highs first (alphabeta)",
                      f"fail-highs first (pvs, {boot.level:.0%} interval)",
                      "PVS / alpha-beta nodes", f"{boot.level:.0%} interval", "PVS fewer / equal / more",
                      "PVS re-search rate"], rows)],
                   [("pvs_article", "First-move fail-highs and PVS's saving per ordering step",
                     chart(configs))])


def chart(configs: Mapping[str, Mapping[str, Any]]) -> Figure:
    """Per ordering step: first-move fail-high rates, and PVS's ratio to alpha-beta."""
    names = list(configs)
    y = np.arange(len(names))
    with charts.chart_style():
        fig = charts.figure(11.0, 3.6)
        left, right = fig.subplots(1, 2, sharey=True)
        for k, variant in enumerate(("alphabeta", "pvs")):
            values = [100 * configs[n][f"fh_first_{variant}"] for n in names]
            left.barh(y + (k - 0.5) * 0.38, values, height=0.36, label=variant,
                      color=charts.variant_style(k)["color"])
        first = RULES.check("first-move").band
        left.axvspan(100 * first.low, 100 * first.high, color="#2ca02c", alpha=0.15,
                     label="claimed: about 90%")
        left.set_xlim(0, 135)
        left.set_xticks([0, 20, 40, 60, 80, 100])
        left.set_xlabel("fail-highs caused by the first move (%)")
        left.set_title("First-move fail-high rate")
        left.legend(fontsize=7, loc="center right")
        ratio = np.array([configs[n]["ratio"]["ratio"] for n in names])
        low = np.array([configs[n]["ratio"]["low"] for n in names])
        high = np.array([configs[n]["ratio"]["high"] for n in names])
        right.errorbar(ratio, y, xerr=[ratio - low, high - ratio], fmt="o", color="#1f4e79",
                       capsize=3)
        saves = RULES.check("saves").band
        right.axvspan(saves.low, saves.high, color="#2ca02c", alpha=0.15,
                      label="claimed: about 10% saved")
        right.axvline(1.0, color="black", linewidth=1)
        right.set_xlabel("total nodes, PVS / alpha-beta (geometric mean)")
        right.set_title(f"PVS against alpha-beta ({RULES.bootstrap.level:.0%} bootstrap intervals)")
        right.legend(fontsize=7)
        left.set_yticks(y, names)
        left.invert_yaxis()
        left.grid(axis="y", visible=False)
        right.grid(axis="y", visible=False)
    return fig


CLAIM = ClaimInfo(
    "pvs-article", "The PVS article: 90% first-move fail-highs, 10% saved",
    "pvs-wiki-article.txt",
    "\"Typically, modern chess programs find fail-highs on the first move around 90% "
    "of the time\"; \"with a good move ordering we expect to save about 10% of a "
    "search effort\" (PVS against alpha-beta).", analyse, chess=ladder("alphabeta", "pvs"),
    rules=RULES)
