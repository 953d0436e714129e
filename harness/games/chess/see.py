"""Static exchange evaluation (SEE): what a move wins or loses on its target square when
both sides recapture there, least valuable attacker first, each choosing to stop.

The swap algorithm of the Chess Programming Wiki's *SEE - The Swap Algorithm* (as Fruit's
``see_move`` and Stockfish's ``see_ge`` play it out, written here on python-chess's
bitboards): the move is made, then the side to move answers with its least valuable
attacker of the square, and so on; a slider behind a piece that left (an x-ray: a rook
behind a rook, a bishop or queen behind a pawn) joins as soon as its line is open. The
gains are then folded back from the last capture: each side takes only when taking is
better than standing. The king captures last, and a capture by the king of a defended
piece is never chosen (the king is worth :data:`SEE_KING`, more than any exchange can win).

What it leaves out, as the simple SEE of those engines does: pins (a pinned piece
recaptures), checks, and promotions by a recapturing pawn (it counts as a pawn). A move
that promotes gains the promoted piece less the pawn, and the promoted piece is what
stands on the square.

``_board.c``'s ``see`` (``board_see.h``) is the same function in C, tested against this
one (``tests/test_chess_quiescence.py``).
"""

from __future__ import annotations

import chess

from harness.games.chess.evaluation import piece_value

SEE_KING = 20_000
"""The king's value in an exchange: more than twice anything an exchange can win (ten
queens' worth is 9,500), so the fold-back never lets a king take a defended piece."""
SEE_VALUES = (0, *(piece_value(t) for t in (chess.PAWN, chess.KNIGHT, chess.BISHOP,
                                             chess.ROOK, chess.QUEEN)), SEE_KING)
"""Exchange values by piece type (index 1-6): the evaluation's middle-game material
(100, 320, 330, 500, 950, as MVV-LVA values them) and :data:`SEE_KING`."""


def see(board: chess.Board, move: chess.Move) -> int:
    """The static exchange evaluation of the legal ``move`` on ``board``, in centipawns for
    the side that plays it: positive wins material, negative loses it, 0 is even (a quiet
    move to a safe square is 0)."""
    target = move.to_square
    origin = move.from_square
    mover = board.piece_type_at(origin)
    assert mover is not None, "see needs a legal move"
    occupied = board.occupied & ~chess.BB_SQUARES[origin]
    victim = board.piece_type_at(target)
    if victim is None and mover == chess.PAWN and (origin ^ target) & 7:     # en passant
        victim = chess.PAWN
        occupied &= ~chess.BB_SQUARES[target - 8 if board.turn else target + 8]
    gains = [SEE_VALUES[victim or 0]]
    at_risk = SEE_VALUES[mover]
    if move.promotion:
        gains[0] += SEE_VALUES[move.promotion] - SEE_VALUES[chess.PAWN]
        at_risk = SEE_VALUES[move.promotion]
    by_type = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    side = not board.turn
    while True:
        attackers = board.attackers_mask(side, target, occupied) & occupied
        if not attackers:
            break
        kind = next(k for k, pieces in enumerate(by_type, 1) if attackers & pieces)   # the least valuable
        found = attackers & by_type[kind - 1]
        gains.append(at_risk - gains[-1])
        at_risk = SEE_VALUES[kind]
        occupied &= ~(found & -found)                   # the lowest square of its kind
        side = not side
    while len(gains) > 1:                               # each side stops when taking is worse
        last = gains.pop()
        gains[-1] = -max(-gains[-1], last)
    return gains[0]
