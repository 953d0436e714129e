"""The statistics of a match played in game pairs: pentanomial counts, Elo with a 95%
interval, normalized Elo, and the generalized SPRT on normalized Elo.

A pair is one opening played twice with the colours swapped; its score for side A is 0,
1/2, 1, 3/2 or 2 points, so the pairs fall into five classes (the pentanomial model,
``LL, LD, DD+WL, WD, WW``). Pairs, not games, are the independent samples: the two games
of an opening are correlated, and counting them apart understates the variance.

Normalized Elo (Van den Bergh, *Comments on Normalized Elo*, cantate.be/Fishtest) is the
score's distance from 1/2 in units of its standard deviation per game, times
``800 / ln 10``: it measures how quickly a test can tell the sides apart, whatever the
draw rate. The GSPRT compares the likelihood of the observed pairs under the two
hypotheses ``nelo = elo0`` and ``nelo = elo1``, each at its maximum-likelihood
distribution with that normalized Elo (section 4.1 of that note), and stops when the
log-likelihood ratio leaves ``(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))``.

The formulas are those of fishtest (``server/fishtest/stats/LLRcalc.py``: ``MLE_t_value``,
``LLR_normalized``; zero counts regularized to 1e-3) and fastchess
(``app/src/matchmaking/sprt/sprt.cpp``, ``elo_pentanomial.cpp``); the tests check this code
against their published cases. Everything here is plain arithmetic on counts, with no game
or search in sight.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.errors import HarnessError

NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of t-value (the slope of the logistic Elo curve at 1/2, in
t units): 347.4355..."""
Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""
REGULARIZE = 1e-3
"""What an empty class counts as (fishtest's and fastchess's prior): a likelihood with a
zero probability has no logarithm."""
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score per game for each pentanomial class, LL to WW."""
PAIR_CLASSES = ("LL", "LD", "DD+WL", "WD", "WW")
"""The pentanomial classes, the pair's points 0 to 2 for side A."""


@dataclass(frozen=True)
class Pentanomial:
    """Counts of game pairs by the points side A scored in them (0 to 2, by halves)."""

    ll: int = 0
    """Pairs A lost twice (0 points)."""
    ld: int = 0
    """A loss and a draw (1/2 point)."""
    even: int = 0
    """Two draws or a win and a loss (1 point)."""
    wd: int = 0
    """A win and a draw (3/2 points)."""
    ww: int = 0
    """Two wins (2 points)."""

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """The five counts, LL to WW (fastchess's ``Ptnml(0-2)``)."""
        return (self.ll, self.ld, self.even, self.wd, self.ww)

    @property
    def pairs(self) -> int:
        """Pairs counted."""
        return sum(self.counts)

    def add(self, points: float) -> Pentanomial:
        """These counts with one more pair in which A scored ``points`` (0 to 2)."""
        index = round(points * 2)
        if not 0 <= index <= 4 or index != points * 2:
            raise HarnessError(f"a pair scores 0 to 2 points by halves, not {points}")
        counts = list(self.counts)
        counts[index] += 1
        return Pentanomial(*counts)

    @classmethod
    def of(cls, pair_points: Sequence[float]) -> Pentanomial:
        """The counts of pairs that scored ``pair_points`` for A."""
        counts = cls()
        for points in pair_points:
            counts = counts.add(points)
        return counts


@dataclass(frozen=True)
class Sprt:
    """A generalized SPRT on normalized Elo: ``H0: nelo = elo0`` against ``H1: nelo = elo1``."""

    elo0: float = 0.0
    """Normalized Elo of the null hypothesis (fishtest's default 0)."""
    elo1: float = 2.0
    """Normalized Elo of the alternative (fishtest's default 2)."""
    alpha: float = 0.05
    """Chance of accepting H1 when H0 holds."""
    beta: float = 0.05
    """Chance of accepting H0 when H1 holds."""

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise HarnessError(f"--sprt: elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 1:
                raise HarnessError(f"--sprt: {name}={getattr(self, name)} must be between 0 and 1")
        if self.alpha + self.beta >= 1:
            raise HarnessError("--sprt: alpha + beta must be below 1")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0,elo1,alpha,beta`` (``0,2,0.05,0.05``); the last two may be left out."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) not in (2, 4):
            raise HarnessError(f"--sprt {text!r}: not elo0,elo1[,alpha,beta] (e.g. 0,2,0.05,0.05)")
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            raise HarnessError(f"--sprt {text!r}: not numbers (e.g. 0,2,0.05,0.05)") from None
        if not all(math.isfinite(n) for n in numbers):
            raise HarnessError(f"--sprt {text!r}: not finite numbers")
        return cls(*numbers)

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR bounds: below the first H0 is accepted, above the second H1."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, counts: Pentanomial) -> float:
        """The log-likelihood ratio of H1 against H0 for these pairs (0 before any)."""
        if counts.pairs == 0:
            return 0.0
        total, probabilities = _distribution(counts.counts)
        # Per pair the t-value is sqrt(2) times the per-game one the normalized Elo names.
        t0, t1 = (math.sqrt(2) * elo / NELO_PER_T for elo in (self.elo0, self.elo1))
        p0 = t_value_mle(PAIR_SCORES, probabilities, 0.5, t0)
        p1 = t_value_mle(PAIR_SCORES, probabilities, 0.5, t1)
        return total * sum(p * (math.log(b) - math.log(a))
                           for p, a, b in zip(probabilities, p0, p1, strict=True))

    def decision(self, llr: float) -> str | None:
        """``H1`` or ``H0`` when ``llr`` crossed a bound, else ``None``."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


@dataclass(frozen=True)
class EloEstimate:
    """What the pairs say of A's strength against B."""

    score: float
    """A's mean score per game (0 to 1)."""
    elo: float
    """Logistic Elo of that score, ``-400 log10(1/score - 1)``."""
    elo_error: float
    """Half the width of its 95% interval (fastchess's ``+/-``); NaN where the interval is
    undefined (:attr:`undefined`)."""
    nelo: float
    """Normalized Elo: ``(score - 1/2) / sigma`` per game, times ``800 / ln 10``."""
    nelo_error: float
    """Half the width of the normalized Elo's 95% interval; NaN where undefined."""
    los: float
    """Likelihood of superiority: the chance that A is the stronger, from the normal
    approximation of the score."""
    undefined: str = ""
    """Why the intervals are undefined (every pair scored alike, so the pairs show no
    spread to measure: all draws, all won, all lost); empty: they are defined."""

    @property
    def interval(self) -> tuple[float, float] | None:
        """The Elo's 95% interval; ``None`` where undefined."""
        if self.undefined:
            return None
        return (self.elo - self.elo_error, self.elo + self.elo_error)

    def elo_text(self, digits: int = 2) -> str:
        """The Elo with its interval, ``12.30 +/- 4.50``, or where that is undefined
        ``0.00 (interval undefined: no decisive pair, ...)``: a band of zero width would
        claim a certainty the pairs do not give."""
        if self.undefined:
            return f"{self.elo:.{digits}f} (interval undefined: {self.undefined})"
        return f"{self.elo:.{digits}f} +/- {self.elo_error:.{digits}f}"

    def text(self, digits: int = 2) -> str:
        """``Elo 12.30 +/- 4.50, nElo 10.00 +/- 3.70``; without the normalized Elo where
        the intervals are undefined (a score over a spread of zero)."""
        if self.undefined:
            return f"Elo {self.elo_text(digits)}"
        return f"Elo {self.elo_text(digits)}, nElo {self.nelo:.{digits}f} +/- {self.nelo_error:.{digits}f}"


def elo_of(score: float) -> float:
    """Logistic Elo of a score; infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0       # + 0.0: no -0.0 at an even score


def estimate(counts: Pentanomial) -> EloEstimate | None:
    """Elo and normalized Elo with their 95% intervals from the pairs (as fastchess computes
    them: the counts as they are, not regularized); ``None`` before any pair."""
    pairs = counts.pairs
    if pairs == 0:
        return None
    probabilities = [c / pairs for c in counts.counts]
    score, variance = _mean_variance(PAIR_SCORES, probabilities)
    spread = Z_95 * math.sqrt(variance / pairs)
    low, high = score - spread, score + spread

    def nelo(s: float) -> float:
        return (s - 0.5) / math.sqrt(2 * variance) * NELO_PER_T if variance > 0 else 0.0

    if variance > 0:
        los = (1 - math.erf(-(score - 0.5) / math.sqrt(2 * variance / pairs))) / 2
        return EloEstimate(score, elo_of(score), (elo_of(high) - elo_of(low)) / 2, nelo(score),
                           (nelo(high) - nelo(low)) / 2, los)
    los = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    return EloEstimate(score, elo_of(score), math.nan, nelo(score), math.nan, los,
                       undefined=_no_spread(counts))


def _no_spread(counts: Pentanomial) -> str:
    """Why pairs that all fall in one class give no interval, in a few words."""
    if counts.ww == counts.pairs or counts.ll == counts.pairs:
        return f"every game {'won' if counts.ww else 'lost'} by A, a score of {100 if counts.ww else 0}%"
    if counts.even == counts.pairs:
        return "no decisive pair, each scored 1 point of 2"
    points = 2 * PAIR_SCORES[[bool(c) for c in counts.counts].index(True)]
    return f"every pair scored {points:g} points of 2"


def t_value_mle(scores: Sequence[float], observed: Sequence[float], reference: float,
                t: float) -> list[float]:
    """The distribution on ``scores`` of the largest likelihood for the ``observed`` (empirical)
    one among those whose t-value ``(mu - reference) / sigma`` is ``t``: Van den Bergh's
    fixed-point iteration from the uniform distribution (section 4.1), each step solving
    the secular equation for the Lagrange multiplier."""
    n = len(scores)
    estimate_ = [1 / n] * n
    for _ in range(100):
        mu, variance = _mean_variance(scores, estimate_)
        sigma = math.sqrt(variance)
        phi = [a - reference - t * sigma * (1 + ((a - mu) / sigma) ** 2) / 2 for a in scores]
        x = _secular(phi, observed)
        # max(): a root rounded onto a pole (hypotheses far out, tens of normalized Elo
        # per game at least) keeps a finite, tiny denominator.
        following = [p / max(1 + x * f, 1e-300) for p, f in zip(observed, phi, strict=True)]
        total = sum(following)
        following = [p / total for p in following]
        change = max(abs(a - b) for a, b in zip(following, estimate_, strict=True))
        estimate_ = following
        if change < 1e-12:
            break
    return estimate_


def _distribution(counts: Sequence[int]) -> tuple[float, list[float]]:
    """The regularized total and empirical probabilities of ``counts``."""
    regular = [c if c else REGULARIZE for c in counts]
    total = sum(regular)
    return total, [c / total for c in regular]


def _mean_variance(scores: Sequence[float], probabilities: Sequence[float]) -> tuple[float, float]:
    mean = sum(a * p for a, p in zip(scores, probabilities, strict=True))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(scores, probabilities, strict=True))


def _secular(values: Sequence[float], probabilities: Sequence[float]) -> float:
    """The root ``x`` of ``sum p_i v_i / (1 + x v_i) = 0`` between ``-1 / max v`` and
    ``-1 / min v`` (the values take both signs). The sum falls strictly on that interval,
    from +inf to -inf, so bisection finds it to the last bit."""
    low, high = -1 / max(values), -1 / min(values)

    def f(x: float) -> float:
        return sum(p * v / (1 + x * v) for v, p in zip(values, probabilities, strict=True))

    return _bisect(f, low, high)


def _bisect(f: Callable[[float], float], low: float, high: float) -> float:
    """The root of a function falling from positive at ``low`` to negative at ``high``
    (open ends: the ends themselves are poles)."""
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        try:
            above = f(middle) > 0
        except ZeroDivisionError:           # rounded onto a pole: the nearer end's side
            above = middle - low < high - middle
        if above:
            low = middle
        else:
            high = middle
    return (low + high) / 2
