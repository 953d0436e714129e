"""The search variants, their shared node frame, counters, table and drivers."""

# First: it decides whether the modules imported below load compiled or from source.
from harness.search import compiled  # noqa: F401  isort: skip
from harness.search.counters import COUNTER_NAMES, Counters
from harness.search.registry import (
    CORE,
    VARIANTS,
    Variant,
    VariantSpec,
    find_variant,
    make_spec,
    parse_variants,
)
from harness.search.run import SearchResult, Switches, run_search

__all__ = [
    "CORE",
    "COUNTER_NAMES",
    "VARIANTS",
    "Counters",
    "SearchResult",
    "Switches",
    "Variant",
    "VariantSpec",
    "find_variant",
    "make_spec",
    "parse_variants",
    "run_search",
]
