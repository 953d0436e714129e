"""Perft suites: counts of move sequences by depth, to check a move generator against.

A perft suite has one position a line and the number of legal move sequences of each
length from it, in either of two formats:

- the public suite's (``perftsuite.epd``, not EPD): a FEN, then ``;D1 20 ;D2 400 ...``
  (it writes two of its ``;`` after the count, ``;D2 191; D3 2812``, which is read too);
- EPD with the counts as private opcodes, ``D1 20; D2 400; id "start";`` (the project's
  ``positions/perft.epd``; ``hmvc``/``fmvn`` give the move counters, ``id`` a name).

Every position must be legal by the check a run makes (:func:`epd.illegal_position`:
one king each, the side not to move not in check, no impossible check, ...), so a line
that would not be searched is not counted either. :func:`check_suite` counts with the
harness's move generator or python-chess's (the reference), and every count is compared
with the file's: the check a chess tree's author runs first.

The harness's generator is the compiled chess board (``_board.c``'s perft, over the same
move generator the compiled tree searches with) where it was built, else the Python one
(:func:`movegen.perft`). Both count the last ply in bulk, as engines' perft does: a
position one ply from the end adds the number of its legal moves, without making them.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import chess

from harness.errors import HarnessError
from harness.files import read_text_lines
from harness.games.builds import pure_python
from harness.games.chess import compiled, movegen
from harness.games.chess.epd import SkippedLineWarning, illegal_position

_DEPTH = re.compile(r"^D(\d+)\s+(\d+)$")
_DEPTH_OPCODE = re.compile(r"D(\d+)")

GENERATORS: dict[str, Callable[[chess.Board], Sequence[chess.Move]]] = {
    "harness": movegen.legal_moves,
    "python-chess": lambda board: list(board.legal_moves),
}
"""The move generators a perft can count with: the harness's (the compiled board's perft
where it was built, else :func:`movegen.legal_moves`) and python-chess's
``Board.legal_moves``, the reference the harness's is tested against."""

BULK_NOTE = "the last ply bulk-counted"
"""How every generator counts, said wherever a count or a rate is shown."""


@dataclass(frozen=True)
class PerftPosition:
    """One line of a perft suite."""

    line: int
    """Its line number in the file (1 for the first)."""
    fen: str
    """The position."""
    counts: dict[int, int]
    """The file's count of move sequences by their length (depth)."""
    name: str = ""
    """Its ``id`` (EPD lines that give one), else empty."""

    def where(self, suite: str) -> str:
        """``SUITE:LINE``, with the name in brackets when it has one: how reports name it."""
        return f"{suite}:{self.line}" + (f" ({self.name})" if self.name else "")


@dataclass(frozen=True)
class PerftResult:
    """One position counted to one depth."""

    position: PerftPosition
    """Where the count comes from."""
    depth: int
    """The length of the move sequences counted."""
    counted: int
    """The generator's count."""
    seconds: float = 0.0
    """How long the count took (wall clock)."""

    @property
    def expected(self) -> int | None:
        """The file's count at this depth (``None`` if it gives none)."""
        return self.position.counts.get(self.depth)

    @property
    def agrees(self) -> bool:
        """Whether the count is the file's (true where the file gives none)."""
        return self.expected in (None, self.counted)


class _BadLine(Exception):
    """Why a line is not a perft position (the reason, without the place)."""


def parse_line(text: str, where: str, number: int) -> PerftPosition | None:
    """The position a suite's line gives, ``None`` for a blank or ``#`` line; a
    :class:`HarnessError` naming ``where`` and the line for anything else."""
    try:
        return _parse(text, number)
    except _BadLine as exc:
        raise HarnessError(f"{where}:{number}: {exc}") from None


def _parse(text: str, number: int) -> PerftPosition | None:
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    head = stripped.split(";", 1)[0].split()
    # A FEN's fifth field is a number (or absent); an EPD line's is its first opcode.
    if len(head) > 4 and head[4][0].isalpha():
        board, counts, name = _parse_epd(stripped)
    else:
        board, counts, name = _parse_perft_format(stripped)
    problem = illegal_position(board)
    if problem is not None:
        raise _BadLine(problem)
    if not counts:
        raise _BadLine("no counts (';D1 20 ;D2 400 ...' after the FEN, or EPD operations "
                       "'D1 20; D2 400;')")
    return PerftPosition(number, board.fen(), counts, name)


def _parse_perft_format(text: str) -> tuple[chess.Board, dict[int, int], str]:
    """``FEN ;D1 20 ;D2 400 ...``: the board, the counts by depth, no name."""
    fen, *fields = text.split(";")
    try:
        board = chess.Board(fen.strip())
    except ValueError as error:
        raise _BadLine(f"not a FEN: {error}") from None
    counts: dict[int, int] = {}
    for field in fields:
        if not field.strip():
            continue
        found = _DEPTH.match(field.strip())
        if found is None:
            raise _BadLine(f"{field.strip()!r} is not 'D<depth> <count>'")
        _add_count(counts, int(found[1]), int(found[2]))
    return board, counts, ""


def _parse_epd(text: str) -> tuple[chess.Board, dict[int, int], str]:
    """EPD with ``D<depth> <count>;`` operations: the board, the counts, the ``id``."""
    try:
        board, operations = chess.Board.from_epd(text)
    except ValueError as error:
        raise _BadLine(f"not an EPD position: {' '.join(str(error).split())}") from None
    counts: dict[int, int] = {}
    for opcode, value in operations.items():
        found = _DEPTH_OPCODE.fullmatch(opcode)
        if found is None:
            continue
        if not isinstance(value, int) or value < 0:
            raise _BadLine(f"'{opcode} {value}' is not 'D<depth> <count>'")
        _add_count(counts, int(found[1]), value)
    name = operations.get("id")
    return board, counts, name if isinstance(name, str) else ""


def _add_count(counts: dict[int, int], depth: int, count: int) -> None:
    if depth < 1 or depth in counts:
        raise _BadLine(f"depth {depth} {'repeated' if depth in counts else 'below 1'}")
    counts[depth] = count


def read_suite(path: Path, limit: int | None = None,
               skip: Callable[[int, str], None] | None = None) -> Iterator[PerftPosition]:
    """The positions of the perft suite at ``path``, the first ``limit`` of them (the rest
    of the file is not read). A bad line raises ``FILE:LINE: reason``; with ``skip`` it
    is handed to ``skip(line, reason)`` instead."""
    found = 0
    for number, text in enumerate(read_text_lines(path), 1):
        if limit is not None and found >= limit:
            return
        try:
            position = _parse(text, number)
        except _BadLine as exc:
            if skip is None:
                raise HarnessError(f"{path}:{number}: {exc}") from None
            skip(number, str(exc))
            continue
        if position is not None:
            found += 1
            yield position


def load_suite(path: Path, limit: int | None = None,
               skip_invalid: bool = False) -> tuple[list[PerftPosition], int]:
    """``(positions, lines skipped)``: every position :func:`read_suite` gives, read before
    anything is counted (so a bad line stops the command before minutes of counting, not
    after); a skipped line is a :class:`SkippedLineWarning`. A suite with no position is a
    :class:`HarnessError`, as a run's is."""
    skipped: list[tuple[int, str]] = []

    def skip(number: int, reason: str) -> None:
        skipped.append((number, reason))
        warnings.warn(f"{path}:{number}: {reason} (skipped)", SkippedLineWarning, stacklevel=4)

    positions = list(read_suite(path, limit, skip if skip_invalid else None))
    if positions:
        return positions, len(skipped)
    if not skipped:
        raise HarnessError(f"{path}: no positions (no perft lines: 'FEN ;D1 20 ;D2 400 ...' "
                           "or EPD with 'D1 20; D2 400;')")
    first, reason = skipped[0]
    raise HarnessError(f"{path}: no valid positions ({len(skipped)} lines skipped; the first, "
                       f"line {first}: {reason})")


def compiled_in_use() -> bool:
    """Whether the harness's generator counts with the compiled board in this process."""
    return compiled.compiled_in_use()


def fallback_note() -> str | None:
    """Why the harness's generator counts in Python here (``None``: it does not)."""
    if compiled_in_use():
        return None
    why = ("HARNESS_PURE_PYTHON is set" if pure_python() and compiled.compiled_available() else
           "the compiled chess board was not built (HARNESS_BUILD_PURE=1, or no C compiler at install)")
    return f"{why}: the harness's generator counts in Python, about a hundredth of the compiled speed"


def generator_label(generator: str) -> str:
    """The generator as reports name it: which implementation, and the bulk counting."""
    if generator == "harness":
        generator = f"harness ({'compiled' if compiled_in_use() else 'Python'})"
    return f"{generator}, {BULK_NOTE}"


def count(board: chess.Board, depth: int, generator: str = "harness") -> int:
    """The number of legal move sequences of length ``depth`` from ``board``, with the
    generator named ``generator`` (:data:`GENERATORS`)."""
    generate = GENERATORS.get(generator)
    if generate is None:
        raise HarnessError(f"generator {generator!r}: known are {', '.join(GENERATORS)}")
    if generator == "harness" and compiled_in_use() and not board.chess960:
        return compiled.perft(board, depth)
    return movegen.perft(board, depth, generate)


def timed_count(board: chess.Board, depth: int, generator: str) -> tuple[int, float]:
    """``(count, seconds)`` of :func:`count`."""
    start = time.perf_counter()
    counted = count(board, depth, generator)
    return counted, time.perf_counter() - start


def check_suite(positions: Iterator[PerftPosition] | list[PerftPosition], depth: int,
                generator: str = "harness",
                report: Callable[[PerftPosition, list[PerftResult]], None] | None = None,
                ) -> list[PerftResult]:
    """Count every position to each depth its line gives, up to ``depth``; ``report`` is
    told each position's results as they are made."""
    results: list[PerftResult] = []
    for position in positions:
        board = chess.Board(position.fen)
        made = [PerftResult(position, d, *timed_count(board, d, generator))
                for d in sorted(position.counts) if d <= depth]
        results.extend(made)
        if report is not None:
            report(position, made)
    return results


def fen_board(fen: str) -> chess.Board:
    """The board of ``--fen``: a :class:`HarnessError` for a text that is not a FEN or a
    position a run would refuse (:func:`epd.illegal_position`)."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise HarnessError(f"--fen: not a FEN: {error}") from None
    problem = illegal_position(board)
    if problem is not None:
        raise HarnessError(f"--fen: {problem}")
    return board


def timed_counts(fen: str, depth: int, generator: str = "harness") -> Iterator[tuple[int, int, float]]:
    """``(depth, count, seconds)`` for each depth from 1 to ``depth`` from ``fen`` (checked
    by :func:`fen_board` before the first count)."""
    board = fen_board(fen)
    for d in range(1, depth + 1):
        yield d, *timed_count(board, d, generator)


def rate(nodes: int, seconds: float) -> str:
    """``nodes`` (leaf nodes) a second, in millions, as reports print it."""
    return f"{nodes / seconds / 1e6:.1f} M nodes/s" if seconds > 0 else "- M nodes/s"
