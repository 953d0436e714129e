"""``sss``: nodes a second of Stockman's SSS* and DUAL* (the variants ``sss`` and ``dual``),
beside alpha-beta's on the same searches, per frame.

Over a tree that offers its methods in C (chess, Othello, checkers, Connect Four), SSS* and
DUAL* run in the compiled best-first frame (``harness/search/engine_best_first.h``, the
frame ``compiled-best-first``): the figure with the target of issue 37 (>= 1,000,000), on
the first positions of chess's ``bench.epd`` (depth 3; ``--quick``: 2), Othello's
``phases.txt`` (5; 4) and checkers' ``suite.txt`` (6; 5). On chess every leaf of SSS* is a
quiescence search with the full window (minimax's value of the leaf), so the rate counts
nodes and quiescence nodes, the work done; on the other games there are no qnodes. The
synthetic trees are Python objects: there SSS* runs its Python reference
(``harness/search/sss.py``, the frame ``best-first``), reported beside without a target.
Every answer is checked against alpha-beta's on the same search (exact variants: the same
score), or the benchmark stops; alpha-beta's own rate is given beside.
"""

from __future__ import annotations

import time
from itertools import islice

from benchmarks.common import Figure, Outcome, Target, median, spread
from harness.games.registry import find_game, load_problems
from harness.search.registry import parse_variants
from harness.search.run import run_search

RATE_TARGET = Target(">=", 1_000_000)
COMPILED = {"full": (("chess:bench.epd", 8, 3), ("othello:phases.txt", 6, 5),
                     ("checkers:suite.txt", 6, 6)),
            "quick": (("chess:bench.epd", 4, 2), ("othello:phases.txt", 4, 4),
                      ("checkers:suite.txt", 4, 5))}
"""Per mode: (problem set, problems, depth) of the native trees."""
PYTHON = {"full": (("random:b=6,d=6,n=6,seed=1", 6, 6),),
          "quick": (("random:b=6,d=5,n=4,seed=1", 4, 5),)}
"""The same, of the synthetic trees (Python objects: the Python frames)."""
REPEATS = {"full": 3, "quick": 1}


def rate(label: str, sets: tuple[tuple[str, int, int], ...], repeats: int
         ) -> tuple[float, int, list[float], dict[tuple[str, str], int], set[str]]:
    """``(work/s, work, seconds of each repeat, scores, frames)`` of ``label`` on ``sets``,
    its work nodes and quiescence nodes."""
    spec = parse_variants(label)[0]
    timings: list[float] = []
    work = 0
    scores: dict[tuple[str, str], int] = {}
    frames: set[str] = set()
    for _ in range(repeats):
        seconds, work = 0.0, 0
        for text, count, depth in sets:
            for problem in islice(load_problems(text).problems, count):
                tree = find_game(problem.game).tree(problem)
                result = run_search(tree, spec, depth)
                if result.status != "ok" or result.score is None:
                    raise AssertionError(f"{label} on {problem.suite} {problem.problem_id}: "
                                         f"status {result.status}")
                seconds += result.time_s
                work += result.counters["nodes"] + result.counters["qnodes"]
                scores[(problem.suite, problem.problem_id)] = result.score
                frames.add(result.frame)
        timings.append(seconds)
    return work / median(timings), work, timings, scores, frames


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    if repeats:
        REPEATS[mode] = repeats
    figures: list[Figure] = []
    details: dict[str, object] = {}
    groups = [(entry[0].split(":")[0], (entry,), RATE_TARGET) for entry in COMPILED[mode]]
    for kind, sets, target in (*groups, ("python", PYTHON[mode], None)):
        base_rate, base_work, base_s, base_scores, _ = rate("alphabeta", sets, REPEATS[mode])
        record: dict[str, object] = {"sets": [list(s) for s in sets],
                                     "alphabeta_work": base_work, "alphabeta_s": spread(base_s)}
        details[kind] = record
        for label in ("sss", "dual"):
            value, work, seconds, scores, frames = rate(label, sets, REPEATS[mode])
            wrong = [key for key, score in scores.items() if score != base_scores[key]]
            if wrong:
                raise AssertionError(f"{label}'s scores differ from alpha-beta's on {wrong[:3]}")
            figures.append(Figure(
                f"{label} nodes/s ({kind})", value, "nodes/s", target,
                f"{work:,} nodes and qnodes, frame {', '.join(sorted(frames))}, on "
                f"{', '.join(s[0] for s in sets)}; every score alpha-beta's; alpha-beta "
                f"{base_rate / 1e6:.2f} M nodes/s on the same searches, "
                f"{base_rate / value:.1f} times {label}'s rate"))
            record[f"{label}_work"], record[f"{label}_s"] = work, spread(seconds)
    method = ("run_search of sss, dual and alphabeta on the native trees "
              f"({', '.join(f'{s[0]} {s[1]} at depth {s[2]}' for s in COMPILED[mode])}) and "
              f"the synthetic ones ({', '.join(s[0] for s in PYTHON[mode])}), nodes and qnodes "
              "over the search time each SearchResult records, median of "
              f"{REPEATS[mode]} repeats; scores checked against alpha-beta's.")
    return Outcome("sss", figures, REPEATS[mode], mode, method, details,
                   time.perf_counter() - start)
