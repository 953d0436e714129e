"""``harness reproduce``: claims from the reference texts and the literature, measured again.

Each claim is measured with the harness's own searches (:func:`run_search`, one job per
problem, run by :func:`harness.run.executors.run_jobs`), judged by fixed checks, and written
up in ``report.md`` and a self-contained ``report.html`` (charts embedded), with the charts
as PNG and SVG in ``charts/``, every count in ``data/*.csv`` and every number and verdict
in ``claims.json``.

How verdicts are decided. A claim is split into checks, each an interval test against a
band registered in the claim's rules file (:mod:`.rules`, ``rules/<claim>.json``, its
version and sha256 recorded in ``claims.json``) with three outcomes: holds, does not hold,
inconclusive. A check of a theorem under the setup is a correctness check of the
implementation, reported apart and left out of the verdict. :func:`verdict_of` calls a
claim ``holds``, ``does not hold`` or ``inconclusive`` when its claim checks agree, and
gives their counts otherwise. A claim that needs chess positions is ``not measured: WAC
not found`` when no suite is found (a claim that is measured on synthetic trees too is then
judged on them alone, and says so). Changing a rule is a new version of the claim's rules;
the file keeps every earlier version with the verdict it gave and the reason for the change.
A run explores (the default) or confirms, on held-out data the rules name (:mod:`.phases`).

The package, from the bottom up: :mod:`.verdicts` (bands, checks and verdicts),
:mod:`.rules` (the registered rules files), :mod:`.provenance` (what a run was made
with), :mod:`.measure`
(scales, jobs, measuring and the resume log), :mod:`.analysis` (claim records and the
statistics on the measured rows), :mod:`.phases` (exploration and confirmation data),
:mod:`.pairwise` (claims 5 and 6's comparison),
:mod:`.claims` (one module per claim, and their list), :mod:`.document` (the reports), and
here :func:`reproduce`, which runs them in a folder it holds.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from harness.errors import HarnessError
from harness.files import write_whole
from harness.lock import hold_folder
from harness.reproduce.analysis import Claim, ClaimInfo, ratio_summary
from harness.reproduce.claims import CLAIMS, claim_keys, select
from harness.reproduce.claims.breuker import judge_same_tree
from harness.reproduce.claims.gnuchess import judge_never_more
from harness.reproduce.claims.knuth_moore import judge_knuth_moore
from harness.reproduce.claims.mtdf import judge_mtdf
from harness.reproduce.claims.ordering import judge_ordering, ordering_statements
from harness.reproduce.claims.pearl import judge_pearl, pearl_asymptote, pearl_root
from harness.reproduce.claims.pvs_article import judge_pvs_article
from harness.reproduce.claims.zwp import judge_zwp
from harness.reproduce.document import ReproduceOutput, summary_lines, write_all
from harness.reproduce.measure import (
    ALL_VARIANTS,
    FULL,
    MEASURED_FILE,
    MEASURING_FILE,
    QUICK,
    Job,
    Scale,
    check_unchanged,
    chess_configs,
    chess_suite,
    collect,
    made_with,
    measuring,
    plan,
)
from harness.reproduce.phases import (
    CONFIRM,
    EXPLORE,
    PHASES,
    check_held_out,
    phase_scale,
    suite_named,
)
from harness.reproduce.verdicts import (
    CLAIM,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NO_WAC,
    NOT_MEASURED,
    THEOREM,
    THEOREM_VERDICT,
    Band,
    Check,
    count_check,
    interval_check,
    knuth_moore_formula,
    verdict_of,
)
from harness.results import now, refuse_other_output
from harness.run.checkpoint import JobLog
from harness.run.executors import Execution
from harness.run.progress import Listener

__all__ = [
    "ALL_VARIANTS", "CLAIM", "CLAIMS", "CONFIRM", "EXPLORE", "FAILS", "FULL", "HOLDS",
    "INCONCLUSIVE", "MEASURED_FILE", "MEASURING_FILE", "NOT_MEASURED", "NO_WAC", "PHASES",
    "QUICK", "THEOREM", "THEOREM_VERDICT", "Band", "Check", "Claim", "ClaimInfo",
    "ReproduceOutput", "Scale", "chess_configs", "chess_suite", "claim_keys", "count_check",
    "interval_check", "jobs_of", "judge_knuth_moore", "judge_mtdf", "judge_never_more",
    "judge_ordering", "judge_pearl", "judge_pvs_article", "judge_same_tree", "judge_zwp",
    "knuth_moore_formula", "ordering_statements", "pearl_asymptote", "pearl_root",
    "ratio_summary", "reproduce", "summary_lines", "verdict_of",
]


def _on_suite(make: Callable[[Scale, Path], list[Job]], suite: Path) -> Callable[[Scale], list[Job]]:
    """A claim's chess dataset's jobs, on ``suite``."""
    return lambda scale: make(scale, suite)


def jobs_of(selected: Sequence[ClaimInfo], scale: Scale, suite: Path | None) -> list[Job]:
    """What the selected claims need measured, as jobs (see :func:`measure.plan`)."""
    own = {c.key: c.jobs for c in selected if c.jobs is not None}
    if suite is not None:
        own.update({c.key: _on_suite(c.chess_jobs, suite) for c in selected
                    if c.chess_jobs is not None})
    return plan([pair for c in selected for pair in c.chess], [v for c in selected for v in c.sweep],
                own, scale, suite,
                [pair for c in selected for pair in c.sweep_at], [v for c in selected for v in c.traced])


def _prepare(quick: bool, only: Sequence[str] | None,
             phase: str) -> tuple[list[ClaimInfo], Scale, Path | None]:
    """The selected claims, the scale of ``phase`` (their rules' data for it) and the chess
    suite; a confirmation refuses a quick scale and data that are not held out."""
    if phase not in PHASES:
        raise HarnessError(f"--phase {phase!r}: expected one of {', '.join(PHASES)}")
    if quick and phase == CONFIRM:
        raise HarnessError("--quick is exploration: a confirmation measures the data its rules "
                           "name (drop --quick, or use --phase explore)")
    selected = select(only)
    # QUICK and chess_suite are looked up here, in this module, so a test can replace them
    scale = phase_scale(QUICK if quick else FULL, phase, selected)
    suite = chess_suite(suite_named(selected, phase)) if any(c.chess for c in selected) else None
    if phase == CONFIRM:
        check_held_out(selected, CLAIMS, scale, suite)
    return selected, scale, suite


def reproduce(out_dir: Path, quick: bool = False, jobs: int = 1, only: Sequence[str] | None = None,
              progress: Listener | None = None, resume: bool = False,
              phase: str = EXPLORE) -> ReproduceOutput:
    """Measure each claim of :data:`CLAIMS` (or those named in ``only``, by key or number)
    and write ``report.md``, ``report.html``, ``charts/``, ``data/`` and ``claims.json``
    into ``out_dir``. ``quick`` is the CI scale (:data:`QUICK`, a few minutes on two
    cores); ``phase`` is :data:`EXPLORE` (the default) or :data:`CONFIRM`, on the held-out
    data each claim's rules name (:mod:`.phases`); ``jobs`` worker processes share the
    problems; ``progress`` hears of each search. Each finished job is logged in
    ``out_dir``, so after an interruption ``resume`` measures only the rest (mode, phase and
    claims as recorded there)."""
    start = time.perf_counter()
    out_dir = Path(out_dir)
    execution = Execution(jobs=jobs)
    execution.check()
    refuse_other_output(out_dir, "reproduce", "--resume finishes a reproduction" if resume
                        else "choose another --out")
    if not resume:
        prepared = _prepare(quick, only, phase)       # refuse before making the folder
    with hold_folder(out_dir):
        settings_path = out_dir / MEASURING_FILE
        settings = measuring(settings_path, resume)
        if resume:
            quick, only = bool(settings["quick"]), list(settings["claims"])
            phase = str(settings.get("phase", EXPLORE))
            prepared = _prepare(quick, only, phase)
        selected, scale, suite = prepared
        job_list = jobs_of(selected, scale, suite)
        fingerprint = hashlib.sha256(repr(job_list).encode()).hexdigest()
        made = made_with(suite)
        if resume:
            check_unchanged(settings_path, settings, made, fingerprint)
        else:
            settings = {"quick": quick, "phase": phase, "claims": [c.key for c in selected],
                        "jobs": len(job_list), "fingerprint": fingerprint, "made_with": made,
                        "started": now(), "finished": None}
            write_whole(settings_path, json.dumps(settings, indent=2) + "\n")
        log = JobLog(out_dir / MEASURED_FILE)
        finished = log.read() if resume else {}
        log.restart(finished)
        frames = collect(job_list, execution, progress or Listener(), log, finished)
        output = write_all(out_dir, frames, selected, scale, suite, quick, jobs, start, phase,
                           str(settings["started"]))
        settings["finished"] = now()
        write_whole(settings_path, json.dumps(settings, indent=2) + "\n")
        log.path.unlink()                   # data/*.csv holds the rows now
        return output
