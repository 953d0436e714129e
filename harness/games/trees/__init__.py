"""Problem sources behind one small interface (:class:`harness.games.base.Tree`).

The names are imported on first use (PEP 562): the synthetic trees need numpy, which the
game registry, loaded by every ``harness`` command, should not import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.games.base import INF, Move, Tree
    from harness.games.trees.arrays import ArrayTree
    from harness.games.trees.explicit import load_tree_file, parse_tree
    from harness.games.trees.synthetic import SyntheticSpec, generate_tree, parse_spec

_HOMES = {
    "INF": "harness.games.base",
    "ArrayTree": "harness.games.trees.arrays",
    "Move": "harness.games.base",
    "SyntheticSpec": "harness.games.trees.synthetic",
    "Tree": "harness.games.base",
    "generate_tree": "harness.games.trees.synthetic",
    "load_tree_file": "harness.games.trees.explicit",
    "parse_spec": "harness.games.trees.synthetic",
    "parse_tree": "harness.games.trees.explicit",
}
"""Each public name and the module it lives in."""

__all__ = [
    "INF",
    "ArrayTree",
    "Move",
    "SyntheticSpec",
    "Tree",
    "generate_tree",
    "load_tree_file",
    "parse_spec",
    "parse_tree",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
