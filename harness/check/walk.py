"""The self-test's walk of one tree (:mod:`harness.check.game`): every position stood
on is checked, and every move from it tried, each inconsistency recorded as a
:class:`Finding` with the moves that reproduce it."""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from harness.errors import HarnessError
from harness.games.base import INF, Move, Problem, Tree

KINDS = {
    "moves": "moves() differs between calls, or two moves share a name",
    "push-pop": "push then pop (or child_value) does not restore the position",
    "reset": "reset() does not put the cursor back on the root",
    "child-value": "child_value(move) is not the value seen after the push",
    "end": "terminal_value() is not value() at a position without moves",
    "range": "a value is not an integer inside (-INF, INF) and the tree's value_range()",
    "key": "two different positions share a key",
    "turns": "the player to move does not change with a move",
    "search": "a variant's answer disagrees with minimax's",
    "error": "a tree method raised an exception",
}
"""What a finding can be about, by its ``kind``."""


@dataclass(frozen=True)
class Finding:
    """One inconsistency and the moves that reproduce it."""

    kind: str
    """What failed (a key of :data:`KINDS`)."""
    problem: str
    """The problem it was found on: its game, set and id (:func:`problem_label`)."""
    message: str
    """What was seen, in one line."""
    paths: tuple[tuple[str, ...], ...]
    """The move paths from the problem's root, by the tree's move names: one, or the two
    that reach a shared key."""

    def __str__(self) -> str:
        where = " and ".join(path_text(path) for path in self.paths)
        return f"{self.problem}: {self.kind}: {self.message} ({where})"


def problem_label(problem: Problem) -> str:
    """``connect4:start,width=4 start``: the game, the set and the problem's id."""
    return f"{problem.game}:{problem.suite} {problem.problem_id}"


def path_text(path: Sequence[str]) -> str:
    """``at the root``, or ``after 4 4 3``: the moves from the root."""
    return f"after {' '.join(path)}" if path else "at the root"


class Enough(Exception):
    """The findings reached the most asked for."""


class Lost(Exception):
    """The cursor is no longer where the walk believes (reported): stop this tree."""


@dataclass
class Tally:
    """What the self-test has looked at so far (see :class:`harness.check.game.CheckReport`)."""

    playouts: int = 0
    """Playouts made."""
    positions: int = 0
    """Positions checked."""
    expanded: int = 0
    """Positions among them from which every move was tried."""
    keys: int = 0
    """Distinct keys among them."""
    ends: int = 0
    """Positions without moves among them."""
    searched: int = 0
    """Positions every variant searched."""
    searches: int = 0
    """Searches compared with minimax's."""
    untabled: int = 0
    """Searches with a table not compared: a deeper table entry decided them."""
    depth: int = 0
    """Deepest search compared."""
    ends_compared: bool = True
    """Whether every tree's terminal_value was compared with its value."""
    turns: bool = False
    """Whether the trees declare the player to move."""


class Findings:
    """The findings so far: each variant's first disagreement only, up to a cap."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.found: list[Finding] = []
        self.disagreed: set[tuple[str, bool]] = set()

    def add(self, kind: str, problem: Problem, message: str, *paths: Sequence[str]) -> None:
        self.found.append(Finding(kind, problem_label(problem), message,
                                  tuple(tuple(p) for p in paths)))
        if len(self.found) >= self.most:
            raise Enough


@dataclass(frozen=True)
class _Node:
    """What the walk saw at a position: compared with what it sees there again."""

    key: Hashable
    moves: list[Move]
    names: list[str]
    value: int
    player: Hashable


@dataclass(frozen=True)
class _Look:
    """What two paths reaching one key must both see."""

    moves: tuple[str, ...]
    value: int
    end: bool
    text: str | None


class Walker:
    """One problem's tree, walked from its root with every move tried at each position
    stood on; :attr:`path` is where the cursor is, by move names."""

    def __init__(self, tree: Tree, problem: Problem, findings: Findings, stats: Tally) -> None:
        self.tree = tree
        self.problem = problem
        self.findings = findings
        self.stats = stats
        self.path: list[str] = []
        self.seen: dict[Hashable, tuple[tuple[str, ...], _Look]] = {}
        """What was seen at each key, and the first path that reached it."""
        self.value_range: Callable[[], tuple[int, int]] | None = getattr(tree, "value_range", None)
        self.player: Callable[[], Hashable] | None = getattr(tree, "player", None)
        state: Callable[[], Any] | None = getattr(tree, "state", None)     # OpenSpiel's
        self.text: Callable[[], str] | None = None if state is None else lambda: str(state())
        self.exact_ends = not callable(getattr(tree, "quiesce", None))
        stats.ends_compared &= self.exact_ends
        stats.turns = self.player is not None
        self.root: _Node = self.run(self.visit)

    def run(self, step: Callable[[], Any]) -> Any:
        """``step()``, an exception from the tree reported (with the path) as a finding."""
        try:
            return step()
        except (HarnessError, Enough, Lost):
            raise
        except Exception as exc:  # the tree's own failure: reported, never ours to raise
            self.report("error", f"{_called(exc)}() raised {type(exc).__name__}: {exc}")
            raise Lost from None

    def report(self, kind: str, message: str, *others: Sequence[str]) -> None:
        """A finding at the cursor's position (after ``others``, the paths it shares it with)."""
        self.findings.add(kind, self.problem, message, *others, self.path)

    def visit(self) -> _Node:
        """Check the position the cursor stands on (not its moves)."""
        tree = self.tree
        self.stats.positions += 1
        moves = list(tree.moves())
        again = list(tree.moves())
        names = [tree.move_name(m) for m in moves]
        if again != moves:
            self.report("moves", f"moves() gave {_names(names)}, then "
                        f"{_names([tree.move_name(m) for m in again])}")
        if len(set(names)) < len(names):
            twice = next(n for n in names if names.count(n) > 1)
            self.report("moves", f"two moves are named {twice!r}")
        value = tree.value()
        self.check_value("value()", value)
        if not moves:
            self.stats.ends += 1
            end = tree.terminal_value()
            self.check_value("terminal_value()", end)
            if self.exact_ends and end != value:
                self.report("end", f"terminal_value() is {end} but value() is {value} at a "
                            "position without moves")
        node = _Node(tree.key(), moves, names, value, None if self.player is None else self.player())
        self.remember(node)
        return node

    def check_value(self, what: str, value: object) -> None:
        """``value`` (``what`` gave it, at the cursor) is an integer inside the bounds."""
        if isinstance(value, bool) or not isinstance(value, int) or not -INF < value < INF:
            self.report("range", f"{what} is {value!r}, not an integer strictly between "
                        f"-{INF:,} and {INF:,}")
        elif self.value_range is not None:
            low, high = self.value_range()
            if not low <= value <= high:
                self.report("range", f"{what} is {value}, outside value_range() ({low}, {high})")

    def remember(self, node: _Node) -> None:
        """Compare the position with the first one seen under its key."""
        look = _Look(tuple(sorted(node.names)), node.value, not node.moves,
                     None if self.text is None else self.text())
        known = self.seen.get(node.key)
        if known is None:
            self.seen[node.key] = (tuple(self.path), look)
            self.stats.keys += 1
            return
        path, before = known
        if before != look:
            differ = [what for what, a, b in (("moves", before.moves, look.moves),
                                              ("value", before.value, look.value),
                                              ("end", before.end, look.end),
                                              ("text", before.text, look.text)) if a != b]
            self.report("key", f"two positions share key {reprlib.repr(node.key)}: different "
                        f"{' and '.join(differ)}", path)
            self.seen[node.key] = (tuple(self.path), look)     # reported once per pair

    def children(self, node: _Node) -> list[_Node]:
        """Try every move from the position: each child checked, the position restored."""
        tree = self.tree
        self.stats.expanded += 1
        found = []
        for move, name in zip(node.moves, node.names, strict=True):
            seen = tree.child_value(move)
            self.check_restored(node, f"child_value({name})")
            self.path.append(name)
            tree.push(move)
            child = self.visit()
            if seen != child.value:
                self.report("child-value", f"child_value({name}) at the parent is {seen} but "
                            f"value() after the push is {child.value}")
            if self.player is not None and child.player == node.player:
                self.report("turns", f"player() is {node.player!r} before and after {name}")
            self.back(node, name)
            found.append(child)
        return found

    def back(self, node: _Node, name: str) -> None:
        """Pop the move ``name`` and check the position ``node`` is back."""
        self.tree.pop()
        self.path.pop()
        self.check_restored(node, f"push({name}) then pop()")

    def check_restored(self, node: _Node, after: str) -> None:
        """Report the position ``node`` (the cursor's) not being back ``after`` a step, and
        stop walking: the walk no longer knows where the cursor is."""
        tree = self.tree
        now = (tree.key(), list(tree.moves()), tree.value())
        changed = [what for what, a, b in (("key", node.key, now[0]), ("moves", node.moves, now[1]),
                                           ("value", node.value, now[2])) if a != b]
        if changed:
            self.report("push-pop", f"after {after} the {' and '.join(changed)} changed")
            raise Lost

    def walk(self, node: _Node, depth: int) -> None:
        """Every position up to ``depth`` plies below ``node`` (the cursor's), every move
        from those above the last ply tried."""
        kids = self.children(node)
        if depth <= 1:
            return
        for move, name, child in zip(node.moves, node.names, kids, strict=True):
            if child.moves:
                self.path.append(name)
                self.tree.push(move)
                self.walk(child, depth - 1)
                self.back(node, name)

    def playout(self, rng: random.Random, plies: int) -> list[str]:
        """A random line from the root, at most ``plies`` long, every move tried on the way;
        the cursor then put back by ``reset``. Returns the line's moves, without the last
        when it ended the game: each of its beginnings leads to a position with moves."""
        node = self.root
        line: list[str] = []
        while node.moves and len(line) < plies:
            kids = self.children(node)
            pick = rng.randrange(len(node.moves))
            self.tree.push(node.moves[pick])
            self.path.append(node.names[pick])
            line.append(node.names[pick])
            node = kids[pick]
        self.stats.playouts += 1
        self.tree.reset()
        self.path.clear()
        root = self.root
        if (self.tree.key(), list(self.tree.moves()), self.tree.value()) != (root.key, root.moves,
                                                                             root.value):
            self.findings.add("reset", self.problem, "reset() after this line did not bring "
                              "back the root's key, moves and value", line)
            raise Lost
        return line[:-1] if not node.moves else line


def _names(names: Sequence[str]) -> str:
    shown = " ".join(names[:12])
    return f"[{shown}{' ...' if len(names) > 12 else ''}]"


def _called(exc: BaseException) -> str:
    """The name of the tree's method the walk called when ``exc`` was raised: the first
    frame of its traceback outside this module."""
    frame = exc.__traceback__
    while frame is not None and frame.tb_frame.f_code.co_filename == __file__:
        frame = frame.tb_next
    return "?" if frame is None else frame.tb_frame.f_code.co_name
