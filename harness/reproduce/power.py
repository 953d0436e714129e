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
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from harness.reproduce.verdicts import Band

DIGITS = 4
"""Decimals a rules file records each computed figure with."""


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

    @property
    def explore_half_width(self) -> float:
        return (self.explore_interval[1] - self.explore_interval[0]) / 2

    @property
    def expected_half_width(self) -> float:
        """The half-width its confirmation interval is expected to reach."""
        return self.explore_half_width * math.sqrt(self.explore_n / self.confirm_n)


def one_sided(band: Band) -> str:
    """``above`` for a band with an infinite high end, ``below`` for one with an infinite
    low end or a ratio's band ``(0, x]`` (a ratio is never at or below 0), else empty."""
    if math.isinf(band.high) and not math.isinf(band.low):
        return "above"
    if math.isinf(band.low) or (band.low == 0 and band.low_open and not math.isinf(band.high)):
        return "below"
    return ""


def needed_n(estimate: Estimate, band: Band) -> int | None:
    """The smallest sample whose expected interval is no wider than ``band`` (``None``: a
    one-sided band (:func:`one_sided`), which any sample can reach)."""
    if one_sided(band):
        return None
    half = (band.high - band.low) / 2
    return max(1, math.ceil(estimate.explore_n * (estimate.explore_half_width / half) ** 2 - 1e-9))


def reaches(estimate: Estimate, band: Band) -> bool:
    """Whether the confirmation's sample can reach ``band`` both ways: its expected
    interval fits inside the band (any sample, for a one-sided band)."""
    needed = needed_n(estimate, band)
    return needed is None or estimate.confirm_n >= needed


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
    """The estimates of a rules file's ``power.estimates``."""
    return [Estimate(label, int(found["explore_n"]),
                     (float(found["explore_interval"][0]), float(found["explore_interval"][1])),
                     int(found["confirm_n"])) for label, found in estimates.items()]


def computed(estimate: Estimate, band: Band) -> dict[str, Any]:
    """What a rules file records of an estimate beside its inputs, rounded to
    :data:`DIGITS` decimals: the expected half-width, the sample needed, whether the
    confirmation reaches the band, and (one infinite end) the estimate it must pass."""
    beyond = shown_beyond(estimate, band)
    return {"expected_half_width": round(estimate.expected_half_width, DIGITS),
            "needed_n": needed_n(estimate, band), "reaches": reaches(estimate, band),
            **({} if beyond is None else {"holds_beyond": round(beyond, DIGITS)})}


def describe(power: Mapping[str, Any] | None) -> str:
    """A rules file's ``power`` of a check in words, for the report: per estimate, the
    samples, the expected half-width and the sample the band needs (or the estimate a
    one-sided band's expected interval must pass); ``exact`` checks say why none is needed."""
    if not power:
        return "–"
    if "exact" in power:
        return f"none needed: {power['exact']}"
    parts = []
    for label, found in power.get("estimates", {}).items():
        need = (f"the band needs n >= {found['needed_n']}" if found.get("needed_n") is not None
                else f"holds beyond {found['holds_beyond']:g}" if "holds_beyond" in found
                else "any n")
        parts.append(f"{label}: n = {found['explore_n']} explored, {found['confirm_n']} to confirm, "
                     f"expected half-width {found['expected_half_width']:g}, {need}"
                     + ("" if found.get("reaches", True) else " (cannot hold at this n)"))
    return "; ".join(parts)
