"""A run: problems x variants x depths, searched, counted and written as they finish."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import HarnessError
from harness.problems import Problem, synthetic_problems, tree_file_problems
from harness.results import (
    RESULTS_FILE,
    RUN_FILE,
    SCHEMA_VERSION,
    ResultsWriter,
    config_hash,
    environment,
    load_results,
    now,
    write_run_info,
)
from harness.search.registry import VariantSpec, parse_variants
from harness.search.run import Switches, check_depth, run_search
from harness.trees.arrays import ArrayTree
from harness.trees.minimal import knuth_moore, minimal_leaves

DEFAULT_TREES = (
    "random:b=8,d=6,n=20,seed=1,ordering=0.9,values=incremental,range=100",
    "random:b=8,d=6,n=20,seed=1,ordering=random,values=incremental,range=100",
)
"""The embedded default of ``harness run``: the same trees with good and with random move
ordering, so every variant's dependence on ordering shows at a glance."""


@dataclass(frozen=True)
class ExperimentConfig:
    """What a run searches and with which switches."""

    tree_files: tuple[str, ...] = ()
    """JSON tree files."""
    tree_specs: tuple[str, ...] = ()
    """Synthetic tree specs (``random:b=...``)."""
    variants: str = "all"
    """Variant list as given (``pvs:zw_min_depth=3,negascout``, ``all``, ``core``)."""
    depths: tuple[int, ...] | None = None
    """Depths to search each problem to; ``None``: each tree's own height."""
    tt_size: int = 0
    """Transposition-table entries for every variant (0: none)."""
    iterative_deepening: bool = False
    """Iterative deepening for every variant."""
    measure_minimal: bool = False
    """Measure each tree's minimal alpha-beta tree (children perfectly reordered)."""

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["depths"] = None if self.depths is None else list(self.depths)
        data["tree_files"] = list(self.tree_files)
        data["tree_specs"] = list(self.tree_specs)
        return data


@dataclass
class Plan:
    """A validated configuration: every problem and variant resolved, nothing searched."""

    problems: list[Problem]
    variants: list[VariantSpec]
    heights: dict[str, int] = field(default_factory=dict)
    """Height of each suite's trees (the default depth)."""


def plan_experiment(config: ExperimentConfig) -> Plan:
    """Resolve and check everything a run needs, so bad input fails before any search."""
    if config.tt_size < 0:
        raise HarnessError(f"table size {config.tt_size} is negative")
    variants = parse_variants(config.variants)
    problems: list[Problem] = []
    heights: dict[str, int] = {}
    for path in config.tree_files:
        found = tree_file_problems(path)
        tree = found[0].make_tree()
        heights[found[0].suite] = tree.shape.height
        for depth in config.depths or (tree.shape.height,):
            _check_horizon(path, tree, depth)
        problems += found
    for text in config.tree_specs:
        found = synthetic_problems(text)
        heights[found[0].suite] = int(found[0].source.split(",d=")[1].split(",")[0])
        problems += found
    if not problems:
        raise HarnessError("nothing to search: give --tree FILE or --trees SPEC")
    for depth in config.depths or ():
        check_depth(depth)
    return Plan(problems, variants, heights)


def _check_horizon(path: str, tree: ArrayTree, depth: int) -> None:
    check_depth(depth)
    if depth in tree.shape.valueless_plies:
        raise HarnessError(
            f"{path}: depth {depth} puts the horizon on interior nodes without a value "
            f"(search to depth >= {tree.shape.height}, or give them one: "
            '{"value": V, "children": [...]})')


@dataclass
class RunOutput:
    """A finished run."""

    run_dir: Path
    """Where ``results.csv`` and ``run.json`` are."""
    results: pd.DataFrame
    """The rows of ``results.csv``."""
    info: dict[str, Any]
    """The contents of ``run.json``."""


def run_experiment(config: ExperimentConfig, run_dir: str | Path,
                   command: Sequence[str] = (),
                   on_problem: Callable[[int, int], None] | None = None) -> RunOutput:
    """Search every problem with every variant at every depth; write the run folder.

    Rows are appended to ``results.csv`` after each problem, so an interruption loses at
    most the problem in progress. ``on_problem(done, total)`` reports progress.
    """
    plan = plan_experiment(config)
    run_dir = Path(run_dir)
    if (run_dir / RESULTS_FILE).exists() or (run_dir / RUN_FILE).exists():
        raise HarnessError(f"{run_dir}: already holds a run; choose another --out")
    run_dir.mkdir(parents=True, exist_ok=True)
    settings = config.as_dict()
    info: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "command": list(command),
        "config": settings,
        "config_hash": config_hash(settings),
        "variants": {spec.label: {"name": spec.name, "options": dict(spec.options),
                                  "source": spec.variant.source} for spec in plan.variants},
        "suites": {suite: {"height": h} for suite, h in plan.heights.items()},
        **environment(),
        "started": now(),
        "finished": None,
        "problems": len(plan.problems),
    }
    write_run_info(run_dir, info)
    switches = Switches(config.tt_size, config.iterative_deepening)
    writer = ResultsWriter(run_dir / RESULTS_FILE)
    try:
        for done, problem in enumerate(plan.problems, 1):
            writer.write(search_problem(problem, plan.variants, config.depths, switches,
                                        config.measure_minimal))
            if on_problem is not None:
                on_problem(done, len(plan.problems))
    finally:
        writer.close()
    info["finished"] = now()
    write_run_info(run_dir, info)
    return RunOutput(run_dir, load_results(run_dir), info)


def search_problem(problem: Problem, variants: Sequence[VariantSpec],
                   depths: Sequence[int] | None, switches: Switches,
                   measure_minimal: bool = False) -> list[dict[str, Any]]:
    """Every variant at every depth on one problem: the job unit of a run."""
    tree = problem.make_tree()
    shape = tree.shape
    rows: list[dict[str, Any]] = []
    for depth in depths or (shape.height,):
        if measure_minimal:
            tree.reset()
            minimal: int | None = minimal_leaves(tree, depth)
            source = "measured"
        elif shape.branching is not None:
            minimal, source = knuth_moore(shape.branching, min(depth, shape.height)), "knuth-moore"
        else:
            minimal, source = None, ""
        for spec in variants:
            tree.reset()
            result = run_search(tree, spec, depth, switches)
            rows.append({
                "suite": problem.suite, "problem_id": problem.problem_id,
                "variant": spec.label, "options": spec.options_text, "depth": depth,
                "tt_size": result.tt_size, "iterative": int(switches.iterative_deepening
                                                             or spec.variant.iterative),
                "score": result.score, "bound": result.bound, "best_move": result.best_move,
                "status": result.status, **result.counters,
                "minimal_leaves": "" if minimal is None else minimal,
                "minimal_source": source, "time_s": round(result.time_s, 6),
            })
    return rows
