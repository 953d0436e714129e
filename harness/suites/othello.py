"""The project's own Othello suite: positions from seeded random games at set disc counts.

    python -m harness.suites.othello [--seed N] [--count N] [--phases 20,30,40,50]
        [--solve-empties N] [--out FILE]

Each position is the first of a game of uniformly random legal moves (a fresh game for
each, from one seeded generator) with the phase's number of discs, or one more (chosen
at random: either side to move), and a square to play
(after a pass there: the position after it; a game that ends first is played again). Positions with at most
``--solve-empties`` empty squares carry their exact value, found by ``mtdf`` with a table
searching to the end of the game. The file's header records the command that makes it
byte for byte.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from harness.files import write_whole
from harness.games.othello.compiled import othello_tree
from harness.games.othello.tree import PASS, Board, OthelloTree, plies_to_end
from harness.search import Switches, make_spec, run_search

FIRST_HOME = "harness.games.othello.generate"
"""The module's name in the headers of the files it writes: where it was when the shipped
files were made. They keep their bytes (the sealed rules quote their sha256s), and
``python -m harness.games.othello.generate`` still runs this module (:mod:`harness.moved`)."""
PHASES = (20, 30, 40, 50)
"""Discs on the board: early, middle, late middle game and endgame."""
SOLVE_TABLE = 1 << 20
"""The table of the solving searches."""


def position_text(board: Board) -> str:
    """A position's line: 64 squares A1..H8 and the side to move."""
    x, o = (board.mover, board.opponent) if board.x_to_move else (board.opponent, board.mover)
    squares = "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "-" for i in range(64))
    return f"{squares} {'X' if board.x_to_move else 'O'}"


def random_position(rng: random.Random, discs: int) -> Board:
    """The position of a random game when it first has ``discs`` discs and the player to
    move has a square to play; games that do not get there are played again."""
    while True:
        tree = OthelloTree(Board.start())
        while True:
            b = tree.board
            moves = tree.moves()
            if b.discs() == discs and moves and moves[0] != PASS:
                return Board(b.mover, b.opponent, b.x_to_move)
            if not moves or b.discs() > discs:
                break
            tree.push(rng.choice(sorted(moves)))


def solve(board: Board) -> int:
    """The exact value of ``board`` for the player to move (a search to the end)."""
    result = run_search(othello_tree(board), make_spec("mtdf"), plies_to_end(board.mover, board.opponent),
                        Switches(tt_size=SOLVE_TABLE, iterative_deepening=False))
    assert result.score is not None and result.bound == "exact"
    return result.score


def suite_lines(seed: int, count: int, phases: Sequence[int], solve_empties: int) -> list[str]:
    """The suite's position lines: ``count`` of each phase, in order."""
    rng = random.Random(seed)
    lines = []
    for discs in phases:
        for _ in range(count):
            board = random_position(rng, discs + rng.randrange(2))
            text = position_text(board)
            if 64 - board.discs() <= solve_empties:
                text += f" {solve(board)}"
            lines.append(text)
    return lines


def suite_text(seed: int, count: int, phases: Sequence[int], solve_empties: int, out: str) -> str:
    """The whole file, its header first."""
    header = [
        f"# Othello positions: {count} from each of {len(phases)} phases "
        f"({', '.join(map(str, phases))} discs, or one more), seed {seed}; written by this project "
        f"({FIRST_HOME}).",
        f"# Regenerate it byte for byte with: python -m {FIRST_HOME} "
        f"--seed {seed} --count {count} --phases {','.join(map(str, phases))} "
        f"--solve-empties {solve_empties} --out {out}",
        "# A line: 64 squares A1..H8 row by row (X, O, -), the side to move, and the exact "
        f"value for the player to move where at most {solve_empties} squares are empty.",
    ]
    return "\n".join([*header, *suite_lines(seed, count, phases, solve_empties)]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.suites.othello",
                                     description="Write the project's Othello suite.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=10, help="positions per phase")
    parser.add_argument("--phases", default=",".join(map(str, PHASES)),
                        help="discs on the board, comma-separated (5 to 63)")
    parser.add_argument("--solve-empties", type=int, default=14,
                        help="give the exact value of positions with at most this many empties")
    parser.add_argument("--out", default="-", help="the file to write (-: standard output)")
    args = parser.parse_args(argv)
    try:
        phases = [int(p) for p in args.phases.split(",")]
    except ValueError:
        parser.error(f"--phases {args.phases!r}: not comma-separated integers")
    if not all(5 <= p <= 63 for p in phases) or args.count < 1:
        parser.error("--phases: each from 5 to 63 discs; --count at least 1")
    text = suite_text(args.seed, args.count, phases, args.solve_empties, args.out)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        write_whole(Path(args.out), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
