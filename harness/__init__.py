"""harness: benchmark game-tree search variants with exact counters.

The library comes first; the ``harness`` command is a thin layer over these functions.

The names below are imported on first use (PEP 562), not with the package: ``import
harness.cli`` for ``harness --help`` must not pay for pandas, matplotlib and the games.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from harness.moved import install as _install_former_homes

if TYPE_CHECKING:
    from harness.errors import HarnessError
    from harness.games.registry import GAMES, find_game
    from harness.results import load_results
    from harness.run.experiment import run_experiment
    from harness.run.plan import ExperimentConfig
    from harness.search import VARIANTS, find_variant, parse_variants, run_search

_HOMES = {
    "GAMES": "harness.games.registry",
    "VARIANTS": "harness.search",
    "ExperimentConfig": "harness.run.plan",
    "HarnessError": "harness.errors",
    "find_game": "harness.games.registry",
    "find_variant": "harness.search",
    "load_results": "harness.results",
    "parse_variants": "harness.search",
    "run_experiment": "harness.run.experiment",
    "run_search": "harness.search",
}
"""Each public name and the module it lives in."""

__all__ = [
    "GAMES",
    "VARIANTS",
    "ExperimentConfig",
    "HarnessError",
    "find_game",
    "find_variant",
    "load_results",
    "parse_variants",
    "run_experiment",
    "run_search",
]

__version__ = "0.1.0"

_install_former_homes()      # modules that moved, under their former names (harness.moved)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value                     # the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
