"""The synthetic and explicit trees as games: ``random:b=8,d=6,n=20`` and ``tree:FILE.json``.

The synthetic trees (numpy) are imported when a random tree is first read, not with the
game registry."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from harness.errors import HarnessError
from harness.games.base import Game, Problem, ProblemSet, ProblemStream, Tree, check_default_depth
from harness.games.trees.explicit import load_tree_file
from harness.games.trees.knobs import ORDERINGS, VALUE_MODELS, listing
from harness.options import Option, OptionValue, text

if TYPE_CHECKING:
    from harness.games.trees.synthetic import SyntheticSpec


class RandomTrees(Game):
    """Seeded random trees (see :mod:`harness.games.trees.synthetic`)."""

    name = "random"
    spec = "b=B,d=D[,n=N,seed=S,ordering=P,values=MODEL,range=R] (all options)"
    description = ("synthetic trees, a pure function of the spec: uniform or ranged branching, "
                   "controlled move ordering, uniform or incremental values")
    source = "built in (counter-based splitmix64: the same trees on every machine)"
    options: ClassVar[Mapping[str, Option]] = {
        "b": Option("", "branching: B, or LO-HI drawn per node (required)"),
        "d": Option("", "depth of every leaf, the depth searched by default (required)"),
        "n": Option("1", "number of trees"),
        "seed": Option("0", "seed of the trees"),
        "ordering": Option("random", "the probability that the best child comes first, or "
                           + listing(ORDERINGS)),
        "values": Option("uniform", listing(VALUE_MODELS)),
        "range": Option("1000", "values in [-R, R], or LO:HI"),
    }

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        given = ",".join(f"{k}={text(v)}" for k, v in options if v != "")
        if spec:
            raise HarnessError(f"random:{spec}: {spec.split(',')[0]!r} is not key=value "
                               f"(random trees are all options: {', '.join(self.options)})")
        parsed = _spec(f"random:{given}")
        canonical = str(parsed)
        def tree_number(i: int) -> Problem:
            return Problem(self.name, canonical, str(i), canonical, i, options,
                           default_depth=parsed.depth)

        # Made as they are reached: n=100000000 costs no more memory than n=1.
        problems = ProblemStream(lambda: map(tree_number, range(parsed.count)), parsed.count,
                                 tree_number)
        return ProblemSet(canonical, problems)

    def tree(self, problem: Problem) -> Tree:
        from harness.games.trees.synthetic import generate_tree

        return generate_tree(_spec(problem.source), problem.index)

    def work(self, problem: Problem) -> float:
        """The trees' expected number of nodes (without generating them)."""
        spec = _spec(problem.source)
        branching = sum(spec.branching) / 2
        return float(sum(branching ** ply for ply in range(spec.depth + 1)))

    def check(self, problems: ProblemSet, depths: tuple[int, ...] | None) -> None:
        height = problems.problems[0].default_depth
        check_default_depth(f"{problems.name}: d={height:,}, the trees' height,", height, depths)


class TreeFile(Game):
    """A tree written out as JSON (see :mod:`harness.games.trees.explicit`)."""

    name = "tree"
    spec = "FILE.json"
    description = ("an explicit tree: a JSON nested list of leaf values, or objects with a "
                   "value and children")
    source = "your file"

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        tree = load_tree_file(spec)
        shape = tree.shape
        problem = Problem(self.name, Path(spec).name, Path(spec).stem, spec, 0, options,
                          default_depth=shape.height, size=float(shape.nodes))
        return ProblemSet(problem.suite, [problem], {"path": spec, "height": shape.height})

    def tree(self, problem: Problem) -> Tree:
        return load_tree_file(problem.source)

    def check(self, problems: ProblemSet, depths: tuple[int, ...] | None) -> None:
        problem = problems.problems[0]
        check_default_depth(f"{problem.source}: the tree's height, {problem.default_depth:,},",
                            problem.default_depth, depths)
        valueless = load_tree_file(problem.source).shape.valueless_plies
        for depth in problem.depths(depths):
            if depth in valueless:
                raise HarnessError(
                    f"{problem.source}: depth {depth} puts the horizon on interior nodes without "
                    f"a value (search to depth >= {problem.default_depth}, or give them one: "
                    '{"value": V, "children": [...]})')


@lru_cache(maxsize=64)
def _spec(spec_text: str) -> SyntheticSpec:
    from harness.games.trees.synthetic import parse_spec

    return parse_spec(spec_text)
