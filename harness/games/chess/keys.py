"""Position keys of the chess tree: python-chess's transposition key made the same in
every process (the table's key, :meth:`ChessTree.key <harness.games.chess.tree.ChessTree.key>`),
and the keys of a game's positions that a later position could repeat (what the tree's
draws by repetition look back on, with ``repetition=1``).

The compiled tree (``_board.c``, ``board_key.h``) makes keys equal to these tuples and
hashed alike, and takes a game's keys as these tuples.
"""

from __future__ import annotations

from collections.abc import Hashable

import chess


def position_key(board: chess.Board) -> Hashable:
    """python-chess's in-process position key (``Board._transposition_key``) with ``None``
    (no legal en passant) made ``-1``: ``hash(None)`` is an address on Python 3.11, so it
    would make the table's slots, and so the counts of a search with a table, differ
    between processes. Built here rather than by rewriting python-chess's tuple, and its
    castling rights cleaned only where there are any: a key is made for every position a
    search analyses."""
    ep = board.ep_square
    if ep is None or not board.has_legal_en_passant():
        ep = -1
    castling = board.castling_rights
    if castling:
        castling = board.clean_castling_rights()
    occupied_co = board.occupied_co
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            occupied_co[chess.WHITE], occupied_co[chess.BLACK], board.turn, castling, ep)


def history_keys(board: chess.Board) -> tuple[Hashable, ...]:
    """The keys (:func:`position_key`) of the positions of ``board``'s game before its
    current one that a later position could repeat: those since the last capture or pawn
    move (the last ``halfmove_clock`` plies of python-chess's move stack), oldest first."""
    reach = min(len(board.move_stack), board.halfmove_clock)
    replay = board.copy()
    keys = []
    for _ in range(reach):
        replay.pop()
        keys.append(position_key(replay))
    return tuple(reversed(keys))

