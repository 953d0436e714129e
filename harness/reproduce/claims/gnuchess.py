"""Claim 5. The GNUchess study: PVS never searches more nodes than alpha-beta, "but it might
have to research some of the subtrees": on the author's object (a fixed tree, no table) the
distinct nodes PVS visits, a theorem of the setup (so the verdict is the theorem's);
extensions, each with its own verdict: orders that learn from the search, and every node
searched with re-searches counted (the cost the sentence concedes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.reproduce import pairwise, rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.measure import chess_configs, ladder
from harness.reproduce.verdicts import Check, count_check, verdict_with_extensions

RULES = rules.load("gnuchess")
"""The registered rules (``rules/gnuchess.json``): each check an exact statement, its count
of counter-examples against [0, 0]: ``distinct`` (PVS visited a node alpha-beta did not) on
the author's object, fixed trees with no table, a theorem (a correctness check, from rules
version 7); the extensions ``distinct/learning``
(killers, history or a table) and ``total`` (PVS searched more nodes, re-searches counted:
the reading the author's own concession rules out)."""

STATIC_STEPS = tuple(c.name for c in chess_configs(1)
                     if not (c.switches.tt_size or c.ordering.killers or c.ordering.history))
"""The ordering steps whose order does not depend on the search (none, mvv-lva)."""
LEARNING_STEPS = tuple(c.name for c in chess_configs(1) if c.name not in STATIC_STEPS)
"""The steps whose order learns from the search (killers, history, the table's move)."""
STATIC = f"chess, fixed ordering, no table ({', '.join(STATIC_STEPS)})"
LEARNING = f"chess, killers, history or a table ({', '.join(LEARNING_STEPS)})"

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
    "chess without killers, history or a table: the author's object) a zero-window test and "
    "its re-search each search within alpha-beta's window for the child, so PVS visits a "
    "subset of alpha-beta's nodes: there the distinct reading is a theorem, a correctness "
    "check, and the claim's verdict is the theorem's; what the data can refute is in the "
    "extensions (killers, history or a table; total nodes, re-searches counted).",
    "Problems where PVS visited a node alpha-beta did not, and where it searched more nodes",
    ("PVS / alpha-beta total nodes (geo. mean)", "PVS fewer / equal / more"),
    columns=("new_nodes",))
"""PVS against alpha-beta, counting the problems where PVS visited a node alpha-beta did not
and those where it searched more nodes in total."""


STATEMENTS = {
    "new": ("PVS visits no node alpha-beta does not", "a node alpha-beta did not visit on"),
    "more": ("PVS searches no more nodes than alpha-beta, re-searches counted", "more on"),
}
"""What each count of counter-examples tests, and how its measurement begins."""


def _names(sets: Mapping[str, Any], rule: rules.CheckRule) -> list[str]:
    """The sets a rule names (every set when it names none)."""
    return [n for n in sets if not rule.sets or n in rule.sets]


def _pooled(sets: Mapping[str, Any], rule: rules.CheckRule, key: str) -> tuple[int, int]:
    """A rule's count of ``key`` (``new`` or ``more``) and its problems, over the sets it
    names (:func:`_names`)."""
    names = _names(sets, rule)
    return (sum(int(sets[n][key]) for n in names), sum(int(sets[n]["problems"]) for n in names))


def _key(rule: rules.CheckRule) -> str:
    """The count a rule tests: ``new`` (distinct nodes) or ``more`` (total nodes)."""
    return "new" if rule.ident.startswith("distinct") else "more"


def judge_never_more(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 5: one exact check per registered rule, its counter-examples pooled over the
    sets it names (every set when it names none), of the rule's kind. From rules version 6
    the author's object is the distinct-nodes reading (the re-search cost conceded) on fixed
    trees with no table, from version 7 a correctness check (a theorem of the setup, so the
    verdict is the theorem's); killers, history and a table, and the total-nodes reading,
    are extensions with their own verdicts."""
    sets = numbers["sets"]
    checks = []
    for rule in RULES.checks:
        key = _key(rule)
        statement, counted = STATEMENTS[key]
        found, problems = _pooled(sets, rule, key)
        where = "; ".join(_names(sets, rule)) or "no set measured"
        checks.append(count_check(f"{statement} ({where}; problems against it in {rule.band})",
                                  found, problems, rule.band,
                                  f"{counted} {found} of {problems} problems", rule.kind,
                                  rule.extension))
    return checks


def describe(numbers: Mapping[str, Any], by_level: pairwise.Shares) -> str:
    """What each registered check counted (the author's object first, a theorem; then each
    extension), per set how often PVS visited a node alpha-beta did not and how often it
    searched more nodes; where most often."""
    sets = numbers["sets"]
    lead = []
    for rule in RULES.checks:
        found, problems = _pooled(sets, rule, _key(rule))
        what = ("visited a node alpha-beta did not" if _key(rule) == "new"
                else "searched more nodes in total")
        where = (f"extension, {rule.extension}" if rule.extension
                 else "the author's object, a fixed order with no table (a theorem of this "
                      "setup, so a correctness check)")
        lead.append(f"{where}: PVS {what} on {found} of {problems} problems")
    parts = [f"{name}: a node alpha-beta did not visit on {x['new']}, more nodes in total on "
             f"{x['more']} of {x['problems']} problems" for name, x in sets.items()]
    worst = max(by_level.items(), key=lambda kv: kv[1]["more"] / kv[1]["problems"])
    text = "; ".join(lead)
    return (text[:1].upper() + text[1:] + ". Per set: " + "; ".join(parts) + ". More nodes in "
            f"total most often at {worst[0].replace('/', ' values, ordering ')} "
            f"({worst[1]['more']:.0f} of {worst[1]['problems']:.0f}).")


CHART = ("gnuchess", "How often PVS searches more than alpha-beta",
         "problems where it holds (%)", "PVS against alpha-beta")


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    section = pairwise.analyse(ctx, info, PAIR, judge_never_more, describe, RULES.bootstrap, CHART)
    section.verdict = verdict_with_extensions(section.checks)
    return section


CLAIM = ClaimInfo(
    "gnuchess", "The GNUchess study: PVS never searches more than alpha-beta",
    "gnuchess-pvs-study.txt",
    "\"In any case, PVS will not search any more nodes than alpha beta, but it might "
    "have to research some of the subtrees like the example with the changed values "
    "mentioned above.\" On the author's object, a fixed tree with no table: PVS visits no "
    "node alpha-beta does not (the re-searches, conceded, search again nodes it visited), a "
    "theorem of this setup. Extensions, which the data can refute: killers, history or a "
    "table; every node searched, re-searches counted.",
    analyse, sweep=("alphabeta", "pvs"),
    chess=ladder("alphabeta", "pvs"), traced=("alphabeta", "pvs"), rules=RULES)
