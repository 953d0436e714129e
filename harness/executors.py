"""Where a run's jobs execute: in this process, in worker processes, or on a Dask cluster.

A job is one problem with all its variants and depths (so the per-problem position cache
is shared by all of them wherever the job runs). Jobs travel as plain values; results
come back in completion order, tagged with the job's index, and the caller restores the
plan's order, so every executor gives the same rows.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from harness.errors import HarnessError

T = TypeVar("T")

EXECUTORS = ("process", "dask")


@dataclass(frozen=True)
class Execution:
    """How to run a run's jobs."""

    jobs: int = 1
    """Worker processes (``process``) or, for ``dask`` without a scheduler, local workers."""
    executor: str = "process"
    """``process`` (this machine; one job at a time in this process when ``jobs`` is 1)
    or ``dask`` (a Dask distributed cluster; the optional extra ``harness[dask]``)."""
    scheduler: str | None = None
    """Address of the Dask scheduler, e.g. ``tcp://10.0.0.5:8786``; ``None`` starts a
    local cluster of ``jobs`` worker processes."""

    def check(self) -> None:
        if self.jobs < 1:
            raise HarnessError(f"--jobs {self.jobs}: needs at least 1")
        if self.executor not in EXECUTORS:
            raise HarnessError(f"executor {self.executor!r} (valid: {', '.join(EXECUTORS)})")
        if self.scheduler is not None and self.executor != "dask":
            raise HarnessError("--scheduler goes with --executor dask")
        if self.executor == "dask":
            try:
                import distributed  # noqa: F401
            except ImportError:
                raise HarnessError("the dask executor needs the optional extra: "
                                   "pip install 'harness[dask]'") from None


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a job searches its problem: the
    position cache makes millions of long-lived objects without cycles, and the collector
    would only walk them again and again (7-25% of a problem's time)."""
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


def run_jobs(function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
             execution: Execution,
             cost: Callable[[int], float] | None = None) -> Generator[tuple[int, T], None, None]:
    """Call ``function(*args)`` for each argument tuple; yield ``(index, result)`` as each
    finishes. With ``cost`` (an estimate of job ``i``'s work, asked only when jobs run in
    parallel) they start costliest first, so no long job is left to run alone at the end.
    Closing the iterator early (an interrupt) cancels what has not started."""
    execution.check()
    serial = execution.executor == "process" and execution.jobs == 1
    order = (range(len(arguments)) if cost is None or serial
             else start_order([cost(i) for i in range(len(arguments))]))
    if execution.executor == "dask":
        yield from _dask(function, arguments, order, execution)
    elif execution.jobs == 1:
        for index, args in enumerate(arguments):
            yield index, function(*args)
    else:
        yield from _processes(function, arguments, order, execution.jobs)


def _processes(function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
               order: Sequence[int], workers: int) -> Generator[tuple[int, T], None, None]:
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        pending: dict[Future[T], int] = {pool.submit(function, *arguments[i]): i for i in order}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: pending[f]):
                yield pending.pop(future), future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
          order: Sequence[int], execution: Execution) -> Generator[tuple[int, T], None, None]:
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    try:
        if execution.scheduler is None:
            cluster = LocalCluster(n_workers=execution.jobs, threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(execution.scheduler, timeout=30)
    except OSError as exc:
        raise HarnessError(f"dask scheduler {execution.scheduler}: cannot connect: {exc}") from None
    try:
        futures = [client.submit(function, *arguments[i], key=f"harness-job-{i}", pure=False)
                   for i in order]
        index = {future.key: i for i, future in zip(order, futures, strict=True)}
        for future in as_completed(futures):
            yield index[future.key], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
