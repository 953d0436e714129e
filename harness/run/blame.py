"""An exception raised in a plug-in's code, as one line naming the plug-in.

A game's tree or a variant's loop that raises (or hands the frame something it cannot use:
a key that cannot be hashed, a loop that returns no triple) is the plug-in author's bug,
not the harness's: the command line says which package, game or variant and method, in
one line with exit code 2, and what a run already wrote stays (``--resume`` finishes it).
An exception in the harness's own code with only built-in games and variants involved is
the harness's bug and keeps its traceback.

The exception is caught around one problem's job (or one planning step), never per node:
the search pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from traceback import walk_tb

from harness.errors import HarnessError
from harness.games.base import Game, Problem, Tree
from harness.games.registry import PLUGIN_GROUP as GAME_GROUP
from harness.plugins import BUILT_IN, Culprit, find_culprit, plugin_modules
from harness.search.registry import PLUGIN_GROUP as VARIANT_GROUP
from harness.search.registry import Variant


class PluginError(HarnessError):
    """A plug-in's code raised: one line naming its package, its game or variant and the
    method (a :class:`HarnessError`, so the command line prints it and exits with code 2)."""


@dataclass
class Running:
    """What a job is doing, updated as it goes, so that an exception can be laid at the
    right plug-in's door."""

    game: Game
    """The game whose problem it is."""
    problem: Problem | None = None
    """The problem, once there is one (not while a spec is loaded)."""
    tree: Tree | None = None
    """The problem's tree, once made."""
    variant: Variant | None = None
    """The variant searching, while one does."""
    depth: int | None = None
    """The depth it searches to, while one does."""

    def context(self) -> str:
        """``nim:3-4-5 with alphabeta to depth 3``, as far as known."""
        text = ""
        if self.problem is not None:
            problem = self.problem
            text = (problem.suite if problem.suite.startswith(f"{problem.game}:")
                    else f"{problem.game}:{problem.suite}")     # random's names say it
            if problem.problem_id != problem.suite:
                text += f" {problem.problem_id}"
        if self.variant is not None:
            text += f" with {self.variant.name}"
        if self.depth is not None:
            text += f" to depth {self.depth}"
        return text.strip()


@contextmanager
def blamed(running: Running) -> Iterator[Running]:
    """Run the block; an exception from a plug-in's code leaves it as a :class:`PluginError`
    (see :func:`plugin_error`). Input errors, recursion too deep and memory exhaustion
    pass as they are: the command line words them itself."""
    try:
        yield running
    except (HarnessError, RecursionError, MemoryError):
        raise
    except Exception as exc:
        error = plugin_error(exc, running)
        if error is None:
            raise
        raise error from None


def _who(record: Game | Variant) -> str:
    kind = "game" if isinstance(record, Game) else "variant"
    return f"{kind} {record.name} (package {record.origin})"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def plugin_error(exc: Exception, running: Running) -> PluginError | None:
    """``exc`` as one line naming the plug-in to blame, or ``None`` when it is the harness's
    own bug (no plug-in's code raised it, and no plug-in was involved)."""
    groups = (GAME_GROUP, VARIANT_GROUP)
    culprit = find_culprit(exc.__traceback__, plugin_modules(groups))
    context = running.context()
    during = f"; while searching {context}" if running.variant is not None else (
        f"; on {context}" if context else "")
    if culprit is not None:
        record = _record(culprit, running)
        who = _who(record) if record is not None else f"package {culprit.package}"
        return PluginError(f"{who}: {culprit.function} raised {_one_line(exc)} "
                           f"({culprit.where}{during})")
    involved = [r for r in (running.game, running.variant) if r is not None and r.origin != BUILT_IN]
    if not involved:
        return None
    key = _unhashable_key(running)
    if key is not None and running.game in involved:
        return PluginError(f"{_who(running.game)}: {type(running.tree).__qualname__}.key returned "
                           f"{key}, which cannot be hashed (keys index the transposition table: "
                           f"ints, or tuples of ints){during}")
    frames = [f"{frame.f_globals.get('__name__')}.{frame.f_code.co_name}"
              for frame, _ in walk_tb(exc.__traceback__)]
    where = f" in {frames[-1]}" if frames else ""       # the harness's: no plug-in's is there
    return PluginError(f"{' or '.join(_who(r) for r in involved)}: the harness failed{where} on "
                       f"what the plug-in returned: {_one_line(exc)}{during}")


def _record(culprit: Culprit, running: Running) -> Game | Variant | None:
    """The job's game or variant that comes from the culprit's package; when both do, the
    game if the culprit is a method of its tree or of itself."""
    mine = [r for r in (running.game, running.variant) if r is not None and r.origin == culprit.package]
    if len(mine) == 2 and not any(culprit.receiver is r for r in (running.tree, running.game)):
        return mine[1]
    return mine[0] if mine else None


def _unhashable_key(running: Running) -> str | None:
    """What the tree's ``key`` returns where the cursor stopped (the node the search failed
    at: nothing was popped), by its type's name, when that cannot be hashed."""
    if running.tree is None:
        return None
    try:
        key = running.tree.key()
    except Exception:
        return None
    try:
        hash(key)
    except TypeError:
        return f"a {type(key).__name__}"
    return None
