"""The self-test's searches (:mod:`harness.check.game`): every variant against minimax
at one position of a problem, without and with a table (a search that a table entry searched
deeper than needed helped decide, ``tt_deep_cutoffs``, is left out: it need not answer as
minimax)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from harness.check.walk import Enough, Findings, Tally
from harness.errors import HarnessError
from harness.games.base import Move, Problem, Tree
from harness.games.registry import find_game
from harness.search.agreement import Answer, disagreement
from harness.search.registry import VariantSpec, make_spec
from harness.search.run import Switches, run_search

TABLE_SIZE = 1 << 16
"""Entries of the table the searches are compared with."""


class RootedTree:
    """A problem's tree seen from one of its positions: ``reset`` (with which every search
    starts) puts the cursor there, replaying the path by move names; every other method and
    ability is the tree's own."""

    def __init__(self, tree: Tree, path: Sequence[str]) -> None:
        self._tree = tree
        self._path = tuple(path)
        self.reset()

    def reset(self) -> None:
        tree = self._tree
        tree.reset()
        for name in self._path:
            tree.push(next(m for m in tree.moves() if tree.move_name(m) == name))

    def moves(self) -> Sequence[Move]:
        return self._tree.moves()

    def push(self, move: Move) -> None:
        self._tree.push(move)

    def pop(self) -> None:
        self._tree.pop()

    def value(self) -> int:
        return self._tree.value()

    def terminal_value(self) -> int:
        return self._tree.terminal_value()

    def child_value(self, move: Move) -> int:
        return self._tree.child_value(move)

    def key(self) -> Hashable:
        return self._tree.key()

    def move_name(self, move: Move) -> str:
        return self._tree.move_name(move)

    def cutoff(self, move: Move, depth: int) -> None:
        self._tree.cutoff(move, depth)

    def __getattr__(self, name: str) -> Any:
        # The optional abilities (quiesce, value_bound, in_check...), found as the search
        # finds them: by name, absent where the tree lacks them.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._tree, name)


def reach(tree: Tree, depth: int) -> int:
    """How deep a search to ``depth`` from the cursor goes before every line has ended."""
    deepest = 0

    def walk(ply: int) -> None:
        nonlocal deepest
        moves = tree.moves()
        if not moves or ply == depth or deepest == depth:
            return
        deepest = max(deepest, ply + 1)
        for move in moves:
            tree.push(move)
            walk(ply + 1)
            tree.pop()

    tree.reset()
    walk(0)
    return deepest


def compare_searches(problem: Problem, path: tuple[str, ...], depth: int,
                     specs: list[VariantSpec], findings: Findings, stats: Tally) -> None:
    """Search the position ``path`` leads to with every variant to ``depth`` (less where every
    line ends sooner), without and with a table, and report each variant's first answer
    that minimax's contradicts."""
    game = find_game(problem.game)
    tree = RootedTree(game.tree(problem), path)
    try:
        depth = reach(tree, depth)
        if depth == 0:
            return
        minimax = run_search(tree, make_spec("minimax"), depth)
        reference = Answer("minimax", minimax.score, minimax.bound)
        stats.searched += 1
        stats.depth = max(stats.depth, depth)
        for table in (0, TABLE_SIZE):
            for spec in specs:
                if (spec.name == "minimax" and not table) or (spec.label, bool(table)) in findings.disagreed:
                    continue
                result = run_search(tree, spec, depth, Switches(tt_size=table))
                if result.counters["tt_deep_cutoffs"]:
                    stats.untabled += 1     # a deeper entry decided it: not bound to minimax
                    continue
                stats.searches += 1
                line = disagreement([reference, Answer(spec.label, result.score, result.bound)])
                if line is not None:
                    findings.disagreed.add((spec.label, bool(table)))
                    with_table = f" with a table of {table:,} entries" if table else ""
                    findings.add("search", problem, f"{spec.label} disagrees with minimax at "
                                 f"depth {depth}{with_table}: {line}", path)
    except (HarnessError, Enough):
        raise
    except Exception as exc:  # the tree failed under a search: reported with the position
        findings.add("error", problem, f"searching: {type(exc).__name__}: {exc}", path)
