"""Claim 16. Claim 13's question in Othello and checkers: Schaeffer (1989) found in chess
that the transposition table and the history heuristic together account for 99% of the
possible reductions in tree size for trees up to depth 8, the other enhancements of his
study yielding insignificant gains. The same seven enhancements (:data:`.schaeffer.ENHANCEMENTS`),
the same combinations, the same numbers and checks, on the harness's Othello and checkers
engines in their classic profile (full-width fail-hard alpha-beta over the compiled tree,
its static move order): the extension the issue names, a claim of its own so that claim
13's registered rules stay as they were confirmed.

Killer moves and the history heuristic are options of an Othello or checkers problem (fixed
when its tree is made: :mod:`harness.games.dynamic_order`), not of a search, so the jobs
are one per position and setting of the two (:meth:`.schaeffer.Combination.game_options`),
each with the searches that setting belongs to; the numbers join them by position.
Aspiration search's window is each game's own (its rules' ``aspiration_window``), in its
evaluation's units.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from harness.reproduce import rules
from harness.reproduce.analysis import ClaimInfo, Context, Section, unmeasured_section
from harness.reproduce.claims import schaeffer
from harness.reproduce.claims.schaeffer import (
    ALL,
    ENHANCEMENTS,
    EVERY,
    NAMES,
    unique_searches,
)
from harness.reproduce.claims.three_games import held_out_positions
from harness.reproduce.measure import Job, Scale
from harness.reproduce.phases import data_of, seeded_phase
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import Check, verdict_with_extensions

RULES = rules.load("schaeffer-games")
"""The registered rules (``rules/schaeffer-games.json``): claim 13's checks (``share``,
``insignificant/<enhancement>`` and the two with iterative deepening, as extensions), in
each game."""

KEY = "schaeffer-games"
"""The claim's key, and its seeded dataset's name (the seed names the phase's data)."""

GAMES = ("othello", "checkers")
"""The games, in report order."""

FIRST_DEPTH = int(RULES.parameters["first_depth"])
"""The shallowest depth searched and judged."""


def window(game: str) -> int:
    """Aspiration search's half-width in ``game``'s evaluation units (the rules')."""
    return int(RULES.parameters["aspiration_window"][game])


# ---------------------------------------------------------------------------------------
# The jobs


def game_jobs(game: str, data: Mapping[str, Any], explore: Mapping[str, Any], count: int,
              factorial: int, deepest: int, tt_size: int) -> list[Job]:
    """One job per position of ``game`` and setting of killers and history: the distinct
    searches of that setting, every combination at the factorial depths, the checks' at the
    deeper ones, shallow first."""
    every = schaeffer.searches(*schaeffer.factorial_depths(FIRST_DEPTH, factorial, deepest))
    found: list[Job] = []
    for options in sorted({c.game_options() for _, c in every}):
        runs = tuple(c.run(d, tt_size, window(game), chess=False)
                     for d, c in every if c.game_options() == options)
        found += [((("dataset", KEY), ("set", game)), p, runs)
                  for p in held_out_positions(game, data, explore, count, options)]
    return found


def jobs(scale: Scale) -> list[Job]:
    """Every game's jobs (:func:`game_jobs`) from the data of the phase the scale's seed
    names."""
    _, data = seeded_phase(RULES, KEY, scale.seed_of(KEY))
    explore = data_of(RULES, "explore")
    assert explore is not None
    return [job for game, count, factorial, deepest in scale.schaeffer_games
            for job in game_jobs(game, data, explore[KEY], count, factorial, deepest,
                                 scale.tt_size)]


# ---------------------------------------------------------------------------------------
# The numbers and the report


def game_numbers(part: pd.DataFrame, boot: Bootstrap, factorial: int) -> dict[str, Any]:
    """One game's numbers: claim 13's, per depth (:func:`.schaeffer.numbers_of`)."""
    return {"depths": schaeffer.numbers_of(part, boot), "factorial_depth": factorial}


def numbers_of(frame: pd.DataFrame, boot: Bootstrap, scale: Scale) -> dict[str, Any]:
    """Every game's numbers, in :data:`GAMES`'s order."""
    factorial = {game: f for game, _, f, _ in scale.schaeffer_games}
    parts = {str(name): part for name, part in frame.groupby("set", sort=False)}
    return {game: game_numbers(parts[game], boot, factorial[game])
            for game in GAMES if game in parts}


def judged_from(game: str) -> int:
    """The shallowest depth judged in ``game`` (the rules'; shallower ones are reported)."""
    return int(RULES.parameters["judged_from"][game])


def judge(games: Mapping[str, Any]) -> list[Check]:
    """Claim 13's checks in each game from its :func:`judged_from` depth, the game named in
    each statement, each check the game's own rule (``share/othello``); a game searched to
    no judged depth (a small scale) has none."""
    checks: list[Check] = []
    for game, numbers in games.items():
        judged = {d: x for d, x in numbers["depths"].items() if int(d) >= judged_from(game)}
        if judged:
            checks += schaeffer.judge({**numbers, "depths": judged}, RULES, f"{game}, ",
                                      f"/{game}")
    return checks


def share_text(found: Mapping[str, float]) -> str:
    """A share and its interval, or why it has none: the seven enhancements together did
    not reduce the tree (in the totals, or in some resample)."""
    if math.isnan(found["value"]):
        return "undefined (the seven together did not reduce the tree)"
    if math.isnan(found["low"]):
        return f"{found['value']:.4f} (no interval: some resamples had no reduction to share)"
    return f"{found['value']:.4f} ({found['low']:.4f} to {found['high']:.4f})"


def measured_text(game: str, numbers: Mapping[str, Any]) -> str:
    """One game's shares and gains in a sentence."""
    depths = numbers["depths"]
    deepest = max(depths, key=int)
    return (f"{game.capitalize()}: the share of the possible reduction table + history "
            f"achieve, per depth (judged from depth {judged_from(game)}): " + "; ".join(
                f"{d}: {share_text(x['share'])}" for d, x in depths.items())
            + "; with iterative deepening: " + ", ".join(
                share_text(x["share_deepening"]).split(" (")[0] for x in depths.values())
            + f". At depth {deepest}, each other enhancement's gain over table + history: "
            + ", ".join(f"{NAMES[e]} {g['value']:+.4f}"
                        for e, g in depths[deepest]["gains"].items())
            + f"; all seven search {depths[deepest]['to_bare'][ALL.search().label]:.4f} of the "
            f"bare search's total nodes ({depths[deepest]['positions']} positions).")


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames.get(KEY)
    phase, data = seeded_phase(RULES, KEY, ctx.scale.seed_of(KEY))
    if frame is None or frame.empty:
        return unmeasured_section(info)
    games = numbers_of(frame, RULES.bootstrap, ctx.scale)
    checks = judge(games)
    sizes = {game: (count, factorial, deepest)
             for game, count, factorial, deepest in ctx.scale.schaeffer_games}
    setup = (f"The object: {RULES.parameters['object']}. Positions ({phase}): " + "; ".join(
        f"{game} {next(iter(numbers['depths'].values()))['positions']} of {data[game]} "
        f"(every combination at depths {FIRST_DEPTH}-{sizes[game][1]}"
        + (f", the searches the checks read at {sizes[game][1] + 1}-{sizes[game][2]}"
           if sizes[game][2] > sizes[game][1] else "") + ")"
        for game, numbers in games.items())
        + ". Aspiration's window: " + ", ".join(f"{g} {window(g)}" for g in games)
        + " (each game's evaluation units). The seven enhancements: "
        + ", ".join(NAMES[e] for e in ENHANCEMENTS) + f" ({len(unique_searches(EVERY))} "
        "distinct searches of the 128 combinations). Tree size: total nodes summed over the "
        "positions; intervals: a percentile bootstrap over positions.")
    measured = " ".join(measured_text(game, numbers) for game, numbers in games.items()) + (
        " Odd and even depths are rows of their own; the per-position mean and median of "
        "each share are shown beside it, not judged.")
    tables = [t for game, numbers in games.items()
              for t in schaeffer.tables(numbers, f"{game.capitalize()}: ", RULES.bootstrap.level)]
    figures = [(f"schaeffer-{game}", f"{game.capitalize()}: table + history against every "
                "enhancement", schaeffer.chart(numbers, f"{game.capitalize()}: "))
               for game, numbers in games.items()]
    numbers: dict[str, Any] = {"games": games, "phase": phase,
                               "suites": {g: data[g] for g in games}}
    return Section(info, setup, measured, numbers, checks, tables, figures,
                   verdict_with_extensions(checks))


CLAIM = ClaimInfo(
    KEY, "Schaeffer (1989) in Othello and checkers: table and history do nearly all",
    "Schaeffer, IEEE PAMI 11(11), 1989 (abstract); claim 13's extension to two other games",
    "\"for trees up to depth 8, this combination [the history heuristic with transposition "
    "tables] accounts for 99% of the possible reductions in tree size, with the other "
    "enhancements yielding insignificant gains\" (the abstract, of chess): asked of Othello "
    "and checkers.", analyse, jobs=jobs, rules=RULES)

