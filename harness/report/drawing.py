"""A report's charts drawn on every core there is: a small run's report is mostly drawing.

A nine-node tree's run spends about 0.9 of its 2.2 seconds drawing two charts (PNG and
SVG each). Where processes can be forked safely (Linux, and no thread but this one: a fork
copies a lock another thread holds), each chart but the first is drawn by a forked child
while this process draws the first; a child that fails leaves its chart to be drawn here
once it has ended, so an error is raised here exactly as without children (a child prints
nothing); every child has ended before the call returns or raises. A chart gives the same
bytes in either process (:func:`harness.report.charts.save`).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from matplotlib.figure import Figure

from harness.report import charts


def spare_cores() -> int:
    """How many charts may be drawn beside this process: the cores it may run on but one,
    0 where forking is not safe (not Linux, or another thread running)."""
    if not sys.platform.startswith("linux") or threading.active_count() > 1:
        return 0
    return len(os.sched_getaffinity(0)) - 1


def draw_in_child(build: Callable[[], Figure], path_without_suffix: Path) -> int:
    """Fork a child that draws ``build()`` into ``<path>.png|svg`` and ends; its pid."""
    pid = os.fork()
    if pid == 0:                               # the child: never returns
        status = 1
        try:
            charts.save(build(), path_without_suffix)
            status = 0
        finally:
            os._exit(status)                   # no atexit, no buffers flushed twice
    return pid


def save_charts(drawn: Sequence[tuple[str, Callable[[], Figure]]], chart_dir: Path,
                spare: int | None = None) -> list[tuple[Path, Path]]:
    """Draw each ``(name, build)`` into ``chart_dir/<name>.png|svg``, up to ``spare``
    (default :func:`spare_cores`) of them in forked children; the files, in order."""
    spare = spare_cores() if spare is None else spare
    children: dict[int, int] = {}              # index in drawn: pid
    for index in range(1, min(len(drawn), spare + 1)):
        name, build = drawn[index]
        children[index] = draw_in_child(build, chart_dir / name)
    failed = []
    try:
        for index, (name, build) in enumerate(drawn):
            if index not in children:
                charts.save(build(), chart_dir / name)
    finally:                                   # no child outlives the call, even on an error here
        for index, pid in children.items():
            _, status = os.waitpid(pid, 0)
            if status != 0:
                failed.append(index)
    for index in failed:                       # drawn here: its error raised as without a child
        name, build = drawn[index]
        charts.save(build(), chart_dir / name)
    return [charts.files_of(chart_dir / name) for name, _ in drawn]
