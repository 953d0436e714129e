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

from collections.abc import Sequence
from typing import Protocol, cast

from mypy_extensions import mypyc_attr

from harness.games.base import INF, Move
from harness.search.selective import IID_DEPTH, IID_REDUCTION, MATE_WINDOW, reduction
from harness.search.state import NodeLimitReached, Quiescence, SearchState

__all__ = ["Loop", "NodeLimitReached", "Quiescence", "Search"]


class Loop(Protocol):
    """The body of a search at an interior node.

    Given the node's children in search order, its remaining depth and its window, it
    returns ``(value, last, best_move)``: the value to return, the index of the last child
    it searched (the one that caused a fail-high, if the node failed high) and the move
    that produced the value (the table's move for this node; ``None`` if none is known).
    """

    def __call__(self, s: Search, moves: Sequence[Move], depth: int, alpha: int,
                 beta: int) -> tuple[int, int, Move | None]: ...


@mypyc_attr(allow_interpreted_subclasses=True)   # harness.search.trace.TracingSearch
class Search(SearchState):
    """The node frame: one search of one tree, each node by the same steps."""

    __slots__ = ()

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
