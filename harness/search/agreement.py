"""Whether the answers of several searches of one problem can all be right.

Every search that the registry calls exact returns minimax's value when it returns an exact
score, and a bound on the right side of it when it returns a bound (a weak window, Belle's
unresolved fail-high, an MTD driver that gave up): the interval of values each answer
allows must then hold minimax's value, so the intervals of all the answers to one question
(one problem, depth and configuration) share at least one value, and all the exact ones are
one value. Answers that share none cannot all be right: the searches disagree, and at least
one of them (or the tree they searched) is wrong.

One rule for every place that checks: a run's rows (:mod:`harness.run.agreement`), a game's
self-test (:mod:`harness.check.game`), a comparison and a reproduction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BOUNDS = ("exact", "lower", "upper")
"""The bounds an answer may carry; ``none`` (no score: a node limit struck) allows any value."""


@dataclass(frozen=True)
class Answer:
    """One search's answer to a question: its variant and what its result says of the value."""

    label: str
    """The variant's label (``pvs:zw_min_depth=3``)."""
    score: int | None
    """The root score, or ``None`` when the search stopped without one."""
    bound: str
    """``exact``, ``lower`` (the value is at least the score), ``upper`` (at most), ``none``."""

    def allows(self, value: int) -> bool:
        """Whether minimax's value could be ``value`` by this answer."""
        if self.score is None or self.bound not in BOUNDS:
            return True
        if self.bound == "lower":
            return value >= self.score
        if self.bound == "upper":
            return value <= self.score
        return value == self.score

    @property
    def text(self) -> str:
        """``pvs 12``, ``belle >= 12``, ``aspiration <= 3``, ``mtdf (no score)``."""
        if self.score is None or self.bound not in BOUNDS:
            return f"{self.label} (no score)"
        relation = {"exact": "", "lower": ">= ", "upper": "<= "}[self.bound]
        return f"{self.label} {relation}{self.score}"


def disagreement(answers: Sequence[Answer]) -> str | None:
    """``None`` when some value is allowed by every answer; otherwise one line naming the
    answers that cannot hold together, the reference first (``minimax 5, mtdf 7``)."""
    scored = [a for a in answers if a.score is not None and a.bound in BOUNDS]
    if not scored:
        return None
    exact = sorted({a.score for a in scored if a.bound == "exact" and a.score is not None})
    if exact:
        candidates = exact
    else:
        lowers = [a.score for a in scored if a.bound == "lower" and a.score is not None]
        candidates = [max(lowers)] if lowers else [min(a.score for a in scored
                                                      if a.score is not None)]
    if len(exact) <= 1 and all(a.allows(candidates[0]) for a in scored):
        return None
    return ", ".join(a.text for a in scored)


def reference_first(answers: Sequence[Answer], reference: str) -> list[Answer]:
    """``answers`` with the ``reference`` search's (minimax's) first, the rest in their order
    (its value is the one the others are named against)."""
    return sorted(answers, key=lambda a: a.label != reference)
