"""``harness reproduce``: claims from the reference texts and the literature, measured again.

Each claim is measured with the harness's own searches (:func:`run_search`, one job per
problem, run by :func:`harness.executors.run_jobs`), judged by fixed checks, and written
up in ``report.md`` and a self-contained ``report.html`` (charts embedded), with the charts
as PNG and SVG in ``charts/``, every count in ``data/*.csv`` and every number and verdict
in ``claims.json``.

How verdicts are decided. A claim is split into checks, each a statement about the numbers
with a tolerance fixed in this module before anything was measured (the constants below,
listed in the report); :func:`verdict_of` then calls a claim ``holds`` when every check
passes, ``does not hold`` when none does and ``partly`` otherwise. A claim that needs chess
positions is ``not measured: WAC not found`` when no suite is found (a claim that is
measured on synthetic trees too is then judged on them alone, and says so). A claim that
the numbers do not support is reported as such; nothing is tuned after the fact.

Counting. On synthetic trees ``nodes`` are the search's calls (VARIANTS.md). On chess
positions the effort compared is ``nodes + qnodes`` (every position visited, quiescence
included), called *total nodes*; ``leaves`` are the static evaluations at the horizon.
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from harness import charts, stats
from harness.checkpoint import JobLog
from harness.epd import load_suite
from harness.errors import HarnessError
from harness.executors import Execution, collector_paused, report_step, run_jobs
from harness.lock import hold_folder
from harness.problems import Problem, suite_problems, synthetic_problems
from harness.progress import Listener
from harness.results import environment, now
from harness.search.registry import VARIANTS, parse_variants
from harness.search.run import Switches, run_search
from harness.suites import find_suite
from harness.trees.minimal import knuth_moore

# ---------------------------------------------------------------------------------------
# Verdicts and the tolerances fixed in advance

HOLDS, FAILS, PARTLY = "holds", "does not hold", "partly"
"""The three verdicts of a measured claim."""

NOT_MEASURED = "not measured"
"""The verdict of a claim without any check (nothing it needs could be measured)."""

NO_WAC = "not measured: WAC not found"
"""The verdict of a chess-only claim when no suite is found."""

LEVEL = 0.95
"""Coverage of every bootstrap interval."""

RESAMPLES = 10_000
"""Bootstrap resamples per interval (numpy PCG64, seed :data:`SEED`)."""

SEED = 0
"""Seed of every bootstrap."""

PEARL_TOLERANCE = 0.10
"""Claim 2: the estimate at the deepest depth must lie within 10% of x/(1-x)."""

MTDF_LEAVES_BAND = (0.90, 0.95)
"""Claim 3: "5-10% fewer leaves" is a geometric-mean leaves ratio MTD(f) / aspiration
NegaScout between 0.90 and 0.95."""

MTDF_PASSES_BAND = (3.0, 6.0)
"""Claim 3: mean MTD(f) passes per iteration between 3 and 6."""

FH_FIRST_BAND = (0.85, 0.95)
"""Claim 4: "about 90%" of fail-highs on the first move is 85% to 95%."""

PVS_SAVING_BAND = (0.85, 0.95)
"""Claim 4: "saves about 10%" is a geometric-mean node ratio PVS / alpha-beta between 0.85
and 0.95 (a saving of 5% to 15%), with its interval below 1."""

USELESS = 0.01
"""Claim 7: an idea is "fairly useless" when it saves less than 1% (ratio >= 0.99)."""

GOOD_ORDERING = "0.9"
"""Claims 7 and 8: the synthetic ordering level standing for good (not perfect) ordering."""

POOR_ORDERING = "random"
"""Claim 8: the synthetic ordering standing for no ordering at all."""

PERFECT_ORDERING = "1.0"
"""Claim 8: the synthetic ordering level with the best child always first."""

ZERO_WINDOW = ("pvs", "negascout")
"""Claim 8: the zero-window variants the GNUchess study and the PVS article speak of."""

MINIMAL_TREE_VARIANTS = ("alphabeta", "pvs", "negascout")
"""Claim 8: the variants VARIANTS.md says evaluate Knuth and Moore's minimal tree when the
best child comes first (distinct values)."""

MINIMAL_TREE_MODEL = "distinct"
"""Claim 8: the value model the minimal-tree statement is checked on (its premise is
distinct values)."""


@dataclass(frozen=True)
class Check:
    """One statement about the numbers that a claim's verdict rests on."""

    statement: str
    """What is checked, with its tolerance."""
    passed: bool
    """Whether the numbers satisfy it."""
    measured: str
    """The numbers it was decided on."""


def verdict_of(checks: Sequence[Check]) -> str:
    """``holds`` when every check passes, ``does not hold`` when none does, ``partly``
    otherwise; :data:`NOT_MEASURED` without checks."""
    if not checks:
        return NOT_MEASURED
    passed = sum(1 for c in checks if c.passed)
    return HOLDS if passed == len(checks) else FAILS if passed == 0 else PARTLY


def in_band(value: float, band: tuple[float, float]) -> bool:
    """``band[0] <= value <= band[1]`` (never for NaN)."""
    return bool(band[0] <= value <= band[1])


def below_one(interval: Sequence[float]) -> bool:
    """Whether an interval of a ratio lies entirely below 1 (a significant saving)."""
    return bool(interval[1] < 1)


def above_one(interval: Sequence[float]) -> bool:
    """Whether an interval of a ratio lies entirely above 1 (a significant cost)."""
    return bool(interval[0] > 1)


def knuth_moore_formula(b: int, d: int) -> int:
    """``b^ceil(d/2) + b^floor(d/2) - 1``, written out as the claim states it."""
    return int(b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1)


def pearl_root(b: int) -> float:
    """The root in (0, 1) of ``x^b + x - 1 = 0`` (bisection to machine precision)."""
    if b < 1:
        raise HarnessError(f"branching {b}: needs at least 1")
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = (low + high) / 2
        if middle ** b + middle - 1 > 0:
            high = middle
        else:
            low = middle
    return (low + high) / 2


def pearl_asymptote(b: int) -> float:
    """Pearl's asymptotic branching factor of alpha-beta, ``x / (1 - x)`` (3.08 for b = 5)."""
    x = pearl_root(b)
    return x / (1 - x)


def _pct(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value * 100:.1f}%"


def _ratio_text(r: Mapping[str, float]) -> str:
    return f"{r['ratio']:.4f} ({LEVEL:.0%} interval {r['low']:.4f} to {r['high']:.4f}, n = {r['n']:.0f})"


def judge_knuth_moore(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 1: for each variant, every search evaluated exactly the formula's leaves."""
    checks = []
    for variant, found in numbers["variants"].items():
        exact, searches = int(found["exact"]), int(found["searches"])
        checks.append(Check(
            f"{variant} evaluates exactly b^ceil(d/2) + b^floor(d/2) - 1 leaves on every "
            "perfectly ordered tree (no tolerance)", searches > 0 and exact == searches,
            f"{exact} of {searches} searches exact"))
    return checks


def judge_pearl(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 2: per branching, the estimate moves toward x/(1-x) and ends within 10% of it."""
    checks = []
    for b, found in numbers["branchings"].items():
        target = float(found["asymptote"])
        first, last = float(found["estimate_first"]), float(found["estimate_last"])
        d0, d1 = found["first_depth"], found["last_depth"]
        checks.append(Check(
            f"b = {b}: the estimate moves toward x/(1-x) = {target:.3f} with depth "
            f"(|estimate({d1}) - x/(1-x)| < |estimate({d0}) - x/(1-x)|)",
            abs(last - target) < abs(first - target),
            f"estimate({d0}) = {first:.3f}, estimate({d1}) = {last:.3f}"))
        checks.append(Check(
            f"b = {b}: the estimate at the deepest depth is within {PEARL_TOLERANCE:.0%} of "
            f"x/(1-x) = {target:.3f}", abs(last - target) <= PEARL_TOLERANCE * target,
            f"estimate({d1}) = {last:.3f}, {100 * (last / target - 1):+.1f}%"))
    return checks


def judge_mtdf(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 3: fewer leaves (interval below 1), by 5-10%, with 3-6 passes per iteration."""
    leaves = numbers["leaves"]
    passes = float(numbers["mtdf_passes_per_iteration"])
    lo, hi = MTDF_LEAVES_BAND
    return [
        Check("MTD(f) evaluates fewer leaves than aspiration NegaScout (interval of the "
              "geometric-mean ratio below 1)", below_one((leaves["low"], leaves["high"])),
              f"leaves ratio {_ratio_text(leaves)}"),
        Check(f"by 5-10%: geometric-mean leaves ratio between {lo:.2f} and {hi:.2f}",
              in_band(float(leaves["ratio"]), MTDF_LEAVES_BAND), f"{leaves['ratio']:.4f}"),
        Check(f"MTD(f) needs {MTDF_PASSES_BAND[0]:g}-{MTDF_PASSES_BAND[1]:g} passes per "
              "iteration (mean over positions)", in_band(passes, MTDF_PASSES_BAND),
              f"{passes:.2f} passes per iteration"),
    ]


def judge_pvs_article(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 4: with the best ordering, ~90% first-move fail-highs and ~10% saved by PVS."""
    best = numbers["best_config"]
    found = numbers["configs"][best]
    rate = float(found["fh_first_pvs"])
    ratio = found["ratio"]
    return [
        Check(f"with good ordering ({best}) about 90% of PVS's fail-highs come from the "
              f"first move ({FH_FIRST_BAND[0]:.0%} to {FH_FIRST_BAND[1]:.0%})",
              in_band(rate, FH_FIRST_BAND), _pct(rate)),
        Check(f"with good ordering ({best}) PVS saves about 10% over alpha-beta (total nodes "
              f"ratio {PVS_SAVING_BAND[0]:.2f} to {PVS_SAVING_BAND[1]:.2f}, interval below 1)",
              in_band(float(ratio["ratio"]), PVS_SAVING_BAND)
              and below_one((ratio["low"], ratio["high"])), _ratio_text(ratio)),
    ]


def judge_never_more(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 5: PVS searched no more nodes than alpha-beta on any problem of each set."""
    checks = []
    for name, found in numbers["sets"].items():
        more, problems = int(found["more"]), int(found["problems"])
        checks.append(Check(f"{name}: PVS searches no more nodes than alpha-beta on any problem",
                            problems > 0 and more == 0,
                            f"more on {more} of {problems} problems"))
    return checks


def judge_same_tree(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 6: PVS and NegaScout searched exactly as many nodes on every problem of each set."""
    checks = []
    for name, found in numbers["sets"].items():
        same, problems = int(found["identical"]), int(found["problems"])
        checks.append(Check(f"{name}: PVS and NegaScout search identical node counts on every "
                            "problem", problems > 0 and same == problems,
                            f"identical on {same} of {problems} problems"))
    return checks


def judge_zwp(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 7: the improvement never costs and saves; zwp-all saves < 1%; zwp-pv saves."""
    never = numbers["improvement_never_costs"]
    checks = [Check("the improvement never searches more nodes (zwp <= zwp:improve=0 on every "
                    "problem)", int(never["more"]) == 0,
                    f"more on {never['more']} of {never['problems']} problems")]
    for name, found in numbers["sets"].items():
        improve, every, pv = found["improvement"], found["zwp-all"], found["zwp-pv"]
        checks += [
            Check(f"{name}: the improvement saves nodes (zwp / zwp:improve=0 interval below 1)",
                  below_one((improve["low"], improve["high"])), _ratio_text(improve)),
            Check(f"{name}: zwp-all is fairly useless (saves less than {USELESS:.0%} against "
                  f"zwp: ratio >= {1 - USELESS:.2f})", float(every["ratio"]) >= 1 - USELESS,
                  _ratio_text(every)),
            Check(f"{name}: zwp-pv saves nodes against zwp (interval below 1)",
                  below_one((pv["low"], pv["high"])), _ratio_text(pv)),
        ]
    return checks


def _both(found: Mapping[str, Mapping[str, float]], passes: Callable[[Mapping[str, float]], bool],
          text: Callable[[Mapping[str, float]], str]) -> tuple[bool, str]:
    """Whether every variant of ``found`` passes, and what each measured."""
    return (bool(found) and all(passes(r) for r in found.values()),
            "; ".join(f"{v}: {text(r)}" for v, r in found.items()))


def judge_ordering(numbers: Mapping[str, Any]) -> list[Check]:
    """Claim 8: the checks of :func:`ordering_statements`, in order."""
    return [check for _, check in ordering_statements(numbers)]


def ordering_statements(numbers: Mapping[str, Any]) -> list[tuple[str, Check]]:
    """Claim 8: the falsifiable statements the texts make about move-ordering quality, each
    with a short label for the report's text.

    Per value model: (a) with good ordering the zero-window variants save over alpha-beta;
    (b) with random ordering their advantage shrinks, (c) they spend more nodes in
    re-searches and (d) each loses to alpha-beta on at least one tree; (e) alpha-beta's
    nodes fall as the ordering probability rises. Then (f): with the best child always
    first, alpha-beta, PVS and NegaScout evaluate exactly Knuth and Moore's minimal tree."""
    table = numbers["variants"]
    shrink, research = numbers["advantage_shrinks"], numbers["research_nodes"]
    checks: list[tuple[str, Check]] = []
    for model in numbers["alphabeta_by_level"]:
        zw = list(shrink[model])
        names = " and ".join(zw)
        good = {v: table[v][model][GOOD_ORDERING] for v in zw}
        poor = {v: table[v][model][POOR_ORDERING] for v in zw}
        passed, measured = _both(good, lambda r: below_one((r["low"], r["high"])), _ratio_text)
        checks.append((f"{model}: good ordering saves", Check(
            f"{model} values: with good ordering (p = {GOOD_ORDERING}) {names} each search fewer "
            f"nodes than alpha-beta (geometric-mean ratio's {LEVEL:.0%} interval below 1)",
            passed, measured)))
        passed, measured = _both(shrink[model], lambda r: above_one((r["low"], r["high"])),
                                 _ratio_text)
        checks.append((f"{model}: the advantage shrinks with {POOR_ORDERING} ordering", Check(
            f"{model} values: with {POOR_ORDERING} ordering the advantage of {names} over "
            f"alpha-beta shrinks: per tree, (ratio to alpha-beta with {POOR_ORDERING} ordering) / "
            f"(ratio at p = {GOOD_ORDERING}), geometric mean's {LEVEL:.0%} interval above 1",
            passed, measured)))
        passed, measured = _both(research[model], lambda r: above_one((r["low"], r["high"])),
                                 _ratio_text)
        checks.append((f"{model}: more re-search with {POOR_ORDERING} ordering", Check(
            f"{model} values: with {POOR_ORDERING} ordering {names} spend more nodes in "
            f"re-searches than at p = {GOOD_ORDERING} (per-tree re-search nodes, {POOR_ORDERING} / "
            f"p = {GOOD_ORDERING}, {LEVEL:.0%} interval above 1)", passed, measured)))
        passed, measured = _both(poor, lambda r: r["more"] >= 1,
                                 lambda r: f"more on {r['more']:.0f} of {r['n']:.0f} trees")
        checks.append((f"{model}: can lose with {POOR_ORDERING} ordering", Check(
            f"{model} values: with {POOR_ORDERING} ordering {names} can lose: each searches more "
            "nodes than alpha-beta on at least one tree (no tolerance)", passed, measured)))
        steps = numbers["alphabeta_by_level"][model]
        rises = [s for s in steps["steps"] if above_one((s["low"], s["high"]))]
        overall = steps["overall"]
        falls = sum(1 for s in steps["steps"] if s["ratio"] < 1)
        checks.append((f"{model}: alpha-beta falls monotonically", Check(
            f"{model} values: alpha-beta's nodes fall monotonically as p rises: no step from p "
            f"to the next level raises them significantly (per-tree ratio nodes(next) / nodes(p), "
            f"{LEVEL:.0%} interval above 1 = a rise), and nodes({overall['to']}) / "
            f"nodes({overall['from']}) has its interval below 1",
            bool(steps["steps"]) and not rises and below_one((overall["low"], overall["high"])),
            f"{falls} of {len(steps['steps'])} steps fall (point estimate); significant rises: "
            + (", ".join(f"{s['from']} to {s['to']} {_ratio_text(s)}" for s in rises) or "none")
            + f"; nodes({overall['to']}) / nodes({overall['from']}) {_ratio_text(overall)}")))
    minimal = numbers["minimal_tree"]
    found = minimal["variants"]
    passed = bool(found) and all(x["trees"] > 0 and x["exact"] == x["trees"] for x in found.values())
    checks.append(("minimal tree at p = 1", Check(
        f"{minimal['model']} values, p = {minimal['level']} (best child always first): "
        f"{', '.join(found)} each evaluate exactly b^ceil(d/2) + b^floor(d/2) - 1 = "
        f"{minimal['formula']:,} leaves (b = {minimal['b']}, d = {minimal['d']}) on every tree "
        "(no tolerance)", passed,
        "; ".join(f"{v}: exact on {x['exact']} of {x['trees']} trees" for v, x in found.items()))))
    return checks


# ---------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class Claim:
    """One claim, what was measured and the verdict."""

    key: str
    """Its short name (``knuth-moore``, ``pearl``, ...), as ``only`` takes it."""
    title: str
    """A one-line title."""
    source: str
    """Where the claim is made."""
    setup: str
    """What was searched, with which variants, switches and depths."""
    claimed: str
    """The claim, as its source makes it."""
    measured: str
    """What the measurement found, in a sentence or two."""
    verdict: str
    """``holds``, ``does not hold``, ``partly``, or ``not measured: ...``."""
    numbers: dict[str, Any]
    """Every number the verdict and the text rest on (JSON-ready)."""
    charts: tuple[Path, ...]
    """The claim's charts, PNG and SVG."""
    checks: tuple[Check, ...] = ()
    """The checks the verdict was decided by (:func:`verdict_of`)."""


@dataclass(frozen=True)
class ReproduceOutput:
    """A finished ``harness reproduce``."""

    out_dir: Path
    """Where everything was written."""
    claims: tuple[Claim, ...]
    """Every claim reproduced, in order."""
    report_md: Path
    """``report.md``."""
    report_html: Path
    """``report.html``, self-contained (charts embedded as base64 PNG)."""
    data: tuple[Path, ...]
    """The counts behind the claims, one CSV per data set."""
    seconds: float
    """Wall time of the whole reproduction."""
    quick: bool
    """Whether it was the quick (CI) scale."""


@dataclass(frozen=True)
class Scale:
    """How much is searched: the quick (CI) scale or the full one."""

    km_max_leaves: int
    """Claim 1: every (b, d) with b in :attr:`km_branchings` and b^d up to this."""
    km_branchings: tuple[int, ...]
    """Claim 1: branchings."""
    km_trees: int
    """Claim 1: trees per (b, d)."""
    pearl: tuple[tuple[int, int], ...]
    """Claim 2: (branching, deepest depth) pairs; every depth from 1 is searched."""
    pearl_trees: int
    """Claim 2: trees per branching."""
    sweep_branching: int
    """Claims 5-8: branching of the ordering sweep's trees."""
    sweep_depth: int
    """Claims 5-8: depth of the sweep's trees (searched to it)."""
    sweep_trees: int
    """Claims 5-8: trees per ordering level and value model."""
    chess_positions: int
    """Chess claims: the first N positions of the suite."""
    chess_depth: int
    """Chess claims: depth of the iterative-deepening searches."""
    tt_size: int
    """Chess claims: entries of the transposition table where one is on."""


QUICK = Scale(km_max_leaves=40_000, km_branchings=(2, 3, 4, 5, 8), km_trees=2,
              pearl=((3, 10), (5, 8)), pearl_trees=12, sweep_branching=6, sweep_depth=6,
              sweep_trees=8, chess_positions=8, chess_depth=3, tt_size=1 << 20)
"""The quick scale: a few minutes on two cores (CI)."""

FULL = Scale(km_max_leaves=2_000_000, km_branchings=(2, 3, 4, 5, 6, 8, 10), km_trees=5,
             pearl=((3, 13), (5, 9)), pearl_trees=40, sweep_branching=8, sweep_depth=6,
             sweep_trees=40, chess_positions=30, chess_depth=4, tt_size=1 << 20)
"""The full scale: about 20 minutes on two cores (the project's README has its table).
Chess stops at depth 4: at depth 5 the chess part alone ran 11 of 30 positions in 35
minutes. The unordered configuration of claim 4 is most of it (91% of the chess search
time at depth 4)."""


@dataclass(frozen=True)
class ChessConfig:
    """A set of chess switches the chess claims are measured with."""

    name: str
    """Its short name in tables and charts."""
    switches: Switches
    """The switches (iterative deepening is on in every configuration)."""
    description: str
    """What is on."""


def chess_configs(tt_size: int) -> tuple[ChessConfig, ...]:
    """The move-ordering ladder of claim 4, each step adding one enhancement."""
    base = Switches(iterative_deepening=True)
    return (
        ChessConfig("none", replace(base, mvv_lva=False), "no ordering (generation order)"),
        ChessConfig("mvv-lva", base, "MVV-LVA captures first"),
        ChessConfig("+killers", replace(base, killers=True), "MVV-LVA, killers"),
        ChessConfig("+history", replace(base, killers=True, history=True),
                    "MVV-LVA, killers, history"),
        ChessConfig("+hash move", replace(base, killers=True, history=True, tt_size=tt_size),
                    f"MVV-LVA, killers, history, a {tt_size:,}-entry table with its move first"),
    )


BEST = "+hash move"
"""The configuration with every ordering enhancement (claims 3, 4 and 7 use it)."""

ORDERING_LEVELS = (*(f"{k / 10:.1f}" for k in range(11)), "random")
"""The synthetic sweep's orderings: probabilities 0.0 to 1.0 that the best child is first,
and ``random``."""

VALUE_MODELS = {
    "distinct": "values=uniform,range=1000000000",
    "tied": "values=incremental,range=50",
}
"""The sweep's two value models: independent values from a wide range (ties are rare) and
incremental values with small edges (many ties, as chess evaluations have)."""

ZWP_FAMILY = ("zwp", "zwp:improve=0", "zwp-all", "zwp-pv")
"""Claim 7's variants."""


@dataclass(frozen=True)
class ClaimInfo:
    """What a claim is before it is measured."""

    key: str
    """Short name."""
    title: str
    """Title."""
    source: str
    """Source."""
    claimed: str
    """The claim."""
    sweep: tuple[str, ...] = ()
    """Variants it needs on the synthetic ordering sweep."""
    chess: tuple[tuple[str, str], ...] = ()
    """(configuration, variant) pairs it needs on chess positions."""


def _ladder(*variants: str) -> tuple[tuple[str, str], ...]:
    return tuple((c.name, v) for c in chess_configs(1) for v in variants)


ALL_VARIANTS = (*(v.name for v in VARIANTS), "zwp:improve=0")

CLAIMS: tuple[ClaimInfo, ...] = (
    ClaimInfo("knuth-moore", "Knuth and Moore: the minimal tree of perfectly ordered uniform trees",
              "Knuth and Moore (1975), as VARIANTS.md states it",
              "On a uniform tree of branching b and depth d with the best child always first "
              "(distinct values), alpha-beta evaluates exactly b^ceil(d/2) + b^floor(d/2) - 1 "
              "leaves, and so do PVS and NegaScout."),
    ClaimInfo("pearl", "Pearl: alpha-beta's branching factor on random trees",
              "Pearl (1982), The solution for the branching factor of the alpha-beta pruning "
              "algorithm and its optimality",
              "On uniform trees with independent random leaf values, alpha-beta's effective "
              "branching factor approaches x/(1-x), x the root in (0,1) of x^b + x - 1 = 0 "
              "(about 3.08 for b = 5)."),
    ClaimInfo("mtdf", "Plaat et al.: MTD(f) against aspiration NegaScout in chess",
              "Plaat, Schaeffer, Pijls and de Bruin (1996), Best-first fixed-depth minimax "
              "algorithms; alphabeta-aspiration-mtdf-pvs.txt (MTD(f))",
              "With iterative deepening and a transposition table, MTD(f) evaluates 5-10% "
              "fewer leaves than aspiration NegaScout in chess, in 3 to 6 passes per "
              "iteration.", chess=((BEST, "aspiration:inner=negascout"), (BEST, "mtdf"))),
    ClaimInfo("pvs-article", "The PVS article: 90% first-move fail-highs, 10% saved",
              "pvs-wiki-article.txt",
              "\"Typically, modern chess programs find fail-highs on the first move around 90% "
              "of the time\"; \"with a good move ordering we expect to save about 10% of a "
              "search effort\" (PVS against alpha-beta).", chess=_ladder("alphabeta", "pvs")),
    ClaimInfo("gnuchess", "The GNUchess study: PVS never searches more than alpha-beta",
              "gnuchess-pvs-study.txt",
              "\"In any case, PVS will not search any more nodes than alpha beta, but it might "
              "have to research some of the subtrees.\"", sweep=("alphabeta", "pvs"),
              chess=_ladder("alphabeta", "pvs")),
    ClaimInfo("breuker", "Breuker: PVS and NegaScout expand the same tree",
              "pvs-wiki-article.txt (Dennis Breuker, CCC 2004; his thesis, note 15)",
              "Marsland's PVS and Reinefeld's NegaScout are identical: \"they expand the same "
              "search tree\".", sweep=("pvs", "negascout"), chess=_ladder("pvs", "negascout")),
    ClaimInfo("zwp", "The zero-window-pruning note: its improvement and two untried ideas",
              "pvs-zero-window-pruning-note.txt",
              "Skipping F when Z returns exactly alpha is \"a lovely improvement\"; testing "
              "every successor of an expected-All node \"might be fairly useless\"; at an "
              "expected-PV node, searching with a full window until a successor meets alpha "
              "avoids useless tests. \"No one has tried\" the last two.",
              sweep=("pvs", *ZWP_FAMILY), chess=tuple((BEST, v) for v in ("pvs", *ZWP_FAMILY))),
    ClaimInfo("ordering", "Every variant's advantage against move-ordering quality",
              "issue 6 (the chart); gnuchess-pvs-study.txt; pvs-wiki-article.txt (\"based on "
              "the accuracy of the move ordering\"); VARIANTS.md (Knuth and Moore, 1975)",
              "How each variant's advantage over alpha-beta depends on move-ordering quality (the "
              "probability p that the best child comes first) on synthetic trees, one chart with "
              "every variant: a description of trends, given by the chart and the tables. The "
              "verdict rests on what the texts say about ordering quality, each turned into a "
              "check: the GNUchess study, \"If move ordering is good, PVS usually does better "
              "than alphabeta. If the move ordering is not so good, PVS might have to research "
              "some of the subtrees incurring performance penalty\" (the PVS article: \"with a "
              "good move ordering we expect to save\"; PVS and NegaScout \"expand the same "
              "search tree\", so both are checked); Knuth and Moore, as VARIANTS.md states it: "
              "with the best child first (distinct values) alpha-beta, PVS and NegaScout "
              "evaluate exactly b^ceil(d/2) + b^floor(d/2) - 1 leaves, the minimal tree; and "
              "alpha-beta searches fewer nodes the better its ordering, down to that minimal "
              "tree. (The same study also says PVS \"will not search any more nodes than alpha "
              "beta\": claim 5.)", sweep=ALL_VARIANTS),
)
"""The claims, in report order."""


def claim_keys() -> list[str]:
    """The claims' keys, in order (``only`` also takes their numbers, 1 to 8)."""
    return [c.key for c in CLAIMS]


def _select(only: Sequence[str] | None) -> list[ClaimInfo]:
    if only is None:
        return list(CLAIMS)
    if isinstance(only, str):
        only = only.split(",")
    chosen: list[ClaimInfo] = []
    for item in only:
        item = item.strip()
        match = [c for i, c in enumerate(CLAIMS, 1) if item in (c.key, str(i))]
        if not match:
            raise HarnessError(f"unknown claim {item!r} (valid: {', '.join(claim_keys())}, or 1-8)")
        if match[0] not in chosen:
            chosen.append(match[0])
    if not chosen:
        raise HarnessError("no claim selected")
    return [c for c in CLAIMS if c in chosen]


# ---------------------------------------------------------------------------------------
# Measuring: one job per problem


@dataclass(frozen=True)
class Run:
    """One search of a problem."""

    config: str
    """The switches' name (``default`` on synthetic trees)."""
    variant: str
    """The variant's label."""
    depth: int
    """The depth searched to."""
    switches: Switches = Switches()
    """The switches."""


def measure(tags: tuple[tuple[str, str], ...], problem: Problem,
            runs: tuple[Run, ...]) -> list[dict[str, Any]]:
    """Every run on one problem, with one tree (its position cache shared by all runs):
    one row per run with ``tags``, the problem, the run and every counter."""
    tree = problem.make_tree()
    rows: list[dict[str, Any]] = []
    try:
        with collector_paused():
            for run in runs:
                spec = parse_variants(run.variant)[0]
                result = run_search(tree, spec, run.depth, run.switches)
                report_step()
                rows.append({**dict(tags), "suite": problem.suite, "problem_id": problem.problem_id,
                             "config": run.config, "variant": run.variant, "depth": run.depth,
                             "score": result.score, "bound": result.bound, "status": result.status,
                             **result.counters, "time_s": round(result.time_s, 6)})
    finally:
        cache = getattr(tree, "cache", None)
        if cache is not None:
            cache.clear()
    return rows


Job = tuple[tuple[tuple[str, str], ...], Problem, tuple[Run, ...]]


def chess_suite() -> Path | None:
    """The chess positions: ``wac.epd`` wherever :func:`find_suite` finds it (the project's
    ``harness/positions/``, ``HARNESS_SUITES``, the download folder), else the project's own
    ``bench.epd``; ``None`` when neither is there."""
    for name in ("wac.epd", "bench.epd"):
        try:
            return find_suite(name)
        except HarnessError:
            continue
    return None


def _chess_problems(path: Path, count: int) -> list[Problem]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        suite = load_suite(path, skip_invalid=True)
    return suite_problems(suite, True)[:count]


def _jobs(selected: Sequence[ClaimInfo], scale: Scale, suite: Path | None) -> list[Job]:
    keys = {c.key for c in selected}
    jobs: list[Job] = []
    chess_runs = sorted({pair for c in selected for pair in c.chess},
                        key=lambda p: ([c.name for c in chess_configs(1)].index(p[0]), p[1]))
    if chess_runs and suite is not None:
        configs = {c.name: c for c in chess_configs(scale.tt_size)}
        runs = tuple(Run(name, variant, scale.chess_depth, configs[name].switches)
                     for name, variant in chess_runs)
        jobs += [((("dataset", "chess"),), p, runs)
                 for p in _chess_problems(suite, scale.chess_positions)]
    if "pearl" in keys:
        for b, deepest in scale.pearl:
            spec = (f"random:b={b},d={deepest},n={scale.pearl_trees},seed=2,ordering=random,"
                    "values=uniform,range=1000000000")
            runs = tuple(Run("default", "alphabeta", d) for d in range(1, deepest + 1))
            jobs += [((("dataset", "pearl"), ("b", str(b))), p, runs)
                     for p in synthetic_problems(spec)]
    sweep = [v for v in ALL_VARIANTS if any(v in c.sweep for c in selected)]
    if sweep:
        d = scale.sweep_depth
        for model, values in VALUE_MODELS.items():
            for level in ORDERING_LEVELS:
                spec = (f"random:b={scale.sweep_branching},d={d},n={scale.sweep_trees},seed=3,"
                        f"ordering={level},{values}")
                runs = tuple(Run("default", v, d) for v in sweep)
                jobs += [((("dataset", "sweep"), ("model", model), ("ordering", level)), p, runs)
                         for p in synthetic_problems(spec)]
    if "knuth-moore" in keys:
        for b in scale.km_branchings:
            d = 1
            while b ** d <= scale.km_max_leaves:
                spec = (f"random:b={b},d={d},n={scale.km_trees},seed=1,ordering=perfect,"
                        "values=uniform,range=1000000000")
                runs = tuple(Run("default", v, d) for v in ("alphabeta", "pvs", "negascout"))
                jobs += [((("dataset", "knuth-moore"), ("b", str(b))), p, runs)
                         for p in synthetic_problems(spec)]
                d += 1
    return jobs


def _collect(jobs: Sequence[Job], execution: Execution, progress: Listener,
             log: JobLog, finished: dict[int, list[dict[str, Any]]]) -> dict[str, pd.DataFrame]:
    """Every job's rows by dataset: those in ``finished``, then the others measured and
    each appended to ``log`` as it finishes."""
    rows: list[list[dict[str, Any]]] = [finished.get(i, []) for i in range(len(jobs))]
    todo = [i for i in range(len(jobs)) if i not in finished]
    searches = [len(job[2]) for job in jobs]
    progress.phase("reproduce", len(jobs), sum(searches), len(finished),
                   sum(searches[i] for i in finished))
    try:
        for index, result in run_jobs(measure, [jobs[i] for i in todo], execution,
                                      on_step=progress.searched):
            log.append(todo[index], result)
            rows[todo[index]] = result
            progress.problem_done()
    finally:
        progress.phase_done()
    flat = [row for job_rows in rows for row in job_rows]
    frames: dict[str, pd.DataFrame] = {}
    if flat:
        every = pd.DataFrame(flat)
        for name, part in every.groupby("dataset", sort=False):
            frames[str(name)] = part.dropna(axis=1, how="all").reset_index(drop=True)
    return frames


# ---------------------------------------------------------------------------------------
# Statistics on the rows


def _effort(frame: pd.DataFrame) -> pd.Series:
    return frame["nodes"] + frame["qnodes"]


def _paired(frame: pd.DataFrame, a: str, b: str, counter: str = "effort",
            keys: Sequence[str] = ("suite", "problem_id", "config")) -> pd.DataFrame:
    """Rows of variants ``a`` and ``b`` side by side (``x_a``, ``x_b``) on the same problem."""
    frame = frame.assign(effort=_effort(frame))
    columns = [*keys, counter, "researches"]
    left = frame.loc[frame["variant"] == a, columns]
    right = frame.loc[frame["variant"] == b, columns]
    return left.merge(right, on=list(keys), suffixes=("_a", "_b"), how="inner")


def ratio_summary(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> dict[str, float]:
    """Geometric mean of per-problem ratios ``b / a``, its bootstrap interval, wins / ties /
    losses for B and the exact sign test (see :mod:`harness.stats`)."""
    first = np.asarray(a, dtype=np.float64)
    second = np.asarray(b, dtype=np.float64)
    ratios = stats.ratios(first, second)
    low, high = stats.bootstrap_interval(ratios, SEED, RESAMPLES, LEVEL)
    wins, ties, losses = stats.wins_ties_losses(first, second)
    return {"ratio": stats.geometric_mean(ratios), "low": low, "high": high, "n": float(len(ratios)),
            "fewer": float(wins), "equal": float(ties), "more": float(losses),
            "sign_p": stats.sign_test(wins, losses)}


def _pair_ratio(frame: pd.DataFrame, a: str, b: str, counter: str = "effort") -> dict[str, float]:
    paired = _paired(frame, a, b, counter)
    return ratio_summary(paired[f"{counter}_a"].to_numpy(), paired[f"{counter}_b"].to_numpy())


def _fmt(value: float, digits: int = 3) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def _wtl(r: Mapping[str, float]) -> str:
    return f"{r['fewer']:.0f} / {r['equal']:.0f} / {r['more']:.0f}"


def _interval(r: Mapping[str, float]) -> str:
    return f"{_fmt(r['low'])} to {_fmt(r['high'])}"


# ---------------------------------------------------------------------------------------
# Charts


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _not_measured(ax: Axes, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#555555")
    ax.set_xticks([])
    ax.set_yticks([])


def _level_x(level: str, branching: int) -> float:
    """Where an ordering level sits on a probability axis: ``random`` puts the best child
    first with probability 1/b (its place is uniform), so it sits at 1/b."""
    return 1.0 / branching if level == "random" else float(level)


# ---------------------------------------------------------------------------------------
# The claims


@dataclass
class _Section:
    """A claim measured: its record's content, tables and charts."""

    info: ClaimInfo
    setup: str
    measured: str
    numbers: dict[str, Any]
    checks: list[Check]
    tables: list[tuple[str, list[str], list[list[str]]]] = field(default_factory=list)
    figures: list[tuple[str, str, Figure]] = field(default_factory=list)
    verdict: str | None = None


class _Context:
    """What the claims are measured from."""

    def __init__(self, frames: dict[str, pd.DataFrame], scale: Scale, suite: Path | None) -> None:
        self.frames = frames
        self.scale = scale
        self.suite = suite

    @property
    def chess(self) -> pd.DataFrame | None:
        return self.frames.get("chess")

    def chess_text(self) -> str:
        if self.suite is None:
            return "no chess suite found"
        s = self.scale
        return (f"the first {s.chess_positions} positions of {self.suite.name}, iterative deepening "
                f"to depth {s.chess_depth} with quiescence")

    def sweep_text(self, variants: str) -> str:
        s = self.scale
        return (f"synthetic trees b = {s.sweep_branching}, d = {s.sweep_depth} searched to their "
                f"depth, {s.sweep_trees} trees per ordering level ({', '.join(ORDERING_LEVELS)}) "
                f"and value model (distinct: {VALUE_MODELS['distinct']}; tied: "
                f"{VALUE_MODELS['tied']}); the same trees at every level, only reordered; "
                f"{variants}; no table, no iterative deepening (variants that need them bring "
                "their own)")


def _knuth_moore(ctx: _Context, info: ClaimInfo) -> _Section:
    frame = ctx.frames["knuth-moore"]
    b = frame["b"].astype(int)
    d = frame["depth"].astype(int)
    frame = frame.assign(b=b, formula=[knuth_moore_formula(x, y) for x, y in zip(b, d, strict=True)],
                         library=[knuth_moore(x, y) for x, y in zip(b, d, strict=True)])
    variants: dict[str, dict[str, Any]] = {}
    for variant, part in frame.groupby("variant", sort=False):
        off = part[part["leaves"] != part["formula"]]
        variants[str(variant)] = {
            "searches": len(part), "exact": int((part["leaves"] == part["formula"]).sum()),
            "mismatches": [{"b": int(r["b"]), "d": int(r["depth"]), "tree": str(r["problem_id"]),
                            "leaves": int(r["leaves"]), "formula": int(r["formula"])}
                           for r in off.to_dict("records")][:20]}
    pairs = sorted({(int(x), int(y)) for x, y in zip(frame["b"], frame["depth"], strict=True)})
    numbers = {"variants": variants, "pairs": [list(p) for p in pairs],
               "formula_equals_library": bool((frame["formula"] == frame["library"]).all())}
    rows = []
    for (bb, dd), part in frame.groupby(["b", "depth"], sort=True):
        cells = [str(bb), str(dd), f"{int(part['formula'].iloc[0]):,}"]
        for variant in ("alphabeta", "pvs", "negascout"):
            got = part.loc[part["variant"] == variant, "leaves"]
            cells.append(", ".join(f"{int(v):,}" for v in sorted(set(got))))
        rows.append(cells)
    checks = judge_knuth_moore(numbers)
    exact = all(c.passed for c in checks)
    measured = (f"{'Every' if exact else 'Not every'} search evaluated exactly the formula's "
                f"leaves: " + "; ".join(f"{v} {x['exact']}/{x['searches']}" for v, x in variants.items())
                + f" searches, over {len(pairs)} (b, d) pairs.")
    fig = _km_chart(frame)
    s = ctx.scale
    setup = (f"Perfectly ordered uniform trees (ordering=perfect, values=uniform, range=10^9), "
             f"b in {', '.join(map(str, s.km_branchings))}, every d >= 1 with b^d <= "
             f"{s.km_max_leaves:,}, {s.km_trees} trees each; alphabeta, pvs, negascout, one "
             "full-window search to depth d, no table.")
    return _Section(info, setup, measured, numbers, checks,
                    [("Leaves evaluated (distinct values over the trees)",
                      ["b", "d", "formula", "alphabeta", "pvs", "negascout"], rows)],
                    [("knuth_moore", "Leaves against Knuth and Moore's formula", fig)])


def _km_chart(frame: pd.DataFrame) -> Figure:
    with charts.chart_style():
        fig = _figure(6.5, 5.0)
        ax = fig.add_subplot()
        for i, variant in enumerate(("alphabeta", "pvs", "negascout")):
            part = frame[frame["variant"] == variant]
            style = charts.variant_style(i)
            ax.scatter(part["formula"], part["leaves"], label=variant, marker=style["marker"],
                       s=70 - 25 * i, facecolors="none" if i == 1 else style["color"],
                       edgecolors=style["color"], linewidths=1.2, zorder=2 + i)
        top = float(frame["formula"].max()) * 1.5
        ax.plot([1, top], [1, top], color="black", linestyle="--", linewidth=1,
                label="leaves = b^ceil(d/2) + b^floor(d/2) - 1")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("Knuth and Moore's formula")
        ax.set_ylabel("leaves evaluated")
        ax.set_title("Perfectly ordered uniform trees: measured leaves against the formula")
        ax.legend(loc="upper left")
    return fig


def _pearl(ctx: _Context, info: ClaimInfo) -> _Section:
    frame = ctx.frames["pearl"]
    branchings: dict[str, dict[str, Any]] = {}
    rows = []
    for b_text, part in frame.groupby("b", sort=False):
        b = int(str(b_text))
        trees = part["problem_id"].nunique()
        totals = part.groupby("depth")["leaves"].sum().sort_index()
        depths = [int(x) for x in totals.index]
        leaves = [int(x) for x in totals.to_numpy()]
        ratio = [math.nan] + [leaves[i] / leaves[i - 1] for i in range(1, len(leaves))]
        two_ply = [math.nan, math.nan] + [math.sqrt(leaves[i] / leaves[i - 2])
                                          for i in range(2, len(leaves))]
        root = [(v / trees) ** (1 / d) for v, d in zip(leaves, depths, strict=True)]
        target = pearl_asymptote(b)
        branchings[str(b)] = {
            "asymptote": target, "root_x": pearl_root(b), "trees": trees, "depths": depths,
            "leaves": leaves, "ratio": ratio, "estimate": two_ply, "dth_root": root,
            "first_depth": depths[2], "last_depth": depths[-1],
            "estimate_first": two_ply[2], "estimate_last": two_ply[-1],
        }
        for i, d in enumerate(depths):
            rows.append([str(b), str(d), f"{leaves[i] / trees:,.1f}", _fmt(ratio[i]),
                         _fmt(two_ply[i]), _fmt(root[i]), _fmt(target)])
    numbers = {"branchings": branchings}
    checks = judge_pearl(numbers)
    measured = "; ".join(
        f"b = {b}: estimate {x['estimate_first']:.3f} at d = {x['first_depth']}, "
        f"{x['estimate_last']:.3f} at d = {x['last_depth']} against x/(1-x) = {x['asymptote']:.3f} "
        f"({100 * (x['estimate_last'] / x['asymptote'] - 1):+.1f}%); the d-th root of the "
        f"leaves is {x['dth_root'][-1]:.3f} there" for b, x in branchings.items()) + "."
    s = ctx.scale
    setup = ("Uniform trees with independent values from a range of 2·10^9 + 1 (ordering=random, "
             "values=uniform, range=10^9), " + ", ".join(f"b = {b} to depth {d}" for b, d in s.pearl)
             + f", {s.pearl_trees} trees each; fail-hard alpha-beta, one full-window search to "
             "every depth d from 1 (a depth-d search evaluates the independent values at ply d). "
             "Estimator: leaves(d) / leaves(d-1) on the leaves summed over the trees; as it "
             "alternates with the parity of d (as the minimal tree's formula does), the verdict "
             "uses the geometric mean of two successive ratios, sqrt(leaves(d) / leaves(d-2)). "
             "The d-th root of the mean leaves, leaves(d)^(1/d), is shown for comparison.")
    return _Section(info, setup, measured, numbers, checks,
                    [("Alpha-beta's leaves and branching-factor estimates",
                      ["b", "d", "leaves per tree", "leaves(d)/leaves(d-1)",
                       "sqrt(leaves(d)/leaves(d-2))", "leaves(d)^(1/d)", "x/(1-x)"], rows)],
                    [("pearl", "Effective branching factor against depth", _pearl_chart(branchings))])


def _pearl_chart(branchings: Mapping[str, Mapping[str, Any]]) -> Figure:
    with charts.chart_style():
        fig = _figure(5.0 * len(branchings) + 1, 4.4)
        axes = fig.subplots(1, len(branchings), squeeze=False)[0]
        for ax, (b, x) in zip(axes, branchings.items(), strict=True):
            depths = x["depths"]
            ax.plot(depths[1:], x["ratio"][1:], marker="o", color="#1f77b4", linewidth=1,
                    label="leaves(d) / leaves(d-1)")
            ax.plot(depths[2:], x["estimate"][2:], marker="s", color="#2ca02c", linewidth=2,
                    label="sqrt(leaves(d) / leaves(d-2)) (verdict)")
            ax.plot(depths, x["dth_root"], marker="^", color="#9467bd", linestyle="--",
                    label="leaves(d)^(1/d)")
            target = x["asymptote"]
            ax.axhline(target, color="#b22222", linestyle="--", linewidth=1.2,
                       label=f"Pearl's asymptote x/(1-x) = {target:.3f}")
            ax.axhspan(target * (1 - PEARL_TOLERANCE), target * (1 + PEARL_TOLERANCE),
                       color="#b22222", alpha=0.08, label=f"±{PEARL_TOLERANCE:.0%}")
            ax.set_xticks(depths)
            ax.set_xlabel("search depth d (plies)")
            ax.set_ylabel("effective branching factor")
            ax.set_title(f"b = {b}: alpha-beta on random uniform trees ({x['trees']} trees)")
            ax.legend(loc="upper right", fontsize=7)
    return fig


def _no_chess(ctx: _Context, info: ClaimInfo) -> _Section:
    setup = "Chess positions: none (no wac.epd in the suite folders, no harness/positions/bench.epd)."
    return _Section(info, setup, "Not measured: no chess suite was found.", {"measured": False}, [],
                    verdict=NO_WAC)


def _mtdf(ctx: _Context, info: ClaimInfo) -> _Section:
    frame = ctx.chess
    if frame is None:
        return _no_chess(ctx, info)
    frame = frame[frame["config"] == BEST]
    asp, mtd = "aspiration:inner=negascout", "mtdf"
    leaves = _pair_ratio(frame, asp, mtd, "leaves")
    total = _pair_ratio(frame, asp, mtd, "effort")
    inner = _pair_ratio(frame, asp, mtd, "nodes")
    depth = ctx.scale.chess_depth
    passes = frame.assign(per_iteration=frame["passes"] / depth)
    per_variant = passes.groupby("variant")["per_iteration"]
    numbers = {
        "leaves": leaves, "total_nodes": total, "nodes": inner,
        "mtdf_passes_per_iteration": float(per_variant.mean()[mtd]),
        "mtdf_passes_per_iteration_range": [float(per_variant.min()[mtd]), float(per_variant.max()[mtd])],
        "aspiration_passes_per_iteration": float(per_variant.mean()[asp]),
        "pass_cap_hits": int((frame["status"] == "pass-cap").sum()),
        "positions": int(leaves["n"]),
    }
    checks = judge_mtdf(numbers)
    measured = (f"MTD(f) / aspiration NegaScout: leaves {_ratio_text(leaves)}; total nodes "
                f"{total['ratio']:.4f} ({_interval(total)}); search nodes without quiescence "
                f"{inner['ratio']:.4f}. MTD(f) needed {numbers['mtdf_passes_per_iteration']:.2f} "
                f"passes per iteration on average (aspiration: "
                f"{numbers['aspiration_passes_per_iteration']:.2f}).")
    rows = [[name, _fmt(r["ratio"], 4), _interval(r), f"{r['fewer']:.0f} / {r['equal']:.0f} / "
             f"{r['more']:.0f}", _p(r["sign_p"])]
            for name, r in (("leaves", leaves), ("total nodes (nodes + qnodes)", total),
                            ("nodes (no quiescence)", inner))]
    config = {c.name: c for c in chess_configs(ctx.scale.tt_size)}[BEST]
    setup = (f"Chess: {ctx.chess_text()}; switches: {config.description}, iterative deepening; "
             f"variants {asp} (window ±50, widened to infinity on a fail) and mtdf (fail-soft "
             "alpha-beta with memory, first guess the previous iteration's score).")
    return _Section(info, setup, measured, numbers, checks,
                    [("MTD(f) against aspiration NegaScout (ratio B/A, B = MTD(f))",
                      ["counter", "geo. mean ratio", f"{LEVEL:.0%} interval",
                       "MTD(f) fewer / equal / more", "sign test p"], rows)],
                    [("mtdf", "MTD(f) against aspiration NegaScout per position",
                      _mtdf_chart(frame, asp, mtd, depth, leaves))])


def _p(p: float) -> str:
    """A p-value for reading."""
    return "< 0.0001" if p < 0.0001 else f"{p:.2g}"


def _mtdf_chart(frame: pd.DataFrame, asp: str, mtd: str, depth: int,
                leaves: Mapping[str, float]) -> Figure:
    paired = _paired(frame, asp, mtd, "leaves")
    ratio = np.sort((paired["leaves_b"] / paired["leaves_a"]).to_numpy(dtype=float))
    passes = np.sort(frame.loc[frame["variant"] == mtd, "passes"].to_numpy(dtype=float) / depth)
    with charts.chart_style():
        fig = _figure(11.0, 4.2)
        left, right = fig.subplots(1, 2)
        x = np.arange(1, len(ratio) + 1)
        left.scatter(x, ratio, color="#1f4e79", zorder=3, label="one position")
        left.axhspan(*MTDF_LEAVES_BAND, color="#2ca02c", alpha=0.15, label="claimed: 5-10% fewer")
        left.axhline(1.0, color="black", linewidth=1)
        left.axhline(leaves["ratio"], color="#b22222", linestyle="--",
                     label=f"geometric mean {leaves['ratio']:.3f}")
        left.axhspan(leaves["low"], leaves["high"], color="#b22222", alpha=0.12,
                     label=f"{LEVEL:.0%} interval")
        left.set_xlabel("positions, sorted by ratio")
        left.set_ylabel("leaves, MTD(f) / aspiration NegaScout")
        left.set_title("Leaves evaluated: MTD(f) relative to aspiration NegaScout")
        left.legend(fontsize=7)
        right.scatter(np.arange(1, len(passes) + 1), passes, color="#1f4e79", zorder=3)
        right.axhspan(*MTDF_PASSES_BAND, color="#2ca02c", alpha=0.15, label="claimed: 3-6")
        right.axhline(float(passes.mean()), color="#b22222", linestyle="--",
                      label=f"mean {passes.mean():.2f}")
        right.set_xlabel("positions, sorted")
        right.set_ylabel("MTD(f) passes per iteration")
        right.set_title(f"MTD(f) passes per iteration (depth {depth})")
        right.legend(fontsize=7)
    return fig


def _pvs_article(ctx: _Context, info: ClaimInfo) -> _Section:
    frame = ctx.chess
    if frame is None:
        return _no_chess(ctx, info)
    configs: dict[str, dict[str, Any]] = {}
    rows = []
    for config in chess_configs(ctx.scale.tt_size):
        part = frame[frame["config"] == config.name]
        rates = {}
        for variant in ("alphabeta", "pvs"):
            v = part[part["variant"] == variant]
            rates[variant] = stats.rate(v["fail_highs_first"], v["fail_highs"])
        ratio = _pair_ratio(part, "alphabeta", "pvs")
        research = stats.rate(part.loc[part["variant"] == "pvs", "researches"],
                              part.loc[part["variant"] == "pvs", "zw_searches"])
        configs[config.name] = {"description": config.description, "fh_first_alphabeta":
                                rates["alphabeta"], "fh_first_pvs": rates["pvs"], "ratio": ratio,
                                "research_rate_pvs": research}
        rows.append([config.name, config.description, _pct(rates["alphabeta"]), _pct(rates["pvs"]),
                     _fmt(ratio["ratio"], 4), _interval(ratio),
                     f"{ratio['fewer']:.0f} / {ratio['equal']:.0f} / {ratio['more']:.0f}",
                     _pct(research)])
    numbers = {"configs": configs, "best_config": BEST}
    checks = judge_pvs_article(numbers)
    best = configs[BEST]
    measured = (f"With every ordering enhancement ({BEST}) {_pct(best['fh_first_pvs'])} of PVS's "
                f"fail-highs (alpha-beta: {_pct(best['fh_first_alphabeta'])}) came from the first "
                f"move, and PVS / alpha-beta total nodes was {_ratio_text(best['ratio'])}. "
                "Per ordering step: " + "; ".join(
                    f"{k} {_pct(v['fh_first_pvs'])}, ratio {v['ratio']['ratio']:.3f}"
                    for k, v in configs.items()) + ".")
    setup = (f"Chess: {ctx.chess_text()}; alphabeta and pvs with each step of the ordering "
             "ladder: " + "; ".join(f"{c.name}: {c.description}" for c in
                                    chess_configs(ctx.scale.tt_size))
             + ". First-move fail-high rate: fail_highs_first / fail_highs over all positions; "
             "saving: geometric mean of per-position total-node ratios PVS / alpha-beta.")
    return _Section(info, setup, measured, numbers, checks,
                    [("First-move fail-highs and PVS against alpha-beta per ordering step",
                      ["ordering", "switches", "fail-highs first (alphabeta)", "fail-highs first (pvs)",
                       "PVS / alpha-beta nodes", f"{LEVEL:.0%} interval", "PVS fewer / equal / more",
                       "PVS re-search rate"], rows)],
                    [("pvs_article", "First-move fail-highs and PVS's saving per ordering step",
                      _pvs_article_chart(configs))])


def _pvs_article_chart(configs: Mapping[str, Mapping[str, Any]]) -> Figure:
    names = list(configs)
    y = np.arange(len(names))
    with charts.chart_style():
        fig = _figure(11.0, 3.6)
        left, right = fig.subplots(1, 2, sharey=True)
        for k, variant in enumerate(("alphabeta", "pvs")):
            values = [100 * configs[n][f"fh_first_{variant}"] for n in names]
            left.barh(y + (k - 0.5) * 0.38, values, height=0.36, label=variant,
                      color=charts.variant_style(k)["color"])
        left.axvspan(100 * FH_FIRST_BAND[0], 100 * FH_FIRST_BAND[1], color="#2ca02c", alpha=0.15,
                     label="claimed: about 90%")
        left.set_xlim(0, 135)
        left.set_xticks([0, 20, 40, 60, 80, 100])
        left.set_xlabel("fail-highs caused by the first move (%)")
        left.set_title("First-move fail-high rate")
        left.legend(fontsize=7, loc="center right")
        ratio = np.array([configs[n]["ratio"]["ratio"] for n in names])
        low = np.array([configs[n]["ratio"]["low"] for n in names])
        high = np.array([configs[n]["ratio"]["high"] for n in names])
        right.errorbar(ratio, y, xerr=[ratio - low, high - ratio], fmt="o", color="#1f4e79",
                       capsize=3)
        right.axvspan(*PVS_SAVING_BAND, color="#2ca02c", alpha=0.15, label="claimed: about 10% saved")
        right.axvline(1.0, color="black", linewidth=1)
        right.set_xlabel("total nodes, PVS / alpha-beta (geometric mean)")
        right.set_title(f"PVS against alpha-beta ({LEVEL:.0%} bootstrap intervals)")
        right.legend(fontsize=7)
        left.set_yticks(y, names)
        left.invert_yaxis()
        left.grid(axis="y", visible=False)
        right.grid(axis="y", visible=False)
    return fig


def _sweep_sets(ctx: _Context) -> pd.DataFrame:
    frame = ctx.frames["sweep"]
    return frame.assign(config=frame["model"] + "/" + frame["ordering"])


def _share_by_level(paired: pd.DataFrame,
                    keep: Callable[[pd.DataFrame], pd.Series]) -> dict[str, dict[str, float]]:
    """Per value model and ordering level: problems, and those where ``keep`` holds."""
    out: dict[str, dict[str, float]] = {}
    for config, part in paired.groupby("config", sort=False):
        out[str(config)] = {"problems": float(len(part)), "count": float(keep(part).sum())}
    return out


def _comparison_claim(ctx: _Context, a: str, b: str,
                      keep: Callable[[pd.DataFrame], pd.Series], noun: str,
                      key: str) -> tuple[dict[str, Any], list[list[str]], dict[str, dict[str, float]],
                                         dict[str, dict[str, float]] | None]:
    """Claims 5 and 6: per set (synthetic trees of each value model, chess), the problems
    where ``keep`` holds for the pair (a, b); also per ordering level and per chess
    configuration. A chess problem is a position searched with one ordering step."""

    def summary(paired: pd.DataFrame) -> dict[str, Any]:
        differ = paired["effort_a"] != paired["effort_b"]
        no_research = (paired["researches_a"] == 0) & (paired["researches_b"] == 0)
        return {"problems": len(paired), key: int(keep(paired).sum()),
                "b_fewer": int((paired["effort_b"] < paired["effort_a"]).sum()),
                "b_more": int((paired["effort_b"] > paired["effort_a"]).sum()),
                "research_free_differences": int((differ & no_research).sum())}

    sweep = _sweep_sets(ctx)
    paired = _paired(sweep, a, b, keys=("suite", "problem_id", "config"))
    by_level = _share_by_level(paired, keep)
    sets: dict[str, dict[str, Any]] = {}
    for model in VALUE_MODELS:
        sets[f"synthetic trees, {model} values"] = summary(
            paired[paired["config"].str.startswith(model + "/")])
    rows = []
    for config, found in by_level.items():
        model, level = config.split("/")
        ratio = _pair_ratio(sweep[sweep["config"] == config], a, b)
        rows.append([f"synthetic, {model}", level, f"{found['count']:.0f} of {found['problems']:.0f}",
                     _fmt(ratio["ratio"], 4), _interval(ratio), _wtl(ratio)])
    by_config: dict[str, dict[str, float]] | None = None
    if ctx.chess is not None:
        chess = ctx.chess
        paired_chess = _paired(chess, a, b)
        by_config = _share_by_level(paired_chess, keep)
        sets["chess (positions x ordering steps)"] = summary(paired_chess)
        for config, found in by_config.items():
            ratio = _pair_ratio(chess[chess["config"] == config], a, b)
            rows.append(["chess", config, f"{found['count']:.0f} of {found['problems']:.0f}",
                         _fmt(ratio["ratio"], 4), _interval(ratio), _wtl(ratio)])
    numbers: dict[str, Any] = {"sets": sets, "by_level": by_level, "by_config": by_config,
                               "chess_measured": ctx.chess is not None, "counted": noun}
    return numbers, rows, by_level, by_config


def _share_chart(by_level: Mapping[str, Mapping[str, float]],
                 by_config: Mapping[str, Mapping[str, float]] | None, branching: int,
                 ylabel: str, title: str) -> Figure:
    with charts.chart_style():
        fig = _figure(11.0, 4.2)
        left, right = fig.subplots(1, 2, width_ratios=[3, 2])
        for i, model in enumerate(VALUE_MODELS):
            levels = [lv for lv in ORDERING_LEVELS if lv != "random"]
            share = [100 * by_level[f"{model}/{lv}"]["count"] / by_level[f"{model}/{lv}"]["problems"]
                     for lv in levels]
            style = charts.variant_style(i)
            left.plot([float(lv) for lv in levels], share, label=f"{model} values", **style)
            r = by_level[f"{model}/random"]
            left.scatter([1.0 / branching], [100 * r["count"] / r["problems"]], s=90,
                         facecolors="none", edgecolors=style["color"], linewidths=1.5,
                         label=f"{model}, random ordering (at 1/b)", zorder=4)
        left.set_xlabel("probability that the best child comes first")
        left.set_ylabel(ylabel)
        left.set_ylim(-3, 103)
        left.set_title(f"Synthetic trees: {title}")
        left.legend(fontsize=7)
        if by_config is None:
            _not_measured(right, "chess: not measured (WAC not found)")
        else:
            names = list(by_config)
            share = [100 * by_config[n]["count"] / by_config[n]["problems"] for n in names]
            y = np.arange(len(names))
            right.barh(y, share, color="#1f77b4")
            for yi, v in zip(y, share, strict=True):
                right.annotate(f"{v:.0f}%", (v, yi), xytext=(3, 0), textcoords="offset points",
                               va="center", fontsize=8)
            right.set_yticks(y, names)
            right.invert_yaxis()
            right.set_xlim(0, 112)
            right.set_xlabel(ylabel)
            right.set_title(f"Chess: {title}")
            right.grid(axis="y", visible=False)
    return fig


def _gnuchess(ctx: _Context, info: ClaimInfo) -> _Section:
    def more(p: pd.DataFrame) -> pd.Series:
        return p["effort_b"] > p["effort_a"]

    numbers, rows, by_level, by_config = _comparison_claim(ctx, "alphabeta", "pvs", more,
                                                           "PVS searched more nodes", "more")
    checks = judge_never_more(numbers)
    parts = [f"{name}: PVS searched more nodes than alpha-beta on {x['more']} of {x['problems']} "
             "problems" for name, x in numbers["sets"].items()]
    worst = max(by_level.items(), key=lambda kv: kv[1]["count"] / kv[1]["problems"])
    measured = ("; ".join(parts) + f" (most often at {worst[0].replace('/', ' values, ordering ')}: "
                f"{worst[1]['count']:.0f} of {worst[1]['problems']:.0f}).")
    if not numbers["chess_measured"]:
        measured += " Chess part not measured: WAC not found."
    setup = (f"{ctx.sweep_text('alphabeta and pvs')}. Chess: {ctx.chess_text()}, every step of "
             "claim 4's ordering ladder. Counted: problems where PVS searched more nodes "
             "(total nodes on chess) than alpha-beta.")
    fig = _share_chart(by_level, by_config, ctx.scale.sweep_branching,
                       "problems where PVS searched more nodes (%)", "PVS searched more than alpha-beta")
    return _Section(info, setup, measured, numbers, checks,
                    [("Problems where PVS searched more nodes than alpha-beta",
                      ["set", "ordering", "PVS more", "PVS / alpha-beta (geo. mean)",
                       f"{LEVEL:.0%} interval", "PVS fewer / equal / more"], rows)],
                    [("gnuchess", "How often PVS searches more than alpha-beta", fig)])


def _breuker(ctx: _Context, info: ClaimInfo) -> _Section:
    def same(p: pd.DataFrame) -> pd.Series:
        return p["effort_a"] == p["effort_b"]

    numbers, rows, by_level, by_config = _comparison_claim(ctx, "pvs", "negascout", same,
                                                           "identical node counts", "identical")
    checks = judge_same_tree(numbers)
    free = sum(x["research_free_differences"] for x in numbers["sets"].values())
    parts = [f"{name}: identical on {x['identical']} of {x['problems']} problems"
             for name, x in numbers["sets"].items()]
    measured = ("; ".join(parts) + f". Of the problems that differ, {free} had no re-search "
                "in either search: the trees part only where a zero-window test fails high and "
                "the child is searched again, PVS with (alpha, beta), NegaScout with (t, beta). "
                "In NegaScout as written a node returns at least its alpha, so a failed test of "
                "an interior child returns exactly t = alpha + 1 (at a leaf child the re-search "
                "is one evaluation either way): the two windows differ by the single value "
                "alpha + 1, and the searches can part only where a position's value equals it, "
                "a tie.")
    sets = numbers["sets"]
    alike = [name for name, x in sets.items() if x["identical"] == x["problems"]]
    apart = [name for name, x in sets.items() if x["identical"] < x["problems"]]
    if alike:
        measured += f" Identical on every problem: {', '.join(alike)}."
    if apart:
        fewer = sum(sets[n]["b_fewer"] for n in apart)
        more = sum(sets[n]["b_more"] for n in apart)
        measured += (f" Where they differ ({', '.join(apart)}), NegaScout searched fewer nodes on "
                     f"{fewer} problems and more on {more}.")
    if not numbers["chess_measured"]:
        measured += " Chess part not measured: WAC not found."
    setup = (f"{ctx.sweep_text('pvs (fail-hard) and negascout (Reinefeld, as the wiki gives it)')}. "
             f"Chess: {ctx.chess_text()}, every step of claim 4's ordering ladder. Counted: "
             "problems where the two searched identical node counts (total nodes on chess).")
    fig = _share_chart(by_level, by_config, ctx.scale.sweep_branching,
                       "problems with identical node counts (%)", "PVS and NegaScout identical")
    return _Section(info, setup, measured, numbers, checks,
                    [("Problems where PVS and NegaScout searched identical node counts",
                      ["set", "ordering", "identical", "NegaScout / PVS (geo. mean)",
                       f"{LEVEL:.0%} interval", "NegaScout fewer / equal / more"], rows)],
                    [("breuker", "Where PVS and NegaScout search the same tree", fig)])


def _zwp(ctx: _Context, info: ClaimInfo) -> _Section:
    sweep = _sweep_sets(ctx)
    frames: dict[str, pd.DataFrame] = {
        f"synthetic, ordering {GOOD_ORDERING}": sweep[sweep["ordering"] == GOOD_ORDERING]}
    if ctx.chess is not None:
        frames["chess"] = ctx.chess[ctx.chess["config"] == BEST]
    sets: dict[str, dict[str, Any]] = {}
    rows = []
    for name, frame in frames.items():
        found = {"improvement": _pair_ratio(frame, "zwp:improve=0", "zwp"),
                 "zwp-all": _pair_ratio(frame, "zwp", "zwp-all"),
                 "zwp-pv": _pair_ratio(frame, "zwp", "zwp-pv")}
        sets[name] = found
        for variant in ZWP_FAMILY:
            r = _pair_ratio(frame, "pvs", variant)
            rows.append([name, variant, "pvs", _fmt(r["ratio"], 4), _interval(r),
                         f"{r['fewer']:.0f} / {r['equal']:.0f} / {r['more']:.0f}"])
        for label, (base, variant) in (("improvement", ("zwp:improve=0", "zwp")),
                                       ("zwp-all", ("zwp", "zwp-all")), ("zwp-pv", ("zwp", "zwp-pv"))):
            r = found[label]
            rows.append([name, variant, base, _fmt(r["ratio"], 4), _interval(r),
                         f"{r['fewer']:.0f} / {r['equal']:.0f} / {r['more']:.0f}"])
    every = [sweep]
    if ctx.chess is not None:
        every.append(ctx.chess[ctx.chess["config"] == BEST])
    more = 0
    problems = 0
    for frame in every:
        paired = _paired(frame, "zwp:improve=0", "zwp")
        more += int((paired["effort_b"] > paired["effort_a"]).sum())
        problems += len(paired)
    identical = {}
    for variant in ("zwp-all", "zwp-pv"):
        same = total = 0
        for frame in every:
            paired = _paired(frame, "zwp", variant)
            same += int((paired["effort_a"] == paired["effort_b"]).sum())
            total += len(paired)
        identical[variant] = {"identical": same, "problems": total}
    against_pvs = {}
    for config, part in sweep.groupby("config", sort=False):
        against_pvs[str(config)] = {v: _pair_ratio(part, "pvs", v) for v in ZWP_FAMILY}
    chess_pvs = ({v: _pair_ratio(frames["chess"], "pvs", v) for v in ZWP_FAMILY}
                 if "chess" in frames else None)
    numbers = {"improvement_never_costs": {"problems": problems, "more": more}, "sets": sets,
               "identical_to_zwp": identical,
               "against_pvs": against_pvs, "chess_against_pvs": chess_pvs,
               "chess_measured": ctx.chess is not None}
    checks = judge_zwp(numbers)
    measured = " ".join(
        f"{name}: zwp / zwp:improve=0 {x['improvement']['ratio']:.4f} ({_interval(x['improvement'])}), "
        f"zwp-all / zwp {x['zwp-all']['ratio']:.4f} ({_interval(x['zwp-all'])}), zwp-pv / zwp "
        f"{x['zwp-pv']['ratio']:.4f} ({_interval(x['zwp-pv'])})." for name, x in sets.items())
    measured += (f" The improvement searched more nodes on {more} of {problems} problems. "
                 f"zwp-all searched exactly zwp's nodes on {identical['zwp-all']['identical']} "
                 f"of {identical['zwp-all']['problems']} problems, zwp-pv on "
                 f"{identical['zwp-pv']['identical']} of {identical['zwp-pv']['problems']}.")
    if identical["zwp-pv"]["identical"] == identical["zwp-pv"]["problems"]:
        measured += (" zwp-pv never differed from zwp: with Knuth and Moore's expected node types "
                     "only the leftmost path is expected-PV, and under a full root window its "
                     "nodes all have alpha = -infinity, so their first successor always meets "
                     "alpha and the idea never fires (it could only act inside a narrowed root "
                     "window, or if re-searched successors were typed PV).")
    measured += (" zwp-all acts only at expected-All nodes of the full-window tree (the "
                 "children of re-searched Cut nodes), so it can matter only where re-searches "
                 "happen.")
    if chess_pvs is not None:
        measured += (" Against pvs on chess: " + ", ".join(
            f"{v} {r['ratio']:.3f}" for v, r in chess_pvs.items()) + ".")
    else:
        measured += " Chess part not measured: WAC not found."
    setup = (f"{ctx.sweep_text('pvs, zwp, zwp:improve=0, zwp-all, zwp-pv')}. Chess: "
             f"{ctx.chess_text()}, switches {BEST} (every ordering enhancement and a table). "
             f"The note's expectations are checked on the synthetic trees with good ordering "
             f"(p = {GOOD_ORDERING}, both value models) and on chess; every ratio is a geometric "
             "mean of per-problem node ratios with a paired bootstrap interval.")
    return _Section(info, setup, measured, numbers, checks,
                    [("The note's variants against pvs and against each other (ratio B/A)",
                      ["set", "B", "A", "B/A (geo. mean)", f"{LEVEL:.0%} interval",
                       "B fewer / equal / more"], rows)],
                    [("zwp", "The note's variants relative to PVS",
                      _zwp_chart(against_pvs, chess_pvs, ctx.scale.sweep_branching))])


def _zwp_chart(against: Mapping[str, Mapping[str, Mapping[str, float]]],
               chess: Mapping[str, Mapping[str, float]] | None, branching: int) -> Figure:
    with charts.chart_style():
        fig = _figure(14.0, 4.4)
        axes = fig.subplots(1, 3, width_ratios=[3, 3, 2])
        levels = [lv for lv in ORDERING_LEVELS if lv != "random"]
        for ax, model in zip(axes[:2], VALUE_MODELS, strict=True):
            for i, variant in enumerate(ZWP_FAMILY):
                style = charts.variant_style(i)
                found = [against[f"{model}/{lv}"][variant] for lv in levels]
                x = np.array([float(lv) for lv in levels]) + (i - 1.5) * 0.006
                ratio = np.array([r["ratio"] for r in found])
                low = np.array([r["low"] for r in found])
                high = np.array([r["high"] for r in found])
                ax.errorbar(x, ratio, yerr=[ratio - low, high - ratio], label=variant, capsize=2,
                            elinewidth=0.8, **style)
                r = against[f"{model}/random"][variant]
                ax.scatter([1.0 / branching], [r["ratio"]], s=70, facecolors="none",
                           edgecolors=style["color"], zorder=4)
            ax.axhline(1.0, color="black", linewidth=1, linestyle="--")
            ax.set_xlabel("probability that the best child comes first (circles: random, at 1/b)")
            ax.set_ylabel("nodes relative to pvs (geometric mean)")
            ax.set_title(f"Synthetic trees, {model} values")
            ax.legend(fontsize=7)
        if chess is None:
            _not_measured(axes[2], "chess: not measured (WAC not found)")
        else:
            ax = axes[2]
            y = np.arange(len(ZWP_FAMILY))
            ratio = np.array([chess[v]["ratio"] for v in ZWP_FAMILY])
            low = np.array([chess[v]["low"] for v in ZWP_FAMILY])
            high = np.array([chess[v]["high"] for v in ZWP_FAMILY])
            ax.errorbar(ratio, y, xerr=[ratio - low, high - ratio], fmt="o", color="#1f4e79",
                        capsize=3)
            ax.axvline(1.0, color="black", linewidth=1, linestyle="--")
            ax.set_yticks(y, list(ZWP_FAMILY))
            ax.invert_yaxis()
            ax.set_xlabel("total nodes relative to pvs")
            ax.set_title(f"Chess ({BEST})")
            ax.grid(axis="y", visible=False)
    return fig


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
    return ratio_summary(first.to_numpy(), second.to_numpy())


def _to_alphabeta(sweep: pd.DataFrame, model: str, level: str, variant: str) -> pd.Series:
    """Per tree, nodes(variant) / nodes(alphabeta) at one ordering level."""
    mine, base = _per_tree(sweep, model, level, variant).align(
        _per_tree(sweep, model, level, "alphabeta"), join="inner")
    return mine / base


def _level_runs(levels: Sequence[str]) -> str:
    """Ordering levels as runs of consecutive ones: ``0.3, 0.5-0.9``; ``none`` for none."""
    order = [lv for lv in ORDERING_LEVELS if lv != "random"]
    runs: list[list[str]] = []
    for lv in (x for x in order if x in levels):
        if runs and order.index(lv) == order.index(runs[-1][-1]) + 1:
            runs[-1].append(lv)
        else:
            runs.append([lv])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs) or "none"


def _trend(levels: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    """How one variant's ratio to alpha-beta moves with the ordering probability."""
    ps = [lv for lv in ORDERING_LEVELS if lv != "random"]
    ratios = {lv: float(levels[lv]["ratio"]) for lv in ps}
    low = min(ps, key=lambda lv: ratios[lv])
    high = max(ps, key=lambda lv: ratios[lv])
    return {"at_zero": ratios[ps[0]], "at_perfect": ratios[PERFECT_ORDERING],
            "random": float(levels[POOR_ORDERING]["ratio"]), "lowest": [low, ratios[low]],
            "highest": [high, ratios[high]], "below_one": [lv for lv in ps if ratios[lv] < 1],
            "breakeven": _breakeven(levels),
            "same_as_alphabeta_at_perfect": bool(
                levels[PERFECT_ORDERING]["equal"] == levels[PERFECT_ORDERING]["n"] > 0)}


def _ordering(ctx: _Context, info: ClaimInfo) -> _Section:
    sweep = _sweep_sets(ctx)
    variants = [v for v in ALL_VARIANTS if v != "alphabeta"]
    table: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for config, part in sweep.groupby("config", sort=False):
        model, level = str(config).split("/")
        found = {v: _pair_ratio(part, "alphabeta", v) for v in variants}
        for v, r in found.items():
            table.setdefault(v, {}).setdefault(model, {})[level] = r
    pvs = table["pvs"]
    breakeven = {model: _breakeven(levels) for model, levels in pvs.items()}
    ps = [lv for lv in ORDERING_LEVELS if lv != "random"]
    shrink: dict[str, dict[str, dict[str, float]]] = {}
    research: dict[str, dict[str, dict[str, float]]] = {}
    alphabeta: dict[str, dict[str, Any]] = {}
    for model in VALUE_MODELS:
        shrink[model] = {v: _across_levels(_to_alphabeta(sweep, model, GOOD_ORDERING, v),
                                           _to_alphabeta(sweep, model, POOR_ORDERING, v))
                         for v in ZERO_WINDOW}
        research[model] = {v: _across_levels(
            _per_tree(sweep, model, GOOD_ORDERING, v, "research_nodes"),
            _per_tree(sweep, model, POOR_ORDERING, v, "research_nodes")) for v in ZERO_WINDOW}
        nodes = {lv: _per_tree(sweep, model, lv, "alphabeta") for lv in ps}
        alphabeta[model] = {
            "nodes": {lv: stats.geometric_mean(n.to_numpy()) for lv, n in nodes.items()},
            "steps": [{"from": a, "to": b, **_across_levels(nodes[a], nodes[b])}
                      for a, b in itertools.pairwise(ps)],
            "overall": {"from": ps[0], "to": ps[-1], **_across_levels(nodes[ps[0]], nodes[ps[-1]])}}
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
    numbers = {"pvs": pvs, "variants": table, "pvs_breakeven": breakeven,
               "advantage_shrinks": shrink, "research_nodes": research,
               "alphabeta_by_level": alphabeta, "minimal_tree": minimal, "trends": trends}
    statements = ordering_statements(numbers)
    checks = [c for _, c in statements]
    rows = []
    for v in variants:
        for model in VALUE_MODELS:
            rows.append([v, model] + [_fmt(table[v][model][lv]["ratio"], 3) for lv in ORDERING_LEVELS])
    trend_rows = []
    for v in variants:
        for model in VALUE_MODELS:
            t = trends[v][model]
            trend_rows.append([
                v, model, _fmt(t["at_zero"]), f"{_fmt(t['lowest'][1])} at {t['lowest'][0]}",
                f"{_fmt(t['highest'][1])} at {t['highest'][0]}", _fmt(t["at_perfect"]),
                "yes" if t["same_as_alphabeta_at_perfect"] else "no", _fmt(t["random"]),
                _level_runs(t["below_one"]),
                "–" if t["breakeven"] is None else f"{t['breakeven']:.2f}"])
    measured = _ordering_text(numbers, statements)
    setup = (f"{ctx.sweep_text('every registered variant and zwp:improve=0')}. Ratio: geometric "
             "mean over the trees of nodes(variant) / nodes(alphabeta) on the same tree. As the "
             "sweep only reorders the same trees, a tree is also compared with itself across "
             "ordering levels (alpha-beta's steps, the change of the zero-window variants' ratio "
             "and of their re-search nodes between p = "
             f"{GOOD_ORDERING} and {POOR_ORDERING} ordering), each a geometric mean of per-tree "
             f"ratios with a paired bootstrap {LEVEL:.0%} interval.")
    return _Section(info, setup, measured, numbers, checks,
                    [("Nodes relative to alpha-beta (geometric mean) by ordering",
                      ["variant", "values", *ORDERING_LEVELS], rows),
                     ("Trend of each variant's ratio to alpha-beta over p = 0.0 to 1.0",
                      ["variant", "values", "p = 0", "lowest", "highest", "p = 1",
                       "alpha-beta's tree at p = 1 (every tree)", POOR_ORDERING,
                       "below 1 at p", "crosses 1 from above at p ≈"], trend_rows),
                     ("Alpha-beta's nodes per tree (geometric mean) by ordering",
                      ["values", *ps],
                      [[model, *(f"{alphabeta[model]['nodes'][lv]:,.0f}" for lv in ps)]
                       for model in VALUE_MODELS])],
                    [("ordering", "Every variant's nodes relative to alpha-beta against ordering",
                      _ordering_chart(table, variants, ctx.scale.sweep_branching))])


def _ordering_text(numbers: Mapping[str, Any], statements: Sequence[tuple[str, Check]]) -> str:
    """Claim 8's summary: the trends, then which statements the verdict found to hold."""
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
    text = ("Trends. Alpha-beta's nodes per tree (geometric mean) go from " + "; ".join(parts)
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
    held = [label for label, c in statements if c.passed]
    failed = [label for label, c in statements if not c.passed]
    text += (f"Verdict: {len(held)} of {len(statements)} statements hold"
             + (f"; not supported by these numbers: {'; '.join(failed)}" if failed else "") + ".")
    return text


def _breakeven(levels: Mapping[str, Mapping[str, float]]) -> float | None:
    """The highest ordering probability where a variant's ratio to alpha-beta crosses 1
    from above (linear interpolation between levels); ``None`` when it never does."""
    xs = [lv for lv in ORDERING_LEVELS if lv != "random"]
    found = None
    for left, right in itertools.pairwise(xs):
        a, b = levels[left]["ratio"] - 1, levels[right]["ratio"] - 1
        if a > 0 >= b:
            found = float(left) + (float(right) - float(left)) * a / (a - b)
    return found


def _ordering_chart(table: Mapping[str, Mapping[str, Mapping[str, Mapping[str, float]]]],
                    variants: Sequence[str], branching: int) -> Figure:
    """Top row: every variant, log scale; bottom row: the same, zoomed on 0.75 to 1.5."""
    levels = [lv for lv in ORDERING_LEVELS if lv != "random"]
    with charts.chart_style():
        fig = _figure(14.0, 10.0)
        axes = fig.subplots(2, 2, sharex=True)
        handles: dict[str, Any] = {}
        for row in range(2):
            for ax, model in zip(axes[row], VALUE_MODELS, strict=True):
                for i, v in enumerate(variants):
                    style = charts.variant_style(i)
                    values = [table[v][model][lv]["ratio"] for lv in levels]
                    (line,) = ax.plot([float(lv) for lv in levels], values, label=v, **style)
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


_ANALYSES: dict[str, Callable[[_Context, ClaimInfo], _Section]] = {
    "knuth-moore": _knuth_moore, "pearl": _pearl, "mtdf": _mtdf, "pvs-article": _pvs_article,
    "gnuchess": _gnuchess, "breuker": _breuker, "zwp": _zwp, "ordering": _ordering,
}


# ---------------------------------------------------------------------------------------
# The report


def _rules() -> list[str]:
    return [
        "A claim is split into checks, each a statement about the numbers with a tolerance "
        "fixed before anything was measured. Verdict: **holds** when every check passes, "
        "**does not hold** when none passes, **partly** otherwise; a claim that needs chess "
        "positions is *not measured: WAC not found* when no suite is found (a claim measured "
        "on synthetic trees too is then judged on them alone).",
        "Exact claims (1, 5, 6, the improvement's \"never more\", and 8's minimal tree) have "
        "no tolerance: one problem against them fails the check.",
        f"Pearl (2): the estimate must move toward x/(1-x) with depth and end within "
        f"{PEARL_TOLERANCE:.0%} of it.",
        f"MTD(f) (3): leaves ratio interval below 1; \"5-10% fewer\" = ratio in "
        f"[{MTDF_LEAVES_BAND[0]:.2f}, {MTDF_LEAVES_BAND[1]:.2f}]; passes per iteration in "
        f"[{MTDF_PASSES_BAND[0]:g}, {MTDF_PASSES_BAND[1]:g}].",
        f"PVS article (4): \"about 90%\" = {FH_FIRST_BAND[0]:.0%} to {FH_FIRST_BAND[1]:.0%}; "
        f"\"about 10%\" = ratio in [{PVS_SAVING_BAND[0]:.2f}, {PVS_SAVING_BAND[1]:.2f}] with "
        "the interval below 1; both with every ordering enhancement on.",
        f"Zero-window-pruning note (7): \"saves\" = interval below 1; \"fairly useless\" = "
        f"saves less than {USELESS:.0%} (ratio >= {1 - USELESS:.2f}); checked on synthetic "
        f"trees with p = {GOOD_ORDERING} and on chess.",
        f"Ordering (8), per value model, for {' and '.join(ZERO_WINDOW)} each: \"saves with "
        f"good ordering\" = ratio to alpha-beta at p = {GOOD_ORDERING} with its interval below "
        f"1; \"the advantage shrinks with {POOR_ORDERING} ordering\" = per-tree ratio at "
        f"{POOR_ORDERING} / ratio at p = {GOOD_ORDERING} with its interval above 1; \"more "
        f"re-search\" = per-tree re-search nodes, {POOR_ORDERING} / p = {GOOD_ORDERING}, interval "
        "above 1 (a tree with none at one or both levels is compared as (b + 1) / (a + 1), the "
        "zero-count rule of harness.stats); \"can lose\" = more nodes than alpha-beta on at "
        "least one tree with "
        f"{POOR_ORDERING} ordering. Alpha-beta \"falls monotonically\" = no step from one "
        "level of p to the next with its per-tree interval above 1, and p = 1.0 against 0.0 "
        f"below 1. Minimal tree: at p = {PERFECT_ORDERING} with {MINIMAL_TREE_MODEL} values, "
        f"{', '.join(MINIMAL_TREE_VARIANTS)} evaluate exactly Knuth and Moore's leaves on every "
        "tree (exact).",
        f"Ratios are geometric means of per-problem ratios B/A with a paired percentile "
        f"bootstrap {LEVEL:.0%} interval ({RESAMPLES:,} resamples, numpy PCG64 seed {SEED}); "
        "the sign test is exact and two-sided (harness.stats). On chess, nodes are total "
        "nodes: search nodes plus quiescence nodes.",
    ]


class _Doc:
    """Blocks rendered both as Markdown and as HTML."""

    def __init__(self) -> None:
        self.blocks: list[tuple[str, Any]] = []

    def heading(self, level: int, text: str, anchor: str = "") -> None:
        self.blocks.append(("h", (level, text, anchor)))

    def para(self, text: str) -> None:
        self.blocks.append(("p", text))

    def items(self, items: Sequence[str]) -> None:
        self.blocks.append(("ul", list(items)))

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        self.blocks.append(("table", (list(headers), [list(r) for r in rows])))

    def image(self, title: str, png: Path, relative: str) -> None:
        self.blocks.append(("img", (title, png, relative)))

    def markdown(self) -> str:
        out: list[str] = []
        for kind, value in self.blocks:
            if kind == "h":
                out.append("#" * value[0] + " " + value[1])
            elif kind == "p":
                out.append(value)
            elif kind == "ul":
                out.append("\n".join(f"- {item}" for item in value))
            elif kind == "table":
                headers, rows = value
                lines = ["| " + " | ".join(_md_cell(h) for h in headers) + " |",
                         "|" + "|".join("---" for _ in headers) + "|"]
                lines += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]
                out.append("\n".join(lines))
            else:
                title, _, relative = value
                out.append(f"![{title}]({relative})")
        return "\n\n".join(out) + "\n"

    def html(self, title: str) -> str:
        out: list[str] = []
        for kind, value in self.blocks:
            if kind == "h":
                level, text, anchor = value
                ident = f' id="{_e(anchor)}"' if anchor else ""
                out.append(f"<h{level}{ident}>{_inline(text)}</h{level}>")
            elif kind == "p":
                out.append(f"<p>{_inline(value)}</p>")
            elif kind == "ul":
                out.append("<ul>\n" + "\n".join(f"<li>{_inline(i)}</li>" for i in value) + "\n</ul>")
            elif kind == "table":
                headers, rows = value
                head = "".join(f"<th>{_inline(h)}</th>" for h in headers)
                body = "\n".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>"
                                 for r in rows)
                out.append(f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>")
            else:
                image_title, png, _ = value
                data = base64.b64encode(Path(png).read_bytes()).decode("ascii")
                out.append(f'<img alt="{_e(image_title)}" src="data:image/png;base64,{data}">')
        body = "\n".join(out)
        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n"
                "</body>\n</html>\n")


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
img { max-width: 100%; height: auto; display: block; margin: 0.5em 0 1.5em; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _inline(text: str) -> str:
    """Markdown's ``**bold**``, ``*italic*`` and ``code`` spans as HTML (text escaped)."""
    out = []
    for k, chunk in enumerate(str(text).split("`")):
        if k % 2:
            out.append(f"<code>{_e(chunk)}</code>")
            continue
        escaped = _e(chunk)
        parts = escaped.split("**")
        escaped = "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))
        parts = escaped.split("*")
        out.append("".join(f"<em>{p}</em>" if i % 2 else p for i, p in enumerate(parts))
                   if len(parts) % 2 else escaped)
    return "".join(out)


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _write_report(out_dir: Path, claims: Sequence[Claim], sections: Sequence[_Section],
                  quick: bool, scale: Scale, seconds: float, jobs: int) -> tuple[Path, Path]:
    env = environment()
    doc = _Doc()
    mode = "quick" if quick else "full"
    doc.heading(1, f"harness reproduce ({mode})")
    doc.para(f"{len(claims)} claims measured in {seconds:.0f} s of wall time with {jobs} "
             f"worker process{'es' if jobs > 1 else ''}; git revision "
             f"`{env.get('git_revision') or 'unknown'}`, Python {env.get('python', '?')}. Every "
             "count is in `data/`, every number and verdict in `claims.json`.")
    doc.para("Scale: " + ", ".join(f"{k} = {v}" for k, v in asdict(scale).items()) + ".")
    if quick:
        doc.para("This is the quick scale: fewer and smaller problems than the full run, so "
                 "checks that rest on a confidence interval have less power and their verdicts "
                 "can differ from the full run's; exact checks are as strict as ever.")
    doc.heading(2, "Verdicts")
    doc.table(["#", "claim", "verdict", "checks passed"],
              [[str(_number(c.key)), f"{c.title}", f"**{c.verdict}**",
                f"{sum(k.passed for k in c.checks)} of {len(c.checks)}"] for c in claims])
    doc.heading(2, "How verdicts are decided")
    doc.items(_rules())
    for claim, section in zip(claims, sections, strict=True):
        doc.heading(2, f"{_number(claim.key)}. {claim.title}", claim.key)
        doc.para(f"**Verdict: {claim.verdict}.**")
        doc.para(f"**Source.** {claim.source}")
        doc.para(f"**Claimed.** {claim.claimed}")
        doc.para(f"**Setup.** {claim.setup}")
        doc.para(f"**Measured.** {claim.measured}")
        if claim.checks:
            doc.table(["check", "measured", "passed"],
                      [[c.statement, c.measured, "yes" if c.passed else "**no**"] for c in claim.checks])
        for caption, headers, rows in section.tables:
            doc.para(f"*{caption}.*")
            doc.table(headers, rows)
        for path in claim.charts:
            if path.suffix == ".png":
                doc.image(claim.title, path, path.relative_to(out_dir).as_posix())
    md = out_dir / "report.md"
    md.write_text(doc.markdown(), encoding="utf-8")
    page = out_dir / "report.html"
    page.write_text(doc.html(f"harness reproduce ({mode})"), encoding="utf-8")
    return md, page


def _number(key: str) -> int:
    return claim_keys().index(key) + 1


def _json_ready(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return None if math.isnan(number) else number
    if isinstance(value, Path):
        return str(value)
    return value


# ---------------------------------------------------------------------------------------
# The entry point


MEASURING_FILE = "measuring.json"
"""What a reproduction measures (mode, claims, a fingerprint of its jobs), written first."""
MEASURED_FILE = "measured.jsonl"
"""The finished jobs of a reproduction (:class:`harness.checkpoint.JobLog`), kept for a
resume until the report is written."""


def reproduce(out_dir: Path, quick: bool = False, jobs: int = 1, only: Sequence[str] | None = None,
              progress: Listener | None = None, resume: bool = False) -> ReproduceOutput:
    """Measure each claim of :data:`CLAIMS` (or those named in ``only``, by key or number)
    and write ``report.md``, ``report.html``, ``charts/``, ``data/`` and ``claims.json``
    into ``out_dir``. ``quick`` is the CI scale (:data:`QUICK`, a few minutes on two
    cores); ``jobs`` worker processes share the problems; ``progress`` hears of each
    search. Each finished job is logged in ``out_dir``, so after an interruption
    ``resume`` measures only the rest (mode and claims as recorded there)."""
    start = time.perf_counter()
    out_dir = Path(out_dir)
    execution = Execution(jobs=jobs)
    execution.check()
    if not resume:
        _select(only)                       # an unknown claim: say so before making the folder
    with hold_folder(out_dir):
        settings_path = out_dir / MEASURING_FILE
        settings = _measuring(settings_path, resume)
        if resume:
            quick, only = bool(settings["quick"]), list(settings["claims"])
        selected = _select(only)
        scale = QUICK if quick else FULL
        suite = chess_suite() if any(c.chess for c in selected) else None
        job_list = _jobs(selected, scale, suite)
        fingerprint = hashlib.sha256(repr(job_list).encode()).hexdigest()
        if resume and settings.get("fingerprint") != fingerprint:
            raise HarnessError(f"{settings_path}: its claims were measured on other problems "
                               "(another version of the harness, or another WAC); start "
                               "afresh with another --out")
        if not resume:
            settings = {"quick": quick, "claims": [c.key for c in selected], "jobs": len(job_list),
                        "fingerprint": fingerprint, "started": now(), "finished": None}
            settings_path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        log = JobLog(out_dir / MEASURED_FILE)
        finished = log.read() if resume else {}
        log.restart(finished)
        frames = _collect(job_list, execution, progress or Listener(), log, finished)
        output = _write_all(out_dir, frames, selected, scale, suite, quick, jobs, start)
        settings["finished"] = now()
        settings_path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        log.path.unlink()                   # data/*.csv holds the rows now
        return output


def _measuring(path: Path, resume: bool) -> dict[str, Any]:
    """The recorded settings of a reproduction to resume; for a new one, ``{}`` (and a
    refusal to write over another)."""
    folder = path.parent
    if not resume:
        if path.exists() or (folder / "claims.json").exists():
            raise HarnessError(f"{folder}: already holds a reproduction; choose another --out, "
                               f"or finish it with: harness reproduce --resume {folder}")
        return {}
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HarnessError(f"{folder}: no reproduction to resume (no {MEASURING_FILE})") from None
    except ValueError as exc:
        raise HarnessError(f"{path}: not readable: {exc}") from None
    if not isinstance(settings, dict) or not {"quick", "claims", "fingerprint"} <= set(settings):
        raise HarnessError(f"{path}: not a reproduction's settings")
    if settings.get("finished"):
        raise HarnessError(f"{folder}: this reproduction is finished (see report.md)")
    return settings


def _write_all(out_dir: Path, frames: dict[str, pd.DataFrame], selected: Sequence[ClaimInfo],
               scale: Scale, suite: Path | None, quick: bool, jobs: int,
               start: float) -> ReproduceOutput:
    """Judge every claim on the measured frames; write data, charts, reports, claims.json."""
    chart_dir = out_dir / "charts"
    data_dir = out_dir / "data"
    chart_dir.mkdir(parents=True, exist_ok=True)
    data_dir.mkdir(parents=True, exist_ok=True)
    data = []
    for name, frame in frames.items():
        path = data_dir / f"{name}.csv"
        frame.to_csv(path, index=False)
        data.append(path)
    ctx = _Context(frames, scale, suite)
    claims: list[Claim] = []
    sections: list[_Section] = []
    for info in selected:
        section = _ANALYSES[info.key](ctx, info)
        paths: list[Path] = []
        for name, _title, fig in section.figures:
            paths += charts.save(fig, chart_dir / name)
        verdict = section.verdict or verdict_of(section.checks)
        claims.append(Claim(info.key, info.title, info.source, section.setup, info.claimed,
                            section.measured, verdict, _json_ready(section.numbers), tuple(paths),
                            tuple(section.checks)))
        sections.append(section)
    seconds = time.perf_counter() - start
    md, page = _write_report(out_dir, claims, sections, quick, scale, seconds, jobs)
    record = {
        "mode": "quick" if quick else "full", "seconds": seconds, "jobs": jobs,
        "scale": _json_ready(asdict(scale)),
        "suite": None if suite is None else str(suite),
        "claims": [_json_ready({**asdict(c), "charts": [p.relative_to(out_dir).as_posix()
                                                        for p in c.charts]}) for c in claims],
    }
    (out_dir / "claims.json").write_text(json.dumps(record, indent=2, sort_keys=False) + "\n",
                                         encoding="utf-8")
    return ReproduceOutput(out_dir, tuple(claims), md, page, tuple(data), seconds, quick)


def summary_lines(output: ReproduceOutput) -> list[str]:
    """One line per claim: its number, key, verdict and what was measured (for a CLI)."""
    return [f"{_number(c.key)}. {c.key}: {c.verdict}. {c.measured}" for c in output.claims]
