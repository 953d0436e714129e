"""SSS* and DUAL* in the compiled best-first frame (``harness/search/engine_best_first.h``)
against their Python reference (``harness/search/sss.py``), search by search: value, bound,
best move, status, every counter; stopped by OPEN's size and by the node limit at the same
state; on every native game, check extension included."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.base import Tree
from harness.games.chess import compiled as chess_compiled
from harness.games.connect4 import compiled as connect4_compiled
from harness.games.connect4.compiled import connect4_tree
from harness.games.connect4.tree import board_from
from harness.games.registry import find_game, load_problems
from harness.search import Switches, engine, parse_variants, run_search
from harness.search.engine import NativeSearch
from harness.search.run import SearchResult
from harness.search.sss import best_first
from tests.twins import same

pytestmark = pytest.mark.skipif(
    engine.BUILT is None or not connect4_compiled.compiled_available()
    or not chess_compiled.compiled_available(),
    reason="the compiled frame or the compiled trees were not built")

GAMES = (("chess:bench.epd", 3, 3), ("othello:phases.txt", 8, 4), ("checkers:suite.txt", 8, 5),
         ("connect4:4453", 1, 8), ("connect4:44444", 1, 9))
"""(problem set, problems, depth) of every native game."""
PLAIN = Switches()


def both(tree_of: Callable[[], Tree], label: str, depth: int, switches: Switches = PLAIN,
         max_nodes: int | None = None) -> tuple[SearchResult, SearchResult]:
    spec = parse_variants(label)[0]
    results = [run_search(tree_of(), spec, depth, switches, max_nodes=max_nodes, native=native)
               for native in (True, False)]
    assert results[0].frame == "compiled-best-first"
    assert results[1].frame == "best-first"
    return results[0], results[1]


def problems(text: str, count: int) -> list[Callable[[], Tree]]:
    """Makers of the trees of the first ``count`` problems of a set."""
    return [partial(lambda p: find_game(p.game).tree(p), problem)
            for problem in islice(load_problems(text).problems, count)]


@pytest.mark.parametrize("label", ["sss", "dual"])
@pytest.mark.parametrize("game", GAMES, ids=[g[0] for g in GAMES])
def test_both_frames_search_the_same_states(game: tuple[str, int, int], label: str) -> None:
    text, count, depth = game
    for tree_of in problems(text, count):
        native, python = both(tree_of, label, depth)
        same(native, python)
        assert native.status == "ok" and native.counters["nodes"] > 0


@pytest.mark.parametrize("label", ["sss", "dual"])
def test_check_extension_and_a_deeper_search_agree(label: str) -> None:
    for tree_of in problems("chess:wac.epd", 2):
        native, python = both(tree_of, label, 3, Switches(check_extension=True))
        same(native, python)


@pytest.mark.parametrize("open_states", [1, 5, 40, 300])
def test_open_s_limit_stops_both_at_the_same_state(open_states: int) -> None:
    for tree_of in problems("checkers:suite.txt", 4):
        for label in ("sss", "dual"):
            native, python = both(tree_of, f"{label}:max_open={open_states}", 6)
            same(native, python)


@pytest.mark.parametrize("limit", [1, 2, 50, 1000])
def test_the_node_limit_stops_both_at_the_same_node(limit: int) -> None:
    native, python = both(problems("othello:phases.txt", 1)[0], "sss", 6, max_nodes=limit)
    same(native, python)
    assert native.status == "max-nodes" and native.counters["nodes"] == limit + 1


def test_found_is_the_reference_s_with_its_bookkeeping() -> None:
    """The nodes generated and OPEN's largest size, which results do not carry."""
    tree = connect4_tree(board_from("4453"), "threats", True, compiled=True)
    loop = engine.NativeLoop("alphabeta")
    for dual in (False, True):
        native = best_first(NativeSearch(tree, None, loop), 9, dual)
        python = best_first(NativeSearch(tree, None, loop), 9, dual, leaves=[])
        assert native == python


@settings(max_examples=25, deadline=None)
@given(moves=st.lists(st.integers(1, 7), max_size=14), depth=st.integers(1, 8),
       dual=st.booleans(), deepening=st.booleans())
def test_random_connect_four_positions_agree(moves: list[int], depth: int, dual: bool,
                                              deepening: bool) -> None:
    board = ""
    tree = connect4_tree(board_from(""), "centre", False, compiled=True)
    for column in moves:                        # legal moves only, and no finished game
        if column - 1 not in tree.moves():
            continue
        tree.push(column - 1)
        if not tree.moves():
            tree.pop()
            break
        board += str(column)
    native, python = both(lambda: connect4_tree(board_from(board), "centre", False, compiled=True),
                          "dual" if dual else "sss", depth,
                          Switches(iterative_deepening=deepening))
    same(native, python)
