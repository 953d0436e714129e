"""The per-node methods of an OpenSpiel tree: ``moves``, ``push``, ``value``,
``terminal_value`` and ``child_value`` over the tree's stack of states, in Python or compiled.

The search frame calls them once or more at every node, and as Python methods around
pyspiel's calls they cost about as much as the calls themselves. ``_cursor.c``,
built when the package is installed where a C compiler is found, makes the same calls in
the same order from C for games whose players alternate (every action passes the turn);
:class:`PythonCursor` is the reference and serves every game
(``tests/test_openspiel_cursor.py`` compares searches node for node). A build without a
compiler, and ``HARNESS_PURE_PYTHON`` set in the environment (as for the search core,
:mod:`harness.search.compiled`), run the Python cursor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from harness.errors import HarnessError
from harness.games.base import INF, Move
from harness.games.builds import OptionalBuild

StateEvaluation = Callable[[Any], int]
"""A static evaluation of a non-terminal ``pyspiel.State`` for its player to move, in the
units of the scaled returns."""


BUILD = OptionalBuild("openspiel", "harness.games.openspiel._cursor", what="the compiled cursor")
"""The compiled cursor's module, and whether it runs."""
compiled_in_use = BUILD.in_use
"""Whether trees of alternating games use the compiled cursor in this process: what
``run.json`` records."""


def after(state: Any, move: Move) -> Any:
    """The state ``move`` (an action or a tuple of them) leads to from ``state``."""
    for action in move if isinstance(move, tuple) else (move,):
        state = state.child(action)
    return state


def complete_moves(state: Any) -> dict[Move, Any]:
    """The moves of the player to move at ``state``, each with the state it leads to, in
    OpenSpiel's order: an action after which another player moves or the game ends (the
    action itself), and every sequence of actions the player makes in a row to that point
    (a tuple: checkers' multiple jumps, a dots-and-boxes chain, a mancala extra turn).
    Two sequences are two moves even when they end in the same position."""
    player = state.current_player()
    moves: dict[Move, Any] = {}

    def follow(current: Any, line: tuple[int, ...]) -> None:
        for action in current.legal_actions():
            child = current.child(action)
            if child.current_player() == player:
                follow(child, (*line, action))
            else:
                moves[(*line, action) if line else action] = child

    follow(state, ())
    return moves


class Cursor(Protocol):
    """What a tree takes from its cursor (see :class:`harness.games.base.Tree`)."""

    def moves(self) -> Sequence[Move]: ...

    def push(self, move: Move) -> None: ...

    def value(self) -> int: ...

    def terminal_value(self) -> int: ...

    def child_value(self, move: Move) -> int: ...


class PythonCursor:
    """The reference cursor, for every game: ``states`` is the tree's stack (root first),
    which ``push`` grows and the tree's ``pop`` shrinks."""

    __slots__ = ("_alternates", "_bound", "_children", "_evaluate", "_game_name", "_root_player",
                 "_states", "_unit")

    def __init__(self, states: list[Any], root_player: int, unit: int, alternates: bool,
                 evaluate: StateEvaluation | None, bound: int | None, game_name: str) -> None:
        self._states = states
        self._root_player = root_player
        self._unit = unit
        self._alternates = alternates
        self._evaluate = evaluate
        self._bound = bound
        self._game_name = game_name
        # By the cursor's depth (1 at the root): the node whose moves were made last there,
        # with its children; a node is recognised by identity, never by depth alone.
        self._children: dict[int, tuple[Any, dict[Move, Any]]] = {}

    def moves(self) -> Sequence[Move]:
        states = self._states
        state = states[-1]
        actions: list[int] = state.legal_actions()
        if actions and not self._alternates:
            player = state.current_player()
            children: dict[Move, Any] = {}
            for action in actions:
                child = state.child(action)
                if child.current_player() == player:    # a player moves again: follow to the end
                    children = complete_moves(state)
                    self._children[len(states)] = (state, children)
                    return list(children)
                children[action] = child
            self._children[len(states)] = (state, children)
        return actions

    def _after(self, move: Move) -> Any:
        """The state ``move`` leads to from the cursor's."""
        states = self._states
        state = states[-1]
        if self._alternates:
            return state.child(move)
        made = self._children.get(len(states))
        return made[1][move] if made is not None and made[0] is state else after(state, move)

    def push(self, move: Move) -> None:
        self._states.append(self._after(move))

    def end_value(self, state: Any, depth: int) -> int:
        """The value of ``state``, where the game is over, ``depth`` moves below the root,
        for its player to move: its return, scaled."""
        scaled: float = state.returns()[self._root_player ^ (depth & 1)] * self._unit
        value = int(scaled)
        if value != scaled or not -INF < value < INF:
            raise HarnessError(f"openspiel: game {self._game_name!r}: a return times "
                               f"{self._unit} is {scaled}, not an integer between -{INF:,} "
                               f"and {INF:,} (choose a scale that makes it one)")
        return value

    def state_value(self, state: Any, depth: int) -> int:
        """The value of ``state``, ``depth`` moves below the root, for its player to move."""
        if state.is_terminal():
            return self.end_value(state, depth)
        evaluate = self._evaluate
        if evaluate is None:
            return 0
        bound = self._bound
        value = int(evaluate(state))
        return value if bound is None or -bound <= value <= bound else max(-bound, min(bound, value))

    def value(self) -> int:
        states = self._states
        return self.state_value(states[-1], len(states) - 1)

    def terminal_value(self) -> int:
        """The value at the cursor, which has no legal action: in OpenSpiel, a state with
        none is terminal, so it is not asked again."""
        states = self._states
        return self.end_value(states[-1], len(states) - 1)

    def child_value(self, move: Move) -> int:
        return self.state_value(self._after(move), len(self._states))


def make_cursor(states: list[Any], root_player: int, unit: int, alternates: bool,
                evaluate: StateEvaluation | None, bound: int | None, game_name: str,
                compiled: bool | None = None) -> Cursor:
    """The cursor over ``states``: compiled where it was built and the players alternate,
    unless ``compiled`` says which (``True`` where it cannot be: a :class:`HarnessError`)."""
    python = PythonCursor(states, root_player, unit, alternates, evaluate, bound, game_name)
    if compiled is None:
        compiled = compiled_in_use() and alternates
    if not compiled:
        return python
    if BUILD.built is None or not alternates:
        raise HarnessError(f"openspiel: game {game_name!r}: no compiled cursor "
                           f"({'not built' if BUILD.built is None else 'its players do not alternate'})")
    cursor: Cursor = BUILD.built.Cursor(states, root_player, unit, INF, evaluate, bound, python.end_value)
    return cursor
