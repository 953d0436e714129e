"""The job of a run: one problem searched by every variant at every depth, as result rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.games.base import Problem
from harness.games.registry import find_game
from harness.run.executors import collector_paused, report_step
from harness.search.minimal import knuth_moore, minimal_leaves
from harness.search.registry import parse_variants
from harness.search.run import Switches, run_search


def search_problem(problem: Problem, variants: Sequence[str], depths: tuple[int, ...] | None,
                   switches: Switches, measure_minimal: bool = False,
                   max_nodes: int | None = None) -> list[dict[str, Any]]:
    """Every variant (given by label) at every depth on one problem: the job of a run.

    One tree serves every search of the problem, so what it caches about positions is
    computed once for all variants and depths.
    """
    game = find_game(problem.game)
    specs = parse_variants(",".join(variants))
    tree = game.tree(problem)
    shape = getattr(tree, "shape", None)            # an array tree knows its shape
    rows: list[dict[str, Any]] = []
    with collector_paused():
        for depth in problem.depths(depths):
            if measure_minimal:
                minimal: int | None = minimal_leaves(tree, depth)
                source = "measured"
            elif shape is not None and shape.branching is not None:
                minimal, source = knuth_moore(shape.branching, min(depth, shape.height)), "knuth-moore"
            else:
                minimal, source = None, ""
            for spec in specs:
                result = run_search(tree, spec, depth, switches, max_nodes=max_nodes)
                report_step()
                judged = game.judge(problem, result.best_move, result.score, result.bound)
                rows.append({
                    "game": problem.game, "suite": problem.suite, "problem_id": problem.problem_id,
                    "variant": spec.label, "options": spec.options_text, "depth": depth,
                    "tt_size": result.tt_size, "iterative": int(switches.iterative_deepening
                                                                 or spec.variant.iterative),
                    "score": "" if result.score is None else result.score,
                    "bound": result.bound, "best_move": result.best_move,
                    "pv": " ".join(result.pv), "solved": "" if judged is None else int(judged),
                    "status": result.status, **result.counters,
                    "minimal_leaves": "" if minimal is None else minimal,
                    "minimal_source": source, "time_s": round(result.time_s, 6),
                    **game.columns_for(problem, result.best_move),
                })
    cache = getattr(tree, "cache", None)
    if cache is not None:
        cache.clear()                   # the problem is done: free its positions
    return rows
