"""Game pairs played in order: pair ``k`` plays opening ``k mod n``; pairs may finish in any
order on several workers, but they are counted, tested and written in their order, and
play stops at the first pair whose LLR crosses a bound (so ``--jobs 2`` and Dask play the
games of ``--jobs 1``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count

from harness.games.base import Problem
from harness.match.play import Budget, Game, Rules, Side, play_pair
from harness.match.record import GamesWriter
from harness.match.stats import EloEstimate, Pentanomial, Sprt, estimate
from harness.run.executors import Execution, start_workers


@dataclass(frozen=True)
class Progress:
    """The state of a match after a pair."""

    pair: int
    """Pairs played so far."""
    pairs: int
    """The most pairs the match will play."""
    points: tuple[int, int, int]
    """Side A's wins, draws and losses."""
    counts: Pentanomial
    """The pentanomial counts."""
    llr: float
    """The log-likelihood ratio."""
    estimate: EloEstimate | None
    """Elo, normalized Elo and their intervals."""
    decision: str | None
    """``H1``, ``H0`` or ``None``."""
    stage: str = "match"
    """``match``, ``calibration`` (:mod:`harness.match.calibrate`), or ``ladder N`` (a rung
    of :mod:`harness.match.ladder`, N its nodes a move)."""

    def line(self, sprt: Sprt, labels: tuple[str, str]) -> str:
        """A progress line as fastchess prints it."""
        wins, draws, losses = self.points
        games = wins + draws + losses
        elo = self.estimate
        lower, upper = sprt.bounds
        text = (f"Games {games}/{2 * self.pairs} {labels[0]} vs {labels[1]}: "
                f"W {wins} D {draws} L {losses}")
        if elo is not None:
            text += f" | {elo.text()}"
        text += (f" | LLR {self.llr:.2f} ({lower:.2f}, {upper:.2f}) [{sprt.elo0:.2f}, "
                 f"{sprt.elo1:.2f}] | Ptnml(0-2): [{', '.join(map(str, self.counts.counts))}]")
        return text + (f" | {self.decision} accepted" if self.decision else "")


def play_pairs(problems: Sequence[Problem], sides: tuple[Side, Side],
               budgets: tuple[Budget, Budget], rules: Rules, tally: Tally, pairs: int,
               writer: GamesWriter, execution: Execution,
               on_pair: Callable[[Progress], None] | None = None, stop: bool = True) -> Progress:
    """Play pairs from the ``tally``'s count up to ``pairs`` (opening ``k mod n`` for pair
    ``k``), in order, each written and counted as it comes; ``stop``: stop at an SPRT
    decision."""
    progress = tally.progress(pairs)
    if (stop and progress.decision is not None) or tally.pairs >= pairs:
        return progress
    jobs = ((problems[k % len(problems)], sides, budgets, rules) for k in range(tally.pairs, pairs))
    with start_workers(execution, pairs - tally.pairs) as workers:
        for games in _in_order(workers.map(play_pair, jobs)):
            writer.add(tally.pairs, games)
            tally.add(games[0].points_a, games[1].points_a)
            progress = tally.progress(pairs)
            if on_pair is not None:
                on_pair(progress)
            if stop and progress.decision is not None:
                break
    return progress


def _in_order(finished: Iterator[tuple[int, tuple[Game, Game]]]) -> Iterator[tuple[Game, Game]]:
    """The pairs in their order, whatever order they finish in."""
    waiting: dict[int, tuple[Game, Game]] = {}
    expected = count()
    following = next(expected)
    for index, games in finished:
        waiting[index] = games
        while following in waiting:
            yield waiting.pop(following)
            following = next(expected)


class Tally:
    """Side A's results pair by pair, and the test on them."""

    def __init__(self, sprt: Sprt, stage: str = "match") -> None:
        self.sprt = sprt
        self.stage = stage
        self.counts = Pentanomial()
        self.points = [0, 0, 0]
        self.pairs = 0

    def add(self, first: float, second: float) -> None:
        """Count a pair in which A scored ``first`` and ``second``."""
        for points in (first, second):
            self.points[0 if points == 1 else 1 if points == 0.5 else 2] += 1
        self.counts = self.counts.add(first + second)
        self.pairs += 1

    def progress(self, pairs: int) -> Progress:
        """The state after the pairs counted, of a match of at most ``pairs``."""
        llr = self.sprt.llr(self.counts)
        wins, draws, losses = self.points
        return Progress(self.pairs, pairs, (wins, draws, losses), self.counts, llr,
                        estimate(self.counts), self.sprt.decision(llr), self.stage)
