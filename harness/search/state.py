"""What a search holds: its tree's cursor, its switches, counters, table and lines.

:class:`SearchState` is the state of one search and the small services the node frame
(:class:`harness.search.core.Search`, its subclass) calls on it: the horizon evaluation,
the tree's value bounds, the node-limit and signal checkpoint, the principal variation.
The recursion, the node's steps and the loops' calls live in ``core.py``; kept apart so
that each module reads as one concept. Compiled with mypyc with the rest of the core.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from mypy_extensions import mypyc_attr

from harness.games.base import INF, EnhancedTree, Move, Tree
from harness.search.counters import Counters
from harness.search.lines import line_names, principal_variation
from harness.search.selective import FULL_WIDTH, SelectiveRules, Selectivity
from harness.search.signals import SIGNAL_INTERVAL, poll_signals
from harness.search.table import TranspositionTable

Quiescence = Callable[[int, int, Counters], int]
"""A horizon evaluation that looks at the window (chess: quiescence search), counting its
own nodes as ``qnodes``."""


def _no_floor() -> int:
    return -INF


def _never_in_check() -> bool:
    return False


PLIES = 512
"""Plies the selective switches keep a record of (a search recurses no deeper: Python's
recursion limit stops it first, the compiled frame at ``MAX_PLY``)."""


class NodeLimitReached(Exception):
    """A search used up its node budget (``Search.node_limit``)."""


@mypyc_attr(allow_interpreted_subclasses=True)   # harness.search.core.Search
class SearchState:
    """One search of one tree: the tree's cursor, the counters, the table if any."""

    __slots__ = (
        "_checks",
        "_count",
        "_in_check_at",
        "_key",
        "_last",
        "_leaf_quiesce",
        "_leaf_shortcut",
        "_leaf_value",
        "_line",
        "_lines",
        "_mate",
        "_moves",
        "_next_check",
        "_ply",
        "_pop",
        "_prunable",
        "_push",
        "_pv",
        "_refutation_lines",
        "_refute",
        "_remaining",
        "_researching",
        "_rules",
        "_selective",
        "_static",
        "best_move",
        "counters",
        "enhanced",
        "extend_checks",
        "hash_move",
        "narrow_on_hit",
        "node_limit",
        "null_reduction",
        "null_rule",
        "quiescence",
        "refutations",
        "root_line",
        "root_lower_bound",
        "selectivity",
        "store_leaves",
        "table",
        "tree",
        "value_bound",
        "value_floor",
        "value_range",
        "window",
    )

    def __init__(self, tree: Tree, table: TranspositionTable | None = None,
                 quiescence: Quiescence | None = None, hash_move: bool = True,
                 null_reduction: int = 0, null_rule: str = "either",
                 extend_checks: bool = False, store_leaves: bool = False,
                 narrow_on_hit: bool = False, value_bounds: bool = False,
                 window: tuple[int, int] = (-INF, INF),
                 selectivity: Selectivity = FULL_WIDTH, refutations: bool = False) -> None:
        self.tree = tree
        """The problem, seen through its cursor."""
        # The cursor's methods, looked up once: called at every node, a lookup by name
        # each time cost a fifth of a compiled Connect Four search.
        self._moves: Callable[[], Sequence[Move]] = tree.moves
        self._push: Callable[[Move], None] = tree.push
        self._pop: Callable[[], None] = tree.pop
        self._key: Callable[[], Hashable] = tree.key
        self.table = table
        """The transposition table, or ``None`` when the search runs without one."""
        self.quiescence = quiescence
        """The horizon evaluation, or ``None`` for the tree's static value."""
        self.hash_move = hash_move
        """Search the table's move first."""
        self.null_reduction = null_reduction
        """Null move: depth reduction R (0: off)."""
        self.null_rule = null_rule
        """Which earlier null moves forbid one (see ``EnhancedTree.null_allowed``)."""
        self.extend_checks = extend_checks
        """Search one ply deeper at nodes where the side to move is in check."""
        self.store_leaves = store_leaves and table is not None
        """Store horizon leaves (their static or quiescence value, as a bound of the window
        they were searched with) in the table and probe it for them, as Plaat et al.'s MT
        does; off, a leaf is evaluated every time it is reached."""
        self.value_bound: Callable[[], int] | None = (getattr(tree, "value_bound", None)
                                                      if value_bounds else None)
        """The tree's bound on the value of a node that is not a leaf (Connect Four: the
        most the player to move can still score), or ``None``: the frame lowers beta to it
        and answers the node at once when alpha is no lower."""
        self.value_floor: Callable[[], int] = getattr(tree, "value_floor", _no_floor)
        """The tree's bound from below (Connect Four: the least the player to move can
        score), which raises alpha as ``value_bound`` lowers beta."""
        self.value_range: Callable[[], tuple[int, int]] | None = (
            getattr(tree, "value_range", None) if value_bounds else None)
        """The tree's least and most value of the current node whatever it is (Connect
        Four: lose to the next stone, win with one's own), or ``None``: the MTD drivers
        start their bounds there rather than at infinity."""
        self.window = window
        """The root window of a full-window pass (``(-1, 1)``: a weak solve)."""
        self.narrow_on_hit = narrow_on_hit and table is not None
        """A table entry deep enough narrows the window to its bounds (MT's ``alpha =
        max(alpha, lower)``, ``beta = min(beta, upper)``); off, it only cuts off."""
        self.enhanced: EnhancedTree | None = None
        if null_reduction or extend_checks:
            if not hasattr(tree, "push_null"):
                raise ValueError("null move and check extension need a tree that can pass and knows checks "
                                 "(harness.games.base.EnhancedTree)")
            self.enhanced = tree  # type: ignore[assignment]
        # The principal variation, kept as the textbook's triangular array is, without a
        # key per node: a node whose value is exact leaves its line (its best move, then
        # that child's line) in ``_line``; ``child`` files it under the move that led there
        # in ``_lines[ply]``, where the parent, once its loop has chosen, picks its best
        # move's. A line is a chain of pairs ``(move, rest)``, ``rest`` ``None`` at its end.
        self._ply = 0
        self._line: tuple[Move, object] | None = None
        self._lines: list[dict[Move, tuple[Move, object]]] = []
        self.root_line: tuple[Move, object] | None = None
        """The line of the root of the last pass, when its value was exact."""
        self.node_limit = 1 << 62
        """Raise :class:`NodeLimitReached` when ``nodes`` exceeds this."""
        self._next_check = 0            # the node count of the next _checkpoint
        # A leaf at the horizon is counted and evaluated from its parent, without the node
        # frame, when nothing but the horizon evaluation looks at it (no check extension,
        # no null move): read (the static value) or quiesced by the tree itself (chess).
        # Same counts either way; every leaf of a search goes through here.
        self._leaf_value: Callable[[Move], int] = tree.child_value
        self._leaf_quiesce: Callable[[Move, int, int, Counters], int] | None = None
        if self.enhanced is None and quiescence is not None and quiescence == getattr(tree, "quiesce", None):
            self._leaf_quiesce = getattr(tree, "child_quiesce", None)
        self._leaf_shortcut = (self.enhanced is None and not self.store_leaves
                               and (quiescence is None or self._leaf_quiesce is not None))
        self.counters = Counters()
        """What the search did so far, over all passes."""
        self.best_move: Move | None = None
        """The best move of the node expanded last (after a pass: the root's)."""
        self.root_lower_bound = False
        """Set by a root loop whose value is only a lower bound (Belle's pending move)."""
        self._researching = False
        self._set_selectivity(selectivity)
        self.refutations = refutations
        """Refutation tables: every node's line is kept, and each root move's from its
        last pass searched first below it (:meth:`refutation_move`)."""
        # Each root move's line from the last pass that searched it; per ply, the part of
        # the line of the root move being searched that the path so far has followed.
        self._refutation_lines: dict[Move, tuple[Move, object]] = {}
        self._refute: list[tuple[Move, object] | None] = [None] * (PLIES if refutations else 1)

    def _set_selectivity(self, selectivity: Selectivity) -> None:
        """The selective switches as the tree offers them (:class:`SelectiveRules`), and
        the per-ply facts their rules read, kept only when one is on."""
        rules = SelectiveRules(self.tree, selectivity, self.table is not None, self.hash_move)
        self._rules = rules
        self.selectivity = rules.selectivity
        """The switches this search runs (the tree's abilities allowing)."""
        self._selective = rules.any
        self._mate = rules.mate
        in_check = getattr(self.tree, "in_check", None)
        self._in_check_at: Callable[[], bool] = _never_in_check if in_check is None else in_check
        # Check status is read at a node when check extension or a selective rule needs it.
        self._checks = (self.enhanced is not None and self.extend_checks) or (
            rules.any and in_check is not None)
        # Per ply: a PV node; prunable; its remaining depth, static value, moves searched so
        # far and the last of them (the selective rules' facts, docs/selective.md).
        plies = PLIES if rules.any else 1
        self._pv = [True] * plies
        self._prunable = [False] * plies
        self._remaining = [0] * plies
        self._static = [0] * plies
        self._count = [0] * plies
        self._last: list[Move | None] = [None] * plies

    def forget_lines(self) -> None:
        """Start a pass: no line kept (a pass cut short by the node limit may leave one)."""
        self._ply = 0
        self._line = self.root_line = None

    def bounded(self, value_bound: Callable[[], int], alpha: int,
                beta: int) -> tuple[int, int, int | None]:
        """The window with alpha raised to the tree's floor and beta lowered to its
        ``value_bound`` (the floor first, as in Pons's solver), and the node's value when
        they leave no window between them (counted in ``bound_cutoffs``), else ``None``."""
        floor = self.value_floor()
        if alpha < floor:
            alpha = floor
            if alpha >= beta:
                self.counters.bound_cutoffs += 1
                return alpha, beta, alpha
        bound = value_bound()
        if beta > bound:
            beta = bound
            if alpha >= beta:
                self.counters.bound_cutoffs += 1
                return alpha, beta, beta
        return alpha, beta, None

    def _checkpoint(self) -> None:
        """At the node limit, and every :data:`SIGNAL_INTERVAL` nodes before it: raise
        :class:`NodeLimitReached` past the limit, and let a pending signal's handler raise
        (Ctrl-C: :mod:`harness.search.signals`). No count changes."""
        nodes = self.counters.nodes
        if nodes > self.node_limit:
            raise NodeLimitReached
        poll_signals()
        self._next_check = min(self.node_limit, nodes + SIGNAL_INTERVAL)

    def principal_variation(self, first: Move | None, depth: int) -> list[Move]:
        """The line from the root: ``first``, then the moves that gave the last pass its
        value (when it was exact and that pass chose ``first``), then the table's moves,
        while each is legal and leads to a position not already on the line."""
        return principal_variation(self.tree, self.table, self.root_line, first, depth)

    def principal_variation_names(self, first: Move | None, depth: int) -> list[str]:
        """:meth:`principal_variation` by the tree's names for its moves (:func:`line_names`):
        the result's ``pv``."""
        return line_names(self.tree, self.principal_variation(first, depth))

    def counts(self) -> dict[str, int]:
        """Every counter so far by name (:meth:`Counters.as_dict`)."""
        return self.counters.as_dict()

    def horizon(self, alpha: int, beta: int) -> int:
        """The value of a node at the horizon: quiescence if set, else the static value."""
        if self.quiescence is None:
            return self.tree.value()
        return self.quiescence(alpha, beta, self.counters)
