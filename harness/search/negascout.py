"""negascout (Reinefeld, as the wiki gives it), negascout-fs (Reinefeld 1989, fail-soft) and
scout (Pearl 1980)."""

from __future__ import annotations

from collections.abc import Sequence

from harness.games.base import INF, Move
from harness.search.alphabeta import alphabeta
from harness.search.core import Loop, Search


def negascout(research_min_depth: int = 1) -> Loop:
    """NegaScout: the window narrows to ``(alpha, alpha + 1)`` after the first child; a test
    that fails high inside the window is re-searched with ``(t, beta)``. With
    ``research_min_depth=2`` a failed-high test at the last ply is trusted (Reinefeld's
    refinement, sound only with exact leaf values)."""

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        wide = beta > alpha + 1         # called with more than a zero window: tests count
        best_move: Move | None = None
        b = beta
        for i, m in enumerate(moves):
            if i == 0:
                t = -s.child(loop, m, depth - 1, -b, -alpha)
            else:
                t = -s.test(loop, m, depth - 1, -b, -alpha, wide)          # b = alpha + 1: a test
            if alpha < t < beta and i > 0 and depth >= research_min_depth:
                # Reinefeld keeps the larger of the test's value and the re-search's when the
                # re-search fails low (VARIANTS.md's text, "t = -ns(...)", overwrites it).
                t = max(t, -s.research(loop, m, depth - 1, -beta, -t))    # re-search (t, beta)
            if t > alpha:
                alpha, best_move = t, m
            if alpha >= beta:
                return alpha, i, m
            b = alpha + 1
        return alpha, i, best_move

    return loop


def negascout_fs(research_min_depth: int = 1) -> Loop:
    """Reinefeld's (1989) fail-soft NegaScout, the version Breuker finds identical to
    Marsland's (1986) PVS: the best value ``m`` starts at -infinity and is returned as it
    is (a bound beyond the window when the node fails), every test is around the larger of
    alpha and ``m``, and a test that fails high inside the window is searched again with
    ``(t, beta)``, keeping the larger of the two values::

        m = -INF; n = beta
        for each child pi:
            t = -NS(pi, -n, -max(alpha, m))
            if t > m:
                if n == beta or t <= max(alpha, m) or t >= beta: m = t
                else: m = max(t, -NS(pi, -beta, -t))         # re-search
            if m >= beta: return m
            n = max(alpha, m) + 1
        return m
    """

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        wide = beta > alpha + 1         # called with more than a zero window: tests count
        best_move: Move | None = None
        m = -INF
        n = beta
        for i, mv in enumerate(moves):
            a = max(alpha, m)
            if i == 0:
                t = -s.child(loop, mv, depth - 1, -n, -a)
            else:
                t = -s.test(loop, mv, depth - 1, -n, -a, wide)             # n = a + 1: a test
            if t > m:
                if n == beta or t <= a or t >= beta or depth < research_min_depth:
                    m = t
                else:
                    m = max(t, -s.research(loop, mv, depth - 1, -beta, -t))  # re-search (t, beta)
                best_move = mv
            if m >= beta:
                return m, i, best_move
            n = max(alpha, m) + 1
        return m, len(moves) - 1, best_move

    return loop


def scout() -> Loop:
    """Pearl's Scout: the first child's value is computed exactly; each later child is
    first put to a boolean TEST ("can it beat the value so far?") and evaluated exactly,
    by a recursive Scout call counted as a re-search, only if it can.

    TEST(child, v) is run as a fail-hard zero-window alpha-beta search with window
    ``(-v - 1, -v)``: it expands exactly the nodes of Pearl's recursive TEST, which stops
    at the first child that proves the claim, and it counts them the same way.
    """
    test = alphabeta(soft=False)

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        best_move: Move | None = None
        v = -INF
        for i, m in enumerate(moves):
            if i == 0:
                v, best_move = -s.child(loop, m, depth - 1, -INF, INF), m
                continue
            # Every TEST counts: a Scout node searches with the full window, whatever it is given.
            if -s.test(test, m, depth - 1, -v - 1, -v, True) > v:         # TEST: can m beat v?
                v, best_move = -s.research(loop, m, depth - 1, -INF, INF), m
        return v, len(moves) - 1, best_move

    return loop
