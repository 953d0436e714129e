"""What a comparison measures, and its verdicts in words: nodes (the default), or time per
search.

Both are compared the same way: per problem, the ratio B/A of the two searches; their
geometric mean with a paired bootstrap interval, wins, ties and losses, and a sign test
(:func:`harness.report.compare.paired_statistics`). A time is compared in whole
microseconds (the resolution ``results.csv`` keeps), so the zero-count rule of
:mod:`harness.report.stats` reads a search too quick to time as one microsecond. A time
compares algorithms only when both searches ran in one frame
(:mod:`harness.report.frames` refuses the others).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from harness.errors import HarnessError

SIGNIFICANCE = 0.05
"""Level of the significance statements in verdicts."""

MEASURE_OPTION = "--measure"
"""The option that chooses the measure, on ``compare``, ``diff`` and ``show``."""


@dataclass(frozen=True)
class Measure:
    """A quantity two searches of one problem are compared by, with the words that say it."""

    name: str
    """What ``--measure`` takes, and the ``measure`` column of a comparison table."""
    noun: str
    """What is counted (``nodes``, ``time``)."""
    fewer: str
    """Less of it (``fewer``, ``less``)."""
    verb: str
    """What a search does with it (``searched``, ``took``)."""
    as_many: str
    """As much of it (``as many``, ``as much``)."""
    ratio: str
    """What a per-problem ratio is of (``node ratios``, ``time ratios``)."""
    least: str
    """The least of it (``fewest``, ``least``)."""

    def values(self, part: pd.DataFrame, side: str) -> np.ndarray:
        """The measure of each of ``part``'s searches on ``side`` (``a``, ``b``, ``old``,
        ``new``: the column suffix), as counts: nodes, or whole microseconds."""
        if self.name == "nodes":
            return part[f"nodes_{side}"].to_numpy(dtype=np.float64)
        return microseconds(part[f"time_s_{side}"])


NODES = Measure("nodes", "nodes", "fewer", "searched", "as many", "node ratios", "fewest")
TIME = Measure("time", "time", "less", "took", "as much", "time ratios (time per search)", "least")
MEASURES = {m.name: m for m in (NODES, TIME)}
"""Every measure by its name."""


def find_measure(name: str) -> Measure:
    """The measure called ``name``; one line naming the option otherwise."""
    if name not in MEASURES:
        raise HarnessError(f"{MEASURE_OPTION} {name}: not a measure (choose "
                           f"{' or '.join(MEASURES)})")
    return MEASURES[name]


def measure_of(row: Mapping[Any, Any] | pd.Series) -> Measure:
    """The measure of a comparison table's row (nodes for a table written before the
    ``measure`` column)."""
    name = row.get("measure")
    return MEASURES.get(str(name), NODES) if isinstance(name, str) else NODES


def microseconds(seconds: pd.Series) -> np.ndarray:
    """Times in seconds as whole microseconds (what ``results.csv`` resolves)."""
    return np.rint(seconds.to_numpy(dtype=np.float64) * 1e6)


def nodes_per_second(nodes: float, seconds: float) -> float:
    """Nodes over seconds; NaN for no time (or none measured)."""
    return nodes / seconds if seconds > 0 else math.nan


# -- verdicts ------------------------------------------------------------------------

def format_p(p: float) -> str:
    """A p-value for reading: two significant digits, ``< 0.0001`` below that."""
    if math.isnan(p):
        return "-"
    return "< 0.0001" if p < 0.0001 else f"{p:.2g}"


def _p_phrase(p: float) -> str:
    text = format_p(p)
    return text if text.startswith("<") else f"= {text}"


def verdict(other: str, baseline: str, n: int, ratio: float, interval: tuple[float, float],
            wins: int, ties: int, losses: int, p: float, level: float = 0.95,
            measure: Measure = NODES) -> str:
    """One sentence: which variant searched fewer nodes (took less time), by how much, and
    whether the difference is significant at 5% (interval excludes 1 and sign test
    p < 0.05)."""
    m = measure
    if n == 0:
        return f"{other} and {baseline} have no problems in common at this depth."
    if wins == losses == 0:
        return f"{other} and {baseline} {m.verb} exactly {m.as_many} {m.noun} on all {n} problems."
    change = (ratio - 1) * 100
    more = f"{m.verb} more {m.noun} than {baseline}"
    if ratio < 1:
        head = f"{other} {m.verb} {m.fewer} {m.noun} than {baseline}: {-change:.1f}% {m.fewer}"
    elif ratio >= 2:
        head = f"{other} {more}: {ratio:.3g} times {m.as_many}"
    elif ratio > 1:
        head = f"{other} {more}: {change:.1f}% more"
    else:
        head = f"{other} and {baseline} {m.verb} {m.as_many} {m.noun}"
    low, high = interval
    body = (f"{head} on geometric mean (ratio {ratio:.3f}, {level:.0%} interval {low:.3f} to "
            f"{high:.3f}); {other} {m.fewer} on {wins}, equal on {ties}, more on {losses} "
            f"of {n} problems")
    excludes = low > 1 or high < 1
    if excludes and p < SIGNIFICANCE:
        return f"{body}; significant at 5% (interval excludes 1, sign test p {_p_phrase(p)})."
    reasons = []
    if not excludes:
        reasons.append("the interval includes 1")
    reasons.append(f"sign test p {_p_phrase(p)}")
    return f"{body}; not significant at 5% ({', '.join(reasons)})."


def stopped_verdict(row: Mapping[str, Any], baseline: str, other: str) -> str:
    """The verdict of a pair with a stopped search: whose, on how many problems; no verdict
    on the measure."""
    a, b = int(row["stopped_a"]), int(row["stopped_b"])
    total = int(row["n"]) + int(row["stopped"])
    who = [f"{other} on {b}"] if b else []
    who += [f"{baseline} (the baseline) on {a}"] if a else []
    return (f"stopped before the end: {' and '.join(who)} of {total} problems (a node or "
            f"OPEN limit, an engine's timeout or crash): no verdict on {measure_of(row).noun}.")


def wrong_verdict(row: Mapping[str, Any], baseline: str, other: str, n: int) -> str:
    """The verdict of a pair with wrong answers: whose, on how many problems; no verdict on
    the measure."""
    a, b, either = int(row["wrong_a"]), int(row["wrong_b"]), int(row["disagree"])
    if b and not a:
        who = f"{other}: wrong answers on {b} of {n} problems"
    elif a and not b:
        who = f"{baseline} (the baseline): wrong answers on {a} of {n} problems"
    elif a and b:
        who = f"wrong answers: {other} on {b}, {baseline} on {a} of {n} problems"
    else:
        who = (f"{other} and {baseline} answer differently on {either} of {n} problems (one "
               "of them is wrong)")
    return f"{who}: no verdict on {measure_of(row).noun}."


def brief_verdict(row: Mapping[Any, Any] | pd.Series) -> str:
    """A row of a comparison table in a few words: how many fewer or more nodes (how much
    less or more time) on geometric mean and whether that is significant at 5% (or why
    not)."""
    n, ratio, p = int(row["n"]), float(row["ratio"]), float(row["sign_p"])
    m = measure_of(row)
    if int(row.get("stopped", 0) or 0):
        return f"stopped on {int(row['stopped'])} of {n + int(row['stopped'])} problems"
    if n == 0:
        return "no problems in common"
    if int(row.get("disagree", 0) or 0):
        a, b, either = int(row["wrong_a"]), int(row["wrong_b"]), int(row["disagree"])
        if b or not a:
            return f"wrong answers on {b or either} of {n} problems"
        return f"the baseline's answers are wrong on {a} of {n} problems"
    if int(row["wins"]) == int(row["losses"]) == 0:
        return f"{m.as_many} {m.noun} on all {n} problems"
    if ratio >= 2:
        size = f"{ratio:.3g} times the {m.noun}"
    else:
        size = f"{abs(ratio - 1) * 100:.1f}% {m.fewer if ratio < 1 else 'more'} {m.noun}"
    if row["significant"]:
        return f"{size}, significant"
    low, high = float(row["ratio_low"]), float(row["ratio_high"])
    why = "interval includes 1" if low <= 1 <= high else f"sign test p {_p_phrase(p)}"
    return f"{size}, not significant ({why})"


def change_words(ratio: float, measure: Measure, other: str) -> str:
    """A ratio to ``other``'s (``OLD``, ``alphabeta``) in words: ``3.1 times OLD's nodes``,
    ``12.5% more time than OLD``."""
    if ratio >= 2:
        return f"{ratio:.3g} times {other}'s {measure.noun}"
    more = measure.fewer if ratio < 1 else "more"
    return f"{abs(ratio - 1) * 100:.1f}% {more} {measure.noun} than {other}"
