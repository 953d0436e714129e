"""From a node saving to Elo: what one ply is worth, and what the saving predicts.

A side that searches ``r`` times the nodes of the other at the same depth reaches, under
the same node budget, about ``ln(1 / r) / ln(b)`` plies deeper, ``b`` the effective
branching factor (nodes at a depth over nodes one ply shallower, from the link searches,
:mod:`harness.match.link`). What a ply is worth is measured, not assumed: side A at depth
``d + 1`` plays side A at depth ``d`` from the same openings, as many pairs as the match
played, ``d`` the depth A reached per move in the match (its mean, rounded down; the
depth itself under a depth budget). The prediction is that many plies times that Elo;
it agrees with the match when it lies in the match's 95% Elo interval.

The calibration plays every pair (no SPRT stops it) into ``calibration.csv``; it is
played anew, the same games, when a resumed match finishes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.games.base import Problem
from harness.match.link import Link
from harness.match.pairs import Progress, Tally, play_pairs
from harness.match.play import Budget, Rules, Side
from harness.match.record import GamesWriter
from harness.match.stats import EloEstimate, Sprt
from harness.run.executors import Execution

CALIBRATION_FILE = "calibration.csv"
"""The calibration's games, as ``games.csv`` (side A one ply deeper)."""


@dataclass(frozen=True)
class Calibration:
    """Side A one ply deeper against itself."""

    depth: int
    """The shallower depth ``d`` (A at ``d + 1`` played A at ``d``)."""
    progress: Progress
    """The calibration's results (its ``estimate`` is the Elo of one ply)."""


@dataclass(frozen=True)
class Prediction:
    """What the node saving predicts."""

    plies: float
    """Plies the saving buys: ``ln(B's nodes / A's nodes) / ln(branching)``."""
    elo: float
    """Those plies times the Elo of one ply."""
    agrees: bool | None
    """Whether it lies in the match's 95% Elo interval (``None``: no match estimate, or its
    interval undefined)."""


def calibration_depth(mean_depths: Sequence[float], budget: Budget) -> int:
    """The depth ``d`` of the calibration: a depth budget's, else the mean of side A's mean
    depths per game, rounded down (at least 1)."""
    if budget.kind == "depth":
        return budget.depth
    return max(1, math.floor(sum(mean_depths) / len(mean_depths))) if mean_depths else 1


def calibrate(problems: Sequence[Problem], side: Side, depth: int, pairs: int, rules: Rules,
              execution: Execution, out: Path,
              on_pair: Callable[[Progress], None] | None = None) -> Calibration:
    """Play ``pairs`` pairs of ``side`` at ``depth + 1`` against itself at ``depth`` into
    ``out/calibration.csv``; ``on_pair`` hears of each (its stage ``calibration``)."""
    path = out / CALIBRATION_FILE
    path.unlink(missing_ok=True)
    writer = GamesWriter(path, (f"{side.label}@{depth + 1}", f"{side.label}@{depth}"))
    budgets = (Budget("depth", depth=depth + 1), Budget("depth", depth=depth))
    progress = play_pairs(problems, (side, side), budgets, rules, Tally(Sprt(), "calibration"),
                          pairs, writer, execution, on_pair, stop=False)
    return Calibration(depth, progress)


def predict(link: Link, calibration: Calibration, match: EloEstimate | None) -> Prediction | None:
    """The Elo the node ratio predicts; ``None`` where a number is missing (depth 1, no
    pair, a ply worth all or nothing: an infinite Elo)."""
    branching, per_ply = link.branching, calibration.progress.estimate
    if branching is None or per_ply is None or not math.isfinite(per_ply.elo) or not all(link.nodes):
        return None
    plies = math.log(link.nodes[1] / link.nodes[0]) / math.log(branching)
    elo = plies * per_ply.elo
    interval = None if match is None else match.interval
    agrees = None if interval is None else interval[0] <= elo <= interval[1]
    return Prediction(plies, elo, agrees)
