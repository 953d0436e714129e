"""A generated benchmark suite: seeded, reproducible middle-game and endgame positions.

Each game starts with ``k`` random legal plies (``k`` drawn per game). Then both sides play
the harness's own search (:func:`harness.search.run.run_search` on a
:class:`harness.games.chess.tree.ChessTree`; by default alpha-beta to depth 1 with
quiescence, a few hundred nodes a move), except that now and then a random *reasonable*
move is played instead (one that one ply and quiescence score within
:attr:`GenerateSettings.random_margin` of the best), that after the middle-game window a
random reasonable capture is often played (exchanges bring the endgame sooner), and that a
move repeating a position is replaced by a reasonable one that does not. A game gives at
most one middle-game position (the first good one in a window from a ply drawn for the
game) and, while the suite still needs endgames, one endgame position (the first good one
a drawn number of plies after the game enters the endgame). A game is abandoned when it
is lopsided at a quiet position or reaches no endgame in time.

The phase is the one the evaluation tapers by (:data:`harness.games.chess.evaluation.PHASE_WEIGHT`:
knight and bishop 1, rook 2, queen 4, counted for both sides; 24 is every piece):

- middle game: phase at least :attr:`GenerateSettings.middlegame_min_phase` (12: half the
  pieces or more), at least :attr:`GenerateSettings.middlegame_min_ply` plies played;
- endgame: phase at most :attr:`GenerateSettings.endgame_max_phase` (8: e.g. a rook and a
  minor piece each, or a queen each) with at least :attr:`GenerateSettings.endgame_min_men`
  men (kings and pawns included).

A position is kept when it is legal (:meth:`chess.Board.is_valid`), the game is not over in
it, the side to move is not in check, it has at least
:attr:`GenerateSettings.min_legal_moves` legal moves, its material balance (pawn 1, knight
and bishop 3, rook 5, queen 9) is at most :attr:`GenerateSettings.max_imbalance` either way,
and it adds variety: no earlier position has the same EPD or the same pawns (both colours),
and at most :attr:`GenerateSettings.max_same_material` earlier ones have the same material.

The suite is a pure function of ``(count, seed, settings)``: every random number comes from
:class:`random.Random` seeded with a string (hashed with SHA-512, never Python's salted
``hash``), the search is deterministic, a game depends only on the seed and its number,
and positions are chosen from the games in game order. So the first ``n`` positions do
not depend on how many more are asked for, and worker processes (which play games ahead)
change nothing but the time. A change to the search, its move ordering or the evaluation
may change the moves played and so the suite (``harness/games/chess/positions/bench.epd`` is tested for that).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import textwrap
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import asdict, dataclass
from itertools import chain, islice
from itertools import count as counting
from multiprocessing.pool import AsyncResult
from pathlib import Path

import chess

from harness.errors import HarnessError
from harness.games.chess.epd import EpdOperand, write_epd
from harness.games.chess.evaluation import FULL_PHASE, PHASE_WEIGHT
from harness.games.chess.suite_files import PROJECT_POSITIONS, project_root
from harness.games.chess.tree import ChessTree, PositionCache
from harness.search.counters import Counters
from harness.search.registry import VariantSpec, find_variant, make_spec
from harness.search.run import SearchResult, Switches, check_depth, run_search

FIRST_HOME = "harness.games.chess.generate"
"""The module's name in the header of the suites it writes: where it was when ``bench.epd``
was made, which keeps its bytes (a run records its suites' sha256s); the name is an alias
of this module (:mod:`harness.moved`)."""
MIDDLEGAME = "middlegame"
"""The phase name of a middle-game position (in ``c0``)."""
ENDGAME = "endgame"
"""The phase name of an endgame position (in ``c0``)."""

PAWN_UNITS = (0, 1, 3, 3, 5, 9, 0)
"""Material in pawns by piece type (index 1..6), for the balance filter."""

DEFAULT_COUNT = 40
"""Positions in ``harness/games/chess/positions/bench.epd``."""
DEFAULT_SEED = 1
"""Seed of ``harness/games/chess/positions/bench.epd``."""
BENCH_PATH = f"{PROJECT_POSITIONS}/bench.epd"
"""Where the project's generated suite is committed, relative to the project root."""


@dataclass(frozen=True)
class GenerateSettings:
    """How a suite is generated (the defaults make ``harness/games/chess/positions/bench.epd``)."""

    variant: str = "alphabeta"
    """The harness's search variant that plays the games."""
    depth: int = 1
    """Its depth in plies (quiescence search follows at the horizon)."""
    opening_min: int = 4
    """Fewest random plies a game starts with."""
    opening_max: int = 10
    """Most random plies a game starts with."""
    random_move: float = 0.1
    """Chance, at each ply after the opening, of a random reasonable move instead of the
    search's: one whose score (one ply, then quiescence) is within ``random_margin`` of the
    best."""
    random_margin: int = 50
    """Centipawns a random reasonable move may score below the best one."""
    trade_chance: float = 0.7
    """Chance, at each ply after a game's middle-game window, of a random reasonable capture
    (when there is one) instead of the search's move: exchanges bring the endgame sooner,
    as a player steering for one would."""
    endgame_share: float = 0.4
    """Share of endgame positions in the suite (rounded to whole positions)."""
    middlegame_min_ply: int = 20
    """Fewest plies played before a middle-game position (out of the opening)."""
    middlegame_max_ply: int = 40
    """Latest ply drawn as a game's middle-game sample ply (the first good position in the
    ``search_window`` plies from it is taken)."""
    middlegame_min_phase: int = 12
    """Least phase of a middle-game position (24: every piece on the board)."""
    endgame_max_phase: int = 8
    """Most phase of an endgame position."""
    endgame_min_men: int = 6
    """Fewest men (kings and pawns included) in an endgame position."""
    endgame_delay: int = 10
    """Most plies, drawn per game, played into the endgame before positions are considered."""
    endgame_max_ply: int = 140
    """A game that has not reached the endgame after this many plies is abandoned."""
    search_window: int = 20
    """Plies after a sample ply in which a position that passes the filters is looked for."""
    min_legal_moves: int = 10
    """Fewest legal moves for the side to move."""
    max_imbalance: int = 2
    """Largest material balance, in pawns, either way."""
    abandon_imbalance: int = 3
    """A game is abandoned at a quiet position (no legal capture) whose material balance, in
    pawns, is beyond this either way: it is lopsided and would rarely give more."""
    max_same_material: int = 2
    """Most positions with the same material (pieces and pawns of each colour)."""
    max_games: int = 2000
    """Games played at the most before giving up (the settings cannot be met)."""

    def check(self) -> None:
        """Reject settings that cannot generate anything, with one line naming the setting."""
        find_variant(self.variant)
        check_depth(self.depth)
        if not 0 <= self.opening_min <= self.opening_max:
            raise HarnessError(f"generate: opening plies {self.opening_min}-{self.opening_max} must "
                               "satisfy 0 <= opening_min <= opening_max")
        for name in ("random_move", "trade_chance", "endgame_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise HarnessError(f"generate: {name}={getattr(self, name)} must be between 0 and 1")
        if not self.middlegame_min_ply <= self.middlegame_max_ply:
            raise HarnessError(f"generate: middle-game plies {self.middlegame_min_ply}-"
                               f"{self.middlegame_max_ply} are an empty range")
        if not 0 <= self.endgame_max_phase < self.middlegame_min_phase <= FULL_PHASE:
            raise HarnessError(f"generate: phases must satisfy 0 <= endgame_max_phase "
                               f"({self.endgame_max_phase}) < middlegame_min_phase "
                               f"({self.middlegame_min_phase}) <= {FULL_PHASE}")
        for name in ("random_margin", "endgame_delay", "search_window", "min_legal_moves",
                     "max_imbalance", "abandon_imbalance"):
            if getattr(self, name) < 0:
                raise HarnessError(f"generate: {name}={getattr(self, name)} must be at least 0")
        for name in ("endgame_max_ply", "max_same_material", "max_games"):
            if getattr(self, name) < 1:
                raise HarnessError(f"generate: {name}={getattr(self, name)} must be at least 1")

    def describe(self) -> str:
        """``name=value`` for every setting, in field order (for the file's header)."""
        return " ".join(f"{k}={v}" for k, v in asdict(self).items())


DEFAULT_SETTINGS = GenerateSettings()
"""The settings of ``harness/games/chess/positions/bench.epd``."""


def phase(board: chess.Board) -> int:
    """The game phase: knight and bishop 1, rook 2, queen 4, summed over both sides (24 in
    the initial position, 0 with kings and pawns only; promotions may take it past 24)."""
    return sum(PHASE_WEIGHT[piece_type] * chess.popcount(board.pieces_mask(piece_type, color))
               for piece_type in chess.PIECE_TYPES for color in chess.COLORS)


def phase_name(board: chess.Board, settings: GenerateSettings = DEFAULT_SETTINGS) -> str | None:
    """``middlegame``, ``endgame`` or ``None`` (in between) by :func:`phase` alone (the ply and
    men conditions are the generator's)."""
    value = phase(board)
    if value >= settings.middlegame_min_phase:
        return MIDDLEGAME
    if value <= settings.endgame_max_phase:
        return ENDGAME
    return None


def material_balance(board: chess.Board) -> int:
    """White's material minus Black's, in pawns (1, 3, 3, 5, 9)."""
    return sum(PAWN_UNITS[piece_type] * (chess.popcount(board.pieces_mask(piece_type, chess.WHITE))
                                         - chess.popcount(board.pieces_mask(piece_type, chess.BLACK)))
               for piece_type in chess.PIECE_TYPES)


def material_signature(board: chess.Board) -> str:
    """The material as ``KQRRBNPPPPvKQRBBNPPP`` (White first), for the variety filter."""
    return "v".join("".join(chess.piece_symbol(piece_type).upper()
                            * chess.popcount(board.pieces_mask(piece_type, color))
                            for piece_type in reversed(chess.PIECE_TYPES))
                    for color in (chess.WHITE, chess.BLACK))


def generate_suite(count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED,
                   settings: GenerateSettings = DEFAULT_SETTINGS, limit: int | None = None,
                   workers: int | None = None) -> list[tuple[chess.Board, dict[str, EpdOperand]]]:
    """Generate ``count`` positions from ``seed`` (see the module docstring), each with the
    operations ``id`` (``GEN.001``, ...) and ``c0`` (``seed S game G ply P phase NAME``).

    ``limit`` stops after the first ``limit`` positions (the same as the whole suite's
    first ``limit``). ``workers`` processes play games ahead (default: the CPUs available,
    at most 8; 1 plays them in this process); the result is the same for any number.
    Raises :class:`HarnessError` for a count below 1, bad settings, or when ``max_games``
    games do not give enough positions.
    """
    if count < 1:
        raise HarnessError(f"generate: count {count} must be at least 1")
    if limit is not None and limit < 0:
        raise HarnessError(f"generate: limit {limit} must be at least 0")
    if workers is not None and workers < 1:
        raise HarnessError(f"generate: workers {workers} must be at least 1")
    settings.check()
    wanted = count if limit is None else min(count, limit)
    if wanted == 0:
        return []
    chooser = _Chooser(count, wanted, settings)
    workers = _default_workers() if workers is None else workers
    games = _games_inline(seed, settings, chooser) if workers == 1 else _games_in_workers(
        seed, settings, chooser, workers)
    try:
        for game, candidates in games:
            if chooser.done():
                break
            if game >= settings.max_games:
                raise HarnessError(f"generate: {settings.max_games} games gave only {len(chooser.found)} "
                                   f"of {count} positions (seed {seed}); loosen the settings")
            chooser.choose(game, candidates)
    finally:
        games.close()
    width = max(3, len(str(count)))
    return [(chess.Board.from_epd(found.epd)[0],
             {"id": f"GEN.{number:0{width}d}",
              "c0": f"seed {seed} game {found.game} ply {found.ply} phase {found.phase}"})
            for number, found in enumerate(chooser.found, 1)]


def generated_header(count: int, seed: int, settings: GenerateSettings = DEFAULT_SETTINGS,
                     out: str = BENCH_PATH) -> list[str]:
    """The comment lines (without ``# ``) that say how a generated suite was made."""
    endgames = round(count * settings.endgame_share)
    if settings == DEFAULT_SETTINGS:
        remake = f"harness suites generate --count {count} --seed {seed} --out {out}"
    else:
        remake = (f"harness.suites.chess_bench.write_generated_suite({out!r}, count={count}, seed={seed}, "
                  "settings=GenerateSettings(<the settings below>))")
    s = settings
    return [
        f"A generated benchmark suite: {count} positions ({count - endgames} middle game, {endgames} "
        f"endgame), seed {seed}. Written by this project ({FIRST_HOME}).",
        f"Regenerate it byte for byte with: {remake}",
        *textwrap.wrap(f"Settings: {s.describe()}", width=110, subsequent_indent="  ",
                       break_on_hyphens=False),
        f"Each game: {s.opening_min}-{s.opening_max} random legal plies, then the harness's {s.variant} "
        f"(depth {s.depth}, quiescence) for both sides; with chance {s.random_move}",
        f"a random move scoring within {s.random_margin} cp of the best, after the middle-game window "
        f"with chance {s.trade_chance} such a capture; no repetitions.",
        "All randomness is random.Random seeded with a string; one middle-game and at most one endgame "
        "position per game.",
        f"Middle game: phase >= {s.middlegame_min_phase} (knight, bishop 1, rook 2, queen 4; 24 = every "
        f"piece), ply >= {s.middlegame_min_ply}. Endgame: phase <= {s.endgame_max_phase}, "
        f">= {s.endgame_min_men} men.",
        f"Kept: legal, not game over, not in check, >= {s.min_legal_moves} legal moves, |material "
        f"balance| <= {s.max_imbalance} pawns, new EPD, new pawns,",
        f"at most {s.max_same_material} positions per material. No bm: there is no known answer; c0 says "
        "where each position comes from.",
    ]


def write_generated_suite(path: str | Path, count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED,
                          settings: GenerateSettings = DEFAULT_SETTINGS, workers: int | None = None) -> Path:
    """Generate a suite (:func:`generate_suite`) and write it to ``path`` as EPD with a header
    saying how to make it again; returns the path. The header names the file relative to
    the project root when it is inside the project (``harness/games/chess/positions/bench.epd``), so the bytes
    do not depend on the current folder."""
    path = Path(path)
    suite = generate_suite(count, seed, settings, workers=workers)
    write_epd(path, suite, header=generated_header(count, seed, settings, project_relative(path)))
    return path


# -- playing games ---------------------------------------------------------------------

@dataclass(frozen=True)
class _Candidate:
    """A position of a game that passes every filter that does not depend on other games."""

    phase: str
    """``middlegame`` (in the game's middle-game window) or ``endgame``."""
    ply: int
    """Plies played in the game before it."""
    epd: str
    """The position (``board.epd()``)."""


def _play(seed: int, game: int, settings: GenerateSettings, endgames: bool) -> Iterator[_Candidate]:
    """Play game ``game`` of ``seed`` and yield its candidates as they come. Without
    ``endgames`` it stops after the middle-game window; the moves do not depend on it (nor
    on how far the caller reads), so its candidates are a prefix of the full game's."""
    s = settings
    spec, switches = make_spec(s.variant), Switches()
    rng = random.Random(f"harness.generate seed={seed} game={game}")  # its first home: the salt stays
    board = chess.Board()
    for _ in range(rng.randint(s.opening_min, s.opening_max)):
        moves = list(board.legal_moves)
        if not moves:
            return
        board.push(rng.choice(moves))
    middle_from = rng.randint(max(s.middlegame_min_ply, board.ply()), max(s.middlegame_max_ply, board.ply()))
    middle_to = middle_from + s.search_window
    end_delay = rng.randint(0, s.endgame_delay)
    end_from: int | None = None
    cache = PositionCache()
    while True:
        ply = board.ply()
        name = phase_name(board, s)
        if name == ENDGAME and end_from is None:
            end_from = ply + end_delay
        if name == MIDDLEGAME and middle_from <= ply <= middle_to and _fit(board, s):
            yield _Candidate(MIDDLEGAME, ply, board.epd())
        elif (endgames and name == ENDGAME and end_from is not None and ply >= end_from
              and chess.popcount(board.occupied) >= s.endgame_min_men and _fit(board, s)):
            yield _Candidate(ENDGAME, ply, board.epd())
        if ((not endgames and ply >= middle_to)
                or (end_from is not None and ply >= end_from + s.search_window)
                or (end_from is None and ply >= s.endgame_max_ply)
                or chess.popcount(board.occupied) < s.endgame_min_men or board.is_game_over()
                or (abs(material_balance(board)) > s.abandon_imbalance
                    and not any(board.generate_legal_captures()))):
            return
        board.push(_move(board, rng, cache, s, spec, switches, trade=ply > middle_to))


AHEAD_ENDGAMES = 3
"""Endgame candidates a worker process collects before it stops a game."""


def _play_ahead(seed: int, game: int, settings: GenerateSettings,
                endgames: bool) -> tuple[list[_Candidate], bool]:
    """For a worker process: :func:`_play`'s candidates up to the :data:`AHEAD_ENDGAMES`-th
    endgame one, and whether that is all of them (the game ended first)."""
    found: list[_Candidate] = []
    ends = 0
    for candidate in _play(seed, game, settings, endgames):
        found.append(candidate)
        ends += candidate.phase == ENDGAME
        if ends >= AHEAD_ENDGAMES:
            return found, False
    return found, True


def _move(board: chess.Board, rng: random.Random, cache: PositionCache, settings: GenerateSettings,
          spec: VariantSpec, switches: Switches, trade: bool) -> chess.Move:
    """The move played: with chance ``trade_chance`` (when ``trade``) a random reasonable
    capture, else with chance ``random_move`` a random reasonable move, else the search's.
    A move that repeats a position of the game is replaced by a random reasonable move
    that does not (when there is one), so games do not shuffle to a draw."""
    s = settings
    tree = ChessTree(board, cache=cache)
    searched: dict[int, SearchResult] = {}

    def search(depth: int) -> SearchResult:
        if depth not in searched:
            searched[depth] = run_search(tree, spec, depth, switches)
        return searched[depth]

    def reasonable(allow: Callable[[chess.Move], bool] | None = None) -> chess.Move | None:
        return _reasonable_move(tree, rng, search(1).score, s.random_margin, allow)

    move: chess.Move | None = None
    if trade and rng.random() < s.trade_chance:
        move = reasonable(board.is_capture)
    if move is None and rng.random() < s.random_move:
        move = reasonable()
    if move is None:
        move = chess.Move.from_uci(search(s.depth).best_move)
    if repeats(board, move):
        move = reasonable(lambda m: not repeats(board, m)) or move
    return move


def _reasonable_move(tree: ChessTree, rng: random.Random, best: int | None, margin: int,
                     allow: Callable[[chess.Move], bool] | None = None) -> chess.Move | None:
    """A random move among those ``allow`` accepts (default: all) whose score (one ply, then
    the tree's quiescence search) is within ``margin`` centipawns of ``best`` (the depth-1
    search's score), or ``None`` when there is none. Each move is tested with a zero
    window; the candidates are in the tree's move order."""
    if best is None:                            # no node limit is set: cannot happen
        return None
    threshold = best - margin
    counters = Counters()
    good: list[chess.Move] = []
    for move in tree.moves():
        if not isinstance(move, chess.Move) or (allow is not None and not allow(move)):
            continue
        tree.push(move)
        if -tree.quiesce(-threshold, -threshold + 1, counters) >= threshold:
            good.append(move)
        tree.pop()
    return rng.choice(good) if good else None


def repeats(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` leads to a position that occurred before in the game."""
    board.push(move)
    try:
        return board.is_repetition(2)
    finally:
        board.pop()


def _fit(board: chess.Board, settings: GenerateSettings) -> bool:
    """The filters on one position, as its EPD line reads back (no history, no clocks)."""
    position = chess.Board.from_epd(board.epd())[0]
    return (position.is_valid() and not position.is_check() and not position.is_game_over()
            and abs(material_balance(position)) <= settings.max_imbalance
            and position.legal_moves.count() >= settings.min_legal_moves)


# -- choosing positions ------------------------------------------------------------------

@dataclass(frozen=True)
class _Found:
    """A chosen position."""

    epd: str
    """The position (``board.epd()``)."""
    game: int
    """The game it comes from."""
    ply: int
    """Plies played in that game before it."""
    phase: str
    """``middlegame`` or ``endgame``."""


class _Chooser:
    """The positions chosen so far and the variety filters, applied game by game in order."""

    def __init__(self, count: int, wanted: int, settings: GenerateSettings) -> None:
        endgames = round(count * settings.endgame_share)
        self.quota = {MIDDLEGAME: count - endgames, ENDGAME: endgames}
        self.wanted = wanted
        self.settings = settings
        self.found: list[_Found] = []
        self.epds: set[str] = set()
        self.pawns: set[tuple[int, int]] = set()
        self.materials: dict[str, int] = {}

    def done(self) -> bool:
        return len(self.found) >= self.wanted

    def needed(self, name: str) -> bool:
        return sum(1 for found in self.found if found.phase == name) < self.quota[name]

    def choose(self, game: int, candidates: Iterable[_Candidate]) -> None:
        """Take the game's first new middle-game candidate and first new endgame candidate
        (each only while the suite needs one); stop reading when nothing more can be taken."""
        middle_open = self.needed(MIDDLEGAME)
        for candidate in candidates:
            if candidate.phase == MIDDLEGAME:
                if middle_open and self._new(candidate):
                    self._add(candidate, game)
                    middle_open = False
            elif self.needed(ENDGAME) and self._new(candidate):
                self._add(candidate, game)
                return
            if self.done() or (not middle_open and not self.needed(ENDGAME)):
                return

    def _new(self, candidate: _Candidate) -> bool:
        board = chess.Board.from_epd(candidate.epd)[0]
        return (candidate.epd not in self.epds and _pawns(board) not in self.pawns
                and self.materials.get(material_signature(board), 0) < self.settings.max_same_material)

    def _add(self, candidate: _Candidate, game: int) -> None:
        board = chess.Board.from_epd(candidate.epd)[0]
        self.epds.add(candidate.epd)
        self.pawns.add(_pawns(board))
        signature = material_signature(board)
        self.materials[signature] = self.materials.get(signature, 0) + 1
        self.found.append(_Found(candidate.epd, game, candidate.ply, candidate.phase))


_Games = Generator[tuple[int, Iterable[_Candidate]], None, None]
"""Games in order: each game's number and its candidates."""


def _pawns(board: chess.Board) -> tuple[int, int]:
    return board.pawns & board.occupied_co[chess.WHITE], board.pawns & board.occupied_co[chess.BLACK]


def _games_inline(seed: int, settings: GenerateSettings, chooser: _Chooser) -> _Games:
    """Games played here, lazily: a game goes only as far as the chooser reads it."""
    for game in counting():
        yield game, _play(seed, game, settings, chooser.needed(ENDGAME))


def _games_in_workers(seed: int, settings: GenerateSettings, chooser: _Chooser, workers: int) -> _Games:
    """Games played ahead by ``workers`` processes, yielded in game order. A game is asked
    for endgames only while the suite still needs some when it is sent (that changes where
    it stops, never its moves). A worker stops a game after a few endgame candidates; if
    the chooser reads past them, the rest of the game is played here (the same moves).
    Games still running at the end are stopped."""
    ahead = 2 * workers
    with multiprocessing.Pool(workers) as pool:          # leaving it terminates the workers
        pending: list[tuple[bool, AsyncResult[tuple[list[_Candidate], bool]]]] = []
        for game in counting():
            while len(pending) < ahead:
                endgames = chooser.needed(ENDGAME)
                pending.append((endgames, pool.apply_async(
                    _play_ahead, (seed, game + len(pending), settings, endgames))))
            endgames, result = pending.pop(0)
            found, complete = result.get()
            rest = () if complete else islice(_play(seed, game, settings, endgames), len(found), None)
            yield game, chain(found, rest)


def _default_workers() -> int:
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:                      # not on every platform
        available = os.cpu_count() or 1
    return max(1, min(8, available))


def project_relative(path: Path) -> str:
    """``path`` relative to the project root when it is inside it, else as given."""
    try:
        return path.resolve().relative_to(project_root()).as_posix()
    except ValueError:
        return path.as_posix()
