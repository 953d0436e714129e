"""How a claim's verdict is decided: bands, checks with three outcomes, the verdict of a list
of them, and the wording of their numbers.

Every check is an interval test against a band the claim's rules file states
(:mod:`harness.reproduce.rules`): it **holds** when the interval lies inside the band,
**does not hold** when it lies outside, and is **inconclusive** when it straddles an edge
(or nothing was measured). An exact statement about every problem ("never more",
"identical") is the same test on its count of counter-examples, an interval of one point.

A check is of one of two kinds. A *claim* check tests what the source claims. A
*correctness* check tests a theorem that holds under the setup (Knuth and Moore's minimal
tree, ...): it tests the implementation, not the claim, so the report shows it apart and
:func:`verdict_of` leaves it out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from harness.errors import HarnessError

HOLDS, FAILS, INCONCLUSIVE = "holds", "does not hold", "inconclusive"
"""The three outcomes of a check, and the verdicts of a claim whose claim checks all agree."""

OUTCOMES = (HOLDS, INCONCLUSIVE, FAILS)
"""Every outcome, in the order the counts name them."""

CLAIM, THEOREM = "claim", "theorem"
"""The kinds of a check: a test of the source's claim (it counts towards the verdict), or a
correctness test of the implementation against a theorem under the setup (it does not)."""

EXTENSION = "extension"
"""A third kind: the claim tested under conditions its author did not name (other
orderings, tables, another reading), with a verdict of its own beside the claim's."""

KINDS = (CLAIM, THEOREM, EXTENSION)
"""Every kind of check."""

NOT_MEASURED = "not measured"
"""The verdict of a claim without any check (nothing it needs could be measured)."""

NO_WAC = "not measured: WAC not found"
"""The verdict of a chess-only claim when no suite is found."""

THEOREM_VERDICT = "theorem"
"""How the verdict of a claim with correctness checks only begins: ``theorem: 3 of 3
correctness checks pass``. Such a claim is a theorem under the setup, so there is nothing
to reproduce; what is measured is whether the implementation agrees with it."""


# ---------------------------------------------------------------------------------------
# Bands

_BAND = re.compile(r"^\s*([\[(])\s*([^,\s]+)\s*,\s*([^,\s]+)\s*([\])])\s*$")


@dataclass(frozen=True)
class Band:
    """An interval of the real line, each end open or closed, as a rules file writes it:
    ``[0.90, 0.95]``, ``(0, 1)`` (below 1), ``[0.99, inf)``, ``[0, 0]`` (exactly none)."""

    low: float
    high: float
    low_open: bool = False
    high_open: bool = False

    @classmethod
    def parse(cls, text: str) -> Band:
        """A band from its written form; ``inf`` and ``-inf`` are open ends."""
        match = _BAND.match(text)
        if match is None:
            raise HarnessError(f"band {text!r}: expected [low, high], with ( or ) for an open end")
        left, low_text, high_text, right = match.groups()
        try:
            low, high = float(low_text), float(high_text)
        except ValueError:
            raise HarnessError(f"band {text!r}: its ends must be numbers or inf") from None
        if math.isnan(low) or math.isnan(high) or low > high:
            raise HarnessError(f"band {text!r}: needs low <= high")
        band = cls(low, high, left == "(", right == ")")
        if (math.isinf(low) and not band.low_open) or (math.isinf(high) and not band.high_open):
            raise HarnessError(f"band {text!r}: an infinite end is open")
        if low == high and (band.low_open or band.high_open):
            raise HarnessError(f"band {text!r}: is empty")
        return band

    def __str__(self) -> str:
        def end(x: float) -> str:
            return "inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:g}"
        return (f"{'(' if self.low_open else '['}{end(self.low)}, {end(self.high)}"
                f"{')' if self.high_open else ']'}")

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies in the band (never for NaN)."""
        above = x > self.low if self.low_open else x >= self.low
        below = x < self.high if self.high_open else x <= self.high
        return bool(above and below)

    def below(self, x: float) -> bool:
        """Whether ``x`` lies below the band (under its low end)."""
        return bool(x <= self.low if self.low_open else x < self.low)

    def above(self, x: float) -> bool:
        """Whether ``x`` lies above the band (over its high end)."""
        return bool(x >= self.high if self.high_open else x > self.high)


def outcome_of(low: float, high: float, band: Band) -> str:
    """The outcome of an interval ``[low, high]`` against ``band``: :data:`HOLDS` when it
    lies inside, :data:`FAILS` when it lies wholly outside (below or above), else
    :data:`INCONCLUSIVE` (it straddles an end; also for NaN: nothing measured)."""
    if math.isnan(low) or math.isnan(high):
        return INCONCLUSIVE
    if low > high:
        raise HarnessError(f"interval {low} to {high}: its low end is above its high end")
    if band.contains(low) and band.contains(high):
        return HOLDS
    if band.above(low) or band.below(high):
        return FAILS
    return INCONCLUSIVE


def all_of(outcomes: Iterable[str]) -> str:
    """The outcome of a conjunction ("each of PVS and NegaScout ..."): :data:`FAILS` when
    any part fails, else :data:`INCONCLUSIVE` when any part is (or there is none), else
    :data:`HOLDS`."""
    found = list(outcomes)
    if FAILS in found:
        return FAILS
    if not found or INCONCLUSIVE in found:
        return INCONCLUSIVE
    return HOLDS


# ---------------------------------------------------------------------------------------
# Checks


@dataclass(frozen=True)
class Check:
    """One statement about the numbers, tested against a band."""

    statement: str
    """What is checked."""
    outcome: str
    """:data:`HOLDS`, :data:`FAILS` or :data:`INCONCLUSIVE`."""
    measured: str
    """The numbers it was decided on (the estimate and its interval, or the count)."""
    kind: str = CLAIM
    """:data:`CLAIM`, or :data:`THEOREM` for a correctness check (not in the verdict)."""
    band: str = ""
    """The band the interval was tested against, as the rules file writes it."""
    estimate: str = ""
    """The interval it tests, by name, where several checks test one interval (claim 3's
    "fewer leaves" and "5-10% fewer leaves"): such checks count once in a verdict."""
    extension: str = ""
    """An :data:`EXTENSION` check's label: the conditions it adds to the author's."""

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise HarnessError(f"check outcome {self.outcome!r}: expected one of {OUTCOMES}")
        if self.kind not in KINDS:
            raise HarnessError(f"check kind {self.kind!r}: expected one of {', '.join(KINDS)}")

    @property
    def passed(self) -> bool:
        """Whether it holds."""
        return self.outcome == HOLDS


def unreachable_text(low: float, high: float, band: Band) -> str:
    """``cannot hold at this n: the interval is 0.11 wide, the band 0.05`` when an interval
    is wider than its band, so that it can never lie inside; else empty."""
    if any(math.isnan(x) or math.isinf(x) for x in (low, high, band.low, band.high)):
        return ""
    if high - low <= band.high - band.low:
        return ""
    return (f"cannot hold at this n: the interval is {high - low:.3g} wide, the band "
            f"{band.high - band.low:.3g}")


def interval_check(statement: str, low: float, high: float, band: Band, measured: str = "",
                   kind: str = CLAIM, estimate: str = "", extension: str = "") -> Check:
    """A check of the interval ``[low, high]`` against ``band`` (:func:`outcome_of`); its
    measured text says so when the interval is too wide for the band ever to hold it
    (:func:`unreachable_text`). ``estimate``: the interval's name, where checks share it;
    ``extension``: an :data:`EXTENSION` check's label (its rule's)."""
    unreachable = unreachable_text(low, high, band)
    text = measured or f"interval {low:.4g} to {high:.4g}"
    return Check(statement, outcome_of(low, high, band),
                 f"{text}; {unreachable}" if unreachable else text, kind, str(band), estimate,
                 extension)


def count_check(statement: str, count: int, problems: int, band: Band, measured: str = "",
                kind: str = CLAIM, extension: str = "") -> Check:
    """An exact statement over ``problems`` problems, tested on its ``count`` (of
    counter-examples, or of examples) against ``band``: an interval of one point.
    Inconclusive when there was no problem. ``extension`` as :func:`interval_check`'s."""
    if problems <= 0:
        return Check(statement, INCONCLUSIVE, measured or "no problem measured", kind, str(band),
                     extension=extension)
    return interval_check(statement, count, count, band, measured or f"{count} of {problems}", kind,
                          extension=extension)


def claim_checks(checks: Sequence[Check]) -> list[Check]:
    """The checks the verdict is decided by."""
    return [c for c in checks if c.kind == CLAIM]


def correctness_checks(checks: Sequence[Check]) -> list[Check]:
    """The correctness checks (theorems under the setup)."""
    return [c for c in checks if c.kind == THEOREM]


def _by_interval(checks: Sequence[Check]) -> dict[str, list[str]]:
    """The outcomes of the checks of each interval (:attr:`Check.estimate`), in order."""
    found: dict[str, list[str]] = {}
    for check in checks:
        if check.estimate:
            found.setdefault(check.estimate, []).append(check.outcome)
    return found


def counted(checks: Sequence[Check]) -> list[str]:
    """The outcomes a verdict counts: one per check, but one per interval for checks that
    test the same interval (:attr:`Check.estimate`), whose outcome is their conjunction
    (:func:`all_of`), at its first check's place: correlated checks are one piece of
    evidence."""
    shared = _by_interval(checks)
    outcomes: list[str] = []
    for check in checks:
        if not check.estimate:
            outcomes.append(check.outcome)
        elif check.estimate in shared:                       # the interval's first check
            outcomes.append(all_of(shared.pop(check.estimate)))
    return outcomes


def shared_outcomes(checks: Sequence[Check]) -> dict[str, tuple[list[str], str]]:
    """For each interval several checks test (:attr:`Check.estimate`): each check's own
    outcome, in order, and the one outcome the verdict counts for them (:func:`all_of`)."""
    return {name: (own, all_of(own)) for name, own in _by_interval(checks).items() if len(own) > 1}


def counts_text(checks: Sequence[Check]) -> str:
    """``3 of 5 checks hold, 1 inconclusive, 1 does not hold`` (the parts with none are
    left out, but for the checks that hold), checks of one interval counted once
    (:func:`counted`)."""
    outcomes = counted(checks)
    held = outcomes.count(HOLDS)
    unsure = outcomes.count(INCONCLUSIVE)
    failed = outcomes.count(FAILS)
    text = (f"{held} of 1 check holds" if len(outcomes) == 1
            else f"{held} of {len(outcomes)} checks hold")
    if unsure:
        text += f", {unsure} inconclusive"
    if failed:
        text += f", {failed} {'does' if failed == 1 else 'do'} not hold"
    return text


def correctness_text(checks: Sequence[Check]) -> str:
    """``3 of 3 correctness checks pass`` (and how many fail, or are inconclusive: not
    shown either way)."""
    theorems = correctness_checks(checks)
    passed = sum(1 for c in theorems if c.outcome == HOLDS)
    failed = sum(1 for c in theorems if c.outcome == FAILS)
    unsure = len(theorems) - passed - failed
    text = (f"{passed} of 1 correctness check passes" if len(theorems) == 1
            else f"{passed} of {len(theorems)} correctness checks pass")
    if failed:
        text += f", {failed} fail{'s' if failed == 1 else ''}"
    if unsure:
        text += f", {unsure} inconclusive"
    return text


def verdict_of(checks: Sequence[Check]) -> str:
    """The verdict over the claim checks (correctness checks left out): :data:`HOLDS`,
    :data:`FAILS` or :data:`INCONCLUSIVE` when every one has that outcome, else their counts
    (:func:`counts_text`). A claim with correctness checks only is a theorem under the
    setup (``theorem: 3 of 3 correctness checks pass``); :data:`NOT_MEASURED` without any
    check."""
    if not checks:
        return NOT_MEASURED
    claims = claim_checks(checks)
    if not claims:
        return f"{THEOREM_VERDICT}: {correctness_text(checks)}"
    outcomes = set(counted(claims))
    if len(outcomes) == 1:
        return outcomes.pop()
    return counts_text(claims)


def extension_checks(checks: Sequence[Check]) -> dict[str, list[Check]]:
    """The :data:`EXTENSION` checks by their label, in order."""
    found: dict[str, list[Check]] = {}
    for check in checks:
        if check.kind == EXTENSION:
            found.setdefault(check.extension, []).append(check)
    return found


def verdict_with_extensions(checks: Sequence[Check], primary: str | None = None) -> str:
    """The claim's verdict on its author's conditions (:func:`verdict_of`: extensions left
    out; ``primary`` when given, e.g. not measured), then each extension's own: ``holds
    (extension, killers or a table: does not hold)``."""
    groups = extension_checks(checks)
    primary = verdict_of(checks) if primary is None else primary
    if not groups:
        return primary
    parts = "; ".join(f"extension, {label}: {verdict_of([replace(c, kind=CLAIM) for c in found])}"
                      for label, found in groups.items())
    return f"{primary} ({parts})"


def verdict_by_reading(checks: Sequence[Check], readings: Mapping[str, Sequence[Check]]) -> str:
    """The verdict of a claim whose words can be read more than one way, each reading
    judged by its own claim checks: :func:`verdict_of` over every check, then each
    reading's, ``1 of 2 checks hold, 1 does not hold (distinct nodes: holds; total nodes:
    does not hold)``."""
    parts = "; ".join(f"{name}: {verdict_of(claim_checks(found))}" for name, found in readings.items())
    return f"{verdict_of(checks)} ({parts})"


# ---------------------------------------------------------------------------------------
# Numbers in words


def knuth_moore_formula(b: int, d: int) -> int:
    """``b^ceil(d/2) + b^floor(d/2) - 1``, written out as the claim states it (claims 1 and
    8 check leaves against it)."""
    return int(b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1)


def pct(value: float) -> str:
    """A rate as a percentage with one decimal; ``n/a`` for NaN."""
    return "n/a" if math.isnan(value) else f"{value * 100:.1f}%"


def level_text(level: float) -> str:
    """An interval's level as a percentage: ``95%``, or with the digits a corrected level
    needs (``99.64%``, never a rounded ``100%``)."""
    text = f"{level:.0%}"
    return text if abs(float(text[:-1]) / 100 - level) < 1e-9 else f"{level:.2%}"


def ratio_text(r: Mapping[str, float]) -> str:
    """A ratio summary (:func:`harness.reproduce.analysis.ratio_summary`) in words."""
    level = f"{level_text(r['level'])} interval" if "level" in r else "interval"
    text = f"{r['ratio']:.4f} ({level} {r['low']:.4f} to {r['high']:.4f}, n = {r['n']:.0f})"
    if "totals" in r and "median" in r:       # the robustness line: shown, never judged
        text += (f"; ratio of totals {r['totals']:.4f}, median ratio {r['median']:.4f} "
                 "(not judged)")
    return text


GENERAL_RULES = (
    "Every check is an interval test against a band its claim's rules file states: it "
    "**holds** when the interval lies inside the band, **does not hold** when it lies "
    "outside, and is **inconclusive** when it straddles an end of the band (or nothing was "
    "measured). A statement about every problem (\"never more\", \"identical\") is the same "
    "test on its count of counter-examples against the band [0, 0].",
    "A check of a theorem under the setup (it follows from the setup, whatever the source "
    "says) tests the implementation, not the claim: it is shown apart as a *correctness "
    "check* and each is asserted by a test of the test suite; it does not count towards "
    "the verdict. A claim made of theorems only has the verdict *theorem: N of N "
    "correctness checks pass*.",
    "Verdict, over the claim checks: **holds**, **does not hold** or **inconclusive** when "
    "every check has that outcome, else the counts (*3 of 5 checks hold, 1 inconclusive, 1 "
    "does not hold*). A claim that needs chess positions is *not measured: WAC not found* "
    "when no suite is found (a claim measured on synthetic trees too is then judged on them "
    "alone).",
    "Checks that test one interval (claim 3's \"fewer leaves\" and \"5-10% fewer leaves\": "
    "one leaves ratio against two bands) are one piece of evidence, not two: the verdict and "
    "its counts take them once, as their conjunction, so the less favourable outcome wins "
    "(does not hold over inconclusive over holds). Each check's own outcome is shown beside "
    "the one counted.",
    "Pre-registration: each claim's rules (bands, estimators, sample sizes, seeds) are one "
    "file, `harness/reproduce/rules/<claim>.json`, whose version and sha256 every "
    "reproduction records in `claims.json`. Changing a rule makes a new version; the file "
    "keeps every earlier version's rules with the verdict they gave and the reason for the "
    "change, and each claim's section below shows them.",
)
"""The report's first rules, before each claim's own."""

STATISTICS_RULE = (
    "Ratios are geometric means of per-problem ratios B/A with a paired percentile "
    "bootstrap interval, unless a claim's rules name another statistic; beside a geometric "
    "mean the ratio of the totals and the median of the per-problem ratios are shown, not "
    "judged (a robustness line: where they disagree, the averaging decides); rates (a "
    "ratio of totals) and means are bootstrapped over problems "
    "the same way, and so is Pearl's estimator over trees. The level, the resamples and the "
    "seed (numpy PCG64) are each claim's rules'. On chess, nodes are total nodes: search "
    "nodes plus quiescence nodes.")
"""The report's last rule: how every ratio and interval is computed."""
