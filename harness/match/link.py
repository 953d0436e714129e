"""Before a match: the two sides searched on the same openings at one fixed depth. Their
exact answers must agree (a disagreement is a bug report, not a result), their node
counts give the node ratio the match's result stands beside, and the same searches one
ply shallower the effective branching factor that turns the ratio into plies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace

from harness.games.base import Problem
from harness.games.registry import find_game
from harness.match.play import Side
from harness.report.answers import inexact_frame
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
    shallower: tuple[int, int] = (0, 0)
    """Nodes of the same searches one ply shallower (none at depth 1)."""

    @property
    def ratio(self) -> float:
        """Side A's nodes over side B's: below 1, A searches the smaller trees."""
        return self.nodes[0] / self.nodes[1] if self.nodes[1] else float("nan")

    @property
    def branching(self) -> float | None:
        """The effective branching factor: both sides' nodes at the depth over those one ply
        shallower (``None`` at depth 1, or where a ply more costs nothing)."""
        deeper, shallower = sum(self.nodes), sum(self.shallower)
        return deeper / shallower if shallower and deeper > shallower else None


def not_compared(sides: Sequence[Side]) -> str | None:
    """Why the sides' answers are not held to agree before a match, or ``None`` when they
    are: sides of two profiles search two trees (one extends checks, one passes with a
    null move), and null move or a selective switch, or chess's delta pruning in
    quiescence, prune by the window, so answers may differ and both be right."""
    if sides[0].switches != sides[1].switches or sides[0].game_options != sides[1].game_options:
        return "the sides search with other switches"
    pruned = inexact_frame(asdict(sides[0].switches))
    if pruned is not None:
        return pruned
    if any(key == "delta" and value not in ("0", "False", "false")
           for _, key, value in sides[0].game_options):
        return "chess's delta pruning prunes quiescence by the window"
    return None


def link(problems: Sequence[Problem], sides: tuple[Side, Side], depth: int) -> Link:
    """Search every opening with both sides to ``depth`` and compare the answers (of sides
    held to agree: :func:`not_compared`)."""
    nodes = [0, 0]
    shallower = [0, 0]
    bad: list[str] = []
    comparable = not_compared(sides) is None
    for problem in problems:
        answers = []
        for index, side in enumerate(sides):
            tree = find_game(problem.game).tree(side.problem(problem))
            spec = side.spec
            switches = replace(side.switches, iterative_deepening=True)
            result = run_search(tree, spec, depth, switches)
            nodes[index] += result.counters["nodes"]
            if depth > 1:
                shallower[index] += run_search(tree, spec, depth - 1, switches).counters["nodes"]
            # Sides of two profiles search two trees (one extends checks, one passes with a
            # null move): their answers may differ and both be right, so only sides with
            # the same switches are held to agree.
            # A set that prunes quiescence by the window (chess's delta=1) is not exact either.
            pruned = bool(dict(side.problem(problem).options).get("delta"))
            if comparable and not pruned and spec.variant.inexact_reason(dict(spec.options)) is None:
                answers.append(Answer(spec.label, result.score, result.bound))
        found = disagreement(answers)
        if found is not None:
            bad.append(f"{problem.problem_id}: {found}")
    return Link(depth, len(problems), (nodes[0], nodes[1]), tuple(bad),
                (shallower[0], shallower[1]))
