"""``harness reproduce``: the literature's claims measured under their sealed rules, each
with a verdict, optionally kept in the repository (the library: :mod:`harness.reproduce`)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from harness.command_line import (
    OneLineUsage,
    chosen_out,
    default_out,
    interrupted,
    progress_for,
    refuse_besides_resume,
    reports_errors,
    stops_on_sigterm,
)
from harness.errors import DISAGREEMENT_EXIT, DISAGREEMENTS_FILE, HarnessError


@click.command(cls=OneLineUsage)
@click.option("--quick", is_flag=True, help="The CI scale: a few minutes on two cores (exploration).")
@click.option("--phase", type=click.Choice(["explore", "confirm"]), default="explore",
              show_default=True,
              help="confirm: the held-out data each claim's rules name (refuses data explored).")
@click.option("--only", metavar="KEYS", help="Comma-separated claims (keys or numbers).")
@click.option("--jobs", "-j", type=int, default=1, show_default=True, metavar="N",
              help="Worker processes.")
@click.option("--out", "out", type=click.Path(file_okay=False), metavar="DIR",
              help="Output folder [default: results/reproduce-<time>].")
@click.option("--no-progress", is_flag=True, help="No progress display on stderr.")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, exists=True),
              metavar="DIR", help="Finish an interrupted reproduction (its settings are in "
                                  "DIR); with --keep, keep a finished one.")
@click.option("--against", type=click.Path(file_okay=False, exists=True), metavar="DIR",
              help="Compare the counts with this earlier run [default: the newest kept run "
                   "of one of its claims in docs/reproduction/].")
@click.option("--keep", "keep_root", type=click.Path(file_okay=False), metavar="ROOT",
              help="Keep the run's compact form (claims.json, verdicts.md, data) in ROOT/<date>/.")
@click.pass_context
@reports_errors
@stops_on_sigterm
def reproduce(ctx: click.Context, /, quick: bool, phase: str, only: str | None, jobs: int,
              out: str | None, no_progress: bool, resume_dir: str | None, against: str | None,
              keep_root: str | None) -> None:
    """Measure the literature's claims (Knuth-Moore, Pearl, Plaat et al., the PVS article,
    the GNUchess study, Breuker, the zero-window-pruning note, ordering quality, Pons, the
    SSS* family, Plaat et al.'s three games, Schaeffer's enhancements, the PVS article
    and the three games on a modern engine) and write report.md, report.html and charts
    with a verdict for each."""
    from harness.reproduce import MEASURED_FILE
    from harness.reproduce import reproduce as run_claims
    from harness.reproduce.document import phase_text
    from harness.reproduce.kept import KEPT_FOLDER, compare_with_earlier, finished_run
    from harness.reproduce.provenance import checkout_root

    if resume_dir is not None:
        refuse_besides_resume(ctx, {"jobs", "no_progress", "against", "keep_root"},
                              f"the reproduction's settings from {resume_dir}")
    if keep_root is not None and quick:
        raise HarnessError("--keep: a quick run (the CI scale) is not kept; keep a full or a "
                           "confirmation run")
    keys = [k.strip() for k in only.split(",") if k.strip()] if only else None
    if resume_dir is not None and keep_root is not None and finished_run(Path(resume_dir)):
        # A run made without --keep is kept afterwards as it is, not measured again.
        kept_in(Path(resume_dir), Path(keep_root))
        return
    folder = Path(resume_dir or chosen_out(out) or default_out("reproduce"))
    try:
        output = run_claims(folder, quick=quick, jobs=jobs, only=keys,
                            progress=progress_for({"no_progress": no_progress}),
                            resume=resume_dir is not None, phase=phase)
    except KeyboardInterrupt:
        interrupted(f"every finished measurement is saved in {folder / MEASURED_FILE}",
                    shlex.join(["harness", "reproduce", "--resume", str(folder),
                                *(["--jobs", str(jobs)] if jobs != 1 else [])]))
    for number, claim in enumerate(output.claims, 1):
        click.echo(f"{number}. {claim.title}: {claim.verdict} ({phase_text(claim)})")
        click.echo(f"   {claim.measured}")
    click.echo(f"\nwrote {output.report_md} and {output.report_html} in {output.seconds:.0f} s")
    top = checkout_root()
    comparison = compare_with_earlier(folder, None if against is None else Path(against),
                                      None if top is None else top / KEPT_FOLDER)
    if comparison is not None:
        click.echo("\n".join(comparison.lines()))
    if keep_root is not None:
        kept_in(folder, Path(keep_root))
    if comparison is not None and comparison.unexplained:
        click.echo(f"error: counts differ from {comparison.old} under the same rules and no "
                   f"commit explains it (comparison.md; exit {DISAGREEMENT_EXIT})", err=True)
        sys.exit(DISAGREEMENT_EXIT)
    if output.disagree:
        click.echo(f"error: exact variants' answers disagree (data/{DISAGREEMENTS_FILE}); the "
                   f"claims measured on them are not measured (exit {DISAGREEMENT_EXIT})", err=True)
        sys.exit(DISAGREEMENT_EXIT)


def kept_in(run: Path, root: Path) -> None:
    """Keep ``run`` in ``root`` and, when ``root`` is the checkout's kept folder, write the
    README's table of kept verdicts anew (each claim's row from its newest kept run)."""
    from harness.reproduce.kept import KEPT_FOLDER, keep, kept_runs, readme_table, readme_with_kept
    from harness.reproduce.provenance import checkout_root

    click.echo(f"kept its compact form in {keep(run, root)}")
    top = checkout_root()
    if top is None or root.resolve() != (top / KEPT_FOLDER).resolve():
        return
    readme = top / "README.md"
    text = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    if readme_table(text) is None:
        return
    updated = readme_with_kept(text, kept_runs(root), top)
    if updated != text:
        readme.write_text(updated, encoding="utf-8")
        click.echo(f"wrote the kept verdicts into {readme}'s table (commit it with the kept run)")
