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
from dataclasses import asdict
from pathlib import Path
from typing import Any

from harness.errors import HarnessError
from harness.games.base import ProblemSet
from harness.games.registry import load_problems, parse_problem_name
from harness.lock import hold_folder
from harness.match.calibrate import Calibration, calibrate, calibration_depth, predict
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
    check_playable(parse_problem_name(config.problems).game.name)
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
    checked = link(problems[:pairs], config.sides, config.link_depth) if config.link_depth else None
    if checked is not None and checked.disagreements:
        raise Disagreement(f"the exact sides disagree at depth {checked.depth} on "
                           f"{len(checked.disagreements)} opening(s), a bug to report, not a "
                           f"match: {checked.disagreements[0]}")
    with hold_folder(out):
        return _play_match(config, out, execution, on_pair, resume, openings, pairs, checked)


def _play_match(config: MatchConfig, out: Path, execution: Execution,
                on_pair: Callable[[Progress], None] | None, resume: bool, openings: ProblemSet,
                pairs: int, checked: Link | None) -> MatchResult:
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
            "environment": environment()}
    if resume:
        info["started"] = load_run_info(out).get("started", info["started"])
    write_run_info(out, info | {"status": "running"})
    writer = GamesWriter(out / GAMES_FILE, labels)
    tally = Tally(config.sprt)
    for first, second, _ in done:
        tally.add(first, second)
    progress = play_pairs(problems, config.sides, (config.budget, config.budget), config.rules,
                          tally, pairs, writer, execution, on_pair)
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
    result = MatchResult(config, progress, checked, progress.decision or "games", cost, reasons,
                         calibration, prediction, _frames(rows))
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
                 on_pair: Callable[[Progress], None] | None = None) -> MatchResult:
    """Finish the match in ``out`` with the configuration it recorded."""
    return run_match(recorded_config(out), out, execution, on_pair, resume=True)


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
    }


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
