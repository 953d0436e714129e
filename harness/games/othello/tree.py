"""Othello positions as a tree, on bitboards (the reference for the compiled twin ``_board.c``).

A square is ``8 * row + column`` from A1 = 0 (B1 = 1, ..., H8 = 63): OpenSpiel's action
numbers, so its moves and ours are the same integers. A position is two 64-bit masks,
the discs of the player to move (``mover``) and of the other (``opponent``), and whether
the player to move is X (black, who starts).

The tree's moves are the squares the player to move may play, in a static order (the
ranks of :data:`MOVE_RANKS`), or :data:`PASS` alone when that player has none and the
opponent has some: a pass is a move, a node and a ply. A position where neither side can
move is the end of the game (a full board is one), where the value is exact: the disc
difference for the player to move, the empty squares counted for the winner (the World
Othello Federation's rule; OpenSpiel's ``othello`` returns only the sign, win +1, loss
-1, draw 0, which this value always agrees with). Elsewhere :meth:`OthelloTree.value` is
the heuristic of :func:`evaluate`, clamped inside the exact values' range. A game from E
empty squares lasts at most 2E plies (a pass before each disc at worst), so a search at
least that deep reaches only the ends of games and is exact (:func:`plies_to_end`).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from harness.games.base import SelectiveMargins
from harness.games.dynamic_order import DynamicOrder

FULL = (1 << 64) - 1
NOT_A = FULL ^ sum(1 << (8 * row) for row in range(8))
"""Every square but column A: a disc there may step one column left (towards A)."""
NOT_H = FULL ^ sum(1 << (8 * row + 7) for row in range(8))
"""Every square but column H: a disc there may step one column right (towards H)."""
PASS = 64
"""The move of a player who has no square to play (OpenSpiel's pass action)."""
MAX_VALUE = 64
"""The most a final value can be (every disc one's own); heuristic values stay inside."""

DIRECTIONS = ((1, NOT_H), (-1, NOT_A), (8, FULL), (-8, FULL),
              (9, NOT_H), (7, NOT_A), (-7, NOT_H), (-9, NOT_A))
"""Each direction's shift (positive: towards H8) and the squares a disc may leave from
without wrapping round the board's edge."""

# The tables are data: the compiled twin receives the same lists (see compiled.py).
SQUARE_WEIGHTS = (
    8, -2, 1, 0, 0, 1, -2, 8,
    -2, -4, 0, 0, 0, 0, -4, -2,
    1, 0, 0, 0, 0, 0, 0, 1,
    0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 0, 0, 0, 0, 0, 1,
    -2, -4, 0, 0, 0, 0, -4, -2,
    8, -2, 1, 0, 0, 1, -2, 8,
)
"""What a disc on each square is worth to its owner in :func:`evaluate`, A1..H8 row by
row: a corner can never be flipped back (8); an X-square (diagonal to a corner, -4) and
a C-square (beside it on the edge, -2) tend to give the corner away; the A-squares of the
edges (C1, A3...) are safe edge squares (1). The rest is 0: middle discs change hands
too often to count."""
MOBILITY_WEIGHT = 1
"""What each move more than the opponent has is worth: mobility is the strongest single
feature of the middle game (Rosenbloom's IAGO, Buro's Logistello), and it is
:func:`legal_moves` already computed."""
MOVE_RANKS = (
    0, 4, 1, 2, 2, 1, 4, 0,
    4, 5, 3, 3, 3, 3, 5, 4,
    1, 3, 2, 2, 2, 2, 3, 1,
    2, 3, 2, 2, 2, 2, 3, 2,
    2, 3, 2, 2, 2, 2, 3, 2,
    1, 3, 2, 2, 2, 2, 3, 1,
    4, 5, 3, 3, 3, 3, 5, 4,
    0, 4, 1, 2, 2, 1, 4, 0,
)
"""The order moves are searched in: rank 0 first (corners), then the A-squares, the
other edge and middle squares, the squares next to the C- and X-squares, the C-squares,
and the X-squares last (the classic static order); within a rank by square number."""


def _rank_masks(ranks: Sequence[int]) -> tuple[int, ...]:
    return tuple(sum(1 << sq for sq in range(64) if ranks[sq] == r) for r in range(max(ranks) + 1))


def _weight_masks(weights: Sequence[int]) -> tuple[tuple[int, int], ...]:
    return tuple((w, sum(1 << sq for sq in range(64) if weights[sq] == w))
                 for w in sorted(set(weights)) if w)


RANK_MASKS = _rank_masks(MOVE_RANKS)
"""The squares of each rank of :data:`MOVE_RANKS`, rank 0 first."""
WEIGHT_MASKS = _weight_masks(SQUARE_WEIGHTS)
"""(weight, its squares) for each non-zero weight of :data:`SQUARE_WEIGHTS`."""

CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
"""A1, H1, A8, H8: the squares whose moves are tactical (:meth:`OthelloTree.tactical`)."""

SELECTIVE_MARGINS = SelectiveMargins(
    futility=(8, 16),
    reverse_futility=(6, 12, 18, 24, 30),
    razoring=(8, 16, 24),
    late_move_counts=(5, 8, 13),
    mate=0,
)
"""Othello's margins for the selective switches (docs/selective.md), in :func:`evaluate`'s
units (a disc-square weight, a move of mobility): futility a corner's weight (8, the largest
square weight) at the frontier and two at the pre-frontier (a quiet move raised the static
value by at most 9, by 5 at the 99th percentile, over ``phases.txt``); reverse futility 6 a
ply (a node's best move left it at most 4 below its static value there); razoring a corner
a ply to depth 3 (with no quiescence search, a razored node is answered by its static
value); late-move pruning after chess's counts. ``mate`` 0: a won end is a disc count,
which carries no distance, so mate-distance pruning is not offered."""

KEY_MIX = (0xBF58476D1CE4E5B9, 0x94D049BB133111EB)
"""splitmix64's multipliers: :func:`mix` is its finaliser, a bijection of 64-bit words."""


def shifted(discs: int, shift: int) -> int:
    return (discs << shift) & FULL if shift > 0 else discs >> -shift


def legal_moves(mover: int, opponent: int) -> int:
    """The squares ``mover`` may play: empty, and closing a line of the opponent's discs
    (a flood fill of at most six opponent discs from each of the mover's, per direction)."""
    empty = FULL ^ (mover | opponent)
    found = 0
    for shift, keep in DIRECTIONS:
        line = shifted(mover & keep, shift) & opponent
        for _ in range(5):
            line |= shifted(line & keep, shift) & opponent
        found |= shifted(line & keep, shift) & empty
    return found


def flips(mover: int, opponent: int, square: int) -> int:
    """The opponent's discs a disc of ``mover`` on ``square`` turns over."""
    turned = 0
    for shift, keep in DIRECTIONS:
        line = 0
        step = shifted((1 << square) & keep, shift)
        while step & opponent:
            line |= step
            step = shifted(step & keep, shift)
        if step & mover:
            turned |= line
    return turned


def final_value(mover: int, opponent: int) -> int:
    """The disc difference for the player to move at the end of the game, the empty
    squares going to the winner (none to either in a draw)."""
    difference = mover.bit_count() - opponent.bit_count()
    empty = 64 - (mover | opponent).bit_count()
    return difference + empty if difference > 0 else difference - empty if difference < 0 else 0


def evaluate(mover: int, opponent: int, mover_moves: int, opponent_moves: int) -> int:
    """The heuristic value for the player to move of a position before the end: the
    :data:`SQUARE_WEIGHTS` of the mover's discs less the opponent's, plus
    :data:`MOBILITY_WEIGHT` per move more than the opponent, clamped to within
    ``MAX_VALUE - 1`` of 0 (a heuristic never outranks a won or lost end)."""
    value = MOBILITY_WEIGHT * (mover_moves.bit_count() - opponent_moves.bit_count())
    for weight, squares in WEIGHT_MASKS:
        value += weight * ((mover & squares).bit_count() - (opponent & squares).bit_count())
    return max(-(MAX_VALUE - 1), min(MAX_VALUE - 1, value))


def mix(x: int) -> int:
    """splitmix64's finaliser: a bijection of 64-bit words whose low bits depend on every bit."""
    x = ((x ^ (x >> 30)) * KEY_MIX[0]) & FULL
    x = ((x ^ (x >> 27)) * KEY_MIX[1]) & FULL
    return x ^ (x >> 31)


def position_key(mover: int, opponent: int) -> int:
    """A 64-bit key of a position (the two players' discs, the mover's first): positions
    are 128 bits, so two may share a key, with odds of about 2**-64 a pair."""
    return mix(mover ^ mix(opponent ^ KEY_MIX[0]))


def checked_square(move: object) -> int:
    """``move`` as a square (0 to 63, or :data:`PASS`): a ``TypeError`` if it is not an
    int, a ``ValueError`` if it is off the board."""
    if not isinstance(move, int):
        raise TypeError(f"an Othello move is a square (int, 64: pass), not {type(move).__name__}")
    if not 0 <= move <= PASS:
        raise ValueError(f"square {move!r} is off the board (0 to 63, 64: pass)")
    return int(move)


def square_name(square: int) -> str:
    """``a1`` .. ``h8`` (OpenSpiel's names), ``pass``."""
    if not 0 <= square <= PASS:
        raise ValueError(f"square {square} is off the board (0 to 63, 64: pass)")
    return "pass" if square == PASS else "abcdefgh"[square % 8] + str(square // 8 + 1)


def plies_to_end(mover: int, opponent: int) -> int:
    """A depth that reaches the end of every game from here: two plies an empty square
    (a pass before each disc at worst)."""
    return 2 * (64 - (mover | opponent).bit_count())


class Board:
    """A position: the two players' discs, and whether the player to move is X."""

    __slots__ = ("mover", "opponent", "x_to_move")

    def __init__(self, mover: int, opponent: int, x_to_move: bool) -> None:
        self.mover = mover
        """The discs of the player to move."""
        self.opponent = opponent
        """The other player's discs."""
        self.x_to_move = x_to_move
        """Whether the player to move is X (black, who starts)."""

    @classmethod
    def start(cls) -> Board:
        """The starting position: O on D4 and E5, X on E4 and D5, X to move."""
        return cls((1 << 28) | (1 << 35), (1 << 27) | (1 << 36), True)

    def discs(self) -> int:
        return (self.mover | self.opponent).bit_count()


State = tuple[int, int, bool]
"""(mover, opponent, x_to_move)."""


class OthelloTree:
    """An Othello position walked through a cursor (see :class:`harness.games.base.Tree`).

    With ``killers`` or ``history`` (the game options) the tree learns from the search's
    fail-highs (:class:`~harness.games.dynamic_order.DynamicOrder`): the corners keep their
    place first (rank 0 of the static order, and the moves :meth:`tactical` names), the
    other squares follow, the killers of the ply first, then by history score, ties in the
    static order. A corner or a pass teaches nothing: a corner is searched first anyway,
    and a pass is the only move where it is one."""

    __slots__ = ("_learnt", "_stack", "board", "root")

    def __init__(self, board: Board, killers: bool = False, history: bool = False) -> None:
        self.root: State = (board.mover, board.opponent, board.x_to_move)
        self.board = Board(*self.root)
        self._stack: list[State] = []
        self._learnt = DynamicOrder(killers, history)

    def moves(self) -> Sequence[int]:
        b = self.board
        legal = legal_moves(b.mover, b.opponent)
        if not legal:
            return [PASS] if legal_moves(b.opponent, b.mover) else []
        found = []
        for squares in RANK_MASKS:
            bits = legal & squares
            while bits:
                low = bits & -bits
                found.append(low.bit_length() - 1)
                bits ^= low
        if self._learnt.active and len(found) > 1:
            return self._learnt.order([m for m in found if CORNERS >> m & 1],
                                      [m for m in found if not CORNERS >> m & 1], len(self._stack))
        return found

    def push(self, move: object) -> None:
        """Play ``move``: a ``TypeError`` if it is not an int, a ``ValueError`` if it is
        off the board or not legal here (a square that turns nothing over, a pass while a
        square is legal), as the compiled tree."""
        b = self.board
        square = checked_square(move)
        if square == PASS:
            if legal_moves(b.mover, b.opponent):
                raise ValueError("a pass while a square is legal")
            mover, opponent = b.mover, b.opponent
        else:
            bit = 1 << square
            turned = 0 if bit & (b.mover | b.opponent) else flips(b.mover, b.opponent, square)
            if not turned:
                raise ValueError(f"square {square} is not a legal move here")
            mover, opponent = b.mover | turned | bit, b.opponent ^ turned
        self._stack.append((b.mover, b.opponent, b.x_to_move))
        b.mover, b.opponent, b.x_to_move = opponent, mover, not b.x_to_move

    def pop(self) -> None:
        b = self.board
        b.mover, b.opponent, b.x_to_move = self._stack.pop()

    def leaf_value(self) -> int | None:
        """The exact value if the game is over here, else ``None``."""
        b = self.board
        if legal_moves(b.mover, b.opponent) or legal_moves(b.opponent, b.mover):
            return None
        return final_value(b.mover, b.opponent)

    def terminal_value(self) -> int:
        value = self.leaf_value()
        assert value is not None, "terminal_value of a node with moves"
        return value

    def value(self) -> int:
        """The exact value at the end of the game, else the heuristic (:func:`evaluate`)."""
        b = self.board
        mine = legal_moves(b.mover, b.opponent)
        theirs = legal_moves(b.opponent, b.mover)
        if not mine and not theirs:
            return final_value(b.mover, b.opponent)
        return evaluate(b.mover, b.opponent, mine, theirs)

    def child_value(self, move: object) -> int:
        self.push(move)
        value = self.value()
        self.pop()
        return value

    def key(self) -> int:
        return position_key(self.board.mover, self.board.opponent)

    def move_name(self, move: object) -> str:
        return square_name(operator.index(move))  # type: ignore[arg-type]

    def player(self) -> str:
        """``X`` or ``O``: the player to move (a pass changes it too)."""
        return "X" if self.board.x_to_move else "O"

    def reset(self) -> None:
        """Back to the root; killers and history forgotten."""
        if self._stack:
            self.board.mover, self.board.opponent, self.board.x_to_move = self.root
            self._stack.clear()
        self._learnt.clear()

    def cutoff(self, move: object, depth: int) -> None:
        """Learn from a fail-high caused by ``move`` (killers and history, when on; a
        corner or a pass teaches nothing)."""
        if self._learnt.active:
            square = operator.index(move)  # type: ignore[arg-type]
            if square != PASS and not CORNERS >> square & 1:
                self._learnt.learn(square, len(self._stack), depth)

    # -- the selective switches (harness.games.base.SelectiveTree) -------------------
    selective_margins: SelectiveMargins = SELECTIVE_MARGINS
    """Othello's margins for the selective switches (:data:`SELECTIVE_MARGINS`)."""

    def tactical(self, move: object) -> bool:
        """Whether ``move`` takes a corner: the moves the selective switches never prune or
        reduce. Othello has no captures to call tactical (every move flips discs), and its
        programs prune by ProbCut (Buro's Logistello, Delorme's Edax), which calls no move
        quiet; a corner is the move class whose searched value the static value
        underestimates most. A corner is never flipped back, and :func:`evaluate` sees the
        corner a move may take only as one move of mobility: over ``phases.txt``, one
        corner move in ten, searched three plies below it, is worth 5 or more above the
        static value before it; among the other moves, not one in ten is worth more than
        it (docs/selective.md). The static order searches corners first, so this mostly
        guards a corner that a hash move displaced."""
        return bool(CORNERS >> operator.index(move) & 1)  # type: ignore[arg-type]
