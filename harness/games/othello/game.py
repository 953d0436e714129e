"""The game ``othello``: positions one a line (``othello:FILE``, a suite of the package's
``positions`` folder by name, ``othello:start``), judged against the values a file gives."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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
from harness.games.othello.compiled import othello_tree
from harness.games.othello.tree import (
    MAX_VALUE,
    Board,
    OthelloTree,
    State,
    legal_moves,
    plies_to_end,
    square_name,
)
from harness.options import Option, OptionValue

POSITIONS = Path(__file__).resolve().parent / "positions"
"""The suites the project makes itself (package data): ``othello:NAME`` finds them."""
CENTRE = (27, 28, 35, 36)
"""D4, E4, D5, E5: occupied from the start, so in every position of a game."""
START_TEXT = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
"""The starting position as a line: O on D4 and E5, X on E4 and D5, X to move."""
SOLVE_EMPTIES = 16
"""Positions with at most this many empty squares are solved by default: searched twice
as many plies deep, to the end of every game (seconds with the compiled tree)."""
MIDGAME_DEPTH = 8
"""The depth searched by default before that (Plaat's Othello experiments went 8-9 deep)."""


def default_depth(board: Board) -> int:
    """To the end of the game (an exact solve) with at most :data:`SOLVE_EMPTIES` empty
    squares, else :data:`MIDGAME_DEPTH`."""
    empty = 64 - board.discs()
    return plies_to_end(board.mover, board.opponent) if empty <= SOLVE_EMPTIES else MIDGAME_DEPTH


class Othello(Game):
    """Othello (8x8, standard rules) from positions one a line."""

    name = "othello"
    spec = ("FILE (a position a line: 64 squares A1..H8 row by row, X, O or -, a space, the "
            "side to move, optionally its value) | NAME (a suite the project ships: "
            "phases.txt) | start")
    description = ("Othello on bitboards, a pass a move; the end of the game exact (the disc "
                   "difference for the player to move, empty squares to the winner), else "
                   "square weights and mobility; a depth of twice the empty squares reaches "
                   f"only ends: an exact solve, the default up to {SOLVE_EMPTIES} empties "
                   f"(else depth {MIDGAME_DEPTH})")
    source = ("standard rules (World Othello Federation); moves and results checked against "
              "OpenSpiel's othello")
    columns: ClassVar[Mapping[str, str]] = {"known_value": "the value the file gives (empty: none)"}
    features: ClassVar[frozenset[str]] = frozenset({"selectivity"})
    options: ClassVar[Mapping[str, Option]] = {
        "plies": Option(0, "with start: one problem per distinct position this many plies "
                        "after it (a pass is a ply), named by its moves: the openings of a "
                        "match", minimum=0),
        "killers": Option(False, "killer moves (two per ply) after the corners"),
        "history": Option(False, "non-corner moves by history score (depth squared per "
                          "fail-high), ties in the static order"),
    }

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        plies = int(dict(options)["plies"])
        if spec == "start":
            name = self.set_name(spec, options)
            start = Board.start()
            lines = lines_after((start.mover, start.opponent, start.x_to_move), plies, moves_at,
                                after, lambda _, move: square_name(move))
            return ProblemSet(name, [problem_of(position_line(state), name, " ".join(line) or "start",
                                                "start", index, options)
                                     for index, (line, state) in enumerate(lines)])
        if plies:
            raise HarnessError(f"othello:{spec}: plies={plies} goes with start only (a file's "
                               f"positions are the openings themselves)")
        path = Path(spec)
        if not path.is_file() and spec and (POSITIONS / spec).is_file():
            path = POSITIONS / spec
        if not path.is_file():
            shipped = ", ".join(sorted(p.name for p in POSITIONS.glob("*.txt")))
            raise HarnessError(f"othello:{spec}: no such file, and not start or a suite the "
                               f"project ships ({shipped})")
        name = self.set_name(path.name, options)
        return ProblemSet(name, ProblemStream(lambda: _file_problems(path, name, options)),
                          {"path": str(path)})

    def tree(self, problem: Problem) -> Tree:
        board, _ = read_position(problem.position)
        return othello_tree(board, killers=bool(problem.option("killers")),
                            history=bool(problem.option("history")))

    def work(self, problem: Problem) -> float:
        """Two to the default depth: a rough rank (a solve before a middle-game search)."""
        return float(2 ** problem.default_depth)

    def columns_for(self, problem: Problem, best_move: str) -> dict[str, object]:
        known = read_position(problem.position)[1]
        return {"known_value": "" if known is None else known}

    def judge(self, problem: Problem, best_move: str, score: int | None, bound: str) -> bool | None:
        """Whether the search's answer agrees with the file's value: the value itself, or
        a bound on the right side of it (meaningful for a search to the end of the game:
        :func:`default_depth`)."""
        return agrees_with_known(read_position(problem.position)[1], score, bound)


def moves_at(state: State) -> Sequence[int]:
    """The moves of ``state`` in the tree's order (a pass alone where the player to move has
    no square and the other has one; none at the end of the game)."""
    return OthelloTree(Board(*state)).moves()


def after(state: State, move: int) -> State:
    """The position after ``move``; a ``ValueError`` if it is not legal at ``state``."""
    tree = OthelloTree(Board(*state))
    tree.push(move)
    return (tree.board.mover, tree.board.opponent, tree.board.x_to_move)


def position_line(state: State) -> str:
    """The line of a position: 64 squares A1..H8 (X, O, -) and the side to move."""
    mover, opponent, x_to_move = state
    x, o = (mover, opponent) if x_to_move else (opponent, mover)
    squares = "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "-" for i in range(64))
    return f"{squares} {'X' if x_to_move else 'O'}"


def read_position(line: str, where: str = "") -> tuple[Board, int | None]:
    """The position of a line (64 squares, the side to move, optionally a value) and its
    value (``None`` when it gives none); a bad line is a :class:`HarnessError` starting
    with ``where``."""
    parts = line.split()
    if len(parts) not in (2, 3):
        raise HarnessError(f"{where}expected 64 squares, the side to move and optionally a "
                           f"value, found {len(parts)} field{'s' * (len(parts) != 1)}")
    squares, side = parts[0], parts[1]
    if len(squares) != 64:
        raise HarnessError(f"{where}{len(squares)} squares, not 64 (A1..H8 row by row)")
    bad = next((c for c in squares if c not in "XO-"), None)
    if bad is not None:
        raise HarnessError(f"{where}{bad!r} is not a square (X, O or -)")
    if side not in ("X", "O"):
        raise HarnessError(f"{where}side to move {side!r} is not X or O")
    known: int | None = None
    if len(parts) == 3:
        try:
            known = int(parts[2])
        except ValueError:
            raise HarnessError(f"{where}value {parts[2]!r} is not an integer") from None
        if not -MAX_VALUE <= known <= MAX_VALUE:
            raise HarnessError(f"{where}value {known} is not a disc difference (-64 to 64)")
    x = sum(1 << i for i, c in enumerate(squares) if c == "X")
    o = sum(1 << i for i, c in enumerate(squares) if c == "O")
    empty_centre = [i for i in CENTRE if squares[i] == "-"]
    if empty_centre:
        raise HarnessError(f"{where}{'abcdefgh'[empty_centre[0] % 8]}{empty_centre[0] // 8 + 1} "
                           f"is empty: the four centre squares are filled from the start")
    board = Board(x, o, True) if side == "X" else Board(o, x, False)
    if not legal_moves(board.mover, board.opponent) and not legal_moves(board.opponent, board.mover):
        raise HarnessError(f"{where}neither side can move: the game is over, nothing to search")
    return board, known


def problem_of(text: str, suite: str, problem_id: str, source: str, index: int,
               options: tuple[tuple[str, OptionValue], ...], where: str = "") -> Problem:
    """The problem of a position line (checked: a bad one is ``where`` and the reason)."""
    board, _ = read_position(text, where)
    return Problem(Othello.name, suite, problem_id, source, index, options,
                   default_depth(board), position=" ".join(text.split()))


def _file_problems(path: Path, name: str,
                   options: tuple[tuple[str, OptionValue], ...]) -> Iterator[Problem]:
    """The positions of a file, one a line, made as they are reached; a bad line is
    ``FILE:LINE: reason`` when it is read. A problem's id is its line number."""
    seen: dict[str, int] = {}
    found = 0
    for number, line in enumerate(read_text_lines(path), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        at = f"{path}:{number}: "
        problem = problem_of(text, name, str(number), str(path), found, options, at)
        position = " ".join(problem.position.split()[:2])
        if position in seen:
            raise HarnessError(f"{at}the position of line {seen[position]} again")
        seen[position] = number
        found += 1
        yield problem
    if not found:
        raise HarnessError(f"{path}: no positions")
