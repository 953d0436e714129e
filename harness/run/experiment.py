"""A run: problems x variants x depths, searched, counted and written as they finish."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import HarnessError, check_writable
from harness.games.chess.epd import SkippedLineWarning, load_suite
from harness.games.chess.suites import find_suite
from harness.games.trees.arrays import ArrayTree
from harness.lock import hold_folder
from harness.report.page import ComparisonFiles, report_files, write_comparison, write_index, write_report
from harness.report.trace import render_image, render_text
from harness.results import (
    RESULTS_FILE,
    RUN_FILE,
    SCHEMA_VERSION,
    ResultsWriter,
    config_hash,
    environment,
    load_results,
    load_run_info,
    now,
    read_rows,
    rewrite_results,
    write_run_info,
)
from harness.run.executors import Execution, Workers, collector_paused, report_step, start_workers
from harness.run.problems import (
    Problem,
    suite_problems,
    synthetic_problems,
    tree_file_problems,
)
from harness.run.progress import Listener, in_phase
from harness.search.minimal import knuth_moore, minimal_leaves
from harness.search.registry import VariantSpec, parse_variants
from harness.search.run import SearchResult, Switches, check_depth, run_search

DEFAULT_TREES = (
    "random:b=8,d=6,n=20,seed=1,ordering=0.9,values=incremental,range=100",
    "random:b=8,d=6,n=20,seed=1,ordering=random,values=incremental,range=100",
)
"""The trees of the default run: the same trees with good and with random move
ordering, so every variant's dependence on ordering shows at a glance."""

@dataclass(frozen=True)
class ExperimentConfig:
    """What a run searches and with which switches."""

    tree_files: tuple[str, ...] = ()
    """JSON tree files."""
    tree_specs: tuple[str, ...] = ()
    """Synthetic tree specs (``random:b=...``)."""
    suites: tuple[str, ...] = ()
    """EPD suites, by path or by name (looked up in the package's own suites and
    ``HARNESS_SUITES``)."""
    variants: str = "all"
    """Variant list as given (``pvs:zw_min_depth=3,negascout``, ``all``, ``core``)."""
    depths: tuple[int, ...] | None = None
    """Depths to search each problem to; ``None``: a tree's height, 3 for chess."""
    switches: Switches = Switches()
    """Enhancements shared by every variant."""
    measure_minimal: bool = False
    """Measure each tree's minimal alpha-beta tree (children perfectly reordered)."""
    skip_invalid: bool = False
    """Skip malformed EPD lines with a warning instead of stopping."""
    max_nodes: int | None = None
    """Stop a search after this many nodes and record it with status ``max-nodes``."""
    limit: int | None = None
    """Search only the first ``limit`` problems of each suite, tree set or file."""

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("tree_files", "tree_specs", "suites"):
            data[key] = list(data[key])
        data["depths"] = None if self.depths is None else list(self.depths)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExperimentConfig:
        """The configuration :meth:`as_dict` recorded (in ``run.json``)."""
        try:
            values = dict(data)
            for key in ("tree_files", "tree_specs", "suites"):
                values[key] = tuple(values.get(key, ()))
            if values.get("depths") is not None:
                values["depths"] = tuple(values["depths"])
            values["switches"] = Switches(**values.get("switches", {}))
            return cls(**values)
        except TypeError as exc:
            raise HarnessError(f"run.json: configuration not understood: {exc}") from None


DEFAULT_RUNS = (
    ("trees", ExperimentConfig(tree_specs=DEFAULT_TREES, variants="all", depths=(1, 2, 3, 4, 5, 6),
                               switches=Switches(iterative_deepening=True))),
    ("chess", ExperimentConfig(suites=("bench.epd",), variants="core", depths=(1, 2, 3), limit=10,
                               switches=Switches(iterative_deepening=True))),
)
"""The embedded default of ``harness run``: every variant on the trees, the core
variants on the project's own chess suite; iterative deepening for everyone (aspiration
and MTD(f) always iterate, so the comparison is fair)."""


def run_default(out_dir: str | Path, command: Sequence[str] = (),
                progress: Listener | None = None, execution: Execution = Execution(),
                resume: bool = False) -> tuple[list[RunOutput], Path]:
    """Run :data:`DEFAULT_RUNS` into ``out_dir/<name>`` and link them from ``index.html``.
    With ``resume``, finish an interrupted default run there: its finished runs are kept,
    an unfinished one resumed, one not begun run."""
    out_dir = Path(out_dir)
    outputs = []
    for name, config in DEFAULT_RUNS:
        run_dir = out_dir / name
        info = load_run_info(run_dir) if resume and (run_dir / RUN_FILE).exists() else None
        if info is None:
            outputs.append(run_experiment(config, run_dir, command, progress, execution=execution))
        elif info.get("finished"):
            outputs.append(RunOutput(run_dir, load_results(run_dir), info))
        else:
            outputs.append(resume_experiment(run_dir, execution, progress))
    index = write_index(out_dir, [(o.run_dir, report_files(o.run_dir)) for o in outputs])
    return outputs, index


def is_default_folder(folder: str | Path) -> bool:
    """Whether ``folder`` holds the runs of :func:`run_default` (not a run itself)."""
    folder = Path(folder)
    return not (folder / RUN_FILE).exists() and (folder / DEFAULT_RUNS[0][0] / RUN_FILE).exists()


@dataclass
class Plan:
    """A validated configuration: every problem and variant resolved, nothing searched."""

    problems: list[Problem]
    """Every problem, in order."""
    variants: list[VariantSpec]
    """Every variant with its options."""
    suites: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What run.json records about each suite (height, path, sha256, skipped lines)."""


def plan_experiment(config: ExperimentConfig) -> Plan:
    """Resolve and check everything a run needs, so bad input fails before any search."""
    if config.switches.tt_size < 0:
        raise HarnessError(f"--tt {config.switches.tt_size}: a table size cannot be negative")
    if config.switches.null_move < 0:
        raise HarnessError(f"--null-move {config.switches.null_move}: a reduction cannot be negative")
    variants = parse_variants(config.variants)
    for depth in config.depths or ():
        check_depth(depth)
    if config.max_nodes is not None and config.max_nodes < 1:
        raise HarnessError(f"--max-nodes {config.max_nodes}: needs at least 1")
    if config.limit is not None and config.limit < 1:
        raise HarnessError(f"--limit {config.limit}: needs at least 1")
    cut = slice(None, config.limit)
    problems: list[Problem] = []
    suites: dict[str, dict[str, Any]] = {}
    for path in config.tree_files:
        found = tree_file_problems(path)
        found[0].check_default_depth(config.depths)
        tree = found[0].make_tree()
        assert isinstance(tree, ArrayTree)
        suites[found[0].suite] = {"kind": "tree", "path": path, "height": tree.shape.height}
        for depth in config.depths or (tree.shape.height,):
            _check_horizon(path, tree, depth)
        problems += found[cut]
    for text in config.tree_specs:
        found = synthetic_problems(text)
        found[0].check_default_depth(config.depths)      # else the search refuses it, mid-run
        suites[found[0].suite] = {"kind": "synthetic"}
        problems += found[cut]
    for name in config.suites:
        suite_path = find_suite(name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SkippedLineWarning)
            suite = load_suite(suite_path, config.skip_invalid)
        if not suite.positions:
            # Raised before the skipped lines are reported: this one line says it all.
            if not suite.skipped:
                raise HarnessError(f"{suite_path}: no positions (no EPD lines)")
            line, reason = suite.skipped[0]
            raise HarnessError(f"{suite_path}: no valid positions ({len(suite.skipped)} lines "
                               f"skipped as malformed; the first, line {line}: {reason})")
        for warning in caught:
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
        suites[suite.name] = {"kind": "epd", "path": str(suite_path), "sha256": suite.sha256,
                              "positions": len(suite.positions),
                              "skipped": [list(s) for s in suite.skipped]}
        problems += suite_problems(suite, config.skip_invalid)[cut]
    if not problems:
        raise HarnessError("nothing to search: give --tree FILE, --trees SPEC or --suite EPD")
    seen: set[tuple[str, str]] = set()
    for problem in problems:
        if (problem.suite, problem.problem_id) in seen:
            raise HarnessError(f"two problems are called {problem.suite} {problem.problem_id} "
                               "(results are keyed by suite and id)")
        seen.add((problem.suite, problem.problem_id))
    return Plan(problems, variants, suites)


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
                   progress: Listener | None = None,
                   epd_out: str | Path | None = None, report: bool = True,
                   execution: Execution = Execution()) -> RunOutput:
    """Search every problem with every variant at every depth; write the run folder.

    Each problem is one job (see :mod:`harness.run.executors`). Its rows are appended to
    ``results.csv`` as soon as it finishes, so an interruption loses at most the jobs in
    progress and :func:`resume_experiment` finishes the rest; at the end the file is put
    in the plan's order, so every executor and every resumed run give the same rows.
    The workers start before anything is written (a Dask scheduler out of reach leaves no
    folder), and the folder's lock is held throughout (one writer per run folder).
    ``progress`` hears of each search and problem. With ``epd_out``, the chess rows are
    also written as EPD (see :func:`export_epd`); with ``report``, ``summary.csv``,
    charts and ``report.html`` too.
    """
    plan = plan_experiment(config)
    run_dir = Path(run_dir)
    if epd_out is not None:
        if not any(p.kind == "epd" for p in plan.problems):
            raise HarnessError(f"--epd-out {epd_out}: no chess problems to write as EPD")
        check_writable(epd_out, "--epd-out")
    with start_workers(execution, len(plan.problems)) as workers, hold_folder(run_dir, command):
        if (run_dir / RESULTS_FILE).exists() or (run_dir / RUN_FILE).exists():
            raise HarnessError(f"{run_dir}: already holds a run; choose another --out, or "
                               f"finish it with --resume {run_dir}")
        settings = config.as_dict()
        info: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "command": list(command),
            "config": settings,
            "config_hash": config_hash(settings),
            "variants": {spec.label: {"name": spec.name, "options": dict(spec.options),
                                      "source": spec.variant.source} for spec in plan.variants},
            "suites": plan.suites,
            **environment(),
            "execution": asdict(execution),
            "epd_out": None if epd_out is None else str(epd_out),
            "started": now(),
            "finished": None,
            "problems": len(plan.problems),
        }
        write_run_info(run_dir, info)
        return _execute(plan, config, run_dir, info, set(), workers, progress, report)


def resume_experiment(run_dir: str | Path, execution: Execution = Execution(),
                      progress: Listener | None = None,
                      report: bool = True) -> RunOutput:
    """Finish an interrupted run: keep every problem whose rows are all in
    ``results.csv`` (dropping a torn last line and partial problems), search the rest
    with the configuration recorded in ``run.json``."""
    run_dir = Path(run_dir)
    load_run_info(run_dir)                      # not a run folder: say so before locking it
    with hold_folder(run_dir):
        info = load_run_info(run_dir)
        if info.get("schema_version") != SCHEMA_VERSION:
            raise HarnessError(f"{run_dir / RUN_FILE}: schema version "
                               f"{info.get('schema_version')!r} is not supported (this harness "
                               f"writes version {SCHEMA_VERSION})")
        config = ExperimentConfig.from_dict(info["config"])
        plan = plan_experiment(config)
        with start_workers(execution, len(plan.problems)) as workers:
            complete = _complete_rows(run_dir / RESULTS_FILE, plan, config)
            rewrite_results(run_dir / RESULTS_FILE,
                            [row for i in sorted(complete) for row in complete[i]])
            info.setdefault("resumed", []).append({"at": now(), "problems_kept": len(complete)})
            info["execution"] = asdict(execution)
            write_run_info(run_dir, info)
            return _execute(plan, config, run_dir, info, set(complete), workers, progress, report)


def _execute(plan: Plan, config: ExperimentConfig, run_dir: Path, info: dict[str, Any],
             done: set[int], workers: Workers, progress: Listener | None,
             report: bool) -> RunOutput:
    labels = [spec.label for spec in plan.variants]
    todo = [i for i in range(len(plan.problems)) if i not in done]
    jobs = [(plan.problems[i], labels, config.depths, config.switches, config.measure_minimal,
             config.max_nodes) for i in todo]
    listener = progress or Listener()
    searches = [len(labels) * len(p.depths(config.depths)) for p in plan.problems]
    found = workers.map(search_problem, jobs, cost=lambda job: jobs[job][0].work_estimate(),
                        on_step=listener.searched)
    with (in_phase(listener, run_dir.name, searches, done),
          closing(ResultsWriter(run_dir / RESULTS_FILE)) as writer, closing(found) as results):
        for _, rows in results:
            writer.write(rows)
            listener.problem_done()
    order = {(p.suite, p.problem_id): i for i, p in enumerate(plan.problems)}
    rows = read_rows(run_dir / RESULTS_FILE)
    rows.sort(key=lambda row: order[(row["suite"], row["problem_id"])])   # stable within a job
    rewrite_results(run_dir / RESULTS_FILE, rows)
    info["finished"] = now()
    write_run_info(run_dir, info)
    results_frame = load_results(run_dir)
    if info.get("epd_out"):
        export_epd(results_frame, plan.problems, info["epd_out"])
    if report:
        listener.note("writing summary.csv, comparison.csv, charts and report.html")
        write_report(run_dir, results_frame, info)
    return RunOutput(run_dir, results_frame, info)


def _complete_rows(path: Path, plan: Plan, config: ExperimentConfig) -> dict[int, list[dict[str, str]]]:
    """The rows of each problem that finished (all its variants x depths are there)."""
    index = {(p.suite, p.problem_id): i for i, p in enumerate(plan.problems)}
    by_problem: dict[int, list[dict[str, str]]] = {}
    for row in read_rows(path) if path.exists() else []:
        i = index.get((row["suite"], row["problem_id"]))
        if i is None:
            raise HarnessError(f"{path}: row for {row['suite']} {row['problem_id']} is not in "
                               "the run's configuration")
        by_problem.setdefault(i, []).append(row)
    width = len(plan.variants)
    return {i: rows for i, rows in by_problem.items()
            if len(rows) == width * len(plan.problems[i].depths(config.depths))}


def compare_variants(baseline: str, others: Sequence[str], out_dir: str | Path,
                     config: ExperimentConfig | None = None, seed: int = 0,
                     command: Sequence[str] = (),
                     progress: Listener | None = None,
                     execution: Execution = Execution(), resume: bool = False,
                     pooled: bool = False) -> ComparisonFiles:
    """Compare ``others`` with ``baseline`` on the same problems.

    With ``config``, first run those variants on its problems into ``out_dir``; with
    ``resume``, first finish the interrupted run in ``out_dir`` (:func:`resume_experiment`);
    with neither, ``out_dir`` is an existing run folder whose results are compared. The
    comparison table and the per-problem scatter are written into ``out_dir``: per problem
    set, or with ``pooled`` every set in one group.
    """
    labels = [spec.label for spec in parse_variants(",".join([baseline, *others]))]
    if len(labels) != 1 + len(others):
        raise HarnessError("compare needs distinct variants (one is named twice)")
    if config is not None:
        run_experiment(replace(config, variants=",".join(labels)), out_dir, command, progress,
                       execution=execution)
    elif resume:
        resume_experiment(out_dir, execution, progress)
    baseline, others = labels[0], labels[1:]
    load_run_info(Path(out_dir))                # not a run folder: say so before locking it
    with hold_folder(out_dir, command):
        results = load_results(out_dir)
        return write_comparison(results, baseline, list(others), Path(out_dir), seed, pooled)


EPD_COUNTERS = ("leaves", "qnodes", "zw_searches", "researches", "research_nodes",
                "fail_highs", "fail_highs_first", "cutoffs", "passes", "tt_hits")
"""Counters written to EPD as private opcodes (``H`` + name; ``acn`` holds ``nodes``)."""


def export_epd(results: pd.DataFrame, problems: Sequence[Problem], path: str | Path) -> int:
    """Write one EPD line per chess row: the position with its ``id``, ``bm`` and ``am``
    kept, the standard ``acd`` (depth), ``acn`` (nodes), ``ce`` (score for the side to
    move, centipawns) and ``pv``, and private opcodes (uppercase first letter, as the
    standard requires) ``Hvariant`` and the counters of :data:`EPD_COUNTERS`. Returns the
    number of lines."""
    import chess

    from harness.games.chess.epd import write_epd

    by_id = {(p.suite, p.problem_id): p for p in problems if p.kind == "epd"}
    lines = []
    for row in results.to_dict("records"):
        problem = by_id.get((row["suite"], row["problem_id"]))
        if problem is None:
            continue
        position = problem.position()
        board = position.board()
        ops: dict[str, Any] = {"id": position.id}
        for opcode in ("bm", "am"):
            if opcode in position.ops:
                ops[opcode] = position.ops[opcode]
        ops.update(acd=int(row["depth"]), acn=int(row["nodes"]), ce=int(row["score"]),
                   pv=[chess.Move.from_uci(m) for m in str(row["pv"]).split()],
                   Hvariant=str(row["variant"]))
        for name in EPD_COUNTERS:
            ops["H" + name] = int(row[name])
        lines.append((board, ops))
    if not lines:
        raise HarnessError(f"{path}: no chess rows to write as EPD")
    write_epd(path, lines)
    return len(lines)


def search_problem(problem: Problem, variants: Sequence[str], depths: tuple[int, ...] | None,
                   switches: Switches, measure_minimal: bool = False,
                   max_nodes: int | None = None) -> list[dict[str, Any]]:
    """Every variant (given by label) at every depth on one problem: the job of a run.

    One tree serves every search of the problem, so what it caches about positions is
    computed once for all variants and depths.
    """
    specs = parse_variants(",".join(variants))
    tree = problem.make_tree(switches)
    shape = tree.shape if isinstance(tree, ArrayTree) else None
    fen = problem.fen
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
                judged = problem.judge(result.best_move)
                rows.append({
                    "suite": problem.suite, "problem_id": problem.problem_id,
                    "variant": spec.label, "options": spec.options_text, "depth": depth,
                    "tt_size": result.tt_size, "iterative": int(switches.iterative_deepening
                                                                 or spec.variant.iterative),
                    "score": "" if result.score is None else result.score,
                    "bound": result.bound, "best_move": result.best_move,
                    "pv": " ".join(result.pv), "solved": "" if judged is None else int(judged),
                    "status": result.status, **result.counters,
                    "minimal_leaves": "" if minimal is None else minimal,
                    "minimal_source": source, "fen": fen, "time_s": round(result.time_s, 6),
                })
    cache = getattr(tree, "cache", None)
    if cache is not None:
        cache.clear()                   # the problem is done: free its positions
    return rows


@dataclass
class TreeDrawing:
    """One search (or two, side by side) drawn node by node."""

    problem: Problem
    """The problem searched."""
    results: list[tuple[str, SearchResult]]
    """Each variant's label and result, trace included."""
    text: str
    """The box-drawing rendering of every pass."""
    files: tuple[str, ...]
    """The PNG and SVG drawing (empty when not asked for)."""


def draw_search(config: ExperimentConfig, variants: Sequence[str], depth: int | None = None,
                problem_id: str | None = None, out: str | Path | None = None,
                max_lines: int = 400) -> TreeDrawing:
    """Search one problem of ``config`` (the first, or ``problem_id``) with each variant
    (one, or two to compare) to ``depth`` (by default the first of ``config.depths``, else
    the problem's: a tree's height, 3 for chess), trace it, render it as text and, with
    ``out``, as an image ``out.png`` / ``out.svg`` (the last pass of each variant side by
    side). A folder ``out`` cannot be written in is refused before the search."""
    depths = config.depths if depth is None else (depth,)
    plan = plan_experiment(replace(config, variants=",".join(variants), depths=depths))
    if problem_id is None:
        problem = plan.problems[0]
    else:
        found = [p for p in plan.problems if p.problem_id == problem_id]
        if not found:
            ids = ", ".join(p.problem_id for p in plan.problems[:10])
            raise HarnessError(f"no problem {problem_id!r} (the first ids: {ids})")
        problem = found[0]
    depth = problem.depths(depths)[0]
    if out is not None:
        check_writable(out, "--out")
    tree = problem.make_tree(config.switches)
    results: list[tuple[str, SearchResult]] = []
    blocks = []
    for spec in plan.variants:
        result = run_search(tree, spec, depth, config.switches, trace=True,
                            max_nodes=config.max_nodes)
        assert result.trace is not None
        results.append((spec.label, result))
        score = "stopped at the node limit" if result.score is None else \
            f"score {result.score} ({result.bound}), best move {result.best_move or '-'}"
        blocks.append(f"{spec.label} to depth {depth}: {score}, {result.counters['nodes']} nodes, "
                      f"{result.counters['leaves']} leaves\n{render_text(result.trace, max_lines)}")
    files: tuple[str, ...] = ()
    if out is not None:
        files = render_image([(f"{label} (depth {depth})", r.trace or []) for label, r in results],
                             str(out))
    return TreeDrawing(problem, results, "\n\n".join(blocks), files)
