"""A UCI engine as a side of a match (``harness match pvs 'sf=stockfish'``): checked before
the first game, then asked for each of its moves with the game so far.

Each move is one search by the engine's own program under the side's budget: ``go nodes
N`` (Stockfish overshoots N by a few dozen nodes; refused, in one line, for an engine that
ignores it), ``go depth D``, or its clock (``go wtime ... winc ...``, its own clock given
for both colours: the harness keeps one clock per side). Before every move the engine gets
``ucinewgame`` and a cleared hash, as the harness's side searches each move afresh, and the
position as ``position fen OPENING moves ...``: the game's moves, so a repetition is the
engine's to see as it is the harness's. With one thread a node or depth budget gives the
same move every time: the match replays the same games (:mod:`harness.engines.session`).

A fault on a move (no ``bestmove`` within the timeout, the process dying twice, an illegal
or no move) is an :class:`EngineFault`: one line naming the engine, the game and the
reason. The match stops there; the pairs already played stay in ``games.csv`` and
``harness match --resume`` plays the interrupted pair again. A forfeit would count a
program's fault as a chess result.

This module knows nothing of the match's values (:mod:`harness.match.play` imports it): a
budget reaches it as plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.engines.probe import check_engine
from harness.engines.session import ILLEGAL_MOVE, EngineLimits, EngineSearch, EngineSession
from harness.engines.spec import EngineSpec, parse_engine
from harness.errors import HarnessError

if TYPE_CHECKING:
    import chess
    import chess.engine

ENGINE_TIMEOUT = 60.0
"""Seconds an engine's move may take by default before the engine is taken for hung."""

DEEP = 99
"""The depth given beside a node budget in the check before a match: the nodes decide."""

LADDER_ENGINE = "stockfish=stockfish"
"""The engine of the calibration ladder unless ``--ladder-engine`` names another."""


class EngineFault(HarnessError):
    """An engine failed on a move of a match: the match stops, its pairs kept."""


def is_engine_side(text: str) -> bool:
    """Whether a side as typed names an engine (``NAME=COMMAND[,Option=Value]``) rather than
    a variant: the text before its first ``=`` is a bare name, where a variant's options
    come after a colon (``pvs:zw_min_depth=3``)."""
    name, equals, _ = text.partition("=")
    return bool(equals) and ":" not in name and "@" not in name


def engine_spec(text: str, where: str) -> EngineSpec:
    """The spec of an engine side, its errors naming the side (``where``: ``side B``)."""
    try:
        return parse_engine(text)
    except HarnessError as exc:
        raise HarnessError(str(exc).replace("--engine", where, 1)) from None


@dataclass(frozen=True)
class EngineMove:
    """What an engine's search for a move gave."""

    move: str
    """The ``bestmove`` in UCI notation."""
    score: int | None
    """Its last score, from the side to move, as the harness writes chess scores."""
    depth: int
    """The depth it reached (``info depth``; 0 where it did not say)."""
    nodes: int
    """The nodes it says it searched (its quiescence included; 0 where it did not say)."""
    seconds: float
    """Its own ``info time``, else the wall time of the search seen from here."""


def engine_limit(kind: str, nodes: int, depth: int, clock: float,
                 increment: float) -> chess.engine.Limit:
    """A side's budget (``kind`` ``nodes``, ``depth`` or ``time``) as python-chess's limit."""
    import chess.engine

    if kind == "nodes":
        return chess.engine.Limit(nodes=nodes)
    if kind == "depth":
        return chess.engine.Limit(depth=depth)
    left = max(clock, 0.001)
    return chess.engine.Limit(white_clock=left, black_clock=left, white_inc=increment,
                              black_inc=increment)


class EnginePlayer:
    """An engine's process for the games of a pair: started at once (an
    :class:`EngineFault` naming it when it cannot be), asked with :meth:`move`, ended with
    :meth:`close`."""

    def __init__(self, spec: EngineSpec, timeout_s: float) -> None:
        self.spec = spec
        try:
            self.session = EngineSession(spec, EngineLimits(timeout_s=timeout_s))
        except HarnessError as exc:
            # Checked before the first game, gone now: a fault of the match, its pairs kept.
            raise EngineFault(str(exc)) from None

    def move(self, board: chess.Board, limit: chess.engine.Limit, where: str) -> EngineMove:
        """The engine's move at ``board`` (its move stack the game so far) under ``limit``;
        ``where`` names the game and ply in a fault's line."""
        found = self.session.search_board(board, limit, playing=True)
        if found.status == "ok" and found.best_move:
            return EngineMove(found.best_move, found.score, found.depth or 0, found.nodes or 0,
                              found.time_s)
        raise EngineFault(f"engine {self.spec.name} ({self.session.id_name or 'no id'}) {where}: "
                          f"{fault_reason(found)}")

    def close(self) -> None:
        self.session.close()


def fault_reason(found: EngineSearch) -> str:
    """Why an engine's search gave no move to play, in a few words."""
    if found.status == "timeout":
        return f"hung ({found.reason}; the engine was killed)"
    if found.status == "crashed":
        return found.reason if ILLEGAL_MOVE in found.reason else f"crashed ({found.reason})"
    return "gave no move (bestmove (none)) in a position with legal moves"


def check_engine_side(spec: EngineSpec, kind: str, nodes: int, depth: int, fen: str,
                      where: str, timeout_s: float, clock: tuple[float, float] = (0.0, 0.0),
                      advice: str = "give it a depth budget per move (--depth D)",
                      ) -> tuple[dict[str, Any], str]:
    """Before a match: the engine started and configured, ``go nodes`` tried under a node
    budget (an engine that ignores it refused: give it ``--depth``), and the opening
    ``fen`` (named ``where``) searched twice under the budget. What ``run.json`` records of
    the engine, and the determinism warning (empty when the two searches agree); ``clock``:
    the seconds and increment of a time budget, as recorded; ``advice``: what the line
    refusing an engine that ignores ``go nodes`` ends with."""
    limits = EngineLimits(nodes=nodes if kind == "nodes" else None, timeout_s=timeout_s)
    searched = DEEP if kind == "nodes" else depth if kind == "depth" else 1
    checked = check_engine(spec, limits, fen, searched, where, advice)
    record = checked.record | {"budget": {"nodes": nodes} if kind == "nodes" else
                               {"depth": depth} if kind == "depth" else
                               {"clock_s": clock[0], "increment_s": clock[1]}}
    return record, checked.warning
