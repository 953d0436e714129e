"""Claim 2. Pearl: alpha-beta's branching factor approaches x/(1-x) on random trees."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from harness.errors import HarnessError
from harness.games.registry import load_problems
from harness.report import charts
from harness.reproduce import rules
from harness.reproduce.analysis import ClaimInfo, Context, Section, fmt, percentile_interval, resampled_sums
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import (
    Band,
    Check,
    count_check,
    interval_check,
    knuth_moore_formula,
    verdict_with_extensions,
)

RULES = rules.load("pearl")
"""The registered rules (``rules/pearl.json``): the estimator, the first depth reported,
the correctness checks of Pearl's limit and, per branching, the finite-depth extension's
band (:func:`nearer_band`)."""

ESTIMATORS = ("two-ply", "dth-root")
"""The two estimators of the effective branching factor: ``sqrt(L(d) / L(d-2))`` on the
leaves summed over the trees, and the d-th root of the mean leaves ``(L(d) / trees)^(1/d)``.
The rules register one for the verdict; the report shows both."""


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
        spec = (f"random:b={b},d={deepest},n={scale.pearl_trees},seed={scale.seed_of('pearl')},"
                "ordering=random,values=uniform,range=1000000000")
        runs = tuple(Run("default", "alphabeta", d) for d in range(1, deepest + 1))
        found += [((("dataset", "pearl"), ("b", str(b))), p, runs) for p in load_problems(spec).problems]
    return found


def estimate(sums: np.ndarray, depths: Sequence[int], trees: int, d: int, estimator: str) -> np.ndarray:
    """An estimator at depth ``d`` from leaves summed over trees (one row per resample, one
    column per depth of ``depths``)."""
    at = {x: i for i, x in enumerate(depths)}
    with np.errstate(divide="ignore", invalid="ignore"):
        if estimator == "two-ply":
            found: np.ndarray = np.sqrt(sums[:, at[d]] / sums[:, at[d - 2]])
            return found
        if estimator == "dth-root":
            found = np.power(sums[:, at[d]] / trees, 1 / d)
            return found
    raise HarnessError(f"unknown estimator {estimator!r} (known: {', '.join(ESTIMATORS)})")


def summarise(leaves: np.ndarray, depths: Sequence[int], target: float, first: int,
              estimator: str, boot: Bootstrap) -> dict[str, Any]:
    """One estimator on a branching's trees (``leaves``: one row per tree, one column per
    depth): its value at ``first`` and at the deepest depth, how much nearer ``target`` it
    got (``toward``), and the deepest value relative to ``target`` (``relative``), each
    with a bootstrap interval over trees."""
    trees, last = len(leaves), depths[-1]
    whole = leaves.sum(axis=0, keepdims=True)
    draws = resampled_sums(leaves, boot)

    def stats_of(sums: np.ndarray) -> dict[str, np.ndarray]:
        at_first = estimate(sums, depths, trees, first, estimator)
        at_last = estimate(sums, depths, trees, last, estimator)
        return {"first": at_first, "last": at_last,
                "toward": np.abs(at_first - target) - np.abs(at_last - target),
                "relative": at_last / target}

    point, drawn = stats_of(whole), stats_of(draws)
    out: dict[str, Any] = {"estimator": estimator, "first_depth": first, "last_depth": last,
                           "level": boot.level}
    for name in ("first", "last", "toward", "relative"):
        low, high = percentile_interval(drawn[name], boot.level)
        out[name] = {"value": float(point[name][0]), "low": low, "high": high}
    return out


def _interval(x: Mapping[str, float], digits: int = 3) -> str:
    return f"{x['value']:.{digits}f} (interval {x['low']:.{digits}f} to {x['high']:.{digits}f})"


def nearer_band(b: int) -> Band:
    """The band of ``E(D) / (x/(1-x))`` nearer 1 than either rival's ratio: from half-way to
    ``sqrt(b) / (x/(1-x))`` (the minimal tree) to half-way to ``b^(3/4) / (x/(1-x))`` (the
    value conjectured before Pearl), each end rounded inward to 4 decimals. Inside it, a
    finite-depth estimate tells Pearl's value from both rivals."""
    target = pearl_asymptote(b)
    low = (1 + math.sqrt(b) / target) / 2
    high = (1 + b ** 0.75 / target) / 2
    return Band(math.ceil(low * 10 ** 4) / 10 ** 4, math.floor(high * 10 ** 4) / 10 ** 4)


def judge_pearl(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 2: Pearl's limit is a theorem, so its checks are correctness checks (the
    harness's x/(1-x) solves his equation and lies between the minimal tree's sqrt(b) and
    b; every search's leaves lie between the minimal tree's and b^d). The finite-depth
    figure is an extension: per branching, whether the registered estimator at the deepest
    depth is nearer x/(1-x) than the rivals sqrt(b) and b^(3/4) (:func:`nearer_band`), an
    interval over trees against its band."""
    limit, bounds = RULES.check("limit"), RULES.check("bounds")
    checks = []
    for b, found in numbers["branchings"].items():
        rule = RULES.check("nearer", within=f"b = {b}")
        target = float(found["asymptote"])
        x = found["estimators"][found["registered"]]
        d1, rel = x["last_depth"], x["relative"]
        rivals = (f"sqrt(b) at {math.sqrt(int(b)) / target:.3f}, b^(3/4) at "
                  f"{int(b) ** 0.75 / target:.3f}")
        checks.append(interval_check(
            f"b = {b}: E({d1}) is nearer x/(1-x) = {target:.3f} than its rivals (E({d1}) / "
            f"(x/(1-x)) in {rule.band}; {rivals})",
            rel["low"], rel["high"], rule.band,
            f"E({d1}) = {x['last']['value']:.3f}; E({d1}) / (x/(1-x)) = " + _interval(rel, 4),
            rule.kind, extension=rule.extension))
    found_limits = numbers["branchings"].values()
    off = [b for b, x in numbers["branchings"].items() if not x["limit_ok"]]
    checks.append(count_check(
        "x/(1-x) solves Pearl's equation x^b + x - 1 = 0 and lies between sqrt(b) and b "
        "(branchings where it does not)", len(off), len(numbers["branchings"]), limit.band,
        "; ".join(f"b = {b}: x/(1-x) = {x['asymptote']:.4f}, residual {x['residual']:.1e}"
                  for b, x in numbers["branchings"].items()), limit.kind))
    outside = sum(int(x["outside_bounds"]) for x in found_limits)
    searches = sum(int(x["searches"]) for x in found_limits)
    checks.append(count_check(
        "every search's leaves lie between the minimal tree's b^ceil(d/2) + b^floor(d/2) - 1 "
        "and b^d (searches outside)", outside, searches, bounds.band,
        f"{searches - outside} of {searches} searches inside", bounds.kind))
    return checks


def limit_ok(b: int) -> tuple[bool, float]:
    """Whether the harness's x/(1-x) for branching ``b`` solves Pearl's equation (residual
    at most 1e-12) and lies strictly between sqrt(b) and b; and the residual."""
    x = pearl_root(b)
    residual = abs(x ** b + x - 1)
    return residual <= 1e-12 and math.sqrt(b) < x / (1 - x) < b, residual


def outside_bounds(b: int, depths: Sequence[int], matrix: np.ndarray) -> int:
    """The searches (cells of ``matrix``: one row per tree, one column per depth of
    ``depths``) whose leaves lie outside [the minimal tree's, b^d]."""
    low = np.array([knuth_moore_formula(b, d) for d in depths], dtype=float)
    high = np.array([float(b) ** d for d in depths])
    return int(((matrix < low) | (matrix > high)).sum())


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames["pearl"]
    boot = RULES.bootstrap
    registered = str(RULES.parameters["estimator"])
    first = int(RULES.parameters["first_depth"])
    branchings: dict[str, dict[str, Any]] = {}
    rows = []
    compare_rows = []
    for b_text, part in frame.groupby("b", sort=False):
        b = int(str(b_text))
        per_tree = part.pivot_table(index="problem_id", columns="depth", values="leaves",
                                    aggfunc="sum").sort_index(axis=1)
        trees = len(per_tree)
        depths = [int(x) for x in per_tree.columns]
        matrix = per_tree.to_numpy(dtype=float)
        leaves = [int(x) for x in matrix.sum(axis=0)]
        ratio = [math.nan] + [leaves[i] / leaves[i - 1] for i in range(1, len(leaves))]
        two_ply = [math.nan, math.nan] + [math.sqrt(leaves[i] / leaves[i - 2])
                                          for i in range(2, len(leaves))]
        root = [(v / trees) ** (1 / d) for v, d in zip(leaves, depths, strict=True)]
        target = pearl_asymptote(b)
        found = {e: summarise(matrix, depths, target, first, e, boot) for e in ESTIMATORS}
        ok, residual = limit_ok(b)
        branchings[str(b)] = {
            "asymptote": target, "root_x": pearl_root(b), "trees": trees, "depths": depths,
            "leaves": leaves, "ratio": ratio, "estimate": two_ply, "dth_root": root,
            "first_depth": first, "last_depth": depths[-1],
            "estimate_first": two_ply[depths.index(first)], "estimate_last": two_ply[-1],
            "registered": registered, "estimators": found, "limit_ok": ok, "residual": residual,
            "outside_bounds": outside_bounds(b, depths, matrix), "searches": int(matrix.size),
        }
        for i, d in enumerate(depths):
            rows.append([str(b), str(d), f"{leaves[i] / trees:,.1f}", fmt(ratio[i]),
                         fmt(two_ply[i]), fmt(root[i]), fmt(target)])
        for e, x in found.items():
            compare_rows.append([str(b), e + (" (registered)" if e == registered else ""),
                                 str(x["last_depth"]), _interval(x["last"]),
                                 _interval(x["relative"])])
    numbers = {"branchings": branchings, "registered_estimator": registered}
    checks = judge_pearl(numbers)
    other = next(e for e in ESTIMATORS if e != registered)
    measured = "; ".join(
        f"b = {b}: estimate {x['estimators'][registered]['first']['value']:.3f} at d = {first}, "
        f"{_interval(x['estimators'][registered]['last'])} at d = {x['last_depth']} against "
        f"x/(1-x) = {x['asymptote']:.3f} (E / (x/(1-x)) "
        f"{_interval(x['estimators'][registered]['relative'], 4)}; sqrt(b) = "
        f"{math.sqrt(int(b)):.3f}, b^(3/4) = {int(b) ** 0.75:.3f}); nearer x/(1-x) than at d = "
        f"{first} by {_interval(x['estimators'][registered]['toward'])} (reported, not judged); "
        f"the d-th root of the mean leaves is {_interval(x['estimators'][other]['last'])} there"
        for b, x in branchings.items()) + "."
    s = ctx.scale
    setup = ("Uniform trees with independent values from a range of 2·10^9 + 1 (ordering=random, "
             "values=uniform, range=10^9), " + ", ".join(f"b = {b} to depth {d}" for b, d in s.pearl)
             + f", {s.pearl_trees} trees each (seed {s.seed_of('pearl')}); fail-hard "
             "alpha-beta, one full-window search to every depth d from 1 (a depth-d search "
             "evaluates the independent values at ply d). Registered estimator E(d) = "
             "sqrt(leaves(d) / leaves(d-2)) on the leaves summed over the trees (leaves(d) / "
             "leaves(d-1) alternates with the parity of d, as the minimal tree's formula does, "
             "so E is the geometric mean of two successive ratios); its intervals are a "
             f"bootstrap over trees. Compared: E({first}) and E at the deepest depth. The d-th "
             "root of the mean leaves, leaves(d)^(1/d), is reported beside it with its own "
             "interval, not judged. Pearl's limit itself is the theorem (his proof): the harness's "
             "x/(1-x) and the bounds every search's leaves lie between (the minimal tree's and "
             "b^d) are correctness checks, and the claim's verdict is the theorem's. The "
             "finite-depth figure is an extension with its own verdict: whether E at the deepest "
             "depth is nearer x/(1-x) than its rivals sqrt(b) (the minimal tree) and b^(3/4) "
             "(conjectured before Pearl), E / (x/(1-x)) against the band half-way to each.")
    section = Section(info, setup, measured, numbers, checks,
                      [("Alpha-beta's leaves and branching-factor estimates",
                        ["b", "d", "leaves per tree", "leaves(d)/leaves(d-1)",
                         "sqrt(leaves(d)/leaves(d-2))", "leaves(d)^(1/d)", "x/(1-x)"], rows),
                       ("Both estimators at the deepest depth (the registered one is the "
                        "extension's; the d-th root is reported, not judged)",
                        ["b", "estimator", "d", "estimate (interval over trees)",
                         "relative to x/(1-x)"], compare_rows)],
                      [("pearl", "Effective branching factor against depth", chart(branchings))])
    section.verdict = verdict_with_extensions(checks)
    return section


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
    "(about 3.08 for b = 5).", analyse, jobs=jobs, rules=RULES)
