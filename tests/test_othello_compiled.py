"""The compiled Othello tree (``_board.c``) is the Python tree, node for node.

Every method agrees with :class:`OthelloTree` along random games from random roots
(Hypothesis), every exact variant's search gives the same result and the same counters
from both, with and without a table and iterative deepening (and, traced, the same nodes
with the same windows and values), and bad calls are the same Python exceptions.
Skipped where the extension was not built (no C compiler).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.othello import compiled
from harness.games.othello.compiled import CompiledTree, othello_tree
from harness.games.othello.game import read_position
from harness.games.othello.tree import (
    MOBILITY_WEIGHT,
    MOVE_RANKS,
    PASS,
    SQUARE_WEIGHTS,
    Board,
    OthelloTree,
    legal_moves,
)
from harness.games.registry import find_game, load_problems
from harness.results import environment
from harness.search import VARIANTS, Switches, make_spec, run_search
from harness.search.run import SearchResult

from .conftest import can_compile
from .twins import walk_twins

pytestmark = pytest.mark.skipif(not compiled.compiled_available(),
                                reason="the compiled Othello tree was not built")

EXACT = [v.name for v in VARIANTS if v.exact and v.origin == "built in" and not v.counting]
"""The built-in exact variants of the frame; SSS* and DUAL* (a ``counting`` of their own) ask the
tree nothing minimax does not, and their Python best-first search made these tests slow."""
TREE_METHODS = ("moves", "leaf_value", "value", "key", "player")


def pair(board: Board) -> tuple[Any, Any]:
    """The Python tree and the compiled one of ``board``."""
    return othello_tree(board, compiled=False), othello_tree(board, compiled=True)


def answers(tree: Any) -> dict[str, object]:
    """Everything a tree says about its current node (and each child's value and the
    name of each move)."""
    found: dict[str, object] = {name: getattr(tree, name)() for name in TREE_METHODS}
    try:
        found["terminal_value"] = tree.terminal_value()
    except AssertionError:
        found["terminal_value"] = "AssertionError"
    found["child_value"] = {m: tree.child_value(m) for m in tree.moves()}
    found["move_name"] = [tree.move_name(m) for m in tree.moves()]
    return found


@settings(max_examples=60, deadline=None)
@given(prefix=st.integers(0, 50), choices=st.lists(st.integers(0, 1 << 16), min_size=10, max_size=70),
       back=st.integers(0, 70))
def test_every_method_agrees_along_random_games(prefix: int, choices: list[int], back: int) -> None:
    """Random legal moves pushed into both trees from a root some plies into a game: they
    agree after each push, after pops back and after a reset."""
    root_tree = OthelloTree(Board.start())
    for choice in choices[:prefix]:
        moves = root_tree.moves()
        if not moves:
            break
        root_tree.push(moves[choice % len(moves)])
    python, native = pair(root_tree.board)
    assert native.root == python.root
    walk_twins(python, native, answers, choices[prefix:], back)


def same_search(text: str, name: str, depth: int, switches: Switches, max_nodes: int) -> SearchResult:
    """Search the position with each tree; the results must be equal in everything but
    the time (the Python tree's, returned)."""
    board = read_position(text)[0]
    found = [dataclasses.replace(run_search(tree, make_spec(name), depth, switches, max_nodes=max_nodes),
                                 time_s=0.0, frame="")
             for tree in pair(board)]
    assert found[0] == found[1], (name, text, depth, switches)
    return found[0]


SWITCHES = (Switches(), Switches(tt_size=1 << 12), Switches(tt_size=1 << 12, iterative_deepening=True),
            Switches(window=(-1, 1)))
CAP = 10_000
"""Nodes per search: a search stopped there must have stopped at the same node in both."""


def plan() -> list[tuple[str, int, Switches]]:
    """(position, depth, switches): one position of each phase of the suite at depths 3-4,
    two endgame ones to the end (exact values), each switch set in turn."""
    problems = list(load_problems("othello:phases.txt").problems)
    found = [(p.position, 3 + i % 2, SWITCHES[i % 4]) for i, p in enumerate(problems[::10])]
    ends = sorted(problems, key=lambda p: p.default_depth)[:2]
    found += [(p.position, p.default_depth, SWITCHES[i % 4]) for i, p in enumerate(ends)]
    return found


@pytest.mark.parametrize("name", EXACT)
def test_every_exact_variant_searches_the_same_nodes(name: str) -> None:
    for text, depth, switches in plan():
        same_search(text, name, depth, switches, CAP)


def test_traced_searches_visit_the_same_nodes() -> None:
    """Node by node: each node's move, window, value, type and moves in order."""
    board = read_position(list(load_problems("othello:phases.txt").problems)[15].position)[0]
    for name, switches in (("pvs", Switches(tt_size=1 << 10)), ("mtdf", Switches(tt_size=1 << 10)),
                           ("negascout", Switches(window=(-1, 1)))):
        python, native = (run_search(tree, make_spec(name), 4, switches, trace=True) for tree in pair(board))
        assert python.trace is not None and python.trace == native.trace, name


def test_a_pass_is_the_same_node_in_both() -> None:
    """O has no move, X has one (a position of a random game): both trees give the pass
    alone, and the pass turns the player over."""
    text = "X-OOOOOOXOOXXXOXXXOOXOXXXXOOXXXXXOXOOOXXXXOXXOXXXOOOXXXXOOOOOXOO O"
    board = read_position(text)[0]
    assert not legal_moves(board.mover, board.opponent) and legal_moves(board.opponent, board.mover)
    for tree in pair(board):
        assert list(tree.moves()) == [PASS] and tree.move_name(PASS) == "pass"
        tree.push(PASS)
        assert tree.player() == "X" and list(tree.moves()) == [1]


def test_the_game_searches_with_the_compiled_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    game = find_game("othello")
    problem = load_problems("othello:start").problems[0]
    monkeypatch.delenv("HARNESS_PURE_PYTHON", raising=False)
    assert not isinstance(game.tree(problem), OthelloTree)
    assert environment()["compiled_othello"] is True            # run.json says which ran
    monkeypatch.setenv("HARNESS_PURE_PYTHON", "1")
    assert isinstance(game.tree(problem), OthelloTree)
    assert environment()["compiled_othello"] is False


def test_the_compiled_tree_is_built_where_a_compiler_is() -> None:
    if can_compile():
        assert compiled.compiled_available()


@pytest.mark.parametrize(("move", "error", "message"), [
    ("19", TypeError, "an Othello move is a square"),
    (19.0, TypeError, "not float"),
    (None, TypeError, "not NoneType"),
    (-1, ValueError, r"square -1 is off the board \(0 to 63, 64: pass\)"),
    (65, ValueError, "square 65 is off the board"),
    (1 << 80, ValueError, "is off the board"),
    (27, ValueError, "square 27 is not a legal move here"),       # d4: occupied
    (0, ValueError, "square 0 is not a legal move here"),         # a1: turns nothing over
    (PASS, ValueError, "a pass while a square is legal"),
])
def test_bad_moves_are_the_same_exceptions(move: object, error: type[Exception], message: str) -> None:
    for tree in pair(Board.start()):
        key = tree.key()
        for method in ("push", "child_value"):
            with pytest.raises(error, match=message):
                getattr(tree, method)(move)
        assert tree.key() == key                    # nothing played


def test_bad_calls_are_exceptions() -> None:
    tree: Any = CompiledTree(Board.start())
    with pytest.raises(IndexError, match="pop at the root"):
        tree.pop()
    with pytest.raises(AssertionError, match="terminal_value of a node with moves"):
        tree.terminal_value()
    with pytest.raises(TypeError, match="takes 2 arguments"):
        tree.cutoff(19)
    assert tree.cutoff(19, 5) is None
    with pytest.raises(ValueError, match="off the board"):
        tree.move_name(99)
    with pytest.raises(TypeError):
        tree.move_name("x")
    native = compiled.BUILD.module().OthelloTree
    with pytest.raises(ValueError, match="a square holds both"):
        native(Board(1, 1, True), SQUARE_WEIGHTS, MOVE_RANKS, MOBILITY_WEIGHT)
    with pytest.raises(ValueError, match="weights: 64 squares, not 3"):
        native(Board.start(), (1, 2, 3), MOVE_RANKS, MOBILITY_WEIGHT)
    with pytest.raises(ValueError, match="ranks: square 0 is 64"):
        native(Board.start(), SQUARE_WEIGHTS, (64,) * 64, MOBILITY_WEIGHT)
    with pytest.raises(AttributeError):
        native(object(), SQUARE_WEIGHTS, MOVE_RANKS, MOBILITY_WEIGHT)


def test_the_tables_are_the_python_trees() -> None:
    """Other tables given to the compiled tree change its values and order as they would
    the Python tree's: nothing of them is copied into the C source."""
    board = Board.start()
    reversed_ranks = tuple(63 - i for i in range(64))
    tree: Any = compiled.BUILD.module().OthelloTree(board, (1,) * 64, reversed_ranks, 3)
    assert list(tree.moves()) == sorted(OthelloTree(board).moves(), reverse=True)
    assert tree.value() == 0                        # two discs and four moves each
    tree.push(19)
    assert tree.value() == 1 - 4 + 3 * (3 - 3)      # after d3: O's one disc to X's four
