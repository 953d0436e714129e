"""Checkers positions as a tree (the reference the compiled ``_board.c`` is tested against).

The cursor keeps a stack of :class:`~harness.games.checkers.board.Position` values. Moves
come in :meth:`Position.legal_moves`'s order (captures, compulsory, when there are any);
values are for the side to move: :func:`~harness.games.checkers.evaluation.evaluate` at the
horizon, and at the end of a game a loss for the side without a move ``-(WIN - ply)``
(``ply`` counted from the root: a faster win is worth more) or 0 for a draw by the 40-ply
rule. The horizon's value sees the end of a game too (a side without a move has lost,
whatever its material).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.games.base import SelectiveMargins
from harness.games.checkers.board import (
    CROWN_MASK,
    DRAW_PLIES,
    NEIGHBOUR,
    Position,
    move_jumps,
    move_name,
)
from harness.games.checkers.evaluation import SELECTIVE_MARGINS, WIN, evaluate
from harness.games.dynamic_order import DynamicOrder


class CheckersTree:
    """A checkers position walked through a cursor (see :class:`harness.games.base.Tree`).

    With ``killers`` or ``history`` (the game options) the tree learns from the search's
    fail-highs (:class:`~harness.games.dynamic_order.DynamicOrder`). Captures are
    compulsory, so a node has either captures only, which keep their order and teach
    nothing, or steps only: those are the quiet moves, the killers of the ply first, then
    by history score (a step's start square and direction), ties in the static order. A
    crowning step is one of them: the static order does not set it apart (chess's MVV-LVA
    puts promotions before its killers)."""

    __slots__ = ("_learnt", "_stack", "position", "root")

    def __init__(self, position: Position, killers: bool = False, history: bool = False) -> None:
        self.root = position
        self.position = position
        self._stack: list[Position] = []
        self._learnt = DynamicOrder(killers, history)

    @property
    def ply(self) -> int:
        """Plies from the root to the cursor."""
        return len(self._stack)

    def moves(self) -> Sequence[int]:
        moves = self.position.legal_moves()
        if self._learnt.active and len(moves) > 1 and not move_jumps(moves[0]):
            return self._learnt.order((), moves, len(self._stack))
        return moves

    def push(self, move: object) -> None:
        self._stack.append(self.position)
        self.position = self.position.play(move)  # type: ignore[arg-type]

    def pop(self) -> None:
        self.position = self._stack.pop()

    def _over(self, position: Position) -> bool:
        return position.quiet >= DRAW_PLIES or not position.has_move()

    def _end_value(self, position: Position, ply: int) -> int:
        return 0 if position.quiet >= DRAW_PLIES else -(WIN - ply)

    def terminal_value(self) -> int:
        """A lost game (no move: nearer is worse) or a draw (the 40-ply rule)."""
        assert self._over(self.position), "terminal_value of a node with moves"
        return self._end_value(self.position, self.ply)

    def value(self) -> int:
        """The game's value where it is over, else the evaluation."""
        if self._over(self.position):
            return self._end_value(self.position, self.ply)
        return evaluate(self.position)

    def child_value(self, move: object) -> int:
        child = self.position.play(move)  # type: ignore[arg-type]
        if self._over(child):
            return self._end_value(child, self.ply + 1)
        return evaluate(child)

    def key(self) -> int:
        return self.position.key()

    def move_name(self, move: object) -> str:
        return move_name(move)  # type: ignore[arg-type]

    def reset(self) -> None:
        """Back to the root; killers and history forgotten."""
        self.position = self.root
        self._stack.clear()
        self._learnt.clear()

    def cutoff(self, move: object, depth: int) -> None:
        """Learn from a fail-high caused by ``move`` (killers and history, when on; a
        capture teaches nothing)."""
        if self._learnt.active:
            code = int(move)  # type: ignore[call-overload]
            if not move_jumps(code):
                self._learnt.learn(code, len(self._stack), depth)

    # -- the selective switches (harness.games.base.SelectiveTree) -------------------
    selective_margins: SelectiveMargins = SELECTIVE_MARGINS
    """Checkers' margins for the selective switches (``evaluation.SELECTIVE_MARGINS``)."""

    def tactical(self, move: object) -> bool:
        """Whether ``move`` (one of ``moves()`` here) captures or crowns a man: the moves
        the selective switches never prune or reduce, as chess's captures and promotions.
        Captures are compulsory, so where one exists every move is one: a node with a
        capture is never pruned or reduced. Checkers programs do not evaluate a position
        with a capture pending (Martin Fierz's Simple Checkers, by Cake's author, searches on while
        one is): the static value misjudges a capture by the men it takes."""
        code = int(move)  # type: ignore[call-overload]
        if move_jumps(code):
            return True
        start = code & 31
        position = self.position
        return (not position.kings >> start & 1
                and bool(CROWN_MASK[position.side] >> NEIGHBOUR[start][(code >> 9) & 3] & 1))
