"""EPD suites: chess positions with operations (``bm``, ``am``, ``id``, ...), read and written
with python-chess.

A line of an EPD file is four position fields (board, side to move, castling, en passant)
followed by operations ``opcode operand...;``. Blank lines and lines starting with ``#``
are skipped, and CRLF line endings are accepted. A line is a position when

1. it has at least the four position fields;
2. whatever follows them is a list of operations: it starts with an opcode (a letter, then
   letters, digits or ``_``), every ``;`` closes a non-empty operation, a string operand
   is closed and followed by ``;`` (or the end of the line), and no opcode appears twice
   (the ``;`` after the last operation may be left out, as python-chess allows);
3. python-chess's :meth:`chess.Board.from_epd` accepts it (so ``bm``, ``am`` and ``pv``
   are legal moves in the position);
4. the position is legal (:meth:`chess.Board.is_valid`: one king each, the side not to move
   not in check, no impossible check, castling rights that fit the rooks, ...).

Rule 2 is not python-chess's: it reads a FEN's move counters after the position as an
opcode and fails (``expected epd opcode to start with a letter, got: '0'``), but it reads
the perft-suite format ``FEN ;D1 20 ;D2 400`` without move counters silently as operations
``D1``, ``D2``, ... after an empty one. Both are reported here as ``not EPD``. A position
with no legal moves is a position (a terminal problem).

Operations are kept as python-chess parses them: ``bm``, ``am`` and ``pv`` are lists of
:class:`chess.Move`, numbers are ``int`` or ``float``, quoted operands ``str``; ``hmvc`` and
``fmvn`` set the half-move clock and full-move number.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

import chess

from harness.errors import HarnessError, decode_utf8
from harness.files import read_text_lines, write_whole

EpdOperand: TypeAlias = str | int | float | chess.Move | list[chess.Move] | None
"""An operation's value as python-chess parses it."""

OPCODE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""An EPD opcode: a letter, then letters, digits or underscores. Opcodes starting with an
upper-case letter are private (program-specific), e.g. ``Hnodes`` or ``D1``."""

STANDARD_OPCODES = frozenset([
    "acd", "acn", "acs", "am", "bm", "ce", "dm", "draw_accept", "draw_claim", "draw_offer",
    "draw_reject", "eco", "fmvn", "hmvc", "id", "nic", "noop", "pm", "pv", "rc", "resign",
    "sm", "tcgs", "tcri", "tcsi", *(f"c{i}" for i in range(10)), *(f"v{i}" for i in range(10)),
])
"""The opcodes of the PGN standard's EPD section (used to explain a missing ``;``)."""

_MOVE_OPCODES = ("bm", "am", "pv")
_EPD_KEYWORDS = ("shredder", "en_passant", "promoted")  # options of Board.epd, not opcodes
_PERFT_FORMAT = re.compile(r"(\d+\s+\d+\s*)?;\s*D\d+\s")


class SkippedLineWarning(UserWarning):
    """A malformed line skipped by :func:`load_suite` with ``skip_invalid=True``."""


@dataclass(frozen=True)
class EpdPosition:
    """One position of an EPD suite."""

    line: int
    """Its line in the file, from 1."""
    id: str
    """The ``id`` operation, or ``<suite stem>.<line>`` when there is none."""
    epd: str
    """The position as EPD without operations (``board.epd()``)."""
    fen: str
    """The position as FEN (``board.fen()``; move counters from ``hmvc``/``fmvn`` or 0 1)."""
    ops: dict[str, EpdOperand] = field(hash=False)
    """Every operation, as python-chess parses them (``bm``/``am``/``pv`` are lists of moves)."""

    def board(self) -> chess.Board:
        """A new board set to the position."""
        return chess.Board(self.fen)


@dataclass(frozen=True)
class Suite:
    """An EPD file, read."""

    name: str
    """The file's name, e.g. ``wac.epd``."""
    path: Path
    """The file, as it was given."""
    sha256: str
    """sha256 of the file's bytes (hex)."""
    positions: tuple[EpdPosition, ...]
    """The positions, in file order."""
    skipped: tuple[tuple[int, str], ...] = ()
    """``(line, reason)`` for each malformed line skipped (only with ``skip_invalid``)."""


class _BadLine(Exception):
    """Why a line is not a usable EPD position (the reason, without the place)."""


def load_suite(path: str | Path, skip_invalid: bool = False) -> Suite:
    """Read an EPD file (see the module docstring for what a valid line is).

    A malformed line or an illegal position raises :class:`HarnessError` ``FILE:LINE:
    reason``; with ``skip_invalid`` it is recorded in :attr:`Suite.skipped` and a
    :class:`SkippedLineWarning` is issued instead. Two positions with the same ``id`` are
    an error too (results are keyed by it).
    """
    return _read(Path(path), skip_invalid)


def parse_epd(text: str) -> tuple[chess.Board, dict[str, EpdOperand]]:
    """Parse one EPD line into a board and its operations, with the rules of this module.

    Raises :class:`HarnessError` with the reason (without a place) when it is not valid.
    """
    try:
        return _parse(text)
    except _BadLine as exc:
        raise HarnessError(str(exc)) from None


def solved(position: EpdPosition, move: chess.Move) -> bool | None:
    """Whether ``move`` solves the position: it is one of the ``bm`` moves (when there are
    any) and none of the ``am`` moves. ``None`` when the position has neither."""
    best = _moves(position.ops.get("bm"))
    avoid = _moves(position.ops.get("am"))
    if not best and not avoid:
        return None
    if best and move not in best:
        return False
    return move not in avoid


def write_epd(path: str | Path,
              positions_with_ops: Iterable[tuple[chess.Board | EpdPosition, Mapping[str, EpdOperand]]],
              header: Iterable[str] = ()) -> None:
    """Write EPD lines ``board.epd(**ops)``, one per ``(board or position, ops)`` pair.

    ``ops`` may hold any opcode this module reads back (``id``, ``bm``, ``acd``, ``acn``,
    ``ce``, ``pv``, private ones such as ``Hnodes``): moves must be legal in the position.
    ``header`` lines are written first as ``# `` comments. The file is replaced atomically.
    """
    path = Path(path)
    lines = [f"# {text}".rstrip() for text in header]
    for line in lines:
        if "\n" in line or "\r" in line:
            raise HarnessError(f"{path}: a header line contains a line break")
    for number, (item, ops) in enumerate(positions_with_ops, 1):
        board = item.board() if isinstance(item, EpdPosition) else item
        for opcode in ops:
            if not OPCODE.fullmatch(opcode) or opcode in _EPD_KEYWORDS:
                raise HarnessError(f"{path}: position {number}: invalid opcode {opcode!r} (a letter, then "
                                   f"letters, digits or '_'; not {', '.join(_EPD_KEYWORDS)})")
        epd: Callable[..., str] = board.epd
        try:
            _check_moves(board, ops)
            text = epd(**ops)
            _, back = _parse(text)
        except (ValueError, AssertionError, _BadLine) as exc:
            raise HarnessError(f"{path}: position {number}: cannot write EPD: {_one_line(exc)}") from None
        if set(back) != set(ops):
            raise HarnessError(f"{path}: position {number}: cannot write EPD: {text!r} reads back as "
                               f"operations {sorted(back)}, not {sorted(ops)}")
        lines.append(text)
    write_whole(path, "".join(line + "\n" for line in lines).encode("utf-8"))


def _check_moves(board: chess.Board, ops: Mapping[str, EpdOperand]) -> None:
    """Every move operand must be legal (python-chess would write an illegal one as SAN that
    cannot be read back); ``pv`` is a line, each move legal after the ones before it."""
    for opcode, value in ops.items():
        if isinstance(value, chess.Move):
            moves = [value]
        elif isinstance(value, str | int | float) or value is None:
            continue
        else:
            moves = list(value)
        position = board.copy(stack=False)
        for move in moves:
            if not isinstance(move, chess.Move) or not position.is_legal(move):
                raise ValueError(f"{opcode}: {move} is not a legal move in {position.fen()}")
            if opcode == "pv":
                position.push(move)


def _read(path: Path, skip_invalid: bool) -> Suite:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise HarnessError(f"{path}: cannot read: {exc.strerror or exc}") from None
    decode_utf8(path, data)             # a file that is not UTF-8 is refused whole, as before
    skipped: list[tuple[int, str]] = []

    def skip(number: int, reason: str) -> None:
        skipped.append((number, reason))
        warnings.warn(f"{path}:{number}: {reason} (skipped)", SkippedLineWarning, stacklevel=5)

    positions = tuple(read_positions(path, skip if skip_invalid else None))
    return Suite(path.name, path, hashlib.sha256(data).hexdigest(), positions, tuple(skipped))


def read_positions(path: str | Path,
                   skip: Callable[[int, str], None] | None = None) -> Iterator[EpdPosition]:
    """The positions of an EPD file, read a line at a time as they are asked for
    (:func:`read_lines`)."""
    return (position for _, position in read_lines(path, skip))


def read_lines(path: str | Path, skip: Callable[[int, str], None] | None = None
               ) -> Iterator[tuple[str, EpdPosition]]:
    """Each position of an EPD file with its line's text (stripped), read a line at a time
    as they are asked for: a run that stops after two positions reads the file no further
    (a line is only checked when it is read). A malformed line (the rules of the module
    docstring, a duplicate ``id``, bytes that are not UTF-8) raises :class:`HarnessError`
    ``FILE:LINE: reason``; with ``skip`` it is handed to ``skip(line, reason)`` instead
    (not UTF-8 is still an error). What the reader keeps grows with the lines read, not
    the file: the ids seen."""
    path = Path(path)
    seen: dict[str, int] = {}
    for number, raw in enumerate(read_text_lines(path), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            position = position_from_line(line, number, path)
            if position.id in seen:
                raise _BadLine(f"duplicate id {position.id!r} (also on line {seen[position.id]})")
        except _BadLine as exc:
            if skip is None:
                raise HarnessError(f"{path}:{number}: {exc}") from None
            skip(number, str(exc))
            continue
        seen[position.id] = number
        yield line, position


def position_from_line(line: str, number: int, path: str | Path) -> EpdPosition:
    """The position of one EPD line (stripped), line ``number`` of ``path`` (its id, when
    the line gives none, is ``<stem>.<number>``); :class:`_BadLine` when it is none."""
    board, ops = _parse(line)
    return EpdPosition(number, _identity(ops, Path(path), number), board.epd(), board.fen(), ops)


def _parse(line: str) -> tuple[chess.Board, dict[str, EpdOperand]]:
    parts = line.split(None, 4)
    if len(parts) < 4:
        raise _BadLine(f"invalid EPD: {len(parts)} field(s), expected the four position fields "
                       "(board, side to move, castling, en passant) and operations")
    if len(parts) == 5:
        _check_operations(parts[4])
    try:
        board, ops = chess.Board.from_epd(line)
    except ValueError as exc:
        raise _BadLine(f"invalid EPD: {_one_line(exc)}{_missing_semicolon(parts)}") from None
    problem = illegal_position(board)
    if problem is not None:
        raise _BadLine(problem)
    return board, ops


def illegal_position(board: chess.Board) -> str | None:
    """``illegal position: <why>`` when ``board`` fails rule 4 of the module docstring
    (:meth:`chess.Board.is_valid`), ``None`` when it passes: the check every position a
    run reads gets, and ``harness perft`` too."""
    return None if board.is_valid() else f"illegal position: {_status(board)}"


def _check_operations(text: str) -> None:
    """Rule 2 of the module docstring, for the text after the four position fields."""
    first = text[0]
    if _PERFT_FORMAT.match(text):
        raise _BadLine(f"not EPD: {_snippet(text)!r} after the four position fields is the perft-suite "
                       "format 'FEN ;D1 n ;D2 n ...' (EPD operations are 'opcode operand;')")
    if first.isdigit() or first in "+-":
        raise _BadLine(f"not EPD: {_snippet(text)!r} after the four position fields (a FEN's move "
                       "counters? EPD gives them as operations 'hmvc n; fmvn n;')")
    if first == ";":
        raise _BadLine(f"not EPD: {_snippet(text)!r}: ';' with no operation before it "
                       "(the perft-suite format 'FEN ;D1 n ;D2 n'?)")
    opcodes: set[str] = set()
    start = 0
    quote = False
    escaped = False
    closed_string = False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quote, closed_string = False, True
            continue
        if ch == ";":
            _check_operation(text[start:i], text, opcodes)
            start, closed_string = i + 1, False
        elif ch == '"':
            if closed_string:
                raise _BadLine(f"invalid EPD: {_snippet(text[start:])!r}: a second string in one operation")
            quote = True
        elif closed_string and not ch.isspace():
            opcode = text[start:].split()[0]
            raise _BadLine(f"invalid EPD: missing ';' after the string operand of {opcode!r}")
    if quote:
        raise _BadLine(f"invalid EPD: {_snippet(text[start:])!r}: unterminated string")
    if text[start:].strip():
        _check_operation(text[start:], text, opcodes)


def _check_operation(operation: str, text: str, opcodes: set[str]) -> None:
    tokens = operation.split(None, 1)
    if not tokens:
        raise _BadLine(f"not EPD: {_snippet(text)!r}: ';' with no operation before it")
    opcode = tokens[0]
    if not OPCODE.fullmatch(opcode):
        raise _BadLine(f"invalid EPD: invalid opcode {opcode!r} (a letter, then letters, digits or '_')")
    if opcode in opcodes:
        raise _BadLine(f"invalid EPD: opcode {opcode!r} appears twice")
    opcodes.add(opcode)


def _missing_semicolon(parts: list[str]) -> str:
    """A hint when a move list runs into the next operation, as in ``bm Nxd4 id "x";``."""
    if len(parts) < 5:
        return ""
    for operation in parts[4].split(";"):
        tokens = operation.split()
        if tokens and tokens[0] in _MOVE_OPCODES:
            for token in tokens[1:]:
                if token in STANDARD_OPCODES or token.startswith('"'):
                    return f" (missing ';' before {token!r}?)"
    return ""


def _identity(ops: Mapping[str, EpdOperand], path: Path, line: int) -> str:
    ident = ops.get("id")
    if isinstance(ident, str):
        return ident
    if isinstance(ident, int | float):
        return str(ident)
    return f"{path.stem}.{line}"


def _status(board: chess.Board) -> str:
    status = chess.Status(board.status())
    names = [flag.name.lower().replace("_", " ") for flag in chess.Status if flag in status and flag.name]
    return ", ".join(names) or "invalid"


def _moves(value: EpdOperand) -> list[chess.Move]:
    if isinstance(value, chess.Move):
        return [value]
    if isinstance(value, list):
        return value
    return []


def _snippet(text: str, width: int = 24) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width] + "..."


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())
