"""Claim 4. The PVS article: about 90% of fail-highs on the first move, and PVS saves about
10% over alpha-beta with good move ordering."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from harness.report import charts, stats
from harness.reproduce import rules
from harness.reproduce.analysis import (
    ClaimInfo,
    Context,
    Section,
    fmt,
    interval,
    mean_summary,
    no_chess,
    pair_ratio,
    rate_summary,
    wtl,
)
from harness.reproduce.measure import BEST, Job, Run, Scale, chess_configs, chess_positions, ladder
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import Check, interval_check, pct, ratio_text, verdict_of

SPLIT = ("nodes", "qnodes")
"""The two parts of total nodes the saving is split into: search nodes and quiescence nodes."""

RULES = rules.load("pvs-article")
"""The registered rules (``rules/pvs-article.json``): "about 90%" is a first-move
fail-high rate in [0.85, 0.95] and "saves about 10%" a node ratio in [0.85, 0.95], each
with its interval, at every depth of ``parameters.depths`` (3 to 6), with +hash move."""

DEPTHS = tuple(int(d) for d in RULES.parameters["depths"])
"""The depths the claim is judged at, each an iterative-deepening search to it."""

OBJECT = str(RULES.parameters["object"])
"""What the claim is measured on: the harness's engine, not the article's programs."""


def depth_jobs(scale: Scale, suite: Path) -> list[Job]:
    """The scale's chess positions, alphabeta and pvs with every ordering enhancement
    (:data:`BEST`) searched to each depth of :data:`DEPTHS`."""
    best = {c.name: c for c in chess_configs(scale.tt_size)}[BEST]
    runs = tuple(Run(BEST, v, d, best.switches, best.ordering) for d in DEPTHS
                 for v in ("alphabeta", "pvs"))
    return [((("dataset", "pvs-article"),), p, runs)
            for p in chess_positions(suite, scale.chess_first, scale.chess_positions)]


def judge_pvs_article(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 4: with the best ordering, ~90% first-move fail-highs and ~10% saved by PVS,
    at each depth, each the interval of its estimate against its band. All claim checks."""
    return article_checks({depth: (found["fh_first_pvs_interval"], found["ratio"])
                           for depth, found in numbers["depths"].items()}, RULES, BEST,
                          "PVS's fail-highs")


def article_checks(depths: Mapping[str, tuple[Mapping[str, float], Mapping[str, float]]],
                   rules_of: rules.Rules, where: str, fail_highs: str) -> list[Check]:
    """The article's two sentences at each depth, by the rules' ``first-move`` and
    ``saves`` checks: the first-move rate (of ``fail_highs``) and PVS / alpha-beta total
    nodes (claims 4 and 14; ``where``: the configuration or profile)."""
    first, saves = rules_of.check("first-move"), rules_of.check("saves")
    checks = []
    for depth, (rate, ratio) in depths.items():
        checks += [
            interval_check(f"depth {depth}, {where}: about 90% of {fail_highs} come from the "
                           f"first move (rate in {first.band})", rate["low"], rate["high"],
                           first.band, f"{pct(rate['rate'])} (interval {pct(rate['low'])} to "
                           f"{pct(rate['high'])}, n = {rate['n']:.0f} positions)", first.kind),
            interval_check(f"depth {depth}, {where}: PVS saves about 10% over alpha-beta (total "
                           f"nodes ratio in {saves.band})", ratio["low"], ratio["high"], saves.band,
                           ratio_text(ratio), saves.kind),
        ]
    return checks


def _summary(part: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """First-move fail-high rates of both variants, PVS's with its interval, PVS / alpha-beta
    total nodes and PVS's re-search rate, on one configuration's (or depth's) rows."""
    rates = {v: stats.rate(part.loc[part["variant"] == v, "fail_highs_first"],
                           part.loc[part["variant"] == v, "fail_highs"]) for v in ("alphabeta", "pvs")}
    pvs_rows = part[part["variant"] == "pvs"]
    first, highs = (pvs_rows[c].to_numpy(dtype=float) for c in ("fail_highs_first", "fail_highs"))
    return {"fh_first_alphabeta": rates["alphabeta"], "fh_first_pvs": rates["pvs"],
            "fh_first_pvs_interval": rate_summary(first, highs, boot),
            "fh_first_pvs_mean": mean_summary(first[highs > 0] / highs[highs > 0], boot),
            "ratio": pair_ratio(part, "alphabeta", "pvs", boot),
            **{f"ratio_{counter}": pair_ratio(part, "alphabeta", "pvs", boot, counter)
               for counter in SPLIT},
            "quiescence_share": quiescence_share(part),
            "research_rate_pvs": stats.rate(pvs_rows["researches"], pvs_rows["zw_searches"])}


def quiescence_share(part: pd.DataFrame) -> float:
    """The share of the nodes PVS saves over alpha-beta that are quiescence nodes, as totals
    over the positions: (qnodes(AB) - qnodes(PVS)) / (total(AB) - total(PVS)). Above 1 when
    PVS searches more search nodes than alpha-beta; NaN when it saves no node in total."""
    sums = {v: part.loc[part["variant"] == v, ["nodes", "qnodes"]].sum() for v in ("alphabeta", "pvs")}
    saved = float(sums["alphabeta"].sum() - sums["pvs"].sum())
    return float(sums["alphabeta"]["qnodes"] - sums["pvs"]["qnodes"]) / saved if saved > 0 else math.nan


def _row(name: str, found: Mapping[str, Any]) -> list[str]:
    rate, ratio, mean = found["fh_first_pvs_interval"], found["ratio"], found["fh_first_pvs_mean"]
    return [name, pct(found["fh_first_alphabeta"]),
            f"{pct(found['fh_first_pvs'])} ({pct(rate['low'])} to {pct(rate['high'])})",
            f"{pct(mean['mean'])} ({pct(mean['low'])} to {pct(mean['high'])})",
            fmt(ratio["ratio"], 4), interval(ratio), wtl(ratio),
            *(f"{found[f'ratio_{c}']['ratio']:.4f} ({interval(found[f'ratio_{c}'])})" for c in SPLIT),
            pct(found["quiescence_share"]), pct(found["research_rate_pvs"])]


def split_text(depths: Mapping[str, Mapping[str, Any]]) -> str:
    """Where PVS's saving is, depth by depth, in words: the share of the nodes it saves that
    are quiescence nodes, and the ratio on search nodes alone (what the verdict line says)."""
    return ("quiescence nodes are " + ", ".join(pct(x["quiescence_share"]) for x in depths.values())
            + f" of the nodes PVS saves at depths {', '.join(depths)}; on search nodes alone "
            "(no quiescence) PVS / alpha-beta is " + ", ".join(
                f"{x['ratio_nodes']['ratio']:.3f}" for x in depths.values()))


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame, deep = ctx.chess, ctx.frames.get("pvs-article")
    if frame is None or deep is None:
        return no_chess(ctx, info)
    boot = RULES.bootstrap
    configs = {c.name: {"description": c.description,
                        **_summary(frame[frame["config"] == c.name], boot)}
               for c in chess_configs(ctx.scale.tt_size)}
    depths = {str(d): _summary(deep[deep["depth"] == d], boot) for d in DEPTHS}
    numbers = {"configs": configs, "best_config": BEST, "depths": depths, "object": OBJECT}
    checks = judge_pvs_article(numbers)
    measured = (f"On the harness's engine with every ordering enhancement ({BEST}), PVS's "
                "first-move fail-high rate and PVS / alpha-beta total nodes at depths "
                + ", ".join(str(d) for d in DEPTHS) + ": " + "; ".join(
                    f"{d}: {pct(x['fh_first_pvs'])}, {ratio_text(x['ratio'])}"
                    for d, x in depths.items()) + ". The saving is judged on total nodes (the "
                "article's \"a search effort\", quiescence included); where it is: "
                + split_text(depths) + ", on quiescence nodes alone " + ", ".join(
                    f"{x['ratio_qnodes']['ratio']:.3f}" for x in depths.values())
                + ". The first-move rate is a ratio of totals over positions, so deep, branchy "
                "positions weigh most; the mean of the per-position rates is " + ", ".join(
                    pct(x["fh_first_pvs_mean"]["mean"]) for x in depths.values())
                + " (reported, not judged)"
                + f". Per ordering step at depth {ctx.scale.chess_depth} "
                "(reported, not judged): " + "; ".join(
                    f"{k} {pct(v['fh_first_pvs'])}, ratio {v['ratio']['ratio']:.3f}"
                    for k, v in configs.items()) + ".")
    setup = (f"The object: {OBJECT}. Chess: {ctx.chess_text()} for the ordering ladder; the same "
             f"positions searched by alphabeta and pvs with {BEST} to each depth "
             + ", ".join(str(d) for d in DEPTHS) + " (the verdict); ladder steps: "
             + "; ".join(f"{c.name}: {c.description}" for c in chess_configs(ctx.scale.tt_size))
             + ". First-move fail-high rate: fail_highs_first / fail_highs over all positions; "
             "saving: geometric mean of per-position total-node ratios PVS / alpha-beta. "
             "Intervals: a bootstrap over positions (the rate's totals and the ratio's pairs "
             "drawn with their position).")
    headers = ["fail-highs first (alphabeta)", f"fail-highs first (pvs, {boot.level:.0%} interval)",
               "per-position mean (pvs, not judged)", "PVS / alpha-beta total nodes",
               f"{boot.level:.0%} interval", "PVS fewer / equal / more",
               "search nodes only (no qnodes)", "qnodes only", "quiescence share of the saving",
               "PVS re-search rate"]
    return Section(info, setup, measured, numbers, checks,
                   [(f"The verdict: {BEST} at each depth", ["depth", *headers],
                     [_row(d, x) for d, x in depths.items()]),
                    (f"Each ordering step at depth {ctx.scale.chess_depth} (not judged)",
                     ["ordering", *headers], [_row(k, x) for k, x in configs.items()])],
                   [("pvs_article", "First-move fail-highs and PVS's saving per ordering step",
                     chart(configs))],
                   f"{verdict_of(checks)} ({split_text(depths)})")


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
    chess_jobs=depth_jobs, rules=RULES)
