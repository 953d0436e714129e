"""Searches that stopped before their end: never a result.

A search stopped by a limit (``--max-nodes``: status ``max-nodes``; SSS*'s and DUAL*'s OPEN
list: ``max-open``) has counts that say how far it got, not what the search costs, and no
answer (or only a bound on the way). Such a row is kept in ``results.csv`` (a resumed or
larger run can be compared with it) but is never part of a ratio, a verdict, a ranking or
an answer cross-check: every reader of a run's rows (:mod:`harness.report.compare`,
:mod:`harness.report.diff`, :mod:`harness.report.answers`, :mod:`harness.report.summary`)
takes the finished rows and counts the stopped ones, and says so.

``pass-cap`` is not a stop: an MTD driver given ``max_passes`` (part of the variant's name,
e.g. ``mtdf:max_passes=3``) ends there by its own rule, and its bound is its answer, checked
as a bound.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd

FINISHED = ("ok", "pass-cap")
"""The statuses of a search that ran to its end (by its variant's own rules)."""


def stopped_mask(results: pd.DataFrame) -> pd.Series:
    """For each row of ``results``, whether its search stopped before its end (a status
    that is not :data:`FINISHED`; a frame without ``status``, or an empty status, is read as
    finished: results written before the column existed)."""
    if "status" not in results.columns:
        return pd.Series(False, index=results.index)
    status = results["status"].fillna("").astype(str)
    return ~status.isin(["", *FINISHED])


def finished(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``results`` whose search ran to its end."""
    return results[~stopped_mask(results)]


def reasons(results: pd.DataFrame) -> str:
    """The stopped rows of ``results`` by status, as words: ``max-nodes on 15`` or
    ``max-nodes on 3, max-open on 1`` (empty when none stopped)."""
    halted = results[stopped_mask(results)]
    if halted.empty:
        return ""
    counts = Counter(str(s) for s in halted["status"])
    return ", ".join(f"{status} on {n}" for status, n in counts.most_common())


def headline(results: pd.DataFrame) -> str:
    """The line a summary starts with when searches stopped (empty when none did)."""
    halted = int(stopped_mask(results).sum())
    if not halted:
        return ""
    return (f"STOPPED: {halted} of {len(results)} searches stopped before their end "
            f"({reasons(results)}): they are not results, and no ratio, verdict or "
            "cross-check counts them")
