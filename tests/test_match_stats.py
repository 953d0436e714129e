"""The match statistics against the published worked examples of fastchess and fishtest.

fastchess's counts are ``Stats(LL, LD, WL, DD, WD, WW)`` (``app/src/matchmaking/stats.hpp``);
the expected values are those of its tests ``app/tests/sprt_test.cpp`` ("normalized
pentanomial 1, 2") and ``app/tests/elo_test.cpp`` ("EloPentanomial 1-3"), which check them
to 1%. Here they are checked to their two printed decimals.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.errors import HarnessError
from harness.match.stats import Pentanomial, Sprt, elo_of, estimate


def fastchess(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> Pentanomial:
    """fastchess's six counts as five classes (a win and a loss scores as two draws)."""
    return Pentanomial(ll, ld, wl + dd, wd, ww)


@pytest.mark.parametrize(("counts", "sprt", "llr"), [
    (fastchess(365, 16618, 36029, 200, 16974, 390), Sprt(0, 2), 2.25),
    (fastchess(127, 4883, 10311, 401, 5150, 104), Sprt(-1.75, 0.25), 3.01),
])
def test_llr_matches_fastchess_published_cases(counts: Pentanomial, sprt: Sprt, llr: float) -> None:
    assert sprt.llr(counts) == pytest.approx(llr, abs=0.005)


def test_fastchess_degenerate_case_is_known_to_differ() -> None:
    """fastchess's "normalized pentanomial 3" (104 pairs, every one won twice; bounds 0, 5)
    expects 2.94. Its own procedure (``sprt.cpp`` at 05d6451: zero counts regularized to
    1e-3, the fixed point of section 4.1 of Van den Bergh's note from a uniform start,
    theta by ITP) followed step by step gives 2.0950 there, as this module does, while it
    gives that test's 2.25 for "normalized pentanomial 1": the 2.94 is not what the
    published procedure computes, so the case is pinned here rather than matched, and a
    change to it is seen."""
    assert Sprt(0, 5).llr(fastchess(0, 0, 0, 0, 0, 104)) == pytest.approx(2.0950, abs=5e-4)


def test_fishtest_default_bounds() -> None:
    """fishtest's alpha = beta = 0.05 gives the bounds it prints, (-2.94, 2.94)."""
    lower, upper = Sprt().bounds
    assert (round(lower, 2), round(upper, 2)) == (-2.94, 2.94)
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert Sprt().decision(2.95) == "H1"
    assert Sprt().decision(-2.95) == "H0"
    assert Sprt().decision(2.9) is None


@pytest.mark.parametrize(("counts", "nelo", "nelo_error", "elo", "elo_error", "los"), [
    (fastchess(34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, 1.0),
    (fastchess(332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, 0.0505),
    (fastchess(7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, None),
])
def test_elo_matches_fastchess_published_cases(counts: Pentanomial, nelo: float, nelo_error: float,
                                               elo: float, elo_error: float, los: float | None) -> None:
    found = estimate(counts)
    assert found is not None
    assert round(found.nelo, 2) == nelo
    assert round(found.nelo_error, 2) == nelo_error
    assert round(found.elo, 2) == elo
    assert round(found.elo_error, 2) == elo_error
    if los is not None:
        assert round(found.los, 4) == los
    assert found.interval == (found.elo - found.elo_error, found.elo + found.elo_error)


def test_no_pairs_no_estimate_and_a_zero_llr() -> None:
    assert estimate(Pentanomial()) is None
    assert Sprt().llr(Pentanomial()) == 0.0


def test_counting_pairs() -> None:
    counts = Pentanomial.of([0, 0.5, 1, 1, 1.5, 2, 2, 2])
    assert counts.counts == (1, 1, 2, 1, 3)
    assert counts.pairs == 8
    with pytest.raises(HarnessError, match="0 to 2 points"):
        counts.add(0.3)
    with pytest.raises(HarnessError, match="0 to 2 points"):
        counts.add(2.5)


def test_elo_of_scores() -> None:
    assert elo_of(0.5) == 0
    assert elo_of(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_of(0.0) == -math.inf and elo_of(1.0) == math.inf


@pytest.mark.parametrize(("text", "message"), [
    ("2,0", "elo0 .* must be below elo1"),
    ("0,2,0,0.05", "alpha=0.0 must be between 0 and 1"),
    ("0,2,0.6,0.6", "alpha \\+ beta must be below 1"),
    ("0,2,0.05", "not elo0,elo1"),
    ("a,b", "not numbers"),
    ("0,nan", "not finite"),
])
def test_bad_sprt_text(text: str, message: str) -> None:
    with pytest.raises(HarnessError, match=message):
        Sprt.parse(text)


def test_sprt_text() -> None:
    assert Sprt.parse("0,2") == Sprt()
    assert Sprt.parse("-1.75, 0.25, 0.1, 0.2") == Sprt(-1.75, 0.25, 0.1, 0.2)


counts_strategy = st.tuples(*[st.integers(0, 300)] * 5).filter(lambda c: sum(c) > 0)


@given(counts_strategy, st.floats(0.5, 5))
def test_swapping_the_sides_mirrors_everything(counts: tuple[int, ...], elo: float) -> None:
    """B against A is A against B reflected: the estimates change sign, and a symmetric
    test's LLR too."""
    forward, backward = Pentanomial(*counts), Pentanomial(*reversed(counts))
    sprt = Sprt(-elo, elo)
    assert sprt.llr(backward) == pytest.approx(-sprt.llr(forward), abs=1e-6)
    ahead, behind = estimate(forward), estimate(backward)
    assert ahead is not None and behind is not None
    assert behind.nelo == pytest.approx(-ahead.nelo, abs=1e-9)
    assert behind.score == pytest.approx(1 - ahead.score)


@given(counts_strategy)
def test_a_better_pair_raises_the_llr(counts: tuple[int, ...]) -> None:
    """One more pair of two wins is more evidence for H1 than one more pair of two losses."""
    base = Pentanomial(*counts)
    assert Sprt().llr(base.add(2)) > Sprt().llr(base.add(0))


@pytest.mark.parametrize(("counts", "elo", "why"), [
    (Pentanomial(even=4), 0.0, "no decisive pair, each scored 1 point of 2"),
    (Pentanomial(ww=3), math.inf, "every game won by A, a score of 100%"),
    (Pentanomial(ll=2), -math.inf, "every game lost by A, a score of 0%"),
    (Pentanomial(wd=5), elo_of(0.75), "every pair scored 1.5 points of 2"),
])
def test_pairs_all_alike_leave_the_interval_undefined(counts: Pentanomial, elo: float,
                                                      why: str) -> None:
    """Pairs that all scored alike show no spread: the interval is undefined, never a band
    of zero width (``Elo 0.00 +/- 0.00`` for four drawn pairs before)."""
    found = estimate(counts)
    assert found is not None and found.elo == elo and found.undefined == why
    assert found.interval is None and math.isnan(found.elo_error) and math.isnan(found.nelo_error)
    assert found.text() == f"Elo {elo:.2f} (interval undefined: {why})"
    assert "+/-" not in found.text()


def test_pairs_that_differ_have_an_interval() -> None:
    found = estimate(Pentanomial(even=3, wd=1))
    assert found is not None and not found.undefined and found.elo_error > 0
    assert found.text() == (f"Elo {found.elo:.2f} +/- {found.elo_error:.2f}, nElo {found.nelo:.2f} "
                            f"+/- {found.nelo_error:.2f}")


@given(st.lists(st.sampled_from([0, 0.5, 1, 1.5, 2]), min_size=1, max_size=30))
def test_the_interval_is_undefined_exactly_when_every_pair_scored_alike(points: list[float]) -> None:
    found = estimate(Pentanomial.of(points))
    assert found is not None
    assert (found.interval is None) == (len(set(points)) == 1)
    if found.interval is not None:
        assert found.interval[0] < found.interval[1]
