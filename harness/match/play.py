"""Playing games between two search configurations: a move per search under a budget, a
game to its end, and an opening twice with the sides swapped (a pair).

A move is chosen by an iterative-deepening search of the side's variant (always
iterative, whatever its switches say) under one of three budgets:

- ``nodes N`` (the default): the deepest iterative-deepening search, to depth 1, 2, ...,
  whose ``nodes`` counter stays within ``N``. Each depth is searched afresh (a new table),
  and the search to depth ``d + 1`` is stopped as soon as it passes ``N`` nodes; the move
  is that of the last search that finished, so it ends at the end of the last iteration
  finished within ``N``: a pure function of the position, the same on every machine.
  Depth 1 is always finished, whatever it costs. A move's ``nodes`` are the finished
  search's; its ``work`` counts the stopped one too.
- ``depth D``: one iterative-deepening search to depth ``D``.
- ``time S+INC``: a clock of ``S`` seconds per side and ``INC`` more after each move;
  each move deepens while less than half of its share (the clock's 1/20 plus the
  increment) is spent. Wall time: not reproducible, and a flag that falls only shows in
  the clock (no game is lost on time).

Everything is deterministic for a node or depth budget: the same games on every machine
and in every worker process.

A side may be a UCI engine instead (chess only): its move is its own program's search
under the same budget, asked with the game's moves (:mod:`harness.match.engine_side`); its
``nodes`` and ``work`` are the nodes it reports (its quiescence included), its ``depth``
the depth it reports, and its frame ``engine``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from harness.engines.spec import EngineSpec
from harness.errors import HarnessError
from harness.games.base import MAX_DEPTH, Problem
from harness.games.registry import find_game
from harness.match.engine_side import ENGINE_TIMEOUT, EnginePlayer, engine_limit
from harness.match.rules import ChessPlaying, Ending, Playing, playing
from harness.options import coerce
from harness.results import ENGINE
from harness.search.registry import VariantSpec, parse_variants
from harness.search.run import SearchResult, Switches, run_search

ADJUDICATION_MOVES = 4
"""Consecutive moves whose searches must all agree on the winner for an adjudication."""


@dataclass(frozen=True)
class Side:
    """One configuration of a match: a variant with its options, and the frame's switches."""

    label: str
    """The variant and its options, as named (``pvs:zw_min_depth=3``)."""
    switches: Switches = Switches()
    """The frame's switches (table size, ordering by the hash move, quiescence, ...)."""
    profile: str = ""
    """The search profile its switches and game options came from (``pvs@modern``;
    empty: none, the switches as typed)."""
    game_options: tuple[tuple[str, str, str], ...] = ()
    """Options its profile gives the games' problems, as (game, key, value): the side's own
    (chess's killers), over the openings' options."""
    engine: EngineSpec | None = None
    """A UCI engine that plays this side instead of a variant (``label`` is then its
    name, the switches unused); ``None``: the harness's search."""
    engine_timeout: float = ENGINE_TIMEOUT
    """Seconds an engine's move may take before the engine is taken for hung."""

    @property
    def spec(self) -> VariantSpec:
        """The variant resolved (checked when the side is made: :func:`make_side`)."""
        if self.engine is not None:
            raise HarnessError(f"side {self.label} is a UCI engine, not a variant")
        return parse_variants(self.label)[0]

    @property
    def name(self) -> str:
        """What the match's tables call it: the variant, and its profile after ``@``; an
        engine's name."""
        return f"{self.label}@{self.profile}" if self.profile else self.label

    def problem(self, problem: Problem) -> Problem:
        """``problem`` with the side's own game options (itself when it has none)."""
        own = {key: value for game, key, value in self.game_options if game == problem.game}
        if not own:
            return problem
        declared = find_game(problem.game).options
        options = tuple((key, coerce(f"{problem.game}: option {key}={own[key]!r}", own[key],
                                     declared[key]) if key in own else value)
                        for key, value in problem.options)
        return replace(problem, options=options)


def make_side(name: str, switches: Switches, profile: str = "",
              game_options: tuple[tuple[str, str, str], ...] = ()) -> Side:
    """A side from a variant's name; one variant, known, with valid options; with the
    profile (its name) its switches and game options came from."""
    specs = parse_variants(name)
    if len(specs) != 1:
        raise HarnessError(f"{name!r}: a side of a match is one variant")
    return Side(specs[0].label, switches, profile, game_options)


def make_engine_side(spec: EngineSpec, timeout_s: float = ENGINE_TIMEOUT) -> Side:
    """A side played by the UCI engine ``spec`` (its moves timed out after ``timeout_s``)."""
    if not timeout_s > 0:
        raise HarnessError(f"--engine-timeout {timeout_s:g}: must be above 0 seconds")
    return Side(spec.name, engine=spec, engine_timeout=timeout_s)


@dataclass(frozen=True)
class Budget:
    """What a side may spend on a move."""

    kind: str = "nodes"
    """``nodes``, ``depth`` or ``time``."""
    nodes: int = 20_000
    """Nodes per move (``nodes``)."""
    depth: int = 3
    """Plies per move (``depth``)."""
    seconds: float = 0.0
    """Seconds on each side's clock at the start (``time``)."""
    increment: float = 0.0
    """Seconds added to the clock after each move (``time``)."""

    def __post_init__(self) -> None:
        if self.kind not in ("nodes", "depth", "time"):
            raise HarnessError(f"a budget is nodes, depth or time, not {self.kind!r}")

    @property
    def text(self) -> str:
        """``nodes 20000``, ``depth 3``, ``time 10+0.1``."""
        if self.kind == "nodes":
            return f"nodes {self.nodes}"
        if self.kind == "depth":
            return f"depth {self.depth}"
        return f"time {self.seconds:g}+{self.increment:g}"


def parse_time(text: str) -> tuple[float, float]:
    """``S+INC`` or ``S`` as seconds and increment."""
    base, _, increment = text.partition("+")
    try:
        seconds, extra = float(base), float(increment or 0)
    except ValueError:
        raise HarnessError(f"--time {text!r}: not S+INC in seconds (e.g. 10+0.1)") from None
    if not (seconds > 0 and extra >= 0):
        raise HarnessError(f"--time {text!r}: S must be above 0 and INC at least 0")
    return seconds, extra


@dataclass(frozen=True)
class Rules:
    """How games end besides their own rules."""

    max_plies: int = 400
    """A game still going after this many plies is drawn (``move_limit``); 0: no limit."""
    adjudicate: int = 0
    """A game is won by a player when the last :data:`ADJUDICATION_MOVES` searches all gave
    the player to move a score at least this far on the same player's side (both sides
    agree who wins); 0: no adjudication."""


@dataclass(frozen=True)
class Choice:
    """A move chosen, and what choosing it cost."""

    move: str
    """The move's name."""
    score: int | None
    """The score of the finished search, for the side to move (``None``: no search)."""
    depth: int
    """The depth of the finished search (0: the move came from the rules)."""
    nodes: int
    """Nodes of the finished search (its ``nodes`` counter)."""
    work: int = 0
    """Nodes and quiescence nodes of every search made for the move, stopped ones included."""
    seconds: float = 0.0
    """Wall time of every search made for the move."""
    frame: str = ""
    """The frame the searches ran in (``harness.search.run.FRAMES``; empty: no search)."""


def choose(position: Playing, side: Side, budget: Budget, clock: float = 0.0,
           on_iteration: Callable[[int, SearchResult], bool] | None = None,
           player: EnginePlayer | None = None, where: str = "") -> Choice:
    """The move ``side`` plays at ``position`` under ``budget`` (``clock``: the seconds left
    on its clock, for a time budget); ``on_iteration(depth, result)`` is told of each
    search finished, and ends the deepening by returning ``False`` (``harness uci``
    reports each depth and stops at its own limits); an engine side's move comes from
    ``player``, its process (``where``: the game and ply, for a fault's line)."""
    if side.engine is not None:
        if player is None or not isinstance(position, ChessPlaying):
            raise HarnessError(f"side {side.label} is a UCI engine: it plays chess, with its "
                               "process started")
        found = player.move(position.board, engine_limit(budget.kind, budget.nodes, budget.depth,
                                                         clock, budget.increment), where)
        return Choice(found.move, found.score, found.depth, found.nodes, found.nodes,
                      found.seconds, ENGINE)
    spec = side.spec
    switches = replace(side.switches, iterative_deepening=True)
    tree = position.tree()
    work, seconds, frame = 0, 0.0, ""
    finished: SearchResult | None = None
    finished_depth = 0
    deepest = budget.depth if budget.kind == "depth" else min(MAX_DEPTH, position.horizon)
    first = budget.depth if budget.kind == "depth" else 1
    share = clock / 20 + budget.increment
    for depth in range(first, deepest + 1):
        limit = budget.nodes if budget.kind == "nodes" and depth > 1 else None
        result = run_search(tree, spec, depth, switches, max_nodes=limit)
        work += result.counters["nodes"] + result.counters["qnodes"]
        seconds += result.time_s
        frame = result.frame
        if result.status == "max-nodes":
            break
        finished, finished_depth = result, depth
        if on_iteration is not None and not on_iteration(depth, result):
            break
        if not result.best_move:
            break
        if budget.kind == "time" and seconds > share / 2:
            break
        if budget.kind == "nodes" and result.counters["nodes"] >= budget.nodes:
            break
    if finished is None or not finished.best_move:
        return Choice(position.fallback_move(), None, 0, 0, work, seconds, frame)
    return Choice(finished.best_move, finished.score, finished_depth, finished.counters["nodes"],
                  work, seconds, frame)


@dataclass(frozen=True)
class Game:
    """One game played: who moved first, how it ended, and what each side spent."""

    opening: str
    """The opening's problem id."""
    a_first: bool
    """Whether side A moved first from the opening (player 0)."""
    points_a: float
    """Side A's result: 1, 1/2 or 0."""
    reason: str
    """How it ended (:class:`Ending`'s reasons, ``adjudication``, ``move_limit``)."""
    plies: int
    """Moves played."""
    moves: tuple[str, ...]
    """The moves, by their trees' names."""
    nodes: tuple[int, int]
    """Nodes of the finished searches, side A's and side B's (the budget's measure)."""
    work: tuple[int, int]
    """Nodes and quiescence nodes of every search each side made, stopped ones included."""
    seconds: tuple[float, float]
    """Wall time of each side's searches."""
    depths: tuple[int, int] = (0, 0)
    """Sum of the depths of each side's finished searches (divided by its moves: its mean)."""
    searches: tuple[int, int] = (0, 0)
    """Moves each side chose."""
    frames: tuple[str, str] = ("", "")
    """The frames each side's searches ran in (``compiled``; several joined by ``+``; empty:
    it searched nothing)."""


@dataclass
class _Spent:
    """What each side has spent so far in a game."""

    nodes: list[int] = field(default_factory=lambda: [0, 0])
    work: list[int] = field(default_factory=lambda: [0, 0])
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    depths: list[int] = field(default_factory=lambda: [0, 0])
    searches: list[int] = field(default_factory=lambda: [0, 0])
    frames: list[list[str]] = field(default_factory=lambda: [[], []])

    def add(self, side: int, choice: Choice) -> None:
        self.nodes[side] += choice.nodes
        self.work[side] += choice.work
        self.seconds[side] += choice.seconds
        self.depths[side] += choice.depth
        self.searches[side] += 1
        if choice.frame and choice.frame not in self.frames[side]:
            self.frames[side].append(choice.frame)


def play_game(problem: Problem, sides: Sequence[Side], a_first: bool,
              budget: Budget | tuple[Budget, Budget], rules: Rules = Rules(),
              players: Sequence[EnginePlayer | None] | None = None) -> Game:
    """Play the opening ``problem`` to its end, side A (``sides[0]``) moving first when
    ``a_first``; ``budget``: both sides', or side A's and side B's; ``players``: the
    engine sides' processes (``None``: started for this game)."""
    if players is None:
        with engine_players(sides) as started:
            return play_game(problem, sides, a_first, budget, rules, started)
    budgets = budget if isinstance(budget, tuple) else (budget, budget)
    position = playing(problem)
    # A side with game options of its own (chess's killers from its profile) searches its
    # own copy of the game, every move played on both.
    own = [playing(side.problem(problem)) if side.game_options else None for side in sides]
    order = (0, 1) if a_first else (1, 0)          # side index by player
    clocks = [budgets[0].seconds, budgets[1].seconds]
    spent = _Spent()
    moves: list[str] = []
    scores: list[tuple[int, int | None]] = []       # (mover, score) of each move
    ending = position.ending()
    while ending is None:
        if rules.max_plies and position.plies >= rules.max_plies:
            ending = Ending(None, "move_limit")
            break
        side = order[position.mover]
        mine = own[side]
        where = (f"at ply {position.plies + 1} of {problem.problem_id} "
                 f"({'A' if a_first else 'B'} first)")
        choice = choose(position if mine is None else mine, sides[side], budgets[side],
                        clocks[side], player=players[side], where=where)
        spent.add(side, choice)
        if budgets[side].kind == "time":
            clocks[side] += budgets[side].increment - choice.seconds
        scores.append((position.mover, choice.score))
        for game in (position, *own):
            if game is not None:
                game.play(choice.move)
        moves.append(choice.move)
        ending = position.ending() or _adjudicated(scores, rules.adjudicate)
    points_first = 0.5 if ending.winner is None else 1.0 if ending.winner == 0 else 0.0
    return Game(problem.problem_id, a_first, points_first if a_first else 1 - points_first,
                ending.reason, position.plies, tuple(moves), _pair(spent.nodes),
                _pair(spent.work), (spent.seconds[0], spent.seconds[1]), _pair(spent.depths),
                _pair(spent.searches), ("+".join(spent.frames[0]), "+".join(spent.frames[1])))


def _pair(values: list[int]) -> tuple[int, int]:
    return (values[0], values[1])


def _adjudicated(scores: list[tuple[int, int | None]], margin: int) -> Ending | None:
    """A win for the player every one of the last :data:`ADJUDICATION_MOVES` searches
    scored at least ``margin`` ahead, or ``None``."""
    if not margin or len(scores) < ADJUDICATION_MOVES:
        return None
    winners = set()
    for mover, score in scores[-ADJUDICATION_MOVES:]:
        if score is None or abs(score) < margin:
            return None
        winners.add(mover if score > 0 else 1 - mover)
    return Ending(winners.pop(), "adjudication") if len(winners) == 1 else None


def play_pair(problem: Problem, sides: tuple[Side, Side], budget: Budget | tuple[Budget, Budget],
              rules: Rules = Rules()) -> tuple[Game, Game]:
    """The opening played twice: side A first, then side B first (an engine side's
    process started once for the two)."""
    with engine_players(sides) as players:
        return (play_game(problem, sides, True, budget, rules, players),
                play_game(problem, sides, False, budget, rules, players))


@contextlib.contextmanager
def engine_players(sides: Sequence[Side]) -> Iterator[list[EnginePlayer | None]]:
    """A process for each engine side (``None`` for a variant's), ended on the way out."""
    with contextlib.ExitStack() as stack:
        players: list[EnginePlayer | None] = []
        for side in sides:
            player = None
            if side.engine is not None:
                player = EnginePlayer(side.engine, side.engine_timeout)
                stack.callback(player.close)
            players.append(player)
        yield players
