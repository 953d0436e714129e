"""Refutation tables (``Switches.refutations``; docs/selective.md, "Refutation tables").

Each root move's line from the last pass that searched it (the move that refuted it, the
best reply to that, and so on) is searched first below it where a node has no hash move:
checked against the trace of the previous pass, node by node; ordering only, so every
score stays minimax's; the same in both frames, node for node, for every loop; switched
from the command line, recorded and ablated.
"""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.games.chess import compiled as chess_compiled
from harness.games.chess.tree import ChessTree, Ordering
from harness.games.connect4 import compiled as connect4_compiled
from harness.games.connect4.compiled import connect4_tree
from harness.games.connect4.tree import board_from
from harness.games.registry import find_game, load_problems
from harness.run.profiles import BY_NAME
from harness.search import VARIANTS, Switches, engine, make_spec, parse_variants, run_search
from harness.search.trace import TraceNode
from tests.twins import same

MIDDLE_GAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"
"""A quiet Queen's Gambit position: many quiet moves, nothing forced."""
NATIVE = [v.name for v in VARIANTS if v.native_loop is not None]
"""Every variant the compiled frame runs."""
ON = Switches(iterative_deepening=True, refutations=True)


def best_line(node: TraceNode) -> list[str]:
    """The line a node's search leaves, worked out from its trace alone: the child whose
    (last) search gave the node its best value, the first of equals, as a fail-hard
    alpha-beta loop chooses it; then that child's line."""
    last: dict[str, TraceNode] = {}
    for child in node.children:
        if child.how != "N":
            last[child.move] = child
    if not last:
        return []
    order = [move for move in node.moves if move in last]
    best = max(order, key=lambda move: -(last[move].value or 0))
    return [best, *best_line(last[best])]


def check_follows(node: TraceNode, line: list[str]) -> int:
    """Assert that below ``node`` the line was searched first while the path followed it;
    the number of nodes where it was."""
    if not line or line[0] not in node.moves:
        return 0
    assert node.moves[0] == line[0], (node.move, node.moves[:3], line)
    followed = 1
    for child in node.children:
        if child.move == line[0]:
            followed += check_follows(child, line[1:])
            break
    return followed


def test_each_root_move_s_line_from_the_last_pass_is_searched_first_below_it() -> None:
    tree = ChessTree(chess.Board(MIDDLE_GAME), Ordering())
    result = run_search(tree, make_spec("alphabeta"), 4, ON, trace=True)
    assert result.trace is not None
    followed = 0
    for previous, current in zip(result.trace, result.trace[1:], strict=False):
        lines = {child.move: best_line(child) for child in previous.children}
        for child in current.children:
            followed += check_follows(child, lines.get(child.move, []))
    assert followed == result.counters["refutation_moves"] > 100


def test_without_an_earlier_pass_nothing_is_learnt() -> None:
    tree = ChessTree(chess.Board(MIDDLE_GAME), Ordering())
    single = run_search(tree, make_spec("alphabeta"), 3, Switches(refutations=True))
    plain = run_search(tree, make_spec("alphabeta"), 3, Switches())
    assert single.counters["refutation_moves"] == 0
    assert single.counters == plain.counters and single.pv == plain.pv


@pytest.mark.parametrize("name", ["alphabeta", "alphabeta-fs", "pvs", "negascout", "mtdf",
                                  "aspiration:inner=pvs"])
def test_refutations_order_moves_only(name: str) -> None:
    """The score is minimax's with or without them (no table: nothing deeper decides), and
    without a table they save nodes, as in Schaeffer's experiments."""
    spec = parse_variants(name)[0]
    results = [run_search(ChessTree(chess.Board(MIDDLE_GAME), Ordering()), spec, 4,
                          Switches(iterative_deepening=True, refutations=on,
                                   tt_size=4096 if spec.variant.uses_table else 0))
               for on in (False, True)]
    assert results[0].score == results[1].score
    assert results[1].counters["refutation_moves"] > 0
    if not spec.variant.uses_table:
        assert results[1].counters["nodes"] < results[0].counters["nodes"]


needs_frames = pytest.mark.skipif(
    engine.BUILT is None or not chess_compiled.compiled_available(),
    reason="the compiled frame or the compiled chess tree was not built")


@needs_frames
@pytest.mark.parametrize("name", NATIVE)
def test_every_loop_follows_them_alike_in_both_frames(name: str) -> None:
    spec = parse_variants(name)[0]
    problems = list(load_problems("chess:bench.epd,killers=1,history=1").problems)[:3]
    depth = 2 if name in ("minimax", "scout") else 4
    for i, problem in enumerate(problems):
        switches = Switches(iterative_deepening=True, refutations=True,
                            tt_size=(0, 997, 1 << 12)[i], null_move=2 * (i == 2))
        native = run_search(find_game("chess").tree(problem), spec, depth, switches)
        python = run_search(find_game("chess").tree(problem), spec, depth, switches,
                            native=False)
        assert native.frame == "compiled"
        same(native, python)
        if i == 0 and depth > 2 and name != "minimax" and not spec.variant.uses_table:
            assert native.counters["refutation_moves"] > 0


@pytest.mark.skipif(engine.BUILT is None or not connect4_compiled.compiled_available(),
                    reason="the compiled frame or the compiled Connect Four tree was not built")
def test_connect_four_follows_them_alike_in_both_frames() -> None:
    for moves in ("4453", "44444"):
        results = [run_search(connect4_tree(board_from(moves), "threats", True, compiled=True),
                              make_spec("pvs"), 9, ON, native=native) for native in (True, False)]
        same(*results)
        assert results[0].counters["refutation_moves"] > 0


def test_the_command_line_switches_and_records_them(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "run", "--suite", "bench.epd", "--limit", "2", "--variants", "alphabeta,pvs",
        "--depth", "3", "--id", "--refutations", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "cross-checked" in result.output           # ordering only: still exact
    info = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert info["config"]["switches"]["refutations"] is True
    rows = (out / "results.csv").read_text(encoding="utf-8").splitlines()
    column = rows[0].split(",").index("refutation_moves")
    assert any(int(row.split(",")[column]) > 0 for row in rows[1:])


def test_without_deepening_the_switch_warns(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, [
        "run", "--suite", "bench.epd", "--limit", "1", "--variants", "pvs", "--depth", "2",
        "--refutations", "--out", str(tmp_path / "run"), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "--refutations" in result.output and "--id" in result.output
    assert "Traceback" not in result.output


def test_ablation_knows_them() -> None:
    enhancement = BY_NAME["refutations"]
    assert enhancement.needs == "iterative-deepening"
    assert "Schaeffer" in enhancement.source
