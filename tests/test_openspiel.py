"""OpenSpiel games as trees: tic-tac-toe's full game tree, exact variants against minimax
and OpenSpiel's own alpha-beta, refusals, stable keys."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.search.registry import VARIANTS, make_spec
from harness.search.run import Switches, run_search

pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.minimax import (  # type: ignore[import-untyped, unused-ignore]
    alpha_beta_search,
)

from harness.games.openspiel.game import load_game, openspiel_tree

EXACT = sorted(v.name for v in VARIANTS if v.exact)

TIC_TAC_TOE_NODES = 549_946
"""The nodes of tic-tac-toe's game tree, the root included: what minimax visits."""
GOLDEN = {"alphabeta": 18_297, "pvs": 18_016}
"""Nodes to solve tic-tac-toe from the empty board, in OpenSpiel's move order."""

# Small games and positions (spec, actions from the initial state), each solved in well
# under a second by minimax.
POSITIONS = [
    ("tic_tac_toe", (4,)),
    ("tic_tac_toe", (4, 0)),
    ("tic_tac_toe", (0, 3, 1)),          # X threatens the top row: a win for O to stop
    ("tic_tac_toe", (0, 3, 1, 4)),       # X to move and win
    ("nim(pile_sizes=2;3;4)", ()),
    ("y(board_size=3)", ()),
    ("clobber(rows=3,columns=3)", ()),
    ("connect_four(rows=4,columns=4)", (0, 1, 2, 3, 0, 1)),
    ("breakthrough(rows=4,columns=3)", (2, 116)),
]


def test_minimax_visits_the_whole_tic_tac_toe_tree() -> None:
    tree = openspiel_tree("tic_tac_toe")
    assert tree.height == 9
    result = run_search(tree, make_spec("minimax"), tree.height)
    assert (result.score, result.bound) == (0, "exact")
    assert result.counters["nodes"] == TIC_TAC_TOE_NODES


@pytest.mark.parametrize("name", [n for n in EXACT if n != "minimax"])
def test_every_exact_variant_draws_tic_tac_toe(name: str) -> None:
    tree = openspiel_tree("tic_tac_toe")
    result = run_search(tree, make_spec(name), tree.height)
    assert (result.score, result.bound) == (0, "exact")
    if name in GOLDEN:
        assert result.counters["nodes"] == GOLDEN[name]


@pytest.mark.parametrize(("spec", "actions"), POSITIONS)
def test_exact_variants_agree_with_minimax_and_openspiel(spec: str, actions: tuple[int, ...]) -> None:
    tree = openspiel_tree(spec, actions=actions)
    expected = run_search(tree, make_spec("minimax"), tree.height).score
    game = load_game(spec)
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    value, _ = alpha_beta_search(game, state=state, maximum_depth=tree.height + 1)
    assert expected == value
    for name in EXACT:
        assert run_search(tree, make_spec(name), tree.height).score == expected, name
    assert run_search(tree, make_spec("pvs"), tree.height, Switches(tt_size=4096)).score == expected


def test_values_keys_and_names() -> None:
    tree = openspiel_tree("tic_tac_toe", actions=(0, 3, 1, 4))
    assert tree.moves() == [2, 5, 6, 7, 8]
    assert tree.child_value(2) == -1             # X completes the row: O to move has lost
    tree.push(2)
    assert tree.moves() == [] and tree.terminal_value() == tree.value() == -1
    tree.pop()
    assert tree.move_name(2) == "x(0,2)"
    root = tree.key()
    tree.push(5)
    assert tree.key() != root
    tree.reset()
    assert tree.key() == root
    # The same position by another move order has the same key, in any process.
    other = openspiel_tree("tic_tac_toe", actions=(1, 4, 0, 3))
    assert other.key() == root
    code = ("from harness.games.openspiel.game import openspiel_tree; "
            "print(openspiel_tree('tic_tac_toe', actions=(0, 3, 1, 4)).key())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) == root


def test_scale_and_evaluation() -> None:
    tree = openspiel_tree("tic_tac_toe", actions=(0, 3, 1, 4), scale=100)
    assert tree.child_value(2) == -100
    assert tree.child_value(5) == 0              # no evaluation: 0 at the horizon
    evaluated = openspiel_tree("tic_tac_toe", evaluate=lambda state: 7)
    assert run_search(evaluated, make_spec("alphabeta"), 1).score == -7
    assert run_search(evaluated, make_spec("alphabeta"), 9).score == 0


@pytest.mark.parametrize(("spec", "reason"), [
    ("kuhn_poker", "it has chance events; it has imperfect information"),
    ("phantom_ttt", "it has imperfect information"),
    ("matrix_rps", "its players move simultaneously"),
    ("crazy_eights", "it has chance events; it has imperfect information; it has 5 players; "
                     "it is not zero-sum"),
])
def test_refuses_games_the_search_cannot_solve(spec: str, reason: str) -> None:
    with pytest.raises(HarnessError, match=f"{spec}.*cannot be searched: {reason}") as info:
        openspiel_tree(spec)
    assert "\n" not in str(info.value)


def test_refuses_unknown_games_and_bad_parameters() -> None:
    with pytest.raises(HarnessError, match=r"unknown game 'tic_tac_tow' \(did you mean tic_tac_toe"
                                           r".*for example: tic_tac_toe, connect_four"):
        openspiel_tree("tic_tac_tow")
    with pytest.raises(HarnessError, match=r"breakthrough.*Unknown parameter 'foo'") as info:
        openspiel_tree("breakthrough(foo=3)")
    assert "\n" not in str(info.value)
    with pytest.raises(HarnessError, match=r"action 4 is not legal after \[4\]"):
        openspiel_tree("tic_tac_toe", actions=(4, 4))


@pytest.mark.parametrize("spec,reason", [("tic_tac_toe(foo=1)", "Unknown parameter 'foo'"),
                                         ("tic_tac_toe((", "Missing closing bracket")])
def test_a_game_pyspiel_cannot_parse_is_told_once(spec: str, reason: str, tmp_path: Path,
                                                  capfd: pytest.CaptureFixture[str]) -> None:
    """pyspiel's C++ error handler prints its own line on descriptor 2 before raising: it is
    silenced, and descriptor 2 works again afterwards."""
    with pytest.raises(HarnessError, match=re.escape(reason)):
        load_game(spec)
    print("after", file=sys.stderr, flush=True)
    os.write(2, b"fd 2 after\n")
    assert capfd.readouterr().err == "after\nfd 2 after\n"
    command = [sys.executable, "-m", "harness", "run", "--problems", f"openspiel:{spec}",
               "--no-progress", "--out", str(tmp_path / "run")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: openspiel: game {spec!r}: {reason}")


def test_refuses_a_position_that_is_over() -> None:
    with pytest.raises(HarnessError, match=r"'tic_tac_toe\(\)' is over after \[0, 3, 1, 4, 2\]: "
                                           r"no move to search") as info:
        openspiel_tree("tic_tac_toe", actions=(0, 3, 1, 4, 2))
    assert "\n" not in str(info.value)
