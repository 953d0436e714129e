"""Claim 12. Plaat, Schaeffer, Pijls and de Bruin (1996) in their three games: MTD(f) against
aspiration NegaScout, PVS, MTD-bi, MT-SSS* and MT-DUAL* in chess, Othello and checkers with
iterative deepening and MT's table, each depth of a range its own search; the same on
synthetic trees beside them; and MTD(f)'s sensitivity to its first guess.

The jobs (:func:`jobs`) are one per position (or tree) with every algorithm at every depth
of the set's range and, on game positions, MTD(f) from first guesses around the position's
value (:attr:`harness.reproduce.measure.Run.guess_error`). The verdict is read at each
game's deepest depth (:func:`judge_three_games`); the trend, the synthetic trees and the
first guess are observations, drawn in :mod:`.three_games_charts`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.chess.suite_files import find_suite
from harness.games.chess.tree import Ordering
from harness.games.registry import load_problems
from harness.report import stats
from harness.reproduce import rules
from harness.reproduce.analysis import (
    fmt,
    mean_summary,
    pair_ratio,
    paired,
    percentile_interval,
    resampled_sums,
)
from harness.reproduce.claims.mtdf import per_iteration, plaat_checks
from harness.reproduce.measure import GAME_PHASES, Job, Run, Scale, chess_positions, game_phases
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import Check, count_check, interval_check
from harness.search.run import Switches

RULES = rules.load("three-games")
"""The registered rules (``rules/three-games.json``): per game, "fewer leaves" (0, 0.99],
"5-10%" [0.90, 0.95], "fewer total nodes" (0, 0.99], "3-6 passes" [3, 6] and "differ by less
than 20%" [1, 1.2) at the game's deepest depth; the variants, switches, synthetic trees and
first-guess errors."""

KEY = "three-games"
"""The claim's key, and its dataset's name in the rows."""

GAMES = ("chess", "othello", "checkers")
"""The three games, each judged on its own."""

SYNTHETIC = tuple(str(k) for k in RULES.parameters["synthetic"])
"""The synthetic sets beside the games (observations)."""

MTDF, REFERENCE = "mtdf", str(RULES.parameters["reference"])
"""MTD(f), and aspiration NegaScout: every ratio is an algorithm's over the reference's."""

VARIANTS = (REFERENCE, *(str(v) for v in RULES.parameters["variants"] if v != REFERENCE))
"""The six algorithms, the reference first: its score at a depth is the value a first guess
is placed around (it has no pass cap to stop it short of the value)."""

SPREAD = tuple(str(v) for v in RULES.parameters["spread_variants"])
"""The algorithms the spread check compares: those the source's 20% sentence covers (the
rules say which and why); the spread of all six is an extension beside it."""

NAMES = {"mtdf": "MTD(f)", "aspiration:inner=negascout": "aspiration NegaScout", "pvs": "PVS",
         "mtd-bi": "MTD-bi", "mt-sss": "MT-SSS*", "mt-dual": "MT-DUAL*"}
"""Each algorithm's name in the text and the charts."""

CONFIG, GUESS = "MT", "first guess"
"""The rows' configurations: the iterative searches, and MTD(f) from a set first guess."""

COUNTERS = (("leaves", "leaves"), ("total nodes", "effort"))
"""The counters compared: the text's name and the rows' column (``effort``: nodes + qnodes)."""


# ---------------------------------------------------------------------------------------
# The jobs


def phase_data(seed: int) -> Mapping[str, Any]:
    """The data the rules name for the phase whose seed is ``seed``."""
    for phase in ("explore", "confirm"):
        found: Mapping[str, Any] | None = (RULES.rules["phases"].get(phase) or {}).get("games")
        if found is not None and int(found["seed"]) == seed:
            return found
    raise HarnessError(f"{RULES.path}: no phase's games data have seed {seed}")


def spread_evenly(problems: Sequence[Problem], count: int) -> list[Problem]:
    """``count`` of ``problems`` spread evenly through them (the k-th at index
    ``floor(k * size / count)``); all of them when there are no more than ``count``."""
    size = len(problems)
    if size <= count:
        return list(problems)
    return [problems[k * size // count] for k in range(count)]


def chess_parts(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A phase's chess positions: one suite's range (``{"suite", "positions": [first,
    last]}``), or a list of them, searched in turn."""
    chess = data["chess"]
    return [chess] if isinstance(chess, Mapping) else list(chess)


def problems_of(name: str, data: Mapping[str, Any], count: int, depth: int) -> list[Problem]:
    """A set's problems in a phase (``data``): chess positions of the named ranges, an
    Othello or checkers file of the game's positions (:func:`held_out_positions`), or
    synthetic trees of depth ``depth`` from the phase's seed."""
    if name not in GAMES:
        return list(load_problems(f"random:d={depth},n={count},seed={int(data['seed'])},"
                                  f"{RULES.parameters['synthetic'][name]}").problems)
    return held_out_positions(name, data, RULES.rules["phases"]["explore"]["games"], count)


def held_out_positions(name: str, data: Mapping[str, Any], explore: Mapping[str, Any], count: int,
                       options: str = "") -> list[Problem]:
    """A game's positions in a phase (``data``), at most ``count`` spread evenly, with the
    game's ``options``. A confirmation leaves out any position the exploration's data
    (``explore``) hold too (held out means never explored), and any position of the files
    its ``searched`` names for the game (data an earlier phase or version searched)."""
    found = _positions(name, data, options)
    if data is not explore and data != explore:
        seen = {_key(p) for p in _positions(name, explore)}
        seen |= {_key(p) for earlier in data.get("searched", {}).get(name, ())
                 for p in _positions(name, {name: earlier})}
        found = [p for p in found if _key(p) not in seen]
    return spread_evenly(found, count)


def _positions(name: str, data: Mapping[str, Any], options: str = "") -> list[Problem]:
    """Every position a phase names for a game, in order, with the game's ``options``; no
    chess positions when a suite it names is not found (the public suites of
    ``../shared/positions`` are not in a fresh clone): the game is then not measured, and
    the report says so, as Pons's claim does without his sets."""
    if name == "chess":
        try:
            suites = [(find_suite(str(part["suite"])), part) for part in chess_parts(data)]
        except HarnessError:
            return []
        return [p for path, part in suites for p in chess_positions(
            path, part["positions"][0], part["positions"][1] - part["positions"][0] + 1, options)]
    return list(load_problems(f"{name}:{data[name]}" + (f",{options}" if options else "")).problems)


def _key(problem: Problem) -> str:
    """What makes a position (a chess position's board, side, castling and en passant)."""
    return " ".join(problem.position.split()[:4])


def switches() -> Switches:
    """MT's switches: the table, its move first, leaves stored, hits narrowing, iterative
    deepening."""
    on = RULES.parameters["switches"]
    return Switches(tt_size=int(RULES.parameters["tt_size"]),
                    iterative_deepening=bool(on["iterative_deepening"]),
                    tt_leaves=bool(on["tt_leaves"]), tt_narrow=bool(on["tt_narrow"]))


def runs_of(name: str, first: int, last: int) -> tuple[Run, ...]:
    """Every algorithm at every depth of ``first`` to ``last``, shallow first; on a game,
    then MTD(f) at ``last`` without iterative deepening from each first guess."""
    ordering = Ordering(**RULES.parameters["chess_ordering"]) if name == "chess" else None
    mt = switches()
    runs = [Run(CONFIG, v, d, mt, ordering) for d in range(first, last + 1) for v in VARIANTS]
    if name in GAMES:
        guess = f"{MTDF}:max_passes={int(RULES.parameters['guess_max_passes'])}"
        runs += [Run(GUESS, guess, last, replace(mt, iterative_deepening=False), ordering,
                     guess_error=int(e)) for e in RULES.parameters["guess_errors"][name]]
    return tuple(runs)


def jobs(scale: Scale) -> list[Job]:
    """One job per problem of each set of the scale (:attr:`Scale.games`), from the data of
    the phase the scale's ``games`` seed names; the first-guess runs on at most the rules'
    ``guess_positions`` of each game, spread evenly (every position when none is named)."""
    data = phase_data(scale.seed_of("games"))
    found: list[Job] = []
    for name, count, first, last in scale.games:
        runs = runs_of(name, first, last)
        iterative = tuple(r for r in runs if r.config == CONFIG)
        problems = problems_of(name, data, count, last)
        most = int(RULES.parameters.get("guess_positions", len(problems)))
        guessed = {p.problem_id for p in spread_evenly(problems, most)}
        found += [(((("dataset", KEY), ("set", name))), p,
                   runs if p.problem_id in guessed else iterative) for p in problems]
    return found


# ---------------------------------------------------------------------------------------
# The numbers


def spread(frame: pd.DataFrame, boot: Bootstrap, counter: str = "leaves",
           among: Sequence[str] = VARIANTS) -> dict[str, Any]:
    """The largest over the smallest of the geometric-mean ratios of ``counter`` to the
    reference's (its own 1 among them) of the algorithms ``among`` (the reference one of
    them), on the problems all of them searched, with a bootstrap interval: the problems
    drawn together for every algorithm."""
    frame = frame[frame["variant"].isin(among)]
    frame = frame.assign(effort=frame["nodes"] + frame["qnodes"])
    wide = frame.pivot_table(index=["suite", "problem_id"], columns="variant", values=counter,
                             aggfunc="first").dropna()
    if wide.empty:
        return {"spread": float("nan"), "low": float("nan"), "high": float("nan"), "n": 0.0,
                "most": "", "fewest": ""}
    names = [v for v in VARIANTS if v in wide.columns]
    logs = np.column_stack([stats.log_ratios(wide[REFERENCE], wide[v]) for v in names])
    n = len(wide)
    means = np.exp(resampled_sums(logs, boot) / n)
    low, high = percentile_interval(means.max(axis=1) / means.min(axis=1), boot.level)
    point = np.exp(logs.mean(axis=0))
    return {"spread": float(point.max() / point.min()), "low": low, "high": high, "n": float(n),
            "most": names[int(point.argmax())], "fewest": names[int(point.argmin())]}


def at_depth(frame: pd.DataFrame, depth: int, boot: Bootstrap) -> dict[str, Any]:
    """One set at one depth: every algorithm's ratios to aspiration NegaScout (leaves, total
    nodes), MTD(f)'s passes per iteration after the first, the spread of leaves and total
    nodes among the spread check's algorithms (:data:`SPREAD`), the spread of leaves among
    all six (``spread_all``), and the searches that hit a pass cap."""
    rows = frame[frame["depth"] == depth]
    ratios = {v: {column: pair_ratio(rows, REFERENCE, v, boot, column) for _, column in COUNTERS}
              for v in VARIANTS if v != REFERENCE}
    mtd = rows[rows["variant"] == MTDF]
    passes = per_iteration(mtd, depth).to_numpy(dtype=float) if depth > 1 else np.empty(0)
    return {"ratios": ratios, "passes": mean_summary(passes, boot),
            "passes_by_variant": {v: float(rows.loc[rows["variant"] == v, "passes"].mean() / depth)
                                  for v in VARIANTS},
            "spread": spread(rows, boot, among=SPREAD),
            "spread_total": spread(rows, boot, "effort", among=SPREAD),
            "spread_all": spread(rows, boot),
            "pass_caps": {v: int(((rows["variant"] == v) & (rows["status"] == "pass-cap")).sum())
                          for v in VARIANTS}}


def guess_effect(frame: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """MTD(f) from each first guess: per error, total nodes and leaves relative to the guess
    of error 0 on the same position (geometric means, intervals), mean passes and pass caps."""
    rows = frame.assign(variant=frame["guess_error"].astype(int).astype(str))
    out: dict[str, Any] = {}
    for error in sorted(rows["guess_error"].astype(int).unique()):
        part = rows[rows["variant"] == str(error)]
        out[str(error)] = {"total": pair_ratio(rows, "0", str(error), boot),
                           "leaves": pair_ratio(rows, "0", str(error), boot, "leaves"),
                           "passes": float(part["passes"].mean()),
                           "pass_caps": int((part["status"] == "pass-cap").sum())}
    return out


def disagreements(frame: pd.DataFrame, config: str = CONFIG) -> tuple[int, int]:
    """Searches of the configuration ``config`` (the iterative one) whose score differs
    from aspiration NegaScout's on the same problem and depth, and the searches compared
    (the other algorithms', not aspiration NegaScout's own: the fourth referee reading's
    minor point)."""
    rows = frame[frame["config"] == config]
    keys = ["set", "suite", "problem_id", "depth"]
    truth = rows[rows["variant"] == REFERENCE].set_index(keys)["score"].rename("truth")
    joined = rows[rows["variant"] != REFERENCE].join(truth, on=keys)
    return int((joined["score"] != joined["truth"]).sum()), len(joined)


def phase_numbers(frame: pd.DataFrame, depths: Sequence[int]) -> dict[str, dict[str, Any]]:
    """Chess per game phase (the positions' ``c0``) and depth, not judged: positions,
    MTD(f) / aspiration NegaScout leaves and total nodes (geometric means) and MTD(f)'s
    passes per iteration after the first. Openings, a third of the positions, can decide a
    pooled figure alone (the third referee reading: 11.1 passes per iteration at depth 6
    against 6.35 and 5.59)."""
    phase_of = frame["problem_id"].map(game_phases(*frame["suite"].unique()))
    found: dict[str, dict[str, Any]] = {}
    for phase in GAME_PHASES:
        rows = frame[phase_of == phase]
        if rows.empty:
            continue
        found[phase] = {}
        for depth in depths:
            at = rows[rows["depth"] == depth]
            ratio = {}
            for _, column in COUNTERS:
                both = paired(at, REFERENCE, MTDF, column)
                ratio[column] = stats.geometric_mean_ratio(both[f"{column}_a"], both[f"{column}_b"])
            mtd = at[at["variant"] == MTDF]
            found[phase][str(depth)] = {
                "positions": int(mtd["problem_id"].nunique()), **ratio,
                "passes": float(per_iteration(mtd, depth).mean()) if depth > 1 else float("nan")}
    return found


def numbers_of(frame: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """Every set's numbers at every depth, the deepest depth of each, its searches whose
    score differs from aspiration NegaScout's, the first-guess effect per game, and the
    value check's count: the differing searches on synthetic trees, where no position is
    reached twice (in a game a table entry searched deeper may answer a shallower search, so
    exact algorithms may differ there: an observation)."""
    sets: dict[str, Any] = {}
    for name, part in frame.groupby("set", sort=False):
        iterative = part[part["config"] == CONFIG]
        depths = sorted(int(d) for d in iterative["depth"].unique())
        wrong, compared = disagreements(part)
        found: dict[str, Any] = {"deepest": depths[-1], "problems": int(part["problem_id"].nunique()),
                                 "by_depth": {str(d): at_depth(iterative, d, boot) for d in depths},
                                 "score_differs": [wrong, compared]}
        if name == "chess":
            found["game_phases"] = phase_numbers(iterative, depths)
        guesses = part[part["config"] == GUESS]
        if len(guesses):
            found["guess"] = guess_effect(guesses, boot)
        sets[str(name)] = found
    trees = [sets[s]["score_differs"] for s in SYNTHETIC if s in sets]
    return {"measured": True, "sets": sets, "value_disagreements": sum(w for w, _ in trees),
            "searches": sum(c for _, c in trees)}


def deepest(numbers: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    """A set's numbers at its deepest depth (``None``: not measured)."""
    found = numbers["sets"].get(name)
    return None if found is None else found["by_depth"][str(found["deepest"])]


# ---------------------------------------------------------------------------------------
# The verdict


def judge_three_games(numbers: Mapping[str, Any]) -> list[Check]:
    """Per game at its deepest depth: fewer leaves, by 5-10% (one interval: counted once),
    fewer total nodes, 3-6 passes per iteration, and the spread check's algorithms
    (:data:`SPREAD`) within 20% of each other; the same for all six as an extension; every
    search's score aspiration NegaScout's on synthetic trees as a correctness check."""
    checks: list[Check] = []
    for game in GAMES:
        found = deepest(numbers, game)
        if found is None:
            continue
        depth = numbers["sets"][game]["deepest"]
        mtd, wide = found["ratios"][MTDF], found["spread"]
        statements = [RULES.check(c, within=game) for c in
                      ("fewer", "five-to-ten", "total-nodes", "passes")]
        within, every = (RULES.check(c, within=game) for c in ("spread", "spread-six"))
        at = f"{game}, depth {depth}"
        four = ", ".join(NAMES[v] for v in SPREAD)
        checks += [
            *plaat_checks(mtd["leaves"], mtd["effort"], found["passes"], statements, at),
            interval_check(f"{at}: the leaves of {four} differ by less than 20% (most over "
                           f"fewest in {within.band})", wide["low"], wide["high"],
                           within.band, spread_text(wide), within.kind),
            interval_check(
                f"{at}: all six algorithms' leaves (MTD-bi and PVS besides) differ by less than "
                f"20% (most over fewest in {every.band})", found["spread_all"]["low"],
                found["spread_all"]["high"], every.band, spread_text(found["spread_all"]),
                every.kind, extension=every.extension),
        ]
    values = RULES.check("values")
    checks.append(count_check(
        f"on synthetic trees every algorithm's score is aspiration NegaScout's on the same "
        f"tree and depth (searches that differ, in {values.band})",
        int(numbers["value_disagreements"]), int(numbers["searches"]),
        values.band, f"{numbers['searches'] - numbers['value_disagreements']:,} of "
        f"{numbers['searches']:,} agree", values.kind))
    return checks


def spread_text(s: Mapping[str, Any]) -> str:
    """A spread in words: ``1.083 (95% interval 1.05 to 1.12; most MT-SSS*, fewest MTD(f))``."""
    return (f"{fmt(s['spread'], 3)} (interval {fmt(s['low'], 3)} to {fmt(s['high'], 3)}, "
            f"n = {s['n']:.0f}; most {NAMES.get(s['most'], s['most'])}, fewest "
            f"{NAMES.get(s['fewest'], s['fewest'])})")
