"""``frames``: is a time a measure of the algorithm? The time a node of the slowest core
variant over the fastest's, on each compiled game, the same positions and depths.

A time compares two algorithms only when both ran in one frame: before every loop had
its compiled twin, alpha-beta ran in the C frame and PVS in the mypyc one, four to eight
times slower a node on Connect Four, and the report's time column said PVS is slow. The
figure, per game (Connect Four, Othello, checkers, chess), is the largest time a node
among the core variants over the smallest (target <= 1.25, issue 39), with the frame
each variant ran in beside it. The compiled frame's gain over the mypyc one on the same
searches (every counter equal; `pvs`, timed in both frames in every repeat, each frame's
least time a node) is given beside it: for chess against its target (>= 3), elsewhere for
information. Every exact variant's score is
checked against alpha-beta's, or the benchmark stops.
"""

from __future__ import annotations

import random
import time
from itertools import islice

from benchmarks.common import Figure, Outcome, Target, spread
from harness.games.base import Tree
from harness.games.registry import find_game, load_problems
from harness.search.registry import CORE, VariantSpec, make_spec
from harness.search.run import SearchResult, Switches, run_search

RATIO_TARGET = Target("<=", 1.25)
CHESS_GAIN_TARGET = Target(">=", 3)
"""Issue 39: chess's nodes + qnodes a second in the compiled frame at least 3 times the
mypyc frame's on the same searches (the other games' gains are for information)."""
TABLE = Switches(tt_size=1 << 16)
REPEATS = {"full": 15, "quick": 2}
GAMES: dict[str, dict[str, tuple[str | None, int, int]]] = {
    # game: {mode: (problem set, or None for seeded Connect Four positions; problems; depth)}
    "connect4": {"full": (None, 20, 16), "quick": (None, 10, 14)},
    "othello": {"full": ("othello:phases.txt", 12, 6), "quick": ("othello:phases.txt", 6, 5)},
    "checkers": {"full": ("checkers:suite.txt", 10, 8), "quick": ("checkers:suite.txt", 5, 6)},
    "chess": {"full": ("chess:bench.epd", 8, 4), "quick": ("chess:bench.epd", 4, 3)},
}


def connect4_positions(count: int, seed: int = 7) -> list[str]:
    """``count`` Connect Four positions of 8 to 20 stones, reached by seeded random play
    (no finished game): mid-game searches of a few thousand nodes."""
    from harness.games.connect4.compiled import connect4_tree
    from harness.games.connect4.tree import board_from
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        stones, moves = rng.randint(8, 20), ""
        tree = connect4_tree(board_from(""), "threats", True, compiled=True)
        for _ in range(stones):
            legal = tree.moves()
            if not legal or tree.leaf_value() is not None:  # type: ignore[attr-defined]
                break
            column = int(rng.choice(list(legal)))  # type: ignore[call-overload]
            moves += str(column + 1)
            tree.push(column)
        if len(moves) == stones and tree.moves():
            found.append(moves)
    return found


def trees(game: str, mode: str) -> tuple[list[Tree], int]:
    """Fresh trees of the game's positions (compiled where built), and the depth."""
    text, count, depth = GAMES[game][mode]
    if text is None:
        from harness.games.connect4.compiled import connect4_tree
        from harness.games.connect4.tree import board_from
        return [connect4_tree(board_from(m), "threats", True) for m in connect4_positions(count)], depth
    problems = list(islice(load_problems(text).problems, count))
    return [find_game(p.game).tree(p) for p in problems], depth


def searches(game: str, mode: str, spec: VariantSpec, native: bool = True) -> list[SearchResult]:
    found, depth = trees(game, mode)
    return [run_search(tree, spec, depth, TABLE, native=native) for tree in found]


def per_node(results: list[SearchResult]) -> float:
    """Seconds a node (nodes and qnodes) over the searches."""
    work = sum(r.counters["nodes"] + r.counters["qnodes"] for r in results)
    return sum(r.time_s for r in results) / work


def measure_game(game: str, mode: str) -> tuple[list[Figure], dict[str, object]]:
    base = [r.score for r in searches(game, mode, make_spec("alphabeta"))]
    costs: dict[str, list[float]] = {}
    frames: dict[str, str] = {}
    mypyc: list[float] = []             # pvs in the mypyc frame, where pvs runs compiled
    for _ in range(REPEATS[mode]):      # the variants interleaved: a slow moment hits all
        for name in CORE:
            spec = make_spec(name)
            results = searches(game, mode, spec)
            if spec.variant.exact and [r.score for r in results] != base:
                raise AssertionError(f"frames: {name}'s scores on {game} differ from alpha-beta's")
            costs.setdefault(name, []).append(per_node(results))
            frames[name] = ",".join(sorted({r.frame for r in results}))
            if name == "pvs" and frames[name] == "compiled":
                python = searches(game, mode, spec, native=False)
                if [r.counters for r in python] != [r.counters for r in results]:
                    raise AssertionError(f"frames: pvs on {game} counts differently in the two frames")
                mypyc.append(per_node(python))
    # The least disturbed repeat (as timeit takes): on 2 shared cores the median of five
    # still moved by 0.2 between runs minutes apart, the minimum by a few hundredths.
    cost = {name: min(samples) for name, samples in costs.items()}
    slowest, fastest = max(cost, key=cost.__getitem__), min(cost, key=cost.__getitem__)
    ratio = cost[slowest] / cost[fastest]
    _, count, depth = GAMES[game][mode]
    figures = [Figure(f"{game}: time a node, slowest / fastest core variant", ratio, "x",
                      RATIO_TARGET, f"{slowest} {cost[slowest] * 1e6:.3f} µs ({frames[slowest]}) "
                      f"over {fastest} {cost[fastest] * 1e6:.3f} µs ({frames[fastest]}); "
                      f"{count} positions, depth {depth}")]
    details: dict[str, object] = {f"{name} µs/node": spread([c * 1e6 for c in costs[name]])
                                  for name in CORE}
    details["frames"] = frames
    if mypyc:
        # Each frame's least time a node over the same repeats, as the ratio above: one
        # search of each, timed once, moved the chess figure by a third on a busy machine.
        gain = min(mypyc) / cost["pvs"]
        details["pvs µs/node, mypyc frame"] = spread([c * 1e6 for c in mypyc])
        figures.append(Figure(f"{game}: pvs, the mypyc frame's time a node / the compiled frame's",
                              gain, "x", CHESS_GAIN_TARGET if game == "chess" else None,
                              f"every counter equal; the least of {len(mypyc)} repeats each"))
    return figures, details


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    if repeats:
        REPEATS[mode] = repeats
    figures: list[Figure] = []
    details: dict[str, object] = {}
    for game in GAMES:
        found, game_details = measure_game(game, mode)
        figures += found
        details[game] = game_details
    sets = "; ".join(f"{game}: {text or 'seeded positions'}, {count} at depth {depth}"
                     for game, (text, count, depth) in ((g, s[mode]) for g, s in GAMES.items()))
    method = (f"run_search of the core variants ({', '.join(CORE)}) with a 65,536-entry table "
              f"on each game's positions ({sets}), seconds a node (nodes + qnodes) from each "
              f"SearchResult's time, the least of {REPEATS[mode]} repeats (variants interleaved); "
              "exact variants' scores "
              "checked against alpha-beta's.")
    return Outcome("frames", figures, REPEATS[mode], mode, method, details,
                   time.perf_counter() - start)
