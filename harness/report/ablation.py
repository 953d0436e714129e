"""An ablation's table and chart: each configuration of ``harness ablate`` against the one
it changes (an enhancement removed from the base, or added to the bare base), problem by
problem, as Schaeffer (1989) measured the alpha-beta enhancements.

The rows of every configuration's run are paired on (problem set, problem, depth) with
the rows of the configuration it is compared with; a search that stopped before its end
(:mod:`harness.report.stopped`) is in no pair. The node ratio is of the work to the depth,
``nodes + qnodes`` (a chess search's quiescence nodes are most of it), its geometric mean
over the problems and the paired bootstrap interval of :mod:`harness.report.stats`, the
one ``harness compare`` gives.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from harness.report import stats
from harness.report.charts import STYLE, chart_style, compact_number, figure
from harness.report.frames import frame_column, frames_text
from harness.report.solved import solved_flags
from harness.report.stopped import stopped_mask

ABLATION_FILE = "ablation.json"
"""What an ablation was asked for and the configurations it planned (its resume reads it)."""
TABLE_FILE = "ablation.csv"
"""The ablation's table (:data:`ABLATION_COLUMNS`)."""
CHART_NAME = "ablation"
"""The chart, as ``ablation.png`` and ``ablation.svg``."""

NOT_OFFERED = "not offered by this game"
"""The note of an enhancement a problem set's game cannot use: listed, not searched."""


@dataclass(frozen=True)
class Arm:
    """One configuration of an ablation, as its table reads it."""

    name: str
    """Its name, and its run's folder: ``base``, ``no-tt``, ``bare``, ``bare+killers``."""
    change: str
    """``base``, ``removed`` (from the base), ``bare`` (every enhancement removed) or
    ``added`` (to the bare base)."""
    enhancement: str
    """The enhancement removed or added (empty for the bases)."""
    against: str
    """The arm it is compared with (empty: the base itself)."""
    sets: tuple[str, ...]
    """The problem sets it searched: those whose game offers its enhancement."""
    detail: str = ""
    """What it changes, as fields and values (``switches.tt_size=0``)."""


ABLATION_COLUMNS = (
    "set", "depth", "configuration", "change", "enhancement", "against", "note", "n",
    "stopped", "nodes", "nodes_ratio", "ratio_low", "ratio_high", "solved",
    "best_move_changed", "score_changed", "time_s", "frame", "detail",
)
"""The columns of ``ablation.csv``, in order: ``set`` the problem set as given; ``depth``;
``configuration`` the arm; ``change``, ``enhancement`` and ``against`` as :class:`Arm`
says; ``note`` :data:`NOT_OFFERED` where the set's game cannot use the enhancement (its
numbers empty); ``n`` problems paired with ``against``; ``stopped`` searches of either
side stopped before their end (in no pair); ``nodes`` the arm's nodes + qnodes over its
finished searches; ``nodes_ratio`` the geometric mean over the paired problems of the
arm's nodes + qnodes over ``against``'s, ``ratio_low`` and ``ratio_high`` its paired 95%
bootstrap interval; ``solved`` the share of the arm's test positions whose best move it
found (empty: no test positions); ``best_move_changed`` and ``score_changed`` the shares of
the paired problems where its best move, its score differ from ``against``'s; ``time_s``
its mean seconds to the depth a problem; ``frame`` the frames its searches ran in (times
compare within one frame only); ``detail`` the fields the arm changes."""


def ablation_table(results: pd.DataFrame, arms: Sequence[Arm], sets: Sequence[str],
                   seed: int = 0, resamples: int = stats.DEFAULT_RESAMPLES) -> pd.DataFrame:
    """The rows of ``ablation.csv`` from every arm's rows: ``results`` holds them with the
    columns ``arm`` (its name) and ``set`` (the problem set as given) beside those of
    ``results.csv``. Rows per set, then depth, then arm in the order given."""
    rows: list[dict[str, object]] = []
    by_arm: dict[Hashable, pd.DataFrame] = {
        key: part for key, part in results.groupby(["arm", "set", "depth"], sort=False)}
    depths = sorted({int(d) for d in results["depth"]}) if len(results) else []
    for suite in sets:
        for depth in depths:
            for arm in arms:
                rows.append(_row(arm, suite, depth, by_arm, seed, resamples))
    return pd.DataFrame(rows, columns=list(ABLATION_COLUMNS))


def _row(arm: Arm, suite: str, depth: int, by_arm: Mapping[Hashable, pd.DataFrame], seed: int,
         resamples: int) -> dict[str, object]:
    row: dict[str, object] = {"set": suite, "depth": depth, "configuration": arm.name,
                              "change": arm.change, "enhancement": arm.enhancement,
                              "against": arm.against, "detail": arm.detail, "note": ""}
    empty = {c: math.nan for c in ABLATION_COLUMNS if c not in row}
    if suite not in arm.sets:
        return {**row, **empty, "note": NOT_OFFERED, "frame": "", "n": 0, "stopped": 0}
    mine = by_arm.get((arm.name, suite, depth))
    if mine is None:
        return {**row, **empty, "frame": "", "n": 0, "stopped": 0}
    done = mine[~stopped_mask(mine)]
    flags = solved_flags(done["solved"]) if "solved" in done.columns else pd.Series(dtype=float)
    row |= {"nodes": int(_work(done).sum()),
            "solved": float(flags.mean()) if flags.notna().any() else math.nan,
            "time_s": float(done["time_s"].mean()) if len(done) else math.nan,
            "frame": frames_text(frame_column(done)) if len(done) else ""}
    other = by_arm.get((arm.against, suite, depth)) if arm.against else mine
    if other is None:
        return {**empty, **row, "n": 0, "stopped": int(stopped_mask(mine).sum())}
    paired = mine.merge(other, on="problem_id", suffixes=("", "_against"))
    halted = stopped_mask(paired) | stopped_mask(
        paired.rename(columns={"status": "_mine", "status_against": "status"}))
    kept = paired[~halted]
    a = _work(kept, "_against").to_numpy(dtype=float)
    b = _work(kept).to_numpy(dtype=float)
    low, high = stats.paired_bootstrap_interval(a, b, seed, resamples) if len(kept) else (
        math.nan, math.nan)
    return row | {
        "n": len(kept), "stopped": int(halted.sum()),
        "nodes_ratio": stats.geometric_mean_ratio(a, b) if len(kept) else math.nan,
        "ratio_low": low, "ratio_high": high,
        "best_move_changed": _share(kept["best_move"].astype(str)
                                    != kept["best_move_against"].astype(str)),
        "score_changed": _share(kept["score"].astype(str) != kept["score_against"].astype(str)),
    }


def _work(rows: pd.DataFrame, suffix: str = "") -> pd.Series:
    """Nodes plus quiescence nodes of each row (a game without quiescence counts none)."""
    nodes = rows[f"nodes{suffix}"].astype(float)
    qnodes = f"qnodes{suffix}"
    return nodes + (rows[qnodes].fillna(0).astype(float) if qnodes in rows.columns else 0.0)


def _share(flags: pd.Series) -> float:
    return float(flags.mean()) if len(flags) else math.nan


def render_ablation(table: pd.DataFrame) -> str:
    """The table as the terminal shows it: per set and depth, one line per arm."""
    lines: list[str] = []
    for (suite, depth), part in table.groupby(["set", "depth"], sort=False):
        lines += [""] if lines else []
        lines.append(f"{suite}, depth {depth}:")
        header = (f"  {'configuration':<26} {'n':>4} {'nodes':>11} {'ratio':>7} "
                  f"{'95% interval':>17} {'solved':>7} {'move':>6} {'score':>6} {'time':>9}")
        lines.append(header)
        for row in part.to_dict("records"):
            name = str(row["configuration"])
            if row["note"]:
                lines.append(f"  {name:<26} {row['note']}")
                continue
            interval = (f"{row['ratio_low']:.3f}-{row['ratio_high']:.3f}"
                        if _known(row["ratio_low"]) else "")
            lines.append(
                f"  {name:<26} {int(row['n']):>4} {_count(row['nodes']):>11} "
                f"{_number(row['nodes_ratio'], '.3f'):>7} {interval:>17} "
                f"{_percent(row['solved']):>7} {_percent(row['best_move_changed']):>6} "
                f"{_percent(row['score_changed']):>6} {_milliseconds(row['time_s']):>9}")
        frames = frames_text(part["frame"][part["frame"] != ""]) if (part["frame"] != "").any() else ""
        if frames:
            lines.append(f"  frame: {frames}")
    lines += ["", "ratio: nodes + qnodes against the configuration compared with (the base; "
              "for bare+X, the bare base), geometric mean with its paired bootstrap interval; "
              "move, score: share of problems whose best move, score changed; time: mean "
              "to the depth a problem (wall time)"]
    return "\n".join(lines)


def _known(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def _number(value: object, spec: str) -> str:
    return format(float(value), spec) if _known(value) else "-"  # type: ignore[arg-type]


def _milliseconds(value: object) -> str:
    return f"{float(value) * 1000:.1f} ms" if _known(value) else "-"  # type: ignore[arg-type]


def _count(value: object) -> str:
    return f"{int(value):,}" if _known(value) else "-"  # type: ignore[call-overload]


def _percent(value: object) -> str:
    return f"{float(value):.0%}" if _known(value) else "-"  # type: ignore[arg-type]


def ablation_chart(table: pd.DataFrame) -> Figure:
    """A horizontal bar per configuration: its node ratio against the one it changes, with
    the bootstrap interval, one panel per problem set at its deepest depth (log scale; the
    line at 1 is no change). Configurations a set's game does not offer are named, without
    a bar."""
    panels = []
    for suite, part in table.groupby("set", sort=False):
        deepest = int(part["depth"].max())
        panels.append((str(suite), deepest,
                       part[(part["depth"] == deepest) & (part["change"].isin(["removed", "added"]))]))
    rows = max((len(part) for _, _, part in panels), default=1)
    with chart_style():
        fig = figure(7.5, 1.2 + len(panels) * (0.9 + 0.35 * max(rows, 2)))
        axes = fig.subplots(len(panels), 1, squeeze=False)
        for ax_row, (suite, depth, part) in zip(axes, panels, strict=True):
            _draw_panel(ax_row[0], suite, depth, part)
        fig.suptitle("Nodes + qnodes with one enhancement removed from the base (-X)\nor "
                     "added to the bare base (+X), relative to it: geometric mean over the "
                     "problems,\n95% paired bootstrap interval",
                     fontsize=STYLE["axes.titlesize"])
    return fig


def _wrap_set(text: str, width: int = 70) -> str:
    """A long problem set's name (a path) broken to fit the panel's width."""
    return "\n".join(text[i:i + width] for i in range(0, len(text), width))


def _draw_panel(ax: object, suite: str, depth: int, part: pd.DataFrame) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    labels = [("-" if c == "removed" else "+") + str(e)
              for c, e in zip(part["change"], part["enhancement"], strict=True)]
    y = np.arange(len(part), dtype=float)
    ratio = part["nodes_ratio"].to_numpy(dtype=float)
    low = part["ratio_low"].to_numpy(dtype=float)
    high = part["ratio_high"].to_numpy(dtype=float)
    shown = np.isfinite(ratio) & (ratio > 0)
    colours = np.where(part["change"].to_numpy() == "removed", "#1f4e79", "#b07d2b")
    ax.barh(y[shown], ratio[shown] - 1, left=1, color=colours[shown], height=0.6)
    ax.errorbar(ratio[shown], y[shown], xerr=[(ratio - low)[shown], (high - ratio)[shown]],
                fmt="none", ecolor="#333333", elinewidth=1, capsize=3)
    for yi, r, hi, note, ok in zip(y, ratio, high, part["note"], shown, strict=True):
        text = f"{r:.3f}" if ok else (str(note) or "no result")
        at = max(r, hi) if ok and math.isfinite(hi) else r if ok else 1.0
        ax.annotate(text, (at, yi), xytext=(4, 0), textcoords="offset points", va="center",
                    fontsize=8)
    ax.axvline(1.0, color="#b22222", linewidth=1, linestyle="--")
    ax.set_xscale("log")
    finite = [v for v in (*low[shown], *high[shown], 1.0) if math.isfinite(v) and v > 0]
    ax.set_xlim(min(finite) / 1.3, max(finite) * 1.6)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: compact_number(v)))
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _pos: compact_number(v)))
    ax.set_yticks(y, labels)
    ax.set_ylim(len(part) - 0.5, -0.5)
    ax.set_title(_wrap_set(f"{suite}: depth {depth}"))
    ax.set_xlabel("nodes relative to the configuration changed (log scale)\n"
                  "-X above 1, or +X below 1: X saves nodes")
    ax.grid(axis="y", visible=False)


SECTION_COLUMNS = ("set", "depth", "configuration", "against", "n", "nodes", "ratio",
                   "95% interval", "solved", "best move changed", "score changed",
                   "time (ms)", "frame")
"""The columns of the ablation's table on its folder's ``index.html``."""


def ablation_section(table: pd.DataFrame, chart: str, title: str) -> dict[str, object]:
    """What the ablation folder's ``index.html`` shows first (``chart``: the chart's file
    name beside it): the title, the chart, the table in words, what its columns mean."""
    rows = []
    for row in table.to_dict("records"):
        if row["note"]:
            rows.append([row["set"], row["depth"], row["configuration"], row["against"],
                         row["note"], *[""] * (len(SECTION_COLUMNS) - 5)])
            continue
        interval = (f"{row['ratio_low']:.3f} to {row['ratio_high']:.3f}"
                    if _known(row["ratio_low"]) else "")
        rows.append([row["set"], row["depth"], row["configuration"], row["against"],
                     int(row["n"]), _count(row["nodes"]), _number(row["nodes_ratio"], ".3f"),
                     interval, _percent(row["solved"]), _percent(row["best_move_changed"]),
                     _percent(row["score_changed"]), _number(float(row["time_s"]) * 1000, ".1f")
                     if _known(row["time_s"]) else "-", row["frame"]])
    return {"title": title, "chart": chart, "columns": SECTION_COLUMNS, "rows": rows,
            "note": "nodes: nodes + qnodes; ratio: against the configuration in 'against', "
                    "geometric mean over the problems with its 95% paired bootstrap "
                    "interval; best move, score changed: share of the problems; time: mean "
                    "per problem to the depth (times compare within one frame only). An "
                    "engine's nodes (frame engine) are its own count, its quiescence "
                    "included: it reports no qnodes."}


TEXT_COLUMNS = ("set", "configuration", "change", "enhancement", "against", "note", "frame",
                "detail")
"""The columns of ``ablation.csv`` that hold words (empty where there are none)."""


def ablation_title(profile: str, variant: str, from_bare: bool, engine: str = "") -> str:
    """What the ablation's section on ``index.html`` is called (``engine``: the spec of the
    engine taken apart instead of the profile)."""
    if engine:
        return f"engine {engine}, each feature switched off alone"
    return (f"profile {profile}, {variant}, each enhancement removed"
            + (" and added alone" if from_bare else " alone"))


def read_ablation(path: Path) -> pd.DataFrame:
    """An ``ablation.csv`` read back as :func:`ablation_table` made it."""
    table = pd.read_csv(path)
    for column in TEXT_COLUMNS:
        table[column] = table[column].astype(object).where(table[column].notna(), "").astype(str)
    return table


def stored_section(folder: Path) -> dict[str, object] | None:
    """The section of the ablation in ``folder`` (its ``ablation.csv``, chart and
    ``ablation.json``), for an index rebuilt by ``harness report``; ``None`` where
    ``folder`` holds no ablation."""
    table_path, record_path = folder / TABLE_FILE, folder / ABLATION_FILE
    if not (table_path.is_file() and record_path.is_file()):
        return None
    config = json.loads(record_path.read_text(encoding="utf-8")).get("config") or {}
    title = ablation_title(str(config.get("profile")), str(config.get("variant")),
                           bool(config.get("from_bare")), str(config.get("engine") or ""))
    return ablation_section(read_ablation(table_path), f"{CHART_NAME}.png", title)
