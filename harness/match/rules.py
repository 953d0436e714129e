"""The games a match can play move by move: a position that a move changes, its tree for a
search, and when and how the game ends, by the game's own rules.

A :class:`Game` hands out trees of fixed starting positions; playing needs more: the
position after a move, and the ending. :func:`playing` gives a :class:`Playing` for a
problem of a game that has rules here (chess, Connect Four, Othello, checkers, OpenSpiel's
games), and refuses any other with one line. Moves are named as the trees name them (chess:
UCI; Connect Four: the column, 1 = leftmost; Othello: the square, ``d3``, or ``pass``;
checkers: PDN, ``11-15``, ``22x15x8``; OpenSpiel: its action names), so a search's best
move is played as it is named.

Players are numbered from the opening: player 0 moves first from it. Every game here
alternates moves (an Othello pass is a move), so player ``plies % 2`` is to move.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from harness.errors import HarnessError
from harness.games.base import Problem, Tree

if TYPE_CHECKING:
    import chess



@dataclass(frozen=True)
class Ending:
    """How a game ended."""

    winner: int | None
    """Player 0 (the first to move from the opening) or 1; ``None``: a draw."""
    reason: str
    """``checkmate``, ``stalemate``, ``threefold_repetition``, ``fifty_moves``,
    ``insufficient_material`` (python-chess's names), ``four_in_a_row``, ``board_full``,
    ``neither_can_move`` (Othello's end, the discs deciding), ``no_moves`` (checkers: the
    side to move has none and loses), ``forty_plies`` (checkers' draw rule),
    ``game_over`` (OpenSpiel's end, its returns deciding);
    the match adds ``adjudication`` and ``move_limit``."""


class Playing(ABC):
    """A game in progress from an opening."""

    plies: int = 0
    """Moves played since the opening."""

    @abstractmethod
    def tree(self) -> Tree:
        """A tree rooted at the current position, for one search."""

    @abstractmethod
    def play(self, move: str) -> None:
        """Play the move named ``move`` (as the tree names it)."""

    @abstractmethod
    def ending(self) -> Ending | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def fallback_move(self) -> str:
        """The move to play where the tree has none at a position whose game goes on (a
        tree may stop early: Pons's Connect Four tree at a position that wins at once)."""

    @property
    def horizon(self) -> int:
        """The most plies the rest of the game can last (deeper searches see nothing
        more); large where the rules set no bound."""
        return 1 << 30

    @property
    def mover(self) -> int:
        """The player to move."""
        return self.plies % 2


class ChessPlaying(Playing):
    """Chess through python-chess: its legal moves, and its endings (checkmate,
    stalemate, insufficient material; threefold repetition and the fifty-move rule as
    soon as either could be claimed)."""

    def __init__(self, problem: Problem) -> None:

        from harness.games.chess.game import ordering_of, position_of

        self.board: chess.Board = position_of(problem).board()
        self.first_colour: bool = self.board.turn
        """The colour of player 0 (the side to move at the opening)."""
        self.ordering = ordering_of(problem)     # move ordering and the quiescence rules
        self.choice = str(problem.option("tree"))
        self.draws = bool(problem.option("repetition"))
        """The game option ``repetition``: each search sees the game so far (the board's
        move stack), so a repetition of it, or the fifty-move rule, scores as a draw."""

    def tree(self) -> Tree:
        from harness.games.chess.compiled import chess_tree

        # Without the option the tree sees the position only: the search knows no history.
        board = self.board.copy(stack=self.draws)
        return chess_tree(board, self.ordering, self.choice, self.draws)

    def play(self, move: str) -> None:
        import chess

        self.board.push(chess.Move.from_uci(move))
        self.plies += 1

    def ending(self) -> Ending | None:
        outcome = self.board.outcome(claim_draw=True)
        if outcome is None:
            return None
        winner = None
        if outcome.winner is not None:
            winner = 0 if outcome.winner == self.first_colour else 1
        return Ending(winner, outcome.termination.name.lower())

    def fallback_move(self) -> str:
        return next(iter(self.board.legal_moves)).uci()


class Connect4Playing(Playing):
    """Connect Four: a move drops a stone; four in a line wins, a full board draws."""

    def __init__(self, problem: Problem) -> None:
        from harness.games.connect4.tree import board_from

        values = dict(problem.options)
        moves = problem.position.split()[0] if problem.position.split() else ""
        self.board = board_from(moves, int(values["width"]), int(values["height"]))
        self.order, self.anticipate = str(values["order"]), bool(values["anticipate"])
        self.won = False

    def tree(self) -> Tree:
        from harness.games.connect4.compiled import connect4_tree

        return connect4_tree(self.board, self.order, self.anticipate)

    def play(self, move: str) -> None:
        column = int(move) - 1
        if not (0 <= column < self.board.width and self.board.can_play(column)):
            raise HarnessError(f"connect4: column {move} cannot be played")
        self.won = self.board.wins(column)
        self.board.play(column)
        self.plies += 1

    def ending(self) -> Ending | None:
        if self.won:
            return Ending(1 - self.mover, "four_in_a_row")     # the player who just moved
        if self.board.moves == self.board.width * self.board.height:
            return Ending(None, "board_full")
        return None

    @property
    def horizon(self) -> int:
        return self.board.width * self.board.height - self.board.moves

    def fallback_move(self) -> str:
        """A column that wins at once, else the first playable one (lost either way)."""
        board = self.board
        playable = [c for c in range(board.width) if board.can_play(c)]
        winning = [c for c in playable if board.wins(c)]
        return str((winning or playable)[0] + 1)


class OthelloPlaying(Playing):
    """Othello: a move places a disc or passes (when the player to move has no square and
    the other has); the game ends when neither can move, the most discs winning."""

    def __init__(self, problem: Problem) -> None:
        from harness.games.othello.game import read_position

        board, _ = read_position(problem.position)
        self.state = (board.mover, board.opponent, board.x_to_move)
        self.first_x = board.x_to_move
        """Whether player 0 (the side to move at the opening) is X."""
        options = dict(problem.options)
        self.ordering = (bool(options.get("killers")), bool(options.get("history")))
        """The set's killers and history (off where it names neither): each move's
        search orders with them."""

    def tree(self) -> Tree:
        from harness.games.othello.compiled import othello_tree
        from harness.games.othello.tree import Board

        return othello_tree(Board(*self.state), None, *self.ordering)

    def play(self, move: str) -> None:
        from harness.games.othello.game import after, moves_at
        from harness.games.othello.tree import square_name

        square = next((m for m in moves_at(self.state) if square_name(m) == move), None)
        if square is None:
            raise HarnessError(f"othello: {move!r} cannot be played here")
        self.state = after(self.state, square)
        self.plies += 1

    def ending(self) -> Ending | None:
        from harness.games.othello.game import moves_at

        if moves_at(self.state):
            return None
        mover, opponent, x_to_move = self.state
        lead = mover.bit_count() - opponent.bit_count()       # for the player to move
        if lead == 0:
            return Ending(None, "neither_can_move")
        mover_wins = lead > 0
        mover_is_first = x_to_move == self.first_x
        return Ending(0 if mover_wins == mover_is_first else 1, "neither_can_move")

    @property
    def horizon(self) -> int:
        from harness.games.othello.tree import plies_to_end

        return plies_to_end(self.state[0], self.state[1])

    def fallback_move(self) -> str:
        from harness.games.othello.game import moves_at
        from harness.games.othello.tree import square_name

        return square_name(moves_at(self.state)[0])


class CheckersPlaying(Playing):
    """Checkers (English draughts): captures compulsory, a side without a move loses, 40
    plies in a row without a capture draw (the count carried from move to move: the trees
    see it, as their search does)."""

    def __init__(self, problem: Problem) -> None:
        from harness.games.checkers.board import parse_fen

        self.position = parse_fen(problem.position.split()[0])
        choice = str(problem.option("tree"))
        self.compiled = None if choice == "auto" else choice == "compiled"
        options = dict(problem.options)
        self.ordering = (bool(options.get("killers")), bool(options.get("history")))
        """The set's killers and history (off where it names neither): each move's
        search orders with them."""

    def tree(self) -> Tree:
        from harness.games.checkers.compiled import checkers_tree

        return checkers_tree(self.position, self.compiled, *self.ordering)

    def play(self, move: str) -> None:
        from harness.games.checkers.board import move_name

        chosen = next((m for m in self.position.legal_moves() if move_name(m) == move), None)
        if chosen is None:
            raise HarnessError(f"checkers: {move!r} cannot be played here")
        self.position = self.position.play(chosen)
        self.plies += 1

    def ending(self) -> Ending | None:
        from harness.games.checkers.board import DRAW_PLIES

        if self.position.quiet >= DRAW_PLIES:
            return Ending(None, "forty_plies")
        if not self.position.has_move():
            return Ending(1 - self.mover, "no_moves")      # the player who just moved
        return None

    def fallback_move(self) -> str:
        from harness.games.checkers.board import move_name

        return move_name(self.position.legal_moves()[0])


class OpenSpielPlaying(Playing):
    """An OpenSpiel game: its state after the actions played, its end and returns. A move
    is a player's complete turn (the trees' moves: several actions in a row where the game
    gives one player several), named as the tree names it."""

    def __init__(self, problem: Problem) -> None:
        from harness.games.openspiel.game import load_game

        self.problem = problem
        self.actions = [int(a) for a in problem.position.replace(";", " ").split()]
        self.state = load_game(problem.source).new_initial_state()
        for action in self.actions:
            self.state.apply_action(action)
        self.first_player: int = self.state.current_player()
        """OpenSpiel's number of player 0 (the player to move at the opening)."""

    def tree(self) -> Tree:
        from harness.games.registry import find_game

        position = replace(self.problem, position=" ".join(map(str, self.actions)))
        return find_game(self.problem.game).tree(position)

    def play(self, move: str) -> None:
        from harness.games.openspiel.game import move_actions

        tree = self.tree()
        chosen = next((m for m in tree.moves() if tree.move_name(m) == move), None)
        if chosen is None:
            raise HarnessError(f"{self.problem.source}: no move {move!r} here")
        for action in move_actions(chosen):
            self.state.apply_action(action)
            self.actions.append(action)
        self.plies += 1

    def ending(self) -> Ending | None:
        if not self.state.is_terminal():
            return None
        returns = self.state.returns()
        mine, theirs = returns[self.first_player], returns[1 - self.first_player]
        return Ending(None if mine == theirs else 0 if mine > theirs else 1, "game_over")

    @property
    def horizon(self) -> int:
        return max(1, int(self.state.get_game().max_game_length()) - len(self.actions))

    def fallback_move(self) -> str:
        tree = self.tree()
        return tree.move_name(tree.moves()[0])


RULES: dict[str, Callable[[Problem], Playing]] = {
    "chess": ChessPlaying, "connect4": Connect4Playing, "othello": OthelloPlaying,
    "checkers": CheckersPlaying, "openspiel": OpenSpielPlaying,
}
"""Each game with rules here, by name (OpenSpiel's: every game the harness loads from it)."""
PLAYABLE = tuple(RULES)
"""The games a match can play."""


def playing(problem: Problem) -> Playing:
    """The game of ``problem`` in progress from its position."""
    check_playable(problem.game)
    return RULES[problem.game](problem)


def check_playable(game: str) -> None:
    """Refuse a game without rules here, before anything is loaded."""
    if game not in RULES:
        raise HarnessError(f"{game}: cannot be played move by move (a match needs a game "
                           f"with rules for the position after a move: {', '.join(PLAYABLE)})")
