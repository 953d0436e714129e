"""Before a run, each engine asked what the run will ask of it: started and configured (a
fault is one line), ``go nodes`` tried with a tiny budget when the run limits nodes (GNU
Chess and Toga II ignore it: such a search never ends), and one position searched twice
(a difference is a warning: its counts do not repeat). And the engines found here, for
``harness engines``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.engines.session import EngineLimits, EngineSearch, EngineSession
from harness.engines.spec import KNOWN_ENGINES, EngineSpec, locate, parse_engine
from harness.errors import HarnessError

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
"""Where ``go nodes`` is tried."""

NODES_PROBE = 1000
"""The budget of the ``go nodes`` try: an engine that honours it stops at once."""

NODES_PROBE_TIMEOUT = 5.0
"""Seconds the ``go nodes`` try may take before the engine is taken to ignore it."""


@dataclass(frozen=True)
class EngineCheck:
    """What the check before a run found of one engine: ``run.json`` records it."""

    record: dict[str, Any]
    """Name, ``id name``, command, options set (the spec's and the defaults) and limits."""
    warning: str
    """The determinism warning (the same search twice differed), or empty."""


NODES_ADVICE = "leave --nodes out, its searches keep to the depths"
"""What a run that limits nodes is told to do when an engine ignores ``go nodes``."""


def check_engine(spec: EngineSpec, limits: EngineLimits, fen: str, depth: int,
                 where: str, advice: str = NODES_ADVICE) -> EngineCheck:
    """Start ``spec``, try ``go nodes`` when ``limits`` has nodes (refused, one line ending
    with ``advice``, when it is ignored), then search ``fen`` (the problem ``where``) to
    ``depth`` twice."""
    session = EngineSession(spec, limits)
    try:
        if limits.nodes is not None:
            _check_nodes(spec, session, advice)
        first, second = session.search(fen, depth), session.search(fen, depth)
        record = session.describe()
    finally:
        session.close()
    for found in (first, second):
        if found.status != "ok":
            raise HarnessError(f"engine {spec.name}: the check before the run ({where}, depth "
                               f"{depth}) ended {found.status}: {found.reason}")
    warning = ""
    if _outcome(first) != _outcome(second):
        warning = (f"engine {spec.name}: the same search twice ({where}, depth {depth}) gave "
                   f"{_said(first)}, then {_said(second)}: its counts do not repeat exactly")
    record["determinism"] = {"position": where, "depth": depth,
                             "first": _outcome(first), "second": _outcome(second),
                             "repeats": not warning}
    return EngineCheck(record, warning)


def _check_nodes(spec: EngineSpec, session: EngineSession, advice: str = NODES_ADVICE) -> None:
    """Refuse ``--nodes`` for an engine whose search limited to :data:`NODES_PROBE` nodes
    does not end within :data:`NODES_PROBE_TIMEOUT` seconds."""
    probe = EngineSession(spec, EngineLimits(nodes=NODES_PROBE, timeout_s=NODES_PROBE_TIMEOUT))
    try:
        import chess
        import chess.engine

        found = probe.search_limit(START_FEN, chess.engine.Limit(nodes=NODES_PROBE))
    finally:
        probe.close()
    if found.status == "timeout":
        raise HarnessError(f"engine {spec.name} ({session.id_name}): ignores go nodes (a search "
                           f"of {NODES_PROBE} nodes did not end within {NODES_PROBE_TIMEOUT:g} s): "
                           f"{advice}")


def _outcome(found: EngineSearch) -> dict[str, Any]:
    return {"nodes": found.nodes, "best_move": found.best_move, "score": found.score,
            "depth": found.depth}


def _said(found: EngineSearch) -> str:
    return f"{found.nodes:,} nodes, {found.best_move} ({found.score})" \
        if found.nodes is not None else f"{found.best_move} ({found.score})"


@dataclass(frozen=True)
class FoundEngine:
    """A UCI engine found here, as ``harness engines`` lists it."""

    spec: EngineSpec
    """How a run names it (``NAME=COMMAND``)."""
    id_name: str
    """Its ``id name``: name and version."""
    options: tuple[str, ...]
    """Its options as it declares them (``Hash spin 16 [1, 33554432]``)."""


def find_engines(names: tuple[str, ...] = ()) -> tuple[list[FoundEngine], list[str]]:
    """The engines of :data:`KNOWN_ENGINES` installed here (or those ``names`` name: a known
    name or a spec), each started once; and a line for each known one not installed. An
    unknown name, or one named that does not start, is a :class:`HarnessError`."""
    known = dict(KNOWN_ENGINES)
    wanted: list[EngineSpec] = []
    for name in names:
        if "=" in name:
            wanted.append(parse_engine(name))
        elif name in known:
            wanted.append(parse_engine(f"{name}={known[name]}"))
        else:
            raise HarnessError(f"engine {name!r} is not one the harness knows ({', '.join(known)}); "
                               "name another as NAME=COMMAND (e.g. mine=/opt/engine/bin/uci)")
    missing: list[str] = []
    if not names:
        for name, command in KNOWN_ENGINES:
            program = command.split()[0]
            if locate(program) is None:
                missing.append(f"{name}: {program} not installed")
            else:
                wanted.append(parse_engine(f"{name}={command}"))
    found = []
    for spec in wanted:
        session = EngineSession(spec)
        try:
            found.append(FoundEngine(spec, session.id_name,
                                     tuple(_option_text(o) for o in session.offered.values())))
        finally:
            session.close()
    return found, missing


def _option_text(option: Any) -> str:
    """An engine's option in one line: name, type, default, range or choices."""
    words = [option.name, option.type]
    if option.type not in ("button",):
        words.append(f"default {option.default!r}" if option.default not in (None, "") else "")
    if option.type == "spin":
        words.append(f"[{option.min}, {option.max}]")
    if option.type == "combo" and option.var:
        words.append(f"({' | '.join(option.var)})")
    return " ".join(w for w in words if w)
