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
@click.option("--variants", "variant_list", default="all", show_default=True, metavar="LIST",
              help="Comma-separated variants with options in the name, or all, core.")
@click.option("--depth", "depth_text", metavar="N|A-B",
              help="Depth or inclusive range [default: each tree's height].")
@click.option("--tt", "tt_size", type=int, default=0, metavar="SIZE",
              help="Transposition table with SIZE entries for every variant [default: none].")
@click.option("--id", "iterative", is_flag=True, help="Iterative deepening for every variant.")
@click.option("--minimal", is_flag=True,
              help="Measure each tree's minimal alpha-beta tree (children perfectly reordered).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Run folder [default: results/run-<UTC time>].")
@reports_errors
def run(tree_files: tuple[str, ...], tree_specs: tuple[str, ...], variant_list: str,
        depth_text: str | None, tt_size: int, iterative: bool, minimal: bool,
        out_dir: str | None) -> None:
    """Search problems with variants at fixed depths; write results.csv and run.json.

    With no problems given, runs the embedded default: the same synthetic trees with
    good and with random move ordering, every variant, depths 1-6, iterative deepening.
    """
    if not tree_files and not tree_specs:
        tree_specs = DEFAULT_TREES
        depth_text = depth_text or "1-6"
        iterative = True            # aspiration and MTD(f) always iterate: so does everyone
        click.echo("No problems given: running the default comparison "
                   f"({len(DEFAULT_TREES)} synthetic sets, iterative deepening).", err=True)
    config = ExperimentConfig(
        tree_files=tree_files, tree_specs=tree_specs, variants=variant_list,
        depths=parse_depths(depth_text) if depth_text else None,
        tt_size=tt_size, iterative_deepening=iterative, measure_minimal=minimal)
    if out_dir is None:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        out_dir = str(Path("results") / f"run-{stamp}")

    def progress(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            click.echo(f"  {done}/{total} problems", err=True)

    output = run_experiment(config, out_dir, command=["harness", *sys.argv[1:]],
                            on_problem=progress)
    click.echo(format_summary(summarize(output.results)))
    click.echo(f"\nwrote {output.run_dir / 'results.csv'} ({len(output.results)} rows) "
               f"and {output.run_dir / 'run.json'}")


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="harness")
