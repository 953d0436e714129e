"""Claim 15. Claim 12's comparison on the modern profile: Plaat, Schaeffer, Pijls and de
Bruin (1996) found that MTD(f) evaluates 5-10% fewer leaves than aspiration NegaScout in
chess, Othello and checkers, with 3 to 6 passes per iteration, on the programs of their
day (full width, a table, iterative deepening). This claim asks whether it still holds
when both algorithms reduce and prune: the same two algorithms with every switch of the
modern profile (:mod:`harness.run.profiles`), the same switches for both, in the three
games, each depth of a range an iterative-deepening search of its own.

The checks are claim 12's four statements (:func:`harness.reproduce.claims.mtdf.plaat_checks`)
per game at the two deepest depths of its range, one odd and one even; every depth is
reported, odd and even apart, and chess by game phase. A search that did not finish (an
MTD driver's pass cap) is never a result: its position is left out at that depth, and the
report counts it (:func:`finished`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    unmeasured_section,
    wtl,
)
from harness.reproduce.claims.mtdf import compare, plaat_checks
from harness.reproduce.claims.three_games import (
    GAMES,
    MTDF,
    REFERENCE,
    disagreements,
    held_out_positions,
    phase_numbers,
)
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.phases import data_of, seeded_phase
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import Check, verdict_of
from harness.run.profiles import find_profile

RULES = rules.load("three-games-modern")
"""The registered rules (``rules/three-games-modern.json``): per game, claim 12's "fewer
leaves" (0, 0.99], "5-10%" [0.90, 0.95] (one interval with "fewer"), "fewer total nodes"
(0, 0.99] and "3-6 passes" [3, 6] at the two deepest depths of the game's range, each
interval at the level a Bonferroni correction over the claim's intervals gives."""

KEY = "three-games-modern"
"""The claim's key, and its seeded dataset's name (the seed names the phase's data)."""

PROFILE = find_profile(str(RULES.parameters["profile"]))
"""The profile both algorithms search with (modern)."""

MTDF_SPEC = f"{MTDF}:max_passes={int(RULES.parameters['max_passes'])}"
"""MTD(f) as searched: its pass cap per depth the rules' (the variant's default of 100
stopped a chess search of the exploration; the rows call it ``mtdf``, :func:`finished`)."""

VARIANTS = (REFERENCE, MTDF)
"""Aspiration NegaScout, the reference, and MTD(f)."""

JUDGED = int(RULES.parameters["judged_depths"])
"""How many of each game's deepest depths are judged (two: one odd, one even)."""


def game_options(game: str) -> str:
    """The profile's options of ``game`` as a problem set's text (``killers=1,...``)."""
    return ",".join(f"{k}={v}" for k, v in PROFILE.configuration.game_options.get(game, {}).items())


def judged_depths(depths: Sequence[int]) -> list[int]:
    """The depths judged: the :data:`JUDGED` deepest of those searched."""
    return sorted(depths)[-JUDGED:]


# ---------------------------------------------------------------------------------------
# The jobs


def jobs(scale: Scale) -> list[Job]:
    """One job per position of each game of the scale (:attr:`Scale.modern_games`), from
    the data of the phase the scale's seed names: both algorithms with the profile, every
    depth of the game's range, shallow first."""
    _, data = seeded_phase(RULES, KEY, scale.seed_of(KEY))
    explore = data_of(RULES, "explore")
    assert explore is not None
    found: list[Job] = []
    for name, count, first, last in scale.modern_games:
        runs = tuple(Run(PROFILE.name, v, d, PROFILE.configuration.switches)
                     for d in range(first, last + 1) for v in (REFERENCE, MTDF_SPEC))
        problems = held_out_positions(name, data, explore[KEY], count, game_options(name))
        found += [((("dataset", KEY), ("set", name)), p, runs) for p in problems]
    return found


# ---------------------------------------------------------------------------------------
# The numbers


def with_mtdf_named(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with MTD(f)'s variant named ``mtdf``, as claim 12's statements read it
    (searched as :data:`MTDF_SPEC`, with the rules' pass cap)."""
    return rows.replace({"variant": {MTDF_SPEC: MTDF}})


def finished(rows: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The rows of the positions whose every search at a depth finished, and the positions
    left out (``problem_id at depth d``): a stopped search is never a result."""
    stopped = rows[rows["status"] != "ok"][["problem_id", "depth"]].drop_duplicates()
    if stopped.empty:
        return rows, []
    keys = set(zip(stopped["problem_id"], stopped["depth"], strict=True))
    keep = [(p, d) not in keys for p, d in zip(rows["problem_id"], rows["depth"], strict=True)]
    return rows[keep], [f"{p} at depth {d}" for p, d in sorted(keys)]


def game_numbers(part: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """One game's numbers: at every depth MTD(f)'s ratios to aspiration NegaScout (leaves,
    total nodes, search nodes: geometric means with the two other averages beside) and both
    algorithms' passes per iteration; the depths judged, odd and even depths, the searches
    whose score differs from aspiration NegaScout's (under selective search no answer need
    equal another's: an observation), the positions left out; chess per game phase."""
    rows, left_out = finished(with_mtdf_named(part))
    depths = sorted(int(d) for d in rows["depth"].unique())
    found: dict[str, Any] = {
        "depths": {str(d): compare(rows[rows["depth"] == d], d, boot) for d in depths},
        "judged": [str(d) for d in judged_depths(depths)],
        "parity": {name: [str(d) for d in depths if d % 2 == rest]
                   for name, rest in (("odd", 1), ("even", 0))},
        "score_differs": list(disagreements(rows, PROFILE.name)),
        "left_out": left_out}
    if str(part["set"].iloc[0]) == "chess":
        found["game_phases"] = phase_numbers(rows, depths)
    return found


def numbers_of(frame: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """Every game's numbers (:func:`game_numbers`), in :data:`GAMES`'s order."""
    return {"measured": True,
            "games": {str(name): game_numbers(part, boot)
                      for name, part in sorted(frame.groupby("set", sort=False),
                                               key=lambda x: GAMES.index(str(x[0])))}}


# ---------------------------------------------------------------------------------------
# The verdict and the report


def judge(numbers: Mapping[str, Any]) -> list[Check]:
    """Per game and judged depth, claim 12's four statements against this claim's bands."""
    checks: list[Check] = []
    for game, found in numbers["games"].items():
        statements = [RULES.check(c, within=game) for c in ("fewer", "five-to-ten", "total-nodes", "passes")]
        for depth in found["judged"]:
            at = found["depths"][depth]
            parity = "odd" if int(depth) % 2 else "even"
            checks += plaat_checks(at["leaves"], at["total_nodes"], at["mtdf_passes_per_iteration"],
                                   statements, f"{game}, depth {depth} ({parity}), modern profile")
    return checks


def _row(game: str, depth: str, x: Mapping[str, Any], judged: bool) -> list[str]:
    leaves, total, passes = x["leaves"], x["total_nodes"], x["mtdf_passes_per_iteration"]
    return [game, depth, "odd" if int(depth) % 2 else "even", "judged" if judged else "",
            f"{fmt(leaves['ratio'], 4)} ({interval(leaves)})",
            f"{fmt(leaves['totals'], 4)} / {fmt(leaves['median'], 4)}", wtl(leaves),
            f"{fmt(total['ratio'], 4)} ({interval(total)})",
            f"{fmt(total['totals'], 4)} / {fmt(total['median'], 4)}", fmt(x["nodes"]["ratio"], 4),
            f"{fmt(passes['mean'], 2)} ({fmt(passes['low'], 2)} to {fmt(passes['high'], 2)})",
            fmt(x["aspiration_passes_per_iteration"], 2), str(x["positions"])]


def tables(numbers: Mapping[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Every game and depth, the judged ones marked, with the averages not chosen beside the
    judged ones; chess per game phase."""
    level = f"{RULES.bootstrap.level:.2%}"
    rows = [_row(game, d, x, d in found["judged"]) for game, found in numbers["games"].items()
            for d, x in found["depths"].items()]
    phases = [[phase, depth, str(at["positions"]), fmt(at["leaves"], 4), fmt(at["effort"], 4),
               fmt(at["passes"], 2)]
              for phase, depths in numbers["games"].get("chess", {}).get("game_phases", {}).items()
              for depth, at in depths.items()]
    return [(f"MTD(f) / aspiration NegaScout on the modern profile, by game and depth ({level} "
             "intervals: a Bonferroni correction over the claim's intervals); beside each judged "
             "geometric mean, the ratio of totals and the median ratio, not judged",
             ["game", "depth", "parity", "", "leaves (geometric mean)", "totals / median",
              "MTD(f) fewer / equal / more", "total nodes (geometric mean)", "totals / median",
              "search nodes only", "MTD(f) passes per iteration", "aspiration NegaScout's",
              "positions"], rows),
            ("Chess per game phase (not judged): MTD(f) / aspiration NegaScout leaves and total "
             "nodes (geometric means), MTD(f)'s passes per iteration",
             ["phase", "depth", "positions", "leaves", "total nodes", "passes"], phases)]


def chart(numbers: Mapping[str, Any]) -> Figure:
    """Per game: MTD(f)'s leaves and total nodes over aspiration NegaScout's against the
    depth, with intervals, the claimed 5-10% band shaded, the judged depths marked."""
    games = list(numbers["games"])
    band = RULES.check("five-to-ten", within=games[0]).band
    with charts.chart_style():
        fig = charts.figure(4.0 * len(games), 3.6)
        axes = np.atleast_1d(fig.subplots(1, len(games)))
        for ax, game in zip(axes, games, strict=True):
            found = numbers["games"][game]
            depths = list(found["depths"])
            x = np.array([int(d) for d in depths])
            for k, (key, label) in enumerate((("leaves", "leaves"), ("total_nodes", "total nodes"))):
                point = np.array([found["depths"][d][key]["ratio"] for d in depths])
                low = np.array([found["depths"][d][key]["low"] for d in depths])
                high = np.array([found["depths"][d][key]["high"] for d in depths])
                style = charts.variant_style(k)
                ax.errorbar(x + 0.08 * (2 * k - 1), point, yerr=[point - low, high - point],
                            fmt=style["marker"], color=style["color"], capsize=3, label=label)
            ax.axhspan(band.low, band.high, color="#2ca02c", alpha=0.15, label="claimed: 5-10% fewer")
            ax.axhline(1.0, color="black", linewidth=1)
            for d in found["judged"]:
                ax.axvline(int(d), color="grey", linestyle=":", linewidth=1)
            ax.set_xticks(x)
            ax.set_title(f"{game} (dotted: judged depths)")
            ax.set_xlabel("depth (iterative deepening to it)")
            ax.legend(fontsize=7)
        axes[0].set_ylabel("MTD(f) / aspiration NegaScout (geometric mean)")
    return fig


def setup_text(scale: Scale, phase: str, data: Mapping[str, Any]) -> str:
    """What was searched, how, and what is judged."""
    sets = "; ".join(f"{name}: at most {count} positions, depths {first}-{last}"
                     for name, count, first, last in scale.modern_games)
    chess = data["chess"]
    return (f"The object: {RULES.parameters['object']}. Data ({phase}): chess "
            f"{chess['suite']} positions {chess['positions'][0]}-{chess['positions'][1]}, Othello "
            f"harness/games/othello/positions/{data['othello']}, checkers "
            f"harness/games/checkers/positions/{data['checkers']}; {sets} (spread evenly through "
            "each file; a confirmation leaves out every position an earlier phase or claim "
            f"searched). Both algorithms search with the profile {PROFILE.name} "
            f"({', '.join(e.name for e in PROFILE.enhancements)}), the same switches for both; "
            "each depth an iterative-deepening search of its own. Judged at each game's two "
            "deepest depths (one odd, one even): the geometric mean over positions of MTD(f)'s "
            "leaves and total nodes (nodes + qnodes) over aspiration NegaScout's, and MTD(f)'s "
            "passes per iteration after the first; intervals: a percentile bootstrap over "
            f"positions at {RULES.bootstrap.level:.2%} (Bonferroni over the claim's intervals).")


def measured_text(numbers: Mapping[str, Any]) -> str:
    """The judged figures per game, the trend over depth, and the observations."""
    parts = []
    for game, found in numbers["games"].items():
        depths = found["depths"]
        trend = ", ".join(f"{d}: {fmt(x['leaves']['ratio'])}" for d, x in depths.items())
        judged = "; ".join(
            f"depth {d}: leaves {fmt(depths[d]['leaves']['ratio'], 4)} "
            f"({interval(depths[d]['leaves'])}), total nodes {fmt(depths[d]['total_nodes']['ratio'], 4)} "
            f"({interval(depths[d]['total_nodes'])}), "
            f"{fmt(depths[d]['mtdf_passes_per_iteration']['mean'], 2)} passes per iteration"
            for d in found["judged"])
        wrong, compared = found["score_differs"]
        parts.append(f"{game}: {judged}; leaves by depth {trend}; scores that differ from "
                     f"aspiration NegaScout's {wrong:,} of {compared:,}; positions left out "
                     f"(a search that did not finish) {len(found['left_out'])}")
    return ". ".join(parts) + "."


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames.get(KEY)
    if frame is None or frame.empty:
        return unmeasured_section(info)
    phase, data = seeded_phase(RULES, KEY, ctx.scale.seed_of(KEY))
    numbers = {**numbers_of(frame, RULES.bootstrap), "phase": phase, "profile": PROFILE.name}
    checks = judge(numbers)
    return Section(info, setup_text(ctx.scale, phase, data), measured_text(numbers), numbers,
                   checks, tables(numbers),
                   [("three_games_modern", "MTD(f) against aspiration NegaScout on the modern "
                     "profile", chart(numbers))], verdict_of(checks))


CLAIM = ClaimInfo(
    KEY, "Plaat et al.'s three games on a modern engine: MTD(f) against aspiration NegaScout",
    "Plaat, Schaeffer, Pijls and de Bruin (1996), Best-first fixed-depth minimax algorithms, "
    "Artificial Intelligence 87, §5.2.2 (claim 12's source), asked of a modern engine",
    "\"MTD(f) evaluates fewer leaves than aspiration NegaScout, averaging a 5-10% "
    "improvement, depending on the game\", with 3 to 6 passes per iteration (claim 12), asked "
    "again when both algorithms reduce and prune: the modern profile in chess, Othello and "
    "checkers.", analyse, jobs=jobs, rules=RULES)
