"""The answers a deeper table entry decided, checked all the same.

A table entry stored by a deeper search can cut a shallower one off with its deeper value
(``tt_deep_cutoffs``), so such an answer need not be minimax's at the depth searched and the
cross-check leaves it out (:mod:`harness.report.answers`). With a table in every search (an
MTD driver in the run gives every variant one), that can be most of a chess run's answers.
So after the run, each question (problem and depth) with such an answer is searched again
by alpha-beta without a table, which returns minimax's value at that depth; its answer
joins the question's and checks the others. A re-check is affordable or skipped: each stops
at :data:`RECHECK_NODES` nodes, and all of them together at half the nodes the run's own
searches used (at least one question's budget); the check says how many were left
unchecked. The re-checks are written to ``rechecks.csv`` (:data:`RECHECKS_FILE`).
"""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pandas as pd

from harness.files import write_whole
from harness.games.registry import find_game
from harness.report.answers import (
    RECHECK_LABEL,
    RECHECKS_FILE,
    inexact_frame,
    inexact_reason,
    table_decided,
)
from harness.report.stopped import stopped_mask
from harness.run.blame import Running, blamed
from harness.run.plan import Plan
from harness.search.registry import parse_variants
from harness.search.run import run_search

RECHECK_NODES = 2_000_000
"""The node budget of one re-check (a question's table-free search)."""
RECHECK_SHARE = 0.5
"""All re-checks together stop at this share of the nodes the run's searches used."""
QUESTION = ["game", "suite", "problem_id", "depth"]


def deeper_questions(results: pd.DataFrame) -> pd.DataFrame:
    """The questions (game, set, problem, depth) with a finished exact answer that a deeper
    table entry, or a table beside draws by repetition, decided (:func:`table_decided`), in
    the order of the rows."""
    if "tt_deep_cutoffs" not in results.columns or results.empty:
        return pd.DataFrame(columns=QUESTION)
    exact = results["variant"].astype(str).map(lambda label: inexact_reason(label) is None)
    decided = results[exact & ~stopped_mask(results) & table_decided(results)]
    return decided[QUESTION].drop_duplicates().reset_index(drop=True)


def rechecked(plan: Plan, results: pd.DataFrame) -> bool:
    """Whether :func:`recheck_deeper` will search: some question a deeper entry decided, in
    a frame whose answers are bound to minimax's (no null move, no selective switch)."""
    return not deeper_questions(results).empty and inexact_frame(asdict(plan.switches)) is None


def recheck_deeper(plan: Plan, results: pd.DataFrame, run_dir: Path,
                   budget: int = RECHECK_NODES) -> pd.DataFrame:
    """Search every :func:`deeper_questions` question again with alpha-beta and no table
    (the run's other switches), within the budgets; write and return the rows."""
    questions = deeper_questions(results)
    path = run_dir / RECHECKS_FILE
    if not rechecked(plan, results):
        path.unlink(missing_ok=True)
        return pd.DataFrame()
    wanted: dict[tuple[str, str], list[int]] = {}
    for row in questions.itertuples(index=False):
        wanted.setdefault((str(row.suite), str(row.problem_id)), []).append(int(str(row.depth)))
    left = max(budget, int(RECHECK_SHARE * float(results["nodes"].sum())))
    spec = parse_variants("alphabeta")[0]
    switches = replace(plan.switches, tt_size=0, iterative_deepening=False)
    rows: list[dict[str, Any]] = []
    for problem in plan.problems:
        depths = wanted.pop((problem.suite, problem.problem_id), None)
        if depths is None:
            continue
        game = find_game(problem.game)
        with blamed(Running(game, problem)) as running:
            tree = running.tree = game.tree(problem)
            for depth in depths:
                if left <= 0:
                    break
                result = run_search(tree, spec, depth, switches, max_nodes=min(budget, left))
                left -= result.counters["nodes"]
                rows.append({"game": problem.game, "suite": problem.suite,
                             "problem_id": problem.problem_id, "depth": depth,
                             "variant": RECHECK_LABEL,
                             "score": "" if result.score is None else result.score,
                             "bound": result.bound, "status": result.status,
                             "nodes": result.counters["nodes"]})
        if not wanted or left <= 0:
            break
    found = pd.DataFrame(rows, columns=[*QUESTION, "variant", "score", "bound", "status", "nodes"])
    write_whole(path, found.to_csv(index=False))
    return found
