"""Stockman's SSS* and its dual DUAL*: best-first search with an OPEN list of states.

As the literature states the algorithm (Stockman 1979, in the form Pearl's *Heuristics*
(1984) and Plaat, Schaeffer, Pijls and de Bruin (1996, "Best-first fixed-depth minimax
algorithms", AIJ 87) give): a *state* is ``(n, s, h)``, a node, its status ``LIVE`` or
``SOLVED`` and its merit ``h``, an upper bound on the value of the best solution tree
through ``n``. OPEN starts as ``(root, LIVE, +inf)``; SSS* removes the state of highest
merit, stops when it is the root ``SOLVED`` (its merit is the minimax value) and otherwise
applies the first of the six cases of the operator Gamma that fits. Ties go to the
leftmost node: the order in which MT-SSS*, searching left to right, meets them (the first
child "on top" when a MAX node's children are pushed); where values tie, another rule (the
last state pushed first) evaluates other leaves.

1. ``LIVE``, ``n`` a leaf (the horizon or no moves): ``(n, SOLVED, min(h, f(n)))``.
2. ``LIVE``, ``n`` an interior MAX node: ``(c, LIVE, h)`` for every child ``c``.
3. ``LIVE``, ``n`` an interior MIN node: ``(c1, LIVE, h)``, its first child alone.
4. ``SOLVED``, ``n`` a MIN node: ``(parent(n), SOLVED, h)``, and every state of a node
   below ``parent(n)`` leaves OPEN (the parent's other children can do no better).
5. ``SOLVED``, ``n`` a MAX node with a next sibling ``n'``: ``(n', LIVE, h)``.
6. ``SOLVED``, ``n`` a MAX node, the last child: ``(parent(n), SOLVED, h)``.

(Cases 4-6 are never applied to the root: a ``SOLVED`` root ends the search.) The root
is MAX; leaf values are the tree's, for the side to move there, turned to the root
player's side. DUAL* (Marsland, Reinefeld and Schaeffer 1987) is the same operator run
from the other player's side: merits are lower bounds on the root's value, OPEN starts at
``-inf``, the root is a MIN node of that search and its value is negated back.

One search, :func:`best_first`, in the search frame (:class:`~harness.search.core.Search`:
its tree, counters, node limit, horizon evaluation and check extension), serves both the
variants ``sss`` and ``dual`` (:func:`driver`) and the reference functions
:func:`sss_star` and :func:`dual_star`, which also list the leaves evaluated. What the
counters of VARIANTS.md mean for it (:data:`COUNTING`): ``nodes`` the states taken from
OPEN as ``LIVE`` (each node at most once: the distinct nodes the search visits, the root
and the leaves included; the node limit counts these), ``leaves`` the leaf evaluations
(case 1), ``qnodes`` the quiescence nodes below them (each leaf's quiescence value with
the full window, as minimax's), ``passes`` one per search (per iteration under iterative
deepening, each a new search: nothing is carried over). Every other counter is about
windows, re-searches or a table, which SSS* has none of, and stays 0.

Memory grows with the tree: OPEN holds up to one state per leaf of a solution tree (on a
uniform tree ``b ** ceil(d / 2)`` for SSS*, ``b ** floor(d / 2)`` for DUAL*, and both are
reached), each a path of child indices. A search whose OPEN would pass ``max_open``
states stops there with the status ``max-open`` and the best bound it has: for SSS* the
highest merit on OPEN, an upper bound on the value; for DUAL* a lower bound. Every state
is reached by replaying its path from the root: a reference for the shape of the search,
not a fast one. It stays Python (``setup.py``'s ``SEARCH_PYTHON``); over a tree that offers
its methods in C (``native_tree()``) the same search runs in the compiled frame
(``engine_best_first.h``, the frame ``compiled-best-first``), diff-tested state for state
against this one.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from harness.errors import HarnessError
from harness.games.base import INF, Move, Tree
from harness.search.core import NodeLimitReached, Search
from harness.search.drivers import EXACT, LOWER, UPPER, Driver, Outcome
from harness.search.engine import NativeSearch
from harness.search.trace import TraceNode, TracingSearch

MAX_OPEN = 100_000
"""States OPEN may hold before a search stops (the variants' default ``max_open``)."""

MAX_OPEN_STATUS = "max-open"
"""The status of a search stopped because OPEN would pass ``max_open`` states."""

COUNTING = ("nodes: nodes visited (states taken from OPEN as LIVE, each node once, leaves "
            "included); leaves: leaf evaluations; qnodes: their quiescence nodes (full "
            "window); passes: 1 per search; the window, re-search and table counters stay 0 "
            "(SSS* has none); --tt, --tt-leaves, --tt-narrow, --no-hash-move, value bounds, "
            "--window and --null-move change nothing; --check-extension extends as the "
            "frame does; under --id each depth is a new search, its counts added")
"""What the counters of VARIANTS.md mean for ``sss`` and ``dual`` (``harness variants``)."""

LIVE, SOLVED = 0, 1

Path = tuple[int, ...]
"""A node as the indices of the moves from the root, in the tree's order."""


@dataclass(frozen=True)
class Found:
    """What one SSS* or DUAL* search found (the counters are in the frame's)."""

    value: int
    """The root's minimax value for the side to move at the root, or with ``status``
    ``max-open`` the bound reached (SSS*: upper, DUAL*: lower)."""
    best: int | None
    """The index of the best root move in the tree's order (``None``: a terminal root, or
    a search that stopped)."""
    status: str
    """``ok``, or ``max-open``."""
    generated: int
    """Nodes put on OPEN as ``LIVE``, the root included: each node at most once."""
    largest_open: int
    """The most states OPEN held at once."""


@dataclass(frozen=True)
class BestFirstResult:
    """What SSS* or DUAL* found and did on one tree to one depth."""

    value: int
    """The root's minimax value for the side to move at the root."""
    leaves: tuple[tuple[str, ...], ...]
    """Every leaf evaluated, in order, as the names of the moves that lead to it (the
    names a trace gives, :func:`harness.search.trace.evaluated_leaves`)."""
    nodes: int
    """Nodes visited (the ``nodes`` counter: states taken from OPEN as ``LIVE``)."""
    generated: int
    """Nodes put on OPEN as ``LIVE``, the root included: each node at most once."""
    largest_open: int
    """The most states OPEN held at once."""


def best_first(s: Search, depth: int, dual: bool = False, max_open: int = MAX_OPEN,
               leaves: list[tuple[str, ...]] | None = None) -> Found:
    """SSS* (``dual``: DUAL*) on the frame's tree from its root to ``depth`` plies,
    counting in its counters; each leaf evaluated is appended to ``leaves`` if given. A
    search in the compiled frame (:class:`NativeSearch`) runs its C twin, state for state
    this one, unless the leaves are wanted."""
    if isinstance(s, NativeSearch) and leaves is None:
        found = s.best_first(depth, dual, max_open)
        return Found(found[0], found[1], MAX_OPEN_STATUS if found[2] else "ok", found[3],
                     found[4])
    tree, c = s.tree, s.counters
    c.passes += 1
    trace = _Trace(s, depth) if isinstance(s, TracingSearch) else None
    visit = _Visitor(s, depth, leaves is not None or trace is not None)
    # The player whose merits are upper bounds moves at even plies in SSS*, odd in DUAL*.
    max_parity = 1 if dual else 0
    states: dict[Path, tuple[int, int]] = {(): (LIVE, INF)}
    heap: list[tuple[int, Path]] = [(-INF, ())]
    # Each path's children with a state at or below them (entries may outlive their states;
    # they are dropped when a purge walks them): case 4 purges a subtree by walking it, not
    # by scanning every state on OPEN.
    below: dict[Path, set[Path]] = {}
    generated, largest = 1, 1
    best: tuple[int, int] | None = None          # DUAL*'s root: (merit, child) lowest first

    def push(path: Path, status: int, merit: int) -> None:
        states[path] = (status, merit)
        heapq.heappush(heap, (-merit, path))
        while path:
            up = path[:-1]
            known = below.setdefault(up, set())
            if path in known:
                break
            known.add(path)
            path = up

    def purge_below(parent: Path) -> None:
        """Remove every state strictly below ``parent`` from OPEN."""
        stack = list(below.pop(parent, ()))
        while stack:
            path = stack.pop()
            states.pop(path, None)
            stack.extend(below.pop(path, ()))

    def done(value: int, move: int | None, status: str = "ok") -> Found:
        tree.reset()
        if trace is not None and status == "ok":
            trace.nodes[()].value = -value if dual else value
        return Found(-value if dual else value, move, status, generated, largest)

    while True:
        merit_key, path = heapq.heappop(heap)
        state = states.get(path)
        if state is None or state[1] != -merit_key:
            continue                    # purged or superseded: a stale heap entry
        status, merit = state
        del states[path]
        if status == SOLVED and not path:
            return done(merit, best[1] if best is not None else None)
        is_max = len(path) % 2 == max_parity
        if status == LIVE:
            c.nodes += 1
            if c.nodes > s.node_limit:
                tree.reset()
                raise NodeLimitReached
            moves, value = visit(path)
            if trace is not None:
                trace.visited(path, visit, value)
            if value is not None:                                   # case 1
                if len(path) % 2 != max_parity:
                    value = -value       # the tree's value is for the side to move there
                if leaves is not None:
                    leaves.append(visit.names)
                push(path, SOLVED, min(merit, value))
            elif is_max:                                            # case 2
                for i in range(moves):
                    push((*path, i), LIVE, merit)
                generated += moves
            else:                                                   # case 3
                push((*path, 0), LIVE, merit)
                generated += 1
        else:
            parent = path[:-1]
            if not parent and (best is None or merit < best[0] or not dual):
                best = (merit, path[0])     # SSS*: the child that solves the root
            if not is_max:                                          # case 4
                purge_below(parent)
                push(parent, SOLVED, merit)
            elif path[-1] + 1 < visit(parent)[0]:                   # case 5
                push((*parent, path[-1] + 1), LIVE, merit)
                generated += 1
            else:                                                   # case 6
                push(parent, SOLVED, merit)
        largest = max(largest, len(states))
        if len(states) > max_open:
            return done(max(m for _, m in states.values()), None, MAX_OPEN_STATUS)


class _Trace:
    """A :class:`TracingSearch`'s record of one SSS* search, as one pass: every node
    visited, a child of the node it was generated from, in the order visited (no window:
    ``(-inf, inf)``; a leaf with its value, an interior node with its moves)."""

    def __init__(self, s: TracingSearch, depth: int) -> None:
        self.nodes: dict[Path, TraceNode] = {(): TraceNode("", depth, -INF, INF, how="root")}
        s.passes.append(self.nodes[()])

    def visited(self, path: Path, visit: _Visitor, value: int | None) -> None:
        node = self.nodes.get(path)
        if node is None:
            node = self.nodes[path] = TraceNode(visit.names[-1], visit.remaining, -INF, INF)
            self.nodes[path[:-1]].children.append(node)
        if value is None:
            node.moves = [visit.s.tree.move_name(m) for m in visit.s.tree.moves()]
        else:
            node.value, node.kind = value, "leaf"


class _Visitor:
    """Goes to a node from the root by its path, as the frame would reach it."""

    def __init__(self, s: Search, depth: int, names: bool) -> None:
        self.s, self.depth, self.want_names = s, depth, names
        enhanced = s.enhanced
        self.in_check: Callable[[], bool] | None = (
            enhanced.in_check if enhanced is not None and s.extend_checks else None)
        self.names: tuple[str, ...] = ()
        """The names of the moves to the node last visited (when ``names``)."""
        self.remaining = depth
        """The depth left at the node last visited (0 or less at the horizon)."""

    def __call__(self, path: Path) -> tuple[int, int | None]:
        """The node's number of moves and, at a leaf (the horizon, as the frame's check
        extension moves it, or no moves), its value for the side to move there: the
        horizon's with the full window, as minimax sees it."""
        s = self.s
        tree = s.tree
        tree.reset()
        names: list[str] = []
        remaining = self.depth
        for i in path:
            move: Move = tree.moves()[i]
            if self.want_names:
                names.append(tree.move_name(move))
            tree.push(move)
            remaining -= 1
            if self.in_check is not None and self.in_check():
                remaining += 1
        self.names, self.remaining = tuple(names), remaining
        if remaining <= 0:
            s.counters.leaves += 1
            return 0, s.horizon(-INF, INF)
        moves = tree.moves()
        if not moves:
            s.counters.leaves += 1
            return 0, tree.terminal_value()
        return len(moves), None


def driver(dual: bool, max_open: int) -> Driver:
    """The root driver of the variants ``sss`` (``dual``: ``dual``): one search per depth,
    the previous iteration's score unused; a search stopped by ``max_open`` gives its bound
    (SSS*: upper, DUAL*: lower) with the status ``max-open``."""

    def drive(s: Search, depth: int, guess: int | None) -> Outcome:
        found = best_first(s, depth, dual, max_open)
        move = None if found.best is None else s.tree.moves()[found.best]
        if found.status == MAX_OPEN_STATUS:
            return Outcome(found.value, LOWER if dual else UPPER, None, found.status)
        return Outcome(found.value, EXACT, move)

    return drive


def sss_star(tree: Tree, depth: int, dual: bool = False,
             max_open: int = MAX_OPEN) -> BestFirstResult:
    """Stockman's SSS* (``dual``: DUAL*) on ``tree`` from its root, to ``depth`` plies, with
    the tree's static values at the horizon; the leaves it evaluated, in order. A search
    whose OPEN would pass ``max_open`` states is refused (:class:`HarnessError`)."""
    s = Search(tree)
    leaves: list[tuple[str, ...]] = []
    tree.reset()
    found = best_first(s, depth, dual, max_open, leaves)
    if found.status == MAX_OPEN_STATUS:
        raise HarnessError(f"{'DUAL*' if dual else 'SSS*'}: OPEN passed {max_open:,} states at "
                           f"depth {depth} (a reference implementation for small trees; see "
                           f"harness.search.sss)")
    return BestFirstResult(found.value, tuple(leaves), s.counters.nodes, found.generated,
                           found.largest_open)


def dual_star(tree: Tree, depth: int, max_open: int = MAX_OPEN) -> BestFirstResult:
    """DUAL*: :func:`sss_star` from the other player's side."""
    return sss_star(tree, depth, dual=True, max_open=max_open)
