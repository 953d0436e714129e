"""An engine as a run names it: ``NAME=COMMAND[,Option=Value...]``, parsed into a value,
its program found on ``PATH`` or in ``/usr/games`` (where Debian puts chess engines)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import HarnessError

GAMES_FOLDER = "/usr/games"
"""Where Debian and Ubuntu install chess engines: not on every user's ``PATH``."""

KNOWN_ENGINES = (
    ("stockfish", "stockfish"),
    ("gnuchess", "gnuchess --uci"),
    ("toga2", "toga2"),
    ("glaurung", "glaurung"),
    ("ethereal", "ethereal-chess"),
    ("fairy-stockfish", "fairy-stockfish"),
)
"""The UCI engines ``harness engines`` looks for, each with the command that makes it speak
UCI (GNU Chess needs ``--uci``): the ones Debian packages."""

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")
"""An engine's name: it is the ``variant`` of its rows, so no comma, colon or space."""


@dataclass(frozen=True)
class EngineSpec:
    """One engine of a run, as named on the command line."""

    name: str
    """What its rows of ``results.csv`` call it (their ``variant`` column)."""
    command: tuple[str, ...]
    """The program and its arguments (shell words), the program as given."""
    options: tuple[tuple[str, str], ...] = ()
    """UCI options set before the first search, as given (name, value), in order."""

    @property
    def text(self) -> str:
        """The spec as it would be given again: ``NAME=COMMAND[,Option=Value...]``."""
        options = "".join(f",{key}={value}" for key, value in self.options)
        return f"{self.name}={shlex.join(self.command)}{options}"

    def as_dict(self) -> dict[str, Any]:
        """What ``run.json`` and the configuration record of it."""
        return {"name": self.name, "command": list(self.command), "options": dict(self.options)}


def parse_engine(text: str) -> EngineSpec:
    """``NAME=COMMAND[,Option=Value...]`` as an :class:`EngineSpec`: the command is split as a
    shell would (quotes keep spaces), each option's name may hold spaces (``NullMove
    Pruning=Never``); bad input is one line naming the spec."""
    name, equals, rest = text.partition("=")
    name = name.strip()
    where = f"--engine {text!r}"
    if not equals or not name:
        raise HarnessError(f"{where}: not NAME=COMMAND[,Option=Value...] (e.g. "
                           "gnuchess='gnuchess --uci',Hash=16)")
    if not NAME.match(name):
        raise HarnessError(f"{where}: the name {name!r} may hold only letters, digits and "
                           "'_.+-' (it names the engine's rows)")
    command_text, *option_texts = rest.split(",")
    try:
        command = tuple(shlex.split(command_text))
    except ValueError as exc:
        raise HarnessError(f"{where}: the command is not shell words ({exc})") from None
    if not command:
        raise HarnessError(f"{where}: no command after {name}=")
    options: list[tuple[str, str]] = []
    for option in option_texts:
        key, is_set, value = option.partition("=")
        key, value = key.strip(), value.strip()
        if not is_set or not key:
            raise HarnessError(f"{where}: option {option!r} is not Option=Value")
        if any(key.lower() == seen.lower() for seen, _ in options):
            raise HarnessError(f"{where}: option {key} is given twice")
        options.append((key, value))
    return EngineSpec(name, command, tuple(options))


def parse_engines(texts: tuple[str, ...] | list[str]) -> list[EngineSpec]:
    """Every ``--engine`` of a run, their names distinct."""
    specs = [parse_engine(text) for text in texts]
    names = [spec.name for spec in specs]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise HarnessError(f"--engine: two engines are called {twice} (a name keys its rows): "
                           "name each once")
    return specs


def locate(program: str, path: str | None = None) -> str | None:
    """The file ``program`` runs: itself when it names a file (a path), else the first of
    that name on ``PATH`` (``path``: instead of the environment's) or in :data:`GAMES_FOLDER`
    that can be executed; ``None`` when there is none."""
    if os.sep in program:
        return program if Path(program).is_file() and os.access(program, os.X_OK) else None
    search = os.pathsep.join(filter(None, [path if path is not None else os.environ.get("PATH", ""),
                                           GAMES_FOLDER]))
    return shutil.which(program, path=search)


def resolved_command(spec: EngineSpec) -> list[str]:
    """``spec``'s command with its program found (:func:`locate`), or one line saying it
    was not."""
    found = locate(spec.command[0])
    if found is None:
        where = "" if os.sep in spec.command[0] else f" on PATH or in {GAMES_FOLDER}"
        raise HarnessError(f"engine {spec.name}: {spec.command[0]} not found{where} (Debian and "
                           "Ubuntu: apt-get install stockfish gnuchess toga2 glaurung)")
    return [found, *spec.command[1:]]
