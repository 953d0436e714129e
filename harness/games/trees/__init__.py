"""Problem sources behind one small interface (:class:`harness.games.base.Tree`)."""

from harness.games.base import INF, Move, Tree
from harness.games.trees.arrays import ArrayTree
from harness.games.trees.explicit import load_tree_file, parse_tree
from harness.games.trees.synthetic import SyntheticSpec, generate_tree, parse_spec

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
