"""Problems: what a run searches, described by value so jobs can travel to other processes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from harness.errors import HarnessError
from harness.trees.arrays import ArrayTree
from harness.trees.explicit import load_tree_file
from harness.trees.synthetic import SyntheticSpec, generate_tree, parse_spec


@dataclass(frozen=True)
class Problem:
    """One tree to search."""

    suite: str
    """The set it belongs to: a tree file's name, or a synthetic spec."""
    problem_id: str
    """Its id within the suite."""
    kind: str
    """``tree`` (a JSON file) or ``synthetic`` (a spec)."""
    source: str
    """The file path or the spec text."""
    index: int = 0
    """The tree's index within a synthetic set."""

    def make_tree(self) -> ArrayTree:
        """Build (or load) the tree, cursor at the root."""
        if self.kind == "tree":
            return load_tree_file(self.source)
        return generate_tree(_spec(self.source), self.index)


@lru_cache(maxsize=64)
def _spec(text: str) -> SyntheticSpec:
    return parse_spec(text)


def tree_file_problems(path: str) -> list[Problem]:
    """The problem of one JSON tree file (loaded now, so errors surface before any search)."""
    load_tree_file(path)
    name = Path(path).name
    return [Problem(name, Path(path).stem, "tree", path)]


def synthetic_problems(text: str) -> list[Problem]:
    """The problems of one synthetic spec, one per tree."""
    spec = parse_spec(text)
    canonical = str(spec)
    return [Problem(canonical, str(i), "synthetic", canonical, i) for i in range(spec.count)]


def parse_depths(text: str) -> tuple[int, ...]:
    """``N`` or ``A-B`` (inclusive) as a tuple of depths."""
    lo, sep, hi = text.partition("-")
    try:
        first = int(lo)
        last = int(hi) if sep else first
    except ValueError:
        raise HarnessError(f"depth {text!r} is not N or A-B") from None
    if first > last:
        raise HarnessError(f"depth range {text!r} is empty")
    return tuple(range(first, last + 1))
