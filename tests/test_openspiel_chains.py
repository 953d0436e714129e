"""OpenSpiel games where a player moves several times in a row (checkers' multiple jumps,
dots-and-boxes chains, mancala extra turns): each complete sequence is one move, so the
players alternate; checkers' node counts are the standard perft counts."""

from __future__ import annotations

import random

import pytest

from harness.games.registry import find_game, load_problems
from harness.search.registry import VARIANTS, make_spec
from harness.search.run import Switches, run_search

pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.minimax import (  # type: ignore[import-untyped, unused-ignore]
    alpha_beta_search,
)

from harness.games.openspiel.cursor import complete_moves
from harness.games.openspiel.game import ALTERNATING, OpenSpielTree, load_game, openspiel_tree

EXACT = sorted(v.name for v in VARIANTS if v.exact)

CHECKERS_PERFT = (7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931)
"""Moves of standard checkers from the start at depths 1-8, a multiple jump one move. A
jump sequence is a move by its path: two paths ending in the same position would be two
moves (as the perft counts distinct jump paths). Within these 8 moves no two paths meet and
no game ends: counting end positions per node instead gives the same numbers (checked by
hand to depth 8)."""

MANCALA = (2, 12, 5, 9, 11, 6, 11, 1, 6, 2, 12, 3, 9, 2, 13, 4, 12, 6, 11, 3, 13, 1, 8, 2, 13,
           12, 5, 8, 6, 3, 9, 10, 5, 11, 13, 6, 12, 4, 13, 8)
"""A mancala game 40 actions in (a seeded random playout): its rest has 30,807 states, of
which 5,457 follow a sowing that ends in the player's own store (an extra turn)."""


@pytest.mark.parametrize("depth", range(1, 7))
def test_minimax_on_checkers_counts_the_perft_moves(depth: int) -> None:
    """minimax counts every node of the tree cut at ``depth``, the root included
    (VARIANTS.md: ``nodes`` are the calls of the search, the root's among them): 1 plus
    the perft counts of depths 1 to ``depth``. Depths 7 and 8 (225,697 and 1,071,628 nodes)
    (2 s and 7 s here) are left to ``python -m benchmarks.openspiel --perft 8``, run by hand."""
    tree = openspiel_tree("checkers")
    result = run_search(tree, make_spec("minimax"), depth)
    assert result.counters["nodes"] == 1 + sum(CHECKERS_PERFT[:depth])
    assert result.counters["leaves"] == CHECKERS_PERFT[depth - 1]


def test_a_multiple_jump_is_one_move_named_by_its_jumps() -> None:
    tree = openspiel_tree("checkers", actions=(322, 140, 264, 190, 354, 247))
    moves = tree.moves()
    assert moves == [411, (425, 281)]             # a capture is forced: a jump or a double jump
    assert [tree.move_name(m) for m in moves] == ["d2f4", "f2d4+d4b6"]
    root = tree.key()
    tree.push((425, 281))
    assert tree.state().current_player() == 1 and len(tree.state().history()) == 8
    assert tree.key() != root
    tree.pop()
    assert tree.key() == root and tree.moves() == moves


def test_two_sequences_to_the_same_position_are_two_moves() -> None:
    """Dots and boxes: closing two boxes in either order reaches the same position by two
    different sequences, which are two moves (as checkers' jump paths are)."""
    state = load_game("dots_and_boxes(num_rows=2,num_cols=2)").new_initial_state()
    for action in (3, 10, 9, 2, 7, 6):
        state.apply_action(action)
    moves = complete_moves(state)
    assert str(moves[(0, 4, 1)]) == str(moves[(4, 0, 1)])
    assert len(moves) == 20 and len(state.legal_actions()) == 6
    assert all(child.is_terminal() or child.current_player() == 1 for child in moves.values())


@pytest.mark.parametrize(("spec", "actions"), [
    ("dots_and_boxes(num_rows=1,num_cols=2)", ()),
    ("mancala", MANCALA),
])
def test_games_with_extra_turns_agree_with_openspiel(spec: str, actions: tuple[int, ...]) -> None:
    tree = openspiel_tree(spec, actions=actions)
    depth = min(tree.height, 60)                  # mancala's 1,000 actions are its limit
    expected = run_search(tree, make_spec("minimax"), depth).score
    game = load_game(spec)
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    value, _ = alpha_beta_search(game, state=state, maximum_depth=depth + 1)
    assert expected == value
    for name in EXACT:
        assert run_search(tree, make_spec(name), depth).score == expected, name
    assert run_search(tree, make_spec("pvs"), depth, Switches(tt_size=4096)).score == expected


def test_positions_a_few_moves_in_count_a_jump_as_one_move() -> None:
    found = load_problems("openspiel:checkers,plies=2")
    assert len(found.problems) == 49
    game = find_game("openspiel")
    tree = game.tree(found.problems[0])
    assert isinstance(tree, OpenSpielTree) and len(tree.state().history()) == 2


@pytest.mark.parametrize("name", sorted(ALTERNATING))
def test_the_games_read_as_alternating_alternate(name: str) -> None:
    """The games whose moves are read straight from their actions: in 20 seeded random
    games each, no player moves twice in a row."""
    game = load_game(name)
    rng = random.Random(name)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 300:
            player = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            assert state.is_terminal() or state.current_player() != player, state.history()
