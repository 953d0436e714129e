"""Claim 4. The PVS article: about 90% of fail-highs on the first move, and PVS saves about
10% over alpha-beta with good move ordering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from harness.report import charts, stats
from harness.reproduce.analysis import ClaimInfo, Context, Section, fmt, interval, no_chess, pair_ratio, wtl
from harness.reproduce.measure import BEST, chess_configs, ladder
from harness.reproduce.verdicts import LEVEL, Check, below_one, in_band, pct, ratio_text

FH_FIRST_BAND = (0.85, 0.95)
""""About 90%" of fail-highs on the first move is 85% to 95%."""

PVS_SAVING_BAND = (0.85, 0.95)
""""Saves about 10%" is a geometric-mean node ratio PVS / alpha-beta between 0.85 and 0.95
(a saving of 5% to 15%), with its interval below 1."""


def judge_pvs_article(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 4: with the best ordering, ~90% first-move fail-highs and ~10% saved by PVS."""
    best = numbers["best_config"]
    found = numbers["configs"][best]
    rate = float(found["fh_first_pvs"])
    ratio = found["ratio"]
    return [
        Check(f"with good ordering ({best}) about 90% of PVS's fail-highs come from the "
              f"first move ({FH_FIRST_BAND[0]:.0%} to {FH_FIRST_BAND[1]:.0%})",
              in_band(rate, FH_FIRST_BAND), pct(rate)),
        Check(f"with good ordering ({best}) PVS saves about 10% over alpha-beta (total nodes "
              f"ratio {PVS_SAVING_BAND[0]:.2f} to {PVS_SAVING_BAND[1]:.2f}, interval below 1)",
              in_band(float(ratio["ratio"]), PVS_SAVING_BAND)
              and below_one((ratio["low"], ratio["high"])), ratio_text(ratio)),
    ]


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.chess
    if frame is None:
        return no_chess(ctx, info)
    configs: dict[str, dict[str, Any]] = {}
    rows = []
    for config in chess_configs(ctx.scale.tt_size):
        part = frame[frame["config"] == config.name]
        rates = {}
        for variant in ("alphabeta", "pvs"):
            v = part[part["variant"] == variant]
            rates[variant] = stats.rate(v["fail_highs_first"], v["fail_highs"])
        ratio = pair_ratio(part, "alphabeta", "pvs")
        research = stats.rate(part.loc[part["variant"] == "pvs", "researches"],
                              part.loc[part["variant"] == "pvs", "zw_searches"])
        configs[config.name] = {"description": config.description, "fh_first_alphabeta":
                                rates["alphabeta"], "fh_first_pvs": rates["pvs"], "ratio": ratio,
                                "research_rate_pvs": research}
        rows.append([config.name, config.description, pct(rates["alphabeta"]), pct(rates["pvs"]),
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
             "saving: geometric mean of per-position total-node ratios PVS / alpha-beta.")
    return Section(info, setup, measured, numbers, checks,
                   [("First-move fail-highs and PVS against alpha-beta per ordering step",
                     ["ordering", "switches", "fail-highs first (alphabeta)", "fail-highs first (pvs)",
                      "PVS / alpha-beta nodes", f"{LEVEL:.0%} interval", "PVS fewer / equal / more",
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
        left.axvspan(100 * FH_FIRST_BAND[0], 100 * FH_FIRST_BAND[1], color="#2ca02c", alpha=0.15,
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
        right.axvspan(*PVS_SAVING_BAND, color="#2ca02c", alpha=0.15, label="claimed: about 10% saved")
        right.axvline(1.0, color="black", linewidth=1)
        right.set_xlabel("total nodes, PVS / alpha-beta (geometric mean)")
        right.set_title(f"PVS against alpha-beta ({LEVEL:.0%} bootstrap intervals)")
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
    rule=("PVS article", f": \"about 90%\" = {FH_FIRST_BAND[0]:.0%} to {FH_FIRST_BAND[1]:.0%}; "
                         f"\"about 10%\" = ratio in [{PVS_SAVING_BAND[0]:.2f}, {PVS_SAVING_BAND[1]:.2f}] "
                         "with the interval below 1; both with every ordering enhancement on."))
