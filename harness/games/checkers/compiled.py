"""Which checkers tree runs: the compiled twin of :class:`CheckersTree`, or the Python one.

The Python tree's move generation on Python integers costs more than the (compiled)
search itself: about 100,000 nodes a second. ``_board.c``, built when the package is
installed where a C compiler is found, is the same tree in C (the same moves in the same
order, values and keys; ``tests/test_checkers_compiled.py`` compares every method and
every search node for node). A build without a compiler, and ``HARNESS_PURE_PYTHON`` set
in the environment (as for the search core, :mod:`harness.search.compiled`), run the
Python tree.
"""

from __future__ import annotations

from harness.errors import HarnessError
from harness.games.base import Tree
from harness.games.builds import optional_extension, pure_python
from harness.games.checkers import evaluation
from harness.games.checkers.board import DRAW_PLIES, ZOBRIST, Position
from harness.games.checkers.tree import CheckersTree

BUILT = optional_extension("harness.games.checkers._board")
"""The compiled module, or ``None`` where it was not built."""
if BUILT is not None:           # the one copy of the tables values and keys are made of
    BUILT.setup(ZOBRIST, DRAW_PLIES, evaluation.MAN, evaluation.KING, evaluation.MAN_ROW,
                evaluation.WIN)


def compiled_available() -> bool:
    """Whether the compiled tree was built and imports."""
    return BUILT is not None


def compiled_in_use() -> bool:
    """Whether the checkers tree is the compiled one in this process (built, and
    ``HARNESS_PURE_PYTHON`` not set): what ``run.json`` records."""
    return BUILT is not None and not pure_python()


def checkers_tree(position: Position, compiled: bool | None = None) -> Tree:
    """The tree of ``position``: compiled (``compiled=True``; a :class:`HarnessError`
    where it was not built), Python (``False``), or by default the compiled one where it
    is in use, else Python."""
    if compiled is None:
        compiled = compiled_in_use()
    if not compiled:
        return CheckersTree(position)
    if BUILT is None:
        raise HarnessError("checkers: the compiled tree was not built (no C compiler at install)")
    tree: Tree = BUILT.CheckersTree(position)
    return tree
