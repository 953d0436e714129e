"""pvs, pvs-fs, moreland and belle: VARIANTS.md, "the textbook core" and "the rest of the family".

PVS searches the first child with the full window and every later child first with a
zero-window test around alpha, re-searching with the full window only when the test
fails high inside the window. Moreland's version starts the tests only once a child has
raised alpha. Belle's root search defers re-searches until a second move fails high.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.games.base import INF, Move
from harness.search.core import Loop, Search


def pvs(soft: bool = False, moreland: bool = False, zw_min_depth: int = 1,
        research_min_depth: int = 1) -> Loop:
    """Principal variation search.

    ``soft``: the fail-soft frame of alphabeta-fs. ``moreland``: the "found PV" flag is set
    when a child raises alpha rather than after the first child. ``zw_min_depth``: no
    zero-window tests at nodes with less remaining depth (the wiki's "disable PVS in the
    last two plies" is 3). ``research_min_depth``: trust a failed-high test without a
    re-search at nodes with less remaining depth (NegaScout's refinement; 2 is sound when
    leaf values are exact).
    """

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        wide = beta > alpha + 1         # called with more than a zero window: tests count
        best_move: Move | None = None
        best = -INF
        found_pv = False
        for i, m in enumerate(moves):
            if not found_pv or depth < zw_min_depth:
                v = -s.child(loop, m, depth - 1, -beta, -alpha)
            else:
                v = -s.test(loop, m, depth - 1, -alpha - 1, -alpha, wide)  # zero-window test
                if alpha < v < beta and depth >= research_min_depth:
                    v = -s.research(loop, m, depth - 1, -beta, -alpha)    # re-search
            if v > best:
                best, best_move = v, m
            if v >= beta:
                return (v if soft else beta), i, m
            if v > alpha:
                alpha = v
                found_pv = True
            elif not moreland:
                found_pv = True
        return (best if soft else alpha), i, best_move

    return loop


def pvs_marsland() -> Loop:
    """Marsland's (1986) PVS, as Breuker compares it with NegaScout: fail-soft, the first
    child with the full window; each later child, while the node has not failed high, a
    zero-window test around the larger of alpha and the best value so far, and a test that
    fails high inside the window is searched again with ``(merit, beta)``: from the value
    the test proved, not from alpha (the wiki's ``pvs`` re-searches with ``(alpha, beta)``).

    ::

        best = -PVS(p1, -beta, -alpha)
        for each later child pi:
            if best >= beta: return best
            alpha = max(alpha, best)
            merit = -PVS(pi, -alpha-1, -alpha)
            if merit > best:
                if merit <= alpha or merit >= beta: best = merit
                else: best = -PVS(pi, -beta, -merit)
        return best
    """

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        wide = beta > alpha + 1         # called with more than a zero window: tests count
        best = -s.child(loop, moves[0], depth - 1, -beta, -alpha)
        best_move: Move | None = moves[0]
        for i in range(1, len(moves)):
            if best >= beta:
                return best, i - 1, best_move
            alpha = max(alpha, best)
            m = moves[i]
            merit = -s.test(loop, m, depth - 1, -alpha - 1, -alpha, wide)   # zero-window test
            if merit > best:
                if merit <= alpha or merit >= beta:
                    best = merit
                else:
                    best = -s.research(loop, m, depth - 1, -beta, -merit)  # re-search (merit, beta)
                best_move = m
        return best, len(moves) - 1, best_move

    return loop


def belle(below: Loop) -> Loop:
    """Belle's root: re-search a fail-high only when a second move fails high.

    The first move gets the full window; each later move a zero-window test against the
    best score so far. The first move to fail high becomes the best move, pending, without
    a re-search. When another move fails high, the pending one is re-searched with the full
    window (a re-search) and the new one is tested again against that score (a zero-window
    search, not a re-search). A move still pending at the end is the best move and its test
    value is only a lower bound (``root_lower_bound``). Below the root, ``below`` searches.
    """

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        wide = beta > alpha + 1         # called with more than a zero window: tests count
        best_move: Move | None = None
        pending: Move | None = None
        pending_value = alpha
        for i, m in enumerate(moves):
            if i == 0:
                v = -s.child(below, m, depth - 1, -beta, -alpha)
                if v >= beta:
                    return v, i, m
                if v > alpha:
                    alpha, best_move = v, m
                continue
            v = -s.test(below, m, depth - 1, -alpha - 1, -alpha, wide)     # zero-window test
            while v > alpha:
                if pending is None:
                    pending, pending_value = m, v                         # best, score unknown
                    break
                v = -s.research(below, pending, depth - 1, -beta, -alpha)  # resolve it exactly
                if v >= beta:
                    return v, i, pending
                if v > alpha:
                    alpha, best_move = v, pending
                pending = None
                v = -s.test(below, m, depth - 1, -alpha - 1, -alpha, wide)  # test m again
        if pending is not None:
            s.root_lower_bound = True
            return pending_value, len(moves) - 1, pending
        return alpha, len(moves) - 1, best_move

    return loop
