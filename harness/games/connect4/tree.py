"""Connect Four positions as a tree, on bitboards as Pascal Pons's solver keeps them.

A position is two bit masks over the board, one column after another, each ``height + 1``
bits (a spare bit on top): ``mask`` has a bit for every stone, ``position`` for the stones
of the player to move. Playing column ``c`` adds the lowest free bit of the column to
``mask`` (``mask + bottom(c)``) and gives the move to the other player (``position ^=
mask`` before it).

Values are Pons's scores for the player to move: a player who can win at once is at a
leaf worth ``(W*H + 1 - stones) // 2`` (22 minus the stones the winner will have played,
on 7x6), a full board is a draw worth 0, and a node is never expanded past a win: its
children are the moves of a player who cannot win at once. Such a node's value is at
most ``(W*H - 1 - stones) // 2`` (:meth:`Connect4Tree.value_bound`), the bound the search
frame lowers beta to when value bounds are on. At a horizon before the end of the game
:meth:`Connect4Tree.value` is a heuristic (see there).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.errors import HarnessError
from harness.games.base import INF

KEY_MIX = 0x9E3779B97F4A7C15
"""An odd 64-bit constant (2**64 divided by the golden ratio, Knuth's multiplicative hash)."""

ORDERS = ("centre", "left", "threats")
"""Column orders: from the centre outwards (Pons: 4, 3, 5, 2, 6, 1, 7), left to right, or
by the threats a move makes (the squares that would then win for the mover, most first;
ties from the centre out: Pons's move sorter)."""


def column_order(width: int, order: str) -> list[int]:
    """Columns (from 0) in search order (``threats`` starts from the centre order)."""
    if order == "left":
        return list(range(width))
    return [width // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(width)]


class Board:
    """A position: the stones, the player to move, the stones played; no search state."""

    __slots__ = ("bottom", "full", "height", "key_bits", "mask", "moves", "position", "width")

    def __init__(self, width: int = 7, height: int = 6) -> None:
        self.width = width
        self.height = height
        self.bottom = sum(1 << (c * (height + 1)) for c in range(width))
        """One bit at the foot of each column."""
        self.full = self.bottom * ((1 << height) - 1)
        """Every square of the board."""
        self.key_bits = (1 << max(64, width * (height + 1))) - 1
        """Keys are taken modulo ``2**n``, ``n`` at least the board's bits (see :meth:`key`)."""
        self.position = 0
        self.mask = 0
        self.moves = 0

    def can_play(self, column: int) -> bool:
        return not self.mask & (1 << (self.height - 1 + column * (self.height + 1)))

    def play(self, column: int) -> None:
        self.position ^= self.mask
        self.mask |= self.mask + (1 << (column * (self.height + 1)))
        self.moves += 1

    def wins(self, column: int) -> bool:
        """Whether playing ``column`` gives the player to move four in a line."""
        h1 = self.height + 1
        stone = (self.mask + (1 << (column * h1))) & (((1 << self.height) - 1) << (column * h1))
        return aligned(self.position | stone, h1)

    def can_win(self) -> bool:
        return any(self.can_play(c) and self.wins(c) for c in range(self.width))

    def key(self) -> int:
        """Pons's key ``position + mask`` (unique for a position on a given board size),
        mixed by a bijection of ``n``-bit integers (``n`` = 64, or the board's bits when
        more): still unique, but with low bits that depend on every column. The
        transposition table's slot is the key modulo its size; the raw key's low bits are
        the first columns alone, which crowds a table of 2**20 entries into few slots
        (Pons's table takes a prime size instead): on the first position of Test_L1_R1
        (``order=threats,anticipate=1``, a table of 2**20), mtd-bi searched 304,003 nodes
        with the raw key, 62,993 with this one."""
        half = self.key_bits.bit_length() // 2
        x = self.position + self.mask
        x ^= x >> half                      # each step is invertible: x ^ (x >> s), x * odd
        x = (x * KEY_MIX) & self.key_bits
        return x ^ (x >> half)

    def winning_squares(self, stones: int) -> int:
        """The empty squares that would give ``stones`` four in a line (Pons's
        ``compute_winning_position``), playable now or not."""
        r = 0
        for shift in (self.height + 1, self.height, self.height + 2):   # -, /, \
            p = (stones << shift) & (stones << 2 * shift)
            r |= p & (stones << 3 * shift)
            r |= p & (stones >> shift)
            p = (stones >> shift) & (stones >> 2 * shift)
            r |= p & (stones << shift)
            r |= p & (stones >> 3 * shift)
        r |= (stones << 1) & (stones << 2) & (stones << 3)              # vertical
        return r & (self.full ^ self.mask)

    def playable(self) -> int:
        """The square each column would be played on (none in a full column)."""
        return (self.mask + self.bottom) & self.full

    def non_losing(self) -> int:
        """The playable squares that do not let the opponent win at once (Pons): a square
        the opponent would win on must be blocked (two such: every move loses), and no
        move may be played just below one."""
        possible = self.playable()
        threats = self.winning_squares(self.position ^ self.mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return 0
            possible = forced
        return possible & ~(threats >> 1)

    def column_of(self, square: int) -> int:
        return (square.bit_length() - 1) // (self.height + 1)


def aligned(stones: int, h1: int) -> bool:
    """Whether ``stones`` hold four in a line (columns of ``h1`` bits)."""
    for shift in (h1, h1 - 1, h1 + 1, 1):       # horizontal, the two diagonals, vertical
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


def board_from(moves: str, width: int = 7, height: int = 6, where: str = "") -> Board:
    """The position after ``moves`` (columns from 1, Pons's notation); a column off the
    board, a full column or a move after the game was won is a :class:`HarnessError`
    starting with ``where``."""
    board = Board(width, height)
    for i, char in enumerate(moves):
        if not char.isdigit() or not 1 <= int(char) <= width:
            raise HarnessError(f"{where}move {i + 1}: {char!r} is not a column (1 to {width})")
        column = int(char) - 1
        if not board.can_play(column):
            raise HarnessError(f"{where}move {i + 1}: column {char} is full")
        if board.wins(column):
            raise HarnessError(f"{where}move {i + 1}: column {char} wins: the game is over "
                               f"there, a position to search must come before it")
        board.play(column)
    if board.moves == width * height:
        raise HarnessError(f"{where}the board is full: nothing to search")
    return board


class Connect4Tree:
    """A Connect Four position walked through a cursor (see :class:`harness.games.base.Tree`).

    ``anticipate`` (Pons's "anticipate losing moves"): a node's moves are only those that
    do not let the opponent win at once; a node without one is a leaf, lost in two plies
    (``-(W*H - stones) // 2``), and one with two squares or fewer left is a draw. Its
    values are the same, its tree far smaller (and :meth:`value_floor` can say more).
    """

    __slots__ = ("_anticipate", "_by_threats", "_order", "_stack", "board", "root")

    def __init__(self, board: Board, order: str = "centre", anticipate: bool = False) -> None:
        self.root = (board.position, board.mask, board.moves)
        self.board = Board(board.width, board.height)
        self.board.position, self.board.mask, self.board.moves = self.root
        self._order = column_order(board.width, order)
        self._by_threats = order == "threats"
        self._anticipate = anticipate
        self._stack: list[tuple[int, int, int]] = []

    def moves(self) -> Sequence[int]:
        b = self.board
        size = b.width * b.height
        if b.moves == size or b.can_win():
            return []
        if not self._anticipate:
            columns = [c for c in self._order if b.can_play(c)]
        else:
            allowed = b.non_losing()
            if not allowed or b.moves >= size - 2:
                return []
            h1 = b.height + 1
            columns = [c for c in self._order if allowed & (((1 << b.height) - 1) << (c * h1))]
        if not self._by_threats:
            return columns
        playable = b.playable()
        scored = []
        for rank, c in enumerate(columns):
            square = playable & (((1 << b.height) - 1) << (c * (b.height + 1)))
            scored.append((-b.winning_squares(b.position | square).bit_count(), rank, c))
        return [c for _, _, c in sorted(scored)]

    def push(self, move: object) -> None:
        b = self.board
        self._stack.append((b.position, b.mask, b.moves))
        b.play(move)  # type: ignore[arg-type]

    def pop(self) -> None:
        b = self.board
        b.position, b.mask, b.moves = self._stack.pop()

    def leaf_value(self) -> int | None:
        """The node's value if it is a leaf (the cases :meth:`moves` stops at, in its
        order), else ``None``."""
        b = self.board
        size = b.width * b.height
        if b.moves == size:
            return 0
        if b.can_win():
            return (size + 1 - b.moves) // 2
        if self._anticipate:
            if not b.non_losing():
                return -((size - b.moves) // 2)         # every move loses
            if b.moves >= size - 2:
                return 0                                # two squares left, no win: a draw
        return None

    def terminal_value(self) -> int:
        value = self.leaf_value()
        assert value is not None, "terminal_value of a node with moves"
        return value

    def value(self) -> int:
        """A leaf's exact value (a full board, a win at once...); before the end of the
        game 0, "not decided yet", as for any game the harness cannot evaluate better."""
        value = self.leaf_value()
        return 0 if value is None else value

    def child_value(self, move: object) -> int:
        self.push(move)
        value = self.value()
        self.pop()
        return value

    def value_bound(self) -> int:
        """The most the player to move can still score, once no win at once exists."""
        b = self.board
        return (b.width * b.height - 1 - b.moves) // 2

    def value_range(self) -> tuple[int, int]:
        """The least and the most the player to move can score here, whatever the position:
        lose to the opponent's next stone, or win with one's own (Pons's solver starts its
        zero-window passes between them; :func:`harness.search.drivers.mtd_pons`)."""
        b = self.board
        size = b.width * b.height
        return -((size - b.moves) // 2), (size + 1 - b.moves) // 2

    def value_floor(self) -> int:
        """The least the player to move can score once a move that does not lose at once
        exists (with ``anticipate``; else no floor: Pons's solver has none before it)."""
        b = self.board
        return -((b.width * b.height - 2 - b.moves) // 2) if self._anticipate else -INF

    def key(self) -> int:
        return self.board.key()

    def move_name(self, move: object) -> str:
        return str(int(move) + 1)  # type: ignore[call-overload]

    def reset(self) -> None:
        if self._stack:
            self.board.position, self.board.mask, self.board.moves = self.root
            self._stack.clear()

    def cutoff(self, move: object, depth: int) -> None:
        """The column order is fixed: nothing to learn."""
