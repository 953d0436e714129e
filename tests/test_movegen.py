"""The chess tree's move generator equals python-chess's, order included."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.chess import movegen
from harness.games.chess.epd import load_suite
from harness.games.chess.movegen import (
    MOVES,
    interned,
    legal_moves,
    mvv_lva,
    ordered_moves,
    ordered_tactical_moves,
    perft,
    tactical_moves,
)
from harness.games.chess.suite_files import project_positions

from .conftest import can_compile

# Castling both ways, en passant (also pinned and discovered), promotions with and
# without capture, pinned pieces of every kind, and positions in check.
STARTS = [
    chess.STARTING_FEN,
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/P1PP1PpP/R3K2R w KQkq e6 0 1",
    "r3k2r/p1pp1ppp/8/8/2pPp3/8/PP2PPpP/R3K1NR b KQkq d3 0 1",
    "1n2k3/P5P1/8/8/8/8/1p5p/4K1N1 w - - 0 1",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",                 # en passant would expose the king
    "4k3/8/8/2bq4/8/2N1B3/3R4/3K4 w - - 0 1",             # pinned knight, bishop, rook
    "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1",
    "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",                  # in check
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",               # castling, no pawn move after it
]


def old_tactical(board: chess.Board) -> list[chess.Move]:
    """What the chess tree asked python-chess for before: captures and promotions."""
    seventh = chess.BB_RANK_7 if board.turn else chess.BB_RANK_2
    promoting = board.pawns & board.occupied_co[board.turn] & seventh
    return [*board.generate_legal_captures(), *board.generate_legal_moves(promoting, ~board.occupied)]


COMPILED = movegen.BUILT is not None


@pytest.fixture(params=["python", "compiled"], autouse=True)
def generator(request: pytest.FixtureRequest) -> object:
    """Every test runs with the pure-Python generator and with the compiled one."""
    if request.param == "compiled" and not COMPILED:
        pytest.skip("the compiled move generator was not built")
    was = movegen.compiled_in_use()
    yield movegen.use_compiled(request.param == "compiled")
    movegen.use_compiled(was)


def check(board: chess.Board) -> None:
    expected = list(board.legal_moves)
    assert legal_moves(board) == expected, board.fen()
    assert sorted(map(str, tactical_moves(board))) == sorted(map(str, old_tactical(board))), board.fen()
    tactical, quiet = mvv_lva(board, expected)
    codes = tuple(m.from_square | m.to_square << 6 | (m.promotion or 0) << 12 for m in tactical)
    assert ordered_moves(board) == (expected, tactical, quiet, codes), board.fen()
    assert ordered_tactical_moves(board) == mvv_lva(board, old_tactical(board))[0], board.fen()


def starts() -> list[str]:
    fens = list(STARTS)
    fens += [p.board().fen() for p in load_suite(project_positions() / "perft.epd").positions]
    fens += [p.board().fen() for p in load_suite(project_positions() / "bench.epd").positions[::8]]
    return fens


@pytest.mark.parametrize("fen", starts())
def test_every_position_two_plies_deep(fen: str) -> None:
    board = chess.Board(fen)
    check(board)
    for move in list(board.legal_moves):
        board.push(move)
        check(board)
        for reply in list(board.legal_moves):
            board.push(reply)
            check(board)
            board.pop()
        board.pop()


@settings(max_examples=40, deadline=None)
@given(start=st.sampled_from(STARTS), choices=st.lists(st.integers(0, 1 << 16), min_size=1, max_size=60))
def test_random_games(start: str, choices: list[int]) -> None:
    board = chess.Board(start)
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
        check(board)


def test_moves_are_shared_objects() -> None:
    board = chess.Board()
    assert all(m is interned(m) for m in legal_moves(board))
    assert MOVES[12][28][0] == chess.Move.from_uci("e2e4")
    assert interned(chess.Move.from_uci("a7a8n")) is MOVES[48][56][chess.KNIGHT]


def test_perft_matches_the_reference_counts() -> None:
    """The standard counts of the six perft positions to depth 3 (the project's perft.epd)."""
    suite = load_suite(project_positions() / "perft.epd")
    for position in suite.positions:
        board = position.board()
        for depth in (0, 1, 2, 3):
            expected = 1 if depth == 0 else int(position.ops[f"D{depth}"])  # type: ignore[arg-type]
            assert perft(board, depth) == expected, (position.id, depth)
        assert board.fen() == position.board().fen()          # left as it was


def test_the_compiled_generator_is_built_where_a_compiler_is() -> None:
    if can_compile():
        assert COMPILED


def test_the_compiled_chess_tree_is_built_where_a_compiler_is() -> None:
    from harness.games.chess.compiled import compiled_available

    if can_compile():
        assert compiled_available()


def test_moves_come_as_shared_objects_from_both_generators() -> None:
    board = chess.Board("r3k2r/p1pp1ppp/8/8/2pPp3/8/PP2PPpP/R3K1NR w KQkq - 0 1")
    legal, tactical, quiet, _ = ordered_moves(board)
    assert all(m is interned(m) for m in (*legal, *tactical, *quiet, *ordered_tactical_moves(board)))
    assert legal.index(chess.Move.from_uci("e1c1")) < legal.index(chess.Move.from_uci("a2a3"))
