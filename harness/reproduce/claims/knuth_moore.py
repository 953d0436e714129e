"""Claim 1. Knuth and Moore: perfectly ordered uniform trees need exactly
b^ceil(d/2) + b^floor(d/2) - 1 leaves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from harness.games.registry import load_problems
from harness.report import charts
from harness.reproduce import rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.verdicts import Check, count_check, knuth_moore_formula
from harness.search.minimal import knuth_moore

RULES = rules.load("knuth-moore")
"""The registered rules (``rules/knuth-moore.json``)."""

VARIANTS = ("alphabeta", "pvs", "negascout")
"""The variants that evaluate the minimal tree."""


def jobs(scale: Scale) -> list[Job]:
    """Every (b, d) with b^d up to the scale's limit: perfectly ordered trees, distinct values."""
    found: list[Job] = []
    for b in scale.km_branchings:
        d = 1
        while b ** d <= scale.km_max_leaves:
            spec = (f"random:b={b},d={d},n={scale.km_trees},seed={scale.seed_of('knuth-moore')},"
                    "ordering=perfect,values=uniform,range=1000000000")
            runs = tuple(Run("default", v, d) for v in VARIANTS)
            found += [((("dataset", "knuth-moore"), ("b", str(b))), p, runs)
                      for p in load_problems(spec).problems]
            d += 1
    return found


def judge_knuth_moore(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 1: for each variant, every search evaluated exactly the formula's leaves.

    Each is a correctness check: Knuth and Moore's theorem holds under the setup (the best
    child first, distinct values), so the count tests the implementation, not the claim;
    the claim is a theorem and its verdict says so."""
    rule = RULES.check("minimal-tree")
    checks = []
    for variant, found in numbers["variants"].items():
        exact, searches = int(found["exact"]), int(found["searches"])
        checks.append(count_check(
            f"{variant} evaluates exactly b^ceil(d/2) + b^floor(d/2) - 1 leaves on every "
            "perfectly ordered tree (searches off the formula)", searches - exact, searches,
            rule.band, f"{exact} of {searches} searches exact", rule.kind))
    return checks


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames["knuth-moore"]
    b = frame["b"].astype(int)
    d = frame["depth"].astype(int)
    frame = frame.assign(b=b, formula=[knuth_moore_formula(x, y) for x, y in zip(b, d, strict=True)],
                         library=[knuth_moore(x, y) for x, y in zip(b, d, strict=True)])
    variants: dict[str, dict[str, Any]] = {}
    for variant, part in frame.groupby("variant", sort=False):
        off = part[part["leaves"] != part["formula"]]
        variants[str(variant)] = {
            "searches": len(part), "exact": int((part["leaves"] == part["formula"]).sum()),
            "mismatches": [{"b": int(r["b"]), "d": int(r["depth"]), "tree": str(r["problem_id"]),
                            "leaves": int(r["leaves"]), "formula": int(r["formula"])}
                           for r in off.to_dict("records")][:20]}
    pairs = sorted({(int(x), int(y)) for x, y in zip(frame["b"], frame["depth"], strict=True)})
    numbers = {"variants": variants, "pairs": [list(p) for p in pairs],
               "formula_equals_library": bool((frame["formula"] == frame["library"]).all())}
    rows = []
    for (bb, dd), part in frame.groupby(["b", "depth"], sort=True):
        cells = [str(bb), str(dd), f"{int(part['formula'].iloc[0]):,}"]
        for variant in VARIANTS:
            got = part.loc[part["variant"] == variant, "leaves"]
            cells.append(", ".join(f"{int(v):,}" for v in sorted(set(got))))
        rows.append(cells)
    checks = judge_knuth_moore(numbers)
    exact = all(c.passed for c in checks)
    measured = (f"{'Every' if exact else 'Not every'} search evaluated exactly the formula's "
                f"leaves: " + "; ".join(f"{v} {x['exact']}/{x['searches']}" for v, x in variants.items())
                + f" searches, over {len(pairs)} (b, d) pairs.")
    s = ctx.scale
    setup = (f"Perfectly ordered uniform trees (ordering=perfect, values=uniform, range=10^9), "
             f"b in {', '.join(map(str, s.km_branchings))}, every d >= 1 with b^d <= "
             f"{s.km_max_leaves:,}, {s.km_trees} trees each (seed {s.seed_of('knuth-moore')}); "
             "alphabeta, pvs, negascout, one full-window search to depth d, no table. Measured: "
             "per variant, the searches whose leaves differ from the formula.")
    return Section(info, setup, measured, numbers, checks,
                   [("Leaves evaluated (distinct values over the trees)",
                     ["b", "d", "formula", *VARIANTS], rows)],
                   [("knuth_moore", "Leaves against Knuth and Moore's formula", chart(frame))])


def chart(frame: pd.DataFrame) -> Figure:
    """Measured leaves against the formula, every search a point."""
    with charts.chart_style():
        fig = charts.figure(6.5, 5.0)
        ax = fig.add_subplot()
        for i, variant in enumerate(VARIANTS):
            part = frame[frame["variant"] == variant]
            style = charts.variant_style(i)
            ax.scatter(part["formula"], part["leaves"], label=variant, marker=style["marker"],
                       s=70 - 25 * i, facecolors="none" if i == 1 else style["color"],
                       edgecolors=style["color"], linewidths=1.2, zorder=2 + i)
        top = float(frame["formula"].max()) * 1.5
        ax.plot([1, top], [1, top], color="black", linestyle="--", linewidth=1,
                label="leaves = b^ceil(d/2) + b^floor(d/2) - 1")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("Knuth and Moore's formula")
        ax.set_ylabel("leaves evaluated")
        ax.set_title("Perfectly ordered uniform trees: measured leaves against the formula")
        ax.legend(loc="upper left")
    return fig


CLAIM = ClaimInfo(
    "knuth-moore", "Knuth and Moore: the minimal tree of perfectly ordered uniform trees",
    "Knuth and Moore (1975), as VARIANTS.md states it",
    "On a uniform tree of branching b and depth d with the best child always first "
    "(distinct values), alpha-beta evaluates exactly b^ceil(d/2) + b^floor(d/2) - 1 "
    "leaves, and so do PVS and NegaScout.", analyse, jobs=jobs, rules=RULES)
