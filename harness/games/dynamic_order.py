"""Killer moves and the history heuristic for a tree with a static move order (Othello's,
checkers'): what the search teaches a tree through ``cutoff(move, depth)``, and the order
of its moves with what it learnt.

Chess has its own (``ChessTree._dynamic_order`` and ``cutoff``, ``chess/board_order.h``);
this is the same model for trees whose moves are small ints, shared by the Python trees
of Othello and checkers. Their compiled twins do the same in C
(``harness/games/board_learning.h``), node for node.

The model, as chess's: a tree sets some moves apart, which keep their place at the front
of its static order and teach nothing (chess: captures and promotions; Othello: corners
and the pass; checkers: captures, which are compulsory, so a node with one has nothing
but captures and is never reordered). The rest, the quiet moves, are sorted by their
history score, most first, stably (ties keep the static order); then the killers of the
node's ply that are among them go first, the latest first. A fail-high by a quiet move
makes it the latest of the two killers of its ply and adds ``depth * depth`` to its history
score. ``reset`` forgets both (one search's learning: iterative deepening's iterations
share it, the next search starts blank). A move's history index is the move itself (an
Othello square, a checkers step: its start square and direction, i.e. where from and
where to).
"""

from __future__ import annotations

from collections.abc import Sequence


class DynamicOrder:
    """One tree's killers and history, and the order they give its quiet moves."""

    __slots__ = ("_history", "_killers", "active", "history", "killers")

    def __init__(self, killers: bool = False, history: bool = False) -> None:
        self.killers = killers
        """Two quiet moves per ply, the latest to cause a fail-high there, tried first among
        the quiet moves."""
        self.history = history
        """The quiet moves sorted by history score (``depth * depth`` per fail-high)."""
        self.active = killers or history
        """Whether either is on: read at every node, so off costs one test."""
        self._killers: list[list[int]] = []
        self._history: dict[int, int] = {}

    def order(self, apart: Sequence[int], quiet: Sequence[int], ply: int) -> list[int]:
        """The moves of a node ``ply`` plies from the root: those set ``apart`` first, in
        their order, then the ``quiet`` ones (in the static order) reordered by history and
        killers."""
        rest = list(quiet)
        if self.history and self._history:
            scores = self._history
            rest.sort(key=lambda move: -scores.get(move, 0))
        if self.killers and ply < len(self._killers):
            killers = [k for k in self._killers[ply] if k in rest]
            if killers:
                rest = killers + [m for m in rest if m not in killers]
        return [*apart, *rest]

    def learn(self, move: int, ply: int, depth: int) -> None:
        """A fail-high by the quiet ``move`` at a node ``ply`` plies from the root searched
        ``depth`` plies deep."""
        if self.killers:
            while len(self._killers) <= ply:
                self._killers.append([])
            slot = self._killers[ply]
            if move not in slot:
                slot.insert(0, move)
                del slot[2:]
        if self.history:
            self._history[move] = self._history.get(move, 0) + depth * depth

    def clear(self) -> None:
        """Forget what was learnt (the tree's ``reset``)."""
        self._killers.clear()
        self._history.clear()
