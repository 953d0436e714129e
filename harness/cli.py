"""The ``harness`` command: each subcommand parses options, calls one library function and
renders its result. Bad input is one line on stderr and exit code 2."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from harness.errors import HarnessError
from harness.experiment import DEFAULT_TREES, ExperimentConfig, run_experiment
from harness.problems import parse_depths
from harness.search.registry import CORE, VARIANTS
from harness.search.run import Switches
from harness.suites import KNOWN_SUITES, download_dir, download_suite, list_suites
from harness.summary import format_summary, summarize

F = TypeVar("F", bound=Callable[..., Any])


class InputError(click.ClickException):
    """A :class:`HarnessError` on its way out: ``Error: <one line>``, exit code 2."""

    exit_code = 2


def reports_errors(command: F) -> F:
    """Turn the library's input errors into Click's one-line error exit."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except HarnessError as exc:
            raise InputError(str(exc)) from None

    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="harness")
def cli() -> None:
    """Benchmark game-tree search variants with exact counters."""


@cli.command()
def variants() -> None:
    """List the registered search variants, their options and sources."""
    width = max(len(v.name) for v in VARIANTS)
    for v in VARIANTS:
        click.echo(f"{v.name:<{width}}  {v.description}")
        pad = " " * (width + 2)
        click.echo(f"{pad}source: {v.source}")
        for key, option in v.options.items():
            default = int(option.default) if isinstance(option.default, bool) else option.default
            click.echo(f"{pad}option {key}={default}: {option.help}")
    click.echo(f"\naliases: all (every variant), core ({', '.join(CORE)})")
    click.echo("options go in the name: pvs:zw_min_depth=3,research_min_depth=2")


@cli.command()
@click.option("--tree", "tree_files", multiple=True, metavar="FILE.json",
              help="An explicit tree (JSON nested list). Repeatable.")
@click.option("--trees", "tree_specs", multiple=True, metavar="SPEC",
              help="Synthetic trees, e.g. random:b=8,d=6,n=100,seed=1,ordering=0.9,"
                   "values=incremental. Repeatable.")
@click.option("--suite", "suites", multiple=True, metavar="EPD",
              help="Chess positions: an EPD file, or a name looked up in positions/ and "
                   "$HARNESS_SUITES. Repeatable.")
@click.option("--skip-invalid", is_flag=True,
              help="Skip malformed EPD lines with a warning (recorded in run.json).")
@click.option("--variants", "variant_list", default="all", show_default=True, metavar="LIST",
              help="Comma-separated variants with options in the name, or all, core.")
@click.option("--depth", "depth_text", metavar="N|A-B",
              help="Depth or inclusive range [default: each tree's height].")
@click.option("--tt", "tt_size", type=int, default=0, metavar="SIZE",
              help="Transposition table with SIZE entries for every variant [default: none].")
@click.option("--id", "iterative", is_flag=True, help="Iterative deepening for every variant.")
@click.option("--no-hash-move", is_flag=True, help="Do not search the table's move first.")
@click.option("--no-qsearch", is_flag=True, help="Chess: static evaluation at the horizon.")
@click.option("--no-mvv-lva", is_flag=True, help="Chess: no capture ordering (generation order).")
@click.option("--killers", is_flag=True, help="Chess: killer moves.")
@click.option("--history", is_flag=True, help="Chess: history heuristic.")
@click.option("--null-move", "null_move", type=int, default=0, metavar="R",
              help="Chess: null move with reduction R [default: off].")
@click.option("--null-rule", type=click.Choice(["either", "both"]), default="either",
              show_default=True, help="Chess: no null move after a null move in either / both "
                                      "of the previous two plies (both: Diepeveen's code).")
@click.option("--check-extension", is_flag=True, help="Chess: extend checks by one ply.")
@click.option("--epd-out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Chess: also write the results as EPD (acd, acn, ce, pv, H* counters).")
@click.option("--minimal", is_flag=True,
              help="Measure each tree's minimal alpha-beta tree (children perfectly reordered).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Run folder [default: results/run-<UTC time>].")
@reports_errors
def run(tree_files: tuple[str, ...], tree_specs: tuple[str, ...], suites: tuple[str, ...],
        skip_invalid: bool, variant_list: str, depth_text: str | None, tt_size: int,
        iterative: bool, no_hash_move: bool, no_qsearch: bool, no_mvv_lva: bool, killers: bool,
        history: bool, null_move: int, null_rule: str, check_extension: bool,
        epd_out: str | None, minimal: bool, out_dir: str | None) -> None:
    """Search problems with variants at fixed depths; write results.csv and run.json.

    With no problems given, runs the embedded default: the same synthetic trees with
    good and with random move ordering, every variant, depths 1-6, iterative deepening.
    """
    if not tree_files and not tree_specs and not suites:
        tree_specs = DEFAULT_TREES
        depth_text = depth_text or "1-6"
        iterative = True            # aspiration and MTD(f) always iterate: so does everyone
        click.echo("No problems given: running the default comparison "
                   f"({len(DEFAULT_TREES)} synthetic sets, iterative deepening).", err=True)
    switches = Switches(tt_size=tt_size, iterative_deepening=iterative,
                        hash_move=not no_hash_move, quiescence=not no_qsearch,
                        mvv_lva=not no_mvv_lva, killers=killers, history=history,
                        null_move=null_move, null_rule=null_rule, check_extension=check_extension)
    config = ExperimentConfig(
        tree_files=tree_files, tree_specs=tree_specs, suites=suites, variants=variant_list,
        depths=parse_depths(depth_text) if depth_text else None, switches=switches,
        measure_minimal=minimal, skip_invalid=skip_invalid)
    if out_dir is None:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        out_dir = str(Path("results") / f"run-{stamp}")

    def progress(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            click.echo(f"  {done}/{total} problems", err=True)

    output = run_experiment(config, out_dir, command=["harness", *sys.argv[1:]],
                            on_problem=progress, epd_out=epd_out)
    click.echo(format_summary(summarize(output.results)))
    click.echo(f"\nwrote {output.run_dir / 'results.csv'} ({len(output.results)} rows) "
               f"and {output.run_dir / 'run.json'}" + (f", {epd_out}" if epd_out else ""))


@cli.group(invoke_without_command=True)
@click.pass_context
@reports_errors
def suites(ctx: click.Context) -> None:
    """List the EPD suites it can find (positions/, then $HARNESS_SUITES), with counts."""
    if ctx.invoked_subcommand is not None:
        return
    found = list_suites()
    if not found:
        click.echo("no suites found; get public ones with 'harness suites get NAME' "
                   f"({', '.join(KNOWN_SUITES)})")
    for info in found:
        note = f"  ({info.invalid} malformed lines)" if info.invalid else ""
        note = f"  (unreadable: {info.error})" if info.error else note
        click.echo(f"{info.name:<20} {info.positions:>5} positions  {info.path}{note}")


@suites.command("get")
@click.argument("name")
@click.option("--dest", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Folder to save into [default: ~/.local/share/harness/suites, which is "
                   "searched for suites too].")
@click.option("--base-url", default=None, metavar="URL",
              help="Fetch from URL/<file> instead of the pinned address ($HARNESS_SUITES_URL).")
@reports_errors
def suites_get(name: str, dest: str | None, base_url: str | None) -> None:
    """Download a known public suite (pinned commit, sha256 checked)."""
    path = download_suite(name, dest or download_dir(), base_url)
    click.echo(f"{path} (sha256 checked)")


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="harness")
