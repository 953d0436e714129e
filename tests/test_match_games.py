"""harness match on Othello and checkers: openings from the start, games played to the end
of their own rules (an Othello pass, checkers' compulsory captures and 40-ply draw),
replayed here move by move on the games' own trees to check every move and result."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.checkers.board import DRAW_PLIES, Position, move_name, parse_fen
from harness.games.othello.game import after, moves_at
from harness.games.othello.tree import square_name
from harness.games.registry import load_problems
from harness.match.match import run_match
from harness.match.play import Budget, Rules, Side, play_game
from harness.match.record import GAMES_FILE
from harness.match.rules import Ending, playing
from harness.match.settings import MatchConfig

SIDES = (Side("pvs"), Side("alphabeta"))
OPENINGS = {"othello": "othello:start,plies=2", "checkers": "checkers:start,plies=2"}
"""Two plies from the start: 12 Othello openings, 49 checkers ones."""


def games_of(folder: Path) -> list[dict[str, str]]:
    """The rows of games.csv without the wall times (the only columns that may differ)."""
    with (folder / GAMES_FILE).open() as file:
        return [{k: v for k, v in row.items() if not k.startswith("seconds_")}
                for row in csv.DictReader(file)]


def othello_result(problem: Problem, moves: list[str]) -> tuple[int | None, str]:
    """The game replayed on Othello's own move generator: every move legal, and the end
    reached where neither side can move; the winner (player 0: first to move) by discs."""
    from harness.games.othello.game import read_position

    board, _ = read_position(problem.position)
    state, first_x = (board.mover, board.opponent, board.x_to_move), board.x_to_move
    for name in moves:
        square = next(m for m in moves_at(state) if square_name(m) == name)   # legal or StopIteration
        state = after(state, square)
    assert not moves_at(state)
    x_discs = (state[0] if state[2] else state[1]).bit_count()
    o_discs = (state[1] if state[2] else state[0]).bit_count()
    if x_discs == o_discs:
        return None, "neither_can_move"
    return (0 if (x_discs > o_discs) == first_x else 1), "neither_can_move"


def checkers_result(problem: Problem, moves: list[str]) -> tuple[int | None, str]:
    """The game replayed on the checkers rules: every move legal (a capture whenever one
    is there), and the end: the side to move without a move loses, or 40 quiet plies draw."""
    position: Position = parse_fen(problem.position.split()[0])
    for name in moves:
        legal = position.legal_moves()
        move = next(m for m in legal if move_name(m) == name)
        assert bool(position.captures()) == ("x" in name)        # captures are compulsory
        position = position.play(move)
    if position.quiet >= DRAW_PLIES:
        return None, "forty_plies"
    assert not position.has_move()
    return (len(moves) + 1) % 2, "no_moves"          # the player who moved last wins


REPLAY = {"othello": othello_result, "checkers": checkers_result}


@pytest.mark.parametrize("game", ["othello", "checkers"])
def test_a_short_match_plays_every_game_to_its_end(game: str, tmp_path: Path) -> None:
    """Two pairs: the colours swapped within each, every move legal, every result the one
    the rules give, and the same games when the match is played again."""
    config = MatchConfig(SIDES, OPENINGS[game], Budget("nodes", nodes=300), Rules(max_plies=0),
                         games=4, link_depth=2)
    result = run_match(config, tmp_path / "one")
    rows = games_of(tmp_path / "one")
    assert result.progress.pair == 2 and len(rows) == 4
    assert result.link is not None and not result.link.disagreements
    openings = {p.problem_id: p for p in load_problems(OPENINGS[game]).problems}
    for pair in (rows[0:2], rows[2:4]):
        assert pair[0]["opening"] == pair[1]["opening"]
        assert [r["first"] for r in pair] == ["pvs", "alphabeta"]
    for row in rows:
        moves = row["moves"].split(" ")
        winner, reason = REPLAY[game](openings[row["opening"]], moves)
        assert (row["reason"], int(row["plies"])) == (reason, len(moves))
        points_first = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
        a_first = row["first"] == "pvs"
        assert float(row["points_a"]) == (points_first if a_first else 1 - points_first)
    run_match(config, tmp_path / "two")
    assert games_of(tmp_path / "two") == rows


def test_an_othello_pass_is_a_move_and_the_game_ends_when_neither_can_move() -> None:
    """X to move with no square (O can play): the only move is a pass, played as one; then
    O's move fills the last square and the game ends, the discs deciding."""
    # Row 1: O on A1, X on B1..G1, H1 empty; the rest of the board O's. O on H1 turns
    # B1..G1; X on H1 would turn nothing (no X beyond the O lines from it).
    squares = "OXXXXXX-" + "O" * 56
    problem = load_problems_line(f"{squares} X")
    position = playing(problem)
    assert position.fallback_move() == "pass"
    position.play("pass")
    assert position.ending() is None and position.mover == 1
    position.play("h1")
    assert position.ending() == Ending(1, "neither_can_move")


def load_problems_line(line: str) -> Problem:
    from harness.games.othello.game import problem_of

    return problem_of(line, "test", "1", "test", 0, (("plies", 0),))


def test_checkers_captures_are_compulsory_and_a_side_without_a_move_loses() -> None:
    """White to move must take 14 (the only move); Black, with nothing left, has lost."""
    problem = Problem("checkers", "t", "1", "t", 0, (("tree", "auto"), ("plies", 0)), 2,
                      position="W:W18:B14")
    position = playing(problem)
    with pytest.raises(HarnessError, match="checkers: '18-15' cannot be played here"):
        position.play("18-15")
    game = play_game(problem, SIDES, True, Budget("depth", depth=2))
    assert (game.moves, game.reason, game.points_a) == (("18x9",), "no_moves", 1.0)


def test_checkers_draws_after_forty_quiet_plies() -> None:
    """Two kings each, far apart: no capture for 40 plies draws, wherever the game stands."""
    problem = Problem("checkers", "t", "1", "t", 0, (("tree", "auto"), ("plies", 0)), 2,
                      position="B:WK29,K32:BK1,K4")
    game = play_game(problem, SIDES, True, Budget("depth", depth=2), Rules(max_plies=0))
    assert (game.reason, game.points_a) == ("forty_plies", 0.5) and game.plies == DRAW_PLIES


def test_openings_from_the_start_are_distinct_and_named_by_their_moves() -> None:
    for spec, count in (("othello:start,plies=1", 4), ("othello:start,plies=2", 12),
                        ("checkers:start,plies=1", 7), ("checkers:start,plies=2", 49)):
        problems = load_problems(spec).problems
        assert len(problems) == count == len({p.position for p in problems})
        assert all(len(p.problem_id.split(" ")) == int(spec[-1]) for p in problems)
    assert load_problems("othello:start").problems[0].problem_id == "start"


def test_an_othello_move_that_is_not_legal_is_refused() -> None:
    position = playing(load_problems("othello:start").problems[0])
    with pytest.raises(HarnessError, match="othello: 'a1' cannot be played here"):
        position.play("a1")
    assert position.plies == 0 and position.ending() is None


@pytest.mark.parametrize(("spec", "reason"), [
    ("othello:{dir}/bad.txt", "bad.txt:2: 63 squares, not 64 (A1..H8 row by row)"),
    ("checkers:{dir}/bad.txt", "bad.txt:2: '40': squares are 1 to 32"),
    ("othello:{dir}/ok.txt,plies=2", "plies=2 goes with start only"),
])
def test_bad_openings_are_one_line_and_exit_2(spec: str, reason: str, tmp_path: Path) -> None:
    game = spec.split(":")[0]
    good = {"othello": load_problems("othello:start").problems[0].position,
            "checkers": "B:W21:B1"}[game]
    bad = {"othello": "-" * 63 + " X", "checkers": "B:W21:B1,40"}[game]
    (tmp_path / "bad.txt").write_text(f"{good}\n{bad}\n")
    (tmp_path / "ok.txt").write_text(f"{good}\n")
    result = CliRunner().invoke(cli, ["match", "pvs", "alphabeta", "--problems",
                                      spec.format(dir=tmp_path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and reason in errors[0], result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()
