"""The compiled frame: :class:`Search` run by its C twin (``_engine.c``) where it can be.

With a compiled tree, the frame itself is most of a search's time: every node is several
Python calls into the tree, a dict lookup and a tuple for the table, Python ints for the
window. ``_engine.c`` is the same frame in C for trees that offer their methods as C
functions (``native_tree()``, see ``native_tree.h``: the compiled Connect Four, Othello,
checkers and chess trees)
and for every loop of the registry's variants (``engine_loops.h``); a variant's
``native_loop`` (the registry) says which loop, if any, its passes search
(:class:`NativeLoop`).
:class:`NativeSearch` is a :class:`Search` whose passes the engine runs: the drivers, the
iterative deepening and the result are the same code either way (the MTD drivers hand
the engine all their passes at once, :meth:`NativeSearch.zero_window_passes`, the loop of
``drivers.passes`` in C), and the engine writes the counts into :attr:`Search.counters`
after each call.

Everything else runs the Python frame: a tree without ``native_tree``, a quiescence
search, null move or check extension the tree does not offer natively (chess's compiled
tree offers all three), a tracing observer, a variant without a loop (SSS*), a build
without a C compiler and ``HARNESS_PURE_PYTHON`` set in the environment.
``tests/test_engine.py`` compares the two frames search by search (scores, best moves,
principal variations, every counter) over every variant it runs and every switch.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from harness.games.base import INF, Move, Tree
from harness.search.core import Loop, NodeLimitReached, Quiescence, Search
from harness.search.counters import COUNTER_NAMES
from harness.search.selective import FULL_WIDTH, Selectivity
from harness.search.table import TranspositionTable


def _built() -> ModuleType | None:
    try:
        return importlib.import_module("harness.search._engine")
    except ImportError:
        return None


BUILT = _built()
"""The compiled module, or ``None`` where it was not built."""
if BUILT is not None and tuple(BUILT.COUNTER_NAMES) != COUNTER_NAMES:
    raise ImportError("harness.search._engine counts other counters than counters.py: "
                      "`make install` builds it again")
RULES: tuple[str, ...] = () if BUILT is None else tuple(BUILT.RULES)
"""The MTD drivers' rules the compiled frame has, in its order (``drivers.RULES``' names)."""


@dataclass(frozen=True)
class NativeLoop:
    """A loop of the compiled frame and its parameters: what a variant's passes search
    there (the registry's ``Variant.native_loop`` makes one from the variant's options).
    The loops below it are the ones its Python loop names (Belle's: PVS with its
    defaults; Scout's tests: fail-hard alpha-beta; zwp's: its own)."""

    name: str
    """The loop (``_engine.LOOPS``): ``minimax``, ``alphabeta``, ``alphabeta-fs``, ``pvs``,
    ``pvs-marsland``, ``negascout``, ``negascout-fs``, ``scout``, ``belle`` or ``zwp``."""
    soft: bool = False
    """pvs: the fail-soft frame (``pvs-fs``)."""
    moreland: bool = False
    """pvs: tests start once a child raised alpha (Moreland's)."""
    zw_min_depth: int = 1
    """pvs: no zero-window tests at nodes with less remaining depth."""
    research_min_depth: int = 1
    """pvs and NegaScout: no re-search of a failed-high test below this depth."""
    improve: bool = True
    """zwp: skip the full-window search when the test returns exactly alpha."""
    all_first: bool = False
    """zwp: test the first successor of an expected-All node too."""
    pv_full: bool = False
    """zwp: full-window searches at an expected-PV node until a successor meets alpha."""
    researched_pv: bool = True
    """zwp: a successor searched again after its test is expected PV."""

    def parameters(self) -> tuple[bool, bool, int, int, bool, bool, bool, bool]:
        """Every field but the name, in order: the engine's ``parameters``."""
        return (self.soft, self.moreland, self.zw_min_depth, self.research_min_depth,
                self.improve, self.all_first, self.pv_full, self.researched_pv)


PURE_PYTHON = bool(os.environ.get("HARNESS_PURE_PYTHON"))
"""``HARNESS_PURE_PYTHON`` as the process started: read once, as the search core reads
it (:mod:`harness.search.compiled`), not at every search."""


def engine_in_use() -> bool:
    """Whether searches that can run in the compiled frame do, in this process (built,
    and ``HARNESS_PURE_PYTHON`` not set when it started): what ``run.json`` records."""
    return BUILT is not None and not PURE_PYTHON


def runs_natively(tree: Tree, loop: NativeLoop | None, quiescence: Quiescence | None,
                  null_move: bool = False, checks: bool = False,
                  selectivity: Selectivity = FULL_WIDTH) -> bool:
    """Whether a search of ``tree`` with the loop ``loop`` (a variant's ``native_loop``)
    runs in the compiled frame: the engine is in use, the tree offers its C methods, the
    loop is one the engine has, and what else is asked for the tree offers natively too
    (its own quiescence search, a null move, checks for the extension, quiet moves for the
    selective switches)."""
    if not (engine_in_use() and loop is not None and BUILT is not None
            and loop.name in BUILT.LOOPS):
        return False
    # The tree's own type must offer the C methods, and offer them for this object: a
    # wrapper that finds them on the tree it wraps, or a subclass that may override the
    # Python methods, keeps the Python frame, which calls the methods it has.
    native = getattr(type(tree), "native_tree", None)
    if native is None or native(tree) is None:
        return False
    offered = BUILT.abilities(tree)
    # A quiescence search runs natively only when it is the tree's own (a caller's
    # function is Python).
    own = quiescence is None or quiescence == getattr(tree, "quiesce", None)
    # A selective switch other than internal iterative deepening needs the tree's quiet
    # moves, and its checks where its Python methods know them.
    selective = bool(selectivity.pruning())
    return (own and (quiescence is None or "quiescence" in offered)
            and (not null_move or "null move" in offered)
            and (not checks or "checks" in offered)
            and (not selective or ("selective" in offered
                                   and (not hasattr(tree, "in_check") or "checks" in offered))))


class NativeSearch(Search):
    """A :class:`Search` whose passes run in the compiled frame (see the module). Compiled
    with the rest of the search core (mypyc), so the drivers call its :meth:`root` as they
    call the Python frame's."""

    def __init__(self, tree: Tree, table: TranspositionTable | None, loop: NativeLoop,
                 quiescence: Quiescence | None = None, hash_move: bool = True,
                 null_reduction: int = 0, null_rule: str = "either",
                 extend_checks: bool = False, store_leaves: bool = False,
                 narrow_on_hit: bool = False, value_bounds: bool = False,
                 window: tuple[int, int] = (-INF, INF),
                 selectivity: Selectivity = FULL_WIDTH, refutations: bool = False) -> None:
        super().__init__(tree, table, quiescence, hash_move, null_reduction, null_rule,
                         extend_checks, store_leaves, narrow_on_hit, value_bounds, window,
                         selectivity, refutations)
        assert BUILT is not None
        # The switches as the Python frame resolved them for this tree: the engine's rules.
        selective = self._rules.engine_parameters()
        self._engine: Any = BUILT.Engine(tree, loop.name, loop.parameters(),
                                         0 if table is None else table.size,
                                         self.hash_move, self.store_leaves, self.narrow_on_hit,
                                         self.value_bound is not None, quiescence is not None,
                                         null_reduction, null_rule, extend_checks,
                                         NodeLimitReached, self.counters, selective,
                                         refutations)

    def root(self, loop: Loop, depth: int, alpha: int, beta: int) -> tuple[int, Move | None]:
        """One pass in the compiled frame, with the loop it was made for (every pass of
        the variants it runs searches that loop); the engine writes the pass's counts into
        :attr:`counters`."""
        engine = self._engine
        engine.node_limit = self.node_limit
        self.root_lower_bound = False
        value, move = engine.root(depth, alpha, beta)
        self.root_lower_bound = bool(engine.root_lower_bound)
        self.root_line = engine.root_line
        self.best_move = move
        return value, move

    def zero_window_passes(self, depth: int, max_passes: int, g: int, rule: str, lower: int,
                           upper: int) -> tuple[int, int, Move | None]:
        """:func:`harness.search.drivers.passes` with the rule named ``rule``
        (``drivers.RULES``), every pass in the compiled frame in one call."""
        engine = self._engine
        engine.node_limit = self.node_limit
        self.root_lower_bound = False
        result: tuple[int, int, Move | None] = engine.zero_window_passes(
            depth, max_passes, g, RULES.index(rule), lower, upper)
        self.root_line = engine.root_line
        return result

    def best_first(self, depth: int, dual: bool,
                   max_open: int) -> tuple[int, int | None, bool, int, int]:
        """SSS* (``dual``: DUAL*) in the compiled frame (``engine_best_first.h``), state for
        state :func:`harness.search.sss.best_first`: ``(value, best root move's index or
        None, stopped at max_open, nodes generated, OPEN's largest size)``; the engine
        writes its counts into :attr:`counters`."""
        engine = self._engine
        engine.node_limit = self.node_limit
        value, best, status, generated, largest = engine.best_first(depth, dual, max_open)
        return value, best, bool(status), generated, largest

    def principal_variation(self, first: Move | None, depth: int) -> list[Move]:
        return list(self._engine.principal_variation(first, depth))

    def principal_variation_names(self, first: Move | None, depth: int) -> list[str]:
        """The Python frame's (its :func:`line_names` of its line) in one call of the
        engine, which names each move by the tree's ``move_name`` at the node it is played
        from."""
        return list(self._engine.principal_variation(first, depth, True))

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = self._engine.counts()
        return counts
