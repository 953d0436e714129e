"""The job of a run: one problem searched by every variant at every depth, as result rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.engines.session import EngineLimits
from harness.engines.spec import EngineSpec
from harness.games.base import Problem, Tree
from harness.games.registry import find_game
from harness.results import VARIANT
from harness.run.blame import Running, blamed
from harness.run.engine_job import engine_rows
from harness.run.executors import collector_paused, report_step
from harness.search.minimal import knuth_moore, minimal_leaves
from harness.search.registry import VariantSpec, parse_variants
from harness.search.run import Switches, run_search


def search_problem(problem: Problem, variants: Sequence[str], depths: tuple[int, ...] | None,
                   switches: Switches, measure_minimal: bool = False,
                   max_nodes: int | None = None, engines: Sequence[EngineSpec] = (),
                   engine_limits: EngineLimits = EngineLimits()) -> list[dict[str, Any]]:
    """Every variant (given by label) at every depth on one problem, then every UCI engine
    (:mod:`harness.run.engine_job`): the job of a run.

    One tree serves every search of the problem, so what it caches about positions is
    computed once for all variants and depths. An exception from a plug-in's code (its
    game's tree, its variant's loop) is a :class:`harness.run.blame.PluginError` naming it.
    """
    if not variants:                    # a run of engines alone: no tree to build
        return engine_rows(problem, engines, engine_limits, problem.depths(depths))
    game = find_game(problem.game)
    specs = parse_variants(",".join(variants))
    with blamed(Running(game, problem)) as running, collector_paused():
        tree = running.tree = game.tree(problem)
        rows = _search(running, tree, specs, problem.depths(depths), switches, measure_minimal,
                       max_nodes)
    cache = getattr(tree, "cache", None)
    if cache is not None:
        cache.clear()                   # the problem is done: free its positions
    if engines:
        rows += engine_rows(problem, engines, engine_limits, problem.depths(depths))
    return rows


def _search(running: Running, tree: Tree, specs: Sequence[VariantSpec], depths: tuple[int, ...],
            switches: Switches, measure_minimal: bool, max_nodes: int | None) -> list[dict[str, Any]]:
    """The rows of :func:`search_problem`, ``running`` kept up to date for the blame."""
    game, problem = running.game, running.problem
    assert problem is not None
    shape = getattr(tree, "shape", None)            # an array tree knows its shape
    rows: list[dict[str, Any]] = []
    for depth in depths:
        if measure_minimal:
            minimal: int | None = minimal_leaves(tree, depth)
            source = "measured"
        elif shape is not None and shape.branching is not None:
            minimal, source = knuth_moore(shape.branching, min(depth, shape.height)), "knuth-moore"
        else:
            minimal, source = None, ""
        for spec in specs:
            running.variant, running.depth = spec.variant, depth
            result = run_search(tree, spec, depth, switches, max_nodes=max_nodes)
            running.variant, running.depth = None, None
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
                "status": result.status, **result.counters, **result.tree_counters,
                "minimal_leaves": "" if minimal is None else minimal,
                "minimal_source": source, "time_s": round(result.time_s, 6),
                "subject": VARIANT, "depth_reached": "", "seldepth": "",
                "frame": result.frame,
                **game.columns_for(problem, result.best_move),
            })
    return rows
