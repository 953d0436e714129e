"""The game ``checkers``: English draughts from PDN FEN positions (``checkers:start``, a
file of positions, or a suite of the package's own, ``checkers:suite.txt``).

A position file has one position a line: a PDN FEN (``B:W21,22,K30:B1-12``: the side to
move, each side's squares, K before a king, ranges allowed), then optionally a known
value for the side to move (an integer the search's value is judged against). Blank lines
and lines starting with ``#`` are skipped; a bad line is ``FILE:LINE: reason``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from harness.errors import HarnessError
from harness.files import read_text_lines
from harness.games.base import (
    Game,
    Problem,
    ProblemSet,
    ProblemStream,
    Tree,
    agrees_with_known,
    lines_after,
)
from harness.games.checkers.board import START_FEN, Position, fen, move_name, parse_fen
from harness.games.checkers.compiled import checkers_tree
from harness.options import Option, OptionValue

DEFAULT_DEPTH = 8
"""The depth searched when none is given (a few thousand nodes with the compiled tree)."""
POSITIONS = Path(__file__).parent / "positions"
"""The package's own suites."""
TREES = ("auto", "compiled", "python")


class Checkers(Game):
    """English draughts (American checkers) on the 32 dark squares."""

    name = "checkers"
    spec = "FILE (a PDN FEN a line, optionally a known value) | NAME (the package's: suite.txt) | start"
    description = ("English draughts (American checkers): captures compulsory, a multi-jump is "
                   "one move, a side without a move loses, a draw after 40 plies without a "
                   "capture; evaluation: men 100, kings 130, back row and advancement")
    source = "built in (bitboards, compiled where a C compiler was found); PDN FEN positions"
    options: ClassVar[Mapping[str, Option]] = {
        "tree": Option("auto", "the checkers tree that searches: compiled (_board.c), python (the "
                       "reference), or auto (compiled where it was built and HARNESS_PURE_PYTHON "
                       "is not set); the same nodes either way", TREES),
        "plies": Option(0, "with start: one problem per distinct position this many plies "
                        "after it, named by its moves: the openings of a match", minimum=0),
        "killers": Option(False, "killer moves (two per ply) first among the steps (a node "
                          "with a capture has captures only: never reordered)"),
        "history": Option(False, "steps by history score (depth squared per fail-high), ties "
                          "in the static order"),
    }
    columns: ClassVar[Mapping[str, str]] = {"fen": "the position (PDN FEN)",
                                            "known_value": "the value the file gives (empty: none)"}
    features: ClassVar[frozenset[str]] = frozenset({"selectivity"})

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        plies = int(dict(options)["plies"])
        if spec == "start":
            name = self.set_name(spec, options)
            lines = lines_after(parse_fen(START_FEN), plies, Position.legal_moves, _after,
                                lambda _, move: move_name(move))
            return ProblemSet(name, [Problem(self.name, name, " ".join(line) or "start", "start",
                                             index, options, DEFAULT_DEPTH, position=fen(position))
                                     for index, (line, position) in enumerate(lines)])
        if plies:
            raise HarnessError(f"checkers:{spec}: plies={plies} goes with start only (a file's "
                               f"positions are the openings themselves)")
        path = Path(spec)
        if not path.is_file() and (POSITIONS / spec).is_file() and "/" not in spec:
            path = POSITIONS / spec
        if not path.is_file():
            known = ", ".join(sorted(p.name for p in POSITIONS.glob("*.txt")))
            raise HarnessError(f"checkers:{spec}: no such file, and not start or one of the "
                               f"package's suites ({known})")
        name = self.set_name(path.name, options)
        return ProblemSet(name, ProblemStream(lambda: _file_problems(path, name, options)),
                          {"path": str(path)})

    def tree(self, problem: Problem) -> Tree:
        choice = str(problem.option("tree"))
        return checkers_tree(parse_fen(problem.position.split()[0]),
                             None if choice == "auto" else choice == "compiled",
                             bool(problem.option("killers")), bool(problem.option("history")))

    def columns_for(self, problem: Problem, best_move: str) -> dict[str, object]:
        known = _known(problem)
        return {"fen": problem.position.split()[0], "known_value": "" if known is None else known}

    def judge(self, problem: Problem, best_move: str, score: int | None, bound: str) -> bool | None:
        """Whether the search's value agrees with the file's: equal, or a bound on the
        right side of it."""
        return agrees_with_known(_known(problem), score, bound)


def _after(position: Position, move: int) -> Position:
    """The position after ``move``, its draw-rule count back to 0 as a FEN's (the opening's
    count starts there, so positions that differ only in the count are one)."""
    return replace(position.play(move), quiet=0)


def _known(problem: Problem) -> int | None:
    parts = problem.position.split()
    return int(parts[1]) if len(parts) > 1 else None


def read_position(line: str, where: str) -> tuple[Position, int | None]:
    """A position line: the FEN and the known value (``None`` when it gives none); a bad
    one, or a position where the side to move has no move, is an error starting with
    ``where``."""
    parts = line.split()
    if len(parts) > 2:
        raise HarnessError(f"{where}expected a FEN and a value, found {len(parts)} fields")
    position = parse_fen(parts[0], where)
    value: int | None = None
    if len(parts) == 2:
        try:
            value = int(parts[1])
        except ValueError:
            raise HarnessError(f"{where}value {parts[1]!r} is not an integer") from None
    if not position.has_move():
        raise HarnessError(f"{where}the side to move has no move: the game is over there")
    return position, value


def _file_problems(path: Path, name: str,
                   options: tuple[tuple[str, OptionValue], ...]) -> Iterator[Problem]:
    """The positions of a file, one a line, made as they are reached; a bad line is
    ``FILE:LINE: reason`` when it is read. A problem's id is its position's number (1 the
    first)."""
    seen: dict[str, int] = {}
    index = 0
    for number, line in enumerate(read_text_lines(path), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        at = f"{path}:{number}: "
        position, value = read_position(text, at)
        canonical = fen(position)
        if canonical in seen:
            raise HarnessError(f"{at}the position of line {seen[canonical]} again")
        seen[canonical] = number
        known = "" if value is None else f" {value}"
        yield Problem(Checkers.name, name, str(index + 1), str(path), index, options,
                      DEFAULT_DEPTH, position=canonical + known)
        index += 1
    if not index:
        raise HarnessError(f"{path}: no positions")
