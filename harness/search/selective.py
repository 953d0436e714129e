"""Selective search: the frame's switches that reduce, prune and cut, each off by default.

Every switch is the frame's (:mod:`harness.search.core`, and its C twin
``engine_frame.h``), never a loop's: a variant's loop stays its textbook pseudocode, and
every variant reduces and prunes by the same rules, so two variants under the same
switches still differ only by their loops. docs/selective.md defines each switch, its
counter and its source; here are the rules' numbers and the switch set.

The rules read three facts about a node:

- **PV node**: the root is one, and so is the first child searched of a PV node (Knuth and
  Moore's type 1, the leftmost path); the same move searched again at once (a re-search)
  keeps what it was. Every other node is not: the rule is structural, the same for a
  variant that searches its later children with a zero window (PVS) and one that does not
  (alpha-beta).
- **Prunable**: a node that is neither a PV node nor in check (where the tree knows checks).
- **Quiet move**: a move the tree does not call tactical (chess: not a capture, a promotion
  or a check).

A game offers what the switches need (``harness.games.base.SelectiveTree``: which moves are
tactical, and its margins); a tree without it searches without the switches that need it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from harness.games.base import Move, SelectiveMargins, SelectiveTree, Tree, has_selectivity

LATE_MOVE_REDUCTIONS = ((3, 3, 1), (6, 12, 2))
"""Late-move reductions, as ``(least depth, least move index, plies)``: a quiet move at a
prunable node of remaining depth ``d`` whose index among the node's moves (0 the first) is
``k`` is searched ``r`` plies shallower, ``r`` the last row with ``d >= least depth`` and
``k >= least move index`` (0 when none: the fourth move on at depth 3 or more loses a ply,
the thirteenth on at depth 6 or more two). Fruit 2.1 and Toga II reduce one ply after three
moves ("history pruning"); Glaurung and Stockfish reduce more the later the move."""

IID_DEPTH = 4
"""Internal iterative deepening: the least remaining depth of a node searched first to a
shallower depth when the table has no move for it."""

IID_REDUCTION = 2
"""How much shallower that first search is (Fruit's and Toga II's two plies)."""

MATE_WINDOW = 256
"""Reverse futility and razoring leave a window within this of a mate score alone (a mate
is not a margin away)."""


def reduction(depth: int, index: int) -> int:
    """Plies a quiet late move loses (:data:`LATE_MOVE_REDUCTIONS`)."""
    plies = 0
    for least_depth, least_index, r in LATE_MOVE_REDUCTIONS:
        if depth >= least_depth and index >= least_index:
            plies = r
    return plies


@dataclass(frozen=True)
class Selectivity:
    """Which selective switches a search runs (docs/selective.md), each off by default. A
    switch whose tree lacks what it needs is off for that tree
    (``harness.games.base.has_selectivity``): what ran is in each search's counters."""

    late_move_reductions: bool = False
    """Quiet late moves at prunable nodes searched shallower (:data:`LATE_MOVE_REDUCTIONS`);
    one whose reduced search does not fail low is searched again at full depth (counted in
    ``reductions`` and ``reduction_researches``)."""
    late_move_pruning: bool = False
    """Quiet moves at prunable shallow nodes, after the game's move count, not searched
    (``late_move_prunes``)."""
    futility: bool = False
    """Quiet moves at prunable shallow nodes whose static value plus the game's margin
    cannot reach alpha not searched (``futility_prunes``)."""
    reverse_futility: bool = False
    """A prunable shallow node whose static value less the game's margin is at least beta
    answers that value unexpanded (static null move; ``reverse_futility_cutoffs``)."""
    razoring: bool = False
    """A prunable shallow node whose static value plus the game's margin is no more than
    alpha answers its horizon evaluation (quiescence) when that fails low with a zero
    window at alpha (``razor_searches``, ``razor_cutoffs``)."""
    internal_iterative_deepening: bool = False
    """A node of depth :data:`IID_DEPTH` or more without a hash move (a table on) is first
    searched :data:`IID_REDUCTION` plies shallower, and that search's best move is searched
    first (``iid_searches``)."""
    mate_distance: bool = False
    """The window of a node is narrowed to the mate scores still possible at its ply (no
    mate can be nearer than the next move, none worse than mate here); a node left with
    no window is answered at once (``mate_distance_cutoffs``)."""

    def values(self) -> tuple[bool, bool, bool, bool, bool, bool, bool]:
        """Every switch's value, in :data:`SWITCHES`' order."""
        return (self.late_move_reductions, self.late_move_pruning, self.futility,
                self.reverse_futility, self.razoring, self.internal_iterative_deepening,
                self.mate_distance)

    def names(self) -> tuple[str, ...]:
        """The switches on, by field name, in :data:`SWITCHES`' order."""
        return tuple(name for name, is_on in zip(SWITCHES, self.values(), strict=True) if is_on)

    def pruning(self) -> tuple[str, ...]:
        """The switches on that reduce or prune by the window, and so need the tree's quiet
        moves and margins and make a search inexact: every one but internal iterative
        deepening, which only reorders and needs a table alone."""
        return tuple(name for name in self.names() if name != "internal_iterative_deepening")

    def __reduce__(self) -> tuple[type[Selectivity], tuple[bool, ...]]:
        # Compiled by mypyc, a frozen dataclass cannot be unpickled field by field (its
        # __setattr__ refuses): a run's worker processes receive it made anew.
        return (Selectivity, self.values())


FULL_WIDTH = Selectivity()
"""Every selective switch off: the default of every search."""

SWITCHES = ("late_move_reductions", "late_move_pruning", "futility", "reverse_futility",
            "razoring", "internal_iterative_deepening", "mate_distance")
"""Every selective switch, by field name, in the order of :class:`Selectivity`'s fields."""


def _nothing_quiet(move: Move) -> bool:
    return True


class SelectiveRules:
    """A search's selective switches as its tree offers them: those needing margins or
    quiet moves off where the tree declares none (:func:`has_selectivity`), internal
    iterative deepening only with a table and its hash move; each margin tuple empty where
    its switch is off."""

    __slots__ = ("any", "futility", "iid", "late_move_counts", "lmr", "mate", "razoring",
                 "reverse_futility", "selectivity", "static_depth", "tactical")

    def __init__(self, tree: Tree, selectivity: Selectivity, table: bool, hash_move: bool) -> None:
        selective_tree = cast("SelectiveTree", tree)
        offered = has_selectivity(tree)
        margins = selective_tree.selective_margins if offered else SelectiveMargins()
        on = selectivity if offered else Selectivity(
            internal_iterative_deepening=selectivity.internal_iterative_deepening)
        self.selectivity = on
        """The switches that run."""
        self.lmr = on.late_move_reductions
        self.late_move_counts = margins.late_move_counts if on.late_move_pruning else ()
        self.futility = margins.futility if on.futility else ()
        self.reverse_futility = margins.reverse_futility if on.reverse_futility else ()
        self.razoring = margins.razoring if on.razoring else ()
        self.static_depth = max(len(self.futility), len(self.reverse_futility), len(self.razoring))
        """The deepest node whose static value a rule reads."""
        self.iid = on.internal_iterative_deepening and table and hash_move
        self.mate = margins.mate if on.mate_distance else 0
        """Mate-distance pruning's mate score; 0: off."""
        self.any = bool(self.lmr or self.late_move_counts or self.static_depth or self.iid
                        or self.mate)
        """Whether any rule runs."""
        self.tactical: Callable[[Move], bool] = (selective_tree.tactical if offered
                                                 else _nothing_quiet)
        """The tree's ``tactical`` (no move is quiet where it has none)."""

    def engine_parameters(self) -> tuple[bool, tuple[int, ...], tuple[int, ...],
                                         tuple[int, ...], tuple[int, ...], bool, int]:
        """What the compiled frame's ``Engine`` takes: (lmr, late-move counts, futility,
        reverse futility, razoring, iid, mate)."""
        return (self.lmr, self.late_move_counts, self.futility, self.reverse_futility,
                self.razoring, self.iid, self.mate)
