"""Legal move generation for the chess tree: python-chess's moves, in python-chess's order,
built in one pass.

``Board.legal_moves`` runs a generator of pseudo-legal moves and calls a method per move to
test it; a search that analyses a million positions spends a third of its time there. When
the side to move is not in check, legality needs only the pinned pieces (a pinned piece
moves along its pin) and, for the king, the attacked squares, so this module generates
the moves straight into a list, in the order python-chess yields them (node counts depend
on the order of the quiet moves), as shared :class:`chess.Move` objects. In check, and for
en passant (rare, and with its own pin rules), it asks python-chess. Tested against
python-chess, order included, on every position two plies from a few hundred starts.
"""

from __future__ import annotations

import chess
from chess import BB_PAWN_ATTACKS, BB_SQUARES, scan_reversed

_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
"""python-chess's order of the four promotions of one pawn move."""
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_ALL = chess.BB_ALL

MOVES: tuple[tuple[tuple[chess.Move, ...], ...], ...] = tuple(
    tuple(tuple(chess.Move(f, t, p or None) for p in range(6)) for t in chess.SQUARES)
    for f in chess.SQUARES)
"""``MOVES[from][to][promotion or 0]``: one shared move object for every move code."""


def interned(move: chess.Move) -> chess.Move:
    """The shared object equal to ``move``."""
    return MOVES[move.from_square][move.to_square][move.promotion or 0]


def _rays() -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(chess.ray(a, b) for b in chess.SQUARES) for a in chess.SQUARES)


_RAY = _rays()
"""``_RAY[a][b]``: the full line through both squares (0 if none), as ``chess.ray``."""


def _generate(board: chess.Board, to_mask: int, pushes_to: int) -> list[chess.Move] | None:
    """Legal moves to ``to_mask`` (pawn pushes only to ``pushes_to``), in python-chess's
    order; ``None`` when the side to move is in check or has no king (ask python-chess)."""
    turn = board.turn
    us = board.occupied_co[turn]
    them = board.occupied_co[not turn]
    king_mask = board.kings & us
    if not king_mask:
        return None
    king = king_mask.bit_length() - 1
    if board.attackers_mask(not turn, king):
        return None
    pinned = board._slider_blockers(king)
    occupied = board.occupied
    out: list[chess.Move] = []
    append = out.append

    # Pieces, then castling, then pawn captures, single and double pushes, en passant.
    attacks_mask = board.attacks_mask
    for origin in scan_reversed(us & ~board.pawns):
        moves = MOVES[origin]
        targets = attacks_mask(origin) & ~us & to_mask
        if origin == king:
            attacked = board.is_attacked_by
            for target in scan_reversed(targets):
                if not attacked(not turn, target):
                    append(moves[target][0])
        elif BB_SQUARES[origin] & pinned:
            line = _RAY[origin]
            for target in scan_reversed(targets):
                if line[target] & king_mask:
                    append(moves[target][0])
        else:
            for target in scan_reversed(targets):
                append(moves[target][0])
    if to_mask == _ALL:
        out.extend(interned(m) for m in board.generate_castling_moves())

    pawns = board.pawns & us
    if not pawns:
        return out
    pawn_attacks = BB_PAWN_ATTACKS[turn]
    for origin in scan_reversed(pawns):
        targets = pawn_attacks[origin] & them & to_mask
        if not targets:
            continue
        moves = MOVES[origin]
        free = not BB_SQUARES[origin] & pinned
        line = _RAY[origin]
        for target in scan_reversed(targets):
            if free or line[target] & king_mask:
                if BB_SQUARES[target] & _BACK_RANKS:
                    out.extend(moves[target][p] for p in _PROMOTIONS)
                else:
                    append(moves[target][0])
    if turn:
        single = pawns << 8 & ~occupied
        double = single << 8 & ~occupied & (chess.BB_RANK_3 | chess.BB_RANK_4)
        step = -8
    else:
        single = pawns >> 8 & ~occupied
        double = single >> 8 & ~occupied & (chess.BB_RANK_6 | chess.BB_RANK_5)
        step = 8
    single &= pushes_to
    double &= pushes_to
    for target in scan_reversed(single):
        origin = target + step
        if not BB_SQUARES[origin] & pinned or _RAY[origin][target] & king_mask:
            if BB_SQUARES[target] & _BACK_RANKS:
                out.extend(MOVES[origin][target][p] for p in _PROMOTIONS)
            else:
                append(MOVES[origin][target][0])
    for target in scan_reversed(double):
        origin = target + 2 * step
        if not BB_SQUARES[origin] & pinned or _RAY[origin][target] & king_mask:
            append(MOVES[origin][target][0])
    if board.ep_square is not None:
        for move in board.generate_pseudo_legal_ep():     # a capture: wanted by both callers
            if board._is_safe(king, pinned, move):
                append(interned(move))
    return out


def legal_moves(board: chess.Board) -> list[chess.Move]:
    """``list(board.legal_moves)``, as shared move objects."""
    moves = _generate(board, _ALL, _ALL)
    return [interned(m) for m in board.generate_legal_moves()] if moves is None else moves


def tactical_moves(board: chess.Board) -> list[chess.Move]:
    """The legal captures (en passant included) and promotions, in no particular order."""
    turn = board.turn
    seventh = chess.BB_RANK_7 if turn else chess.BB_RANK_2
    promoting = board.pawns & board.occupied_co[turn] & seventh
    moves = _generate(board, board.occupied_co[not turn], _BACK_RANKS)
    if moves is not None:
        return moves
    return [interned(m) for m in (*board.generate_legal_captures(),
                                  *board.generate_legal_moves(promoting, ~board.occupied))]


def perft(board: chess.Board, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``board`` (leaf nodes of the
    full-width tree): the standard move-generator check, and a cheap measure of a
    position's breadth."""
    if depth <= 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total
