"""A match between two search configurations: game pairs from a suite's openings, a
progress line per pair, a stop at an SPRT bound or a game limit, and the files.

Pair ``k`` plays opening ``k`` (under a clock, where the games differ from one run to the
next, ``k mod n``: the openings again from the first), side A first in its first game and
side B first in its second. Pairs may finish in any
order on several workers, but they are counted, tested and written in their order, and
the match stops at the first pair whose LLR crosses a bound: ``--jobs 2`` and Dask give
the games of ``--jobs 1``, and a match resumed after a kill replays none it has and gives
the same games after them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from harness.errors import HarnessError
from harness.games.base import Problem, ProblemSet
from harness.games.registry import load_problems, parse_problem_name
from harness.lock import hold_folder
from harness.match.calibrate import Calibration, calibrate, calibration_depth, predict
from harness.match.engine_side import EngineFault, check_engine_side
from harness.match.ladder import place, play_ladder
from harness.match.link import Link, link
from harness.match.pairs import Progress, Tally, play_pairs
from harness.match.record import GAMES_FILE, PGN_FILE, GamesWriter, read_pairs, write_pgn
from harness.match.rules import check_playable
from harness.match.settings import (
    SCHEMA_VERSION,
    MatchConfig,
    MatchResult,
    config_from_json,
)
from harness.match.summary import write_report
from harness.results import (
    RUN_FILE,
    environment,
    load_run_info,
    now,
    refuse_other_output,
    write_run_info,
)
from harness.run.executors import Execution


def load_openings(config: MatchConfig) -> ProblemSet:
    """The openings, refused with one line when their game cannot be played or they are
    fewer than the games asked for."""
    game = parse_problem_name(config.problems).game.name
    check_playable(game)
    engines = [f"side {name} {config.sides['AB'.index(name)].label}"
               for name in config.engine_sides]
    engines += [f"the ladder's {config.ladder_engine.name}"] if config.ladder_engine else []
    if engines and game != "chess":
        raise HarnessError(f"{config.problems}: {engines[0]} is a UCI engine, which plays chess "
                           f"only (give chess openings, e.g. --problems chess:bench.epd)")
    loaded = load_problems(config.problems)
    if not loaded.problems:
        raise HarnessError(f"{config.problems}: no openings")
    pairs_of(config, len(loaded.problems))
    return loaded


def pairs_of(config: MatchConfig, openings: int) -> int:
    """The most pairs the match plays from ``openings`` openings: ``--games`` halved, else
    one per opening. More pairs than openings only under a clock: under a node or depth
    budget an opening played again gives the same games, copies and not evidence."""
    pairs = config.games // 2 if config.games is not None else openings
    if pairs < 1:
        raise HarnessError(f"--games {config.games}: a match plays at least one pair (2 games)")
    if pairs > openings and config.budget.kind != "time":
        raise HarnessError(f"--games {config.games}: {config.problems} has {openings} openings, "
                           f"at most {2 * openings} games: under a {config.budget.kind} budget an "
                           f"opening played again gives the same games (copies, not evidence)")
    return pairs


def run_match(config: MatchConfig, out: Path, execution: Execution = Execution(),
              on_pair: Callable[[Progress], None] | None = None, resume: bool = False) -> MatchResult:
    """Play the match into ``out`` (``resume``: continue the one there); ``on_pair`` hears
    of each pair, the calibration's too."""
    openings = load_openings(config)
    problems = list(openings.problems)
    pairs = pairs_of(config, len(problems))
    if resume:
        _check_same_openings(out, openings)
    engines, warnings = check_engines(config, problems[0])
    if resume:
        _check_same_engines(out, engines)
    # An engine's nodes are another program's and its answers its own: no link to it.
    checked = (link(problems[:pairs], config.sides, config.link_depth)
               if config.link_depth and not config.engine_sides else None)
    if checked is not None and checked.disagreements:
        raise Disagreement(f"the exact sides disagree at depth {checked.depth} on "
                           f"{len(checked.disagreements)} opening(s), a bug to report, not a "
                           f"match: {checked.disagreements[0]}")
    with hold_folder(out):
        return _play_match(config, out, execution, on_pair, resume, openings, pairs, checked,
                           (engines, warnings))


def check_engines(config: MatchConfig, first: Problem) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Each engine of the match (its sides', the ladder's) checked on the first opening
    under its budget (:func:`check_engine_side`): the records ``run.json`` keeps by ``a``,
    ``b`` or ``ladder``, and the determinism warnings."""
    from harness.games.chess.game import position_of

    if not config.engine_sides and config.ladder_engine is None:
        return {}, []
    fen, budget = position_of(first).fen, config.budget
    records: dict[str, dict[str, Any]] = {}
    warnings = []
    for key, side in zip("ab", config.sides, strict=True):
        if side.engine is not None:
            records[key], warning = check_engine_side(
                side.engine, budget.kind, budget.nodes, budget.depth, fen, first.problem_id,
                side.engine_timeout, (budget.seconds, budget.increment))
            warnings += [warning] if warning else []
    if config.ladder_engine is not None:
        records["ladder"], warning = check_engine_side(
            config.ladder_engine, "nodes", config.ladder[0], 0, fen, first.problem_id,
            config.engine_timeout, advice="the ladder's rungs are go nodes: name an engine that "
            "honours it with --ladder-engine (Stockfish, Glaurung)")
        records["ladder"]["rungs"] = list(config.ladder)
        warnings += [warning] if warning else []
    return records, warnings


def _check_same_engines(out: Path, engines: dict[str, dict[str, Any]]) -> None:
    """Refuse to resume with an engine whose ``id name`` (its version) changed since the
    match began: its moves would not be the same."""
    recorded = load_run_info(out).get("engines") or {}
    for key, record in engines.items():
        before = (recorded.get(key) or {}).get("id_name")
        if before is not None and before != record["id_name"]:
            raise HarnessError(f"{out / RUN_FILE}: engine {record['name']} was {before!r} when the "
                               f"match began and is {record['id_name']!r} now: resuming would not "
                               "give the same games")


def _play_match(config: MatchConfig, out: Path, execution: Execution,
                on_pair: Callable[[Progress], None] | None, resume: bool, openings: ProblemSet,
                pairs: int, checked: Link | None,
                engines: tuple[dict[str, dict[str, Any]], list[str]]) -> MatchResult:
    """:func:`run_match` once the openings are checked and the folder is held."""
    problems = list(openings.problems)
    labels = (config.sides[0].name, config.sides[1].name)
    refuse_other_output(out, "match", "--resume finishes a match of harness match" if resume
                        else "choose another --out")
    if not resume and ((out / GAMES_FILE).exists() or (out / RUN_FILE).exists()):
        raise HarnessError(f"{out}: already holds a run; choose another --out, or finish it "
                           f"with --resume {out}")
    done = read_pairs(out / GAMES_FILE) if resume else []
    info = {"schema_version": SCHEMA_VERSION, "command": "match", "started": now(),
            "config": config.as_json(), "openings": openings.record | {"name": openings.name,
                                                                         "count": len(problems)},
            "environment": environment(), "engines": engines[0], "engine_warnings": engines[1]}
    if resume:
        info["started"] = load_run_info(out).get("started", info["started"])
    write_run_info(out, info | {"status": "running"})
    writer = GamesWriter(out / GAMES_FILE, labels)
    tally = Tally(config.sprt)
    for first, second, _ in done:
        tally.add(first, second)
    try:
        progress = play_pairs(problems, config.sides, (config.budget, config.budget),
                              config.rules, tally, pairs, writer, execution, on_pair)
    except EngineFault as exc:
        kept = len(read_pairs(out / GAMES_FILE))
        write_run_info(out, info | {"status": "engine_fault", "fault": str(exc)})
        raise EngineFault(f"{exc}: the match stopped; its {kept} finished pair(s) are in "
                          f"{out / GAMES_FILE} (harness match --resume {out} plays on)") from None
    rows = [row for _, _, kept in read_pairs(out / GAMES_FILE) for row in kept]
    if parse_problem_name(config.problems).game.name == "chess":
        write_pgn(out / PGN_FILE, rows, {p.problem_id: p for p in problems},
                  f"harness match {labels[0]} vs {labels[1]}")
    cost = _cost(rows)
    reasons: dict[str, int] = {}
    for row in rows:
        reasons[row["reason"]] = reasons.get(row["reason"], 0) + 1
    calibration = prediction = None
    if config.calibrate and checked is not None and progress.pair:
        depth = calibration_depth([float(r["mean_depth_a"]) for r in rows if r["mean_depth_a"]],
                                  config.budget)
        calibration = calibrate(problems, config.sides[0], depth, progress.pair, config.rules,
                                execution, out, on_pair)
        prediction = predict(checked, calibration, progress.estimate)
    rungs = []
    if config.ladder_engine is not None:
        try:
            rungs = play_ladder(problems, config.sides[0], config.budget, config.ladder_engine,
                                config.ladder, config.engine_timeout, pairs, config.rules,
                                execution, out, resume, on_pair)
        except EngineFault as exc:
            write_run_info(out, info | {"status": "engine_fault", "fault": str(exc)})
            raise EngineFault(f"{exc}: the ladder stopped; the match and the ladder's finished "
                              f"pairs are in {out} (harness match --resume {out} plays on)") from None
    result = MatchResult(config, progress, checked, progress.decision or "games", cost, reasons,
                         calibration, prediction, _frames(rows), engines[0], engines[1], rungs,
                         None if not rungs or config.ladder_engine is None
                         else place(rungs, config.ladder_engine.name))
    write_run_info(out, info | {"status": result.stopped, "finished": now(),
                                "result": result_json(result)})

    write_report(out, result, rows)
    return result


class Disagreement(HarnessError):
    """The exact sides disagree on an opening's value: a bug to report, not a match (the
    command exits with :data:`harness.errors.DISAGREEMENT_EXIT`)."""


def _check_same_openings(out: Path, openings: ProblemSet) -> None:
    """Refuse to resume on openings that changed since the match began (other games)."""
    recorded = load_run_info(out).get("openings", {})
    for key in ("sha256", "count"):
        now_ = openings.record.get(key) if key == "sha256" else len(openings.problems)
        if key in recorded and recorded[key] != now_:
            raise HarnessError(f"{out / RUN_FILE}: the openings changed since the match began "
                               f"({key} differs): resuming would not give the same games")


def recorded_config(out: Path) -> MatchConfig:
    """The configuration of the match in ``out``; one line naming its ``run.json`` when
    the folder holds no match."""
    info = load_run_info(out)
    if info.get("command") == "match" and info.get("schema_version") != SCHEMA_VERSION:
        raise HarnessError(f"{out / RUN_FILE}: a match of schema version "
                           f"{info.get('schema_version')!r}; this harness resumes version "
                           f"{SCHEMA_VERSION} (each side's frame recorded): play it again with "
                           "another --out")
    if info.get("command") != "match":
        raise HarnessError(f"{out / RUN_FILE}: not a match's configuration (schema "
                           f"{SCHEMA_VERSION} of harness match)")
    return config_from_json(info["config"])


def resume_match(out: Path, execution: Execution = Execution(),
                 on_pair: Callable[[Progress], None] | None = None,
                 config: MatchConfig | None = None) -> MatchResult:
    """Finish the match in ``out`` with the configuration it recorded (``config``: that
    configuration as read and amended, :func:`with_engine_timeout`)."""
    return run_match(config or recorded_config(out), out, execution, on_pair, resume=True)


def with_engine_timeout(config: MatchConfig, seconds: float) -> MatchConfig:
    """``config`` with every engine's move allowed ``seconds`` (a resumed match's
    ``--engine-timeout``: a hung engine given longer; the games stay the same)."""
    sides = tuple(replace(side, engine_timeout=seconds) if side.engine is not None else side
                  for side in config.sides)
    return replace(config, sides=(sides[0], sides[1]), engine_timeout=seconds)


def _cost(rows: list[dict[str, str]]) -> tuple[float | None, float | None]:
    costs: list[float | None] = []
    for side in ("a", "b"):
        work = sum(int(r[f"work_{side}"]) for r in rows)
        seconds = sum(float(r[f"seconds_{side}"]) for r in rows)
        costs.append(seconds / work if work else None)
    return (costs[0], costs[1])


def _frames(rows: list[dict[str, str]]) -> tuple[str, str]:
    """The frames each side's searches ran in over the games ``rows``, ``+`` between several."""
    found: list[str] = []
    for side in ("a", "b"):
        frames = dict.fromkeys(f for r in rows for f in r[f"frame_{side}"].split("+") if f)
        found.append("+".join(frames))
    return (found[0], found[1])


def result_json(result: MatchResult) -> dict[str, Any]:
    """What ``run.json`` records of the result."""
    progress = result.progress
    elo = progress.estimate
    wins, draws, losses = progress.points
    checked = result.link
    return {
        "stopped": result.stopped, "pairs": progress.pair,
        "wins": wins, "draws": draws, "losses": losses,
        "pentanomial": list(progress.counts.counts), "llr": progress.llr,
        "llr_bounds": list(result.config.sprt.bounds),
        "elo": None if elo is None else {"elo": elo.elo, "error": _error(elo.elo_error),
                                         "nelo": elo.nelo, "nelo_error": _error(elo.nelo_error),
                                         "interval_undefined": elo.undefined or None,
                                         "los": elo.los, "score": elo.score},
        "seconds_per_node": {"a": result.cost[0], "b": result.cost[1]},
        "frames": {"a": result.frames[0], "b": result.frames[1]},
        "endings": result.reasons,
        "link": None if checked is None else {
            "depth": checked.depth, "openings": checked.openings,
            "nodes_a": checked.nodes[0], "nodes_b": checked.nodes[1], "ratio": checked.ratio,
            "branching": checked.branching},
        "calibration": None if result.calibration is None else _calibration_json(result.calibration),
        "prediction": None if result.prediction is None else asdict(result.prediction),
        "engine_sides": result.config.engine_sides,
        "engines": result.engines, "engine_warnings": result.warnings,
        "ladder": None if result.placement is None else _ladder_json(result),
    }


def _ladder_json(result: MatchResult) -> dict[str, Any]:
    """The ladder as ``run.json`` records it: each rung's results and A's place."""
    placement = result.placement
    assert placement is not None and result.config.ladder_engine is not None
    rungs = []
    for rung in result.ladder:
        elo = rung.progress.estimate
        wins, draws, losses = rung.progress.points
        rungs.append({"nodes": rung.nodes, "pairs": rung.progress.pair, "wins": wins,
                      "draws": draws, "losses": losses,
                      "pentanomial": list(rung.progress.counts.counts),
                      "elo": None if elo is None else _finite(elo.elo),
                      "error": None if elo is None else _error(elo.elo_error),
                      "interval_undefined": None if elo is None else elo.undefined or None})
    return {"engine": result.config.ladder_engine.name, "rungs": rungs,
            "placement": {"nodes": placement.nodes, "low": placement.low,
                          "high": placement.high, "text": placement.text}}


def _finite(value: float) -> float | str:
    """An Elo for JSON: infinite ones (every game won or lost) as ``inf``/``-inf`` text."""
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def _calibration_json(calibration: Calibration) -> dict[str, Any]:
    progress = calibration.progress
    elo = progress.estimate
    return {"depth": calibration.depth, "pairs": progress.pair,
            "pentanomial": list(progress.counts.counts),
            "elo_per_ply": None if elo is None else elo.elo,
            "elo_per_ply_error": None if elo is None else _error(elo.elo_error)}


def _error(half_width: float) -> float | None:
    """An interval's half-width for JSON: ``None`` where undefined (NaN is not JSON)."""
    return None if math.isnan(half_width) else half_width
