"""``harness uci``'s protocol loop: the GUI's lines read from standard input, answered on
standard output, the searches run by a worker process (:mod:`harness.uci.worker`).

This process never searches, so it answers ``isready`` and ``stop`` at once while a
search runs. It holds the engine's state: the options' values (checked with the same code
as ``harness run``'s flags, through the command's ``configure``), the position (its
starting FEN and the game's moves, each checked legal), and the search under way with its
last finished depth. Every ``go`` is answered with a ``bestmove``: the search's move; the
last finished depth's when stopped; the first legal move when stopped inside depth 1;
``0000`` where there is no legal move or no valid position. A line it cannot act on is an
``info string`` saying why; nothing it reads ends it but ``quit`` or the end of its input.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Any, TextIO

from harness.errors import HarnessError
from harness.games.base import MAX_DEPTH
from harness.match.play import Budget, Side
from harness.uci.protocol import (
    GoCommand,
    Iteration,
    UciInputError,
    UciOption,
    counters_line,
    find_option,
    info_line,
    parse_go,
    parse_position,
    parse_setoption,
    tokens_of,
)
from harness.uci.worker import STOP_SIGNAL, Done, Job, serve

if TYPE_CHECKING:
    import chess

UNLIMITED_NODES = 1 << 62
"""The node budget of a ``go`` without ``nodes``: one no search reaches."""
MOVES_LEFT = 30
"""Moves a clock without ``movestogo`` is shared among."""
OVERHEAD_SECONDS = 0.02
"""Kept back from every time limit: the stop's latency and the GUI's reading of the move."""
LEAST_SECONDS = 0.01
"""The least time a search is given, however little is on the clock."""
STOP_PATIENCE_SECONDS = 5.0
"""How long a stopped search may take to end (the frame looks every few thousand nodes)
before its process is killed and started again, so ``bestmove`` never waits longer."""
COMMANDS = ("uci", "debug", "isready", "setoption", "register", "ucinewgame", "position",
            "go", "stop", "ponderhit", "quit")
"""The GUI's commands (UCI, April 2006)."""


@dataclass(frozen=True)
class Setup:
    """What the options' values make: the searching side and chess's options."""

    side: Side
    """The variant, the frame's switches, the profile."""
    chess_options: tuple[tuple[str, str], ...]
    """Chess's options (``repetition``, ``killers``, ...) as text."""


@dataclass(frozen=True)
class Engine:
    """The engine the server speaks for: its name, its options and how they configure it."""

    name: str
    """``id name`` (``harness 0.1.0``)."""
    author: str
    """``id author``."""
    options: tuple[UciOption, ...]
    """Every option, in the order the reply to ``uci`` lists them."""
    defaults: Mapping[str, str]
    """Each option's starting value by name (the command line's, else the default)."""
    given: frozenset[str]
    """The options the command line set (they win over the profile's values)."""
    configure: Callable[[Mapping[str, str], frozenset[str]], Setup]
    """The :class:`Setup` of a set of values and the names of those set (on the command
    line or by ``setoption``); a :class:`HarnessError` for a bad combination."""


@dataclass
class _Search:
    """The search under way."""

    job: int
    """Its job number."""
    go: GoCommand
    """Its ``go``, as received (``ponder`` cleared by ``ponderhit``)."""
    started: float
    """``time.monotonic()`` at ``go`` (at ``ponderhit`` for a ponder search)."""
    hard_seconds: float | None
    """A stop is sent this long after ``started`` (``None``: none)."""
    fallback: str
    """The move answered when no depth finished: the first legal one."""
    last: Iteration | None = None
    """The last finished depth."""
    done: Done | None = None
    """The worker's end of the job, once it came."""
    stop_sent: float | None = None
    """When a stop was sent (``time.monotonic()``)."""


@dataclass
class _Position:
    """The position of the last valid ``position`` command."""

    fen: str
    """The starting position."""
    moves: tuple[str, ...] = ()
    """The game's moves since, legal."""
    board: chess.Board | None = field(default=None, repr=False)
    """The position after them."""


class _Lines:
    """Standard input as lines, read without blocking past what has arrived: the loop waits
    on its descriptor beside the worker's."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor
        self.pending = b""
        """What has arrived of a line not yet ended."""
        self.ended = False
        """Whether the input has ended (the GUI closed it)."""

    def fileno(self) -> int:
        return self.descriptor

    def read(self) -> list[str]:
        data = os.read(self.descriptor, 1 << 16)
        if not data:
            self.ended = True
            data = b"\n" if self.pending else b""
        *lines, self.pending = (self.pending + data).split(b"\n")
        return [line.decode("utf-8", errors="replace").strip() for line in lines]


class _Worker:
    """The search process and what the server holds of it."""

    def __init__(self) -> None:
        # The chess tree's modules loaded here, once: every worker forked has them, and a
        # first depth's time is the search's, not the imports'.
        from harness.games.chess.compiled import chess_tree  # noqa: F401

        context = multiprocessing.get_context("fork")    # this process starts no thread
        self.word: Any = context.RawValue("q", -1)
        self.connection, child = context.Pipe()
        self.process = context.Process(target=serve, args=(child, self.word), daemon=True,
                                       name="harness-uci-search")
        self.process.start()
        child.close()

    def stop(self, job: int) -> None:
        self.word.value = job
        if self.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):     # it died: the loop sees it
                os.kill(self.process.pid, STOP_SIGNAL)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.send(None)
        self.process.join(1.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


class UciServer:
    """The protocol loop over ``engine``, writing to ``out``."""

    def __init__(self, engine: Engine, out: TextIO) -> None:
        import chess

        self.engine = engine
        self.out = out
        self.values = dict(engine.defaults)
        self.given = engine.given
        self.setup = engine.configure(self.values, self.given)
        self.position: _Position | None = _Position(chess.STARTING_FEN, (), chess.Board())
        self.search: _Search | None = None
        self.jobs = 0
        self.quitting = False
        self.worker = _Worker()

    def run(self, descriptor: int = 0) -> None:
        """Serve until ``quit`` or the end of the input (a search under way first ends:
        ``go`` piped in by hand is answered)."""
        lines = _Lines(descriptor)
        try:
            while not self.quitting:
                if lines.ended:
                    if self.search is None:
                        break
                    if self.search.go.until_stopped or self.search.go.unlimited:
                        self._stop()
                waiting: list[Any] = [self.worker.connection]
                if not lines.ended:
                    waiting.append(lines)
                ready: list[Any] = wait(waiting, self._timeout())
                if self.worker.connection in ready:
                    self._from_worker()
                if lines in ready:
                    for line in lines.read():
                        self.handle(line)
                        if self.quitting:
                            break
                self._on_time()
        finally:
            self.worker.close()

    def handle(self, line: str) -> None:
        """Act on one line of the GUI (unknown tokens before a command are skipped)."""
        tokens = tokens_of(line)
        skipped = 0
        while tokens and tokens[0] not in COMMANDS:
            tokens.pop(0)
            skipped += 1
        if not tokens:
            if skipped:
                self._say(f"unknown command ignored: {line[:80]}")
            return
        command, rest = tokens[0], tokens[1:]
        try:
            getattr(self, f"_{command}")(rest)
        except UciInputError as exc:
            self._say(str(exc))

    # The commands, one method each (``_`` and the command's name).

    def _uci(self, rest: list[str]) -> None:
        self._send(f"id name {self.engine.name}", f"id author {self.engine.author}",
                   *(option.line() for option in self.engine.options), "uciok")

    def _debug(self, rest: list[str]) -> None:
        """Nothing: every message is sent anyway."""

    def _register(self, rest: list[str]) -> None:
        """Nothing: no registration."""

    def _isready(self, rest: list[str]) -> None:
        self._send("readyok")

    def _setoption(self, rest: list[str]) -> None:
        name, value = parse_setoption(rest)
        option = find_option(self.engine.options, name)
        values = {**self.values, option.name: option.checked(value)}
        given = self.given | {option.name}
        try:
            setup = self.engine.configure(values, given)
        except HarnessError as exc:
            raise UciInputError(f"option {option.name}: {exc}") from None
        self.values, self.given, self.setup = values, given, setup

    def _ucinewgame(self, rest: list[str]) -> None:
        import chess

        # No table or history outlives a move (each is searched afresh, as in a match):
        # a new game only forgets the position.
        self.position = _Position(chess.STARTING_FEN, (), chess.Board())

    def _position(self, rest: list[str]) -> None:
        import chess

        self.position = None                     # a bad position is searched by nobody
        command = parse_position(rest)
        fen = chess.STARTING_FEN if command.fen is None else command.fen
        try:
            board = chess.Board(fen)
        except ValueError as exc:
            raise UciInputError(f"position fen: {exc}") from None
        if not board.is_valid():
            raise UciInputError(f"position fen {fen!r}: not a legal position "
                                f"({board.status()!r})")
        for number, text in enumerate(command.moves, 1):
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                raise UciInputError(f"position: move {number} {text!r} is not UCI "
                                    "notation (e2e4, e7e8q)") from None
            if move not in board.legal_moves:
                raise UciInputError(f"position: move {number} {text!r} is not legal "
                                    f"in {board.fen()}")
            board.push(move)
        self.position = _Position(fen, command.moves, board)

    def _go(self, rest: list[str]) -> None:
        if self.search is not None:
            raise UciInputError("go ignored: a search is under way (send stop first)")
        try:
            go, ignored = parse_go(rest)
        except UciInputError as exc:
            self._say(f"{exc}; no search")
            self._send("bestmove 0000")
            return
        for line in ignored:
            self._say(line)
        if go.searchmoves:
            self._say("searchmoves ignored: every root move is searched")
        position = self.position
        if position is None or position.board is None:
            self._say("no valid position (the last position command failed); no search")
            self._send("bestmove 0000")
            return
        board = position.board
        first = next(iter(board.legal_moves), None)
        if first is None:
            self._say("no legal move: " + ("checkmate" if board.is_check() else "stalemate"))
            self._send("bestmove 0000")
            return
        self.jobs += 1
        hard, soft = time_limits(go, board.turn)
        depth = go.depth
        if go.mate is not None:                 # a mate in n moves is 2n - 1 plies away
            depth = min(depth or MAX_DEPTH, 2 * go.mate - 1)
        budget = Budget("nodes", nodes=UNLIMITED_NODES if go.nodes is None else max(1, go.nodes))
        job = Job(self.jobs, position.fen, position.moves, self.setup.side,
                  self.setup.chess_options, budget, depth, None if go.ponder else soft)
        self.search = _Search(self.jobs, go, time.monotonic(), None if go.ponder else hard,
                              first.uci())
        try:
            self.worker.connection.send(job)
        except OSError:                         # the worker died between two searches
            self._say("the search process ended; a new one is started")
            self.worker.close()
            self.worker = _Worker()
            self.worker.connection.send(job)

    def _stop(self, rest: list[str] | None = None) -> None:
        search = self.search
        if search is None:
            return
        search.go = replace(search.go, infinite=False, ponder=False)
        if search.done is not None:
            self._answer()
        elif search.stop_sent is None:
            search.stop_sent = time.monotonic()
            self.worker.stop(search.job)

    def _ponderhit(self, rest: list[str]) -> None:
        search = self.search
        if search is None or not search.go.ponder:
            return
        go = replace(search.go, ponder=False)
        board = self.position.board if self.position is not None else None
        search.go, search.started = go, time.monotonic()
        search.hard_seconds = time_limits(go, board.turn if board is not None else True)[0]
        if search.done is not None and not go.infinite:
            self._answer()

    def _quit(self, rest: list[str]) -> None:
        if self.search is not None and self.search.done is None:
            self.worker.stop(self.search.job)
        self.quitting = True

    # The search's messages and clock.

    def _from_worker(self) -> None:
        try:
            message = self.worker.connection.recv()
        except (EOFError, OSError):
            self._restart("the search process ended")
            return
        search = self.search
        if search is None:
            return
        if isinstance(message, Iteration):
            search.last = message
            self._send(info_line(message), counters_line(message))
        elif isinstance(message, Done) and message.number == search.job:
            if message.error:
                self._say(f"search failed: {message.error}")
            search.done = message
            if not search.go.until_stopped:
                self._answer()

    def _timeout(self) -> float | None:
        search = self.search
        if search is None or search.done is not None:
            return None
        if search.stop_sent is not None:
            return max(0.0, search.stop_sent + STOP_PATIENCE_SECONDS - time.monotonic())
        if search.hard_seconds is None:
            return None
        return max(0.0, search.started + search.hard_seconds - time.monotonic())

    def _on_time(self) -> None:
        search = self.search
        if search is None or search.done is not None:
            return
        now = time.monotonic()
        if search.stop_sent is not None:
            if now >= search.stop_sent + STOP_PATIENCE_SECONDS:
                self._restart("the stopped search did not end")
        elif search.hard_seconds is not None and now >= search.started + search.hard_seconds:
            search.stop_sent = now
            self.worker.stop(search.job)

    def _restart(self, why: str) -> None:
        """The worker killed and started again; the search under way answered as it is."""
        self._say(f"{why}; a new one is started")
        self.worker.process.kill()
        self.worker.close()
        self.worker = _Worker()
        if self.search is not None:
            self.search.done = Done(self.search.job, "")
            if not self.search.go.until_stopped:
                self._answer()

    def _answer(self) -> None:
        search = self.search
        assert search is not None and search.done is not None
        last = search.last
        move = search.done.move or (last.best_move if last is not None else "") or search.fallback
        line = f"bestmove {move}"
        if last is not None and len(last.pv) > 1 and last.pv[0] == move:
            line += f" ponder {last.pv[1]}"
        self.search = None
        self._send(line)

    def _say(self, text: str) -> None:
        self._send(f"info string {text}")

    def _send(self, *lines: str) -> None:
        try:
            self.out.write("".join(f"{line}\n" for line in lines))
            self.out.flush()
        except (BrokenPipeError, ValueError):       # the GUI is gone
            self.quitting = True


def time_limits(go: GoCommand, white: bool) -> tuple[float | None, float | None]:
    """The hard limit (a stop is sent) and the soft one (no new depth is started) of a
    ``go`` in seconds, for the side to move (``white``); ``None``: none. ``movetime``: all of
    it, less :data:`OVERHEAD_SECONDS`. A clock: its share (the clock over ``movestogo``,
    else :data:`MOVES_LEFT`, plus the increment); a new depth is started within half of it
    (as ``harness match``'s clocks) and a depth is stopped at twice it, never past half the
    clock."""
    if go.movetime is not None:
        return max(LEAST_SECONDS, go.movetime / 1000 - OVERHEAD_SECONDS), None
    clock, increment = go.clock(white)
    if clock is None:
        return None, None
    seconds = max(0.0, clock / 1000)
    share = seconds / (go.movestogo or MOVES_LEFT) + increment / 1000
    hard = max(LEAST_SECONDS, min(2 * share, seconds / 2) - OVERHEAD_SECONDS)
    return hard, min(share / 2, hard)
