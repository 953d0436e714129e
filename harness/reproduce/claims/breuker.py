"""Claim 6. Breuker: Marsland's PVS and Reinefeld's NegaScout are "identical" (the wiki: "they
expand the same search tree"): on the published algorithms (no table) a theorem of the setup,
so the verdict is the theorem's; chess with a table is an extension with its own verdict."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.reproduce import pairwise, rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.measure import chess_configs, ladder
from harness.reproduce.verdicts import Check, count_check, verdict_with_extensions

RULES = rules.load("breuker")
"""The registered rules (``rules/breuker.json``): per set, no problem where Marsland's PVS
and Reinefeld's fail-soft NegaScout visited different nodes or searched different node
counts (the band [0, 0] on the count); on Breuker's object (no table) a theorem, a
correctness check (from rules version 8), and an extension where they can part (chess with
a table)."""

NO_TABLE_STEPS = tuple(c.name for c in chess_configs(1) if not c.switches.tt_size)
"""The ordering steps without a table (none to +history)."""
TABLE_STEPS = tuple(c.name for c in chess_configs(1) if c.switches.tt_size)
"""The ordering step with a table (+hash move)."""
NO_TABLE = f"chess, no table ({NO_TABLE_STEPS[0]} to {NO_TABLE_STEPS[-1]})"
"""The chess set where the two cannot part (a set of the rules' ``identical``)."""
WITH_TABLE = f"chess, a table ({', '.join(TABLE_STEPS)})"
"""The chess set where they can (the rules' extension ``identical/table``)."""
CHESS_SETS = ((NO_TABLE, NO_TABLE_STEPS), (WITH_TABLE, TABLE_STEPS))

MARSLAND, REINEFELD = "pvs-marsland", "negascout-fs"
"""The pair Breuker names: Marsland's (1986) PVS and Reinefeld's (1989) NegaScout."""
WIKI = ("pvs", "negascout")
"""The pair measured before (rules versions 1 to 3): the wiki's fail-hard PVS, which
re-searches with (alpha, beta), and NegaScout as the wiki gives it."""

SAME_COUNTS = pairwise.Count("identical", "identical", "identical node counts",
                             lambda p: p["effort_a"] == p["effort_b"])
"""Identical node counts: how the observation (untraced) is compared."""

IDENTICAL = pairwise.Count(
    "identical", "identical", "identical node sets and counts",
    lambda p: (p["effort_a"] == p["effort_b"]) & (p["visited_digest_a"] == p["visited_digest_b"]))
"""The same tree: the same set of visited nodes (traced runs, by their digest) and the same
total node count (re-searches counted)."""

PAIR = pairwise.Pair(
    MARSLAND, REINEFELD, (IDENTICAL,), CHESS_SETS,
    "pvs-marsland (Marsland 1986: fail-soft, tests around the best value so far, a test that "
    "fails high inside the window searched again with (merit, beta)) and negascout-fs "
    "(Reinefeld 1989: fail-soft, re-search with (t, beta) keeping the larger value)",
    "Counted per set: the problems where the two visited different sets of nodes (both runs "
    "traced: each line of moves from the root visited, every iteration's; search nodes, "
    "quiescence not traced) or searched different node counts (total nodes on chess), an "
    "exact check against [0, 0]. Without a table the two are one search written "
    "two ways: the same windows in the same order, and the re-search of a child whose test "
    "proved at least merit returns merit or more, so Marsland's re-searched value and "
    "Reinefeld's max(t, re-search) agree; on the synthetic trees and the ordering steps "
    "without a table the count is a correctness check. With a table an entry from another "
    "search can make a re-search return less than its test proved, where Marsland keeps the "
    "re-search's value and Reinefeld the larger: chess with a table is the extension, the part "
    "the data can refute.",
    "Problems where Marsland's PVS and Reinefeld's fail-soft NegaScout visited identical node "
    "sets with identical node counts",
    ("negascout-fs / pvs-marsland (geo. mean)", "negascout-fs fewer / equal / more"),
    columns=("visited_digest",))
"""Reinefeld's NegaScout against Marsland's PVS, counting the problems where both searched
the same nodes."""

OBSERVATION = pairwise.Pair(
    *WIKI, (SAME_COUNTS,), CHESS_SETS,
    "the wiki's pvs (fail-hard, re-search with (alpha, beta)) and negascout (fail-hard, "
    "re-search with (t, beta)), the pair rules versions 1 to 3 measured",
    "Counted as for the pair above; not checked.",
    "Observation, not in the verdict: problems where the wiki's pvs and negascout searched "
    "identical node counts (the pair measured before; the wiki says its PVS differs from "
    "Marsland's)",
    ("negascout / pvs (geo. mean)", "negascout fewer / equal / more"))
"""The pair measured before, kept as a labelled observation: no check is made of it."""


def judge_same_tree(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 6: Marsland's PVS and Reinefeld's fail-soft NegaScout visited the same nodes,
    as many times, on every problem of each set, an exact statement tested on its count of
    problems where they differ, of the kind its rule registers.

    Breuker's object is the published algorithms with no table (the synthetic trees, chess
    without a table): there the two cannot part, a theorem, from rules version 8 a
    correctness check (the verdict is the theorem's); chess with a table, where a re-search
    can return less than its test proved, is a labelled extension (``identical/table``).
    The observation (``numbers["observation"]``) is never judged."""
    checks = []
    for name, found in numbers["sets"].items():
        rule = RULES.check("identical", within=name)
        same, problems = int(found["identical"]), int(found["problems"])
        checks.append(count_check(f"{name}: Marsland's PVS and Reinefeld's fail-soft NegaScout "
                                  f"visit the same nodes, as many times, on every problem "
                                  f"(problems where they differ in {rule.band})", problems - same,
                                  problems, rule.band, f"identical on {same} of {problems} problems",
                                  rule.kind, rule.extension))
    return checks


def _identical(sets: Mapping[str, Mapping[str, Any]]) -> str:
    return "; ".join(f"{name}: identical on {x['identical']} of {x['problems']} problems"
                     for name, x in sets.items())


def describe(numbers: Mapping[str, Any], by_level: pairwise.Shares) -> str:
    """Where the named pair is identical, then the observation: where the wiki's pair parts,
    why it can at all, and who wins where it does."""
    sets = numbers["sets"]
    table = [n for n in sets if RULES.check("identical", within=n).extension]
    pooled = {part: (sum(int(sets[n]["identical"]) for n in names),
                     sum(int(sets[n]["problems"]) for n in names))
              for part, names in (("without", [n for n in sets if n not in table]),
                                  ("with", table))}
    measured = (f"Without a table (Breuker's object, a theorem of this setup, so a correctness "
                f"check) {MARSLAND} and {REINEFELD} visited identical node sets with identical "
                f"counts on {pooled['without'][0]} of {pooled['without'][1]} problems; with a "
                f"table (the extension) on {pooled['with'][0]} of {pooled['with'][1]}. "
                f"{MARSLAND} against {REINEFELD}: {_identical(sets)}.")
    apart = [name for name, x in numbers["sets"].items() if x["identical"] < x["problems"]]
    if apart:
        measured += f" They differ in: {', '.join(apart)}."
    observed = numbers.get("observation")
    if observed is None:
        return measured
    sets = observed["sets"]
    free = sum(x["research_free_differences"] for x in sets.values())
    measured += (f" Observation, not in the verdict (the pair measured before): the wiki's "
                 f"{WIKI[0]} against {WIKI[1]}: {_identical(sets)}. Of the problems where they "
                 f"differ, {free} had no re-search in either search: they part only where a "
                 "zero-window test fails high and the child is searched again, the wiki's PVS "
                 "with (alpha, beta), NegaScout with (t, beta); fail-hard, a failed test of an "
                 "interior child returns exactly t = alpha + 1, so the windows differ by that "
                 "one value and the searches can part only at a tie on it.")
    differ = [name for name, x in sets.items() if x["identical"] < x["problems"]]
    if differ:
        fewer = sum(sets[n]["b_fewer"] for n in differ)
        more = sum(sets[n]["b_more"] for n in differ)
        measured += (f" Where they differ, {WIKI[1]} searched fewer nodes on {fewer} problems "
                     f"and more on {more}.")
    return measured


CHART = ("breuker", "Where PVS and NegaScout search the same tree",
         "problems with identical node sets and counts (%)", "identical trees")


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    section = pairwise.analyse(ctx, info, PAIR, judge_same_tree, describe, RULES.bootstrap, CHART,
                               observe=OBSERVATION)
    section.verdict = verdict_with_extensions(section.checks)
    return section


CLAIM = ClaimInfo(
    "breuker", "Breuker: Marsland's PVS and Reinefeld's NegaScout are identical",
    "pvs-wiki-article.txt (Dennis Breuker, CCC 2004, quoting note 15 of his thesis; the wiki "
    "article's own sentence)",
    "Breuker: \"the version of principal-variation search as mentioned by Marsland (1986) is "
    "identical to the version of negascout as mentioned by Reinefeld (1989)\". The wiki, "
    "hedged: \"Practically, due to Quiescence Search, and fail-soft implementations of PVS, "
    "the two algorithms are essentially equivalent to each other - they expand the same "
    "search tree\". Read as the same tree (the same nodes, as many times); on the published "
    "algorithms (no table) a theorem of this setup; with a table an extension.", analyse,
    sweep=(MARSLAND, REINEFELD, *WIKI), chess=ladder(MARSLAND, REINEFELD, *WIKI),
    traced=(MARSLAND, REINEFELD), rules=RULES)
