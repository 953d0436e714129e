"""The game ``connect4``: Pons's positions (``connect4:Test_L3_R1``, ``connect4:4453``),
solved exactly by default, judged against the scores a file gives."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import ClassVar

from harness.errors import HarnessError
from harness.files import read_text_lines
from harness.games.base import MAX_DEPTH, Game, Problem, ProblemSet, ProblemStream, Tree, agrees_with_known
from harness.games.connect4.compiled import connect4_tree
from harness.games.connect4.tree import ORDERS, board_from
from harness.options import Option, OptionValue


class Connect4(Game):
    """Connect Four on a W x H board (7 x 6 by default), from positions in Pons's notation."""

    name = "connect4"
    spec = "FILE (a position a line: columns played, 1 = leftmost; optionally a score) | MOVES"
    description = ("Connect Four; Pons's scores for the player to move (a win is 22 minus the "
                   "winner's stones at the end, on 7x6); the default depth solves the position")
    source = ("Pascal Pons, Solving Connect Four (blog.gamesolver.org): notation, scores, test "
              "sets (../shared/connect4)")
    options: ClassVar[Mapping[str, Option]] = {
        "width": Option(7, "columns", minimum=4),
        "height": Option(6, "rows", minimum=4),
        # The defaults are Pons's final tree: the same values as his earlier steps (order=
        # centre,anticipate=0 for those), and far fewer nodes: without anticipation a
        # middle-game set takes hours where it takes seconds with it.
        "order": Option("threats", "column order: threats (most squares that would then win "
                        "first; ties from the centre: Pons's final order), centre (4, 3, 5, 2, "
                        "6, 1, 7, as Pons's early steps), or left (1 to 7)", ORDERS),
        "anticipate": Option(True, "only moves that do not let the opponent win at once "
                             "(Pons): a node without one is lost; the same values, a smaller "
                             "tree (0: every move, as Pons's early steps)"),
    }
    columns: ClassVar[Mapping[str, str]] = {"known_score": "the score the file gives (empty: none)"}
    features: ClassVar[frozenset[str]] = frozenset({"value_bounds"})

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        values = dict(options)
        width, height = int(values["width"]), int(values["height"])
        if width * height > 2 * MAX_DEPTH or (width * height) // 2 >= 1 << 20:
            raise HarnessError(f"connect4: a {width}x{height} board is larger than the harness "
                               f"searches")
        path = Path(spec)
        if path.is_file():
            name = self.set_name(path.name, options)
            return ProblemSet(name, ProblemStream(lambda: _file_problems(path, name, options)),
                              {"path": str(path)})
        if not (spec.isdigit() or spec == "start"):
            raise HarnessError(f"connect4:{spec}: no such file, and not a position (columns "
                               f"1-{width}, or start)")
        moves = "" if spec == "start" else spec
        board = board_from(moves, width, height, f"connect4:{spec}: ")
        name = self.set_name(spec, options)
        return ProblemSet(name, [Problem(self.name, name, moves or "start", "", 0, options,
                                         width * height - board.moves, position=moves)])

    def tree(self, problem: Problem) -> Tree:
        values = dict(problem.options)
        moves = problem.position.split()[0] if problem.position.split() else ""
        board = board_from(moves, int(values["width"]), int(values["height"]))
        # The compiled tree where it was built and the board fits 64 bits (same nodes).
        return connect4_tree(board, str(values["order"]), bool(values["anticipate"]))

    def work(self, problem: Problem) -> float:
        """Empty squares: a rough rank (earlier positions need far more work)."""
        return float(2 ** min(problem.default_depth, 60))

    def columns_for(self, problem: Problem, best_move: str) -> dict[str, object]:
        known = _known(problem)
        return {"known_score": "" if known is None else known}

    def judge(self, problem: Problem, best_move: str, score: int | None, bound: str) -> bool | None:
        """Whether the search's answer agrees with the file's score: the score itself, or a
        bound on the right side of it (a weak solve, window (-1, 1): its sign)."""
        return agrees_with_known(_known(problem), score, bound)


def _known(problem: Problem) -> int | None:
    parts = problem.position.split()
    return int(parts[1]) if len(parts) > 1 else None


def _file_problems(path: Path, name: str,
                   options: tuple[tuple[str, OptionValue], ...]) -> Iterator[Problem]:
    """The positions of a file, one a line, made as they are reached (a run that stops
    after two reads no further); a bad line is ``FILE:LINE: reason`` when it is read."""
    values = dict(options)
    width, height = int(values["width"]), int(values["height"])
    seen: dict[str, int] = {}
    for index, (number, moves, score) in enumerate(_lines(path)):
        at = f"{path}:{number}: "
        board = board_from(moves, width, height, at)
        if moves in seen:
            raise HarnessError(f"{at}the position of line {seen[moves]} again")
        seen[moves] = number
        known = "" if score is None else str(score)
        yield Problem(Connect4.name, name, moves or "start", str(path), index, options,
                      width * height - board.moves, position=f"{moves} {known}".strip())


def _lines(path: Path) -> Iterator[tuple[int, str, int | None]]:
    """Each position line's number, moves and score (``None`` when it gives none), read a
    line at a time; bad lines are errors."""
    found = 0
    for number, line in enumerate(read_text_lines(path), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) > 2:
            raise HarnessError(f"{path}:{number}: expected the moves and a score, found "
                               f"{len(parts)} fields")
        score: int | None = None
        if len(parts) == 2:
            try:
                score = int(parts[1])
            except ValueError:
                raise HarnessError(f"{path}:{number}: score {parts[1]!r} is not an integer") from None
        moves = parts[0]
        if not moves.isdigit():
            bad = next(c for c in moves if not c.isdigit())
            raise HarnessError(f"{path}:{number}: {bad!r} is not a column")
        found += 1
        yield number, moves, score
    if not found:
        raise HarnessError(f"{path}: no positions")
