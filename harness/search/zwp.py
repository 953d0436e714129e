"""The zero-window-pruning note's search (``pvs-zero-window-pruning-note.txt``).

The note writes PVS as alpha-beta plus one pruning rule, with *closed* windows
``[alpha, beta]`` and the strict cutoff criterion ``beta < alpha``: before the full-window
search F of a successor, a zero-window search Z with window ``[alpha, alpha]`` tries to
prove it fails low, and the successor is skipped when it does. Its improvement also skips
F when Z returns exactly alpha (``improve``). Its two untried ideas are options here:

- ``all_first``: at an expected-All node, test every successor, the first included;
- ``pv_full``: at an expected-PV node, search successors with F (no test) until one meets
  alpha, and test only after that.

Expected node types follow Knuth and Moore: the root is PV; the first child of a PV node
is PV and the others Cut; the children of a Cut node are All and those of an All node
Cut (a successor searched with F under ``pv_full`` is expected PV). A successor searched
again after its test (``Z+F``) is expected PV, as the note labels it (``researched_pv``,
on by default; off, it keeps its Knuth-Moore type). Inside a zero-window
tree no tests are made: it is plain alpha-beta with the strict criterion.

The frame passes open windows ``(alpha, beta)``; a closed window ``[lo, hi]`` is the open
window ``(lo - 1, hi + 1)`` over the integers, so nodes are counted and classified by the
same rules as every other variant. An open zero window ``(alpha, alpha + 1)`` (which
only a caller outside the note's search passes) has no closed equivalent; it is searched
as ``[alpha + 1, alpha + 1]``, one wider, which decides the same fail-high or fail-low.
One deliberate difference from the note's pseudocode:
a skipped successor's Z value (an upper bound on it) joins ``best``, so a node that fails
low returns a correct upper bound; the note drops it, which only changes returned bounds.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.games.base import Move
from harness.search.core import Loop, Search

PV, CUT, ALL = "pv", "cut", "all"
F, Z, ZF = "F", "Z", "Z+F"


def zwp(improve: bool = True, all_first: bool = False, pv_full: bool = False,
        researched_pv: bool = True) -> Loop:
    """The note's merged search with the strict cutoff criterion (a root loop).

    ``researched_pv``: a successor searched again after its test (``Z+F``) is expected PV,
    as the note labels it (its worked example is that case); off, it keeps Knuth and
    Moore's type (Cut below a PV node), and only the leftmost path is expected PV."""

    def closed(s: Search, loop: Loop, m: Move, depth: int, lo: int, hi: int, how: str = F) -> int:
        """Search child ``m`` with the closed window ``[lo, hi]`` as ``how`` says: ``F``,
        ``Z`` (a test) or the ``F`` of ``Z+F`` (a re-search); its value negated.

        Every ``Z`` counts as a test (``wide`` is ``True``), also one made by a node called
        with a closed window of no width (the ``F`` of a ``Z+F`` made once ``a`` reached
        ``b``; a null move's child), which VARIANTS.md's "by a node whose own window was
        wider" would not count: zwp's counts stay as they were measured.
        """
        if how == Z:
            return -s.test(loop, m, depth, lo - 1, hi + 1, True)
        if how == ZF:
            return -s.research(loop, m, depth, lo - 1, hi + 1)
        return -s.child(loop, m, depth, lo - 1, hi + 1)

    def zero_window(s: Search, moves: Sequence[Move], depth: int, alpha: int,
                    beta: int) -> tuple[int, int, Move | None]:
        a, b = alpha + 1, max(beta - 1, alpha + 1)
        best: int | None = None
        best_move: Move | None = None
        last = 0
        for n, m in enumerate(moves):
            if b < a:
                break
            last = n
            r = closed(s, zero_window, m, depth - 1, -b, -a)
            if best is None or r > best:
                best, best_move = r, m
            a = max(a, r)
        assert best is not None
        return best, last, best_move

    def full(expected: str) -> Loop:
        def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
                 beta: int) -> tuple[int, int, Move | None]:
            a, b = alpha + 1, max(beta - 1, alpha + 1)
            best: int | None = None
            best_move: Move | None = None
            met = False                     # has a successor met alpha (for pv_full)?
            last = 0
            for n, m in enumerate(moves):
                if b < a:
                    break
                last = n
                if expected == PV:
                    full_first = n == 0 or (pv_full and not met)
                    child, test = loops[PV if full_first else CUT], not full_first
                else:
                    child = loops[ALL if expected == CUT else CUT]
                    test = n > 0 or (all_first and expected == ALL)
                if test:
                    r = closed(s, zero_window, m, depth - 1, -a, -a, Z)       # Z
                    if r < a:
                        if best is None or r > best:
                            best = r                  # an upper bound on the skipped one
                        continue
                    if r > a or not improve:
                        again = loops[PV] if researched_pv else child
                        r = closed(s, again, m, depth - 1, -b, -a, ZF)    # Z+F
                else:
                    r = closed(s, child, m, depth - 1, -b, -a)                # F
                met = met or r >= a
                if best is None or r > best:
                    best, best_move = r, m
                a = max(a, r)
            assert best is not None          # every iteration sets it
            return best, last, best_move

        return loop

    loops: dict[str, Loop] = {PV: full(PV), CUT: full(CUT), ALL: full(ALL)}
    return loops[PV]
