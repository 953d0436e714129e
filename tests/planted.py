"""Connect Four (the Python tree, on small boards) with one bug planted in each copy, for
the self-test (``harness check``) to find: a game per bug, registered by the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.games.base import Problem, Tree
from harness.games.connect4.game import Connect4
from harness.games.connect4.tree import Connect4Tree, board_from


class SignTree(Connect4Tree):
    """terminal_value with the wrong sign when the second player is to move (the
    horizon's value() is right)."""

    def terminal_value(self) -> int:
        value = super().terminal_value()
        return -value if self.board.moves % 2 else value


class KeyTree(Connect4Tree):
    """A key that forgets whose stones are whose: the occupied squares only."""

    def key(self) -> int:
        return self.board.mask


class TextTree(KeyTree):
    """The same colour-blind key, and a text that shows the colours (as OpenSpiel's
    ``state()`` shows a position)."""

    def state(self) -> str:
        return f"{self.board.position:b}/{self.board.mask:b}"


class PopTree(Connect4Tree):
    """pop() forgets to take back a stone played in the last column."""

    def pop(self) -> None:
        b = self.board
        position, mask, moves = self._stack.pop()
        if (b.mask ^ mask).bit_length() <= (b.width - 1) * (b.height + 1):
            b.position, b.mask, b.moves = position, mask, moves


class ShuffleTree(Connect4Tree):
    """moves() that rotates its list at every call (an order kept in a shared counter)."""

    calls = 0

    def moves(self) -> Sequence[int]:
        moves = list(super().moves())
        ShuffleTree.calls += 1
        shift = ShuffleTree.calls % len(moves) if moves else 0
        return moves[shift:] + moves[:shift]


class RangeTree(Connect4Tree):
    """A loss scored one less than value_range() allows (with anticipation, the only ends
    met below the root are draws and losses)."""

    def leaf_value(self) -> int | None:
        value = super().leaf_value()
        return value - 1 if value is not None and value < 0 else value


class TurnsTree(Connect4Tree):
    """A declared player to move that stays the same for two moves."""

    def player(self) -> int:
        return (self.board.moves // 2) % 2


class PlayerTree(Connect4Tree):
    """A declared player to move, correct: the first player after an even number of stones."""

    def player(self) -> int:
        return self.board.moves % 2


class CrashTree(Connect4Tree):
    """value() that fails once five stones are down."""

    def value(self) -> int:
        if self.board.moves == 5:
            raise ValueError("five stones")
        return super().value()


class Planted(Connect4):
    """Connect Four whose trees are ``tree_class``'s (the Python tree, any board)."""

    def __init__(self, name: str, tree_class: type[Connect4Tree]) -> None:
        self.name = name
        self.tree_class = tree_class

    def tree(self, problem: Problem) -> Tree:
        values: dict[str, Any] = dict(problem.options)
        moves = problem.position.split()[0] if problem.position.split() else ""
        board = board_from(moves, int(values["width"]), int(values["height"]))
        return self.tree_class(board, str(values["order"]), bool(values["anticipate"]))


BUGS = {
    "sign": (SignTree, "end"),
    "key": (KeyTree, "key"),
    "pop": (PopTree, "push-pop"),
    "shuffle": (ShuffleTree, "moves"),
    "range": (RangeTree, "range"),
    "turns": (TurnsTree, "turns"),
    "crash": (CrashTree, "error"),
}
"""Each planted bug: its tree, and the kind of finding that names it."""

GAMES = [Planted(f"planted-{bug}", tree) for bug, (tree, _) in BUGS.items()]
GAMES += [Planted("planted-none", Connect4Tree), Planted("planted-player", PlayerTree),
          Planted("planted-text", TextTree)]
"""A game per bug, two without one (the plain tree, and one declaring its players), and
the key bug again with a text for the positions."""
