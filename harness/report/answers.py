"""Whether a run's exact variants agree: its rows checked by :mod:`harness.search.agreement`.

For each problem and depth, the answers of every variant whose answer must hold minimax's
value (exact variants; Belle's root by its bound) are checked against each other, the
reference (minimax) first where the run has it. A question whose answers cannot all be right
is a disagreement: every answer to it is a row of ``disagreements.csv``, marked whether it
allows the value the others settle on (minimax's, else the exact score most of them give).
A run whose frame is not exact for any variant (null move or a selective switch prunes by
the window) is not checked, and says why.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import DISAGREEMENT_EXIT, DISAGREEMENTS_FILE, HarnessError
from harness.report.stopped import finished, stopped_mask
from harness.results import ENGINE
from harness.search.agreement import Answer, disagreement, reference_first
from harness.search.registry import VARIANTS, parse_variants
from harness.search.selective import Selectivity

__all__ = ["DISAGREEMENTS_FILE", "DISAGREEMENT_EXIT", "AnswerCheck", "answer_of", "check_answers",
           "inexact_frame", "inexact_problems", "inexact_reason"]

RECHECKS_FILE = "rechecks.csv"
"""A run's table-free searches of the questions a deeper table entry decided an answer of
(:mod:`harness.run.recheck`): the question's columns, ``variant`` (:data:`RECHECK_LABEL`),
``score``, ``bound``, ``status`` and ``nodes``."""
RECHECK_LABEL = "alphabeta without a table (re-check)"
"""The label of a re-check's answer among a question's answers."""

ENGINE_REASON = ("a UCI engine: its own evaluation and pruning, so its score is never "
                 "cross-checked with the harness's")
"""Why an engine's answers stay out of the check (:mod:`harness.engines`)."""
REFERENCE = next(v.name for v in VARIANTS if v.reference)
"""The variant every answer is checked against first (minimax)."""
QUESTION = ["game", "suite", "problem_id", "depth"]
"""What identifies one question: a problem searched to one depth (the run's switches are
the same for every row)."""
COLUMNS = [*QUESTION, "variant", "tt_size", "iterative", "score", "bound", "agrees", "answers"]
"""The columns of ``disagreements.csv``."""


@dataclass(frozen=True)
class AnswerCheck:
    """What a run's answers came to."""

    rows: pd.DataFrame
    """Every answer to a question whose answers disagree (:data:`COLUMNS`); empty if none."""
    questions: int
    """Questions checked (problems x depths with at least two checked answers)."""
    checked: tuple[str, ...]
    """The variants whose answers were checked."""
    unchecked: dict[str, str]
    """Variants left out of the check, with the reason."""
    skipped: str | None = None
    """Why the run was not checked at all (``None``: it was)."""
    by: tuple[str, ...] = tuple(QUESTION)
    """The columns that identify a question."""
    deeper: int = 0
    """Answers left out because a table entry searched deeper than needed decided part of
    them (``tt_deep_cutoffs``), or a table beside draws by repetition (:func:`table_decided`):
    such a search need not return minimax's value."""
    stopped: int = 0
    """Answers left out because their search stopped before its end (a node or OPEN limit:
    :mod:`harness.report.stopped`): no answer, or a bound on the way."""
    answers: int = 0
    """Answers checked: those of the exact variants to the :attr:`questions`."""
    alone: int = 0
    """Exact variants' answers left out because no other exact answer to the same question
    was left to check them against."""
    inexact: int = 0
    """Answers of the variants in :attr:`unchecked` (not bound to minimax's value)."""
    deeper_agree: int = 0
    """Answers a deeper table entry decided that allow the value of a search of the same
    question without a table (the run's re-check): checked, and right."""
    deeper_differ: int = 0
    """Answers a deeper table entry decided that do not allow it: the deeper entry's value,
    not minimax's at that depth (named, not an error)."""

    @property
    def disagreeing(self) -> int:
        """Questions whose answers disagree."""
        return 0 if self.rows.empty else len(self.rows.groupby(list(self.by), sort=False))

    def wrong_by_variant(self) -> dict[str, int]:
        """For each variant, the questions where its answer does not allow the value the
        others settle on."""
        if self.rows.empty:
            return {}
        wrong = self.rows[self.rows["agrees"] == 0]
        return {str(k): int(v) for k, v in wrong.groupby("variant", sort=False).size().items()}

    def wrong_questions(self, variant: str) -> set[tuple[str, str, int]]:
        """The questions (set, problem id, depth) ``variant`` answered against the value the
        others settle on."""
        if self.rows.empty:
            return set()
        wrong = self.rows[(self.rows["agrees"] == 0) & (self.rows["variant"] == variant)]
        return set(zip(wrong["suite"].astype(str), wrong["problem_id"].astype(str),
                       wrong["depth"].astype(int), strict=True))

    def lines(self, first: int = 3) -> list[str]:
        """The terminal's account: nothing when every answer agreed; else which variants,
        on how many questions, and the first ``first`` of them."""
        if self.skipped is not None or self.rows.empty:
            return []
        wrong = ", ".join(f"{v} on {n}" for v, n in self.wrong_by_variant().items())
        out = [f"ANSWERS DISAGREE: the exact variants' scores differ on {self.disagreeing} of "
               f"{self.questions} {_pairs(self.questions)} (wrong: {wrong or 'no majority'}); "
               "at least one search or the game's tree is wrong"]
        for key, part in list(self.rows.groupby(list(self.by), sort=False))[:first]:
            named = dict(zip(self.by, key, strict=True))
            where = " ".join(str(v) for k, v in named.items() if k not in ("game", "depth"))
            out.append(f"  {where} depth {named['depth']}: {part['answers'].iloc[0]}")
        return out

    def left_out(self) -> str:
        """The answers not checked, by reason, as words (empty when every one was)."""
        reasons = [(self.stopped, "their search stopped"),
                   (self.deeper, "a deeper table entry decided them (no re-check within its "
                                 "budget)"),
                   (self.alone, "no other exact answer to the same question"),
                   (self.inexact, "variants not bound to minimax's value")]
        return "; ".join(f"{n} {'answer' if n == 1 else 'answers'}: {why}"
                         for n, why in reasons if n)

    def note(self) -> str:
        """One line for a run that agreed, or was not checked: how many answers were
        checked, and how many were not and why, so that "checked" means checked."""
        if self.skipped is not None:
            return f"answers not cross-checked: {self.skipped}"
        left = self.left_out()
        if not self.questions:
            return f"answers not cross-checked: no question had two exact answers ({left})"
        total = (self.answers + self.stopped + self.deeper + self.alone + self.inexact
                 + self.deeper_agree + self.deeper_differ)
        head = (f"answers cross-checked: {self.answers + self.deeper_agree + self.deeper_differ} "
                f"of {total} answers ({len(self.checked)} exact variants agree on "
                f"{self.questions} {_pairs(self.questions)})")
        if self.deeper_agree or self.deeper_differ:
            head += (f"; {self.deeper_agree + self.deeper_differ} decided by deeper table "
                     f"entries, re-checked without a table: {self.deeper_agree} agree, "
                     f"{self.deeper_differ} hold the deeper entry's value instead")
        return f"{head}; not checked: {left}" if left else head

    def summary(self) -> dict[str, Any]:
        """What ``run.json`` records."""
        return {"questions": self.questions, "disagreeing": self.disagreeing,
                "checked": list(self.checked), "unchecked": self.unchecked,
                "skipped": self.skipped, "wrong_by_variant": self.wrong_by_variant(),
                "deeper_table_answers": self.deeper, "stopped_answers": self.stopped,
                "answers_checked": self.answers, "answers_alone": self.alone,
                "inexact_answers": self.inexact, "deeper_rechecked_agree": self.deeper_agree,
                "deeper_rechecked_differ": self.deeper_differ}


def _pairs(count: int) -> str:
    return "(problem, depth) pair" if count == 1 else "(problem, depth) pairs"


def inexact_frame(switches: Mapping[str, Any]) -> str | None:
    """Why no answer of a run with ``switches`` (``run.json``'s) need be minimax's: null
    move or a selective switch prunes by the window (internal iterative deepening alone
    only reorders); ``None`` when the frame is exact."""
    selective = Selectivity(**(switches.get("selectivity") or {})).pruning()
    if selective:
        return f"selective search ({', '.join(selective)}) prunes by the window"
    if switches.get("null_move"):
        return "null move prunes by the window"
    return None


def inexact_problems(info: Mapping[str, Any] | None) -> str | None:
    """Why a problem set's own options let the variants' answers differ (the ``inexact`` of
    its record in ``run.json``'s suites: chess's ``delta=1`` prunes quiescence by the
    window); ``None`` when no set's do."""
    for name, record in ((info or {}).get("suites") or {}).items():
        if isinstance(record, Mapping) and record.get("inexact"):
            return f"{name}: {record['inexact']}"
    return None


def check_answers(results: pd.DataFrame, info: Mapping[str, Any] | None = None,
                  by: Sequence[str] = QUESTION,
                  rechecks: pd.DataFrame | None = None) -> AnswerCheck:
    """Check the answers of ``results`` (a run's rows; ``info`` its ``run.json``, whose
    switches say whether the frame is exact), one question per value of the ``by``
    columns (a reproduction's rows add their configuration and dataset). ``rechecks`` (a
    run's :data:`RECHECKS_FILE`) are table-free answers to the questions a deeper table
    entry decided answers of: each finished one joins its question's answers, and the
    answers the deeper entry decided are checked against it."""
    switches = ((info or {}).get("config") or {}).get("switches") or {}
    by = [column for column in by if column in results.columns]
    labels = [str(v) for v in pd.unique(results["variant"])] if len(results) else []
    columns = [*by, *COLUMNS[len(QUESTION):]]
    checked, unchecked = [], {}
    engines = set(results.loc[results["frame"] == ENGINE, "variant"].astype(str)) \
        if "frame" in results.columns else set()
    for label in labels:
        reason = ENGINE_REASON if label in engines else inexact_reason(label)
        if reason is None:
            checked.append(label)
        else:
            unchecked[label] = reason
    skipped = None
    if not {"score", "bound"} <= set(results.columns):
        skipped = "the results hold no scores"
    elif inexact_frame(switches) is not None:
        skipped = f"{inexact_frame(switches)}, so no variant's answer need equal minimax's"
    elif inexact_problems(info) is not None:
        skipped = f"{inexact_problems(info)}, so no variant's answer need equal minimax's"
    elif len(checked) < 2:
        skipped = "fewer than two exact variants"
    if skipped is not None:
        return AnswerCheck(pd.DataFrame(columns=columns), 0, tuple(checked), unchecked, skipped,
                           tuple(by))
    exact = results["variant"].astype(str).isin(checked)
    halted = stopped_mask(results) & exact
    part = results[exact & ~halted]
    deep = table_decided(part) if "tt_deep_cutoffs" in part.columns else None
    deeper = 0 if deep is None else int(deep.sum())
    agree = differ = 0
    if deep is not None:
        decided = part[deep]
        part = part[~deep]          # a deeper table entry decided it: not bound to minimax
        if rechecks is not None and not rechecks.empty:
            table_free = finished(rechecks)
            agree, differ = _against_rechecks(decided, table_free, by)
            deeper -= agree + differ
            part = pd.concat([part, table_free[[c for c in table_free.columns
                                                if c in part.columns]]], ignore_index=True)
    found: list[dict[str, Any]] = []
    questions = answered = alone = 0
    for key, rows in part.groupby(list(by), sort=False):
        if len(rows) < 2:
            alone += int((rows["variant"] != RECHECK_LABEL).sum())
            continue
        questions += 1
        answered += int((rows["variant"] != RECHECK_LABEL).sum())   # the run's own answers
        records = rows.to_dict("records")
        answers = [answer_of(r["variant"], r["score"], r["bound"]) for r in records]
        text = disagreement(reference_first(answers, REFERENCE))
        if text is None:
            continue
        settled = _settled(answers)
        for answer, row in zip(answers, records, strict=True):
            found.append({**dict(zip(by, key, strict=True)), "variant": answer.label,
                          "tt_size": row.get("tt_size", ""), "iterative": row.get("iterative", ""),
                          "score": "" if answer.score is None else answer.score,
                          "bound": answer.bound,
                          "agrees": "" if settled is None else int(answer.allows(settled)),
                          "answers": text})
    return AnswerCheck(pd.DataFrame(found, columns=columns), questions, tuple(checked), unchecked,
                       by=tuple(by), deeper=deeper, stopped=int(halted.sum()), answers=answered,
                       alone=alone, inexact=int((~exact).sum()), deeper_agree=agree,
                       deeper_differ=differ)


def table_decided(rows: pd.DataFrame) -> pd.Series:
    """Which of ``rows`` a table entry may have given another value than minimax's at the
    depth searched: a deeper entry cut part of the search off (``tt_deep_cutoffs``), or
    the search scored draws by repetition with a table (``repetition_draws``): a draw
    belongs to the path, the table's entries to the position alone, so a value that rests
    on a draw answers the same position reached by another path, and the other way round
    (the graph-history interaction every engine accepts)."""
    decided = rows["tt_deep_cutoffs"] > 0
    if "repetition_draws" in rows.columns and "tt_size" in rows.columns:
        decided |= (rows["repetition_draws"] > 0) & (rows["tt_size"] > 0)
    return decided


def _against_rechecks(decided: pd.DataFrame, table_free: pd.DataFrame,
                      by: Sequence[str]) -> tuple[int, int]:
    """Of the answers a deeper table entry ``decided``, how many allow and how many do not
    allow the exact value of their question's table-free search (those without one: neither)."""
    values = {tuple(row[k] for k in by): answer_of(row["variant"], row["score"], row["bound"])
              for row in table_free.to_dict("records")}
    agree = differ = 0
    for row in decided.to_dict("records"):
        reference = values.get(tuple(row[k] for k in by))
        if reference is None or reference.score is None or reference.bound != "exact":
            continue
        if answer_of(row["variant"], row["score"], row["bound"]).allows(reference.score):
            agree += 1
        else:
            differ += 1
    return agree, differ


def load_rechecks(run_dir: Path) -> pd.DataFrame | None:
    """A run's :data:`RECHECKS_FILE` (``None`` when it has none)."""
    path = run_dir / RECHECKS_FILE
    if not path.is_file():
        return None
    return pd.read_csv(path, dtype={"problem_id": str, "suite": str}, keep_default_na=False)


def inexact_reason(label: str) -> str | None:
    """Why ``label``'s answers are not checked, need not be minimax's (``None``: they
    must be): the variant is not installed here, or its options make it inexact."""
    try:
        spec = parse_variants(label)[0]
    except HarnessError:
        return "not installed here"
    return spec.variant.inexact_reason(dict(spec.options))


def answer_of(label: object, score: object, bound: object) -> Answer:
    """An :class:`Answer` from a row's cells (an empty or missing score: no score)."""
    missing = score is None or score == "" or (isinstance(score, float) and math.isnan(score))
    return Answer(str(label), None if missing else int(str(score).split(".")[0]), str(bound))


def _settled(answers: list[Answer]) -> int | None:
    """The value the others settle on: minimax's, else the exact score most give (``None``
    when there is none, or a tie)."""
    for answer in answers:
        if answer.label == REFERENCE and answer.bound == "exact" and answer.score is not None:
            return answer.score
    counts = Counter(a.score for a in answers if a.bound == "exact" and a.score is not None)
    ranked = counts.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]
