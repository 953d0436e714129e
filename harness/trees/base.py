"""The interface every problem source implements, and the value conventions.

A search walks a tree through a cursor: it asks for the children of the current node
(``moves``), steps into one (``push``) and back (``pop``). Chess positions need exactly
this (python-chess boards are pushed and popped, never copied per node), and array-backed
trees implement it with a stack of node ids, so a variant is written once for both.

Values follow negamax: ``value()`` is from the point of view of the side to move, an
integer strictly between ``-INF`` and ``INF``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

INF = 1_000_000_000
"""Larger than any evaluation, mate scores included."""

Move = Hashable
"""What leads from a node to one of its children: a child id, a chess move."""


class Tree(Protocol):
    """A game tree seen through a cursor positioned at one node."""

    def moves(self) -> Sequence[Move]:
        """The children of the current node in search order; empty at a terminal node."""
        ...

    def push(self, move: Move) -> None:
        """Step into the child reached by ``move``."""
        ...

    def pop(self) -> None:
        """Step back to the parent."""
        ...

    def value(self) -> int:
        """The static value of the current node for the side to move."""
        ...

    def key(self) -> Hashable:
        """A key identifying the current position, stable for the life of the tree."""
        ...

    def move_name(self, move: Move) -> str:
        """A readable, stable name for ``move`` at the current node."""
        ...
