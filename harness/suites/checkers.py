"""The project's checkers suite: seeded games, positions taken in three phases.

Each game from the start plays, for both sides, the best move of a 2-ply alpha-beta
search on the evaluation (:mod:`harness.games.checkers.evaluation`), except that with
probability :data:`RANDOM_MOVE` a random legal move is played instead (so that games
differ). A game gives one position, in the phase its number asks for (game ``i``:
``PHASES[i % 3]``):

- ``opening``: after 6 to 12 plies;
- ``middle``: after 20 to 36 plies, with at least 14 pieces on the board;
- ``endgame``: the first position with at most 9 pieces, at least one of them a king.

A position is kept when the side to move has at least two moves, the material
(a king counted as a man) differs by at most one piece, and no earlier position is the
same; a game that reaches no such position is dropped. Run it as a module (``python -m
harness.suites.checkers --count 24 --seed 1 --out FILE``): the file's header gives
the command that remakes it byte for byte.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from harness.games.checkers.board import START_FEN, Position, fen, move_name, parse_fen
from harness.games.checkers.tree import CheckersTree
from harness.search.registry import make_spec
from harness.search.run import run_search

FIRST_HOME = "harness.games.checkers.suite"
"""The module's name in the headers of the files it writes: where it was when the shipped
files were made. They keep their bytes (the sealed rules quote their sha256s), and
``python -m harness.games.checkers.suite`` still runs this module (:mod:`harness.moved`)."""
PHASES = ("opening", "middle", "endgame")
RANDOM_MOVE = 0.3
"""The chance that a ply is a random legal move, not the search's."""
MAX_PLIES = 200
"""A game longer than this gives nothing."""


def _wanted(position: Position, ply: int, phase: str, target: int) -> bool:
    pieces = (position.black | position.white).bit_count()
    if phase == "opening":
        return ply == target
    if phase == "middle":
        return ply == target and pieces >= 14
    return pieces <= 9 and position.kings != 0


def _acceptable(position: Position) -> bool:
    balance = position.black.bit_count() - position.white.bit_count()
    return len(position.legal_moves()) >= 2 and abs(balance) <= 1


def _game_position(rng: random.Random, phase: str) -> Position | None:
    """One game's position in ``phase``, or ``None``."""
    target = rng.randint(6, 12) if phase == "opening" else rng.randint(20, 36)
    spec = make_spec("alphabeta")
    position = parse_fen(START_FEN)
    for ply in range(MAX_PLIES):
        if _wanted(position, ply, phase, target):
            return position if _acceptable(position) else None
        moves = position.legal_moves()
        if not moves:
            return None
        if rng.random() < RANDOM_MOVE:
            move = rng.choice(moves)
        else:
            best = run_search(CheckersTree(position), spec, 2).best_move
            move = next(m for m in moves if move_name(m) == best)
        position = position.play(move)
    return None


def generate(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` positions (FEN, phase), the phases in turn."""
    rng = random.Random(seed)
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    game = 0
    while len(found) < count:
        phase = PHASES[len(found) % len(PHASES)]
        game += 1
        position = _game_position(rng, phase)
        if position is not None and fen(position) not in seen:
            seen.add(fen(position))
            found.append((fen(position), phase))
    return found


def write_suite(path: Path, count: int, seed: int) -> None:
    """The suite as a file: a header with the command that remakes it, a FEN a line."""
    lines = [f"# A generated checkers suite: {count} positions (opening, middle game, endgame in "
             f"turn), seed {seed}. Written by this project ({FIRST_HOME}).",
             f"# Regenerate it byte for byte with: python -m {FIRST_HOME} "
             f"--count {count} --seed {seed} --out {path}"]
    for text, phase in generate(count, seed):
        lines += [f"# {phase}", text]
    path.write_text("\n".join(lines) + "\n")


def main(argv: list[str]) -> int:
    """``--count N --seed S --out FILE``."""
    options = dict(zip(argv[::2], argv[1::2], strict=False))
    if len(argv) % 2 or set(options) != {"--count", "--seed", "--out"}:
        print("usage: python -m harness.suites.checkers --count N --seed S --out FILE",
              file=sys.stderr)
        return 2
    write_suite(Path(options["--out"]), int(options["--count"]), int(options["--seed"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
