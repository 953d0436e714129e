"""Where a run's jobs execute: in this process, in worker processes, or on a Dask cluster.

A job is one problem with all its variants and depths (so the per-problem position cache
is shared by all of them wherever the job runs). Jobs travel as plain values; results
come back in completion order, tagged with the job's index, and the caller restores the
plan's order, so every executor gives the same rows. Jobs are read as the workers need
them, a bounded way ahead (:data:`LOOK_AHEAD`), so a run never holds all its problems.

Workers are started by :func:`start_workers` before a run creates anything on disk (a
Dask scheduler that cannot be reached leaves no folder behind). Worker processes ignore
Ctrl-C (the parent stops them, so no worker prints a traceback) and die with their
parent, even when it is killed outright. A job may call :func:`report_step` after each
unit of work (a search) so the parent can show progress inside long jobs.
"""

from __future__ import annotations

import ctypes
import gc
import heapq
import logging
import os
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

from harness.errors import HarnessError

T = TypeVar("T")
A = TypeVar("A")

EXECUTORS = ("process", "dask")

POLL_SECONDS = 0.25
"""How often the parent looks for progress steps while it waits for jobs."""


@dataclass(frozen=True)
class Execution:
    """How to run a run's jobs."""

    jobs: int = 1
    """Worker processes (``process``) or, for ``dask`` without a scheduler, local workers;
    never more are started than there are jobs."""
    executor: str = "process"
    """``process`` (this machine; one job at a time in this process when ``jobs`` is 1)
    or ``dask`` (a Dask distributed cluster; the optional extra ``gametree-harness[dask]``)."""
    scheduler: str | None = None
    """Address of the Dask scheduler, e.g. ``tcp://10.0.0.5:8786``; ``None`` starts a
    local cluster of ``jobs`` worker processes."""
    connect_timeout: float = 30.0
    """Seconds to wait for the Dask scheduler before giving up (nothing is written)."""

    def check(self) -> None:
        if self.jobs < 1:
            raise HarnessError(f"--jobs {self.jobs}: needs at least 1")
        if self.executor not in EXECUTORS:
            raise HarnessError(f"executor {self.executor!r} (valid: {', '.join(EXECUTORS)})")
        if self.scheduler is not None and self.executor != "dask":
            raise HarnessError("--scheduler goes with --executor dask")
        if self.scheduler is not None and not self.scheduler.strip():
            # Dask reads an empty address as "the scheduler already in use" and may wait.
            raise HarnessError("--scheduler '': an empty address (e.g. tcp://HOST:8786; leave "
                               "it out for a local cluster)")
        if self.executor == "dask":
            try:
                import distributed  # noqa: F401
            except ImportError:
                raise HarnessError("the dask executor needs the optional extra: "
                                   "pip install 'gametree-harness[dask]'") from None


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a job searches its problem: the
    position cache makes millions of long-lived objects without cycles, and the collector
    would only walk them again and again (7-25% of a problem's time). Also while a Dask
    ``Client`` starts: it holds its loop runners' shared lock then, and a collection that
    finalizes an earlier Client (one whose connection failed) stops a runner under that
    same lock and waits forever (a hung test of a bad ``--scheduler``)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def start_order(costs: Sequence[float]) -> list[int]:
    """Job indices costliest first; equal costs keep their order."""
    return sorted(range(len(costs)), key=lambda i: -costs[i])


LOOK_AHEAD = 1024
"""Jobs read ahead of those started, and jobs handed to a pool or cluster before one
finishes: a bound on what a run holds of its problems, which leaves every worker busy.
A run of fewer jobs reads them all first, and starts them in :func:`start_order`."""


def costliest_first(jobs: Iterator[tuple[int, A]], cost: Callable[[A], float],
                    window: int) -> Iterator[tuple[int, A]]:
    """``jobs`` (numbered) in start order: of the next ``window`` read, the costliest
    first, equal costs in their order; all of them when there are no more than
    ``window`` (then :func:`start_order`)."""
    heap: list[tuple[float, int, A]] = []

    def pop() -> tuple[int, A]:
        _, number, job = heapq.heappop(heap)
        return number, job

    for number, job in jobs:
        heapq.heappush(heap, (-cost(job), number, job))
        if len(heap) >= window:
            yield pop()
    while heap:
        yield pop()


_step_sink: Callable[[], None] | None = None
"""Where :func:`report_step` sends a step in this process (set while a job runs)."""


def report_step() -> None:
    """Called by a job after each unit of its work: the parent counts it for progress
    (a no-op where nobody listens, e.g. on Dask)."""
    if _step_sink is not None:
        _step_sink()


class Workers:
    """Started workers: :meth:`map` sends them jobs. Made by :func:`start_workers`."""

    parallel = False
    """Whether jobs run side by side (then a start order is worth estimating)."""

    def map(self, function: Callable[..., T], arguments: Iterable[tuple[Any, ...]],
            cost: Callable[[tuple[Any, ...]], float] | None = None,
            on_step: Callable[[int], None] | None = None) -> Generator[tuple[int, T], None, None]:
        """Call ``function(*args)`` for each argument tuple; yield ``(index, result)`` as
        each finishes, ``index`` its place among ``arguments``. The arguments are read as
        workers need them, at most :data:`LOOK_AHEAD` beyond those started (a run of a
        hundred million problems never holds them all). With ``cost`` (an estimate of a
        job's work from its arguments, asked only when jobs run in parallel) the costliest
        of those read start first, so no long job is left to run alone at the end.
        ``on_step(n)``: jobs reported ``n`` more steps (:func:`report_step`). Closing the
        iterator early stops what has not started."""
        numbered: Iterator[tuple[int, tuple[Any, ...]]] = enumerate(arguments)
        if cost is not None and self.parallel:
            numbered = costliest_first(numbered, cost, LOOK_AHEAD)
        yield from self.run(function, numbered, on_step)

    def run(self, function: Callable[..., T], jobs: Iterator[tuple[int, tuple[Any, ...]]],
            on_step: Callable[[int], None] | None) -> Generator[tuple[int, T], None, None]:
        """Call ``function(*arguments)`` for each ``(index, arguments)`` of ``jobs``, in
        that order; yield ``(index, result)`` as each finishes; ``on_step(n)`` when jobs
        report ``n`` more steps."""
        global _step_sink
        previous = _step_sink
        _step_sink = None if on_step is None else (lambda: on_step(1))
        try:
            for index, arguments in jobs:
                yield index, function(*arguments)
        finally:
            _step_sink = previous

    def close(self, interrupted: bool) -> None:
        """Stop the workers (at once when ``interrupted``)."""


class _Processes(Workers):
    parallel = True

    def __init__(self, workers: int) -> None:
        context = get_context()
        self.steps: Any = context.SimpleQueue()
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                        initializer=_worker_started,
                                        initargs=(os.getpid(), self.steps))

    def run(self, function: Callable[..., T], jobs: Iterator[tuple[int, tuple[Any, ...]]],
            on_step: Callable[[int], None] | None) -> Generator[tuple[int, T], None, None]:
        pending: dict[Future[T], int] = {}
        for index, arguments in islice(jobs, LOOK_AHEAD):
            pending[self.pool.submit(function, *arguments)] = index
        while pending:
            done, _ = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            self._drain(on_step)
            for index, arguments in islice(jobs, len(done)):    # one in for each out
                pending[self.pool.submit(function, *arguments)] = index
            for future in sorted(done, key=lambda f: pending[f]):
                yield pending.pop(future), future.result()

    def _drain(self, on_step: Callable[[int], None] | None) -> None:
        count = 0
        while not self.steps.empty():
            self.steps.get()
            count += 1
        if count and on_step is not None:
            on_step(count)

    def close(self, interrupted: bool) -> None:
        if interrupted:
            # Searches cannot be cancelled halfway: stop the processes instead of waiting.
            for process in list(getattr(self.pool, "_processes", {}).values()):
                process.terminate()
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.steps.close()


def _worker_started(parent: int, steps: Any) -> None:
    """A worker process's first act: leave Ctrl-C to the parent, die with it, be stopped by
    SIGTERM (the parent's handler, inherited by a fork, would raise), and send progress
    steps to it."""
    global _step_sink
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent(parent)
    _step_sink = lambda: steps.put(None)  # noqa: E731


PR_SET_PDEATHSIG = 1
"""prctl(2): the signal this process gets when the thread that created it exits."""


def exit_with_parent(parent: int) -> None:
    """Make this process end when process ``parent`` does, even if it is killed outright:
    Linux's parent-death signal where ``parent`` is this process's parent, else a thread
    that looks every second (a fork server's worker has the server as its parent). A
    worker holds nothing to save: the parent writes every result."""
    direct = os.getppid() == parent
    if direct and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:          # it died before the signal was set
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent if direct else running(parent):
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="harness-parent-watch", daemon=True).start()


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (killed, not yet reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True                             # no /proc: it exists
    return state != "Z"


class _Dask(Workers):
    parallel = True

    def __init__(self, execution: Execution, count: int) -> None:
        """``count`` local workers when there is no scheduler to connect to."""
        from distributed import Client, LocalCluster

        self.cluster = None
        try:
            if execution.scheduler is None:
                # Its worker processes inherit an ignored Ctrl-C: the parent stops them,
                # so no worker prints a KeyboardInterrupt traceback; nor do they log the
                # cancelled tasks and lost heartbeats of a shutdown (a job's own error
                # still reaches the parent through its future).
                with _ctrl_c_ignored():
                    # No dashboard; the scheduler's own HTTP routes on a free port, so
                    # that a second run beside this one (or any cluster on Dask's default
                    # 8787) warns of nothing.
                    self.cluster = LocalCluster(n_workers=count,
                                                threads_per_worker=1, processes=True,
                                                dashboard_address=None,
                                                scheduler_kwargs={"dashboard_address": ":0"},
                                                silence_logs=logging.CRITICAL)
                with collector_paused():
                    self.client = Client(self.cluster)
            else:
                with collector_paused():
                    self.client = Client(execution.scheduler, timeout=execution.connect_timeout)
        except (OSError, ValueError) as exc:
            if self.cluster is not None:
                self.cluster.close()
            gc.collect()        # the failed Client's finalizer runs here, with no lock held
            where = (f"--scheduler {shlex.quote(execution.scheduler)}"
                     if execution.scheduler is not None else "a local Dask cluster")
            if isinstance(exc, ValueError):     # Dask's parse of the address
                raise HarnessError(f"{where}: not a scheduler address ({exc}; e.g. "
                                   "tcp://HOST:8786)") from None
            raise HarnessError(f"{where}: cannot connect: {exc}") from None

    def run(self, function: Callable[..., T], jobs: Iterator[tuple[int, tuple[Any, ...]]],
            on_step: Callable[[int], None] | None) -> Generator[tuple[int, T], None, None]:
        from distributed import as_completed

        live: dict[str, tuple[int, Any]] = {}        # by key: not yet yielded

        def submit(number: int, arguments: tuple[Any, ...]) -> Any:
            future = self.client.submit(function, *arguments, key=f"harness-job-{number}",
                                        pure=False)
            live[str(future.key)] = number, future
            return future

        running = as_completed([submit(i, a) for i, a in islice(jobs, LOOK_AHEAD)])
        try:
            for future in running:
                for number, arguments in islice(jobs, 1):        # one in for each out
                    running.add(submit(number, arguments))
                yield live.pop(str(future.key))[0], future.result()
        finally:
            self.client.cancel([future for _, future in live.values()])

    def close(self, interrupted: bool) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def start_workers(execution: Execution, jobs: int) -> Iterator[Workers]:
    """Start what ``execution`` asks for, for ``jobs`` jobs (never more workers than
    jobs), and stop it on leaving; an interrupt stops worker processes at once. A Dask
    scheduler that cannot be reached is a :class:`HarnessError` here, before any job."""
    execution.check()
    workers: Workers
    count = min(execution.jobs, jobs)
    if execution.executor == "dask":
        workers = _Dask(execution, count)
    elif count > 1:
        workers = _Processes(count)
    else:
        workers = Workers()
    interrupted = True
    try:
        yield workers
        interrupted = False
    finally:
        workers.close(interrupted)


def run_jobs(function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
             execution: Execution, cost: Callable[[tuple[Any, ...]], float] | None = None,
             on_step: Callable[[int], None] | None = None) -> Generator[tuple[int, T], None, None]:
    """:meth:`Workers.map` on workers started for these jobs and stopped after them (an
    interrupt, or closing the iterator early, stops them at once)."""
    with start_workers(execution, len(arguments)) as workers:
        yield from workers.map(function, arguments, cost, on_step)
