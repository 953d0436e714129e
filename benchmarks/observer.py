"""``observer``: what the search's optional observer (the trace behind ``harness tree``)
costs when it is off, and, for information, when it is on.

Three sides search the same problems with the ``alphabeta`` variant (no table):

- ``off``: ``run_search(tree, make_spec("alphabeta"), depth, Switches())``, the normal path;
- ``bare``: ``search_with(Search, tree, make_spec("alphabeta"), depth, Switches())``: the
  function ``run_search`` hands its work to, given a plain
  :class:`harness.search.core.Search` without asking whether to trace. The same code as
  ``off`` in everything else (setup, driver, deepening, best move, principal variation),
  so the baseline cannot drift from the real thing;
- ``on``: ``run_search(..., trace=True)``.

Figures: ``off / bare`` (target: within the noise, <= 1.05; the same schedule timing
``off`` against itself gave 1.035 here) and ``on / off`` (information), per search, on
synthetic trees and on WAC positions (skipped if ``wac.epd`` cannot be found).
The sides are interleaved per problem (see :func:`schedule`): ``bare`` and ``off`` run in
pairs, alternating their order, and ``on``, which on synthetic trees costs about eight
times as much, runs once per problem and repeat while the pair runs ``TREE_ROUNDS`` times,
so the figure with a target gets most of the time. A first, untimed search warms each
problem; every search's counters, score, best move and principal variation must equal
it. Each side returns only its counts, so a trace is built and freed inside its own
timing. Chess trees are built fresh for every search (a fresh position cache), outside
the timing; synthetic trees are generated once each, untimed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import chess

from benchmarks.common import Figure, Outcome, Target, median, spread, timed, wac_path
from harness.games.base import Tree
from harness.games.chess.tree import ChessTree, PositionCache
from harness.games.trees import generate_tree, parse_spec
from harness.search.core import Search
from harness.search.registry import make_spec
from harness.search.run import SearchResult, Switches, run_search, search_with

SPEC = "random:b=8,d=6,n=6"
POSITIONS = 5
CHESS_DEPTH = 3
TREE_ROUNDS = 4
"""Searches of each tree per repeat by ``bare`` and ``off`` (the trace costs about 8 times
as much here: ``on`` runs once, so the figure that has a target gets most of the time)."""
CHESS_ROUNDS = 2
"""The same for chess (the trace costs about 10% more there); two rounds also put the
pair in both orders within every repeat."""
OFF_TARGET = Target("<=", 1.05)
REPEATS = {"full": 5, "quick": 3}
SIDES = ("bare", "off", "on")


# -- the three sides ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Counts:
    """What one search did and found: equal on every side."""

    nodes: int
    qnodes: int
    score: int | None
    best_move: str
    pv: tuple[str, ...]
    counters: tuple[tuple[str, int], ...]
    """Every counter of the search."""


def _counts(result: SearchResult) -> Counts:
    c = result.counters
    return Counts(c["nodes"], c.get("qnodes", 0), result.score, result.best_move,
                  tuple(result.pv), tuple(sorted(c.items())))


def bare_side(tree: Tree, depth: int) -> Counts:
    return _counts(search_with(Search, tree, make_spec("alphabeta"), depth, Switches()))


def off_side(tree: Tree, depth: int) -> Counts:
    return _counts(run_search(tree, make_spec("alphabeta"), depth, Switches()))


def on_side(tree: Tree, depth: int) -> Counts:
    result = run_search(tree, make_spec("alphabeta"), depth, Switches(), trace=True)
    assert result.trace, "run_search(trace=True) returned no trace"
    return _counts(result)


SIDE_FUNCTIONS: dict[str, Callable[[Tree, int], Counts]] = {
    "bare": bare_side, "off": off_side, "on": on_side}


def schedule(repeat: int, rounds: int) -> list[str]:
    """The sides timed on one problem in repeat ``repeat`` (0-based): ``on`` once, first in
    even repeats and last in odd ones, and ``rounds`` pairs of ``bare`` and ``off``, each
    pair in the other order than the one before, the first pair's order changing every
    two repeats. So each pair of sides runs in both orders, and the side run right after
    ``on`` (whose trace is freed as it returns) is ``bare`` in repeats 0, 4, ... and ``off``
    in repeats 2, 6, ...; with one round: on b o, b o on, on o b, o b on, on b o, ..."""
    pairs = [side for j in range(rounds)
             for side in (("bare", "off") if (repeat // 2 + j) % 2 == 0 else ("off", "bare"))]
    return ["on", *pairs] if repeat % 2 == 0 else [*pairs, "on"]


class Timings:
    """Per side and repeat: wall and CPU seconds summed over the problems (and over the
    rounds for ``bare`` and ``off``)."""

    def __init__(self, repeats: int, rounds: int) -> None:
        self.repeats = repeats
        self.rounds = rounds
        """Searches of each problem per repeat by ``bare`` and by ``off`` (``on``: one)."""
        self.wall = {side: [0.0] * repeats for side in SIDES}
        self.cpu = {side: [0.0] * repeats for side in SIDES}
        self.nodes = 0
        self.qnodes = 0

    def run(self, label: str, make_tree: Callable[[], Tree], depth: int) -> None:
        """Time the sides on one problem, interleaved (see :func:`schedule`); a fresh tree
        from ``make_tree`` for every search (built untimed). A first, untimed search by
        ``off`` warms the problem and gives the counts every search must find."""
        expected = off_side(make_tree(), depth)
        self.nodes += expected.nodes
        self.qnodes += expected.qnodes
        for r in range(self.repeats):
            for side in schedule(r, self.rounds):
                tree = make_tree()
                seconds, cpu_seconds, counts = timed(partial(SIDE_FUNCTIONS[side], tree, depth))
                del tree
                if counts != expected:
                    raise AssertionError(f"{label}: side {side} found {counts}, "
                                         f"the untimed search {expected}")
                self.wall[side][r] += seconds
                self.cpu[side][r] += cpu_seconds

    def per_search(self, side: str, cpu: bool = False) -> float:
        """Median over repeats of the side's time for one search of every problem."""
        samples = self.cpu if cpu else self.wall
        return median(samples[side]) / (1 if side == "on" else self.rounds)

    def ratio(self, a: str, b: str, cpu: bool = False) -> float:
        return self.per_search(a, cpu) / self.per_search(b, cpu)

    def details(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rounds": self.rounds, "nodes": self.nodes, "qnodes": self.qnodes}
        for side in SIDES:
            out[f"{side}_s"] = spread(self.wall[side])
            out[f"{side}_cpu_s"] = spread(self.cpu[side])
        for a, b in (("off", "bare"), ("on", "off")):
            out[f"{a}/{b}"] = round(self.ratio(a, b), 4)
            out[f"{a}/{b}_cpu"] = round(self.ratio(a, b, cpu=True), 4)
        return out


def _figures(what: str, t: Timings) -> list[Figure]:
    count = f"{t.nodes:,} nodes" + (f" + {t.qnodes:,} qnodes" if t.qnodes else "")
    rounds = f" ({t.rounds} runs each)" if t.rounds > 1 else ""
    return [
        Figure(f"time off/bare, {what}", t.ratio("off", "bare"), "x", OFF_TARGET,
               f"{count} equal; off {median(t.wall['off']):.3f}s, bare "
               f"{median(t.wall['bare']):.3f}s{rounds}; CPU-time ratio "
               f"{t.ratio('off', 'bare', True):.3f}"),
        Figure(f"time on/off, {what} (info)", t.ratio("on", "off"), "x", None,
               f"traced {t.per_search('on'):.3f}s, off {t.per_search('off'):.3f}s per "
               f"search of all; CPU-time ratio {t.ratio('on', 'off', True):.3f}"),
    ]


def _same(tree: Tree) -> Tree:
    """A synthetic tree is searched again as it is (``run_search`` resets it)."""
    return tree


def _fresh_chess_tree(board: chess.Board) -> Tree:
    """A chess tree with an empty position cache, as a new search would have."""
    return ChessTree(board, cache=PositionCache())


# -- the benchmark ------------------------------------------------------------------------------

def measure(mode: str, repeats: int | None = None, spec_text: str = SPEC,
            positions: int = POSITIONS, chess_depth: int = CHESS_DEPTH) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    spec = parse_spec(spec_text)
    trees = Timings(repeats, TREE_ROUNDS)
    generation = 0.0
    for index in range(spec.count):
        seconds, _, tree = timed(partial(generate_tree, spec, index))
        generation += seconds
        trees.run(f"{spec} tree {index}", partial(_same, tree), spec.depth)
        del tree                                  # free the arrays before the next tree
    details: dict[str, Any] = {
        "trees": {"spec": str(spec), "depth": spec.depth, "count": spec.count,
                  "generation_s_untimed": round(generation, 2), **trees.details()}}
    figures = _figures("trees", trees)

    chess_text: str
    try:
        suite_path = wac_path()
    except SystemExit as missing:
        details["chess"] = {"skipped": str(missing)}
        figures += [Figure("time off/bare, chess", None, "x", OFF_TARGET, "not available: "
                           "wac.epd not found"),
                    Figure("time on/off, chess (info)", None, "x", None, "not available")]
        chess_text = "chess skipped (wac.epd not found)"
    else:
        from harness.games.chess.epd import load_suite

        boards = [(p.id, p.board()) for p in load_suite(suite_path).positions[:positions]]
        chess = Timings(repeats, CHESS_ROUNDS)
        for pid, board in boards:
            chess.run(pid, partial(_fresh_chess_tree, board), chess_depth)
        details["chess"] = {"positions": [pid for pid, _ in boards], "depth": chess_depth,
                            **chess.details()}
        figures += _figures("chess", chess)
        chess_text = (f"the first {len(boards)} WAC positions to depth {chess_depth} (quiescence, "
                      "MVV-LVA; a fresh tree and position cache per search, built untimed)")
    method = ("alphabeta (no table) three ways: run_search with the trace off (off), "
              "search_with(Search, ...), the function run_search hands its work to, with a "
              "plain Search: run_search minus choosing the frame (bare), and run_search(trace=True) "
              f"(on); on the {spec.count} trees of {spec} to depth {spec.depth} (generation "
              f"untimed) and on {chess_text}; per problem and repeat, bare and off search "
              f"{TREE_ROUNDS} (trees) or {CHESS_ROUNDS} (chess) times, on once. Each timing sums "
              "the problems; figures are per search. "
              "The sides are interleaved per problem: bare/off pairs alternating their order, "
              "on first in even repeats and last in odd ones, the side right after it "
              "alternating (see schedule); an untimed first search warms each problem. "
              f"Median of {repeats} repeats; counters, score, best move and PV equal on all sides.")
    return Outcome("observer", figures, repeats, mode, method, details,
                   time.perf_counter() - start)
