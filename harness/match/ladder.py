"""A calibration ladder: side A against a UCI engine (Stockfish unless named otherwise) at a
few node budgets per move, the rungs, so A's strength reads on a scale anyone can repeat.

Each rung is the engine limited to ``go nodes N`` a move (reproducible with one thread and
a new game before every move, :mod:`harness.match.engine_side`); A keeps the match's
budget. A rung plays as many pairs as the match may (``--games``, else each opening once),
every pair (no SPRT stops it), into ``ladder-N.csv`` (the columns of ``games.csv``), and a
resumed match plays on from the pairs each file holds.

What it gives: A's Elo against each rung with its 95% interval, and where A sits on the
ladder: the engine's node budget at which A would score even, found where A's Elo against
the rungs crosses 0, linearly in the logarithm of the nodes between the two rungs either
side (an engine's strength grows about linearly with each doubling of its nodes); its
interval where the interval's ends cross 0 (the lower end gives the smaller budget). Above
every rung or below every rung A is not placed, only bounded, and said so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.engines.spec import EngineSpec
from harness.games.base import Problem
from harness.match.pairs import Progress, Tally, play_pairs
from harness.match.play import Budget, Rules, Side, make_engine_side
from harness.match.record import GamesWriter, read_pairs
from harness.match.stats import Sprt
from harness.run.executors import Execution

LADDER_STAGE = "ladder"
"""The stage of a rung's progress (:class:`Progress`)."""


def ladder_file(nodes: int) -> str:
    """The games of the rung at ``nodes`` a move."""
    return f"ladder-{nodes}.csv"


def rung_side(engine: EngineSpec, nodes: int, timeout_s: float) -> Side:
    """The ladder's engine as the side of the rung at ``nodes`` a move: named
    ``NAME@Nn`` in the rung's games."""
    side = make_engine_side(engine, timeout_s)
    return Side(f"{engine.name}@{nodes}n", engine=engine, engine_timeout=side.engine_timeout)


@dataclass(frozen=True)
class Rung:
    """Side A against the ladder's engine at one node budget."""

    nodes: int
    """The engine's nodes a move (``go nodes``)."""
    progress: Progress
    """The rung's pairs (its ``estimate``: A's Elo against the rung)."""


@dataclass(frozen=True)
class Placement:
    """Where side A sits on the ladder."""

    nodes: float | None
    """The engine's node budget at which A would score even (``None``: not placed)."""
    low: float | None
    """The smaller end of its 95% interval (``None``: open, below the lowest rung or an
    interval undefined)."""
    high: float | None
    """The larger end (``None``: open)."""
    text: str
    """The placement in words (also where A is not placed, and why)."""


def play_ladder(problems: Sequence[Problem], side: Side, budget: Budget, engine: EngineSpec,
                rungs: Sequence[int], timeout_s: float, pairs: int, rules: Rules,
                execution: Execution, out: Path, resume: bool,
                on_pair: Callable[[Progress], None] | None = None) -> list[Rung]:
    """Every rung of ``rungs`` (the engine's nodes a move), ``pairs`` pairs each, into its
    ``ladder-N.csv`` (``resume``: on from the pairs there)."""
    played = []
    for nodes in rungs:
        path = out / ladder_file(nodes)
        if not resume:
            path.unlink(missing_ok=True)
        tally = Tally(Sprt(), LADDER_STAGE)
        for first, second, _ in read_pairs(path):
            tally.add(first, second)
        opponent = rung_side(engine, nodes, timeout_s)
        writer = GamesWriter(path, (side.name, opponent.name))
        progress = play_pairs(problems, (side, opponent), (budget, Budget("nodes", nodes=nodes)),
                              rules, tally, pairs, writer, execution, on_pair, stop=False)
        played.append(Rung(nodes, progress))
    return played


def place(rungs: Sequence[Rung], engine: str) -> Placement:
    """Where A's Elo against the rungs crosses 0 (:class:`Placement`), ``engine`` the
    ladder engine's name for the words."""
    points = sorted((rung.nodes, rung.progress.estimate) for rung in rungs
                    if rung.progress.estimate is not None)
    if not points:
        return Placement(None, None, None, "no rung played")
    nodes = [n for n, _ in points]
    centre = [e.elo for _, e in points]
    low = [e.elo - e.elo_error if not e.undefined else math.nan for _, e in points]
    high = [e.elo + e.elo_error if not e.undefined else math.nan for _, e in points]
    found = crossing(nodes, centre)
    if found is None:
        if all(elo > 0 for elo in centre):
            return Placement(None, None, None, f"A is stronger than every rung: above {engine} "
                             f"at {nodes[-1]:,} nodes a move (add a higher rung to place it)")
        if all(elo < 0 for elo in centre):
            return Placement(None, None, None, f"A is weaker than every rung: below {engine} at "
                             f"{nodes[0]:,} nodes a move (add a lower rung to place it)")
        return Placement(None, None, None, "A's Elo against the rungs does not cross 0 between "
                         "two rungs with finite Elo (a rung won or lost every game)")
    smaller, larger = crossing(nodes, low), crossing(nodes, high)
    interval = f"95% interval {_end(smaller, nodes, low)} to {_end(larger, nodes, high)}"
    return Placement(found, smaller, larger,
                     f"A plays like {engine} at about {found:,.0f} nodes a move ({interval})")


def _end(value: float | None, rungs: Sequence[int], elos: Sequence[float]) -> str:
    """An end of the placement's interval: its node budget, or past which rung it lies
    (``elos``: that end's curve, positive everywhere: above the highest rung)."""
    if value is not None:
        return f"{value:,.0f}"
    finite = [elo for elo in elos if math.isfinite(elo)]
    if finite and all(elo > 0 for elo in finite):
        return f"above {rungs[-1]:,}"
    if finite and all(elo < 0 for elo in finite):
        return f"below {rungs[0]:,}"
    return "undefined"


def crossing(nodes: Sequence[int], elos: Sequence[float]) -> float | None:
    """The node budget where ``elos`` (A's Elo against the rungs at ``nodes``, rising
    budgets) first falls from at least 0 to below it, interpolated linearly in ``log(nodes)``
    between the two rungs; at a rung where the Elo is 0, that rung. ``None``: no such fall
    between two finite values."""
    for index in range(len(nodes) - 1):
        before, after = elos[index], elos[index + 1]
        if not (math.isfinite(before) and math.isfinite(after)):
            continue
        if before >= 0 > after:
            share = before / (before - after)
            log_nodes = math.log(nodes[index]) + share * (math.log(nodes[index + 1])
                                                          - math.log(nodes[index]))
            return math.exp(log_nodes)
    if elos and elos[-1] == 0:
        return float(nodes[-1])
    return None


def rung_lines(rungs: Sequence[Rung], engine: str) -> list[str]:
    """A line per rung: A's results and Elo against it."""
    lines = []
    for rung in rungs:
        wins, draws, losses = rung.progress.points
        elo = rung.progress.estimate
        lines.append(f"ladder: A against {engine} at {rung.nodes:,} nodes a move, "
                     f"{rung.progress.pair} pairs: W {wins} D {draws} L {losses}, Elo "
                     + ("none" if elo is None else elo.elo_text(1)))
    return lines
