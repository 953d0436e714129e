"""The UCI protocol's text, read and written: the commands a GUI sends (``position``,
``go``, ``setoption``) parsed into values, the engine's options declared and checked, and
the ``info`` lines written. No search and no process here: pure functions of text, so
every malformed line is one :class:`UciInputError` with its reason (the server answers it
with an ``info string``, never a crash).

The protocol is Stefan Meyer-Kahlen's UCI (April 2006): tokens are separated by any
whitespace, an unknown command or token is ignored, option names are case-insensitive.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.games.base import MAX_DEPTH
from harness.games.chess.evaluation import MATE

GO_NUMBERS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo",
              "mate")
"""The ``go`` parameters followed by a number."""
GO_FLAGS = ("infinite", "ponder")
"""The ``go`` parameters standing alone."""
SIGNED = ("wtime", "btime", "winc", "binc")
"""The ``go`` numbers that may be negative (a GUI sends a clock that has run out below 0)."""

MATE_LINES = 2 * MAX_DEPTH
"""The longest mate line a score can hold: a search reaches at most ``MAX_DEPTH`` plies
and its extensions add at most as many again (the compiled frame's stack holds 128). A
score within this of :data:`MATE` is a mate, any other a centipawn figure (chess's
evaluation stays below 10,000)."""


class UciInputError(Exception):
    """A line of the GUI the engine cannot act on: its reason, one line."""


@dataclass(frozen=True)
class PositionCommand:
    """``position startpos|fen FEN [moves M1 M2 ...]``."""

    fen: str | None
    """The starting position's FEN; ``None``: the initial position (``startpos``)."""
    moves: tuple[str, ...]
    """The moves played since, in UCI notation (``e2e4``, ``e7e8q``), not yet checked."""


@dataclass(frozen=True)
class GoCommand:
    """``go ...``: the limits of one search (``None``: not given)."""

    depth: int | None = None
    """Plies to search (``go depth``)."""
    nodes: int | None = None
    """The node budget (``go nodes``): the deepest iteration finished within it."""
    movetime: int | None = None
    """Milliseconds for this move exactly (``go movetime``)."""
    wtime: int | None = None
    """White's clock in milliseconds."""
    btime: int | None = None
    """Black's clock in milliseconds."""
    winc: int | None = None
    """White's increment a move in milliseconds."""
    binc: int | None = None
    """Black's increment a move in milliseconds."""
    movestogo: int | None = None
    """Moves to the next time control (``None``: the rest of the game on the clock)."""
    mate: int | None = None
    """Look for a mate in this many moves (searched as ``2 * mate - 1`` plies)."""
    infinite: bool = False
    """Search until ``stop``; ``bestmove`` only after it."""
    ponder: bool = False
    """Search on the opponent's time until ``ponderhit`` or ``stop``."""
    searchmoves: tuple[str, ...] = ()
    """Root moves to restrict the search to (the harness searches all: said in an ``info
    string``)."""

    @property
    def until_stopped(self) -> bool:
        """Whether ``bestmove`` waits for ``stop`` (or ``ponderhit``) whatever the search does."""
        return self.infinite or self.ponder

    @property
    def unlimited(self) -> bool:
        """Whether nothing ends the search but ``stop`` or the deepest depth (a bare ``go``)."""
        return (self.depth is None and self.nodes is None and self.movetime is None
                and self.wtime is None and self.btime is None and self.mate is None)

    def clock(self, white: bool) -> tuple[int | None, int]:
        """The side to move's clock and increment in milliseconds (clock ``None``: none)."""
        time, increment = (self.wtime, self.winc) if white else (self.btime, self.binc)
        return time, increment or 0


def tokens_of(line: str) -> list[str]:
    """A line's tokens: any run of whitespace separates them."""
    return line.split()


def parse_position(tokens: list[str]) -> PositionCommand:
    """The tokens after ``position``."""
    if not tokens:
        raise UciInputError("position: startpos or fen FEN expected")
    head, rest = tokens[0], tokens[1:]
    if head == "startpos":
        fen = None
        after = rest
    elif head == "fen":
        fields = rest[:rest.index("moves")] if "moves" in rest else rest
        if not fields:
            raise UciInputError("position fen: no FEN given")
        fen = " ".join(fields)
        after = rest[len(fields):]
    else:
        raise UciInputError(f"position: startpos or fen expected, not {head!r}")
    if after and after[0] != "moves":
        raise UciInputError(f"position: 'moves' expected, not {after[0]!r}")
    return PositionCommand(fen, tuple(after[1:]))


def parse_go(tokens: list[str]) -> tuple[GoCommand, list[str]]:
    """The tokens after ``go``, and a line of each token ignored (the spec: an unknown
    token is skipped)."""
    numbers: dict[str, int] = {}
    flags: set[str] = set()
    searchmoves: list[str] = []
    ignored: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token in GO_NUMBERS:
            if index >= len(tokens):
                raise UciInputError(f"go {token}: a number expected")
            numbers[token] = _number(token, tokens[index])
            index += 1
        elif token in GO_FLAGS:
            flags.add(token)
        elif token == "searchmoves":
            while index < len(tokens) and tokens[index] not in (*GO_NUMBERS, *GO_FLAGS):
                searchmoves.append(tokens[index])
                index += 1
        else:
            ignored.append(f"go: {token!r} ignored (not a go parameter)")
    if "depth" in numbers and numbers["depth"] < 1:
        numbers["depth"] = 1                    # depth 0 still gives a move: one ply
    if "mate" in numbers and numbers["mate"] < 1:
        raise UciInputError(f"go mate {numbers['mate']}: must be at least 1")
    if "movestogo" in numbers and numbers["movestogo"] < 1:
        raise UciInputError(f"go movestogo {numbers['movestogo']}: must be at least 1")
    go = GoCommand(**numbers, infinite="infinite" in flags, ponder="ponder" in flags,
                   searchmoves=tuple(searchmoves))
    return go, ignored


def _number(name: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UciInputError(f"go {name} {text!r}: not a whole number") from None
    if value < 0 and name not in SIGNED:
        raise UciInputError(f"go {name} {value}: must be at least 0")
    return value


def parse_setoption(tokens: list[str]) -> tuple[str, str | None]:
    """The tokens after ``setoption``: ``name NAME [value VALUE]``, each of several words;
    the value ``None`` when absent (a button)."""
    if not tokens or tokens[0] != "name":
        raise UciInputError("setoption: 'name NAME [value VALUE]' expected")
    rest = tokens[1:]
    cut = rest.index("value") if "value" in rest else len(rest)
    name = " ".join(rest[:cut])
    if not name:
        raise UciInputError("setoption: no option name")
    return name, " ".join(rest[cut + 1:]) if cut < len(rest) else None


@dataclass(frozen=True)
class UciOption:
    """One option the engine declares (``option name ... type ...``) and accepts."""

    name: str
    """Its name as the GUI shows it (matched without regard to case)."""
    kind: str
    """``check``, ``spin``, ``combo`` or ``string``."""
    default: str
    """Its default as UCI writes it (``true``, ``0``, ``pvs``, ``<empty>`` for an empty
    string)."""
    minimum: int = 0
    """A spin's least value."""
    maximum: int = 0
    """A spin's greatest value."""
    choices: tuple[str, ...] = ()
    """A combo's values."""
    about: str = ""
    """What it does, one line (docs/uci.md; never sent: UCI has no place for it)."""

    def line(self) -> str:
        """The ``option`` line of the reply to ``uci``."""
        text = f"option name {self.name} type {self.kind} default {self.default}"
        if self.kind == "spin":
            text += f" min {self.minimum} max {self.maximum}"
        for choice in self.choices:
            text += f" var {choice}"
        return text

    def checked(self, value: str | None) -> str:
        """``value`` as this option holds it, or :class:`UciInputError` with the reason."""
        given = "" if value is None else value.strip()
        if self.kind == "check":
            if given.lower() not in ("true", "false"):
                raise UciInputError(f"option {self.name}: true or false, not {given!r}")
            return given.lower()
        if self.kind == "spin":
            try:
                number = int(given)
            except ValueError:
                raise UciInputError(f"option {self.name}: a whole number, not {given!r}") from None
            if not self.minimum <= number <= self.maximum:
                raise UciInputError(f"option {self.name}: {number} is outside "
                                    f"{self.minimum} to {self.maximum}")
            return str(number)
        if self.kind == "combo":
            match = next((c for c in self.choices if c.lower() == given.lower()), None)
            if match is None:
                raise UciInputError(f"option {self.name}: one of {', '.join(self.choices)}, "
                                    f"not {given!r}")
            return match
        return "" if given == "<empty>" else given


def find_option(options: tuple[UciOption, ...], name: str) -> UciOption:
    """The option named ``name`` (any case), or :class:`UciInputError`."""
    match = next((o for o in options if o.name.lower() == name.strip().lower()), None)
    if match is None:
        raise UciInputError(f"no option {name!r} (the reply to 'uci' lists them)")
    return match


def uci_score(score: int) -> str:
    """A harness chess score (centipawns from the side to move; a mate ``p`` plies away
    ``MATE - p``, mated ``-(MATE - p)``) as UCI writes it: ``cp 35``, ``mate 3`` (moves, the
    side to move mating), ``mate -2`` (mated)."""
    distance = MATE - abs(score)
    if distance > MATE_LINES:
        return f"cp {score}"
    moves = (distance + 1) // 2
    return f"mate {moves if score > 0 else -moves}"


@dataclass(frozen=True)
class Iteration:
    """One finished search of ``go``'s deepening, as an ``info`` line reports it."""

    depth: int
    """The depth searched."""
    score: int | None
    """Its score for the side to move (``None``: none, a terminal root)."""
    bound: str
    """``exact``, ``lower`` or ``upper``."""
    best_move: str
    """Its best move (UCI); empty at a terminal root."""
    pv: tuple[str, ...]
    """Its principal variation."""
    nodes: int
    """Nodes and quiescence nodes of every search of this ``go`` finished so far."""
    milliseconds: int
    """Wall time since ``go``."""
    counters: tuple[tuple[str, int], ...] = ()
    """The finished search's own counters that are not 0 (the ``info string`` line)."""


def info_line(iteration: Iteration) -> str:
    """``info depth D score cp C nodes N nps X time MS pv ...``."""
    parts = [f"info depth {iteration.depth}"]
    if iteration.score is not None:
        parts.append(f"score {uci_score(iteration.score)}")
        if iteration.bound in ("lower", "upper"):
            parts.append(f"{iteration.bound}bound")
    nps = iteration.nodes * 1000 // max(1, iteration.milliseconds)
    parts.append(f"nodes {iteration.nodes} nps {nps} time {iteration.milliseconds}")
    if iteration.pv:
        parts.append("pv " + " ".join(iteration.pv))
    return " ".join(parts)


def counters_line(iteration: Iteration) -> str:
    """``info string depth D counters name=value ...``: the harness's own counters of the
    depth's search, those not 0."""
    counted = " ".join(f"{name}={value}" for name, value in iteration.counters)
    return f"info string depth {iteration.depth} counters {counted or '(all 0)'}"
