"""Claim 2. Pearl: alpha-beta's branching factor approaches x/(1-x) on random trees."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from matplotlib.figure import Figure

from harness.errors import HarnessError
from harness.games.registry import load_problems
from harness.report import charts
from harness.reproduce.analysis import ClaimInfo, Context, Section, fmt
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.verdicts import Check

PEARL_TOLERANCE = 0.10
"""The estimate at the deepest depth must lie within 10% of x/(1-x)."""


def pearl_root(b: int) -> float:
    """The root in (0, 1) of ``x^b + x - 1 = 0`` (bisection to machine precision)."""
    if b < 1:
        raise HarnessError(f"branching {b}: needs at least 1")
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = (low + high) / 2
        if middle ** b + middle - 1 > 0:
            high = middle
        else:
            low = middle
    return (low + high) / 2


def pearl_asymptote(b: int) -> float:
    """Pearl's asymptotic branching factor of alpha-beta, ``x / (1 - x)`` (3.08 for b = 5)."""
    x = pearl_root(b)
    return x / (1 - x)


def jobs(scale: Scale) -> list[Job]:
    """Random uniform trees of each branching, alpha-beta to every depth from 1."""
    found: list[Job] = []
    for b, deepest in scale.pearl:
        spec = (f"random:b={b},d={deepest},n={scale.pearl_trees},seed=2,ordering=random,"
                "values=uniform,range=1000000000")
        runs = tuple(Run("default", "alphabeta", d) for d in range(1, deepest + 1))
        found += [((("dataset", "pearl"), ("b", str(b))), p, runs) for p in load_problems(spec).problems]
    return found


def judge_pearl(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 2: per branching, the estimate moves toward x/(1-x) and ends within 10% of it."""
    checks = []
    for b, found in numbers["branchings"].items():
        target = float(found["asymptote"])
        first, last = float(found["estimate_first"]), float(found["estimate_last"])
        d0, d1 = found["first_depth"], found["last_depth"]
        checks.append(Check(
            f"b = {b}: the estimate moves toward x/(1-x) = {target:.3f} with depth "
            f"(|estimate({d1}) - x/(1-x)| < |estimate({d0}) - x/(1-x)|)",
            abs(last - target) < abs(first - target),
            f"estimate({d0}) = {first:.3f}, estimate({d1}) = {last:.3f}"))
        checks.append(Check(
            f"b = {b}: the estimate at the deepest depth is within {PEARL_TOLERANCE:.0%} of "
            f"x/(1-x) = {target:.3f}", abs(last - target) <= PEARL_TOLERANCE * target,
            f"estimate({d1}) = {last:.3f}, {100 * (last / target - 1):+.1f}%"))
    return checks


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames["pearl"]
    branchings: dict[str, dict[str, Any]] = {}
    rows = []
    for b_text, part in frame.groupby("b", sort=False):
        b = int(str(b_text))
        trees = part["problem_id"].nunique()
        totals = part.groupby("depth")["leaves"].sum().sort_index()
        depths = [int(x) for x in totals.index]
        leaves = [int(x) for x in totals.to_numpy()]
        ratio = [math.nan] + [leaves[i] / leaves[i - 1] for i in range(1, len(leaves))]
        two_ply = [math.nan, math.nan] + [math.sqrt(leaves[i] / leaves[i - 2])
                                          for i in range(2, len(leaves))]
        root = [(v / trees) ** (1 / d) for v, d in zip(leaves, depths, strict=True)]
        target = pearl_asymptote(b)
        branchings[str(b)] = {
            "asymptote": target, "root_x": pearl_root(b), "trees": trees, "depths": depths,
            "leaves": leaves, "ratio": ratio, "estimate": two_ply, "dth_root": root,
            "first_depth": depths[2], "last_depth": depths[-1],
            "estimate_first": two_ply[2], "estimate_last": two_ply[-1],
        }
        for i, d in enumerate(depths):
            rows.append([str(b), str(d), f"{leaves[i] / trees:,.1f}", fmt(ratio[i]),
                         fmt(two_ply[i]), fmt(root[i]), fmt(target)])
    numbers = {"branchings": branchings}
    checks = judge_pearl(numbers)
    measured = "; ".join(
        f"b = {b}: estimate {x['estimate_first']:.3f} at d = {x['first_depth']}, "
        f"{x['estimate_last']:.3f} at d = {x['last_depth']} against x/(1-x) = {x['asymptote']:.3f} "
        f"({100 * (x['estimate_last'] / x['asymptote'] - 1):+.1f}%); the d-th root of the "
        f"leaves is {x['dth_root'][-1]:.3f} there" for b, x in branchings.items()) + "."
    s = ctx.scale
    setup = ("Uniform trees with independent values from a range of 2·10^9 + 1 (ordering=random, "
             "values=uniform, range=10^9), " + ", ".join(f"b = {b} to depth {d}" for b, d in s.pearl)
             + f", {s.pearl_trees} trees each; fail-hard alpha-beta, one full-window search to "
             "every depth d from 1 (a depth-d search evaluates the independent values at ply d). "
             "Estimator: leaves(d) / leaves(d-1) on the leaves summed over the trees; as it "
             "alternates with the parity of d (as the minimal tree's formula does), the verdict "
             "uses the geometric mean of two successive ratios, sqrt(leaves(d) / leaves(d-2)). "
             "The d-th root of the mean leaves, leaves(d)^(1/d), is shown for comparison.")
    return Section(info, setup, measured, numbers, checks,
                   [("Alpha-beta's leaves and branching-factor estimates",
                     ["b", "d", "leaves per tree", "leaves(d)/leaves(d-1)",
                      "sqrt(leaves(d)/leaves(d-2))", "leaves(d)^(1/d)", "x/(1-x)"], rows)],
                   [("pearl", "Effective branching factor against depth", chart(branchings))])


def chart(branchings: Mapping[str, Mapping[str, Any]]) -> Figure:
    """Each estimator against depth, one panel per branching, with the asymptote's band."""
    with charts.chart_style():
        fig = charts.figure(5.0 * len(branchings) + 1, 4.4)
        axes = fig.subplots(1, len(branchings), squeeze=False)[0]
        for ax, (b, x) in zip(axes, branchings.items(), strict=True):
            depths = x["depths"]
            ax.plot(depths[1:], x["ratio"][1:], marker="o", color="#1f77b4", linewidth=1,
                    label="leaves(d) / leaves(d-1)")
            ax.plot(depths[2:], x["estimate"][2:], marker="s", color="#2ca02c", linewidth=2,
                    label="sqrt(leaves(d) / leaves(d-2)) (verdict)")
            ax.plot(depths, x["dth_root"], marker="^", color="#9467bd", linestyle="--",
                    label="leaves(d)^(1/d)")
            target = x["asymptote"]
            ax.axhline(target, color="#b22222", linestyle="--", linewidth=1.2,
                       label=f"Pearl's asymptote x/(1-x) = {target:.3f}")
            ax.axhspan(target * (1 - PEARL_TOLERANCE), target * (1 + PEARL_TOLERANCE),
                       color="#b22222", alpha=0.08, label=f"±{PEARL_TOLERANCE:.0%}")
            ax.set_xticks(depths)
            ax.set_xlabel("search depth d (plies)")
            ax.set_ylabel("effective branching factor")
            ax.set_title(f"b = {b}: alpha-beta on random uniform trees ({x['trees']} trees)")
            ax.legend(loc="upper right", fontsize=7)
    return fig


CLAIM = ClaimInfo(
    "pearl", "Pearl: alpha-beta's branching factor on random trees",
    "Pearl (1982), The solution for the branching factor of the alpha-beta pruning "
    "algorithm and its optimality",
    "On uniform trees with independent random leaf values, alpha-beta's effective "
    "branching factor approaches x/(1-x), x the root in (0,1) of x^b + x - 1 = 0 "
    "(about 3.08 for b = 5).", analyse, jobs=jobs,
    rule=("Pearl", f": the estimate must move toward x/(1-x) with depth and end within "
                   f"{PEARL_TOLERANCE:.0%} of it."))
