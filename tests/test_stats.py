"""Paired statistics: exact sign test, seeded bootstrap, geometric means, zero counts."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from harness.errors import HarnessError
from harness.report import stats


def test_sign_test_exact_values() -> None:
    assert stats.sign_test_exact(9, 1) == Fraction(22, 1024)
    assert stats.sign_test(9, 1) == 22 / 1024
    assert stats.sign_test(1, 9) == 22 / 1024
    assert stats.sign_test_exact(10, 0) == Fraction(2, 1024)
    assert stats.sign_test_exact(15, 5) == Fraction(2 * sum(math.comb(20, k) for k in range(6)), 2**20)
    assert stats.sign_test(5, 5) == 1.0
    assert stats.sign_test(1, 0) == 1.0
    assert stats.sign_test(0, 0) == 1.0


def test_sign_test_matches_enumeration_of_outcomes() -> None:
    # two-sided: the probability of every outcome at least as far from n/2 as the observed one
    for n in range(0, 13):
        for wins in range(n + 1):
            extreme = sum(math.comb(n, k) for k in range(n + 1)
                          if abs(2 * k - n) >= abs(2 * wins - n))
            assert stats.sign_test_exact(wins, n - wins) == min(Fraction(1), Fraction(extreme, 2**n))


def test_sign_test_large_counts_stay_exact() -> None:
    p = stats.sign_test(600, 400)
    assert 0 < p < 1e-9


def test_sign_test_rejects_negative_counts() -> None:
    with pytest.raises(HarnessError):
        stats.sign_test(-1, 3)


def test_ratios_and_zero_rule() -> None:
    a = np.array([0, 5, 0, 4])
    b = np.array([0, 10, 3, 0])
    assert stats.ratios(a, b).tolist() == [1.0, 2.0, 4.0, 0.2]
    assert stats.log_ratios([2], [2]).tolist() == [0.0]


@pytest.mark.parametrize(("a", "b"), [([1, -2], [1, 2]), ([1, 2], [1, math.nan]), ([1, 2], [1])])
def test_bad_counts_raise(a: list[float], b: list[float]) -> None:
    with pytest.raises(HarnessError):
        stats.ratios(a, b)


def test_geometric_means_and_median() -> None:
    assert stats.geometric_mean([2.0, 0.5]) == pytest.approx(1.0)
    assert stats.geometric_mean([4.0, 1.0]) == pytest.approx(2.0)
    assert math.isnan(stats.geometric_mean([]))
    assert stats.geometric_mean_ratio([10, 10, 10], [20, 5, 10]) == pytest.approx(1.0)
    assert stats.median_ratio([10, 10, 10], [20, 5, 30]) == 2.0
    assert math.isnan(stats.median_ratio([], []))
    with pytest.raises(HarnessError):
        stats.geometric_mean([1.0, 0.0])


def test_wins_ties_losses_counts_fewer_nodes_as_wins() -> None:
    assert stats.wins_ties_losses([10, 10, 10, 10], [5, 10, 20, 9]) == (2, 1, 1)


def test_rate_is_a_ratio_of_totals() -> None:
    assert stats.rate([1, 3], [4, 4]) == 0.5
    assert math.isnan(stats.rate([0, 0], [0, 0]))


def _sample() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    a = rng.integers(100, 1000, size=40)
    b = np.round(a * rng.lognormal(-0.1, 0.3, size=40)).astype(int)
    return a, b


def test_bootstrap_is_seeded_and_contains_the_geometric_mean() -> None:
    a, b = _sample()
    first = stats.paired_bootstrap_interval(a, b, seed=3)
    assert first == stats.paired_bootstrap_interval(a, b, seed=3)
    assert first != stats.paired_bootstrap_interval(a, b, seed=4)
    low, high = first
    assert low < stats.geometric_mean_ratio(a, b) < high
    wide = stats.paired_bootstrap_interval(a, b, seed=3, level=0.99)
    assert wide[0] <= low and high <= wide[1]


def test_bootstrap_matches_a_plain_reference_across_chunks() -> None:
    rng = np.random.default_rng(1)
    values = rng.lognormal(0.0, 0.5, size=700)  # 700 problems: several chunks of resamples
    resamples = 9000
    reference_rng = np.random.Generator(np.random.PCG64(11))
    picks = reference_rng.integers(0, values.size, size=(resamples, values.size))
    means = np.log(values)[picks].mean(axis=1)
    expected = tuple(float(x) for x in np.exp(np.quantile(means, [0.025, 0.975])))
    found = stats.bootstrap_interval(values, seed=11, resamples=resamples)
    assert found == pytest.approx(expected, rel=1e-12)


def test_bootstrap_edge_cases() -> None:
    assert stats.bootstrap_interval([1.5]) == pytest.approx((1.5, 1.5))
    assert stats.bootstrap_interval([2.0, 2.0, 2.0]) == pytest.approx((2.0, 2.0))
    low, high = stats.bootstrap_interval([])
    assert math.isnan(low) and math.isnan(high)
    with pytest.raises(HarnessError):
        stats.bootstrap_interval([1.0], resamples=0)
    with pytest.raises(HarnessError):
        stats.bootstrap_interval([1.0], level=1.0)
