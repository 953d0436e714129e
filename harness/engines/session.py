"""One UCI engine process, spoken to through python-chess's ``chess.engine``: started and
configured (one thread, 16 MB of hash where it offers them), asked one position at a time
after ``ucinewgame`` and a cleared hash, each search under a timeout; a hung engine is
killed, a crashed one started again once.

Every fault is one line naming the engine and the reason (a :class:`HarnessError` before a
run; a row's ``status`` during one): not found, not speaking UCI, an option rejected, a
search that does not end (``timeout``), a process that dies (``crashed``). GNU Chess dies on
``quit``: an engine that ends badly after its last search is not a fault.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import logging
import signal
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.engines.spec import EngineSpec, resolved_command
from harness.errors import HarnessError
from harness.games.chess.evaluation import MATE

if TYPE_CHECKING:
    import chess
    import chess.engine

START_TIMEOUT = 10.0
"""Seconds an engine has to answer ``uci`` with ``uciok`` (and ``isready``): longer is not a
UCI engine (``/bin/cat`` echoes ``uci`` and waits)."""

DEFAULT_OPTIONS = (("Threads", "1"), ("Hash", "16"), ("OwnBook", "false"))
"""What the harness sets where an engine offers it and the spec does not: one thread (node
counts repeat only single-threaded), 16 MB of hash (the same for every engine) and no
opening book (GNU Chess and Toga II use theirs by default: a book move is not a search)."""

CLEAR_HASH = "Clear Hash"
"""The button option that empties an engine's table (Stockfish, Toga II, Glaurung): pressed
before every search, beside ``ucinewgame``, so no search inherits another's table."""

ILLEGAL_MOVE = "illegal uci"
"""What python-chess's error for a ``bestmove`` that is not legal at the position says."""

STATUSES = ("ok", "timeout", "crashed")
"""The ``status`` of an engine's row: searched to its limit; stopped at the timeout (the
engine killed, started again for the next search); the engine died twice on the search."""


@dataclass(frozen=True)
class EngineLimits:
    """How every search of an engine in a run is limited, beside its depth."""

    nodes: int | None = None
    """``go nodes N`` as well as the depth (``None``: the depth alone); only for an engine
    that honours it (checked before the run)."""
    timeout_s: float = 120.0
    """Seconds a search may take before the engine is taken for hung: killed, its row
    ``timeout``, the run goes on."""

    def as_dict(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "timeout_s": self.timeout_s}


@dataclass(frozen=True)
class EngineSearch:
    """What one search of an engine reported (its last ``info`` and ``bestmove``)."""

    status: str
    """One of :data:`STATUSES`."""
    nodes: int | None
    """Nodes the engine says it searched (``None``: it did not say, or no result)."""
    time_s: float
    """Seconds: the engine's own ``info time`` where it gave one, else the wall time of the
    search as seen from here (ucinewgame and isready included)."""
    depth: int | None
    """The depth the engine reached (``info depth``)."""
    seldepth: int | None
    """The selective depth it reached (``info seldepth``), where it says it."""
    score: int | None
    """Centipawns from the side to move; a mate in ``p`` plies as the harness writes it,
    ``MATE - p`` (mated: ``-(MATE - p)``); ``None`` without a result."""
    bound: str
    """``exact``, ``lower`` or ``upper`` (``info ... lowerbound``), ``none`` without a score."""
    best_move: str
    """The ``bestmove`` in UCI notation; empty without one."""
    pv: tuple[str, ...] = field(default=())
    """The principal variation of the last ``info`` with one, in UCI notation."""
    reason: str = ""
    """Why a search has no result (a timeout, the engine's exit), one line; empty when ok."""


def harness_score(score: chess.engine.PovScore, turn: bool) -> int:
    """A python-chess score as the harness writes chess scores: centipawns from the side to
    move, a mate in ``n`` moves (UCI counts moves) as ``MATE - (2n - 1)`` plies, mated in
    ``n`` as ``-(MATE - 2n)``."""
    relative = score.pov(turn)
    mate = relative.mate()
    if mate is None:
        value = relative.score()
        assert value is not None
        return value
    if mate > 0:
        return MATE - (2 * mate - 1)
    return -(MATE - 2 * -mate)


class EngineSession:
    """A running engine: started and configured at once (a :class:`HarnessError` naming it
    when it cannot be), searched with :meth:`search`, ended with :meth:`close`.
    ``start_timeout``: seconds to wait for ``uciok`` (``None``: :data:`START_TIMEOUT`)."""

    def __init__(self, spec: EngineSpec, limits: EngineLimits = EngineLimits(),
                 start_timeout: float | None = None) -> None:
        self.spec = spec
        self.limits = limits
        self.start_timeout = START_TIMEOUT if start_timeout is None else start_timeout
        self.command = resolved_command(spec)
        """The command run: the program found, its arguments."""
        self.engine: chess.engine.SimpleEngine | None = None
        self.id_name = ""
        """The engine's ``id name`` (its name and version, as it says them)."""
        self.offered: dict[str, Any] = {}
        """Every option the engine offers (``chess.engine.Option`` by name)."""
        self.settings: dict[str, str] = {}
        """The options set: the spec's, then the defaults the harness set (where offered)."""
        self.restarts = 0
        """How often the engine was started again after a crash or a timeout."""
        self._start()

    def _start(self) -> None:
        import chess.engine

        logging.getLogger("chess.engine").setLevel(logging.CRITICAL)   # faults are said here
        if not any(isinstance(f, _ReapedLate) for f in logging.getLogger("asyncio").filters):
            logging.getLogger("asyncio").addFilter(_ReapedLate())
        where = f"engine {self.spec.name} ({' '.join(self.command)})"
        try:
            engine = chess.engine.SimpleEngine.popen_uci(self.command, timeout=self.start_timeout,
                                                         **_dies_with_us())
        except (TimeoutError, concurrent.futures.TimeoutError):
            raise HarnessError(f"{where}: does not speak UCI (no uciok within "
                               f"{self.start_timeout:g} s)") from None
        except chess.engine.EngineTerminatedError as exc:
            raise HarnessError(f"{where}: does not speak UCI (it exited before uciok: "
                               f"{exc})") from None
        except OSError as exc:
            raise HarnessError(f"{where}: cannot be started: {exc.strerror or exc}") from None
        except chess.engine.EngineError as exc:
            raise HarnessError(f"{where}: does not speak UCI ({exc})") from None
        # A killed engine's futures end with its death, which the search already said:
        # the engine's own event loop reports nothing more of it.
        engine.protocol.loop.call_soon_threadsafe(engine.protocol.loop.set_exception_handler,
                                                  _quiet)
        self.engine = engine
        self.id_name = str(engine.id.get("name", ""))
        self.offered = dict(engine.options)
        self._configure(engine, where)

    def _configure(self, engine: chess.engine.SimpleEngine, where: str) -> None:
        """Set the spec's options, then :data:`DEFAULT_OPTIONS` it leaves unset where offered;
        a name the engine lacks or a value it cannot take is one line naming both."""
        import chess.engine

        given = {key.lower() for key, _ in self.spec.options}
        wanted = [*self.spec.options,
                  *((key, value) for key, value in DEFAULT_OPTIONS
                    if key.lower() not in given and key in self.offered)]
        settings: dict[str, str] = {}
        for key, value in wanted:
            name = next((o for o in self.offered if o.lower() == key.lower()), None)
            if name is None:
                self.close()
                raise HarnessError(f"{where}: rejects option {key!r}: it offers no such option "
                                   f"(it offers: {', '.join(self.offered) or 'none'})")
            option = self.offered[name]
            try:
                engine.configure({name: _value(option, value)})
            except (chess.engine.EngineError, ValueError) as exc:
                self.close()
                raise HarnessError(f"{where}: rejects option {name}={value}: {exc}") from None
            settings[name] = value
        self.settings = settings

    def search(self, fen: str, depth: int) -> EngineSearch:
        """Search the position ``fen`` to ``depth`` (and the limits' nodes) after
        ``ucinewgame`` and a cleared hash. A search past the timeout kills the engine
        (``timeout``); an engine that dies is started again and asked once more, then its
        row says ``crashed``. The next search starts a new engine where need be."""
        import chess.engine

        return self.search_limit(fen, chess.engine.Limit(depth=depth, nodes=self.limits.nodes))

    def search_limit(self, fen: str, limit: chess.engine.Limit) -> EngineSearch:
        """:meth:`search` under any python-chess ``Limit``."""
        import chess

        return self.search_board(chess.Board(fen), limit)

    def search_board(self, board: chess.Board, limit: chess.engine.Limit,
                     playing: bool = False) -> EngineSearch:
        """:meth:`search_limit` from a board with its history: the engine is sent ``position
        fen ROOT moves ...`` (the board's move stack from its root), so repetitions of the
        game so far are its to see, as in a game. ``playing``: asked for a move to play
        (``harness match``): an illegal ``bestmove`` is then ``crashed`` at once, its reason
        saying so (a search asked for its analysis would wait for another ``bestmove``)."""
        import chess.engine

        board = board.copy()            # python-chess keeps it while the search runs
        reason = ""
        for _ in range(2):
            try:
                if self.engine is None:
                    self.restarts += 1
                    self._start()
                assert self.engine is not None
                return self._search_once(self.engine, board, limit, playing)
            except _Timeout:
                self._kill()
                return EngineSearch("timeout", None, self.limits.timeout_s, None, None, None,
                                    "none", "", (), f"no bestmove within {self.limits.timeout_s:g} s")
            except (chess.engine.EngineError, HarnessError) as exc:
                # EngineTerminatedError is an EngineError: the process died mid-search.
                reason = str(exc)
                self._kill()
                if playing and ILLEGAL_MOVE in reason:
                    return EngineSearch("crashed", None, 0.0, None, None, None, "none", "", (),
                                        f"it sent an illegal move ({reason})")
        return EngineSearch("crashed", None, 0.0, None, None, None, "none", "", (),
                            f"the engine died twice on this search ({reason})")

    def _search_once(self, engine: chess.engine.SimpleEngine, board: chess.Board,
                     limit: chess.engine.Limit, playing: bool = False) -> EngineSearch:
        if CLEAR_HASH in self.offered:
            engine.configure({CLEAR_HASH: None})
        start = time.perf_counter()
        searched = _play(engine, board, limit) if playing else _analyse(engine, board, limit)
        coroutine = asyncio.wait_for(searched, self.limits.timeout_s)
        future = asyncio.run_coroutine_threadsafe(coroutine, engine.protocol.loop)
        try:
            info, best = future.result(self.limits.timeout_s + self.start_timeout)
        except (TimeoutError, concurrent.futures.TimeoutError):
            future.cancel()
            raise _Timeout() from None
        wall = time.perf_counter() - start
        score = info.get("score")
        bound = ("none" if score is None else "lower" if info.get("lowerbound")
                 else "upper" if info.get("upperbound") else "exact")
        seconds = info.get("time")
        return EngineSearch(
            "ok", _int(info.get("nodes")), float(seconds) if seconds is not None else wall,
            _int(info.get("depth")), _int(info.get("seldepth")),
            None if score is None else harness_score(score, board.turn), bound,
            "" if best is None else best.uci(),
            tuple(move.uci() for move in info.get("pv", ())))

    def _kill(self) -> None:
        """End a hung or dead engine at once (no ``quit``: it would not answer)."""
        engine, self.engine = self.engine, None
        if engine is None:
            return
        _kill_process(engine)
        engine.close()

    def close(self) -> None:
        """``quit``, then end the process. An engine that dies on ``quit`` (GNU Chess) or does
        not answer it within the start timeout is ended all the same, without a word: its
        searches are done."""
        import chess.engine

        engine, self.engine = self.engine, None
        if engine is None:
            return
        try:
            engine.quit()
        except (chess.engine.EngineError, TimeoutError, concurrent.futures.TimeoutError):
            _kill_process(engine)
        engine.close()

    def describe(self) -> dict[str, Any]:
        """What ``run.json`` records of the engine: name, ``id name``, command, the options
        set (the spec's and the harness's defaults) and the limits."""
        return {"name": self.spec.name, "id_name": self.id_name,
                "command": list(self.spec.command), "resolved": self.command,
                "options": dict(self.spec.options), "settings": self.settings,
                "defaults": {k: v for k, v in self.settings.items()
                             if k.lower() not in {key.lower() for key, _ in self.spec.options}},
                "limits": self.limits.as_dict()}


def _kill_process(engine: chess.engine.SimpleEngine) -> None:
    """Kill the engine's process from its event loop (where its transport lives)."""
    def kill() -> None:
        with contextlib.suppress(ProcessLookupError):       # it is dead already
            engine.transport.kill()

    with contextlib.suppress(RuntimeError):                 # its loop is closed: so is the process
        engine.protocol.loop.call_soon_threadsafe(kill)


PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when the thread that started it exits."""


def _dies_with_us() -> dict[str, Any]:
    """What makes an engine's process end with the thread that started it (python-chess's
    own, which ends with this process), on Linux: a worker killed mid-run leaves no engine
    behind (GNU Chess does not end when its input does). Elsewhere: nothing."""
    if not sys.platform.startswith("linux"):
        return {}
    try:
        libc = ctypes.CDLL(None, use_errno=True)    # loaded here: nothing is loaded after fork
        prctl = libc.prctl
    except (OSError, AttributeError):
        return {}

    def set_signal() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    return {"preexec_fn": set_signal}


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The exception handler of an engine's event loop: says nothing (see :meth:`_start`)."""


class _ReapedLate(logging.Filter):
    """Drops asyncio's note that a killed engine exited after its event loop closed."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "that handles pid" not in str(record.msg)


class _Timeout(Exception):
    """A search passed its timeout."""


async def _analyse(engine: chess.engine.SimpleEngine, board: chess.Board,
                   limit: chess.engine.Limit) -> tuple[Mapping[str, Any], chess.Move | None]:
    """One search on the engine's own event loop: its last ``info`` and its ``bestmove``; a
    new game object each time, so python-chess sends ``ucinewgame`` before it."""
    import chess.engine

    analysis = await engine.protocol.analysis(board, limit, game=object(),
                                              info=chess.engine.INFO_ALL)
    found: dict[str, Any] = {}
    with analysis:
        async for line in analysis:
            if "score" in line:
                # python-chess keeps a bound flag once any line had one: a line's own
                # score and bound go together, so each scored line replaces the last.
                for key in ("score", "lowerbound", "upperbound", "pv"):
                    found.pop(key, None)
            found.update(line)
        best = await analysis.wait()
    return found, best.move


async def _play(engine: chess.engine.SimpleEngine, board: chess.Board,
                limit: chess.engine.Limit) -> tuple[Mapping[str, Any], chess.Move | None]:
    """One search for a move to play (``play``: an illegal ``bestmove`` fails it), after
    ``ucinewgame`` (a new game object each time): its ``info`` lines merged, and its move."""
    import chess.engine

    result = await engine.protocol.play(board, limit, game=object(), info=chess.engine.INFO_ALL)
    return result.info, result.move


CHECK_VALUES = {"true": True, "1": True, "on": True, "false": False, "0": False, "off": False}
"""What a check (boolean) option may be given as."""


def _value(option: Any, value: str) -> Any:
    """``value`` as ``option`` (a ``chess.engine.Option``) takes it: a check option's words
    as a boolean (python-chess would take ``0`` for true), a button as ``None``."""
    import chess.engine

    if option.type == "check":
        if value.lower() not in CHECK_VALUES:
            raise chess.engine.EngineError(f"expected true or false for check option "
                                           f"{option.name!r}, got: {value!r}")
        return CHECK_VALUES[value.lower()]
    return option.parse(value)


def _int(value: object) -> int | None:
    return None if value is None else int(str(value))
