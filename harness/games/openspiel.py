"""OpenSpiel games (``pyspiel``, the optional extra ``openspiel``) as search trees.

:func:`openspiel_tree` takes a game as :func:`pyspiel.load_game` spells it,
``"tic_tac_toe"`` or ``"breakthrough(rows=5,columns=5)"``, and returns an
:class:`OpenSpielTree`: a :class:`harness.games.base.Tree` over the game's states.

- **Moves** are the legal actions (integers) in OpenSpiel's order; ``push`` keeps a stack
  of states, each the ``State.child(action)`` of the one below. (Measured on the full
  tic-tac-toe tree, 549,946 states: a stack of children 0.29 s, ``apply_action`` and
  ``undo_action`` on one state 0.25 s; most games do not implement ``undo_action``
  (connect_four, hex, othello, mancala...), so the stack is used for all.)
- **Values** are for the side to move, in negamax form. At a terminal state: OpenSpiel's
  return for that player times ``scale`` (default 1: a win is 1, a draw 0, a loss -1 in
  the win/loss games), which must come out an integer, else the search stops with a
  :class:`HarnessError` asking for a larger ``scale``. Elsewhere, at the search's horizon,
  ``evaluate(state)`` (an integer for ``state.current_player()``, in the same units as
  the scaled returns); without it, 0 ("not decided yet"), which lets iterative deepening,
  aspiration and MTD drivers run their shallow passes; a search to the tree's natural
  depth, :attr:`OpenSpielTree.height` (the game's maximum length, where every line has
  ended), never uses it and returns the game's value.
- **Keys** are a 63-bit BLAKE2b hash of the player to move and ``str(state)`` (the
  position, as OpenSpiel prints it): the same in every process, unlike Python's salted
  ``hash`` of a string. Positions reached by different move orders share a key.
- Games must be sequential, deterministic, perfect-information, two-player and
  zero-sum; others are refused with one line. Negamax also needs the players to
  alternate: a game where a player moves twice in a row (dots_and_boxes after a box,
  checkers' multiple jumps) is refused with one line when the search first meets it.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from harness.errors import HarnessError
from harness.games.base import INF, Game, Move, Problem, ProblemSet, Tree, check_default_depth
from harness.options import Option, OptionValue

Evaluation = Callable[[Any], int]
"""A static evaluation of a non-terminal ``pyspiel.State`` for its player to move."""

ParamValue = int | float | bool | str

SUGGESTED = ("tic_tac_toe", "connect_four", "breakthrough", "othello", "checkers",
             "clobber", "hex", "amazons", "nim", "mnk")
"""Games named in the error for an unknown game."""


def load_pyspiel() -> Any:
    """The ``pyspiel`` module, or a :class:`HarnessError` saying how to install it."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise HarnessError("OpenSpiel is not installed: pip install open_spiel "
                           "(or the extra: pip install 'gametree-harness[openspiel]')") from None
    return pyspiel


def load_game(spec: str, params: Mapping[str, ParamValue] | None = None) -> Any:
    """The ``pyspiel.Game`` named by ``spec`` (``name`` or ``name(k=v,...)``) with
    ``params``; refused with one line unless :func:`check_game` accepts it."""
    pyspiel = load_pyspiel()
    name = spec.partition("(")[0].strip()
    names = list(pyspiel.registered_names())
    if name not in names:
        close = difflib.get_close_matches(name, names, n=3)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise HarnessError(f"openspiel: unknown game {name!r} ({hint}for example: "
                           f"{', '.join(SUGGESTED)})")
    try:
        game = pyspiel.load_game(spec, dict(params)) if params else pyspiel.load_game(spec)
    except pyspiel.SpielError as exc:
        reason = " ".join(str(exc).split())
        raise HarnessError(f"openspiel: game {spec!r}: {reason}") from None
    check_game(game)
    return game


def check_game(game: Any) -> None:
    """Refuse, with one line naming the game and the reason, a game that is not
    sequential, deterministic, perfect-information, two-player and zero-sum."""
    pyspiel = load_pyspiel()
    kind = game.get_type()
    game_type = pyspiel.GameType
    reasons = []
    if kind.dynamics != game_type.Dynamics.SEQUENTIAL:
        reasons.append("its players move simultaneously")
    if kind.chance_mode != game_type.ChanceMode.DETERMINISTIC:
        reasons.append("it has chance events")
    if kind.information != game_type.Information.PERFECT_INFORMATION:
        reasons.append("it has imperfect information")
    if game.num_players() != 2:
        reasons.append(f"it has {game.num_players()} players")
    if kind.utility != game_type.Utility.ZERO_SUM:
        reasons.append("it is not zero-sum")
    if reasons:
        raise HarnessError(f"openspiel: game {str(game)!r} cannot be searched: "
                           f"{'; '.join(reasons)} (the harness searches deterministic, "
                           f"perfect-information, two-player, zero-sum games)")


def stable_key(player: int, text: str) -> int:
    """A 63-bit key for a position: the same in every process and on every machine."""
    digest = hashlib.blake2b(f"{player}\n{text}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class OpenSpielTree:
    """An OpenSpiel game from a position, walked through a cursor (see
    :class:`harness.games.base.Tree`).

    ``game`` is a ``pyspiel.Game`` or its name (``params`` then adds parameters);
    ``actions`` are played from the initial state to reach the root; ``evaluate`` values a
    non-terminal horizon node for its player to move (default: 0); ``scale`` multiplies
    the returns.
    """

    __slots__ = ("_evaluate", "_game_name", "_keys", "_players", "_states", "game",
                 "height", "scale")

    def __init__(self, game: Any, params: Mapping[str, ParamValue] | None = None, *,
                 actions: Sequence[int] = (), evaluate: Evaluation | None = None,
                 scale: int = 1) -> None:
        if scale < 1:
            raise HarnessError(f"openspiel: scale={scale} must be at least 1")
        if isinstance(game, str):
            game = load_game(game, params)
        else:
            if params:
                raise HarnessError("openspiel: params are given with a game's name, not a game")
            check_game(game)
        self.game: Any = game
        """The ``pyspiel.Game``."""
        self.scale = scale
        """Terminal values are OpenSpiel's returns times this."""
        self._evaluate = evaluate
        self._game_name = str(game)
        state = game.new_initial_state()
        for action in actions:
            if state.is_terminal() or action not in state.legal_actions():
                raise HarnessError(f"openspiel: game {self._game_name!r}: action {action} is "
                                   f"not legal after {list(state.history())}")
            state.apply_action(action)
        self.height: int = max(1, game.max_game_length() - len(state.history()))
        """The game's maximum length from the root: the depth at which every line ends."""
        player = state.current_player()
        if state.is_terminal():
            player = len(state.history()) % 2     # the player whose turn it would be
        self._states: list[Any] = [state]
        self._players: list[int] = [player]
        self._keys: list[int | None] = [None]

    def __repr__(self) -> str:
        return f"OpenSpielTree({str(self.game)!r}, root={list(self._states[0].history())})"

    def moves(self) -> Sequence[Move]:
        return self._states[-1].legal_actions()  # type: ignore[no-any-return]

    def _child(self, move: Move) -> tuple[Any, int]:
        """The state after ``move`` and its player to move (checked to alternate)."""
        child = self._states[-1].child(move)
        mover = self._players[-1]
        player = child.current_player()
        if player == mover:
            raise HarnessError(f"openspiel: game {self._game_name!r}: player {mover} moves "
                               f"twice in a row after {list(child.history())}; negamax search "
                               f"needs the players to alternate")
        return child, 1 - mover

    def push(self, move: Move) -> None:
        child, player = self._child(move)
        self._states.append(child)
        self._players.append(player)
        self._keys.append(None)

    def pop(self) -> None:
        self._states.pop()
        self._players.pop()
        self._keys.pop()

    def _value(self, state: Any, player: int) -> int:
        if state.is_terminal():
            scaled: float = state.returns()[player] * self.scale
            value = round(scaled)
            if value != scaled or not -INF < value < INF:
                raise HarnessError(f"openspiel: game {self._game_name!r}: a return times scale "
                                   f"{self.scale} is {scaled}, not an integer between -{INF:,} "
                                   f"and {INF:,} (choose a scale that makes it one)")
            return value
        return 0 if self._evaluate is None else int(self._evaluate(state))

    def value(self) -> int:
        return self._value(self._states[-1], self._players[-1])

    def terminal_value(self) -> int:
        return self._value(self._states[-1], self._players[-1])

    def child_value(self, move: Move) -> int:
        return self._value(*self._child(move))

    def key(self) -> int:
        key = self._keys[-1]
        if key is None:
            key = self._keys[-1] = stable_key(self._players[-1], str(self._states[-1]))
        return key

    def move_name(self, move: Move) -> str:
        return str(self._states[-1].action_to_string(self._players[-1], move))

    def state(self) -> Any:
        """The ``pyspiel.State`` at the cursor (do not change it)."""
        return self._states[-1]

    def reset(self) -> None:
        """Put the cursor back on the root (the order is OpenSpiel's: nothing learnt)."""
        del self._states[1:], self._players[1:], self._keys[1:]

    def cutoff(self, move: Move, depth: int) -> None:
        """OpenSpiel's order is fixed: nothing to learn."""


def openspiel_tree(spec: str, *, actions: Sequence[int] = (), evaluate: Evaluation | None = None,
                   scale: int = 1) -> OpenSpielTree:
    """The game ``spec`` (``"tic_tac_toe"``, ``"breakthrough(rows=5,columns=5)"``) as a tree
    from its initial state, or after ``actions``."""
    return OpenSpielTree(spec, actions=actions, evaluate=evaluate, scale=scale)


class OpenSpiel(Game):
    """Any OpenSpiel game :func:`check_game` accepts: ``openspiel:tic_tac_toe``,
    ``openspiel:breakthrough(rows=5,columns=5),moves=0 1``.

    A plug-in can give the game an evaluation for searches shallower than the game:
    register ``OpenSpiel("breakthrough-eval", evaluation=my_evaluation)``.
    """

    spec = "NAME | NAME(param=value,...) as pyspiel.load_game reads it"
    source = "OpenSpiel (pip install 'gametree-harness[openspiel]')"
    options: ClassVar[Mapping[str, Option]] = {
        "moves": Option("", "actions played from the initial state to reach the position "
                        "searched, separated by spaces or ;"),
        "plies": Option(0, "one problem per distinct position this many plies after it (in "
                        "OpenSpiel's action order; games over by then are left out)", minimum=0),
        "scale": Option(1, "the returns are multiplied by this (they must come out integers)",
                        minimum=1),
    }

    def __init__(self, name: str = "openspiel", evaluation: Evaluation | None = None,
                 description: str = "") -> None:
        self.name = name
        self.evaluation = evaluation
        """A static evaluation at the horizon (default: 0, "not decided yet")."""
        self.description = description or (
            "OpenSpiel's deterministic, perfect-information, two-player, zero-sum games "
            "(tic_tac_toe, connect_four, breakthrough, ...); without an evaluation a search to "
            "the default depth plays every line to its end")

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        if not spec:
            raise HarnessError(f"{self.name}: which game? ({self.name}:NAME, for example "
                               f"{self.name}:tic_tac_toe)")
        start = _actions(spec, str(dict(options)["moves"]))
        root = OpenSpielTree(spec, actions=start, scale=int(dict(options)["scale"]))
        name = self.set_name(spec, options)
        lines = _lines_from(root.state(), start, int(dict(options)["plies"]))
        if not lines:
            raise HarnessError(f"{self.name}:{name}: every game is over within "
                               f"{dict(options)['plies']} plies: no position to search")
        problems = [Problem(self.name, name, " ".join(map(str, line)) or "start", spec, i, options,
                            max(1, root.game.max_game_length() - len(line)),
                            position=" ".join(map(str, line)))
                    for i, line in enumerate(lines)]
        return ProblemSet(name, problems, {"game_string": str(root.game), "height": root.height})

    def tree(self, problem: Problem) -> Tree:
        return self._tree(problem)

    def _tree(self, problem: Problem) -> OpenSpielTree:
        return OpenSpielTree(problem.source, actions=_actions(problem.source, problem.position),
                             evaluate=self.evaluation, scale=int(problem.option("scale")))

    def check(self, problems: ProblemSet, depths: tuple[int, ...] | None) -> None:
        problem = problems.problems[0]
        check_default_depth(f"{self.name}:{problem.source}: the game's length, "
                            f"{problem.default_depth:,} plies,", problem.default_depth, depths,
                            "give --depth N (with an evaluation) or a later position (moves=...)")


def _actions(spec: str, moves: str) -> list[int]:
    try:
        return [int(a) for a in moves.replace(";", " ").split()]
    except ValueError:
        raise HarnessError(f"openspiel:{spec}: moves={moves!r} are not action numbers") from None


def _lines_from(state: Any, start: list[int], plies: int) -> list[list[int]]:
    """The action sequences from ``start`` that reach each distinct position ``plies`` plies
    after ``state`` (the first sequence to reach it), games over by then left out."""
    lines: list[tuple[list[int], Any]] = [(start, state)]
    for _ in range(plies):
        seen: set[str] = set()
        following = []
        for line, current in lines:
            for action in current.legal_actions():
                child = current.child(action)
                if not child.is_terminal() and str(child) + str(child.current_player()) not in seen:
                    seen.add(str(child) + str(child.current_player()))
                    following.append(([*line, action], child))
        lines = following
    return [line for line, current in lines if not current.is_terminal()]
