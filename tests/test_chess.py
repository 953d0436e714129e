"""Chess positions: terminal scores, evaluation, ordering, the cache, and exactness on real suites."""

from __future__ import annotations

import os
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.chess import movegen
from harness.games.chess.epd import load_suite
from harness.games.chess.evaluation import MATE, evaluate, material_sum, move_delta, score
from harness.games.chess.suite_files import project_positions
from harness.games.chess.tree import ChessTree, Ordering, PositionCache, position_key
from harness.search import CORE, VARIANTS, Switches, make_spec, run_search
from harness.search.counters import Counters

SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"
EXACT = [v.name for v in VARIANTS if v.exact and v.name != "minimax"]


def shared_suite(name: str) -> Path:
    for folder in [SHARED, *(Path(p) for p in os.environ.get("HARNESS_SUITES", "").split(os.pathsep) if p)]:
        if (folder / name).is_file():
            return folder / name
    pytest.skip(f"{name}: the public suites (../shared/positions) are not here")


def search(fen: str, name: str, depth: int, ordering: Ordering = Ordering(),
           **switches: object) -> tuple[int, str, dict[str, int]]:
    result = run_search(ChessTree(chess.Board(fen), ordering), make_spec(name), depth,
                        Switches(**switches))  # type: ignore[arg-type]
    return result.score, result.best_move, result.counters


def test_mate_in_one_is_found_with_distance() -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"             # Ra8#
    for name in ("alphabeta", "pvs", "negascout", "mtdf"):
        score, move, _ = search(fen, name, 2)
        assert (score, move) == (MATE - 1, "a1a8")


def test_terminal_roots_are_problems_not_crashes() -> None:
    mated = "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    assert search(mated, "pvs", 3)[:2] == (-MATE, "")
    assert search(stalemate, "pvs", 3)[:2] == (0, "")


@given(mg=st.integers(-40_000, 40_000), eg=st.integers(-40_000, 40_000), phase=st.integers(0, 64),
       turn=st.booleans())
def test_score_tapers_the_two_halves(mg: int, eg: int, phase: int, turn: bool) -> None:
    weight = min(phase, 24)
    tapered = (mg * weight + eg * (24 - weight)) // 24
    assert score(mg * (1 << 32) + eg, phase, turn) == (tapered if turn else -tapered)


def test_evaluation_is_symmetric() -> None:
    board = chess.Board("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 5")
    assert evaluate(board) == evaluate(board.mirror())
    assert evaluate(chess.Board()) == 0


# Positions where castling both ways, en passant, promotions (with capture) and
# underpromotions are legal, so random walks from them meet every kind of move.
WALK_STARTS = [
    chess.STARTING_FEN,
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/P1PP1PpP/R3K2R w KQkq e6 0 1",
    "r3k2r/p1pp1ppp/8/8/2pPp3/8/PP2PPpP/R3K1NR b KQkq d3 0 1",
    "1n2k3/P5P1/8/8/8/8/1p5p/4K1N1 w - - 0 1",
]


@settings(max_examples=60, deadline=None)
@given(start=st.sampled_from(WALK_STARTS), choices=st.lists(st.integers(0, 1 << 16), min_size=1, max_size=40))
def test_incremental_evaluation_equals_the_full_sum(start: str, choices: list[int]) -> None:
    """The sum carried from move to move (and the tree's evaluation built on it) equals
    the sum over the board, through castling, en passant, promotions and null moves."""
    board = chess.Board(start)
    tree = ChessTree(board)
    packed, phase = material_sum(board)
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves or (choice % 7 == 0 and not board.is_check()):
            move = None                                     # a null move now and then
            board.push(chess.Move.null())
        else:
            move = moves[choice % len(moves)]
            delta, change = move_delta(board, move)
            packed, phase = packed + delta, phase + change
            board.push(move)
        tree.push(move)
        assert (packed, phase) == material_sum(board)
        assert tree.value() == evaluate(board)


@settings(max_examples=60, deadline=None)
@given(start=st.sampled_from(WALK_STARTS), choices=st.lists(st.integers(0, 1 << 16), min_size=1, max_size=40))
def test_position_keys_are_python_chess_keys(start: str, choices: list[int]) -> None:
    """The tree's key is python-chess's transposition key (``None`` made ``-1``): the
    same key, the same hash, the same table slots."""
    board = chess.Board(start)
    for choice in choices:
        expected = board._transposition_key()
        assert position_key(board) == (*expected[:-1], -1 if expected[-1] is None else expected[-1])
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])


@pytest.mark.parametrize("start", WALK_STARTS)
def test_every_move_two_plies_deep_carries_the_sum(start: str) -> None:
    """Exhaustively, every legal move of the first two plies (where the castling, en
    passant and promotion moves of the start positions are)."""
    board = chess.Board(start)
    tree = ChessTree(board)
    kinds: set[str] = set()

    def visit(plies: int) -> None:
        for move in list(board.legal_moves):
            kinds.update(k for k, test in (("castling", board.is_castling), ("ep", board.is_en_passant),
                                           ("promotion", lambda m: bool(m.promotion))) if test(move))
            before = material_sum(board)
            delta, change = move_delta(board, move)
            board.push(move)
            tree.push(move)
            assert material_sum(board) == (before[0] + delta, before[1] + change), move.uci()
            assert tree.value() == evaluate(board)
            if plies > 1:
                visit(plies - 1)
            board.pop()
            tree.pop()

    visit(2)
    expected = {chess.STARTING_FEN: set(), WALK_STARTS[3]: {"promotion"}}.get(
        start, {"castling", "ep", "promotion"})
    assert kinds == expected


def test_mvv_lva_orders_captures_first() -> None:
    board = chess.Board("4k3/8/3q4/4P3/1b6/2N5/8/4K2R w K - 0 1")
    moves = list(ChessTree(board).moves())
    assert moves[0] == chess.Move.from_uci("e5d6")            # pawn takes queen
    captures = [m for m in moves if board.is_capture(m)]
    assert moves[:len(captures)] == captures
    plain = list(ChessTree(board, Ordering(mvv_lva=False)).moves())
    assert plain == list(board.legal_moves)


def test_the_cache_changes_no_count() -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    shared = ChessTree(chess.Board(fen))
    for name in ("alphabeta", "pvs", "mtdf", "scout"):
        fresh = run_search(ChessTree(chess.Board(fen), cache=PositionCache(max_entries=50)),
                           make_spec(name), 3)
        reused = run_search(shared, make_spec(name), 3)
        assert fresh.counters == reused.counters and fresh.score == reused.score


@pytest.mark.skipif(movegen.BUILT is None, reason="the compiled move generator was not built")
def test_the_compiled_generator_changes_no_count() -> None:
    """Every core variant, with and without MVV-LVA, searches the same tree with either
    generator: the project's own suite (castling rights, en passant, checks among them)."""
    positions = load_suite(project_positions() / "bench.epd").positions
    was = movegen.compiled_in_use()
    try:
        for position in positions[::12]:
            for ordering in (Ordering(), Ordering(mvv_lva=False, killers=True)):
                found = []
                for compiled in (True, False):
                    movegen.use_compiled(compiled)
                    tree = ChessTree(position.board(), ordering)
                    found.append([(r.score, r.pv, r.counters) for r in
                                  (run_search(tree, make_spec(name), 3) for name in CORE)])
                assert found[0] == found[1], position.id
    finally:
        movegen.use_compiled(was)


def reachable(tree: ChessTree) -> int:
    """Records a cursor can still reach from the root through the links."""
    seen: set[int] = set()
    stack = [tree._infos[0]]
    while stack:
        record = stack.pop()
        if id(record) not in seen:
            seen.add(id(record))
            stack.extend(record.children.values())
    return len(seen)


@pytest.mark.parametrize("cap", [0, 1, 50, 1000])
def test_a_capped_cache_stays_bounded_and_changes_no_count(cap: int) -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    unbounded = ChessTree(chess.Board(fen))
    capped = ChessTree(chess.Board(fen), cache=PositionCache(max_entries=cap))
    for name in ("alphabeta", "mtdf", "belle"):
        for depth in (1, 2, 3):
            expected = run_search(unbounded, make_spec(name), depth)
            got = run_search(capped, make_spec(name), depth)
            assert (got.counters, got.score, got.pv) == (expected.counters, expected.score, expected.pv)
            assert capped.cache.made <= max(cap, 1) and len(capped.cache.entries) <= max(cap, 1)
            assert reachable(capped) <= cap + 1
    assert unbounded.cache.misses < capped.cache.misses
    unbounded.cache.clear()
    assert reachable(unbounded) == 1


def test_a_full_cache_keeps_what_it_holds() -> None:
    """Past its cap a cache makes transient records: it is never emptied mid-problem, so
    a second search finds the kept positions again."""
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    tree = ChessTree(chess.Board(fen), cache=PositionCache(max_entries=300))
    run_search(tree, make_spec("alphabeta"), 3)
    first = tree.cache.misses
    kept = dict(tree.cache.entries)
    assert first > 300 and tree.cache.made == 300 and tree.cache.generation == 0
    run_search(tree, make_spec("alphabeta"), 3)
    assert tree.cache.generation == 0 and tree.cache.entries == kept
    assert tree.cache.misses - first < first            # the kept records were found again


def test_quiescence_results_are_remembered_and_change_no_count() -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    remembering = ChessTree(chess.Board(fen))
    forgetting = ChessTree(chess.Board(fen), cache=PositionCache(max_results=0))
    for name in CORE:
        for depth in (1, 2, 3):
            expected = run_search(forgetting, make_spec(name), depth)
            got = run_search(remembering, make_spec(name), depth)
            assert (got.counters, got.score, got.pv) == (expected.counters, expected.score, expected.pv)
    assert remembering.cache.results > 0 and forgetting.cache.results == 0


def test_horizon_leaves_quiesced_from_the_parent_count_as_through_the_node_frame() -> None:
    """The search's shortcut (the tree quiesces a horizon child, answering from its record
    when it can) against the node frame (any other quiescence callable goes through it)."""
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    shortcut = ChessTree(chess.Board(fen))
    framed = ChessTree(chess.Board(fen))
    for name in CORE:
        for depth in (1, 2, 3):
            expected = run_search(framed, make_spec(name), depth,
                                  quiescence=lambda a, b, c: framed.quiesce(a, b, c))
            got = run_search(shortcut, make_spec(name), depth)
            assert (got.counters, got.score, got.pv) == (expected.counters, expected.score, expected.pv)


def test_a_remembered_quiescence_search_adds_its_count_without_searching() -> None:
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    tree = ChessTree(board)
    first, again = Counters(), Counters()
    value = tree.quiesce(-50, 50, first)
    made = tree.cache.misses
    assert first.qnodes > 0 and tree.cache.results > 0
    assert tree.quiesce(-50, 50, again) == value and again.qnodes == first.qnodes
    assert tree.cache.misses == made                   # nothing below the root was visited
    other, fresh = Counters(), Counters()               # another window is searched afresh
    assert tree.quiesce(-49, 50, other) == ChessTree(board).quiesce(-49, 50, fresh)
    assert other.qnodes == fresh.qnodes > 0


def test_null_move_and_check_extension_keep_counter_identities() -> None:
    fen = "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9"
    for rule in ("either", "both"):
        _, _, c = search(fen, "pvs", 3, null_move=1, null_rule=rule, check_extension=True)
        assert c["null_searches"] > 0 and c["null_cutoffs"] > 0
        assert c["pv_nodes"] + c["cut_nodes"] + c["all_nodes"] + c["leaves"] + c["tt_cutoffs"] \
            == c["nodes"]
    plain = search(fen, "pvs", 3)
    assert plain[2]["null_searches"] == 0


def test_killers_and_history_change_the_tree_not_the_value() -> None:
    fen = "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9"
    base = search(fen, "alphabeta", 3)
    tuned = search(fen, "alphabeta", 3, Ordering(killers=True, history=True))
    assert tuned[0] == base[0]
    assert tuned[2]["nodes"] != base[2]["nodes"]
    assert search(fen, "pvs", 3, Ordering(killers=True, history=True))[0] == base[0]


def test_table_and_iterative_deepening_on_chess() -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    plain = search(fen, "alphabeta", 3)
    for name in ("alphabeta", "pvs", "negascout", "mtdf", "aspiration"):
        score, _, c = search(fen, name, 3, tt_size=1 << 16, iterative_deepening=True)
        assert c["tt_probes"] > 0 and c["passes"] >= 3
        assert score == plain[0]            # no transpositions at different depths here


@pytest.mark.parametrize("suite,count,depths", [("bk.epd", 24, (1, 2)), ("wac.epd", 20, (1, 2, 3))])
def test_exact_variants_agree_with_alphabeta_on_public_suites(suite: str, count: int,
                                                               depths: tuple[int, ...]) -> None:
    positions = load_suite(shared_suite(suite)).positions[:count]
    names = [n for n in dict.fromkeys([*CORE, *EXACT]) if n != "belle"]
    for position in positions:
        tree = ChessTree(position.board())
        for depth in depths:
            if depth == 3 and position.line % 4:
                continue                       # depth 3 on a quarter of the slice
            reference = run_search(tree, make_spec("alphabeta"), depth).score
            for name in names:
                result = run_search(tree, make_spec(name), depth)
                assert (result.score, result.bound) == (reference, "exact"), (position.id, name, depth)
            belle = run_search(tree, make_spec("belle"), depth)
            assert belle.score <= reference if belle.bound == "lower" else belle.score == reference
