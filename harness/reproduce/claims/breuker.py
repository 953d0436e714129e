"""Claim 6. Breuker: PVS and NegaScout expand the same tree."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from harness.reproduce import pairwise, rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.measure import ladder
from harness.reproduce.verdicts import Check, count_check

RULES = rules.load("breuker")
"""The registered rules (``rules/breuker.json``): per set, no problem where the two
searched different node counts (the band [0, 0] on the count)."""


def _same(p: pd.DataFrame) -> pd.Series:
    return p["effort_a"] == p["effort_b"]


PAIR = pairwise.Pair(
    "pvs", "negascout", _same, "identical", "identical node counts",
    "pvs (fail-hard) and negascout (Reinefeld, as the wiki gives it)",
    "problems where the two searched identical node counts (total nodes on chess)",
    "Problems where PVS and NegaScout searched identical node counts",
    ("identical", "NegaScout / PVS (geo. mean)", "NegaScout fewer / equal / more"),
    ("breuker", "Where PVS and NegaScout search the same tree",
     "problems with identical node counts (%)", "PVS and NegaScout identical"))
"""NegaScout against PVS, counting the problems where both searched the same nodes."""


def judge_same_tree(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 6: PVS and NegaScout searched exactly as many nodes on every problem of each
    set, an exact statement tested on its count of problems where they differ.

    The set of distinct values is a correctness check (the rules' ``identical/distinct``):
    the two can part only at a tie on alpha + 1, which distinct values do not make, so it
    tests the implementation. Tied values and chess, where ties happen, are claim checks."""
    checks = []
    for name, found in numbers["sets"].items():
        rule = RULES.check("identical", within=name)
        same, problems = int(found["identical"]), int(found["problems"])
        checks.append(count_check(f"{name}: PVS and NegaScout search identical node counts on "
                                  f"every problem (problems where they differ in {rule.band})",
                                  problems - same, problems, rule.band,
                                  f"identical on {same} of {problems} problems", rule.kind))
    return checks


def describe(numbers: Mapping[str, Any], by_level: pairwise.Shares) -> str:
    """Where the two are identical, why they can part at all, and who wins where they do."""
    free = sum(x["research_free_differences"] for x in numbers["sets"].values())
    parts = [f"{name}: identical on {x['identical']} of {x['problems']} problems"
             for name, x in numbers["sets"].items()]
    measured = ("; ".join(parts) + f". Of the problems that differ, {free} had no re-search "
                "in either search: the trees part only where a zero-window test fails high and "
                "the child is searched again, PVS with (alpha, beta), NegaScout with (t, beta). "
                "In NegaScout as written a node returns at least its alpha, so a failed test of "
                "an interior child returns exactly t = alpha + 1 (at a leaf child the re-search "
                "is one evaluation either way): the two windows differ by the single value "
                "alpha + 1, and the searches can part only where a position's value equals it, "
                "a tie.")
    sets = numbers["sets"]
    alike = [name for name, x in sets.items() if x["identical"] == x["problems"]]
    apart = [name for name, x in sets.items() if x["identical"] < x["problems"]]
    if alike:
        measured += f" Identical on every problem: {', '.join(alike)}."
    if apart:
        fewer = sum(sets[n]["b_fewer"] for n in apart)
        more = sum(sets[n]["b_more"] for n in apart)
        measured += (f" Where they differ ({', '.join(apart)}), NegaScout searched fewer nodes on "
                     f"{fewer} problems and more on {more}.")
    return measured


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    return pairwise.analyse(ctx, info, PAIR, judge_same_tree, describe, RULES.bootstrap)


CLAIM = ClaimInfo(
    "breuker", "Breuker: PVS and NegaScout expand the same tree",
    "pvs-wiki-article.txt (Dennis Breuker, CCC 2004; his thesis, note 15)",
    "Marsland's PVS and Reinefeld's NegaScout are identical: \"they expand the same "
    "search tree\".", analyse, sweep=("pvs", "negascout"), chess=ladder("pvs", "negascout"),
    rules=RULES)
