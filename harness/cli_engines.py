"""``harness engines``: the UCI engines found here (on ``PATH`` or in ``/usr/games``), each
with its ``id name`` and options, and how a run names it (the library:
:mod:`harness.engines.probe`)."""

from __future__ import annotations

import shlex

import click

from harness.command_line import OneLineUsage, reports_errors


@click.command(cls=OneLineUsage)
@click.argument("names", nargs=-1, metavar="[NAME|NAME=COMMAND]...")
@reports_errors
def engines(names: tuple[str, ...]) -> None:
    """List the UCI engines found (stockfish, gnuchess --uci, toga2, glaurung, ethereal-chess,
    fairy-stockfish), each started once: its id name, the spec a run takes
    (--engine NAME=COMMAND), its options and the search features `harness ablate --engine`
    can switch in it (docs/ablation-engines.md). Named engines (a known name, or
    NAME=COMMAND): only those, each one that cannot be started one line and exit 2."""
    from harness.engines.features import PROGRAMS, features_of
    from harness.engines.probe import find_engines

    found, missing = find_engines(names)
    for engine in found:
        click.echo(f"{engine.spec.name}: {engine.id_name or '(no id name)'}")
        click.echo(f"    --engine {shlex.quote(engine.spec.text)}")
        for option in engine.options:
            click.echo(f"    option {option}")
        records = features_of(engine.id_name)
        if not records:
            click.echo(f"    ablate --engine: no feature it switches is known (known programs: "
                       f"{', '.join(PROGRAMS)})")
        for record in records:
            settings = ", ".join(f"{s.option}={s.off} (on: {s.on})" for s in record.settings)
            click.echo(f"    ablate --engine switches {record.feature} off with {settings}")
    for line in missing:
        click.echo(f"not found: {line}")
    if not found and not names:
        click.echo("no UCI engine found; Debian and Ubuntu: apt-get install stockfish gnuchess "
                   "toga2 glaurung")
