"""A match's configuration and its result, as values: what ``harness match`` plays and
what it found. A leaf of the package: :mod:`harness.match.match` plays a match and
:mod:`harness.match.summary` writes its report, and both read these (before, each imported
the other)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from harness.errors import HarnessError
from harness.match.calibrate import Calibration, Prediction
from harness.match.link import Link
from harness.match.pairs import Progress
from harness.match.play import Budget, Rules, Side
from harness.match.stats import Sprt
from harness.results import RUN_FILE
from harness.search.run import Switches, switches_from_json

SCHEMA_VERSION = 2
"""Of a match's ``run.json`` (and its ``games.csv``): version 2 added each side's frame."""


@dataclass(frozen=True)
class MatchConfig:
    """Everything that decides a match's games and when it stops."""

    sides: tuple[Side, Side]
    """Side A and side B."""
    problems: str
    """The openings, ``GAME:SPEC`` (``chess:bench.epd``, ``connect4:FILE``)."""
    budget: Budget = field(default_factory=Budget)
    """What a side may spend on a move."""
    rules: Rules = field(default_factory=Rules)
    """Move limit and adjudication."""
    sprt: Sprt = field(default_factory=Sprt)
    """The test that may stop the match early."""
    games: int | None = None
    """The most games (rounded down to whole pairs); ``None``: each opening once as a pair."""
    link_depth: int = 3
    """The fixed depth of the agreement check and the node ratio (0: neither)."""
    calibrate: bool = False
    """Measure the Elo of a ply and predict the match's Elo from the node ratio
    (:mod:`harness.match.calibrate`; needs ``link_depth`` 2 or more)."""

    def __post_init__(self) -> None:
        if self.calibrate and self.link_depth < 2:
            raise HarnessError(f"--calibrate needs --link-depth 2 or more (the branching "
                               f"factor), not {self.link_depth}")

    def as_json(self) -> dict[str, Any]:
        """The configuration as ``run.json`` keeps it (:func:`config_from_json` reads it)."""
        return {"sides": [{"label": s.label, "switches": _switches_json(s.switches),
                           "profile": s.profile,
                           "game_options": [list(option) for option in s.game_options]}
                          for s in self.sides],
                "problems": self.problems, "budget": asdict(self.budget),
                "rules": asdict(self.rules), "sprt": asdict(self.sprt), "games": self.games,
                "link_depth": self.link_depth, "calibrate": self.calibrate}


def _switches_json(switches: Switches) -> dict[str, Any]:
    values = asdict(switches)
    values["window"] = None if switches.window is None else list(switches.window)
    return values


def config_from_json(data: dict[str, Any]) -> MatchConfig:
    """The configuration ``run.json`` recorded."""
    def side(item: dict[str, Any]) -> Side:
        return Side(item["label"], switches_from_json(item["switches"]), item.get("profile", ""),
                    tuple((str(g), str(k), str(v)) for g, k, v in item.get("game_options", ())))

    try:
        return MatchConfig((side(data["sides"][0]), side(data["sides"][1])), data["problems"],
                           Budget(**data["budget"]), Rules(**data["rules"]), Sprt(**data["sprt"]),
                           data["games"], data["link_depth"], data["calibrate"])
    except (KeyError, TypeError, IndexError) as exc:
        raise HarnessError(f"{RUN_FILE}: not a match's configuration ({exc})") from None


@dataclass
class MatchResult:
    """A finished (or stopped) match."""

    config: MatchConfig
    """What was played."""
    progress: Progress
    """The state after the last pair."""
    link: Link | None
    """The sides at a fixed depth (``None``: not searched)."""
    stopped: str
    """``H1``, ``H0`` (an SPRT bound), or ``games`` (the limit)."""
    cost: tuple[float | None, float | None] = (None, None)
    """Seconds per node (nodes and quiescence nodes) of each side over all its searches."""
    reasons: dict[str, int] = field(default_factory=dict)
    """Games by how they ended."""
    calibration: Calibration | None = None
    """Side A one ply deeper against itself (``None``: not asked for)."""
    prediction: Prediction | None = None
    """The Elo the node ratio predicts (``None``: not asked for, or a number missing)."""
    frames: tuple[str, str] = ("", "")
    """The frames each side's searches ran in (``+`` between several): its cost per node
    compares with the other's only when they are the same."""
