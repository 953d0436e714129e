"""``checkers``: nodes per second of checkers searches with the compiled tree, against the
Python tree on the same searches.

The searches are those of the comparison issue 28 asks for: alpha-beta, PVS, NegaScout
and MTD(f), iterative deepening with a table of 2^20 entries, on the start and the 24
positions of the package's suite (three phases), to depth 9 (``--quick``: the start and
the first 8 positions, depth 7). The compiled tree's searches are timed ``repeats`` times
(median); the Python tree's once, for the ratio, and every counter and score of every
search must be equal between the two trees (the benchmark stops otherwise).
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from benchmarks.common import Figure, Outcome, Target, median, spread, timed
from harness.games.checkers.board import START_FEN, parse_fen
from harness.games.checkers.compiled import checkers_tree, compiled_available
from harness.games.registry import load_problems
from harness.search.registry import make_spec
from harness.search.run import Switches, run_search

RATE_TARGET = Target(">=", 1_000_000)
VARIANTS = ("alphabeta", "pvs", "negascout", "mtdf")
SWITCHES = Switches(tt_size=1 << 20, iterative_deepening=True)
POSITIONS = {"full": 24, "quick": 8}
DEPTH = {"full": 9, "quick": 7}
REPEATS = {"full": 3, "quick": 2}


def search(fen: str, variant: str, depth: int, compiled: bool) -> dict[str, Any]:
    """One search from a fresh tree: its counters and score."""
    result = run_search(checkers_tree(parse_fen(fen), compiled=compiled), make_spec(variant),
                        depth, SWITCHES)
    return {"score": result.score, **result.counters}


def run_all(fens: list[str], depth: int, compiled: bool) -> tuple[float, list[dict[str, Any]]]:
    """Every variant on every position: (seconds, each search's counters)."""
    seconds = 0.0
    found = []
    for variant in VARIANTS:
        for fen in fens:
            elapsed, _, counters = timed(partial(search, fen, variant, depth, compiled))
            seconds += elapsed
            found.append(counters)
    return seconds, found


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    if not compiled_available():
        why = "the compiled checkers tree was not built"
        return Outcome("checkers", [Figure("nodes/s, compiled tree", None, "nodes/s", RATE_TARGET, why)],
                       0, mode, f"not available: {why}", {}, time.perf_counter() - start)
    suite = [p.position for p in load_problems("checkers:suite.txt").problems]
    fens = [START_FEN, *suite[:POSITIONS[mode]]]
    depth = DEPTH[mode]
    python_s, slow = run_all(fens, depth, compiled=False)
    compiled_s = []
    for _ in range(repeats):
        seconds, fast = run_all(fens, depth, compiled=True)
        if fast != slow:
            raise AssertionError("the compiled checkers tree's searches differ from the Python tree's")
        compiled_s.append(seconds)
    nodes = sum(int(c["nodes"]) for c in slow)
    rate, python_rate = nodes / median(compiled_s), nodes / python_s
    what = (f"{', '.join(VARIANTS)}, iterative deepening to depth {depth}, table 2^20, on the "
            f"start and {len(fens) - 1} suite positions")
    figures = [
        Figure("nodes/s, compiled tree", rate, "nodes/s", RATE_TARGET,
               f"{nodes:,} nodes: {what}; every counter equal to the Python tree's"),
        Figure("the same, Python tree", python_rate, "nodes/s", None,
               f"compiled / Python {rate / python_rate:.1f}x; for information"),
    ]
    details = {"searches": what, "nodes": nodes, "compiled_s": spread(compiled_s),
               "python_s": round(python_s, 3)}
    method = (f"{what}: each search from a fresh tree, the compiled tree's {repeats} times "
              "(median of the totals), the Python tree's once, every counter and score compared.")
    return Outcome("checkers", figures, repeats, mode, method, details, time.perf_counter() - start)
