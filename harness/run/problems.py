"""Problems: what a run searches, described by value so jobs can travel to other processes."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import chess

from harness.errors import HarnessError
from harness.games.base import Tree
from harness.games.chess.epd import EpdPosition, Suite, load_suite, solved
from harness.games.chess.movegen import perft
from harness.games.chess.tree import ChessTree, Ordering
from harness.games.trees.explicit import load_tree_file
from harness.games.trees.synthetic import SyntheticSpec, generate_tree, parse_spec
from harness.search.run import MAX_DEPTH, Switches

DEFAULT_CHESS_DEPTH = 3
"""Depth searched on chess positions when none is given."""
BREADTH_PLIES = 2
"""Plies of the full-width tree counted to estimate a chess position's work (about 2 ms).
On the first 20 WAC positions its rank correlation with the time of the core variants at
depths 1-4 is 0.77, and starting the positions in its order instead of the suite's takes
the best possible speed-up on two workers from 1.65 to 1.92 (the true order: 2.00). It
does not see tactics: a depth-2 alpha-beta ranks some heavy positions better, but costs
twenty times as much, in the process that must start the workers."""


@dataclass(frozen=True)
class Problem:
    """One tree to search."""

    suite: str
    """The set it belongs to: a tree file's or EPD suite's name, or a synthetic spec."""
    problem_id: str
    """Its id within the suite (an EPD position's ``id``)."""
    kind: str
    """``tree`` (a JSON file), ``synthetic`` (a spec) or ``epd`` (a suite position)."""
    source: str
    """The file path or the spec text."""
    index: int = 0
    """The tree's index within a synthetic set, or the position's within a suite."""
    skip_invalid: bool = False
    """For ``epd``: the suite was read skipping malformed lines (so indices match)."""
    height: int | None = None
    """A tree's height (its default depth); ``None`` for chess."""
    nodes: int | None = None
    """A tree file's number of nodes, known since it was planned (for the work estimate)."""

    def depths(self, given: tuple[int, ...] | None) -> tuple[int, ...]:
        """The depths this problem is searched to: ``given``, else its default."""
        if given:
            return given
        return (self.height,) if self.height is not None else (DEFAULT_CHESS_DEPTH,)

    def check_default_depth(self, given: tuple[int, ...] | None) -> None:
        """Refuse to search a tree to its height (no depth ``given``) when no search goes
        that deep, saying the number is the tree's height and where it comes from."""
        if given or self.height is None or self.height <= MAX_DEPTH:
            return
        where = (f"{self.source}: the tree's height, {self.height:,}," if self.kind == "tree"
                 else f"{self.source}: d={self.height:,}, the trees' height,")
        raise HarnessError(f"{where} is the depth searched without --depth, and the harness "
                           f"searches at most {MAX_DEPTH} plies deep: give --depth N")

    def make_tree(self, switches: Switches = Switches()) -> Tree:
        """Build the tree, cursor at the root; chess trees take the ordering switches."""
        if self.kind == "tree":
            return load_tree_file(self.source)
        if self.kind == "synthetic":
            return generate_tree(_spec(self.source), self.index)
        ordering = Ordering(switches.mvv_lva, switches.killers, switches.history)
        return ChessTree(self.position().board(), ordering)

    def work_estimate(self) -> float:
        """A rough measure of the work of searching this problem, to start the longest
        jobs first (comparable within a kind): a tree's number of nodes (a synthetic
        set's expected number, without generating it); the number of chess positions
        :data:`BREADTH_PLIES` plies from a position."""
        if self.kind == "tree":
            return float(load_tree_file(self.source).shape.nodes if self.nodes is None else self.nodes)
        if self.kind == "synthetic":
            spec = _spec(self.source)
            branching = sum(spec.branching) / 2
            return float(sum(branching ** ply for ply in range(spec.depth + 1)))
        return float(perft(self.position().board(), BREADTH_PLIES))

    def position(self) -> EpdPosition:
        """The EPD position of an ``epd`` problem."""
        return _suite(self.source, self.skip_invalid).positions[self.index]

    @property
    def fen(self) -> str:
        """The position's FEN (empty for trees)."""
        return self.position().fen if self.kind == "epd" else ""

    def judge(self, best_move: str) -> bool | None:
        """Whether ``best_move`` (UCI) solves an EPD position with ``bm``/``am``."""
        if self.kind != "epd":
            return None
        position = self.position()
        move = chess.Move.from_uci(best_move) if best_move else chess.Move.null()
        return solved(position, move)


@lru_cache(maxsize=64)
def _spec(text: str) -> SyntheticSpec:
    return parse_spec(text)


@lru_cache(maxsize=16)
def _suite(path: str, skip_invalid: bool) -> Suite:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # reported once, when the run was planned
        return load_suite(path, skip_invalid)


def tree_file_problems(path: str) -> list[Problem]:
    """The problem of one JSON tree file (loaded now, so errors surface before any search)."""
    tree = load_tree_file(path)
    name = Path(path).name
    return [Problem(name, Path(path).stem, "tree", path, height=tree.shape.height,
                    nodes=tree.shape.nodes)]


def synthetic_problems(text: str) -> list[Problem]:
    """The problems of one synthetic spec, one per tree."""
    spec = parse_spec(text)
    canonical = str(spec)
    return [Problem(canonical, str(i), "synthetic", canonical, i, height=spec.depth)
            for i in range(spec.count)]


def suite_problems(suite: Suite, skip_invalid: bool) -> list[Problem]:
    """The problems of a loaded EPD suite, one per position."""
    path = str(suite.path)
    return [Problem(suite.name, p.id, "epd", path, i, skip_invalid)
            for i, p in enumerate(suite.positions)]


def parse_depths(text: str) -> tuple[int, ...]:
    """``--depth N`` or ``A-B`` (inclusive) as a tuple of depths, each one a search can go
    (checked before the range is built: ``1-10000000000`` must not fill the memory)."""
    lo, sep, hi = text.partition("-")
    try:
        first = int(lo)
        last = int(hi) if sep else first
    except ValueError:
        raise HarnessError(f"--depth {text!r} is not N or A-B") from None
    if first > last:
        raise HarnessError(f"--depth {text!r}: the range is empty")
    for depth in (first, last):
        if not 1 <= depth <= MAX_DEPTH:
            raise HarnessError(f"--depth {text}: depth {depth} is impossible (the harness searches "
                               f"1 to {MAX_DEPTH} plies deep)")
    return tuple(range(first, last + 1))
