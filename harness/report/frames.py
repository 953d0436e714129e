"""The frame each search ran in, as every output says it: a time compares algorithms only
within one frame.

The same variant runs four to eight times faster a node in the compiled frame than in the
mypyc-compiled Python one (``harness.search.run.FRAMES`` names them), so a time, a time
ratio or a nodes-a-second figure of two frames compares implementations. Every reader of
a run's rows (:mod:`harness.report.compare`, :mod:`harness.report.diff`,
:mod:`harness.report.summary`, :mod:`harness.report.page`) takes the ``frame`` column of
``results.csv``: a comparison of time (``--measure time``) is refused across frames, and
wherever times of several frames are printed side by side, the frames are said beside
them. A results file of schema version 1 or 2 recorded no frame: its rows are read with
an empty one, said as :data:`harness.results.UNKNOWN_FRAME`, and no time is compared on
them. Which variant runs in which frame is read from the rows, never assumed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pandas as pd

from harness.errors import HarnessError
from harness.report.measures import MEASURE_OPTION, NODES, Measure, nodes_per_second
from harness.results import UNKNOWN_FRAME

NOT_ALGORITHMS = "times of two frames compare implementations, not algorithms"
"""Why a time is not compared across frames, said beside every such figure."""

DIFFERENT_PROGRAMS = ("different programs: a UCI engine counts its own nodes (its quiescence "
                      "included), so a time per node compares programs, not algorithms")
"""Said beside a time per node of a UCI engine (frame ``engine``) next to the harness's."""


def frames_text(values: Iterable[object]) -> str:
    """Some rows' frames in words: ``compiled``, ``compiled+python`` (several, in the
    order met), :data:`~harness.results.UNKNOWN_FRAME` when one of them is not recorded."""
    found = list(dict.fromkeys("" if v is None or (isinstance(v, float) and math.isnan(v))
                               else str(v) for v in values))
    if not found or "" in found:
        return UNKNOWN_FRAME
    return "+".join(found)


def frame_column(results: pd.DataFrame) -> pd.Series:
    """The ``frame`` column of ``results`` (empty where the rows have none)."""
    if "frame" not in results.columns:
        return pd.Series("", index=results.index, dtype=object)
    return results["frame"].fillna("").astype(str)


def variant_frames(results: pd.DataFrame) -> dict[str, str]:
    """Each variant's frames in words (:func:`frames_text`), in the order variants appear."""
    frames = frame_column(results)
    return {str(variant): frames_text(frames[results["variant"] == variant])
            for variant in pd.unique(results["variant"])}


def frames_line(results: pd.DataFrame) -> str:
    """When the variants of ``results`` ran in different frames (or some in an unknown
    one), a line naming which ran where; empty when they all ran in one known frame, or
    when the rows have no ``frame`` column at all (made by hand, not read from a file)."""
    if "frame" not in results.columns:
        return ""
    by_variant = variant_frames(results)
    if set(by_variant.values()) == {UNKNOWN_FRAME}:
        return (f"FRAMES: {UNKNOWN_FRAME} for every search (a results file of an older "
                "harness): its times may compare two frames; re-run it to know")
    if len(set(by_variant.values())) < 2:
        return ""
    grouped: dict[str, list[str]] = {}
    for variant, frames in by_variant.items():
        grouped.setdefault(frames, []).append(variant)
    said = "; ".join(f"{', '.join(variants)}: {frames}" for frames, variants in grouped.items())
    return f"FRAMES: the variants ran in different frames ({said}): {NOT_ALGORITHMS}"


def totals(part: pd.DataFrame, sides: Sequence[str], measure: Measure) -> dict[str, object]:
    """Both ``sides``' (``a`` and ``b``, ``old`` and ``new``) nodes over the pairs ``part``
    and the frames that ran them; measuring time, their seconds and nodes a second too
    (NaN measuring nodes: a node comparison's table stays the same bytes from run to run)."""
    found: dict[str, object] = {}
    for side in sides:
        nodes = int(part[f"nodes_{side}"].sum())
        seconds = (float(part[f"time_s_{side}"].sum())
                   if measure is not NODES and f"time_s_{side}" in part.columns else math.nan)
        found |= {f"nodes_{side}": nodes, f"time_{side}": seconds,
                  f"nodes_per_s_{side}": nodes_per_second(nodes, seconds),
                  f"frame_{side}": frames_text(part[f"frame_{side}"]
                                               if f"frame_{side}" in part.columns else [""])}
    return found


def check_one_frame(paired: pd.DataFrame, names: Sequence[str], sides: Sequence[str]) -> None:
    """Refuse a time comparison of ``paired`` (``frame_<side>`` columns for each of the two
    ``sides``, named ``names``) when a pair ran in two frames or in an unknown one: one line
    naming the option and the reason."""
    columns = [f"frame_{side}" for side in sides]
    known = [paired[c].fillna("").astype(str) if c in paired.columns
             else pd.Series("", index=paired.index, dtype=object) for c in columns]
    unknown = [name for name, frames in zip(names, known, strict=True) if (frames == "").any()]
    if unknown:
        raise HarnessError(f"{MEASURE_OPTION} time: {unknown[0]} has no frame recorded, a "
                           f"results file of an older harness ({UNKNOWN_FRAME}): its times "
                           "cannot be compared; re-run it to record its frame, or compare nodes")
    differ = known[0] != known[1]
    if differ.any():
        first = paired[differ.to_numpy()].iloc[0]
        frames = [str(first[c]) for c in columns]
        raise HarnessError(f"{MEASURE_OPTION} time: {names[0]} ran in the {frames[0]} frame and "
                           f"{names[1]} in the {frames[1]} frame ({int(differ.sum())} of "
                           f"{len(paired)} searches): {NOT_ALGORITHMS}; compare nodes, or "
                           "variants of one frame")
