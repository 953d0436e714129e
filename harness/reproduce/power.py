"""Power before data: the sample a confirmation needs for each band, computed from the
exploration's intervals, and the words for a band a sample cannot reach.

An interval's half-width shrinks as one over the square root of the sample: an
exploration interval of half-width ``h`` on ``n`` problems (its standard deviation, as the
bootstrap measured it, is ``h sqrt(n) / z``) is expected to have half-width
``h sqrt(n / m)`` on ``m`` problems. A check can hold only when its interval can lie
inside its band, so a band of finite width ``w`` needs ``h sqrt(n / m) <= w / 2``, that is
``m >= n (2 h / w)^2`` (:func:`needed_n`). A band with an infinite end holds at any sample
(an interval far enough inside lies inside); its smallest effect that matters is its
finite end's distance from no effect, and :func:`shown_beyond` says what estimate the
confirmation sample needs to show it. A rules file records, for each check, the
exploration's intervals by estimate and the confirmation's sample (:func:`plan_of`,
``power`` in the file); the tests recompute every figure.

Two methods, recorded in a check's ``power`` as ``method``:

- ``width`` (rules registered before issue 27's second referee reading, and any ``power``
  without a ``method``): the sample at which the *expected* interval is no wider than the
  band. At that sample an interval of the expected width fits only if the estimate lands
  on the band's centre, so it is no chance of holding, only its possibility.
- ``probability`` (:data:`PROBABILITY`): the chance that the confirmation's interval lies
  wholly inside the band when the truth is the value the rules assume (``assumed_truth``
  of an estimate, with the reason in the check's ``power.assumed``; by default the band's
  centre for a band of two finite ends, the exploration's estimate for a one-sided one).
  The estimate is taken as normal around the truth with the bootstrap's standard
  deviation shrunk to the sample (:func:`probability`); the sample needed is the smallest
  whose chance reaches :data:`TARGET` (:func:`needed_n`). The report shows this chance for
  every check, whatever method its rules were registered with. A check that no affordable
  sample brings to :data:`TARGET` (its assumed truth outside its band, say) is a finding,
  not a failure: its ``power.unreachable`` says so, and why, before the data, and the check
  stays in the verdict with its chance shown. Estimates a reachable band needs more
  problems for than the confirmation can afford are named in ``power.below_target`` with
  the reason, before data, and likewise stay in the verdict.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Any

from harness.reproduce.verdicts import Band

DIGITS = 4
"""Decimals a rules file records each computed figure with."""

WIDTH, PROBABILITY = "width", "probability"
"""The power methods (see the module's docstring); ``width`` is the older."""

TARGET = 0.8
"""The chance of holding a confirmation sample must reach under the ``probability`` method
when the truth is what the rules assume: the usual 80% of a study's design."""

LEVEL = 0.95
"""The intervals' level (every rules file's ``statistics.level``)."""

MAX_N = 1_000_000
"""The largest sample :func:`needed_n` looks at; beyond it a band is called unreachable."""


@dataclass(frozen=True)
class Estimate:
    """One estimate of a check, as explored, and the sample confirmation gives it."""

    label: str
    """Which estimate (``b = 3``, ``distinct values, pvs``, ...)."""
    explore_n: int
    """Problems it was explored on."""
    explore_interval: tuple[float, float]
    """Its exploration interval."""
    confirm_n: int
    """Problems the confirmation measures it on."""
    assumed_truth: float | None = None
    """The true value the ``probability`` method assumes (``None``: :func:`default_truth`)."""
    level: float = LEVEL
    """The level of its intervals, the exploration's and the confirmation's (a claim that
    corrects for multiplicity registers a higher one than :data:`LEVEL`)."""

    @property
    def explore_half_width(self) -> float:
        return (self.explore_interval[1] - self.explore_interval[0]) / 2

    @property
    def expected_half_width(self) -> float:
        """The half-width its confirmation interval is expected to reach."""
        return self.explore_half_width * math.sqrt(self.explore_n / self.confirm_n)

    @property
    def explore_estimate(self) -> float:
        """The exploration's estimate, taken as its interval's midpoint."""
        return (self.explore_interval[0] + self.explore_interval[1]) / 2

    def spread_at(self, n: int) -> float:
        """The estimate's standard deviation on ``n`` problems (the bootstrap's, from the
        exploration interval's half-width at its :attr:`level`, shrunk as one over root n)."""
        return self.explore_half_width * math.sqrt(self.explore_n / n) / self.z

    @property
    def z(self) -> float:
        """The normal quantile of its intervals' :attr:`level`."""
        return NormalDist().inv_cdf(0.5 + self.level / 2)


def one_sided(band: Band) -> str:
    """``above`` for a band with an infinite high end, ``below`` for one with an infinite
    low end or a ratio's band ``(0, x]`` (a ratio is never at or below 0), else empty."""
    if math.isinf(band.high) and not math.isinf(band.low):
        return "above"
    if math.isinf(band.low) or (band.low == 0 and band.low_open and not math.isinf(band.high)):
        return "below"
    return ""


def width_needed_n(estimate: Estimate, band: Band) -> int | None:
    """The ``width`` method: the smallest sample whose expected interval is no wider than
    ``band`` (``None``: a one-sided band (:func:`one_sided`), which any sample can reach)."""
    if one_sided(band):
        return None
    half = (band.high - band.low) / 2
    return max(1, math.ceil(estimate.explore_n * (estimate.explore_half_width / half) ** 2 - 1e-9))


def default_truth(estimate: Estimate, band: Band) -> float:
    """The truth the ``probability`` method assumes without ``assumed_truth``: the band's
    centre for a band of two finite ends (its source's figure, as the bands are drawn), the
    exploration's estimate for a one-sided band."""
    if one_sided(band):
        return estimate.explore_estimate
    return (band.low + band.high) / 2


def truth_of(estimate: Estimate, band: Band) -> float:
    """The truth assumed for ``estimate``: its ``assumed_truth`` or :func:`default_truth`."""
    return default_truth(estimate, band) if estimate.assumed_truth is None else estimate.assumed_truth


def explored_truth(estimate: Estimate) -> Estimate:
    """``estimate`` with the truth taken as its exploration's estimate: a design powered at
    the source's figure says beside it what the data explored so far predict (a chance near
    0 there is a check the exploration expects not to hold, as the fourth referee reading's
    F1 asked to show)."""
    return replace(estimate, assumed_truth=estimate.explore_estimate)


def probability(estimate: Estimate, band: Band, n: int | None = None) -> float:
    """The chance that an interval on ``n`` problems (default: the confirmation's sample)
    lies wholly inside ``band`` when the truth is :func:`truth_of`: the estimate normal
    around the truth, the interval the estimate plus and minus its expected half-width."""
    size = estimate.confirm_n if n is None else n
    spread = estimate.spread_at(size)
    half = estimate.z * spread
    truth = truth_of(estimate, band)
    if spread == 0:
        return 1.0 if band.low < truth < band.high else 0.0
    normal = NormalDist(truth, spread)
    high = 1.0 if math.isinf(band.high) else normal.cdf(band.high - half)
    low = 0.0 if math.isinf(band.low) else normal.cdf(band.low + half)
    return max(0.0, high - low)


def probability_needed_n(estimate: Estimate, band: Band) -> int | None:
    """The smallest sample whose :func:`probability` reaches :data:`TARGET` (``None``: none
    up to :data:`MAX_N`, as when the assumed truth lies on or outside the band's end)."""
    if probability(estimate, band, MAX_N) < TARGET:
        return None
    low, high = 1, 1
    while probability(estimate, band, high) < TARGET:
        low, high = high + 1, high * 2
    while low < high:                     # the chance grows with the sample
        middle = (low + high) // 2
        if probability(estimate, band, middle) >= TARGET:
            high = middle
        else:
            low = middle + 1
    return low


def method_of(power: Mapping[str, Any] | None) -> str:
    """A check's power method (``width`` when its rules name none)."""
    return str((power or {}).get("method", WIDTH))


def needed_n(estimate: Estimate, band: Band, method: str = PROBABILITY) -> int | None:
    """The sample the band needs under ``method`` (see :func:`width_needed_n` and
    :func:`probability_needed_n` for what ``None`` means in each)."""
    if method == WIDTH:
        return width_needed_n(estimate, band)
    return probability_needed_n(estimate, band)


def reaches(estimate: Estimate, band: Band, method: str = PROBABILITY) -> bool:
    """Whether the confirmation's sample is what ``method`` asks: under ``width`` its
    expected interval fits the band (any sample, one-sided); under ``probability`` its
    chance of holding reaches :data:`TARGET`."""
    if method == WIDTH:
        needed = width_needed_n(estimate, band)
        return needed is None or estimate.confirm_n >= needed
    return probability(estimate, band) >= TARGET


def shown_beyond(estimate: Estimate, band: Band) -> float | None:
    """For a one-sided band: the estimate beyond which the confirmation's expected
    interval lies wholly inside (its finite end moved in by the expected half-width);
    ``None`` for a band of two finite ends."""
    side = one_sided(band)
    if side == "above":
        return band.low + estimate.expected_half_width
    if side == "below":
        return band.high - estimate.expected_half_width
    return None


def plan_of(estimates: Mapping[str, Mapping[str, Any]]) -> list[Estimate]:
    """The estimates of a rules file's ``power.estimates`` (each at its ``level``, by
    default :data:`LEVEL`)."""
    return [Estimate(label, int(found["explore_n"]),
                     (float(found["explore_interval"][0]), float(found["explore_interval"][1])),
                     int(found["confirm_n"]),
                     None if found.get("assumed_truth") is None else float(found["assumed_truth"]),
                     float(found.get("level", LEVEL)))
            for label, found in estimates.items()]


def computed(estimate: Estimate, band: Band, method: str = PROBABILITY) -> dict[str, Any]:
    """What a rules file records of an estimate beside its inputs, rounded to
    :data:`DIGITS` decimals: the expected half-width, the sample needed, whether the
    confirmation reaches the band, (one infinite end) the estimate it must pass, and under
    ``probability`` the chance of holding at the confirmation's sample."""
    beyond = shown_beyond(estimate, band)
    found = {"expected_half_width": round(estimate.expected_half_width, DIGITS),
             "needed_n": needed_n(estimate, band, method), "reaches": reaches(estimate, band, method),
             **({} if beyond is None else {"holds_beyond": round(beyond, DIGITS)})}
    if method == PROBABILITY:
        found["probability"] = round(probability(estimate, band), DIGITS)
    return found


def describe(power: Mapping[str, Any] | None, band: Band | None = None) -> str:
    """A rules file's ``power`` of a check in words, for the report: per estimate, the
    samples, the expected half-width, the sample the band needs (or the estimate a
    one-sided band's expected interval must pass) and, given the band, the chance of
    holding at the confirmation's sample under the ``probability`` method, whatever method
    the rules were registered with; ``exact`` checks say why none is needed."""
    if not power:
        return "–"
    if "exact" in power:
        return f"none needed: {power['exact']}"
    method = method_of(power)
    parts = []
    for estimate, found in zip(plan_of(power.get("estimates", {})),
                               power.get("estimates", {}).values(), strict=True):
        need = (f"the band needs n >= {found['needed_n']}" if found.get("needed_n") is not None
                else f"holds beyond {found['holds_beyond']:g}" if "holds_beyond" in found
                else "any n")
        if method == WIDTH:
            need = f"{need} for its expected interval to fit (width method)"
        words = (f"{estimate.label}: n = {estimate.explore_n} explored, {estimate.confirm_n} to "
                 f"confirm, expected half-width {found['expected_half_width']:g}, {need}"
                 + ("" if found.get("reaches", True) else " (cannot hold at this n)" if method == WIDTH
                    else f" (a chance below {TARGET:.0%} at this n)"))
        if band is not None:
            truth = truth_of(estimate, band)
            words += (f"; chance of holding {probability(estimate, band):.0%} if the truth is "
                      f"{truth:.4g}")
            if method == PROBABILITY and found.get("needed_n") is None:
                words += f" (no sample reaches {TARGET:.0%})"
            if truth != estimate.explore_estimate:
                words += (f", {probability(explored_truth(estimate), band):.0%} if it is the "
                          f"explored {estimate.explore_estimate:.4g}")
        parts.append(words)
    if power.get("assumed"):
        parts.append(f"truth assumed: {power['assumed']}")
    if power.get("unreachable"):
        parts.append(f"unreachable, as the rules say before data: {power['unreachable']}")
    short = power.get("below_target")
    if short:
        parts.append(f"below {TARGET:.0%} at the sample afforded, as the rules say before data "
                     f"({', '.join(short['estimates'])}): {short['reason']}")
    return "; ".join(parts)
