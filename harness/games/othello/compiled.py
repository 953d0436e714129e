"""Which Othello tree runs: the compiled twin of :class:`OthelloTree`, or the Python one.

``_board.c``, built when the package is installed where a C compiler is found, is the
same tree in C (the same moves in the same order, values and keys, from the same tables:
it receives :data:`~harness.games.othello.tree.SQUARE_WEIGHTS`,
:data:`~harness.games.othello.tree.MOVE_RANKS` and
:data:`~harness.games.othello.tree.MOBILITY_WEIGHT`; ``tests/test_othello_compiled.py``
compares every method and every exact variant's search node for node). A build without a
compiler, and ``HARNESS_PURE_PYTHON`` set in the environment (as for the search core,
:mod:`harness.search.compiled`), run the Python tree.
"""

from __future__ import annotations

from harness.errors import HarnessError
from harness.games.base import Tree
from harness.games.builds import optional_extension, pure_python
from harness.games.othello.tree import MOBILITY_WEIGHT, MOVE_RANKS, SQUARE_WEIGHTS, Board, OthelloTree

BUILT = optional_extension("harness.games.othello._board")
"""The compiled module, or ``None`` where it was not built."""


def compiled_available() -> bool:
    """Whether the compiled tree was built and imports."""
    return BUILT is not None


def compiled_in_use() -> bool:
    """Whether Othello's trees are the compiled ones in this process (built, and
    ``HARNESS_PURE_PYTHON`` not set): what ``run.json`` records."""
    return BUILT is not None and not pure_python()


def CompiledTree(board: Board) -> Tree:
    """The compiled tree of ``board``, as ``OthelloTree(board)``; a :class:`HarnessError`
    where it was not built."""
    if BUILT is None:
        raise HarnessError("othello: the compiled tree was not built (no C compiler at install)")
    tree: Tree = BUILT.OthelloTree(board, SQUARE_WEIGHTS, MOVE_RANKS, MOBILITY_WEIGHT)
    return tree


def othello_tree(board: Board, compiled: bool | None = None) -> Tree:
    """The tree of ``board``: compiled (``compiled=True``), Python (``False``), or by
    default compiled where it was built and ``HARNESS_PURE_PYTHON`` is not set."""
    if compiled if compiled is not None else compiled_in_use():
        return CompiledTree(board)
    return OthelloTree(board)
