"""harness: benchmark game-tree search variants with exact counters.

The library comes first; the ``harness`` command is a thin layer over these functions.
"""

from harness.errors import HarnessError
from harness.games.registry import GAMES, find_game
from harness.results import load_results
from harness.run.experiment import run_experiment
from harness.run.plan import ExperimentConfig
from harness.search import VARIANTS, find_variant, parse_variants, run_search

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
