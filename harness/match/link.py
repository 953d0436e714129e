"""Before a match: the two sides searched on the same openings at one fixed depth. Their
exact answers must agree (a disagreement is a bug report, not a result), and their node
counts give the node ratio the match's result stands beside."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from harness.games.base import Problem
from harness.games.registry import find_game
from harness.match.play import Side
from harness.search.agreement import Answer, disagreement
from harness.search.run import run_search


@dataclass(frozen=True)
class Link:
    """The two sides at a fixed depth on the openings."""

    depth: int
    """The depth searched (iterative deepening, each side's switches)."""
    openings: int
    """Openings searched."""
    nodes: tuple[int, int]
    """Nodes (``nodes`` counter) of side A and side B over all the openings."""
    disagreements: tuple[str, ...]
    """One line per opening where exact answers cannot all be right (``id: pvs 5, alphabeta 7``)."""

    @property
    def ratio(self) -> float:
        """Side A's nodes over side B's: below 1, A searches the smaller trees."""
        return self.nodes[0] / self.nodes[1] if self.nodes[1] else float("nan")


def link(problems: Sequence[Problem], sides: tuple[Side, Side], depth: int) -> Link:
    """Search every opening with both sides to ``depth`` and compare the answers."""
    nodes = [0, 0]
    bad: list[str] = []
    for problem in problems:
        tree = find_game(problem.game).tree(problem)
        answers = []
        for index, side in enumerate(sides):
            spec = side.spec
            result = run_search(tree, spec, depth,
                                replace(side.switches, iterative_deepening=True))
            nodes[index] += result.counters["nodes"]
            if spec.variant.inexact_reason(dict(spec.options)) is None:
                answers.append(Answer(spec.label, result.score, result.bound))
        found = disagreement(answers)
        if found is not None:
            bad.append(f"{problem.problem_id}: {found}")
    return Link(depth, len(problems), (nodes[0], nodes[1]), tuple(bad))
