"""Static evaluations of OpenSpiel positions, named in ``openspiel:GAME,eval=NAME``.

A depth-limited search of an OpenSpiel game values the positions at its horizon with an
:class:`Evaluation`: an integer for the player to move, at most :attr:`Evaluation.bound`
in magnitude (a value beyond it is clamped to it). The tree then multiplies the terminal
returns by ``bound + 1`` besides the game's ``scale``, so a decided game outranks every
evaluation: a win is worth at least ``bound + 1``, a loss at most ``-(bound + 1)``; a draw
is 0. Without an evaluation the factor is 1 and every horizon position is 0.

Built in (:data:`EVALUATIONS`): Othello's disc difference, mobility and corners, and their
weighted sum; checkers' material, with and without kings weighted. Installed packages add
others through the entry-point group :data:`PLUGIN_GROUP` (an entry point names an
:class:`Evaluation` or a list of them); a built-in name keeps its meaning.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from harness.errors import HarnessError
from harness.plugins import BUILT_IN, load_entry_points


@dataclass(frozen=True)
class Evaluation:
    """A static evaluation of an OpenSpiel game's non-terminal positions."""

    name: str
    """What ``eval=`` says."""
    games: tuple[str, ...]
    """The OpenSpiel games it evaluates, by the short name ``pyspiel`` registers
    (``othello``); empty: any game."""
    bound: int
    """The most its value is in magnitude: terminal values are scaled above it."""
    function: Callable[[Any], int]
    """The value of a non-terminal ``pyspiel.State`` for its player to move (integer,
    deterministic)."""
    description: str
    """One line on what it counts."""
    origin: str = BUILT_IN
    """``built in``, or the package that added it."""

    def __post_init__(self) -> None:
        if self.bound < 1:
            raise ValueError(f"evaluation {self.name!r}: bound {self.bound} must be at least 1")


# ---------------------------------------------------------------------------------------
# Othello: bitboards of the player to move and the opponent, bit 8 * row + column (the
# action numbers of OpenSpiel's othello).

_FULL = (1 << 64) - 1
_NOT_A = _FULL & ~sum(1 << (8 * r) for r in range(8))          # no square of column a
_NOT_H = _FULL & ~sum(1 << (8 * r + 7) for r in range(8))      # no square of column h
_CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
_DIRECTIONS = ((1, _NOT_A), (-1, _NOT_H), (8, _FULL), (-8, _FULL),
               (9, _NOT_A), (7, _NOT_H), (-7, _NOT_A), (-9, _NOT_H))
"""Shift of a square's bit one step in each direction, and the squares a step can land
on (a step east cannot land on column a: it wrapped from column h)."""


def _shift(bits: int, step: int, mask: int) -> int:
    return ((bits << step) if step > 0 else (bits >> -step)) & mask


def othello_moves(own: int, opponent: int) -> int:
    """The squares where the player with discs ``own`` can play: empty squares from which a
    line of the opponent's discs ends on one of the player's."""
    empty = _FULL & ~(own | opponent)
    moves = 0
    for step, mask in _DIRECTIONS:
        line = _shift(own, step, mask) & opponent
        for _ in range(5):
            line |= _shift(line, step, mask) & opponent
        moves |= _shift(line, step, mask) & empty
    return moves


def othello_discs(state: Any) -> tuple[int, int]:
    """The discs of the player to move and of the opponent, as bitboards."""
    cells = state.observation_tensor(state.current_player())   # empty, own, opponent's
    own = opponent = 0
    for square in range(64):
        if cells[64 + square]:
            own |= 1 << square
        elif cells[128 + square]:
            opponent |= 1 << square
    return own, opponent


def othello_disc_difference(state: Any) -> int:
    own, opponent = othello_discs(state)
    return own.bit_count() - opponent.bit_count()


def othello_mobility(state: Any) -> int:
    own, opponent = othello_discs(state)
    return othello_moves(own, opponent).bit_count() - othello_moves(opponent, own).bit_count()


def othello_corners(state: Any) -> int:
    own, opponent = othello_discs(state)
    return (own & _CORNERS).bit_count() - (opponent & _CORNERS).bit_count()


OTHELLO_WEIGHTS = (1, 2, 10)
"""Disc difference, mobility and corners in ``othello``: a corner is worth ten discs."""


def othello_combined(state: Any) -> int:
    own, opponent = othello_discs(state)
    discs, mobility, corners = OTHELLO_WEIGHTS
    return (discs * (own.bit_count() - opponent.bit_count())
            + mobility * (othello_moves(own, opponent).bit_count()
                          - othello_moves(opponent, own).bit_count())
            + corners * ((own & _CORNERS).bit_count() - (opponent & _CORNERS).bit_count()))


# ---------------------------------------------------------------------------------------
# Checkers, read from OpenSpiel's board text: player 0's men 'o' and kings '8', player 1's
# men '+' and kings '*'; each row is its number, then one character per column.

_CHECKERS_PIECES = (("o", "8"), ("+", "*"))


def checkers_pieces(state: Any) -> tuple[int, int, int, int]:
    """Men and kings of the player to move, then the opponent's men and kings."""
    lines = str(state).split("\n")
    columns = len(lines[-2].strip())            # the last line names the columns
    board = "".join(line[-columns:] for line in lines[:-2])
    player = state.current_player()
    (man, king), (their_man, their_king) = _CHECKERS_PIECES[player], _CHECKERS_PIECES[1 - player]
    return board.count(man), board.count(king), board.count(their_man), board.count(their_king)


def checkers_material(state: Any) -> int:
    men, kings, their_men, their_kings = checkers_pieces(state)
    return men + kings - their_men - their_kings


CHECKERS_WEIGHTS = (2, 3)
"""A man and a king in ``checkers``: a king is worth one and a half men."""


def checkers_weighted(state: Any) -> int:
    men, kings, their_men, their_kings = checkers_pieces(state)
    man, king = CHECKERS_WEIGHTS
    return man * (men - their_men) + king * (kings - their_kings)


EVALUATIONS: list[Evaluation] = [
    Evaluation("othello", ("othello",), 64 + 2 * 60 + 10 * 4, othello_combined,
               "discs + 2 x mobility + 10 x corners, each the mover's minus the opponent's"),
    Evaluation("othello-discs", ("othello",), 64, othello_disc_difference,
               "the mover's discs minus the opponent's"),
    Evaluation("othello-mobility", ("othello",), 60, othello_mobility,
               "the squares the mover can play minus those the opponent could"),
    Evaluation("othello-corners", ("othello",), 4, othello_corners,
               "the mover's corners minus the opponent's"),
    Evaluation("checkers", ("checkers",), 3 * 12, checkers_weighted,
               "2 x men + 3 x kings, the mover's minus the opponent's"),
    Evaluation("checkers-material", ("checkers",), 12, checkers_material,
               "the mover's pieces minus the opponent's, a king counted as a man"),
]
"""The evaluations, built in first, then those installed packages add."""

PLUGIN_GROUP = "harness.evaluations"
"""The entry-point group through which an installed package adds evaluations."""
PLUGIN_PROBLEMS: list[str] = []
"""One line per evaluation plug-in that could not be added, naming its package."""


def find_evaluation(name: str, game: str) -> Evaluation:
    """The evaluation called ``name``, checked to evaluate the OpenSpiel game ``game`` (its
    short name); the error lists the known evaluations."""
    for evaluation in EVALUATIONS:
        if evaluation.name == name:
            if evaluation.games and game not in evaluation.games:
                raise HarnessError(f"openspiel: eval={name} evaluates {', '.join(evaluation.games)}, "
                                   f"not {game}")
            return evaluation
    close = difflib.get_close_matches(name, [e.name for e in EVALUATIONS], n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise HarnessError(f"openspiel: unknown evaluation eval={name!r} ({hint}known: "
                       f"{', '.join(e.name for e in EVALUATIONS)})")


def listing() -> str:
    """The evaluations in one text: ``name`` (games): what it counts, bound."""
    return "; ".join(f"{e.name} ({', '.join(e.games) or 'any game'}"
                     f"{'' if e.origin == BUILT_IN else ', from ' + e.origin}): {e.description}, "
                     f"|value| <= {e.bound}" for e in EVALUATIONS)


# Last, so that a plug-in may import anything above from this module while it loads.
_plugins, _problems = load_entry_points(PLUGIN_GROUP, Evaluation, (e.name for e in EVALUATIONS),
                                        lambda e: e.name, lambda e, package: replace(e, origin=package))
EVALUATIONS += _plugins
PLUGIN_PROBLEMS += _problems
