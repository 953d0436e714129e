"""Chess positions as a search tree, through python-chess.

The cursor is one :class:`chess.Board`, pushed and popped (never copied per node). What
is a pure function of the position (legal moves in static order, the evaluation, check
status, the quiescence moves) is computed once per position and kept in a
:class:`PositionCache` shared by every variant, depth and iteration that searches the
problem: all of them search subsets of the same tree, so the cache changes no count.
Dynamic ordering (killers, history) belongs to one search and is cleared by ``reset``.

Nothing slow (``fen()``, ``san()``, ``is_game_over()``, claims of draws) runs per node;
draws by repetition or the fifty-move rule are not detected (a fixed-depth search of a
test position never needs them), stalemate and checkmate are.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import chess

from harness.search.counters import Counters
from harness.trees.base import Move
from harness.trees.evaluation import MATE, evaluate, piece_value

DEFAULT_CACHE_ENTRIES = 400_000
"""Positions a cache holds before it is emptied (about 1 GB at the most)."""


@dataclass(frozen=True)
class Ordering:
    """Move-ordering switches of a chess tree (the hash move is the search frame's)."""

    mvv_lva: bool = True
    """Captures and promotions first, most valuable victim first, then least valuable
    attacker; quiet moves after them in generation order."""
    killers: bool = False
    """Two quiet moves per ply that last caused a cutoff there, tried after captures."""
    history: bool = False
    """Quiet moves sorted by how often (weighted by depth squared) they caused a cutoff."""


class PositionInfo:
    """What the cache knows about one position; each part computed on first use."""

    __slots__ = ("evaluation", "in_check", "moves", "qmoves", "tactical")

    def __init__(self, board: chess.Board) -> None:
        self.in_check = board.is_check()
        """Whether the side to move is in check."""
        self.evaluation: int | None = None
        """Static evaluation for the side to move."""
        self.moves: tuple[chess.Move, ...] | None = None
        """Legal moves in static order."""
        self.tactical = 0
        """How many of ``moves`` are captures or promotions (they come first with MVV-LVA)."""
        self.qmoves: tuple[chess.Move, ...] | None = None
        """Legal captures and promotions in MVV-LVA order, for quiescence."""


class PositionCache:
    """Per-problem store of :class:`PositionInfo` by position key.

    Policy: when it holds ``max_entries`` positions it is emptied and starts again, so
    memory stays bounded and results are unaffected. Free it (``clear``) when a problem
    is done.
    """

    __slots__ = ("entries", "max_entries", "misses")

    def __init__(self, max_entries: int = DEFAULT_CACHE_ENTRIES) -> None:
        self.entries: dict[Hashable, PositionInfo] = {}
        """Known positions."""
        self.max_entries = max_entries
        """Cap on ``entries``."""
        self.misses = 0
        """Positions analysed (cache misses)."""

    def clear(self) -> None:
        self.entries.clear()


def _tactical_score(board: chess.Board, move: chess.Move) -> int | None:
    """MVV-LVA score of a capture or promotion, ``None`` for a quiet move."""
    victim = board.piece_type_at(move.to_square)
    if victim is None and board.is_en_passant(move):
        victim = chess.PAWN
    if victim is None and move.promotion is None:
        return None
    attacker = board.piece_type_at(move.from_square)
    return 10 * (piece_value(victim) + piece_value(move.promotion)) - piece_value(attacker)


def _mvv_lva(board: chess.Board, moves: Sequence[chess.Move]) -> tuple[list[chess.Move], list[chess.Move]]:
    """Split into (tactical moves best first, quiet moves in the given order). Ties are
    broken by the move itself, so the order never depends on how the list was made."""
    tactical: list[tuple[int, int, int, int, chess.Move]] = []
    quiet: list[chess.Move] = []
    for move in moves:
        score = _tactical_score(board, move)
        if score is None:
            quiet.append(move)
        else:
            tactical.append((-score, move.from_square, move.to_square, move.promotion or 0, move))
    tactical.sort(key=lambda t: t[:4])
    return [t[4] for t in tactical], quiet


class ChessTree:
    """A chess position behind the :class:`harness.trees.base.Tree` cursor."""

    def __init__(self, board: chess.Board, ordering: Ordering = Ordering(),
                 cache: PositionCache | None = None) -> None:
        self.board = board.copy(stack=False)
        """The cursor; at the root between searches."""
        self.ordering = ordering
        """Move-ordering switches."""
        self.cache = PositionCache() if cache is None else cache
        """Static facts about positions, shared by every search of this tree."""
        self.ply = 0
        """Distance from the root."""
        self._keys: list[Hashable] = [self.board._transposition_key()]
        self._nulls: list[bool] = [False]
        self._killers: list[list[chess.Move]] = []
        self._history: dict[tuple[int, int], int] = {}

    # -- the Tree interface ---------------------------------------------------------
    def moves(self) -> Sequence[Move]:
        info = self._info()
        if info.moves is None:
            legal = list(self.board.legal_moves)
            if self.ordering.mvv_lva:
                tactical, quiet = _mvv_lva(self.board, legal)
                info.moves, info.tactical = (*tactical, *quiet), len(tactical)
            else:
                info.moves = tuple(legal)
        moves = info.moves
        if (self.ordering.killers or self.ordering.history) and len(moves) > info.tactical + 1:
            return self._dynamic_order(moves, info.tactical)
        return moves

    def push(self, move: Move) -> None:
        assert isinstance(move, chess.Move)
        self.board.push(move)
        self.ply += 1
        self._keys.append(self.board._transposition_key())
        self._nulls.append(False)

    def pop(self) -> None:
        self.board.pop()
        self.ply -= 1
        self._keys.pop()
        self._nulls.pop()

    def value(self) -> int:
        info = self._info()
        if info.evaluation is None:
            info.evaluation = evaluate(self.board)
        return info.evaluation

    def terminal_value(self) -> int:
        """Checkmate (a loss, nearer is worse) or stalemate (a draw)."""
        return -(MATE - self.ply) if self._info().in_check else 0

    def key(self) -> Hashable:
        return self._keys[-1]

    def move_name(self, move: Move) -> str:
        assert isinstance(move, chess.Move)
        return move.uci()

    def reset(self) -> None:
        while self.ply:
            self.pop()
        self._killers.clear()
        self._history.clear()

    def cutoff(self, move: Move, depth: int) -> None:
        """Learn from a fail-high caused by ``move`` (killers and history, quiet moves only)."""
        if not (self.ordering.killers or self.ordering.history):
            return
        assert isinstance(move, chess.Move)
        if _tactical_score(self.board, move) is not None:
            return
        if self.ordering.killers:
            while len(self._killers) <= self.ply:
                self._killers.append([])
            slot = self._killers[self.ply]
            if move not in slot:
                slot.insert(0, move)
                del slot[2:]
        if self.ordering.history:
            key = (move.from_square, move.to_square)
            self._history[key] = self._history.get(key, 0) + depth * depth

    def set_ordering(self, ordering: Ordering) -> None:
        """Switch move ordering between searches; static orders are forgotten if the
        MVV-LVA switch changes (the cache would hold the other order)."""
        if ordering.mvv_lva != self.ordering.mvv_lva:
            self.cache.clear()
        self.ordering = ordering

    # -- enhancements used by the search frame ---------------------------------------
    def in_check(self) -> bool:
        return self._info().in_check

    def null_allowed(self, rule: str) -> bool:
        """Whether a null move may be tried here: never in check, and not after null
        moves (``either``: neither of the previous two plies was one; ``both``: not
        both of them, Diepeveen's code)."""
        if self._info().in_check:
            return False
        last_two = self._nulls[-2:]          # the moves into this node and into its parent
        return True not in last_two if rule == "either" else last_two != [True, True]

    def push_null(self) -> None:
        self.board.push(chess.Move.null())
        self.ply += 1
        self._keys.append(self.board._transposition_key())
        self._nulls.append(True)

    def quiesce(self, alpha: int, beta: int, counters: Counters) -> int:
        """Fail-soft quiescence: stand pat, then captures and promotions in MVV-LVA order.
        The node it starts from is the horizon leaf; each node below it is a qnode."""
        best = self.value()
        if best >= beta:
            return best
        alpha = max(alpha, best)
        for move in self._qmoves():
            self.push(move)
            counters.qnodes += 1
            v = -self.quiesce(-beta, -alpha, counters)
            self.pop()
            if v > best:
                best = v
                if v >= beta:
                    return v
                alpha = max(alpha, v)
        return best

    # -- internals -------------------------------------------------------------------
    def _info(self) -> PositionInfo:
        key = self._keys[-1]
        cache = self.cache
        info = cache.entries.get(key)
        if info is None:
            if len(cache.entries) >= cache.max_entries:
                cache.entries.clear()
            info = cache.entries[key] = PositionInfo(self.board)
            cache.misses += 1
        return info

    def _qmoves(self) -> tuple[chess.Move, ...]:
        info = self._info()
        if info.qmoves is None:
            board = self.board
            if info.moves is not None and self.ordering.mvv_lva:
                info.qmoves = info.moves[:info.tactical]
            else:
                own_pawns = board.pawns & board.occupied_co[board.turn]
                seventh = chess.BB_RANK_7 if board.turn else chess.BB_RANK_2
                candidates = [*board.generate_legal_captures(),
                              *board.generate_legal_moves(own_pawns & seventh, ~board.occupied)]
                tactical, _ = _mvv_lva(board, candidates)
                info.qmoves = tuple(tactical)
        return info.qmoves

    def _dynamic_order(self, moves: tuple[chess.Move, ...], tactical: int) -> list[chess.Move]:
        quiet = list(moves[tactical:])
        if self.ordering.history and self._history:
            history = self._history
            quiet.sort(key=lambda m: -history.get((m.from_square, m.to_square), 0))
        if self.ordering.killers and self.ply < len(self._killers):
            killers = [k for k in self._killers[self.ply] if k in quiet]
            if killers:
                quiet = killers + [m for m in quiet if m not in killers]
        return [*moves[:tactical], *quiet]
