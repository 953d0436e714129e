"""Which Othello tree runs: the compiled twin of :class:`OthelloTree`, or the Python one.

``_board.c``, built when the package is installed where a C compiler is found, is the
same tree in C (the same moves in the same order, values and keys, from the same tables:
it receives :data:`~harness.games.othello.tree.SQUARE_WEIGHTS`,
:data:`~harness.games.othello.tree.MOVE_RANKS` and
:data:`~harness.games.othello.tree.MOBILITY_WEIGHT`; ``tests/test_othello_compiled.py``
compares every method and every exact variant's search node for node; its
``selective_margins`` are tree.py's :data:`~harness.games.othello.tree.SELECTIVE_MARGINS`,
handed over at import; killers and history, :mod:`harness.games.dynamic_order`, are
``harness/games/board_learning.h`` there). A build without a
compiler, and ``HARNESS_PURE_PYTHON`` set in the environment (as for the search core,
:mod:`harness.search.compiled`), run the Python tree.
"""

from __future__ import annotations

from harness.games.base import Tree
from harness.games.builds import OptionalBuild
from harness.games.othello.tree import (
    MOBILITY_WEIGHT,
    MOVE_RANKS,
    SELECTIVE_MARGINS,
    SQUARE_WEIGHTS,
    Board,
    OthelloTree,
)

BUILD = OptionalBuild("othello", "harness.games.othello._board",
                      # the one copy of the margins, declared by both trees
                      lambda module: module.set_selective_margins(SELECTIVE_MARGINS))
"""The compiled tree's module, and whether it runs."""
compiled_available = BUILD.available
compiled_in_use = BUILD.in_use


def CompiledTree(board: Board, killers: bool = False, history: bool = False) -> Tree:
    """The compiled tree of ``board``, as ``OthelloTree(board, killers, history)``; a
    :class:`HarnessError` where it was not built."""
    tree: Tree = BUILD.module().OthelloTree(board, SQUARE_WEIGHTS, MOVE_RANKS, MOBILITY_WEIGHT,
                                            killers, history)
    return tree


def othello_tree(board: Board, compiled: bool | None = None, killers: bool = False,
                 history: bool = False) -> Tree:
    """The tree of ``board`` (with killer moves and the history heuristic where asked):
    compiled (``compiled=True``), Python (``False``), or by default compiled where it was
    built and ``HARNESS_PURE_PYTHON`` is not set."""
    if BUILD.chooses(compiled):
        return CompiledTree(board, killers, history)
    return OthelloTree(board, killers, history)
