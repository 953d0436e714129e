"""Claim 5. The GNUchess study: PVS never searches more nodes than alpha-beta, "but it might
have to research some of the subtrees", read two ways: the distinct nodes PVS visits, and
every node it searches, re-searches counted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.reproduce import pairwise, rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.measure import chess_configs, ladder
from harness.reproduce.verdicts import Check, count_check, verdict_by_reading

RULES = rules.load("gnuchess")
"""The registered rules (``rules/gnuchess.json``): each reading an exact statement, its
count of counter-examples against [0, 0]: ``distinct`` (PVS visited a node alpha-beta did
not; a correctness check where the search cannot reorder itself, ``distinct/static``) and
``total`` (PVS searched more nodes, re-searches counted)."""

STATIC_STEPS = tuple(c.name for c in chess_configs(1)
                     if not (c.switches.tt_size or c.ordering.killers or c.ordering.history))
"""The ordering steps whose order does not depend on the search (none, mvv-lva)."""
LEARNING_STEPS = tuple(c.name for c in chess_configs(1) if c.name not in STATIC_STEPS)
"""The steps whose order learns from the search (killers, history, the table's move)."""
STATIC = f"chess, fixed ordering, no table ({', '.join(STATIC_STEPS)})"
LEARNING = f"chess, killers, history or a table ({', '.join(LEARNING_STEPS)})"

DISTINCT, TOTAL = "distinct nodes", "total nodes"
"""The two readings, as the verdict names them."""

MORE = pairwise.Count("more", "PVS more in total", "PVS searched more nodes in total",
                      lambda p: p["effort_b"] > p["effort_a"])
NEW = pairwise.Count("new", "PVS visited a node alpha-beta did not",
                     "PVS visited a node alpha-beta did not", lambda p: p["new_nodes_b"] > 0)

PAIR = pairwise.Pair(
    "alphabeta", "pvs", (NEW, MORE), ((STATIC, STATIC_STEPS), (LEARNING, LEARNING_STEPS)),
    "alphabeta and pvs (the fail-hard PVS the study's GNUchess runs), both traced",
    "Counted per set, for each reading: (distinct nodes) the problems where PVS visited a "
    "node (a line of moves from the root, once however often it was searched, every "
    "iteration's; search nodes, quiescence not traced) that alpha-beta's search of the same "
    "problem with the same switches did not visit; (total nodes) the problems where PVS "
    "searched more nodes than alpha-beta, re-searches counted (total nodes on chess). Each "
    "reading is one exact check, its counter-examples over every set where it is a claim "
    "against [0, 0]. Where the move order cannot learn from the search (the synthetic trees; "
    "chess without killers, history or a table) a zero-window test and its re-search each "
    "search within alpha-beta's window for the child, so PVS visits a subset of "
    "alpha-beta's nodes: that part of the distinct reading is a correctness check.",
    "Problems where PVS visited a node alpha-beta did not, and where it searched more nodes",
    ("PVS / alpha-beta total nodes (geo. mean)", "PVS fewer / equal / more"),
    columns=("new_nodes",))
"""PVS against alpha-beta, counting the problems where PVS visited a node alpha-beta did not
and those where it searched more nodes in total."""


READINGS = (
    (DISTINCT, "distinct", "new", "PVS visits no node alpha-beta does not",
     "a node alpha-beta did not visit on"),
    (TOTAL, "total", "more", "PVS searches no more nodes than alpha-beta, re-searches counted",
     "more on"),
)
"""Each reading: its name, its rule, the count of counter-examples it reads, its statement
and how its measurement begins."""


def judge_never_more(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 5, read two ways, each one exact claim check pooling the sets where it is a
    claim: PVS visits no node alpha-beta does not (``distinct``: chess where the order
    learns from the search), and PVS searches no more nodes than alpha-beta, re-searches
    counted (``total``: every set). Where the order cannot learn, the distinct reading is a
    theorem: a correctness check per set (``distinct/static``)."""
    sets = numbers["sets"]
    checks = []
    theorems = []
    for reading, ident, key, statement, counted in READINGS:
        rule = RULES.check(ident)
        names = [n for n in sets if RULES.check(ident, within=n).ident == ident]
        found = sum(int(sets[n][key]) for n in names)
        problems = sum(int(sets[n]["problems"]) for n in names)
        where = "; ".join(names) or "no set measured"
        checks.append(count_check(f"{reading}: {statement} ({where}; problems against "
                                  f"it in {rule.band})", found, problems, rule.band,
                                  f"{counted} {found} of {problems} problems", rule.kind))
        for name in (n for n in sets if n not in names):
            theorem = RULES.check(ident, within=name)
            count, total = int(sets[name][key]), int(sets[name]["problems"])
            theorems.append(count_check(f"{name}: {statement} (problems against it in "
                                        f"{theorem.band})", count, total, theorem.band,
                                        f"{counted} {count} of {total} problems", theorem.kind))
    return checks + theorems


def readings(checks: list[Check]) -> dict[str, list[Check]]:
    """The claim checks of each reading (the first two checks :func:`judge_never_more`
    makes)."""
    return {DISTINCT: checks[:1], TOTAL: checks[1:2]}


def describe(numbers: Mapping[str, Any], by_level: pairwise.Shares) -> str:
    """Per set, how often PVS visited a node alpha-beta did not and how often it searched
    more nodes; where most often."""
    parts = [f"{name}: a node alpha-beta did not visit on {x['new']}, more nodes in total on "
             f"{x['more']} of {x['problems']} problems" for name, x in numbers["sets"].items()]
    worst = max(by_level.items(), key=lambda kv: kv[1]["more"] / kv[1]["problems"])
    return ("; ".join(parts) + f". More nodes in total most often at "
            f"{worst[0].replace('/', ' values, ordering ')} ({worst[1]['more']:.0f} of "
            f"{worst[1]['problems']:.0f}).")


CHART = ("gnuchess", "How often PVS searches more than alpha-beta",
         "problems where it holds (%)", "PVS against alpha-beta")


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    section = pairwise.analyse(ctx, info, PAIR, judge_never_more, describe, RULES.bootstrap, CHART)
    section.verdict = verdict_by_reading(section.checks, readings(section.checks))
    return section


CLAIM = ClaimInfo(
    "gnuchess", "The GNUchess study: PVS never searches more than alpha-beta",
    "gnuchess-pvs-study.txt",
    "\"In any case, PVS will not search any more nodes than alpha beta, but it might "
    "have to research some of the subtrees like the example with the changed values "
    "mentioned above.\" Read two ways: PVS visits no node alpha-beta does not (the "
    "re-searches search again nodes it visited), or PVS searches no more nodes than "
    "alpha-beta with every re-search counted.", analyse, sweep=("alphabeta", "pvs"),
    chess=ladder("alphabeta", "pvs"), traced=("alphabeta", "pvs"), rules=RULES)
