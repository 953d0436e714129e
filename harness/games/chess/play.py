"""Playing and taking back legal moves on a python-chess board without its move stack.

``Board.push`` snapshots the whole board into a state object, appends to two stacks and
converts the move to and from chess960 form; ``Board.pop`` restores the snapshot. In the
chess tree's cold pass that pair took a quarter of the time (profile of WAC.092, the
first variant at depth 4). :func:`play` changes the same fields the same way, from a
tuple of the previous values that :func:`take_back` writes back. Tested against
``Board.push`` field by field on random games through castling, en passant, promotions
and null moves.

The board's move stack stays empty, so python-chess's ``clean_castling_rights`` cleans
every time it is asked instead of trusting the stack: the same value, because the rights
are cleaned before the first move (:func:`prepare`) and a move only ever removes rights.
"""

from __future__ import annotations

import chess
from chess import BB_SQUARES

Undo = tuple[int, int, int, int, int, int, int, int, int, int, bool, int, int | None, int, int]
"""The fields :func:`play` changes, as they were before it."""

_BACK_RANK = (chess.BB_RANK_8, chess.BB_RANK_1)
"""A side's own back rank, by colour (whose castling rights a king move ends)."""
_E1, _E8 = chess.BB_E1, chess.BB_E8


def prepare(board: chess.Board) -> None:
    """Clean the castling rights once, as ``Board.push`` does before the first move."""
    board.castling_rights = board.clean_castling_rights()


def play(board: chess.Board, move: chess.Move | None) -> Undo:
    """Play the legal ``move`` (``None``: pass) as ``board.push`` would, without recording
    it; return what :func:`take_back` needs to undo it."""
    occupied_co = board.occupied_co
    turn = board.turn
    ep_square = board.ep_square
    us, them = occupied_co[turn], occupied_co[not turn]
    pieces = [0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings]
    promoted = board.promoted
    undo: Undo = (pieces[1], pieces[2], pieces[3], pieces[4], pieces[5], pieces[6],
                  occupied_co[chess.WHITE], occupied_co[chess.BLACK], board.occupied, promoted,
                  turn, board.castling_rights, ep_square, board.halfmove_clock,
                  board.fullmove_number)
    board.ep_square = None
    board.halfmove_clock += 1
    if not turn:
        board.fullmove_number += 1
    board.turn = not turn
    if move is None:
        return undo

    origin, target = move.from_square, move.to_square
    from_bb, to_bb = BB_SQUARES[origin], BB_SQUARES[target]
    mover = 1
    while not pieces[mover] & from_bb:
        mover += 1
    if mover == chess.PAWN or to_bb & them:
        board.halfmove_clock = 0
    rights = board.castling_rights & ~to_bb & ~from_bb
    moved_promoted = promoted & from_bb
    if mover == chess.KING:
        if not moved_promoted:
            rights &= ~_BACK_RANK[turn]
        if from_bb & (_E1 | _E8) and (target - origin == 2 or origin - target == 2):
            # Castling (python-chess's king-takes-rook form of the king's two-square move).
            short = target > origin
            rook_from, rook_to = (origin + 3, origin + 1) if short else (origin - 4, origin - 1)
            rook_bb = BB_SQUARES[rook_from] | BB_SQUARES[rook_to]
            king_bb = from_bb | to_bb
            pieces[6] ^= king_bb
            pieces[4] ^= rook_bb
            us ^= king_bb ^ rook_bb
            promoted &= ~(from_bb | BB_SQUARES[rook_from])
            rights &= ~BB_SQUARES[rook_from]
            _store(board, pieces, us, them, promoted, rights)
            return undo
    pieces[mover] ^= from_bb
    us ^= from_bb
    promoted &= ~from_bb
    if to_bb & them:                                   # a capture
        victim = 1
        while not pieces[victim] & to_bb:
            victim += 1
        pieces[victim] ^= to_bb
        them ^= to_bb
        promoted &= ~to_bb
    elif mover == chess.PAWN:
        step = target - origin
        if step == 16 and origin >> 3 == 1:
            board.ep_square = origin + 8
        elif step == -16 and origin >> 3 == 6:
            board.ep_square = origin - 8
        elif target == ep_square and step in (7, 9, -7, -9):   # en passant
            taken = BB_SQUARES[ep_square - 8 if turn else ep_square + 8]
            pieces[1] ^= taken
            them ^= taken
            promoted &= ~taken
    if move.promotion:
        mover = move.promotion
        moved_promoted = to_bb
    pieces[mover] |= to_bb
    us |= to_bb
    if moved_promoted:
        promoted |= to_bb
    _store(board, pieces, us, them, promoted, rights)
    return undo


def _store(board: chess.Board, pieces: list[int], us: int, them: int, promoted: int,
           rights: int) -> None:
    """Write the bitboards back; the side that moved is the one not to move now."""
    board.pawns, board.knights, board.bishops = pieces[1], pieces[2], pieces[3]
    board.rooks, board.queens, board.kings = pieces[4], pieces[5], pieces[6]
    board.occupied_co[not board.turn] = us
    board.occupied_co[board.turn] = them
    board.occupied = us | them
    board.promoted = promoted
    board.castling_rights = rights


def take_back(board: chess.Board, undo: Undo) -> None:
    """Restore the board as it was before the :func:`play` that returned ``undo``."""
    (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
     white, black, board.occupied, board.promoted, board.turn, board.castling_rights,
     board.ep_square, board.halfmove_clock, board.fullmove_number) = undo
    board.occupied_co[chess.WHITE] = white
    board.occupied_co[chess.BLACK] = black
