"""The project's self-play chess suites: seeded games, one position a game, phases in turn.

Each game starts from the initial position. Both sides play the best move of a
:data:`SEARCH_DEPTH`-ply alpha-beta search with quiescence on the harness's own chess tree
(:func:`harness.games.chess.compiled.chess_tree`: the compiled tree where it was built,
else the Python one; the two search node for node alike, so the file does not depend on
which), except that

- in the first :data:`RANDOM_PLIES` plies, with probability :data:`RANDOM_MOVE`, a random
  legal move is played, so that games differ. Only there: random moves all game long
  (10% of the plies) left more games lopsided by the endgame (7 of the first 30 games of
  seed 21 gave one, against 11 of 30 this way);
- a move that would repeat a position of the game is replaced by the best move that does
  not (each searched a ply less deep once played), when there is one: without this, 19
  of those 30 games repeated positions up to the ply limit, most never reaching an endgame.

A game gives one position, in the phase the suite needs next (``PHASES`` in turn, by
position):

- ``opening``: the position after :data:`OPENING_PLIES` plies (drawn per game);
- ``middle``: the position after :data:`MIDDLE_PLIES` plies (drawn per game), when at
  least :data:`MIDDLE_MIN_PHASE` of the 24 phase points are on the board (knight and
  bishop 1, rook 2, queen 4: half the pieces or more);
- ``endgame``: the first position that passes the filters among the
  :data:`ENDGAME_WINDOW` plies from the first one with at most :data:`ENDGAME_MAX_MEN`
  men (kings and pawns included) and a knight, bishop, rook or queen on each side. Twelve
  men is well past the middle game (where trees are smaller and deeper lines matter) and
  a piece each side keeps it a search problem, not a pawn race or a bare-king mate; the
  window is there because the first such position usually comes a capture before its
  recapture, lopsided for a ply.

A position is kept when the side to move is not mated or stalemated and has at least
:data:`MIN_LEGAL_MOVES` legal moves, the material (pawn 1, knight and bishop 3, rook 5,
queen 9) differs by at most :data:`MAX_IMBALANCE` pawns, and it is new: no earlier position
of the suite and no position of an excluded suite (``--exclude``) has the same EPD (the
FEN without its move counters). A game that gives no such position is dropped and the
next game is asked for the same phase; a drop because of an excluded suite is named in
the file's header.

Game ``i`` (its targets and its moves) depends only on the seed and ``i``: its random
numbers come from :class:`random.Random` seeded with a string (hashed with SHA-512, not
Python's salted ``hash``), and the search is deterministic. So the first ``n`` positions
of a suite do not depend on how many more are asked for. Run it as a module::

    python -m harness.suites.chess_selfplay --count N --seed S [--exclude NAME,...] --out FILE

``--exclude`` names suites (as ``harness run`` finds them: ``wac``, ``bench``, a path)
whose positions the suite must not contain. The file's header gives the command that
remakes it byte for byte.
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import chess

from harness.errors import HarnessError
from harness.files import read_text_lines
from harness.games.chess.compiled import chess_tree
from harness.games.chess.epd import write_epd
from harness.games.chess.suite_files import find_suite
from harness.search.registry import make_spec
from harness.search.run import SearchResult, run_search
from harness.suites.chess_bench import material_balance, phase, project_relative, repeats

FIRST_HOME = "harness.games.chess.suite"
"""The module's name in the headers of the files it writes: where it was when the shipped
files were made. They keep their bytes (the sealed rules quote their sha256s), and
``python -m harness.games.chess.suite`` still runs this module (:mod:`harness.moved`)."""
PHASES = ("opening", "middle", "endgame")
"""The phases, taken in turn."""
SEARCH_DEPTH = 3
"""Plies of the alpha-beta search that chooses a move (quiescence follows at the horizon).
Depth 2 blundered into lopsided middle games (10 of the first 30 games of seed 21 gave
one, against 16); depth 4 gave 14 and 7 endgames (against 11) in four times the time."""
RANDOM_PLIES = 16
"""Plies at the start of a game in which random moves are played."""
RANDOM_MOVE = 0.3
"""The chance that one of those plies is a random legal move, not the search's."""
OPENING_PLIES = (8, 16)
"""An opening position comes after this many plies (drawn per game, both ends included)."""
MIDDLE_PLIES = (24, 50)
"""A middle-game position comes after this many plies (drawn per game, both ends included)."""
MIDDLE_MIN_PHASE = 12
"""Fewest phase points on the board in a middle-game position (24: every piece)."""
ENDGAME_MAX_MEN = 12
"""Most men, kings and pawns included, in an endgame position."""
ENDGAME_WINDOW = 10
"""Plies, from the first endgame position, in which one that passes the filters is looked for."""
MAX_PLIES = 200
"""A game that has given nothing after this many plies is dropped."""
MIN_LEGAL_MOVES = 2
"""Fewest legal moves of the side to move."""
MAX_IMBALANCE = 2
"""Largest material difference in pawns: two pawns (or the exchange) leaves a game to play
and a search that must find it; a piece for nothing mostly decides it and makes cutoffs
trivial."""
MAX_GAMES_PER_POSITION = 20
"""Games played at the most per position asked for, before giving up."""


@dataclass(frozen=True)
class Found:
    """A position of the suite."""

    epd: str
    """The position (``board.epd()``: the FEN without move counters)."""
    phase: str
    """``opening``, ``middle`` or ``endgame``."""
    game: int
    """The game it comes from (from 0)."""
    ply: int
    """Plies played in that game before it."""


@dataclass(frozen=True)
class Generated:
    """A suite and what was dropped making it."""

    positions: tuple[Found, ...]
    """The positions, phases in turn."""
    excluded: tuple[tuple[Found, str], ...]
    """Positions dropped because an excluded suite holds them, with that suite's id for it."""


def game_positions(seed: int, game: int, tree: str = "auto") -> Iterator[tuple[int, chess.Board]]:
    """Game ``game`` of ``seed``, a position at a time: ``(ply, board)`` from the start, the
    board the live one (do not keep it). Played lazily, so a caller that stops early saves
    the rest; the moves depend only on ``seed`` and ``game`` (``tree``, the chess game
    option of that name, chooses the tree that searches, not the moves)."""
    rng = random.Random(f"{FIRST_HOME} seed={seed} game={game}")  # the salt stays with the name
    board = chess.Board()
    for ply in range(MAX_PLIES + 1):
        yield ply, board
        moves = list(board.legal_moves)
        if not moves:
            return
        if ply < RANDOM_PLIES and rng.random() < RANDOM_MOVE:
            move = rng.choice(moves)
        else:
            move = chess.Move.from_uci(search(board, SEARCH_DEPTH, tree).best_move)
            if repeats(board, move):
                move = best_new_move(board, tree) or move
        board.push(move)


def search(board: chess.Board, depth: int, tree: str = "auto") -> SearchResult:
    """The alpha-beta search (with quiescence) that plays the games."""
    return run_search(chess_tree(board, choice=tree), make_spec("alphabeta"), depth)


def best_new_move(board: chess.Board, tree: str = "auto") -> chess.Move | None:
    """The best legal move that repeats no position of the game (each move's value the
    search of the position after it, a ply less deep; the first of equals in python-chess's
    order), or ``None``."""
    best: tuple[int, chess.Move] | None = None
    for move in board.legal_moves:
        if repeats(board, move):
            continue
        board.push(move)
        score = search(board, SEARCH_DEPTH - 1, tree).score
        board.pop()
        if score is None:                       # no node limit is set: cannot happen
            raise HarnessError(f"{board.fen()}: the search after {move.uci()} gave no score")
        if best is None or -score > best[0]:
            best = (-score, move)
    return None if best is None else best[1]


def targets(seed: int, game: int) -> tuple[int, int]:
    """Game ``game``'s opening and middle-game plies."""
    rng = random.Random(f"{FIRST_HOME} seed={seed} game={game} targets")
    return rng.randint(*OPENING_PLIES), rng.randint(*MIDDLE_PLIES)


def acceptable(board: chess.Board) -> bool:
    """The filters on one position, as its EPD line reads back (no history, no clocks)."""
    position = chess.Board.from_epd(board.epd())[0]
    return (position.is_valid() and not position.is_checkmate() and not position.is_stalemate()
            and position.legal_moves.count() >= MIN_LEGAL_MOVES
            and abs(material_balance(position)) <= MAX_IMBALANCE)


def is_endgame(board: chess.Board) -> bool:
    """At most :data:`ENDGAME_MAX_MEN` men and a piece other than king and pawn on each side."""
    pieces = board.occupied & ~board.pawns & ~board.kings
    return (chess.popcount(board.occupied) <= ENDGAME_MAX_MEN
            and all(pieces & board.occupied_co[color] for color in chess.COLORS))


def phase_position(seed: int, game: int, name: str) -> Found | None:
    """Game ``game``'s position in phase ``name``, or ``None``: the opening's and the middle
    game's before the filters of :func:`acceptable`, the endgame's after them."""
    if name == "endgame":
        return _endgame_position(seed, game)
    wanted = targets(seed, game)[PHASES.index(name)]
    for ply, board in game_positions(seed, game):
        if ply == wanted:
            keep = name == "opening" or phase(board) >= MIDDLE_MIN_PHASE
            return Found(board.epd(), name, game, ply) if keep else None
    return None


def _endgame_position(seed: int, game: int) -> Found | None:
    """The first endgame position that passes the filters, within :data:`ENDGAME_WINDOW`
    plies of the game's first endgame position."""
    first: int | None = None
    for ply, board in game_positions(seed, game):
        if first is None and is_endgame(board):
            first = ply
        if first is not None:
            if is_endgame(board) and acceptable(board):
                return Found(board.epd(), "endgame", game, ply)
            if ply >= first + ENDGAME_WINDOW:
                return None
    return None


def generate(count: int, seed: int, excluded: dict[str, str] | None = None) -> Generated:
    """``count`` positions, the phases in turn; none of them a key of ``excluded`` (an EPD
    mapped to the id of the position it is in an excluded suite)."""
    if count < 1:
        raise HarnessError(f"--count {count}: must be at least 1")
    excluded = excluded or {}
    found: list[Found] = []
    clashes: list[tuple[Found, str]] = []
    seen: set[str] = set()
    for game in range(MAX_GAMES_PER_POSITION * count):
        if len(found) == count:
            break
        candidate = phase_position(seed, game, PHASES[len(found) % len(PHASES)])
        if candidate is None or candidate.epd in seen:
            continue
        if not acceptable(chess.Board.from_epd(candidate.epd)[0]):
            continue
        if candidate.epd in excluded:
            clashes.append((candidate, excluded[candidate.epd]))
            continue
        seen.add(candidate.epd)
        found.append(candidate)
    if len(found) < count:
        raise HarnessError(f"{MAX_GAMES_PER_POSITION * count} games gave only {len(found)} of {count} "
                           f"positions (seed {seed})")
    return Generated(tuple(found), tuple(clashes))


def excluded_positions(names: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """The positions of the suites ``names`` (EPD to id) and a line for each suite (name and
    sha256). Only the four position fields of a line are read, so a line whose operations
    are malformed (two of Kaufman's) still counts; fields that are no position are an error
    ``FILE:LINE: reason``."""
    positions: dict[str, str] = {}
    described: list[str] = []
    for name in names:
        path = find_suite(name)
        for number, raw in enumerate(read_text_lines(path), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()[:4]
            try:
                board = chess.Board(" ".join(fields))
            except ValueError as exc:
                raise HarnessError(f"{path}:{number}: not a position: {exc}") from None
            positions.setdefault(board.epd(), _identity(line, path, number))
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        described.append(f"{path.name} (sha256 {digest[:16]}...)")
    return positions, described


def _identity(line: str, path: Path, number: int) -> str:
    """The line's ``id "..."``, or ``<file name>:<line>``."""
    if 'id "' in line:
        return line.split('id "', 1)[1].split('"', 1)[0]
    return f"{path.name}:{number}"


def write_suite(path: Path, count: int, seed: int, exclude: Sequence[str] = ()) -> Generated:
    """The suite as an EPD file: a header saying how it was made (the command that remakes it
    byte for byte, the settings, the excluded suites and any position dropped for being in
    one), then a position a line with ``id "<stem>.<k>"`` and ``c0`` naming its phase."""
    excluded, described = excluded_positions(exclude)
    made = generate(count, seed, excluded)
    option = f" --exclude {','.join(exclude)}" if exclude else ""
    low, high = OPENING_PLIES
    header = [
        f"A generated chess suite: {count} positions (opening, middle game, endgame in turn), seed "
        f"{seed}. Written by this project ({FIRST_HOME}).",
        f"Regenerate it byte for byte with: python -m {FIRST_HOME} --count {count} "
        f"--seed {seed}{option} --out {project_relative(path)}",
        f"Games from the start: alpha-beta depth {SEARCH_DEPTH} with quiescence for both sides; in the first "
        f"{RANDOM_PLIES} plies a random legal move with chance {RANDOM_MOVE};",
        "a move repeating a position replaced by the best one that does not. One position a game.",
        f"Opening: after {low}-{high} plies. Middle game: after {MIDDLE_PLIES[0]}-{MIDDLE_PLIES[1]} "
        f"plies, phase >= {MIDDLE_MIN_PHASE} of 24. Endgame: <= {ENDGAME_MAX_MEN} men, a piece each "
        f"side (first good one in {ENDGAME_WINDOW} plies).",
        f"Kept: >= {MIN_LEGAL_MOVES} legal moves, not mate or stalemate, |material balance| <= "
        f"{MAX_IMBALANCE} pawns, no earlier or excluded position with the same EPD.",
        f"Excluded suites: {', '.join(described) if described else 'none'}.",
        *_clash_lines(made.excluded),
    ]
    stem = path.stem
    write_epd(path, [(chess.Board.from_epd(f.epd)[0],
                      {"id": f"{stem}.{k}", "c0": f"{f.phase}: game {f.game}, ply {f.ply}"})
                     for k, f in enumerate(made.positions, 1)], header=header)
    return made


def _clash_lines(clashes: Sequence[tuple[Found, str]]) -> list[str]:
    if not clashes:
        return ["No position was dropped for being in an excluded suite."]
    return [f"Dropped for being in an excluded suite: {found.phase} of game {found.game} (= {ident})"
            for found, ident in clashes]


USAGE = "usage: python -m harness.suites.chess_selfplay --count N --seed S [--exclude NAME,...] --out FILE"


def parse_options(argv: Sequence[str]) -> tuple[int, int, list[str], Path]:
    """``count, seed, exclude, out`` from the command line; a :class:`HarnessError` naming
    the option for anything wrong."""
    if len(argv) % 2:
        raise HarnessError(f"{argv[-1]}: an option without a value")
    options: dict[str, str] = {}
    for name, value in zip(argv[::2], argv[1::2], strict=True):
        if name not in ("--count", "--seed", "--exclude", "--out"):
            raise HarnessError(f"{name}: unknown option")
        if name in options:
            raise HarnessError(f"{name}: given twice")
        options[name] = value
    missing = [name for name in ("--count", "--seed", "--out") if name not in options]
    if missing:
        raise HarnessError(f"{', '.join(missing)}: missing")
    numbers = []
    for name in ("--count", "--seed"):
        try:
            numbers.append(int(options[name]))
        except ValueError:
            raise HarnessError(f"{name} {options[name]!r}: not an integer") from None
    if numbers[0] < 1:
        raise HarnessError(f"--count {numbers[0]}: must be at least 1")
    exclude = [name for name in options.get("--exclude", "").split(",") if name]
    return numbers[0], numbers[1], exclude, Path(options["--out"])


def main(argv: Sequence[str]) -> int:
    """Write a suite; exit 2 with one line on bad options or an excluded suite not found."""
    try:
        count, seed, exclude, out = parse_options(argv)
        write_suite(out, count, seed, exclude)
    except HarnessError as exc:
        print(f"harness.suites.chess_selfplay: {exc} ({USAGE})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
