"""Writing a reproduction up: every claim judged on the measured rows, then ``data/*.csv``,
``charts/``, ``report.md``, a self-contained ``report.html`` (charts embedded, the style
of the run reports) and ``claims.json``."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from harness.files import write_whole
from harness.report import charts
from harness.report.answers import DISAGREEMENTS_FILE, check_answers
from harness.report.render import literal, png_source, render
from harness.reproduce import claims as registry
from harness.reproduce.analysis import Claim, ClaimInfo, Context, Section
from harness.reproduce.measure import Scale
from harness.reproduce.phases import (
    CONFIRM,
    EXPLORE,
    PHASE_RULE,
    data_digest,
    data_of,
    describe,
    held_out_reason,
    phase_of,
)
from harness.reproduce.power import describe as describe_power
from harness.reproduce.provenance import last_commit_of, provenance
from harness.reproduce.rules import Rules, describe_versions, registered_sample, sample_differences
from harness.reproduce.verdicts import (
    EXTENSION,
    FAILS,
    GENERAL_RULES,
    HOLDS,
    NOT_MEASURED,
    STATISTICS_RULE,
    THEOREM,
    Check,
    claim_checks,
    correctness_checks,
    correctness_text,
    counts_text,
    extension_checks,
    level_text,
    shared_outcomes,
    verdict_of,
)
from harness.results import environment


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
    disagree: bool = False
    """Whether exact variants' answers disagreed somewhere (those claims are not measured)."""


def write_all(out_dir: Path, frames: dict[str, pd.DataFrame], selected: Sequence[ClaimInfo],
              scale: Scale, suite: Path | None, quick: bool, jobs: int,
              start: float, phase: str = EXPLORE, started: str | None = None) -> ReproduceOutput:
    """Judge every claim on the measured frames; write data, charts, reports, claims.json.
    ``phase``: the run's (:mod:`harness.reproduce.phases`); each claim's row is recorded in
    the phase :func:`phase_of` gives it. ``started``: when the run began measuring (UTC, as
    its ``measuring.json`` records it), kept in ``claims.json`` so that a reader can set it
    against the commit that registered the rules."""
    chart_dir = out_dir / "charts"
    data_dir = out_dir / "data"
    chart_dir.mkdir(parents=True, exist_ok=True)
    data_dir.mkdir(parents=True, exist_ok=True)
    data = []
    for name, frame in frames.items():
        path = data_dir / f"{name}.csv"
        write_whole(path, frame.to_csv(index=False))
        data.append(path)
    disagreeing = {name: check for name, frame in frames.items()
                   if not (check := check_answers(frame, by=QUESTION_COLUMNS)).rows.empty}
    if disagreeing:
        path = data_dir / DISAGREEMENTS_FILE
        write_whole(path, pd.concat([check.rows for check in disagreeing.values()]).to_csv(index=False))
        data.append(path)
    ctx = Context(frames, scale, suite)
    claims: list[Claim] = []
    sections: list[Section] = []
    for info in selected:
        section = info.analyse(ctx, info)
        paths: list[Path] = []
        for name, _title, fig in section.figures:
            paths += charts.save(fig, chart_dir / name)
        verdict = section.verdict or verdict_of(section.checks)
        wrong = [name for name in datasets_of(info) if name in disagreeing]
        if wrong:
            counts = "; ".join(f"{disagreeing[n].disagreeing} of {disagreeing[n].questions} "
                               f"questions of the {n} data" for n in wrong)
            verdict = (f"{NOT_MEASURED}: the exact variants' answers disagree ({counts}; "
                       f"data/{DISAGREEMENTS_FILE}), so its counts measure a wrong search")
        mode = CONFIRM if phase == CONFIRM else "quick" if quick else "full"
        registered = (None if info.rules is None
                      else _rules_record(info.rules, mode, phase, _json_ready(asdict(scale))))
        marked = phase_of(info.rules, phase)
        claims.append(Claim(info.key, info.title, info.source, section.setup, info.claimed,
                            section.measured, verdict, _json_ready(section.numbers), tuple(paths),
                            tuple(section.checks), registered, marked.phase, marked.why))
        sections.append(section)
    seconds = time.perf_counter() - start
    md, page = _write_report(out_dir, claims, sections, quick, scale, seconds, jobs, phase)
    record = {
        "mode": "quick" if quick else "full", "phase": phase, "started": started,
        "seconds": seconds, "jobs": jobs,
        "provenance": provenance(),
        "scale": _json_ready(asdict(scale)),
        "suite": None if suite is None else str(suite),
        "claims": [_json_ready({**asdict(c), "charts": [p.relative_to(out_dir).as_posix()
                                                        for p in c.charts]}) for c in claims],
    }
    write_whole(out_dir / "claims.json", json.dumps(record, indent=2, sort_keys=False) + "\n")
    write_whole(out_dir / "verdicts.md", verdict_table(claims))
    return ReproduceOutput(out_dir, tuple(claims), md, page, tuple(data), seconds, quick,
                           bool(disagreeing))


QUESTION_COLUMNS = ("dataset", "model", "ordering", "set", "suite", "problem_id", "config", "depth")
"""What identifies one question in a reproduction's rows (those of them a dataset has)."""


def datasets_of(info: ClaimInfo) -> list[str]:
    """The datasets a claim is measured on."""
    return [name for name, used in (("chess", bool(info.chess)),
                                    ("sweep", bool(info.sweep or info.sweep_at)),
                                    (info.key, info.jobs is not None or info.chess_jobs is not None))
            if used]


def _rules_record(rules: Rules, mode: str, phase: str, scale: Mapping[str, Any]) -> dict[str, Any]:
    """What ``claims.json`` records of the rules a claim was judged by: the file, its
    version and sha256s, the commit that froze it, the data it names for the run's phase
    (with their digest), and whether the sample is the registered one."""
    differences = sample_differences(rules, mode, scale)
    data = data_of(rules, phase) if "phases" in rules.rules else None
    return {"file": rules.path, "version": rules.version, "registered": rules.registered,
            "frozen_commit": last_commit_of(rules.path),
            "data": None if data is None else {"phase": phase, "described": describe(data),
                                               "digest": data_digest(data)},
            "held_out": held_out_reason(rules) if "phases" in rules.rules else "",
            "sha256": rules.sha256, "rules_sha256": rules.rules_sha256,
            "sample_as_registered": not differences, "sample_differences": differences,
            "history": [{"version": v.version, "verdict": v.verdict, "changed": v.changed,
                         "reason": v.reason} for v in rules.history],
            "confirmations": [asdict(c) for c in rules.confirmations]}


def verdict_table(claims: Sequence[Claim]) -> str:
    """The claims as a Markdown table (number, title, verdict, rules version, the first
    sentence of what was measured): ``verdicts.md``, which docs/reproduce.md's table is."""
    rows = ["| # | claim | verdict | phase | rules | measured (first sentence; all of it in "
            "report.md) |", "|---|---|---|---|---|---|"]
    for c in claims:
        sentences = [s for s in c.measured.split(". ") if len(s) >= 40] or [c.measured]
        first = sentences[0].rstrip(".") + "."
        version = "" if c.rules is None else f"v{c.rules['version']}"
        rows.append(f"| {registry.number(c.key)} | {_md_cell(c.title)} | {_md_cell(c.verdict)} "
                    f"| {_md_cell(phase_text(c))} | {version} | {_md_cell(first)} |")
    return "\n".join(rows) + "\n"


def phase_text(claim: Claim) -> str:
    """A row's phase in words: ``confirmation``, ``exploration``, or ``exploration: why``
    for a row of a confirmation run that is exploratory."""
    if claim.phase == CONFIRM:
        return "confirmation"
    return "exploration" + (f": {claim.phase_why}" if claim.phase_why else "")


def summary_lines(output: ReproduceOutput) -> list[str]:
    """One line per claim: its number, key, verdict and what was measured (for a CLI)."""
    return [f"{registry.number(c.key)}. {c.key}: {c.verdict}. {c.measured}" for c in output.claims]


def _rules() -> list[str]:
    """How verdicts are decided: the general rules, every claim's own, the statistics."""
    own = []
    for i, c in enumerate(registry.CLAIMS, 1):
        if c.rules is not None:
            own.append(f"{c.title} ({i}), rules version {c.rules.version}: " + "; ".join(
                f"{r.ident} ({kind_text(r.kind)}) "
                f"in {r.band}" for r in c.rules.checks) + ".")
        elif c.rule:
            own.append(f"{c.rule[0]} ({i}){c.rule[1]}")
    return [*GENERAL_RULES, *own, STATISTICS_RULE]


def kind_text(kind: str, extension: str | None = None) -> str:
    """A registered check's kind in words: ``claim check``, ``correctness check`` or
    ``extension``; given an extension's conditions (``""`` for other kinds), the long form:
    ``correctness check (theorem)``, ``extension (its conditions): its own verdict``."""
    if kind == THEOREM:
        return "correctness check" + ("" if extension is None else " (theorem)")
    if kind == EXTENSION:
        return "extension" + ("" if extension is None else f" ({extension}): its own verdict")
    return "claim check"


def _outcome(check: Check) -> str:
    """A claim check's outcome, in bold unless it holds."""
    return check.outcome if check.outcome == HOLDS else f"**{check.outcome}**"


def _result(check: Check) -> str:
    """A correctness check's result: passes, fails, or not measured (inconclusive)."""
    if check.outcome == HOLDS:
        return "passes"
    return "**fails**" if check.outcome == FAILS else "**not shown** (inconclusive)"


def _rules_section(doc: _Doc, claim: Claim, rules: Rules, mode: str) -> None:
    """What was registered: the version, every check's estimator and band with the reason,
    the harness's own choices, the data and sample this run measured (``mode``: ``quick``,
    ``full`` or ``confirm``) as the rules name them for its phase, and whether the run's
    sample is the registered one."""
    record = claim.rules or {}
    doc.para(f"**Rules.** Version {rules.version}, registered {rules.registered}, "
             f"`{rules.path}` (sha256 `{rules.sha256}`)."
             + (f" {rules.rules.get('verdict_rule', '')}" if rules.rules.get("verdict_rule") else "")
             + (f" {rules.note}" if rules.note else ""))
    doc.table(["registered check", "kind", "measured (estimator)", "band", "why this band",
               "power (before data)"],
              [[r.ident, kind_text(r.kind, r.extension),
                r.measure, str(r.band),
                r.reason + ("" if r.reason.endswith(".") or not r.test else ".")
                + (f" Test: `{r.test}`." if r.test else "")
                + (f" Smallest effect that matters: {r.smallest_effect['value']} "
                   f"({r.smallest_effect['reason']})." if r.smallest_effect else "")
                + (f" Shares its interval with {r.shares}: counted once." if r.shares else ""),
                describe_power(r.power, r.band)]
               for r in rules.checks])
    boot = rules.bootstrap
    doc.para("**The harness's own choices.**")
    doc.items([*rules.choices,
               f"Intervals: {rules.rules['statistics'].get('interval', 'percentile bootstrap')}; "
               f"{level_text(boot.level)} level, {boot.resamples:,} resamples, numpy PCG64 seed {boot.seed}.",
               *([f"Multiplicity: {rules.rules['statistics']['multiplicity']}."]
                 if rules.rules["statistics"].get("multiplicity") else []),
               *_data_items(record, rules, mode)])
    if record.get("sample_differences"):
        doc.para("**Sample.** This run's scale is not the registered sample ("
                 + "; ".join(record["sample_differences"]) + "): its outcomes are shown, but it "
                 "is not the registered experiment.")


def _data_items(record: Mapping[str, Any], rules: Rules, mode: str) -> list[str]:
    """What this run measured, as the rules name it for the run's phase (``phases.<phase>``,
    ``held_out``), and the sample they register for the run's mode beside every scale's:
    the choices above are the rules' words, written for the exploration."""
    data = record.get("data")
    sample = registered_sample(rules, mode)
    return [*([f"This run's data, as the rules name them for its phase (`phases.{data['phase']}`): "
               f"{data['described']}."] if data else []),
            *([f"Held out (`phases.held_out`): {record['held_out']}"] if record.get("held_out") else []),
            *([f"The registered sample of this run ({mode}): "
               + ", ".join(f"{k} = {json.dumps(v)}" for k, v in sample.items()) + "."] if sample else []),
            "The registered sample per scale (exploration; a confirmation measures every position "
            "its data name): " + "; ".join(
                f"{scale}: " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in fields.items())
                for scale, fields in rules.sample.items()) + "."]


def _checks_section(doc: _Doc, claim: Claim) -> None:
    """The claim checks with their outcomes, then the correctness checks apart."""
    claims = claim_checks(claim.checks)
    theorems = correctness_checks(claim.checks)
    if claims:
        shared = shared_outcomes(claims)
        doc.para(f"**Claim checks** ({counts_text(claims)}"
                 + "".join(f"; the {len(own)} checks of the {name} test one interval and count "
                           f"once, as the less favourable of their outcomes ({', '.join(own)}): "
                           f"{once}" for name, (own, once) in shared.items()) + ").")
        doc.table(["check", "band", "measured", "outcome"],
                  [[c.statement, c.band, c.measured, _outcome(c) + (
                      f" (counted once with the {c.estimate}'s other "
                      f"check{'s' if len(shared[c.estimate][0]) > 2 else ''}: {shared[c.estimate][1]})"
                      if c.estimate in shared else "")] for c in claims])
    for label, found in extension_checks(claim.checks).items():
        doc.para(f"**Extension: {literal(label)}** (conditions or a reading the author did not name; "
                 f"its own verdict, not the claim's: {counts_text(found)}).")
        doc.table(["check", "band", "measured", "outcome"],
                  [[c.statement, c.band, c.measured, _outcome(c)] for c in found])
    if theorems:
        doc.para("**Correctness checks** (theorems under this setup; not part of the verdict; "
                 f"{correctness_text(claim.checks)}).")
        doc.table(["check", "band", "measured", "result"],
                  [[c.statement, c.band, c.measured, _result(c)] for c in theorems])


def _history_section(doc: _Doc, rules: Rules) -> None:
    """Every earlier version of the rules, with the verdict it gave and why it changed."""
    if not rules.history:
        doc.para("**Earlier versions of the rules.** None: this is version 1.")
        return
    doc.para("**Earlier versions of the rules** (each file keeps their rules).")
    doc.table(["version", "registered", "verdict then", "replaced", "why"],
              describe_versions(rules.history))


def _write_report(out_dir: Path, claims: Sequence[Claim], sections: Sequence[Section],
                  quick: bool, scale: Scale, seconds: float, jobs: int,
                  phase: str) -> tuple[Path, Path]:
    env = environment()
    doc = _Doc()
    mode = ("quick" if quick else "full") + (", confirmation" if phase == CONFIRM else "")
    title = f"harness reproduce ({mode}): {claims_shown(claims)}"
    doc.heading(1, title)
    doc.para(f"{len(claims)} claim{'s' if len(claims) != 1 else ''} measured in {seconds:.0f} s "
             f"of wall time with {jobs} worker process{'es' if jobs > 1 else ''}; git revision "
             f"`{env.get('git_revision') or 'unknown'}`, Python {env.get('python', '?')}. Every "
             "count is in `data/`, every number and verdict in `claims.json`.")
    # Every claim's fields, whichever claims ran (the third reading's M4): said so, and each
    # claim's section names the sample it used.
    doc.para("Scale (the settings of every claim, whichever ran; each claim's section names "
             "the sample it used):")
    doc.items(scale_items(scale))
    if quick:
        doc.para("This is the quick scale: fewer and smaller problems than the full run, so "
                 "intervals are wider, more checks come out inconclusive and verdicts can "
                 "differ from the full run's; exact checks are as strict as ever. The rules "
                 "register a sample for each scale.")
    doc.para(PHASE_RULE)
    doc.heading(2, "Verdicts")
    doc.table(["#", "claim", "verdict", "phase", "claim checks", "correctness checks", "rules"],
              [[str(registry.number(c.key)), f"{c.title}", f"**{c.verdict}**", phase_text(c),
                counts_text(claim_checks(c.checks)) if claim_checks(c.checks) else "none",
                correctness_text(c.checks) if correctness_checks(c.checks) else "none",
                f"version {c.rules['version']}" if c.rules else "–"] for c in claims])
    doc.heading(2, "How verdicts are decided")
    doc.items(_rules())
    for claim, section in zip(claims, sections, strict=True):
        rules = section.info.rules
        doc.heading(2, f"{registry.number(claim.key)}. {claim.title}", claim.key)
        doc.para(f"**Verdict: {claim.verdict}.** Phase: {phase_text(claim)}.")
        doc.para(f"**Source.** {claim.source}")
        doc.para(f"**Claimed.** {claim.claimed}")
        doc.para(f"**Setup (what exactly was measured).** {claim.setup}")
        if rules is not None:
            _rules_section(doc, claim, rules, CONFIRM if phase == CONFIRM else "quick" if quick else "full")
        doc.para(f"**Measured.** {claim.measured}")
        _checks_section(doc, claim)
        if rules is not None:
            _history_section(doc, rules)
        for caption, headers, rows in section.tables:
            doc.para(f"*{literal(caption)}.*")
            doc.table(headers, rows)
        for path in claim.charts:
            if path.suffix == ".png":
                doc.image(claim.title, path, path.relative_to(out_dir).as_posix())
    md = out_dir / "report.md"
    write_whole(md, doc.markdown())
    page = out_dir / "report.html"
    write_whole(page, doc.html(title))
    return md, page


def claims_shown(claims: Sequence[Claim]) -> str:
    """Which claims a report shows, for its title: ``all 12 claims``, ``claims 10 and 11
    of 12`` (their numbers)."""
    total = len(registry.CLAIMS)
    if len(claims) == total:
        return f"all {total} claims"
    numbers = listed(registry.number(c.key) for c in claims)
    return f"claim{'s' if len(claims) != 1 else ''} {numbers} of {total}"


def listed(items: Iterable[object]) -> str:
    """Items in words: ``a``, ``a and b``, ``a, b and c``; ``none`` for no item."""
    texts = [str(item) for item in items]
    if not texts:
        return "none"
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


SCALE_WORDS: dict[tuple[str, ...], Callable[[Scale], str]] = {
    ("km_branchings", "km_max_leaves", "km_trees"): lambda s: (
        f"Knuth and Moore's trees: branching {listed(s.km_branchings)}, every depth with at most "
        f"{s.km_max_leaves:,} leaves, {s.km_trees} trees each"),
    ("pearl", "pearl_trees"): lambda s: (
        "Pearl's trees: " + listed(f"branching {b} to depth {d}" for b, d in s.pearl)
        + f", {s.pearl_trees} trees per branching"),
    ("sweep_branching", "sweep_depth", "sweep_trees"): lambda s: (
        f"the ordering sweep: branching {s.sweep_branching}, depth {s.sweep_depth}, "
        f"{s.sweep_trees} trees per ordering level and value model"),
    ("chess_first", "chess_positions", "chess_depth", "tt_size"): lambda s: (
        f"chess: positions {s.chess_first} to {s.chess_first + s.chess_positions - 1} of the "
        f"suite, depth {s.chess_depth}, a transposition table of {s.tt_size:,} entries where "
        "one is on"),
    ("connect4",): lambda s: (
        "Connect 4: " + listed(f"the first {n:,} positions of {name}" for name, n in s.connect4)),
    ("best_first_shapes", "best_first_trees"): lambda s: (
        f"the SSS* trees: shapes {listed(f'`{shape}`' for shape in s.best_first_shapes)}, "
        f"{s.best_first_trees} tree{'s' if s.best_first_trees != 1 else ''} per shape, "
        "ordering and value model"),
    ("games",): lambda s: (
        "the three games: " + listed(f"{name} {count:,} problems at depths {first} to {last}"
                                     for name, count, first, last in s.games)),
    ("schaeffer",): lambda s: (
        f"Schaeffer's enhancements: {s.schaeffer[0]} chess positions explored, every "
        f"combination to depth {s.schaeffer[1]}, the searches the checks read to depth "
        f"{s.schaeffer[2]}"),
    ("pvs_modern",): lambda s: (
        f"the PVS article on the modern profile: {s.pvs_modern[0]} chess positions explored, "
        f"every depth from 6 to {s.pvs_modern[1]}"),
    ("modern_games",): lambda s: (
        "Plaat et al.'s three games on the modern profile: " + listed(
            f"{name} at most {count} positions, depths {first}-{last}"
            for name, count, first, last in s.modern_games)),
    ("schaeffer_games",): lambda s: (
        "Schaeffer's enhancements in Othello and checkers: " + listed(
            f"{name} at most {count} positions, the full factorial to depth {factorial}, "
            f"the checks' searches to {deepest}"
            for name, count, factorial, deepest in s.schaeffer_games)),
    ("seeds",): lambda s: "tree seeds: " + listed(f"{name} {seed}" for name, seed in s.seeds),
}
"""The scale in words, a line per part of the reproduction, keyed by the fields of
:class:`Scale` each line says (together, every field)."""


def scale_items(scale: Scale) -> list[str]:
    """The scale in words (:data:`SCALE_WORDS`): lists and pairs read as such, never as
    Python's tuples."""
    return [words(scale) for words in SCALE_WORDS.values()]


def _json_ready(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        x = float(value)
        return None if math.isnan(x) else x
    if isinstance(value, Path):
        return str(value)
    return value


# ---------------------------------------------------------------------------------------
# One document, as Markdown and as HTML (templates/document.html.j2 of harness.report)


@dataclass(frozen=True)
class _Heading:
    """A heading."""

    kind: ClassVar[str] = "heading"
    level: int
    """1 for the title, 2 for a section."""
    text: str
    """Prose with inline spans."""
    anchor: str = ""
    """The heading's id in the page; empty: none."""


@dataclass(frozen=True)
class _Paragraph:
    """A paragraph."""

    kind: ClassVar[str] = "paragraph"
    text: str
    """Prose with inline spans."""


@dataclass(frozen=True)
class _Items:
    """A bulleted list."""

    kind: ClassVar[str] = "items"
    items: tuple[str, ...]
    """A bulleted list's items, prose with inline spans."""


@dataclass(frozen=True)
class _Table:
    """A table of prose."""

    kind: ClassVar[str] = "table"
    headers: tuple[str, ...]
    """The column headings."""
    rows: tuple[tuple[str, ...], ...]
    """The cells, prose with inline spans."""


@dataclass(frozen=True)
class _Image:
    """A chart: a link in the Markdown, embedded in the page."""

    kind: ClassVar[str] = "image"
    title: str
    """The chart's title (the alternative text)."""
    png: Path
    """The chart's PNG file, embedded in the page."""
    relative: str
    """Its path from the document (what the Markdown links)."""


@dataclass(frozen=True)
class _Embedded:
    """A chart embedded in the page (what an :class:`_Image` becomes there)."""

    kind: ClassVar[str] = "image"
    title: str
    """The chart's title (the alternative text)."""
    source: str
    """The PNG as a ``data:`` URL."""


class _Doc:
    """Blocks rendered both as Markdown and as HTML; their prose may hold Markdown's
    ``code``, ``**bold**`` and ``*italic*`` spans."""

    def __init__(self) -> None:
        self.blocks: list[_Heading | _Paragraph | _Items | _Table | _Image] = []

    def heading(self, level: int, text: str, anchor: str = "") -> None:
        self.blocks.append(_Heading(level, text, anchor))

    def para(self, text: str) -> None:
        self.blocks.append(_Paragraph(text))

    def items(self, items: Sequence[str]) -> None:
        self.blocks.append(_Items(tuple(items)))

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        self.blocks.append(_Table(tuple(headers), tuple(tuple(r) for r in rows)))

    def image(self, title: str, png: Path, relative: str) -> None:
        self.blocks.append(_Image(title, png, relative))

    def markdown(self) -> str:
        out: list[str] = []
        for block in self.blocks:
            if isinstance(block, _Heading):
                out.append("#" * block.level + " " + block.text)
            elif isinstance(block, _Paragraph):
                out.append(block.text)
            elif isinstance(block, _Items):
                out.append("\n".join(f"- {item}" for item in block.items))
            elif isinstance(block, _Table):
                lines = ["| " + " | ".join(_md_cell(h) for h in block.headers) + " |",
                         "|" + "|".join("---" for _ in block.headers) + "|"]
                lines += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in block.rows]
                out.append("\n".join(lines))
            else:
                out.append(f"![{block.title}]({block.relative})")
        return "\n\n".join(out) + "\n"

    def html(self, title: str) -> str:
        """The self-contained page: the charts embedded, every text escaped."""
        blocks = [_Embedded(b.title, png_source(Path(b.png).read_bytes())) if isinstance(b, _Image)
                  else b for b in self.blocks]
        return render("document.html.j2", {"title": title, "blocks": blocks})


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")
