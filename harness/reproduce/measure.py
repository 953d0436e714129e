"""What a reproduction searches and how: the scales, the chess configurations and the
synthetic ordering sweep, one job per problem (:func:`measure`), the job list, and the
collection of every job's rows with a log of finished jobs that a resume reads back.

Counting. On synthetic trees ``nodes`` are the search's calls (VARIANTS.md). On chess
positions the effort compared is ``nodes + qnodes`` (every position visited, quiescence
included), called *total nodes*; ``leaves`` are the static evaluations at the horizon.
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.chess.suite_files import find_suite
from harness.games.chess.tree import Ordering
from harness.games.registry import find_game, load_problems
from harness.plugins import BUILT_IN
from harness.run.checkpoint import JobLog
from harness.run.executors import Execution, collector_paused, report_step, run_jobs
from harness.run.progress import Listener, in_phase
from harness.run.resumable import harness_version
from harness.search.counters import COUNTING_VERSION
from harness.search.registry import VARIANTS, parse_variants
from harness.search.run import Switches, run_search
from harness.search.trace import evaluated_leaves, visited


@dataclass(frozen=True)
class Scale:
    """How much is searched: the quick (CI) scale or the full one."""

    km_max_leaves: int
    """Claim 1: every (b, d) with b in :attr:`km_branchings` and b^d up to this."""
    km_branchings: tuple[int, ...]
    """Claim 1: branchings."""
    km_trees: int
    """Claim 1: trees per (b, d)."""
    pearl: tuple[tuple[int, int], ...]
    """Claim 2: (branching, deepest depth) pairs; every depth from 1 is searched."""
    pearl_trees: int
    """Claim 2: trees per branching."""
    sweep_branching: int
    """Claims 5-8: branching of the ordering sweep's trees."""
    sweep_depth: int
    """Claims 5-8: depth of the sweep's trees (searched to it)."""
    sweep_trees: int
    """Claims 5-8: trees per ordering level and value model."""
    chess_positions: int
    """Chess claims: the first N positions of the suite."""
    chess_depth: int
    """Chess claims: depth of the iterative-deepening searches."""
    tt_size: int
    """Chess claims: entries of the transposition table where one is on."""
    connect4: tuple[tuple[str, int], ...] = ()
    """Claim 9: the first N positions of each of Pons's test sets (``../shared/connect4``);
    Pons's ladder is measured on Test_L3_R1's."""
    chess_first: int = 1
    """Chess claims: the suite's position (from 1) the :attr:`chess_positions` start at."""
    best_first_shapes: tuple[str, ...] = ("b=2,d=7", "b=3,d=5", "b=4,d=4", "b=1-4,d=5")
    """The SSS* claims: the synthetic trees' shapes (``b=LO-HI``: branching drawn per node)."""
    best_first_trees: int = 1
    """The SSS* claims: trees per shape, ordering and value model."""
    seeds: tuple[tuple[str, int], ...] = (("games", 11), ("knuth-moore", 1), ("pearl", 6),
                                          ("plaat-sss", 5), ("pvs-modern", 45), ("schaeffer", 41),
                                          ("schaeffer-games", 61), ("stockman", 4), ("sweep", 3),
                                          ("three-games-modern", 51))
    """The synthetic datasets' tree seeds, by name in sorted order (each claim's rules name
    them per phase: :mod:`harness.reproduce.phases`); these are the exploration's."""
    games: tuple[tuple[str, int, int, int], ...] = ()
    """Plaat et al.'s three games (:mod:`harness.reproduce.claims.three_games`): per set
    (``chess``, ``othello``, ``checkers``, the synthetic trees beside them) the most
    problems searched and the shallowest and deepest depth (each depth its own search)."""

    schaeffer: tuple[int, int, int] = (3, 4, 5)
    """Schaeffer's claim (:mod:`harness.reproduce.claims.schaeffer`): the exploration's
    positions, the deepest depth of the full factorial of the seven enhancements, and the
    deepest depth (the searches the checks read only, beyond the factorial)."""

    pvs_modern: tuple[int, int] = (3, 7)
    """The PVS article on the modern profile (:mod:`harness.reproduce.claims.pvs_modern`):
    the exploration's positions and the deepest depth (every depth from the rules' first
    to it is an iterative-deepening search of its own)."""

    modern_games: tuple[tuple[str, int, int, int], ...] = ()
    """Claim 12 on the modern profile (:mod:`harness.reproduce.claims.three_games_modern`):
    per game (``chess``, ``othello``, ``checkers``) the most positions searched and the
    shallowest and deepest depth (each depth an iterative-deepening search of its own)."""

    schaeffer_games: tuple[tuple[str, int, int, int], ...] = ()
    """Schaeffer's claim in Othello and checkers
    (:mod:`harness.reproduce.claims.schaeffer_games`): per game the most positions searched,
    the deepest depth of the full factorial and the deepest depth."""

    def seed_of(self, dataset: str) -> int:
        """The tree seed of a synthetic dataset."""
        return dict(self.seeds)[dataset]


QUICK = Scale(km_max_leaves=40_000, km_branchings=(2, 3, 4, 5, 8), km_trees=2,
              pearl=((3, 10), (5, 8)), pearl_trees=12, sweep_branching=6, sweep_depth=6,
              sweep_trees=8, chess_positions=8, chess_depth=3, tt_size=1 << 20,
              connect4=(("Test_L3_R1", 1000), ("Test_L2_R1", 100), ("Test_L1_R1", 20)),
              games=(("chess", 4, 2, 3), ("othello", 4, 3, 4), ("checkers", 4, 4, 6),
                     ("synthetic", 4, 3, 4), ("synthetic-random", 4, 3, 4)),
              modern_games=(("chess", 2, 6, 7), ("othello", 2, 6, 7), ("checkers", 2, 8, 9)),
              schaeffer_games=(("othello", 2, 4, 5), ("checkers", 2, 7, 7)))
"""The quick scale: a few minutes on two cores (CI)."""

FULL = Scale(km_max_leaves=2_000_000, km_branchings=(2, 3, 4, 5, 6, 8, 10), km_trees=5,
             pearl=((3, 13), (5, 9)), pearl_trees=144, sweep_branching=8, sweep_depth=6,
             sweep_trees=40, chess_positions=30, chess_depth=4, tt_size=1 << 20,
             connect4=(("Test_L3_R1", 1000), ("Test_L2_R1", 1000), ("Test_L1_R1", 1000)),
             best_first_trees=6, schaeffer=(30, 6, 8), pvs_modern=(30, 12),
             games=(("chess", 470, 3, 6), ("othello", 128, 6, 10), ("checkers", 552, 10, 13),
                    ("synthetic", 100, 3, 7), ("synthetic-random", 100, 3, 7)),
             modern_games=(("chess", 200, 7, 11), ("othello", 128, 10, 14), ("checkers", 400, 13, 17)),
             schaeffer_games=(("othello", 256, 8, 8), ("checkers", 400, 8, 8)))
"""The full scale: about 20 minutes on two cores (docs/reproduce.md has its table).
Chess stops at depth 4: at depth 5 the chess part alone ran 11 of 30 positions in 35
minutes. The unordered configuration of claim 4 is most of it (91% of the chess search
time at depth 4). Issue 19's audit added about 150 CPU seconds (measured in one process,
the sweep's and chess's jobs before and after: sweep 232 to 332 s, most of it claim 5's
traced runs; chess 100 to 152 s), a little over a minute on two cores. Pearl's trees are
144 per branching (claim 2's rules version 6: the sample its finite-depth band needs for
an 80% chance of holding at b = 3; 40 trees took 63 CPU seconds)."""


@dataclass(frozen=True)
class ChessConfig:
    """A set of chess switches the chess claims are measured with."""

    name: str
    """Its short name in tables and charts."""
    switches: Switches
    """The frame's switches (iterative deepening is on in every configuration)."""
    ordering: Ordering
    """The chess tree's move ordering."""
    description: str
    """What is on."""


def chess_configs(tt_size: int) -> tuple[ChessConfig, ...]:
    """The move-ordering ladder of claim 4, each step adding one enhancement."""
    base = Switches(iterative_deepening=True)
    return (
        ChessConfig("none", base, Ordering(mvv_lva=False), "no ordering (generation order)"),
        ChessConfig("mvv-lva", base, Ordering(), "MVV-LVA captures first"),
        ChessConfig("+killers", base, Ordering(killers=True), "MVV-LVA, killers"),
        ChessConfig("+history", base, Ordering(killers=True, history=True),
                    "MVV-LVA, killers, history"),
        ChessConfig("+hash move", replace(base, tt_size=tt_size), Ordering(killers=True, history=True),
                    f"MVV-LVA, killers, history, a {tt_size:,}-entry table with its move first"),
    )


BEST = "+hash move"
"""The configuration with every ordering enhancement (claims 4 and 7 use it)."""

MT = "MT"
"""Claim 3's configuration: :data:`BEST` with the table as Plaat et al.'s MT keeps it."""


def mt_config(tt_size: int) -> ChessConfig:
    """:data:`BEST` with the table as Plaat et al.'s MT uses it: horizon leaves and their
    quiescence values stored in it and probed, and an entry's bounds narrowing the window
    (``tt_leaves``, ``tt_narrow``; off in every configuration of the ladder)."""
    best = {c.name: c for c in chess_configs(tt_size)}[BEST]
    return ChessConfig(MT, replace(best.switches, tt_leaves=True, tt_narrow=True), best.ordering,
                       f"{best.description}; the table also holds horizon leaves and their "
                       "quiescence values, and an entry narrows the window to its bounds (MT)")


def all_configs(tt_size: int) -> tuple[ChessConfig, ...]:
    """Every chess configuration a claim names: the ordering ladder, then :data:`MT`."""
    return (*chess_configs(tt_size), mt_config(tt_size))


def ladder(*variants: str) -> tuple[tuple[str, str], ...]:
    """(configuration, variant) pairs: each variant on every step of the ordering ladder."""
    return tuple((c.name, v) for c in chess_configs(1) for v in variants)


ORDERING_LEVELS = (*(f"{k / 10:.1f}" for k in range(11)), "random")
"""The synthetic sweep's orderings: probabilities 0.0 to 1.0 that the best child is first,
and ``random``."""

GOOD_ORDERING = "0.9"
"""Claims 7 and 8: the synthetic ordering level standing for good (not perfect) ordering."""

VALUE_MODELS = {
    "distinct": "values=uniform,range=1000000000",
    "tied": "values=incremental,range=50",
}
"""The sweep's two value models: independent values from a wide range (ties are rare) and
incremental values with small edges (many ties, as chess evaluations have)."""

ALL_VARIANTS = (*(v.name for v in VARIANTS if v.origin == BUILT_IN and not v.counting),
                "zwp:improve=0")
"""Every registered variant whose counters mean what VARIANTS.md says (not SSS* and DUAL*,
best-first: their nodes are not calls of a search) and the note's search without its
improvement: the sweep searches those its claims ask for, in this order."""


# ---------------------------------------------------------------------------------------
# One job per problem


@dataclass(frozen=True)
class Run:
    """One search of a problem."""

    config: str
    """The switches' name (``default`` on synthetic trees)."""
    variant: str
    """The variant's label."""
    depth: int
    """The depth searched to."""
    switches: Switches = Switches()
    """The switches."""
    ordering: Ordering | None = None
    """A chess tree's move ordering (``None``: the tree's own)."""
    visited: bool = False
    """Trace the search and count the distinct nodes it visited (``distinct_nodes``) and
    those the first such run of the job with the same configuration and depth did not
    (``new_nodes``): "visits no node alpha-beta does not" is a statement about these; and
    name the set of them by a digest (``visited_digest``): two searches with one digest
    visited the same nodes (claim 6)."""
    leaves: bool = False
    """With :attr:`visited`: also the leaves it evaluated, named by a digest
    (``leaves_digest``), and those the first such run of the job with the same
    configuration and depth did not evaluate (``new_leaves``): the SSS* claims."""
    guess_error: int | None = None
    """An MTD driver's first guess: the score of the job's first run to this depth (its
    value) plus this (``guess``; the row's ``guess_error``): the sensitivity to the guess."""


def measure(tags: tuple[tuple[str, str], ...], problem: Problem,
            runs: tuple[Run, ...]) -> list[dict[str, Any]]:
    """Every run on one problem, with one tree (its position cache shared by all runs):
    one row per run with ``tags``, the problem, the run and every counter."""
    tree = find_game(problem.game).tree(problem)
    rows: list[dict[str, Any]] = []
    first_visited: dict[tuple[str, int], set[tuple[str, ...]]] = {}
    first_leaves: dict[tuple[str, int], set[tuple[str, ...]]] = {}
    try:
        with collector_paused():
            for run in runs:
                spec = parse_variants(_with_guess(run, rows))[0]
                if run.ordering is not None and hasattr(tree, "set_ordering"):   # either chess tree
                    tree.set_ordering(run.ordering)
                result = run_search(tree, spec, run.depth, run.switches, trace=run.visited)
                report_step()
                row = {**dict(tags), "suite": problem.suite, "problem_id": problem.problem_id,
                       "config": run.config, "variant": run.variant, "depth": run.depth,
                       "score": result.score, "bound": result.bound, "status": result.status,
                       **result.counters, "first_passes": result.first_passes,
                       "time_s": round(result.time_s, 6), "frame": result.frame}
                if run.visited and result.trace is not None:
                    nodes = visited(result.trace)
                    before = first_visited.setdefault((run.config, run.depth), nodes)
                    row.update(distinct_nodes=len(nodes), new_nodes=len(nodes - before),
                               visited_digest=visited_digest(nodes))
                    if run.leaves:
                        leaves = set(evaluated_leaves(result.trace))
                        seen = first_leaves.setdefault((run.config, run.depth), leaves)
                        row.update(leaves_digest=visited_digest(leaves),
                                   new_leaves=len(leaves - seen))
                if run.guess_error is not None:
                    row["guess_error"] = run.guess_error
                rows.append(row)
    finally:
        cache = getattr(tree, "cache", None)
        if cache is not None:
            cache.clear()
    return rows


def _with_guess(run: Run, rows: Sequence[Mapping[str, Any]]) -> str:
    """The run's variant, with its first guess when it has a :attr:`Run.guess_error`."""
    if run.guess_error is None:
        return run.variant
    value = next((r["score"] for r in rows if r["depth"] == run.depth), None)
    if value is None:
        raise HarnessError(f"{run.variant}: no value to place a first guess around at depth "
                           f"{run.depth} (the job's first run to that depth gives it)")
    return f"{run.variant}{',' if ':' in run.variant else ':'}guess={value + run.guess_error}"


def visited_digest(nodes: set[tuple[str, ...]]) -> str:
    """A set of visited nodes (each the moves from the root) named by the first 16 hex
    digits of the sha256 of its sorted lines: equal sets, equal digests."""
    text = "\n".join(sorted(" ".join(path) for path in nodes))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


Job = tuple[tuple[tuple[str, str], ...], Problem, tuple[Run, ...]]
"""The tags of every row (``dataset`` first), the problem, and its runs."""


def chess_suite(named: str | None = None) -> Path | None:
    """The chess positions: the suite ``named`` (by the rules' data for the run's phase:
    :func:`harness.reproduce.phases.suite_named`; ``wac.epd`` when none is) wherever
    :func:`find_suite` finds it (the project's ``harness/games/chess/positions/``,
    ``HARNESS_SUITES``, the download folder), else the project's own ``bench.epd``;
    ``None`` when neither is there."""
    for name in (named or "wac.epd", "bench.epd"):
        try:
            return find_suite(name)
        except HarnessError:
            continue
    return None


def chess_positions(path: Path, first: int, count: int, options: str = "") -> list[Problem]:
    """The suite's positions ``first`` (from 1) to ``first + count - 1`` (fewer when the
    suite ends first), with the chess ``options`` (``killers=1,repetition=1``; empty: the
    game's defaults); malformed lines are skipped."""
    spec = f"chess:{path}" + (f",{options}" if options else "")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(load_problems(spec, skip_invalid=True).problems[first - 1:first - 1 + count])


GAME_PHASES = ("opening", "middle", "endgame")
"""The game phases of the self-play suites' positions (each position's ``c0`` says which)."""


def game_phases(*suites: str) -> dict[str, str]:
    """Each position's game phase by its id, from the ``c0`` of the suites named (found by
    :func:`find_suite`; ``opening: game 1, ply 12``; a name as the rows give it, with the
    chess options after a comma, names its file); positions that say none are absent."""
    found: dict[str, str] = {}
    for suite in suites:
        for line in find_suite(str(suite).split(",")[0]).read_text(encoding="utf-8").splitlines():
            ident, phase = re.search(r'\bid "([^"]+)"', line), re.search(r'\bc0 "(\w+):', line)
            if ident and phase:
                found[ident.group(1)] = phase.group(1)
    return found


def _chess_jobs(pairs: Iterable[tuple[str, str]], scale: Scale, suite: Path | None,
                traced: frozenset[str] = frozenset()) -> list[Job]:
    """Every position with each (configuration, variant) pair, configuration order (the
    ladder, then :data:`MT`) first, then variant names; the ``traced`` variants' runs
    traced (alpha-beta, when traced, is each configuration's first traced run)."""
    order = [c.name for c in all_configs(1)]
    chess_runs = sorted(set(pairs), key=lambda p: (order.index(p[0]), p[1]))
    if not chess_runs or suite is None:
        return []
    configs = {c.name: c for c in all_configs(scale.tt_size)}
    runs = tuple(Run(name, variant, scale.chess_depth, configs[name].switches, configs[name].ordering,
                     variant in traced)
                 for name, variant in chess_runs)
    return [((("dataset", "chess"),), p, runs)
            for p in chess_positions(suite, scale.chess_first, scale.chess_positions)]


def _sweep_jobs(variants: Sequence[str], scale: Scale, at: Iterable[tuple[str, str]] = (),
                traced: frozenset[str] = frozenset()) -> list[Job]:
    """The same trees at every ordering level and value model, each searched by ``variants``
    and, at the levels ``at`` names ((level, variant) pairs), by those too, after them;
    the ``traced`` variants' runs traced."""
    extra = sorted(set(at))
    if not variants and not extra:
        return []
    jobs: list[Job] = []
    d = scale.sweep_depth
    for model, values in VALUE_MODELS.items():
        for level in ORDERING_LEVELS:
            names = [*variants, *(v for lv, v in extra if lv == level and v not in variants)]
            if not names:
                continue
            spec = (f"random:b={scale.sweep_branching},d={d},n={scale.sweep_trees},"
                    f"seed={scale.seed_of('sweep')},ordering={level},{values}")
            runs = tuple(Run("default", v, d, visited=v in traced) for v in names)
            jobs += [((("dataset", "sweep"), ("model", model), ("ordering", level)), p, runs)
                     for p in load_problems(spec).problems]
    return jobs


DATASET_ORDER = ("chess", "pearl", "sweep", "knuth-moore", "pons")
"""The order datasets are measured in. A job's place in the list is its number in the log
of finished jobs, and the list's fingerprint decides whether a folder can be resumed, so
this order is kept as the first version had it; a dataset not named here comes after."""


def plan(chess: Iterable[tuple[str, str]], sweep: Iterable[str],
         own: Mapping[str, Callable[[Scale], list[Job]]], scale: Scale,
         suite: Path | None, sweep_at: Iterable[tuple[str, str]] = (),
         traced: Iterable[str] = ()) -> list[Job]:
    """The jobs of a reproduction: the chess ``(configuration, variant)`` pairs on
    ``suite``'s positions, the ``sweep`` variants on the ordering sweep (in the order of
    :data:`ALL_VARIANTS`) and the ``sweep_at`` ``(level, variant)`` pairs at their level
    only, and each dataset of ``own`` (named by its claim) as its function makes it. The
    runs of the ``traced`` variants, on chess and the sweep, are traced
    (:attr:`Run.visited`)."""
    wanted = set(sweep)
    followed = frozenset(traced)
    parts = {"chess": _chess_jobs(chess, scale, suite, followed),
             "sweep": _sweep_jobs([v for v in ALL_VARIANTS if v in wanted], scale, sweep_at, followed),
             **{name: make(scale) for name, make in own.items()}}
    names = sorted(parts, key=lambda n: DATASET_ORDER.index(n) if n in DATASET_ORDER
                   else len(DATASET_ORDER))
    return [job for name in names for job in parts[name]]


# ---------------------------------------------------------------------------------------
# Collecting every job's rows, with a log a resume reads back


MEASURING_FILE = "measuring.json"
"""What a reproduction measures (mode, claims, a fingerprint of its jobs), written first."""
MEASURED_FILE = "measured.jsonl"
"""The finished jobs of a reproduction (:class:`harness.run.checkpoint.JobLog`), kept for a
resume until the report is written."""


def measuring(path: Path, resume: bool) -> dict[str, Any]:
    """The recorded settings of a reproduction to resume; for a new one, ``{}`` (and a
    refusal to write over another)."""
    folder = path.parent
    if not resume:
        if path.exists() or (folder / "claims.json").exists():
            raise HarnessError(f"{folder}: already holds a reproduction; choose another --out, "
                               f"or finish it with: harness reproduce --resume {folder}")
        return {}
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HarnessError(f"{folder}: no reproduction to resume (no {MEASURING_FILE})") from None
    except ValueError as exc:
        raise HarnessError(f"{path}: not readable: {exc}") from None
    if not isinstance(settings, dict) or not {"quick", "claims", "fingerprint"} <= set(settings):
        raise HarnessError(f"{path}: not a reproduction's settings")
    if settings.get("finished"):
        raise HarnessError(f"{folder}: this reproduction is finished (see report.md)")
    return settings


def made_with(suite: Path | None) -> dict[str, Any]:
    """What a reproduction's rows are made with, beside its jobs' fingerprint, recorded so
    that a resume can say what changed: the counting rules, the harness (every variant it
    measures is built in) and the chess suite's file."""
    return {"counting_version": COUNTING_VERSION, "harness": harness_version(),
            "suite": None if suite is None else {"path": str(suite), "sha256": _sha256(suite)}}


def check_unchanged(path: Path, settings: Mapping[str, Any], now: Mapping[str, Any],
                    fingerprint: str) -> None:
    """Refuse to resume the reproduction of ``settings`` (read from ``path``) when what it
    is measured with now (``now``, :func:`made_with`) or its jobs (``fingerprint``) differ
    from what its rows were made with, saying what changed where it is recorded."""
    before = dict(settings.get("made_with") or {})
    todo = f"start afresh with another --out (what {path.parent} holds stays as it is)"
    changes = []
    if before.get("counting_version") != now["counting_version"]:
        changes.append(f"its rows were counted by counting rules version "
                       f"{before.get('counting_version')}, this harness counts by version "
                       f"{now['counting_version']}")
    if before and before.get("harness") != now["harness"]:
        changes.append(f"its rows were made by gametree-harness {before.get('harness')}, this "
                       f"one is {now['harness']}")
    then_suite, now_suite = before.get("suite") or {}, now["suite"] or {}
    if before and then_suite != now_suite:
        if then_suite.get("path") != now_suite.get("path"):
            changes.append(f"its chess positions came from {then_suite.get('path')}, now from "
                           f"{now_suite.get('path')}")
        else:
            changes.append(f"{now_suite.get('path')} changed since its rows were made (sha256 "
                           f"{str(then_suite.get('sha256'))[:12]}... then, "
                           f"{str(now_suite.get('sha256'))[:12]}... now)")
    if changes:
        raise HarnessError(f"{path.parent}: cannot resume: {'; '.join(changes)}; {todo}")
    if settings.get("fingerprint") != fingerprint:
        raise HarnessError(f"{path}: its claims were measured on other problems (another "
                           f"version of the harness, or another WAC); {todo}")


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def collect(jobs: Sequence[Job], execution: Execution, progress: Listener,
            log: JobLog, finished: dict[int, list[dict[str, Any]]]) -> dict[str, pd.DataFrame]:
    """Every job's rows by dataset: those in ``finished``, then the others measured and
    each appended to ``log`` as it finishes."""
    rows: list[list[dict[str, Any]]] = [finished.get(i, []) for i in range(len(jobs))]
    todo = [i for i in range(len(jobs)) if i not in finished]
    searches = [len(job[2]) for job in jobs]
    with in_phase(progress, "reproduce", len(jobs), sum(searches), len(finished),
                  sum(searches[i] for i in finished)):
        for index, result in run_jobs(measure, [jobs[i] for i in todo], execution,
                                      on_step=progress.searched):
            log.append(todo[index], result)
            rows[todo[index]] = result
            progress.problem_done()
    flat = [row for job_rows in rows for row in job_rows]
    frames: dict[str, pd.DataFrame] = {}
    if flat:
        every = pd.DataFrame(flat)
        for name, part in every.groupby("dataset", sort=False):
            frames[str(name)] = part.dropna(axis=1, how="all").reset_index(drop=True)
    return frames
