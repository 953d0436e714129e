"""A run's configuration and its plan: every problem, variant and depth resolved and checked
before anything is searched."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import chain, islice
from pathlib import Path
from typing import Any

from harness.engines.session import EngineLimits
from harness.engines.spec import EngineSpec, parse_engines
from harness.errors import HarnessError
from harness.files import file_sha256
from harness.games.base import FEATURES, Problem, ProblemStream, count_problems
from harness.games.registry import find_game, load_problems, parse_problem_name
from harness.results import ROW_COLUMNS
from harness.run.blame import Running, blamed
from harness.run.feasible import warn_infeasible
from harness.run.progress import Listener, announced
from harness.search.registry import VariantSpec, parse_variants
from harness.search.run import MAX_DEPTH, Switches, check_depth, switches_from_json
from harness.search.table import DEFAULT_SIZE


@dataclass(frozen=True)
class ExperimentConfig:
    """What a run searches and with which switches."""

    problems: tuple[str, ...] = ()
    """Problem sets named ``GAME:SPEC[,key=value...]`` (``chess:wac.epd,killers=1``,
    ``random:b=8,d=6,n=20``, ``tree:fig.json``, ``openspiel:tic_tac_toe``)."""
    variants: str = "all"
    """Variant list as given (``pvs:zw_min_depth=3,negascout``, ``all``, ``core``)."""
    depths: tuple[int, ...] | None = None
    """Depths to search each problem to; ``None``: each problem's default (a tree's
    height, 3 for chess, the end of an OpenSpiel game)."""
    switches: Switches = Switches()
    """Enhancements of the search frame, the same for every variant."""
    measure_minimal: bool = False
    """Measure each tree's minimal alpha-beta tree (children perfectly reordered)."""
    skip_invalid: bool = False
    """Skip malformed lines of a problem file with a warning instead of stopping."""
    max_nodes: int | None = None
    """Stop a search after this many nodes and record it with status ``max-nodes``."""
    limit: int | None = None
    """Search only the first ``limit`` problems of each problem set."""
    own_tables: bool = False
    """Let a variant that brings its own table (the MTD drivers) keep it alone. By default,
    when any variant of a run brings one and no ``--tt`` is given, every variant searches
    with a table of that size, so a node ratio measures the search, not the memory."""
    profile: str = ""
    """The search profile the switches and the games' options were made from
    (:mod:`harness.run.profiles`; empty: none), recorded in full in ``run.json``."""
    engines: tuple[str, ...] = ()
    """UCI engines searched beside the variants, each ``NAME=COMMAND[,Option=Value...]``
    (:mod:`harness.engines`): chess problem sets only."""
    engine_nodes: int | None = None
    """``go nodes N`` for every engine's search, beside its depth (``--nodes``)."""
    engine_timeout: float = EngineLimits().timeout_s
    """Seconds an engine's search may take before it is taken for hung (``timeout``)."""

    def __post_init__(self) -> None:
        """Check the fields' types in the library's own words (``ExperimentConfig.depths``),
        taking what a caller means: one problem set as a string, one depth as an int, lists
        as tuples."""
        problems: object = self.problems
        if isinstance(problems, str):
            problems = (problems,)
        if not isinstance(problems, Sequence) or not all(isinstance(p, str) for p in problems):
            raise HarnessError(f"ExperimentConfig.problems: {self.problems!r} is not a problem "
                               "set's name (GAME:SPEC) nor a sequence of them")
        object.__setattr__(self, "problems", tuple(problems))
        depths: object = self.depths
        if isinstance(depths, int) and not isinstance(depths, bool):
            depths = (depths,)
        if depths is not None and (isinstance(depths, str) or not isinstance(depths, Sequence)
                                   or not all(isinstance(d, int) and not isinstance(d, bool)
                                              for d in depths)):
            raise HarnessError(f"ExperimentConfig.depths: {self.depths!r} is not a depth nor a "
                               "sequence of depths (whole numbers), nor None")
        object.__setattr__(self, "depths", None if depths is None else tuple(depths))
        if not isinstance(self.variants, str):
            raise HarnessError(f"ExperimentConfig.variants: {self.variants!r} is not a list of "
                               "variants as text ('pvs,negascout', 'all')")
        if not isinstance(self.switches, Switches):
            raise HarnessError(f"ExperimentConfig.switches: {self.switches!r} is not a Switches")
        engines: object = (self.engines,) if isinstance(self.engines, str) else self.engines
        if not isinstance(engines, Sequence) or not all(isinstance(e, str) for e in engines):
            raise HarnessError(f"ExperimentConfig.engines: {self.engines!r} is not a sequence of "
                               "engine specs (NAME=COMMAND[,Option=Value...])")
        object.__setattr__(self, "engines", tuple(engines))
        for name in ("max_nodes", "limit", "engine_nodes"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise HarnessError(f"ExperimentConfig.{name}: {value!r} is not a whole number "
                                   "nor None")

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.engines:
            # A run without engines is recorded (and hashed) as before they existed.
            for key in ("engines", "engine_nodes", "engine_timeout"):
                data.pop(key)
        else:
            data["engines"] = list(self.engines)
        data["problems"] = list(self.problems)
        data["depths"] = None if self.depths is None else list(self.depths)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExperimentConfig:
        """The configuration :meth:`as_dict` recorded (in ``run.json``)."""
        try:
            values = _from_version_1(dict(data))
            values["problems"] = tuple(values.get("problems", ()))
            values["engines"] = tuple(values.get("engines", ()))
            if values.get("depths") is not None:
                values["depths"] = tuple(values["depths"])
            values["switches"] = switches_from_json(values.get("switches", {}))
            values.setdefault("own_tables", True)   # recorded before tables were shared
            return cls(**values)
        except TypeError as exc:
            raise HarnessError(f"run.json: configuration not understood: {exc}") from None


def _from_version_1(values: dict[str, Any]) -> dict[str, Any]:
    """A configuration of schema version 1 (separate tree files, specs and suites; chess's
    move ordering among the switches) as version 2 names it."""
    if "problems" in values:
        return values
    switches = dict(values.get("switches", {}))
    ordering = {key: switches.pop(key, default) for key, default in
                (("mvv_lva", True), ("killers", False), ("history", False))}
    chess = "".join(f",{key}={int(value)}" for key, value in ordering.items()
                    if value != (key == "mvv_lva"))
    values["switches"] = switches
    values["problems"] = [*(f"tree:{path}" for path in values.pop("tree_files", ())),
                          *values.pop("tree_specs", ()),
                          *(f"chess:{name}{chess}" for name in values.pop("suites", ()))]
    return values


@dataclass
class Plan:
    """A validated configuration: every problem and variant resolved, nothing searched."""

    problems: Sequence[Problem]
    """Every problem, in order, made as it is reached (:func:`chained`): its length is
    known, its problems are not held."""
    variants: list[VariantSpec]
    """Every variant with its options."""
    suites: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What run.json records about each problem set (game, options, path, sha256...)."""
    columns: tuple[str, ...] = ROW_COLUMNS
    """The columns of ``results.csv``: every run's, then those its games add."""
    switches: Switches = Switches()
    """The switches every search runs with: the configuration's, with the shared table
    (see :func:`shared_table`)."""
    engines: list[EngineSpec] = field(default_factory=list)
    """The UCI engines searched beside the variants (none: a run of variants only)."""
    engine_limits: EngineLimits = EngineLimits()
    """How every engine's search is limited beside its depth."""


def shared_table(switches: Switches, variants: list[VariantSpec], own_tables: bool) -> Switches:
    """``switches`` with a table for every variant when one of ``variants`` brings its own
    and none was asked for (unless ``own_tables``): the same size it brings."""
    if own_tables or switches.tt_size or not any(spec.variant.uses_table for spec in variants):
        return switches
    return replace(switches, tt_size=DEFAULT_SIZE)


def plan_experiment(config: ExperimentConfig, progress: Listener | None = None) -> Plan:
    """Resolve and check everything a run needs, so bad input fails before any search.

    A problem set is read as far as the run goes, and no further: to its ``--limit``,
    else through (checking every line, keeping none), so a bad line the run would meet
    stops it now. ``progress`` hears what is being read when that takes a while."""
    switches = config.switches
    if switches.tt_size < 0:
        raise HarnessError(f"--tt {switches.tt_size}: a table size cannot be negative")
    if (switches.tt_leaves or switches.tt_narrow) and not switches.tt_size:
        flag = "--tt-leaves" if switches.tt_leaves else "--tt-narrow"
        raise HarnessError(f"{flag} needs a table: give --tt SIZE")
    if switches.null_move < 0:
        raise HarnessError(f"--null-move {switches.null_move}: a reduction cannot be negative")
    # A run of engines alone (an engine's ablation) names no variant.
    variants = parse_variants(config.variants) if config.variants or not config.engines else []
    for depth in config.depths or ():
        check_depth(depth)
    if config.max_nodes is not None and config.max_nodes < 1:
        raise HarnessError(f"--max-nodes {config.max_nodes}: needs at least 1")
    if config.limit is not None and config.limit < 1:
        raise HarnessError(f"--limit {config.limit}: needs at least 1")
    if not config.problems:
        raise HarnessError("nothing to search: give --problems GAME:SPEC (or --suite EPD, "
                           "--trees SPEC, --tree FILE)")
    parts: list[tuple[Sequence[Problem], int]] = []
    suites: dict[str, dict[str, Any]] = {}
    games: list[str] = []
    listener = progress or Listener()
    upto = "" if config.limit is None else f" (up to --limit {config.limit})"
    for text in config.problems:
        game = parse_problem_name(text).game
        with (blamed(Running(game)),            # a plug-in's load or check that raises
              announced(listener, f"reading {text}{upto} before the first search")):
            found = load_problems(text, config.skip_invalid)
            game.check(found, config.depths)
            count = count_problems(found.problems, config.limit)
            record = with_sha256(found.record)
        if found.name in suites:
            raise HarnessError(f"two problem sets are called {found.name} (results are keyed by "
                               "problem set and id): give each once")
        suites[found.name] = {**record, "problems": count}
        parts.append((found.problems, count))
        games += [] if game.name in games else [game.name]
    _check_distinct(chain.from_iterable(problems[:count] for problems, count in parts
                                        if not isinstance(problems, ProblemStream)))
    if not config.profile:      # a profile's switches serve the games that offer them
        _warn_unoffered(switches, games)
    warn_infeasible([problems[0] for problems, count in parts if count], config.depths,
                    config.max_nodes)
    columns = [*ROW_COLUMNS]
    for name in games:
        columns += [c for c in find_game(name).columns if c not in columns]
    engines, limits = _plan_engines(config, variants, games)
    return Plan(chained(parts), variants, suites, tuple(columns),
                shared_table(switches, variants, config.own_tables), engines, limits)


def _plan_engines(config: ExperimentConfig, variants: list[VariantSpec],
                  games: list[str]) -> tuple[list[EngineSpec], EngineLimits]:
    """The run's engines, parsed and checked against the rest of it (not yet started):
    chess problems only, names apart from the variants', ``--nodes`` only with engines."""
    engines = parse_engines(config.engines)
    if not engines:
        if config.engine_nodes is not None:
            raise HarnessError(f"--nodes {config.engine_nodes}: limits the engines' searches, and "
                               "no --engine is given (the harness's own: --max-nodes)")
        return [], EngineLimits()
    others = [g for g in games if g != "chess"]
    if others:
        raise HarnessError(f"--engine {engines[0].name}: UCI engines search chess positions, "
                           f"and this run has {', '.join(others)} problems")
    labels = {spec.label for spec in variants}
    for spec in engines:
        if spec.name in labels:
            raise HarnessError(f"--engine {spec.name}: a variant of this run has that name (it "
                               "keys the rows): name the engine otherwise")
    if config.engine_nodes is not None and config.engine_nodes < 1:
        raise HarnessError(f"--nodes {config.engine_nodes}: needs at least 1")
    if not config.engine_timeout > 0:
        raise HarnessError(f"--engine-timeout {config.engine_timeout:g}: needs more than 0 seconds")
    return engines, EngineLimits(config.engine_nodes, config.engine_timeout)


def _check_distinct(problems: Iterable[Problem]) -> None:
    """Refuse two of ``problems`` (those of lists: a stream's ids are distinct, and sets
    are by name) with the same set and id."""
    seen: set[tuple[str, str]] = set()
    for problem in problems:
        if (problem.suite, problem.problem_id) in seen:
            raise HarnessError(f"two problems are called {problem.suite} {problem.problem_id} "
                               "(results are keyed by problem set and id)")
        seen.add((problem.suite, problem.problem_id))


def chained(parts: Sequence[tuple[Sequence[Problem], int]]) -> ProblemStream:
    """The first ``count`` problems of each set of ``parts``, one after the other, made as
    they are reached."""
    def make() -> Iterator[Problem]:
        return chain.from_iterable(islice(problems, count) for problems, count in parts)

    def item(index: int) -> Problem:
        for problems, count in parts:
            if index < count:
                return problems[index]
            index -= count
        raise IndexError(index)

    return ProblemStream(make, sum(count for _, count in parts), item)


def with_sha256(record: dict[str, Any]) -> dict[str, Any]:
    """A problem set's record with the sha256 of its file, when it names one (``path``) and
    its game did not hash it: a resume refuses a file changed since the run began."""
    path = Path(str(record.get("path", "")))
    if "sha256" in record or not record.get("path") or not path.is_file():
        return record
    return {**record, "sha256": file_sha256(path)}


FEATURE_FLAGS = {"null_move": "--null-move", "check_extension": "--check-extension",
                 "selectivity": "--lmr, --lmp, --futility, --reverse-futility, --razoring, "
                                "--mate-distance"}
"""The frame features a user turns on, by the option that does it (internal iterative
deepening needs a table only: every game has it)."""


def _turned_on(switches: Switches, feature: str) -> bool:
    if feature == "selectivity":
        return bool(switches.selectivity.pruning())
    return bool(getattr(switches, feature))


def _warn_unoffered(switches: Switches, games: list[str]) -> None:
    """A warning for a feature turned on that no game of the run offers (it would do
    nothing: the search goes on without it)."""
    for feature, flag in FEATURE_FLAGS.items():
        offered = [g for g in games if feature in find_game(g).features]
        if _turned_on(switches, feature) and not offered:
            warnings.warn(f"{flag}: no problem of this run offers {FEATURES[feature]}; it does "
                          f"nothing here ({', '.join(games)})", UserWarning, stacklevel=3)


def parse_window(text: str) -> tuple[int, int]:
    """``--window LO,HI``: a root window with ``LO < HI``."""
    lo, comma, hi = text.partition(",")
    try:
        window = (int(lo), int(hi))
    except ValueError:
        raise HarnessError(f"--window {text!r} is not LO,HI (two integers)") from None
    if not comma or window[0] >= window[1]:
        raise HarnessError(f"--window {text}: needs LO < HI")
    return window


def parse_depths(text: str) -> tuple[int, ...]:
    """``--depth N`` or ``A-B`` (inclusive) as a tuple of depths, each one a search can go
    (checked before the range is built: ``1-10000000000`` must not fill the memory)."""
    lo, sep, hi = text.partition("-")
    try:
        first = int(lo)
        last = int(hi) if sep else first
    except ValueError:
        raise HarnessError(f"--depth {text!r} is not N or A-B") from None
    if first > last:
        raise HarnessError(f"--depth {text!r}: the range is empty")
    for depth in (first, last):
        if not 1 <= depth <= MAX_DEPTH:
            raise HarnessError(f"--depth {text}: depth {depth} is impossible (the harness searches "
                               f"1 to {MAX_DEPTH} plies deep)")
    return tuple(range(first, last + 1))
