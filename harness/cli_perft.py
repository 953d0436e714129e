"""``harness perft``: a move generator checked against a perft suite's counts, or the
counts from one position (the library: :mod:`harness.games.chess.perft`)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from harness.command_line import OneLineUsage, interrupted, reports_errors, stops_on_sigterm
from harness.errors import DISAGREEMENT_EXIT, HarnessError

if TYPE_CHECKING:
    from harness.games.chess.perft import PerftPosition, PerftResult


@click.command(cls=OneLineUsage)
@click.argument("suite", required=False, metavar="SUITE")
@click.option("--fen", metavar="FEN", help="Count from this position instead (no counts to check).")
@click.option("--depth", type=click.IntRange(1, 8), default=3, show_default=True, metavar="N",
              help="Count move sequences up to this length.")
@click.option("--limit", type=click.IntRange(1), default=None, metavar="N",
              help="Only the first N positions of the suite.")
@click.option("--generator", type=click.Choice(["harness", "python-chess"]), default="harness",
              show_default=True, help="The harness's move generator (the compiled board where it "
                                      "was built), or python-chess's (the reference).")
@click.option("--skip-invalid", is_flag=True,
              help="Skip the suite's malformed lines and illegal positions (a warning each) "
                   "instead of stopping at the first.")
@reports_errors
@stops_on_sigterm
def perft(suite: str | None, fen: str | None, depth: int, limit: int | None, generator: str,
          skip_invalid: bool) -> None:
    """Check a move generator: count legal move sequences by length from each position of
    a perft suite and compare every count with the suite's (exit 3 if one differs, naming
    the position and depth); or, with --fen, print the counts.

    A suite is 'FEN ;D1 20 ;D2 400 ...' a line (perftsuite.epd) or EPD with 'D1 20; D2
    400;' operations (the project's perft.epd); every position must be legal, as for a
    run. Counts are leaf nodes, the last ply bulk-counted (its legal moves counted, not
    made), as engines' perft does."""
    from harness.games.chess.perft import (
        check_suite,
        fallback_note,
        generator_label,
        load_suite,
        rate,
        timed_counts,
    )
    from harness.games.chess.suite_files import find_suite

    if (suite is None) == (fen is None):
        raise HarnessError("perft: give a SUITE or --fen FEN (one of them)")
    note = fallback_note() if generator == "harness" else None
    if fen is not None:
        try:
            for d, counted, seconds in timed_counts(fen, depth, generator):
                click.echo(f"D{d} {counted:>14,}  {seconds:8.2f} s  {rate(counted, seconds)}")
        except KeyboardInterrupt:               # Ctrl-C or SIGTERM (the counts shown are whole)
            interrupted("every count above is complete", "the same command again")
        click.echo(f"generator {generator_label(generator)}")
        if note:
            click.echo(f"note: {note}", err=True)
        return
    path = find_suite(suite or "")
    positions, skipped = load_suite(path, limit, skip_invalid)
    if note:
        click.echo(f"note: {note}", err=True)
    wrong: list[str] = []
    results: list[PerftResult] = []

    def told(position: PerftPosition, made: list[PerftResult]) -> None:
        results.extend(made)
        bad = [r for r in made if not r.agrees]
        wrong.extend(f"{position.where(path.name)} D{r.depth}" for r in bad)
        shown = ", ".join(f"D{r.depth} {r.counted:,}" + ("" if r.agrees else f" (expected {r.expected:,})")
                          for r in made)
        click.echo(f"{position.where(path.name)}: {'DIFFERS' if bad else 'ok'}  {shown}", err=bool(bad))

    try:
        check_suite(positions, depth, generator, told)
    except KeyboardInterrupt:                   # Ctrl-C or SIGTERM (the lines shown are whole)
        counted = len({r.position.line for r in results})
        interrupted(f"the {counted} of {len(positions)} positions above are counted and checked"
                    f"{f' ({len(wrong)} counts differ)' if wrong else ''}", "the same command again")
    seconds = sum(r.seconds for r in results)
    nodes = sum(r.counted for r in results)
    skipped_note = f" ({skipped} line{'s' if skipped > 1 else ''} skipped)" if skipped else ""
    summary = (f"{len(positions)} positions{skipped_note}, depths 1-{depth}, generator "
               f"{generator_label(generator)}: {len(results)} counts, {nodes:,} sequences in "
               f"{seconds:.1f} s ({rate(nodes, seconds)})")
    if wrong:
        click.echo(f"{summary}; {len(wrong)} counts differ from the suite's: {', '.join(wrong)} "
                   f"(exit {DISAGREEMENT_EXIT})", err=True)
        sys.exit(DISAGREEMENT_EXIT)
    click.echo(f"{summary}; every count is the suite's")
