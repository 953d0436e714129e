"""A variant plug-in: alpha-beta with shallow cutoffs only (Knuth and Moore's F1).

A node prunes against one bound, its parent's best value so far (``beta``), and searches
each child with the bound its own best value so far makes (``-best``); the ``alpha`` it is
given is not used for pruning, so no cutoff reaches more than one ply down (no deep
cutoffs). Knuth and Moore (1975) show it returns the minimax value wherever that is below
``beta``, and a value >= ``beta`` (a lower bound) otherwise: with the full root window it
is exact, and ``alphabeta-fs`` beside it shows what deep cutoffs save. Fail-soft: every
value returned is a true bound, so it is sound with a transposition table.

The registry loads this module at the end of its own import: import from
``harness.search.registry``, ``harness.search.core``, ``harness.options`` and
``harness.games.base``, not from ``harness`` or ``harness.search`` (not ready yet).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.games.base import INF, Move
from harness.options import Options
from harness.search.core import Loop, Search
from harness.search.registry import Variant


def shallow_alphabeta(s: Search, moves: Sequence[Move], depth: int, alpha: int,
                      beta: int) -> tuple[int, int, Move | None]:
    best = -INF
    best_move: Move | None = None
    for i, m in enumerate(moves):
        # The child prunes against -best only; -beta is passed (and not used to prune) so
        # that the frame classifies it and a table cuts it off as the parent will use it.
        v = -s.child(shallow_alphabeta, m, depth - 1, -beta, -best)
        if v > best:
            best, best_move = v, m
            if best >= beta:
                return best, i, m
    return best, len(moves) - 1, best_move


def _loop(options: Options) -> Loop:
    return shallow_alphabeta


VARIANT = Variant("alphabeta-shallow", "alpha-beta with shallow cutoffs only: a node prunes "
                  "against its parent's best so far, never a grandparent's (no deep cutoffs)",
                  "Knuth and Moore (1975), procedure F1; an example plug-in (examples/harness-nim)",
                  loop=_loop)
