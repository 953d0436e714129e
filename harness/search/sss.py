"""Stockman's SSS* and its dual DUAL*: best-first search with an OPEN list of states.

A reference implementation, as the literature states the algorithm (Stockman 1979, in
the form Pearl's *Heuristics* (1984) and Plaat, Schaeffer, Pijls and de Bruin (1996,
"Best-first fixed-depth minimax algorithms", AIJ 87) give): a *state* is ``(n, s, h)``,
a node, its status ``LIVE`` or ``SOLVED`` and its merit ``h``, an upper bound on the
value of the best solution tree through ``n``. OPEN starts as ``(root, LIVE, +inf)``;
SSS* removes the state of highest merit, stops when it is the root ``SOLVED`` (its merit
is the minimax value) and otherwise applies the first of the six cases of the operator
Gamma that fits. Ties go to the leftmost node: the order in which MT-SSS*, searching left
to right, meets them (the first child "on top" when a MAX node's children are pushed);
where values tie, another rule (the last state pushed first) evaluates other leaves.

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

Memory grows with the tree: OPEN holds up to one state per leaf of a solution tree
(on a uniform tree ``b ** ceil(d / 2)`` for SSS*, ``b ** floor(d / 2)`` for DUAL*, and
both are reached), each a path of child indices. :func:`sss_star`
refuses, with a :class:`~harness.errors.HarnessError`, a search whose OPEN list would
pass ``max_open`` states (:data:`MAX_OPEN` unless given): it is for explicit and
synthetic trees, the measured searches are the MT drivers (``mt-sss``, ``mt-dual``).

It is not a registered variant: the frame's counters count calls of a recursive search
with a window (VARIANTS.md), which SSS* has none of, and a variant must run on any game
at any depth (``--variants all`` on chess). It stays Python (``setup.py``'s
``SEARCH_PYTHON``): off the measured path.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from harness.errors import HarnessError
from harness.games.base import INF, Tree

MAX_OPEN = 100_000
"""States OPEN may hold before :func:`sss_star` refuses to go on."""

LIVE, SOLVED = 0, 1

Path = tuple[int, ...]
"""A node as the indices of the moves from the root, in the tree's order."""


@dataclass(frozen=True)
class BestFirstResult:
    """What SSS* or DUAL* found and did on one tree to one depth."""

    value: int
    """The root's minimax value for the side to move at the root."""
    leaves: tuple[tuple[str, ...], ...]
    """Every leaf evaluated, in order, as the names of the moves that lead to it (the
    names a trace gives, :func:`harness.search.trace.evaluated_leaves`)."""
    generated: int
    """Nodes put on OPEN as ``LIVE``, the root included: each node at most once."""
    largest_open: int
    """The most states OPEN held at once."""


def sss_star(tree: Tree, depth: int, dual: bool = False,
             max_open: int = MAX_OPEN) -> BestFirstResult:
    """Stockman's SSS* (``dual``: DUAL*) on ``tree`` from its root, to ``depth`` plies."""
    name = "DUAL*" if dual else "SSS*"
    tree.reset()
    # The player whose merits are upper bounds moves at even plies in SSS*, odd in DUAL*.
    max_parity = 1 if dual else 0
    states: dict[Path, tuple[int, int]] = {(): (LIVE, INF)}
    heap: list[tuple[int, Path]] = [(-INF, ())]
    leaves: list[tuple[str, ...]] = []
    generated, largest = 1, 1

    def push(path: Path, status: int, merit: int) -> None:
        states[path] = (status, merit)
        heapq.heappush(heap, (-merit, path))

    while True:
        merit_key, path = heapq.heappop(heap)
        state = states.get(path)
        if state is None or state[1] != -merit_key:
            continue                    # purged or superseded: a stale heap entry
        status, merit = state
        del states[path]
        if status == SOLVED and not path:
            tree.reset()
            return BestFirstResult(-merit if dual else merit, tuple(leaves), generated, largest)
        is_max = len(path) % 2 == max_parity
        if status == LIVE:
            moves, names, value = _visit(tree, path, depth)
            if value is not None:                                   # case 1
                if len(path) % 2 != max_parity:
                    value = -value       # the tree's value is for the side to move there
                leaves.append(names)
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
            if not is_max:                                          # case 4
                for other in [p for p in states if p[:len(parent)] == parent]:
                    del states[other]
                push(parent, SOLVED, merit)
            elif path[-1] + 1 < _visit(tree, parent, depth)[0]:     # case 5
                push((*parent, path[-1] + 1), LIVE, merit)
                generated += 1
            else:                                                   # case 6
                push(parent, SOLVED, merit)
        largest = max(largest, len(states))
        if len(states) > max_open:
            tree.reset()
            raise HarnessError(f"{name}: OPEN passed {max_open:,} states at depth {depth} "
                               f"(a reference implementation for small trees; see "
                               f"harness.search.sss)")


def dual_star(tree: Tree, depth: int, max_open: int = MAX_OPEN) -> BestFirstResult:
    """DUAL*: :func:`sss_star` from the other player's side."""
    return sss_star(tree, depth, dual=True, max_open=max_open)


def _visit(tree: Tree, path: Path, depth: int) -> tuple[int, tuple[str, ...], int | None]:
    """Go to ``path`` from the root: its number of moves, the names of the moves leading
    there and, at a leaf (the horizon or no moves), its value for the side to move."""
    tree.reset()
    names: list[str] = []
    for i in path:
        move = tree.moves()[i]
        names.append(tree.move_name(move))
        tree.push(move)
    found = tuple(names)
    if len(path) >= depth:
        return 0, found, tree.value()
    moves = tree.moves()
    if not moves:
        return 0, found, tree.terminal_value()
    return len(moves), found, None
