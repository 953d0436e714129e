"""Checkers (``harness.games.checkers``): the rules, perft, OpenSpiel's moves, positions, the
evaluation, the game and its suite. The compiled tree's own tests are in
``test_checkers_compiled.py``."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.checkers.board import (
    BLACK,
    DRAW_PLIES,
    START_FEN,
    WHITE,
    Position,
    fen,
    move_name,
    move_path,
    parse_fen,
    perft,
)
from harness.games.checkers.evaluation import WIN, evaluate
from harness.games.checkers.game import POSITIONS
from harness.games.checkers.tree import CheckersTree
from harness.games.registry import load_problems
from harness.search import make_spec, run_search
from harness.suites import checkers as suite

PERFT = (7, 49, 302, 1469, 7361, 36768, 179740, 845931)
"""Moves from the start, depths 1-8 (a multi-jump one move): the published figures."""


def names(position: Position) -> list[str]:
    return [move_name(m) for m in position.legal_moves()]


def test_perft_from_the_start() -> None:
    """To depth 6 here (the compiled tree's test goes to 8)."""
    start = parse_fen(START_FEN)
    assert [perft(start, d) for d in range(1, 7)] == list(PERFT[:6])


def test_the_start() -> None:
    start = parse_fen(START_FEN)
    assert (start.black, start.white, start.kings, start.side) == (0xFFF, 0xFFF << 20, 0, BLACK)
    assert names(start) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    assert evaluate(start) == 0
    assert fen(start) == START_FEN
    assert parse_fen("B:W21-32:B1-12.") == start          # ranges, a final full stop


def test_a_king_round_a_ring_makes_two_moves() -> None:
    """Distinct sequences are distinct moves, even to the same square over the same pieces."""
    ring = parse_fen("W:WK6:B9,10,17,18")
    assert sorted(names(ring)) == ["6x13x22x15x6", "6x15x22x13x6"]
    for move in ring.legal_moves():
        after = ring.play(move)
        assert (after.black, after.white, after.kings, after.side) == (0, 1 << 5, 1 << 5, BLACK)


def test_a_man_crowned_ends_its_move() -> None:
    """22x31 crowns; the new king could jump 27 next, but not in the same move."""
    position = parse_fen("B:W26,27:B22")
    assert names(position) == ["22x31"]
    after = position.play(position.legal_moves()[0])
    assert after.kings == 1 << 30 and after.white == 1 << 26 and after.quiet == 0


def test_captures_are_compulsory_and_go_on_to_the_end() -> None:
    """Black's man on 14 must take 18, then 27 (not stop at 23); 1-5 is no longer a move."""
    position = parse_fen("B:W18,27:B1,14")
    assert names(position) == ["14x23x32"]
    assert move_path(position.legal_moves()[0]) == [13, 22, 31]


def test_men_move_forwards_kings_both_ways() -> None:
    assert names(parse_fen("B:W32:B14")) == ["14-17", "14-18"]
    assert names(parse_fen("W:W14:B1")) == ["14-9", "14-10"]
    assert names(parse_fen("W:WK14:B1")) == ["14-9", "14-10", "14-17", "14-18"]


def test_the_draw_rule_and_a_lost_game() -> None:
    """40 plies without a capture end the game, drawn; a side without a move has lost,
    and nearer losses are worse (-(WIN - ply))."""
    kings = parse_fen("B:WK29:BK1")
    near_draw = Position(kings.black, kings.white, kings.kings, BLACK, DRAW_PLIES - 1)
    after = near_draw.play(near_draw.legal_moves()[0])
    assert after.quiet == DRAW_PLIES and after.legal_moves() == []
    tree = CheckersTree(near_draw)
    tree.push(tree.moves()[0])
    assert tree.moves() == [] and tree.terminal_value() == 0 and tree.value() == 0
    blocked = parse_fen("W:W29:B22,25")          # White's man on 29 can neither step nor jump
    assert not blocked.has_move() and blocked.legal_moves() == []
    assert CheckersTree(blocked).terminal_value() == -WIN
    # Black to move wins at once by blocking: 17-22 (value WIN - 1 at the root).
    result = run_search(CheckersTree(parse_fen("B:W29:B17,25")), make_spec("alphabeta"), 3)
    assert result.best_move == "17-22" and result.score == WIN - 1


def test_the_evaluation() -> None:
    """Black: a man on 5 (row 1: +0) and a king; White: a man on 32 (its back row: +6).
    For Black to move: (100 + 130) - (100 + 6) = 124; for White -124."""
    assert evaluate(parse_fen("B:W32:B5,K20")) == 124
    assert evaluate(parse_fen("W:W32:B5,K20")) == -124
    # Advancement: a black man on 25 (row 6) is worth 100 + 9.
    assert evaluate(parse_fen("B:WK1:B25")) == 109 - 130


def test_move_names() -> None:
    position = parse_fen("B:W18,27:B1,14")
    assert [move_name(m) for m in position.legal_moves()] == ["14x23x32"]
    assert move_name(parse_fen(START_FEN).legal_moves()[0]) == "9-13"


@pytest.mark.parametrize(("text", "reason"), [
    ("B:W21", "is not a FEN"),
    ("X:W21:B1", "is not a FEN"),
    ("B:W21:W1", "expected one W and one B"),
    ("B:W0:B1", "squares are 1 to 32"),
    ("B:W21-40:B1", "squares are 1 to 32"),
    ("B:Wx:B1", "'x' is not a square"),
    ("B:W10:BK10", "square 10 is given twice"),
    ("B:W3:B1", "a white man on square 3, its crowning row"),
    ("B:W20-32:B1", "13 pieces for W: at most 12"),
])
def test_bad_fens(text: str, reason: str) -> None:
    with pytest.raises(HarnessError, match=reason):
        parse_fen(text, "here: ")


SQUARE_SETS = st.lists(st.sampled_from(range(32)), max_size=24, unique=True)


@settings(max_examples=200, deadline=None)
@given(squares=SQUARE_SETS, split=st.integers(0, 24), kings=st.integers(0, (1 << 32) - 1),
       side=st.sampled_from([BLACK, WHITE]))
def test_fen_reads_back_what_it_writes(squares: list[int], split: int, kings: int, side: int) -> None:
    black = sum(1 << s for s in squares[:min(split, 12)])
    white = sum(1 << s for s in squares[min(split, 12):][:12])
    crown = (0xF << 28, 0xF)
    kings &= black | white
    kings |= (black & crown[BLACK]) | (white & crown[WHITE])    # men never stand there
    position = Position(black, white, kings, side)
    assert parse_fen(fen(position)) == position


# ---- OpenSpiel's checkers: the same moves, a multi-jump's chain of actions joined -------

pyspiel = pytest.importorskip("pyspiel")


def square(text: str) -> int:
    """OpenSpiel's square (``a3``) as ours: its first player, on rows 1-3, is our Black,
    the board turned round (its a1 is our square 4)."""
    return (int(text[1:]) - 1) * 4 + (7 - (ord(text[0]) - ord("a"))) // 2


def chains(state: object) -> dict[tuple[int, ...], list[int]]:
    """OpenSpiel's complete moves: each chain of its player's actions, by the squares it
    visits, with the actions."""
    player = state.current_player()  # type: ignore[attr-defined]
    found: dict[tuple[int, ...], list[int]] = {}
    for action in state.legal_actions():  # type: ignore[attr-defined]
        name = state.action_to_string(player, action)  # type: ignore[attr-defined]
        child = state.child(action)  # type: ignore[attr-defined]
        if not child.is_terminal() and child.current_player() == player:
            for path, rest in chains(child).items():
                found[(square(name[:2]), *path)] = [action, *rest]
        else:
            found[(square(name[:2]), square(name[2:]))] = [action]
    return found


def board_of(state: object) -> tuple[int, int, int]:
    """(black, white, kings) read from OpenSpiel's printed board."""
    black = white = kings = 0
    for line in str(state).splitlines()[:8]:
        rank, cells = int(line[0]), line[1:9]
        for file, cell in enumerate(cells):
            if cell == ".":
                continue
            bit = 1 << square(f"{chr(ord('a') + file)}{rank}")
            black |= bit if cell in "o8" else 0
            white |= bit if cell in "+*" else 0
            kings |= bit if cell in "8*" else 0
    return black, white, kings


def test_the_moves_are_openspiels() -> None:
    """Seeded random games to their end: at every position the same moves (OpenSpiel's
    chains joined), the same board, the same end and result (the draw rule included)."""
    game = pyspiel.load_game("checkers")
    rng = random.Random(28)
    positions = ends = drawn = with_kings = 0
    while positions < 4000:
        state, position = game.new_initial_state(), parse_fen(START_FEN)
        while True:
            ours = {tuple(move_path(m)): m for m in position.legal_moves()}
            theirs = {} if state.is_terminal() else chains(state)
            assert len(ours) == len(position.legal_moves())
            assert set(ours) == set(theirs), (fen(position), str(state))
            assert board_of(state) == (position.black, position.white, position.kings)
            positions += 1
            with_kings += position.kings != 0
            if not ours:
                break
            path = rng.choice(sorted(ours))
            for action in theirs[path]:
                state.apply_action(action)
            position = position.play(ours[path])
        ends += 1
        mover = 0 if position.side == BLACK else 1
        value = CheckersTree(position).terminal_value()
        drawn += value == 0
        assert state.returns()[mover] == (0 if value == 0 else -1)
    assert ends >= 30 and drawn >= 1 and with_kings >= 1000, (ends, drawn, with_kings)


# ---- the game -------------------------------------------------------------------------


def test_the_start_and_the_suite_load() -> None:
    start = load_problems("checkers:start").problems
    assert [(p.problem_id, p.position, p.default_depth) for p in start] == [("start", START_FEN, 8)]
    problems = list(load_problems("checkers:suite.txt").problems)
    assert len(problems) == 24 and problems[0].problem_id == "1"
    assert {len(parse_fen(p.position).legal_moves()) >= 2 for p in problems} == {True}


def test_the_suite_is_what_its_generator_makes(tmp_path: Path) -> None:
    """The shipped file is the generator's output for the command in its header."""
    shipped = (POSITIONS / "suite.txt").read_text()
    command = shipped.splitlines()[1].split("with: ")[1].split()
    assert command[:3] == ["python", "-m", suite.FIRST_HOME]
    arguments = command[3:]
    arguments[arguments.index("--out") + 1] = str(tmp_path / "suite.txt")
    assert suite.main(arguments) == 0
    made = (tmp_path / "suite.txt").read_text().splitlines()
    assert made[2:] == shipped.splitlines()[2:]
    phases = [line[2:] for line in made if line.startswith("# ") and " " not in line[2:]]
    assert phases == list(suite.PHASES) * 8


def test_the_generator_refuses_other_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert suite.main(["--count", "3"]) == 2
    assert "usage: python -m harness.suites.checkers" in capsys.readouterr().err


def test_a_run_judges_known_values(tmp_path: Path) -> None:
    """A file with a known value: the search's value is judged against it; run.json says
    which tree ran."""
    board = "B:W29:B17,25"
    (tmp_path / "won.txt").write_text(f"# a won position\n{board} {WIN - 1}\nW:WK1:BK32 5\n")
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", "--problems", f"checkers:{tmp_path / 'won.txt'}",
                                      "--variants", "alphabeta,pvs", "--depth", "3",
                                      "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with (out / "results.csv").open(newline="") as file:
        rows = list(csv.DictReader(file))
    assert sorted((r["problem_id"], r["variant"], r["solved"], r["known_value"]) for r in rows) == [
        ("1", "alphabeta", "1", str(WIN - 1)), ("1", "pvs", "1", str(WIN - 1)),
        ("2", "alphabeta", "0", "5"), ("2", "pvs", "0", "5")]
    assert rows[0]["fen"] == board
    assert "compiled_checkers" in json.loads((out / "run.json").read_text())
