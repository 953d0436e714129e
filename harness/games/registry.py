"""Every game, as a plain list, ``find_game``, and problems named ``GAME:SPEC``.

``GAME:SPEC[,key=value...]``: the text after the colon is split at the commas that are not
inside parentheses (OpenSpiel's ``breakthrough(rows=6,columns=6)`` keeps its own); items
with ``=`` are the game's options, the rest is its spec. ``random:b=8,d=6,n=20`` is all
options; ``chess:wac.epd,killers=1`` a file and an option.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

from harness.errors import HarnessError
from harness.games.base import Game, ProblemSet
from harness.games.checkers.game import Checkers
from harness.games.chess.game import Chess
from harness.games.connect4.game import Connect4
from harness.games.openspiel.evaluations import PLUGIN_PROBLEMS as EVALUATION_PLUGIN_PROBLEMS
from harness.games.openspiel.game import OpenSpiel
from harness.games.othello.game import Othello
from harness.games.trees.game import RandomTrees, TreeFile
from harness.options import OptionValue, resolve
from harness.plugins import load_entry_points

GAMES: list[Game] = [Chess(), RandomTrees(), TreeFile(), OpenSpiel(), Connect4(), Othello(),
                     Checkers()]
"""The games, built in first, then those installed packages add."""

PLUGIN_GROUP = "harness.games"
"""The entry-point group through which an installed package adds games: each entry point
names a :class:`Game` instance or a list of them."""
PLUGIN_PROBLEMS: list[str] = [*EVALUATION_PLUGIN_PROBLEMS]
"""One line per game or evaluation plug-in that could not be added, naming its package."""


def find_game(name: str) -> Game:
    """The game called ``name``; the error lists the valid names."""
    for game in GAMES:
        if game.name == name:
            return game
    close = difflib.get_close_matches(name, [g.name for g in GAMES], n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise HarnessError(f"unknown game {name!r} ({hint}games: {', '.join(g.name for g in GAMES)}; "
                       "see harness games; a plug-in game is installed as a package first, "
                       "e.g. pip install -e examples/harness-nim, docs/plugins.md)")


@dataclass(frozen=True)
class ProblemName:
    """``GAME:SPEC[,key=value...]`` read."""

    game: Game
    """The game."""
    spec: str
    """What the game loads (may be empty: random trees are all options)."""
    options: tuple[tuple[str, OptionValue], ...]
    """Every option of the game, defaults included, the given ones read."""


def split_items(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [item.strip() for item in items]


def parse_problem_name(text: str) -> ProblemName:
    """Read ``GAME:SPEC[,key=value...]``."""
    name, colon, rest = text.partition(":")
    if not colon:
        raise HarnessError(f"--problems {text!r}: not GAME:SPEC (games: "
                           f"{', '.join(g.name for g in GAMES)})")
    game = find_game(name.strip())
    spec_items: list[str] = []
    given: dict[str, str] = {}
    for item in split_items(rest):
        key, eq, value = item.partition("=")
        if eq and "(" not in key:
            given[key.strip()] = value.strip()
        elif item:
            spec_items.append(item)
    options = resolve(f"{game.name}:{rest}", game.options, given)
    return ProblemName(game, ",".join(spec_items), options)


def with_defaults(text: str, defaults: Mapping[str, Mapping[str, str]]) -> str:
    """``text`` with the options ``defaults`` gives its game (game name -> key -> value)
    added where the text does not set them: the command line's ``--killers`` for every
    chess set, unless one says ``killers=0``."""
    name = text.partition(":")[0].strip()
    given = {item.partition("=")[0].strip() for item in split_items(text.partition(":")[2])
             if "=" in item and "(" not in item.partition("=")[0]}
    added = [f"{k}={v}" for k, v in defaults.get(name, {}).items() if k not in given]
    return ",".join([text, *added]) if added else text


def load_problems(text: str, skip_invalid: bool = False) -> ProblemSet:
    """The problem set ``GAME:SPEC`` names, loaded by its game (see :func:`parse_problem_name`);
    its record says which game and options."""
    named = parse_problem_name(text)
    found = named.game.load(named.spec, named.options, skip_invalid)
    found.record = {"game": named.game.name, "spec": named.spec,
                    "options": dict(named.options), **found.record}
    return found


def _mark(game: Game, package: str) -> Game:
    game.origin = package
    return game


# Last, so that a plug-in may import anything above from this module while it loads.
_plugins, _problems = load_entry_points(PLUGIN_GROUP, Game,  # type: ignore[type-abstract]
                                        (g.name for g in GAMES),
                                        lambda g: g.name, _mark)
GAMES += _plugins
PLUGIN_PROBLEMS += _problems
