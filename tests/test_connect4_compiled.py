"""The compiled Connect Four tree (``_board.c``) is the Python tree, node for node.

Every method agrees with :class:`Connect4Tree` along random games on random board sizes
(Hypothesis), every exact variant's search gives the same result and the same counters
from both (and, traced, the same nodes with the same windows and values), and bad calls
are Python exceptions. Skipped where the extension was not built (no C compiler).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.base import INF
from harness.games.connect4 import compiled
from harness.games.connect4.compiled import CompiledTree, connect4_tree, fits
from harness.games.connect4.tree import ORDERS, Board, Connect4Tree, board_from
from harness.games.registry import find_game, load_problems
from harness.results import environment
from harness.search import VARIANTS, Switches, make_spec, run_search
from harness.search.run import SearchResult

from .conftest import can_compile

pytestmark = pytest.mark.skipif(not compiled.compiled_available(),
                                reason="the compiled Connect Four tree was not built")

SHARED = Path(__file__).resolve().parents[2] / "shared" / "connect4"
EXACT = [v.name for v in VARIANTS if v.exact and v.origin == "built in" and not v.counting]
"""The built-in exact variants of the frame; SSS* and DUAL* (a ``counting`` of their own) ask the
tree nothing minimax does not, and their Python best-first search made these tests slow."""
TREE_METHODS = ("moves", "leaf_value", "value", "key", "value_bound", "value_floor", "value_range")
"""The methods without arguments both trees must answer alike (value_range where the Python
tree has it)."""


def pair(board: Board, order: str, anticipate: bool) -> tuple[Any, Any]:
    """The Python tree and the compiled one of ``board``."""
    return (connect4_tree(board, order, anticipate, compiled=False),
            connect4_tree(board, order, anticipate, compiled=True))


def answers(tree: Any) -> dict[str, object]:
    """Everything a tree says about its current node (and each child's value)."""
    found: dict[str, object] = {name: getattr(tree, name)() for name in TREE_METHODS
                                if hasattr(Connect4Tree, name)}
    try:
        found["terminal_value"] = tree.terminal_value()
    except AssertionError:
        found["terminal_value"] = "AssertionError"
    width = tree.width if hasattr(tree, "width") else tree.board.width
    found["child_value"] = {c: tree.child_value(c) for c in range(width)
                            if playable(tree, c)}
    return found


def playable(tree: Any, column: int) -> bool:
    """Whether ``column`` is not full, asked of the Python tree's board (the compiled one
    says it by a ValueError)."""
    board = getattr(tree, "board", None)
    if board is not None:
        return bool(board.can_play(column))
    try:
        tree.child_value(column)
    except ValueError:
        return False
    return True


# Every size of 4 to 7 columns by 4 to 6 rows, and the largest 64-bit boards (the spare
# bit of the last column is bit 63; keys use all 64 bits).
SIZES = st.one_of(st.tuples(st.integers(4, 7), st.integers(4, 6)),
                  st.sampled_from([(8, 7), (9, 6), (12, 4), (4, 15), (10, 5)]))


@settings(max_examples=100, deadline=None)
@given(size=SIZES, prefix=st.integers(0, 12),
       choices=st.lists(st.integers(0, 1 << 16), min_size=8, max_size=70), back=st.integers(0, 70))
def test_every_method_agrees_along_random_games(size: tuple[int, int], prefix: int,
                                                choices: list[int], back: int) -> None:
    """Random legal columns (past wins too: the trees do not refuse them), pushed into a
    pair of trees for every order and anticipate, from a root a few stones in; the pairs
    agree after each push, after pops back and after a reset."""
    width, height = size
    board = Board(width, height)
    for choice in choices[:prefix]:                   # the root: some stones already played
        free = [c for c in range(width) if board.can_play(c)]
        if not free:
            break
        board.play(free[choice % len(free)])
    pairs = [pair(board, order, anticipate) for order in ORDERS for anticipate in (False, True)]
    root = [answers(python) for python, _ in pairs]
    for (_, native), expected in zip(pairs, root, strict=True):
        assert answers(native) == expected
    history = [root]
    for choice in choices[prefix:]:
        free = [c for c in range(width) if pairs[0][0].board.can_play(c)]
        if not free:
            break
        column = free[choice % len(free)]
        seen = []
        for python, native in pairs:
            python.push(column)
            native.push(column)
            seen.append(answers(python))
            assert answers(native) == seen[-1]
        history.append(seen)
    for _ in range(min(back, len(history) - 1)):     # pop some moves back: the same nodes
        history.pop()
        for (python, native), expected in zip(pairs, history[-1], strict=True):
            python.pop()
            native.pop()
            assert answers(python) == answers(native) == expected
    for (python, native), expected in zip(pairs, root, strict=True):
        python.reset()
        native.reset()
        assert answers(python) == answers(native) == expected


def same_search(moves: str, width: int, height: int, order: str, anticipate: bool, name: str,
                depth: int | None, switches: Switches, max_nodes: int) -> SearchResult:
    """Search the position with each tree; the results must be equal in everything but
    the time (the Python tree's, returned)."""
    board = board_from(moves, width, height)
    depth = depth or width * height - board.moves
    found = [dataclasses.replace(run_search(tree, make_spec(name), depth, switches,
                                            max_nodes=max_nodes), time_s=0.0, frame="")
             for tree in pair(board, order, anticipate)]
    assert found[0] == found[1], (name, moves, order, anticipate, depth, switches)
    return found[0]


SWITCHES = (Switches(), Switches(tt_size=1 << 12), Switches(tt_size=1 << 12, iterative_deepening=True),
            Switches(window=(-1, 1)))
SMALL = [("33124", None), ("", 7), ("1524", 9), ("3", 6)]
"""Positions on a 5x4 board, solved (None) or to a depth (the horizon's values, and the
frame's leaf shortcut: child_value)."""
CAP = 25_000
"""Nodes per search: a search stopped there must have stopped at the same node in both."""
BUDGET = 120_000
"""Nodes per variant (the Python tree's, about a second): the plan is searched in order
until it is spent, so the variants that search far more nodes (minimax, the note's
searches) still compare the end-game positions and the small board's first."""


def plan() -> list[tuple[str, int, int, str, bool, int | None, Switches]]:
    """(moves, width, height, order, anticipate, depth, switches): each order, anticipate
    on and off, and each switch set in turn; Pons's sets where ../shared has them."""
    found: list[tuple[str, int, int, str, bool, int | None, Switches]] = []
    if (SHARED / "Test_L3_R1").is_file():
        end_game = load_problems(f"connect4:{SHARED / 'Test_L3_R1'}").problems[:20]
        found += [(p.problem_id, 7, 6, ORDERS[i % 3], bool(i // 3 % 2), None, SWITCHES[i % 4])
                  for i, p in enumerate(end_game)]
    for i, (moves, depth) in enumerate(SMALL):
        found += [(moves, 5, 4, ORDERS[(i + j) % 3], bool((i + j) % 2), depth, switches)
                  for j, switches in enumerate(SWITCHES[:2] if i else SWITCHES)]
    if (SHARED / "Test_L2_R1").is_file():
        middle = load_problems(f"connect4:{SHARED / 'Test_L2_R1'},order=threats,anticipate=1").problems[:4]
        found += [(p.problem_id, 7, 6, "threats", True, None, SWITCHES[i % 4])
                  for i, p in enumerate(middle)]
    return found


@pytest.mark.parametrize("name", EXACT)
def test_every_exact_variant_searches_the_same_nodes(name: str) -> None:
    spent = searched = 0
    for moves, width, height, order, anticipate, depth, switches in plan():
        if spent >= BUDGET:
            break
        result = same_search(moves, width, height, order, anticipate, name, depth, switches, CAP)
        spent += result.counters["nodes"]
        searched += 1
    # Enough positions, or the budget spent (without Pons's sets, ../shared/connect4, the
    # small boards alone can spend minimax's budget in a few searches).
    assert searched >= min(len(plan()), 8) or spent >= BUDGET, (name, searched)


def test_traced_searches_visit_the_same_nodes() -> None:
    """Node by node: each node's move, window, value, type and moves in order."""
    board = board_from("33124", 5, 4)
    for name, order, anticipate, switches in (("pvs", "threats", True, Switches(tt_size=1 << 10)),
                                              ("mtd-bi", "centre", False, Switches()),
                                              ("negascout", "left", True, Switches(window=(-1, 1)))):
        python, native = (run_search(tree, make_spec(name), 8, switches, trace=True)
                          for tree in pair(board, order, anticipate))
        assert python.trace is not None and python.trace == native.trace, name


def test_the_game_searches_with_the_compiled_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    game = find_game("connect4")
    problem = load_problems("connect4:4453,width=5,height=4").problems[0]
    monkeypatch.delenv("HARNESS_PURE_PYTHON", raising=False)
    assert not isinstance(game.tree(problem), Connect4Tree)
    assert environment()["compiled_connect4"] is True           # run.json says which ran
    monkeypatch.setenv("HARNESS_PURE_PYTHON", "1")
    assert isinstance(game.tree(problem), Connect4Tree)
    assert environment()["compiled_connect4"] is False
    monkeypatch.delenv("HARNESS_PURE_PYTHON")
    big = load_problems("connect4:4453,width=9,height=7").problems[0]     # 72 bits
    assert not fits(9, 7) and isinstance(game.tree(big), Connect4Tree)
    assert fits(8, 7) and fits(7, 6) and not fits(4, 3)


def test_the_compiled_tree_is_built_where_a_compiler_is() -> None:
    if can_compile():
        assert compiled.compiled_available()


@pytest.mark.parametrize(("move", "error", "message"), [
    ("3", TypeError, "a Connect Four move is a column index"),
    (2.0, TypeError, "not float"),
    (None, TypeError, "not NoneType"),
    (-1, ValueError, r"column -1 is off the board \(0 to 4\)"),
    (5, ValueError, "column 5 is off the board"),
    (1 << 80, ValueError, "is off the board"),
    (0, ValueError, "column 0 is full"),
])
def test_bad_moves_are_exceptions(move: object, error: type[Exception], message: str) -> None:
    tree: Any = CompiledTree(board_from("1111", 5, 4))
    key = tree.key()
    for method in ("push", "child_value"):
        with pytest.raises(error, match=message):
            getattr(tree, method)(move)
    assert tree.key() == key                         # nothing played


def test_bad_calls_are_exceptions() -> None:
    tree: Any = CompiledTree(board_from("", 5, 4), "threats", True)
    with pytest.raises(IndexError, match="pop at the root"):
        tree.pop()
    tree.push(2)
    tree.pop()
    with pytest.raises(IndexError):
        tree.pop()
    with pytest.raises(AssertionError, match="terminal_value of a node with moves"):
        tree.terminal_value()
    with pytest.raises(TypeError, match="takes 2 arguments"):
        tree.cutoff(2)
    assert tree.cutoff(2, 5) is None
    assert tree.move_name(0) == "1" and tree.move_name(True) == "2"
    # The cached names of the columns and the computed ones beyond them, as Python names them.
    for move in (*range(-3, 15), 2**63, -(2**70)):
        assert tree.move_name(move) == str(move + 1)
    with pytest.raises(ValueError, match="invalid literal"):
        tree.move_name("x")
    assert tree.value_floor() == -((20 - 2) // 2)
    plain: Any = CompiledTree(board_from("", 5, 4))
    assert plain.value_floor() == -INF


def test_bad_boards_and_orders_are_exceptions() -> None:
    native = compiled.BUILD.module().Connect4Tree
    with pytest.raises(ValueError, match="order sideways"):
        native(Board(5, 4), "sideways")
    with pytest.raises(ValueError, match="a 9x7 board"):
        native(Board(9, 7))
    with pytest.raises(ValueError, match="a 4x3 board"):
        native(Board(4, 3))
    floating = Board(5, 4)
    floating.mask = 0b10                             # a stone above an empty square
    with pytest.raises(ValueError, match="not a Connect Four position"):
        native(floating)
    with pytest.raises(AttributeError):
        native(object())
    with pytest.raises(TypeError):
        native()
    assert native(board_from("33", 5, 4), order="left", anticipate=True).root == (
        board_from("33", 5, 4).position, board_from("33", 5, 4).mask, 2)
