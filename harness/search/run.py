"""One search of one tree to one depth: build the table and driver, deepen, time, report."""

from __future__ import annotations

import time
from dataclasses import dataclass

from harness.errors import HarnessError
from harness.search.core import Quiescence, Search
from harness.search.registry import VariantSpec
from harness.search.table import DEFAULT_SIZE, TranspositionTable
from harness.trees.base import Tree

MAX_DEPTH = 100
"""Deepest search accepted (Python's recursion limit bounds it)."""


@dataclass(frozen=True)
class Switches:
    """Enhancements shared by every variant, recorded with the results."""

    tt_size: int = 0
    """Transposition-table entries; 0 for none (a variant that needs one brings its own)."""
    iterative_deepening: bool = False
    """Search depths 1, 2, ..., d in turn, each iteration seeding the next."""


@dataclass(frozen=True)
class SearchResult:
    """What one search found and did."""

    score: int
    """Root score for the side to move at the root."""
    bound: str
    """``exact``, ``lower`` or ``upper``."""
    best_move: str
    """The best root move by the tree's name for it; empty at a terminal root."""
    status: str
    """``ok``, or ``pass-cap`` when an MTD driver gave up."""
    counters: dict[str, int]
    """Every counter of VARIANTS.md."""
    tt_size: int
    """Entries of the table used (0: none)."""
    time_s: float
    """Wall time of the search in seconds (process CPU is too coarse here)."""


def check_depth(depth: int) -> None:
    """Reject depths no search can run."""
    if not 1 <= depth <= MAX_DEPTH:
        raise HarnessError(f"depth {depth} is impossible (1 to {MAX_DEPTH})")


def run_search(tree: Tree, spec: VariantSpec, depth: int, switches: Switches = Switches(),
               quiescence: Quiescence | None = None) -> SearchResult:
    """Search ``tree`` from its current node (the root) with ``spec`` to ``depth``."""
    check_depth(depth)
    tt_size = switches.tt_size or (DEFAULT_SIZE if spec.variant.uses_table else 0)
    table = TranspositionTable(tt_size) if tt_size else None
    search = Search(tree, table, quiescence)
    drive = spec.driver()
    iterative = switches.iterative_deepening or spec.variant.iterative
    start = time.perf_counter()
    guess: int | None = None
    for d in range(1, depth + 1) if iterative else (depth,):
        outcome = drive(search, d, guess)
        guess = outcome.score
    elapsed = time.perf_counter() - start
    move = "" if outcome.best_move is None else tree.move_name(outcome.best_move)
    return SearchResult(outcome.score, outcome.bound, move, outcome.status,
                        search.counters.as_dict(), tt_size, elapsed)
