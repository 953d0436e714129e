"""Claim 5. The GNUchess study: PVS never searches more nodes than alpha-beta."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from harness.reproduce import pairwise, rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.measure import ladder
from harness.reproduce.verdicts import Check, count_check

RULES = rules.load("gnuchess")
"""The registered rules (``rules/gnuchess.json``): per set, no problem where PVS searched
more (the band [0, 0] on the count)."""


def _more(p: pd.DataFrame) -> pd.Series:
    return p["effort_b"] > p["effort_a"]


PAIR = pairwise.Pair(
    "alphabeta", "pvs", _more, "more", "PVS searched more nodes", "alphabeta and pvs",
    "problems where PVS searched more nodes (total nodes on chess) than alpha-beta",
    "Problems where PVS searched more nodes than alpha-beta",
    ("PVS more", "PVS / alpha-beta (geo. mean)", "PVS fewer / equal / more"),
    ("gnuchess", "How often PVS searches more than alpha-beta",
     "problems where PVS searched more nodes (%)", "PVS searched more than alpha-beta"))
"""PVS against alpha-beta, counting the problems where PVS searched more."""


def judge_never_more(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 5: PVS searched no more nodes than alpha-beta on any problem of each set, an
    exact statement tested on its count of counter-examples. A claim check in every set:
    PVS can search more than alpha-beta (a re-search costs), so it is no theorem."""
    checks = []
    for name, found in numbers["sets"].items():
        rule = RULES.check("never-more", within=name)
        more, problems = int(found["more"]), int(found["problems"])
        checks.append(count_check(f"{name}: PVS searches no more nodes than alpha-beta on any "
                                  f"problem (problems where it searched more in {rule.band})",
                                  more, problems, rule.band,
                                  f"more on {more} of {problems} problems", rule.kind))
    return checks


def describe(numbers: Mapping[str, Any], by_level: pairwise.Shares) -> str:
    """How often PVS searched more, per set, and where most often."""
    parts = [f"{name}: PVS searched more nodes than alpha-beta on {x['more']} of {x['problems']} "
             "problems" for name, x in numbers["sets"].items()]
    worst = max(by_level.items(), key=lambda kv: kv[1]["count"] / kv[1]["problems"])
    return ("; ".join(parts) + f" (most often at {worst[0].replace('/', ' values, ordering ')}: "
            f"{worst[1]['count']:.0f} of {worst[1]['problems']:.0f}).")


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    return pairwise.analyse(ctx, info, PAIR, judge_never_more, describe, RULES.bootstrap)


CLAIM = ClaimInfo(
    "gnuchess", "The GNUchess study: PVS never searches more than alpha-beta",
    "gnuchess-pvs-study.txt",
    "\"In any case, PVS will not search any more nodes than alpha beta, but it might "
    "have to research some of the subtrees.\"", analyse, sweep=("alphabeta", "pvs"),
    chess=ladder("alphabeta", "pvs"), rules=RULES)
