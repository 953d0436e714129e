"""The trace of a search: its totals are the counters, and it draws as text and image."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import chess
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import harness.search
from harness.cli import cli
from harness.games.base import Move
from harness.games.chess.tree import ChessTree
from harness.games.trees import INF, parse_tree
from harness.report.trace import render_text
from harness.search import VARIANTS, Switches, make_spec, run_search
from harness.search.core import Search
from harness.search.trace import TracingSearch, totals

nested = st.recursive(st.integers(-6, 6), lambda kids: st.lists(kids, min_size=1, max_size=4),
                      max_leaves=30)
switches = st.sampled_from([Switches(), Switches(tt_size=8), Switches(iterative_deepening=True),
                            Switches(tt_size=64, iterative_deepening=True)])


def check(result: Any) -> None:
    counted = totals(result.trace)
    assert counted == {k: result.counters[k] for k in counted}


@settings(max_examples=60, deadline=None)
@given(data=nested, sw=switches)
def test_trace_totals_are_the_counters(data: Any, sw: Switches) -> None:
    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    for variant in VARIANTS:
        result = run_search(tree, make_spec(variant.name), depth, sw, trace=True)
        check(result)
        plain = run_search(tree, make_spec(variant.name), depth, sw)
        assert plain.counters == result.counters and plain.score == result.score


def test_trace_totals_on_chess_with_null_moves_and_table() -> None:
    board = chess.Board("r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9")
    for name in ("pvs", "mtdf"):
        sw = Switches(null_move=1, check_extension=True, tt_size=4096)
        result = run_search(ChessTree(board), make_spec(name), 3, sw, trace=True)
        check(result)
        assert result.counters["null_searches"] > 0


def test_only_the_frame_counts_zero_window_tests() -> None:
    # Loops call Search.test; a loop that counted for itself would be invisible to the trace.
    folder = Path(harness.search.__file__).parent
    for name in ("alphabeta", "pvs", "negascout", "zwp", "drivers"):
        assert "zw_searches" not in (folder / f"{name}.py").read_text(), name


def test_the_trace_marks_what_the_frame_counts_as_a_test() -> None:
    """A test is drawn ``Z`` exactly when it is counted; one from a zero-wide node is ``F``."""
    made: list[bool] = []                       # each call of Search.test: was it wide?

    def loop(s: Search, moves: Sequence[Move], depth: int, alpha: int,
             beta: int) -> tuple[int, int, Move | None]:
        wide = beta > alpha + 1
        for i, m in enumerate(moves):
            if i == 0:
                v = -s.child(loop, m, depth - 1, -beta, -alpha)
            else:
                made.append(wide)
                v = -s.test(loop, m, depth - 1, -alpha - 1, -alpha, wide)
            if v >= beta:
                return beta, i, m
            alpha = max(alpha, v)
        return alpha, len(moves) - 1, None

    # Full window: three tests, one by the root's second child, itself searched with a zero
    # window (not counted). A zero window at the root: its tests are not counted either.
    for frame in (Search, TracingSearch):
        for alpha, beta, tests, calls in ((-INF, INF, 2, 3), (5, 6, 0, 1)):
            made.clear()
            search = frame(parse_tree([[1, 2], [3, 4]]))
            search.root(loop, 2, alpha, beta)
            assert (search.counters.zw_searches, len(made)) == (tests, calls)
            if isinstance(search, TracingSearch):
                assert totals(search.passes)["zw_searches"] == tests
                hows = [n.how for n in search.passes[0].walk()]
                assert hows.count("Z") == tests and hows.count("F") == len(hows) - 1 - tests


def test_text_uses_the_notes_notation() -> None:
    result = run_search(parse_tree([[8, 2], [5, 9]]), make_spec("pvs"), 2, trace=True)
    text = render_text(result.trace or [])
    assert "Z+F 1 (-inf, -2) = -5  PV   [test (-3, -2) = -3]" in text
    assert "Z 1 (4, 5) = 9  leaf   Skp" in text
    belle = run_search(parse_tree([[8, 2], [5, 9]]), make_spec("belle"), 2, trace=True)
    assert "failed high, not re-searched" in render_text(belle.trace or [])
    ab = run_search(parse_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), make_spec("alphabeta"), 2,
                    trace=True)
    assert "cut off: 1 2" in render_text(ab.trace or [])


def test_tree_command_draws_text_and_image(tmp_path: Path) -> None:
    out = tmp_path / "drawing"
    result = CliRunner().invoke(cli, ["tree", "--tree", "tests/data/textbook.json", "--variant",
                                      "pvs", "--compare", "alphabeta", "--depth", "2",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "pvs to depth 2: score 3 (exact)" in result.output
    assert "alphabeta to depth 2" in result.output and "└─ cut off: 1 2" in result.output
    assert out.with_suffix(".png").stat().st_size > 0 and out.with_suffix(".svg").exists()
    big = CliRunner().invoke(cli, ["tree", "--trees", "random:b=4,d=5,seed=1", "--variant",
                                   "mtdf", "--depth", "5", "--max-lines", "20",
                                   "--out", str(tmp_path / "big")])
    assert big.exit_code == 0 and "more nodes" in big.output
    assert "pass 2" in big.output
    bad = CliRunner().invoke(cli, ["tree", "--tree", "tests/data/textbook.json", "--variant",
                                   "pvs", "--depth", "1-2"])
    assert bad.exit_code == 2 and "one --depth N" in bad.output


def test_tree_command_says_which_of_several_problems_it_draws() -> None:
    five = ["tree", "--trees", "random:b=2,d=2,n=5", "--variant", "pvs"]
    first = CliRunner().invoke(cli, five)
    assert first.exit_code == 0
    assert first.stderr == ("note: 5 problems; drawing the first, '0' of random:b=2,d=2,n=5,seed=0,"
                            "ordering=random,values=uniform,range=1000 (pick another with "
                            "--problem ID)\n")
    assert first.stdout.startswith("random:b=2,d=2,n=5,seed=0,ordering=random,values=uniform,"
                                   "range=1000 0\n")
    named = CliRunner().invoke(cli, [*five, "--problem", "3"])
    assert named.exit_code == 0 and named.stderr == ""
    assert named.stdout.split("\n")[0].endswith("range=1000 3")
    one = CliRunner().invoke(cli, ["tree", "--trees", "random:b=2,d=2", "--variant", "pvs"])
    assert one.exit_code == 0 and one.stderr == ""
