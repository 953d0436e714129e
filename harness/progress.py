"""Progress of a run on stderr: a bar on a terminal, plain periodic lines in a log."""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    """A callback ``(done, total)`` that shows jobs done, the rate and the time left.

    On a terminal it redraws one line; otherwise (CI logs) it prints a line at the first
    job, at most every ``interval`` seconds after that, and at the end.
    """

    def __init__(self, stream: TextIO, interval: float = 30.0, width: int = 30) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.interval = interval
        self.width = width
        self.start = time.monotonic()
        self.base: int | None = None            # jobs done before this session (a resume)
        self.last_line = float("-inf")

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.base is None:
            self.base = done - 1
        elapsed = now - self.start
        rate = (done - self.base) / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else float("nan")
        text = (f"{done}/{total} problems  {rate:.2f}/s  elapsed {_clock(elapsed)}"
                f"  left {_clock(left)}")
        if self.tty:
            filled = round(self.width * done / total) if total else self.width
            bar = "#" * filled + "." * (self.width - filled)
            self.stream.write(f"\r[{bar}] {text}")
            if done == total:
                self.stream.write("\n")
        elif done == total or now - self.last_line >= self.interval:
            self.stream.write(f"progress: {text}\n")
            self.last_line = now
        self.stream.flush()


def _clock(seconds: float) -> str:
    if seconds != seconds or seconds == float("inf"):
        return "?"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
