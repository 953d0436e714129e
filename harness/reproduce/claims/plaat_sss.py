"""Plaat, Schaeffer, Pijls and de Bruin: MT-SSS* evaluates the same leaves as
Stockman's SSS* given enough memory (and MT-DUAL* as DUAL*)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pandas as pd

from harness.reproduce import rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.claims import sss_trees
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.verdicts import Check, count_check, verdict_with_extensions
from harness.search.run import Switches

RULES = rules.load("plaat-sss")
"""The registered rules (``rules/plaat-sss.json``)."""

MT, HASH = "mt", "mt, hash move"
"""The configurations of the MT drivers: Plaat et al.'s MT (children in the tree's order),
and the frame's default (the table's move first): the extension."""

PAIRS = {"mt-sss": "sss", "mt-dual": "dual"}
"""Each MT driver and the best-first search it reformulates."""

NAMES = {"sss": "SSS*", "dual": "DUAL*", "mt-sss": "MT-SSS*", "mt-dual": "MT-DUAL*"}

RUNS = (("default", "sss"), ("default", "dual"), (MT, "mt-sss"), (MT, "mt-dual"),
        (HASH, "mt-sss"), (HASH, "mt-dual"))
"""SSS* and DUAL* (no table), then the MT drivers as Plaat et al. write them, then with
the table's move first."""


def mt_switches(tt_size: int, hash_move: bool) -> Switches:
    """MT's table as Plaat et al. keep it: leaves stored, bounds narrowing the window; a
    table with more entries than the trees have nodes, whose keys are node numbers, so no
    entry is ever overwritten ("enough memory")."""
    return Switches(tt_size=tt_size, hash_move=hash_move, tt_leaves=True, tt_narrow=True)


def runs_for(scale: Scale) -> Callable[[int], tuple[Run, ...]]:
    """The runs of one tree to a depth: :data:`RUNS` with their switches."""
    mt = mt_switches(scale.tt_size, hash_move=False)
    hashed = replace(mt, hash_move=True)

    def runs(depth: int) -> tuple[Run, ...]:
        switches = {"default": sss_trees.PLAIN, MT: mt, HASH: hashed}
        return tuple(sss_trees.traced(c, v, depth, switches[c]) for c, v in RUNS)

    return runs


def jobs(scale: Scale) -> list[Job]:
    """The explicit and synthetic trees (:mod:`.sss_trees`), each searched by :data:`RUNS`."""
    return sss_trees.tree_jobs("plaat-sss", runs_for(scale), scale)


def judge_plaat(numbers: Mapping[str, Any]) -> list[Check]:
    """Plaat et al.'s equivalence: per MT driver and set, the trees where it evaluated another set of leaves
    than the best-first search it reformulates, or found another value: with MT as Plaat
    et al. write it a theorem (they prove it; ties go to the leftmost child in both), each
    count a correctness check against [0, 0]; with the table's move first, the extension
    (``equivalence/hash-move``), judged as a claim of its own."""
    checks = []
    for config, ident in ((MT, "equivalence"), (HASH, "equivalence/hash-move")):
        rule = RULES.check(ident)
        for mt, sss in PAIRS.items():
            for set_name, found in numbers[config][mt].items():
                wrong, problems = int(found["counter_examples"]), int(found["problems"])
                checks.append(count_check(
                    f"{set_name}: {NAMES[mt]}{' (hash move first)' if config == HASH else ''} "
                    f"evaluates the leaves {NAMES[sss]} does, and finds its value (trees where "
                    f"not in {rule.band})", wrong, problems, rule.band,
                    f"{wrong} counter-examples in {problems} trees", rule.kind, rule.extension))
    return checks


def _differs(a: str, b: str) -> Callable[[pd.DataFrame], pd.Series]:
    """The trees where the runs ``a`` and ``b`` evaluated other leaves or found other values."""
    return lambda t: ((t[f"leaves_digest@{a}"] != t[f"leaves_digest@{b}"])
                      | (t[f"score@{a}"] != t[f"score@{b}"]))


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    trees = sss_trees.per_tree(ctx.frames["plaat-sss"], RUNS)
    numbers: dict[str, Any] = {"trees": len(trees)}
    for config in (MT, HASH):
        numbers[config] = {
            mt: sss_trees.counter_examples(trees, _differs(f"{config}/{mt}", sss))
            for mt, sss in PAIRS.items()}
    checks = judge_plaat(numbers)
    verdict = verdict_with_extensions(checks)
    measured = "; ".join(
        f"{NAMES[mt]} evaluated other leaves than {NAMES[sss]} on "
        + sss_trees.sets_text(numbers[MT][mt]) + " trees" for mt, sss in PAIRS.items())
    measured += (". With the table's move first (the extension): "
                 + "; ".join(f"{NAMES[mt]} on " + sss_trees.sets_text(numbers[HASH][mt])
                             for mt in PAIRS) + ".")
    setup = (sss_trees.setup_text(ctx.scale, "plaat-sss") + " Searches: sss and dual (no "
             f"table); mt-sss and mt-dual with a {ctx.scale.tt_size:,}-entry table that stores "
             "leaves and narrows the window on a hit (MT), children in the tree's order "
             "(--no-hash-move), and again with the table's move first (the extension). The "
             "tie rule: SSS* takes the leftmost of states of equal merit, MT searches left to "
             "right. Measured: per driver and set, the trees where its set of evaluated "
             "leaves differs from the best-first search's, or its value does.")
    rows = [[f"{NAMES[mt]}{' (hash move first)' if config == HASH else ''}", s,
             f"{x['problems']:,}", f"{x['counter_examples']:,}"]
            for config in (MT, HASH) for mt in PAIRS for s, x in numbers[config][mt].items()]
    figure = sss_trees.leaves_chart(
        trees, "leaves@sss", [(f"leaves@{MT}/mt-sss", "MT-SSS*"),
                              (f"leaves@{HASH}/mt-sss", "MT-SSS*, hash move first")],
        "SSS*'s leaves", "MT-SSS*'s leaves", "MT-SSS* against SSS*, per tree",
        "as many leaves as SSS*")
    section = Section(info, setup, measured, numbers, checks,
                      [("Trees where an MT driver evaluated other leaves than SSS* or DUAL*",
                        ["driver", "set", "trees", "counter-examples"], rows)],
                      [("plaat_sss", "MT-SSS*'s leaves against SSS*'s", figure)])
    section.verdict = verdict
    return section


CLAIM = ClaimInfo(
    "plaat-sss", "Plaat et al.: MT-SSS* evaluates the same leaves as SSS*",
    "Plaat, Schaeffer, Pijls and de Bruin (1996), Best-first fixed-depth minimax "
    "algorithms, Artificial Intelligence 87",
    "SSS* reformulated as a sequence of zero-window alpha-beta calls with memory (MT-SSS*) "
    "evaluates the same leaves as Stockman's SSS*, given enough memory; MT-DUAL* the same "
    "as DUAL*.", analyse, jobs=jobs, rules=RULES)
