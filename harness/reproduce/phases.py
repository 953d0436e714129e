"""The two phases of a claim: exploration, on data that may have been looked at while the
rules were written, and confirmation, once per rules version, on held-out data the rules
name before the run.

A rules file (:mod:`.rules`) names, under ``phases``, each phase's data by dataset:
``chess`` (a suite's file name and a range of its positions, from 1), a seeded synthetic
dataset (``sweep``, ``pearl``, ``knuth-moore``: the trees' seed), ``connect4`` (Pons's
sets, each a range of positions); ``confirm`` is ``null`` when no held-out data exist, and
``held_out`` says why the confirmation data are what they are (or why there are none).
Outside the sealed rules, ``confirmations`` lists the confirmation runs kept so far: the
rules version, the digest of the data (:func:`data_digest`), the run and its date.

``--phase confirm`` measures every selected claim on its confirmation data and refuses
(:func:`check_held_out`) data that overlap what any claim's rules name as exploration data:
the same chess position (by its FEN), the same seed of a synthetic dataset. A claim's row is
confirmatory only when its rules name held-out data, its rules file is committed as it is
(frozen), and no confirmation run of the same data was recorded under another rules version
(rules written after a look at the data are exploration); else :func:`phase_of` says why
it is exploratory.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.chess.suite_files import find_suite
from harness.reproduce.analysis import ClaimInfo
from harness.reproduce.measure import Scale, chess_positions
from harness.reproduce.provenance import uncommitted
from harness.reproduce.rules import Rules

EXPLORE, CONFIRM = "explore", "confirm"
"""The phases: exploration (the default, and ``--quick``) and confirmation."""

PHASES = (EXPLORE, CONFIRM)
"""Every phase, as ``--phase`` takes them."""

PHASE_RULE = (
    "Phases: exploration may use any data and change the rules freely; a confirmation runs "
    "once per rules version on held-out data its rules name before the run, and only its "
    "verdict is the claim's verdict. A row of a confirmation run is exploratory, with the "
    "reason, when its rules name no held-out data, its rules file is not committed as it "
    "is, or the same data were measured under another rules version.")
"""The report's words on phases."""

SEEDED = ("knuth-moore", "pearl", "sweep", "stockman", "plaat-sss", "games", "schaeffer",
          "pvs-modern", "three-games-modern", "schaeffer-games")
"""The seeded datasets, each named by its seed (``games``: Plaat et al.'s three games,
whose seed names their position files and synthetic trees; ``schaeffer`` and
``pvs-modern``: claims 13's and 14's chess positions, a suite and a range each phase
names beside its seed: :func:`seeded_positions`; ``three-games-modern``: claim 15's
positions of the three games, as ``games`` names them; ``schaeffer-games``: claim 16's
Othello and checkers positions, likewise)."""


@dataclass(frozen=True)
class PhaseOf:
    """The phase a claim's row is recorded in, and why, when it is not the run's."""

    phase: str
    """:data:`EXPLORE` or :data:`CONFIRM`."""
    why: str = ""
    """Why a row of a confirmation run is exploratory (empty otherwise)."""


def data_of(rules: Rules, phase: str) -> Mapping[str, Any] | None:
    """The data ``rules`` name for ``phase`` (by dataset); ``None`` for a confirmation
    without held-out data."""
    phases: Mapping[str, Any] = rules.rules.get("phases") or {}
    if EXPLORE not in phases:
        raise HarnessError(f"{rules.path}: names no exploration data (rules.phases.explore)")
    found: Mapping[str, Any] | None = phases.get(phase)
    return found


def held_out_reason(rules: Rules) -> str:
    """Why the confirmation data are those (or why there are none), as the rules say it."""
    return str((rules.rules.get("phases") or {}).get("held_out", ""))


def data_digest(data: Mapping[str, Any]) -> str:
    """The sha256 of one phase's data as canonical JSON: a recorded confirmation run names
    its data by it."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def describe(data: Mapping[str, Any] | None) -> str:
    """One phase's data in words: ``wac.epd positions 31-180; sweep seed 1003``."""
    if data is None:
        return "none held out"
    parts = []
    for name, found in data.items():
        if name == "chess":
            first, last = found["positions"]
            parts.append(f"{found['suite']} positions {first}-{last}")
        elif name == "connect4":
            parts.append("Connect Four " + ", ".join(f"{s} positions {a}-{b}"
                                                     for s, (a, b) in found["sets"].items()))
        else:
            parts.append(f"{name} seed {found['seed']}")
    return "; ".join(parts)


def _merged(selected: Sequence[ClaimInfo], phase: str) -> dict[str, tuple[Any, str]]:
    """Each dataset's data in ``phase`` over the selected claims, with the file naming it
    (a claim without confirmation data names none: its datasets keep the scale's own, the
    exploration's sample, and its row says so). Claims that share a dataset must name the
    same data for it."""
    merged: dict[str, tuple[Any, str]] = {}
    for info in selected:
        if info.rules is None:
            continue
        for name, found in (data_of(info.rules, phase) or {}).items():
            if name in merged and merged[name][0] != found:
                raise HarnessError(
                    f"{info.rules.path}: its {phase} data for {name} ({json.dumps(found)}) are "
                    f"not those of {merged[name][1]} ({json.dumps(merged[name][0])}); claims "
                    "measured on one dataset name the same data")
            merged.setdefault(name, (found, info.rules.path))
    return merged


def suite_named(selected: Sequence[ClaimInfo], phase: str) -> str | None:
    """The chess suite the selected claims' rules name for ``phase`` (``None``: none names
    one, e.g. a confirmation without held-out chess data keeps the exploration's)."""
    found = _merged(selected, phase).get("chess")
    return None if found is None else str(found[0]["suite"])


def phase_scale(base: Scale, phase: str, selected: Sequence[ClaimInfo]) -> Scale:
    """The scale a run of ``phase`` measures: ``base`` (quick or full) with each dataset's
    data as the selected claims' rules name them for the phase: the chess positions'
    range (exploration keeps ``base``'s count from the rules' first position; confirmation
    takes the whole range), the synthetic datasets' seeds, Pons's sets."""
    merged = _merged(selected, phase)
    seeds = dict(base.seeds)
    for name in SEEDED:
        if name in merged:
            seeds[name] = int(merged[name][0]["seed"])
    scale = replace(base, seeds=tuple(sorted(seeds.items())))
    if "chess" in merged:
        first, last = (int(x) for x in merged["chess"][0]["positions"])
        count = last - first + 1 if phase == CONFIRM else min(base.chess_positions, last - first + 1)
        scale = replace(scale, chess_first=first, chess_positions=count)
    if "connect4" in merged and phase == CONFIRM:
        sets = merged["connect4"][0]["sets"]
        scale = replace(scale, connect4=tuple((name, int(b)) for name, (_a, b) in sets.items()))
    return scale


def _fens(suite: Path, first: int, count: int) -> list[str]:
    """The positions ``first`` to ``first + count - 1`` of ``suite`` (from 1) by their FEN
    (board, side, castling, en passant: what makes the position)."""
    return [" ".join(p.position.split()[:4]) for p in chess_positions(suite, first, count)]


def check_held_out(selected: Sequence[ClaimInfo], every: Sequence[ClaimInfo], scale: Scale,
                   suite: Path | None) -> None:
    """Refuse a confirmation run (one line) whose data overlap the exploration data of any
    claim's rules (``every``): a seed of a synthetic dataset used while exploring, a chess
    position explored (by FEN), or chess positions the found suite does not hold as the
    rules name them."""
    explored: dict[str, list[tuple[Any, str]]] = {}
    for info in every:
        if info.rules is not None:
            for name, found in (data_of(info.rules, EXPLORE) or {}).items():
                explored.setdefault(name, []).append((found, info.rules.path))
    measured = {name for info in selected if info.rules is not None
                and data_of(info.rules, CONFIRM) is not None
                for name in (data_of(info.rules, CONFIRM) or {})}
    seeds = dict(scale.seeds)
    for name in SEEDED:
        if name in measured:
            for found, path in explored.get(name, []):
                if int(found["seed"]) == seeds[name]:
                    raise HarnessError(f"--phase confirm: {name} seed {seeds[name]} is exploration "
                                       f"data ({path}); confirmation needs held-out data")
    if "chess" in measured and suite is not None:
        wanted = next(found for info in selected if info.rules is not None
                      for name, found in (data_of(info.rules, CONFIRM) or {}).items()
                      if name == "chess")
        _check_chess(scale, suite, str(wanted["suite"]), explored.get("chess", []))


def _check_chess(scale: Scale, suite: Path, wanted: str, explored: list[tuple[Any, str]]) -> None:
    """The confirmation positions: in the suite the rules name, all there, none explored."""
    if suite.name != wanted:
        raise HarnessError(f"--phase confirm: the rules' confirmation positions are in "
                           f"{wanted}, but the suite found is {suite}")
    held = _fens(suite, scale.chess_first, scale.chess_positions)
    if len(held) < scale.chess_positions:
        last = scale.chess_first + scale.chess_positions - 1
        raise HarnessError(f"--phase confirm: {suite} holds {len(held)} of the rules' "
                           f"confirmation positions {scale.chess_first}-{last}")
    for found, path in explored:
        if found["suite"] != suite.name:
            continue
        first, last = (int(x) for x in found["positions"])
        seen = set(_fens(suite, first, last - first + 1))
        both = [k for k, fen in enumerate(held, scale.chess_first) if fen in seen]
        if both:
            raise HarnessError(f"--phase confirm: {len(both)} of the confirmation positions "
                               f"(the first: {suite.name} position {both[0]}) were explored "
                               f"({path}: positions {first}-{last}); confirmation needs held-out data")


def phase_of(rules: Rules | None, phase: str, changed: bool | None = None) -> PhaseOf:
    """The phase a claim's row of a ``phase`` run is recorded in. A confirmation row is
    exploratory when the claim has no rules file or no held-out data, when its rules file
    is not committed as it is (``changed``: :func:`uncommitted`, asked when not given), or
    when a confirmation run of the same data was recorded under another rules version:
    then its rules may have been written after a look at the data."""
    if phase == EXPLORE:
        return PhaseOf(EXPLORE)
    if rules is None:
        return PhaseOf(EXPLORE, "no rules file names its data")
    data = data_of(rules, CONFIRM)
    if data is None:
        return PhaseOf(EXPLORE, f"no held-out data: {held_out_reason(rules)}")
    if (uncommitted(rules.path) if changed is None else changed):
        return PhaseOf(EXPLORE, f"{rules.path} has changes not committed: its rules are not frozen")
    digest = data_digest(data)
    for run in rules.confirmations:
        if run.data == digest and run.version != rules.version:
            return PhaseOf(EXPLORE, f"its confirmation data ({describe(data)}) were measured in "
                                    f"the confirmation run {run.run} of {run.date} under rules "
                                    f"version {run.version}; version {rules.version} came after")
    return PhaseOf(CONFIRM)


def seeded_phase(rules: Rules, key: str, seed: int) -> tuple[str, Mapping[str, Any]]:
    """The phase whose data for the seeded dataset ``key`` have ``seed``, and those data
    (a chess suite's name and a range of its positions, beside the seed)."""
    for phase in PHASES:
        found: Mapping[str, Any] | None = (data_of(rules, phase) or {}).get(key)
        if found is not None and int(found["seed"]) == seed:
            return phase, found
    raise HarnessError(f"{rules.path}: no phase's {key} data have seed {seed}")


def seeded_positions(rules: Rules, key: str, scale: Scale, explored: int,
                     options: str = "") -> list[Problem]:
    """The chess positions of the seeded dataset ``key`` in the scale's phase (its seed
    says which): the exploration's first ``explored``, the confirmation's whole range;
    with the chess ``options``. Fewer than the rules name is one line."""
    phase, data = seeded_phase(rules, key, scale.seed_of(key))
    first, last = (int(x) for x in data["positions"])
    count = last - first + 1
    if phase == EXPLORE:
        count = min(count, explored)
    found = chess_positions(find_suite(str(data["suite"])), first, count, options)
    if len(found) < count:
        raise HarnessError(f"{rules.path}: {data['suite']} holds {len(found)} of the {phase} "
                           f"positions {first}-{first + count - 1} the rules name")
    return found
