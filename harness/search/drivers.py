"""Root drivers: one full-window pass, aspiration windows, MTD(f), MTD-bi, MT-SSS* and
MT-DUAL*.

A driver searches the root to one depth, in one or more passes; every call of
:meth:`Search.root` is a pass. Iterative deepening is the loop around a driver (see
:func:`harness.search.run.run_search`): it hands each iteration the previous one's score
as ``guess`` (``None`` on the first), and the transposition table, when on, carries the
best moves from one iteration to the next.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.games.base import INF, Move
from harness.search.core import Loop, Search
from harness.search.engine import NativeSearch

EXACT, LOWER, UPPER = "exact", "lower", "upper"


class Outcome:
    """What a driver found at one depth. A plain class, not a dataclass: one is made at
    every depth of every search, and mypyc compiles a plain class's ``__init__`` while a
    dataclass's stays the interpreted one dataclasses writes (about 4,000 instructions of a
    Connect Four end-game search's 115,000). Read-only by convention."""

    score: int
    """The root score, from the root player's side."""
    bound: str
    """``exact``, or ``lower``/``upper`` when the score is only a bound."""
    best_move: Move | None
    """The best root move, ``None`` at a terminal root."""
    status: str
    """``ok``, or ``pass-cap`` when an MTD driver stopped before converging."""

    def __init__(self, score: int, bound: str, best_move: Move | None,
                 status: str = "ok") -> None:
        self.score = score
        self.bound = bound
        self.best_move = best_move
        self.status = status

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Outcome(score={self.score!r}, bound={self.bound!r}, "
                f"best_move={self.best_move!r}, status={self.status!r})")

    def _fields(self) -> tuple[int, str, Move | None, str]:
        return (self.score, self.bound, self.best_move, self.status)


Driver = Callable[[Search, int, "int | None"], Outcome]
"""(search, depth, guess) -> outcome."""


def _bound(value: int, alpha: int, beta: int) -> str:
    return LOWER if value >= beta else UPPER if value <= alpha else EXACT


def full_window(loop: Loop) -> Driver:
    """One pass with the search's root window (``(-INF, INF)`` unless narrowed: a weak
    solve searches ``(-1, 1)``); a value on or beyond its edge is a bound."""

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        alpha, beta = s.window
        value, move = s.root(loop, depth, alpha, beta)
        return Outcome(value, LOWER if s.root_lower_bound else _bound(value, alpha, beta), move)

    return drive


def aspiration(inner: Loop, window: int, widen: str) -> Driver:
    """Search ``(guess - window, guess + window)``; on a fail, widen the failing side to
    infinity (``widen="full"``) or by doubling its width (``widen="double"``) and search
    again. Without a guess (the first iteration) the window is full."""

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        if guess is None:
            return full_window(inner)(s, depth, None)
        low = high = window
        alpha, beta = max(guess - low, -INF), min(guess + high, INF)
        while True:
            value, move = s.root(inner, depth, alpha, beta)
            if value <= alpha and alpha > -INF:
                low *= 2
                alpha = -INF if widen == "full" else max(guess - low, -INF)
            elif value >= beta and beta < INF:
                high *= 2
                beta = INF if widen == "full" else min(guess + high, INF)
            else:
                bound = LOWER if s.root_lower_bound else _bound(value, alpha, beta)
                return Outcome(value, bound, move)

    return drive


def mtdf(inner: Loop, first_guess: int, max_passes: int) -> Driver:
    """MTD(f): zero-window passes ``(beta - 1, beta)`` with ``beta = max(g, lower + 1)``,
    ``g`` the value of the last pass, until the bounds meet. ``inner`` is fail-soft
    alpha-beta; the transposition table is its memory."""

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        g = first_guess if guess is None else guess
        return _zero_window_passes(s, inner, depth, max_passes, g, "mtdf")

    return drive


def mtd_bi(inner: Loop, max_passes: int) -> Driver:
    """MTD-bi: zero-window passes at the midpoint of the bounds, a binary search on the
    value (fail-soft values tighten the bounds faster than halving)."""

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        return _zero_window_passes(s, inner, depth, max_passes, 0, "bisection")

    return drive


def mt_sss(inner: Loop, max_passes: int) -> Driver:
    """Plaat et al.'s MT-SSS*, MTD(+infinity): the first pass tests ``beta = +INF`` (the
    top of the tree's range where it states one); every pass after a fail-low tests the
    upper bound it returned, ``beta = upper``, so the bound steps down until a pass fails
    high on it. The previous iteration's score is not used: SSS* starts from above."""

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        return _zero_window_passes(s, inner, depth, max_passes, 0, "sss")

    return drive


def mt_dual(inner: Loop, max_passes: int) -> Driver:
    """MT-DUAL*, MTD(-infinity): every pass tests ``beta = lower + 1`` (the first one
    ``-INF + 1``, or the bottom of the tree's range plus one), so the lower bound steps up
    until a pass fails low on it. The previous iteration's score is not used."""

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        return _zero_window_passes(s, inner, depth, max_passes, 0, "dual")

    return drive


def mtd_pons(inner: Loop, max_passes: int) -> Driver:
    """Pons's Connect Four solver's root: zero-window passes between the tree's least and
    most value (:attr:`Search.value_range`), each at the midpoint of the bounds moved
    halfway from 0 to the bound on its side (``min/2`` or ``max/2``, rounded towards 0,
    when that is farther from 0): the first passes ask whether the game is won or lost by
    much. A tree that states no range is searched by MTD-bi."""

    bisection = mtd_bi(inner, max_passes)

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        if s.value_range is None:
            return bisection(s, depth, guess)
        return _zero_window_passes(s, inner, depth, max_passes, 0, "pons")

    return drive


def _halve(x: int) -> int:
    """``x / 2`` rounded towards 0, as C's integer division (Pons's solver)."""
    return -(-x // 2) if x < 0 else x // 2


def _pons(g: int, lower: int, upper: int) -> int:
    # Pons tests "value > med" with the window (med, med + 1); here beta = med + 1.
    med = lower + (upper - lower) // 2
    if med <= 0 and _halve(lower) < med:
        med = _halve(lower)
    elif med >= 0 and _halve(upper) > med:
        med = _halve(upper)
    return med + 1


Rule = Callable[[int, int, int], int]
"""(g, lower, upper) -> the beta an MTD driver tests next; ``g`` the last pass's value."""

RULES: dict[str, Rule] = {
    "mtdf": lambda g, lower, upper: max(g, lower + 1),
    "bisection": lambda g, lower, upper: (lower + upper + 1) // 2,
    "pons": _pons,
    "sss": lambda g, lower, upper: upper,
    "dual": lambda g, lower, upper: lower + 1,
}
"""The MTD drivers' choices of beta by name; the compiled frame has the same ones under
the same names (``_engine.c``'s ``choose_beta``, in this order)."""


def _zero_window_passes(s: Search, inner: Loop, depth: int, max_passes: int, g: int,
                        rule: str) -> Outcome:
    """The MTD loop: test ``beta = RULES[rule](g, lower, upper)`` with the window
    ``(beta - 1, beta)``; a value below beta is an upper bound, else a lower bound. The
    bounds start at the tree's range of values where it states one, else at infinity.
    A search in the compiled frame runs the same loop there (one call for all its passes);
    ``tests/test_engine.py`` compares the two."""
    lower, upper = (-INF, INF) if s.value_range is None else s.value_range()
    if isinstance(s, NativeSearch):
        lower, upper, best = s.zero_window_passes(depth, max_passes, g, rule, lower, upper)
    else:
        lower, upper, best = passes(s, inner, depth, max_passes, g, RULES[rule], lower, upper)
    if lower >= upper:
        return Outcome(lower, EXACT, best)
    if lower > -INF:                            # max_passes passes did not settle it
        return Outcome(lower, LOWER, best, "pass-cap")
    return Outcome(upper, UPPER, best, "pass-cap")


def passes(s: Search, inner: Loop, depth: int, max_passes: int, g: int, choose: Rule,
           lower: int, upper: int) -> tuple[int, int, Move | None]:
    """At most ``max_passes`` zero-window passes from the bounds ``(lower, upper)`` until
    they meet: the bounds then, and the move of the last pass that failed high (``None``
    if none did)."""
    best: Move | None = None
    for _ in range(max_passes):
        if lower >= upper:
            break
        beta = choose(g, lower, upper)
        g, move = s.root(inner, depth, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower, best = g, move
    return lower, upper, best
