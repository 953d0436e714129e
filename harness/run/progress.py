"""Progress of a run on stderr: a bar on a terminal, plain lines in a log.

A run reports to a :class:`Listener`: a phase begins (a run of a default comparison, a
reproduction), searches finish (a problem is several: one per variant and depth, so a
long problem still moves the bar), problems finish, a note (writing the report), the
phase ends. :class:`Progress` shows it; the base class ignores it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class Listener:
    """What a run says about its progress; every method does nothing here."""

    def phase(self, name: str, problems: int, searches: int, problems_done: int = 0,
              searches_done: int = 0) -> None:
        """A phase of ``problems`` problems and ``searches`` searches begins; the counts
        done are those kept from before (a resume)."""

    def searched(self, count: int) -> None:
        """``count`` more searches finished."""

    def problem_done(self) -> None:
        """One more problem finished (its rows are saved)."""

    def note(self, text: str) -> None:
        """Something that takes a while and is not a search, e.g. writing the report."""

    def phase_done(self) -> None:
        """The phase ended (finished or interrupted)."""


@contextmanager
def in_phase(listener: Listener, name: str, problems: int, searches: int,
             problems_done: int = 0, searches_done: int = 0) -> Iterator[None]:
    """A phase of ``problems`` problems and ``searches`` searches, the counts done kept from
    before (a resume); it ends however the block does."""
    listener.phase(name, problems, searches, problems_done, searches_done)
    try:
        yield
    finally:
        listener.phase_done()


SLOW_SECONDS = 2.0
"""How long something before the first search may take before it is named on stderr."""


@contextmanager
def announced(listener: Listener, text: str) -> Iterator[None]:
    """Tell ``listener`` ``text`` (what the block does: reading a file, starting workers)
    once the block has taken :data:`SLOW_SECONDS`, so a run that is silent for long is
    never silent for nothing; a quick block says nothing."""
    if SLOW_SECONDS <= 0:
        listener.note(text)
        yield
        return
    timer = threading.Timer(SLOW_SECONDS, listener.note, (text,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


class Progress(Listener):
    """On a terminal one line, redrawn as searches finish and every second (the clock
    moves during a long search); otherwise (CI logs) a line when a phase begins, at most
    every ``interval`` seconds after that, and when it ends. Times left are estimated
    from the searches done in this session."""

    def __init__(self, stream: TextIO, interval: float = 30.0, width: int = 24) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.interval = interval
        self.width = width
        self.lock = threading.Lock()
        self.name = ""
        self.problems = self.searches = self.problems_done = self.searches_done = 0
        self.base = 0                       # searches done before this session (a resume)
        self.start = time.monotonic()
        self.last_line = float("-inf")
        self.drawn = 0                      # length of the line on the terminal
        self.ticker: threading.Thread | None = None
        self.running = False

    def phase(self, name: str, problems: int, searches: int, problems_done: int = 0,
              searches_done: int = 0) -> None:
        with self.lock:
            self.name, self.problems, self.searches = name, problems, searches
            self.problems_done, self.searches_done = problems_done, searches_done
            self.base, self.start = searches_done, time.monotonic()
            self.running = True
            self._show(force=True)
        if self.tty:
            self.ticker = threading.Thread(target=self._tick, name="harness-progress", daemon=True)
            self.ticker.start()

    def searched(self, count: int) -> None:
        with self.lock:
            self.searches_done += count
            self._show()

    def problem_done(self) -> None:
        with self.lock:
            self.problems_done += 1
            self._show()

    def note(self, text: str) -> None:
        with self.lock:
            self._end_line()
            self.stream.write(f"{self.name + ': ' if self.name else ''}{text}\n")
            self.stream.flush()

    def phase_done(self) -> None:
        with self.lock:
            if not self.running:
                return
            self.running = False
            self._show(force=True)
            self._end_line()
        if self.ticker is not None:
            self.ticker.join()
            self.ticker = None

    def text(self) -> str:
        """The progress line without decoration."""
        elapsed = time.monotonic() - self.start
        done = self.searches_done - self.base
        left = elapsed * (self.searches - self.searches_done) / done if done > 0 else float("nan")
        return (f"{self.name}: {self.problems_done}/{self.problems} problems, "
                f"{self.searches_done:,}/{self.searches:,} searches, elapsed {_clock(elapsed)}, "
                f"left {_clock(left)}")

    def _tick(self) -> None:
        while True:
            time.sleep(1.0)
            with self.lock:
                if not self.running:
                    return
                self._show(force=True)

    def _show(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.tty:
            if not force and now - self.last_line < 0.1:
                return
            share = self.searches_done / self.searches if self.searches else 1.0
            filled = round(self.width * share)
            line = f"[{'#' * filled}{'.' * (self.width - filled)}] {self.text()}"
            self.stream.write("\r" + line.ljust(self.drawn))
            self.drawn = len(line)
        elif force or now - self.last_line >= self.interval:
            self.stream.write(f"progress: {self.text()}\n")
        else:
            return
        self.last_line = now
        self.stream.flush()

    def _end_line(self) -> None:
        if self.tty and self.drawn:
            self.stream.write("\n")
            self.drawn = 0


def _clock(seconds: float) -> str:
    if seconds != seconds or seconds == float("inf"):
        return "?"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
