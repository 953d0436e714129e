"""Claim 14. The PVS article's figures (claim 4) on its author's object: "modern chess
programs" find about 90% of their fail-highs on the first move, and PVS saves about 10% of
a search effort over alpha-beta. Claim 4 measures them on the classic profile, a
full-width engine; this claim on the modern profile (:mod:`harness.run.profiles`: a table,
killers, history, null move, check extension, late-move reductions and pruning, futility,
razoring, ...) at depths 6 to 12, each an iterative-deepening search of its own, alpha-beta
and PVS with the same switches.

A fail-high *caused by a move* is one a searched move caused: the null move's cut-offs
and reverse futility's (static) cut-offs are fail-highs no move caused
(:func:`move_fail_highs`), so the first-move rate is ``fail_highs_first`` over the rest
(the rate over every fail-high is shown beside it). Every depth is a check of its own;
odd and even depths, and the positions' game phases (opening, middle game, endgame), are
reported apart (:func:`phase_numbers`); beside each judged statistic the two the rules
did not choose are shown, not judged (:func:`depth_numbers`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from harness.games.base import Problem
from harness.report import charts, stats
from harness.reproduce import rules
from harness.reproduce.analysis import (
    ClaimInfo,
    Context,
    Section,
    interval,
    pair_ratio,
    rate_summary,
    refuse_unfinished,
    unmeasured_section,
    wtl,
)
from harness.reproduce.claims.pvs_article import article_checks, quiescence_share
from harness.reproduce.measure import GAME_PHASES, Job, Run, Scale, game_phases
from harness.reproduce.phases import seeded_phase, seeded_positions
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import Check, pct, verdict_of
from harness.run.profiles import find_profile
from harness.search.run import Switches

RULES = rules.load("pvs-modern")
"""The registered rules (``rules/pvs-modern.json``): the first-move rate of PVS's move
fail-highs in [0.85, 0.95] and PVS / alpha-beta total nodes in [0.85, 0.95] at every depth
from ``parameters.first_depth``, each interval at the level a Bonferroni correction over
the claim's checks gives."""

KEY = "pvs-modern"
"""The claim's key, and its dataset's name (seeded: the seed names the phase's data)."""

PROFILE = find_profile(str(RULES.parameters["profile"]))
"""The profile both variants search with (modern)."""

FIRST_DEPTH = int(RULES.parameters["first_depth"])
"""The shallowest depth judged."""

VARIANTS = ("alphabeta", "pvs")
"""Alpha-beta, the reference, and PVS."""

def chess_options() -> str:
    """The profile's chess options as a problem set's text (``killers=1,history=1,...``)."""
    return ",".join(f"{k}={v}" for k, v in PROFILE.configuration.game_options.get("chess", {}).items())


def switches(tt_size: int) -> Switches:
    """The profile's frame switches, its table at ``tt_size`` entries."""
    return replace(PROFILE.configuration.switches, tt_size=tt_size)


# ---------------------------------------------------------------------------------------
# The jobs


def positions(scale: Scale) -> list[Problem]:
    """The phase's positions with the profile's chess options (repetition among them)."""
    return seeded_positions(RULES, KEY, scale, scale.pvs_modern[0], chess_options())


def depths(scale: Scale) -> range:
    """The depths searched: from the rules' first to the scale's deepest."""
    return range(FIRST_DEPTH, scale.pvs_modern[1] + 1)


def jobs(scale: Scale) -> list[Job]:
    """One job per position: alpha-beta and PVS with the profile, to every depth."""
    found = switches(scale.tt_size)
    runs = tuple(Run(PROFILE.name, v, d, found) for d in depths(scale) for v in VARIANTS)
    return [((("dataset", KEY),), p, runs) for p in positions(scale)]


# ---------------------------------------------------------------------------------------
# The numbers


def move_fail_highs(part: pd.DataFrame) -> pd.Series:
    """Fail-highs a searched move caused: all of them but the null move's and reverse
    futility's cut-offs, which return before any move is searched."""
    return part["fail_highs"] - part["null_cutoffs"] - part["reverse_futility_cutoffs"]


def node_totals(rows: pd.DataFrame) -> pd.DataFrame:
    """Total nodes (nodes + qnodes) per position (rows) and variant (columns), over the
    positions both variants searched."""
    return rows.assign(total=rows["nodes"] + rows["qnodes"]).pivot_table(
        index="problem_id", columns="variant", values="total", aggfunc="first").dropna()


def depth_numbers(part: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """At one depth: PVS's first-move rate of its move fail-highs (judged, a rate of totals
    with its interval), beside it the mean and median of the per-position rates, the rate
    over every fail-high and alpha-beta's; PVS / alpha-beta total nodes (judged, a
    geometric mean with its interval; its ratio of totals and median ratio beside it, in
    the same summary), on search and quiescence nodes apart; PVS's re-search rate."""
    pvs = part[part["variant"] == "pvs"].sort_values("problem_id")
    ab = part[part["variant"] == "alphabeta"]
    first, moved = (pvs["fail_highs_first"].to_numpy(float), move_fail_highs(pvs).to_numpy(float))
    rates = first[moved > 0] / moved[moved > 0]
    return {"positions": len(node_totals(part)),
            "first": rate_summary(first, moved, boot),
            "first_mean": float(rates.mean()), "first_median": float(np.median(rates)),
            "first_every": stats.rate(pvs["fail_highs_first"], pvs["fail_highs"]),
            "first_alphabeta": stats.rate(ab["fail_highs_first"], move_fail_highs(ab)),
            "ratio": pair_ratio(part, "alphabeta", "pvs", boot),
            "ratio_nodes": pair_ratio(part, "alphabeta", "pvs", boot, "nodes")["ratio"],
            "ratio_qnodes": pair_ratio(part, "alphabeta", "pvs", boot, "qnodes")["ratio"],
            "quiescence_share": quiescence_share(part),
            "research_rate": stats.rate(pvs["researches"], pvs["zw_searches"])}


def phase_numbers(part: pd.DataFrame, phases: Mapping[str, str]) -> dict[str, dict[str, float]]:
    """At one depth, per game phase (not judged): positions, PVS's first-move rate of its
    move fail-highs (totals) and PVS / alpha-beta total nodes (geometric mean)."""
    found: dict[str, dict[str, float]] = {}
    phase_of = part["problem_id"].map(phases)
    for phase in GAME_PHASES:
        rows = part[phase_of == phase]
        pvs = rows[rows["variant"] == "pvs"]
        if pvs.empty:
            continue
        totals = node_totals(rows)
        found[phase] = {"positions": float(len(totals)),
                        "first": stats.rate(pvs["fail_highs_first"], move_fail_highs(pvs)),
                        "ratio": stats.geometric_mean_ratio(totals["alphabeta"], totals["pvs"])}
    return found


def numbers_of(frame: pd.DataFrame, suite: str, boot: Bootstrap) -> dict[str, Any]:
    """Every depth's numbers and its phases', by depth as text; odd and even depths."""
    refuse_unfinished(frame, f"claim {KEY}")
    phases = game_phases(suite)
    found = {str(d): {**depth_numbers(frame[frame["depth"] == d], boot),
                      "phases": phase_numbers(frame[frame["depth"] == d], phases)}
             for d in sorted(frame["depth"].unique())}
    return {"depths": found,
            "parity": {name: [d for d in found if int(d) % 2 == rest]
                       for name, rest in (("odd", 1), ("even", 0))}}


# ---------------------------------------------------------------------------------------
# The verdict and the report


def judge(numbers: Mapping[str, Any]) -> list[Check]:
    """Per depth: PVS's first-move rate of its move fail-highs, and its saving; each the
    interval of its estimate against its band."""
    return article_checks({depth: (found["first"], found["ratio"])
                           for depth, found in numbers["depths"].items()}, RULES,
                          "modern profile", "PVS's fail-highs caused by a move")


def _row(depth: str, x: Mapping[str, Any]) -> list[str]:
    rate, ratio = x["first"], x["ratio"]
    return [depth, "odd" if int(depth) % 2 else "even",
            f"{pct(rate['rate'])} ({pct(rate['low'])} to {pct(rate['high'])})",
            f"{pct(x['first_mean'])} / {pct(x['first_median'])}", pct(x["first_every"]),
            pct(x["first_alphabeta"]), f"{ratio['ratio']:.4f} ({interval(ratio)})",
            f"{ratio['totals']:.4f} / {ratio['median']:.4f}", wtl(ratio),
            f"{x['ratio_nodes']:.3f}", f"{x['ratio_qnodes']:.3f}", pct(x["quiescence_share"]),
            pct(x["research_rate"]), str(x["positions"])]


def tables(numbers: Mapping[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The verdict's numbers per depth with the statistics not chosen; per game phase."""
    depths_found = numbers["depths"]
    level = f"{RULES.bootstrap.level:.2%}"
    phase_rows = [[d, phase, f"{p['positions']:.0f}", pct(p["first"]), f"{p['ratio']:.4f}"]
                  for d, x in depths_found.items() for phase, p in x["phases"].items()]
    return [(f"The verdict per depth ({level} intervals: a Bonferroni correction over the "
             "claim's checks); beside each judged statistic the two not chosen, not judged",
             ["depth", "parity", "first-move rate, PVS (judged: totals)",
              "mean / median per position", "over every fail-high", "alpha-beta's",
              "PVS / alpha-beta total nodes (judged: geometric mean)",
              "ratio of totals / median", "PVS fewer / equal / more", "search nodes only",
              "qnodes only", "quiescence share of the saving", "PVS re-search rate",
              "positions"], [_row(d, x) for d, x in depths_found.items()]),
            ("Per game phase (not judged): PVS's first-move rate (totals) and PVS / alpha-beta "
             "total nodes (geometric mean)",
             ["depth", "phase", "positions", "first-move rate", "PVS / alpha-beta"], phase_rows)]


def chart(numbers: Mapping[str, Any]) -> Figure:
    """Per depth: PVS's first-move rate and its node ratio to alpha-beta, with intervals
    and the claimed bands; odd and even depths in their own colours."""
    depths_found = numbers["depths"]
    names = list(depths_found)
    x = np.array([int(d) for d in names])
    with charts.chart_style():
        fig = charts.figure(11.0, 3.6)
        left, right = fig.subplots(1, 2)
        for axis, key, value, band, label in (
                (left, "first", "rate", RULES.check("first-move").band, "claimed: about 90%"),
                (right, "ratio", "ratio", RULES.check("saves").band, "claimed: about 10% saved")):
            for k, parity in enumerate(("even", "odd")):
                chosen = [i for i, d in enumerate(names) if (int(d) % 2 == 1) == (parity == "odd")]
                point = np.array([depths_found[names[i]][key][value] for i in chosen])
                low = np.array([depths_found[names[i]][key]["low"] for i in chosen])
                high = np.array([depths_found[names[i]][key]["high"] for i in chosen])
                axis.errorbar(x[chosen], point, yerr=[point - low, high - point], fmt="o",
                              capsize=3, label=f"{parity} depths",
                              color=charts.variant_style(k)["color"])
            axis.axhspan(band.low, band.high, color="#2ca02c", alpha=0.15, label=label)
            axis.set_xticks(x)
            axis.set_xlabel("depth (iterative deepening to it)")
            axis.legend(fontsize=7)
        left.set_ylabel("PVS's move fail-highs on the first move")
        left.set_title("First-move fail-high rate, modern profile")
        right.axhline(1.0, color="black", linewidth=1)
        right.set_ylabel("total nodes, PVS / alpha-beta (geometric mean)")
        right.set_title(f"PVS against alpha-beta ({RULES.bootstrap.level:.2%} intervals)")
    return fig


def _listed(depths_found: Mapping[str, Any], which: list[str], text: Any) -> str:
    return ", ".join(f"{d}: {text(depths_found[d])}" for d in which)


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames.get(KEY)
    phase, data = seeded_phase(RULES, KEY, ctx.scale.seed_of(KEY))
    if frame is None or frame.empty:
        return unmeasured_section(info)
    numbers = {**numbers_of(frame, str(data["suite"]), RULES.bootstrap), "phase": phase,
               "suite": data["suite"], "profile": PROFILE.name}
    checks = judge(numbers)
    found, parity = numbers["depths"], numbers["parity"]
    setup = (f"The object: {RULES.parameters['object']}. Positions: "
             f"{max(x['positions'] for x in found.values())} of {data['suite']} ({phase}: "
             f"positions {data['positions'][0]}-{data['positions'][1]}"
             f"{', the first of them' if phase == 'explore' else ''}); alpha-beta and PVS with "
             f"the profile {PROFILE.name} ({', '.join(e.name for e in PROFILE.enhancements)}), "
             f"each depth {', '.join(found)} an iterative-deepening search of its own. "
             "First-move rate: PVS's fail_highs_first over its fail-highs a move caused (the "
             "null move's and reverse futility's cut-offs left out), totals over positions; "
             "saving: the geometric mean of per-position total-node ratios PVS / alpha-beta. "
             f"Intervals: a percentile bootstrap over positions at {RULES.bootstrap.level:.2%} "
             "(Bonferroni over the claim's checks).")
    measured = (
        "PVS's first-move rate of its move fail-highs and PVS / alpha-beta total nodes, odd "
        "depths " + _listed(found, parity["odd"], lambda x: f"{pct(x['first']['rate'])}, "
                            f"{x['ratio']['ratio']:.3f}")
        + "; even depths " + _listed(found, parity["even"], lambda x: f"{pct(x['first']['rate'])}, "
                                     f"{x['ratio']['ratio']:.3f}")
        + ". Not judged, beside them: the rate over every fail-high (null-move and static "
        "cut-offs included) " + ", ".join(pct(x["first_every"]) for x in found.values())
        + "; the per-position mean / median rate " + ", ".join(
            f"{pct(x['first_mean'])} / {pct(x['first_median'])}" for x in found.values())
        + "; the ratio of totals / median ratio " + ", ".join(
            f"{x['ratio']['totals']:.3f} / {x['ratio']['median']:.3f}" for x in found.values())
        + "; on search nodes alone " + ", ".join(f"{x['ratio_nodes']:.3f}" for x in found.values())
        + ". Per game phase at the deepest depth: " + "; ".join(
            f"{p} {pct(v['first'])}, {v['ratio']:.3f} ({v['positions']:.0f} positions)"
            for p, v in found[max(found, key=int)]["phases"].items()) + ".")
    return Section(info, setup, measured, numbers, checks, tables(numbers),
                   [("pvs_modern", "First-move fail-highs and PVS's saving on the modern profile",
                     chart(numbers))], verdict_of(checks))


CLAIM = ClaimInfo(
    KEY, "The PVS article on a modern engine: 90% first-move fail-highs, 10% saved",
    "pvs-wiki-article.txt",
    "\"Typically, modern chess programs find fail-highs on the first move around 90% "
    "of the time\"; \"with a good move ordering we expect to save about 10% of a "
    "search effort\" (PVS against alpha-beta): claim 4 on its author's object, a modern "
    "program's search.", analyse, jobs=jobs, rules=RULES)
