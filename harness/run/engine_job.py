"""A job's searches by UCI engines: one problem, every engine at every depth, as rows of
``results.csv`` beside the variants' (their ``subject`` and ``frame`` ``engine``, the
harness's own counters left empty: :data:`harness.results.NOT_MEASURED`).

Each engine is started for the job and ended after it (a new game and a cleared hash
before every search all the same, :mod:`harness.engines.session`); an engine that can no
longer be started gives ``crashed`` rows, and the run goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.engines.session import EngineLimits, EngineSearch, EngineSession
from harness.engines.spec import EngineSpec
from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.chess.game import position_of
from harness.games.registry import find_game
from harness.results import ENGINE, NOT_MEASURED
from harness.run.executors import report_step


def engine_rows(problem: Problem, engines: Sequence[EngineSpec], limits: EngineLimits,
                depths: tuple[int, ...]) -> list[dict[str, Any]]:
    """Every engine of ``engines`` at every depth of ``depths`` on the chess ``problem``."""
    game = find_game(problem.game)
    fen = position_of(problem).fen
    rows: list[dict[str, Any]] = []
    for spec in engines:
        session: EngineSession | None = None
        failed = ""
        try:
            session = EngineSession(spec, limits)
        except HarnessError as exc:
            failed = str(exc)               # present before the run, gone now: its rows say so
        try:
            for depth in depths:
                found = (session.search(fen, depth) if session is not None else
                         EngineSearch("crashed", None, 0.0, None, None, None, "none", "", (), failed))
                report_step()
                judged = game.judge(problem, found.best_move, found.score, found.bound)
                rows.append({
                    "game": problem.game, "suite": problem.suite, "problem_id": problem.problem_id,
                    "variant": spec.name,
                    "options": ",".join(f"{key}={value}" for key, value in spec.options),
                    "depth": depth, **dict.fromkeys(NOT_MEASURED, ""),
                    "score": "" if found.score is None else found.score, "bound": found.bound,
                    "best_move": found.best_move, "pv": " ".join(found.pv),
                    "solved": "" if judged is None else int(judged), "status": found.status,
                    "nodes": "" if found.nodes is None else found.nodes,
                    "minimal_leaves": "", "minimal_source": "", "subject": ENGINE,
                    "depth_reached": "" if found.depth is None else found.depth,
                    "seldepth": "" if found.seldepth is None else found.seldepth,
                    "time_s": round(found.time_s, 6), "frame": ENGINE,
                    **game.columns_for(problem, found.best_move),
                })
        finally:
            if session is not None:
                session.close()
    return rows
