"""English draughts (American checkers) positions on bitboards: the rules, moves and keys.

The 32 dark squares are numbered as in PDN, 1 to 32 (bit ``n - 1``), row by row from
Black's side: squares 1-4 are the top row of the usual diagram (b8, d8, f8, h8), 29-32 the
bottom (a1, c1, e1, g1). Black starts on 1-12 and moves first, its men moving down (to
higher numbers); White starts on 21-32 and its men move up. A man crowns on the far row
(Black on 29-32, White on 1-4).

The rules: a man steps one square diagonally forwards, a king either way; a capture jumps
an adjacent enemy piece to the empty square beyond (men forwards only, kings either way).
Capturing is compulsory, and a capture goes on as long as the capturing piece can jump
again: a move is the complete sequence, and distinct sequences are distinct moves (a king
going round a ring of pieces either way makes two). A man that reaches the far row is
crowned and its move ends there. Any capture may be chosen, not only the longest. A side
without a move loses. **Draw rule** (OpenSpiel's ``checkers``): after 40 plies in a row
without a capture the game is a draw (the count starts at 0 at the position searched: a
FEN carries none).

A move is an ``int``: the start square's bit index (5 bits), the number of jumps (4 bits,
0 for a step) and the directions taken (2 bits each, the first lowest; a step's one
direction), so that distinct sequences are distinct numbers. Directions: 0 up-left,
1 up-right, 2 down-left, 3 down-right ("up" towards square 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from harness.errors import HarnessError

BLACK, WHITE = 0, 1
"""The sides: Black moves first."""
FULL = (1 << 32) - 1
"""Every dark square."""
DRAW_PLIES = 40
"""Plies in a row without a capture after which the game is drawn (OpenSpiel's rule)."""
MAN_DIRECTIONS = ((2, 3), (0, 1))
"""The directions a man of each side moves and captures in (Black down, White up)."""
KING_DIRECTIONS = (0, 1, 2, 3)
CROWN_ROW = (7, 0)
"""The row on which each side's men are crowned."""
START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def _splitmix64(state: int) -> int:
    z = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


KEY_SIDE = 128
"""Zobrist entries: 0-127 a piece on a square (black men, white men, black kings, white
kings, 32 squares each), 128 White to move, 129 + n the draw rule's count ``n``."""
KEY_QUIET = 129
ZOBRIST = tuple(_splitmix64(i * 0x9E3779B97F4A7C15) for i in range(KEY_QUIET + DRAW_PLIES + 1))
"""The Zobrist numbers: splitmix64 of ``i`` times the golden-ratio constant, a fixed table
(the compiled tree is handed this one)."""


def row_of(square: int) -> int:
    """The row (0 = squares 1-4) of a bit index."""
    return square >> 2


def column_of(square: int) -> int:
    """The column (0 = a) of a bit index: dark squares are odd columns on even rows."""
    return 2 * (square & 3) + (1 - (square >> 2) % 2)


def _square_at(row: int, column: int) -> int:
    """The bit index of the dark square at ``row``, ``column``, or -1 off the board."""
    if not (0 <= row < 8 and 0 <= column < 8) or (row + column) % 2 == 0:
        return -1
    return row * 4 + column // 2


_OFFSETS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
NEIGHBOUR = tuple(tuple(_square_at(row_of(s) + dr, column_of(s) + dc) for dr, dc in _OFFSETS)
                  for s in range(32))
"""``NEIGHBOUR[s][d]``: the square next to ``s`` in direction ``d``, or -1."""
JUMP = tuple(tuple(_square_at(row_of(s) + 2 * dr, column_of(s) + 2 * dc) for dr, dc in _OFFSETS)
             for s in range(32))
"""``JUMP[s][d]``: where a jump from ``s`` in direction ``d`` lands, or -1."""
CROWN_MASK = (0xF << 28, 0xF)
"""The squares on which each side's men are crowned (Black 29-32, White 1-4)."""


def bits(mask: int) -> Iterator[int]:
    """The set bits' indexes, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def encode_step(start: int, direction: int) -> int:
    return start | direction << 9


def move_jumps(move: int) -> int:
    """How many pieces a move captures (0: a step)."""
    return (move >> 5) & 15


def move_path(move: int) -> list[int]:
    """The squares a move visits, its start first."""
    square = move & 31
    path = [square]
    jumps = move_jumps(move)
    directions = move >> 9
    if not jumps:
        return [square, NEIGHBOUR[square][directions & 3]]
    for i in range(jumps):
        square = JUMP[square][(directions >> 2 * i) & 3]
        path.append(square)
    return path


def move_name(move: int) -> str:
    """PDN's name: ``11-15`` for a step, ``22x15x8`` for a capture (every landing square)."""
    separator = "x" if move_jumps(move) else "-"
    return separator.join(str(s + 1) for s in move_path(move))


@dataclass(frozen=True)
class Position:
    """A checkers position: the pieces, the side to move, the plies since the last capture."""

    black: int
    """Black's pieces (bit ``n - 1`` for square ``n``)."""
    white: int
    """White's pieces."""
    kings: int
    """The kings of either side."""
    side: int
    """The side to move: :data:`BLACK` or :data:`WHITE`."""
    quiet: int = 0
    """Plies in a row without a capture (the draw rule's count)."""

    def sides(self) -> tuple[int, int]:
        """(the mover's pieces, the opponent's)."""
        return (self.black, self.white) if self.side == BLACK else (self.white, self.black)

    def captures(self) -> list[int]:
        """Every complete capture sequence of the side to move, pieces by square, each
        piece's sequences depth first in direction order."""
        own, other = self.sides()
        empty = FULL & ~(self.black | self.white)
        found: list[int] = []
        for start in bits(own):
            king = bool(self.kings >> start & 1)
            directions = KING_DIRECTIONS if king else MAN_DIRECTIONS[self.side]
            self._extend(found, start, start, 0, 0, other, empty | 1 << start, king, directions)
        return found

    def _extend(self, found: list[int], start: int, at: int, jumps: int, path: int,
                other: int, empty: int, king: bool, directions: tuple[int, ...]) -> None:
        """Add the sequences that continue from ``at`` after ``jumps`` jumps (``path``:
        their directions); a sequence ends where no jump is left or a man is crowned."""
        extended = False
        for d in directions:
            over, land = NEIGHBOUR[at][d], JUMP[at][d]
            if land < 0 or not (other >> over & 1) or not (empty >> land & 1):
                continue
            extended = True
            route = path | d << 2 * jumps
            if not king and CROWN_MASK[self.side] >> land & 1:
                found.append(start | (jumps + 1) << 5 | route << 9)
                continue
            self._extend(found, start, land, jumps + 1, route, other & ~(1 << over),
                         (empty | 1 << at | 1 << over) & ~(1 << land), king, directions)
        if not extended and jumps:
            found.append(start | jumps << 5 | path << 9)

    def steps(self) -> list[int]:
        """Every non-capturing move, pieces by square, directions in order."""
        own, _ = self.sides()
        empty = FULL & ~(self.black | self.white)
        found = []
        for start in bits(own):
            directions = KING_DIRECTIONS if self.kings >> start & 1 else MAN_DIRECTIONS[self.side]
            for d in directions:
                to = NEIGHBOUR[start][d]
                if to >= 0 and empty >> to & 1:
                    found.append(encode_step(start, d))
        return found

    def has_move(self) -> bool:
        """Whether the side to move has a move (a step or a first jump), the draw rule
        aside: cheaper than :meth:`legal_moves`."""
        own, other = self.sides()
        empty = FULL & ~(self.black | self.white)
        for start in bits(own):
            directions = KING_DIRECTIONS if self.kings >> start & 1 else MAN_DIRECTIONS[self.side]
            for d in directions:
                to, land = NEIGHBOUR[start][d], JUMP[start][d]
                if to >= 0 and (empty >> to & 1 or (land >= 0 and other >> to & 1
                                                     and empty >> land & 1)):
                    return True
        return False

    def key(self) -> int:
        """A 64-bit Zobrist key of the pieces, the side to move and the draw rule's count
        (two positions that differ only in the count may differ in value)."""
        key = ZOBRIST[KEY_SIDE] if self.side == WHITE else 0
        key ^= ZOBRIST[KEY_QUIET + self.quiet]
        for kind, mask in enumerate((self.black & ~self.kings, self.white & ~self.kings,
                                     self.black & self.kings, self.white & self.kings)):
            for square in bits(mask):
                key ^= ZOBRIST[kind * 32 + square]
        return key

    def legal_moves(self) -> list[int]:
        """The moves (captures when there are any: they are compulsory); none once the
        draw rule has ended the game."""
        if self.quiet >= DRAW_PLIES:
            return []
        return self.captures() or self.steps()

    def play(self, move: int) -> Position:
        """The position after ``move`` (trusted to be legal)."""
        path = move_path(move)
        start, end = path[0], path[-1]
        own, other = self.sides()
        kings = self.kings
        jumps = move_jumps(move)
        for i in range(jumps):
            over = NEIGHBOUR[path[i]][(move >> (9 + 2 * i)) & 3]
            other &= ~(1 << over)
            kings &= ~(1 << over)
        own = own & ~(1 << start) | 1 << end
        if kings >> start & 1 or CROWN_MASK[self.side] >> end & 1:
            kings = kings & ~(1 << start) | 1 << end
        black, white = (own, other) if self.side == BLACK else (other, own)
        return Position(black, white, kings, 1 - self.side,
                        0 if jumps else min(self.quiet + 1, DRAW_PLIES))


def _square_list(text: str, where: str) -> list[tuple[int, bool]]:
    """A FEN side's squares: ``21,22,K3`` or ranges ``21-32``; (bit index, king) each."""
    found: list[tuple[int, bool]] = []
    for item in filter(None, text.split(",")):
        king = item[:1].upper() == "K"
        body = item[1:] if king else item
        low, dash, high = body.partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise HarnessError(f"{where}{item!r} is not a square (1-32, K for a king, or a "
                               f"range 21-32)") from None
        if not (1 <= first <= last <= 32):
            raise HarnessError(f"{where}{item!r}: squares are 1 to 32")
        found += [(n - 1, king) for n in range(first, last + 1)]
    return found


def parse_fen(text: str, where: str = "") -> Position:
    """A PDN FEN, ``B:W21,22,K30:B1,2,3`` (side to move, then each side's squares, K
    before a king; ranges ``21-32`` allowed, a final ``.`` ignored); errors start with
    ``where``."""
    fields = text.strip().rstrip(".").split(":")
    if len(fields) != 3 or fields[0].upper() not in ("B", "W"):
        raise HarnessError(f"{where}{text!r} is not a FEN (B:W21,22,...:B1,2,...: the side to "
                           f"move, then each side's squares)")
    pieces: dict[str, int] = {}
    kings = 0
    taken = 0
    for part in fields[1:]:
        colour = part[:1].upper()
        if colour not in ("W", "B") or colour in pieces:
            raise HarnessError(f"{where}{part!r}: expected one W and one B list of squares")
        mask = 0
        for square, king in _square_list(part[1:], where):
            if taken >> square & 1:
                raise HarnessError(f"{where}square {square + 1} is given twice")
            taken |= 1 << square
            mask |= 1 << square
            side = BLACK if colour == "B" else WHITE
            if king:
                kings |= 1 << square
            elif CROWN_MASK[side] >> square & 1:
                raise HarnessError(f"{where}a {'black' if side == BLACK else 'white'} man on "
                                   f"square {square + 1}, its crowning row: it would be a king")
        if mask.bit_count() > 12:
            raise HarnessError(f"{where}{mask.bit_count()} pieces for {colour}: at most 12")
        pieces[colour] = mask
    return Position(pieces["B"], pieces["W"], kings, BLACK if fields[0].upper() == "B" else WHITE)


def fen(position: Position) -> str:
    """The position's PDN FEN (kings marked K, squares in order)."""
    def side(letter: str, mask: int) -> str:
        return letter + ",".join(("K" if position.kings >> s & 1 else "") + str(s + 1)
                                 for s in bits(mask))
    return ":".join(("BW"[position.side], side("W", position.white), side("B", position.black)))


def perft(position: Position, depth: int) -> int:
    """The number of move sequences ``depth`` plies long (a multi-jump one ply)."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(m), depth - 1) for m in moves)
