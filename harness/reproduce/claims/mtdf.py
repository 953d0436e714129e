"""Claim 3. Plaat et al.: MTD(f) evaluates 5-10% fewer leaves than aspiration NegaScout, in
3 to 6 passes per iteration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from harness.report import charts
from harness.reproduce import rules
from harness.reproduce.analysis import (
    ClaimInfo,
    Context,
    Section,
    fmt,
    interval,
    mean_summary,
    no_chess,
    p_value,
    pair_ratio,
    paired,
    wtl,
)
from harness.reproduce.measure import BEST, chess_configs
from harness.reproduce.verdicts import Check, interval_check, ratio_text

RULES = rules.load("mtdf")
"""The registered rules (``rules/mtdf.json``): "fewer" is a leaves ratio in (0, 1), "5-10%
fewer" one in [0.90, 0.95], "3 to 6 passes" a mean in [3, 6], each with its interval."""

ASPIRATION, MTDF = "aspiration:inner=negascout", "mtdf"
"""The two variants compared."""


def judge_mtdf(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 3: fewer leaves, by 5-10%, with 3-6 passes per iteration; each the interval of
    its estimate against its band. All three are claim checks: nothing in the setup forces
    any of them."""
    leaves = numbers["leaves"]
    passes = numbers["mtdf_passes_per_iteration"]
    fewer, by, count = RULES.check("fewer"), RULES.check("five-to-ten"), RULES.check("passes")
    return [
        interval_check(f"MTD(f) evaluates fewer leaves than aspiration NegaScout (geometric-mean "
                       f"leaves ratio in {fewer.band})", leaves["low"], leaves["high"], fewer.band,
                       f"leaves ratio {ratio_text(leaves)}", fewer.kind),
        interval_check(f"by 5-10%: geometric-mean leaves ratio in {by.band}", leaves["low"],
                       leaves["high"], by.band, f"leaves ratio {ratio_text(leaves)}", by.kind),
        interval_check(f"MTD(f) needs 3 to 6 passes per iteration (mean over positions in "
                       f"{count.band})", passes["low"], passes["high"], count.band,
                       f"{passes['mean']:.2f} passes per iteration (interval {passes['low']:.2f} "
                       f"to {passes['high']:.2f}, n = {passes['n']:.0f})", count.kind),
    ]


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.chess
    if frame is None:
        return no_chess(ctx, info)
    frame = frame[frame["config"] == BEST]
    asp, mtd = ASPIRATION, MTDF
    boot = RULES.bootstrap
    leaves = pair_ratio(frame, asp, mtd, boot, "leaves")
    total = pair_ratio(frame, asp, mtd, boot, "effort")
    inner = pair_ratio(frame, asp, mtd, boot, "nodes")
    depth = ctx.scale.chess_depth
    passes = frame.assign(per_iteration=frame["passes"] / depth)
    per_variant = passes.groupby("variant")["per_iteration"]
    mean_passes = mean_summary(
        passes.loc[passes["variant"] == mtd, "per_iteration"].to_numpy(dtype=float), boot)
    numbers: dict[str, Any] = {
        "leaves": leaves, "total_nodes": total, "nodes": inner,
        "mtdf_passes_per_iteration": mean_passes,
        "mtdf_passes_per_iteration_range": [float(per_variant.min()[mtd]), float(per_variant.max()[mtd])],
        "aspiration_passes_per_iteration": float(per_variant.mean()[asp]),
        "pass_cap_hits": int((frame["status"] == "pass-cap").sum()),
        "positions": int(leaves["n"]),
    }
    checks = judge_mtdf(numbers)
    measured = (f"MTD(f) / aspiration NegaScout: leaves {ratio_text(leaves)}; total nodes "
                f"{total['ratio']:.4f} ({interval(total)}); search nodes without quiescence "
                f"{inner['ratio']:.4f}. MTD(f) needed "
                f"{mean_passes['mean']:.2f} passes per iteration on "
                f"average (interval {interval(mean_passes)}; aspiration: "
                f"{numbers['aspiration_passes_per_iteration']:.2f}).")
    rows = [[name, fmt(r["ratio"], 4), interval(r), wtl(r), p_value(r["sign_p"])]
            for name, r in (("leaves", leaves), ("total nodes (nodes + qnodes)", total),
                            ("nodes (no quiescence)", inner))]
    config = {c.name: c for c in chess_configs(ctx.scale.tt_size)}[BEST]
    setup = (f"Chess: {ctx.chess_text()}; switches: {config.description}, iterative deepening; "
             f"variants {asp} (window ±50, widened to infinity on a fail) and mtdf (fail-soft "
             "alpha-beta with memory, first guess the previous iteration's score). Measured: the "
             "geometric mean over positions of the leaves ratio MTD(f) / aspiration NegaScout "
             "with a paired bootstrap interval, and the mean over positions of MTD(f)'s passes "
             "/ depth with a bootstrap interval over positions.")
    return Section(info, setup, measured, numbers, checks,
                   [("MTD(f) against aspiration NegaScout (ratio B/A, B = MTD(f))",
                     ["counter", "geo. mean ratio", f"{boot.level:.0%} interval",
                      "MTD(f) fewer / equal / more", "sign test p"], rows)],
                   [("mtdf", "MTD(f) against aspiration NegaScout per position",
                     chart(frame, depth, leaves))])


def chart(frame: pd.DataFrame, depth: int, leaves: Mapping[str, float]) -> Figure:
    """Per position: the leaves ratio and the passes per iteration, against the claimed bands."""
    both = paired(frame, ASPIRATION, MTDF, "leaves")
    ratio = np.sort((both["leaves_b"] / both["leaves_a"]).to_numpy(dtype=float))
    passes = np.sort(frame.loc[frame["variant"] == MTDF, "passes"].to_numpy(dtype=float) / depth)
    with charts.chart_style():
        fig = charts.figure(11.0, 4.2)
        left, right = fig.subplots(1, 2)
        x = np.arange(1, len(ratio) + 1)
        left.scatter(x, ratio, color="#1f4e79", zorder=3, label="one position")
        by = RULES.check("five-to-ten").band
        left.axhspan(by.low, by.high, color="#2ca02c", alpha=0.15, label="claimed: 5-10% fewer")
        left.axhline(1.0, color="black", linewidth=1)
        left.axhline(leaves["ratio"], color="#b22222", linestyle="--",
                     label=f"geometric mean {leaves['ratio']:.3f}")
        left.axhspan(leaves["low"], leaves["high"], color="#b22222", alpha=0.12,
                     label=f"{RULES.bootstrap.level:.0%} interval")
        left.set_xlabel("positions, sorted by ratio")
        left.set_ylabel("leaves, MTD(f) / aspiration NegaScout")
        left.set_title("Leaves evaluated: MTD(f) relative to aspiration NegaScout")
        left.legend(fontsize=7)
        right.scatter(np.arange(1, len(passes) + 1), passes, color="#1f4e79", zorder=3)
        count = RULES.check("passes").band
        right.axhspan(count.low, count.high, color="#2ca02c", alpha=0.15, label="claimed: 3-6")
        right.axhline(float(passes.mean()), color="#b22222", linestyle="--",
                      label=f"mean {passes.mean():.2f}")
        right.set_xlabel("positions, sorted")
        right.set_ylabel("MTD(f) passes per iteration")
        right.set_title(f"MTD(f) passes per iteration (depth {depth})")
        right.legend(fontsize=7)
    return fig


CLAIM = ClaimInfo(
    "mtdf", "Plaat et al.: MTD(f) against aspiration NegaScout in chess",
    "Plaat, Schaeffer, Pijls and de Bruin (1996), Best-first fixed-depth minimax "
    "algorithms; alphabeta-aspiration-mtdf-pvs.txt (MTD(f))",
    "With iterative deepening and a transposition table, MTD(f) evaluates 5-10% "
    "fewer leaves than aspiration NegaScout in chess, in 3 to 6 passes per "
    "iteration.", analyse, chess=((BEST, ASPIRATION), (BEST, MTDF)), rules=RULES)
