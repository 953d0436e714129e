"""``perft``: leaf nodes a second of ``harness perft``'s compiled count, and its ratio to
the Python generators on the same counts.

The figure is the compiled board's perft (``harness.games.chess.compiled.perft``, what
``harness perft`` counts with where it was built) on the start position to depth 6 and
Kiwipete to depth 5 (``--quick``: 5 and 4), the median of ``repeats`` timings of the
pair; target >= 20 M nodes/s (issue 37). Perft counts the last ply in bulk, as engines'
perft does (a position one ply from the end adds its number of legal moves), and a node
here is a leaf: the count divided by the seconds, the convention of perft rates.

The ratios: the same two positions to depths 4 and 3 (the Python paths take about a
second there), counted by the harness's Python generator (``movegen.perft``, the fallback
where the extension was not built) and by python-chess's ``Board.legal_moves`` once each,
and by the compiled board ``repeats`` times (median). Every count must be the published
one (the project's ``perft.epd``), or the benchmark stops.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import chess

from benchmarks.common import Figure, Outcome, Target, median, spread, timed
from harness.games.chess import compiled, movegen
from harness.games.chess.perft import GENERATORS, PerftPosition, load_suite
from harness.games.chess.suite_files import project_positions

RATE_TARGET = Target(">=", 20_000_000)
POSITIONS = ("start", "kiwipete")
DEPTHS = {"full": (6, 5), "quick": (5, 4)}
"""Depths of the figure's counts, for the start position and Kiwipete."""
RATIO_DEPTHS = (4, 3)
"""Depths of the ratios' counts (what the Python paths count in about a second)."""
REPEATS = {"full": 3, "quick": 2}
PUBLISHED_START_D6 = 119_060_324
"""The start position's count at depth 6 (chessprogramming wiki, "Perft Results"; the
project's perft.epd stops at depth 5)."""

Counter = Callable[[PerftPosition, int], int]


def compiled_count(position: PerftPosition, depth: int) -> int:
    return compiled.perft(chess.Board(position.fen), depth)


def python_count(position: PerftPosition, depth: int) -> int:
    return movegen.perft(chess.Board(position.fen), depth)


def python_chess_count(position: PerftPosition, depth: int) -> int:
    return movegen.perft(chess.Board(position.fen), depth, GENERATORS["python-chess"])


def published(position: PerftPosition, depth: int) -> int:
    """The published count of ``position`` at ``depth``."""
    if position.name == "start" and depth == 6:
        return PUBLISHED_START_D6
    return position.counts[depth]


def time_counts(counter: Counter, positions: list[PerftPosition],
                depths: tuple[int, ...]) -> tuple[float, int, float]:
    """``(seconds, leaves, CPU seconds)`` of ``counter`` on each position to its depth,
    every count checked against the published one."""
    seconds, leaves, cpu = 0.0, 0, 0.0
    for position, depth in zip(positions, depths, strict=True):
        elapsed, cpu_elapsed, counted = timed(partial(counter, position, depth))
        if counted != published(position, depth):
            raise AssertionError(f"perft {position.name} depth {depth}: {counted:,} counted, "
                                 f"{published(position, depth):,} published")
        seconds += elapsed
        leaves += counted
        cpu += cpu_elapsed
    return seconds, leaves, cpu


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    name = "leaf nodes/s, compiled perft"
    if not compiled.compiled_available():
        why = "the compiled chess board was not built"
        return Outcome("perft", [Figure(name, None, "nodes/s", RATE_TARGET, why)], 0, mode,
                       f"not available: {why}", {}, time.perf_counter() - start)
    suite, _ = load_suite(project_positions() / "perft.epd")
    positions = [next(p for p in suite if p.name == wanted) for wanted in POSITIONS]
    depths = DEPTHS[mode]
    timings = [time_counts(compiled_count, positions, depths) for _ in range(repeats)]
    leaves = timings[0][1]
    rate = leaves / median([seconds for seconds, _, _ in timings])
    cpu_rate = leaves / median([cpu for _, _, cpu in timings])
    small = [time_counts(compiled_count, positions, RATIO_DEPTHS) for _ in range(repeats)]
    small_leaves = small[0][1]
    small_s = median([seconds for seconds, _, _ in small])
    python_s, _, _ = time_counts(python_count, positions, RATIO_DEPTHS)
    python_chess_s, _, _ = time_counts(python_chess_count, positions, RATIO_DEPTHS)
    what = f"start to depth {depths[0]}, Kiwipete to depth {depths[1]}"
    small_what = f"start to depth {RATIO_DEPTHS[0]}, Kiwipete to depth {RATIO_DEPTHS[1]}"
    figures = [
        Figure(name, rate, "nodes/s", RATE_TARGET,
               f"{leaves:,} leaves ({what}), the last ply bulk-counted; every count the published "
               f"one; {cpu_rate / 1e6:.1f} M a CPU second"),
        Figure("compiled / harness Python generator", python_s / small_s, "x", None,
               f"{small_leaves:,} leaves ({small_what}): {small_leaves / python_s / 1e6:.2f} M nodes/s "
               "in Python (the fallback), same run"),
        Figure("compiled / python-chess legal_moves", python_chess_s / small_s, "x", None,
               f"the same counts: {small_leaves / python_chess_s / 1e6:.2f} M nodes/s with "
               "python-chess's generator"),
    ]
    details = {"counts": what, "leaves": leaves,
               "compiled_s": spread([seconds for seconds, _, _ in timings]),
               "compiled_cpu_s": spread([cpu for _, _, cpu in timings]),
               "ratio_counts": small_what, "ratio_leaves": small_leaves,
               "ratio_compiled_s": spread([seconds for seconds, _, _ in small]),
               "python_s": round(python_s, 3), "python_chess_s": round(python_chess_s, 3)}
    method = (f"compiled.perft ({what}), median of {repeats} timings of the pair; the ratios "
              f"on {small_what}: the compiled count {repeats} times (median), the harness's "
              "Python generator and python-chess's once each; every count checked against the "
              "published one. Perft bulk-counts the last ply; a node is a leaf.")
    return Outcome("perft", figures, repeats, mode, method, details, time.perf_counter() - start)
