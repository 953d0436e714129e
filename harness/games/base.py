"""The interface every problem source implements, and the value conventions.

A search walks a tree through a cursor: it asks for the children of the current node
(``moves``), steps into one (``push``) and back (``pop``). Chess positions need exactly
this (python-chess boards are pushed and popped, never copied per node), and array-backed
trees implement it with a stack of node ids, so a variant is written once for both.

Values follow negamax: ``value()`` is from the point of view of the side to move, an
integer strictly between ``-INF`` and ``INF``.

A :class:`Game` makes trees from :class:`Problem` records; the frame offers a feature (a
quiescence search, null move, check extension) when the tree has the ability, never by a
game's class.

This module is the bottom layer: the search (``harness.search``) and every game import it,
and it imports neither.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, ClassVar, Protocol, TypeVar, overload

from harness.errors import HarnessError
from harness.options import Option, OptionValue, text
from harness.plugins import BUILT_IN

INF = 1_000_000_000
"""Larger than any evaluation, mate scores included."""

Move = Hashable
"""What leads from a node to one of its children: a child id, a chess move."""

GamePosition = TypeVar("GamePosition", bound=Hashable)
"""A game's position as a value (:func:`lines_after`)."""

MAX_DEPTH = 100
"""Deepest search accepted (Python's recursion limit bounds it); a tree loaded from a file
may not be taller."""


class Tree(Protocol):
    """A game tree seen through a cursor positioned at one node.

    Optional abilities: the search uses each when the tree has it (by the method's
    presence, never by the tree's class), and runs without it otherwise.

    - ``quiesce(alpha, beta, counters) -> int``: a horizon evaluation that looks at the
      window, counting its nodes in ``counters.qnodes`` (:class:`QuiescenceCounters`);
      with ``child_quiesce(move, alpha, beta, counters) -> int``, the same at the child
      reached by ``move`` without moving the cursor (chess).
    - ``in_check``, ``null_allowed``, ``push_null``: null move and check extension
      (:class:`EnhancedTree`, :func:`has_enhancements`; chess).
    - ``tactical(move)`` and ``selective_margins``: the selective switches (late-move
      reductions and pruning, futility, reverse futility, razoring, mate-distance pruning:
      :class:`SelectiveTree`, :func:`has_selectivity`; chess, Othello, checkers).
    """

    def moves(self) -> Sequence[Move]:
        """The children of the current node in search order; empty at a terminal node."""
        ...

    def push(self, move: Move) -> None:
        """Step into the child reached by ``move``."""
        ...

    def pop(self) -> None:
        """Step back to the parent."""
        ...

    def value(self) -> int:
        """The static value of the current node for the side to move."""
        ...

    def terminal_value(self) -> int:
        """The value of the current node, which has no moves (chess: mate or stalemate)."""
        ...

    def child_value(self, move: Move) -> int:
        """``value()`` of the child reached by ``move``, leaving the cursor where it is
        (the search's shortcut for a leaf at the horizon)."""
        ...

    def key(self) -> Hashable:
        """A key identifying the current position, stable for the life of the tree."""
        ...

    def move_name(self, move: Move) -> str:
        """A readable, stable name for ``move`` at the current node."""
        ...

    def reset(self) -> None:
        """Put the cursor on the root and forget what earlier searches taught the move
        ordering (killers, history): every search starts from the same state."""
        ...

    def cutoff(self, move: Move, depth: int) -> None:
        """Hear that ``move`` caused a fail-high at the current node (dynamic ordering)."""
        ...


class EnhancedTree(Tree, Protocol):
    """A tree that supports the frame's chess enhancements: null move, check extension."""

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        ...

    def null_allowed(self, rule: str) -> bool:
        """Whether a null move may be tried at the current node under ``rule``."""
        ...

    def push_null(self) -> None:
        """Pass the move to the opponent (``pop`` takes it back)."""
        ...


@dataclass(frozen=True)
class SelectiveMargins:
    """What a game declares for the frame's selective switches (docs/selective.md): the
    margins are in the units of its ``value()``, each tuple by the remaining depth of the
    node deciding, its first entry for depth 1; a depth past a tuple's end is never pruned
    that way."""

    futility: tuple[int, ...] = ()
    """Futility pruning: a quiet move is not searched when the static value plus this is
    no more than alpha."""
    reverse_futility: tuple[int, ...] = ()
    """Reverse futility (static null move): a node answers its static value less this
    when that is at least beta."""
    razoring: tuple[int, ...] = ()
    """Razoring: a node whose static value plus this is no more than alpha asks the
    horizon evaluation (quiescence) with a zero window at alpha, and answers it if it
    fails low there (a game without quiescence: its static value, which always does)."""
    late_move_counts: tuple[int, ...] = ()
    """Late-move (move-count) pruning: quiet moves after this many moves searched are not
    searched."""
    mate: int = 0
    """The value of giving mate at the root, a mate ``p`` plies deep scoring ``mate - p``
    (mate-distance pruning); 0: the game's values carry no distance to mate."""


class SelectiveTree(Tree, Protocol):
    """A tree that offers the frame's selective switches (``harness.search.selective``)."""

    selective_margins: SelectiveMargins
    """The game's margins and move counts (:class:`SelectiveMargins`)."""

    def tactical(self, move: Move) -> bool:
        """Whether ``move`` at the current node is tactical (chess: a capture, a promotion
        or a check; checkers: a capture or a crowning; Othello: a corner): never reduced
        or pruned."""
        ...


def has_selectivity(tree: object) -> bool:
    """Whether ``tree`` is a :class:`SelectiveTree`: it says which moves are quiet and
    declares margins (what the selective switches need)."""
    return (callable(getattr(tree, "tactical", None))
            and isinstance(getattr(tree, "selective_margins", None), SelectiveMargins))


class QuiescenceCounters(Protocol):
    """What a tree's quiescence search counts into: the search's counters
    (``harness.search.counters.Counters``), of which it touches only ``qnodes``."""

    qnodes: int


def has_enhancements(tree: object) -> bool:
    """Whether ``tree`` is an :class:`EnhancedTree`: it can pass a move and knows checks
    (what null move and check extension need)."""
    return all(callable(getattr(tree, name, None)) for name in ("in_check", "null_allowed", "push_null"))


# ---------------------------------------------------------------------------------------
# Games: where problems come from


@dataclass(frozen=True)
class Problem:
    """One tree to search, described by value (it travels to worker processes): its game
    rebuilds the tree from it with :meth:`Game.tree`."""

    game: str
    """The name of the game it belongs to (:func:`harness.games.registry.find_game`)."""
    suite: str
    """The problem set it belongs to: an EPD file's name, a synthetic spec, a tree file's
    name, with the options that differ from the game's defaults."""
    problem_id: str
    """Its id within the set (an EPD position's ``id``, a tree's number)."""
    source: str
    """What the game reads it from: a file path, a spec, a game's name."""
    index: int = 0
    """Its place in the set (a synthetic tree's number, a position's line among the set's)."""
    options: tuple[tuple[str, OptionValue], ...] = ()
    """Every option of the game, defaults included, in the game's order."""
    default_depth: int = 1
    """The depth searched when none is given (a tree's height, to the end of a game,
    3 plies of chess)."""
    size: float | None = None
    """Its work, if known when it was loaded (a tree file's nodes); else the game estimates it."""
    position: str = ""
    """Where in its source the problem starts, in the game's own notation (OpenSpiel: the
    actions played from the initial state); empty where ``index`` says it."""

    def option(self, key: str) -> OptionValue:
        """The value of the game option ``key``."""
        return dict(self.options)[key]

    def depths(self, given: tuple[int, ...] | None) -> tuple[int, ...]:
        """The depths this problem is searched to: ``given``, else its default."""
        return given or (self.default_depth,)


class ProblemStream(Sequence[Problem]):
    """Problems made as they are asked for, never all held: a run's memory does not grow
    with the problems it has not reached (``random:...,n=100000000``, a 50 MB EPD file).

    Every iteration starts again from the first problem (``make()`` is called anew), and
    reads no further than it is asked to: ``islice(stream, 2)`` reads two. ``length`` is
    the number of problems when the game knows it without making them (synthetic trees),
    ``None`` when only reading them all tells (a file: ``len()`` reads it through once,
    checking it, and remembers). ``item(i)`` makes problem ``i`` directly where the game
    can; otherwise indexing reads up to it. A stream's problems have distinct ids and
    their set's name as their ``suite`` (the game makes sure: a file's duplicate id is a
    bad line), so a run need not hold them to check.
    """

    def __init__(self, make: Callable[[], Iterator[Problem]], length: int | None = None,
                 item: Callable[[int], Problem] | None = None) -> None:
        self._make = make
        self._length = length
        self._item = item

    @property
    def known_length(self) -> int | None:
        """The number of problems if known without reading them (or read once already)."""
        return self._length

    def __iter__(self) -> Iterator[Problem]:
        count = 0
        for problem in self._make():
            count += 1
            yield problem
        self._length = count            # read through: now it is known

    def __len__(self) -> int:
        if self._length is None:
            self._length = sum(1 for _ in self._make())
        return self._length

    @overload
    def __getitem__(self, index: int) -> Problem: ...

    @overload
    def __getitem__(self, index: slice) -> list[Problem]: ...

    def __getitem__(self, index: int | slice) -> Problem | list[Problem]:
        if isinstance(index, slice):
            start, stop, step = index.start or 0, index.stop, index.step or 1
            if start >= 0 and (stop is None or stop >= 0) and step > 0:
                if self._item is not None:
                    last = len(self) if stop is None else min(stop, len(self))
                    return [self._item(i) for i in range(start, last, step)]
                return list(islice(self, start, stop, step))
            return list(self)[index]
        if index < 0:
            index += len(self)
        if self._item is not None:
            if not 0 <= index < len(self):
                raise IndexError(f"no problem {index} in a set of {len(self)}")
            return self._item(index)
        found = next(islice(self._make(), index, None), None) if index >= 0 else None
        if found is None:
            raise IndexError(f"no problem {index}: the set has fewer")
        return found


def count_problems(problems: Sequence[Problem], limit: int | None = None) -> int:
    """How many of ``problems`` a run searches with ``--limit limit``: a stream of unknown
    length is read only up to the limit (checked as it is read), never beyond."""
    known = problems.known_length if isinstance(problems, ProblemStream) else len(problems)
    if known is not None:
        return known if limit is None else min(known, limit)
    return sum(1 for _ in islice(problems, limit))


@dataclass
class ProblemSet:
    """The problems one ``GAME:SPEC`` names, and what a run records about them."""

    name: str
    """The set's name (every problem's ``suite``)."""
    problems: Sequence[Problem]
    """Its problems, in order: a list, or a :class:`ProblemStream` that makes them as they
    are reached."""
    record: dict[str, Any] = field(default_factory=dict)
    """What ``run.json`` keeps about it beside its game and options: a file's path and
    sha256, lines skipped, a tree's height."""


FEATURES = {
    "quiescence": "a quiescence search at the horizon (tree.quiesce)",
    "null_move": "null move (tree.in_check, null_allowed, push_null)",
    "check_extension": "one ply more when in check (tree.in_check)",
    "value_bounds": "a bound on a node's value the search lowers beta to (tree.value_bound)",
    "selectivity": "the selective switches: reductions, pruning, razoring, mate distance "
                   "(tree.tactical, selective_margins)",
}
"""The frame's features a game's trees may offer, by the :class:`Switches
<harness.search.run.Switches>` field that turns them on, and the abilities they need."""


def check_default_depth(what: str, height: int, depths: tuple[int, ...] | None,
                        hint: str = "give --depth N") -> None:
    """Refuse to search to a problem's own depth ``height`` (no ``depths`` given) when no
    search goes that deep; ``what`` says what the number is (``fig.json: the tree's
    height, 150,``)."""
    if not depths and height > MAX_DEPTH:
        raise HarnessError(f"{what} is the depth searched without --depth, and the harness "
                           f"searches at most {MAX_DEPTH} plies deep: {hint}")


def agrees_with_known(known: int | None, score: int | None, bound: str) -> bool | None:
    """Whether a search's ``score`` (``exact``, or a ``lower`` or ``upper`` ``bound``)
    agrees with a position's ``known`` value: equal, or a bound on the right side of it
    (a weak solve's sign); ``None`` when either is missing. What :meth:`Game.judge` answers
    for games whose files give values (Connect Four, Othello, checkers)."""
    if known is None or score is None:
        return None
    return score == known if bound == "exact" else known >= score if bound == "lower" else known <= score



def lines_after(start: GamePosition, plies: int, moves: Callable[[GamePosition], Sequence[Any]],
                play: Callable[[GamePosition, Any], GamePosition],
                name: Callable[[GamePosition, Any], str]) -> list[tuple[tuple[str, ...], GamePosition]]:
    """Each distinct position ``plies`` moves after ``start`` (positions compared as
    values: hashable), with the first line of move names that reaches it, in move order;
    games over by then (no move left) are left out. What ``start,plies=N`` of a game with
    rules gives: the openings of a match."""
    lines: list[tuple[tuple[str, ...], GamePosition]] = [((), start)]
    for _ in range(plies):
        seen: set[GamePosition] = set()
        following = []
        for line, position in lines:
            for move in moves(position):
                child = play(position, move)
                if child not in seen:
                    seen.add(child)
                    following.append(((*line, name(position, move)), child))
        lines = following
    return [(line, position) for line, position in lines if moves(position)]


class Game(ABC):
    """A source of problems: how a spec names them, loads them and makes each one's tree.

    A game is one object in :data:`harness.games.registry.GAMES` (built in, or added by an
    installed package through the entry-point group ``harness.games``). Problems are named
    ``NAME:SPEC[,key=value...]`` (``chess:wac.epd,killers=1``, ``random:b=8,d=6``); the
    ``key=value`` items are the game's :attr:`options`, checked and recorded with the
    results. A variant never knows which game it searches: everything game-specific is
    here or in the game's trees.
    """

    name: str = ""
    """What ``GAME:`` says."""
    spec: str = ""
    """What follows the colon, for the listing (``FILE.epd | NAME``)."""
    description: str = ""
    """One line on the game."""
    source: str = ""
    """Where the game or its data comes from."""
    options: ClassVar[Mapping[str, Option]] = {}
    """The ``key=value`` options the spec takes."""
    columns: ClassVar[Mapping[str, str]] = {}
    """Extra columns of ``results.csv`` (name: what it holds), filled by :meth:`columns_for`."""
    features: ClassVar[frozenset[str]] = frozenset()
    """The frame features (keys of :data:`FEATURES`) its trees offer."""
    origin: str = BUILT_IN
    """``built in``, or the package that added it."""

    @abstractmethod
    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        """The problems ``spec`` names, with ``options`` (every option, resolved): a list, or
        a :class:`ProblemStream` for a set too big to hold. Bad input is a
        :class:`HarnessError` of one line, ``FILE:LINE: reason`` for a file (from a stream,
        when the line is read); ``skip_invalid`` skips malformed lines with a warning
        instead, where the game reads lines."""

    @abstractmethod
    def tree(self, problem: Problem) -> Tree:
        """The problem's tree, cursor at the root."""

    def set_name(self, spec: str, options: tuple[tuple[str, OptionValue], ...]) -> str:
        """A problem set's name: ``spec`` with the options that differ from the game's
        defaults (``bench.epd,killers=1``)."""
        changed = [f"{k}={text(v)}" for k, v in options if v != self.options[k].default]
        return ",".join([spec, *changed])

    def work(self, problem: Problem) -> float:
        """A rough measure of searching ``problem`` (comparable within the game), to start the
        longest jobs first: by default its :attr:`Problem.size`, else 1."""
        return 1.0 if problem.size is None else problem.size

    def columns_for(self, problem: Problem, best_move: str) -> dict[str, object]:
        """The values of :attr:`columns` for a search of ``problem`` that chose ``best_move``."""
        return {}

    def judge(self, problem: Problem, best_move: str, score: int | None, bound: str) -> bool | None:
        """Whether a search that found ``best_move`` and ``score`` (``exact``, or a ``lower``
        or ``upper`` ``bound``) solved ``problem`` (its known answer: a best move, a value);
        ``None`` when the problem carries none."""
        return None

    def check(self, problems: ProblemSet, depths: tuple[int, ...] | None) -> None:
        """The game's own checks of a loaded set against the depths asked for (``None``: each
        problem's default), before anything is searched."""
        for problem in islice(problems.problems, 1):
            deepest = max(problem.depths(depths))
            if deepest > MAX_DEPTH:
                raise HarnessError(f"{problems.name}: depth {deepest:,} is deeper than the harness "
                                   f"searches ({MAX_DEPTH} plies): give --depth N")
