"""Stockman: SSS* never evaluates a leaf that alpha-beta skips (and DUAL* neither)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from harness.reproduce import rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.claims import sss_trees
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.verdicts import Check, count_check

RULES = rules.load("stockman")
"""The registered rules (``rules/stockman.json``)."""

RUNS = (("default", "alphabeta"), ("default", "sss"), ("default", "dual"))
"""Alpha-beta first (the leaves the others are compared with), then SSS* and DUAL*, all
in the tree's order, no table."""

BEST_FIRST = {"sss": "SSS*", "dual": "DUAL*"}
"""The searches checked, with their names in the text."""


def runs(depth: int) -> tuple[Run, ...]:
    """Every run of one tree, traced."""
    return tuple(sss_trees.traced(config, variant, depth) for config, variant in RUNS)


def jobs(scale: Scale) -> list[Job]:
    """The explicit and synthetic trees (:mod:`.sss_trees`), each searched by :data:`RUNS`."""
    return sss_trees.tree_jobs("stockman", runs, scale)


def judge_stockman(numbers: Mapping[str, Any]) -> list[Check]:
    """Stockman's dominance: per search (SSS*, DUAL*) and set, the trees where it evaluated a leaf
    alpha-beta did not, or found another value: a theorem on fixed trees (Stockman 1979
    proved it for SSS*), so each count is a correctness check against [0, 0]."""
    checks = []
    for variant, name in BEST_FIRST.items():
        rule = RULES.check(f"{variant}-dominance")
        for set_name, found in numbers["searches"][variant].items():
            wrong, problems = int(found["counter_examples"]), int(found["problems"])
            checks.append(count_check(
                f"{set_name}: {name} evaluates no leaf alpha-beta skips, and finds its value "
                f"(trees where it does not in {rule.band})", wrong, problems, rule.band,
                f"{wrong} counter-examples in {problems} trees", rule.kind))
    return checks


def _beyond_alphabeta(variant: str) -> Callable[[pd.DataFrame], pd.Series]:
    """The trees where ``variant`` evaluated a leaf alpha-beta did not, or found another
    value."""
    return lambda t: ((t[f"new_leaves@{variant}"] > 0)
                      | (t[f"score@{variant}"] != t["score@alphabeta"]))


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    trees = sss_trees.per_tree(ctx.frames["stockman"], RUNS)
    searches: dict[str, dict[str, dict[str, int]]] = {}
    saved: dict[str, dict[str, float]] = {}
    for variant in BEST_FIRST:
        searches[variant] = sss_trees.counter_examples(trees, _beyond_alphabeta(variant))
        saved[variant] = {str(name): float(part[f"leaves@{variant}"].sum() / part["leaves@alphabeta"].sum())
                          for name, part in trees.groupby("set", sort=False)}
    numbers = {"searches": searches, "leaves_relative_to_alphabeta": saved,
               "trees": len(trees)}
    checks = judge_stockman(numbers)
    measured = "; ".join(
        f"{name} evaluated a leaf alpha-beta skipped, or found another value, on "
        + sss_trees.sets_text(searches[variant]) + " trees"
        for variant, name in BEST_FIRST.items())
    measured += (". Leaves evaluated, relative to alpha-beta's (sums over the set): "
                 + "; ".join(f"{name} " + ", ".join(f"{s} {r:.3f}" for s, r in saved[v].items())
                             for v, name in BEST_FIRST.items()) + ".")
    setup = (sss_trees.setup_text(ctx.scale, "stockman") + " Searches: alphabeta (fail-hard), "
             "sss and dual (harness.search.sss), each once per tree in the tree's order, no "
             "table. Measured: per search and set, the trees where it evaluated a leaf "
             "alpha-beta did not evaluate, or returned another value.")
    rows = [[name, s, f"{x['problems']:,}", f"{x['counter_examples']:,}",
             f"{saved[v][s]:.3f}"] for v, name in BEST_FIRST.items() for s, x in searches[v].items()]
    figure = sss_trees.leaves_chart(
        trees, "leaves@alphabeta", [("leaves@sss", "SSS*"), ("leaves@dual", "DUAL*")],
        "alpha-beta's leaves", "leaves evaluated", "SSS* and DUAL* against alpha-beta, per tree",
        "as many leaves as alpha-beta")
    return Section(info, setup, measured, numbers, checks,
                   [("Trees where a best-first search evaluated a leaf alpha-beta skipped",
                     ["search", "set", "trees", "counter-examples", "leaves / alpha-beta's"], rows)],
                   [("stockman", "SSS* and DUAL* leaves against alpha-beta's", figure)])


CLAIM = ClaimInfo(
    "stockman", "Stockman: SSS* never evaluates a leaf that alpha-beta skips",
    "Stockman (1979), A minimax algorithm better than alpha-beta?, Artificial Intelligence "
    "12; as Plaat, Schaeffer, Pijls and de Bruin (1996) restate it",
    "SSS* never evaluates a leaf that alpha-beta (the same move order) does not evaluate: "
    "it dominates alpha-beta; and so does DUAL*.", analyse, jobs=jobs, rules=RULES)
