"""A game's self-test: walk its trees and report every inconsistency with the moves that
reproduce it (``harness check GAME:SPEC``; from a plug-in's own tests,
``assert not check_game("nim:3-4-5")``).

Each problem's tree is walked exhaustively to a small depth and along seeded random
playouts from its root. At every position stood on, every move is tried:

- ``moves`` gives the same list twice, with distinct names; ``push`` then ``pop``
  restores the key, the moves, the value (and ``child_value`` leaves the cursor where it
  is); ``reset`` puts the cursor back on the root;
- ``child_value(move)`` is the ``value()`` seen after the push: the parent's view of the
  child (the search negates it) is the child's own;
- at a position without moves, ``terminal_value()`` is that same view, ``value()``: the
  search reads a position that ends the game through ``value``/``child_value`` when the
  horizon falls on it and through ``terminal_value`` above it, so the two must agree for
  its answer not to depend on where the end falls. A tree whose horizon is a quiescence
  search (``quiesce``: chess) is exempt: VARIANTS.md evaluates a horizon leaf by its
  material there, and a mate at the horizon is not seen. (A sign wrong in all three
  views at once is a different game, not an inconsistency: no self-test can tell it.)
- every value is an integer strictly between ``-INF`` and ``INF``, and inside the
  tree's ``value_range()`` where it states one;
- two paths that reach one key reach one position: the same moves (by name, as a set:
  an order may depend on what the tree learnt), value, end, and the same text where the
  tree can show one (OpenSpiel's ``state()``). A collision is reported with both paths;
- the players alternate: where a tree declares whose turn it is (``player()``), the
  player changes with every move; elsewhere values are for the side to move and the
  relation above, a child's value read from its parent, is what the tree offers.

Then every variant (plug-ins included) searches the problem's root and positions drawn
from the playouts, without and with a transposition table, and its answer must agree with
minimax's by :func:`harness.search.agreement.disagreement` (a bound, such as Belle's
unresolved fail-high, only on the right side of the value). The first position where a
variant disagrees is reported with its path.

A table needs care: its entries are depth-preferred, so a position met again at another
distance from the root can be answered by an entry searched deeper than the depth asked
for (and, in chess, with a mate distance counted from another ply): a deeper value, not
minimax's at this depth (at depth 6, for king and queen against king,
``8/2k5/8/8/8/8/5K2/4Q3 w``, alpha-beta with a table and iterative deepening answers 993
where it answers 990 without one, minimax's value, without any bug). The frame counts such
answers (``tt_deep_cutoffs``: cutoffs by an entry searched deeper than needed), so a search
with a table (``--tt``, or one a variant brings: the MTD drivers) that has any is left out
of the comparison, and the report counts them; every other search with a table is
compared, as a run's cross-check does (:mod:`harness.report.answers`).

The walk is :mod:`harness.check.walk`, the searches :mod:`harness.check.search`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from itertools import islice

from harness.check.search import TABLE_SIZE, RootedTree, compare_searches, reach
from harness.check.walk import KINDS, Enough, Finding, Findings, Lost, Tally, Walker, path_text
from harness.errors import HarnessError
from harness.games.base import MAX_DEPTH, Problem, Tree, count_problems
from harness.games.registry import find_game, load_problems
from harness.search.registry import VariantSpec, parse_variants

__all__ = ["KINDS", "TABLE_SIZE", "CheckOptions", "CheckReport", "Finding", "RootedTree",
           "check_game", "path_text", "reach", "self_test"]


@dataclass(frozen=True)
class CheckOptions:
    """How much of a game the self-test walks and searches."""

    depth: int = 3
    """Depth of the searches compared with minimax (less where every line ends sooner)."""
    playouts: int = 20
    """Random playouts from each problem's root."""
    seed: int = 0
    """Seed of the playouts and of the positions drawn from them."""
    limit: int | None = None
    """Check only the first ``limit`` problems of the set."""
    max_findings: int = 20
    """Stop after this many findings."""
    walk_depth: int = 2
    """Plies walked exhaustively from each problem's root."""
    samples: int = 3
    """Positions drawn from the playouts of each problem (beside its root) for the searches."""
    playout_plies: int = MAX_DEPTH
    """Longest playout (chess never ends by itself: no draw by repetition is detected)."""
    variants: str = "all"
    """The variants compared with minimax (:func:`harness.search.registry.parse_variants`)."""

    def __post_init__(self) -> None:
        for name in ("depth", "max_findings", "walk_depth", "playout_plies"):
            if getattr(self, name) < 1:
                raise HarnessError(f"check: {name} must be at least 1, not {getattr(self, name)}")
        if self.depth > MAX_DEPTH:
            raise HarnessError(f"check: depth {self.depth} is deeper than the harness searches "
                               f"({MAX_DEPTH} plies)")
        for name in ("playouts", "samples"):
            if getattr(self, name) < 0:
                raise HarnessError(f"check: {name} must not be negative, not {getattr(self, name)}")


@dataclass(frozen=True)
class CheckReport:
    """What a self-test found and what it looked at."""

    spec: str
    """The problems checked, ``GAME:SPEC``."""
    findings: tuple[Finding, ...]
    """Every inconsistency found (at most :attr:`CheckOptions.max_findings`)."""
    problems: int
    """Problems checked."""
    playouts: int
    """Playouts made."""
    positions: int
    """Positions checked."""
    expanded: int
    """Positions among them from which every move was tried."""
    keys: int
    """Distinct keys among them."""
    ends: int
    """Positions without moves among them."""
    searched: int
    """Positions searched by every variant."""
    searches: int
    """Searches compared with minimax's."""
    untabled: int
    """Searches with a table not compared: a table entry searched deeper than needed
    decided them (``tt_deep_cutoffs``), so they need not answer as minimax."""
    depth: int
    """Deepest search compared."""
    variants: tuple[str, ...]
    """The variants compared with minimax."""
    ends_compared: bool
    """Whether ``terminal_value`` was compared with ``value`` (not with a quiescence search)."""
    turns: bool
    """Whether the trees declare the player to move (``player()``)."""
    stopped: bool
    """Whether the check stopped at the most findings asked for."""

    def summary(self) -> list[str]:
        """What was checked, a line per part, and the verdict."""
        ends = ("ends      terminal_value = value = child_value checked at "
                f"{self.ends:,} positions without moves" if self.ends_compared else
                f"ends      {self.ends:,} positions without moves; terminal_value not compared "
                "with value (the horizon is a quiescence search)")
        turns = ("turns     player() changes with every move" if self.turns else
                 "turns     not declared (no player()): values are for the side to move, "
                 "checked through child_value")
        table = (f"; {self.untabled:,} with a table left out (a deeper entry decided them)"
                 if self.untabled else "")
        verdict = (f"{len(self.findings)} finding{'s' * (len(self.findings) != 1)}"
                   + (" (the most asked for: the check stopped there)" if self.stopped else "")
                   if self.findings else "clean: no inconsistency found")
        return [f"checked   {self.spec}: {self.problems:,} problem{'s' * (self.problems != 1)}, "
                f"{self.playouts:,} playouts",
                f"positions {self.positions:,} checked ({self.keys:,} keys), every move tried from "
                f"{self.expanded:,} of them",
                ends, turns,
                f"searches  {self.searches:,} compared with minimax: {self.searched:,} positions "
                f"to depth {self.depth} or less, without and with a table of {TABLE_SIZE:,} "
                f"entries{table}",
                f"variants  {', '.join(self.variants)}",
                verdict]


def check_game(spec: str, *, depth: int = 3, playouts: int = 20, seed: int = 0,
               limit: int | None = None, max_findings: int = 20, walk_depth: int = 2,
               samples: int = 3, variants: str = "all") -> list[Finding]:
    """Every inconsistency the self-test finds in the problems ``GAME:SPEC`` names (empty:
    none); see :func:`self_test` and :class:`CheckOptions` for the rest."""
    options = CheckOptions(depth, playouts, seed, limit, max_findings, walk_depth, samples,
                           variants=variants)
    return list(self_test(spec, options).findings)


def self_test(spec: str, options: CheckOptions = CheckOptions()) -> CheckReport:
    """Load ``GAME:SPEC`` (bad input is a :class:`HarnessError`) and check its problems."""
    found = load_problems(spec)
    count = count_problems(found.problems, options.limit)
    problems = islice(found.problems, count)            # made as they are checked
    specs = parse_variants(options.variants)
    findings = Findings(options.max_findings)
    stats = Tally()
    stopped = False
    try:
        for number, problem in enumerate(problems):
            _check_problem(problem, number, options, specs, findings, stats)
    except Enough:
        stopped = True
    return CheckReport(spec, tuple(findings.found), count, stats.playouts,
                       stats.positions, stats.expanded, stats.keys, stats.ends, stats.searched,
                       stats.searches, stats.untabled, stats.depth, tuple(s.label for s in specs),
                       stats.ends_compared, stats.turns, stopped)


def _check_problem(problem: Problem, number: int, options: CheckOptions,
                   specs: list[VariantSpec], findings: Findings, stats: Tally) -> None:
    samples: list[tuple[str, ...]] = [()]
    try:
        walker = Walker(_tree(problem, findings), problem, findings, stats)
        walker.run(partial(walker.walk, walker.root, options.walk_depth))
        for i in range(options.playouts):
            rng = random.Random(f"{options.seed}:{number}:{i}")
            line = walker.run(partial(walker.playout, rng, options.playout_plies))
            if line and i < options.samples:
                samples.append(line[:rng.randrange(len(line)) + 1])
    except Lost:
        return                      # its searches would only repeat what was reported
    for path in samples:
        compare_searches(problem, path, options.depth, specs, findings, stats)


def _tree(problem: Problem, findings: Findings) -> Tree:
    """The problem's tree from its game; its failure to make one is a finding."""
    try:
        return find_game(problem.game).tree(problem)
    except HarnessError:
        raise
    except Exception as exc:  # the game's own failure
        findings.add("error", problem, f"tree(): {type(exc).__name__}: {exc}", ())
        raise Lost from None
