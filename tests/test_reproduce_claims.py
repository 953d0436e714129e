"""Issue 27's claims 2, 4, 7 and 8 as their newest rules versions state them: what each
version fixes, and that every verdict is reachable in both directions."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from harness.errors import HarnessError
from harness.reproduce.claims import zwp
from harness.reproduce.verdicts import FAILS, HOLDS, NO_WAC, verdict_with_extensions
from harness.search.registry import find_variant


def test_zwp_s_typing_is_the_rules_and_every_measured_variant_resolves_to_it() -> None:
    typing = zwp.RULES.parameters["typing"]
    assert tuple(typing["variants"]) == zwp.MEASURED
    assert zwp.REGISTERED_TYPING is typing["researched_pv"] is True
    assert [zwp.typing_of(v) for v in zwp.MEASURED] == [True] * len(zwp.MEASURED)
    zwp.check_typing(zwp.MEASURED)
    assert "researched_pv=1, fixed by rules/zwp.json" in zwp.TYPING


@pytest.mark.parametrize("variant", ["zwp", "zwp-pv"])
def test_a_changed_default_typing_is_refused_not_measured(monkeypatch: pytest.MonkeyPatch,
                                                          variant: str) -> None:
    options = find_variant(variant).options
    monkeypatch.setitem(options, "researched_pv",
                        dataclasses.replace(options["researched_pv"], default=False))
    with pytest.raises(HarnessError, match=r"fixes researched_pv=1, but .*"
                                           + variant + r"\b.*not by a default"):
        zwp.check_typing(zwp.MEASURED)
    # the aspiration driver's inner search follows its variant's default
    assert not zwp.typing_of(f"aspiration:inner={variant}")


def test_a_label_naming_the_other_typing_is_refused() -> None:
    assert not zwp.typing_of("zwp:researched_pv=0")
    with pytest.raises(HarnessError, match="zwp:researched_pv=0"):
        zwp.check_typing(["zwp", "zwp:researched_pv=0"])


def test_pearl_s_limit_is_the_root_of_his_equation() -> None:
    from harness.reproduce.claims.pearl import limit_ok, pearl_asymptote

    assert pearl_asymptote(2) == pytest.approx((1 + 5 ** 0.5) / 2, abs=1e-12)   # b = 2: phi
    assert pearl_asymptote(5) == pytest.approx(3.0796, abs=1e-4)                 # "about 3.08"
    assert all(limit_ok(b)[0] for b in (2, 3, 5, 8, 20))
    assert not limit_ok(1)[0]                       # b = 1: x/(1-x) = 1 = b, not below it


def test_pearl_s_bounds_check_counts_searches_outside() -> None:
    import numpy as np

    from harness.reproduce.claims.pearl import outside_bounds

    # b = 3: the minimal tree at d = 1, 2, 3 has 3, 5, 11 leaves; b^d is 3, 9, 27
    assert outside_bounds(3, [1, 2, 3], np.array([[3, 5, 11], [3, 9, 27]], dtype=float)) == 0
    assert outside_bounds(3, [1, 2, 3], np.array([[2, 5, 28], [3, 4, 11]], dtype=float)) == 3


def test_pearl_s_band_is_the_half_way_to_each_rival() -> None:
    """Claim 2's extension (rules version 6): E(D) / (x/(1-x)) nearer 1 than sqrt(b) / (x/(1-x))
    and b^(3/4) / (x/(1-x)), each end the half-way point rounded inward; the rules register
    exactly these bands, and at every branching x/(1-x) lies inside, both rivals outside."""
    from harness.reproduce.claims.pearl import RULES, nearer_band, pearl_asymptote

    assert (str(nearer_band(3)), str(nearer_band(5))) == ("[0.9032, 1.0306]", "[0.8631, 1.0428]")
    for b in range(2, 13):
        band, limit = nearer_band(b), pearl_asymptote(b)
        low, high = (1 + b ** 0.5 / limit) / 2, (1 + b ** 0.75 / limit) / 2
        assert low <= band.low < low + 1e-4 and high - 1e-4 < band.high <= high
        assert band.contains(1.0) and band.below(b ** 0.5 / limit) and band.above(b ** 0.75 / limit)
    for b in (3, 5):
        assert RULES.check("nearer", within=f"b = {b}").band == nearer_band(b)


def test_pearl_s_extension_records_its_power_by_the_probability_method() -> None:
    """Each branching's sample (the full scale's trees) reaches 80% at the assumed truth,
    x/(1-x); the chance at the exploration's own estimate is recorded beside it (at b = 3
    it lies outside the band: no sample would make the check hold there)."""
    from harness.reproduce import measure
    from harness.reproduce.claims.pearl import RULES
    from harness.reproduce.power import PROBABILITY, TARGET, computed, plan_of, probability

    for b in (3, 5):
        rule = RULES.check("nearer", within=f"b = {b}")
        assert rule.power is not None and rule.power["method"] == PROBABILITY
        for estimate in plan_of(rule.power["estimates"]):
            recorded = rule.power["estimates"][estimate.label]
            expected = computed(estimate, rule.band, PROBABILITY)
            assert {k: recorded[k] for k in expected} == expected
            assert recorded["reaches"] and probability(estimate, rule.band) >= TARGET
            assert estimate.assumed_truth == 1.0 and estimate.confirm_n == measure.FULL.pearl_trees
            explored = dataclasses.replace(estimate, assumed_truth=recorded["explore_estimate"])
            assert recorded["probability_at_explore_estimate"] == round(
                probability(explored, rule.band), 4)
    (three,) = RULES.check("nearer", within="b = 3").power["estimates"].values()  # type: ignore[index]
    assert three["needed_n"] == measure.FULL.pearl_trees == 144
    assert three["probability_at_explore_estimate"] < 0.01


def ladder_ends(good: float, poor: float, research: tuple[float, float] = (10, 400),
                positions: int = 12) -> pd.DataFrame:
    """Chess rows at the ladder's ends: alpha-beta 1000 total nodes a position; pvs ``good``
    and ``poor`` times that (every other position 5% either side), with ``research``
    re-search nodes (+hash move, none)."""
    rows = []
    for i in range(positions):
        wobble = 1.05 if i % 2 else 1 / 1.05
        for config, factor, again in (("+hash move", good, research[0]), ("none", poor, research[1])):
            rows.append({"suite": "wac.epd", "problem_id": str(i), "config": config,
                         "variant": "alphabeta", "nodes": 800, "qnodes": 200, "researches": 0,
                         "research_nodes": 0})
            rows.append({"suite": "wac.epd", "problem_id": str(i), "config": config,
                         "variant": "pvs", "nodes": round(800 * factor * wobble),
                         "qnodes": round(200 * factor * wobble), "researches": 1,
                         "research_nodes": again})
    return pd.DataFrame(rows)


def test_claim_8_is_judged_on_chess_and_can_come_out_either_way() -> None:
    from harness.reproduce.claims import ordering
    from tests.test_reproduce import ordering_numbers

    def verdict(frame: pd.DataFrame) -> str:
        numbers = {**ordering_numbers(), "chess": ordering.chess_numbers(frame)}
        checks = ordering.judge_ordering(numbers)
        assert [c.kind for c in checks[:4]] == ["claim"] * 4
        assert all(c.kind in ("extension", "theorem") for c in checks[4:])
        return verdict_with_extensions(checks).partition(" (extension")[0]

    # the texts' trend: PVS saves with good ordering, loses its advantage with none
    assert verdict(ladder_ends(good=0.9, poor=1.1)) == HOLDS
    # against every prediction: PVS costs with good ordering, its advantage grows without
    # ordering (the exploration's ladder: 0.93 to 0.62), it never loses; re-search falls
    assert verdict(ladder_ends(good=1.05, poor=0.62, research=(400, 10))) == FAILS
    assert verdict(ladder_ends(good=0.93, poor=0.62, research=(10, 400))) == (
        "2 of 4 checks hold, 2 do not hold")
    # no saving with good ordering (or none shown): the other three hold
    assert verdict(ladder_ends(good=1.03, poor=1.2)) == "3 of 4 checks hold, 1 does not hold"
    assert verdict(ladder_ends(good=1.0, poor=1.2)) == "3 of 4 checks hold, 1 inconclusive"


def test_claim_8_without_chess_is_not_measured_but_its_extension_is_judged() -> None:
    from harness.reproduce.claims import ordering
    from tests.test_reproduce import ordering_numbers

    checks = ordering.judge_ordering({**ordering_numbers(), "chess": None})
    assert verdict_with_extensions(checks, NO_WAC).startswith(NO_WAC + " (extension, synthetic")
