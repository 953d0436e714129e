"""Options given in a name (``pvs:zw_min_depth=3``, ``chess:wac.epd,killers=1``): what a
variant or a game declares it takes, and the reading of one typed value.

Below everything else (it imports only :mod:`harness.errors`): the variant registry and
every game use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from harness.errors import HarnessError

OptionValue = int | bool | str
"""An option's value; the type of its default is its type."""
Options = Mapping[str, OptionValue]


@dataclass(frozen=True)
class Option:
    """One option a variant or a game takes in its name."""

    default: OptionValue
    """The value when the option is not given; its type is the option's type."""
    help: str
    """What the option does."""
    choices: tuple[str, ...] = ()
    """The allowed values of a text option (empty: any)."""
    minimum: int | None = None
    """The least allowed value of an integer option."""


def coerce(where: str, raw: str, option: Option) -> OptionValue:
    """``raw`` read as ``option``'s type; ``where`` (``variant 'pvs': option k='x'``) starts
    the one-line error."""
    if isinstance(option.default, bool):
        lowered = raw.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise HarnessError(f"{where} is not a boolean (1/0, true/false)")
    if isinstance(option.default, int):
        try:
            number = int(raw)
        except ValueError:
            raise HarnessError(f"{where} is not an integer") from None
        if option.minimum is not None and number < option.minimum:
            raise HarnessError(f"{where} must be at least {option.minimum}")
        return number
    if option.choices and raw not in option.choices:
        raise HarnessError(f"{where} is not one of: {', '.join(option.choices)}")
    return raw


def resolve(owner: str, declared: Mapping[str, Option],
            given: Mapping[str, str]) -> tuple[tuple[str, OptionValue], ...]:
    """Every option of ``declared`` (defaults included, in declared order) with the texts
    ``given`` read; an unknown key is one line naming ``owner`` and the valid keys."""
    values = {k: option.default for k, option in declared.items()}
    for key, raw in given.items():
        if key not in declared:
            valid = ", ".join(declared) or "none"
            raise HarnessError(f"{owner}: unknown option {key!r} (valid: {valid})")
        values[key] = coerce(f"{owner}: option {key}={raw!r}", raw, declared[key])
    return tuple(values.items())


def text(value: OptionValue) -> str:
    """A value as it is written in a name: booleans as 1/0."""
    return str(int(value)) if isinstance(value, bool) else str(value)
