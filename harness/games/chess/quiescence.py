"""The quiescence search's options in chess (problem-set options ``qsee``, ``delta`` and
``qchecks``), and the move lists they make, computed on a python-chess board.

Quiescence (``ChessTree.quiesce``) stands pat on the evaluation and searches captures
and promotions, most valuable victim first. The options, each off by default:

- **SEE pruning** (``qsee=1``): a capture whose static exchange evaluation
  (:func:`harness.games.chess.see.see`) is negative is not searched; promotions always
  are. With ``qchecks`` it applies to the quiet checks too (a check that loses the
  checking piece for nothing), as Stockfish's quiescence prunes its checks by SEE.
- **Delta pruning** (``delta=1``): a capture is not searched when the stand-pat value plus
  the captured piece's value plus :data:`DELTA_MARGIN` cannot raise alpha; its value is
  then that sum (the most it promised: the fail-soft bound, as Fruit and Toga keep it).
  Promotions are never delta-pruned. Off where the game phase (the evaluation's, knight
  and bishop 1, rook 2, queen 4, 24 a full middle game) is at most
  :data:`DELTA_ENDGAME_PHASE`: in the late endgame giving up material to reach a won
  ending, or a draw by insufficient material, is what matters.
- **Checks in the first quiescence ply** (``qchecks=1``): at the horizon leaf itself (the
  node the search asks for a quiescence value), after the captures, the quiet moves that
  give check are searched too, in generation order; a qnode in check one ply below the
  horizon (after a quiet check or a capture that checks) does not stand pat: it searches
  all its evasions (captures first, as above, then the quiet ones in generation order), and
  with none it is mated, scored as the tree scores a mate at its ply. Deeper qnodes search
  as without the option (so the search stays finite: checks only once).

SEE and delta pruning come first in that order: a capture SEE prunes promises no bound;
one delta prunes does. Every move searched counts one ``qnode``, as before; a pruned one
is not a node. Both chess trees (``tree.py``, ``_board.c``) search alike, node for node.

Sources: the Chess Programming Wiki's *Delta Pruning* ("a safety margin, typically around
200 centipawns", "switched off in the late endgame"), *Static Exchange Evaluation* and
*Quiescence Search* (checks at the first quiescence ply); Fruit 2.1's ``full_quiescence``
(delta pruning with the optimistic value kept as the bound, checks at its first ply).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

import chess

from harness.games.base import QuiescenceCounters
from harness.games.chess.evaluation import piece_value
from harness.games.chess.see import see

DELTA_MARGIN = 200
"""Delta pruning's safety margin in centipawns: the Chess Programming Wiki's "typically
around 200 centipawns" (two pawns of positional gain a capture may bring beside the
piece). Fruit's is smaller (its ``DeltaMargin``, 50, from a finer evaluation)."""
DELTA_ENDGAME_PHASE = 6
"""Game phase at or below which delta pruning is off: a rook and a minor piece each, or
less, beside the pawns (a quarter of the full 24)."""


@dataclass(frozen=True)
class QuiescenceRules:
    """The quiescence search's options of a chess tree (all off: the full capture search)."""

    see: bool = False
    """Skip captures whose static exchange evaluation is negative (promotions are always
    searched); with ``checks``, quiet checks too (game option ``qsee``)."""
    delta: bool = False
    """Delta pruning: skip a capture whose victim plus :data:`DELTA_MARGIN` cannot lift the
    stand-pat value to alpha, except in the late endgame (game option ``delta``)."""
    checks: bool = False
    """Quiet checks at the horizon leaf, and every evasion without standing pat at a qnode
    in check just below it (game option ``qchecks``)."""

    @property
    def any(self) -> bool:
        """Whether any option is on."""
        return self.see or self.delta or self.checks


NO_RULES = QuiescenceRules()
"""The full capture search (every option off)."""

PROMOTION = -1
"""The victim value :func:`capture_plan` gives a promotion: never delta-pruned."""


def capture_plan(board: chess.Board, captures: Iterable[chess.Move],
                 rules: QuiescenceRules) -> tuple[tuple[chess.Move, int], ...]:
    """The captures and promotions quiescence searches under ``rules`` (``captures`` in
    their order, those SEE prunes left out), each with the value of its victim for delta
    pruning (:data:`PROMOTION` for a promotion)."""
    plan = []
    for move in captures:
        if move.promotion:
            plan.append((move, PROMOTION))
            continue
        if rules.see and see(board, move) < 0:
            continue
        victim = board.piece_type_at(move.to_square)
        plan.append((move, piece_value(victim or chess.PAWN)))     # (none: en passant)
    return tuple(plan)


def quiet_checks(board: chess.Board, quiet: Iterable[chess.Move],
                 rules: QuiescenceRules) -> tuple[tuple[chess.Move, int], ...]:
    """The moves of ``quiet`` (legal, neither captures nor promotions, in their order)
    that give check, those SEE prunes left out, paired as :func:`capture_plan`'s (never
    delta-pruned)."""
    return tuple((m, PROMOTION) for m in quiet
                 if board.gives_check(m) and not (rules.see and see(board, m) < 0))


def search_moves(kind: int, stand_pat: int, alpha: int, beta: int, counters: QuiescenceCounters,
                 moves: Iterable[tuple[chess.Move, int]], delta: bool, mated: int,
                 child: Callable[[chess.Move, int, int, QuiescenceCounters, int], int]) -> int:
    """The fail-soft move loop of a quiescence node of ``kind`` (not ``BELOW_HORIZON``) whose
    stand-pat value is below ``beta``: ``moves`` as the rules search them (with their
    victims' values), delta-pruned if ``delta`` (the rules ask for it and the phase allows
    it), each searched ``child(move, alpha, beta, counters, kind of child)`` a qnode; at an
    evasion node no stand pat, and ``mated`` (the tree's mate score here) with no move."""
    best = mated if kind == Kind.EVASION else stand_pat
    if kind != Kind.EVASION and best > alpha:
        alpha = best
    below = Kind.BELOW_HORIZON if kind == Kind.HORIZON else Kind.PLAIN
    delta = delta and kind != Kind.EVASION
    for move, victim in moves:
        if delta and victim != PROMOTION:
            optimistic = stand_pat + victim + DELTA_MARGIN
            if optimistic <= alpha:            # cannot raise alpha: its bound, no node
                if optimistic > best:
                    best = optimistic
                continue
        counters.qnodes += 1
        v = -child(move, -beta, -alpha, counters, below)
        if v > best:
            best = v
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
    return best


class QuiescenceRecord(Protocol):
    """What :func:`settled` reads of a position's record (``tree.PositionInfo``)."""

    @property
    def evaluation(self) -> int | None:
        """Static evaluation for the side to move."""

    @property
    def qmoves(self) -> tuple[chess.Move, ...] | None:
        """Legal captures and promotions (``()``: none)."""

    @property
    def quiescence(self) -> tuple[int, ...]:
        """Remembered results: ``tag, beta, value, qnodes`` each."""


class Kind:
    """Kinds of quiescence node (ints, as ``_board.c`` numbers them)."""

    PLAIN = 0
    """Stand pat, then the captures and promotions."""
    HORIZON = 1
    """With quiet checks on, the horizon leaf: stand pat, captures, then quiet checks."""
    EVASION = 2
    """With quiet checks on, a node in check just below the horizon: every evasion."""
    BELOW_HORIZON = 3
    """A child of the horizon leaf: an evasion node or a plain one as it is in check."""


def window_tag(alpha: int, kind: int, ply: int) -> int:
    """How a remembered result names its window's alpha: ``alpha`` itself at a plain node;
    at another, a number beyond every alpha (a window fits a C long: |alpha| < 2^63) that
    also names the kind and the ply (a mate below the horizon scores by its ply)."""
    return alpha if kind == Kind.PLAIN else ((kind << 16 | ply) << 64) + alpha


def settled(info: QuiescenceRecord, alpha: int, beta: int, counters: QuiescenceCounters,
            kind: int = Kind.PLAIN, ply: int = 0) -> int | None:
    """The quiescence value of a position whose evaluation is known, when it needs no
    search: standing pat fails high, there are no captures (a plain node), or the window's
    result is remembered (its qnodes are added); else ``None``."""
    stand_pat = info.evaluation
    assert stand_pat is not None
    if kind == Kind.PLAIN:
        if stand_pat >= beta or info.qmoves == ():
            return stand_pat
    elif kind == Kind.HORIZON and stand_pat >= beta:
        return stand_pat
    tag = alpha if kind == Kind.PLAIN else window_tag(alpha, kind, ply)   # (no call: every qnode)
    known = info.quiescence
    for i in range(0, len(known), 4):
        if known[i] == tag and known[i + 1] == beta:
            counters.qnodes += known[i + 3]
            return known[i + 2]
    return None
