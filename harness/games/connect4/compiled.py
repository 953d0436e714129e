"""Which Connect Four tree runs: the compiled twin of :class:`Connect4Tree`, or the Python one.

The search frame calls a tree's methods several times a node, and the Python tree's
bitboards on Python integers cost more than the (compiled) search itself: about 80,000
nodes a second. ``_board.c``, built when the package is installed where a C compiler is
found, is the same tree in C (the same moves in the same order, values, bounds and keys;
``tests/test_connect4_compiled.py`` compares every search node for node) for boards of at
most 64 bits: ``width * (height + 1) <= 64``, every board up to 7x7 and 8x6. Bigger
boards, a build without a compiler, and ``HARNESS_PURE_PYTHON`` set in the environment
(as for the search core, :mod:`harness.search.compiled`) run the Python tree.
"""

from __future__ import annotations

from harness.errors import HarnessError
from harness.games.base import Tree
from harness.games.builds import OptionalBuild
from harness.games.connect4.tree import Board, Connect4Tree

BUILD = OptionalBuild("connect4", "harness.games.connect4._board")
"""The compiled tree's module, and whether it runs."""
compiled_available = BUILD.available
compiled_in_use = BUILD.in_use
"""Whether a 7x6 board's tree is the compiled one in this process: what ``run.json`` records."""


def fits(width: int, height: int) -> bool:
    """Whether the compiled tree takes a board this size (64-bit bitboards)."""
    return width >= 4 and height >= 4 and width * (height + 1) <= 64


def CompiledTree(board: Board, order: str = "centre", anticipate: bool = False) -> Tree:
    """The compiled tree of ``board``, as ``Connect4Tree(board, order, anticipate)``; a
    :class:`HarnessError` where it was not built or the board does not fit."""
    module = BUILD.module()
    if not fits(board.width, board.height):
        raise HarnessError(f"connect4: a {board.width}x{board.height} board does not fit the "
                           f"compiled tree (width * (height + 1) <= 64)")
    tree: Tree = module.Connect4Tree(board, order, anticipate)
    return tree


def connect4_tree(board: Board, order: str = "centre", anticipate: bool = False,
                  compiled: bool | None = None) -> Tree:
    """The tree of ``board``: compiled (``compiled=True``), Python (``False``), or by
    default compiled where it was built, the board fits and ``HARNESS_PURE_PYTHON`` is not
    set, else Python."""
    if compiled is None:
        compiled = compiled_in_use() and fits(board.width, board.height)
    if compiled:
        return CompiledTree(board, order, anticipate)
    return Connect4Tree(board, order, anticipate)
