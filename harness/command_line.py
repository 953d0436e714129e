"""What every command of :mod:`harness.cli` shares: bad input as one line (exit 2), Ctrl-C
and SIGTERM as what is kept and how to finish (exit 130, 143), and the options that say what
to search and how, with the configuration they make."""

from __future__ import annotations

import shlex
import signal
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from harness.errors import DISAGREEMENT_EXIT, HarnessError, os_error_text
from harness.games.registry import with_defaults
from harness.run.executors import EXECUTORS, Execution
from harness.run.profiles import Profile, find_profile
from harness.run.progress import Progress
from harness.search.run import Switches
from harness.search.selective import Selectivity

if TYPE_CHECKING:
    from harness.run.plan import ExperimentConfig

F = TypeVar("F", bound=Callable[..., Any])

MEASURE = click.option(
    "--measure", type=click.Choice(["nodes", "time"]), default="nodes", show_default=True,
    help="Compare nodes, or time per search (beside nodes per second; refused across frames).")
"""``--measure``: :data:`harness.report.measures.MEASURES` by name (written out here: that
module needs pandas, and ``--help`` stays quick without it)."""

ALLOW_DISAGREEMENT = click.option(
    "--allow-disagreement", is_flag=True,
    help=f"Exit 0 even when the exact variants' answers disagree [default: exit "
         f"{DISAGREEMENT_EXIT}; the results are written either way].")


def pd_unique(values: Any) -> list[str]:
    """The distinct values of a column, in order, as text."""
    return list(dict.fromkeys(str(v) for v in values))


class InputError(click.ClickException):
    """A :class:`HarnessError` on its way out: ``Error: <one line>``, exit code 2."""

    exit_code = 2


def one_line_usage(exc: click.UsageError, ctx: click.Context) -> InputError:
    """A usage error as one line with the pointer to ``--help`` in it (Click prints three:
    usage, hint, error)."""
    return InputError(f"{exc.format_message()} (see {ctx.command_path} --help)")


class OneLineUsage(click.Command):
    """A command whose usage errors (a bad option value, a missing argument) are one line;
    a group with no arguments at all still shows its help."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise one_line_usage(exc, ctx) from None


class OneLineGroup(OneLineUsage, click.Group):
    """A group whose commands and subgroups are :class:`OneLineUsage` too, and whose
    unknown-command error is one line."""

    command_class = OneLineUsage
    group_class = type                      # subgroups of the same class

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            raise one_line_usage(exc, ctx) from None


def reports_errors(command: F) -> F:
    """Turn the library's input errors into Click's one-line error exit; an operating-system
    error (an --out folder inside a file or not writable) and a recursion too deep for Python
    too, as what they are, without a traceback (the rows written so far stay written)."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except HarnessError as exc:
            raise InputError(str(exc)) from None
        except OSError as exc:
            raise InputError(os_error_text(exc)) from None
        except RecursionError as exc:
            raise InputError(f"input nested too deep for the harness ({exc})") from None

    return wrapper  # type: ignore[return-value]


SELECTIVE_FLAGS = (
    ("late_move_reductions", "--lmr", "late-move reductions of quiet late moves"),
    ("late_move_pruning", "--lmp", "late-move (move-count) pruning at shallow depth"),
    ("futility", "--futility", "futility pruning of quiet moves at shallow depth"),
    ("reverse_futility", "--reverse-futility", "reverse futility (static null move)"),
    ("razoring", "--razoring", "razoring at shallow depth"),
    ("internal_iterative_deepening", "--iid", "internal iterative deepening (with --tt)"),
    ("mate_distance", "--mate-distance", "mate-distance pruning"),
)
"""The selective switches (``harness.search.selective.SWITCHES``) as flags: each field's
name, its flag and what it does; a game offers what each needs (chess)."""

PROBLEM_OPTIONS: dict[str, Callable[[F], F]] = {
    "profile": click.option("--profile", "profile", metavar="NAME",
                 help="A search profile: classic (today's defaults) or modern (iterative "
                      "deepening, a table, hash move, killers, history, null move, check "
                      "extension); a switch typed beside it wins (see docs/profiles.md)."),
    "problems": click.option("--problems", "problems", multiple=True, metavar="GAME:SPEC",
                 help="Problems of any game, options after commas: chess:wac.epd,killers=1, "
                      "random:b=8,d=6,n=20, tree:fig.json, openspiel:tic_tac_toe (see harness "
                      "games). Repeatable."),
    "tree_files": click.option("--tree", "tree_files", multiple=True, metavar="FILE.json",
                 help="An explicit tree (JSON nested list): tree:FILE.json. Repeatable."),
    "tree_specs": click.option("--trees", "tree_specs", multiple=True, metavar="SPEC",
                 help="Synthetic trees, e.g. random:b=8,d=6,n=100,seed=1,ordering=0.9,"
                      "values=incremental. Repeatable."),
    "suites": click.option("--suite", "suites", multiple=True, metavar="EPD",
                 help="Chess positions: an EPD file, or a name looked up in the package's suites, "
                      "$HARNESS_SUITES and the download folder: chess:EPD. Repeatable."),
    "skip_invalid": click.option("--skip-invalid", is_flag=True,
                 help="Skip malformed lines of a problem file (EPD) with a warning (recorded in run.json)."),
    "depth_text": click.option("--depth", "depth_text", metavar="N|A-B",
                 help="Depth or inclusive range [default: a tree's height; 3 for chess; an OpenSpiel "
                      "game's end]."),
    "tt_size": click.option("--tt", "tt_size", type=int, default=0, metavar="SIZE",
                 help="Transposition table with SIZE entries for every variant [default: none; "
                      "when a variant brings its own (the MTD drivers), 1,048,576 "
                      "entries for every variant]."),
    "own_tables": click.option("--own-tables", is_flag=True,
                 help="Let the variants that bring their own table keep it alone (the others "
                      "search without one; comparisons name the difference)."),
    "iterative": click.option("--id", "iterative", is_flag=True,
                           help="Iterative deepening for every variant."),
    "no_hash_move": click.option("--no-hash-move", is_flag=True,
                           help="Do not search the table's move first."),
    "window": click.option("--window", "window_text", metavar="LO,HI",
                 help="Root window of every full-window search (-1,1: a weak solve) [default: "
                      "the full window]."),
    "no_value_bounds": click.option("--no-value-bounds", is_flag=True,
                 help="Do not lower beta to a game's bound on a node's value (Connect Four)."),
    "tt_leaves": click.option("--tt-leaves", is_flag=True,
                 help="Store horizon leaves (and their quiescence values) in the table too, "
                      "as Plaat et al.'s MT does."),
    "tt_narrow": click.option("--tt-narrow", is_flag=True,
                 help="A table entry narrows the window to its bounds (MT), not only cuts off."),
    "no_qsearch": click.option("--no-qsearch", is_flag=True,
                 help="Static evaluation at the horizon, where a game offers a quiescence search (chess)."),
    "no_mvv_lva": click.option("--no-mvv-lva", is_flag=True,
                 help="Chess: no capture ordering (every chess set's mvv_lva=0)."),
    "killers": click.option("--killers", is_flag=True, help="Chess: killer moves (killers=1)."),
    "history": click.option("--history", is_flag=True, help="Chess: history heuristic (history=1)."),
    "repetition": click.option("--repetition", is_flag=True,
                 help="Chess: repetitions of the game or the path, and the fifty-move rule, "
                      "score as draws below the root (repetition=1)."),
    "null_move": click.option("--null-move", type=int, default=0, metavar="R",
                 help="Null move with reduction R, where a game can pass (chess) [default: off]."),
    "null_rule": click.option("--null-rule", type=click.Choice(["either", "both"]), default="either",
                 show_default=True, help="No null move after a null move in either / "
                                         "both of the previous two plies (both: Diepeveen's code)."),
    "check_extension": click.option("--check-extension", is_flag=True,
                           help="Extend checks by one ply, where a game knows checks (chess)."),
    **{name: click.option(flag, name, is_flag=True, help=f"Selective: {text} (docs/selective.md).")
       for name, flag, text in SELECTIVE_FLAGS},
    "refutations": click.option("--refutations", is_flag=True,
                 help="Refutation tables: each root move's refuting line from the last pass "
                      "searched first below it, where a node has no hash move (needs --id or "
                      "a driver's passes)."),
    "minimal": click.option("--minimal", is_flag=True,
                 help="Measure each tree's minimal alpha-beta tree (children perfectly reordered)."),
    "max_nodes": click.option("--max-nodes", type=int, metavar="N",
                 help="Stop a search after N nodes; it is recorded with status max-nodes."),
    "limit": click.option("--limit", type=int, metavar="N",
                 help="Only the first N problems of each problem set."),
}

EXECUTION_OPTIONS = [
    click.option("--jobs", "-j", type=int, default=1, show_default=True, metavar="N",
                 help="Worker processes (one problem per job, the largest first; results are identical)."),
    click.option("--executor", type=click.Choice(EXECUTORS), default="process", show_default=True,
                 help="Run jobs here or on a Dask cluster (pip install 'gametree-harness[dask]')."),
    click.option("--scheduler", metavar="ADDR",
                 help="Dask scheduler address [default: a local cluster of --jobs workers]."),
    click.option("--no-progress", is_flag=True, help="No progress display on stderr."),
]


def with_options(options: list[Callable[[F], F]]) -> Callable[[F], F]:
    """A decorator adding ``options`` in their order."""
    def decorate(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


problem_options = with_options([*PROBLEM_OPTIONS.values(), *EXECUTION_OPTIONS])
"""The options that say what to search and how (run, compare)."""

# tree searches one problem, here, to one depth, writes no run folder and measures no
# minimal tree: the options for anything else would do nothing, and two say less here.
tree_options = with_options([*{
    **{name: option for name, option in PROBLEM_OPTIONS.items() if name not in ("limit", "minimal")},
    "depth_text": click.option("--depth", "depth_text", metavar="N",
                               help="Depth [default: the tree's height; 3 for chess]."),
    "skip_invalid": click.option("--skip-invalid", is_flag=True,
                                 help="Skip malformed EPD lines with a warning."),
}.values()])
""":data:`PROBLEM_OPTIONS` as ``harness tree`` takes them."""


def refuse_besides_resume(ctx: click.Context, keep: set[str], source: str,
                          option: str = "--resume") -> None:
    """``option`` (``--resume``; ``compare --run``) takes everything else from ``source``:
    refuse an option typed beside it (named as typed, ``--depth``) unless its parameter name
    is in ``keep``: it would do nothing."""
    own = option.lstrip("-").replace("-", "_")
    given = [param.opts[0] for param in ctx.command.params
             if param.name not in keep | {"resume_dir", own, f"{own}_dir"}
             and param.name is not None
             and ctx.get_parameter_source(param.name) == click.core.ParameterSource.COMMANDLINE]
    if given:
        raise HarnessError(f"{option} takes {source}; drop {given[0]}")


def make_execution(options: dict[str, Any]) -> Execution:
    return Execution(options["jobs"], options["executor"], options["scheduler"])


def progress_for(options: dict[str, Any]) -> Progress | None:
    return None if options["no_progress"] else Progress(sys.stderr)


def make_config(variants: str, options: dict[str, Any]) -> ExperimentConfig:
    """An :class:`ExperimentConfig` from the values of :func:`problem_options`: the
    shortcuts (``--tree``, ``--trees``, ``--suite``) as ``GAME:SPEC`` names, then
    ``--problems``; the chess flags as every chess set's options, unless its name sets them."""
    from harness.run.plan import ExperimentConfig, parse_depths

    o = options
    profile = find_profile(o["profile"]) if o.get("profile") else None
    switches, game_options = profiled(o, profile)
    for spec in o["tree_specs"]:
        if not spec.startswith("random:"):
            raise HarnessError(f"--trees {spec!r}: not random:k=v,... (other games: --problems GAME:SPEC)")
    named = [*(f"tree:{path}" for path in o["tree_files"]), *o["tree_specs"],
             *(f"chess:{suite}" for suite in o["suites"]), *o["problems"]]
    chess_flags = [flag for flag, key in (("--killers", "killers"), ("--history", "history"),
                                          ("--repetition", "repetition"),
                                          ("--no-mvv-lva", "no_mvv_lva")) if o.get(key)]
    if chess_flags and named and not any(text.startswith("chess:") for text in named):
        what = "draws" if chess_flags == ["--repetition"] else "move ordering"
        warnings.warn(f"{', '.join(chess_flags)}: chess's {what}, and no problem of this "
                      "run is chess; it does nothing here", UserWarning, stacklevel=2)
    if switches.refutations and not switches.iterative_deepening:
        warnings.warn("--refutations learns from an earlier pass: without --id only the later "
                      "passes of aspiration and MTD drivers have one", UserWarning, stacklevel=2)
    return ExperimentConfig(
        problems=tuple(with_defaults(text, game_options) for text in named),
        variants=variants, depths=parse_depths(o["depth_text"]) if o["depth_text"] else None,
        switches=switches, measure_minimal=o["minimal"], skip_invalid=o["skip_invalid"],
        max_nodes=o["max_nodes"], limit=o["limit"], own_tables=o["own_tables"],
        profile="" if profile is None else profile.name)


SWITCH_OPTIONS = {
    "tt_size": "tt_size", "iterative": "iterative_deepening", "no_hash_move": "hash_move",
    "tt_leaves": "tt_leaves", "window_text": "window", "no_value_bounds": "value_bounds",
    "tt_narrow": "tt_narrow", "no_qsearch": "quiescence", "null_move": "null_move",
    "null_rule": "null_rule", "check_extension": "check_extension",
    **{name: f"selectivity.{name}" for name, _, _ in SELECTIVE_FLAGS},
    "refutations": "refutations",
}
"""Each option of :data:`PROBLEM_OPTIONS` that sets a :class:`Switches` field, with the
field (``selectivity.NAME``: a field of its :class:`Selectivity`): typed beside ``--profile``,
it wins over the profile's value. A new switch's option joins here (``tests/test_profiles.py``
fails on a field no option sets)."""


def typed_options() -> set[str]:
    """The parameters of the running command typed on its command line (or set from the
    environment), not left at their defaults; none outside a command."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return set()
    typed = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)
    return {name for name in ctx.params if ctx.get_parameter_source(name) in typed}


def profiled(options: dict[str, Any], profile: Profile | None,
             typed: set[str] | None = None) -> tuple[Switches, dict[str, dict[str, str]]]:
    """The frame's switches and the games' option defaults from the values of
    :data:`PROBLEM_OPTIONS` over ``profile`` (none: the frame's defaults): a switch typed
    (``typed``, by default :func:`typed_options`) wins over the profile's, and chess's
    ordering flags are added to the profile's chess options."""
    switches = make_switches(options)
    chess = {key: value for key, value, on in (("mvv_lva", "0", options.get("no_mvv_lva")),
                                               ("killers", "1", options.get("killers")),
                                               ("history", "1", options.get("history")),
                                               ("repetition", "1", options.get("repetition")))
             if on}
    if profile is None:
        return switches, {"chess": chess}
    given = typed_options() if typed is None else typed
    config = profile.configuration
    kept = {field: getattr(switches, field) for option, field in SWITCH_OPTIONS.items()
            if option in given and "." not in field}
    selective = {field.split(".")[1]: getattr(switches.selectivity, field.split(".")[1])
                 for option, field in SWITCH_OPTIONS.items() if option in given and "." in field}
    games = {game: dict(values) for game, values in config.game_options.items()}
    games["chess"] = {**games.get("chess", {}), **chess}
    chosen = replace(config.switches, **kept)
    return replace(chosen, selectivity=replace(chosen.selectivity, **selective)), games


def make_switches(options: dict[str, Any]) -> Switches:
    """The frame's :class:`Switches` from the values of :data:`PROBLEM_OPTIONS` (an option
    a command does not take is left at its default)."""
    from harness.run.plan import parse_window

    o = options
    window = o.get("window_text")
    return Switches(tt_size=o.get("tt_size", 0), iterative_deepening=o.get("iterative", False),
                    hash_move=not o.get("no_hash_move"), tt_leaves=bool(o.get("tt_leaves")),
                    window=parse_window(window) if window else None,
                    value_bounds=not o.get("no_value_bounds"),
                    tt_narrow=bool(o.get("tt_narrow")), quiescence=not o.get("no_qsearch"),
                    null_move=o.get("null_move", 0), null_rule=o.get("null_rule", "either"),
                    check_extension=bool(o.get("check_extension")),
                    refutations=bool(o.get("refutations")),
                    selectivity=Selectivity(**{name: bool(o.get(name))
                                               for name, _, _ in SELECTIVE_FLAGS}))


def with_chess_flags(text: str, options: dict[str, Any]) -> str:
    """A problem set's name with the chess flags (``--no-mvv-lva``, ``--killers``,
    ``--history``, ``--repetition``) as its options, unless it names them."""
    chess = {key: value for key, value, on in (("mvv_lva", "0", options["no_mvv_lva"]),
                                               ("killers", "1", options["killers"]),
                                               ("history", "1", options["history"]),
                                               ("repetition", "1", options.get("repetition")))
             if on}
    return with_defaults(text, {"chess": chess})


def default_out(kind: str) -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return str(Path("results") / f"{kind}-{stamp}")


def chosen_out(given: str | None) -> str | None:
    """``--out`` as given; an empty name is refused (it would fall back to the default
    folder without a word)."""
    if given == "":
        raise HarnessError("--out '': an empty name; name a path, or leave --out out for "
                           "the default")
    return given


class Terminated(KeyboardInterrupt):
    """SIGTERM (a ``kill``, a CI job cancelled, a machine shutting down), raised where
    Ctrl-C would be, so the same path saves what is done and says how to finish."""


def raise_terminated(signum: int, frame: object) -> NoReturn:
    raise Terminated


def stops_on_sigterm(command: F) -> F:
    """Run ``command`` with SIGTERM raising :class:`Terminated` (the previous handler back
    afterwards); worker processes reset it (:mod:`harness.run.executors`)."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return command(*args, **kwargs)     # only the main thread may set handlers
        previous = signal.signal(signal.SIGTERM, raise_terminated)
        try:
            return command(*args, **kwargs)
        except Terminated:                      # outside the parts that save and resume
            click.echo("\nterminated", err=True)
            sys.exit(128 + signal.SIGTERM)
        finally:
            signal.signal(signal.SIGTERM, previous)

    return wrapper  # type: ignore[return-value]


def interrupted(kept: str, finish: str) -> NoReturn:
    """Ctrl-C (exit 130) or SIGTERM (exit 143, as the signal's own exit): say what is kept
    and the command that finishes the work (no traceback). Called while handling one."""
    terminated = isinstance(sys.exc_info()[1], Terminated)
    click.echo(f"\n{'terminated' if terminated else 'interrupted'}: {kept}; finish with: {finish}",
               err=True)
    sys.exit(128 + (signal.SIGTERM if terminated else signal.SIGINT))


def run_interrupted(run_dir: str | Path, finish: str | None = None) -> NoReturn:
    from harness.results import RUN_FILE  # pandas: not for --help

    if not (Path(run_dir) / RUN_FILE).exists():     # stopped while reading its problems
        interrupted("before the first search, nothing was written", "the same command again")
    interrupted(f"every finished problem is saved in {run_dir}/results.csv",
                finish or f"harness run --resume {shlex.quote(str(run_dir))}")
