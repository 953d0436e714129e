"""Summaries of a results table: per suite x variant x depth, a pure function of the rows;
short names for problem sets; and the brief summary ``harness run`` prints."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from harness.report import stats
from harness.report.compare import compare, default_baseline
from harness.report.depths import depth_label, group_own_depths
from harness.report.frames import frame_column, frames_line, frames_text
from harness.report.measures import NODES, Measure, brief_verdict
from harness.report.solved import solved_flags
from harness.report.stopped import headline, stopped_mask
from harness.results import UNKNOWN_FRAME


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Totals and rates per suite, variant and depth, in the order the rows first appear;
    ``time_per_search`` and ``nodes_per_s`` from the totals, and the ``frame`` that ran
    them (:func:`harness.report.frames.frames_text`)."""
    keys = ["suite", "variant", "depth"]
    results = group_own_depths(results)
    results = results.assign(frame=frame_column(results))
    grouped = results.groupby(keys, sort=False)
    summary = grouped.agg(
        problems=("problem_id", "count"),
        nodes=("nodes", _total),
        leaves=("leaves", _total),
        minimal_leaves=("minimal_leaves", lambda s: s.sum() if s.notna().all() else float("nan")),
        zw_searches=("zw_searches", _total),
        researches=("researches", _total),
        research_nodes=("research_nodes", _total),
        fail_highs=("fail_highs", _total),
        fail_highs_first=("fail_highs_first", _total),
        passes=("passes", _total),
        time_s=("time_s", "sum"),
        frame=("frame", frames_text),
    ).reset_index()
    # Stopped searches are counted, not summed away: their nodes are how far they got.
    summary.insert(4, "stopped", stopped_mask(results).groupby(
        [results[k] for k in keys], sort=False).sum().to_numpy().astype(int))
    first_score = grouped["score"].first().reset_index()["score"]
    summary.insert(4, "score", first_score.where(summary["problems"] == 1))
    summary["leaves_vs_minimal"] = summary["leaves"] / summary["minimal_leaves"]
    if "solved" in results and results["solved"].notna().any():
        summary["solve_rate"] = grouped["solved"].mean().to_numpy()
    summary.insert(list(summary.columns).index("leaves") + 1, "qnodes",
                   grouped["qnodes"].sum(min_count=1).to_numpy())
    fh = summary["fail_highs"]
    summary["fh_first_rate"] = summary["fail_highs_first"].where(fh > 0) / fh.where(fh > 0)
    seconds = summary["time_s"].where(summary["time_s"] > 0)
    summary["time_per_search"] = summary["time_s"] / summary["problems"]
    summary["nodes_per_s"] = summary["nodes"] / seconds
    summary["frame"] = summary.pop("frame")
    return summary


def _total(values: pd.Series) -> float:
    """A column's total over a group; NaN (said ``-``) when every row left it empty: an
    engine's rows, whose harness counters are not measured (:data:`harness.results.NOT_MEASURED`)."""
    return float("nan") if values.isna().all() else values.sum()


def format_summary(summary: pd.DataFrame, measure: Measure = NODES) -> str:
    """A readable fixed-width table of :func:`summarize`'s output, one block per suite;
    measuring time, with the time per search and nodes a second. The frame is beside the
    times wherever the block's rows ran in more than one or in one not recorded (or
    measuring time)."""
    times = ["time_per_search", "nodes_per_s"] if measure is not NODES else []
    shown = ["variant", "depth", "problems", "stopped", "score", "nodes", "leaves", "qnodes",
             "minimal_leaves", "leaves_vs_minimal", "zw_searches", "researches",
             "fh_first_rate", "solve_rate", "passes", "time_s", *times, "frame"]
    headers = {"minimal_leaves": "min_leaves", "leaves_vs_minimal": "leaves/min",
               "zw_searches": "zw", "researches": "re-search", "fh_first_rate": "fh1st",
               "problems": "n", "solve_rate": "solved", "time_per_search": "s/search",
               "nodes_per_s": "nodes/s"}
    blocks = []
    for suite, part in summary.groupby("suite", sort=False):
        one_frame = "frame" not in part or (part["frame"].nunique() < 2
                                            and UNKNOWN_FRAME not in set(part["frame"]))
        part = part.drop(columns="frame") if one_frame and not times else part
        table = part[[c for c in shown if c in part]].rename(columns=headers)
        for column in ("score", "min_leaves", "leaves/min", "solved"):
            if column in table and table[column].isna().all():
                table = table.drop(columns=column)
        for column in ("qnodes", "stopped"):
            if column in table and not table[column].any():
                table = table.drop(columns=column)
        text = table.to_string(index=False, na_rep="-", float_format=lambda x: f"{x:.3g}")
        blocks.append(f"{suite}\n{text}")
    return "\n\n".join(blocks)


@dataclass(frozen=True)
class SetNames:
    """Names of problem sets for reading: what each set's name adds to the part all share.

    The two sets of the default run, ``random:b=8,d=6,n=20,seed=1,ordering=0.9,...`` and
    the same with ``ordering=random``, read as ``ordering=0.9`` and ``ordering=random``
    with the rest said once. Files keep the full names; this is for pages, charts and
    terminal summaries.
    """

    short: dict[str, str]
    """Each full name's own part: its items (``key=value``, a ``kind:`` head) that not
    every name shares; the full name when nothing is shared or when the own parts would
    not tell the sets apart."""
    common: str
    """The items every name shares, in the first name's order; empty for one set or when
    the names are shown in full."""

    def label(self, suite: str) -> str:
        """The short name of ``suite`` (the name itself when it is not one of the sets)."""
        return self.short.get(suite, suite)


def _items(name: str) -> list[str]:
    """A set name's items: an optional ``kind:`` head, then its comma-separated parts."""
    head = re.match(r"[^:,=]+:", name)
    rest = name[head.end():] if head else name
    return ([head.group()] if head else []) + [part for part in rest.split(",") if part]


def _join(items: list[str]) -> str:
    """Items back into a name: a head keeps its colon (dropped when it stands alone) and is
    not followed by a comma."""
    head = items[0] if items and items[0].endswith(":") else ""
    if head and len(items) == 1:
        return head[:-1]
    return head + ",".join(items[1:] if head else items)


def set_names(suites: Sequence[str]) -> SetNames:
    """Short names for ``suites`` (problem-set names, full spec strings included): each
    set's differing items, and the items all share said once."""
    names = list(dict.fromkeys(str(s) for s in suites))
    full = SetNames({name: name for name in names}, "")
    if len(names) < 2:
        return full
    items = {name: _items(name) for name in names}
    shared = set.intersection(*(set(parts) for parts in items.values()))
    short = {name: _join([p for p in parts if p not in shared]) for name, parts in items.items()}
    if not shared or "" in short.values() or len(set(short.values())) < len(names):
        return full
    return SetNames(short, _join([p for p in items[names[0]] if p in shared]))


def brief_summary(results: pd.DataFrame, baseline: str | None = None, seed: int = 0,
                  resamples: int = stats.DEFAULT_RESAMPLES,
                  info: Mapping[str, Any] | None = None, measure: Measure = NODES) -> str:
    """What a run found, read at a glance: per problem set (short names, see
    :func:`set_names`) at its deepest depth, the variants with the fewest and the most
    nodes against ``baseline`` (default: ``alphabeta`` when present) with the ratio, its
    95% interval and whether it is significant, how many variants differ significantly,
    and the solve counts when the problems have solutions. The same comparison as the
    report's, at that depth only (same seed), so the numbers agree with ``comparison.csv``.
    A variant whose answers disagree with the baseline's is never ranked: it is named with
    the problems it got wrong. ``info`` (``run.json``) says whether answers are checked.
    Variants that ran in different frames are named with their frames (a line starting
    ``FRAMES:``); ``measure`` ranks by time per search instead (refused across frames).
    """
    baseline = baseline or default_baseline(results)
    results = group_own_depths(results)
    suites = [str(s) for s in pd.unique(results["suite"])]
    names = set_names(suites)
    lines = [line for line in (headline(results), frames_line(results)) if line]
    if names.common:
        lines += [f"Problem sets, each on its own: {', '.join(names.label(s) for s in suites)}",
                  f"  (all of them {names.common})"]
    lines.append(f"Against {baseline} at the deepest depth (B/A: geometric mean of per-problem "
                 f"{measure.ratio}, 95% interval):")
    for suite in suites:
        part = results[results["suite"] == suite]
        depth = int(part["depth"].max())
        deepest = part[part["depth"] == depth]
        lines += ["", f"{names.label(suite)} ({depth_label(deepest, depth)}, "
                      f"{deepest['problem_id'].nunique()} problems)"]
        lines += _brief_set(deepest, baseline, seed, resamples, info, measure)
        lines += _brief_solved(deepest)
    return "\n".join(lines + engine_lines(info))


def engine_lines(info: Mapping[str, Any] | None) -> list[str]:
    """What a run with UCI engines says of them: each one's ``id name`` and settings, that
    their nodes and times are their own and their answers never cross-checked, and each
    determinism warning (the same search twice differed). Nothing without engines."""
    engines = dict((info or {}).get("engines") or {})
    if not engines:
        return []
    lines = ["", "Engines beside the variants (UCI programs: compared by nodes at equal depth and "
                 "solve rate; their nodes and times are their own, their answers never "
                 "cross-checked):"]
    for name, record in engines.items():
        settings = ", ".join(f"{k}={v}" for k, v in dict(record.get("settings") or {}).items())
        limits = dict(record.get("limits") or {})
        nodes = f"; go nodes {limits['nodes']:,}" if limits.get("nodes") else ""
        lines.append(f"  {name}: {record.get('id_name') or '(no id name)'} "
                     f"({' '.join(record.get('command') or [])}; {settings or 'its defaults'}{nodes})")
    lines += [f"  WARNING: {line}" for line in (info or {}).get("engine_warnings") or []]
    return lines


def _brief_set(deepest: pd.DataFrame, baseline: str, seed: int, resamples: int,
               info: Mapping[str, Any] | None, measure: Measure) -> list[str]:
    """The best and worst variant against the baseline and the count of significant ones."""
    variants = [str(v) for v in pd.unique(deepest["variant"])]
    if baseline not in variants:
        return [f"  {baseline} did not search this set at this depth: nothing to compare"]
    if len(variants) == 1:
        return [f"  only {baseline}: nothing to compare ({int(deepest['nodes'].sum()):,} nodes)"]
    table = compare(deepest, baseline, [], seed, resamples, info=info, measure=measure).table
    table = table[(table["n"] > 0) | (table["stopped"] > 0)]
    if table.empty:
        return [f"  no variant searched the same problems as {baseline}"]
    wrong = table[(table["disagree"] > 0) | (table["stopped"] > 0)]
    table = table[(table["disagree"] == 0) & (table["stopped"] == 0)]
    lines = [f"  not ranked:   {row['variant']}  {brief_verdict(row)}"
             for row in wrong.to_dict("records")]
    if table.empty:
        return lines
    ranked = table.sort_values("ratio", kind="stable")
    # "Fewest" only for a variant that searched fewer nodes than the baseline: one at
    # 1.015 or 1.000 is not an improvement, whatever its rank.
    m = measure
    fewer_than_baseline = bool(ranked.iloc[0]["ratio"] < 1)
    picks = [(f"{m.least} {m.noun}", ranked.iloc[0])] if fewer_than_baseline else []
    if len(ranked) > 1 or not fewer_than_baseline:
        picks.append((f"most {m.noun}", ranked.iloc[-1]))
    if not fewer_than_baseline:
        lines.append(f"  {f'{m.least} {m.noun}:':<13} no variant {m.verb} {m.fewer} {m.noun} "
                     f"than {baseline}")
    width = max(len(str(row["variant"])) for _, row in picks)
    for label, row in picks:
        lines.append(f"  {label + ':':<13} {row['variant']!s:<{width}}  {row['ratio']:.3f} "
                     f"({row['ratio_low']:.3f}-{row['ratio_high']:.3f})  {brief_verdict(row)}"
                     + ("" if m is NODES else f"  [{_speed(row)}]"))
        if row["conditions"]:
            lines.append(f"  {'':<13} searched differently: {row['conditions']}")
    fewer = int((table["significant"] & (table["ratio"] < 1)).sum())
    more = int((table["significant"] & (table["ratio"] > 1)).sum())
    lines.append(f"  significant at 5%: {fewer} with {m.fewer} {m.noun}, {more} with more, "
                 f"{len(table) - fewer - more} not significant (of {len(table)} variants)")
    return lines


def _speed(row: Mapping[str, Any] | pd.Series) -> str:
    """A compared pair's time per search and nodes a second, B's against A's (the
    baseline's), in the one frame both ran in."""
    n = max(int(row["n"]), 1)
    return (f"ms/search {1e3 * row['time_b'] / n:.3f} vs {1e3 * row['time_a'] / n:.3f}, "
            f"nodes/s {row['nodes_per_s_b']:,.0f} vs {row['nodes_per_s_a']:,.0f}, "
            f"{row['frame_b']} frame")


def _brief_solved(deepest: pd.DataFrame) -> list[str]:
    """Solve counts at the deepest depth, when the problems have solutions (EPD bm/am)."""
    if "solved" not in deepest.columns:
        return []
    flags = solved_flags(deepest["solved"])
    if flags.isna().all():
        return []
    solved: dict[str, int] = {}
    for variant, flag in zip(deepest["variant"], flags, strict=True):
        solved[str(variant)] = solved.get(str(variant), 0) + int(flag == 1)
    of = int(flags.notna().groupby(deepest["variant"].to_numpy()).sum().max())
    low, high = min(solved, key=solved.__getitem__), max(solved, key=solved.__getitem__)
    if solved[low] == solved[high]:
        return [f"  solved: {solved[low]} of {of} by every variant"]
    return [f"  solved: from {solved[low]} ({low}) to {solved[high]} ({high}) of {of}"]
