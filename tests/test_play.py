"""play/take_back change a board exactly as python-chess's push/pop do."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.chess.epd import load_suite
from harness.games.chess.play import play, prepare, take_back
from harness.games.chess.suite_files import project_positions

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/P1PP1PpP/R3K2R w KQkq e6 0 1",       # castling, en passant, promotions
    "r3k2r/p1pp1ppp/8/8/2pPp3/8/PP2PPpP/R3K1NR b KQkq d3 0 1",
    "1n2k3/P5P1/8/8/8/8/1p5p/4K1N1 w - - 0 1",                       # promotions with capture
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",                          # rooks to be taken
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1",                              # rights without both rooks
]


def fields(board: chess.Board) -> tuple[object, ...]:
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], board.occupied,
            board.promoted, board.turn, board.castling_rights, board.ep_square,
            board.halfmove_clock, board.fullmove_number)


def walk(fen: str, choices: list[int]) -> None:
    """Play the same game on two boards, one by push and one by play; compare every field
    after each move, then take everything back and compare again on the way."""
    pushed, played = chess.Board(fen), chess.Board(fen)
    prepare(played)
    undos = []
    history = [fields(played)]
    for choice in choices:
        moves = list(pushed.legal_moves)
        if not moves:
            break
        move = None if choice % 9 == 0 and not pushed.is_check() else moves[choice % len(moves)]
        pushed.push(chess.Move.null() if move is None else move)
        undos.append(play(played, move))
        assert fields(played) == fields(pushed), (fen, pushed.move_stack)
        assert list(played.legal_moves) == list(pushed.legal_moves)
        history.append(fields(played))
    while undos:
        history.pop()
        take_back(played, undos.pop())
        assert fields(played) == history[-1]


@settings(max_examples=150, deadline=None)
@given(start=st.sampled_from(STARTS), choices=st.lists(st.integers(0, 1 << 16), min_size=1, max_size=80))
def test_random_games_from_special_positions(start: str, choices: list[int]) -> None:
    walk(start, choices)


@pytest.mark.parametrize("start", STARTS)
def test_every_move_two_plies_deep(start: str) -> None:
    board = chess.Board(start)
    for first in range(len(list(board.legal_moves))):
        replies = chess.Board(start)
        replies.push(list(replies.legal_moves)[first])
        for second in range(max(1, replies.legal_moves.count())):
            walk(start, [first, second])


def test_games_from_the_projects_suite() -> None:
    for position in load_suite(project_positions() / "bench.epd").positions:
        walk(position.board().fen(), list(range(7, 7 * 60, 7)))


def test_chess960_trees_search_with_python_chess_moves() -> None:
    """Chess960 boards write castling as king-takes-rook: the tree plays their moves with
    python-chess's own push and pop, and searches end where they began."""
    from harness.games.chess.tree import ChessTree
    from harness.search import Switches, make_spec, run_search

    board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    tree = ChessTree(board)
    scores = {run_search(tree, make_spec(name), 3, Switches()).score for name in ("alphabeta", "pvs", "mtdf")}
    assert len(scores) == 1
    assert tree.board.fen() == board.fen() and tree.board.move_stack == []
