"""The compiled checkers tree (``_board.c``) is the Python tree, method by method and node
for node.

Perft from the start to depth 8 with the compiled tree; every method agrees with
:class:`CheckersTree` along random games from the start and the suite's positions
(Hypothesis), every exact variant's search gives the same result and counters from both
trees (with and without a table, iterative deepening, MT's table), traced searches visit
the same nodes, and bad calls are Python exceptions. Skipped where the extension was not
built (no C compiler).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.checkers import compiled
from harness.games.checkers.board import DRAW_PLIES, START_FEN, Position, parse_fen
from harness.games.checkers.compiled import checkers_tree
from harness.games.checkers.tree import CheckersTree
from harness.games.registry import find_game, load_problems
from harness.results import environment
from harness.search import VARIANTS, Switches, make_spec, run_search

from .conftest import can_compile
from .test_checkers import PERFT
from .twins import walk_twins

pytestmark = pytest.mark.skipif(not compiled.compiled_available(),
                                reason="the compiled checkers tree was not built")

EXACT = [v.name for v in VARIANTS if v.exact and v.origin == "built in" and not v.counting]
"""The built-in exact variants of the frame; SSS* and DUAL* (a ``counting`` of their own) ask the
tree nothing minimax does not, and their Python best-first search made these tests slow."""
SUITE = [p.position for p in load_problems("checkers:suite.txt").problems]
ROOTS = [START_FEN, *SUITE, "W:WK6:B9,10,17,18", "B:W26,27:B22", "B:W29:B17,25"]
"""The start, the suite (three phases) and the rule tests' positions (a king's ring, a
crowning jump, a won game)."""


def pair(position: Position) -> tuple[Any, Any]:
    return checkers_tree(position, compiled=False), checkers_tree(position, compiled=True)


def answers(tree: Any) -> dict[str, object]:
    """Everything a tree says about its current node (and each move's child value and name)."""
    moves = tree.moves()
    found: dict[str, object] = {"moves": moves, "value": tree.value(), "key": tree.key(),
                                "ply": tree.ply,
                                "children": [(tree.child_value(m), tree.move_name(m)) for m in moves]}
    try:
        found["terminal_value"] = tree.terminal_value()
    except AssertionError:
        found["terminal_value"] = "AssertionError"
    return found


def perft(tree: Any, depth: int) -> int:
    if depth == 0:
        return 1
    count = 0
    for move in tree.moves():
        tree.push(move)
        count += perft(tree, depth - 1)
        tree.pop()
    return count


def test_perft_from_the_start_to_depth_8() -> None:
    tree = checkers_tree(parse_fen(START_FEN), compiled=True)
    assert [perft(tree, d) for d in range(1, 9)] == list(PERFT)


@settings(max_examples=60, deadline=None)
@given(root=st.sampled_from(ROOTS), quiet=st.integers(0, DRAW_PLIES),
       choices=st.lists(st.integers(0, 1 << 16), min_size=1, max_size=80), back=st.integers(0, 80))
def test_every_method_agrees_along_random_games(root: str, quiet: int, choices: list[int],
                                                back: int) -> None:
    """Random legal moves pushed into both trees from a root (a draw count drawn too, so
    that the draw rule strikes), compared after each push, after pops back and a reset."""
    position = dataclasses.replace(parse_fen(root.split()[0]), quiet=quiet)
    walk_twins(*pair(position), answers, choices, back)


SWITCHES = (Switches(), Switches(tt_size=1 << 12), Switches(tt_size=1 << 12, iterative_deepening=True),
            Switches(tt_size=1 << 12, iterative_deepening=True, tt_leaves=True, tt_narrow=True))
PLAN = [(parse_fen(START_FEN), 7), (parse_fen(SUITE[1]), 5), (parse_fen(SUITE[2]), 6),
        (parse_fen(SUITE[0]), 5),
        (dataclasses.replace(parse_fen(SUITE[2]), quiet=DRAW_PLIES - 3), 6)]
"""(position, depth): the start, a middle game, an endgame with kings, an opening, and the
endgame 3 plies before the draw rule strikes."""
CAP = 20_000
"""Nodes per search: a search stopped there must have stopped at the same node in both."""


@pytest.mark.parametrize("name", EXACT)
def test_every_exact_variant_searches_the_same_nodes(name: str) -> None:
    for i, (position, depth) in enumerate(PLAN):
        for switches in (SWITCHES if i == 0 else SWITCHES[i % 2::2]):
            found = [dataclasses.replace(run_search(tree, make_spec(name), depth, switches,
                                                    max_nodes=CAP), time_s=0.0, frame="")
                     for tree in pair(position)]
            assert found[0] == found[1], (name, position, depth, switches)


def test_traced_searches_visit_the_same_nodes() -> None:
    """Node by node: each node's move, window, value, type and moves in order."""
    for name, text, switches in (("pvs", START_FEN, Switches(tt_size=1 << 10)),
                                 ("mtdf", SUITE[2], Switches(tt_size=1 << 10)),
                                 ("negascout", SUITE[1], Switches())):
        python, native = (run_search(tree, make_spec(name), 4, switches, trace=True)
                          for tree in pair(parse_fen(text.split()[0])))
        assert python.trace is not None and python.trace == native.trace, name


def test_the_game_searches_with_the_compiled_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    game = find_game("checkers")
    problem = load_problems("checkers:start").problems[0]
    monkeypatch.delenv("HARNESS_PURE_PYTHON", raising=False)
    assert not isinstance(game.tree(problem), CheckersTree)
    assert environment()["compiled_checkers"] is True           # run.json says which ran
    python = load_problems("checkers:start,tree=python").problems[0]
    assert isinstance(game.tree(python), CheckersTree)
    monkeypatch.setenv("HARNESS_PURE_PYTHON", "1")
    assert isinstance(game.tree(problem), CheckersTree)
    assert environment()["compiled_checkers"] is False
    forced = load_problems("checkers:start,tree=compiled").problems[0]
    assert not isinstance(game.tree(forced), CheckersTree)


def test_the_compiled_tree_is_built_where_a_compiler_is() -> None:
    if can_compile():
        assert compiled.compiled_available()


@pytest.mark.parametrize(("move", "error", "message"), [
    ("9-13", TypeError, "a checkers move is an int"),
    (None, TypeError, "not NoneType"),
    (-1, ValueError, "is not a checkers move"),
    (1 << 80, ValueError, "is not a checkers move"),
    (0, ValueError, "cannot be played here"),             # square 1 up-left: off the board
    (20, ValueError, "cannot be played here"),            # square 21: White's man
    (8, ValueError, "cannot be played here"),             # 9 up-left: a man going backwards
    (1 | 3 << 9, ValueError, "cannot be played here"),    # 2-7: square 7 is taken
    (8 | 2 << 9 | 1 << 30, ValueError, "cannot be played here"),   # 9-13 and stray bits
    (8 | 1 << 5 | 3 << 9, ValueError, "cannot be played here"),    # 9x18: nothing to jump
])
def test_bad_moves_are_exceptions(move: object, error: type[Exception], message: str) -> None:
    tree: Any = checkers_tree(parse_fen(START_FEN), compiled=True)
    key = tree.key()
    for method in ("push", "child_value"):
        with pytest.raises(error, match=message):
            getattr(tree, method)(move)
    assert tree.key() == key and tree.ply == 0                   # nothing played


def test_bad_calls_are_exceptions() -> None:
    tree: Any = checkers_tree(parse_fen(START_FEN), compiled=True)
    with pytest.raises(IndexError, match="pop at the root"):
        tree.pop()
    with pytest.raises(AssertionError, match="terminal_value of a node with moves"):
        tree.terminal_value()
    with pytest.raises(TypeError, match="takes 2 arguments"):
        tree.cutoff(8)
    assert tree.cutoff(8, 5) is None
    assert tree.move_name(8 | 2 << 9) == "9-13"
    with pytest.raises(ValueError, match="is not a checkers move"):
        tree.move_name(0)
    native = compiled.BUILD.module().CheckersTree
    for bad in (Position(1, 1, 0, 0), Position(1, 2, 4, 0), Position(1, 2, 0, 2),
                Position(1 << 32, 2, 0, 0), Position(1, 2, 0, 0, DRAW_PLIES + 1)):
        with pytest.raises(ValueError, match="not a checkers position"):
            native(bad)
    with pytest.raises(ValueError, match="tables of the wrong size"):
        compiled.BUILD.module().setup((1, 2), DRAW_PLIES, 1, 1, (0,) * 8, 1)
