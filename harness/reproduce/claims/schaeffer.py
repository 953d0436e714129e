"""Claim 13. Schaeffer (1989), "The History Heuristic and Alpha-Beta Search Enhancements in
Practice" (IEEE PAMI 11(11)), from its abstract: the history heuristic combined with a
transposition table accounts for 99% of the possible reductions in tree size for trees
up to depth 8, the other enhancements yielding insignificant gains.

Seven enhancements, each on or off (:data:`ENHANCEMENTS`): a transposition table with its
move first, the history heuristic, killer moves, refutation tables, aspiration search,
minimal-window search (PVS) and iterative deepening, over the classic profile (full-width
fail-hard alpha-beta, MVV-LVA captures, quiescence on captures): his object. A
*combination* is a set of them; two are one search when aspiration (which deepens
iteratively whatever the switch says) or the lack of deepening (refutation tables learn
from an earlier pass) makes them so (:meth:`Combination.search`), and is searched once.

The jobs (:func:`jobs`) are one per position: every combination at each depth from
:data:`FIRST_DEPTH` to the sample's factorial depth (the full factorial), and the
combinations the checks read (:func:`needed`) at the deeper depths to the deepest. The
numbers (:func:`depth_numbers`) are ratios of totals over the positions (tree size is a
sum), with percentile-bootstrap intervals over positions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.chess.tree import Ordering
from harness.report import charts
from harness.reproduce import rules
from harness.reproduce.analysis import (
    ClaimInfo,
    Context,
    Section,
    percentile_interval,
    refuse_unfinished,
    resampled_sums,
    unmeasured_section,
)
from harness.reproduce.measure import Job, Run, Scale
from harness.reproduce.phases import seeded_phase, seeded_positions
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import Check, interval_check, verdict_with_extensions
from harness.search.run import Switches

RULES = rules.load("schaeffer")
"""The registered rules (``rules/schaeffer.json``): the share of the possible reduction
table + history achieve, at least 0.99 at every depth (``share``); each other
enhancement's gain over them at most 0.01 of it at the deepest depth
(``insignificant/<enhancement>``); the same with iterative deepening counted with them, as
extensions (``share/with-deepening``, ``insignificant/with-deepening``)."""

KEY = "schaeffer"
"""The claim's key, and its dataset's name (seeded: the seed names the phase's data)."""

ENHANCEMENTS = ("table", "history", "killers", "refutations", "aspiration", "minimal-window",
                "deepening")
"""The seven, in the order of the abstract's list."""

LETTERS = {"table": "T", "history": "H", "killers": "K", "refutations": "R",
           "aspiration": "A", "minimal-window": "M", "deepening": "I"}
"""Each enhancement's letter in a combination's label (``TH``: table and history)."""

NAMES = {"table": "transposition table", "history": "history heuristic",
         "killers": "killer moves", "refutations": "refutation tables",
         "aspiration": "aspiration search", "minimal-window": "minimal window search",
         "deepening": "iterative deepening"}

FIRST_DEPTH = int(RULES.parameters["first_depth"])
"""The shallowest depth judged (depths 1 and 2 leave the table nothing to do)."""
WINDOW = int(RULES.parameters["aspiration_window"])
"""Aspiration search's half-width in centipawns."""

PAIR = ("table", "history")
OTHERS = tuple(e for e in ENHANCEMENTS if e not in PAIR)
"""The five enhancements beyond table + history."""
OTHERS_WITH_DEEPENING = tuple(e for e in OTHERS if e != "deepening")


@dataclass(frozen=True)
class Combination:
    """A set of the seven enhancements."""

    on: frozenset[str]

    @classmethod
    def of(cls, names: Iterable[str]) -> Combination:
        found = frozenset(names)
        unknown = found - set(ENHANCEMENTS)
        if unknown:
            raise HarnessError(f"unknown enhancement {sorted(unknown)[0]!r}")
        return cls(found)

    @property
    def label(self) -> str:
        """Its letters in :data:`ENHANCEMENTS` order; ``-`` for none (the bare search)."""
        return "".join(LETTERS[e] for e in ENHANCEMENTS if e in self.on) or "-"

    def search(self) -> Combination:
        """The combination whose search this is: aspiration deepens iteratively, and
        refutation tables without an earlier pass learn nothing."""
        on = set(self.on)
        if "aspiration" in on:
            on.add("deepening")
        if "deepening" not in on:
            on.discard("refutations")
        return Combination(frozenset(on))

    def run(self, depth: int, tt_size: int, window: int = WINDOW, chess: bool = True) -> Run:
        """Its search to ``depth``: the variant (aspiration's half-width ``window``), the
        frame's switches and, in chess, the tree's ordering (elsewhere killers and history
        are the problem's options: :meth:`game_options`)."""
        search = self.search()
        on = search.on
        inner = "pvs" if "minimal-window" in on else "alphabeta"
        variant = f"aspiration:inner={inner},window={window}" if "aspiration" in on else inner
        switches = Switches(tt_size=tt_size if "table" in on else 0,
                            iterative_deepening="deepening" in on,
                            refutations="refutations" in on)
        ordering = (Ordering(mvv_lva=True, killers="killers" in on, history="history" in on)
                    if chess else None)
        return Run(search.label, variant, depth, switches, ordering)

    def game_options(self) -> str:
        """Killers and history as a game's problem options (``killers=1,history=0``): fixed
        when a tree is made in Othello and checkers, so a job per setting."""
        return f"killers={int('killers' in self.on)},history={int('history' in self.on)}"


EVERY = tuple(Combination.of(c) for k in range(len(ENHANCEMENTS) + 1)
              for c in itertools.combinations(ENHANCEMENTS, k))
"""All 128 combinations."""
BARE, ALL = Combination.of(()), Combination.of(ENHANCEMENTS)
TH = Combination.of(PAIR)
THI = Combination.of((*PAIR, "deepening"))


def needed() -> list[Combination]:
    """The combinations the checks read: bare, all seven, table + history (with and
    without deepening), each other enhancement added to them, and all seven without each
    (the reductions each loses, reported)."""
    return [BARE, ALL, TH, THI, *(Combination.of((*PAIR, e)) for e in OTHERS),
            *(Combination.of((*PAIR, "deepening", e)) for e in OTHERS_WITH_DEEPENING),
            *(Combination(ALL.on - {e}) for e in ENHANCEMENTS)]


def unique_searches(combinations: Iterable[Combination]) -> list[Combination]:
    """The distinct searches of ``combinations``, in first-seen order."""
    seen: dict[str, Combination] = {}
    for combination in combinations:
        seen.setdefault(combination.search().label, combination.search())
    return list(seen.values())


# ---------------------------------------------------------------------------------------
# The jobs


def phase_data(seed: int) -> tuple[str, Mapping[str, Any]]:
    """The phase and the data its rules name whose seed is ``seed``."""
    return seeded_phase(RULES, KEY, seed)


def positions(scale: Scale) -> list[Problem]:
    """The phase's positions: the exploration's first ones (as many as the sample names),
    the confirmation's whole range."""
    return seeded_positions(RULES, KEY, scale, scale.schaeffer[0])


def factorial_depths(first: int, factorial: int, deepest: int) -> tuple[range, range]:
    """The depths of the full factorial (``first`` to ``factorial``), and the deeper ones
    (to ``deepest``) of :func:`needed` only."""
    return range(first, factorial + 1), range(factorial + 1, deepest + 1)


def depths_of(scale: Scale) -> tuple[range, range]:
    """The scale's depths of the full factorial, and the deeper ones of :func:`needed` only."""
    _, factorial, deepest = scale.schaeffer
    return factorial_depths(FIRST_DEPTH, factorial, deepest)


def searches(full: range, deeper: range) -> list[tuple[int, Combination]]:
    """(depth, search) in the order a job runs them, shallow first: every distinct search
    of the 128 combinations at each depth of ``full``, then those of :func:`needed` at each
    of ``deeper``."""
    return ([(d, c) for d in full for c in unique_searches(EVERY)]
            + [(d, c) for d in deeper for c in unique_searches(needed())])


def jobs(scale: Scale) -> list[Job]:
    """One job per position: every distinct search of the 128 combinations at each
    factorial depth, then those of :func:`needed` at the deeper depths."""
    runs = tuple(c.run(d, scale.tt_size) for d, c in searches(*depths_of(scale)))
    return [((("dataset", KEY),), p, runs) for p in positions(scale)]


# ---------------------------------------------------------------------------------------
# The numbers


def totals_by_position(frame: pd.DataFrame, depth: int) -> pd.DataFrame:
    """Total nodes (nodes + qnodes) per position (rows) and search (columns, by label) at
    ``depth``, over the positions every search of the depth finished."""
    rows = frame[frame["depth"] == depth]
    refuse_unfinished(rows, f"claim {KEY}, depth {depth}")
    table = rows.assign(total=rows["nodes"] + rows["qnodes"]).pivot_table(
        index="problem_id", columns="config", values="total", aggfunc="first")
    return table.dropna()


def share_summary(totals: pd.DataFrame, part: Combination, extra: Combination | None,
                  boot: Bootstrap) -> dict[str, float]:
    """``(T(bare) - T(part)) / (T(bare) - T(all))`` (``extra``: the gain of ``extra`` over
    ``part``, ``(T(part) - T(extra)) / (T(bare) - T(all))``), T summed over positions,
    with its bootstrap interval and the mean and median of per-position values over the
    ``n_each`` positions where all seven reduce the tree (elsewhere a share is undefined)."""
    columns = [BARE.search().label, ALL.search().label, part.search().label]
    if extra is not None:
        columns.append(extra.search().label)
    data = totals[columns].to_numpy(dtype=np.float64)

    def statistic(sums: np.ndarray) -> np.ndarray:
        possible = sums[..., 0] - sums[..., 1]
        done = (sums[..., 2] - sums[..., 3]) if extra is not None else (sums[..., 0] - sums[..., 2])
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(possible > 0, done / possible, np.nan)

    point = float(statistic(data.sum(axis=0)))
    low, high = percentile_interval(statistic(resampled_sums(data, boot)), boot.level)
    each = statistic(data)
    each = each[~np.isnan(each)]
    return {"value": point, "low": low, "high": high, "n": float(len(data)),
            "n_each": float(len(each)),
            "mean": float(each.mean()) if len(each) else math.nan,
            "median": float(np.median(each)) if len(each) else math.nan, "level": boot.level}


def depth_numbers(totals: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """At one depth: every search's total and its ratios to the bare search and to all
    seven; the shares of table + history (and with deepening); each other enhancement's
    gain over them."""
    sums = totals.sum(axis=0)
    bare, every = float(sums[BARE.search().label]), float(sums[ALL.search().label])
    found: dict[str, Any] = {
        "positions": len(totals),
        "totals": {label: float(v) for label, v in sums.items()},
        "to_bare": {label: float(v) / bare for label, v in sums.items()},
        "to_all": {label: float(v) / every for label, v in sums.items()},
        "share": share_summary(totals, TH, None, boot),
        "share_deepening": share_summary(totals, THI, None, boot),
        "gains": {e: share_summary(totals, TH, Combination.of((*PAIR, e)), boot)
                  for e in OTHERS},
        "gains_deepening": {e: share_summary(totals, THI, Combination.of((*PAIR, "deepening", e)),
                                             boot) for e in OTHERS_WITH_DEEPENING},
    }
    return found


def numbers_of(frame: pd.DataFrame, boot: Bootstrap) -> dict[str, Any]:
    """Every depth's numbers (:func:`depth_numbers`), by depth as text."""
    return {str(d): depth_numbers(totals_by_position(frame, int(d)), boot)
            for d in sorted(frame["depth"].unique())}


def _share_text(found: Mapping[str, float]) -> str:
    # Runs kept before n_each was recorded say nothing of positions left out.
    each = found.get("n_each", found["n"])
    over = "" if each == found["n"] else (
        f" over the {each:.0f} of {found['n']:.0f} positions where all seven reduce the tree")
    return (f"{found['value']:.4f} ({found['level']:.0%} interval {found['low']:.4f} to "
            f"{found['high']:.4f}, n = {found['n']:.0f}; per position mean {found['mean']:.4f}, "
            f"median {found['median']:.4f}{over}, not judged)")


def judge(numbers: Mapping[str, Any], rules_of: rules.Rules = RULES, where: str = "",
          suffix: str = "") -> list[Check]:
    """Claim 13: the share at every depth, each other enhancement's gain at the deepest;
    the same with deepening counted with table + history, as extensions. ``rules_of``:
    the rules whose bands judge (another claim's, asking the same of another game: named
    in each statement by ``where``, its checks' identifiers ending in ``suffix``)."""
    depths = numbers["depths"]
    deepest = max(depths, key=int)
    checks: list[Check] = []
    for ident, key, what in (("share", "share", "table + history"),
                             ("share/with-deepening", "share_deepening",
                              "table + history + iterative deepening")):
        rule = rules_of.check(ident + suffix)
        for depth, found in depths.items():
            share = found[key]
            checks.append(interval_check(
                f"{where}depth {depth}: {what} achieve at least 99% of the possible reduction in tree "
                f"size (share in {rule.band})", share["low"], share["high"], rule.band,
                _share_text(share), rule.kind, extension=rule.extension))
    for ident, key, base in (("insignificant", "gains", "table + history"),
                             ("insignificant/with-deepening", "gains_deepening",
                              "table + history + iterative deepening")):
        for name, gain in depths[deepest][key].items():
            rule = rules_of.check((ident if key == "gains_deepening" else f"{ident}/{name}")
                                  + suffix)
            checks.append(interval_check(
                f"{where}depth {deepest}: {NAMES[name]} added to {base} gains at most 1% of the "
                f"possible reduction (gain in {rule.band})", gain["low"], gain["high"],
                rule.band, _share_text(gain), rule.kind, extension=rule.extension))
    return checks


# ---------------------------------------------------------------------------------------
# The report


def tables(numbers: Mapping[str, Any], where: str = "",
           level: float = RULES.bootstrap.level) -> list[tuple[str, list[str], list[list[str]]]]:
    """The shares and gains per depth, and every search at the deepest factorial depth
    (``where``: the game, before each title, where a claim has several)."""
    depths = numbers["depths"]
    share_rows = [[d, f"{x['share']['value']:.4f}", f"{x['share']['low']:.4f} to {x['share']['high']:.4f}",
                   f"{x['share_deepening']['value']:.4f}",
                   *(f"{x['gains'][e]['value']:+.4f}" for e in OTHERS), str(x["positions"])]
                  for d, x in depths.items()]
    factorial = str(numbers["factorial_depth"])
    rows = []
    if factorial in depths:
        found = depths[factorial]
        searches = {c.search().label: c for c in EVERY}
        for label in sorted(found["totals"], key=lambda k: found["totals"][k]):
            same = [c.label for c in EVERY if c.search().label == label and c.label != label]
            rows.append([label, ", ".join(NAMES[e] for e in ENHANCEMENTS
                                          if e in searches[label].on) or "none (bare)",
                         f"{found['totals'][label]:,.0f}", f"{found['to_bare'][label]:.4f}",
                         f"{found['to_all'][label]:.3f}", ", ".join(same)])
    return [(f"{where}The share of the possible reduction, and each other enhancement's gain "
             "over table + history (fractions of the possible reduction), per depth",
             ["depth", "share: table + history", f"{level:.0%} interval",
              "share with iterative deepening", *(f"gain: {NAMES[e]}" for e in OTHERS),
              "positions"], share_rows),
            (f"{where}Every combination at depth {factorial} (the deepest of the full factorial): total "
             "nodes summed over the positions, relative to the bare search and to all seven",
             ["search", "enhancements", "total nodes", "/ bare", "/ all seven",
              "the same search as"], rows)]


SHARE_AXIS_TOP = 1.5
"""The top of the share axis: shares above it are marked at the edge with their value."""


def chart(numbers: Mapping[str, Any], where: str = "") -> Figure:
    """Left: the share per depth with its interval, the claimed 99% marked; right: each other
    enhancement's gain at the deepest depth (``where``: the game, before each title)."""
    depths = numbers["depths"]
    names = list(depths)
    deepest = max(depths, key=int)
    with charts.chart_style():
        fig = charts.figure(11.0, 3.6)
        left, right = fig.subplots(1, 2)
        for k, (key, label) in enumerate((("share", "table + history"),
                                          ("share_deepening", "with iterative deepening"))):
            values = np.array([depths[d][key]["value"] for d in names])
            low = np.array([depths[d][key]["low"] for d in names])
            high = np.array([depths[d][key]["high"] for d in names])
            x = np.arange(len(names)) + (k - 0.5) * 0.2
            color = charts.variant_style(k)["color"]
            left.errorbar(x, values, yerr=[values - low, high - values], fmt="o", capsize=3,
                          label=label, color=color)
            # A share far above 1 (a small tree the seven barely reduce) would squash the
            # rest: it is drawn at the top edge with its value written beside it.
            for xi, value in zip(x, values, strict=True):
                if value > SHARE_AXIS_TOP:
                    left.plot([xi], [SHARE_AXIS_TOP], marker="^", color=color)
                    left.annotate(f"{value:.2f}", (xi, SHARE_AXIS_TOP), fontsize=7,
                                  xytext=(-24 if k == 0 else 4, -11), textcoords="offset points",
                                  color=color)
        left.axhline(0.99, color="#2ca02c", linewidth=1, label="claimed: 99%")
        shown = [float(depths[d][key][end]) for d in names
                 for key in ("share", "share_deepening") for end in ("low", "value", "high")]
        shown = [e for e in shown if not math.isnan(e)]
        top = SHARE_AXIS_TOP if any(e > SHARE_AXIS_TOP for e in shown) else max([1.0, *shown])
        left.set_ylim(min([0.5, *shown]) - 0.05, top + 0.05)
        left.set_xticks(np.arange(len(names)), names)
        left.set_xlabel("depth")
        left.set_ylabel("share of the possible reduction")
        left.set_title(f"{where}What table + history achieve")
        left.legend(fontsize=7)
        gains = depths[deepest]["gains"]
        y = np.arange(len(gains))
        value = np.array([g["value"] for g in gains.values()])
        low = np.array([g["low"] for g in gains.values()])
        high = np.array([g["high"] for g in gains.values()])
        right.errorbar(value, y, xerr=[value - low, high - value], fmt="o", capsize=3,
                       color="#1f4e79")
        right.axvspan(-1, 0.01, color="#2ca02c", alpha=0.12, label="claimed: insignificant (<= 1%)")
        right.axvline(0, color="black", linewidth=1)
        ends = np.concatenate([low, high])
        ends = ends[~np.isnan(ends)]    # a small tree may leave no reduction to share
        right.set_xlim(min(-0.02, float(ends.min(initial=0.0)) - 0.01),
                       max(0.05, float(ends.max(initial=0.0)) + 0.01))
        right.set_yticks(y, [NAMES[e] for e in gains])
        right.set_xlabel("gain over table + history (share of the possible reduction)")
        right.set_title(f"{where}Each other enhancement, depth {deepest}")
        right.legend(fontsize=7)
    return fig


def analyse(ctx: Context, info: ClaimInfo) -> Section:
    frame = ctx.frames.get(KEY)
    phase, data = phase_data(ctx.scale.seed_of(KEY))
    if frame is None or frame.empty:
        return unmeasured_section(info)
    boot = RULES.bootstrap
    full, deeper = depths_of(ctx.scale)
    numbers = {"depths": numbers_of(frame, boot), "factorial_depth": full[-1] if full else 0,
               "phase": phase, "suite": data["suite"]}
    checks = judge(numbers)
    depths = numbers["depths"]
    deepest = max(depths, key=int)
    setup = (f"The object: {RULES.parameters['object']}. Positions: {depths[deepest]['positions']} "
             f"of {data['suite']} ({phase}: positions {data['positions'][0]}-{data['positions'][1]}"
             f"{', the first of them' if phase == 'explore' else ''}). Every combination of the "
             f"seven enhancements ({', '.join(NAMES[e] for e in ENHANCEMENTS)}) at depths "
             f"{full[0]}-{full[-1]} (128 combinations, {len(unique_searches(EVERY))} distinct "
             "searches: aspiration deepens iteratively, refutation tables need an earlier pass)"
             + (f"; at depths {deeper[0]}-{deeper[-1]} the {len(unique_searches(needed()))} "
                "searches the checks read (bare, all seven, table + history with and without "
                "iterative deepening, each other enhancement added to them, all seven without "
                "each)" if deeper else "") + ". Tree size: total nodes (nodes + qnodes) summed "
             "over the positions; intervals: a percentile bootstrap over positions.")
    measured = ("The share of the possible reduction (bare to all seven) that table + history "
                "achieve, per depth: " + "; ".join(
                    f"{d}: {x['share']['value']:.4f} ({x['share']['low']:.4f} to "
                    f"{x['share']['high']:.4f})" for d, x in depths.items())
                + "; with iterative deepening counted with them: " + ", ".join(
                    f"{x['share_deepening']['value']:.4f}" for x in depths.values())
                + f". At depth {deepest}, each other enhancement's gain over table + history: "
                + ", ".join(f"{NAMES[e]} {g['value']:+.4f}"
                            for e, g in depths[deepest]["gains"].items())
                + f"; all seven search {depths[deepest]['to_bare'][ALL.search().label]:.4f} of "
                "the bare search's total nodes. Odd and even depths are rows of their own; "
                "the per-position mean and median of each share are shown beside it, not judged.")
    return Section(info, setup, measured, numbers, checks, tables(numbers),
                   [("schaeffer", "Table + history against every enhancement", chart(numbers))],
                   verdict_with_extensions(checks))


CLAIM = ClaimInfo(
    KEY, "Schaeffer (1989): table and history heuristic do nearly all",
    "Schaeffer, IEEE PAMI 11(11), 1989 (abstract)",
    "\"The history heuristic combined with transposition tables significantly outperforms "
    "other alpha-beta enhancements\"; \"for trees up to depth 8, this combination accounts "
    "for 99% of the possible reductions in tree size, with the other enhancements yielding "
    "insignificant gains\" (the abstract; the enhancements: transposition tables, history "
    "heuristic, killer moves, refutation tables, aspiration search, minimal window search, "
    "iterative deepening).", analyse, jobs=jobs, rules=RULES)


def combinations_named(labels: Sequence[str]) -> list[Combination]:
    """Combinations from their labels (``TH``, ``-``), for tests and notebooks."""
    letters = {v: k for k, v in LETTERS.items()}
    found = []
    for label in labels:
        if label != "-" and any(ch not in letters for ch in label):
            raise HarnessError(f"combination {label!r}: letters of {''.join(LETTERS.values())}")
        found.append(Combination.of(letters[ch] for ch in label if ch != "-"))
    return found
