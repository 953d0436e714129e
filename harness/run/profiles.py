"""Search profiles: named configurations of the frame's switches and the games' options
(``--profile classic``, ``--profile modern``), and the enhancements they are made of.

An :class:`Enhancement` is one named change to a configuration: a field of
:class:`~harness.search.run.Switches`, or an option of one game (chess's ``killers``), with
its value on and off. A :class:`Profile` is a list of enhancements switched on over the
frame's defaults. ``harness ablate`` takes a profile apart by
these same records: each enhancement removed alone, or added alone to the bare base.

A new switch joins the modern profile, and so every ablation of it, by one line: its
:class:`Enhancement` in :data:`ENHANCEMENTS` and its name in ``MODERN``'s list below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from harness.errors import HarnessError
from harness.games.base import FEATURES
from harness.options import OptionValue
from harness.search.run import Switches

MODERN_TABLE = 1 << 20
"""Entries of the modern profile's table (2^20, about a million)."""


@dataclass(frozen=True)
class Enhancement:
    """One named change to a search configuration: a frame switch or a game's option."""

    name: str
    """What the command line and ``ablation.csv`` call it (``null-move``)."""
    field: str
    """The :class:`Switches` field it sets, or (with ``game``) the game's option key."""
    on: Any
    """The field's value with the enhancement."""
    off: Any
    """The field's value without it (the bare configuration's)."""
    what: str
    """What it does, in one line."""
    source: str
    """Where it comes from (the literature, an engine)."""
    game: str = ""
    """The game whose option it is (``chess``); empty for a frame switch, offered by every
    game unless ``feature`` says otherwise."""
    feature: str = ""
    """The frame feature (a key of :data:`harness.games.base.FEATURES`) a game's trees must
    offer for the switch to do anything; empty: every game's trees."""
    needs: str = ""
    """Another enhancement without which this one does nothing (the hash move needs the
    table): added with it to the bare base, and named beside it."""

    def offered_by(self, game: str, features: frozenset[str], options: Mapping[str, object]) -> bool:
        """Whether a game (its name, the features its trees offer, its options) can use it."""
        if self.game:
            return game == self.game and self.field in options
        return not self.feature or self.feature in features

    def setting(self, on: bool) -> dict[str, Any]:
        """The change as ``run.json`` records it: where, and the value."""
        where = f"{self.game}:{self.field}" if self.game else f"switches.{self.field}"
        return {"field": where, "value": self.on if on else self.off}


ENHANCEMENTS: tuple[Enhancement, ...] = (
    Enhancement("iterative-deepening", "iterative_deepening", True, False,
                "search depths 1, 2, ..., d in turn, each seeding the next (its table, its "
                "ordering)", "Slate and Atkin, CHESS 4.5 (1977)"),
    Enhancement("tt", "tt_size", MODERN_TABLE, 0,
                f"a transposition table of {MODERN_TABLE:,} entries: bounds by position, cut-offs "
                "on a deep enough entry", "Greenblatt et al. (1967); Marsland, Campbell (1982)"),
    Enhancement("hash-move", "hash_move", True, False,
                "the table's best move searched first", "Marsland (1986), Schaeffer (1989)",
                needs="tt"),
    Enhancement("killers", "killers", True, False,
                "two killer moves a ply after the captures", "Akl and Newborn (1977)",
                game="chess"),
    Enhancement("history", "history", True, False,
                "quiet moves by their history score", "Schaeffer (1983, 1989)", game="chess"),
    Enhancement("null-move", "null_move", 2, 0,
                "a null move searched with reduction R=2 (not after a null move in either of "
                "the previous two plies: the frame's null_rule)",
                "Beal (1989), Donninger (1993)", feature="null_move"),
    Enhancement("refutations", "refutations", True, False,
                "each root move's refuting line from the previous iteration searched first "
                "below it where a node has no hash move", "Akl and Newborn (1977), Schaeffer "
                "(1989)", needs="iterative-deepening"),
    Enhancement("check-extension", "check_extension", True, False,
                "one ply deeper when the side to move is in check", "Chess Programming Wiki, "
                "Check Extensions", feature="check_extension"),
    Enhancement("repetition", "repetition", True, False,
                "repetitions of the path or the game, and the fifty-move rule, scored as draws",
                "Chess Programming Wiki, Repetitions; Stockfish's is_draw", game="chess"),
    Enhancement("qsee", "qsee", True, False,
                "captures losing material by static exchange not searched in quiescence",
                "Chess Programming Wiki, Static Exchange Evaluation; Fruit, Stockfish",
                game="chess"),
    Enhancement("delta", "delta", True, False,
                "captures that cannot bring stand-pat within 200 of alpha not searched in "
                "quiescence (not in the endgame)", "Chess Programming Wiki, Delta Pruning; "
                "Toga II (Delta Pruning)", game="chess"),
    Enhancement("qchecks", "qchecks", True, False,
                "quiet checks searched at the horizon, every evasion below them",
                "Chess Programming Wiki, Quiescence Search (checks)", game="chess"),
    Enhancement("lmr", "selectivity.late_move_reductions", True, False,
                "quiet late moves at prunable nodes searched shallower, again at full depth "
                "if they do not fail low (docs/selective.md)",
                "Fruit 2.1, Toga II (history pruning); Glaurung, Stockfish",
                feature="selectivity"),
    Enhancement("lmp", "selectivity.late_move_pruning", True, False,
                "quiet moves after the game's move count not searched at shallow prunable "
                "nodes", "Stockfish (move-count pruning)", feature="selectivity"),
    Enhancement("futility", "selectivity.futility", True, False,
                "quiet moves at shallow prunable nodes that cannot reach alpha by the game's "
                "margin not searched", "Heinz (1998), extended futility pruning",
                feature="selectivity"),
    Enhancement("reverse-futility", "selectivity.reverse_futility", True, False,
                "a shallow prunable node whose static value beats beta by the margin answers it "
                "(static null move)", "Chess Programming Wiki, Reverse Futility Pruning",
                feature="selectivity"),
    Enhancement("razoring", "selectivity.razoring", True, False,
                "a shallow prunable node far below alpha answers its quiescence value when that "
                "fails low", "Heinz (limited razoring); Glaurung, Stockfish",
                feature="selectivity"),
    Enhancement("iid", "selectivity.internal_iterative_deepening", True, False,
                "a node without a hash move searched two plies shallower first, its best move "
                "then searched first", "Fruit 2.1, Toga II", needs="tt"),
    Enhancement("mate-distance", "selectivity.mate_distance", True, False,
                "the window narrowed to the mate scores still possible at the node's ply",
                "Chess Programming Wiki, Mate Distance Pruning", feature="selectivity"),
)
"""Every enhancement a profile may hold, by name. A new selective switch is one record
here (and its name in the modern profile's list)."""

BY_NAME = {enhancement.name: enhancement for enhancement in ENHANCEMENTS}


def find_enhancement(name: str) -> Enhancement:
    """The enhancement called ``name``; one line naming the known ones if none is."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise HarnessError(f"unknown enhancement {name!r} (known: "
                           f"{', '.join(BY_NAME)})") from None


for _enhancement in ENHANCEMENTS:
    if _enhancement.feature and _enhancement.feature not in FEATURES:
        raise AssertionError(f"{_enhancement.name}: no frame feature {_enhancement.feature!r}")
    if not _enhancement.game and _enhancement.field.partition(".")[0] not in Switches.__dataclass_fields__:
        raise AssertionError(f"{_enhancement.name}: Switches has no field {_enhancement.field!r}")


@dataclass(frozen=True)
class Configuration:
    """What a search runs with beyond its variant: the frame's switches and the options
    each game's problems take."""

    switches: Switches
    """The frame's switches, in full."""
    game_options: Mapping[str, Mapping[str, str]]
    """Options added to each game's problem sets (game -> key -> value as text), unless a
    problem set's name sets them itself."""

    def as_json(self) -> dict[str, Any]:
        switches = asdict(self.switches)
        switches["window"] = None if self.switches.window is None else list(self.switches.window)
        return {"switches": switches,
                "game_options": {game: dict(options) for game, options in self.game_options.items()}}


def with_enhancements(enhancements: tuple[Enhancement, ...], base: Configuration,
                      on: bool = True) -> Configuration:
    """``base`` with each of ``enhancements`` switched on (or off)."""
    switches = base.switches
    options = {game: dict(values) for game, values in base.game_options.items()}
    for enhancement in enhancements:
        value = enhancement.on if on else enhancement.off
        if enhancement.game:
            options.setdefault(enhancement.game, {})[enhancement.field] = option_text(value)
        elif enhancement.field.startswith("selectivity."):
            switches = replace(switches, selectivity=replace(
                switches.selectivity, **{enhancement.field.partition(".")[2]: value}))
        else:
            switches = replace(switches, **{enhancement.field: value})
    return Configuration(switches, options)


def option_text(value: OptionValue) -> str:
    """A game option's value as a problem set's name writes it (``killers=1``)."""
    return str(int(value)) if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Profile:
    """A named search configuration: enhancements switched on over the bare one."""

    name: str
    """What ``--profile`` calls it."""
    description: str
    """What it is, in one line."""
    enhancements: tuple[Enhancement, ...]
    """The enhancements it switches on over the frame's defaults (``Switches()``, each
    game's own options), in the order an ablation lists them."""

    @property
    def configuration(self) -> Configuration:
        """Its switches and game options, in full."""
        return with_enhancements(self.enhancements, Configuration(Switches(), {}))

    @property
    def bare(self) -> Configuration:
        """Its configuration with every one of its enhancements off: ablate's bare base."""
        return with_enhancements(self.enhancements, self.configuration, on=False)

    def record(self) -> dict[str, Any]:
        """What ``run.json`` records of it: every switch's value, the game options it sets,
        the enhancements it is made of."""
        return {"name": self.name, **self.configuration.as_json(),
                "enhancements": [e.name for e in self.enhancements]}


MODERN = ("iterative-deepening", "tt", "hash-move", "killers", "history", "null-move",
          "check-extension", "repetition", "qsee", "delta", "qchecks", "lmr", "lmp",
          "futility", "reverse-futility", "razoring", "iid", "mate-distance")
"""The modern profile's enhancements: a new switch joins it (and every ablation) here."""

PROFILES: tuple[Profile, ...] = (
    Profile("classic", "today's defaults, the literature's object: full width, no table, "
            "captures first (MVV-LVA), quiescence", ()),
    Profile("modern", "a tournament program's search: " + ", ".join(MODERN),
            tuple(BY_NAME[name] for name in MODERN)),
)
"""Every profile, as a plain list."""


def find_profile(name: str) -> Profile:
    """The profile called ``name``; one line naming the known ones if none is."""
    for profile in PROFILES:
        if profile.name == name:
            return profile
    raise HarnessError(f"unknown profile {name!r} (known: "
                       f"{', '.join(p.name for p in PROFILES)})")
