"""Which checkers tree runs: the compiled twin of :class:`CheckersTree`, or the Python one.

The Python tree's move generation on Python integers costs more than the (compiled)
search itself: about 100,000 nodes a second. ``_board.c``, built when the package is
installed where a C compiler is found, is the same tree in C (the same moves in the same
order, values and keys, the same killers and history: ``harness/games/board_learning.h``;
``tests/test_checkers_compiled.py`` compares every method and every search node for
node). A build without a compiler, and ``HARNESS_PURE_PYTHON`` set in the environment
(as for the search core, :mod:`harness.search.compiled`), run the Python tree.
"""

from __future__ import annotations

from types import ModuleType

from harness.games.base import Tree
from harness.games.builds import OptionalBuild
from harness.games.checkers import evaluation
from harness.games.checkers.board import DRAW_PLIES, ZOBRIST, Position
from harness.games.checkers.tree import CheckersTree


def _set_up(module: ModuleType) -> None:
    """Hand the compiled tree the one copy of the tables its values and keys are made of,
    and the margins both trees declare."""
    module.setup(ZOBRIST, DRAW_PLIES, evaluation.MAN, evaluation.KING, evaluation.MAN_ROW,
                 evaluation.WIN)
    module.set_selective_margins(evaluation.SELECTIVE_MARGINS)


BUILD = OptionalBuild("checkers", "harness.games.checkers._board", _set_up)
"""The compiled tree's module, and whether it runs."""
compiled_available = BUILD.available
compiled_in_use = BUILD.in_use


def checkers_tree(position: Position, compiled: bool | None = None, killers: bool = False,
                  history: bool = False) -> Tree:
    """The tree of ``position`` (with killer moves and the history heuristic where asked):
    compiled (``compiled=True``; a :class:`HarnessError` where it was not built), Python
    (``False``), or by default the compiled one where it is in use, else Python."""
    if not BUILD.chooses(compiled):
        return CheckersTree(position, killers, history)
    tree: Tree = BUILD.module().CheckersTree(position, killers, history)
    return tree
