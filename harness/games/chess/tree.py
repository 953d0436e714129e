"""Chess positions as a search tree, through python-chess.

The cursor is one :class:`chess.Board`, pushed and popped (never copied per node). What
is a pure function of the position (legal moves in static order, the evaluation, check
status, the quiescence moves, and the quiescence search's value and node count for each
window) is computed once per position and kept in a :class:`PositionCache` shared by
every variant, depth and iteration that searches the problem: all of them search subsets
of the same tree, so the cache changes no count.
Dynamic ordering (killers, history) belongs to one search and is cleared by ``reset``.

Nothing slow (``fen()``, ``san()``, ``is_game_over()``, claims of draws) runs per node.
Stalemate and checkmate are detected; draws by repetition or the fifty-move rule only with
``draws`` on (the game option ``repetition``): then a node below the root whose position
repeats one of the game before the root or of the path (once is enough, as engines count)
since the last capture, pawn move or null move, or whose half-move clock reached 100 (and
that is not checkmate), is a draw: no moves, and 0 as its terminal, static and quiescence
value (:meth:`ChessTree.drawn`, Stockfish's ``Position::is_draw`` without its root
distinction). The draw is a fact of the path, never of the position: the cache keeps none.

This tree is the reference: ``_board.c`` (:mod:`harness.games.chess.compiled`) is its
compiled twin, about ten times as fast, node for node the same searches.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import chess

from harness.games.base import Move, QuiescenceCounters, SelectiveMargins
from harness.games.chess.evaluation import MATE, SELECTIVE_MARGINS, material_sum, move_delta, score
from harness.games.chess.keys import history_keys
from harness.games.chess.keys import position_key as position_key  # re-exported: its home was here
from harness.games.chess.movegen import move_code, mvv_lva, ordered_moves, ordered_tactical_moves
from harness.games.chess.play import Undo, play, prepare, take_back
from harness.games.chess.position_cache import _CODES, _NO_CHILDREN, TRANSIENT, PositionInfo
from harness.games.chess.position_cache import PositionCache as PositionCache  # re-exported
from harness.games.chess.quiescence import (
    DELTA_ENDGAME_PHASE,
    NO_RULES,
    PROMOTION,
    Kind,
    QuiescenceRules,
    capture_plan,
    quiet_checks,
    search_moves,
    settled,
    window_tag,
)


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
    quiescence: QuiescenceRules = NO_RULES
    """The quiescence search's options (SEE and delta pruning, checks at its first ply):
    not an order, but switched with it between searches (:meth:`ChessTree.set_ordering`)."""


FIFTY_MOVES = 100
"""The half-move clock at which a position is drawn by the fifty-move rule (unless it is
checkmate)."""


def _push(board: chess.Board, move: chess.Move | None) -> None:
    board.push(chess.Move.null() if move is None else move)


def _pop(board: chess.Board, undo: Undo | None) -> None:
    board.pop()


class ChessTree:
    """A chess position behind the :class:`harness.games.base.Tree` cursor.

    The cursor is lazy: ``push`` follows the cache's record of where a move leads, and the
    board is brought up to the current node (by pushing the moves it has not played yet)
    only when a fact the cache lacks must be computed. A second variant searching the
    same positions therefore never touches the board.
    """

    def __init__(self, board: chess.Board, ordering: Ordering = Ordering(),
                 cache: PositionCache | None = None, draws: bool = False) -> None:
        self.draws = draws
        """Score a repetition or the fifty-move rule below the root as a draw (the game
        option ``repetition``); off, neither is detected."""
        self.game_keys = history_keys(board) if draws else ()
        """With ``draws``: the keys of the game's positions before the root that a position
        of the search could repeat (:func:`history_keys` of the board's move stack)."""
        self.repetition_draws = 0
        """Nodes this search scored 0 as draws by repetition or the fifty-move rule
        (``reset`` starts again from 0): the tree's counter of ``results.csv``."""
        self.board = board.copy(stack=False)
        """The board: the root plus the first ``synced`` moves of the current path."""
        # Moves are played with harness.games.chess.play (python-chess's push without its stacks)
        # except on chess960 boards, whose castling moves python-chess writes differently.
        self._play: Callable[[chess.Board, chess.Move | None], Undo | None] = play
        self._take_back: Callable[[chess.Board, Any], None] = take_back
        if self.board.chess960:
            self._play, self._take_back = _push, _pop
        else:
            prepare(self.board)
        self._undo: list[Undo | None] = []
        self.ordering = ordering
        """Move-ordering switches."""
        self._dynamic = ordering.killers or ordering.history   # read at every node
        self.cache = PositionCache() if cache is None else cache
        """Static facts about positions, shared by every search of this tree."""
        self._rules = ordering.quiescence     # read at every qnode
        self._checks = self._rules.checks
        if self.cache.rules != self._rules:   # its quiescence results are another search's
            self.cache.clear()
            self.cache.rules = self._rules
        self.ply = 0
        """Distance from the root."""
        self.root_turn = self.board.turn
        """Side to move at the root."""
        self.synced = 0
        """How many moves of the current path the board has played."""
        self._path: list[chess.Move | None] = []
        self._infos: list[PositionInfo] = [self._root_info()]
        self._killers: list[list[chess.Move]] = []
        self._history: dict[tuple[int, int], int] = {}

    # -- the Tree interface ---------------------------------------------------------
    def moves(self) -> Sequence[Move]:
        if self.draws and self.ply and self.drawn():
            return ()
        moves = self._static_moves()
        if self._dynamic and len(moves) > 1:
            return self._dynamic_order(moves, self._infos[-1].tactical)
        return moves

    def _static_moves(self) -> tuple[chess.Move, ...]:
        """The legal moves in static order (the cache's, computed on first use)."""
        info = self._infos[-1]
        moves = info.moves
        if moves is None:
            board = self._sync()
            info = self._infos[-1]              # bringing the board here may have keyed it
        if moves is None and info.moves is None:
            legal, tactical, quiet, codes = ordered_moves(board)   # shared move objects
            if codes:
                info.tactical = frozenset(codes)
            info.moves = tuple(tactical + quiet if self.ordering.mvv_lva else legal)
        moves = info.moves
        assert moves is not None
        return moves

    def push(self, move: Move) -> None:
        # move_code, inlined: this is the innermost step of every search.
        if move is None:
            code = -1
        else:
            code = move.from_square | move.to_square << 6 | (move.promotion or 0) << 12  # type: ignore[attr-defined]
        child = self._infos[-1].children.get(code)
        if child is None:
            child = self._new_child(cast("chess.Move | None", move), code)
        self._path.append(move)  # type: ignore[arg-type]
        self._infos.append(child)
        self.ply += 1

    def _new_child(self, move: chess.Move | None, code: int) -> PositionInfo:
        """The record of a position met for the first time from here. It is not played on
        the board: its evaluation is the parent's plus the move's delta, and a leaf needs
        nothing else. It gets its key when the board is brought to it (``_sync``)."""
        board = self._sync()
        parent = self._infos[-1]
        child = self.cache.make(None)
        if parent.packed is not None:
            delta, phase = (0, 0) if move is None else move_delta(board, move)
            child.packed, child.phase = parent.packed + delta, parent.phase + phase
        if parent.generation == child.generation == self.cache.generation:
            if parent.children is _NO_CHILDREN:
                parent.children = {}
            parent.children[_CODES[code] if code >= 0 else code] = child
        return child

    def pop(self) -> None:
        self._path.pop()
        self._infos.pop()
        self.ply -= 1
        if self.synced > self.ply:
            self._take_back(self.board, self._undo.pop())
            self.synced -= 1

    def value(self) -> int:
        if self.draws and self.ply and self.drawn():
            self.repetition_draws += 1
            return 0
        info = self._infos[-1]
        if info.evaluation is None:
            info.evaluation = self._evaluate(info)
        return info.evaluation

    def child_value(self, move: Move) -> int:
        self.push(move)
        value = self.value()
        self.pop()
        return value

    def child_quiesce(self, move: Move, alpha: int, beta: int, counters: QuiescenceCounters) -> int:
        """:meth:`quiesce` at the child reached by ``move``, leaving the cursor here (the
        search's shortcut for a leaf at the horizon). A known child that needs no search
        (:func:`settled`) is answered without moving the cursor. With ``draws`` the child
        is always stepped into: whether it is drawn depends on the path."""
        if self.draws:
            self.push(move)
            value = self.quiesce(alpha, beta, counters)
            self.pop()
            return value
        if self._checks:
            return self._child_search(cast("chess.Move", move), alpha, beta, counters, Kind.HORIZON)
        return self._child_quiesce(move, alpha, beta, counters)

    def _child_quiesce(self, move: Move, alpha: int, beta: int, counters: QuiescenceCounters) -> int:
        """:meth:`child_quiesce` at a plain node, without the draw test: below the horizon
        every move is a capture or a promotion, which zeroes the half-move clock, so no
        quiescence node but the first can be drawn (the quiet checks and evasions of the
        quiescence options are tested by :meth:`_child_search`)."""
        # move_code, inlined as in push: every horizon leaf and qnode comes here.
        code = -1 if move is None else move.from_square | move.to_square << 6 | (move.promotion or 0) << 12  # type: ignore[attr-defined]
        child = self._infos[-1].children.get(code)
        if child is not None and child.evaluation is not None:
            value = settled(child, alpha, beta, counters)
            if value is not None:
                return value
        self.push(move)
        value = self._quiesce(alpha, beta, counters, Kind.PLAIN)
        self.pop()
        return value

    def terminal_value(self) -> int:
        """Checkmate (a loss, nearer is worse), stalemate (a draw), or (``draws``) a draw by
        repetition or the fifty-move rule."""
        if self.draws and self.ply and self.drawn():
            self.repetition_draws += 1
            return 0
        return -(MATE - self.ply) if self.in_check() else 0

    def key(self) -> Hashable:
        key = self._infos[-1].key
        if key is None:
            self._sync()
            key = self._infos[-1].key
        return key

    def move_name(self, move: Move) -> str:
        assert isinstance(move, chess.Move)
        return move.uci()

    def reset(self) -> None:
        while self.ply:
            self.pop()
        self.repetition_draws = 0
        self._killers.clear()
        self._history.clear()

    def cutoff(self, move: Move, depth: int) -> None:
        """Learn from a fail-high caused by ``move`` (killers and history, quiet moves only)."""
        if not self._dynamic:
            return
        assert isinstance(move, chess.Move)
        if move_code(move) in self._infos[-1].tactical:
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
        MVV-LVA switch changes (the cache would hold the other order), and so are
        quiescence results if the quiescence rules do."""
        if ordering.mvv_lva != self.ordering.mvv_lva or ordering.quiescence != self._rules:
            self.reset()
            self.cache.clear()
            self.cache.rules = ordering.quiescence
            self._infos[0] = self._root_info()
        self._rules = ordering.quiescence
        self._checks = self._rules.checks
        self.ordering = ordering
        self._dynamic = ordering.killers or ordering.history

    # -- enhancements used by the search frame ---------------------------------------
    selective_margins: SelectiveMargins = SELECTIVE_MARGINS
    """Chess's margins for the selective switches (``evaluation.SELECTIVE_MARGINS``)."""

    def tactical(self, move: Move) -> bool:
        """Whether ``move`` (one of ``moves()`` here) is a capture or a promotion (the
        moves killers and history never learn) or gives check: the moves the selective
        switches never prune or reduce."""
        assert isinstance(move, chess.Move)
        return move_code(move) in self._infos[-1].tactical or self._sync().gives_check(move)

    def in_check(self) -> bool:
        info = self._infos[-1]
        if info.in_check is None:
            board = self._sync()
            info = self._infos[-1]
            if info.in_check is None:
                info.in_check = board.is_check()
        return info.in_check

    def null_allowed(self, rule: str) -> bool:
        """Whether a null move may be tried here: never in check, and not after null
        moves (``either``: neither of the previous two plies was one; ``both``: not
        both of them, Diepeveen's code)."""
        if self.in_check():
            return False
        last_two = [move is None for move in self._path[-2:]]   # into this node and its parent
        return True not in last_two if rule == "either" else last_two != [True, True]

    def push_null(self) -> None:
        self.push(None)

    def quiesce(self, alpha: int, beta: int, counters: QuiescenceCounters) -> int:
        """Fail-soft quiescence: stand pat, then captures and promotions in MVV-LVA order,
        under the options of ``ordering.quiescence`` (:mod:`harness.games.chess.quiescence`).
        The node it starts from is the horizon leaf; each node below it is a qnode.

        Its value and its qnodes are a pure function of the position, the window and the
        kind of node (and, below a horizon that searches checks, the ply), so a record
        remembers both for each window whose search made a qnode, and searching that
        window again (another variant, depth or pass) only adds the count. With ``draws``,
        a drawn node is 0 and searches nothing."""
        if self.draws and self.ply and self.drawn():
            self.repetition_draws += 1
            return 0
        return self._quiesce(alpha, beta, counters, Kind.HORIZON if self._checks else Kind.PLAIN)

    def _quiesce(self, alpha: int, beta: int, counters: QuiescenceCounters, kind: int) -> int:
        """:meth:`quiesce` at a node of ``kind`` (not ``BELOW_HORIZON``), without the draw
        test (see :meth:`_child_quiesce`)."""
        info = self._infos[-1]
        stand_pat = info.evaluation
        if stand_pat is None:
            stand_pat = info.evaluation = self._evaluate(info)
        if self.draws and kind != Kind.PLAIN:   # below it a quiet move may repeat: not remembered
            if kind == Kind.HORIZON and stand_pat >= beta:
                return stand_pat
            return self._ruled(kind, stand_pat, alpha, beta, counters)
        value = settled(info, alpha, beta, counters, kind, self.ply)
        if value is not None:
            return value
        start = counters.qnodes
        if self._rules.any:
            value = self._ruled(kind, stand_pat, alpha, beta, counters)
        else:
            value = self._captures(stand_pat, alpha, beta, counters)
        if counters.qnodes > start:
            self._remember(window_tag(alpha, kind, self.ply), beta, value, counters.qnodes - start)
        return value

    def _ruled(self, kind: int, stand_pat: int, alpha: int, beta: int,
               counters: QuiescenceCounters) -> int:
        """Quiescence under the tree's rules at a node of ``kind`` whose stand-pat value
        (unused at an evasion node) is below ``beta``: the moves the rules search, each a
        qnode, fail-soft; a pruned move is no node."""
        moves = self._qsearch_moves(kind)
        delta = self._rules.delta and self._infos[-1].phase > DELTA_ENDGAME_PHASE
        return search_moves(kind, stand_pat, alpha, beta, counters, moves, delta,
                            -(MATE - self.ply), self._child_search)

    def _child_search(self, move: chess.Move, alpha: int, beta: int, counters: QuiescenceCounters,
                      kind: int) -> int:
        """:meth:`_quiesce` at the child reached by ``move`` as a node of ``kind``
        (``BELOW_HORIZON``: as it is in check or not), leaving the cursor here; a known
        child that needs no search (:func:`settled`) is answered without moving it. With
        ``draws`` the child is stepped into and tested: a quiet check or evasion may repeat."""
        child = None if self.draws else self._infos[-1].children.get(move_code(move))
        if child is not None and child.evaluation is not None:
            known = kind
            if kind == Kind.BELOW_HORIZON:
                known = -1 if child.in_check is None else Kind.EVASION if child.in_check else Kind.PLAIN
            if known >= 0:
                value = settled(child, alpha, beta, counters, known, self.ply + 1)
                if value is not None:
                    return value
        self.push(move)
        if self.draws and self.drawn():
            self.repetition_draws += 1
            value = 0
        else:
            if kind == Kind.BELOW_HORIZON:
                kind = Kind.EVASION if self.in_check() else Kind.PLAIN
            value = self._quiesce(alpha, beta, counters, kind)
        self.pop()
        return value

    def _qsearch_moves(self, kind: int) -> tuple[tuple[chess.Move, int], ...]:
        """The moves a node of ``kind`` searches under the rules, each with its victim's
        value for delta pruning (``PROMOTION``: never pruned): the captures and promotions
        (:func:`capture_plan`), at the horizon then the quiet checks (:func:`quiet_checks`),
        both kept in the record; at an evasion node every legal move, captures first."""
        if kind == Kind.EVASION:
            return tuple((m, PROMOTION) for m in (*self._qmoves(), *self._quiet_moves()))
        info = self._infos[-1]
        if info.qplan is None or (kind == Kind.HORIZON and info.qchecks is None):
            qmoves = self._qmoves()
            board = self._sync()
            info = self._infos[-1]              # bringing the board here may have keyed it
            if info.qplan is None:
                info.qplan = capture_plan(board, qmoves, self._rules)
            if kind == Kind.HORIZON and info.qchecks is None:
                info.qchecks = quiet_checks(board, self._quiet_moves(), self._rules)
        assert info.qplan is not None
        return info.qplan if kind == Kind.PLAIN else info.qplan + (info.qchecks or ())

    def _quiet_moves(self) -> list[chess.Move]:
        """The legal moves here that neither capture nor promote, in generation order."""
        board = self._sync()
        info = self._infos[-1]
        if info.moves is None:
            return ordered_moves(board)[2]
        return [m for m in info.moves if move_code(m) not in info.tactical]

    def _captures(self, best: int, alpha: int, beta: int, counters: QuiescenceCounters) -> int:
        """Quiescence after standing pat with ``best`` below ``beta``: the captures."""
        if best > alpha:
            alpha = best
        qmoves = self._infos[-1].qmoves
        if qmoves is None:
            qmoves = self._qmoves()
        for move in qmoves:
            counters.qnodes += 1
            v = -self._child_quiesce(move, -beta, -alpha, counters)
            if v > best:
                best = v
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
        return best

    def _remember(self, alpha: int, beta: int, value: int, qnodes: int) -> None:
        """Keep a quiescence result in the current record (while under the cache's cap);
        ``alpha`` is the window's tag (:func:`window_tag`)."""
        cache = self.cache
        info = self._infos[-1]             # (searching may have keyed it: not the record we began on)
        if cache.results >= cache.max_results or info.generation == TRANSIENT:
            return
        cache.results += 1
        info.quiescence += (alpha, beta, value, qnodes)

    def drawn(self) -> bool:
        """Whether the current node is drawn by the fifty-move rule (its half-move clock
        reached :data:`FIFTY_MOVES` and it is not checkmate) or by repetition: its position
        is one met 4, 6, ... plies before it on the path or in the game before the root,
        looking back no further than the half-move clock (a capture or pawn move since
        makes a repetition impossible) nor past the last null move (Stockfish's
        ``pliesFromNull``: a pass makes a line no game can play). What ``draws`` detects
        below the root; the board is brought here (it needs the path's keys)."""
        board = self._sync()
        clock = board.halfmove_clock
        if clock >= FIFTY_MOVES:
            return not (self.in_check() and not self._static_moves())
        ply, path, infos = self.ply, self._path, self._infos
        reach = clock
        for back in range(1, min(reach, ply) + 1):
            if path[ply - back] is None:            # the move into ply - back + 1 was a pass
                reach = back - 1
                break
        here = infos[-1].key
        game_keys = self.game_keys
        for back in range(4, reach + 1, 2):
            index = ply - back
            if index >= 0:
                if infos[index].key == here:
                    return True
            elif -index <= len(game_keys):
                if game_keys[index] == here:
                    return True
            else:
                break
        return False

    # -- internals -------------------------------------------------------------------
    def _root_info(self) -> PositionInfo:
        info = self.cache.lookup(position_key(self.board))
        if info.packed is None:
            info.packed, info.phase = material_sum(self.board)
        return info

    def _evaluate(self, info: PositionInfo) -> int:
        """The static evaluation, from the sum carried down from the root (the side to
        move alternates with every ply, null moves included)."""
        if info.packed is None:          # reached after the cache was emptied: sum the board
            info.packed, info.phase = material_sum(self._sync())
            self._infos[-1].packed, self._infos[-1].phase = info.packed, info.phase
        return score(info.packed, info.phase, bool(self.root_turn ^ (self.ply & 1)))

    def _sync(self) -> chess.Board:
        """The board, brought up to the current node; records on the way get their keys."""
        board = self.board
        path = self._path
        infos = self._infos
        while self.synced < len(path):
            self._undo.append(self._play(board, path[self.synced]))
            self.synced += 1
            if infos[self.synced].key is None:
                self._key_record(self.synced)
        return board

    def _key_record(self, index: int) -> None:
        """Give the record at ``index`` on the path (the board stands on it) its key. If
        the position is already known by another path, the known record takes its place
        (and its parent's link), after learning what the new one knew."""
        info = self._infos[index]
        key = position_key(self.board)
        known = self.cache.entries.get(key)
        if known is None:
            info.key = key
            if info.generation == self.cache.generation:
                self.cache.entries[key] = info
            return
        if known.packed is None:
            known.packed, known.phase = info.packed, info.phase
        if known.evaluation is None:
            known.evaluation = info.evaluation
        if not known.quiescence:
            known.quiescence = info.quiescence
        self._infos[index] = known
        parent = self._infos[index - 1]
        code = move_code(self._path[index - 1])
        if parent.children.get(code) is info:
            parent.children[code] = known

    def _qmoves(self) -> tuple[chess.Move, ...]:
        info = self._infos[-1]
        if info.qmoves is None and info.moves is None:
            self._sync()
            info = self._infos[-1]              # bringing the board here may have keyed it
        if info.qmoves is None:
            if info.moves is not None:
                qmoves = [m for m in info.moves if move_code(m) in info.tactical]
                if not self.ordering.mvv_lva:
                    qmoves, _ = mvv_lva(self._sync(), qmoves)
                info.qmoves = tuple(qmoves)
            else:
                info.qmoves = tuple(ordered_tactical_moves(self.board))
        return info.qmoves

    def _dynamic_order(self, moves: tuple[chess.Move, ...],
                       tactical_codes: frozenset[int]) -> list[chess.Move]:
        """With MVV-LVA the captures stay first; then killers, then the other moves by
        history (stable). Without MVV-LVA no move is set apart: every move is reordered."""
        if self.ordering.mvv_lva:
            tactical = [m for m in moves if move_code(m) in tactical_codes]
            rest = [m for m in moves if move_code(m) not in tactical_codes]
        else:
            tactical, rest = [], list(moves)
        if self.ordering.history and self._history:
            history = self._history
            rest.sort(key=lambda m: -history.get((m.from_square, m.to_square), 0))
        if self.ordering.killers and self.ply < len(self._killers):
            killers = [k for k in self._killers[self.ply] if k in rest]
            if killers:
                rest = killers + [m for m in rest if m not in killers]
        return [*tactical, *rest]
