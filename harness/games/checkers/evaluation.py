"""The static evaluation of checkers positions, an integer for the side to move.

Material first (a man 100, a king 130: a king moves both ways, and checkers programs
since Samuel weigh it at about 1.3 to 1.5 men; 130 keeps a trade of a king for two men
bad), then two positional terms every classical evaluation has, read from a table of
men by the rows they have advanced:

- the back row (advanced 0): a man left there guards the opponent's crowning squares
  (Samuel's "back row control"), worth 6;
- advancement: a man nearer to crowning is worth more (1 to 9 from the third row on),
  so that a side with nothing better to do presses forward, which also makes the
  40-ply draw rule rarer in play.

Kings get no square bonus. The value is the mover's total minus the opponent's; its
size is at most 12 kings, 1,560, far below the win score :data:`WIN`.
"""

from __future__ import annotations

from harness.games.base import SelectiveMargins
from harness.games.checkers.board import BLACK, Position, bits, row_of

MAN = 100
KING = 130
MAN_ROW = (6, 0, 1, 2, 4, 6, 9, 0)
"""A man's bonus by the rows it has advanced from its own back row (7: never a man)."""
WIN = 10_000
"""The value of a won game at the root; a side without a move ``p`` plies from the root
scores ``-(WIN - p)``, so that a faster win scores higher (as chess's mate scores)."""

SELECTIVE_MARGINS = SelectiveMargins(
    futility=(MAN, 2 * MAN),
    reverse_futility=(MAN, 2 * MAN, 3 * MAN, 4 * MAN, 5 * MAN),
    razoring=(2 * MAN, 3 * MAN, 4 * MAN),
    late_move_counts=(5, 8, 13),
    mate=WIN,
)
"""Checkers' margins for the selective switches (docs/selective.md), in men (100): futility
a man at the frontier and two at the pre-frontier (a step moves the static value by its
man's advancement only, at most 3: a crowning and a capture are tactical); reverse futility
a man a ply to depth 5 (chess's is 1.2 pawns a ply); razoring two men at depth 1 (a double
jump: with no quiescence search, a razored node is answered by its static value, and the
captures it may have are not seen), a man more a ply to depth 3; late-move pruning after
chess's counts. A win carries its distance (``WIN - p``), so ``mate`` is :data:`WIN`."""


def side_total(men: int, kings: int, side: int) -> int:
    """One side's material and men's row bonuses."""
    total = KING * kings.bit_count()
    for square in bits(men):
        row = row_of(square)
        total += MAN + MAN_ROW[row if side == BLACK else 7 - row]
    return total


def evaluate(position: Position) -> int:
    """The evaluation for the side to move (mover's total minus the opponent's)."""
    own, other = position.sides()
    k = position.kings
    side = position.side
    return side_total(own & ~k, own & k, side) - side_total(other & ~k, other & k, 1 - side)
