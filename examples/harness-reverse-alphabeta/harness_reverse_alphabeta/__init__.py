"""A variant plug-in: fail-hard alpha-beta that tries the moves last to first.

Worst-first shows what move ordering is worth next to ``alphabeta`` (on trees whose best
move tends to come first). The loop is the textbook one over the frame (``s.child``
counts and searches each child); only the order differs. The registry loads this module at the
end of its own import: import from ``harness.search.registry``, ``harness.search.core``
and ``harness.games.base``, not from ``harness`` or ``harness.search`` (not ready yet).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.games.base import Move
from harness.options import Options
from harness.search.core import Loop, Search
from harness.search.registry import Variant


def reverse_alphabeta(s: Search, moves: Sequence[Move], depth: int, alpha: int,
                      beta: int) -> tuple[int, int, Move | None]:
    order = list(reversed(moves))
    best_move: Move | None = None
    for i, m in enumerate(order):
        v = -s.child(reverse_alphabeta, m, depth - 1, -beta, -alpha)
        if v >= beta:
            return beta, i, m
        if v > alpha:
            alpha, best_move = v, m
    return alpha, len(order) - 1, best_move


def _loop(options: Options) -> Loop:
    return reverse_alphabeta


VARIANT = Variant("reverse-alphabeta", "fail-hard alpha-beta trying the moves last to first",
                  "an example plug-in (examples/harness-reverse-alphabeta)", loop=_loop)
