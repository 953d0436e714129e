"""``harness uci``: the harness as a UCI chess engine on standard input and output, for a
GUI (cutechess, Arena) or python-chess (the library: :mod:`harness.uci`).

The engine's options are the command's: the variant, the profile, and every switch
``harness match`` takes, each a UCI option named as its flag (``--null-move`` is ``null-move``);
the command line sets their starting values, ``setoption`` changes them, and both are
checked by the code that checks ``harness run``'s flags (docs/uci.md)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

import click

from harness.cli_match import SWITCHES
from harness.command_line import (
    PROBLEM_OPTIONS,
    OneLineUsage,
    profiled,
    reports_errors,
    with_options,
)

if TYPE_CHECKING:
    from harness.uci.protocol import UciOption
    from harness.uci.server import Setup

UCI_SWITCHES = tuple(name for name in SWITCHES if name != "repetition")
"""The switches as flags of the command; ``repetition`` is an option only (on by default:
a GUI sends the game's moves so that repetitions are seen)."""
TABLE_MOST = 1 << 24
"""The largest ``tt`` a GUI may set: 16 M entries, 512 MB in the compiled frame."""
NULL_MOVE_MOST = 8
"""The largest null-move reduction a GUI may set (R is 2 or 3 in the literature)."""
CHESS_FLAGS = (("killers", "killers", "1", "0"), ("history", "history", "1", "0"),
               ("no_mvv_lva", "mvv_lva", "0", "1"))
"""Chess's ordering flags: each parameter, the chess option it sets, its value on and off
(an option set off beside a profile turns the profile's off, as a flag cannot)."""


def _parameter(name: str) -> click.Option:
    """The click option ``harness run`` declares for the parameter ``name``."""
    def holder() -> None:
        """Only a place for the decorator to leave its option."""

    PROBLEM_OPTIONS[name](holder)
    params: list[click.Option] = holder.__click_params__  # type: ignore[attr-defined]
    return params[-1]


@click.command(cls=OneLineUsage)
@click.option("--variant", default="pvs", show_default=True, metavar="V",
              help="The variant that searches, with its options (pvs:zw_min_depth=3).")
@click.option("--profile", metavar="NAME",
              help="A search profile (classic, modern); a switch typed beside it wins.")
@click.option("--repetition/--no-repetition", default=True, show_default=True,
              help="Draws by repetition of the game's moves (and the fifty-move rule) seen.")
@with_options([PROBLEM_OPTIONS[name] for name in UCI_SWITCHES])
@click.pass_context
@reports_errors
def uci(ctx: click.Context, /, variant: str, profile: str | None, repetition: bool,
        **options: Any) -> None:
    """Speak UCI on standard input and output: a GUI (cutechess, Arena) or python-chess
    plays with the harness's search. Each move is an iterative-deepening search as in
    harness match; `info` lines report each depth, `info string` lines the harness's counters.
    See docs/uci.md."""
    from harness import __version__
    from harness.errors import HarnessError
    from harness.uci.protocol import UciInputError
    from harness.uci.server import Engine, UciServer

    declared = uci_options(variant)
    typed = {name for name in options
             if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE}
    defaults = {"variant": variant, "profile": profile or "none",
                "repetition": _text(repetition)}
    given = {"variant", "repetition"} | ({"profile"} if profile else set())
    for name in UCI_SWITCHES:
        option_name = _uci_name(name)
        defaults[option_name] = _text(options[name])
        if name in typed:
            given.add(option_name)
    for option in declared:                     # the command line within the options' ranges
        try:
            option.checked(defaults[option.name])
        except UciInputError as exc:
            flag = "--" + option.name
            raise HarnessError(f"{flag}: {str(exc).partition(': ')[2]}") from None
    configure = configuration(declared)
    engine = Engine(f"harness {__version__}", "the harness's authors", declared, defaults,
                    frozenset(given), configure)
    configure(defaults, frozenset(given))       # a bad command line: one line, exit 2
    signal.signal(signal.SIGTERM, _terminated)     # the worker is closed on the way out
    try:
        UciServer(engine, sys.stdout).run(sys.stdin.fileno())
    except KeyboardInterrupt:
        sys.exit(128 + signal.SIGINT)


def _terminated(signum: int, frame: object) -> NoReturn:
    sys.exit(128 + signal.SIGTERM)


def _uci_name(parameter: str) -> str:
    """The UCI option of a parameter: its flag without dashes (``--null-move``:
    ``null-move``)."""
    return _parameter(parameter).opts[0].lstrip("-")


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def uci_options(variant: str) -> tuple[UciOption, ...]:
    """Every UCI option: the variant, the profile, repetition, then each switch."""
    from harness.run.profiles import PROFILES
    from harness.search.registry import VARIANTS
    from harness.uci.protocol import UciOption

    names = tuple(v.name for v in VARIANTS)
    found: list[UciOption] = [
        UciOption("variant", "combo", variant,
                  choices=names if variant in names else (variant, *names),
                  about="the variant that searches"),
        UciOption("profile", "combo", "none", choices=("none", *(p.name for p in PROFILES)),
                  about="a search profile; a switch set beside it wins"),
        UciOption("repetition", "check", "true",
                  about="repetitions of the game's moves and the fifty-move rule score 0"),
    ]
    for name in UCI_SWITCHES:
        parameter = _parameter(name)
        option_name, about = _uci_name(name), (parameter.help or "").split(" [")[0]
        if parameter.is_flag:
            found.append(UciOption(option_name, "check", "false", about=about))
        elif isinstance(parameter.type, click.Choice):
            found.append(UciOption(option_name, "combo", str(parameter.default),
                                   choices=tuple(str(c) for c in parameter.type.choices),
                                   about=about))
        else:
            most = TABLE_MOST if name == "tt_size" else NULL_MOVE_MOST
            found.append(UciOption(option_name, "spin", str(parameter.default), 0, most,
                                   about=about))
    return tuple(found)


def configuration(declared: tuple[UciOption, ...]
                  ) -> Callable[[Mapping[str, str], frozenset[str]], Setup]:
    """The function that makes a :class:`harness.uci.server.Setup` of the options' values
    (and the names of those set, by the command line or ``setoption``, which win over the
    profile), checked as ``harness run`` checks its flags."""
    from harness.errors import HarnessError
    from harness.match.play import make_side
    from harness.run.profiles import find_profile
    from harness.uci.server import Setup

    kinds = {option.name: option.kind for option in declared}

    def configure(values: Mapping[str, str], given: frozenset[str]) -> Setup:
        options: dict[str, Any] = {}
        for name in UCI_SWITCHES:
            text, kind = values[_uci_name(name)], kinds[_uci_name(name)]
            options[name] = (text == "true" if kind == "check"
                             else int(text) if kind == "spin" else text)
        typed = {name for name in UCI_SWITCHES if _uci_name(name) in given}
        profile = None if values["profile"] == "none" else find_profile(values["profile"])
        switches, games = profiled(options, profile, typed)
        if (switches.tt_leaves or switches.tt_narrow) and not switches.tt_size:
            flag = "tt-leaves" if switches.tt_leaves else "tt-narrow"
            raise HarnessError(f"{flag} needs a table: set tt to a size")
        chess = dict(games.get("chess", {}))
        for parameter, key, on, off in CHESS_FLAGS:
            if parameter in typed:
                chess[key] = on if options[parameter] else off
        chess["repetition"] = "1" if values["repetition"] == "true" else "0"
        side = make_side(values["variant"], switches, "" if profile is None else profile.name)
        return Setup(side, tuple(chess.items()))

    return configure
