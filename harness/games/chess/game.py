"""Chess as a game: positions from EPD suites (``chess:wac.epd``), searched through
:class:`ChessTree` or its compiled twin (:mod:`harness.games.chess.compiled`; option
``tree``) with the move-ordering options, solved by their ``bm``/``am``; results written
back as EPD.

python-chess and the modules built on it are imported by the methods that use them: the
game registry (and with it ``harness --help``) lists chess without loading them.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from harness.errors import HarnessError
from harness.files import file_sha256
from harness.games.base import Game, Problem, ProblemSet, ProblemStream, Tree
from harness.options import Option, OptionValue

if TYPE_CHECKING:
    import pandas as pd

    from harness.games.chess.epd import EpdPosition
    from harness.games.chess.tree import Ordering

DEFAULT_DEPTH = 3
"""Depth searched on chess positions when none is given."""
BREADTH_PLIES = 2
"""Plies of the full-width tree counted to estimate a chess position's work (about 2 ms).
On the first 20 WAC positions its rank correlation with the time of the core variants at
depths 1-4 is 0.77, and starting the positions in its order instead of the suite's takes
the best possible speed-up on two workers from 1.65 to 1.92 (the true order: 2.00). It
does not see tactics: a depth-2 alpha-beta ranks some heavy positions better, but costs
twenty times as much, in the process that must start the workers."""


INEXACT_DELTA = "delta pruning in quiescence (delta=1) prunes by the window"
"""Why variants need not agree on a set with ``delta=1`` (its ``run.json`` record's
``inexact``, which the answer cross-check reads): a capture delta pruning skips promises a
bound that a search with a wider window may exceed."""


class Chess(Game):
    """Chess positions from EPD suites."""

    name = "chess"
    spec = "FILE.epd | NAME (looked up in the package's suites, $HARNESS_SUITES, downloads)"
    description = ("chess positions through python-chess and a compiled move generator, "
                   "quiescence search at the horizon; bm/am say whether a search solved one")
    source = "python-chess; suites: the project's own and public ones (harness suites)"
    options: ClassVar[Mapping[str, Option]] = {
        "mvv_lva": Option(True, "captures and promotions first, most valuable victim, least "
                          "valuable attacker"),
        "killers": Option(False, "killer moves (two per ply) after the captures"),
        "history": Option(False, "quiet moves by history score"),
        "qsee": Option(False, "quiescence skips captures whose static exchange evaluation is "
                       "negative (promotions always searched; with qchecks, quiet checks too)"),
        "delta": Option(False, "delta pruning in quiescence: a capture is skipped when stand pat + "
                        "its victim + 200 cannot reach alpha (off in the late endgame: phase <= 6)"),
        "qchecks": Option(False, "quiet checks at the first quiescence ply (the horizon leaf); a "
                          "qnode in check just below it searches every evasion, no stand pat"),
        "repetition": Option(False, "draws by repetition and the fifty-move rule: a position "
                             "below the root that repeats one of the path or of the game before "
                             "it (a match's moves; an EPD's hmvc starts the clock), or whose "
                             "half-move clock reached 100, scores 0 (counted in repetition_draws)"),
        "tree": Option("auto", "the chess tree that searches: compiled (_board.c), python (the "
                       "reference, over python-chess), or auto (compiled where it was built and "
                       "HARNESS_PURE_PYTHON is not set); the same nodes either way",
                       ("auto", "compiled", "python")),
    }
    columns: ClassVar[Mapping[str, str]] = {"fen": "the position searched, as FEN"}
    features: ClassVar[frozenset[str]] = frozenset({"quiescence", "null_move", "check_extension",
                                                          "selectivity"})

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        from harness.games.chess.suite_files import find_suite

        if not spec.strip():                    # Path("") is ".", a folder
            raise HarnessError("chess: which suite? a chess set needs an EPD file name, e.g. "
                               "chess:bench.epd (harness suites lists those found)")
        path = find_suite(spec)
        from harness.games.chess.compiled import resolve

        tree = resolve(str(dict(options)["tree"]))     # refused here when it cannot run
        name = self.set_name(path.name, options)
        reader = _EpdProblems(path, name, options, skip_invalid)
        record: dict[str, object] = {"path": str(path), "sha256": file_sha256(path),
                                     "skipped": reader.skipped, "tree": tree}
        if dict(options)["delta"]:
            record["inexact"] = INEXACT_DELTA
        return ProblemSet(name, ProblemStream(reader.problems), record)

    def tree(self, problem: Problem) -> Tree:
        from harness.games.chess.compiled import chess_tree

        return chess_tree(position_of(problem).board(), ordering_of(problem),
                          str(problem.option("tree")), bool(problem.option("repetition")))

    def work(self, problem: Problem) -> float:
        """The number of positions :data:`BREADTH_PLIES` plies from the position."""
        from harness.games.chess.movegen import perft

        return float(perft(position_of(problem).board(), BREADTH_PLIES))

    def columns_for(self, problem: Problem, best_move: str) -> dict[str, object]:
        return {"fen": position_of(problem).fen}

    def judge(self, problem: Problem, best_move: str, score: int | None, bound: str) -> bool | None:
        """Whether ``best_move`` (UCI) solves a position with ``bm``/``am``."""
        import chess

        from harness.games.chess.epd import solved

        move = chess.Move.from_uci(best_move) if best_move else chess.Move.null()
        return solved(position_of(problem), move)


def ordering_of(problem: Problem) -> Ordering:
    """The chess tree's switches a problem's options set: move ordering (``mvv_lva``,
    ``killers``, ``history``) and the quiescence search's (``qsee``, ``delta``,
    ``qchecks``: :mod:`harness.games.chess.quiescence`)."""
    from harness.games.chess.quiescence import QuiescenceRules
    from harness.games.chess.tree import Ordering

    rules = QuiescenceRules(bool(problem.option("qsee")), bool(problem.option("delta")),
                            bool(problem.option("qchecks")))
    return Ordering(bool(problem.option("mvv_lva")), bool(problem.option("killers")),
                    bool(problem.option("history")), rules)


def position_of(problem: Problem) -> EpdPosition:
    """The EPD position of a chess problem: its line, which the problem carries (a worker
    never reads the suite), parsed once per process."""
    return _position(problem.position, problem.index, problem.source)


@lru_cache(maxsize=1024)
def _position(line: str, number: int, path: str) -> EpdPosition:
    from harness.games.chess.epd import position_from_line

    return position_from_line(line, number, path)


class _EpdProblems:
    """The problems of an EPD file, read as they are reached (:func:`read_positions`): each
    carries its line. A skipped line (``skip_invalid``) is told once, however often the
    file is read, and kept in :attr:`skipped` (``run.json``); none is told when the file
    has no valid position at all: that one error says it."""

    def __init__(self, path: Path, name: str, options: tuple[tuple[str, OptionValue], ...],
                 skip_invalid: bool) -> None:
        self.path, self.name, self.options, self.skip_invalid = path, name, options, skip_invalid
        self.skipped: list[list[object]] = []
        """``[line, reason]`` of each line skipped so far, in file order."""
        self.told: set[int] = set()

    def problems(self) -> Iterator[Problem]:
        from harness.games.chess.epd import SkippedLineWarning, read_lines

        held: list[tuple[int, str]] | None = []     # skips not told until a position is found
        passed: list[tuple[int, str]] = []

        def skip(number: int, reason: str) -> None:
            passed.append((number, reason))
            if number in self.told:
                return
            self.told.add(number)
            self.skipped.append([number, reason])
            if held is None:
                warnings.warn(f"{self.path}:{number}: {reason} (skipped)", SkippedLineWarning,
                              stacklevel=2)
            else:
                held.append((number, reason))

        count = 0
        for line, position in read_lines(self.path, skip if self.skip_invalid else None):
            for number, reason in held or ():
                warnings.warn(f"{self.path}:{number}: {reason} (skipped)", SkippedLineWarning,
                              stacklevel=2)
            held = None
            yield Problem(Chess.name, self.name, position.id, str(self.path), position.line,
                          self.options, DEFAULT_DEPTH, position=line)
            count += 1
        if count:
            return
        if not passed:
            raise HarnessError(f"{self.path}: no positions (no EPD lines)")
        first, reason = passed[0]
        raise HarnessError(f"{self.path}: no valid positions ({len(passed)} lines skipped as "
                           f"malformed; the first, line {first}: {reason})")


EPD_COUNTERS = ("leaves", "qnodes", "zw_searches", "researches", "research_nodes",
                "fail_highs", "fail_highs_first", "cutoffs", "passes", "tt_hits")
"""Counters written to EPD as private opcodes (``H`` + name; ``acn`` holds ``nodes``)."""


def export_epd(results: pd.DataFrame, problems: Iterable[Problem], path: str | Path) -> int:
    """Write one EPD line per chess row: the position with its ``id``, ``bm`` and ``am``
    kept, the standard ``acd`` (depth), ``acn`` (nodes), ``ce`` (score for the side to
    move, centipawns) and ``pv``, and private opcodes (uppercase first letter, as the
    standard requires) ``Hvariant`` and the counters of :data:`EPD_COUNTERS`. Returns the
    number of lines."""
    import chess

    from harness.games.chess.epd import write_epd

    by_id = {(p.suite, p.problem_id): p for p in problems if p.game == Chess.name}
    lines = []
    for row in results.to_dict("records"):
        problem = by_id.get((row["suite"], row["problem_id"]))
        if problem is None:
            continue
        position = position_of(problem)
        ops: dict[str, Any] = {"id": position.id}
        for opcode in ("bm", "am"):
            if opcode in position.ops:
                ops[opcode] = position.ops[opcode]
        ops.update(acd=int(row["depth"]), acn=int(row["nodes"]), ce=int(row["score"]),
                   pv=[chess.Move.from_uci(m) for m in str(row["pv"]).split()],
                   Hvariant=str(row["variant"]))
        for name in EPD_COUNTERS:
            ops["H" + name] = int(row[name])
        lines.append((position.board(), ops))
    if not lines:
        raise HarnessError(f"{path}: no chess rows to write as EPD")
    write_epd(path, lines)
    return len(lines)
