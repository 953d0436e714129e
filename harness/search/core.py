"""The node frame every variant shares.

A variant is written as a *loop*: the body of the textbook search, from "for each child"
to "return". Everything else a node does is the same for every variant and lives here,
once: counting the node, the horizon and terminal test, the transposition-table probe and
store, the hash move first, and classifying the node by its outcome (PV, Cut, All,
fail-high, first-move fail-high, cutoff). Loops recurse through :meth:`Search.child`,
naming the loop the child is searched with, just as the pseudocode names the function;
:meth:`Search.test` and :meth:`Search.research` are the same call for a zero-window test
and for the search again of a test that failed high, counted by the frame.

This module, the loops, the counters, the table and the drivers are compiled with mypyc
at install (``harness/search/compiled.py``), which trusts their types as ``mypy
--strict`` infers them: a local that starts as ``None`` states its type.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, cast

from mypy_extensions import mypyc_attr

from harness.games.base import INF, EnhancedTree, Move, Tree
from harness.search.counters import Counters
from harness.search.lines import line_names, principal_variation
from harness.search.selective import (
    FULL_WIDTH,
    IID_DEPTH,
    IID_REDUCTION,
    MATE_WINDOW,
    SelectiveRules,
    Selectivity,
    reduction,
)
from harness.search.signals import SIGNAL_INTERVAL, poll_signals
from harness.search.table import TranspositionTable


class Loop(Protocol):
    """The body of a search at an interior node.

    Given the node's children in search order, its remaining depth and its window, it
    returns ``(value, last, best_move)``: the value to return, the index of the last child
    it searched (the one that caused a fail-high, if the node failed high) and the move
    that produced the value (the table's move for this node; ``None`` if none is known).
    """

    def __call__(self, s: Search, moves: Sequence[Move], depth: int, alpha: int,
                 beta: int) -> tuple[int, int, Move | None]: ...


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


@mypyc_attr(allow_interpreted_subclasses=True)   # harness.search.trace.TracingSearch
class Search:
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

    def root(self, loop: Loop, depth: int, alpha: int, beta: int) -> tuple[int, Move | None]:
        """One pass: search the root with ``loop`` and the window; return value and move.

        The root always expands (a table entry only puts its move first), so every pass
        has a best move.
        """
        c = self.counters
        c.passes += 1
        c.nodes += 1
        self.root_lower_bound = False
        self.forget_lines()
        self._pv[0] = True              # the root: a PV node, never pruned
        self._prunable[0] = False
        tree = self.tree
        if depth <= 0:
            c.leaves += 1
            return self.horizon(alpha, beta), None
        moves = self._moves()
        if not moves:
            c.leaves += 1
            return tree.terminal_value(), None
        if self.value_bound is not None:
            alpha, beta, answer = self.bounded(self.value_bound, alpha, beta)
            if answer is not None:
                return answer, None
        hash_move: Move | None = None
        if self.table is not None and self.hash_move:
            c.tt_probes += 1
            entry = self.table.probe(self._key())
            if entry is not None:
                c.tt_hits += 1
                hash_move = entry[4]
        value = self.expand(loop, moves, depth, alpha, beta, hash_move)
        # Refutation tables keep every node's line; the root's is the PV only when exact.
        exact = not self.refutations or alpha < value < beta
        self.root_line, self._line = (self._line if exact else None), None
        if self.refutations:
            self._refutation_lines.update(self._lines[0])
        return value, self.best_move

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

    def child(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int) -> int:
        """Search the child reached by ``move`` with ``loop``; its value for its side to move."""
        if self._selective:
            return self.selective_child(loop, move, depth, alpha, beta)
        return self.searched_child(loop, move, depth, alpha, beta)

    def selective_child(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int) -> int:
        """:meth:`child` under the selective switches: a quiet move after the first at a
        prunable node may be pruned (late-move pruning, then futility: a value that fails
        low for its parent) or searched shallower first (late-move reductions). The same
        move searched again at once is a re-search: searched as asked."""
        ply = self._ply
        if move == self._last[ply]:
            self._pv[ply + 1] = self._pv[ply] and self._count[ply] == 1
            return self.searched_child(loop, move, depth, alpha, beta)
        index = self._count[ply]
        self._count[ply] = index + 1
        self._last[ply] = move
        self._pv[ply + 1] = self._pv[ply] and index == 0
        rules = self._rules
        if index == 0 or not self._prunable[ply] or rules.tactical(move):
            return self.searched_child(loop, move, depth, alpha, beta)
        c = self.counters
        remaining = self._remaining[ply]
        counts = rules.late_move_counts
        if remaining <= len(counts) and index >= counts[remaining - 1]:
            c.late_move_prunes += 1
            return beta                 # its parent's alpha: a fail-low
        margins = rules.futility
        if remaining <= len(margins) and self._static[ply] + margins[remaining - 1] <= -beta:
            c.futility_prunes += 1
            return -(self._static[ply] + margins[remaining - 1])
        r = reduction(remaining, index) if rules.lmr else 0
        if r:
            c.reductions += 1
            value = self.searched_child(loop, move, depth - r, alpha, beta)
            if value >= beta:           # fails low for its parent: the reduction stands
                return value
            c.reduction_researches += 1
        return self.searched_child(loop, move, depth, alpha, beta)

    def searched_child(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int) -> int:
        """:meth:`child` without the selective switches: the child searched as asked."""
        if depth <= 0 and self._leaf_shortcut:
            c = self.counters
            c.nodes += 1
            if c.nodes > self._next_check:
                self._checkpoint()
            c.leaves += 1
            quiesce = self._leaf_quiesce
            return self._leaf_value(move) if quiesce is None else quiesce(move, alpha, beta, c)
        if self.refutations:
            self.follow_refutation(move)
        self._push(move)
        self._ply += 1
        value = self.node(loop, depth, alpha, beta)
        self._ply -= 1
        self._pop()
        line = self._line
        if line is not None:            # the child's value is exact: keep its line for us
            self._lines[self._ply][move] = line
            self._line = None
        return value

    def test(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int, wide: bool) -> int:
        """:meth:`child`, as a zero-window test (the note's ``Z``), counted in
        ``zw_searches`` when ``wide``: the only place that counter moves.

        The window is the test's, as the pseudocode writes it: ``(-alpha - 1, -alpha)`` in
        PVS, the note's closed ``[a, a]`` as the open ``(a - 1, a + 1)``. VARIANTS.md counts
        a test only from a node called with a window wider than a zero window, so ``wide``
        is that fact about the node making the test, read by its loop once on entry, before
        alpha rises (``wide = beta > alpha + 1``). It is an argument rather than something
        the frame works out because the frame does not keep the window of the node whose
        loop is running (it would save and restore it at every expanded node), and because
        two loops count every test they make: Scout, which searches with the full window
        whatever it is given, and the note's search (see ``zwp.py``). A test that is not
        ``wide`` is a plain :meth:`child` search, and an observer (``harness.search.trace``) draws
        it as one.
        """
        if wide:
            self.counters.zw_searches += 1
        return self.child(loop, move, depth, alpha, beta)

    def research(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int) -> int:
        """:meth:`child`, counted as a re-search after a failed zero-window test."""
        c = self.counters
        c.researches += 1
        if self._researching:          # nested: its nodes are already being counted
            return self.child(loop, move, depth, alpha, beta)
        self._researching = True
        start = c.nodes
        value = self.child(loop, move, depth, alpha, beta)
        c.research_nodes += c.nodes - start
        self._researching = False
        return value

    def null_child(self, loop: Loop, depth: int, alpha: int, beta: int) -> int:
        """Search the position after passing the move (null move)."""
        assert self.enhanced is not None
        if self._selective:
            self._pv[self._ply + 1] = False
        if self.refutations:
            self._refute[self._ply + 1] = None
        self.enhanced.push_null()
        self._ply += 1
        value = self.node(loop, depth, alpha, beta)
        self._ply -= 1
        self._pop()
        self._line = None               # a zero window: never exact, but a line below is not ours
        return value

    def follow_refutation(self, move: Move) -> None:
        """Before searching the child reached by ``move``: the part of the refutation line
        its node follows (a root move's own line; below it, the rest of the parent's line
        when ``move`` is the line's next move; else none)."""
        ply = self._ply
        if ply == 0:
            below = self._refutation_lines.get(move)
        else:
            line = self._refute[ply]
            below = (None if line is None or line[0] != move
                     else cast("tuple[Move, object] | None", line[1]))
        self._refute[ply + 1] = below

    def refutation_move(self, moves: Sequence[Move]) -> Move | None:
        """The move a node without a hash move searches first: its refutation line's next
        move, when it is legal here (counted in ``refutation_moves``), else ``None``."""
        line = self._refute[self._ply]
        if line is None or line[0] not in moves:
            return None
        self.counters.refutation_moves += 1
        return line[0]

    def _checkpoint(self) -> None:
        """At the node limit, and every :data:`SIGNAL_INTERVAL` nodes before it: raise
        :class:`NodeLimitReached` past the limit, and let a pending signal's handler raise
        (Ctrl-C: :mod:`harness.search.signals`). No count changes."""
        nodes = self.counters.nodes
        if nodes > self.node_limit:
            raise NodeLimitReached
        poll_signals()
        self._next_check = min(self.node_limit, nodes + SIGNAL_INTERVAL)

    def node(self, loop: Loop, depth: int, alpha: int, beta: int) -> int:
        """Search the current node: count it, stop at a leaf or a table cutoff, else expand."""
        c = self.counters
        c.nodes += 1
        if c.nodes > self._next_check:
            self._checkpoint()
        enhanced = self.enhanced
        in_check = self._checks and self._in_check_at()
        if in_check and self.extend_checks:
            depth += 1
        if depth <= 0 and not self.store_leaves:
            c.leaves += 1
            return self.horizon(alpha, beta)
        mate = self._mate
        if mate and depth > 0:          # mate-distance pruning: no mate nearer or farther
            ply = self._ply
            if alpha < -(mate - ply):
                alpha = -(mate - ply)
            if beta > mate - ply - 1:
                beta = mate - ply - 1
            if alpha >= beta:
                c.mate_distance_cutoffs += 1
                return alpha
        table = self.table
        hash_move: Move | None = None
        if table is not None:
            c.tt_probes += 1
            entry = table.probe(self._key())
            if entry is not None:
                c.tt_hits += 1
                if entry[1] >= depth:
                    lower, upper = entry[2], entry[3]
                    deeper = entry[1] > depth
                    if lower >= beta or lower == upper:
                        c.tt_cutoffs += 1
                        c.tt_deep_cutoffs += deeper
                        return lower
                    if upper <= alpha:
                        c.tt_cutoffs += 1
                        c.tt_deep_cutoffs += deeper
                        return upper
                    if self.narrow_on_hit and (lower > alpha or upper < beta):
                        c.tt_deep_cutoffs += deeper
                        alpha, beta = max(alpha, lower), min(beta, upper)
                if self.hash_move:
                    hash_move = entry[4]
        if depth <= 0:                          # a leaf the table did not settle: store it
            c.leaves += 1
            value = self.horizon(alpha, beta)
            if table is not None:
                table.store(self._key(), 0, alpha, beta, value, None)
            return value
        moves = self._moves()
        if not moves:
            c.leaves += 1
            return self.tree.terminal_value()
        if self.value_bound is not None:
            alpha, beta, answer = self.bounded(self.value_bound, alpha, beta)
            if answer is not None:
                return answer
        if self._selective:
            answer = self.selective_node(depth, alpha, beta, in_check)
            if answer is not None:
                return answer
        r = self.null_reduction
        if (r and enhanced is not None and depth > r and beta < INF
                and enhanced.null_allowed(self.null_rule)):
            c.null_searches += 1
            v = -self.null_child(loop, depth - 1 - r, -beta, -beta + 1)
            if v >= beta:               # passing already fails high: a cut node
                c.null_cutoffs += 1
                c.fail_highs += 1
                c.cut_nodes += 1
                c.cutoffs += 1
                if table is not None:
                    table.store(self._key(), depth, alpha, beta, beta, None)
                return beta
        if self.refutations and hash_move is None:
            hash_move = self.refutation_move(moves)
        if self._selective and self._rules.iid and hash_move is None and depth >= IID_DEPTH:
            c.iid_searches += 1         # its best move is searched first: the hash move's role
            self.expand(loop, moves, depth - IID_REDUCTION, alpha, beta, None)
            hash_move = self.best_move
            self._line = None
        return self.expand(loop, moves, depth, alpha, beta, hash_move)

    def selective_node(self, depth: int, alpha: int, beta: int, in_check: bool) -> int | None:
        """The selective rules of a node about to expand: record its facts for its
        children (:meth:`selective_child`), then razoring and reverse futility at a
        prunable node; the node's value if one answers it, else ``None``."""
        ply = self._ply
        prunable = not self._pv[ply] and not in_check
        self._prunable[ply] = prunable
        self._remaining[ply] = depth
        rules = self._rules
        if not prunable or depth > rules.static_depth:
            return None
        static = self.tree.value()
        self._static[ply] = static
        c = self.counters
        mate = self._mate or INF
        margins = rules.razoring
        if (depth <= len(margins) and static + margins[depth - 1] <= alpha
                and alpha > -mate + MATE_WINDOW):
            c.razor_searches += 1
            value = self.horizon(alpha, alpha + 1)
            if value <= alpha:
                c.razor_cutoffs += 1
                c.fail_lows += 1
                c.all_nodes += 1
                return value
        margins = rules.reverse_futility
        if (depth <= len(margins) and static - margins[depth - 1] >= beta
                and beta < mate - MATE_WINDOW):
            c.reverse_futility_cutoffs += 1
            c.fail_highs += 1
            c.cut_nodes += 1
            c.cutoffs += 1
            return static - margins[depth - 1]
        return None

    def expand(self, loop: Loop, moves: Sequence[Move], depth: int, alpha: int, beta: int,
               hash_move: Move | None) -> int:
        """Run ``loop`` over the children (hash move first), classify the node, store it."""
        if hash_move is not None and moves[0] != hash_move and hash_move in moves:
            moves = [hash_move, *(m for m in moves if m != hash_move)]
        ply, lines = self._ply, self._lines
        if self._selective:             # no move of this node searched yet
            self._count[ply] = 0
            self._last[ply] = None
        if ply < len(lines):
            lines[ply].clear()          # lines of another node's children
        else:
            lines.append({})
        value, last, best = loop(self, moves, depth, alpha, beta)
        c = self.counters
        if value >= beta:
            c.fail_highs += 1
            c.cut_nodes += 1
            if last == 0:
                c.fail_highs_first += 1
            if last < len(moves) - 1:
                c.cutoffs += 1
            if best is not None:
                self.tree.cutoff(best, depth)
        elif value <= alpha:
            c.fail_lows += 1
            c.all_nodes += 1
        else:
            c.pv_nodes += 1
        # An exact node keeps its line (the PV); with refutation tables every node does.
        if best is not None and (self.refutations or alpha < value < beta):
            self._line = (best, lines[ply].get(best))
        if self.table is not None:
            self.table.store(self._key(), depth, alpha, beta, value, best)
        self.best_move = best
        return value

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
