"""Evaluations for depth-limited searches of OpenSpiel games (``eval=NAME``): the built-in
Othello and checkers evaluations, the scaling that keeps a decided game above every
evaluation, the listing, and evaluations added by an installed package."""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.games.openspiel.evaluations import (
    EVALUATIONS,
    Evaluation,
    checkers_pieces,
    find_evaluation,
    othello_discs,
    othello_moves,
)
from harness.games.registry import find_game, load_problems
from harness.search.registry import VARIANTS, make_spec
from harness.search.run import run_search

from .conftest import harness_installed_with

pytest.importorskip("pyspiel")

from harness.games.openspiel.game import OpenSpielTree, load_game, openspiel_tree

EXACT = sorted(v.name for v in VARIANTS if v.exact)
BUILT_IN = ["othello", "othello-discs", "othello-mobility", "othello-corners", "checkers",
            "checkers-material"]


def evaluate(name: str, spec: str, actions: tuple[int, ...]) -> int:
    state = load_game(spec).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return find_evaluation(name, spec).function(state)


def test_the_built_in_evaluations() -> None:
    assert [e.name for e in EVALUATIONS[:len(BUILT_IN)]] == BUILT_IN
    # The start is symmetric: nothing to tell the players apart.
    assert {name: evaluate(name, "othello", ()) for name in BUILT_IN[:4]} == dict.fromkeys(BUILT_IN[:4], 0)
    # Black d3 (19) flips d4: white to move has 1 disc against 4 and 3 moves against 3.
    assert evaluate("othello-discs", "othello", (19,)) == -3
    assert evaluate("othello-mobility", "othello", (19,)) == 0
    assert evaluate("othello", "othello", (19,)) == -3
    assert evaluate("checkers", "checkers", ()) == evaluate("checkers-material", "checkers", ()) == 0
    # Checkers: black (player 1) has taken a man, 12 men against 11; white's double jump
    # takes two: black, to move, has 10 men against 11.
    jumped = (322, 140, 264, 190, 354, 247, 425, 281)
    state = load_game("checkers").new_initial_state()
    for action in jumped:
        state.apply_action(action)
    assert checkers_pieces(state) == (10, 0, 11, 0)
    assert evaluate("checkers-material", "checkers", jumped) == -1
    assert evaluate("checkers", "checkers", jumped) == -2


def test_othello_moves_are_openspiel_s() -> None:
    """The bitboard move generator against OpenSpiel's legal actions (a pass, 64, aside) in
    the positions of 30 seeded random games."""
    game = load_game("othello")
    rng = random.Random(7)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            own, opponent = othello_discs(state)
            moves = othello_moves(own, opponent)
            assert [s for s in range(64) if moves >> s & 1] == [a for a in state.legal_actions() if a != 64]
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_decided_game_outranks_every_evaluation() -> None:
    """With an evaluation bounded by 5, a win is 6 times the scaled return; values beyond
    the bound are clamped to it."""
    center = Evaluation("center", ("tic_tac_toe",), 5, lambda state: 100, "always 100")
    tree = openspiel_tree("tic_tac_toe", actions=(0, 3, 1, 4), evaluate=center, scale=2)
    assert tree.child_value(2) == -12                  # X completes the row: O has lost
    assert tree.child_value(5) == 5                    # 100, clamped
    assert run_search(tree, make_spec("alphabeta"), 1).score == 12
    unbounded = openspiel_tree("tic_tac_toe", actions=(0, 3, 1, 4), evaluate=lambda state: 100)
    assert unbounded.child_value(2) == -1 and unbounded.child_value(5) == 100
    with pytest.raises(ValueError, match="bound 0 must be at least 1"):
        Evaluation("none", (), 0, lambda state: 0, "")


def test_depth_limited_othello_has_real_scores() -> None:
    """Without an evaluation every Othello position searched short of the end is 0; with
    ``eval=othello`` the scores vary, and every exact variant finds minimax's."""
    plain = load_problems("openspiel:othello,plies=2")
    evaluated = load_problems("openspiel:othello,plies=2,eval=othello")
    assert [p.position for p in plain.problems] == [p.position for p in evaluated.problems]
    game = find_game("openspiel")
    spec = make_spec("alphabeta")
    assert {run_search(game.tree(p), spec, 3).score for p in plain.problems} == {0}
    scores = [run_search(game.tree(p), spec, 3).score for p in evaluated.problems]
    assert len(scores) == 12 and len(set(scores)) >= 2 and 0 not in scores
    for problem in evaluated.problems[:3]:
        tree = game.tree(problem)
        expected = run_search(tree, make_spec("minimax"), 3).score
        for name in EXACT:
            assert run_search(tree, make_spec(name), 3).score == expected, name


def test_checkers_material_at_depth_4() -> None:
    tree = game_tree("openspiel:checkers,moves=322 140 264 190 354 247,eval=checkers")
    result = run_search(tree, make_spec("alphabeta"), 4)
    assert (result.score, result.counters["nodes"]) == (0, 120)
    # The single jump evens the men, the double jump wins one.
    assert (tree.child_value(411), tree.child_value((425, 281))) == (0, -2)


def game_tree(name: str) -> OpenSpielTree:
    problems = load_problems(name)
    tree = find_game("openspiel").tree(problems.problems[0])
    assert isinstance(tree, OpenSpielTree)
    return tree


def test_games_lists_the_option_and_the_evaluations() -> None:
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    openspiel = result.output.split("\nopenspiel:")[1].split("\nconnect4:")[0]
    line = next(line for line in openspiel.splitlines() if line.strip().startswith("option eval:"))
    for name in BUILT_IN:
        assert f"{name} (" in line
    assert "othello-corners (othello): the mover's corners minus the opponent's, |value| <= 4" in line


PLUGIN = {
    "center_eval-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: center-eval\nVersion: 0.1\n",
    "center_eval-0.1.dist-info/entry_points.txt": "[harness.evaluations]\n"
                                                  "center = center_eval:CENTER\n"
                                                  "clash = center_eval:CLASH\n",
    "center_eval.py": "from harness.games.openspiel.evaluations import Evaluation\n"
                      "def center(state):\n"
                      "    board = str(state).split()\n"
                      "    mine = 'x' if state.current_player() == 0 else 'o'\n"
                      "    return 0 if board[1][1] == '.' else 1 if board[1][1] == mine else -1\n"
                      "CENTER = Evaluation('center', ('tic_tac_toe',), 1, center, "
                      "'who holds the centre')\n"
                      "CLASH = Evaluation('othello', (), 1, center, 'a second othello')\n",
}


def test_an_installed_evaluation_is_listed_and_used(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for name, text in PLUGIN.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text)
    listed = harness_installed_with(site, "games")
    assert listed.returncode == 0, listed.stderr
    assert "center (tic_tac_toe, from center-eval 0.1): who holds the centre, |value| <= 1" in listed.stdout
    warnings = [line for line in listed.stderr.splitlines() if line.startswith("warning: plug-in")]
    assert len(warnings) == 1 and "'clash' of center-eval 0.1: the name 'othello' is taken" in warnings[0]
    out = tmp_path / "run"
    run = harness_installed_with(site, "run", "--problems", "openspiel:tic_tac_toe,eval=center",
                                 "--variants", "alphabeta", "--depth", "1", "--no-progress",
                                 "--out", str(out))
    assert run.returncode == 0, run.stderr
    frame = pd.read_csv(out / "results.csv")
    # X takes the centre, where without the evaluation every move is 0 and the first is chosen.
    assert (frame.loc[0, "score"], frame.loc[0, "best_move"]) == (1, "x(1,1)")
