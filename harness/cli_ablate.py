"""``harness ablate``: a search profile taken apart, enhancement by enhancement, on the
same problems and depths (the library: :mod:`harness.run.ablation`)."""

from __future__ import annotations

import shlex
import sys
from typing import Any

import click

from harness.command_line import (
    EXECUTION_OPTIONS,
    PROBLEM_OPTIONS,
    OneLineUsage,
    chosen_out,
    default_out,
    interrupted,
    make_execution,
    progress_for,
    refuse_besides_resume,
    reports_errors,
    stops_on_sigterm,
    with_options,
)
from harness.errors import HarnessError


@click.command(cls=OneLineUsage)
@click.option("--profile", default="modern", show_default=True, metavar="NAME",
              help="The profile taken apart (see docs/profiles.md).")
@click.option("--variant", default="pvs", show_default=True, metavar="V",
              help="The variant every configuration searches with, options in the name.")
@click.option("--engine", "engine", metavar="NAME=COMMAND[,Opt=Val]",
              help="Take this UCI engine apart instead of the profile: each search feature "
                   "it switches by a UCI option turned off alone (docs/ablation-engines.md).")
@with_options([PROBLEM_OPTIONS[name] for name in ("problems", "suites", "depth_text", "limit")])
@click.option("--from-bare", is_flag=True,
              help="Also add each enhancement alone to the bare base (every enhancement off).")
@click.option("--enhancements", "only_text", metavar="A,B",
              help="Only these enhancements of the profile [default: every one].")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Bootstrap seed of the intervals.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Folder of the ablation [default: results/ablate-<UTC time>].")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, exists=True),
              metavar="DIR", help="Finish an interrupted ablation (its settings are in DIR).")
@with_options(EXECUTION_OPTIONS)
@click.pass_context
@reports_errors
@stops_on_sigterm
def ablate(ctx: click.Context, /, **options: Any) -> None:
    """Take a search profile apart: the base configuration (a profile and a variant), then
    each of its enhancements removed alone (and with --from-bare, each added alone to the
    bare base), on the same problems and depths; or, with --engine, a UCI engine with each
    feature it switches turned off alone. Each configuration is a run in its own folder;
    ablation.csv, ablation.png/.svg and index.html go beside them."""
    from harness.report.ablation import render_ablation
    from harness.run.ablation import (
        AblationConfig,
        parse_only,
        resume_ablation,
        run_ablation,
    )
    from harness.run.plan import parse_depths

    o = options
    execution, progress = make_execution(o), progress_for(o)
    command = ["harness", *sys.argv[1:]]
    try:
        if o["resume_dir"] is not None:
            refuse_besides_resume(ctx, {"jobs", "executor", "scheduler", "no_progress"},
                                  f"the ablation's settings from {o['resume_dir']}")
            out = o["resume_dir"]
            found = resume_ablation(out, execution, progress)
        else:
            problems = (*(f"chess:{suite}" for suite in o["suites"]), *o["problems"])
            if o["engine"] is not None:
                _refuse_profile_options(ctx)
            if not problems:
                raise HarnessError("harness ablate needs problems: --suite EPD or --problems "
                                   "GAME:SPEC")
            config = AblationConfig(
                problems=problems, profile=o["profile"], variant=o["variant"],
                depths=parse_depths(o["depth_text"]) if o["depth_text"] else None,
                limit=o["limit"], from_bare=o["from_bare"],
                only=parse_only(o["only_text"]) if o["only_text"] is not None else (),
                seed=o["seed"], engine=o["engine"] or "")
            out = chosen_out(o["out_dir"]) or default_out("ablate")
            found = run_ablation(config, out, command, progress, execution)
    except KeyboardInterrupt:
        interrupted(f"every finished configuration and problem is saved under {out}",
                    shlex.join(["harness", "ablate", "--resume", str(out)]))
    click.echo(render_ablation(found.table))
    click.echo(f"\nwrote {', '.join(str(path) for path in found.files)} (each configuration's "
               f"run in its folder under {found.folder})")


def _refuse_profile_options(ctx: click.Context) -> None:
    """An engine's ablation has no profile nor variant: refuse them given beside it."""
    from click.core import ParameterSource

    for name, flag in (("profile", "--profile"), ("variant", "--variant")):
        if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE:
            raise HarnessError(f"{flag} takes the harness's search apart; --engine takes the "
                               "engine apart instead: give one of them")
