"""Perft suites: counts of move sequences by depth, to check a move generator against.

A perft suite has one position a line: a FEN, then the number of legal move sequences of
each length from it (``;D1 20 ;D2 400 ;D3 8902 ...``). The public one
(``perftsuite.epd``) is not EPD; the harness reads it here rather than as positions to
search. :func:`check_suite` counts with the harness's move generator (the compiled one
where it was built) or python-chess's own (the reference), and every count is compared
with the file's: the check a chess tree's author runs first.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import chess

from harness.errors import HarnessError
from harness.files import read_text_lines
from harness.games.chess import movegen

_DEPTH = re.compile(r"^D(\d+)\s+(\d+)$")

GENERATORS: dict[str, Callable[[chess.Board], Sequence[chess.Move]]] = {
    "harness": movegen.legal_moves,
    "python-chess": lambda board: list(board.legal_moves),
}
"""The move generators a perft can count with: the harness's (compiled where built) and
python-chess's ``Board.legal_moves``, the reference the harness's is tested against."""


@dataclass(frozen=True)
class PerftPosition:
    """One line of a perft suite."""

    line: int
    """Its line number in the file (1 for the first)."""
    fen: str
    """The position."""
    counts: dict[int, int]
    """The file's count of move sequences by their length (depth)."""


@dataclass(frozen=True)
class PerftResult:
    """One position counted to one depth."""

    position: PerftPosition
    """Where the count comes from."""
    depth: int
    """The length of the move sequences counted."""
    counted: int
    """The generator's count."""

    @property
    def expected(self) -> int | None:
        """The file's count at this depth (``None`` if it gives none)."""
        return self.position.counts.get(self.depth)

    @property
    def agrees(self) -> bool:
        """Whether the count is the file's (true where the file gives none)."""
        return self.expected in (None, self.counted)


def parse_line(text: str, where: str, number: int) -> PerftPosition | None:
    """The position a suite's line gives, ``None`` for a blank or ``#`` line; a
    :class:`HarnessError` naming ``where`` and the line for anything else."""
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    fen, *fields = stripped.split(";")
    try:
        chess.Board(fen.strip())
    except ValueError as error:
        raise HarnessError(f"{where}:{number}: not a FEN: {error}") from None
    counts: dict[int, int] = {}
    for field in fields:
        if not field.strip():
            continue
        found = _DEPTH.match(field.strip())
        if found is None:
            raise HarnessError(f"{where}:{number}: {field.strip()!r} is not 'D<depth> <count>'")
        depth, count = int(found[1]), int(found[2])
        if depth < 1 or depth in counts:
            why = 'repeated' if depth in counts else 'below 1'
            raise HarnessError(f"{where}:{number}: depth {depth} {why}")
        counts[depth] = count
    if not counts:
        raise HarnessError(f"{where}:{number}: no counts (';D1 20 ;D2 400 ...' after the FEN)")
    return PerftPosition(number, fen.strip(), counts)


def read_suite(path: Path, limit: int | None = None) -> Iterator[PerftPosition]:
    """The positions of the perft suite at ``path``, the first ``limit`` of them (the rest
    of the file is not read)."""
    found = 0
    for number, text in enumerate(read_text_lines(path), 1):
        if limit is not None and found >= limit:
            return
        position = parse_line(text, str(path), number)
        if position is not None:
            found += 1
            yield position


def count(board: chess.Board, depth: int, generator: str = "harness") -> int:
    """The number of legal move sequences of length ``depth`` from ``board``, with the
    generator named ``generator`` (:data:`GENERATORS`)."""
    generate = GENERATORS.get(generator)
    if generate is None:
        raise HarnessError(f"generator {generator!r}: known are {', '.join(GENERATORS)}")
    return movegen.perft(board, depth, generate)


def check_suite(positions: Iterator[PerftPosition] | list[PerftPosition], depth: int,
                generator: str = "harness",
                report: Callable[[PerftPosition, list[PerftResult]], None] | None = None,
                ) -> list[PerftResult]:
    """Count every position to each depth its line gives, up to ``depth``; ``report`` is
    told each position's results as they are made."""
    results: list[PerftResult] = []
    for position in positions:
        board = chess.Board(position.fen)
        made = [PerftResult(position, d, count(board, d, generator))
                for d in sorted(position.counts) if d <= depth]
        results.extend(made)
        if report is not None:
            report(position, made)
    return results


def timed_counts(fen: str, depth: int, generator: str = "harness") -> Iterator[tuple[int, int, float]]:
    """``(depth, count, seconds)`` for each depth from 1 to ``depth`` from ``fen``."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise HarnessError(f"--fen: not a FEN: {error}") from None
    for d in range(1, depth + 1):
        start = time.perf_counter()
        counted = count(board, d, generator)
        yield d, counted, time.perf_counter() - start
