"""Claim 8. Every variant's advantage over alpha-beta against move-ordering quality: the
trends on the synthetic ordering sweep, judged by what the texts say about ordering."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from harness.report import charts, stats
from harness.reproduce import rules
from harness.reproduce.analysis import (
    ClaimInfo,
    Context,
    Section,
    fmt,
    interval,
    mean_summary,
    pair_ratio,
    paired,
    ratio_summary,
    wtl,
)
from harness.reproduce.measure import ALL_VARIANTS, ORDERING_LEVELS, VALUE_MODELS, ladder
from harness.reproduce.verdicts import (
    EXTENSION,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NO_WAC,
    Band,
    Check,
    all_of,
    count_check,
    interval_check,
    knuth_moore_formula,
    outcome_of,
    ratio_text,
    verdict_of,
    verdict_with_extensions,
)

RULES = rules.load("ordering")
"""The registered rules (``rules/ordering.json``): the levels standing for good, poor and
perfect ordering, and each statement's band."""

GOOD_ORDERING = str(RULES.parameters["good_ordering"])
"""The synthetic ordering level standing for good (not perfect) ordering."""

POOR_ORDERING = str(RULES.parameters["poor_ordering"])
"""The synthetic ordering standing for no ordering at all."""

PERFECT_ORDERING = str(RULES.parameters["perfect_ordering"])
"""The synthetic ordering level with the best child always first."""

RISE = Band.parse(str(RULES.parameters["rise_band"]))
"""A step of p after which alpha-beta's nodes rose significantly: its interval in this band."""

CHESS_GOOD = str(RULES.parameters["chess_good"])
"""The chess ladder's step standing for good ordering (every enhancement)."""

CHESS_POOR = str(RULES.parameters["chess_poor"])
"""The chess ladder's step standing for poor ordering (none: generation order)."""

ZERO_WINDOW = ("pvs", "negascout")
"""The zero-window variants the GNUchess study and the PVS article speak of."""

MINIMAL_TREE_VARIANTS = ("alphabeta", "pvs", "negascout")
"""The variants VARIANTS.md says evaluate Knuth and Moore's minimal tree when the best child
comes first (distinct values)."""

MINIMAL_TREE_MODEL = str(RULES.parameters["minimal_tree_model"])
"""The value model the minimal-tree statement is checked on (its premise is distinct values)."""

_LEVELS = [lv for lv in ORDERING_LEVELS if lv != "random"]
"""The ordering probabilities, 0.0 to 1.0."""


# ---------------------------------------------------------------------------------------
# The judge


def _each(found: Mapping[str, Mapping[str, float]], band: Band,
          text: Callable[[Mapping[str, float]], str] = ratio_text) -> tuple[str, str]:
    """The outcome of "each variant of ``found`` has its interval in ``band``"
    (:func:`all_of`), and what each measured."""
    outcome = all_of(outcome_of(r["low"], r["high"], band) for r in found.values())
    return outcome, "; ".join(f"{v}: {text(r)}" for v, r in found.items())


def _chess_statements(chess: Mapping[str, Any] | None) -> list[tuple[str, Check]]:
    """The GNUchess study's predictions on its author's object, chess (the ladder's ends:
    no ordering against every enhancement, pvs against alphabeta): claim checks. None
    without a chess suite. "Good ordering saves" tests the interval claim 4 tests at its
    depth 4 (the same positions, switches and ratio: the rules' ``shares``), and says so."""
    if chess is None:
        return []
    good, poor = CHESS_GOOD, CHESS_POOR
    rules = {k: RULES.check(f"chess/{k}") for k in ("good-saves", "advantage-shrinks",
                                                    "more-research", "can-lose")}
    lose = chess["can_lose"]
    shared = rules["good-saves"].shares
    return [
        ("chess: good ordering saves", interval_check(
            f"chess, {good}: pvs searches fewer total nodes than alpha-beta (geometric-mean "
            f"ratio in {rules['good-saves'].band})" + (f"; {shared}" if shared else ""),
            chess["good"]["low"], chess["good"]["high"],
            rules["good-saves"].band, ratio_text(chess["good"]), rules["good-saves"].kind)),
        (f"chess: the advantage shrinks with ordering {poor}", interval_check(
            f"chess: with ordering {poor} pvs's advantage over alpha-beta shrinks: per position, "
            f"(ratio with {poor}) / (ratio with {good}), geometric mean in "
            f"{rules['advantage-shrinks'].band}", chess["shrinks"]["low"], chess["shrinks"]["high"],
            rules["advantage-shrinks"].band, ratio_text(chess["shrinks"]),
            rules["advantage-shrinks"].kind)),
        (f"chess: more re-search with ordering {poor}", interval_check(
            f"chess: with ordering {poor} pvs spends more nodes in re-searches than with {good} "
            f"(per position, geometric mean in {rules['more-research'].band})",
            chess["research"]["low"], chess["research"]["high"], rules["more-research"].band,
            ratio_text(chess["research"]), rules["more-research"].kind)),
        (f"chess: loses with ordering {poor}", interval_check(
            f"chess: with ordering {poor} pvs loses to alpha-beta on a share of positions that "
            f"matters: the rate of positions where it searches more total nodes, in "
            f"{rules['can-lose'].band}", lose["low"], lose["high"], rules["can-lose"].band,
            rate_text(lose, "positions"), rules["can-lose"].kind)),
    ]


def rate_text(r: Mapping[str, float], what: str) -> str:
    """A loss rate in words: ``1.3% (95% interval 0.0% to 3.3%; more on 2 of 150 positions)``."""
    return (f"{r['mean']:.1%} ({r['level']:.0%} interval {r['low']:.1%} to {r['high']:.1%}; "
            f"more on {r['more']:.0f} of {r['n']:.0f} {what})")


def loss_rate(a: pd.Series | Any, b: pd.Series | Any) -> dict[str, float]:
    """The share of problems where ``b`` searched more than ``a`` (paired arrays), with its
    bootstrap interval over problems (:func:`mean_summary` of the indicator), and the count."""
    more = (np.asarray(b, dtype=np.float64) > np.asarray(a, dtype=np.float64)).astype(np.float64)
    return {**mean_summary(more, RULES.bootstrap), "more": float(more.sum())}


def chess_numbers(chess: pd.DataFrame | None) -> dict[str, Any] | None:
    """PVS against alpha-beta at the ladder's ends on chess: the ratio with good ordering,
    its change with poor ordering, the re-search nodes' change and the share of positions
    lost; and the same ratios on search nodes alone (quiescence left out), to show whether
    a trend is only quiescence's."""
    if chess is None:
        return None
    boot = RULES.bootstrap

    def per_position(config: str, counter: str = "effort") -> pd.DataFrame:
        return paired(chess[chess["config"] == config], "alphabeta", "pvs", counter).set_index(
            ["suite", "problem_id"])

    def ends(counter: str) -> dict[str, dict[str, float]]:
        good, poor = per_position(CHESS_GOOD, counter), per_position(CHESS_POOR, counter)
        a, b = f"{counter}_a", f"{counter}_b"
        first, second = (good[b] / good[a]).align(poor[b] / poor[a], join="inner")
        return {"good": ratio_summary(good[a].to_numpy(), good[b].to_numpy(), boot),
                "poor": ratio_summary(poor[a].to_numpy(), poor[b].to_numpy(), boot),
                "shrinks": ratio_summary(first.to_numpy(), second.to_numpy(), boot)}

    research_good, research_poor = (per_position(c, "research_nodes")["research_nodes_b"]
                                    for c in (CHESS_GOOD, CHESS_POOR))
    r_good, r_poor = research_good.astype(float).align(research_poor.astype(float), join="inner")
    poor = per_position(CHESS_POOR)
    return {"good_config": CHESS_GOOD, "poor_config": CHESS_POOR, **ends("effort"),
            "search_nodes": ends("nodes"),
            "research": ratio_summary(r_good.to_numpy(), r_poor.to_numpy(), boot),
            "can_lose": loss_rate(poor["effort_a"], poor["effort_b"])}


def judge_ordering(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 8: the checks of :func:`ordering_statements`, in order."""
    return [check for _, check in ordering_statements(numbers)]


def ordering_statements(numbers: Mapping[str, Any]) -> list[tuple[str, Check]]:
    """Claim 8: the falsifiable statements the texts make about move-ordering quality, each
    with a short label for the report's text.

    Per value model, claim checks: (a) with good ordering the zero-window variants save over
    alpha-beta; (b) with random ordering their advantage shrinks, (c) they spend more nodes
    in re-searches and (d) each loses to alpha-beta on a share of trees that matters (a
    rate against the rules' band, as on chess). Correctness checks
    (properties of the setup, not of the texts): (e) alpha-beta's nodes fall as the
    ordering probability rises (the sweep only reorders the same trees), and (f) with the
    best child always first, alpha-beta, PVS and NegaScout evaluate exactly Knuth and
    Moore's minimal tree (a theorem)."""
    table = numbers["variants"]
    shrink, research = numbers["advantage_shrinks"], numbers["research_nodes"]
    good_rule, shrink_rule = RULES.check("good-saves"), RULES.check("advantage-shrinks")
    research_rule, lose_rule = RULES.check("more-research"), RULES.check("can-lose")
    falls_rule, minimal_rule = RULES.check("alphabeta-falls"), RULES.check("minimal-tree")
    checks: list[tuple[str, Check]] = _chess_statements(numbers.get("chess"))
    ext = good_rule.extension
    for model in numbers["alphabeta_by_level"]:
        zw = list(shrink[model])
        names = " and ".join(zw)
        good = {v: table[v][model][GOOD_ORDERING] for v in zw}
        outcome, measured = _each(good, good_rule.band)
        checks.append((f"{model}: good ordering saves", Check(
            f"{model} values: with good ordering (p = {GOOD_ORDERING}) {names} each search fewer "
            f"nodes than alpha-beta (geometric-mean ratio in {good_rule.band})",
            outcome, measured, good_rule.kind, str(good_rule.band), extension=ext)))
        outcome, measured = _each(shrink[model], shrink_rule.band)
        checks.append((f"{model}: the advantage shrinks with {POOR_ORDERING} ordering", Check(
            f"{model} values: with {POOR_ORDERING} ordering the advantage of {names} over "
            f"alpha-beta shrinks: per tree, (ratio to alpha-beta with {POOR_ORDERING} ordering) / "
            f"(ratio at p = {GOOD_ORDERING}), geometric mean in {shrink_rule.band}",
            outcome, measured, shrink_rule.kind, str(shrink_rule.band), extension=ext)))
        outcome, measured = _each(research[model], research_rule.band)
        checks.append((f"{model}: more re-search with {POOR_ORDERING} ordering", Check(
            f"{model} values: with {POOR_ORDERING} ordering {names} spend more nodes in "
            f"re-searches than at p = {GOOD_ORDERING} (per-tree re-search nodes, {POOR_ORDERING} / "
            f"p = {GOOD_ORDERING}, geometric mean in {research_rule.band})",
            outcome, measured, research_rule.kind, str(research_rule.band), extension=ext)))
        outcome, measured = _each(numbers["can_lose"][model], lose_rule.band,
                                  lambda r: rate_text(r, "trees"))
        checks.append((f"{model}: loses with {POOR_ORDERING} ordering", Check(
            f"{model} values: with {POOR_ORDERING} ordering {names} each lose to alpha-beta on a "
            f"share of trees that matters: the rate of trees where it searches more nodes, in "
            f"{lose_rule.band}", outcome, measured, lose_rule.kind, str(lose_rule.band),
            extension=ext)))
        steps = numbers["alphabeta_by_level"][model]
        rises = [s for s in steps["steps"] if outcome_of(s["low"], s["high"], RISE) == HOLDS]
        overall = steps["overall"]
        falls = sum(1 for s in steps["steps"] if s["ratio"] < 1)
        fell = outcome_of(overall["low"], overall["high"], falls_rule.band)
        outcome = INCONCLUSIVE if not steps["steps"] else FAILS if rises else fell
        checks.append((f"{model}: alpha-beta falls monotonically", Check(
            f"{model} values: alpha-beta's nodes fall monotonically as p rises: no step from p "
            f"to the next level raises them significantly (per-tree ratio nodes(next) / nodes(p) "
            f"in {RISE} = a rise), and nodes({overall['to']}) / nodes({overall['from']}) in "
            f"{falls_rule.band}", outcome,
            f"{falls} of {len(steps['steps'])} steps fall (point estimate); significant rises: "
            + (", ".join(f"{s['from']} to {s['to']} {ratio_text(s)}" for s in rises) or "none")
            + f"; nodes({overall['to']}) / nodes({overall['from']}) {ratio_text(overall)}",
            falls_rule.kind, str(falls_rule.band))))
    minimal = numbers["minimal_tree"]
    found = minimal["variants"]
    exact = {v: count_check("", int(x["trees"]) - int(x["exact"]), int(x["trees"]),
                            minimal_rule.band).outcome for v, x in found.items()}
    checks.append(("minimal tree at p = 1", Check(
        f"{minimal['model']} values, p = {minimal['level']} (best child always first): "
        f"{', '.join(found)} each evaluate exactly b^ceil(d/2) + b^floor(d/2) - 1 = "
        f"{minimal['formula']:,} leaves (b = {minimal['b']}, d = {minimal['d']}) on every tree "
        f"(trees off the formula in {minimal_rule.band})", all_of(exact.values()),
        "; ".join(f"{v}: exact on {x['exact']} of {x['trees']} trees" for v, x in found.items()),
        minimal_rule.kind, str(minimal_rule.band))))
    return checks


# ---------------------------------------------------------------------------------------
# Per-tree comparisons across ordering levels (the sweep only reorders the same trees)


def _per_tree(sweep: pd.DataFrame, model: str, level: str, variant: str,
              counter: str = "nodes") -> pd.Series:
    """One counter of one variant per tree (indexed by problem id) at one ordering level."""
    part = sweep[(sweep["model"] == model) & (sweep["ordering"] == level)
                 & (sweep["variant"] == variant)]
    return part.set_index("problem_id")[counter].astype(float)


def _across_levels(a: pd.Series, b: pd.Series) -> dict[str, float]:
    """:func:`ratio_summary` of ``b / a`` over the trees both hold (the same trees at two
    ordering levels: the sweep only reorders them)."""
    first, second = a.align(b, join="inner")
    return ratio_summary(first.to_numpy(), second.to_numpy(), RULES.bootstrap)


def _to_alphabeta(sweep: pd.DataFrame, model: str, level: str, variant: str) -> pd.Series:
    """Per tree, nodes(variant) / nodes(alphabeta) at one ordering level."""
    mine, base = _per_tree(sweep, model, level, variant).align(
        _per_tree(sweep, model, level, "alphabeta"), join="inner")
    return mine / base


def level_runs(levels: Sequence[str]) -> str:
    """Ordering levels as runs of consecutive ones: ``0.3, 0.5-0.9``; ``none`` for none."""
    runs: list[list[str]] = []
    for lv in (x for x in _LEVELS if x in levels):
        if runs and _LEVELS.index(lv) == _LEVELS.index(runs[-1][-1]) + 1:
            runs[-1].append(lv)
        else:
            runs.append([lv])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs) or "none"


def _breakeven(levels: Mapping[str, Mapping[str, float]]) -> float | None:
    """The highest ordering probability where a variant's ratio to alpha-beta crosses 1
    from above (linear interpolation between levels); ``None`` when it never does."""
    found = None
    for left, right in itertools.pairwise(_LEVELS):
        a, b = levels[left]["ratio"] - 1, levels[right]["ratio"] - 1
        if a > 0 >= b:
            found = float(left) + (float(right) - float(left)) * a / (a - b)
    return found


def _trend(levels: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    """How one variant's ratio to alpha-beta moves with the ordering probability."""
    ratios = {lv: float(levels[lv]["ratio"]) for lv in _LEVELS}
    low = min(_LEVELS, key=lambda lv: ratios[lv])
    high = max(_LEVELS, key=lambda lv: ratios[lv])
    return {"at_zero": ratios[_LEVELS[0]], "at_perfect": ratios[PERFECT_ORDERING],
            "random": float(levels[POOR_ORDERING]["ratio"]), "lowest": [low, ratios[low]],
            "highest": [high, ratios[high]], "below_one": [lv for lv in _LEVELS if ratios[lv] < 1],
            "breakeven": _breakeven(levels),
            "same_as_alphabeta_at_perfect": bool(
                levels[PERFECT_ORDERING]["equal"] == levels[PERFECT_ORDERING]["n"] > 0)}


# ---------------------------------------------------------------------------------------
# The analysis


def _numbers(ctx: Context, variants: Sequence[str]) -> dict[str, Any]:
    sweep = ctx.sweep()
    table: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for config, part in sweep.groupby("config", sort=False):
        model, level = str(config).split("/")
        found = {v: pair_ratio(part, "alphabeta", v, RULES.bootstrap) for v in variants}
        for v, r in found.items():
            table.setdefault(v, {}).setdefault(model, {})[level] = r
    pvs = table["pvs"]
    breakeven = {model: _breakeven(levels) for model, levels in pvs.items()}
    shrink: dict[str, dict[str, dict[str, float]]] = {}
    research: dict[str, dict[str, dict[str, float]]] = {}
    alphabeta: dict[str, dict[str, Any]] = {}
    lose: dict[str, dict[str, dict[str, float]]] = {}
    for model in VALUE_MODELS:
        base = _per_tree(sweep, model, POOR_ORDERING, "alphabeta")
        lose[model] = {v: loss_rate(*base.align(_per_tree(sweep, model, POOR_ORDERING, v),
                                                join="inner")) for v in ZERO_WINDOW}
        shrink[model] = {v: _across_levels(_to_alphabeta(sweep, model, GOOD_ORDERING, v),
                                           _to_alphabeta(sweep, model, POOR_ORDERING, v))
                         for v in ZERO_WINDOW}
        research[model] = {v: _across_levels(
            _per_tree(sweep, model, GOOD_ORDERING, v, "research_nodes"),
            _per_tree(sweep, model, POOR_ORDERING, v, "research_nodes")) for v in ZERO_WINDOW}
        nodes = {lv: _per_tree(sweep, model, lv, "alphabeta") for lv in _LEVELS}
        alphabeta[model] = {
            "nodes": {lv: stats.geometric_mean(n.to_numpy()) for lv, n in nodes.items()},
            "steps": [{"from": a, "to": b, **_across_levels(nodes[a], nodes[b])}
                      for a, b in itertools.pairwise(_LEVELS)],
            "overall": {"from": _LEVELS[0], "to": _LEVELS[-1],
                        **_across_levels(nodes[_LEVELS[0]], nodes[_LEVELS[-1]])}}
    b, d = ctx.scale.sweep_branching, ctx.scale.sweep_depth
    formula = knuth_moore_formula(b, d)
    minimal_variants: dict[str, dict[str, Any]] = {}
    for v in MINIMAL_TREE_VARIANTS:
        leaves = _per_tree(sweep, MINIMAL_TREE_MODEL, PERFECT_ORDERING, v, "leaves")
        minimal_variants[v] = {"trees": len(leaves), "exact": int((leaves == formula).sum()),
                               "leaves": sorted({int(x) for x in leaves})[:20]}
    minimal = {"model": MINIMAL_TREE_MODEL, "level": PERFECT_ORDERING, "b": b, "d": d,
               "formula": formula, "variants": minimal_variants}
    trends = {v: {model: _trend(table[v][model]) for model in VALUE_MODELS} for v in variants}
    return {"pvs": pvs, "variants": table, "pvs_breakeven": breakeven,
            "advantage_shrinks": shrink, "research_nodes": research, "can_lose": lose,
            "alphabeta_by_level": alphabeta, "minimal_tree": minimal, "trends": trends}


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    variants = [v for v in ALL_VARIANTS if v != "alphabeta"]
    numbers = {**_numbers(ctx, variants), "chess": chess_numbers(ctx.chess)}
    table, trends, alphabeta = numbers["variants"], numbers["trends"], numbers["alphabeta_by_level"]
    statements = ordering_statements(numbers)
    checks = [c for _, c in statements]
    rows = []
    for v in variants:
        for model in VALUE_MODELS:
            rows.append([v, model] + [fmt(table[v][model][lv]["ratio"], 3) for lv in ORDERING_LEVELS])
    trend_rows = []
    for v in variants:
        for model in VALUE_MODELS:
            t = trends[v][model]
            trend_rows.append([
                v, model, fmt(t["at_zero"]), f"{fmt(t['lowest'][1])} at {t['lowest'][0]}",
                f"{fmt(t['highest'][1])} at {t['highest'][0]}", fmt(t["at_perfect"]),
                "yes" if t["same_as_alphabeta_at_perfect"] else "no", fmt(t["random"]),
                level_runs(t["below_one"]),
                "–" if t["breakeven"] is None else f"{t['breakeven']:.2f}"])
    setup = (f"{ctx.sweep_text('every registered variant and zwp:improve=0')}. Ratio: geometric "
             "mean over the trees of nodes(variant) / nodes(alphabeta) on the same tree. As the "
             "sweep only reorders the same trees, a tree is also compared with itself across "
             "ordering levels (alpha-beta's steps, the change of the zero-window variants' ratio "
             "and of their re-search nodes between p = "
             f"{GOOD_ORDERING} and {POOR_ORDERING} ordering), each a geometric mean of per-tree "
             f"ratios with a paired bootstrap {RULES.bootstrap.level:.0%} interval.")
    chess = numbers["chess"]
    setup = (f"Chess (the author's object, the claim): {ctx.chess_text()}, pvs and alphabeta "
             f"with ordering {CHESS_POOR} (generation order) and {CHESS_GOOD} (every enhancement); "
             "total nodes. Synthetic trees (an extension: the harness's model of ordering): "
             + setup)
    verdict = verdict_text(checks, chess)
    chess_rows = [] if chess is None else [
        [name, fmt(chess[key]["ratio"], 4), interval(chess[key]), wtl(chess[key])]
        for name, key in ((f"pvs / alphabeta, {CHESS_GOOD}", "good"),
                          (f"pvs / alphabeta, {CHESS_POOR}", "poor"),
                          (f"that ratio, {CHESS_POOR} / {CHESS_GOOD}", "shrinks"),
                          (f"pvs's re-search nodes, {CHESS_POOR} / {CHESS_GOOD}", "research"))]
    return Section(info, setup, _text(numbers, statements), numbers, checks,
                   [("Chess: pvs against alpha-beta at the ordering ladder's ends (the claim)",
                     ["ratio", "geometric mean", f"{RULES.bootstrap.level:.0%} interval",
                      "fewer / equal / more"], chess_rows),
                    ("Nodes relative to alpha-beta (geometric mean) by ordering",
                     ["variant", "values", *ORDERING_LEVELS], rows),
                    ("Trend of each variant's ratio to alpha-beta over p = 0.0 to 1.0",
                     ["variant", "values", "p = 0", "lowest", "highest", "p = 1",
                      "alpha-beta's tree at p = 1 (every tree)", POOR_ORDERING,
                      "below 1 at p", "crosses 1 from above at p ≈"], trend_rows),
                    ("Alpha-beta's nodes per tree (geometric mean) by ordering",
                     ["values", *_LEVELS],
                     [[model, *(f"{alphabeta[model]['nodes'][lv]:,.0f}" for lv in _LEVELS)]
                      for model in VALUE_MODELS])],
                   [("ordering", "Every variant's nodes relative to alpha-beta against ordering",
                     chart(table, variants, ctx.scale.sweep_branching))], verdict=verdict)


def trend_text(chess: Mapping[str, Any]) -> str:
    """Which way PVS's advantage moves from the ladder's good end to its poor end on chess,
    on total nodes and on search nodes alone (quiescence left out): ``the trend is inverse:
    ... search nodes alone 0.835 with ordering none, 1.007 with +hash move (quotient
    0.829, ...)``."""
    search = chess["search_nodes"]
    shrink = RULES.check("chess/advantage-shrinks").band
    way = ("as the study predicts" if outcome_of(chess["shrinks"]["low"], chess["shrinks"]["high"],
                                                 shrink) == HOLDS
           else "inverse to the study's prediction" if chess["shrinks"]["high"] < 1
           else "not shown either way")
    return (f"the trend on chess is {way} (PVS's advantage over alpha-beta is "
            f"{'smaller' if chess['shrinks']['ratio'] > 1 else 'larger'} with ordering "
            f"{CHESS_POOR}); on search nodes alone (quiescence left out) pvs / alpha-beta is "
            f"{search['poor']['ratio']:.3f} with ordering {CHESS_POOR}, "
            f"{search['good']['ratio']:.3f} with {CHESS_GOOD}, quotient "
            f"{ratio_text(search['shrinks'])}")


def _sentence(text: str) -> str:
    """``text`` with its first letter capitalised, to begin a sentence."""
    return text[:1].upper() + text[1:]


def verdict_text(checks: Sequence[Check], chess: Mapping[str, Any] | None) -> str:
    """The verdict (:func:`verdict_with_extensions`) whose primary part names the central
    prediction, PVS's penalty under poor ordering (the rules' ``central`` check: the three
    others are its premise and its mechanism), with its outcome, and the trend on chess,
    total and search nodes alone (:func:`trend_text`)."""
    if chess is None:
        return verdict_with_extensions(checks, NO_WAC)
    central = next(c for c in checks if c.statement.startswith(
        f"chess: with ordering {CHESS_POOR} pvs's advantage"))
    primary = (f"{verdict_of([c for c in checks if c.kind != EXTENSION])}: the central "
               f"prediction, PVS's penalty under poor ordering (its advantage shrinks), "
               f"{central.outcome}; {trend_text(chess)}")
    return verdict_with_extensions(checks, primary)


def _text(numbers: Mapping[str, Any], statements: Sequence[tuple[str, Check]]) -> str:
    """The summary: chess, the trends, and whether the correctness checks pass. No pooled
    count of the claim's and the extension's checks: each has its own verdict (the section's
    :func:`verdict_text`)."""
    trends = numbers["trends"]
    alphabeta = numbers["alphabeta_by_level"]
    minimal = numbers["minimal_tree"]
    parts = []
    for model, x in alphabeta.items():
        nodes = x["nodes"]
        first, last = next(iter(nodes)), list(nodes)[-1]
        falls = sum(1 for s in x["steps"] if s["ratio"] < 1)
        parts.append(f"{nodes[first]:,.0f} at p = {first} to {nodes[last]:,.0f} at "
                     f"p = {last} with {model} values, {falls} of {len(x['steps'])} steps lower")
    chess = numbers.get("chess")
    text = ("Chess, the author's object: " + (
        "not measured (WAC not found). " if chess is None else
        f"pvs / alpha-beta total nodes {ratio_text(chess['poor'])} with ordering {CHESS_POOR}, "
        f"{ratio_text(chess['good'])} with {CHESS_GOOD}; their quotient "
        f"{ratio_text(chess['shrinks'])}. {_sentence(trend_text(chess))}. ")
        + "Trends. Alpha-beta's nodes per tree (geometric mean) go from " + "; ".join(parts)
            + f"; the minimal tree of b = {minimal['b']}, d = {minimal['d']} has "
            f"{minimal['formula']:,} leaves. ")
    for model in alphabeta:
        zw = []
        for v in ZERO_WINDOW:
            t = trends[v][model]
            zw.append(f"{v} {t['at_zero']:.3f} at p = 0, lowest {t['lowest'][1]:.3f} at p = "
                      f"{t['lowest'][0]}, {t['at_perfect']:.3f} at p = 1, {t['random']:.3f} with "
                      f"{POOR_ORDERING} ordering" + (
                          f", crossing 1 at p ≈ {t['breakeven']:.2f}"
                          if t["breakeven"] is not None else ", never crossing 1 from above"))
        text += f"Relative to alpha-beta, {model} values: " + "; ".join(zw) + ". "
    same = [v for v, t in trends.items() if all(x["same_as_alphabeta_at_perfect"] for x in t.values())]
    apart = [f"{v} " + " / ".join(f"{x['at_perfect']:.3f}" for x in t.values())
             for v, t in trends.items() if v not in same]
    text += ("At p = 1 these search exactly alpha-beta's nodes on every tree of both value models: "
             + (", ".join(same) or "none") + "; the others do not (ratio at p = 1: "
             + ", ".join(apart) + f" with {' / '.join(alphabeta)} values). Below alpha-beta "
             "somewhere between p = 0 and 1 (either model): "
             + (", ".join(v for v, t in trends.items() if any(x["below_one"] for x in t.values()))
                or "none") + ". Every curve is in the chart and both tables. ")
    broken = [label for label, c in statements if c.kind == "theorem" and c.outcome != HOLDS]
    text += ("Correctness checks (not in the verdict): "
             + (f"failing or not measured: {'; '.join(broken)}" if broken else "every one passes")
             + ".")
    return text


def chart(table: Mapping[str, Mapping[str, Mapping[str, Mapping[str, float]]]],
          variants: Sequence[str], branching: int) -> Figure:
    """Top row: every variant, log scale; bottom row: the same, zoomed on 0.75 to 1.5."""
    with charts.chart_style():
        fig = charts.figure(14.0, 10.0)
        axes = fig.subplots(2, 2, sharex=True)
        handles: dict[str, Any] = {}
        for row in range(2):
            for ax, model in zip(axes[row], VALUE_MODELS, strict=True):
                for i, v in enumerate(variants):
                    style = charts.variant_style(i)
                    values = [table[v][model][lv]["ratio"] for lv in _LEVELS]
                    (line,) = ax.plot([float(lv) for lv in _LEVELS], values, label=v, **style)
                    handles.setdefault(v, line)
                    ax.scatter([1.0 / branching], [table[v][model]["random"]["ratio"]], s=60,
                               facecolors="none", edgecolors=style["color"], zorder=4)
                ax.axhline(1.0, color="black", linewidth=1.4, linestyle="--")
                if row == 0:
                    ax.set_yscale("log")
                    ax.set_title(f"{model} values: every variant (log scale)")
                else:
                    ax.set_ylim(0.75, 1.5)
                    ax.set_title(f"{model} values: zoomed on 0.75 to 1.5")
                    ax.set_xlabel("probability that the best child comes first "
                                  "(circles: random ordering, at 1/b)")
            axes[row][0].set_ylabel("nodes relative to alphabeta (geometric mean)")
        fig.legend(list(handles.values()), list(handles.keys()), loc="outside right upper",
                   title="variant (alphabeta = 1)")
    return fig


CLAIM = ClaimInfo(
    "ordering", "The GNUchess study: PVS's advantage against move-ordering quality",
    "gnuchess-pvs-study.txt; pvs-wiki-article.txt (\"based on the accuracy of the move "
    "ordering\"); VARIANTS.md (Knuth and Moore, 1975); issue 6 (the chart)",
    "\"If move ordering is good, PVS usually does better than alphabeta. [...] If the move "
    "ordering is not so good, PVS might have to research some of the subtrees incurring "
    "performance penalty.\" Four predictions, judged on the author's object (a chess "
    "program's PVS against alpha-beta, at the ends of the ordering ladder): with good "
    "ordering PVS saves; with poor ordering its advantage shrinks (the central prediction), "
    "it re-searches more, and it loses on a share of positions that matters. The same "
    "predictions on synthetic trees (ordering by the probability p that the best child comes "
    "first; pvs and negascout, which \"expand the same search "
    "tree\") are an extension; every variant's curve is charted, not judged. Correctness "
    "checks: alpha-beta's nodes fall as p rises, and at p = 1 alpha-beta, PVS and NegaScout "
    "evaluate Knuth and Moore's minimal tree. (The same study's \"will not search any more "
    "nodes than alpha beta\": claim 5.)", analyse, sweep=ALL_VARIANTS,
    chess=ladder("alphabeta", "pvs"), rules=RULES)
