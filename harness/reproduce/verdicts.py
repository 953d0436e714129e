"""How a claim's verdict is decided: checks, the verdict of a list of them, the interval
tests they are made of, and the wording of their numbers.

A claim is split into checks, each a statement about the numbers with a tolerance fixed in
the claim's module before anything was measured (listed in the report); :func:`verdict_of`
then calls a claim ``holds`` when every check passes, ``does not hold`` when none does and
``partly`` otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

HOLDS, FAILS, PARTLY = "holds", "does not hold", "partly"
"""The three verdicts of a measured claim."""

NOT_MEASURED = "not measured"
"""The verdict of a claim without any check (nothing it needs could be measured)."""

NO_WAC = "not measured: WAC not found"
"""The verdict of a chess-only claim when no suite is found."""

LEVEL = 0.95
"""Coverage of every bootstrap interval."""

RESAMPLES = 10_000
"""Bootstrap resamples per interval (numpy PCG64, seed :data:`SEED`)."""

SEED = 0
"""Seed of every bootstrap."""


@dataclass(frozen=True)
class Check:
    """One statement about the numbers that a claim's verdict rests on."""

    statement: str
    """What is checked, with its tolerance."""
    passed: bool
    """Whether the numbers satisfy it."""
    measured: str
    """The numbers it was decided on."""


def verdict_of(checks: Sequence[Check]) -> str:
    """``holds`` when every check passes, ``does not hold`` when none does, ``partly``
    otherwise; :data:`NOT_MEASURED` without checks."""
    if not checks:
        return NOT_MEASURED
    passed = sum(1 for c in checks if c.passed)
    return HOLDS if passed == len(checks) else FAILS if passed == 0 else PARTLY


def in_band(value: float, band: tuple[float, float]) -> bool:
    """``band[0] <= value <= band[1]`` (never for NaN)."""
    return bool(band[0] <= value <= band[1])


def below_one(interval: Sequence[float]) -> bool:
    """Whether an interval of a ratio lies entirely below 1 (a significant saving)."""
    return bool(interval[1] < 1)


def above_one(interval: Sequence[float]) -> bool:
    """Whether an interval of a ratio lies entirely above 1 (a significant cost)."""
    return bool(interval[0] > 1)


def knuth_moore_formula(b: int, d: int) -> int:
    """``b^ceil(d/2) + b^floor(d/2) - 1``, written out as the claim states it (claims 1 and
    8 check leaves against it)."""
    return int(b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1)


def pct(value: float) -> str:
    """A rate as a percentage with one decimal; ``n/a`` for NaN."""
    return "n/a" if math.isnan(value) else f"{value * 100:.1f}%"


def ratio_text(r: Mapping[str, float]) -> str:
    """A ratio summary (:func:`harness.reproduce.analysis.ratio_summary`) in words."""
    return f"{r['ratio']:.4f} ({LEVEL:.0%} interval {r['low']:.4f} to {r['high']:.4f}, n = {r['n']:.0f})"


GENERAL_RULES = (
    "A claim is split into checks, each a statement about the numbers with a tolerance "
    "fixed before anything was measured. Verdict: **holds** when every check passes, "
    "**does not hold** when none passes, **partly** otherwise; a claim that needs chess "
    "positions is *not measured: WAC not found* when no suite is found (a claim measured "
    "on synthetic trees too is then judged on them alone).",
    "Exact claims (1, 5, 6, the improvement's \"never more\", and 8's minimal tree) have "
    "no tolerance: one problem against them fails the check.",
)
"""The report's first rules, before each claim's own (:attr:`ClaimInfo.rule`)."""

STATISTICS_RULE = (
    f"Ratios are geometric means of per-problem ratios B/A with a paired percentile "
    f"bootstrap {LEVEL:.0%} interval ({RESAMPLES:,} resamples, numpy PCG64 seed {SEED}); "
    "the sign test is exact and two-sided (harness.report.stats). On chess, nodes are total "
    "nodes: search nodes plus quiescence nodes.")
"""The report's last rule: how every ratio and interval is computed."""
