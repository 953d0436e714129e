"""``overhead``: the harness's ``alphabeta`` on chess positions against a bare alpha-beta
written directly on python-chess, here, doing exactly the same search.

The bare search has the harness's evaluation (``harness.games.chess.evaluation.evaluate``, and
its mate score), the same move ordering (captures and promotions first by MVV-LVA,
``10 * (victim + promotion) - attacker`` with middle-game material, ties broken by
``(from, to, promotion)``; quiet moves in python-chess generation order), the same
fail-hard alpha-beta and the same fail-soft quiescence (stand pat, then captures and
promotions in MVV-LVA order), and detects mate and stalemate the same way (only where a
node expands, not at the horizon). So it visits the same nodes: its ``nodes``, ``qnodes``,
``leaves`` and root score must equal the harness's, and the benchmark stops if they do not.

Position cache. The harness analyses each position once per problem (``PositionCache``).
The headline figure gives the bare search an equivalent per-search cache (a dict by the
same transposition key holding evaluation, ordered moves, quiescence moves and quiescence
results by window), so both
do the same chess work and the ratio is the frame's and the chess tree's overhead. As a
second, informational figure both run without a cache: the harness with
``PositionCache(max_entries=0)`` (it keeps only the position being visited, so every
visit analyses its position again), the bare search recomputing per visit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import Any

import chess

from benchmarks.common import Figure, Outcome, Target, median, spread, timed, wac_path
from harness.games.chess.epd import load_suite
from harness.games.chess.evaluation import MATE, MATERIAL, evaluate
from harness.games.chess.tree import ChessTree, PositionCache
from harness.search.registry import make_spec
from harness.search.run import Switches, run_search

INF = 1_000_000_000
TARGET = Target("<=", 1.10)
DEPTH = 3
POSITIONS = 10
REPEATS = {"full": 5, "quick": 3}

VALUE = tuple(mg for mg, _ in MATERIAL)
"""Middle-game material by piece type (index 0: none), the MVV-LVA values."""
_ORDER_KEY = itemgetter(0, 1, 2, 3)


@dataclass(frozen=True)
class Counts:
    """What a search did and found: must be equal for the harness and the bare search."""

    nodes: int
    qnodes: int
    leaves: int
    score: int


# -- the bare search --------------------------------------------------------------------------

def bare_alphabeta(board: chess.Board, depth: int, cached: bool = True) -> Counts:
    """Fail-hard alpha-beta to ``depth`` with fail-soft quiescence, directly on python-chess.

    With ``cached``, what depends only on the position (evaluation, ordered moves,
    quiescence moves) is computed once per position of this search; else once per visit.
    """
    board = board.copy(stack=False)
    push, pop = board.push, board.pop
    piece_type_at, is_en_passant = board.piece_type_at, board.is_en_passant
    key_of = board._transposition_key
    cache: dict[Hashable, list[Any]] = {}
    nodes = qnodes = leaves = 0

    def facts() -> list[Any]:
        """``[evaluation, moves, tactical count, quiescence moves, quiescence results by
        window]`` of this position."""
        if not cached:
            return [None, None, 0, None, {}]
        key = key_of()
        entry = cache.get(key)
        if entry is None:
            entry = cache[key] = [None, None, 0, None, {}]
        return entry

    def mvv_lva(moves: Sequence[chess.Move]) -> tuple[list[chess.Move], list[chess.Move]]:
        tactical: list[tuple[int, int, int, int, chess.Move]] = []
        quiet: list[chess.Move] = []
        for m in moves:
            victim = piece_type_at(m.to_square)
            promotion = m.promotion
            if victim is None:
                if is_en_passant(m):
                    victim = chess.PAWN
                elif promotion is None:
                    quiet.append(m)
                    continue
            score = (10 * (VALUE[victim or 0] + VALUE[promotion or 0])
                     - VALUE[piece_type_at(m.from_square) or 0])
            tactical.append((-score, m.from_square, m.to_square, promotion or 0, m))
        tactical.sort(key=_ORDER_KEY)
        return [t[4] for t in tactical], quiet

    def ordered_moves(entry: list[Any]) -> list[chess.Move]:
        moves: list[chess.Move] | None = entry[1]
        if moves is None:
            tactical, quiet = mvv_lva(list(board.generate_legal_moves()))
            moves = entry[1] = tactical + quiet
            entry[2] = len(tactical)
        return moves

    def quiescence_moves(entry: list[Any]) -> list[chess.Move]:
        qmoves: list[chess.Move] | None = entry[3]
        if qmoves is None:
            if entry[1] is not None:
                qmoves = entry[1][:entry[2]]
            else:
                own_pawns = board.pawns & board.occupied_co[board.turn]
                seventh = chess.BB_RANK_7 if board.turn else chess.BB_RANK_2
                qmoves, _ = mvv_lva([*board.generate_legal_captures(),
                                     *board.generate_legal_moves(own_pawns & seventh, ~board.occupied)])
            entry[3] = qmoves
        return qmoves

    def quiesce(alpha: int, beta: int) -> int:
        nonlocal qnodes
        entry = facts()
        best: int | None = entry[0]
        if best is None:
            best = entry[0] = evaluate(board)
        if best >= beta:
            return best
        known: tuple[int, int] | None = entry[4].get((alpha, beta))
        if known is not None:
            qnodes += known[1]
            return known[0]
        start = qnodes
        window = alpha, beta
        if best > alpha:
            alpha = best
        for m in quiescence_moves(entry):
            push(m)
            qnodes += 1
            v = -quiesce(-beta, -alpha)
            pop()
            if v > best:
                best = v
                if v >= beta:
                    break
                if v > alpha:
                    alpha = v
        if cached and qnodes > start:
            entry[4][window] = (best, qnodes - start)
        return best

    def search(depth: int, alpha: int, beta: int, ply: int) -> int:
        nonlocal nodes, leaves
        nodes += 1
        if depth <= 0:
            leaves += 1
            return quiesce(alpha, beta)
        moves = ordered_moves(facts())
        if not moves:
            leaves += 1
            return -(MATE - ply) if board.is_check() else 0
        for m in moves:
            push(m)
            v = -search(depth - 1, -beta, -alpha, ply + 1)
            pop()
            if v >= beta:
                return beta
            if v > alpha:
                alpha = v
        return alpha

    score = search(depth, -INF, INF, 0)
    return Counts(nodes, qnodes, leaves, score)


# -- the harness search ---------------------------------------------------------------------

def harness_alphabeta(board: chess.Board, depth: int, cached: bool = True) -> Counts:
    """The harness's ``alphabeta`` variant (no table, quiescence and MVV-LVA on) on a
    fresh tree: a fresh cache, or with ``cached=False`` one that keeps nothing."""
    cache = PositionCache() if cached else PositionCache(max_entries=0)
    tree = ChessTree(board, cache=cache)
    result = run_search(tree, make_spec("alphabeta"), depth, Switches())
    c = result.counters
    assert result.score is not None
    return Counts(c["nodes"], c["qnodes"], c["leaves"], result.score)


# -- the benchmark ------------------------------------------------------------------------------

def measure(mode: str, repeats: int | None = None, positions: int = POSITIONS,
            depth: int = DEPTH) -> Outcome:
    start = time.perf_counter()
    repeats = repeats or REPEATS[mode]
    suite = load_suite(wac_path())
    boards = [(p.id, p.board()) for p in suite.positions[:positions]]
    details: dict[str, Any] = {"positions": [i for i, _ in boards], "depth": depth}
    figures: list[Figure] = []
    for cached in (True, False):
        label = "cached" if cached else "uncached"
        counts: dict[str, Counts] = {}
        for pid, board in boards:                # check equality once, before timing
            h, b = harness_alphabeta(board, depth, cached), bare_alphabeta(board, depth, cached)
            if h != b:
                raise AssertionError(f"{pid} ({label}): harness {h} != bare {b}")
            counts[pid] = h
        times: dict[str, list[float]] = {"harness": [], "bare": []}
        cpu: dict[str, list[float]] = {"harness": [], "bare": []}
        for r in range(repeats):                 # interleaved, order alternating per repeat
            order: list[tuple[str, Callable[[chess.Board, int, bool], Counts]]] = [
                ("harness", harness_alphabeta), ("bare", bare_alphabeta)]
            for name, function in order if r % 2 == 0 else order[::-1]:
                total = total_cpu = 0.0
                for _, board in boards:
                    seconds, cpu_seconds, _ = timed(partial(function, board, depth, cached))
                    total += seconds
                    total_cpu += cpu_seconds
                times[name].append(total)
                cpu[name].append(total_cpu)
        ratio = median(times["harness"]) / median(times["bare"])
        cpu_ratio = median(cpu["harness"]) / median(cpu["bare"])
        nodes = sum(c.nodes for c in counts.values())
        qnodes = sum(c.qnodes for c in counts.values())
        details[label] = {
            "harness_s": spread(times["harness"]), "bare_s": spread(times["bare"]),
            "harness_cpu_s": spread(cpu["harness"]), "bare_cpu_s": spread(cpu["bare"]),
            "ratio": round(ratio, 4), "cpu_ratio": round(cpu_ratio, 4), "nodes": nodes, "qnodes": qnodes,
            "harness_nodes_per_s": round((nodes + qnodes) / median(times["harness"])),
            "bare_nodes_per_s": round((nodes + qnodes) / median(times["bare"])),
            "per_position": {pid: {"nodes": c.nodes, "qnodes": c.qnodes, "score": c.score}
                             for pid, c in counts.items()},
        }
        note = (f"{nodes:,} nodes + {qnodes:,} qnodes equal; harness "
                f"{median(times['harness']):.3f}s, bare {median(times['bare']):.3f}s; "
                f"CPU-time ratio {cpu_ratio:.3f}")
        if cached:
            figures.append(Figure("time harness/bare, both cached", ratio, "x", TARGET, note))
        else:
            figures.append(Figure("time harness/bare, no cache (info)", ratio, "x", None, note))
    method = (f"harness alphabeta (run_search, no table, quiescence, MVV-LVA) vs a bare "
              f"python-chess alpha-beta in benchmarks/overhead.py, first {positions} WAC "
              f"positions, depth {depth}; each timing sums the {positions} searches, a fresh "
              f"tree/cache per search; median of {repeats} interleaved repeats. Headline: "
              "both with a per-search position cache (harness PositionCache, bare dict by the "
              "same transposition key). Info: both without (harness PositionCache(max_entries=0)).")
    return Outcome("overhead", figures, repeats, mode, method, details,
                   time.perf_counter() - start)
