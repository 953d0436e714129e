"""Summaries of a results table: per suite x variant x depth, a pure function of the rows."""

from __future__ import annotations

import pandas as pd


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Totals and rates per suite, variant and depth, in the order the rows first appear."""
    keys = ["suite", "variant", "depth"]
    grouped = results.groupby(keys, sort=False)
    summary = grouped.agg(
        problems=("problem_id", "count"),
        nodes=("nodes", "sum"),
        leaves=("leaves", "sum"),
        minimal_leaves=("minimal_leaves", lambda s: s.sum() if s.notna().all() else float("nan")),
        zw_searches=("zw_searches", "sum"),
        researches=("researches", "sum"),
        research_nodes=("research_nodes", "sum"),
        fail_highs=("fail_highs", "sum"),
        fail_highs_first=("fail_highs_first", "sum"),
        passes=("passes", "sum"),
        time_s=("time_s", "sum"),
    ).reset_index()
    first_score = grouped["score"].first().reset_index()["score"]
    summary.insert(4, "score", first_score.where(summary["problems"] == 1))
    summary["leaves_vs_minimal"] = summary["leaves"] / summary["minimal_leaves"]
    if "solved" in results and results["solved"].notna().any():
        summary["solve_rate"] = grouped["solved"].mean().to_numpy()
    summary.insert(list(summary.columns).index("leaves") + 1, "qnodes",
                   grouped["qnodes"].sum().to_numpy())
    fh = summary["fail_highs"]
    summary["fh_first_rate"] = summary["fail_highs_first"].where(fh > 0) / fh.where(fh > 0)
    return summary


def format_summary(summary: pd.DataFrame) -> str:
    """A readable fixed-width table of :func:`summarize`'s output, one block per suite."""
    shown = ["variant", "depth", "problems", "score", "nodes", "leaves", "qnodes",
             "minimal_leaves", "leaves_vs_minimal", "zw_searches", "researches",
             "fh_first_rate", "solve_rate", "passes", "time_s"]
    headers = {"minimal_leaves": "min_leaves", "leaves_vs_minimal": "leaves/min",
               "zw_searches": "zw", "researches": "re-search", "fh_first_rate": "fh1st",
               "problems": "n", "solve_rate": "solved"}
    blocks = []
    for suite, part in summary.groupby("suite", sort=False):
        table = part[[c for c in shown if c in part]].rename(columns=headers)
        for column in ("score", "min_leaves", "leaves/min", "solved"):
            if column in table and table[column].isna().all():
                table = table.drop(columns=column)
        if "qnodes" in table and not table["qnodes"].any():
            table = table.drop(columns="qnodes")
        text = table.to_string(index=False, na_rep="-", float_format=lambda x: f"{x:.3g}")
        blocks.append(f"{suite}\n{text}")
    return "\n\n".join(blocks)
