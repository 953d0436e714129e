"""The compiled cursor of OpenSpiel trees (``harness/games/openspiel/_cursor.c``) is the Python one,
node for node.

Every method agrees with :class:`PythonCursor` along random games, every variant's search
gives the same result and counters from both (with and without a table, evaluations
clamped or not), and what only the Python cursor words (a return that is not an integer
once scaled) comes out as the same error. Skipped without ``pyspiel`` or where the
extension was not built (no C compiler).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from harness.errors import HarnessError
from harness.games.openspiel import cursor as openspiel_cursor
from harness.games.openspiel.evaluations import Evaluation
from harness.results import environment
from harness.search import VARIANTS, Switches, make_spec, run_search

pytest.importorskip("pyspiel")
pytestmark = pytest.mark.skipif(openspiel_cursor.BUILD.built is None,
                                reason="the compiled OpenSpiel cursor was not built")

from harness.games.openspiel.game import OpenSpielTree, load_game  # noqa: E402

EXACT = [v.name for v in VARIANTS if v.exact and v.origin == "built in"]


def mobility(state: Any) -> int:
    """An evaluation that reaches beyond its bound: clamping is part of what is compared."""
    return 3 * len(state.legal_actions()) - 20


def trees(game: str, **kwargs: Any) -> tuple[OpenSpielTree, OpenSpielTree]:
    return (OpenSpielTree(game, compiled=True, **kwargs),
            OpenSpielTree(game, compiled=False, **kwargs))


def test_the_compiled_cursor_runs_by_default_where_it_can() -> None:
    compiled = OpenSpielTree("tic_tac_toe")
    assert type(compiled.moves.__self__).__module__ == "harness.games.openspiel._cursor"
    chains = OpenSpielTree("checkers")           # a player may move twice: Python's
    assert isinstance(chains.moves.__self__, openspiel_cursor.PythonCursor)
    assert environment()["compiled_openspiel"] is True
    with pytest.raises(HarnessError, match="its players do not alternate"):
        OpenSpielTree("checkers", compiled=True)


@pytest.mark.parametrize("game, kwargs", [
    ("tic_tac_toe", {}),
    ("breakthrough(rows=5,columns=4)", {"evaluate": Evaluation("mobility", (), 10, mobility, "")}),
    ("breakthrough(rows=5,columns=4)", {"evaluate": mobility, "scale": 100}),
    ("connect_four", {"actions": [3, 3, 2]}),
])
def test_every_method_agrees_along_random_games(game: str, kwargs: dict[str, Any]) -> None:
    compiled, python = trees(game, **kwargs)
    rng = random.Random(7)
    for _ in range(30):
        plies = 0
        while True:
            moves = compiled.moves()
            assert moves == python.moves()
            assert compiled.value() == python.value()
            if not moves:
                assert compiled.terminal_value() == python.terminal_value()
                break
            assert [compiled.child_value(m) for m in moves] == [python.child_value(m) for m in moves]
            move = rng.choice(moves)
            compiled.push(move)
            python.push(move)
            plies += 1
        for _ in range(plies):
            compiled.pop()
            python.pop()
        assert compiled.key() == python.key()


@pytest.mark.parametrize("game, depth, kwargs", [
    ("tic_tac_toe", 8, {"actions": [0]}),        # to the end of every line, an eighth of the start's
    ("tic_tac_toe", 4, {"actions": [4]}),
    ("breakthrough(rows=5,columns=4)", 3, {"evaluate": Evaluation("mobility", (), 10, mobility, "")}),
])
@pytest.mark.parametrize("table", [0, 1 << 12])
def test_every_variant_searches_the_same_nodes(game: str, depth: int, kwargs: dict[str, Any],
                                               table: int) -> None:
    compiled, python = trees(game, **kwargs)
    switches = Switches(tt_size=table)
    for name in EXACT:
        spec = make_spec(name)
        got = run_search(compiled, spec, depth, switches)
        expected = run_search(python, spec, depth, switches)
        assert (got.score, got.best_move, got.pv, got.counters) == \
            (expected.score, expected.best_move, expected.pv, expected.counters), name


def test_tic_tac_toe_minimax_counts_every_state() -> None:
    compiled, _ = trees("tic_tac_toe")
    result = run_search(compiled, make_spec("minimax"), 9)
    assert (result.score, result.counters["nodes"]) == (0, 549_946)


def test_a_return_out_of_range_is_the_same_error_from_both() -> None:
    """A win scaled to INF is not a value: the compiled cursor hands it to the Python one,
    whose error names the game and the scale."""
    game = load_game("tic_tac_toe")
    errors = []
    for compiled in (True, False):
        tree = OpenSpielTree(game, compiled=compiled, scale=10**9)
        with pytest.raises(HarnessError, match="not an integer between") as raised:
            run_search(tree, make_spec("minimax"), 9)
        errors.append(str(raised.value))
    assert errors[0] == errors[1]
