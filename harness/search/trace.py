"""The trace recorder: a search, node by node.

:class:`TracingSearch` is the search frame with an observer: it records every node a
search visits (how it was searched, its window, its value and type) and the moves it
never searched. It is a subclass, so a search without a trace runs exactly the code it
always runs: the observer costs nothing when it is off. The trace's totals agree with the
counters exactly (tested). It stays interpreted Python (``setup.py`` does not compile it):
the compiled :class:`~harness.search.core.Search` allows interpreted subclasses for it.

How a child was searched, in the notation of the zero-window-pruning note:
``F`` a search with the node's window, ``Z`` a zero-window test, ``Z+F`` a test that
failed high and was searched again (the second search is the re-search), ``Skp`` a
successor whose full search was skipped after its test. Moves a node never searched
(cut off) are listed the way the GNUchess study prints "Nodes cutoff: ...". The drawings
of a trace are in :mod:`harness.report.trace`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from harness.games.base import Move
from harness.search.core import Loop, Search


@dataclass
class TraceNode:
    """One call of the search function."""

    move: str
    """The move that leads here from the parent (empty at the root)."""
    depth: int
    """Remaining depth at entry."""
    alpha: int
    """Lower end of the window at entry."""
    beta: int
    """Upper end of the window at entry."""
    how: str = "F"
    """``F`` (the node's own window), ``Z`` (zero-window test), ``R`` (the re-search of
    a test that failed high), ``N`` (a null-move search), ``root``."""
    value: int | None = None
    """What the call returned (``None`` if the search stopped inside it)."""
    kind: str = ""
    """``PV``, ``Cut`` or ``All`` by outcome for an interior node; ``leaf``; ``table``
    (answered by the transposition table); ``null`` (cut by a null-move search)."""
    children: list[TraceNode] = field(default_factory=list)
    """The searches started from here, in order (a re-searched child appears twice)."""
    moves: list[str] = field(default_factory=list)
    """Every move of the node, in search order (empty for a leaf)."""

    @property
    def cut_off(self) -> list[str]:
        """Moves of this node that were never searched."""
        searched = {child.move for child in self.children}
        return [m for m in self.moves if m not in searched]

    def walk(self) -> Iterator[TraceNode]:
        """This node and every node below it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()


class TracingSearch(Search):
    """:class:`Search` that records a :class:`TraceNode` tree for every pass."""

    __slots__ = ("_next_how", "_stack", "passes")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.passes: list[TraceNode] = []
        """The root of each pass, in order."""
        self._stack: list[TraceNode] = []
        self._next_how = ""
        """How the next child is searched, set just before the frame searches it (``F``
        when empty)."""

    def root(self, loop: Loop, depth: int, alpha: int, beta: int) -> tuple[int, Move | None]:
        node = TraceNode("", depth, alpha, beta, how="root")
        self.passes.append(node)
        self._stack = [node]
        leaves = self.counters.leaves
        value, move = super().root(loop, depth, alpha, beta)
        self._finish(node, value, leaves, self.counters.tt_cutoffs, self.counters.null_cutoffs,
                     self.counters.bound_cutoffs)
        return value, move

    def test(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int, wide: bool) -> int:
        if wide:                # what the frame counts as a test; otherwise a plain search
            self._next_how = "Z"
        return super().test(loop, move, depth, alpha, beta, wide)

    def research(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int) -> int:
        self._next_how = "R"
        return super().research(loop, move, depth, alpha, beta)

    def child(self, loop: Loop, move: Move, depth: int, alpha: int, beta: int) -> int:
        parent = self._stack[-1]
        c = self.counters
        how = self._next_how or "F"
        self._next_how = ""
        name = "null" if move is None else self.tree.move_name(move)
        node = TraceNode(name, depth, alpha, beta, how=how)
        parent.children.append(node)
        self._stack.append(node)
        marks = c.leaves, c.tt_cutoffs, c.null_cutoffs, c.bound_cutoffs
        try:
            if move is None:
                value = super().null_child(loop, depth, alpha, beta)
            else:
                value = super().child(loop, move, depth, alpha, beta)
        finally:
            self._stack.pop()
        self._finish(node, value, *marks)
        return value

    def null_child(self, loop: Loop, depth: int, alpha: int, beta: int) -> int:
        self._next_how = "N"
        return self.child(loop, None, depth, alpha, beta)

    def expand(self, loop: Loop, moves: Sequence[Move], depth: int, alpha: int, beta: int,
               hash_move: Move | None) -> int:
        node = self._stack[-1]
        if hash_move is not None and hash_move in moves:
            moves = [hash_move, *(m for m in moves if m != hash_move)]
        node.moves = [self.tree.move_name(m) for m in moves]
        return super().expand(loop, moves, depth, alpha, beta, None)

    def _finish(self, node: TraceNode, value: int, leaves: int, tt_cutoffs: int,
                null_cutoffs: int, bound_cutoffs: int) -> None:
        node.value = value
        if node.moves:
            node.kind = "Cut" if value >= node.beta else "All" if value <= node.alpha else "PV"
        elif node.children:
            node.kind = "null"                       # its null-move search failed high
        elif self.counters.leaves == leaves and self.counters.tt_cutoffs > tt_cutoffs:
            node.kind = "table"
        elif self.counters.leaves == leaves and self.counters.bound_cutoffs > bound_cutoffs:
            node.kind = "bound"                      # answered by the tree's value bound
        else:
            node.kind = "leaf"


def totals(passes: Sequence[TraceNode]) -> dict[str, int]:
    """The trace counted the way :class:`harness.search.counters.Counters` counts."""
    nodes = [n for root in passes for n in root.walk()]
    return {
        "nodes": len(nodes),
        "leaves": sum(n.kind == "leaf" for n in nodes),
        "zw_searches": sum(n.how == "Z" for n in nodes),
        "researches": sum(n.how == "R" for n in nodes),
        "pv_nodes": sum(n.kind == "PV" for n in nodes),
        "cut_nodes": sum(n.kind in ("Cut", "null") for n in nodes),
        "all_nodes": sum(n.kind == "All" for n in nodes),
        "tt_cutoffs": sum(n.kind == "table" for n in nodes),
        "bound_cutoffs": sum(n.kind == "bound" for n in nodes),
        "passes": len(passes),
    }


def visited(passes: Sequence[TraceNode]) -> set[tuple[str, ...]]:
    """Every node the passes visited, each as the moves that lead to it from the root
    (a node searched twice, or in two passes, once): the distinct nodes of a search."""
    return {path for path, _ in _paths(passes)}


def evaluated_leaves(passes: Sequence[TraceNode]) -> list[tuple[str, ...]]:
    """The leaves the passes evaluated (not those the table answered), each as the moves
    that lead to it from the root, once, in the order first evaluated."""
    return list(dict.fromkeys(path for path, node in _paths(passes) if node.kind == "leaf"))


def _paths(passes: Sequence[TraceNode]) -> Iterator[tuple[tuple[str, ...], TraceNode]]:
    """Every node of the passes with the moves that lead to it from the root, in the order
    searched."""
    stack: list[tuple[tuple[str, ...], TraceNode]] = [((), root) for root in reversed(passes)]
    while stack:
        path, node = stack.pop()
        yield path, node
        stack.extend(((*path, child.move), child) for child in reversed(node.children))
