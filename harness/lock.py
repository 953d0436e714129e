"""One writer per output folder: an advisory lock held while a command writes there.

Two processes appending to the same ``results.csv`` lose rows (a resume started while the
run was still going ended 40-80 rows short of 1,200). So whoever writes a run folder (a
run, a resume, a report rebuild, a comparison, a reproduction) first takes an exclusive
``flock`` on ``DIR/.harness.lock``; a second writer is refused with one line naming the
holder. The operating system releases the lock when the holder exits, however it exits
(a crash or ``kill -9`` leaves no stale lock to clean up). The file itself stays, holding
the last holder's pid, command and start time, for the message.

A command that only reads a run folder (``compare --run DIR --out ELSEWHERE``) needs no
write access there: it takes a shared lock through a read-only handle on the same file
(:func:`reading_folder`), so it is refused while a writer holds the folder (it would read
rows still being written) and a writer is refused while it reads, as with two writers.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from harness.errors import HarnessError

LOCK_FILE = ".harness.lock"
"""The lock's file name inside the folder it guards."""

try:
    import fcntl
except ImportError:                         # not POSIX: no advisory locks to take
    fcntl = None  # type: ignore[assignment]


@contextmanager
def hold_folder(folder: str | Path, command: Sequence[str] = ()) -> Iterator[None]:
    """Create ``folder`` if needed and hold its lock while the block runs; raise
    :class:`HarnessError` naming the other process when another one holds it."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_FILE
    file = path.open("a+", encoding="utf-8")
    try:
        _take(file, path)
        file.seek(0)
        file.truncate()
        text = " ".join(command) if command else " ".join(["harness", *sys.argv[1:]])
        started = datetime.now(UTC).isoformat(timespec="seconds")
        file.write(f"pid {os.getpid()}, started {started}: {text}\n")
        file.flush()
        yield
    finally:
        file.close()                        # closing releases the lock


@contextmanager
def reading_folder(folder: str | Path) -> Iterator[None]:
    """Hold a shared lock on ``folder`` while the block reads it, without writing there:
    raise :class:`HarnessError` naming the writer when one holds it. A folder without a
    lock file (no harness ever wrote it with locks) or whose lock file cannot be read is
    read unlocked."""
    path = Path(folder) / LOCK_FILE
    try:
        file = path.open(encoding="utf-8")
    except OSError:
        yield
        return
    try:
        _take(file, path, exclusive=False)
        yield
    finally:
        file.close()


def _take(file: IO[str], path: Path, exclusive: bool = True) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(file.fileno(), (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        file.seek(0)
        holder = file.read().strip() or "another process"
        doing = "using" if exclusive else "writing"        # a writer may be refused by a reader
        raise HarnessError(f"{path.parent}: another harness process is {doing} this folder "
                           f"(last writer: {holder}); wait for it to finish or stop it") from None
