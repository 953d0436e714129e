"""The two SSS* claims of ``harness reproduce``: Stockman's dominance and Plaat et al.'s
equivalence. The theorems their rules name, their judges reachable both ways, and the
whole path (traced runs, rows, analysis) failing each check on a planted tree whose move
order changes at every call (the premise of both theorems: one fixed order)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings

from harness.games import registry
from harness.games.base import Problem, Tree
from harness.games.registry import load_problems
from harness.games.trees import generate_tree, load_tree_file, parse_spec
from harness.games.trees.game import RandomTrees
from harness.reproduce.analysis import Context
from harness.reproduce.claims import plaat_sss, sss_trees, stockman
from harness.reproduce.measure import QUICK, Run, measure
from harness.reproduce.verdicts import EXTENSION, FAILS, HOLDS, THEOREM
from harness.search import Switches, make_spec, run_search
from harness.search.trace import evaluated_leaves

from .test_properties import specs

MT = plaat_sss.mt_switches(1 << 20, hash_move=False)


def traced(tree: Any, name: str, depth: int, switches: Switches = sss_trees.PLAIN
           ) -> tuple[int | None, set[tuple[str, ...]]]:
    tree.reset()
    result = run_search(tree, make_spec(name), depth, switches, trace=True)
    assert result.trace is not None
    return result.score, set(evaluated_leaves(result.trace))


def trees(spec: str) -> list[tuple[Any, int]]:
    """The explicit trees and one synthetic tree of ``spec``, each with its depth."""
    found = [load_tree_file(sss_trees.explicit_path(n)) for n in sss_trees.EXPLICIT]
    found.append(generate_tree(parse_spec(spec), 0))
    return [(t, t.shape.height) for t in found]


@settings(max_examples=25, deadline=None)
@given(spec=specs)
def test_theorem_sss_and_dual_evaluate_no_leaf_alpha_beta_skips(spec: str) -> None:
    for tree, depth in trees(spec):
        value, alphabeta = traced(tree, "alphabeta", depth)
        for name in ("sss", "dual"):
            score, leaves = traced(tree, name, depth)
            assert score == value and leaves <= alphabeta, name


@settings(max_examples=25, deadline=None)
@given(spec=specs)
def test_theorem_mt_drivers_evaluate_the_best_first_searches_leaves(spec: str) -> None:
    for tree, depth in trees(spec):
        for best_first in ("sss", "dual"):
            assert traced(tree, f"mt-{best_first}", depth, MT) == traced(tree, best_first, depth)


def found(problems: int, wrong: int) -> dict[str, int]:
    return {"problems": problems, "counter_examples": wrong}


@pytest.mark.parametrize("wrong", [0, 1])
def test_the_judges_reach_both_outcomes(wrong: int) -> None:
    sets = {name: found(10, wrong if name == sss_trees.EXPLICIT_SET else 0)
            for name in sss_trees.SETS}
    checks = stockman.judge_stockman({"searches": {"sss": sets, "dual": sets}})
    assert len(checks) == 8 and {c.kind for c in checks} == {THEOREM}
    assert [c.outcome for c in checks].count(FAILS) == 2 * wrong
    assert {c.outcome for c in checks} == ({HOLDS, FAILS} if wrong else {HOLDS})
    per_config = {"mt-sss": sets, "mt-dual": sets}
    checks = plaat_sss.judge_plaat({plaat_sss.MT: per_config, plaat_sss.HASH: per_config})
    assert [c.kind for c in checks] == [THEOREM] * 8 + [EXTENSION] * 8
    assert all(c.extension == "the table's move first" for c in checks[8:])
    assert [c.outcome for c in checks].count(FAILS) == 4 * wrong


class Rotating:
    """A synthetic tree whose moves come in another order at every call (rotated by the
    number of calls so far): a search that reaches a node twice meets another order."""

    def __init__(self, tree: Tree) -> None:
        self._tree = tree
        self._calls = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self._tree, name)

    def moves(self) -> Sequence[object]:
        moves = list(self._tree.moves())
        self._calls += 1
        shift = self._calls % len(moves) if moves else 0
        return moves[shift:] + moves[:shift]


class RotatingTrees(RandomTrees):
    name = "planted-rotating"

    def tree(self, problem: Problem) -> Tree:
        return Rotating(super().tree(problem))  # type: ignore[return-value]


@pytest.fixture
def rotating() -> Iterator[None]:
    game = RotatingTrees()
    registry.GAMES.append(game)
    try:
        yield
    finally:
        registry.GAMES.remove(game)


def rows(dataset: str, runs: Any, planted: bool) -> pd.DataFrame:
    """The textbook tree's rows, and a planted tree's (counted among the explicit trees)."""
    jobs = [job for job in sss_trees.tree_jobs(dataset, runs, QUICK)
            if dict(job[0])["set"] == sss_trees.EXPLICIT_SET][:1]
    if planted:
        problem = load_problems("planted-rotating:b=3,d=4,seed=0").problems[0]
        jobs.append(((("dataset", dataset), ("set", sss_trees.EXPLICIT_SET),
                      ("shape", "planted"), ("ordering", "rotating")), problem, runs(4)))
    return pd.DataFrame([row for tags, problem, todo in jobs for row in measure(tags, problem, todo)])


@pytest.mark.parametrize("planted", [False, True])
def test_a_planted_tree_fails_every_check(rotating: None, planted: bool) -> None:
    cases: list[tuple[Any, Any, str, Any]] = [
        (stockman, stockman.runs, "stockman", stockman.CLAIM),
        (plaat_sss, plaat_sss.runs_for(QUICK), "plaat-sss", plaat_sss.CLAIM)]
    for module, runs, dataset, claim in cases:
        section = module.analyse(Context({dataset: rows(dataset, runs, planted)}, QUICK, None), claim)
        primary = [c for c in section.checks if c.kind == THEOREM]
        assert len(primary) == 2
        assert {c.outcome for c in primary} == {FAILS if planted else HOLDS}, dataset
        assert section.figures and section.tables and section.measured


def test_each_claim_has_its_own_held_out_seed() -> None:
    for module, dataset in ((stockman, "stockman"), (plaat_sss, "plaat-sss")):
        phases = module.RULES.rules["phases"]
        assert phases["explore"][dataset]["seed"] == QUICK.seed_of(dataset)
        assert phases["confirm"][dataset]["seed"] == QUICK.seed_of(dataset) + 1000
        assert module.RULES.registered == "2026-11-27" and module.RULES.version == 1
    assert all(isinstance(r, Run) and r.leaves for r in stockman.runs(3))
