"""The selective switches in Othello and checkers (docs/selective.md, its table of games).

Each game's Python tree and its compiled twin call the same moves tactical, move by move,
over the positions of its suite and along playouts from them, and declare the same margins;
with every switch on, both frames search the same tree node for node for every kind of
loop; the switches shrink the tree, each counted; Othello, whose wins carry no distance,
is not offered mate-distance pruning; Connect Four, which declares nothing, searches as
before; and each game's self-test still passes.
"""

from __future__ import annotations

import csv
import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.check.game import check_game
from harness.cli import cli
from harness.games.base import Problem, has_selectivity
from harness.games.checkers import compiled as checkers_compiled
from harness.games.checkers.board import move_jumps, parse_fen
from harness.games.checkers.compiled import checkers_tree
from harness.games.checkers.evaluation import WIN
from harness.games.othello import compiled as othello_compiled
from harness.games.othello.compiled import othello_tree
from harness.games.othello.game import read_position
from harness.games.othello.tree import CORNERS
from harness.games.registry import find_game, load_problems
from harness.search import Switches, engine, make_spec, run_search
from harness.search.run import SearchResult
from harness.search.selective import SWITCHES, Selectivity
from tests.twins import same

ALL_ON = Selectivity(**{name: True for name in SWITCHES})
CLASSIC = dict(tt_size=1 << 14, iterative_deepening=True)
"""A table and iterative deepening (the hash move on): what internal iterative deepening
needs; the games have no null move or check extension."""

KINGS_WIN = "B:W32:BK22,K23"
"""Two black kings against a white man in its corner: Black wins in five plies."""
SUITES = {"othello": "othello:phases.txt", "checkers": "checkers:suite.txt"}
DEPTHS = {"othello": 5, "checkers": 7}


def _othello(problem: Problem, compiled: bool) -> Any:
    return othello_tree(read_position(problem.position)[0], compiled=compiled)


def _checkers(problem: Problem, compiled: bool) -> Any:
    return checkers_tree(parse_fen(problem.position.split()[0]), compiled=compiled)


TREES: dict[str, Callable[[Problem, bool], Any]] = {"othello": _othello, "checkers": _checkers}

needs_compiled_trees = pytest.mark.skipif(
    not (othello_compiled.compiled_available() and checkers_compiled.compiled_available()),
    reason="the compiled Othello and checkers trees were not built")
needs_compiled_frame = pytest.mark.skipif(engine.BUILT is None,
                                          reason="the compiled frame was not built")


def problems(game: str, limit: int | None = None) -> list[Problem]:
    return list(load_problems(SUITES[game]).problems)[:limit]


def search(tree: Any, variant: str, depth: int, selectivity: Selectivity,
           native: bool = True) -> SearchResult:
    return run_search(tree, make_spec(variant), depth,
                      Switches(**CLASSIC, selectivity=selectivity),  # type: ignore[arg-type]
                      native=native)



def expected_tactical(game: str, tree: Any, move: int) -> bool:
    """The rule, read off the position after the move: Othello a corner taken; checkers
    a piece taken or a man crowned (one king more for the mover, none lost)."""
    if game == "othello":
        return bool(CORNERS >> move & 1)
    before = tree.position
    after = before.play(move)
    crowned = (after.kings & (after.black | after.white)).bit_count() \
        > (before.kings & (before.black | before.white)).bit_count()
    return move_jumps(move) > 0 or crowned


@needs_compiled_trees
@pytest.mark.parametrize("game", ["othello", "checkers"])
def test_both_trees_call_the_same_moves_tactical(game: str) -> None:
    """Move by move over the suite's positions and 12-ply playouts from each: the Python
    tree, the compiled one and the rule agree; both kinds of move are met; in checkers a
    node with a capture has no quiet move."""
    rng = random.Random(40)
    seen = {True: 0, False: 0}
    for problem in problems(game):
        python, compiled = TREES[game](problem, False), TREES[game](problem, True)
        assert has_selectivity(python) and has_selectivity(compiled)
        assert compiled.selective_margins is python.selective_margins
        for _ in range(12):
            moves = list(python.moves())
            assert moves == list(compiled.moves())
            if not moves:
                break
            calls = [python.tactical(m) for m in moves]
            assert calls == [compiled.tactical(m) for m in moves]
            if game == "checkers":      # the Python tree's position: the rule's reference
                assert calls == [expected_tactical(game, python, m) for m in moves]
                if any(move_jumps(m) for m in moves):
                    assert all(calls)
            else:
                assert calls == [expected_tactical(game, python, m) for m in moves]
            for call in calls:
                seen[call] += 1
            move = rng.choice(moves)
            python.push(move)
            compiled.push(move)
    assert seen[True] > 0 and seen[False] > seen[True]


def test_the_python_trees_declare_the_margins_the_games_encode() -> None:
    """Checkers' wins carry their distance (mate: WIN); Othello's do not (mate 0, so its
    mate-distance switch prunes nothing); margins are by depth, growing."""
    othello = _othello(problems("othello", 1)[0], False)
    checkers = _checkers(problems("checkers", 1)[0], False)
    assert othello.selective_margins.mate == 0 and checkers.selective_margins.mate == WIN
    for margins in (othello.selective_margins, checkers.selective_margins):
        for rule in (margins.futility, margins.reverse_futility, margins.razoring,
                     margins.late_move_counts):
            assert rule and list(rule) == sorted(rule) and rule[0] > 0
    assert {"selectivity"} <= find_game("othello").features
    assert {"selectivity"} <= find_game("checkers").features
    assert "selectivity" not in find_game("connect4").features


@needs_compiled_trees
@needs_compiled_frame
@pytest.mark.parametrize("game", ["othello", "checkers"])
@pytest.mark.parametrize("variant", ["pvs", "alphabeta", "negascout", "mtdf"])
def test_both_frames_and_both_trees_search_alike_with_every_switch(game: str,
                                                                   variant: str) -> None:
    """Score, bound, best move, line and every counter: the compiled frame on the
    compiled tree, the Python frame on it, and the Python frame on the Python tree."""
    depth = DEPTHS[game] - 1
    for problem in problems(game)[::8][:3]:
        native = search(TREES[game](problem, True), variant, depth, ALL_ON)
        python_frame = search(TREES[game](problem, True), variant, depth, ALL_ON, native=False)
        python_tree = search(TREES[game](problem, False), variant, depth, ALL_ON, native=False)
        assert native.frame == "compiled" and python_frame.frame != "compiled"
        same(native, python_frame)
        same(python_frame, python_tree)


@needs_compiled_trees
@needs_compiled_frame
@pytest.mark.parametrize("game", ["othello", "checkers"])
def test_each_switch_alone_is_the_same_in_both_frames(game: str) -> None:
    problem = problems(game)[1]
    for name in SWITCHES:
        selectivity = Selectivity(**{name: True})
        same(search(TREES[game](problem, True), "pvs", DEPTHS[game], selectivity),
             search(TREES[game](problem, True), "pvs", DEPTHS[game], selectivity, native=False))


@needs_compiled_trees
@pytest.mark.parametrize("game", ["othello", "checkers"])
def test_the_switches_shrink_the_tree_each_counted(game: str) -> None:
    """Over the suite's first positions: fewer nodes with every switch than without, and
    every rule that reads the game's tactical moves or margins has cut or reduced somewhere
    (internal iterative deepening reads neither: tests/test_selective.py has it)."""
    totals = {"off": 0, "on": 0}
    counted: dict[str, int] = {}
    for problem in problems(game, 12):
        off = search(TREES[game](problem, True), "pvs", DEPTHS[game], Selectivity())
        on = search(TREES[game](problem, True), "pvs", DEPTHS[game], ALL_ON)
        totals["off"] += off.counters["nodes"]
        totals["on"] += on.counters["nodes"]
        for name, value in on.counters.items():
            counted[name] = counted.get(name, 0) + value
    assert totals["on"] * 2 < totals["off"]
    for name in ("reductions", "late_move_prunes", "futility_prunes",
                 "reverse_futility_cutoffs", "razor_cutoffs"):
        assert counted[name] > 0, name
    assert counted["reduction_researches"] <= counted["reductions"]


@needs_compiled_trees
def test_othello_is_not_offered_mate_distance_and_checkers_is() -> None:
    """Othello's mate-distance switch alone searches exactly the full-width tree (mate 0);
    checkers' cuts where a side wins, and finds the same win at the same distance."""
    problem = problems("othello")[3]
    same(search(_othello(problem, True), "pvs", 5, Selectivity(mate_distance=True)),
         search(_othello(problem, True), "pvs", 5, Selectivity()))
    won = parse_fen(KINGS_WIN)
    off = search(checkers_tree(won, compiled=True), "pvs", 11, Selectivity())
    for native in (True, False):
        on = search(checkers_tree(won, compiled=True), "pvs", 11,
                    Selectivity(mate_distance=True), native=native)
        assert on.counters["mate_distance_cutoffs"] > 0
        assert (on.score, on.best_move) == (off.score, off.best_move) == (WIN - 5, "22-17")
        assert on.counters["nodes"] * 4 < off.counters["nodes"]


def test_connect_four_declares_nothing_and_searches_as_before() -> None:
    """No tactical, no margins: every switch but internal iterative deepening is off for it,
    in either frame, node for node."""
    problem = next(iter(load_problems("connect4:start").problems))
    tree = find_game("connect4").tree(problem)
    assert not has_selectivity(tree)
    without_iid = dataclasses.replace(ALL_ON, internal_iterative_deepening=False)
    same(search(tree, "pvs", 6, without_iid), search(tree, "pvs", 6, Selectivity()))


@pytest.mark.parametrize("spec", ["othello:phases.txt", "checkers:suite.txt"])
def test_the_self_test_still_passes(spec: str) -> None:
    assert not check_game(spec, limit=2, playouts=4, depth=2)


@pytest.mark.parametrize("spec", ["othello:phases.txt", "checkers:suite.txt"])
def test_a_selective_run_of_each_game_is_not_warned_and_is_counted(spec: str,
                                                                   tmp_path: object) -> None:
    """The game offers the switches, so the run does not warn that none does; its
    counters are in results.csv, and it says it was not cross-checked."""
    out = f"{tmp_path}/run"
    result = CliRunner().invoke(cli, [
        "run", "--problems", spec, "--limit", "2", "--variants", "alphabeta,pvs", "--depth",
        "5", "--tt", "4096", "--lmr", "--futility", "--out", out, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "offers" not in result.output and "Traceback" not in result.output
    assert "answers not cross-checked: selective search (late_move_reductions, futility)" \
        in result.output
    text = Path(out, "results.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(text.splitlines()))
    assert rows and sum(int(row["reductions"]) for row in rows) > 0
