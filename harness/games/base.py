"""The interface every problem source implements, and the value conventions.

A search walks a tree through a cursor: it asks for the children of the current node
(``moves``), steps into one (``push``) and back (``pop``). Chess positions need exactly
this (python-chess boards are pushed and popped, never copied per node), and array-backed
trees implement it with a stack of node ids, so a variant is written once for both.

Values follow negamax: ``value()`` is from the point of view of the side to move, an
integer strictly between ``-INF`` and ``INF``.

This module is the bottom layer: the search (``harness.search``) and every tree import it,
and it imports neither.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

INF = 1_000_000_000
"""Larger than any evaluation, mate scores included."""

Move = Hashable
"""What leads from a node to one of its children: a child id, a chess move."""

MAX_DEPTH = 100
"""Deepest search accepted (Python's recursion limit bounds it); a tree loaded from a file
may not be taller."""


class Tree(Protocol):
    """A game tree seen through a cursor positioned at one node.

    Optional abilities: the search uses each when the tree has it (by the method's
    presence, never by the tree's class), and runs without it otherwise.

    - ``order_moves(mvv_lva: bool, killers: bool, history: bool) -> None``: switch the
      tree's move ordering before a search (:class:`OrderedTree`; chess).
    - ``quiesce(alpha, beta, counters) -> int``: a horizon evaluation that looks at the
      window, counting its nodes in ``counters.qnodes`` (:class:`QuiescenceCounters`);
      with ``child_quiesce(move, alpha, beta, counters) -> int``, the same at the child
      reached by ``move`` without moving the cursor (chess).
    - ``in_check``, ``null_allowed``, ``push_null``: null move and check extension
      (:class:`EnhancedTree`, :func:`has_enhancements`; chess).
    """

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

    def terminal_value(self) -> int:
        """The value of the current node, which has no moves (chess: mate or stalemate)."""
        ...

    def child_value(self, move: Move) -> int:
        """``value()`` of the child reached by ``move``, leaving the cursor where it is
        (the search's shortcut for a leaf at the horizon)."""
        ...

    def key(self) -> Hashable:
        """A key identifying the current position, stable for the life of the tree."""
        ...

    def move_name(self, move: Move) -> str:
        """A readable, stable name for ``move`` at the current node."""
        ...

    def reset(self) -> None:
        """Put the cursor on the root and forget what earlier searches taught the move
        ordering (killers, history): every search starts from the same state."""
        ...

    def cutoff(self, move: Move, depth: int) -> None:
        """Hear that ``move`` caused a fail-high at the current node (dynamic ordering)."""
        ...


class EnhancedTree(Tree, Protocol):
    """A tree that supports the frame's chess enhancements: null move, check extension."""

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        ...

    def null_allowed(self, rule: str) -> bool:
        """Whether a null move may be tried at the current node under ``rule``."""
        ...

    def push_null(self) -> None:
        """Pass the move to the opponent (``pop`` takes it back)."""
        ...


class OrderedTree(Tree, Protocol):
    """A tree whose move ordering the search switches (see :class:`Tree`)."""

    def order_moves(self, mvv_lva: bool, killers: bool, history: bool) -> None:
        """Use these ordering switches from now on: captures by MVV-LVA, killer moves,
        the history heuristic."""
        ...


class QuiescenceCounters(Protocol):
    """What a tree's quiescence search counts into: the search's counters
    (``harness.search.counters.Counters``), of which it touches only ``qnodes``."""

    qnodes: int


def has_enhancements(tree: object) -> bool:
    """Whether ``tree`` is an :class:`EnhancedTree`: it can pass a move and knows checks
    (what null move and check extension need)."""
    return all(callable(getattr(tree, name, None)) for name in ("in_check", "null_allowed", "push_null"))
