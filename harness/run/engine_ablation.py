"""``harness ablate --engine``: a real engine taken apart as the modern profile is. The
engine is started once to learn what it is (its ``id name``) and what it offers; the
registry of :mod:`harness.engines.features` says which of its UCI options switch which of
the harness's enhancements. Its base is the engine as specified with every chosen feature
on; each other configuration switches one feature off. Each is a run of the engine alone
(the engine's rows, :mod:`harness.run.engine_job`), compared by :mod:`harness.run.ablation`
exactly as the profile's configurations are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from harness.engines.features import (
    PROGRAMS,
    EngineFeature,
    check_offered,
    features_of,
)
from harness.engines.session import EngineSession
from harness.engines.spec import EngineSpec, parse_engine
from harness.errors import HarnessError
from harness.games.registry import parse_problem_name
from harness.report.ablation import Arm
from harness.run.profiles import find_enhancement


@dataclass(frozen=True)
class EngineArm:
    """One configuration of an engine's ablation: how its table reads it, and the engine
    spec its run searches with."""

    arm: Arm
    """Its name, change and sets."""
    engine: str
    """The engine's spec with the arm's options (``toga=toga2,History Pruning=false``)."""


@dataclass(frozen=True)
class EngineAblation:
    """What the engine of an ablation is, and the configurations made of it."""

    id_name: str
    """The engine's ``id name`` (its program and version)."""
    features: tuple[EngineFeature, ...]
    """The registry's records ablated, in the registry's order."""
    arms: tuple[EngineArm, ...]
    """The base (every feature on), then one configuration per feature switched off."""


def plan_engine_ablation(engine: str, problems: Sequence[str],
                         only: Sequence[str] = ()) -> EngineAblation:
    """The configurations of the ablation of ``engine`` (a spec) on ``problems`` (chess
    sets), ``only`` the features named (empty: every one the engine switches): checked, the
    engine started once, before anything is searched."""
    spec = parse_engine(engine)
    for text in problems:
        game = parse_problem_name(text).game
        if game.name != "chess":
            raise HarnessError(f"--engine {spec.name}: UCI engines search chess positions, and "
                               f"{text} holds {game.name} problems")
    for name in only:
        find_enhancement(name)
    session = EngineSession(spec)
    try:
        id_name, offered = session.id_name, dict(session.offered)
    finally:
        session.close()
    known = features_of(id_name)
    if not known:
        raise HarnessError(f"engine {spec.name} ({id_name or 'no id name'}): the harness knows no "
                           "UCI option that switches a search feature in it (it knows "
                           f"{', '.join(PROGRAMS)}: harness/engines/features.py)")
    names = [record.feature for record in known]
    for name in only:
        if name not in names:
            raise HarnessError(f"engine {spec.name} ({id_name}): cannot switch {name} (it "
                               f"switches: {', '.join(names)})")
    chosen = tuple(record for record in known if not only or record.feature in only)
    check_offered(spec.name, id_name, chosen, offered)
    _refuse_overlap(spec, chosen)
    every_on = tuple(pair for record in chosen for pair in record.spec_options(on=True))
    sets = tuple(problems)
    arms = [EngineArm(Arm("base", "base", "", "", sets, _detail(id_name, every_on)),
                      _with_options(spec, every_on))]
    for record in chosen:
        off = dict(record.spec_options(on=False))
        options = tuple((key, off.get(key, value)) for key, value in every_on)
        arms.append(EngineArm(
            Arm(f"no-{record.feature}", "removed", record.feature, "base", sets,
                "; ".join(f"{key}={value}" for key, value in off.items())),
            _with_options(spec, options)))
    return EngineAblation(id_name, chosen, tuple(arms))


def _refuse_overlap(spec: EngineSpec, chosen: Sequence[EngineFeature]) -> None:
    """Refuse a spec that sets an option the ablation switches itself."""
    given = {key.lower() for key, _ in spec.options}
    for record in chosen:
        for setting in record.settings:
            if setting.option.lower() in given:
                raise HarnessError(f"--engine {spec.name}: sets {setting.option}, which the "
                                   f"ablation switches itself ({record.feature}); drop it")


def _with_options(spec: EngineSpec, options: Sequence[tuple[str, str]]) -> str:
    """``spec``'s text with ``options`` after its own."""
    return EngineSpec(spec.name, spec.command, (*spec.options, *options)).text


def _detail(id_name: str, options: Sequence[tuple[str, str]]) -> str:
    return f"{id_name}: " + "; ".join(f"{key}={value}" for key, value in options)
