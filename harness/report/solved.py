"""The ``solved`` column read: whether each search found a test position's best move.

A leaf of the report package, read by the page (:mod:`harness.report.page`) and the brief
summary (:mod:`harness.report.summary`) alike."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from harness.errors import HarnessError


def solved_flags(values: pd.Series) -> pd.Series:
    """A ``solved`` column as 1.0 (True), 0.0 (False) or NaN (empty: not a test position).

    Accepts booleans, ``True``/``False``/``1``/``0`` in any case, numbers and empties, as
    ``results.csv`` may be read with or without type inference.
    """
    def flag(value: object) -> float:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return math.nan
        if isinstance(value, bool | np.bool_):
            return 1.0 if value else 0.0
        if isinstance(value, int | float | np.integer | np.floating):
            return 1.0 if value else 0.0
        text = str(value).strip().lower()
        if text in ("", "nan", "none"):
            return math.nan
        if text in ("true", "1", "1.0", "yes"):
            return 1.0
        if text in ("false", "0", "0.0", "no"):
            return 0.0
        raise HarnessError(f"solved: {value!r} is not True, False or empty")

    return pd.Series([flag(v) for v in values], index=values.index, dtype=np.float64)
