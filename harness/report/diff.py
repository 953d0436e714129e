"""One run against an earlier one: node (or time) ratios NEW/OLD, changed answers, changed
settings.

A CI job runs the same problems before and after a change (to a plug-in variant, a game's
move ordering or its evaluation) and wants to know whether the search got worse. Rows of
the two ``results.csv`` are paired on (suite, problem_id, variant, depth): a search counts
only when both runs made it. Per problem set, variant and depth, the ratio is the geometric
mean of per-problem node ratios NEW/OLD with a paired bootstrap interval and a sign test,
computed as a comparison of two variants is (:func:`harness.report.compare.paired_statistics`).
Measuring time (``--measure time``) does the same with each search's time, and is refused
for a variant that ran in another frame in NEW than in OLD, or in a frame not recorded
(:mod:`harness.report.frames`).

Answers. A changed score of an exact variant (one whose answer must hold minimax's value:
:func:`harness.report.answers.inexact_reason` says which) is a failure when the old and the
new answer cannot both be right (:func:`harness.search.agreement.disagreement`): the search
or the tree it searched changed its result, and a node ratio says nothing then. Every other
changed score or bound (an inexact variant's, a bound that still allows the new value) and
every changed best move with an equal score is listed, not failed.

Settings. Differences between the two runs' ``run.json`` are named: those that make the
node counts of one variant differ for reasons other than the change under test (a table
size, iterative deepening, a node limit, a changed problem file, another way of counting)
are marked as making the ratios not comparable.

Both folders are only read: no lock is taken and nothing is written into them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import HarnessError
from harness.report import stats
from harness.report.answers import answer_of, inexact_frame, inexact_problems, inexact_reason
from harness.report.compare import paired_statistics, rows_beyond
from harness.report.frames import NOT_ALGORITHMS, check_one_frame, totals, variant_frames
from harness.report.measures import NODES, Measure, change_words, format_p
from harness.report.stopped import stopped_mask
from harness.results import UNKNOWN_FRAME, incomplete_line, load_results, load_run_info
from harness.search.agreement import Answer, disagreement

KEY = ["suite", "problem_id", "variant", "depth"]
"""What pairs a row of OLD with a row of NEW: the same search."""

CARRIED = ("nodes", "score", "bound", "best_move", "tt_deep_cutoffs", "status", "time_s", "frame")
"""The columns of each side carried into the pairs (``<column>_old``, ``<column>_new``)."""

TABLE_COLUMNS = ("suite", "variant", "depth", "measure", "n", "ratio", "ratio_low",
                 "ratio_high", "median_ratio", "wins", "ties", "losses", "sign_p", "significant",
                 "nodes_old", "nodes_new", "time_old", "time_new", "nodes_per_s_old",
                 "nodes_per_s_new", "frame_old", "frame_new", "changed", "wrong", "stopped")
"""The columns of :attr:`RunDiff.table`, in order."""

WRONG, SCORE, MOVE = "wrong", "score", "move"
"""The kinds of :class:`AnswerChange`: an exact variant's answers that cannot both be right
(a failure); another changed score or bound; a changed best move with the same answer."""


@dataclass(frozen=True)
class AnswerChange:
    """One search whose answer or best move differs between the two runs."""

    suite: str
    """The problem set."""
    problem_id: str
    """The problem within it."""
    variant: str
    """The variant's label."""
    depth: int
    """The depth searched."""
    old: Answer
    """OLD's answer (score and bound)."""
    new: Answer
    """NEW's answer."""
    old_move: str
    """OLD's best move (``""``: none)."""
    new_move: str
    """NEW's best move."""
    kind: str
    """:data:`WRONG`, :data:`SCORE` or :data:`MOVE`."""
    why: str
    """Why a changed score is not a failure (``""`` for a failure or a changed move)."""

    @property
    def text(self) -> str:
        """``pvs on SET problem 3 at depth 2: score 12 -> 15 (...)``."""
        where = f"{self.variant} on {self.suite} problem {self.problem_id} at depth {self.depth}"
        if self.kind == MOVE:
            return (f"{where}: best move {self.old_move or '-'} -> {self.new_move or '-'} "
                    f"(the same answer, {_answer(self.old)})")
        said = f"{where}: score {_answer(self.old)} -> {_answer(self.new)}"
        if self.kind == WRONG:
            return f"{said} (an exact variant: both cannot be right)"
        return f"{said} ({self.why})"


@dataclass(frozen=True)
class ConfigDifference:
    """A setting that differs between the two runs' ``run.json``."""

    what: str
    """The setting (``switch tt_size``, ``variant pvs options``, ``depths``)."""
    old: str
    """OLD's value, as text."""
    new: str
    """NEW's value, as text."""
    comparable: bool
    """False when the difference alone changes node counts, so the ratios measure it too."""
    note: str
    """What it means for the diff, in a few words."""

    @property
    def text(self) -> str:
        """``switch tt_size: 0 -> 65536 (...)``."""
        return f"{self.what}: {self.old} -> {self.new} ({self.note})"


@dataclass(frozen=True)
class RunDiff:
    """NEW against OLD, per problem set, variant and depth."""

    old: Path
    """The earlier run's folder."""
    new: Path
    """The later run's folder."""
    table: pd.DataFrame
    """One row per problem set x variant x depth both runs searched, columns
    :data:`TABLE_COLUMNS`: ``measure`` what the ratios are of (``nodes`` or ``time``); ``n``
    problems in both; ``ratio`` the geometric mean of per-problem ratios NEW/OLD,
    ``ratio_low`` and ``ratio_high`` its paired bootstrap interval; ``median_ratio``;
    ``wins`` (NEW less), ``ties``, ``losses``; ``sign_p`` the exact two-sided sign test;
    ``significant`` (interval excludes 1 and ``sign_p`` < 0.05); ``nodes_old`` and
    ``nodes_new`` totals, ``time_old`` and ``time_new`` in seconds (measuring time; else
    NaN), ``nodes_per_s_old`` and ``nodes_per_s_new`` their quotients, ``frame_old`` and
    ``frame_new`` the frames that ran them (:mod:`harness.report.frames`); ``changed`` the
    searches whose answer or best move changed, ``wrong`` those of them that are failures;
    ``stopped`` the searches that stopped before their end in either run (a node or OPEN
    limit, :mod:`harness.report.stopped`): the statistics are over the other ``n``, and a
    row with one has no ratio (and fails a ``--fail-if-worse`` gate)."""
    changes: tuple[AnswerChange, ...]
    """Every search whose score, bound or best move changed, failures first."""
    config: tuple[ConfigDifference, ...]
    """Every setting that differs between the runs, those that make ratios not comparable
    first."""
    only_old: int
    """Searches OLD made that NEW did not (not compared)."""
    only_new: int
    """Searches NEW made that OLD did not."""
    seed: int
    """Seed of the bootstrap."""
    resamples: int
    """Bootstrap resamples per interval."""
    level: float
    """Coverage of the intervals."""
    incomplete: tuple[str, ...] = ()
    """For each run whose ``results.csv`` lacks searches it made (cut or edited), a line
    saying so: a ``--fail-if-worse`` gate fails on it."""
    measure: Measure = NODES
    """What the ratios are of."""

    @property
    def wrong(self) -> tuple[AnswerChange, ...]:
        """The changed answers that are failures (an exact variant's, not both right)."""
        return tuple(c for c in self.changes if c.kind == WRONG)

    def worse(self, pct: float) -> pd.DataFrame:
        """The rows of :attr:`table` whose ratio exceeds 1 + ``pct`` / 100 (and those with a
        stopped search)."""
        return rows_beyond(self.table, pct)

    def gate_fails(self, pct: float) -> bool:
        """Whether a ``--fail-if-worse pct`` gate fails: a row beyond it, or a run
        incomplete."""
        return bool(self.incomplete) or not self.worse(pct).empty

    def failures(self, pct: float | None) -> list[str]:
        """One line per failure: a set/variant/depth beyond ``pct`` percent more nodes
        (when a tolerance is given), then each wrong answer."""
        lines = []
        if pct is not None:
            lines += [f"FAIL: {line}" for line in self.incomplete]
            for row in self.worse(pct).to_dict("records"):
                where = f"{row['variant']} on {row['suite']} at depth {row['depth']}"
                if row["stopped"]:
                    lines.append(f"FAIL: {where}: {row['stopped']} of {row['n'] + row['stopped']} "
                                 "searches stopped before their end: no ratio can meet the "
                                 f"limit of {pct:g}%")
                else:
                    lines.append(f"FAIL: {where}: "
                                 f"{change_words(float(row['ratio']), self.measure, 'OLD')} "
                                 f"(limit {pct:g}% more)")
        lines += [f"WRONG: {change.text}" for change in self.wrong]
        return lines


def diff_runs(old: str | Path, new: str | Path, seed: int = 0,
              resamples: int = stats.DEFAULT_RESAMPLES, level: float = 0.95,
              measure: Measure = NODES) -> RunDiff:
    """NEW's run folder against OLD's (both only read), by ``measure``. A
    :class:`HarnessError` for a folder that is not a run, the same folder twice, runs with
    no search in common, or a time compared across frames (or in a frame not recorded)."""
    old, new = Path(old), Path(new)
    if old.resolve() == new.resolve():
        raise HarnessError(f"OLD and NEW are the same folder ({old}): give an earlier run and "
                           "a later one")
    infos = [_run_info(old), _run_info(new)]
    frames = [load_results(old), load_results(new)]
    _check_common(frames)
    pairs = frames[0].merge(frames[1], on=KEY, suffixes=("_old", "_new"), how="inner",
                            sort=False)
    pairs = pairs[[*KEY, *(f"{c}_{side}" for side in ("old", "new") for c in CARRIED)]]
    if measure is not NODES:
        for variant, part in pairs.groupby("variant", sort=False):
            check_one_frame(part, [f"{variant} in OLD ({old})", f"{variant} in NEW ({new})"],
                            ("old", "new"))
    # A frame or a problem set that prunes by the window (null move, a selective switch,
    # chess's delta=1): a changed answer there is no failure.
    pruned = next((why for info in infos
                   if (why := inexact_frame(info.get("switches") or {})
                       or inexact_problems(info)) is not None), None)
    changes = _changes(pairs, pruned)
    table = _table(pairs, changes, seed, resamples, level, measure)
    both = len(pairs)
    incomplete = tuple(line for folder, info, frame in zip((old, new), infos, frames, strict=True)
                       if (line := incomplete_line(folder, info, frame)))
    settings = config_differences(*infos) + frame_differences(*frames)
    return RunDiff(old, new, table, changes, tuple(sorted(settings, key=lambda d: d.comparable)),
                   len(frames[0]) - both, len(frames[1]) - both, seed, resamples, level,
                   incomplete, measure)


def _run_info(folder: Path) -> dict[str, Any]:
    if folder.is_dir() and not (folder / "run.json").exists():
        inside = sorted(p.name for p in folder.iterdir() if (p / "run.json").exists())
        if inside:
            raise HarnessError(f"{folder}: a folder of runs, not a run: diff one of them "
                               f"({', '.join(inside)}) with its counterpart")
    return load_run_info(folder)


def _check_common(frames: list[pd.DataFrame]) -> None:
    """Refuse two runs without a search in common, naming what they do not share."""
    for column, what in (("suite", "problem set"), ("variant", "variant"), ("depth", "depth")):
        held = [list(dict.fromkeys(str(v) for v in frame[column])) for frame in frames]
        if not set(held[0]) & set(held[1]):
            raise HarnessError(f"OLD and NEW have no {what} in common (OLD: {', '.join(held[0])}; "
                               f"NEW: {', '.join(held[1])}): nothing to compare")
    keys = [set(map(tuple, frame[KEY].astype(str).to_numpy())) for frame in frames]
    if not keys[0] & keys[1]:
        raise HarnessError("OLD and NEW have no search in common (the same problem, variant "
                           "and depth): nothing to compare")


def _changes(pairs: pd.DataFrame, pruned: str | None) -> tuple[AnswerChange, ...]:
    exact = {label: inexact_reason(label) for label in pd.unique(pairs["variant"])}
    found = []
    for row in pairs.to_dict("records"):
        old = answer_of("old", row["score_old"], row["bound_old"])
        new = answer_of("new", row["score_new"], row["bound_new"])
        moves = [_text(row["best_move_old"]), _text(row["best_move_new"])]
        if (old.score, old.bound) == (new.score, new.bound):
            if moves[0] == moves[1]:
                continue
            kind, why = MOVE, ""
        else:
            why = _not_failed(exact[row["variant"]], pruned, row, [old, new])
            kind = SCORE if why else WRONG
        found.append(AnswerChange(str(row["suite"]), str(row["problem_id"]), str(row["variant"]),
                                  int(row["depth"]), old, new, moves[0], moves[1], kind, why))
    order = {WRONG: 0, SCORE: 1, MOVE: 2}
    return tuple(sorted(found, key=lambda c: order[c.kind]))       # stable: row order within


def _not_failed(inexact: str | None, pruned: str | None, row: Mapping[Any, Any],
                answers: list[Answer]) -> str:
    """Why a changed score is not a failure (``""``: it is one)."""
    if inexact is not None:
        return f"not an exact variant: {inexact}"
    if pruned is not None:
        return f"{pruned}: no answer need be minimax's"
    if row["tt_deep_cutoffs_old"] or row["tt_deep_cutoffs_new"]:
        return "a table entry searched deeper decided it: it need not be minimax's"
    if any(answer.score is None for answer in answers):
        return "a search stopped without a score"
    if disagreement(answers) is None:
        return "both bounds allow the same value"
    return ""


def _table(pairs: pd.DataFrame, changes: tuple[AnswerChange, ...], seed: int, resamples: int,
           level: float, measure: Measure) -> pd.DataFrame:
    changed: dict[tuple[str, str, int], list[int]] = {}
    for change in changes:
        counts = changed.setdefault((change.suite, change.variant, change.depth), [0, 0])
        counts[0] += 1
        counts[1] += change.kind == WRONG
    rows = []
    # problem sets and variants in the order OLD holds them, depths rising
    suites = {s: i for i, s in enumerate(pd.unique(pairs["suite"]))}
    variants = {v: i for i, v in enumerate(pd.unique(pairs["variant"]))}
    groups = pairs.groupby(["suite", "variant", "depth"], sort=False)
    for key, part in sorted(groups, key=lambda item: (suites[item[0][0]], variants[item[0][1]],
                                                      int(str(item[0][2])))):
        suite, variant, depth = str(key[0]), str(key[1]), int(part["depth"].iloc[0])
        halted = _halted(part, "old") | _halted(part, "new")
        part = part[~halted]
        paired, _ = paired_statistics(measure.values(part, "old"), measure.values(part, "new"),
                                      seed, resamples, level)
        if halted.any():            # a stopped search is not a result: no ratio
            paired.update({k: math.nan for k in ("ratio", "ratio_low", "ratio_high",
                                                 "median_ratio", "sign_p")}, significant=False)
        count = changed.get((suite, variant, depth), [0, 0])
        rows.append({"suite": suite, "variant": variant, "depth": depth,
                     "measure": measure.name, **paired, **totals(part, ("old", "new"), measure),
                     "changed": count[0], "wrong": count[1], "stopped": int(halted.sum())})
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))


def _halted(pairs: pd.DataFrame, side: str) -> pd.Series:
    """Which pairs' search in ``side``'s run (``old`` or ``new``) stopped before its end."""
    return stopped_mask(pairs[[f"status_{side}"]].rename(columns={f"status_{side}": "status"}))


def _text(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value)


def _answer(answer: Answer) -> str:
    return answer.text.split(" ", 1)[1]          # the text without its label


# -- settings ---------------------------------------------------------------------------

NOT_COMPARABLE = "a different search, not only the change under test: ratios are not comparable"


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[ConfigDifference]:
    """Every setting of two ``run.json`` that differs, those that make ratios not comparable
    first: the switches the searches ran with, the way nodes are counted, node limits, the
    problem files (their sha256), each common variant's options and version; then depths,
    problem sets, variants and limits held by one run only, and the harness's revision."""
    found: list[ConfigDifference] = []

    def differ(what: str, a: object, b: object, comparable: bool, note: str) -> None:
        if a != b:
            found.append(ConfigDifference(what, _value(a), _value(b), comparable, note))

    for key in sorted({*(old.get("switches") or {}), *(new.get("switches") or {})}):
        differ(f"switch {key}", (old.get("switches") or {}).get(key),
               (new.get("switches") or {}).get(key), False, NOT_COMPARABLE)
    differ("counting version", old.get("counting_version"), new.get("counting_version"), False,
           "the harness counts nodes differently: ratios are not comparable")
    configs = [old.get("config") or {}, new.get("config") or {}]
    differ("node limit (--max-nodes)", configs[0].get("max_nodes"), configs[1].get("max_nodes"),
           False, "searches stopped at other places: ratios are not comparable")
    suites = [old.get("suites") or {}, new.get("suites") or {}]
    for name in [s for s in suites[0] if s in suites[1]]:
        differ(f"problem set {name} file sha256", suites[0][name].get("sha256"),
               suites[1][name].get("sha256"), False,
               "the problems changed: answers and ratios compare different positions")
    variants = [old.get("variants") or {}, new.get("variants") or {}]
    for label in [v for v in variants[0] if v in variants[1]]:
        records = [variants[0][label] or {}, variants[1][label] or {}]
        differ(f"variant {label} options", records[0].get("options"), records[1].get("options"),
               True, "the variant itself changed")
        differ(f"variant {label} version", records[0].get("version"), records[1].get("version"),
               True, "the variant itself changed")
    differ("depths", configs[0].get("depths"), configs[1].get("depths"), True,
           "only the depths both searched are compared")
    differ("limit (--limit)", configs[0].get("limit"), configs[1].get("limit"), True,
           "only the problems both searched are compared")
    for name, held in (("problem sets", suites), ("variants", variants)):
        differ(name, list(held[0]), list(held[1]), True,
               f"only the {name} both hold are compared")
    differ("harness revision", old.get("git_revision"), new.get("git_revision"), True,
           "the code searched")
    differ("finished", "yes" if old.get("finished") else "no",
           "yes" if new.get("finished") else "no", True,
           "an unfinished run is compared on the problems it finished")
    return sorted(found, key=lambda d: d.comparable)           # stable: order above within


def frame_differences(old: pd.DataFrame, new: pd.DataFrame) -> list[ConfigDifference]:
    """Each variant of both runs whose searches ran in another frame in NEW than in OLD:
    its nodes compare, its times do not."""
    frames = [variant_frames(old), variant_frames(new)]
    return [ConfigDifference(f"variant {label} frame", frames[0][label], frames[1][label], True,
                             "nodes compare; " + (f"{NOT_ALGORITHMS}" if UNKNOWN_FRAME not in
                                                  (frames[0][label], frames[1][label])
                                                  else "times cannot: a frame not recorded"))
            for label in frames[0] if label in frames[1] and frames[0][label] != frames[1][label]]


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "none"
    return str(value)


# -- rendering ------------------------------------------------------------------------

MARKDOWN_CHANGES = 100
"""Changed answers listed in the Markdown summary (a CI summary page has a size limit); the
text lists every one."""


def _head(diff: RunDiff) -> str:
    m = diff.measure
    head = (f"NEW/OLD is the geometric mean of per-problem {m.ratio} with a paired bootstrap "
            f"{diff.level:.0%} interval ({diff.resamples} resamples, seed {diff.seed}); W/T/L: "
            f"problems where NEW {m.verb} {m.fewer}/equal/more {m.noun}; sign p: exact "
            "two-sided sign test; * significant at 5%; changed: searches whose answer or best "
            "move changed (wrong: of an exact variant, both cannot be right).")
    if m is not NODES:
        head += (" Times in whole microseconds, each variant in one frame in both runs (the "
                 "frame column); nodes/s: total nodes over total seconds.")
    return head


def _shown(table: pd.DataFrame, level: float, measure: Measure = NODES) -> pd.DataFrame:
    """The table's columns for reading, one problem set's rows."""
    n = table["n"].where(table["n"] > 0)
    amounts = ({"nodes OLD": table["nodes_old"], "nodes NEW": table["nodes_new"]}
               if measure is NODES else
               {"ms/search OLD": (table["time_old"] / n * 1e3).map(_num),
                "ms/search NEW": (table["time_new"] / n * 1e3).map(_num),
                "nodes/s OLD": table["nodes_per_s_old"].map(_rate),
                "nodes/s NEW": table["nodes_per_s_new"].map(_rate), "frame": table["frame_new"]})
    return pd.DataFrame({
        "variant": table["variant"], "depth": table["depth"], "n": table["n"],
        "NEW/OLD": table["ratio"].map(_num),
        f"{level:.0%} interval": [f"{_num(lo)}-{_num(hi)}" if not math.isnan(lo) else "-" for lo, hi
                                  in zip(table["ratio_low"], table["ratio_high"], strict=True)],
        "W/T/L": [f"{w}/{t}/{lo}" for w, t, lo
                  in zip(table["wins"], table["ties"], table["losses"], strict=True)],
        "sign p": table["sign_p"].map(format_p),
        "sig": table["significant"].map(lambda s: "*" if s else ""),
        **amounts,
        "changed": [f"{c} ({w} wrong)" if w else str(c)
                    for c, w in zip(table["changed"], table["wrong"], strict=True)],
        "stopped": table["stopped"],
    })


def _num(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3f}"


def _rate(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


def render_diff(diff: RunDiff) -> str:
    """The diff as text: the runs, their differing settings, a table per problem set, every
    changed answer and what only one run holds."""
    lines = [f"NEW {diff.new} against OLD {diff.old}", *diff.incomplete]
    if diff.config:
        lines += ["", "Settings that differ:"]
        lines += [f"  {'!' if not d.comparable else '-'} {d.text}" for d in diff.config]
    lines += ["", _head(diff)]
    for suite, part in diff.table.groupby("suite", sort=False):
        lines += ["", f"Problem set: {suite}", "",
                  _shown(part, diff.level, diff.measure).to_string(index=False)]
    if diff.changes:
        lines += ["", f"Changed answers and best moves ({len(diff.changes)}):"]
        lines += [f"  {c.kind.upper()}: {c.text}" for c in diff.changes]
    else:
        lines += ["", "No score, bound or best move changed."]
    if diff.only_old or diff.only_new:
        lines += ["", f"Not compared: {diff.only_old} searches only in OLD, {diff.only_new} only "
                      "in NEW."]
    return "\n".join(lines)


def render_markdown(diff: RunDiff, pct: float | None = None,
                    allow_disagreement: bool = False) -> str:
    """The diff as Markdown for a CI job's summary page: the outcome first (the failures of
    :meth:`RunDiff.failures` under the tolerance ``pct``), then the settings that differ, a
    table per problem set and the changed answers (the first :data:`MARKDOWN_CHANGES`)."""
    failures = diff.failures(pct)
    worse = pct is not None and diff.gate_fails(pct)
    gate = (f"no set, variant and depth over {pct:g}% more {diff.measure.noun}"
            if pct is not None else f"no {'node' if diff.measure is NODES else 'time'} tolerance given")
    if worse or (diff.wrong and not allow_disagreement):
        outcome = "**Failed**:"
    elif diff.wrong:
        outcome = (f"**Passed** ({gate}), but exact variants' answers changed "
                   "(allowed by --allow-disagreement):")
    else:
        outcome = f"**Passed** ({gate}; no exact variant's answer changed)."
    lines = ["## harness diff", "", f"NEW `{diff.new}` against OLD `{diff.old}`.", "", outcome]
    if failures:
        lines += [""] + [f"- {_md(line)}" for line in failures]
    if diff.config:
        lines += ["", "### Settings that differ", ""]
        lines += [f"- {'**not comparable**: ' if not d.comparable else ''}{_md(d.text)}"
                  for d in diff.config]
    lines += ["", f"### {diff.measure.noun.capitalize()}", "", _md(_head(diff))]
    for suite, part in diff.table.groupby("suite", sort=False):
        shown = _shown(part, diff.level, diff.measure)
        lines += ["", f"**{_md(str(suite))}**", "",
                  "| " + " | ".join(shown.columns) + " |",
                  "|" + "|".join("---" for _ in shown.columns) + "|"]
        lines += ["| " + " | ".join(_md(str(v)) for v in row) + " |"
                  for row in shown.itertuples(index=False)]
    if diff.changes:
        lines += ["", f"### Changed answers and best moves ({len(diff.changes)})", ""]
        lines += [f"- {c.kind}: {_md(c.text)}" for c in diff.changes[:MARKDOWN_CHANGES]]
        if len(diff.changes) > MARKDOWN_CHANGES:
            lines.append(f"- ... and {len(diff.changes) - MARKDOWN_CHANGES} more "
                         "(`harness diff` lists every one)")
    if diff.only_old or diff.only_new:
        lines += ["", f"Not compared: {diff.only_old} searches only in OLD, {diff.only_new} "
                      "only in NEW."]
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """Text safe in a Markdown table cell or list item."""
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")
