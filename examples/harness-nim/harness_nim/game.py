"""A game plug-in: Nim, ``nim:3-4-5`` (piles of 3, 4 and 5 objects).

Normal play: a move takes one or more objects from one pile, and whoever takes the last
object wins. Values are negamax, for the side to move: -1 where no object is left (the
player to move has lost), 0 at a horizon that is not the end ("not decided yet"). The
default depth is the number of objects, by which every line has ended, so a search to it
is exact; a shallower one scores 0 where it cannot see the end.

Moves are ``(pile, take)``, named ``PILE:TAKE`` with piles counted from 1 (``2:3`` takes
3 from the second pile), pile by pile, fewest taken first (``order=large-first``: most
first). A position's key is its piles, a tuple of ints: the same in every process. (Not
the sorted piles, though positions differing only in the order of the piles have one
value: the table's move would then name a different pile.)

Bouton (1901): the player to move wins iff the XOR of the piles (the nim-sum) is not 0;
``judge`` checks the score's sign against it, which fills the ``solved`` column.

Imports come from ``harness.games.base`` and ``harness.options`` only: the game registry
loads this module at the end of its own import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import reduce
from operator import xor
from typing import ClassVar, cast

from harness.errors import HarnessError
from harness.games.base import Game, Move, Problem, ProblemSet, Tree
from harness.options import Option, OptionValue


class NimTree:
    """Nim piles seen through the harness's cursor (:class:`harness.games.base.Tree`)."""

    def __init__(self, piles: tuple[int, ...], large_first: bool) -> None:
        self.root = piles
        self.large_first = large_first
        self.piles = list(piles)
        self.left = sum(piles)                      # objects left
        self.played: list[tuple[int, int]] = []

    def moves(self) -> list[Move]:
        def takes(n: int) -> range:
            return range(n, 0, -1) if self.large_first else range(1, n + 1)
        return [(pile, take) for pile, n in enumerate(self.piles) for take in takes(n)]

    def push(self, move: Move) -> None:
        pile, take = cast(tuple[int, int], move)
        self.piles[pile] -= take
        self.left -= take
        self.played.append((pile, take))

    def pop(self) -> None:
        pile, take = self.played.pop()
        self.piles[pile] += take
        self.left += take

    def value(self) -> int:
        return -1 if self.left == 0 else 0

    def terminal_value(self) -> int:
        return -1                                   # the last object is gone: the mover lost

    def child_value(self, move: Move) -> int:
        return -1 if self.left == cast(tuple[int, int], move)[1] else 0

    def key(self) -> tuple[int, ...]:
        return tuple(self.piles)

    def move_name(self, move: Move) -> str:
        pile, take = cast(tuple[int, int], move)
        return f"{pile + 1}:{take}"

    def reset(self) -> None:
        self.piles, self.left, self.played = list(self.root), sum(self.root), []

    def cutoff(self, move: Move, depth: int) -> None:
        """The order is fixed: nothing to learn."""


class Nim(Game):
    """``nim:PILES``: pile sizes separated by ``-`` or spaces."""

    name = "nim"
    spec = "PILES (sizes separated by - or spaces: 3-4-5)"
    description = ("Nim, normal play: take objects from one pile, whoever takes the last wins; "
                   "solved: the score's sign is Bouton's (the mover wins iff the nim-sum is not 0)")
    source = "an example plug-in (examples/harness-nim); Bouton (1901)"
    options: ClassVar[Mapping[str, Option]] = {
        "order": Option("small-first", "take the fewest objects first, or the most",
                        ("small-first", "large-first")),
    }
    columns: ClassVar[Mapping[str, str]] = {"nim_sum": "XOR of the piles: the mover wins iff not 0"}

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        piles = tuple(self._pile(spec, item) for part in spec.split()
                      for item in re.split(r"(?<=\d)-", part))
        if not piles:
            raise HarnessError(f"{self.name}:{spec}: no piles (for example {self.name}:3-4-5)")
        canonical = "-".join(map(str, piles))
        suite = self.set_name(canonical, options)
        problem = Problem(self.name, suite, canonical, canonical, 0, options,
                          default_depth=max(1, sum(piles)))
        return ProblemSet(suite, [problem], {"piles": list(piles)})

    def _pile(self, spec: str, item: str) -> int:
        if not re.fullmatch(r"-?[0-9]+", item):
            raise HarnessError(f"{self.name}:{spec}: {item!r} is not a pile size (a whole "
                               "number; piles are separated by - or spaces)")
        if int(item) < 0:
            raise HarnessError(f"{self.name}:{spec}: pile {item} is negative")
        return int(item)

    def tree(self, problem: Problem) -> Tree:
        return NimTree(_piles(problem), problem.option("order") == "large-first")

    def columns_for(self, problem: Problem, best_move: str) -> dict[str, object]:
        return {"nim_sum": reduce(xor, _piles(problem))}

    def judge(self, problem: Problem, best_move: str, score: int | None, bound: str) -> bool | None:
        """Solved: a win (> 0) where the nim-sum is not 0, a loss (< 0) where it is; a
        shallow search's 0 (undecided) is not."""
        if score is None:                           # the node limit struck
            return None
        return score > 0 if reduce(xor, _piles(problem)) else score < 0


def _piles(problem: Problem) -> tuple[int, ...]:
    return tuple(map(int, problem.source.split("-")))


GAME = Nim()
"""What the entry point ``harness.games: nim`` names."""
