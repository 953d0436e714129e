"""What every claim's module is made of: the claim's records (before and after it is
measured), the measured rows it is analysed from, the statistics on those rows, and the
formats and chart pieces the claims share."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from harness.errors import HarnessError
from harness.report import stats
from harness.reproduce.measure import ORDERING_LEVELS, VALUE_MODELS, Job, Scale
from harness.reproduce.rules import Bootstrap, Rules
from harness.reproduce.verdicts import NO_WAC, NOT_MEASURED, Check


@dataclass(frozen=True)
class ClaimInfo:
    """What a claim is before it is measured, and how it is measured and judged."""

    key: str
    """Short name."""
    title: str
    """Title."""
    source: str
    """Source."""
    claimed: str
    """The claim."""
    analyse: Callable[[Context, ClaimInfo], Section]
    """Its analysis: the measured rows to numbers, checks, text, tables and charts."""
    sweep: tuple[str, ...] = ()
    """Variants it needs on the synthetic ordering sweep."""
    chess: tuple[tuple[str, str], ...] = ()
    """(configuration, variant) pairs it needs on chess positions."""
    sweep_at: tuple[tuple[str, str], ...] = ()
    """(ordering level, variant) pairs it needs on the sweep at that level only."""
    traced: tuple[str, ...] = ()
    """Variants whose runs (sweep and chess) it needs traced, for their distinct nodes
    (:attr:`harness.reproduce.measure.Run.visited`)."""
    jobs: Callable[[Scale], list[Job]] | None = None
    """The jobs of a dataset of its own, named by its key."""
    chess_jobs: Callable[[Scale, Path], list[Job]] | None = None
    """The jobs of a chess dataset of its own, named by its key, on the suite's positions
    (none without a suite)."""
    rule: tuple[str, str] | None = None
    """Its verdict rules for the report when it has no rules file: a short name, and the
    text that follows the claim's number (from its first punctuation: ``": ..."``)."""
    rules: Rules | None = None
    """Its registered rules (:mod:`harness.reproduce.rules`): bands, estimators, sample
    sizes and seeds, each earlier version with its verdict."""


@dataclass(frozen=True)
class Claim:
    """One claim, what was measured and the verdict."""

    key: str
    """Its short name (``knuth-moore``, ``pearl``, ...), as ``only`` takes it."""
    title: str
    """A one-line title."""
    source: str
    """Where the claim is made."""
    setup: str
    """What was searched, with which variants, switches and depths."""
    claimed: str
    """The claim, as its source makes it."""
    measured: str
    """What the measurement found, in a sentence or two."""
    verdict: str
    """``holds``, ``does not hold``, ``inconclusive``, the counts of a mixed result (``3 of
    5 checks hold, 1 inconclusive, 1 does not hold``), ``theorem: ...`` or ``not measured:
    ...`` (:func:`harness.reproduce.verdicts.verdict_of`)."""
    numbers: dict[str, Any]
    """Every number the verdict and the text rest on (JSON-ready)."""
    charts: tuple[Path, ...]
    """The claim's charts, PNG and SVG."""
    checks: tuple[Check, ...] = ()
    """Its checks: the claim checks the verdict was decided by (:func:`verdict_of`) and the
    correctness checks beside them."""
    rules: dict[str, Any] | None = None
    """The rules it was judged by: file, version, the file's sha256, the rules' sha256,
    and whether the run's sample is the registered one (``None`` without a rules file)."""
    phase: str = "explore"
    """The phase its row is recorded in: ``explore`` or ``confirm``
    (:func:`harness.reproduce.phases.phase_of`); only a confirmation row's verdict is the
    claim's verdict."""
    phase_why: str = ""
    """Why a row of a confirmation run is exploratory (empty otherwise)."""


@dataclass
class Section:
    """A claim measured: its record's content, tables and charts."""

    info: ClaimInfo
    setup: str
    measured: str
    numbers: dict[str, Any]
    checks: list[Check]
    tables: list[tuple[str, list[str], list[list[str]]]] = field(default_factory=list)
    figures: list[tuple[str, str, Figure]] = field(default_factory=list)
    verdict: str | None = None


def unmeasured_section(info: ClaimInfo) -> Section:
    """The section of a claim whose run has no rows (its data were not found or not asked
    for): said so, with the verdict :data:`NOT_MEASURED`."""
    return Section(info, "Not measured.", "Not measured: no rows.", {"measured": False}, [],
                   verdict=NOT_MEASURED)


class Context:
    """What the claims are measured from."""

    def __init__(self, frames: dict[str, pd.DataFrame], scale: Scale, suite: Path | None) -> None:
        self.frames = frames
        self.scale = scale
        self.suite = suite

    @property
    def chess(self) -> pd.DataFrame | None:
        return self.frames.get("chess")

    def sweep(self) -> pd.DataFrame:
        """The ordering sweep's rows, each with its ``config``: ``model/ordering``."""
        frame = self.frames["sweep"]
        return frame.assign(config=frame["model"] + "/" + frame["ordering"])

    def chess_text(self) -> str:
        if self.suite is None:
            return "no chess suite found"
        s = self.scale
        which = (f"the first {s.chess_positions} positions" if s.chess_first == 1 else
                 f"positions {s.chess_first} to {s.chess_first + s.chess_positions - 1}")
        return (f"{which} of {self.suite.name}, iterative deepening to depth {s.chess_depth} "
                "with quiescence")

    def sweep_text(self, variants: str) -> str:
        s = self.scale
        return (f"synthetic trees b = {s.sweep_branching}, d = {s.sweep_depth} searched to their "
                f"depth, {s.sweep_trees} trees (seed {s.seed_of('sweep')}) per ordering level "
                f"({', '.join(ORDERING_LEVELS)}) "
                f"and value model (distinct: {VALUE_MODELS['distinct']}; tied: "
                f"{VALUE_MODELS['tied']}); the same trees at every level, only reordered; "
                f"{variants}; no table, no iterative deepening (variants that need them bring "
                "their own)")


def no_chess(ctx: Context, info: ClaimInfo) -> Section:
    """A chess-only claim when no suite was found."""
    setup = ("Chess positions: none (no wac.epd in the suite folders, no "
             "harness/games/chess/positions/bench.epd).")
    return Section(info, setup, "Not measured: no chess suite was found.", {"measured": False}, [],
                   verdict=NO_WAC)


# ---------------------------------------------------------------------------------------
# Statistics on the rows


def refuse_unfinished(rows: pd.DataFrame, where: str) -> None:
    """Refuse, in one line naming ``where``, rows of which any search did not finish: a
    stopped search is never a result."""
    stopped = int((rows["status"] != "ok").sum())
    if stopped:
        raise HarnessError(f"{where}: {stopped} searches did not finish (a stopped search is "
                           "never a result)")


def _effort(frame: pd.DataFrame) -> pd.Series:
    return frame["nodes"] + frame["qnodes"]


def paired(frame: pd.DataFrame, a: str, b: str, counter: str = "effort",
           keys: Sequence[str] = ("suite", "problem_id", "config"),
           extra: Sequence[str] = ()) -> pd.DataFrame:
    """Rows of variants ``a`` and ``b`` side by side (``x_a``, ``x_b``) on the same problem;
    ``effort`` is total nodes (``nodes + qnodes``). ``extra``: further columns to bring
    (a column the rows lack comes as NaN)."""
    frame = frame.assign(effort=_effort(frame))
    frame = frame.assign(**{c: np.nan for c in extra if c not in frame.columns})
    columns = [*keys, counter, "researches", *(c for c in extra if c not in (counter, "researches"))]
    left = frame.loc[frame["variant"] == a, columns]
    right = frame.loc[frame["variant"] == b, columns]
    return left.merge(right, on=list(keys), suffixes=("_a", "_b"), how="inner")


def ratio_summary(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray,
                  boot: Bootstrap) -> dict[str, float]:
    """Geometric mean of per-problem ratios ``b / a``, its bootstrap interval (``boot``:
    a claim's registered level, resamples and seed), wins / ties / losses for B and the
    exact sign test (see :mod:`harness.report.stats`); beside them, never judged, the two
    other ways to average the problems (the robustness line of :func:`ratio_text`): the
    ratio of the totals (``totals``, where the largest problems weigh most) and the median
    of the per-problem ratios (``median``)."""
    first = np.asarray(a, dtype=np.float64)
    second = np.asarray(b, dtype=np.float64)
    ratios = stats.ratios(first, second)
    low, high = stats.bootstrap_interval(ratios, boot.seed, boot.resamples, boot.level)
    wins, ties, losses = stats.wins_ties_losses(first, second)
    total = float(first.sum())
    return {"ratio": stats.geometric_mean(ratios), "low": low, "high": high, "n": float(len(ratios)),
            "fewer": float(wins), "equal": float(ties), "more": float(losses),
            "sign_p": stats.sign_test(wins, losses), "level": boot.level,
            "totals": float(second.sum()) / total if total > 0 else math.nan,
            "median": float(np.median(ratios)) if len(ratios) else math.nan}


def pair_ratio(frame: pd.DataFrame, a: str, b: str, boot: Bootstrap,
               counter: str = "effort") -> dict[str, float]:
    """:func:`ratio_summary` of ``counter`` for ``b`` against ``a`` on the same problems."""
    both = paired(frame, a, b, counter)
    return ratio_summary(both[f"{counter}_a"].to_numpy(), both[f"{counter}_b"].to_numpy(), boot)


_CHUNK_CELLS = 2_000_000
"""Values drawn at a time by :func:`resampled_sums` (bounds memory; results never depend on it)."""


def resampled_sums(columns: Sequence[Sequence[float]] | np.ndarray, boot: Bootstrap) -> np.ndarray:
    """The bootstrap of a statistic of column totals: the rows (problems) of ``columns``
    (one row per problem, one column per count) drawn with replacement ``boot.resamples``
    times with ``Generator(PCG64(boot.seed))``, and each draw's column sums, shape
    ``(resamples, columns)``. Empty for no rows."""
    data = np.asarray(columns, dtype=np.float64)
    if data.ndim == 1:
        data = data[:, None]
    n, k = data.shape
    if n == 0:
        return np.empty((0, k))
    rng = np.random.Generator(np.random.PCG64(boot.seed))
    sums = np.empty((boot.resamples, k), dtype=np.float64)
    rows = max(1, _CHUNK_CELLS // (n * k))
    for start in range(0, boot.resamples, rows):
        stop = min(boot.resamples, start + rows)
        picks = rng.integers(0, n, size=(stop - start, n))
        sums[start:stop] = data[picks].sum(axis=1)
    return sums


def percentile_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """The ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of a statistic's
    resampled values; ``(nan, nan)`` for none (or any NaN among them)."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0 or np.isnan(values).any():
        return math.nan, math.nan
    tail = (1 - level) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return float(low), float(high)


def mean_summary(values: Sequence[float] | np.ndarray, boot: Bootstrap) -> dict[str, float]:
    """The mean over problems of one value per problem, with its bootstrap interval."""
    data = np.asarray(values, dtype=np.float64)
    n = len(data)
    low, high = percentile_interval(resampled_sums(data, boot)[:, 0] / n if n else np.empty(0),
                                    boot.level)
    return {"mean": float(data.mean()) if n else math.nan, "low": low, "high": high,
            "n": float(n), "level": boot.level}


def rate_summary(numerator: Sequence[float] | np.ndarray, denominator: Sequence[float] | np.ndarray,
                 boot: Bootstrap) -> dict[str, float]:
    """A rate of totals, ``sum(numerator) / sum(denominator)`` over problems (one of each
    per problem), with its bootstrap interval over problems."""
    top = np.asarray(numerator, dtype=np.float64)
    bottom = np.asarray(denominator, dtype=np.float64)
    sums = resampled_sums(np.column_stack([top, bottom]), boot)
    with np.errstate(divide="ignore", invalid="ignore"):
        low, high = percentile_interval(sums[:, 0] / sums[:, 1], boot.level)
    return {"rate": stats.rate(top, bottom), "low": low, "high": high, "n": float(len(top)),
            "level": boot.level}


# ---------------------------------------------------------------------------------------
# Formats and chart pieces


def fmt(value: float, digits: int = 3) -> str:
    """A number for a table; ``–`` for a missing one."""
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def wtl(r: Mapping[str, float]) -> str:
    """B's wins / ties / losses."""
    return f"{r['fewer']:.0f} / {r['equal']:.0f} / {r['more']:.0f}"


def interval(r: Mapping[str, float], digits: int = 3) -> str:
    """A ratio's interval (claim 7 gives 4 digits: at 3 an interval such as 0.9997 to
    0.9999 would print as 1.000 to 1.000 and hide that it excludes 1)."""
    return f"{fmt(r['low'], digits)} to {fmt(r['high'], digits)}"


def p_value(p: float) -> str:
    """A p-value for reading."""
    return "< 0.0001" if p < 0.0001 else f"{p:.2g}"


def not_measured(ax: Axes, text: str) -> None:
    """An empty panel saying what was not measured."""
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#555555")
    ax.set_xticks([])
    ax.set_yticks([])
