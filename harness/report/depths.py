"""Problem sets searched each to its own depth (Connect Four or an OpenSpiel game solved to
its end: every position has its own number of plies left) are compared as one group.

A report groups rows by problem set and depth. When every problem of a set was searched
at a single depth (by every variant) and those depths differ, there is no depth to compare at:
the set is one group, shown at its deepest depth and marked ``own_depth``. A set searched
at several depths (a depth sweep) keeps them.
"""

from __future__ import annotations

import pandas as pd


def group_own_depths(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with the depth of each set searched to its problems' own depths
    replaced by the set's deepest, and ``own_depth`` saying which rows (idempotent)."""
    frame = results.copy()
    if "own_depth" not in frame:
        frame["own_depth"] = False
    for _, part in frame.groupby("suite", sort=False):
        single = part.groupby("problem_id")["depth"].nunique().eq(1).all()
        if single and part["depth"].nunique() > 1:
            frame.loc[part.index, "depth"] = part["depth"].max()
            frame.loc[part.index, "own_depth"] = True
    return frame


def depth_label(part: pd.DataFrame, depth: int) -> str:
    """``depth 6``, or for a set grouped by :func:`group_own_depths` ``each problem to
    its own depth, at most 13``."""
    if "own_depth" in part and bool(part["own_depth"].any()):
        return f"each problem to its own depth, at most {depth}"
    return f"depth {depth}"
