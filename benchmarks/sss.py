"""``sss``: nodes a second of Stockman's SSS* and DUAL* (the variants ``sss`` and ``dual``),
beside alpha-beta's on the same searches.

SSS* and DUAL* run best-first over an OPEN list and reach each state by replaying its path
from the root (``harness/search/sss.py``, interpreted): the variants users found slowest
(13.5 s of the default run's 26 s of search, at about 0.06 M nodes/s). The figure is the
nodes a second of each on the first positions of the project's ``bench.epd`` at depth 3
(``--quick``: 2) and on seeded random trees (b=6, depth 6), target >= 1,000,000 (issue
37). Every answer is checked against alpha-beta's on the same search (exact variants: the
same score), or the benchmark stops; alpha-beta's own rate is given beside, as the ratio
of the two, so that a reader sees how far the best-first frame is from the depth-first one.
"""

from __future__ import annotations

import time
from itertools import islice

from benchmarks.common import Figure, Outcome, Target, median, spread
from harness.games.registry import find_game, load_problems
from harness.search.registry import parse_variants
from harness.search.run import run_search

RATE_TARGET = Target(">=", 1_000_000)
SETS = {"full": (("chess:bench.epd", 8, 3), ("random:b=6,d=6,n=6,seed=1", 6, 6)),
        "quick": (("chess:bench.epd", 4, 2), ("random:b=6,d=5,n=4,seed=1", 4, 5))}
"""Per mode: (problem set, problems, depth)."""
REPEATS = {"full": 3, "quick": 1}


def rate(label: str, mode: str) -> tuple[float, int, list[float], dict[tuple[str, str], int]]:
    """``(nodes/s, nodes, seconds of each repeat, scores)`` of ``label`` on the mode's sets."""
    spec = parse_variants(label)[0]
    timings: list[float] = []
    nodes = 0
    scores: dict[tuple[str, str], int] = {}
    for _ in range(REPEATS[mode]):
        seconds, nodes = 0.0, 0
        for text, count, depth in SETS[mode]:
            for problem in islice(load_problems(text).problems, count):
                tree = find_game(problem.game).tree(problem)
                result = run_search(tree, spec, depth)
                if result.status != "ok" or result.score is None:
                    raise AssertionError(f"{label} on {problem.suite} {problem.problem_id}: "
                                         f"status {result.status}")
                seconds += result.time_s
                nodes += result.counters["nodes"]
                scores[(problem.suite, problem.problem_id)] = result.score
        timings.append(seconds)
    return nodes / median(timings), nodes, timings, scores


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    if repeats:
        REPEATS[mode] = repeats
    base_rate, base_nodes, base_s, base_scores = rate("alphabeta", mode)
    figures: list[Figure] = []
    details: dict[str, object] = {"sets": [list(s) for s in SETS[mode]],
                                  "alphabeta_nodes": base_nodes, "alphabeta_s": spread(base_s)}
    for label in ("sss", "dual"):
        value, nodes, seconds, scores = rate(label, mode)
        wrong = [key for key, score in scores.items() if score != base_scores[key]]
        if wrong:
            raise AssertionError(f"{label}'s scores differ from alpha-beta's on {wrong[:3]}")
        figures.append(Figure(f"{label} nodes/s", value, "nodes/s", RATE_TARGET,
                              f"{nodes:,} nodes; every score alpha-beta's; alpha-beta "
                              f"{base_rate / 1e6:.2f} M nodes/s on the same searches, "
                              f"{base_rate / value:.1f} times {label}'s rate"))
        details[f"{label}_nodes"], details[f"{label}_s"] = nodes, spread(seconds)
    method = (f"run_search of sss, dual and alphabeta on {', '.join(s[0] for s in SETS[mode])} "
              f"(the first problems, depths {', '.join(str(s[2]) for s in SETS[mode])}), the "
              f"search time each SearchResult records, median of {REPEATS[mode]} repeats; "
              "scores checked against alpha-beta's.")
    return Outcome("sss", figures, REPEATS[mode], mode, method, details,
                   time.perf_counter() - start)
