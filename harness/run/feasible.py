"""A warning, before the first search, for a run that cannot finish.

A depth is easy to mistype (``--depth 99``) and a search's cost grows as the branching
factor to half the depth at best: Knuth and Moore's minimal tree, ``b^ceil(d/2) +
b^floor(d/2) - 1`` leaves for a perfectly ordered alpha-beta search without transpositions.
That bound, with ``b`` the number of moves at the root of each problem set's first problem,
is the estimate: when even it passes :data:`FEASIBLE_NODES`, the run is named before it
starts, with how to stop it (Ctrl-C keeps every finished problem; ``--resume`` goes on). A
node limit (``--max-nodes``) bounds every search, so a run with one is not warned about;
nor are problems searched to their own depth (a game solved to its end), whose cost the
depth does not say.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

from harness.games.base import Problem
from harness.games.registry import find_game

FEASIBLE_NODES = 10 ** 11
"""The most nodes one search may need before a run is warned about: a day or more at the
one to five million nodes a second of the compiled frames."""


def minimal_tree(branching: int, depth: int) -> int:
    """Knuth and Moore's minimal tree: leaves a perfectly ordered alpha-beta search visits
    on a uniform tree of ``branching`` and ``depth``."""
    high: int = branching ** math.ceil(depth / 2)
    low: int = branching ** (depth // 2)
    return high + low - 1


def infeasible(firsts: Sequence[Problem], depths: tuple[int, ...] | None,
               max_nodes: int | None) -> list[str]:
    """One line per problem set (given by its first problem) whose deepest search cannot
    finish by :func:`minimal_tree`'s estimate (none with a node limit), or goes deeper than
    its trees (a shape that knows its height); none with own depths."""
    if not depths:
        return []
    depth = max(depths)
    lines = []
    for problem in firsts:
        tree = find_game(problem.game).tree(problem)
        height = getattr(getattr(tree, "shape", None), "height", None)
        if isinstance(height, int) and depth > height:
            lines.append(f"--depth {depth} on {problem.suite}: its trees end at depth {height}, "
                         f"so every deeper search is the search to depth {height}")
            continue
        branching = len(tree.moves())
        if branching < 2:
            continue
        nodes = minimal_tree(branching, depth)
        if nodes > FEASIBLE_NODES and max_nodes is None:
            lines.append(f"--depth {depth} on {problem.suite}: even a perfectly ordered "
                         f"alpha-beta search visits about 10^{math.log10(nodes):.0f} nodes "
                         f"({branching} moves at the first problem's root), far more than can "
                         "finish; Ctrl-C stops it and keeps every finished problem "
                         "(--max-nodes bounds each search)")
    return lines


def warn_infeasible(firsts: Sequence[Problem], depths: tuple[int, ...] | None,
                    max_nodes: int | None) -> None:
    """:func:`infeasible`'s lines as warnings (the commands print them on stderr)."""
    for line in infeasible(firsts, depths, max_nodes):
        warnings.warn(line, UserWarning, stacklevel=3)


def warn_over_budget(nodes: int, option: str = "--nodes") -> None:
    """A warning for a node budget per search (a match's move) past :data:`FEASIBLE_NODES`:
    searches that use it cannot end in reasonable time."""
    if nodes > FEASIBLE_NODES:
        warnings.warn(f"{option} {nodes}: a search may use about 10^{math.log10(nodes):.0f} "
                      "nodes, a day or more each at a few million nodes a second; Ctrl-C stops "
                      "it and keeps every finished pair", UserWarning, stacklevel=2)
