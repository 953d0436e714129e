"""One search of one tree to one depth: build the table and driver, deepen, time, report."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from harness.errors import HarnessError
from harness.games.base import INF, Tree, has_enhancements
from harness.games.base import MAX_DEPTH as MAX_DEPTH  # re-exported: the search's limit
from harness.search.compiled import compiled_in_use
from harness.search.core import NodeLimitReached, Quiescence, Search
from harness.search.counters import TREE_COUNTER_NAMES
from harness.search.engine import NativeLoop, NativeSearch, runs_natively
from harness.search.lines import line_names as line_names  # re-exported: its home was here
from harness.search.registry import VariantSpec
from harness.search.selective import FULL_WIDTH, Selectivity
from harness.search.table import DEFAULT_SIZE, TranspositionTable
from harness.search.trace import TraceNode, TracingSearch


@dataclass(frozen=True)
class Switches:
    """Enhancements of the search frame, the same for every variant, recorded with the
    results. The last four are offered by a game's trees (``harness.games.base.FEATURES``):
    a tree without the ability searches without them. A game's own options (chess's move
    ordering) are part of its problems, not of these."""

    tt_size: int = 0
    """Transposition-table entries; 0 for none (a variant that needs one brings its own)."""
    iterative_deepening: bool = False
    """Search depths 1, 2, ..., d in turn, each iteration seeding the next."""
    hash_move: bool = True
    """With a table, search the table's move first."""
    tt_leaves: bool = False
    """With a table, store and probe horizon leaves and their quiescence values too (Plaat
    et al.'s MT); off, every leaf is evaluated each time it is reached."""
    tt_narrow: bool = False
    """With a table, an entry deep enough narrows the window to its bounds (MT); off, it
    only cuts off."""
    window: tuple[int, int] | None = None
    """The root window of full-window passes (``(-1, 1)``: a weak solve); ``None``: the
    full window. Aspiration and MTD drivers choose their own windows."""
    value_bounds: bool = True
    """Lower beta to the tree's bound on a node's value, where the game's trees offer one
    (Connect Four: the most the player to move can still score)."""
    quiescence: bool = True
    """A quiescence search at the horizon, where the game's trees offer one (chess)."""
    null_move: int = 0
    """Null-move reduction R (0: no null move), where the trees can pass (chess)."""
    null_rule: str = "either"
    """``either`` (VARIANTS.md: no null move when either of the previous two plies was
    one) or ``both`` (Diepeveen's code: not when both were)."""
    check_extension: bool = False
    """One ply deeper when the side to move is in check, where the trees know checks."""
    selectivity: Selectivity = FULL_WIDTH
    """The selective switches (late-move reductions, futility, ...), each off by default,
    where the trees offer what each needs (:mod:`harness.search.selective`)."""
    refutations: bool = False
    """Refutation tables (Akl and Newborn 1977; Schaeffer 1989): each root move's line
    from its last search (the move that refuted it, and so on down) searched first below
    it where a node has no hash move. Orders moves only: every answer stays exact. Needs
    an earlier pass to learn from (iterative deepening, or a driver's passes)."""


def switches_from_json(values: dict[str, Any]) -> Switches:
    """The :class:`Switches` that ``dataclasses.asdict`` wrote to JSON (``run.json``): the
    window a pair again, the selective switches a :class:`Selectivity` (absent before they
    existed: all off)."""
    values = dict(values)
    if values.get("window") is not None:
        values["window"] = tuple(values["window"])         # JSON made it a list
    values["selectivity"] = Selectivity(**values.get("selectivity", {}))
    return Switches(**values)


@dataclass
class SearchResult:
    """What one search found and did. Not frozen: one is made for every search, and a
    frozen dataclass's ``__init__`` (an ``object.__setattr__`` call a field) took a tenth
    of a Connect Four end-game search (16,500 instructions against 3,500)."""

    score: int | None
    """Root score for the side to move at the root; ``None`` if the node limit struck."""
    bound: str
    """``exact``, ``lower`` or ``upper``; ``none`` when there is no score."""
    best_move: str
    """The best root move by the tree's name for it; empty at a terminal root."""
    pv: list[str]
    """The principal variation, best move first (as far as it is known)."""
    status: str
    """``ok``; ``pass-cap`` when an MTD driver gave up; ``max-nodes`` when the search
    was stopped at its node limit (its counters say how far it got)."""
    counters: dict[str, int]
    """Every counter of VARIANTS.md."""
    tt_size: int
    """Entries of the table used (0: none)."""
    time_s: float
    """Wall time of the search in seconds (process CPU is too coarse here)."""
    trace: list[TraceNode] | None = None
    """With ``trace=True``: the root of every pass, each node as it was searched."""
    first_passes: int = 0
    """Passes of the first iteration (under iterative deepening, the shallowest; else
    every pass): a driver's passes per iteration without its first guess's."""
    frame: str = ""
    """The frame that ran it (:data:`FRAMES`): times compare only within one frame."""
    tree_counters: dict[str, int] = field(default_factory=dict)
    """What the tree counted itself (:data:`TREE_COUNTER_NAMES`, each 0 where the tree
    counts none): draws by repetition."""


FRAMES = {
    "compiled": "the compiled frame (harness/search/_engine.c) over a native tree",
    "python": "the search core compiled with mypyc, calling the tree's Python methods",
    "pure-python": "the search core run from its Python source (no build, or "
                   "HARNESS_PURE_PYTHON)",
    "best-first": "a best-first search (SSS*, DUAL*): an OPEN list, not the node frame, "
                  "in Python (harness/search/sss.py)",
    "compiled-best-first": "SSS* and DUAL*'s OPEN list in C (engine_best_first.h) over a "
                           "native tree, state for state the Python one",
    "engine": "a UCI engine's own program (harness/engines): its nodes and times are its "
              "own, never the harness's frames'",
}
"""The frames a search may run in, each in words: what ``SearchResult.frame`` and the
``frame`` column of results.csv hold. A time or nodes-a-second figure of one frame says
nothing about another's algorithm."""


def frame_name(compiled: bool, best_first: bool) -> str:
    """The name in :data:`FRAMES` of the frame a search runs in: ``compiled`` when its
    passes run in the compiled frame, ``best_first`` when the variant searches best-first,
    outside the loops of any frame."""
    if best_first:
        return "compiled-best-first" if compiled else "best-first"
    return "compiled" if compiled else _CORE_FRAME


_CORE_FRAME = "python" if compiled_in_use() else "pure-python"
"""Which Python frame this process runs: decided once, before the core was imported."""


def check_depth(depth: int) -> None:
    """Reject depths no search can run."""
    if not 1 <= depth <= MAX_DEPTH:
        raise HarnessError(f"depth {depth} is impossible (1 to {MAX_DEPTH})")


def run_search(tree: Tree, spec: VariantSpec, depth: int, switches: Switches = Switches(),
               quiescence: Quiescence | None = None, max_nodes: int | None = None,
               trace: bool = False, native: bool = True) -> SearchResult:
    """Search ``tree`` from its root with ``spec`` to ``depth``; stop after ``max_nodes``;
    with ``trace``, record every node (see :mod:`harness.search.trace`); ``native=False``
    keeps the search in the Python frame (the reference of the compiled one,
    :mod:`harness.search.engine`)."""
    return search_with(TracingSearch if trace else Search, tree, spec, depth, switches,
                       quiescence, max_nodes, native)


def search_with(frame: type[Search], tree: Tree, spec: VariantSpec, depth: int,
                switches: Switches = Switches(), quiescence: Quiescence | None = None,
                max_nodes: int | None = None, native: bool = True) -> SearchResult:
    """:func:`run_search` in the frame ``frame``: :class:`Search`, or a subclass that
    observes it (a :class:`TracingSearch` leaves its trace in the result). Everything but
    the choice of frame is here, so a benchmark of a plain ``Search`` runs this same code.
    A plain ``Search`` runs in the compiled frame where it can (and ``native``)."""
    check_depth(depth)
    tree.reset()
    # The reference (minimax) visits every node to the depth: no table, no value bounds.
    reference = spec.variant.reference
    tt_size = 0 if reference else switches.tt_size or (DEFAULT_SIZE if spec.variant.uses_table else 0)
    table = TranspositionTable(tt_size) if tt_size else None
    # The tree's optional abilities (harness.games.base.Tree), by what it has, not its class.
    if quiescence is None and switches.quiescence:
        quiescence = getattr(tree, "quiesce", None)
    # Null move and check extension need a tree that can pass and knows checks.
    enhanced = bool(switches.null_move or switches.check_extension) and has_enhancements(tree)
    null_reduction = switches.null_move if enhanced else 0
    extend_checks = switches.check_extension and enhanced
    # Search's parameters after the quiescence, in order (positional: a search is made
    # for every position, and keywords cost the compiled constructor a slower path).
    # The reference's tree is the whole tree: nothing reduced or pruned.
    selectivity = Selectivity() if reference else switches.selectivity
    frame_switches = (switches.hash_move, null_reduction, switches.null_rule, extend_checks,
                      switches.tt_leaves, switches.tt_narrow,
                      switches.value_bounds and not reference, switches.window or (-INF, INF),
                      selectivity, switches.refutations)
    loop = spec.native_loop()
    if spec.variant.best_first:     # no loop: the engine's OPEN list over the native tree
        loop = NativeLoop("alphabeta")
    compiled = (native and frame is Search and loop is not None
                and runs_natively(tree, loop, quiescence, bool(null_reduction), extend_checks,
                                  selectivity))
    search = (NativeSearch(tree, table, loop, quiescence, *frame_switches)
              if compiled and loop is not None
              else frame(tree, table, quiescence, *frame_switches))
    if max_nodes is not None:
        search.node_limit = max_nodes
    drive = spec.driver()
    frame_used = frame_name(compiled, spec.variant.best_first)
    iterative = switches.iterative_deepening or spec.variant.iterative
    start = time.perf_counter()
    guess: int | None = None
    first_passes = 0
    try:
        for d in range(1, depth + 1) if iterative else (depth,):
            outcome = drive(search, d, guess)
            guess = outcome.score
            first_passes = first_passes or search.counters.passes
    except NodeLimitReached:
        counted = tree_counts(tree)
        tree.reset()
        return SearchResult(None, "none", "", [], "max-nodes", search.counts(), tt_size,
                            time.perf_counter() - start, _passes(search), frame=frame_used,
                            tree_counters=counted)
    elapsed = time.perf_counter() - start
    move = "" if outcome.best_move is None else tree.move_name(outcome.best_move)
    pv = search.principal_variation_names(outcome.best_move, depth)
    return SearchResult(outcome.score, outcome.bound, move, pv, outcome.status,
                        search.counts(), tt_size, elapsed, _passes(search), first_passes,
                        frame_used, tree_counts(tree))


def tree_counts(tree: Tree) -> dict[str, int]:
    """The tree's own counters (:data:`TREE_COUNTER_NAMES`) since its last ``reset``."""
    return {name: int(getattr(tree, name, 0)) for name in TREE_COUNTER_NAMES}


def _passes(search: Search) -> list[TraceNode] | None:
    return search.passes if isinstance(search, TracingSearch) else None
