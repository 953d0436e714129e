"""A calibration ladder: side A against a UCI engine (Stockfish unless named otherwise) at a
few node budgets per move, the rungs, so A's strength reads on a scale anyone can repeat.

Each rung is the engine limited to ``go nodes N`` a move (reproducible with one thread and
a new game before every move, :mod:`harness.match.engine_side`); A keeps the match's
budget. A rung plays as many pairs as the match may (``--games``, else each opening once),
every pair (no SPRT stops it), into ``ladder-N.csv`` (the columns of ``games.csv``), and a
resumed match plays on from the pairs each file holds.

What it gives: A's Elo against each rung with its 95% interval, and where A sits on the
ladder: the engine's node budget at which A would score even, where A's Elo against the
rungs first falls below 0 (rising budgets), interpolated linearly in the logarithm of the
nodes between that rung and the one before (an engine's strength grows about linearly with
each doubling of its nodes); its interval where the interval's ends fall below 0 (the
lower end gives the smaller budget). Above every rung or below every rung A is not placed,
only bounded, and said so.
"""

from __future__ import annotations

import itertools
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
"""The stage of a rung's progress (:class:`Progress`), its nodes after a space."""


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
        tally = Tally(Sprt(), f"{LADDER_STAGE} {nodes}")
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
    found, said = crossing(nodes, centre)
    known = [elo for elo in centre if not math.isnan(elo)]
    # Rungs of few pairs may not order themselves: A doing better against a stronger rung.
    unordered = any(later > earlier for earlier, later in itertools.pairwise(known))
    note = ("; A's Elo does not fall at every rung as its nodes rise: too few pairs a rung "
            "to order them" if unordered else "")
    if found is None and said.startswith("above"):
        return Placement(None, None, None, f"A scores at least even against every rung: {said} "
                         f"nodes a move of {engine} (add a higher rung to place it){note}")
    if found is None and said.startswith("below") and all(elo < 0 for elo in known):
        return Placement(None, None, None, f"A is weaker than every rung: {said} nodes a move of "
                         f"{engine} (add a lower rung to place it){note}")
    if found is None and said.startswith("below"):
        return Placement(None, None, None, f"A is not placed: it is below 0 Elo against the "
                         f"lowest rung ({nodes[0]:,} nodes a move of {engine}) and not against "
                         f"every higher one{note}")
    (smaller, low_said), (larger, high_said) = crossing(nodes, low), crossing(nodes, high)
    return Placement(found, smaller, larger,
                     f"A plays like {engine} at {said} nodes a move (95% interval: "
                     f"{low_said} to {high_said}){note}")


def crossing(nodes: Sequence[int], elos: Sequence[float]) -> tuple[float | None, str]:
    """Where ``elos`` (A's Elo against the rungs at ``nodes``, rising budgets) first falls
    below 0: interpolated linearly in ``log(nodes)`` between that rung and the one before,
    and in words (``about 1,860``; ``below 200`` when it is below 0 at the first rung,
    ``above 5,000`` when never; ``between 200 and 1,000`` when an Elo there is infinite, a
    rung won or lost every game; ``undefined`` where the values are not numbers)."""
    known = [(n, elo) for n, elo in zip(nodes, elos, strict=True) if not math.isnan(elo)]
    if not known:
        return None, "undefined"
    index = next((i for i, (_, elo) in enumerate(known) if elo < 0), None)
    if index is None:
        return None, f"above {known[-1][0]:,}"
    if index == 0:
        return None, f"below {known[0][0]:,}"
    (before_nodes, before), (after_nodes, after) = known[index - 1], known[index]
    if not (math.isfinite(before) and math.isfinite(after)):
        return None, f"between {before_nodes:,} and {after_nodes:,}"
    share = before / (before - after)
    value = math.exp(math.log(before_nodes) + share * (math.log(after_nodes)
                                                       - math.log(before_nodes)))
    return value, f"about {value:,.0f}"


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
