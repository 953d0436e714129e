"""Problem sources behind one small interface (:class:`harness.trees.base.Tree`)."""

from harness.trees.arrays import ArrayTree
from harness.trees.base import INF, Move, Tree
from harness.trees.explicit import load_tree_file, parse_tree
from harness.trees.synthetic import SyntheticSpec, generate_tree, parse_spec

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
