"""The transposition table: bounds on a position's value, keyed by the tree's stable key.

Fixed size, one entry per slot, slot ``hash(key) % size`` (keys are integers or tuples of
integers, whose hashes are not salted, so runs are reproducible). Each entry holds the
remaining depth it was searched to, a lower and an upper bound, and the best move.

Replacement rule: a store for the position already in the slot overwrites it (at the same
depth the two entries' bounds are intersected, as MTD(f) needs); a store for another
position replaces the entry only if its depth is at least the stored depth ("depth
preferred, ties replace"). A new search starts with a new table, so no entry outlives the
search that wrote it.
"""

from __future__ import annotations

from collections.abc import Hashable

from harness.games.base import INF, Move

Entry = tuple[Hashable, int, int, int, Move | None]
"""(key, depth, lower bound, upper bound, best move)."""

DEFAULT_SIZE = 1 << 20
"""Entries in the table of a variant that uses one by default (the MTD drivers)."""


class TranspositionTable:
    """Bounds and best moves of searched positions (see the module docstring)."""

    __slots__ = ("size", "slots", "stored")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a transposition table needs at least one entry")
        self.size = size
        """Number of slots."""
        self.slots: dict[int, Entry] = {}
        """The entries by slot, filled as they are stored: a search that stores little
        never pays for the whole table (a list of 2**20 slots costs a millisecond to make
        and another to free, more than a short Connect Four search)."""
        self.stored = 0
        """Number of stores made."""

    def probe(self, key: Hashable) -> Entry | None:
        """The entry for ``key``, or ``None``."""
        entry = self.slots.get(hash(key) % self.size)
        if entry is not None and entry[0] == key:
            return entry
        return None

    def store(self, key: Hashable, depth: int, alpha: int, beta: int, value: int,
              move: Move | None) -> None:
        """Record ``value``, the result of a search of ``key`` to ``depth`` with window
        ``(alpha, beta)``: an upper bound if ``value <= alpha``, a lower bound if
        ``value >= beta``, exact otherwise."""
        lower, upper = (-INF, value) if value <= alpha else (value, INF) if value >= beta \
            else (value, value)
        slot = hash(key) % self.size
        old = self.slots.get(slot)
        if old is not None:
            if old[0] == key:
                if old[1] == depth and max(lower, old[2]) <= min(upper, old[3]):
                    lower, upper = max(lower, old[2]), min(upper, old[3])
                if move is None and old[1] == depth:
                    move = old[4]
            elif old[1] > depth:
                return
        self.stored += 1
        self.slots[slot] = (key, depth, lower, upper, move)
