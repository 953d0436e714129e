"""harness reproduce: verdict rules on made-up numbers, and small real reproductions."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness import reproduce as rp
from harness.errors import HarnessError
from harness.games.trees import generate_tree, parse_spec
from harness.reproduce import (
    CLAIM,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NOT_MEASURED,
    THEOREM,
    THEOREM_VERDICT,
    Check,
    Scale,
    judge_knuth_moore,
    judge_ordering,
    judge_pearl,
    judge_pvs_article,
    judge_same_tree,
    judge_zwp,
    knuth_moore_formula,
    pearl_asymptote,
    pearl_root,
    reproduce,
    verdict_of,
)
from harness.reproduce.claims.ordering import level_runs
from harness.reproduce.verdicts import EXTENSION, Band, verdict_with_extensions
from harness.search import parse_variants, run_search
from harness.search.minimal import knuth_moore

COUNTS = re.compile(r"^\d+ of \d+ checks? holds?(, \d+ inconclusive)?(, \d+ (does|do) not hold)?$")
"""A mixed verdict: the counts of its claim checks' outcomes."""


READINGS = re.compile(r" \((?:[^:;()]+: [^;()]+; )*[^:;()]+: [^;()]+\)$")
"""The verdict of each reading, after the verdict of a claim read more than one way."""


def without_note(text: str) -> str:
    """``text`` without a final bracketed note (claim 4's quiescence share, claim 7's
    figures against the threshold), brackets inside it included."""
    if not text.endswith(")"):
        return text
    depth = 0
    for at in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[at], 0)
        if depth == 0:
            return text[:at].rstrip()
    return text


def is_verdict(text: str) -> bool:
    """Whether ``text`` is the verdict of a measured claim (each reading's after it, if any,
    or a bracketed note on what was measured, or after a colon the check that failed)."""
    text = READINGS.sub("", text)
    if not (text in (HOLDS, FAILS, INCONCLUSIVE) or COUNTS.match(text)):
        text = without_note(text)
    if not text.startswith(THEOREM_VERDICT) and ": " in text:   # claim 8: counts, then which failed
        text = text.split(": ", 1)[0]
    return (text in (HOLDS, FAILS, INCONCLUSIVE) or bool(COUNTS.match(text))
            or text.startswith(f"{THEOREM_VERDICT}: "))

TINY = Scale(km_max_leaves=64, km_branchings=(2, 3), km_trees=1, pearl=((3, 4),), pearl_trees=2,
             sweep_branching=3, sweep_depth=3, sweep_trees=2, chess_positions=2, chess_depth=2,
             tt_size=4096, connect4=(("Test_L3_R1", 2), ("Test_L1_R1", 1)),
             best_first_shapes=("b=2,d=3",),
             games=(("chess", 1, 2, 2), ("othello", 1, 2, 3), ("checkers", 1, 3, 4),
                    ("synthetic", 2, 2, 3), ("synthetic-random", 2, 2, 3)),
             modern_games=(("chess", 1, 2, 3), ("othello", 1, 3, 4), ("checkers", 1, 4, 5)),
             schaeffer_games=(("othello", 1, 4, 4), ("checkers", 1, 4, 4)))
"""A scale small enough for a test to run every claim."""

EPD = (
    '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "T.1";\n'
    'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id "T.2";\n'
)


def ratio(value: float, low: float, high: float, n: int = 10) -> dict[str, float]:
    return {"ratio": value, "low": low, "high": high, "n": float(n)}


def check(outcome: str) -> Check:
    return Check("a statement", outcome, "a number")


def outcomes(checks: list[Check]) -> list[str]:
    return [c.outcome for c in checks]


# --- verdict rules (tests/test_verdicts.py has the machinery's own) ----------------------

def test_verdict_is_decided_by_the_claim_checks_outcomes() -> None:
    assert verdict_of([check(HOLDS), check(HOLDS)]) == HOLDS
    assert verdict_of([check(FAILS), check(FAILS)]) == FAILS
    assert verdict_of([check(HOLDS), check(FAILS)]) == "1 of 2 checks hold, 1 does not hold"
    assert verdict_of([]) == NOT_MEASURED


def test_pearl_asymptote_solves_its_equation() -> None:
    for b in (2, 3, 5, 8, 20):
        x = pearl_root(b)
        assert 0 < x < 1 and abs(x ** b + x - 1) < 1e-12
    assert pearl_asymptote(5) == pytest.approx(3.0796, abs=1e-4)       # "about 3.08"
    assert pearl_asymptote(2) == pytest.approx((1 + math.sqrt(5)) / 2)  # x = 1/golden ratio
    with pytest.raises(HarnessError):
        pearl_root(0)


def test_formula_as_stated_equals_the_library() -> None:
    for b in range(1, 9):
        for d in range(1, 9):
            assert knuth_moore_formula(b, d) == knuth_moore(b, d)
    assert knuth_moore_formula(8, 6) == 8 ** 3 + 8 ** 3 - 1


def test_knuth_moore_checks_are_exact_correctness_checks() -> None:
    numbers = {"variants": {"alphabeta": {"searches": 5, "exact": 5},
                            "pvs": {"searches": 5, "exact": 4}}}
    checks = judge_knuth_moore(numbers)
    assert outcomes(checks) == [HOLDS, FAILS] and {c.kind for c in checks} == {THEOREM}
    assert verdict_of(checks) == f"{THEOREM_VERDICT}: 1 of 2 correctness checks pass, 1 fails"


def interval(value: float, low: float, high: float) -> dict[str, float]:
    return {"value": value, "low": low, "high": high}


def pearl_numbers(relative: tuple[float, float], outside: int = 0) -> dict[str, Any]:
    """Claim 2's numbers for b = 5: the registered estimator's deepest value relative to
    the asymptote, an interval over trees, and ``outside`` of its 90 searches outside the
    minimal tree's and b^d's bounds."""
    target = pearl_asymptote(5)
    x = {"first_depth": 3, "last_depth": 9, "first": interval(3.9, 3.8, 4.0),
         "last": interval(target * sum(relative) / 2, target * relative[0], target * relative[1]),
         "toward": interval(0.5, 0.3, 0.6), "relative": interval(sum(relative) / 2, *relative)}
    return {"branchings": {"5": {"asymptote": target, "registered": "two-ply",
                                 "estimators": {"two-ply": x}, "limit_ok": True, "residual": 0.0,
                                 "outside_bounds": outside, "searches": 90}}}


FINITE = "the finite depth: nearer x/(1-x) than its rivals"
"""Claim 2's extension (rules version 6)."""


def test_pearl_s_limit_is_the_theorem_and_the_finite_depth_an_extension() -> None:
    """Rules version 6: the verdict is the theorem's; the extension holds only where E(D)
    is nearer x/(1-x) than sqrt(b) and b^(3/4), at b = 5 E / (x/(1-x)) in [0.8631, 1.0428]."""
    def verdict(relative: tuple[float, float], outside: int = 0) -> str:
        return verdict_with_extensions(judge_pearl(pearl_numbers(relative, outside)))

    passes = f"{THEOREM_VERDICT}: 2 of 2 correctness checks pass"
    assert verdict((0.97, 1.03)) == f"{passes} (extension, {FINITE}: holds)"
    assert verdict((1.02, 1.09)) == f"{passes} (extension, {FINITE}: inconclusive)"
    assert verdict((0.85, 0.95)) == f"{passes} (extension, {FINITE}: inconclusive)"
    assert verdict((1.09, 1.13)) == f"{passes} (extension, {FINITE}: does not hold)"  # b^(3/4)
    assert verdict((0.70, 0.80)) == f"{passes} (extension, {FINITE}: does not hold)"  # sqrt(b)
    # Convergence alone (the estimate falling toward the limit) no longer decides anything.
    checks = judge_pearl(pearl_numbers((1.09, 1.13)))
    assert [c.kind for c in checks] == [EXTENSION, THEOREM, THEOREM]
    assert "b^(3/4) at 1.086" in checks[0].statement and "sqrt(b) at 0.726" in checks[0].statement
    theorems = [c for c in judge_pearl(pearl_numbers((1.0, 1.0), outside=1)) if c.kind == THEOREM]
    assert outcomes(theorems) == [HOLDS, FAILS]         # the limit; one search outside the bounds
    assert verdict((0.97, 1.03), outside=1).startswith(
        f"{THEOREM_VERDICT}: 1 of 2 correctness checks pass, 1 fails")


def fh_rate(rate: float, low: float, high: float) -> dict[str, float]:
    return {"rate": rate, "low": low, "high": high, "n": 30.0}


def test_pvs_article_judges_the_best_ordering_at_every_depth() -> None:
    good = {"fh_first_pvs_interval": fh_rate(0.91, 0.88, 0.93), "ratio": ratio(0.9, 0.86, 0.94)}
    numbers = {"depths": {str(d): dict(good) for d in (3, 4, 5, 6)}}
    assert verdict_of(judge_pvs_article(numbers)) == HOLDS
    numbers["depths"]["3"] = {**good, "ratio": ratio(0.9, 0.8, 1.01)}   # interval leaves the band
    assert outcomes(judge_pvs_article(numbers))[:2] == [HOLDS, INCONCLUSIVE]
    numbers["depths"] = {str(d): {"fh_first_pvs_interval": fh_rate(0.97, 0.96, 0.98),
                                  "ratio": ratio(0.99, 0.97, 1.01)} for d in (3, 4, 5, 6)}
    assert verdict_of(judge_pvs_article(numbers)) == FAILS


DISTINCT, TIED = "synthetic trees, distinct values", "synthetic trees, tied values"
NO_TABLE, WITH_TABLE = "chess, no table (none to +history)", "chess, a table (+hash move)"
STATIC = "chess, fixed ordering, no table (none, mvv-lva)"
LEARNING = "chess, killers, history or a table (+killers, +history, +hash move)"


def test_breuker_is_judged_on_the_published_algorithms_and_a_table_is_an_extension() -> None:
    """Rules version 8: the sets without a table are Breuker's object, a theorem of the
    setup (correctness checks, the verdict the theorem's); chess with a table is an
    extension with its own verdict."""
    same = {"sets": {DISTINCT: {"problems": 100, "identical": 100},
                     TIED: {"problems": 100, "identical": 100},
                     NO_TABLE: {"problems": 40, "identical": 40},
                     WITH_TABLE: {"problems": 10, "identical": 10}}}
    checks = judge_same_tree(same)
    assert [c.kind for c in checks] == [THEOREM, THEOREM, THEOREM, EXTENSION]
    assert checks[3].extension == "chess with a table"
    theorem = f"{THEOREM_VERDICT}: 3 of 3 correctness checks pass"
    assert verdict_with_extensions(checks) == f"{theorem} (extension, chess with a table: holds)"
    same["sets"][WITH_TABLE]["identical"] = 9                 # a table parts them: the extension
    checks = judge_same_tree(same)
    assert verdict_of(checks) == theorem
    assert verdict_with_extensions(checks) == f"{theorem} (extension, chess with a table: does not hold)"
    same["sets"][WITH_TABLE]["identical"] = 10
    same["sets"][TIED]["identical"] = 99                      # the published algorithms part: a bug
    checks = judge_same_tree(same)
    assert verdict_of(checks) == f"{THEOREM_VERDICT}: 2 of 3 correctness checks pass, 1 fails"
    assert checks[1].outcome == FAILS
    # The pair measured before is an observation: it is never judged.
    same["observation"] = {"sets": {TIED: {"problems": 100, "identical": 3}}}
    assert len(judge_same_tree(same)) == 4


def test_a_set_of_visited_nodes_is_named_by_its_digest() -> None:
    from harness.reproduce.measure import visited_digest

    one = {(), ("e4",), ("e4", "e5")}
    assert visited_digest(one) == visited_digest(set(sorted(one))) and len(visited_digest(one)) == 16
    assert visited_digest(one) != visited_digest({(), ("e4",), ("d4",)})


def same_tree(n: int = 10, differ: int = 0) -> dict[str, float]:
    return {**ratio(1.0, 1.0, 1.0, n), "differ": float(differ)}


def zwp_numbers() -> dict[str, Any]:
    # Savings clear of the smallest effect that matters (1%: bands (0, 0.99] from rules v6).
    full = {"improvement": ratio(0.97, 0.96, 0.985), "zwp-all": same_tree(),
            "zwp-pv": ratio(0.97, 0.95, 0.985)}
    aspiration = {"zwp-all": same_tree(), "zwp-pv": ratio(0.97, 0.95, 0.985)}
    return {"improvement_never_costs": {"sets": {"synthetic trees (no table)": {"problems": 100, "more": 0},
                                                 "chess, +hash move (a table)": {"problems": 10, "more": 0}}},
            "sets": {"chess, full window": full, "chess, aspiration windows": aspiration}}


def test_zwp_checks() -> None:
    numbers = zwp_numbers()
    checks = judge_zwp(numbers)
    # never costs (no table, chess); chess, full window: the improvement, zwp-all; chess,
    # aspiration windows: zwp-all, zwp-pv (rules v8: zwp-pv is judged there only)
    assert [c.kind for c in checks] == [THEOREM, "claim", "claim", THEOREM, THEOREM, "claim"]
    assert verdict_of(checks) == HOLDS
    assert "aspiration windows" in checks[-1].statement and "zwp-pv" in checks[-1].statement
    assert not any("full window: zwp-pv" in c.statement for c in checks)
    numbers["sets"]["chess, aspiration windows"]["zwp-pv"] = ratio(0.995, 0.985, 1.0)   # maybe none
    assert outcomes(judge_zwp(numbers))[5] == INCONCLUSIVE
    numbers = zwp_numbers()
    numbers["sets"]["chess, full window"]["zwp-pv"] = ratio(1.2, 1.1, 1.3)     # not judged there
    assert verdict_of(judge_zwp(numbers)) == HOLDS
    numbers["sets"]["chess, full window"]["zwp-all"] = same_tree(differ=1)     # zwp-all acted
    checks = judge_zwp(numbers)
    assert checks[3].outcome == FAILS and checks[3].kind == THEOREM and verdict_of(checks) == HOLDS
    numbers = zwp_numbers()
    numbers["improvement_never_costs"]["sets"]["chess, +hash move (a table)"]["more"] = 1
    assert outcomes(judge_zwp(numbers))[:2] == [HOLDS, FAILS]           # a claim check on chess
    numbers["improvement_never_costs"]["sets"]["synthetic trees (no table)"]["more"] = 1
    checks = judge_zwp(numbers)
    assert checks[0].outcome == FAILS and checks[0].kind == THEOREM     # a broken implementation
    assert verdict_of(checks) == "2 of 3 checks hold, 1 does not hold"


def test_zwp_s_verdict_says_what_was_saved_against_the_threshold() -> None:
    """Referee S4: "saves 0.56% (0.46-0.67%), below the harness's 1% threshold", not a bare
    "does not hold": the note claims no size."""
    from harness.reproduce.claims.zwp import saving_text, verdict_text

    band = Band.parse("(0, 0.99]")
    assert saving_text(ratio(0.9944, 0.9933, 0.9954), band) == (
        "saves 0.56% (0.46% to 0.67%), below the harness's 1% threshold")
    assert saving_text(ratio(0.97, 0.96, 0.985), band).endswith("beyond the harness's 1% threshold")
    assert saving_text(ratio(0.98, 0.97, 0.995), band).endswith("straddling the harness's 1% threshold")
    assert saving_text(ratio(1.02, 1.01, 1.03), band).startswith("costs 2.00% (3.00% more to 1.00% more)")
    assert saving_text(ratio(1.0048, 0.9969, 1.0162), band) == (
        "costs 0.48% (1.62% more to 0.31%), below the harness's 1% threshold")
    numbers = zwp_numbers()
    numbers["sets"]["chess, full window"]["improvement"] = ratio(0.9944, 0.9933, 0.9954, 150)
    checks = judge_zwp(numbers)
    assert checks[2].outcome == FAILS
    assert verdict_text(checks) == (
        "2 of 3 checks hold, 1 does not hold (chess, full window: the improvement saves 0.56% "
        "(0.46% to 0.67%), below the harness's 1% threshold)")
    assert verdict_text(judge_zwp(zwp_numbers())) == HOLDS      # nothing to explain


def test_zwp_s_full_window_zwp_pv_is_reported_as_predicted_by_mechanism() -> None:
    from harness.reproduce.claims.zwp import _measured

    numbers = {**zwp_numbers(), "chess_against_pvs": None}
    numbers["sets"]["chess, full window"]["zwp-pv"] = ratio(0.99981, 0.99972, 0.99991)
    for found in numbers["sets"].values():
        for label in found:
            found[label].setdefault("differ", 0.0)
    text = _measured(numbers)
    # 4 decimals: 3 would print 1.000 to 1.000 and hide that the interval excludes 1
    assert "zwp-pv / zwp 0.9998 (0.9997 to 0.9999) (not judged: predicted by mechanism" in text
    assert "aspiration:inner=zwp-pv / aspiration:inner=zwp 0.9700 (0.9500 to 0.9850)." in text


def summary(value: float, low: float, high: float, n: int = 10, more: int = 0) -> dict[str, float]:
    return {**ratio(value, low, high, n), "more": float(more)}


def ordering_numbers(models: tuple[str, ...] = ("distinct", "tied")) -> dict[str, Any]:
    """Claim 8's numbers where every statement holds (each test breaks one)."""
    zw = ("pvs", "negascout")
    levels = [f"{k / 10:.1f}" for k in range(11)]
    return {
        "variants": {v: {m: {"0.9": summary(0.95, 0.92, 0.98),
                             "random": summary(1.2, 1.1, 1.3, more=7)} for m in models}
                     for v in zw},
        "advantage_shrinks": {m: {v: ratio(1.25, 1.1, 1.4) for v in zw} for m in models},
        "research_nodes": {m: {v: ratio(40.0, 10.0, 150.0) for v in zw} for m in models},
        "can_lose": {m: {v: rate(0.6, 0.45, 0.75) for v in zw} for m in models},
        "alphabeta_by_level": {m: {
            "steps": [{"from": a, "to": b, **ratio(0.8, 0.7, 0.9)}
                      for a, b in itertools.pairwise(levels)],
            "overall": {"from": "0.0", "to": "1.0", **ratio(0.07, 0.06, 0.08)}} for m in models},
        "minimal_tree": {"model": "distinct", "level": "1.0", "b": 6, "d": 6, "formula": 431,
                         "variants": {v: {"trees": 8, "exact": 8} for v in ("alphabeta", *zw)}},
    }


def rate(mean: float, low: float, high: float, n: int = 40) -> dict[str, float]:
    """A loss rate (:func:`harness.reproduce.claims.ordering.loss_rate`)."""
    return {"mean": mean, "low": low, "high": high, "n": float(n), "level": 0.95,
            "more": float(round(mean * n))}


def outcome_by_label(numbers: dict[str, Any]) -> dict[str, str]:
    return {label: c.outcome for label, c in rp.ordering_statements(numbers)}


def synthetic_verdict(checks: list[Check]) -> str:
    """Claim 8's synthetic checks' own verdict (rules version 6: an extension of the claim,
    which is judged on chess; these numbers have no chess)."""
    assert all(c.kind != CLAIM for c in checks)
    return verdict_of([replace(c, kind=CLAIM) if c.kind == EXTENSION else c for c in checks])


THEOREMS_8 = {"distinct: alpha-beta falls monotonically", "tied: alpha-beta falls monotonically",
              "minimal tree at p = 1"}
"""Claim 8's correctness checks (properties of the setup, not of the texts)."""


def test_ordering_checks_hold_on_numbers_that_agree_with_the_texts() -> None:
    numbers = ordering_numbers()
    checks = judge_ordering(numbers)
    assert len(checks) == 11 and synthetic_verdict(checks) == HOLDS
    assert [c for _, c in rp.ordering_statements(numbers)] == checks
    assert all(c.statement and c.measured and c.band for c in checks)
    kinds = {label: c.kind for label, c in rp.ordering_statements(numbers)}
    assert {label for label, kind in kinds.items() if kind == THEOREM} == THEOREMS_8


def test_ordering_good_ordering_must_save_for_every_zero_window_variant() -> None:
    numbers = ordering_numbers()
    numbers["variants"]["negascout"]["tied"]["0.9"] = summary(0.97, 0.90, 1.01)   # reaches 1
    found = outcome_by_label(numbers)
    assert found["tied: good ordering saves"] == INCONCLUSIVE
    assert found["distinct: good ordering saves"] == HOLDS
    assert synthetic_verdict(judge_ordering(numbers)) == "7 of 8 checks hold, 1 inconclusive"
    numbers["variants"]["negascout"]["tied"]["0.9"] = summary(1.03, 1.01, 1.05)   # costs
    assert outcome_by_label(numbers)["tied: good ordering saves"] == FAILS
    assert synthetic_verdict(judge_ordering(numbers)) == "7 of 8 checks hold, 1 does not hold"


def test_ordering_advantage_must_shrink_with_random_ordering() -> None:
    numbers = ordering_numbers()
    label = "distinct: the advantage shrinks with random ordering"
    numbers["advantage_shrinks"]["distinct"]["pvs"] = ratio(1.18, 0.95, 1.41)     # reaches 1
    assert outcome_by_label(numbers)[label] == INCONCLUSIVE
    numbers["advantage_shrinks"]["distinct"]["pvs"] = ratio(0.9, 0.85, 0.95)      # grows instead
    assert outcome_by_label(numbers)[label] == FAILS


def test_ordering_random_ordering_must_cost_more_re_search() -> None:
    numbers = ordering_numbers()
    numbers["research_nodes"]["tied"]["negascout"] = ratio(1.5, 0.8, 3.0)
    found = outcome_by_label(numbers)
    assert found["tied: more re-search with random ordering"] == INCONCLUSIVE
    assert found["distinct: more re-search with random ordering"] == HOLDS


def test_ordering_loses_is_a_rate_against_its_smallest_effect() -> None:
    """Rules version 7 (referee S3): "can lose" is a share of trees of at least 10%, not one
    tree: one tree in 40 no longer holds it."""
    numbers = ordering_numbers()
    label = "distinct: loses with random ordering"
    assert outcome_by_label(numbers)[label] == HOLDS
    numbers["can_lose"]["distinct"]["pvs"] = rate(0.025, 0.0, 0.075)      # one tree of 40
    assert outcome_by_label(numbers)[label] == FAILS
    numbers["can_lose"]["distinct"]["pvs"] = rate(0.15, 0.05, 0.25)
    assert outcome_by_label(numbers)[label] == INCONCLUSIVE
    check = dict(rp.ordering_statements(numbers))[label]
    assert "[0.1, 1]" in check.statement
    assert "15.0% (95% interval 5.0% to 25.0%; more on 6 of 40 trees)" in check.measured


def test_ordering_alpha_beta_must_not_rise_significantly_at_any_step() -> None:
    label = "tied: alpha-beta falls monotonically"
    numbers = ordering_numbers()
    steps = numbers["alphabeta_by_level"]["tied"]["steps"]
    steps[4] = {**steps[4], **ratio(1.02, 0.97, 1.08)}        # a rise within the noise
    assert outcome_by_label(numbers)[label] == HOLDS
    steps[4] = {**steps[4], **ratio(1.10, 1.03, 1.18)}        # a significant rise
    check = dict(rp.ordering_statements(numbers))[label]
    assert check.outcome == FAILS and check.kind == THEOREM and "0.4 to 0.5" in check.measured
    assert synthetic_verdict(judge_ordering(numbers)) == HOLDS       # a correctness check: not the verdict
    numbers = ordering_numbers()
    numbers["alphabeta_by_level"]["tied"]["overall"].update(ratio(0.97, 0.9, 1.02))
    assert outcome_by_label(numbers)[label] == INCONCLUSIVE   # no overall fall shown
    numbers["alphabeta_by_level"]["tied"]["steps"] = []
    assert outcome_by_label(numbers)[label] == INCONCLUSIVE   # nothing measured


def test_ordering_minimal_tree_is_exact() -> None:
    numbers = ordering_numbers()
    numbers["minimal_tree"]["variants"]["negascout"]["exact"] = 7
    check = dict(rp.ordering_statements(numbers))["minimal tree at p = 1"]
    assert check.outcome == FAILS and "7 of 8" in check.measured and "431" in check.statement
    assert check.kind == THEOREM
    numbers["minimal_tree"]["variants"] = {"pvs": {"trees": 0, "exact": 0}}
    assert outcome_by_label(numbers)["minimal tree at p = 1"] == INCONCLUSIVE


def failing_ordering_numbers() -> dict[str, Any]:
    """Claim 8's numbers against every statement of the texts, on both value models, with
    a correct implementation (both correctness checks pass)."""
    numbers = ordering_numbers()
    for model in ("distinct", "tied"):
        for v in ("pvs", "negascout"):
            numbers["variants"][v][model] = {"0.9": summary(1.1, 1.05, 1.2),
                                             "random": summary(0.9, 0.85, 0.95, more=0)}
            numbers["advantage_shrinks"][model][v] = ratio(0.8, 0.7, 0.9)
            numbers["research_nodes"][model][v] = ratio(0.5, 0.3, 0.8)
            numbers["can_lose"][model][v] = rate(0.0, 0.0, 0.0)
    return numbers


def test_ordering_can_come_out_does_not_hold() -> None:
    """Issue 19: with the theorems in the verdict, claim 8 could not fail (they always pass
    with a correct implementation, and "does not hold" needed every check to fail)."""
    numbers = failing_ordering_numbers()
    statements = rp.ordering_statements(numbers)
    checks = [c for _, c in statements]
    assert len(checks) == 11 and synthetic_verdict(checks) == FAILS
    assert {label for label, c in statements if c.passed} == THEOREMS_8
    assert all(c.outcome == FAILS for c in checks if c.kind != THEOREM)


def test_ordering_verdict_says_when_nothing_holds() -> None:
    numbers = ordering_numbers(("distinct",))
    for v in ("pvs", "negascout"):
        numbers["variants"][v]["distinct"] = {"0.9": summary(1.1, 1.05, 1.2),
                                              "random": summary(0.9, 0.85, 0.95, more=0)}
        numbers["advantage_shrinks"]["distinct"][v] = ratio(0.8, 0.7, 0.9)
        numbers["research_nodes"]["distinct"][v] = ratio(0.5, 0.3, 0.8)
        numbers["can_lose"]["distinct"][v] = rate(0.0, 0.0, 0.0)
    numbers["alphabeta_by_level"]["distinct"]["overall"].update(ratio(1.2, 1.1, 1.3))
    numbers["minimal_tree"]["variants"]["pvs"]["exact"] = 0
    checks = judge_ordering(numbers)
    assert len(checks) == 6 and synthetic_verdict(checks) == FAILS
    assert [c.outcome for c in checks if c.kind == THEOREM] == [FAILS, FAILS]


# --- the theorems behind the correctness checks ------------------------------------------

def nodes(spec: str, index: int, variant: str, counter: str = "nodes") -> int:
    tree = generate_tree(parse_spec(spec), index)
    return int(run_search(tree, parse_variants(variant)[0], tree.shape.height).counters[counter])


SMALL_TREES = [f"random:b={b},d={d},n=3,seed=3,ordering={p},{values}"
               for b, d in ((3, 4), (5, 3), (2, 7))
               for p in ("0.0", "0.5", "0.9", "random")
               for values in ("values=uniform,range=1000000000", "values=incremental,range=50")]
"""Small trees of the sweep's kinds: both value models, several orderings."""


def test_theorem_pvs_and_negascout_expand_the_same_tree_without_ties() -> None:
    """Claim 6's correctness check: with distinct values PVS and NegaScout cannot part."""
    for spec in (s for s in SMALL_TREES if "uniform" in s):
        for i in range(3):
            assert nodes(spec, i, "pvs") == nodes(spec, i, "negascout"), (spec, i)


def test_theorem_the_improvement_never_costs_without_a_table() -> None:
    """Claim 7's correctness check: without a table, zwp never searches more than
    zwp:improve=0 (it only leaves out searches that cannot change alpha)."""
    for spec in SMALL_TREES:
        for i in range(3):
            assert nodes(spec, i, "zwp") <= nodes(spec, i, "zwp:improve=0"), (spec, i)


def test_theorem_minimal_tree_when_the_best_child_is_always_first() -> None:
    """Claim 8's correctness check: at p = 1 with distinct values, Knuth and Moore's tree."""
    for b, d in ((3, 4), (4, 3), (2, 6)):
        spec = f"random:b={b},d={d},n=2,seed=3,ordering=1.0,values=uniform,range=1000000000"
        for variant in ("alphabeta", "pvs", "negascout"):
            for i in range(2):
                assert nodes(spec, i, variant, "leaves") == knuth_moore(b, d), (spec, variant, i)


def test_theorem_alpha_beta_falls_as_the_same_trees_are_better_ordered() -> None:
    """Claim 8's correctness check, in its statistical form: over trees, alpha-beta's nodes
    fall at every step of p and overall. Not tree by tree: one tree below takes one more
    node at p = 0.7 than at 0.6."""
    levels = [f"{k / 10:.1f}" for k in range(11)]
    for values in ("values=uniform,range=1000000000", "values=incremental,range=50"):
        per_level = [[nodes(f"random:b=4,d=5,n=6,seed=3,ordering={p},{values}", i, "alphabeta")
                      for i in range(6)] for p in levels]
        means = [math.exp(sum(math.log(x) for x in row) / len(row)) for row in per_level]
        assert all(b <= a for a, b in itertools.pairwise(means)), (values, means)
        assert all(last < first for first, last in zip(per_level[0], per_level[-1], strict=True))
    one = "random:b=2,d=8,n=8,seed=3,ordering={},values=uniform,range=1000000000"
    assert nodes(one.format("0.7"), 0, "alphabeta") > nodes(one.format("0.6"), 0, "alphabeta")


def test_level_runs_compress_consecutive_levels() -> None:
    assert level_runs(["0.3", "0.5", "0.6", "0.7", "1.0"]) == "0.3, 0.5-0.7, 1.0"
    assert level_runs([]) == "none"


def test_unknown_claims_are_refused(tmp_path: Path) -> None:
    with pytest.raises(HarnessError, match="unknown claim 'nine'"):
        reproduce(tmp_path, quick=True, only=["nine"])
    with pytest.raises(HarnessError, match="needs at least 1"):
        reproduce(tmp_path, quick=True, jobs=0, only=["1"])


@pytest.mark.parametrize("scale", [TINY, rp.measure.QUICK, rp.measure.FULL], ids=["tiny", "quick", "full"])
def test_the_scale_is_written_in_words(scale: Scale) -> None:
    """The report's Scale paragraph names every field of the scale, its lists and pairs in
    words (``2, 3 and 4``, ``branching 3 to depth 10``), never as Python's tuples."""
    from dataclasses import fields

    from harness.reproduce.document import SCALE_WORDS, listed, scale_items

    assert {name for names in SCALE_WORDS for name in names} == {f.name for f in fields(Scale)}
    items = scale_items(scale)
    text = "\n".join(items)
    assert not re.search(r"[()\[\]{}]|'\w+'", text), text
    assert f"branching {listed(scale.km_branchings)}, every depth with at most " \
        f"{scale.km_max_leaves:,} leaves" in text
    assert all(f"branching {b} to depth {d}" in text for b, d in scale.pearl)
    assert all(f"{name} {seed}" in text for name, seed in scale.seeds)
    assert all(f"{name} {count:,} problems at depths {first} to {last}" in text
               for name, count, first, last in scale.games)
    assert listed([]) == "none" and listed([2, 3, 4]) == "2, 3 and 4"
