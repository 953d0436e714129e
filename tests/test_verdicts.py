"""The verdict method of harness reproduce: bands, three-way interval checks, the verdict's
wording, and the registered rules files (their loader, their versions, their agreement with
what the code measures)."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import math
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from harness.errors import HarnessError
from harness.reproduce import claims as registry
from harness.reproduce import jobs_of, measure, phases, rules
from harness.reproduce.claims import knuth_moore, pearl
from harness.reproduce.claims.gnuchess import LEARNING, STATIC, judge_never_more
from harness.reproduce.claims.mtdf import judge_mtdf
from harness.reproduce.claims.zwp import ASPIRATION as ZWP_ASPIRATION
from harness.reproduce.verdicts import (
    CLAIM,
    EXTENSION,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NOT_MEASURED,
    THEOREM,
    THEOREM_VERDICT,
    Band,
    Check,
    all_of,
    count_check,
    interval_check,
    outcome_of,
    verdict_by_reading,
    verdict_of,
    verdict_with_extensions,
)

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "harness" / "reproduce" / "rules"
DISTINCT, TIED = "synthetic trees, distinct values", "synthetic trees, tied values"


def check(outcome: str, kind: str = CLAIM) -> Check:
    return Check("a statement", outcome, "a number", kind)


# --- bands and interval checks -----------------------------------------------------------

@pytest.mark.parametrize("low,high,outcome", [
    (0.90, 0.95, HOLDS),             # the band itself: inside (closed ends)
    (0.91, 0.94, HOLDS),
    (0.85, 0.90, INCONCLUSIVE),      # touches the low end from outside
    (0.95, 0.97, INCONCLUSIVE),      # touches the high end from inside
    (0.85, 0.8999, FAILS),           # wholly below
    (0.9501, 0.97, FAILS),           # wholly above
    (0.85, 0.99, INCONCLUSIVE),      # covers the band
    (math.nan, 0.93, INCONCLUSIVE),  # nothing measured
])
def test_interval_check_at_the_edges_of_a_closed_band(low: float, high: float, outcome: str) -> None:
    band = Band.parse("[0.90, 0.95]")
    assert interval_check("s", low, high, band).outcome == outcome


@pytest.mark.parametrize("low,high,outcome", [
    (0.5, 0.999, HOLDS),
    (0.5, 1.0, INCONCLUSIVE),        # reaches 1: not shown to save
    (1.0, 1.0, FAILS),               # exactly 1 on every problem: no saving at all
    (1.0, 1.2, FAILS),
])
def test_interval_check_at_an_open_end(low: float, high: float, outcome: str) -> None:
    assert interval_check("s", low, high, Band.parse("(0, 1)")).outcome == outcome


def test_the_mtdf_band_on_its_full_run_numbers_is_inconclusive() -> None:
    """Issue 19: 0.924 with an interval of 0.836 to 1.019 does not hold the 5-10% band."""
    from harness.reproduce.claims.mtdf import RULES

    band = RULES.check("five-to-ten").band
    assert str(band) == "[0.9, 0.95]" and band.contains(0.924)          # the point is inside
    assert outcome_of(0.836, 1.019, band) == INCONCLUSIVE
    numbers = {"leaves": {"ratio": 0.924, "low": 0.836, "high": 1.019, "n": 30.0},
               "total_nodes": {"ratio": 1.081, "low": 1.01, "high": 1.16, "n": 30.0},
               "mtdf_passes_per_iteration": {"mean": 5.16, "low": 4.9, "high": 5.4, "n": 30.0}}
    fewer, by, total, passes = judge_mtdf(numbers)
    assert (fewer.outcome, by.outcome, passes.outcome) == (INCONCLUSIVE, INCONCLUSIVE, HOLDS)
    assert total.outcome == FAILS                       # 1.081 times the nodes: not fewer
    # The two leaves checks share one interval: counted once (rules version 6).
    assert verdict_of([fewer, by, total, passes]) == (
        "1 of 3 checks hold, 1 inconclusive, 1 does not hold")


def test_count_checks_are_intervals_of_one_point() -> None:
    none = Band.parse("[0, 0]")
    assert count_check("s", 0, 10, none).outcome == HOLDS
    assert count_check("s", 1, 10, none).outcome == FAILS
    assert count_check("s", 0, 0, none).outcome == INCONCLUSIVE          # nothing measured
    some = Band.parse("[1, inf)")
    assert count_check("s", 1, 8, some).outcome == HOLDS
    assert count_check("s", 0, 8, some).outcome == FAILS


def test_bands_parse_and_print() -> None:
    assert str(Band.parse(" [0.99 , inf) ")) == "[0.99, inf)"
    assert Band.parse("(1, inf)").contains(1.0001) and not Band.parse("(1, inf)").contains(1.0)
    for text in ("0.9, 0.95", "[0.95, 0.9]", "[0, inf]", "(1, 1)", "[a, 1]", "[0, 1, 2]"):
        with pytest.raises(HarnessError):
            Band.parse(text)
    with pytest.raises(HarnessError):
        outcome_of(1.0, 0.5, Band.parse("[0, 1]"))
    with pytest.raises(HarnessError):
        Check("s", "partly", "m")


def test_all_of_is_a_three_valued_and() -> None:
    assert all_of([HOLDS, HOLDS]) == HOLDS
    assert all_of([HOLDS, INCONCLUSIVE]) == INCONCLUSIVE
    assert all_of([INCONCLUSIVE, FAILS]) == FAILS
    assert all_of([]) == INCONCLUSIVE


# --- the verdict's wording ---------------------------------------------------------------

def test_verdicts_when_every_claim_check_agrees() -> None:
    assert verdict_of([check(HOLDS), check(HOLDS)]) == HOLDS
    assert verdict_of([check(FAILS), check(FAILS)]) == FAILS
    assert verdict_of([check(INCONCLUSIVE)]) == INCONCLUSIVE
    assert verdict_of([]) == NOT_MEASURED


def test_mixed_verdicts_are_counts() -> None:
    checks = [check(HOLDS)] * 3 + [check(INCONCLUSIVE), check(FAILS)]
    assert verdict_of(checks) == "3 of 5 checks hold, 1 inconclusive, 1 does not hold"
    one = verdict_of([check(HOLDS)] + [check(FAILS)] * 6)
    six = verdict_of([check(HOLDS)] * 6 + [check(FAILS)])
    assert one == "1 of 7 checks hold, 6 do not hold"
    assert six == "6 of 7 checks hold, 1 does not hold"
    assert verdict_of([check(INCONCLUSIVE), check(FAILS)]) == (
        "0 of 2 checks hold, 1 inconclusive, 1 does not hold")


def test_correctness_checks_are_left_out_of_the_verdict() -> None:
    # A passing theorem does not lift a failing claim ...
    assert verdict_of([check(FAILS), check(HOLDS, THEOREM), check(HOLDS, THEOREM)]) == FAILS
    # ... and a failing one does not sink a holding claim.
    assert verdict_of([check(HOLDS), check(FAILS, THEOREM)]) == HOLDS
    # A claim of theorems only is a theorem under the setup.
    assert verdict_of([check(HOLDS, THEOREM)] * 3) == f"{THEOREM_VERDICT}: 3 of 3 correctness checks pass"
    assert verdict_of([check(HOLDS, THEOREM), check(FAILS, THEOREM)]) == (
        f"{THEOREM_VERDICT}: 1 of 2 correctness checks pass, 1 fails")


def test_a_claim_read_two_ways_gives_each_readings_verdict() -> None:
    checks = [check(HOLDS), check(FAILS), check(HOLDS, THEOREM)]
    readings = {"distinct nodes": checks[:1], "total nodes": checks[1:2]}
    assert verdict_by_reading(checks, readings) == (
        "1 of 2 checks hold, 1 does not hold (distinct nodes: holds; total nodes: does not hold)")
    assert verdict_by_reading(checks[1:], {"one": checks[1:2], "none": []}) == (
        f"does not hold (one: does not hold; none: {NOT_MEASURED})")


# --- the rules files ---------------------------------------------------------------------

def test_every_claim_has_a_rules_file_and_reads_it() -> None:
    for info in registry.CLAIMS:
        assert info.rules is not None, info.key
        path = RULES_DIR / f"{info.key}.json"
        assert info.rules.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
        assert info.rules.rules_sha256 == rules.digest(json.loads(path.read_text("utf-8"))["rules"])
        assert info.rules.claim == info.key and info.rules.version == len(info.rules.history) + 1
    assert sorted(p.stem for p in RULES_DIR.glob("*.json")) == sorted(registry.claim_keys())


def test_every_theorem_names_a_test_that_exists() -> None:
    for info in registry.CLAIMS:
        assert info.rules is not None
        for rule in info.rules.checks:
            if rule.kind != THEOREM:
                continue
            file, name = rule.test.split("::")
            assert re.search(rf"^def {name}\(", (ROOT / file).read_text("utf-8"), re.M), rule.test


def test_the_registered_samples_are_what_the_scales_measure() -> None:
    for info in registry.CLAIMS:
        assert info.rules is not None
        for mode, scale in (("quick", measure.QUICK), ("full", measure.FULL)):
            assert rules.registered_sample(info.rules, mode), (info.key, mode)
            fields = json.loads(json.dumps(asdict(scale)))
            assert rules.sample_differences(info.rules, mode, fields) == [], (info.key, mode)


@pytest.mark.parametrize("phase", [phases.EXPLORE, phases.CONFIRM])
def test_the_registered_seeds_are_what_the_jobs_use(phase: str) -> None:
    for module, key in ((knuth_moore, "knuth-moore"), (pearl, "pearl")):
        jobs = module.jobs(phases.phase_scale(measure.FULL, phase, [module.CLAIM]))
        named = phases.data_of(module.RULES, phase)
        assert named is not None
        assert {str(job[1].option("seed")) for job in jobs} == {str(named[key]["seed"])}
    for info in registry.CLAIMS:
        assert info.rules is not None
        if info.sweep:
            scale = phases.phase_scale(measure.FULL, phase, [info])
            sweep = measure.plan([], ["alphabeta"], {}, scale, None)
            named = phases.data_of(info.rules, phase)
            assert named is not None
            assert {str(job[1].option("seed")) for job in sweep} == {str(named["sweep"]["seed"])}
            assert info.rules.parameters.get("good_ordering", measure.GOOD_ORDERING) == measure.GOOD_ORDERING


def test_the_scales_seeds_are_the_exploration_data() -> None:
    """QUICK and FULL, as they are, measure what every rules file names as exploration data."""
    for info in registry.CLAIMS:
        assert info.rules is not None
        for base in (measure.QUICK, measure.FULL):
            assert phases.phase_scale(base, phases.EXPLORE, [info]) == base, info.key


def test_the_plan_traces_and_adds_level_runs_as_asked() -> None:
    """Traced variants are traced on the sweep and on chess, each job's alpha-beta first;
    runs asked at one ordering level are searched there only; MT comes after the ladder."""
    jobs = measure.plan([("MT", "mtdf"), ("none", "pvs"), ("none", "alphabeta")], ["pvs", "alphabeta"],
                        {}, measure.QUICK, measure.chess_suite(), [("0.9", "aspiration:inner=zwp")],
                        ["alphabeta", "pvs"])
    for tags, _, runs in jobs:
        names = [r.variant for r in runs]
        assert [r.variant for r in runs if r.visited] == ["alphabeta", "pvs"]
        if dict(tags)["dataset"] == "sweep":
            extra = ["aspiration:inner=zwp"] if dict(tags)["ordering"] == "0.9" else []
            assert names == ["alphabeta", "pvs", *extra]
        else:
            assert [r.config for r in runs] == ["none", "none", "MT"]
            assert runs[-1].switches.tt_leaves and runs[-1].switches.tt_narrow
    assert {dict(tags)["dataset"] for tags, _, _ in jobs} == {"sweep", "chess"}


def rules_file(key: str = "mtdf") -> dict[str, Any]:
    found: dict[str, Any] = json.loads((RULES_DIR / f"{key}.json").read_text("utf-8"))
    return found


def parse(found: dict[str, Any]) -> rules.Rules:
    return rules.parse(json.dumps(found, indent=2).encode("utf-8"), "test.json")


def test_a_rule_changed_in_place_is_refused() -> None:
    found = rules_file()
    found["rules"]["checks"]["five-to-ten"]["band"] = "[0.85, 0.95]"      # a wider band, same version
    with pytest.raises(HarnessError, match=rf"changed after they were registered.*version "
                                           rf"{found['version'] + 1}"):
        parse(found)


def test_prose_outside_the_rules_changes_the_file_not_the_version() -> None:
    before = parse(rules_file())
    found = rules_file()
    found["history"][0]["reason"] += " (reworded)"
    found["note"] = "another note"
    after = parse(found)
    assert after.version == before.version and after.rules_sha256 == before.rules_sha256
    assert after.sha256 != before.sha256


def test_a_new_version_keeps_the_old_rules_in_its_history() -> None:
    found = rules_file()
    old = copy.deepcopy(found["rules"])
    found["rules"]["checks"]["five-to-ten"]["band"] = "[0.85, 0.95]"
    found["rules_sha256"] = rules.digest(found["rules"])
    with pytest.raises(HarnessError, match="changed after"):
        parse({**found, "rules_sha256": rules.digest(old)})
    now = found["version"]
    with pytest.raises(HarnessError, match=f"history of versions 1 to {now}"):
        parse({**found, "version": now + 1})                             # no history entry for now
    entry = {"version": now, "registered": "2026-11-25", "rules": old, "rules_sha256": rules.digest(old),
             "verdict": "inconclusive", "changed": "2026-12-01", "reason": "a test"}
    bumped = parse({**found, "version": now + 1, "history": [*found["history"], entry]})
    assert bumped.version == now + 1 and bumped.history[-1].verdict == "inconclusive"
    assert bumped.check("five-to-ten").band == Band.parse("[0.85, 0.95]")
    same = {**found, "version": now + 1, "rules": old, "rules_sha256": rules.digest(old),
            "history": [*found["history"], entry]}
    with pytest.raises(HarnessError, match=f"same rules as version {now}"):
        parse(same)
    edited = copy.deepcopy(entry)
    edited["rules"]["checks"]["passes"]["band"] = "[2, 7]"             # history rewritten
    with pytest.raises(HarnessError, match="edited after they were replaced"):
        parse({**found, "version": now + 1, "history": [*found["history"], edited]})
    with pytest.raises(HarnessError, match="say why"):
        parse({**found, "version": now + 1, "history": [*found["history"], {**entry, "reason": " "}]})


def test_supersede_makes_the_next_version() -> None:
    found = rules_file()
    changed = copy.deepcopy(found["rules"])
    changed["checks"]["passes"]["band"] = "[2, 7]"
    new = rules.supersede(found, changed, registered="2026-12-01", verdict="inconclusive (a run)",
                          reason="a test", commit="abc1234")
    loaded = parse(new)
    now = found["version"]
    assert (loaded.version, loaded.registered) == (now + 1, "2026-12-01")
    assert loaded.check("passes").band == Band.parse("[2, 7]") and loaded.note == ""
    last = loaded.history[-1]
    assert (last.version, last.verdict, last.changed, last.commit) == (now, "inconclusive (a run)",
                                                                       "2026-12-01", "abc1234")
    assert last.rules == found["rules"] and found["version"] == now      # the input is left alone
    with pytest.raises(HarnessError, match="a new version is a change of rules"):
        rules.supersede(found, copy.deepcopy(found["rules"]), registered="x", verdict="v", reason="r")
    with pytest.raises(HarnessError, match="the reason for the change"):
        rules.supersede(found, changed, registered="x", verdict="v", reason=" ")


def test_malformed_rules_are_refused() -> None:
    found = rules_file("ordering")
    theorem = found["rules"]["checks"]["minimal-tree"]
    del theorem["test"]
    found["rules_sha256"] = rules.digest(found["rules"])
    with pytest.raises(HarnessError, match="is a theorem: name its test"):
        parse(found)
    found = rules_file("breuker")
    found["rules"]["checks"]["identical"]["kind"] = "maybe"
    found["rules_sha256"] = rules.digest(found["rules"])
    with pytest.raises(HarnessError, match="kind 'maybe'"):
        parse(found)
    found = rules_file("breuker")
    del found["rules"]["checks"]["identical/table"]["extension"]
    found["rules_sha256"] = rules.digest(found["rules"])
    with pytest.raises(HarnessError, match="is an extension: name its conditions"):
        parse(found)
    with pytest.raises(HarnessError, match="not readable"):
        rules.parse(b"{", "x.json")
    with pytest.raises(HarnessError, match="no rules file"):
        rules.load("no-such-claim")


def test_checks_for_a_set_find_their_rule() -> None:
    from harness.reproduce.claims.breuker import RULES

    assert RULES.check("identical", within="synthetic trees, distinct values").kind == THEOREM
    assert RULES.check("identical", within="chess, no table (none to +history)").kind == THEOREM
    assert RULES.check("identical", within="chess, a table (+hash move)").kind == EXTENSION
    assert RULES.check("identical").kind == THEOREM
    with pytest.raises(HarnessError, match="no check 'nothing'"):
        RULES.check("nothing")


def test_ordering_rules_record_the_rewrite_after_a_verdict() -> None:
    """Commit 693fc71 rewrote claim 8's rules after its verdict came out "does not hold":
    version 1 is kept with that verdict and the reason."""
    from harness.reproduce.claims.ordering import RULES

    first = RULES.history[0]
    assert first.verdict.startswith("does not hold") and first.commit == "693fc71"
    assert "after their verdict" in first.reason
    assert set(first.rules["checks"]) == {"pvs-good-saves", "pvs-random-costs"}
    assert RULES.history[1].verdict.startswith("partly (7 of 11 checks)")


AUDIT = "measured on the object the author named (issue 19 audit)"
"""Why version 4 of claims 3, 5, 6 and 7 replaced version 3."""

AUDITED = ("mtdf", "gnuchess", "breuker", "zwp")
"""The claims issue 19's audit measured again on what their authors named."""


@pytest.mark.parametrize("key", AUDITED)
def test_the_audit_made_a_new_version_of_each_claim_it_changed(key: str) -> None:
    found = rules.load(key)
    # Version 3 was replaced by the audit's version 4 (itself replaced by issue 27's phases).
    replaced = [v for v in found.history if v.reason == AUDIT]
    assert [v.version for v in replaced] == [3] and found.history[2].verdict
    assert found.history[2].rules != found.history[3].rules


def test_the_claims_the_audit_left_keep_their_versions() -> None:
    for key in set(registry.claim_keys()) - set(AUDITED):
        assert all(v.reason != AUDIT for v in rules.load(key).history), key


def test_claim_3s_rules_name_mt() -> None:
    """MT is the best ordering with the table as MT keeps it; the old configuration observed."""
    from harness.reproduce.claims import mtdf

    params = mtdf.RULES.parameters
    config = {c.name: c for c in measure.all_configs(1 << 20)}[params["config"]]
    best = {c.name: c for c in measure.chess_configs(1 << 20)}[params["observed"]]
    assert config.name == measure.MT and best.name == measure.BEST
    assert (config.switches.tt_leaves, config.switches.tt_narrow) == (True, True)
    assert config.switches == dataclasses.replace(best.switches, **params["switches"])
    assert config.ordering == best.ordering
    assert not any(c.switches.tt_leaves or c.switches.tt_narrow for c in measure.chess_configs(1))
    assert {c for c, _ in mtdf.CLAIM.chess} == {measure.MT, measure.BEST}


def test_claim_5s_rules_name_its_sets_and_traced_variants() -> None:
    from harness.reproduce.claims import gnuchess

    assert gnuchess.RULES.parameters["traced"] == list(gnuchess.CLAIM.traced)
    sets = {name for rule in gnuchess.RULES.checks for name in rule.sets}
    assert sets == {DISTINCT, TIED, *(name for name, _ in gnuchess.PAIR.chess_sets)}


def test_claim_6s_rules_name_breukers_pair() -> None:
    from harness.reproduce.claims import breuker

    assert breuker.RULES.parameters["pair"] == [breuker.PAIR.a, breuker.PAIR.b]
    assert breuker.RULES.parameters["observation"] == [breuker.OBSERVATION.a, breuker.OBSERVATION.b]
    sets = {name for rule in breuker.RULES.checks for name in rule.sets}
    assert sets == {DISTINCT, TIED, *(name for name, _ in breuker.CHESS_SETS)}


def test_claim_7s_rules_name_the_typing_and_the_aspiration_searches() -> None:
    from harness.reproduce.claims import zwp

    # the rules fix it (version 7); tests/test_reproduce_claims.py refuses another default
    assert zwp.RULES.parameters["typing"]["researched_pv"] is zwp.REGISTERED_TYPING
    assert zwp.RULES.parameters["aspiration"] == list(zwp.ASPIRATION)


# --- the audited claims' judges on made-up numbers (issue 19) ----------------------------

def ratio(value: float, low: float, high: float, n: int = 10) -> dict[str, float]:
    return {"ratio": value, "low": low, "high": high, "n": float(n)}


def outcomes(checks: list[Check]) -> list[str]:
    return [c.outcome for c in checks]



def passes(mean: float, low: float, high: float) -> dict[str, float]:
    return {"mean": mean, "low": low, "high": high, "n": 10.0}


def test_mtdf_checks_band_interval_total_nodes_and_passes() -> None:
    good = {"leaves": ratio(0.93, 0.91, 0.95), "total_nodes": ratio(0.96, 0.93, 0.99),
            "mtdf_passes_per_iteration": passes(4.2, 3.9, 4.6)}
    assert verdict_of(judge_mtdf(good)) == HOLDS
    fewer_by_more = {**good, "leaves": ratio(0.80, 0.75, 0.85)}
    assert outcomes(judge_mtdf(fewer_by_more)) == [HOLDS, FAILS, HOLDS, HOLDS]
    worse = {"leaves": ratio(1.05, 1.01, 1.14), "total_nodes": ratio(1.1, 1.05, 1.2),
             "mtdf_passes_per_iteration": passes(7.0, 6.5, 7.5)}
    assert verdict_of(judge_mtdf(worse)) == FAILS
    boundary = {**good, "leaves": ratio(0.93, 0.90, 0.95),
                "mtdf_passes_per_iteration": passes(4, 3.0, 6.0)}
    assert verdict_of(judge_mtdf(boundary)) == HOLDS                   # closed bands include their ends
    point_only = {**good, "leaves": ratio(0.924, 0.836, 1.019)}       # issue 19's full run
    assert verdict_of(judge_mtdf(point_only)) == "2 of 3 checks hold, 1 inconclusive"   # leaves once
    # The companion statement: fewer leaves need not mean fewer nodes in total.
    more_nodes = {**good, "total_nodes": ratio(1.08, 1.02, 1.16)}
    assert outcomes(judge_mtdf(more_nodes)) == [HOLDS, HOLDS, FAILS, HOLDS]
    assert "fewer nodes in total" in judge_mtdf(good)[2].statement


def test_mtdf_passes_per_iteration_leave_out_the_first_iteration() -> None:
    import pandas as pd

    from harness.reproduce.claims.mtdf import per_iteration

    frame = pd.DataFrame({"passes": [14, 9], "first_passes": [5, 3]})
    assert per_iteration(frame, 4).tolist() == [3.0, 2.0]            # (14 - 5) / 3, (9 - 3) / 3


def gnuchess_numbers(new: int = 0, more: int = 0, static_new: int = 0) -> dict[str, Any]:
    """Claim 5's sets: ``new`` problems where PVS visited a node alpha-beta did not on chess
    with learning orders, ``more`` where it searched more nodes (on tied trees), and
    ``static_new`` new-node problems where that cannot be (a broken implementation)."""
    return {"sets": {DISTINCT: {"problems": 100, "new": 0, "more": 0},
                     TIED: {"problems": 100, "new": 0, "more": more},
                     STATIC: {"problems": 20, "new": static_new, "more": 0},
                     LEARNING: {"problems": 30, "new": new, "more": 0}}}


def test_gnuchess_is_judged_on_the_authors_object_with_extensions_apart() -> None:
    """Rules version 7: the distinct reading on fixed orders without a table (the author's
    object) is a theorem of the setup, so the verdict is the theorem's; learning orders and
    the total-nodes reading are extensions with their own verdicts."""
    checks = judge_never_more(gnuchess_numbers())
    assert [c.kind for c in checks] == [THEOREM, EXTENSION, EXTENSION]
    assert [c.extension for c in checks] == ["", "killers, history or a table",
                                             "total nodes, re-searches counted"]
    assert outcomes(checks) == [HOLDS] * 3
    assert verdict_with_extensions(checks) == (
        f"{THEOREM_VERDICT}: 1 of 1 correctness check passes (extension, killers, history or a "
        "table: holds; extension, total nodes, re-searches counted: holds)")
    assert checks[0].measured == "a node alpha-beta did not visit on 0 of 220 problems"
    assert checks[1].measured == "a node alpha-beta did not visit on 0 of 30 problems"
    assert checks[2].measured == "more on 0 of 250 problems"          # every set pooled
    # Learning orders and re-search cost refute only the extensions: the theorem passes.
    checks = judge_never_more(gnuchess_numbers(new=1, more=7))
    assert verdict_with_extensions(checks) == (
        f"{THEOREM_VERDICT}: 1 of 1 correctness check passes (extension, killers, history or a "
        "table: does not hold; extension, total nodes, re-searches counted: does not hold)")
    # A new node where the order is fixed breaks the theorem: the implementation is wrong.
    checks = judge_never_more(gnuchess_numbers(static_new=1))
    assert verdict_of(checks) == f"{THEOREM_VERDICT}: 0 of 1 correctness check passes, 1 fails"
    nothing = {"sets": {DISTINCT: {"problems": 0, "new": 0, "more": 0}}}
    assert outcomes(judge_never_more(nothing)) == [INCONCLUSIVE, INCONCLUSIVE, INCONCLUSIVE]


def test_the_plan_traces_and_adds_runs_where_claims_ask() -> None:
    """Claim 5's traced runs compare against alpha-beta's, the first traced run of each
    configuration in a job; claim 7's aspiration searches run at good ordering only; claim
    3's configuration comes after the ladder."""
    suite = measure.chess_suite()
    jobs = jobs_of(registry.select(["gnuchess", "zwp", "mtdf", "breuker"]), measure.QUICK, suite)
    for _, _, runs in jobs:
        traced = [r for r in runs if r.visited]
        by_config: dict[str, list[str]] = {}
        for r in traced:
            by_config.setdefault(r.config, []).append(r.variant)
        # Claim 6 traces its pair too (rules version 7), after alpha-beta.
        assert all(v[0] == "alphabeta" and set(v) == {"alphabeta", "pvs", "pvs-marsland",
                                                      "negascout-fs"} for v in by_config.values())
    sweep = [(dict(tags), runs) for tags, _, runs in jobs if dict(tags)["dataset"] == "sweep"]
    for tags, runs in sweep:
        aspiration = {r.variant for r in runs if r.variant.startswith("aspiration")}
        assert aspiration == (set(ZWP_ASPIRATION) if tags["ordering"] == "0.9" else set())
    if suite is not None:
        chess_runs = next(runs for tags, _, runs in jobs if dict(tags)["dataset"] == "chess")
        configs = list(dict.fromkeys(r.config for r in chess_runs))
        assert configs == [c.name for c in measure.all_configs(1)]
        mt = [r for r in chess_runs if r.config == "MT"]
        assert {r.variant for r in mt} == {"mtdf", "aspiration:inner=negascout"}
        assert all(r.switches.tt_leaves and r.switches.tt_narrow and r.switches.tt_size for r in mt)


def test_a_claim_of_theorems_with_extensions_has_the_theorem_verdict_then_theirs() -> None:
    """Claims 2, 5 and 6 (issue 27's second referee reading, S1 and S2): on the author's
    object the claim is a theorem, so its verdict is the theorem's, however the extensions
    come out; each extension's verdict follows in brackets, in the README's row as well."""
    from types import SimpleNamespace

    from harness.reproduce.document import verdict_table

    def extension(outcome: str, label: str) -> Check:
        return dataclasses.replace(check(outcome, EXTENSION), extension=label)

    checks = [check(HOLDS, THEOREM), extension(FAILS, "a table"), extension(HOLDS, "total nodes")]
    verdict = verdict_with_extensions(checks)
    assert verdict == (f"{THEOREM_VERDICT}: 1 of 1 correctness check passes (extension, a table: "
                       "does not hold; extension, total nodes: holds)")
    assert verdict_with_extensions([check(HOLDS, THEOREM), extension(HOLDS, "a table")]).startswith(
        f"{THEOREM_VERDICT}: ")                       # never "holds": no data could refute it
    claim = SimpleNamespace(key="gnuchess", title="GNUchess", verdict=verdict, rules={"version": 7},
                            measured="The author's object is a theorem of this setup, so a "
                            "correctness check. More.", phase="confirm", phase_why="")
    row = verdict_table([claim]).splitlines()[2]  # type: ignore[list-item]
    assert row == (f"| 5 | GNUchess | {THEOREM_VERDICT}: 1 of 1 correctness check passes "
                   "(extension, a table: does not hold; extension, total nodes: holds) | "
                   "confirmation | v7 | The author's object is a theorem of this setup, so a "
                   "correctness check. |")
    for key in ("pearl", "gnuchess", "breuker"):      # their rules: no claim check is left
        found = rules.load(key)
        assert not [r for r in found.checks if r.kind == CLAIM], key
        assert [r for r in found.checks if r.kind == EXTENSION], key


def test_the_verdict_table_is_one_row_per_claim_with_its_first_real_sentence() -> None:
    from types import SimpleNamespace

    from harness.reproduce.document import verdict_table

    claims = [SimpleNamespace(key="knuth-moore", title="Knuth | Moore", verdict="holds",
                              rules={"version": 2}, measured="Trends. Every search was exact on 9 of 9 "
                              "trees of the sample. More text follows here.", phase="confirm",
                              phase_why=""),
              SimpleNamespace(key="pearl", title="Pearl", verdict="3 of 4 checks hold, 1 inconclusive",
                              rules=None, measured="short", phase="explore",
                              phase_why="no rules file names its data")]
    lines = verdict_table(claims).splitlines()  # type: ignore[arg-type]
    assert len(lines) == 4
    assert lines[2] == ("| 1 | Knuth \\| Moore | holds | confirmation | v2 | Every search was exact on "
                        "9 of 9 trees of the sample. |")
    assert lines[3] == ("| 2 | Pearl | 3 of 4 checks hold, 1 inconclusive | exploration: no rules file "
                        "names its data |  | short. |")


def test_a_corrected_level_is_never_printed_as_100_percent() -> None:
    from harness.reproduce.verdicts import level_text, ratio_text

    assert level_text(0.95) == "95%" and level_text(0.996429) == "99.64%"
    found = ratio_text({"ratio": 0.9, "low": 0.85, "high": 0.95, "n": 10.0, "level": 0.996429})
    assert "99.64% interval" in found and "100%" not in found
