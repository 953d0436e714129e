"""``chess_tree``: chess nodes a second (nodes plus qnodes) with the compiled chess tree
(``harness/games/chess/_board.c``) against the Python tree, on the same positions in the
same run, every counter equal.

Each side searches the first WAC positions (the project's ``bench.epd`` where WAC is not
found) with the core variants at depths 1 to D and the default switches, as ``harness
run`` does: one tree a position, built in the timed part, shared by every variant and
depth (the Python tree's position cache warms across them, as in a run). The sides
alternate which goes first in each repeat; the figure is the ratio of the medians. Every
search's score, best move, principal variation and counters must be equal between the
sides (the benchmark stops otherwise).
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, Any

from benchmarks.common import Figure, Outcome, Target, median, spread, timed, wac_path

if TYPE_CHECKING:
    from harness.games.base import Problem

TARGET = Target(">=", 5.0)
SETTINGS = {"full": (20, 4), "quick": (6, 3)}
"""Positions (the first N) and the deepest depth, by mode."""
REPEATS = {"full": 3, "quick": 2}
VARIANTS = "core"


def suite_path() -> str:
    """WAC, or the project's bench suite where WAC is not found."""
    try:
        return str(wac_path())
    except SystemExit:
        from harness.games.chess.suite_files import find_suite

        return str(find_suite("bench.epd"))


def sample(tree_name: str, suite: str, positions: int) -> list[Problem]:
    """The first ``positions`` problems of ``suite`` with ``tree=tree_name``, their
    positions read (untimed)."""
    from harness.games.chess.game import position_of
    from harness.games.registry import load_problems

    problems = list(load_problems(f"chess:{suite},tree={tree_name}").problems[:positions])
    for problem in problems:
        position_of(problem)
    return problems


def search_all(problems: list[Problem], deepest: int) -> list[dict[str, Any]]:
    """Every problem with every core variant at depths 1..deepest, one tree a problem
    (its game option says which): each search's result without its time."""
    from harness.games.registry import find_game
    from harness.search.registry import parse_variants
    from harness.search.run import Switches, run_search

    game = find_game("chess")
    specs = parse_variants(VARIANTS)
    found = []
    for problem in problems:
        tree = game.tree(problem)
        for depth in range(1, deepest + 1):
            for spec in specs:
                result = run_search(tree, spec, depth, Switches())
                found.append({"problem": problem.problem_id, "variant": spec.label, "depth": depth,
                              "score": result.score, "best_move": result.best_move,
                              "pv": result.pv, **result.counters})
    return found


def measure(mode: str, repeats: int | None = None) -> Outcome:
    from harness.games.chess.compiled import compiled_available

    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    positions, deepest = SETTINGS[mode]
    suite = suite_path()
    if not compiled_available():
        why = "the compiled chess tree was not built (no C compiler at install)"
        figures = [Figure("nodes+qnodes/s compiled / Python tree", None, "x", TARGET, why)]
        return Outcome("chess_tree", figures, 0, mode, f"not available: {why}", {},
                       time.perf_counter() - start)
    seconds: dict[str, list[float]] = {"compiled": [], "python": []}
    cpu: dict[str, list[float]] = {"compiled": [], "python": []}
    results: dict[str, list[dict[str, Any]]] = {}
    problems = {side: sample(side, suite, positions) for side in seconds}
    for r in range(repeats):
        for side in (("compiled", "python") if r % 2 == 0 else ("python", "compiled")):
            wall, used, found = timed(partial(search_all, problems[side], deepest))
            seconds[side].append(wall)
            cpu[side].append(used)
            results.setdefault(side, found)
            if found != results[side] or found != results.get("compiled", found):
                raise AssertionError(f"the {side} tree's searches differ from the compiled tree's "
                                     "(or from its own earlier repeat): not the same work")
    rows = results["compiled"]
    work = sum(int(row["nodes"]) + int(row["qnodes"]) for row in rows)
    rates = {side: work / median(times) for side, times in seconds.items()}
    ratio = rates["compiled"] / rates["python"]
    name = suite.rsplit("/", 1)[-1]
    described = f"the first {positions} positions of {name}, {VARIANTS} variants, depths 1-{deepest}"
    figures = [
        Figure("nodes+qnodes/s compiled / Python tree", ratio, "x", TARGET,
               f"{len(rows):,} searches, {work:,} nodes+qnodes on {described}; every counter, score "
               "and PV equal"),
        Figure("nodes+qnodes/s, compiled tree", rates["compiled"], "nodes/s", None, "for information"),
        Figure("nodes+qnodes/s, Python tree", rates["python"], "nodes/s", None, "for information"),
    ]
    details = {"suite": suite, "positions": positions, "depths": [1, deepest], "variants": VARIANTS,
               "searches": len(rows), "nodes": sum(int(row["nodes"]) for row in rows),
               "qnodes": sum(int(row["qnodes"]) for row in rows),
               "compiled_s": spread(seconds["compiled"]), "python_s": spread(seconds["python"]),
               "cpu_compiled_s": spread(cpu["compiled"]), "cpu_python_s": spread(cpu["python"])}
    method = (f"{described}, default switches; one tree a position shared by its searches (as "
              "harness run), built in the timed part; the compiled and the Python tree "
              f"(tree=compiled, tree=python) alternating first, median of {repeats} repeats; "
              "every search's result compared.")
    return Outcome("chess_tree", figures, repeats, mode, method, details, time.perf_counter() - start)
