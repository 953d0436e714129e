"""A run: problems x variants x depths, searched, counted and written as they finish."""

from __future__ import annotations

import shlex
import warnings
from collections.abc import Collection, Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager, nullcontext
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from harness.engines.probe import check_engine
from harness.errors import HarnessError, check_writable
from harness.files import file_sha256, write_whole
from harness.games.base import Problem
from harness.games.chess.game import Chess, export_epd, position_of
from harness.games.registry import find_game
from harness.lock import hold_folder, reading_folder
from harness.report.answers import DISAGREEMENTS_FILE, AnswerCheck, check_answers, load_rechecks
from harness.report.measures import NODES, Measure
from harness.report.page import ComparisonFiles, report_files, write_comparison, write_index, write_report
from harness.report.summary import set_names
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
    read_results,
    read_rows,
    refuse_other_output,
    rewrite_results,
    write_run_info,
)
from harness.run.blame import PluginError, Running, blamed
from harness.run.executors import Execution, Workers, start_workers
from harness.run.job import search_problem
from harness.run.plan import ExperimentConfig, Plan, plan_experiment
from harness.run.profiles import find_profile
from harness.run.progress import Listener, announced, in_phase
from harness.run.recheck import recheck_deeper, rechecked
from harness.run.resumable import check_plan, check_unchanged, made_with, variant_record
from harness.search.registry import parse_variants
from harness.search.run import SearchResult, Switches, run_search

DEFAULT_TREES = (
    "random:b=8,d=6,n=20,seed=1,ordering=0.9,values=incremental,range=100",
    "random:b=8,d=6,n=20,seed=1,ordering=random,values=incremental,range=100",
)
"""The trees of the default run: the same trees with good and with random move
ordering, so every variant's dependence on ordering shows at a glance."""

DEFAULT_RUNS = (
    ("trees", ExperimentConfig(problems=DEFAULT_TREES, variants="all", depths=(1, 2, 3, 4, 5, 6),
                               switches=Switches(iterative_deepening=True))),
    ("chess", ExperimentConfig(problems=("chess:bench.epd",), variants="core", depths=(1, 2, 3), limit=10,
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
            results = load_results(run_dir)
            outputs.append(RunOutput(run_dir, results, info,
                                     check_answers(results, info,
                                                   rechecks=load_rechecks(Path(run_dir)))))
        else:
            outputs.append(resume_experiment(run_dir, execution, progress))
    index = write_index(out_dir, [(o.run_dir, report_files(o.run_dir)) for o in outputs])
    return outputs, index


def is_default_folder(folder: str | Path) -> bool:
    """Whether ``folder`` holds the runs of :func:`run_default` (not a run itself)."""
    folder = Path(folder)
    return not (folder / RUN_FILE).exists() and (folder / DEFAULT_RUNS[0][0] / RUN_FILE).exists()


@dataclass
class RunOutput:
    """A finished run."""

    run_dir: Path
    """Where ``results.csv`` and ``run.json`` are."""
    results: pd.DataFrame
    """The rows of ``results.csv``."""
    info: dict[str, Any]
    """The contents of ``run.json``."""
    answers: AnswerCheck | None = None
    """Whether its exact variants agree (``None``: a finished run read back, not checked)."""

    @property
    def disagree(self) -> bool:
        """Whether the exact variants' answers disagree on some problem."""
        return self.answers is not None and not self.answers.rows.empty


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
    plan = plan_experiment(config, progress)
    run_dir = Path(run_dir)
    if epd_out is not None:
        if not any(record.get("game") == Chess.name for record in plan.suites.values()):
            raise HarnessError(f"--epd-out {epd_out}: no chess problems to write as EPD")
        check_writable(epd_out, "--epd-out")
    engine_info = check_engines(plan, config, progress)       # a bad engine: nothing written
    with (starting_workers(execution, len(plan.problems), progress) as workers,
          hold_folder(run_dir, command)):
        refuse_other_output(run_dir, "run")
        if (run_dir / RESULTS_FILE).exists() or (run_dir / RUN_FILE).exists():
            raise HarnessError(f"{run_dir}: already holds a run; choose another --out, or "
                               f"finish it with --resume {run_dir}")
        settings = config.as_dict()
        info: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "command": list(command),
            "config": settings,
            "config_hash": config_hash(settings),
            **made_with(settings),
            "switches": asdict(plan.switches),
            **({"profile": find_profile(config.profile).record()} if config.profile else {}),
            "variants": {spec.label: variant_record(spec) for spec in plan.variants},
            "suites": plan.suites,
            "columns": list(plan.columns),
            **environment(),
            "execution": asdict(execution),
            "epd_out": None if epd_out is None else str(epd_out),
            "started": now(),
            "finished": None,
            "problems": len(plan.problems),
        }
        info |= engine_info
        write_run_info(run_dir, info)
        return _execute(plan, config, run_dir, info, set(), workers, progress, report)


def resume_experiment(run_dir: str | Path, execution: Execution = Execution(),
                      progress: Listener | None = None,
                      report: bool = True) -> RunOutput:
    """Finish an interrupted run: keep every problem whose rows are all in
    ``results.csv`` (dropping a torn last line and partial problems), search the rest
    with the configuration recorded in ``run.json``."""
    run_dir = Path(run_dir)
    refuse_other_output(Path(run_dir), "run", "--resume finishes a run of harness run")
    load_run_info(run_dir)                      # not a run folder: say so before locking it
    with hold_folder(run_dir):
        info = load_run_info(run_dir)
        if info.get("schema_version") not in RESUMABLE_VERSIONS:
            raise HarnessError(f"{run_dir / RUN_FILE}: schema version "
                               f"{info.get('schema_version')!r} is not supported (this harness "
                               f"writes version {SCHEMA_VERSION})")
        check_unchanged(run_dir, info)
        config = ExperimentConfig.from_dict(info["config"])
        plan = plan_experiment(config, progress)
        check_plan(run_dir, info, plan)
        _check_same_engines(run_dir, info, check_engines(plan, config, progress))
        with announced(progress or Listener(), f"reading the rows kept in {run_dir}"):
            complete = _complete_rows(run_dir / RESULTS_FILE, plan, config, info)
        with starting_workers(execution, len(plan.problems), progress) as workers:
            rewrite_results(run_dir / RESULTS_FILE,
                            [row for rows in complete.values() for row in rows], plan.columns)
            info.setdefault("resumed", []).append({"at": now(), "problems_kept": len(complete)})
            # A version-3 run's kept rows were rewritten with version 4's columns (the
            # variants' subject, no depth reached): it is a version-4 run from now on.
            info.update(schema_version=SCHEMA_VERSION, columns=list(plan.columns))
            info["execution"] = asdict(execution)
            write_run_info(run_dir, info)
            return _execute(plan, config, run_dir, info, complete.keys(), workers, progress, report)


def _execute(plan: Plan, config: ExperimentConfig, run_dir: Path, info: dict[str, Any],
             done: Collection[ProblemKey], workers: Workers, progress: Listener | None,
             report: bool) -> RunOutput:
    labels = [spec.label for spec in plan.variants]
    listener = progress or Listener()
    order: dict[ProblemKey, int] = {}           # each problem's place, as it is reached

    def jobs() -> Iterator[tuple[Any, ...]]:
        for i, problem in enumerate(plan.problems):
            order[problem.suite, problem.problem_id] = i
            if (problem.suite, problem.problem_id) not in done:
                yield (problem, labels, config.depths, plan.switches, config.measure_minimal,
                       config.max_nodes, plan.engines, plan.engine_limits)

    # Every problem is searched to each depth given, else to its own (Problem.depths).
    each = (len(labels) + len(plan.engines)) * (len(config.depths) if config.depths else 1)
    total = len(plan.problems)
    found = workers.map(search_problem, jobs(), cost=lambda job: _work(job[0]),
                        on_step=listener.searched)
    try:
        with (in_phase(listener, searched_sets(plan), total, total * each, len(done),
                       len(done) * each),
              closing(ResultsWriter(run_dir / RESULTS_FILE, plan.columns)) as writer,
              closing(found) as results):
            for _, rows in results:
                writer.write(rows)
                listener.problem_done()
    except PluginError as exc:
        raise PluginError(f"{exc}; the problems finished before it are kept in {run_dir} "
                          f"(--resume {run_dir} finishes the rest)") from None
    _check_files_kept(plan)
    rows = read_rows(run_dir / RESULTS_FILE)
    rows.sort(key=lambda row: order[(row["suite"], row["problem_id"])])   # stable within a job
    rewrite_results(run_dir / RESULTS_FILE, rows, plan.columns)
    results_frame = load_results(run_dir)
    if rechecked(plan, results_frame):
        listener.note("re-checking the answers deeper table entries decided, without a table")
    rechecks = recheck_deeper(plan, results_frame, run_dir)
    answers = check_answers(results_frame, info, rechecks=rechecks)
    write_disagreements(run_dir, answers)
    info["answers"] = answers.summary()
    info["finished"] = now()
    write_run_info(run_dir, info)
    if info.get("epd_out"):
        export_epd(results_frame, plan.problems, info["epd_out"])
    if report:
        listener.note("writing summary.csv, comparison.csv, charts and report.html")
        write_report(run_dir, results_frame, info)
    return RunOutput(run_dir, results_frame, info, answers)


def check_engines(plan: Plan, config: ExperimentConfig,
                  progress: Listener | None) -> dict[str, Any]:
    """What ``run.json`` records of the run's engines, each checked before the first search
    (:func:`harness.engines.probe.check_engine`: started, configured, ``go nodes`` tried
    when limited, the first problem searched twice at the first depth): ``engines`` and
    ``engine_warnings`` (each also a warning now). Nothing when the run has no engine."""
    if not plan.engines:
        return {}
    first = plan.problems[0]
    depth = first.depths(config.depths)[0]
    where = f"{first.suite} {first.problem_id}"
    records: dict[str, Any] = {}
    said: list[str] = []
    for spec in plan.engines:
        with announced(progress or Listener(), f"checking engine {spec.name} ({where} twice, "
                                               f"depth {depth})"):
            checked = check_engine(spec, plan.engine_limits, position_of(first).fen, depth, where)
        records[spec.name] = checked.record
        if checked.warning:
            said.append(checked.warning)
            warnings.warn(checked.warning, UserWarning, stacklevel=2)
    return {"engines": records, "engine_warnings": said}


def _check_same_engines(run_dir: Path, info: dict[str, Any], now: dict[str, Any]) -> None:
    """Refuse to resume with an engine whose ``id name`` (its version) is not the one its
    rows were searched by."""
    for name, record in dict(info.get("engines") or {}).items():
        found = dict(now.get("engines") or {}).get(name, {}).get("id_name")
        if found != record.get("id_name"):
            raise HarnessError(f"{run_dir}: cannot resume: engine {name} was "
                               f"{record.get('id_name')!r} when its rows were searched and is "
                               f"{found!r} now; start a new run with another --out")


def _check_files_kept(plan: Plan) -> None:
    """Refuse to finish a run whose problem file changed while it was read: its problems
    are read as they are reached, so its rows could mix two versions of the file."""
    for record in plan.suites.values():
        path = Path(str(record.get("path", "")))
        if record.get("sha256") and path.is_file() and file_sha256(path) != record["sha256"]:
            raise HarnessError(f"{path}: changed while the run read it (sha256 "
                               f"{str(record['sha256'])[:12]}... then, {file_sha256(path)[:12]}... "
                               "now): its rows may mix two versions of the file; put it back and "
                               "start a new run with another --out")


RESUMABLE_VERSIONS = (3, SCHEMA_VERSION)
"""The schema versions of a run :func:`resume_experiment` finishes: version 3 lacks only the
columns of engines' rows, which its rows (all variants') are read with."""

ProblemKey = tuple[str, str]
"""A problem's identity in ``results.csv``: its set and its id."""


@contextmanager
def starting_workers(execution: Execution, jobs: int,
                     progress: Listener | None) -> Iterator[Workers]:
    """:func:`start_workers`, named on stderr when starting them takes a while (a local
    Dask cluster, a scheduler far away)."""
    what = (f"connecting to the Dask scheduler {execution.scheduler}" if execution.scheduler
            else "starting a local Dask cluster" if execution.executor == "dask"
            else "starting worker processes")
    with ExitStack() as stack:
        with announced(progress or Listener(), what):
            workers = stack.enter_context(start_workers(execution, jobs))
        yield workers


def searched_sets(plan: Plan) -> str:
    """What a run's progress calls it: the problem set it searches, or its sets' short
    names (:func:`set_names`), not the folder it writes."""
    names = set_names(list(plan.suites))
    if len(plan.suites) == 1:
        return next(iter(plan.suites))
    return f"{len(plan.suites)} sets: " + ", ".join(names.label(s) for s in plan.suites)


def write_disagreements(run_dir: Path, answers: AnswerCheck) -> None:
    """``disagreements.csv``: every answer to a question whose exact answers disagree, written
    whole (a temporary file renamed); no file, and none left from before, when all agree."""
    path = run_dir / DISAGREEMENTS_FILE
    if answers.rows.empty:
        path.unlink(missing_ok=True)
        return
    write_whole(path, answers.rows.to_csv(index=False))


def _work(problem: Problem) -> float:
    game = find_game(problem.game)
    with blamed(Running(game, problem)):
        return game.work(problem)


def _complete_rows(path: Path, plan: Plan, config: ExperimentConfig,
                   info: dict[str, Any]) -> dict[ProblemKey, list[dict[str, str]]]:
    """The rows of each problem that finished (all its variants x depths are there), in
    the plan's order, read and checked as every command reads them (:func:`read_results`):
    a row that cannot be right refuses the resume, so no row is rewritten away. The plan's
    problems are read only as far as the last one with rows."""
    by_problem: dict[ProblemKey, list[dict[str, str]]] = {}
    for row in read_results(path, info).text:
        by_problem.setdefault((row["suite"], row["problem_id"]), []).append(row)
    width = len(plan.variants) + len(plan.engines)
    waiting = set(by_problem)
    complete: dict[ProblemKey, list[dict[str, str]]] = {}
    for problem in plan.problems:
        if not waiting:
            break
        key = (problem.suite, problem.problem_id)
        if key in waiting:
            waiting.remove(key)
            if len(by_problem[key]) == width * len(problem.depths(config.depths)):
                complete[key] = by_problem[key]
    for suite, problem_id in (key for key in by_problem if key in waiting):
        raise HarnessError(f"{path}: row for {suite} {problem_id} is not in the run's "
                           "configuration")
    return complete


def compare_variants(baseline: str, others: Sequence[str], out_dir: str | Path,
                     config: ExperimentConfig | None = None, seed: int = 0,
                     command: Sequence[str] = (),
                     progress: Listener | None = None,
                     execution: Execution = Execution(), resume: bool = False,
                     pooled: bool = False, run_dir: str | Path | None = None,
                     measure: Measure = NODES) -> ComparisonFiles:
    """Compare ``others`` with ``baseline`` on the same problems.

    With ``config``, first run those variants on its problems into ``out_dir``; with
    ``resume``, first finish the interrupted run in ``out_dir`` (:func:`resume_experiment`);
    with neither, the existing run in ``run_dir`` (by default ``out_dir``) is compared. The
    comparison table and the per-problem scatter are written into ``out_dir``: per problem
    set, or with ``pooled`` every set in one group. A ``run_dir`` elsewhere is only read:
    it takes a shared lock there, no write access (:func:`reading_folder`). ``measure``:
    nodes, or time (refused across frames; a run made for it is kept, and the refusal
    says where).
    """
    ran = None if config is not None else Path(run_dir if run_dir is not None else out_dir)
    engines = dict(load_run_info(ran).get("engines") or {}) \
        if ran is not None and (ran / RUN_FILE).exists() else {}
    labels = list(dict.fromkeys(                               # an engine by its run's name
        label for name in [baseline, *others]
        for label in ([name] if name in engines else [spec.label for spec in parse_variants(name)])))
    if len(labels) != 1 + len(others):
        raise HarnessError("compare needs distinct variants (one is named twice)")
    if config is not None:
        run_experiment(replace(config, variants=",".join(labels)), out_dir, command, progress,
                       execution=execution)
    elif resume:
        resume_experiment(out_dir, execution, progress)
    baseline, others = labels[0], labels[1:]
    source, out = Path(run_dir if run_dir is not None else out_dir), Path(out_dir)
    load_run_info(source)                       # not a run folder: say so before locking it
    elsewhere = not out.exists() or not source.resolve().samefile(out.resolve())
    with (reading_folder(source) if elsewhere else nullcontext()), hold_folder(out, command):
        results = load_results(source)
        try:
            return write_comparison(results, baseline, list(others), out, seed, pooled,
                                    load_run_info(source), measure)
        except HarnessError as exc:
            if config is None and not resume:
                raise
            again = shlex.join(["harness", "compare", baseline, *others, "--run", str(out)])
            raise HarnessError(f"{exc} (the run is kept: {again})") from None


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
    columns: dict[str, object]
    """The game's own columns for the problem (``Game.columns_for``, no best move)."""
    among: int = 1
    """How many problems the configuration held (the one drawn is the first, unless named)."""


TRACE_NODES = 50_000
"""The nodes ``harness tree`` traces before it refuses a search (without ``--max-nodes``):
a trace is held whole (about 2 kB a node) and read by a person."""
TRACE_MOST_NODES = 500_000
"""The most ``--max-nodes`` ``harness tree`` accepts: about a gigabyte of trace."""


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
        found = next((p for p in plan.problems if p.problem_id == problem_id), None)
        if found is None:
            ids = ", ".join(p.problem_id for p in plan.problems[:10])
            raise HarnessError(f"no problem {problem_id!r} (the first ids: {ids})")
        problem = found
    depth = problem.depths(depths)[0]
    if config.max_nodes is not None and config.max_nodes > TRACE_MOST_NODES:
        raise HarnessError(f"--max-nodes {config.max_nodes}: harness tree keeps every node it "
                           f"draws in memory (about 2 kB each) and draws at most "
                           f"{TRACE_MOST_NODES:,}")
    limit = TRACE_NODES if config.max_nodes is None else config.max_nodes
    if out is not None:
        check_writable(out, "--out")
    game = find_game(problem.game)
    results: list[tuple[str, SearchResult]] = []
    blocks = []
    with blamed(Running(game, problem)) as running:
        tree = running.tree = game.tree(problem)
        for spec in plan.variants:
            running.variant, running.depth = spec.variant, depth
            result = run_search(tree, spec, depth, plan.switches, trace=True, max_nodes=limit)
            if config.max_nodes is None and result.status == "max-nodes":
                raise HarnessError(
                    f"{spec.label} to depth {depth} on {problem.suite} {problem.problem_id} "
                    f"passed {TRACE_NODES:,} nodes, more than a trace can show or hold (about "
                    "2 kB a node): choose a smaller --depth, or draw the first N nodes with "
                    f"--max-nodes N (at most {TRACE_MOST_NODES:,})")
            results.append((spec.label, result))
        running.variant = None
        columns = game.columns_for(problem, "")
    for label, result in results:
        assert result.trace is not None
        score = "stopped at the node limit" if result.score is None else \
            f"score {result.score} ({result.bound}), best move {result.best_move or '-'}"
        blocks.append(f"{label} to depth {depth}: {score}, {result.counters['nodes']} nodes, "
                      f"{result.counters['leaves']} leaves\n{render_text(result.trace, max_lines)}")
    files: tuple[str, ...] = ()
    if out is not None:
        files = render_image([(f"{label} (depth {depth})", r.trace or []) for label, r in results],
                             str(out))
    return TreeDrawing(problem, results, "\n\n".join(blocks), files, columns, len(plan.problems))
