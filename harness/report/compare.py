"""Variant B against baseline A, problem by problem: node ratios, intervals, tests, verdicts.

Rows of ``results.csv`` are paired on (suite, problem_id, depth): a problem counts for a
depth only when both variants searched it to that depth. Ratios are B/A, so below 1 means
B searched fewer nodes; see :mod:`harness.report.stats` for the zero-count rule and the
bootstrap.

Every comparison is made per problem set (suite): a run with several sets usually holds
them to contrast them (the default run: the same trees with good and with random move
ordering), and a mean over both would hide exactly that. Pooling every set into one group
is there on request (``pooled=True``), and its rows say so in their ``suite`` column.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from harness.errors import HarnessError
from harness.report import stats
from harness.report.answers import answer_of, check_answers
from harness.report.depths import group_own_depths
from harness.report.frames import check_one_frame, totals
from harness.report.measures import (
    NODES,
    SIGNIFICANCE,
    Measure,
    format_p,
    measure_of,
    stopped_verdict,
    verdict,
    wrong_verdict,
)
from harness.report.solved import solved_flags
from harness.report.stopped import stopped_mask
from harness.results import ENGINE
from harness.search.agreement import disagreement
from harness.search.registry import parse_variants

KEYS = ("suite", "problem_id", "depth")
"""The columns that identify a problem searched to a depth."""

REQUIRED = ("suite", "problem_id", "variant", "depth", "nodes")
"""Columns a results frame needs for any comparison."""

PAIRED_COUNTERS = ("nodes", "zw_searches", "researches", "fail_highs", "fail_highs_first",
                   "score", "bound", "tt_size", "iterative", "status", "tt_deep_cutoffs",
                   "time_s", "frame", "solved")
"""Counters (and the answer, conditions, time, frame and whether solved) carried into a paired frame (when
the results have them)."""

POOLED = "all problem sets (pooled)"
"""The ``suite`` of a pooled comparison's rows: every problem set in one group."""

LARGEST = 5
"""Problems listed per row as the largest differences."""

TABLE_COLUMNS = (
    "suite", "variant", "baseline", "depth", "measure", "n", "ratio", "ratio_low", "ratio_high",
    "median_ratio", "wins", "ties", "losses", "sign_p", "significant", "nodes_a", "nodes_b",
    "time_a", "time_b", "nodes_per_s_a", "nodes_per_s_b", "frame_a", "frame_b",
    "research_rate_a", "research_rate_b", "fh_first_rate_a", "fh_first_rate_b",
    "largest", "disagree", "wrong_a", "wrong_b", "stopped", "stopped_a", "stopped_b",
    "conditions", "verdict",
)
"""The columns of :attr:`Comparison.table`, in order (A: the baseline, B: ``variant``)."""


@dataclass(frozen=True)
class Comparison:
    """Every other variant against the baseline, per problem set and depth."""

    baseline: str
    """Variant A, the one every ratio divides by."""
    table: pd.DataFrame
    """One row per problem set x other variant x depth, columns :data:`TABLE_COLUMNS`:
    ``suite`` the problem set (:data:`POOLED` when pooled); ``measure`` what the ratios are
    of (:mod:`harness.report.measures`: ``nodes``, or ``time`` per search); ``n`` problems
    in common; ``ratio`` the geometric mean of per-problem ratios B/A of the measure,
    ``ratio_low`` and ``ratio_high`` its paired bootstrap interval; ``median_ratio``;
    ``wins`` (B less), ``ties``, ``losses``; ``sign_p`` the exact two-sided sign-test
    p-value; ``significant`` when the interval excludes 1 and ``sign_p`` < 0.05; ``nodes_a``
    and ``nodes_b`` totals, ``time_a`` and ``time_b`` in seconds (measuring time; else NaN),
    ``nodes_per_s_a`` and ``nodes_per_s_b`` their quotients, ``frame_a`` and ``frame_b`` the
    frames that ran them (:mod:`harness.report.frames`); re-search rates (researches /
    zw_searches) and first-move fail-high rates (fail_highs_first / fail_highs) of each over
    the same problems; ``largest`` the problems that differ most, as text; ``disagree`` the
    problems whose answers (score and bound) of B and A cannot both be right (no verdict on
    nodes is given then), of which ``wrong_a`` and ``wrong_b`` are those where the run's
    check found A's or B's answer against minimax's (or the majority's); ``conditions`` how
    the two searched differently (a table, iterative deepening, a root window), empty when
    alike; ``stopped`` the problems where A's or B's search stopped before its end
    (:mod:`harness.report.stopped`), of which ``stopped_a`` and ``stopped_b`` A's and B's:
    every statistic is over the other ``n`` problems, and a row with a stopped search has no
    ratio and no verdict on nodes; ``verdict`` one plain sentence."""
    differences: pd.DataFrame
    """The problems behind ``largest``, one row each: variant, depth, rank, suite,
    problem_id, nodes_a, nodes_b (measuring time: time_us_a, time_us_b), ratio (``suite``
    is the problem's own set, also when pooled)."""
    seed: int
    """Seed of the bootstrap."""
    resamples: int
    """Bootstrap resamples per interval."""
    level: float
    """Coverage of the intervals (0.95)."""
    pooled: bool = False
    """Whether every problem set was put in one group (asked for; the default is per set)."""
    own_depth: frozenset[str] = frozenset()
    """The problem sets searched each problem to its own depth (a game solved to its end),
    compared as one group at their deepest depth (:func:`harness.report.depths.group_own_depths`)."""
    measure: Measure = NODES
    """What the ratios are of."""

    def render(self) -> str:
        """A readable text table, then a verdict per variant at its deepest depth."""
        return render_comparison(self)


def variants_in(results: pd.DataFrame) -> list[str]:
    """The variants of a results frame, in the order they first appear."""
    check_results(results)
    return [str(v) for v in pd.unique(results["variant"])]


def default_baseline(results: pd.DataFrame) -> str:
    """``alphabeta`` when the results have it, else the first variant in them."""
    variants = variants_in(results)
    if not variants:
        raise HarnessError("no results to compare")
    return "alphabeta" if "alphabeta" in variants else variants[0]


def check_results(results: pd.DataFrame) -> None:
    """Refuse a frame without the columns a comparison needs or with a problem twice."""
    missing = [c for c in REQUIRED if c not in results.columns]
    if missing:
        raise HarnessError(f"results lack the columns: {', '.join(missing)}")
    duplicated = results.duplicated(["variant", *KEYS])
    if duplicated.any():
        row = results[duplicated].iloc[0]
        raise HarnessError(f"results hold {row['variant']} on problem {row['problem_id']} of "
                           f"{row['suite']} at depth {row['depth']} more than once")


def pair(results: pd.DataFrame, baseline: str, other: str) -> pd.DataFrame:
    """The problems both variants searched, one row per (suite, problem_id, depth).

    Columns: the keys, then ``<counter>_a`` (baseline) and ``<counter>_b`` (other) for each
    of :data:`PAIRED_COUNTERS` the results have, sorted by depth, suite and problem.
    """
    return pairs(results, baseline, [other])[other]


def pairs(results: pd.DataFrame, baseline: str, others: Sequence[str]) -> dict[str, pd.DataFrame]:
    """:func:`pair` of ``baseline`` with each of ``others``, from one merge: a report
    pairs every variant, and a merge per variant was most of a small run's statistics."""
    known = variants_in(results)                # checks the results too
    for name in (baseline, *others):
        if name not in known:
            raise HarnessError(f"variant {name!r} is not in the results "
                               f"(they hold: {', '.join(known)})")
    counters = [c for c in PAIRED_COUNTERS if c in results.columns]
    a = results.loc[results["variant"] == baseline, [*KEYS, *counters]]
    b = results.loc[results["variant"].isin(others), ["variant", *KEYS, *counters]]
    merged = a.merge(b, on=list(KEYS), suffixes=("_a", "_b"), how="inner")
    # the keys are unique within a variant, so this order is each pair's whole order
    merged = merged.sort_values(["depth", "suite", "problem_id"], kind="stable")
    columns = [*KEYS, *(f"{c}_a" for c in counters), *(f"{c}_b" for c in counters)]
    found = {str(variant): part[columns].reset_index(drop=True)
             for variant, part in merged.groupby("variant", sort=False)}
    return {other: found[other] if other in found else merged[columns].iloc[:0].reset_index(drop=True)
            for other in others}


def compare(results: pd.DataFrame, baseline: str, others: list[str], seed: int = 0,
            resamples: int = stats.DEFAULT_RESAMPLES, level: float = 0.95,
            pooled: bool = False, info: Mapping[str, Any] | None = None,
            measure: Measure = NODES) -> Comparison:
    """Each of ``others`` against ``baseline``, per problem set and depth, on the problems
    both searched; with ``pooled``, every problem set in one group labelled :data:`POOLED`.

    An empty ``others`` means every variant of the results but the baseline. Rows come
    per problem set (in the order the sets first appear), then variant, then depth. Every
    interval uses the same ``seed``, so a comparison is a pure function of its arguments.
    ``info`` (the run's ``run.json``) says whether answers can be checked (not under null
    move) and the root window, for the conditions. ``measure`` is what the ratios are of:
    time only where each pair of searches ran in one frame (else a :class:`HarnessError`
    naming ``--measure``).
    """
    results = group_own_depths(results)
    checked = check_answers(results, info)
    judged = set() if checked.skipped else set(checked.checked)
    window = (((info or {}).get("config") or {}).get("switches") or {}).get("window")
    known = variants_in(results)
    if baseline not in known:
        raise HarnessError(f"baseline {baseline!r} is not in the results "
                           f"(they hold: {', '.join(known)})")
    if not others:
        others = [v for v in known if v != baseline]
    if baseline in others:
        raise HarnessError(f"baseline {baseline!r} is also among the variants compared with it")
    paired_with = pairs(results, baseline, others)
    if measure is not NODES:
        for other in others:
            check_one_frame(paired_with[other], [baseline, other], ("a", "b"))
    suites = [str(s) for s in pd.unique(results["suite"])]
    groups = [(POOLED, suites)] if pooled else [(s, [s]) for s in suites]
    rows: list[dict[str, object]] = []
    differences: list[pd.DataFrame] = []
    for label, members in groups:
        in_group = results["suite"].isin(members)
        for other in others:
            paired = paired_with[other][paired_with[other]["suite"].isin(members)]
            searched = in_group & results["variant"].isin([baseline, other])
            for depth in sorted(results.loc[searched, "depth"].unique()):
                part = paired[paired["depth"] == depth]
                wrong = (checked.wrong_questions(baseline), checked.wrong_questions(other))
                row, top = _compare_depth(part, baseline, other, int(depth), seed, resamples,
                                          level, wrong if {baseline, other} <= judged else None,
                                          window is not None, measure)
                rows.append({"suite": label, **row})
                differences.append(top)
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    diff_columns = ["variant", "depth", "rank", "suite", "problem_id", *_largest_columns(measure),
                    "ratio"]
    kept = [d for d in differences if not d.empty]
    diffs = (pd.concat(kept, ignore_index=True) if kept
             else pd.DataFrame(columns=diff_columns))
    own = frozenset(str(x) for x in results.loc[results["own_depth"], "suite"].unique())
    return Comparison(baseline, table, diffs[diff_columns], seed, resamples, level, pooled,
                      own | ({POOLED} if pooled and own == set(suites) else frozenset()), measure)


def _compare_depth(part: pd.DataFrame, baseline: str, other: str, depth: int, seed: int,
                   resamples: int, level: float, wrong: tuple[set[Question], set[Question]] | None,
                   window: bool, measure: Measure) -> tuple[dict[str, object], pd.DataFrame]:
    halted_a, halted_b = _halted(part, "a"), _halted(part, "b")
    stops = {"stopped": int((halted_a | halted_b).sum()), "stopped_a": int(halted_a.sum()),
             "stopped_b": int(halted_b.sum())}
    part = part[~(halted_a | halted_b)]
    a, b = measure.values(part, "a"), measure.values(part, "b")
    paired, ratios = paired_statistics(a, b, seed, resamples, level)
    ratio, low, high = (float(paired[k]) for k in ("ratio", "ratio_low", "ratio_high"))
    wins, ties, losses = (int(paired[k]) for k in ("wins", "ties", "losses"))
    p = float(paired["sign_p"])
    top = _largest(part, a, b, ratios, other, depth, measure)
    row: dict[str, object] = {
        "variant": other, "baseline": baseline, "depth": depth, "measure": measure.name,
        **paired, **totals(part, ("a", "b"), measure),
        "research_rate_a": column_rate(part, "researches_a", "zw_searches_a"),
        "research_rate_b": column_rate(part, "researches_b", "zw_searches_b"),
        "fh_first_rate_a": column_rate(part, "fail_highs_first_a", "fail_highs_a"),
        "fh_first_rate_b": column_rate(part, "fail_highs_first_b", "fail_highs_b"),
        "largest": _largest_text(top, several_suites=part["suite"].nunique() > 1,
                                 measure=measure),
        **dict(zip(("disagree", "wrong_a", "wrong_b"),
                   (0, 0, 0) if wrong is None else disagreeing(part, *wrong), strict=True)),
        **stops,
        "conditions": conditions(part, baseline, other, window),
    }
    if stops["stopped"]:
        # A stopped search is not a result: no ratio, no significance, no verdict on nodes.
        row.update({k: math.nan for k in ("ratio", "ratio_low", "ratio_high", "median_ratio",
                                          "sign_p")})
        row["significant"] = False
        row["verdict"] = stopped_verdict(row, baseline, other)
        top = top.iloc[:0]
        row["largest"] = ""
    elif row["disagree"]:
        row["significant"] = False
        row["verdict"] = wrong_verdict(row, baseline, other, len(part))
    else:
        row["verdict"] = verdict(other, baseline, len(part), ratio, (low, high), wins, ties,
                                 losses, p, level, measure)
    return row, top


def paired_statistics(a: np.ndarray, b: np.ndarray, seed: int, resamples: int,
                      level: float) -> tuple[dict[str, Any], np.ndarray]:
    """The statistics of B's counts ``b`` against A's ``a`` (element ``i`` of both the same
    problem), with the per-problem ratios B/A: ``n``, ``ratio`` (geometric mean),
    ``ratio_low`` and ``ratio_high`` (paired bootstrap interval), ``median_ratio``,
    ``wins`` (B fewer), ``ties``, ``losses``, ``sign_p`` and ``significant`` (the interval
    excludes 1 and the sign test's p is below :data:`SIGNIFICANCE`). One computation for
    two variants of a run and for one variant in two runs (:mod:`harness.report.diff`)."""
    ratios = stats.ratios(a, b)
    low, high = stats.bootstrap_interval(ratios, seed, resamples, level)
    wins, ties, losses = stats.wins_ties_losses(a, b)
    p = stats.sign_test(wins, losses)
    return {
        "n": len(ratios), "ratio": stats.geometric_mean(ratios), "ratio_low": low,
        "ratio_high": high, "median_ratio": stats.median_ratio(a, b) if len(ratios) else math.nan,
        "wins": wins, "ties": ties, "losses": losses, "sign_p": p,
        "significant": bool(low > 1 or high < 1) and p < SIGNIFICANCE,
    }, ratios


Question = tuple[str, str, int]
"""A problem searched to a depth: (suite, problem id, depth)."""


def disagreeing(part: pd.DataFrame, wrong_a: set[Question],
                wrong_b: set[Question]) -> tuple[int, int, int]:
    """Paired problems where an answer is wrong (the two cannot both be right, or the
    run's check found one against minimax's or the majority's value), and of those the
    problems where A's and B's were found wrong (``wrong_a``, ``wrong_b``: such questions)."""
    if "score_a" not in part.columns or "bound_a" not in part.columns:
        return 0, 0, 0
    either = a = b = 0
    columns = ["suite", "problem_id", "depth", "score_a", "bound_a", "score_b", "bound_b"]
    # An answer a deeper table entry decided need not be minimax's: two such answers that
    # differ are not a wrong one (the run's check settles it, with its re-check).
    deep = ((part["tt_deep_cutoffs_a"] > 0) | (part["tt_deep_cutoffs_b"] > 0)
            if "tt_deep_cutoffs_a" in part.columns else pd.Series(False, index=part.index))
    for row, decided in zip(part[columns].itertuples(index=False), deep, strict=True):
        key = (str(row.suite), str(row.problem_id), int(str(row.depth)))
        answers = [answer_of("a", row.score_a, row.bound_a),
                   answer_of("b", row.score_b, row.bound_b)]
        a += key in wrong_a
        b += key in wrong_b
        either += (key in wrong_a or key in wrong_b
                   or (not decided and disagreement(answers) is not None))
    return either, a, b


def _halted(part: pd.DataFrame, side: str) -> pd.Series:
    """Which paired problems ``side``'s (``a`` or ``b``) search stopped before its end."""
    column = f"status_{side}"
    if column not in part.columns:
        return pd.Series(False, index=part.index)
    return stopped_mask(part[[column]].rename(columns={column: "status"}))


def conditions(part: pd.DataFrame, baseline: str, other: str, window: bool) -> str:
    """How B and A searched differently, in words (empty when alike): a table or its size,
    iterative deepening, and (with a root window given) a driver's own windows."""
    if part.empty:
        return ""
    engines = [name for name, side in ((other, "b"), (baseline, "a")) if _is_engine(part, side)]
    if engines:
        return (f"{' and '.join(engines)}: a UCI engine, its own search, table, evaluation "
                "and node count (quiescence included; the harness's nodes leave its qnodes "
                "out); compared: nodes at equal depth" + _solved_text(part, baseline, other)
                + "; not its answers, nor its time against the harness's frames")
    said = []
    for name, side in ((other, "b"), (baseline, "a")):
        table = int(part[f"tt_size_{side}"].max()) if f"tt_size_{side}" in part.columns else 0
        deepening = bool(part[f"iterative_{side}"].max()) if f"iterative_{side}" in part.columns \
            else False
        own = window and _own_windows(name)
        said.append((name, table, deepening, own))
    (_, tb, db, ob), (_, ta, da, oa) = said
    if (tb, db, ob) == (ta, da, oa):
        return ""
    words = []
    for name, table, deepening, own in said:
        items = [f"a {table:,}-entry table" if table else "no table",
                 "iterative deepening" if deepening else "no iterative deepening"]
        items += ["its own windows, not the root window given"] if own else []
        words.append(f"{name}: {', '.join(items)}")
    return "; ".join(words)


def _solved_text(part: pd.DataFrame, baseline: str, other: str) -> str:
    """Both sides' solve counts over the paired problems (``bm``/``am``), as words; empty
    when the problems have no solutions."""
    if "solved_a" not in part.columns:
        return ""
    a, b = solved_flags(part["solved_a"]), solved_flags(part["solved_b"])
    judged = a.notna() & b.notna()
    if not judged.any():
        return ""
    return (f", solved {int((b[judged] == 1).sum())} ({other}) against "
            f"{int((a[judged] == 1).sum())} ({baseline}) of {int(judged.sum())}")


def _is_engine(part: pd.DataFrame, side: str) -> bool:
    """Whether ``side``'s searches of a paired frame were a UCI engine's (its ``frame``)."""
    column = f"frame_{side}"
    return column in part.columns and bool((part[column] == ENGINE).any())


def _own_windows(label: str) -> bool:
    try:
        return parse_variants(label)[0].variant.driver is not None
    except HarnessError:
        return False


def column_rate(part: pd.DataFrame, numerator: str, denominator: str) -> float:
    """:func:`harness.report.stats.rate` of two columns' totals; NaN when either is missing."""
    if numerator not in part.columns or denominator not in part.columns:
        return math.nan
    return stats.rate(part[numerator].to_numpy(), part[denominator].to_numpy())


def _largest_columns(measure: Measure) -> tuple[str, str]:
    """The columns of :attr:`Comparison.differences` that hold each side's measure."""
    return ("nodes_a", "nodes_b") if measure is NODES else ("time_us_a", "time_us_b")


def _largest(part: pd.DataFrame, a: np.ndarray, b: np.ndarray, ratios: np.ndarray, other: str,
             depth: int, measure: Measure) -> pd.DataFrame:
    size = np.abs(np.log(ratios)) if len(ratios) else np.empty(0)
    order = sorted((i for i in range(len(size)) if size[i] > 0), key=lambda i: -size[i])[:LARGEST]
    top = part.iloc[order]
    column_a, column_b = _largest_columns(measure)
    return pd.DataFrame({
        "variant": other, "depth": depth, "rank": range(1, len(order) + 1),
        "suite": top["suite"].to_numpy(), "problem_id": top["problem_id"].to_numpy(),
        column_a: a[order].astype(np.int64), column_b: b[order].astype(np.int64),
        "ratio": ratios[order] if order else np.empty(0),
    })


def _largest_text(top: pd.DataFrame, several_suites: bool, measure: Measure) -> str:
    column_a, column_b = _largest_columns(measure)
    unit = "" if measure is NODES else " us"
    items = []
    for row in top.to_dict("records"):
        name = f"{row['suite']}/{row['problem_id']}" if several_suites else str(row["problem_id"])
        items.append(f"{name} ({row[column_a]}->{row[column_b]}{unit}, x{row['ratio']:.3g})")
    return "; ".join(items)


def worse_than(comparison: Comparison, pct: float) -> bool:
    """True when some variant's geometric-mean nodes exceed the baseline's by more than
    ``pct`` percent at some depth of some problem set (a CI gate: a loss on one set is not
    averaged away by a gain on another unless the comparison was pooled; rows without
    problems are ignored). :func:`worse_rows` says which."""
    return not worse_rows(comparison, pct).empty


def check_tolerance(pct: float) -> None:
    """Refuse a ``--fail-if-worse`` tolerance that is not a percentage of at least 0 (before
    anything is searched)."""
    if not math.isfinite(pct) or pct < 0:
        raise HarnessError(f"--fail-if-worse {pct:g}: must be a percentage of at least 0")


def worse_rows(comparison: Comparison, pct: float) -> pd.DataFrame:
    """The rows of :attr:`Comparison.table` (variant, problem set, depth) whose ratio
    exceeds 1 + ``pct`` / 100."""
    return rows_beyond(comparison.table, pct)


def rows_beyond(table: pd.DataFrame, pct: float) -> pd.DataFrame:
    """The rows of ``table`` (a ``ratio`` column) whose ratio exceeds 1 + ``pct`` / 100, and
    those with a stopped search (a ``stopped`` column above 0: no ratio can pass a gate);
    rows without problems (ratio NaN, nothing stopped) never do."""
    check_tolerance(pct)
    ratios = table["ratio"].to_numpy(dtype=np.float64)
    halted = (table["stopped"].fillna(0).to_numpy() > 0 if "stopped" in table.columns
              else np.zeros(len(table), dtype=bool))
    beyond: pd.DataFrame = table[(~np.isnan(ratios) & (ratios > 1 + pct / 100)) | halted]
    return beyond


def gate_failure(row: Mapping[Any, Any], baseline: str, pct: float) -> str:
    """The line ``--fail-if-worse`` prints for a row of :func:`worse_rows`."""
    where = f"{row['variant']} on {row['suite']} at depth {row['depth']}"
    if int(row.get("stopped", 0) or 0):
        return (f"FAIL: {where}: stopped on {_problems(int(row['stopped']))}, so no ratio can "
                f"meet the limit of {pct:g}% (raise --max-nodes or the variant's limit)")
    return (f"FAIL: {row['variant']} needs {(float(row['ratio']) - 1) * 100:.1f}% more "
            f"{measure_of(row).noun} than {baseline} on {row['suite']} at depth {row['depth']} "
            f"(limit {pct:g}%)")


def render_comparison(comparison: Comparison, depths: Sequence[int] | None = None) -> str:
    """:meth:`Comparison.render`, optionally only at ``depths``: one block per problem set
    (a table, then the verdicts at each variant's deepest depth)."""
    table = comparison.table
    if depths is not None:
        table = table[table["depth"].isin(list(depths))]
    if table.empty:
        return f"nothing compared with {comparison.baseline}"
    grouping = ("every problem set pooled into one group, as asked" if comparison.pooled
                else "each problem set on its own")
    m = comparison.measure
    head = (f"B against A = {comparison.baseline}, {grouping}: B/A is the geometric mean of "
            f"per-problem {m.ratio} with a paired bootstrap {comparison.level:.0%} interval "
            f"({comparison.resamples} resamples, seed {comparison.seed}); W/T/L: problems where "
            f"B {m.verb} {m.fewer}/equal/more {m.noun}; sign p: exact two-sided sign test; "
            f"* significant at 5%.")
    if m is not NODES:
        head += (" Times in whole microseconds, each pair of searches in one frame (the frame "
                 "column); nodes/s: total nodes over total seconds.")
    lines = [head]
    for suite, part in table.groupby("suite", sort=False):
        lines += ["", f"Problem set: {suite}", "", _text_table(part, comparison.level, m)]
        deepest = part.loc[part.groupby("variant", sort=False)["depth"].idxmax()]
        lines += ["", "Verdicts at each variant's deepest depth:"]
        for row in deepest.to_dict("records"):
            lines.append(f"  depth {row['depth']}: {row['verdict']}")
            if row["conditions"]:
                lines.append(f"    searched differently: {row['conditions']}")
            if row["largest"] and not row["disagree"]:
                lines.append(f"    largest differences: {row['largest']}")
    return "\n".join(lines)


def _text_table(table: pd.DataFrame, level: float, measure: Measure = NODES) -> str:
    shown = pd.DataFrame({
        "variant": table["variant"], "depth": table["depth"], "n": table["n"],
        "B/A": table["ratio"].map(_num),
        f"{level:.0%} interval": [f"{_num(lo)}-{_num(hi)}" if not math.isnan(lo) else "-" for lo, hi
                                  in zip(table["ratio_low"], table["ratio_high"], strict=True)],
        "median": table["median_ratio"].map(_num),
        "W/T/L": [f"{int(w)}/{int(t)}/{int(lo)}" for w, t, lo in zip(table["wins"], table["ties"],
                                                      table["losses"], strict=True)],
        "sign p": table["sign_p"].map(format_p),
        "sig": table["significant"].map(lambda s: "*" if s else ""),
        **(_rates(table) if measure is NODES else _speeds(table)),
    })
    if "stopped" in table.columns and table["stopped"].fillna(0).any():
        shown.insert(3, "stopped", table["stopped"].fillna(0).astype(int))
    return shown.to_string(index=False)


def _rates(table: pd.DataFrame) -> dict[str, pd.Series]:
    """The columns of a node comparison's text table after its statistics."""
    return {"nodes A": table["nodes_a"], "nodes B": table["nodes_b"],
            "re-search A": table["research_rate_a"].map(_num),
            "re-search B": table["research_rate_b"].map(_num),
            "fh1st A": table["fh_first_rate_a"].map(_num),
            "fh1st B": table["fh_first_rate_b"].map(_num)}


def _speeds(table: pd.DataFrame) -> dict[str, pd.Series]:
    """The columns of a time comparison's text table after its statistics: time per search,
    nodes a second, and the one frame both ran in."""
    n = table["n"].where(table["n"] > 0)
    return {"ms/search A": (table["time_a"] / n * 1e3).map(_num),
            "ms/search B": (table["time_b"] / n * 1e3).map(_num),
            "nodes/s A": table["nodes_per_s_a"].map(_rate),
            "nodes/s B": table["nodes_per_s_b"].map(_rate),
            "frame": table["frame_a"]}


def _rate(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


def _num(value: float) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.3f}"


def _problems(count: int) -> str:
    return f"{count} problem" if count == 1 else f"{count} problems"
