"""Claim 9. Pons: the node-count ladder of his Connect Four solver on Test_L3_R1, and what
the later enhancements do on each of his test sets."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

import harness
from harness.errors import HarnessError
from harness.games.registry import load_problems
from harness.report import charts
from harness.reproduce import rules
from harness.reproduce.analysis import ClaimInfo, Context, Section
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.verdicts import NOT_MEASURED, Band, Check, count_check, interval_check
from harness.results import UNKNOWN_FRAME
from harness.search.run import Switches

RULES = rules.load("pons")
"""The registered rules (``rules/pons.json``): per step of the ladder, Pons's figure as his
tutorial prints it and the band of its printed precision, the totals of an independent
implementation, and the table's size."""

LADDER_SET = "Test_L3_R1"
"""The set Pons published his ladder on (1,000 end-of-game positions)."""
SET_SIZE = 1000
"""Positions in each of his sets: his means are over all of them."""


@dataclass(frozen=True)
class Step:
    """One configuration searched on Connect Four positions."""

    name: str
    """Its label in tables (the run's ``config``)."""
    tree: str
    """The game's options: the column order, Pons's anticipation."""
    variant: str
    """The search."""
    switches: Switches
    """The frame's switches."""
    what: str
    """What it adds, in words."""


ROUNDINGS = {"nearest": "rounded to the nearest", "down": "rounded down"}
"""How a printed figure was rounded to its last digit, with its words: to the nearest (a mean
half a unit below it prints as it, half a unit above as the next), or down (its further
digits dropped)."""


def printed_band(printed: str, rounding: str) -> Band:
    """Every mean that prints as ``printed`` (``"139.7"``, ``"11,024"``: thousands
    separated by commas) when rounded to its last digit as ``rounding`` says:
    ``[139.65, 139.75)`` to the nearest, ``[11024, 11025)`` down."""
    if rounding not in ROUNDINGS:
        raise HarnessError(f"printed figure {printed!r}: rounding {rounding!r} is none of "
                           f"{', '.join(ROUNDINGS)}")
    try:
        value = Decimal(printed.replace(",", ""))
    except ArithmeticError:
        raise HarnessError(f"printed figure {printed!r}: not a number") from None
    exponent = value.as_tuple().exponent
    if not value.is_finite() or not isinstance(exponent, int):
        raise HarnessError(f"printed figure {printed!r}: not a finite number")
    unit = Decimal(1).scaleb(exponent)
    low = value - unit / 2 if rounding == "nearest" else value
    return Band(float(low), float(low + unit), low_open=False, high_open=True)


def printed(step: str) -> str:
    """Pons's figure for a step of the ladder, as his tutorial prints it (``"139.7"``)."""
    return str(RULES.parameters["printed_means"][step]["printed"])


CENTRE = "order=centre,anticipate=0"
"""Pons's early tree: every move, columns from the centre out (the game's defaults are his
final tree)."""


def _steps() -> tuple[tuple[Step, ...], tuple[Step, ...], tuple[Step, ...]]:
    tt = int(RULES.parameters["tt_size"])
    strong = (-21, 21)
    ladder = (
        Step("minimax", "order=left,anticipate=0", "minimax", Switches(value_bounds=False),
             "every node to the end of the game, columns left to right"),
        Step("alpha-beta", "order=left,anticipate=0", "alphabeta", Switches(window=strong),
             "alpha-beta, window [-21, 21], beta lowered to the score bound"),
        Step("centre order", CENTRE, "alphabeta", Switches(window=strong),
             "columns from the centre out (4, 3, 5, 2, 6, 1, 7)"),
        Step("weak solver", CENTRE, "alphabeta", Switches(window=(-1, 1)),
             "window [-1, 1]: the sign of the score"),
    )
    later = (
        Step("+ table", CENTRE, "alphabeta", Switches(window=strong, tt_size=tt),
             "centre order, strong, a transposition table (best move first)"),
        Step("+ iterative deepening", CENTRE, "alphabeta",
             Switches(window=strong, tt_size=tt, iterative_deepening=True),
             "the table, depths 1, 2, ... to the end (0 at the horizon)"),
        Step("PVS", CENTRE, "pvs", Switches(window=strong, tt_size=tt, iterative_deepening=True),
             "PVS in place of alpha-beta"),
        Step("MTD(f)", CENTRE, "mtdf", Switches(tt_size=tt, iterative_deepening=True),
             "MTD(f) in place of PVS"),
    )
    pons_tree = "order=threats,anticipate=1"
    final = (
        Step("alpha-beta (Pons's tree)", pons_tree, "alphabeta", Switches(window=strong, tt_size=tt),
             "Pons's later tree (no move that loses at once; moves making the most threats "
             "first) and the table"),
        Step("PVS (Pons's tree)", pons_tree, "pvs", Switches(window=strong, tt_size=tt), "PVS"),
        Step("MTD(f) (Pons's tree)", pons_tree, "mtdf", Switches(tt_size=tt), "MTD(f), first guess 0"),
        Step("MTD-bi (Pons's tree)", pons_tree, "mtd-bi", Switches(tt_size=tt),
             "MTD-bi between the position's least and most score"),
        Step("Pons's root (Pons's tree)", pons_tree, "mtd-pons", Switches(tt_size=tt),
             "Pons's zero-window passes (mtd-pons): his final solver's search"),
    )
    return ladder, later, final


LADDER, LATER, FINAL = _steps()
"""Pons's ladder (Test_L3_R1 only), the later enhancements (sets where the rules run them),
and the searches with Pons's later tree (every set)."""
STEPS = {s.name: s for s in (*LADDER, *LATER, *FINAL)}


def connect4_folder() -> Path | None:
    """Pons's test sets: ``$HARNESS_CONNECT4``, else ``../shared/connect4`` from the working
    folder or from the project the package was installed from; ``None`` when none holds
    Test_L3_R1."""
    candidates = [Path(p) for p in (os.environ.get("HARNESS_CONNECT4"),) if p]
    candidates += [Path.cwd().parent / "shared" / "connect4",
                   Path(harness.__file__).resolve().parents[2] / "shared" / "connect4"]
    return next((c for c in candidates if (c / LADDER_SET).is_file()), None)


def jobs(scale: Scale) -> list[Job]:
    """Each position of each set (the scale's first N) with the steps the rules run on it,
    one job per position and tree (its options), the ladder's on Test_L3_R1 first."""
    folder = connect4_folder()
    if folder is None:
        return []
    skip: Mapping[str, list[str]] = RULES.parameters["not_run"]
    found: list[Job] = []
    for name, count in scale.connect4:
        steps = [s for s in (*(LADDER if name == LADDER_SET else ()), *LATER, *FINAL)
                 if s.name not in skip.get(name, ())]
        for tree in dict.fromkeys(s.tree for s in steps):
            for problem in load_problems(f"connect4:{folder / name},{tree}").problems[:count]:
                known = problem.position.split()[1]
                runs = tuple(Run(s.name, s.variant, problem.default_depth, s.switches)
                             for s in steps if s.tree == tree)
                found.append(((("dataset", "pons"), ("set", name), ("known", known)), problem, runs))
    return found


def judge_pons(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 9: per step of Pons's ladder, the mean nodes on Test_L3_R1 in the band of his
    figure as printed (every mean that prints as it: :func:`printed_band`); every search's
    score the file's (its sign for the weak solver), and the ladder's totals those of an
    independent implementation, as correctness checks."""
    checks = []
    for step, found in numbers["ladder"].items():
        rule = RULES.check(f"mean/{step}")
        figure = RULES.parameters["printed_means"][step]
        mean = float(found["mean"])
        whole = found["positions"] == SET_SIZE
        # A part of the set says nothing of his mean over all of it: inconclusive.
        point = mean if whole else math.nan
        checks.append(interval_check(
            f"{step}: mean nodes on Test_L3_R1 is Pons's {figure['printed']} (as printed, "
            f"{ROUNDINGS[figure['rounding']]}; band {rule.band})", point, point, rule.band,
            f"{mean:,.3f} over {found['positions']:,} positions"
            + ("" if whole else f" (not the whole set of {SET_SIZE:,}: inconclusive)"), rule.kind))
        totals = RULES.check("totals", within=step)
        expected = int(RULES.parameters["independent_totals"][step])
        if whole:
            checks.append(count_check(
                f"{step}: total nodes on Test_L3_R1 are an independent implementation's "
                f"{expected:,} (difference in {totals.band})", abs(int(found["total"]) - expected),
                1, totals.band, f"{int(found['total']):,}", totals.kind))
    scores = RULES.check("scores")
    wrong, searches = int(numbers["wrong_scores"]), int(numbers["searches"])
    checks.append(count_check("every search gives the file's score (the weak solver: its sign) "
                              f"(searches that do not, in {scores.band})", wrong, searches,
                              scores.band, f"{searches - wrong:,} of {searches:,} right", scores.kind))
    return checks


def _right(frame: pd.DataFrame) -> pd.Series:
    known = frame["known"].astype(int)
    score = frame["score"]
    weak = frame["config"] == "weak solver"
    sign = (score.clip(-1, 1) == known.clip(-1, 1))
    return (score == known).where(~weak, sign)


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames.get("pons")
    if frame is None or frame.empty:
        setup = ("Pons's test sets: not found (../shared/connect4, or $HARNESS_CONNECT4; see its "
                 "SOURCES.md).")
        return Section(info, setup, "Not measured: Pons's test sets were not found.",
                       {"measured": False}, [], verdict=f"{NOT_MEASURED}: Pons's test sets not found")
    frame = frame.assign(right=_right(frame))
    ladder_rows = frame[(frame["set"] == LADDER_SET) & frame["config"].isin([s.name for s in LADDER])]
    ladder = {step.name: {"positions": len(part), "total": int(part["nodes"].sum()),
                          "mean": float(part["nodes"].mean())}
              for step in LADDER if len(part := ladder_rows[ladder_rows["config"] == step.name])}
    sets = list(dict.fromkeys(frame["set"]))
    means: dict[str, dict[str, dict[str, float | str]]] = {}
    for name in sets:
        part = frame[frame["set"] == name]
        means[name] = {str(c): {"positions": len(p), "mean": float(p["nodes"].mean()),
                                "time_us": float(p["time_s"].mean() * 1e6),
                                "frame": _frames(p)}
                       for c, p in part.groupby("config", sort=False)}
    numbers = {"measured": True, "ladder": ladder, "means": means,
               "searches": len(frame), "wrong_scores": int((~frame["right"]).sum()),
               "pons_final": RULES.parameters["pons_final"]}
    checks = judge_pons(numbers)
    measured = ("On Test_L3_R1: " + "; ".join(
        f"{step} {x['mean']:,.3f} (Pons {printed(step)})" for step, x in ladder.items())
        + f". Scores: {numbers['searches'] - numbers['wrong_scores']:,} of "
        f"{numbers['searches']:,} searches right. With Pons's later tree and his root, mean "
        "nodes per set: " + "; ".join(
            f"{name} {means[name][FINAL[-1].name]['mean']:,.1f} (his final solver "
            f"{RULES.parameters['pons_final'][name]['nodes']:,})"
            for name in sets if FINAL[-1].name in means[name]) + ".")
    counts = ", ".join(f"{name} first {n:,}" for name, n in ctx.scale.connect4)
    setup = (f"Pons's test sets ({counts} positions), each solved to its end from the position "
             "(a 7x6 board; one node per call of the search, the root included). Pons's ladder "
             f"on {LADDER_SET}: " + "; ".join(f"{s.name}: {s.what}" for s in LADDER)
             + ". Later steps, each adding to the one before: " + "; ".join(
                 f"{s.name}: {s.what}" for s in LATER)
             + ". Searches with Pons's later tree: " + "; ".join(f"{s.name}: {s.what}" for s in FINAL)
             + f". Tables of {int(RULES.parameters['tt_size']):,} entries. Not run, for their "
               "cost: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in
                                   RULES.parameters["not_run"].items()) + ".")
    return Section(info, setup, measured, numbers, checks, _tables(numbers, sets),
                   [("pons", "Mean nodes per position, each step on each set", chart(numbers, sets))])


def _tables(numbers: Mapping[str, Any], sets: list[str]) -> list[tuple[str, list[str], list[list[str]]]]:
    totals = RULES.parameters["independent_totals"]
    ladder = [[step, printed(step), f"{x['mean']:,.3f}", f"{x['total']:,}",
               f"{int(totals[step]):,}", f"{x['positions']:,}"]
              for step, x in numbers["ladder"].items()]
    per_set = []
    for step in (*LATER, *FINAL):
        cells = [step.name]
        for name in sets:
            x = numbers["means"][name].get(step.name)
            cells.append("not run" if x is None else f"{x['mean']:,.1f}")
        per_set.append(cells)
    final = numbers["pons_final"]
    per_set.append(["Pons's final solver (his C++, measured on the project's machine)",
                    *(f"{final[n]['nodes']:,}" for n in sets)])
    times = [[name, f"{(x := numbers['means'][name][FINAL[-1].name])['time_us']:,.0f} "
                    f"({x.get('frame', UNKNOWN_FRAME)} frame)", f"{final[name]['time_us']:,}"]
             for name in sets if FINAL[-1].name in numbers["means"][name]]
    return [("Pons's ladder on Test_L3_R1: mean nodes per position",
             ["step", "Pons (as printed)", "harness", "harness total", "independent total",
              "positions"], ladder),
            ("Later steps and searches, mean nodes per position",
             ["step", *(f"{n} ({numbers['means'][n][FINAL[-1].name]['positions']:,})"
                        if FINAL[-1].name in numbers["means"][n] else n for n in sets)], per_set),
            ("Time per position (microseconds): the harness's Pons's root against his solver",
             ["set", "harness", "Pons's final solver"], times)]


def _frames(rows: pd.DataFrame) -> str:
    """The frames that ran ``rows`` (a time is its frame's: harness.search.run.FRAMES)."""
    if "frame" not in rows.columns:
        return UNKNOWN_FRAME
    return ", ".join(sorted({str(f) for f in rows["frame"].dropna()})) or UNKNOWN_FRAME


def chart(numbers: Mapping[str, Any], sets: list[str]) -> Figure:
    """Mean nodes per step: the ladder against Pons's figures, then the later steps per set."""
    with charts.chart_style():
        fig = charts.figure(9.0, 5.0)
        ax = fig.add_subplot()
        labels = [*numbers["ladder"], *(s.name for s in (*LATER, *FINAL))]
        xs = range(len(labels))
        ax.scatter([labels.index(s) for s in numbers["ladder"]],
                   [float(printed(s).replace(",", "")) for s in numbers["ladder"]], marker="_",
                   s=400, color="black", label="Pons (Test_L3_R1, as printed)", zorder=3)
        for i, name in enumerate(sets):
            means = numbers["means"][name]
            points = [(labels.index(c), x["mean"]) for c, x in means.items() if c in labels]
            style = charts.variant_style(i)
            ax.scatter([p[0] for p in points], [p[1] for p in points], marker=style["marker"],
                       color=style["color"], label=f"harness, {name}", zorder=2)
        final = numbers["pons_final"]
        last = labels.index(FINAL[-1].name)
        ax.scatter([last] * len(sets), [final[name]["nodes"] for name in sets], marker="x", s=60,
                   color="black", label="Pons's final solver (each set)", zorder=3)
        ax.set_xticks(list(xs), labels, rotation=35, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("mean nodes per position")
        ax.set_title("Connect Four: Pons's ladder and later steps")
        ax.legend(loc="center left", bbox_to_anchor=(0.0, 0.62), fontsize=8)
    return fig


CLAIM = ClaimInfo(
    "pons", "Pons: the node-count ladder of his Connect Four solver",
    "Pascal Pons, Solving Connect Four (blog.gamesolver.org), parts 3 to 5 and 10; his test "
    "sets (../shared/connect4/SOURCES.md)",
    "On Test_L3_R1 (1,000 end-of-game positions, his End-Easy set) the mean number of "
    "positions explored (his column 'mean nb pos'), as his tutorial prints it, is 11,024 by "
    "minimax (part 3), 283.6 by alpha-beta (part 4: columns left to right, the score bound, "
    "window [-21, 21]), 139.7 with the centre-first order and 107.1 by the weak solver "
    "(window [-1, 1]) (part 5).",
    analyse, jobs=jobs, rules=RULES)
