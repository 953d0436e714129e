"""Paired statistics for node counts: variant B against baseline A on the same problems.

Pure functions on NumPy arrays. ``a`` holds the baseline's counts and ``b`` the other
variant's, element ``i`` of both being the same problem; the ratio of a problem is
``b / a``, so a ratio below 1 means B searched fewer nodes.

Zero counts. A ratio with a zero side has no logarithm, so a pair where either count is
zero is given one more on both sides: ``(b + 1) / (a + 1)`` (a pair of two zeros is a
tie, ratio 1). Pairs without a zero are left exactly as they are. Node counts are never
zero (the root is always counted), so this only matters for other counters.

The interval of the geometric mean is a paired percentile bootstrap: problems are drawn
with replacement (a drawn problem brings both of its counts), the mean log ratio of each
resample is computed, and the percentiles of those means are exponentiated. The random
numbers come from ``numpy.random.Generator(PCG64(seed))``, so an interval is a pure
function of the data, the seed and the number of resamples.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from harness.errors import HarnessError

FloatArray = npt.NDArray[np.float64]

DEFAULT_RESAMPLES = 10_000
"""Bootstrap resamples unless told otherwise."""

_CHUNK_CELLS = 2_000_000
"""Resample indices drawn at a time (bounds memory; fixed, so results never depend on it)."""


def _counts(name: str, values: npt.ArrayLike) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise HarnessError(f"{name}: expected a one-dimensional array of counts")
    if array.size and (not np.isfinite(array).all() or (array < 0).any()):
        raise HarnessError(f"{name}: counts must be finite and not negative")
    return array


def _pair(a: npt.ArrayLike, b: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    first, second = _counts("baseline counts", a), _counts("other counts", b)
    if first.shape != second.shape:
        raise HarnessError(f"paired counts differ in length ({first.size} and {second.size})")
    return first, second


def _positive(ratios: npt.ArrayLike) -> FloatArray:
    array = np.asarray(ratios, dtype=np.float64)
    if array.ndim != 1:
        raise HarnessError("ratios: expected a one-dimensional array")
    if array.size and (not np.isfinite(array).all() or (array <= 0).any()):
        raise HarnessError("ratios must be finite and positive (see the zero-count rule)")
    return array


def ratios(a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """Per-problem ratios ``b / a``, with the zero-count rule of this module's docstring."""
    first, second = _pair(a, b)
    zero = (first == 0) | (second == 0)
    return np.where(zero, second + 1, second) / np.where(zero, first + 1, first)


def log_ratios(a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """Natural logarithms of :func:`ratios`: 0 is a tie, negative means B searched fewer."""
    return np.log(ratios(a, b))


def geometric_mean(values: npt.ArrayLike) -> float:
    """Geometric mean of positive ratios; NaN for none."""
    array = _positive(values)
    if array.size == 0:
        return math.nan
    return float(np.exp(np.mean(np.log(array))))


def geometric_mean_ratio(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """Geometric mean of the per-problem ratios ``b / a``; NaN for no problems."""
    return geometric_mean(ratios(a, b))


def median_ratio(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """Median of the per-problem ratios ``b / a``; NaN for no problems."""
    values = ratios(a, b)
    return float(np.median(values)) if values.size else math.nan


def bootstrap_interval(values: npt.ArrayLike, seed: int = 0, resamples: int = DEFAULT_RESAMPLES,
                       level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the geometric mean of positive per-problem ratios.

    Problems are resampled with replacement ``resamples`` times with
    ``Generator(PCG64(seed))``; the interval is the ``(1 - level) / 2`` and
    ``(1 + level) / 2`` quantiles of the resampled geometric means. ``(nan, nan)`` for no
    problems; a single problem gives its own ratio twice.
    """
    if resamples < 1:
        raise HarnessError(f"bootstrap resamples {resamples} must be at least 1")
    if not 0 < level < 1:
        raise HarnessError(f"interval level {level} must lie strictly between 0 and 1")
    logs = np.log(_positive(values))
    n = logs.size
    if n == 0:
        return math.nan, math.nan
    rng = np.random.Generator(np.random.PCG64(seed))
    means = np.empty(resamples, dtype=np.float64)
    rows = max(1, _CHUNK_CELLS // n)
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        picks = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = logs[picks].mean(axis=1)
    tail = (1 - level) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(np.exp(low)), float(np.exp(high))


def paired_bootstrap_interval(a: npt.ArrayLike, b: npt.ArrayLike, seed: int = 0,
                              resamples: int = DEFAULT_RESAMPLES,
                              level: float = 0.95) -> tuple[float, float]:
    """:func:`bootstrap_interval` of the per-problem ratios ``b / a`` (pairs stay together)."""
    return bootstrap_interval(ratios(a, b), seed, resamples, level)


def wins_ties_losses(a: npt.ArrayLike, b: npt.ArrayLike) -> tuple[int, int, int]:
    """Problems where B searched fewer nodes than A (wins for B), as many, and more."""
    first, second = _pair(a, b)
    return (int(np.sum(second < first)), int(np.sum(second == first)),
            int(np.sum(second > first)))


def sign_test_exact(wins: int, losses: int) -> Fraction:
    """Exact two-sided sign-test p-value as a fraction (ties are left out beforehand).

    Under the null hypothesis each non-tied problem is a win with probability 1/2, so
    ``p = min(1, 2 * P[X <= min(wins, losses)])`` with ``X ~ Binomial(wins + losses, 1/2)``,
    summed exactly with :func:`math.comb`. No non-tied problem: ``p = 1``.
    """
    if wins < 0 or losses < 0:
        raise HarnessError(f"sign test: negative counts ({wins} wins, {losses} losses)")
    n = wins + losses
    tail = sum(math.comb(n, k) for k in range(min(wins, losses) + 1))
    return min(Fraction(1), Fraction(2 * tail, 2 ** n))


def sign_test(wins: int, losses: int) -> float:
    """:func:`sign_test_exact` as a float."""
    return float(sign_test_exact(wins, losses))


def rate(numerator: npt.ArrayLike, denominator: npt.ArrayLike) -> float:
    """``sum(numerator) / sum(denominator)`` (a ratio of totals); NaN when the denominator is 0."""
    top = float(np.sum(np.asarray(numerator, dtype=np.float64)))
    bottom = float(np.sum(np.asarray(denominator, dtype=np.float64)))
    return top / bottom if bottom > 0 else math.nan
