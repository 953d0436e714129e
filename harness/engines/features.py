"""The search features real engines switch through UCI options, by the harness's names for
them (the enhancements of ``harness/run/profiles.py``: ``null-move``, ``lmr``,
``futility``, ...): which option settings turn each off, and on, in each program that can.
``harness ablate --engine`` reads this registry to take an engine apart as it takes the
modern profile apart.

Every option name and value here is the engine's own, copied from its answer to ``uci``
(GNU Chess 6.2.7, Toga II 3.0, Glaurung 2.2 as Debian packages them); a run checks each
against what the engine offers before anything is searched (:func:`check_offered`). Where
the engine's feature is not quite the harness's, the record's note says how.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from harness.errors import HarnessError


@dataclass(frozen=True)
class OptionSetting:
    """One UCI option a feature is switched with, and its two values."""

    option: str
    """The option's name as the engine spells it (``NullMove Pruning``)."""
    off: str
    """Its value with the feature off (``Never``)."""
    on: str
    """Its value with the feature on: the engine's default unless the record's note says
    otherwise."""


@dataclass(frozen=True)
class EngineFeature:
    """One search feature of one engine program, switched through its UCI options."""

    program: str
    """The program, as its ``id name`` begins (``Toga II``): how a running engine is matched
    to its records."""
    feature: str
    """The harness's name for the feature: an enhancement of ``harness/run/profiles.py``
    (``null-move``)."""
    settings: tuple[OptionSetting, ...]
    """The options that switch it, all set together (Glaurung sets a feature apart at PV
    and non-PV nodes)."""
    note: str = ""
    """How the engine's feature differs from the harness's, or its default from on; empty
    when it is the same idea."""

    def spec_options(self, on: bool) -> tuple[tuple[str, str], ...]:
        """The settings as an engine spec's ``Option=Value`` pairs, the feature on or off."""
        return tuple((s.option, s.on if on else s.off) for s in self.settings)


FRUIT_HISTORY = ("Fruit's \"history pruning\": a quiet late move whose history score is "
                 "below the threshold is searched one ply shallower at non-PV nodes, again at "
                 "full depth if it fails high -- a late-move reduction chosen by history, so "
                 "it is compared with the harness's lmr (the harness's history enhancement "
                 "orders moves and prunes nothing)")
"""What GNU Chess 6 and Toga II (both Fruit 2.1's descendants) call history pruning."""

QUIESCENCE_CHECKS = ("quiet checks searched at the first ply of quiescence (0: none), as the "
                     "harness's qchecks at the horizon")
"""What GNU Chess's and Toga II's ``Quiescence Check Plies`` switch."""

ENGINE_FEATURES: tuple[EngineFeature, ...] = (
    EngineFeature("GNU Chess", "null-move", (OptionSetting("NullMove Pruning", "Never",
                                                           "Fail High"),),
                  "R=3 (the harness's R=2), tried only where the static value is at least "
                  "beta ('Fail High', its default), verified in endgames"),
    EngineFeature("GNU Chess", "lmr", (OptionSetting("History Pruning", "false", "true"),),
                  FRUIT_HISTORY),
    EngineFeature("GNU Chess", "futility", (OptionSetting("Futility Pruning", "false", "true"),),
                  "off by default in GNU Chess: its base here switches it on (margin 100 at "
                  "the last ply)"),
    EngineFeature("GNU Chess", "delta", (OptionSetting("Delta Pruning", "false", "true"),),
                  "off by default in GNU Chess: its base here switches it on (margin 50)"),
    EngineFeature("GNU Chess", "qchecks", (OptionSetting("Quiescence Check Plies", "0", "1"),),
                  QUIESCENCE_CHECKS),
    EngineFeature("Toga II", "null-move", (OptionSetting("NullMove Pruning", "Never",
                                                         "Always"),),
                  "R=3 (the harness's R=2), verified by a reduced search (its default "
                  "'Verification Search=Always')"),
    EngineFeature("Toga II", "lmr", (OptionSetting("History Pruning", "false", "true"),),
                  FRUIT_HISTORY),
    EngineFeature("Toga II", "futility", (OptionSetting("Futility Pruning", "false", "true"),),
                  "at the last two plies (margins 100 and 200: extended futility)"),
    EngineFeature("Toga II", "delta", (OptionSetting("Delta Pruning", "false", "true"),),
                  "margin 50 (the harness's 200)"),
    EngineFeature("Toga II", "qchecks", (OptionSetting("Quiescence Check Plies", "0", "1"),),
                  QUIESCENCE_CHECKS),
    EngineFeature("Glaurung", "lmr", (
        OptionSetting("Full Depth Moves (PV nodes)", "100", "14"),
        OptionSetting("Full Depth Moves (non-PV nodes)", "100", "3")),
                  "off: the first 100 moves of every node searched at full depth (the "
                  "options' largest value; no position here has more moves)"),
    EngineFeature("Glaurung", "futility", (OptionSetting("Futility Pruning (Main Search)",
                                                         "false", "true"),),
                  "in the main search at shallow non-PV nodes (margins from 50, growing with "
                  "depth)"),
    EngineFeature("Glaurung", "delta", (OptionSetting("Futility Pruning (Quiescence Search)",
                                                      "false", "true"),),
                  "Glaurung's futility pruning in the quiescence search: delta pruning by "
                  "another name"),
    EngineFeature("Glaurung", "razoring", (OptionSetting("Maximum Razoring Depth", "0", "3"),),
                  "at depths up to 3 (margin 300)"),
    EngineFeature("Glaurung", "check-extension", (
        OptionSetting("Check Extension (PV nodes)", "0", "2"),
        OptionSetting("Check Extension (non-PV nodes)", "0", "1")),
                  "Glaurung extends in half plies: a full ply at PV nodes, half a ply "
                  "elsewhere (the harness: a full ply everywhere)"),
)
"""Every feature an engine switches, by program. A new program is its records here."""

PROGRAMS = tuple(dict.fromkeys(record.program for record in ENGINE_FEATURES))
"""The programs the registry knows, in its order."""


def features_of(id_name: str) -> tuple[EngineFeature, ...]:
    """The records of the program whose ``id name`` is ``id_name`` (none: unknown)."""
    return tuple(record for record in ENGINE_FEATURES if id_name.startswith(record.program))


def check_offered(engine: str, id_name: str, records: tuple[EngineFeature, ...],
                  offered: Mapping[str, Any]) -> None:
    """Refuse, in one line, a record whose option the running engine (``engine``, its
    ``id name``) does not offer (``offered``: its options by name, as python-chess reads
    them), or whose value it cannot take."""
    for record in records:
        for setting in record.settings:
            option = offered.get(setting.option)
            if option is None:
                raise HarnessError(f"engine {engine} ({id_name}): offers no option "
                                   f"{setting.option!r}, which switches {record.feature} in "
                                   f"{record.program} (another version?); leave "
                                   f"{record.feature} out with --enhancements")
            for value in (setting.off, setting.on):
                if not _takes(option, value):
                    raise HarnessError(f"engine {engine} ({id_name}): option {setting.option} "
                                       f"does not take {value!r}, which switches "
                                       f"{record.feature} in {record.program}")


def _takes(option: Any, value: str) -> bool:
    """Whether a ``chess.engine.Option`` takes ``value`` (as the session would give it)."""
    if option.type == "check":
        return value.lower() in ("true", "false")
    if option.type == "spin":
        try:
            number = int(value)
        except ValueError:
            return False
        return (option.min is None or number >= option.min) and \
            (option.max is None or number <= option.max)
    if option.type == "combo":
        return value in list(option.var or ())
    return bool(option.type == "string")
