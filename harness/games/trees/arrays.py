"""Trees held in flat arrays: the shared form of explicit (JSON) and synthetic trees.

Nodes are numbered breadth-first from the root (0). The children of node ``n`` are
``kids[first[n]:first[n + 1]]``, already in search order; because numbering is
breadth-first, the child ids of one node form a contiguous block, so a child's position
in generation (or file) order is recovered as ``child - 1 - first[n]``.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.games.base import Move


@dataclass(frozen=True)
class TreeShape:
    """What is known about a tree's shape, for reports and the Knuth-Moore bound."""

    nodes: int
    """Number of nodes, the root included."""
    height: int
    """Length of the longest path from the root to a leaf, in plies."""
    branching: int | None
    """The branching factor when every interior node has the same number of children
    and every leaf lies at ``height``; ``None`` otherwise."""
    valueless_plies: frozenset[int] = field(default_factory=frozenset)
    """Plies holding interior nodes without a static value: a search whose horizon falls
    on one of them has nothing to evaluate there."""


class ArrayTree:
    """A tree in flat arrays, walked through a cursor (see :class:`harness.games.base.Tree`)."""

    __slots__ = ("_cur", "_path", "first", "kids", "shape", "values")

    def __init__(self, first: array[int], kids: array[int], values: array[int],
                 shape: TreeShape) -> None:
        self.first = first
        """Offsets into ``kids``: node ``n``'s children are ``kids[first[n]:first[n + 1]]``."""
        self.kids = kids
        """Child ids, each node's block in search order."""
        self.values = values
        """Static value of each node for the side to move there."""
        self.shape = shape
        """Size, height and (if uniform) branching factor."""
        self._cur = 0
        self._path: list[int] = []

    def moves(self) -> Sequence[Move]:
        n = self._cur
        return self.kids[self.first[n]:self.first[n + 1]]

    def push(self, move: Move) -> None:
        self._path.append(self._cur)
        self._cur = move  # type: ignore[assignment]

    def pop(self) -> None:
        self._cur = self._path.pop()

    def value(self) -> int:
        return self.values[self._cur]

    def terminal_value(self) -> int:
        return self.values[self._cur]

    def child_value(self, move: Move) -> int:
        return self.values[move]  # type: ignore[call-overload, no-any-return]

    def cutoff(self, move: Move, depth: int) -> None:
        """Array trees have a fixed order: nothing to learn."""

    def key(self) -> int:
        return self._cur

    def move_name(self, move: Move) -> str:
        return str(move - 1 - self.first[self._cur])  # type: ignore[operator]

    def reset(self) -> None:
        """Put the cursor back on the root."""
        self._cur = 0
        self._path.clear()
