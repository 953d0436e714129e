"""The minimal alpha-beta tree: Knuth and Moore's bound, and a measurement for any tree.

For a uniform tree of branching ``b`` searched to depth ``d`` with the best child always
first, alpha-beta evaluates exactly ``b^ceil(d/2) + b^floor(d/2) - 1`` leaves. For any
other tree, :func:`minimal_leaves` measures the same thing directly: it reorders every
node's children best-first (by their exact minimax value at the remaining depth) and
counts the leaves fail-hard alpha-beta evaluates on that reordered tree. It runs a search,
so it is the search layer's (interpreted Python: ``setup.py`` does not compile it).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from harness.games.base import Move, Tree
from harness.search.registry import make_spec
from harness.search.run import run_search


def knuth_moore(branching: int, depth: int) -> int:
    """Leaves of the minimal tree of a uniform tree: ``b^ceil(d/2) + b^floor(d/2) - 1``."""
    return int(branching ** ((depth + 1) // 2) + branching ** (depth // 2) - 1)


class PerfectlyOrdered:
    """``tree`` with each node's children sorted best-first for a search to ``depth``.

    Child values are exact minimax values at the remaining depth, computed once per node
    (memoised by position key and remaining depth). Ties keep the tree's own order.
    """

    def __init__(self, tree: Tree, depth: int) -> None:
        self.tree = tree
        self.depth = depth
        self._ply = 0
        self._values: dict[tuple[Hashable, int], int] = {}

    def _minimax(self, remaining: int) -> int:
        tree = self.tree
        memo = (tree.key(), remaining)
        known = self._values.get(memo)
        if known is not None:
            return known
        moves = tree.moves() if remaining > 0 else ()
        if not moves:
            value = tree.value() if remaining == 0 else tree.terminal_value()
        else:
            value = -min(self._child_value(m, remaining - 1) for m in moves)
        self._values[memo] = value
        return value

    def _child_value(self, move: Move, remaining: int) -> int:
        self.tree.push(move)
        value = self._minimax(remaining)
        self.tree.pop()
        return value

    def moves(self) -> Sequence[Move]:
        moves = self.tree.moves()
        remaining = self.depth - self._ply - 1
        if remaining < 0 or len(moves) < 2:
            return moves
        return sorted(moves, key=lambda m: self._child_value(m, remaining))

    def push(self, move: Move) -> None:
        self.tree.push(move)
        self._ply += 1

    def pop(self) -> None:
        self.tree.pop()
        self._ply -= 1

    def value(self) -> int:
        return self.tree.value()

    def terminal_value(self) -> int:
        return self.tree.terminal_value()

    def child_value(self, move: Move) -> int:
        return self.tree.child_value(move)

    def reset(self) -> None:
        self.tree.reset()
        self._ply = 0

    def cutoff(self, move: Move, depth: int) -> None:
        """The order is fixed: best first."""

    def key(self) -> Hashable:
        return self.tree.key()

    def move_name(self, move: Move) -> str:
        return self.tree.move_name(move)


def minimal_leaves(tree: Tree, depth: int) -> int:
    """Leaves fail-hard alpha-beta evaluates on ``tree`` with children perfectly reordered."""
    return run_search(PerfectlyOrdered(tree, depth), make_spec("alphabeta"), depth).counters["leaves"]
