"""OpenSpiel games (``pyspiel``, the optional extra ``openspiel``) as search trees.

:func:`openspiel_tree` takes a game as :func:`pyspiel.load_game` spells it,
``"tic_tac_toe"`` or ``"breakthrough(rows=5,columns=5)"``, and returns an
:class:`OpenSpielTree`: a :class:`harness.games.base.Tree` over the game's states.

- **Moves** are a turn each, so that the players alternate as negamax needs: the legal
  actions (integers) in OpenSpiel's order, except where a player makes several actions in
  a row (checkers' multiple jumps, a dots-and-boxes chain, a mancala extra turn): there
  each complete sequence, to where the other player moves or the game ends, is one move, a
  tuple of actions (:func:`complete_moves`), named by its actions joined with ``+``. In
  the games known to alternate (:data:`ALTERNATING`) the moves are read straight from the
  actions; in any other a node's children are made when its moves are asked for (every
  child's player must be seen to know the moves), kept by depth and found again by
  ``push``.
- **Values** are for the side to move, in negamax form. At a terminal state: OpenSpiel's
  return for that player times ``scale`` (default 1: a win is 1, a draw 0, a loss -1 in
  the win/loss games) and, with an :class:`~harness.games.openspiel.evaluations.Evaluation`, times
  its bound + 1, so that a decided game outranks every evaluation; the product must be an
  integer, else the search stops with a :class:`HarnessError` asking for a larger
  ``scale``. Elsewhere, at the search's horizon, the evaluation (an integer for the player
  to move, clamped to its bound); without one, 0 ("not decided yet"), which lets iterative
  deepening, aspiration and MTD drivers run their shallow passes; a search to the tree's
  natural depth, :attr:`OpenSpielTree.height` (the game's maximum length, where every line
  has ended), never uses it and returns the game's value.
- **Keys** are a 63-bit BLAKE2b hash of the player to move and ``str(state)`` (the
  position, as OpenSpiel prints it): the same in every process, unlike Python's salted
  ``hash`` of a string. Positions reached by different move orders share a key. A key is
  computed only when the search asks for it (a table), once per node.
- **Per node**, the frame calls the methods of a cursor over the tree's stack of states
  (:mod:`harness.games.openspiel.cursor`): compiled for the games that alternate, where a
  C compiler was found at install.
- Games must be sequential, deterministic, perfect-information, two-player and
  zero-sum, and the position searched must not be over; others are refused with one line
  when the game is loaded.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from hashlib import blake2b
from typing import Any, ClassVar, cast

from harness.errors import HarnessError
from harness.games.base import Game, Move, Problem, ProblemSet, Tree, check_default_depth
from harness.games.openspiel.cursor import StateEvaluation, complete_moves, make_cursor
from harness.games.openspiel.evaluations import Evaluation, find_evaluation, listing
from harness.options import Option, OptionValue

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


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Send file descriptor 2 to the null device while the block runs: pyspiel's C++ error
    handler writes ``OpenSpiel exception: ...`` to it before raising, and the error is told
    once, in the harness's own line. Where there is no descriptor 2 nothing changes."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    sys.stderr.flush()
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


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
        with quiet_stderr():
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


KEYS_KEPT = 1 << 16
"""Keys a tree remembers per player before it forgets them all (a memory bound; a key is
the same whenever it is computed)."""

_KEY_PREFIX = (b"0\n", b"1\n")
"""What a key hashes before the position's text: the player to move and a newline."""


def stable_key(player: int, text: str) -> int:
    """A 63-bit key for a position: the same in every process and on every machine."""
    digest = blake2b(_KEY_PREFIX[player] + text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


ALTERNATING = frozenset({
    "breakthrough", "chess", "clobber", "connect_four", "go", "gomoku", "havannah", "hex",
    "lines_of_action", "mnk", "nim", "oware", "othello", "pentago", "tic_tac_toe", "y"})
"""Games where every action passes the turn (a pass is an action): their moves are their
actions, read without making each child first to see who moves next. Any other game is
walked by :func:`complete_moves` wherever a player moves twice in a row."""

CHAIN_JOIN = "+"
"""Between the actions' names in the name of a move of several actions (``a3c5+c5e7``)."""


def move_actions(move: Move) -> list[int]:
    """The actions a move plays."""
    return list(move) if isinstance(move, tuple) else [cast(int, move)]


class OpenSpielTree:
    """An OpenSpiel game from a position, walked through a cursor (see
    :class:`harness.games.base.Tree`).

    ``game`` is a ``pyspiel.Game`` or its name (``params`` then adds parameters);
    ``actions`` are played from the initial state to reach the root; ``evaluate`` values a
    non-terminal horizon node for its player to move (default: 0): an :class:`Evaluation`
    (bounded: the terminal values are scaled above its bound) or a bare function (in the
    units of the scaled returns); ``scale`` multiplies the returns.
    """

    __slots__ = ("_game_name", "_keys", "_root_player", "_states", "child_value", "game", "height",
                 "moves", "pop", "push", "scale", "terminal_value", "value")

    def __init__(self, game: Any, params: Mapping[str, ParamValue] | None = None, *,
                 actions: Sequence[int] = (), evaluate: Evaluation | StateEvaluation | None = None,
                 scale: int = 1, compiled: bool | None = None) -> None:
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
        """Terminal values are OpenSpiel's returns times this (and times the evaluation's
        bound + 1, with a bounded evaluation)."""
        self._game_name = str(game)
        function, bound = ((evaluate.function, evaluate.bound) if isinstance(evaluate, Evaluation)
                           else (evaluate, None))
        state = game.new_initial_state()
        for action in actions:
            if state.is_terminal() or action not in state.legal_actions():
                raise HarnessError(f"openspiel: game {self._game_name!r}: action {action} is "
                                   f"not legal after {list(state.history())}")
            state.apply_action(action)
        if state.is_terminal():
            raise HarnessError(f"openspiel: game {self._game_name!r} is over after "
                               f"{list(state.history())}: no move to search")
        self.height: int = max(1, game.max_game_length() - len(state.history()))
        """The game's maximum length in actions from the root: no line is longer in moves."""
        self._root_player: int = state.current_player()
        self._states: list[Any] = [state]
        # The methods the frame calls at every node are the cursor's own (compiled where it
        # can be; see harness.games.openspiel.cursor), and stepping back is the stack's pop:
        # no Python frame of the tree's per node.
        cursor = make_cursor(self._states, self._root_player,
                             scale * (1 if bound is None else bound + 1),
                             game.get_type().short_name in ALTERNATING, function, bound,
                             self._game_name, compiled)
        self.moves: Callable[[], Sequence[Move]] = cursor.moves
        self.push: Callable[[Move], None] = cursor.push
        self.pop: Callable[[], None] = self._states.pop
        self.value: Callable[[], int] = cursor.value
        self.terminal_value: Callable[[], int] = cursor.terminal_value
        self.child_value: Callable[[Move], int] = cursor.child_value
        # The keys of the positions met, by player to move and text: a position's text is
        # made again each time (cheap), its hash once (the search asks for the key of
        # every node it looks up in its table).
        self._keys: tuple[dict[str, int], dict[str, int]] = ({}, {})

    def __repr__(self) -> str:
        return f"OpenSpielTree({str(self.game)!r}, root={list(self._states[0].history())})"

    def key(self) -> int:
        states = self._states
        text = str(states[-1])
        player = self._root_player ^ ((len(states) - 1) & 1)
        known = self._keys[player]
        key = known.get(text)
        if key is None:
            if len(known) >= KEYS_KEPT:
                known.clear()
            key = known[text] = stable_key(player, text)
        return key

    def move_name(self, move: Move) -> str:
        state = self._states[-1]
        player = state.current_player()
        if not isinstance(move, tuple):
            return str(state.action_to_string(player, move))
        names = []
        for action in move:
            names.append(str(state.action_to_string(player, action)))
            state = state.child(action)
        return CHAIN_JOIN.join(names)

    def state(self) -> Any:
        """The ``pyspiel.State`` at the cursor (do not change it)."""
        return self._states[-1]

    def reset(self) -> None:
        """Put the cursor back on the root (the order is OpenSpiel's: nothing learnt)."""
        del self._states[1:]

    def cutoff(self, move: Move, depth: int) -> None:
        """OpenSpiel's order is fixed: nothing to learn."""


def openspiel_tree(spec: str, *, actions: Sequence[int] = (),
                   evaluate: Evaluation | StateEvaluation | None = None,
                   scale: int = 1) -> OpenSpielTree:
    """The game ``spec`` (``"tic_tac_toe"``, ``"breakthrough(rows=5,columns=5)"``) as a tree
    from its initial state, or after ``actions``."""
    return OpenSpielTree(spec, actions=actions, evaluate=evaluate, scale=scale)


class OpenSpiel(Game):
    """Any OpenSpiel game :func:`check_game` accepts: ``openspiel:tic_tac_toe``,
    ``openspiel:breakthrough(rows=5,columns=5),moves=0 1``, ``openspiel:othello,eval=othello``.

    An evaluation for searches shallower than the game is named by the option ``eval``
    (:mod:`harness.games.openspiel.evaluations`: built in, or added through the entry-point group
    ``harness.evaluations``). A plug-in can also register a game with its own:
    ``OpenSpiel("breakthrough-eval", evaluation=my_evaluation)``.
    """

    spec = "NAME | NAME(param=value,...) as pyspiel.load_game reads it"
    source = "OpenSpiel (pip install 'gametree-harness[openspiel]')"
    options: ClassVar[Mapping[str, Option]] = {
        "moves": Option("", "actions played from the initial state to reach the position "
                        "searched, separated by spaces or ;"),
        "plies": Option(0, "one problem per distinct position this many plies after it (a ply "
                        "is a move: a player's actions in a row; in OpenSpiel's order; games "
                        "over by then are left out)", minimum=0),
        "scale": Option(1, "the returns are multiplied by this (they must come out integers)",
                        minimum=1),
        "eval": Option("", "the evaluation at the horizon of a search shallower than the game "
                       "(default: none, every such position is 0); the returns are then also "
                       "multiplied by its bound + 1, so a decided game outranks it. Known: "
                       + listing()),
    }

    def __init__(self, name: str = "openspiel",
                 evaluation: Evaluation | StateEvaluation | None = None,
                 description: str = "") -> None:
        self.name = name
        self.evaluation = evaluation
        """The game's own static evaluation at the horizon (default: the option ``eval``'s,
        else 0, "not decided yet")."""
        self.description = description or (
            "OpenSpiel's deterministic, perfect-information, two-player, zero-sum games "
            "(tic_tac_toe, connect_four, breakthrough, ...); without an evaluation a search to "
            "the default depth plays every line to its end")

    def load(self, spec: str, options: tuple[tuple[str, OptionValue], ...],
             skip_invalid: bool = False) -> ProblemSet:
        if not spec:
            raise HarnessError(f"{self.name}: which game? ({self.name}:NAME, for example "
                               f"{self.name}:tic_tac_toe)")
        given = dict(options)
        start = _actions(spec, str(given["moves"]))
        game = load_game(spec)
        root = OpenSpielTree(game, actions=start, evaluate=self._evaluation(game, str(given["eval"])),
                             scale=int(given["scale"]))
        name = self.set_name(spec, options)
        lines = _lines_from(root.state(), start, int(given["plies"]))
        if not lines:
            raise HarnessError(f"{self.name}:{name}: every game is over within "
                               f"{given['plies']} plies: no position to search")
        problems = [Problem(self.name, name, " ".join(map(str, line)) or "start", spec, i, options,
                            max(1, game.max_game_length() - len(line)),
                            position=" ".join(map(str, line)))
                    for i, line in enumerate(lines)]
        return ProblemSet(name, problems, {"game_string": str(game), "height": root.height})

    def _evaluation(self, game: Any, name: str) -> Evaluation | StateEvaluation | None:
        """The evaluation the option ``eval`` names for ``game``, or the game's own."""
        if not name:
            return self.evaluation
        if self.evaluation is not None:
            raise HarnessError(f"{self.name}: eval={name}: this game has its own evaluation")
        return find_evaluation(name, game.get_type().short_name)

    def tree(self, problem: Problem) -> Tree:
        return self._tree(problem)

    def _tree(self, problem: Problem) -> OpenSpielTree:
        game = load_game(problem.source)
        return OpenSpielTree(game, actions=_actions(problem.source, problem.position),
                             evaluate=self._evaluation(game, str(problem.option("eval"))),
                             scale=int(problem.option("scale")))

    def check(self, problems: ProblemSet, depths: tuple[int, ...] | None) -> None:
        problem = problems.problems[0]
        check_default_depth(f"{self.name}:{problem.source}: the game's length, "
                            f"{problem.default_depth:,} plies,", problem.default_depth, depths,
                            "give --depth N (with an evaluation, eval=...) or a later position "
                            "(moves=...)")


def _actions(spec: str, moves: str) -> list[int]:
    try:
        return [int(a) for a in moves.replace(";", " ").split()]
    except ValueError:
        raise HarnessError(f"openspiel:{spec}: moves={moves!r} are not action numbers") from None


def _lines_from(state: Any, start: list[int], plies: int) -> list[list[int]]:
    """The action sequences from ``start`` that reach each distinct position ``plies`` moves
    (plies: :func:`complete_moves`) after ``state`` (the first sequence to reach it), games over by
    then left out."""
    lines: list[tuple[list[int], Any]] = [(start, state)]
    for _ in range(plies):
        seen: set[str] = set()
        following = []
        for line, current in lines:
            for move, child in complete_moves(current).items():
                position = f"{child.current_player()}\n{child}"
                if not child.is_terminal() and position not in seen:
                    seen.add(position)
                    following.append(([*line, *move_actions(move)], child))
        lines = following
    return [line for line, current in lines if not current.is_terminal()]
