"""minimax, alphabeta (fail-hard) and alphabeta-fs (fail-soft): VARIANTS.md, "the textbook core"."""

from __future__ import annotations

from collections.abc import Sequence

from harness.games.base import INF, Move
from harness.search.core import Loop, Search


def minimax(s: Search, moves: Sequence[Move], depth: int, alpha: int,
            beta: int) -> tuple[int, int, Move | None]:
    """No pruning: every child is searched; the reference value."""
    best_move: Move | None = None
    best = -INF
    for m in moves:
        v = -s.child(minimax, m, depth - 1, -beta, -alpha)
        if v > best:
            best, best_move = v, m
    return best, len(moves) - 1, best_move


def alphabeta(soft: bool = False) -> Loop:
    """Alpha-beta; fail-hard returns a value clamped to the window, fail-soft the best found."""

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        best_move: Move | None = None
        best = -INF
        for i, m in enumerate(moves):
            v = -s.child(loop, m, depth - 1, -beta, -alpha)
            if v > best:
                best, best_move = v, m
            if v >= beta:
                return (v if soft else beta), i, m
            if v > alpha:
                alpha = v
        return (best if soft else alpha), i, best_move

    return loop
