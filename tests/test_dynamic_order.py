"""Killer moves and the history heuristic in Othello and checkers (``killers=1``,
``history=1``): what the trees learn and the order it gives, the same in the Python trees
(:mod:`harness.games.dynamic_order`) and the compiled twins (``board_learning.h``).

The order itself, worked by hand on known nodes; every method of the two trees along
random games with cutoffs taught on the way (Hypothesis); and searches of Hypothesis-drawn
positions with both options drawn, each the same in three places: the Python tree (the
Python frame), the compiled tree in the compiled frame and in the compiled Python frame,
every field of the result equal (score, move, line, status, every counter). Off, the
trees are as before (the golden and count tests of each game hold them). The compiled
half is skipped where the extensions were not built.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import cli
from harness.games.checkers import compiled as checkers_compiled
from harness.games.checkers.board import START_FEN, Position, move_jumps, parse_fen
from harness.games.checkers.compiled import checkers_tree
from harness.games.dynamic_order import DynamicOrder
from harness.games.othello import compiled as othello_compiled
from harness.games.othello.compiled import othello_tree
from harness.games.othello.game import read_position
from harness.games.othello.tree import CORNERS, PASS, Board, OthelloTree
from harness.games.registry import find_game, load_problems
from harness.search import Switches, make_spec, run_search
from harness.search.run import SearchResult

from .test_othello_compiled import answers as othello_answers
from .twins import same

BUILT = othello_compiled.compiled_available() and checkers_compiled.compiled_available()
needs_build = pytest.mark.skipif(not BUILT, reason="the compiled Othello or checkers tree was not built")
ORDERINGS = ((True, False), (False, True), (True, True))
"""(killers, history) with something to learn."""


def test_the_order_puts_killers_first_then_history_stably() -> None:
    """Set apart first as they came; then the killers of the ply (latest first); then the
    rest by history score, ties in their order; a killer not among the moves is skipped."""
    learnt = DynamicOrder(killers=True, history=True)
    assert learnt.order([0], [5, 6, 7, 8], 2) == [0, 5, 6, 7, 8]     # nothing learnt yet
    learnt.learn(7, 2, 2)
    learnt.learn(8, 2, 3)
    learnt.learn(6, 5, 1)
    # killers at ply 2: 8 (the latest), 7; history 8: 9, 7: 4, 6: 1
    assert learnt.order([0], [5, 6, 7, 8], 2) == [0, 8, 7, 6, 5]
    assert learnt.order([], [5, 6, 7], 2) == [7, 6, 5]
    assert learnt.order([], [5, 6, 7, 8, 9], 5) == [6, 8, 7, 5, 9]
    learnt.learn(9, 2, 1)
    learnt.learn(9, 2, 1)                                           # already a killer: kept once
    assert learnt.order([], [5, 9, 8, 7], 2) == [9, 8, 7, 5]
    history_only = DynamicOrder(history=True)
    history_only.learn(7, 0, 2)
    history_only.learn(5, 0, 2)
    assert history_only.order([], [4, 5, 6, 7], 0) == [5, 7, 4, 6]   # 5 and 7 tie: their order
    learnt.clear()
    assert learnt.order([0], [5, 6, 7, 8], 2) == [0, 5, 6, 7, 8]


def othello_trees(board: Board, killers: bool, history: bool) -> list[Any]:
    trees: list[Any] = [OthelloTree(board, killers, history)]
    if BUILT:
        trees.append(othello_tree(board, True, killers, history))
    return trees


def checkers_trees(position: Position, killers: bool, history: bool) -> list[Any]:
    trees: list[Any] = [checkers_tree(position, False, killers, history)]
    if BUILT:
        trees.append(checkers_tree(position, True, killers, history))
    return trees


def corner_position() -> Board:
    """The first position of ``phases.txt`` where a corner and at least two other squares
    may be played."""
    for problem in load_problems("othello:phases.txt").problems:
        board = read_position(problem.position)[0]
        moves = OthelloTree(board).moves()
        corners = [m for m in moves if CORNERS >> m & 1]
        if corners and len(moves) - len(corners) >= 2:
            return board
    raise AssertionError("phases.txt has no corner to take")


def test_othello_learns_quiet_squares_and_keeps_corners_first() -> None:
    """A cutoff by a quiet square makes it the first move at its ply after the corners; a
    corner teaches nothing; history alone reorders another ply too; reset forgets."""
    board = corner_position()
    static = list(OthelloTree(board).moves())
    corners = [m for m in static if CORNERS >> m & 1]
    assert static[:len(corners)] == corners                # the static order's rank 0
    for tree in othello_trees(board, True, True):
        tree.cutoff(static[-1], 3)
        learnt = list(tree.moves())
        assert learnt == [*corners, static[-1], *static[len(corners):-1]]
        tree.cutoff(corners[0], 9)
        assert list(tree.moves()) == learnt
        tree.reset()
        assert list(tree.moves()) == static
    for tree in othello_trees(Board.start(), False, True):
        first = list(tree.moves())
        tree.push(first[0])
        reply = list(tree.moves())
        tree.cutoff(reply[-1], 2)                        # learnt at ply 1 ...
        tree.pop()
        tree.push(first[1])
        if reply[-1] in tree.moves():                    # ... ordered at ply 1 of another line
            assert next(iter(tree.moves())) == reply[-1]
        tree.reset()
        assert list(tree.moves()) == first


def test_othello_pass_teaches_nothing() -> None:
    text = "X-OOOOOOXOOXXXOXXXOOXOXXXXOOXXXXXOXOOOXXXXOXXOXXXOOOXXXXOOOOOXOO O"
    for tree in othello_trees(read_position(text)[0], True, True):
        assert list(tree.moves()) == [PASS]
        tree.cutoff(PASS, 4)
        assert list(tree.moves()) == [PASS]


def capturing_position() -> Position:
    """The first position of a seeded random game from the start with two captures or more."""
    choices = [7, 3, 11, 5, 2, 13, 1, 17]
    for plies in range(60):
        position = checkers_position(plies, choices)
        if sum(1 for m in position.legal_moves() if move_jumps(m)) >= 2:
            return position
    raise AssertionError("no position with two captures")


def test_checkers_orders_steps_only() -> None:
    """Steps: the killer first, at its ply only. Captures (compulsory) keep their order
    and teach nothing."""
    start = parse_fen(START_FEN)
    for tree in checkers_trees(start, True, False):
        static = list(tree.moves())
        tree.cutoff(static[-1], 4)
        assert list(tree.moves()) == [static[-1], *static[:-1]]
        tree.push(static[0])
        assert list(tree.moves()) == list(checkers_tree(start.play(static[0]), False).moves())
    capturing = capturing_position()
    for tree in checkers_trees(capturing, True, True):
        static = list(tree.moves())
        assert all(move_jumps(m) for m in static)
        tree.cutoff(static[-1], 5)
        assert list(tree.moves()) == static


def othello_position(plies: int, choices: list[int]) -> Board:
    """A position up to ``plies`` random legal moves after the start, never the end of
    the game (a move that would end it is not played)."""
    tree = OthelloTree(Board.start())
    for ply in range(plies):
        moves = tree.moves()
        tree.push(moves[choices[ply % len(choices)] % len(moves)])
        if not tree.moves():
            tree.pop()
            break
    return Board(tree.board.mover, tree.board.opponent, tree.board.x_to_move)


def checkers_position(plies: int, choices: list[int]) -> Position:
    """A position up to ``plies`` random legal moves after the start (a move after which
    the side to move has none is not played), its draw count back to 0 as a FEN's."""
    position = parse_fen(START_FEN)
    for ply in range(plies):
        moves = position.legal_moves()
        child = position.play(moves[choices[ply % len(choices)] % len(moves)])
        if not child.has_move():
            break
        position = dataclasses.replace(child, quiet=0)
    return position


@needs_build
@settings(max_examples=40, deadline=None)
@given(plies=st.integers(0, 50), ordering=st.sampled_from(ORDERINGS),
       choices=st.lists(st.integers(0, 1 << 16), min_size=4, max_size=40), back=st.integers(0, 40))
def test_othello_twins_agree_along_games_with_cutoffs(plies: int, ordering: tuple[bool, bool],
                                                     choices: list[int], back: int) -> None:
    python, native = othello_trees(othello_position(plies, choices), *ordering)
    walk_learning(python, native, othello_answers, choices, back)


def checkers_answers(tree: Any) -> dict[str, object]:
    moves = list(tree.moves())
    return {"moves": moves, "value": tree.value(), "key": tree.key(),
            "children": [tree.child_value(m) for m in moves]}


@needs_build
@settings(max_examples=40, deadline=None)
@given(plies=st.integers(0, 40), ordering=st.sampled_from(ORDERINGS),
       choices=st.lists(st.integers(0, 1 << 16), min_size=4, max_size=40), back=st.integers(0, 40))
def test_checkers_twins_agree_along_games_with_cutoffs(plies: int, ordering: tuple[bool, bool],
                                                      choices: list[int], back: int) -> None:
    python, native = checkers_trees(checkers_position(plies, choices), *ordering)
    walk_learning(python, native, checkers_answers, choices, back)


def walk_learning(python: Any, native: Any, answers: Any, choices: list[int], back: int) -> None:
    """Random legal moves pushed into both trees, every third one first taught as a
    cutoff at depth ``choice % 6``: they agree after every push, after pops back (the
    order may have learnt since: the two trees are compared with each other) and after
    a reset, which forgets what they learnt."""
    root = answers(python)
    assert answers(native) == root
    pushed = 0
    for choice in choices:
        moves = list(python.moves())
        if not moves:
            break
        move = moves[choice % len(moves)]
        if choice % 3 == 0:
            python.cutoff(move, choice % 6)
            native.cutoff(move, choice % 6)
        python.push(move)
        native.push(move)
        pushed += 1
        assert answers(native) == answers(python)
    for _ in range(min(back, pushed)):
        python.pop()
        native.pop()
        assert answers(native) == answers(python)
    python.reset()
    native.reset()
    assert answers(python) == answers(native) == root


VARIANTS = ("alphabeta", "pvs", "negascout", "mtdf", "aspiration")
SWITCHES = (Switches(), Switches(tt_size=1 << 12), Switches(tt_size=1 << 12, iterative_deepening=True),
            Switches(tt_size=997, iterative_deepening=True, refutations=True), Switches(window=(-2, 2)))


def three_searches(trees: list[Any], name: str, depth: int, switches: Switches) -> SearchResult:
    """The Python tree's search, the compiled tree's in the compiled frame and in the
    compiled Python frame: the same in every field but the time and the frame."""
    python, compiled = trees
    spec = make_spec(name)
    reference = run_search(python, spec, depth, switches, max_nodes=50_000)
    native = run_search(compiled, spec, depth, switches, max_nodes=50_000)
    in_python = run_search(compiled, spec, depth, switches, max_nodes=50_000, native=False)
    assert native.frame == "compiled" and in_python.frame in ("python", "pure-python")
    same(native, reference)
    same(in_python, reference)
    return reference


@needs_build
@settings(max_examples=25, deadline=None)
@given(plies=st.integers(4, 44), choices=st.lists(st.integers(0, 1 << 16), min_size=4, max_size=20),
       ordering=st.sampled_from(ORDERINGS), name=st.sampled_from(VARIANTS),
       switches=st.sampled_from(SWITCHES), depth=st.integers(2, 5))
def test_othello_searches_are_the_same_in_both_trees_and_frames(
        plies: int, choices: list[int], ordering: tuple[bool, bool], name: str,
        switches: Switches, depth: int) -> None:
    board = othello_position(plies, choices)
    three_searches(othello_trees(board, *ordering), name, depth, switches)


@needs_build
@settings(max_examples=25, deadline=None)
@given(plies=st.integers(0, 40), choices=st.lists(st.integers(0, 1 << 16), min_size=4, max_size=20),
       ordering=st.sampled_from(ORDERINGS), name=st.sampled_from(VARIANTS),
       switches=st.sampled_from(SWITCHES), depth=st.integers(3, 7))
def test_checkers_searches_are_the_same_in_both_trees_and_frames(
        plies: int, choices: list[int], ordering: tuple[bool, bool], name: str,
        switches: Switches, depth: int) -> None:
    position = checkers_position(plies, choices)
    three_searches(checkers_trees(position, *ordering), name, depth, switches)


@pytest.mark.parametrize(("spec", "depth"), [("othello:phases.txt", 5), ("checkers:suite.txt", 8)])
def test_the_options_reach_the_trees_and_change_the_search(spec: str, depth: int) -> None:
    """``killers=1,history=1`` in a problem set's name gives learning trees: over a few
    positions a table + ID search visits other node counts than the static order's (the
    options do something), and ``killers=0,history=0`` is the default's count."""
    game = spec.partition(":")[0]
    counts = {}
    for options in ("", ",killers=0,history=0", ",killers=1,history=1"):
        problems = list(load_problems(spec + options).problems)[:20:4]
        counts[options] = [run_search(find_game(game).tree(p), make_spec("pvs"), depth,
                                      Switches(tt_size=1 << 14, iterative_deepening=True)
                                      ).counters["nodes"] for p in problems]
    assert counts[""] == counts[",killers=0,history=0"]
    assert counts[",killers=1,history=1"] != counts[""]


@pytest.mark.parametrize("game", ["othello", "checkers"])
def test_the_options_are_listed_and_checked(game: str) -> None:
    runner = CliRunner()
    listed = runner.invoke(cli, ["games"])
    assert listed.exit_code == 0
    section = listed.output.split(f"\n{game}")[1]
    assert "option killers=0" in section and "option history=0" in section
    bad = runner.invoke(cli, ["run", "--problems", f"{game}:start,killers=maybe", "--variants",
                              "pvs", "--depth", "2", "--out", "unused"])
    assert bad.exit_code == 2
    assert "killers='maybe' is not a boolean" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("spec", ["othello:start,killers=1", "checkers:start,killers=1"])
def test_a_match_searches_with_the_sets_options(spec: str) -> None:
    """A match's move searches use the set's killers (and history): a cutoff taught at the
    opening's root puts its move first; without the option nothing is learnt."""
    from harness.match.rules import playing

    for named, learns in ((spec, True), (spec.replace("killers=1", "killers=0"), False)):
        tree: Any = playing(load_problems(named).problems[0]).tree()
        static = list(tree.moves())
        tree.cutoff(static[-1], 3)
        assert (next(iter(tree.moves())) == static[-1]) == learns
