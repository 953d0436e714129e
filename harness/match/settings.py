"""A match's configuration and its result, as values: what ``harness match`` plays and
what it found. A leaf of the package: :mod:`harness.match.match` plays a match and
:mod:`harness.match.summary` writes its report, and both read these (before, each imported
the other)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from harness.engines.spec import EngineSpec
from harness.errors import HarnessError
from harness.match.calibrate import Calibration, Prediction
from harness.match.engine_side import ENGINE_TIMEOUT
from harness.match.ladder import Placement, Rung
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
    ladder: tuple[int, ...] = ()
    """The calibration ladder's rungs: the ladder engine's nodes a move, rising
    (:mod:`harness.match.ladder`); empty: no ladder."""
    ladder_engine: EngineSpec | None = None
    """The ladder's engine (``None``: no ladder)."""
    engine_timeout: float = ENGINE_TIMEOUT
    """Seconds the ladder engine's move may take (an engine side carries its own)."""

    def __post_init__(self) -> None:
        if self.calibrate and self.link_depth < 2:
            raise HarnessError(f"--calibrate needs --link-depth 2 or more (the branching "
                               f"factor), not {self.link_depth}")
        engine = next((s for s in self.sides if s.engine is not None), None)
        if self.calibrate and engine is not None:
            raise HarnessError(f"--calibrate measures the node ratio of two of the harness's "
                               f"sides, and side {engine.label} is a UCI engine (its nodes are "
                               "another program's): use --ladder to place A on an engine's scale")
        if bool(self.ladder) != (self.ladder_engine is not None):
            raise HarnessError("a ladder needs its rungs and its engine")
        if any(nodes < 1 for nodes in self.ladder) or list(self.ladder) != sorted(set(self.ladder)):
            raise HarnessError(f"--ladder {','.join(map(str, self.ladder))}: node budgets above 0, "
                               "each once, rising (e.g. 1000,4000,16000)")

    @property
    def engine_sides(self) -> list[str]:
        """``A`` and/or ``B``: the sides a UCI engine plays."""
        return [name for name, side in zip("AB", self.sides, strict=True)
                if side.engine is not None]

    def as_json(self) -> dict[str, Any]:
        """The configuration as ``run.json`` keeps it (:func:`config_from_json` reads it)."""
        return {"sides": [{"label": s.label, "switches": _switches_json(s.switches),
                           "profile": s.profile,
                           "game_options": [list(option) for option in s.game_options],
                           "engine": None if s.engine is None else s.engine.as_dict(),
                           "engine_timeout": s.engine_timeout}
                          for s in self.sides],
                "problems": self.problems, "budget": asdict(self.budget),
                "rules": asdict(self.rules), "sprt": asdict(self.sprt), "games": self.games,
                "link_depth": self.link_depth, "calibrate": self.calibrate,
                "ladder": list(self.ladder),
                "ladder_engine": None if self.ladder_engine is None else self.ladder_engine.as_dict(),
                "engine_timeout": self.engine_timeout}


def _switches_json(switches: Switches) -> dict[str, Any]:
    values = asdict(switches)
    values["window"] = None if switches.window is None else list(switches.window)
    return values


def config_from_json(data: dict[str, Any]) -> MatchConfig:
    """The configuration ``run.json`` recorded."""
    def side(item: dict[str, Any]) -> Side:
        return Side(item["label"], switches_from_json(item["switches"]), item.get("profile", ""),
                    tuple((str(g), str(k), str(v)) for g, k, v in item.get("game_options", ())),
                    _engine(item.get("engine")), float(item.get("engine_timeout", ENGINE_TIMEOUT)))

    try:
        return MatchConfig((side(data["sides"][0]), side(data["sides"][1])), data["problems"],
                           Budget(**data["budget"]), Rules(**data["rules"]), Sprt(**data["sprt"]),
                           data["games"], data["link_depth"], data["calibrate"],
                           tuple(int(n) for n in data.get("ladder", ())),
                           _engine(data.get("ladder_engine")),
                           float(data.get("engine_timeout", ENGINE_TIMEOUT)))
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise HarnessError(f"{RUN_FILE}: not a match's configuration ({exc})") from None


def _engine(item: dict[str, Any] | None) -> EngineSpec | None:
    """An engine as :meth:`EngineSpec.as_dict` recorded it."""
    if item is None:
        return None
    return EngineSpec(str(item["name"]), tuple(str(w) for w in item["command"]),
                      tuple((str(k), str(v)) for k, v in item["options"].items()))


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
    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What the check before the match found of each engine, by ``a``, ``b`` or
    ``ladder``: name, ``id name``, command, options set, limits, determinism."""
    warnings: list[str] = field(default_factory=list)
    """The engines' determinism warnings (the same search twice differed)."""
    ladder: list[Rung] = field(default_factory=list)
    """Side A against each rung of the calibration ladder (empty: no ladder)."""
    placement: Placement | None = None
    """Where side A sits on the ladder (``None``: no ladder)."""
