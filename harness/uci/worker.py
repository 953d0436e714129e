"""The search behind ``harness uci``, in a process of its own: a ``go`` becomes a match's
move choice (:func:`harness.match.play.choose`: iterative deepening, each depth searched
afresh, a node budget stopping the search past it), each finished depth sent back as an
:class:`~harness.uci.protocol.Iteration`, and ``stop`` honoured in the middle of a depth.

Why a process and not a thread: a search can be abandoned in the middle of a depth only
where the frame looks for signals (:mod:`harness.search.signals`, what Ctrl-C uses), and
Python runs a signal's handler only in a process's main thread, which the server needs for
reading the GUI's lines. In a process of its own the search has a main thread of its own;
and a search that crashes or hangs takes no protocol with it: the server kills the process,
answers ``bestmove`` and starts another.

How ``stop`` reaches the middle of a search: the server writes the job's number into a
shared word and sends ``SIGUSR1``. Every frame looks for signals every few thousand nodes
(:mod:`harness.search.signals`), which runs this process's handler there; it raises
:class:`SearchStopped` when the stop is for the job being searched, so the depth under way
is abandoned and the last finished one answers. A stop that comes while nothing can be
abandoned (between two depths, while a depth is being reported) only marks the word: the
deepening looks at it before the next depth.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any

from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.registry import find_game
from harness.match.play import Budget, Side, choose
from harness.match.rules import playing
from harness.options import resolve
from harness.search.run import SearchResult
from harness.uci.protocol import Iteration

STOP_SIGNAL = signal.SIGUSR1
"""The signal that tells the worker to look at the shared stop word."""


@dataclass(frozen=True)
class Job:
    """One ``go``: where, with what, and how far."""

    number: int
    """The job's number, counted by the server: a stop names the job it is for."""
    fen: str
    """The starting position of the game (``position``'s startpos or FEN)."""
    moves: tuple[str, ...]
    """The game's moves since, already checked legal: played on the board, so the search
    sees the game's history (a repetition of it scores 0 with ``repetition``)."""
    side: Side
    """The variant, the frame's switches and the profile."""
    chess_options: tuple[tuple[str, str], ...]
    """Chess's options for the position (``repetition``, ``killers``, ...) as text."""
    budget: Budget
    """The node budget of ``go nodes`` (the match's), else one no search reaches."""
    depth: int | None
    """The deepest depth searched (``go depth``); ``None``: as deep as the budget allows."""
    soft_seconds: float | None
    """No new depth is started after this much wall time (a clock's share); ``None``: no
    such limit (a hard limit is the server's ``stop``)."""


@dataclass(frozen=True)
class Done:
    """The end of a job."""

    number: int
    """The job's number."""
    move: str
    """The move chosen (empty: stopped inside its first depth, or failed)."""
    error: str = ""
    """Why it failed, one line; empty when it did not."""


class SearchStopped(Exception):
    """The server's ``stop`` for the job being searched, raised inside the frame."""


class _Stopping:
    """What the signal handler needs to know: which job runs, and whether it may be
    abandoned at this moment (not while a message is being written to the server)."""

    def __init__(self, word: Any) -> None:
        self.word = word
        """The shared stop word: the number of the job the server stopped."""
        self.job = -1
        """The job being searched (-1: none)."""
        self.abandonable = False
        """Whether raising now abandons a search and nothing else."""

    def requested(self) -> bool:
        return bool(self.word.value == self.job)

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.abandonable and self.requested():
            self.abandonable = False
            raise SearchStopped


def serve(connection: Connection, word: Any) -> None:
    """The worker's life: a :class:`Job` at a time from ``connection``, its iterations and
    its :class:`Done` sent back, until ``None`` or the server's end."""
    stopping = _Stopping(word)
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the server's to handle
    signal.signal(STOP_SIGNAL, stopping.handle)
    parent = os.getppid()
    while True:
        try:
            job = connection.recv()
            if job is None:
                return
            connection.send(run_job(job, connection, stopping, parent))
        except (EOFError, OSError):             # the server is gone
            return


def run_job(job: Job, connection: Connection, stopping: _Stopping, parent: int = -1) -> Done:
    """Search ``job``, each finished depth sent on ``connection`` as it comes; no depth is
    started once the process ``parent`` (the server) is gone."""
    start = time.perf_counter()
    work = 0

    def report(depth: int, result: SearchResult) -> bool:
        nonlocal work
        stopping.abandonable = False
        work += result.counters["nodes"] + result.counters["qnodes"]
        counted = tuple((name, value) for name, value in
                        (*result.counters.items(), *result.tree_counters.items()) if value)
        elapsed = time.perf_counter() - start
        connection.send(Iteration(depth, result.score, result.bound, result.best_move,
                                  tuple(result.pv), work, int(elapsed * 1000), counted))
        deeper = (not stopping.requested() and os.getppid() == parent
                  and (job.depth is None or depth < job.depth)
                  and (job.soft_seconds is None or elapsed < job.soft_seconds))
        stopping.abandonable = True
        return deeper

    stopping.job = job.number
    try:
        stopping.abandonable = True
        position = playing(_problem(job))
        for move in job.moves:
            position.play(move)
        choice = choose(position, job.side, job.budget, on_iteration=report)
        stopping.abandonable = False
        return Done(job.number, choice.move)
    except SearchStopped:
        return Done(job.number, "")
    except OSError:
        raise                       # the server is gone: nothing to tell it
    except HarnessError as exc:
        return Done(job.number, "", str(exc))
    except Exception as exc:        # a GUI's engine must answer bestmove whatever happened
        return Done(job.number, "", f"{type(exc).__name__}: {exc}")
    finally:
        stopping.abandonable = False
        stopping.job = -1


def _problem(job: Job) -> Problem:
    """The chess problem of the job's starting position, with its options and the side's."""
    import chess

    game = find_game("chess")
    board = chess.Board(job.fen)
    line = board.epd(hmvc=board.halfmove_clock, fmvn=board.fullmove_number)
    options = resolve("chess", game.options, dict(job.chess_options))
    return job.side.problem(Problem("chess", "uci", "uci", "uci", options=options,
                                    position=line))
