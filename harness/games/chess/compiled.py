"""Which chess tree runs: the compiled twin of :class:`ChessTree` (``_board.c``), or the
Python one.

The Python tree runs at about 300,000 nodes a second (nodes plus qnodes) around a cache
of position records; ``_board.c``, built when the package is installed where a C compiler
is found, is the same tree in C: the same moves in the same order (python-chess's, MVV-LVA,
killers, history), the same evaluation (from :mod:`harness.games.chess.evaluation`'s
tables, handed over here), the same quiescence search (with the options of
``Ordering.quiescence``, which the compiled tree reads from the ordering it is given) and
keys equal to :func:`harness.games.chess.tree.position_key`'s tuples, hashed alike (so a
table fills the same slots). ``tests/test_chess_compiled.py`` compares the two method by method and
search by search. It needs no position cache: a node costs less than a cache look-up.

Moves are ints (:func:`harness.games.chess.movegen.move_code`), named in UCI by
``move_name``. Standard chess only: a chess960 board gets the Python tree. The game option
``tree`` chooses (``auto``: compiled where it was built and ``HARNESS_PURE_PYTHON`` is not
set in the environment, as for the search core).
"""

from __future__ import annotations

from types import ModuleType

import chess

from harness.errors import HarnessError
from harness.games.base import Tree
from harness.games.builds import OptionalBuild
from harness.games.chess.evaluation import MATE, PHASE_WEIGHT, SELECTIVE_MARGINS, SQUARE, piece_value
from harness.games.chess.keys import history_keys
from harness.games.chess.tree import ChessTree, Ordering

TREES = ("auto", "compiled", "python")
"""The values of the game option ``tree``."""


def _set_up(module: ModuleType) -> None:
    """The compiled tree's module given evaluation.py's tables."""
    # evaluation.py's tables as data: SQUARE[stage][color][type][square], signed by colour.
    signed = [[[tuple((1 if color else -1) * v for v in SQUARE[stage][color][piece_type])
                if piece_type else () for piece_type in range(7)] for color in (0, 1)]
              for stage in (0, 1)]
    module.setup(signed[0], signed[1], PHASE_WEIGHT, tuple(piece_value(t) for t in range(7)), MATE,
                 SELECTIVE_MARGINS)


BUILD = OptionalBuild("chess", "harness.games.chess._board", _set_up, what="the compiled chess tree")
"""The compiled tree's module, and whether it runs (``tree=auto`` chooses it where it does)."""
compiled_available = BUILD.available
compiled_in_use = BUILD.in_use


def resolve(choice: str) -> str:
    """``compiled`` or ``python``: the tree the option ``tree=choice`` runs; a
    :class:`HarnessError` for ``compiled`` where it was not built."""
    if choice == "compiled" and not BUILD.available():
        raise HarnessError("chess: tree=compiled, but the compiled chess tree was not built (no C "
                           "compiler at install); use tree=python or tree=auto")
    if choice == "auto":
        return "compiled" if compiled_in_use() else "python"
    return choice


def CompiledTree(board: chess.Board, ordering: Ordering = Ordering(), draws: bool = False) -> Tree:
    """The compiled tree of ``board``, as ``ChessTree(board, ordering, draws=draws)`` (the
    game before it, for repetitions, from the board's move stack; the half-move clock from
    the board); a :class:`HarnessError` where it was not built or the board is chess960."""
    module = BUILD.module()
    if board.chess960:
        raise HarnessError("chess: the compiled chess tree plays standard chess only, not chess960")
    ep = board.ep_square
    occupied_co = board.occupied_co
    tree: Tree = module.ChessTree(board.pawns, board.knights, board.bishops, board.rooks,
                                  board.queens, board.kings, occupied_co[chess.WHITE],
                                  occupied_co[chess.BLACK], board.turn,
                                  board.clean_castling_rights(), -1 if ep is None else ep, ordering,
                                  draws, board.halfmove_clock,
                                  history_keys(board) if draws else ())
    return tree


def chess_tree(board: chess.Board, ordering: Ordering = Ordering(), choice: str = "auto",
               draws: bool = False) -> Tree:
    """The tree of ``board`` that ``tree=choice`` runs (``auto``: compiled where it was
    built, ``HARNESS_PURE_PYTHON`` is not set and the board is not chess960); ``draws``:
    repetitions (of the path, or of the game in the board's move stack) and the fifty-move
    rule are draws below the root."""
    if resolve(choice) == "compiled" and not (choice == "auto" and board.chess960):
        return CompiledTree(board, ordering, draws)
    return ChessTree(board, ordering, draws=draws)


def perft(board: chess.Board, depth: int) -> int:
    """:func:`harness.games.chess.movegen.perft` of ``board``, counted by the compiled tree's
    move generator in C (the last ply bulk-counted: a position one ply from the end adds
    its number of legal moves); a :class:`HarnessError` where it was not built or the board
    is chess960."""
    counted: int = CompiledTree(board).perft(depth)  # type: ignore[attr-defined]
    return counted
