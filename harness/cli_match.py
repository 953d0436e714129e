"""``harness match``: two search configurations play game pairs under a budget until an
SPRT bound or a game limit (the library: :mod:`harness.match`)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from harness.command_line import (
    EXECUTION_OPTIONS,
    PROBLEM_OPTIONS,
    SELECTIVE_FLAGS,
    OneLineUsage,
    chosen_out,
    default_out,
    interrupted,
    make_execution,
    profiled,
    refuse_besides_resume,
    reports_errors,
    stops_on_sigterm,
    with_chess_flags,
    with_options,
)
from harness.errors import DISAGREEMENT_EXIT, HarnessError
from harness.run.profiles import find_profile

if TYPE_CHECKING:
    from harness.engines.spec import EngineSpec
    from harness.match.play import Budget, Side

DEFAULT_ENGINE_OPENINGS = "chess:bench.epd"
"""The openings of a match with an engine side when ``--problems`` is not given."""

SWITCHES = ("tt_size", "no_hash_move", "tt_leaves", "tt_narrow", "no_value_bounds",
            "no_qsearch", "no_mvv_lva", "killers", "history", "repetition", "null_move",
            "null_rule", "check_extension", "refutations",
            *(name for name, _, _ in SELECTIVE_FLAGS))
"""The frame's switches and chess's ordering flags, as ``harness run`` takes them (every
move is searched with iterative deepening, so ``--id`` is not one)."""


@click.command(cls=OneLineUsage)
@click.argument("side_a", metavar="A", required=False)
@click.argument("side_b", metavar="B", required=False)
@click.option("--problems", metavar="GAME:OPENINGS",
              help="The openings: chess:bench.epd, connect4:FILE (a position a line), "
                   "othello:start,plies=N, checkers:start,plies=N (or a FILE of positions), "
                   "openspiel:NAME,plies=N.")
@click.option("--nodes", type=int, metavar="N",
              help="Node budget per move: the last iterative-deepening depth finished within "
                   "N nodes [default: 20000].")
@click.option("--depth", type=int, metavar="D", help="Fixed depth per move instead.")
@click.option("--time", "time_text", metavar="S+INC",
              help="Wall-time clock per side instead (seconds + increment; not reproducible).")
@click.option("--sprt", "sprt_text", default="0,2,0.05,0.05", show_default=True,
              metavar="ELO0,ELO1,ALPHA,BETA", help="GSPRT on normalized Elo (fishtest's defaults).")
@click.option("--games", type=int, metavar="N",
              help="Stop after N games (whole pairs) [default: each opening once as a pair].")
@click.option("--max-plies", type=int, default=400, show_default=True, metavar="P",
              help="Draw a game still going after P plies (0: no limit).")
@click.option("--adjudicate", type=int, default=0, metavar="SCORE",
              help="Win a game for a side when 4 searches in a row score it SCORE ahead "
                   "(chess: centipawns) [default: off].")
@click.option("--link-depth", type=int, default=3, show_default=True, metavar="D",
              help="Depth of the agreement check and node ratio on the openings (0: none).")
@click.option("--calibrate", is_flag=True,
              help="Measure the Elo of one ply (A one ply deeper against itself, as many pairs) "
                   "and say what A's node saving predicts.")
@click.option("--ladder", "ladder_text", metavar="N1,N2,...",
              help="After the match, A plays the ladder engine at each node budget a move "
                   "(go nodes), as many pairs as the match may, and is placed on its scale.")
@click.option("--ladder-engine", metavar="NAME=COMMAND[,Opt=Val]",
              help="The ladder's engine [default: stockfish=stockfish].")
@click.option("--engine-timeout", type=float, default=60.0, show_default=True, metavar="S",
              help="Seconds an engine's move may take before it is taken for hung (the match "
                   "stops; --resume plays on).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Output folder [default: results/match-<time>].")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, exists=True),
              metavar="DIR", help="Finish an interrupted match (its settings are in DIR).")
@with_options([PROBLEM_OPTIONS[name] for name in SWITCHES])
@with_options(EXECUTION_OPTIONS)
@click.pass_context
@reports_errors
@stops_on_sigterm
def match(ctx: click.Context, /, side_a: str | None, side_b: str | None, **options: Any) -> None:
    """Play variant A against variant B from the openings of a suite, each opening twice
    with the sides swapped, and stop at an SPRT decision or the game limit.

    A side may be a UCI engine, NAME=COMMAND[,Option=Value] ('sf=stockfish,Skill Level=5';
    chess only, openings chess:bench.epd unless --problems). Writes games.csv (a row per
    game), run.json and, for chess, games.pgn into --out. --resume DIR takes A from the
    folder: `harness match --resume DIR`."""
    from harness.match.engine_side import is_engine_side
    from harness.match.match import (
        Disagreement,
        load_openings,
        recorded_config,
        resume_match,
        run_match,
        with_engine_timeout,
    )
    from harness.match.pairs import Progress
    from harness.match.play import Rules
    from harness.match.settings import MatchConfig
    from harness.match.stats import Sprt
    from harness.match.summary import result_lines

    o = options
    execution = make_execution(o)
    if o["resume_dir"] is not None:
        if side_a is not None:
            raise HarnessError("--resume takes the sides from the folder; drop A and B")
        refuse_besides_resume(ctx, {"jobs", "executor", "scheduler", "no_progress",
                                    "engine_timeout"},
                              f"the match's settings from {o['resume_dir']}")
        folder = Path(o["resume_dir"])
        config = recorded_config(folder)
        if ctx.get_parameter_source("engine_timeout") == click.core.ParameterSource.COMMANDLINE:
            # Only how long a move may take: the games stay the same.
            config = with_engine_timeout(config, _timeout(o["engine_timeout"]))
    else:
        engine_given = any(s is not None and is_engine_side(s) for s in (side_a, side_b))
        problems = o["problems"] or (DEFAULT_ENGINE_OPENINGS if engine_given else None)
        if side_a is None or side_b is None or not problems:
            raise HarnessError("harness match A B --problems GAME:OPENINGS: two variants and "
                               "the openings are needed (or --resume DIR)")
        openings = with_chess_flags(problems, o)
        ladder, ladder_engine = _ladder(o)
        config = MatchConfig((_side(side_a, "A", o, openings), _side(side_b, "B", o, openings)),
                             openings, _budget(o),
                             Rules(_at_least(o["max_plies"], 0, "--max-plies"),
                                   _at_least(o["adjudicate"], 0, "--adjudicate")),
                             Sprt.parse(o["sprt_text"]), _games(o["games"]),
                             _at_least(o["link_depth"], 0, "--link-depth"), o["calibrate"],
                             ladder, ladder_engine, _timeout(o["engine_timeout"]))
        folder = Path(chosen_out(o["out_dir"]) or default_out("match"))
        load_openings(config)           # bad openings refused before a word is printed
    sprt, labels = config.sprt, ("A " + config.sides[0].name, "B " + config.sides[1].name)

    def echo(progress: Progress) -> None:
        if progress.stage == "calibration":
            click.echo(f"calibration: pair {progress.pair}/{progress.pairs}, the deeper side "
                       f"W {progress.points[0]} D {progress.points[1]} L {progress.points[2]}")
        elif progress.stage.startswith("ladder "):
            click.echo(f"ladder, {progress.stage.split()[1]} nodes a move: pair {progress.pair}/"
                       f"{progress.pairs}, A W {progress.points[0]} D {progress.points[1]} "
                       f"L {progress.points[2]}")
        else:
            click.echo(progress.line(sprt, labels))

    click.echo(f"match {labels[0]} vs {labels[1]} on {config.problems}, {config.budget.text} "
               f"per move -> {folder}")
    try:
        if o["resume_dir"] is not None:
            result = resume_match(folder, execution, None if o["no_progress"] else echo, config)
        else:
            result = run_match(config, folder, execution, None if o["no_progress"] else echo)
    except Disagreement as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(DISAGREEMENT_EXIT)
    except KeyboardInterrupt:
        interrupted(f"every finished pair is saved in {folder}/games.csv",
                    shlex.join(["harness", "match", "--resume", str(folder)]))
    lines = result_lines(result)
    for line in lines[0 if o["no_progress"] else 1:]:     # the progress line is out already
        click.echo(line)
    click.echo(f"report: {folder / 'report.html'}")


def _side(text: str, which: str, o: dict[str, Any], openings: str) -> Side:
    """A side named ``VARIANT`` or ``VARIANT@PROFILE``: its profile's switches under those
    typed (typed wins), its profile's game options under those the openings name; or a UCI
    engine, ``NAME=COMMAND[,Option=Value...]`` (``which``: ``A`` or ``B``, for its errors)."""
    from harness.games.registry import parse_problem_name, split_items
    from harness.match.engine_side import engine_spec, is_engine_side
    from harness.match.play import make_engine_side, make_side

    if is_engine_side(text):
        return make_engine_side(engine_spec(text, f"side {which}"), _timeout(o["engine_timeout"]))
    variant, at, name = text.rpartition("@") if "@" in text else (text, "", "")
    if at and not (variant and name):
        raise HarnessError(f"{text!r}: a side is VARIANT or VARIANT@PROFILE (pvs@modern)")
    profile = find_profile(name) if at else None
    switches, games = profiled(o, profile)
    if profile is None:
        return make_side(variant, switches)
    game = parse_problem_name(openings).game.name
    named = {item.partition("=")[0].strip() for item in split_items(openings.partition(":")[2])
             if "=" in item}
    own = tuple((game, key, value) for key, value in games.get(game, {}).items()
                if key not in named)
    return make_side(variant, switches, profile.name, own)


def _budget(o: dict[str, Any]) -> Budget:
    from harness.match.play import Budget, parse_time
    from harness.run.feasible import warn_over_budget

    given = [name for name in ("nodes", "depth", "time_text") if o[name] is not None]
    if len(given) > 1:
        raise HarnessError("--nodes, --depth and --time: give one budget")
    if o["time_text"] is not None:
        seconds, increment = parse_time(o["time_text"])
        return Budget("time", seconds=seconds, increment=increment)
    if o["depth"] is not None:
        from harness.search.run import check_depth

        check_depth(o["depth"])
        return Budget("depth", depth=o["depth"])
    nodes = _at_least(20_000 if o["nodes"] is None else o["nodes"], 1, "--nodes")
    warn_over_budget(nodes)
    return Budget("nodes", nodes=nodes)


def _ladder(o: dict[str, Any]) -> tuple[tuple[int, ...], EngineSpec | None]:
    """The ladder's rungs (``--ladder``) and engine (``--ladder-engine``, else Stockfish)."""
    from harness.match.engine_side import LADDER_ENGINE, engine_spec

    if o["ladder_text"] is None:
        if o["ladder_engine"] is not None:
            raise HarnessError("--ladder-engine names the ladder's engine: give its rungs with "
                               "--ladder N1,N2,... (node budgets a move)")
        return (), None
    try:
        rungs = tuple(int(item) for item in o["ladder_text"].split(","))
    except ValueError:
        raise HarnessError(f"--ladder {o['ladder_text']!r}: node budgets a move, comma-separated "
                           "(e.g. 1000,4000,16000)") from None
    return rungs, engine_spec(o["ladder_engine"] or LADDER_ENGINE, "--ladder-engine")


def _timeout(seconds: float) -> float:
    if not seconds > 0:
        raise HarnessError(f"--engine-timeout {seconds:g}: must be above 0 seconds")
    return seconds


def _games(games: int | None) -> int | None:
    if games is not None and games < 2:
        raise HarnessError(f"--games {games}: a match plays at least one pair (2 games)")
    if games is not None and games % 2:
        raise HarnessError(f"--games {games}: games come in pairs, each opening played with "
                           f"both colours; give an even number ({games - 1} or {games + 1})")
    return games


def _at_least(value: int, least: int, option: str) -> int:
    if value < least:
        raise HarnessError(f"{option} {value}: must be at least {least}")
    return value
