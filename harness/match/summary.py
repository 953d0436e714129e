"""A finished match in words (the command's closing lines) and on its report page."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from harness.match.ladder import rung_lines
from harness.match.link import not_compared
from harness.match.pairs import Tally
from harness.match.settings import MatchResult
from harness.match.stats import Sprt
from harness.report.frames import DIFFERENT_PROGRAMS, NOT_ALGORITHMS
from harness.results import ENGINE, UNKNOWN_FRAME

if TYPE_CHECKING:
    from harness.report.match_page import TracePoint


def side_labels(result: MatchResult) -> tuple[str, str]:
    """``A pvs``, ``B alphabeta``."""
    return ("A " + result.config.sides[0].name, "B " + result.config.sides[1].name)


def same_switches(result: MatchResult) -> bool:
    """Whether the sides' exact answers were held to agree (:func:`not_compared`)."""
    return not_compared(result.config.sides) is None


def result_lines(result: MatchResult) -> list[str]:
    """The last progress line, the verdict, the node ratio, the calibration, the cost."""
    sprt = result.config.sprt
    lines = [result.progress.line(sprt, side_labels(result)),
             {"H1": f"H1 accepted: A is stronger by at least {sprt.elo1:g} normalized Elo",
              "H0": f"H0 accepted: A is not stronger by {sprt.elo1:g} normalized Elo",
              "games": "no SPRT decision within the game limit"}[result.stopped]]
    lines += engine_lines(result)
    checked = result.link
    if checked is None and result.config.engine_sides and result.config.link_depth:
        engines = result.config.engine_sides
        lines.append(f"no node ratio at depth {result.config.link_depth}: "
                     + (f"side {engines[0]} is a UCI engine" if len(engines) == 1
                        else "both sides are UCI engines")
                     + " (another program's nodes, its own evaluation)")
    if checked is not None:
        lines.append(f"nodes at depth {checked.depth} on {checked.openings} openings: A/B = "
                     f"{checked.ratio:.3f} ({checked.nodes[0]:,} / {checked.nodes[1]:,}); "
                     + ("the exact sides agree" if same_switches(result) else
                        f"answers not compared: {not_compared(result.config.sides)}"))
    if result.calibration is not None:
        lines.append(calibration_text(result))
    lines.append(f"{cost_text(result.cost, result.frames)}; endings: "
                 + ", ".join(f"{k} {v}" for k, v in sorted(result.reasons.items())))
    if result.placement is not None and result.config.ladder_engine is not None:
        lines += rung_lines(result.ladder, result.config.ladder_engine.name)
        lines.append(f"ladder: {result.placement.text}")
    return lines


def engine_lines(result: MatchResult) -> list[str]:
    """A line per engine of the match (a side's, the ladder's): which side, its ``id
    name``, the options set and its limit a move; and each determinism warning."""
    lines = []
    for key, record in result.engines.items():
        who = "the ladder's engine" if key == "ladder" else f"side {key.upper()} is a UCI engine:"
        settings = ", ".join(f"{k}={v}" for k, v in record.get("settings", {}).items())
        budget = record.get("budget", {})
        limit = ("rungs of " + ", ".join(f"{n:,}" for n in record.get("rungs", []))
                 + " nodes a move" if key == "ladder"
                 else f"go nodes {budget['nodes']} a move" if "nodes" in budget
                 else f"go depth {budget['depth']} a move" if "depth" in budget
                 else f"its clock of {budget.get('clock_s', 0):g}+{budget.get('increment_s', 0):g} s")
        lines.append(f"{who} {record['name']} = {record.get('id_name') or 'no id name'} "
                     f"({' '.join(record.get('command', []))}; {settings or 'no options set'}; "
                     f"{limit}, ucinewgame before each move)")
    return lines + [f"WARNING: {warning}" for warning in result.warnings]


def cost_text(costs: Sequence[float | None], frames: Sequence[str]) -> str:
    """Each side's cost per node (``costs``, seconds) with the frame it ran in (``frames``):
    ``cost per node (both in the python frame): A 0.75 us/node B 0.72 us/node``, or each
    side's frame beside its cost and that the two compare implementations."""
    shown = [(name, cost, frame) for name, cost, frame in zip("AB", costs, frames, strict=True)
             if cost is not None]
    kinds = {frame for _, _, frame in shown}
    if ENGINE in kinds:
        return ("cost per node: "
                + " ".join(f"{name} {cost * 1e6:.2f} us/node ({_frame(frame)})"
                           for name, cost, frame in shown)
                + (f" ({DIFFERENT_PROGRAMS})" if len(shown) == 2 else ""))
    if len(kinds) == 1 and "" not in kinds:
        return (f"cost per node (both in the {kinds.pop()} frame): "
                + " ".join(f"{name} {cost * 1e6:.2f} us/node" for name, cost, _ in shown))
    return ("cost per node: "
            + " ".join(f"{name} {cost * 1e6:.2f} us/node ({_frame(frame)})"
                       for name, cost, frame in shown)
            + (f" ({NOT_ALGORITHMS})" if len(shown) == 2 else ""))


def calibration_text(result: MatchResult) -> str:
    """What a ply is worth and what the node saving predicts, in a sentence."""
    assert result.calibration is not None
    calibration, prediction = result.calibration, result.prediction
    per_ply = calibration.progress.estimate
    depth = calibration.depth
    text = (f"Elo of one ply (A at depth {depth + 1} against A at {depth}, "
            f"{calibration.progress.pair} pairs): ")
    text += "none" if per_ply is None else per_ply.elo_text(1)
    if prediction is None:
        return text + "; no prediction (a ply worth all or nothing, or no branching factor)"
    verdict = {True: "agrees with the match (inside its 95% interval)",
               False: "does not agree with the match (outside its 95% interval)",
               None: "has nothing to compare with (the match's interval is undefined)"}[
                   prediction.agrees]
    return (text + f"; A's node saving is worth {prediction.plies:+.3f} plies -> "
            f"{prediction.elo:+.1f} Elo predicted, which {verdict}")


def _frame(frame: str) -> str:
    if frame == ENGINE:
        return "a UCI engine's own nodes and time"
    return f"{frame} frame" if frame else UNKNOWN_FRAME


def write_report(out: Path, result: MatchResult, rows: Sequence[dict[str, str]]) -> Path:
    """``report.html`` with the LLR trace and the Elo interval, from the match's rows."""
    from harness.report.match_page import MatchPage, RungPoint, write_match_report

    config = result.config
    labels = side_labels(result)
    facts = [("sides", f"{labels[0]} against {labels[1]}"), ("openings", config.problems),
             ("budget per move", config.budget.text),
             ("SPRT", f"normalized Elo [{config.sprt.elo0:g}, {config.sprt.elo1:g}], "
                      f"alpha {config.sprt.alpha:g}, beta {config.sprt.beta:g}"),
             ("games", str(2 * result.progress.pair)),
             ("frames", f"A {result.frames[0] or '-'}, B {result.frames[1] or '-'}"),
             *((f"engine ({key})", line) for key, line in zip(result.engines, engine_lines(result),
                                                              strict=False)),
             *((("ladder", result.placement.text),) if result.placement is not None else ()),
             ("move limit", f"{config.rules.max_plies} plies" if config.rules.max_plies else "none"),
             ("adjudication", str(config.rules.adjudicate or "off"))]
    rungs = [RungPoint(rung.nodes, None if rung.progress.estimate is None
                       else rung.progress.estimate.elo,
                       math.nan if rung.progress.estimate is None
                       else rung.progress.estimate.elo_error) for rung in result.ladder]
    page = MatchPage(f"harness match: {labels[0]} against {labels[1]} on {config.problems}, "
                     f"{config.budget.text} per move", facts,
                     result_lines(result), trace(rows, config.sprt), config.sprt.bounds, rungs,
                     "" if config.ladder_engine is None else config.ladder_engine.name,
                     None if result.placement is None else result.placement.nodes)
    return write_match_report(out, page)


def trace(rows: Sequence[dict[str, str]], sprt: Sprt) -> list[TracePoint]:
    """The match pair by pair, from ``games.csv``'s rows (two a pair, in order)."""
    from harness.report.match_page import TracePoint

    tally = Tally(sprt)
    points = []
    for start in range(0, len(rows) - 1, 2):
        tally.add(float(rows[start]["points_a"]), float(rows[start + 1]["points_a"]))
        progress = tally.progress(tally.pairs)
        elo = progress.estimate
        points.append(TracePoint(progress.pair, progress.llr, None if elo is None else elo.elo,
                                 None if elo is None else elo.elo_error))
    return points
