"""Static evaluation of chess positions: material plus piece-square tables, tapered
between middle game and endgame by the material left on the board.

Scores are centipawns for the side to move. Tables are written as a board is printed,
rank 8 first, from White's side; a Black piece reads the table mirrored.
"""

from __future__ import annotations

import chess

from harness.games.base import SelectiveMargins

MATE = 30_000
"""Score of giving mate at the root; a mate found ``p`` plies deep scores ``MATE - p``."""

SELECTIVE_MARGINS = SelectiveMargins(
    futility=(300, 500),
    reverse_futility=(120, 240, 360, 480, 600),
    razoring=(300, 500, 900),
    late_move_counts=(5, 8, 13),
    mate=MATE,
)
"""Chess's margins for the selective switches (docs/selective.md), in centipawns: futility
at the frontier and the pre-frontier a minor piece and a rook (Heinz's futility and
extended futility), razoring to depth 3 a minor piece, a rook and a queen (Heinz's limited
razoring's margin at depth 3), reverse futility 120 a ply to depth 5, late-move pruning
after 5, 8 and 13 moves at depths 1-3 (one more than Stockfish's move counts when the
evaluation improves)."""

# (middle game, endgame) material in centipawns, by piece type (index 1..6).
MATERIAL = ((0, 0), (100, 120), (320, 300), (330, 320), (500, 530), (950, 940), (0, 0))
PHASE_WEIGHT = (0, 0, 1, 1, 2, 4, 0)
"""Phase contributed by each piece type; 24 is a full middle game, 0 a bare endgame."""
FULL_PHASE = 24

_PAWN = (
    0, 0, 0, 0, 0, 0, 0, 0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
    5, 5, 10, 25, 25, 10, 5, 5,
    0, 0, 0, 20, 20, 0, 0, 0,
    5, -5, -10, 0, 0, -10, -5, 5,
    5, 10, 10, -20, -20, 10, 10, 5,
    0, 0, 0, 0, 0, 0, 0, 0,
)
_PAWN_END = (
    0, 0, 0, 0, 0, 0, 0, 0,
    80, 80, 80, 80, 80, 80, 80, 80,
    50, 50, 50, 50, 50, 50, 50, 50,
    30, 30, 30, 30, 30, 30, 30, 30,
    15, 15, 15, 15, 15, 15, 15, 15,
    5, 5, 5, 5, 5, 5, 5, 5,
    0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
)
_KNIGHT = (
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20, 0, 0, 0, 0, -20, -40,
    -30, 0, 10, 15, 15, 10, 0, -30,
    -30, 5, 15, 20, 20, 15, 5, -30,
    -30, 0, 15, 20, 20, 15, 0, -30,
    -30, 5, 10, 15, 15, 10, 5, -30,
    -40, -20, 0, 5, 5, 0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
)
_BISHOP = (
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 10, 10, 5, 0, -10,
    -10, 5, 5, 10, 10, 5, 5, -10,
    -10, 0, 10, 10, 10, 10, 0, -10,
    -10, 10, 10, 10, 10, 10, 10, -10,
    -10, 5, 0, 0, 0, 0, 5, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
)
_ROOK = (
    0, 0, 0, 0, 0, 0, 0, 0,
    5, 10, 10, 10, 10, 10, 10, 5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    0, 0, 0, 5, 5, 0, 0, 0,
)
_QUEEN = (
    -20, -10, -10, -5, -5, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 5, 5, 5, 0, -10,
    -5, 0, 5, 5, 5, 5, 0, -5,
    0, 0, 5, 5, 5, 5, 0, -5,
    -10, 5, 5, 5, 5, 5, 0, -10,
    -10, 0, 5, 0, 0, 0, 0, -10,
    -20, -10, -10, -5, -5, -10, -10, -20,
)
_KING = (
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
    20, 20, 0, 0, 0, 0, 20, 20,
    20, 30, 10, 0, 0, 10, 30, 20,
)
_KING_END = (
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10, 0, 0, -10, -20, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -30, 0, 0, 0, 0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50,
)
_TABLES = (None, (_PAWN, _PAWN_END), (_KNIGHT, _KNIGHT), (_BISHOP, _BISHOP), (_ROOK, _ROOK),
           (_QUEEN, _QUEEN), (_KING, _KING_END))


def _square_tables() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """``SQUARE[stage][color][piece_type][square]``: material plus table, for stage 0
    (middle game) and 1 (endgame)."""
    stages = []
    for stage in (0, 1):
        colors = []
        for color in (chess.BLACK, chess.WHITE):
            by_type: list[tuple[int, ...]] = [()]
            for piece_type in chess.PIECE_TYPES:
                tables = _TABLES[piece_type]
                assert tables is not None
                table = tables[stage]
                material = MATERIAL[piece_type][stage]
                # White reads the printed board flipped vertically (a1 is index 56).
                by_type.append(tuple(material + table[sq ^ 56 if color else sq]
                                     for sq in chess.SQUARES))
            colors.append(tuple(by_type))
        stages.append(tuple(colors))
    return tuple(stages)


SQUARE = _square_tables()

_SHIFT = 32
_PACK = 1 << _SHIFT


def _packed_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``PACKED[color][piece_type][square]`` = middle-game * 2^32 + endgame, signed by
    colour (White +), so one sum gives both stages."""
    out = []
    for color in (chess.BLACK, chess.WHITE):
        sign = 1 if color else -1
        by_type: list[tuple[int, ...]] = [()]
        for piece_type in chess.PIECE_TYPES:
            mg, eg = SQUARE[0][color][piece_type], SQUARE[1][color][piece_type]
            by_type.append(tuple(sign * (mg[sq] * _PACK + eg[sq]) for sq in chess.SQUARES))
        out.append(tuple(by_type))
    return tuple(out)


PACKED = _packed_tables()


def material_sum(board: chess.Board) -> tuple[int, int]:
    """``(packed, phase)``: the sum of the :data:`PACKED` entries of every piece and the
    game phase before it is capped: the two numbers :func:`score` tapers."""
    total = 0
    phase = 0
    masks = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    for color in (chess.WHITE, chess.BLACK):
        tables = PACKED[color]
        occupied = board.occupied_co[color]
        for piece_type in (1, 2, 3, 4, 5, 6):
            mask = masks[piece_type - 1] & occupied
            if mask:
                table = tables[piece_type]
                phase += PHASE_WEIGHT[piece_type] * mask.bit_count()
                while mask:
                    low = mask & -mask
                    total += table[low.bit_length() - 1]
                    mask ^= low
    return total, phase


_HALF = _PACK // 2
_LOW = _PACK - 1


def score(packed: int, phase: int, turn: bool) -> int:
    """The tapered score for the side to move (``turn``) from :func:`material_sum`.
    (Masks, shifts and a comparison rather than ``%``, ``//`` and ``min``: it runs for
    every position a search meets, and this form takes half the time.)"""
    eg = (packed + _HALF & _LOW) - _HALF          # the low, signed half
    mg = (packed - eg) >> _SHIFT                  # the rest, a multiple of 2^32
    if phase > FULL_PHASE:
        phase = FULL_PHASE
    value = (mg * phase + eg * (FULL_PHASE - phase)) // FULL_PHASE
    return value if turn else -value


def evaluate(board: chess.Board) -> int:
    """Tapered material and piece-square score for the side to move, in centipawns."""
    return score(*material_sum(board), board.turn)


def move_delta(board: chess.Board, move: chess.Move) -> tuple[int, int]:
    """How :func:`material_sum` changes when the legal ``move`` is played on ``board``
    (evaluated before it is pushed): a few table look-ups instead of a sum over the
    board. Castling is the king's two-square move, as python-chess writes it."""
    ours, theirs = PACKED[board.turn], PACKED[not board.turn]
    origin, target, promotion = move.from_square, move.to_square, move.promotion
    mover = board.piece_type_at(origin)
    assert mover is not None, "move_delta needs a legal move"
    if promotion:
        delta = ours[promotion][target] - ours[mover][origin]
        phase = PHASE_WEIGHT[promotion]
    else:
        delta = ours[mover][target] - ours[mover][origin]
        phase = 0
    victim = board.piece_type_at(target)
    if victim:
        delta -= theirs[victim][target]
        phase -= PHASE_WEIGHT[victim]
    elif mover == chess.PAWN and (origin ^ target) & 7:      # diagonal to an empty square
        delta -= theirs[chess.PAWN][target - 8 if board.turn else target + 8]
    elif mover == chess.KING and abs(target - origin) == 2:  # castling: the rook moves too
        rook_from, rook_to = (target + 1, target - 1) if target > origin else (target - 2, target + 1)
        delta += ours[chess.ROOK][rook_to] - ours[chess.ROOK][rook_from]
    return delta, phase


def piece_value(piece_type: int | None) -> int:
    """Middle-game material of a piece type (0 for none), for move ordering."""
    return MATERIAL[piece_type or 0][0]
