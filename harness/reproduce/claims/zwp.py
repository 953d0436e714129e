"""Claim 7. The zero-window-pruning note: its improvement, and two ideas "no one has tried"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from harness.report import charts
from harness.reproduce import rules
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
from harness.reproduce.measure import BEST, ORDERING_LEVELS, VALUE_MODELS
from harness.reproduce.verdicts import Check, count_check, interval_check, ratio_text

RULES = rules.load("zwp")
"""The registered rules (``rules/zwp.json``): "never costs" (a correctness check without a
table, a claim check on chess with one), "saves" = a ratio in (0, 1), "fairly useless" =
a ratio in [0.99, inf), each with its interval."""

GOOD_ORDERING = str(RULES.parameters["good_ordering"])
"""The synthetic ordering level standing for good ordering."""

NO_TABLE = "synthetic trees (no table)"
"""The set where the improvement cannot cost (the rules' ``never-costs/no-table``)."""

WITH_TABLE = f"chess, {BEST} (a table)"
"""The set where it can."""

ZWP_FAMILY = ("zwp", "zwp:improve=0", "zwp-all", "zwp-pv")
"""The note's variants."""


def judge_zwp(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 7: the improvement never costs and saves; zwp-all saves < 1%; zwp-pv saves.

    "Never costs" without a table is a correctness check: the improvement only leaves out
    a search that cannot change alpha, and nothing else remembers it. With a table it can
    change later searches, so on chess it is a claim check. The rest are claim checks."""
    checks = []
    for name, found in numbers["improvement_never_costs"]["sets"].items():
        rule = RULES.check("never-costs", within=name)
        more, problems = int(found["more"]), int(found["problems"])
        checks.append(count_check(
            f"{name}: the improvement never searches more nodes (problems where zwp searched "
            f"more than zwp:improve=0 in {rule.band})", more, problems, rule.band,
            f"more on {more} of {problems} problems", rule.kind))
    saves, useless, pv = (RULES.check("improvement-saves"), RULES.check("zwp-all-useless"),
                          RULES.check("zwp-pv-saves"))
    for name, found in numbers["sets"].items():
        improve, every, better = found["improvement"], found["zwp-all"], found["zwp-pv"]
        checks += [
            interval_check(f"{name}: the improvement saves nodes (zwp / zwp:improve=0 in "
                           f"{saves.band})", improve["low"], improve["high"], saves.band,
                           ratio_text(improve), saves.kind),
            interval_check(f"{name}: zwp-all is fairly useless (saves less than 1% against zwp: "
                           f"zwp-all / zwp in {useless.band})", every["low"], every["high"],
                           useless.band, ratio_text(every), useless.kind),
            interval_check(f"{name}: zwp-pv saves nodes against zwp (zwp-pv / zwp in {pv.band})",
                           better["low"], better["high"], pv.band, ratio_text(better), pv.kind),
        ]
    return checks


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    sweep = ctx.sweep()
    frames: dict[str, pd.DataFrame] = {
        f"synthetic, ordering {GOOD_ORDERING}": sweep[sweep["ordering"] == GOOD_ORDERING]}
    if ctx.chess is not None:
        frames["chess"] = ctx.chess[ctx.chess["config"] == BEST]
    sets: dict[str, dict[str, Any]] = {}
    rows = []
    boot = RULES.bootstrap
    for name, frame in frames.items():
        found = {"improvement": pair_ratio(frame, "zwp:improve=0", "zwp", boot),
                 "zwp-all": pair_ratio(frame, "zwp", "zwp-all", boot),
                 "zwp-pv": pair_ratio(frame, "zwp", "zwp-pv", boot)}
        sets[name] = found
        for variant in ZWP_FAMILY:
            r = pair_ratio(frame, "pvs", variant, boot)
            rows.append([name, variant, "pvs", fmt(r["ratio"], 4), interval(r), wtl(r)])
        for label, (base, variant) in (("improvement", ("zwp:improve=0", "zwp")),
                                       ("zwp-all", ("zwp", "zwp-all")), ("zwp-pv", ("zwp", "zwp-pv"))):
            r = found[label]
            rows.append([name, variant, base, fmt(r["ratio"], 4), interval(r), wtl(r)])
    every = {NO_TABLE: sweep}
    if ctx.chess is not None:
        every[WITH_TABLE] = ctx.chess[ctx.chess["config"] == BEST]
    never: dict[str, dict[str, int]] = {}
    for name, frame in every.items():
        both = paired(frame, "zwp:improve=0", "zwp")
        never[name] = {"problems": len(both), "more": int((both["effort_b"] > both["effort_a"]).sum())}
    more = sum(x["more"] for x in never.values())
    problems = sum(x["problems"] for x in never.values())
    identical = {}
    for variant in ("zwp-all", "zwp-pv"):
        same = total = 0
        for frame in every.values():
            both = paired(frame, "zwp", variant)
            same += int((both["effort_a"] == both["effort_b"]).sum())
            total += len(both)
        identical[variant] = {"identical": same, "problems": total}
    against_pvs = {}
    for config, part in sweep.groupby("config", sort=False):
        against_pvs[str(config)] = {v: pair_ratio(part, "pvs", v, boot) for v in ZWP_FAMILY}
    chess_pvs = ({v: pair_ratio(frames["chess"], "pvs", v, boot) for v in ZWP_FAMILY}
                 if "chess" in frames else None)
    numbers = {"improvement_never_costs": {"problems": problems, "more": more, "sets": never},
               "sets": sets,
               "identical_to_zwp": identical,
               "against_pvs": against_pvs, "chess_against_pvs": chess_pvs,
               "chess_measured": ctx.chess is not None}
    checks = judge_zwp(numbers)
    return Section(info, _setup(ctx), _measured(numbers), numbers, checks,
                   [("The note's variants against pvs and against each other (ratio B/A)",
                     ["set", "B", "A", "B/A (geo. mean)", f"{boot.level:.0%} interval",
                      "B fewer / equal / more"], rows)],
                   [("zwp", "The note's variants relative to PVS",
                     chart(against_pvs, chess_pvs, ctx.scale.sweep_branching))])


def _measured(numbers: Mapping[str, Any]) -> str:
    sets, identical = numbers["sets"], numbers["identical_to_zwp"]
    never, chess_pvs = numbers["improvement_never_costs"], numbers["chess_against_pvs"]
    measured = " ".join(
        f"{name}: zwp / zwp:improve=0 {x['improvement']['ratio']:.4f} ({interval(x['improvement'])}), "
        f"zwp-all / zwp {x['zwp-all']['ratio']:.4f} ({interval(x['zwp-all'])}), zwp-pv / zwp "
        f"{x['zwp-pv']['ratio']:.4f} ({interval(x['zwp-pv'])})." for name, x in sets.items())
    measured += (" The improvement searched more nodes on " + "; ".join(
        f"{x['more']} of {x['problems']} problems ({name})" for name, x in never["sets"].items())
                 + ". zwp-all searched exactly zwp's nodes on "
                 f"{identical['zwp-all']['identical']} of {identical['zwp-all']['problems']} "
                 f"problems, zwp-pv on {identical['zwp-pv']['identical']} of "
                 f"{identical['zwp-pv']['problems']}.")
    if identical["zwp-pv"]["identical"] == identical["zwp-pv"]["problems"]:
        measured += (" zwp-pv never differed from zwp: with Knuth and Moore's expected node types "
                     "only the leftmost path is expected-PV, and under a full root window its "
                     "nodes all have alpha = -infinity, so their first successor always meets "
                     "alpha and the idea never fires (it could only act inside a narrowed root "
                     "window, or if re-searched successors were typed PV).")
    measured += (" zwp-all acts only at expected-All nodes of the full-window tree (the "
                 "children of re-searched Cut nodes), so it can matter only where re-searches "
                 "happen.")
    if chess_pvs is not None:
        measured += (" Against pvs on chess: " + ", ".join(
            f"{v} {r['ratio']:.3f}" for v, r in chess_pvs.items()) + ".")
    else:
        measured += " Chess part not measured: WAC not found."
    return measured


def _setup(ctx: Context) -> str:
    return (f"{ctx.sweep_text('pvs, zwp, zwp:improve=0, zwp-all, zwp-pv')}. Chess: "
            f"{ctx.chess_text()}, switches {BEST} (every ordering enhancement and a table). "
            f"The note's expectations are checked on the synthetic trees with good ordering "
            f"(p = {GOOD_ORDERING}, both value models) and on chess; every ratio is a geometric "
            "mean of per-problem node ratios with a paired bootstrap interval. \"Never costs\" is "
            "counted on every synthetic tree (no table) and on chess (a table) apart.")


def chart(against: Mapping[str, Mapping[str, Mapping[str, float]]],
          chess: Mapping[str, Mapping[str, float]] | None, branching: int) -> Figure:
    """Each of the note's variants relative to PVS: against the ordering probability for both
    value models, and on chess."""
    with charts.chart_style():
        fig = charts.figure(14.0, 4.4)
        axes = fig.subplots(1, 3, width_ratios=[3, 3, 2])
        levels = [lv for lv in ORDERING_LEVELS if lv != "random"]
        for ax, model in zip(axes[:2], VALUE_MODELS, strict=True):
            for i, variant in enumerate(ZWP_FAMILY):
                style = charts.variant_style(i)
                found = [against[f"{model}/{lv}"][variant] for lv in levels]
                x = np.array([float(lv) for lv in levels]) + (i - 1.5) * 0.006
                ratio = np.array([r["ratio"] for r in found])
                low = np.array([r["low"] for r in found])
                high = np.array([r["high"] for r in found])
                ax.errorbar(x, ratio, yerr=[ratio - low, high - ratio], label=variant, capsize=2,
                            elinewidth=0.8, **style)
                r = against[f"{model}/random"][variant]
                ax.scatter([1.0 / branching], [r["ratio"]], s=70, facecolors="none",
                           edgecolors=style["color"], zorder=4)
            ax.axhline(1.0, color="black", linewidth=1, linestyle="--")
            ax.set_xlabel("probability that the best child comes first (circles: random, at 1/b)")
            ax.set_ylabel("nodes relative to pvs (geometric mean)")
            ax.set_title(f"Synthetic trees, {model} values")
            ax.legend(fontsize=7)
        if chess is None:
            not_measured(axes[2], "chess: not measured (WAC not found)")
        else:
            ax = axes[2]
            y = np.arange(len(ZWP_FAMILY))
            ratio = np.array([chess[v]["ratio"] for v in ZWP_FAMILY])
            low = np.array([chess[v]["low"] for v in ZWP_FAMILY])
            high = np.array([chess[v]["high"] for v in ZWP_FAMILY])
            ax.errorbar(ratio, y, xerr=[ratio - low, high - ratio], fmt="o", color="#1f4e79",
                        capsize=3)
            ax.axvline(1.0, color="black", linewidth=1, linestyle="--")
            ax.set_yticks(y, list(ZWP_FAMILY))
            ax.invert_yaxis()
            ax.set_xlabel("total nodes relative to pvs")
            ax.set_title(f"Chess ({BEST})")
            ax.grid(axis="y", visible=False)
    return fig


CLAIM = ClaimInfo(
    "zwp", "The zero-window-pruning note: its improvement and two untried ideas",
    "pvs-zero-window-pruning-note.txt",
    "Skipping F when Z returns exactly alpha is \"a lovely improvement\"; testing "
    "every successor of an expected-All node \"might be fairly useless\"; at an "
    "expected-PV node, searching with a full window until a successor meets alpha "
    "avoids useless tests. \"No one has tried\" the last two.", analyse,
    sweep=("pvs", *ZWP_FAMILY), chess=tuple((BEST, v) for v in ("pvs", *ZWP_FAMILY)),
    rules=RULES)
