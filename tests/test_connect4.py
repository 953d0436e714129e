"""Connect Four: Pons's notation and scores, value bounds and root windows in the frame,
and his published node-count ladder on Test_L3_R1 (the shared sets; skipped without them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.connect4.tree import Connect4Tree, board_from, column_order
from harness.games.registry import find_game, load_problems
from harness.results import load_results
from harness.search import VARIANTS, Switches, make_spec, run_search

SHARED = Path(__file__).resolve().parents[2] / "shared" / "connect4"
EXACT = [v.name for v in VARIANTS if v.exact and v.origin == "built in"]


def shared(name: str) -> Path:
    path = SHARED / name
    if not path.is_file():
        pytest.skip(f"{name}: Pons's test sets (../shared/connect4) are not here")
    return path


def solve(moves: str, name: str = "alphabeta", switches: Switches | None = None, width: int = 7,
          height: int = 6, order: str = "centre") -> tuple[int, dict[str, int]]:
    board = board_from(moves, width, height)
    result = run_search(Connect4Tree(board, order), make_spec(name), width * height - board.moves,
                        switches or Switches())
    assert result.score is not None
    return result.score, result.counters


def test_columns_from_the_centre_out() -> None:
    assert column_order(7, "centre") == [3, 2, 4, 1, 5, 0, 6]
    assert column_order(7, "left") == list(range(7))
    assert column_order(6, "centre") == [3, 2, 4, 1, 5, 0]


def test_pons_scores_for_the_player_to_move() -> None:
    # Pons's first examples: a win at once is worth (42 + 1 - stones) / 2.
    assert solve("2252576253462244111563365343671351441")[0] == -1
    assert solve("7422341735647741166133573473242566")[0] == 1
    assert solve("23163416124767223154467471272416755633")[0] == 0
    tree = Connect4Tree(board_from("112233"))          # three in a row on the bottom: 4 wins
    assert tree.moves() == [] and tree.terminal_value() == (42 + 1 - 6) // 2


@pytest.mark.parametrize(("moves", "reason"), [
    ("18", "move 2: '8' is not a column (1 to 7)"),
    ("1111111", "move 7: column 1 is full"),
    ("1212121", "move 7: column 1 wins: the game is over there"),
])
def test_bad_positions_are_one_line(moves: str, reason: str) -> None:
    with pytest.raises(HarnessError, match=re.escape(reason)):
        board_from(moves, where="")


def test_a_small_board_agrees_with_openspiel() -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    from harness.games.openspiel.game import load_game

    game = load_game("connect_four(rows=4,columns=5)")
    # Draws, wins and losses for the player to move. The empty board and the first two
    # moves (draws) cost OpenSpiel's Python search a minute between them: pinned below.
    for moves in ("1524", "33124", "331245", "1524335", "33124512"):
        state = game.new_initial_state()
        for char in moves:
            state.apply_action(int(char) - 1)
        expected, _ = alpha_beta_search(game, state=state)     # for the player to move
        score = solve(moves, width=5, height=4)[0]
        assert (score > 0) - (score < 0) == expected, moves
    # OpenSpiel's alpha_beta_search gives 0 (a draw) for these too (checked when this test
    # was cut down, 2026-11-25: 28, 18 and 11 s).
    assert [solve(moves, width=5, height=4)[0] for moves in ("", "3", "33")] == [0, 0, 0]


def test_value_bounds_cut_nodes_and_keep_the_score() -> None:
    moves = "4453"
    bounded, with_bounds = solve(moves, width=5, height=4, switches=Switches(window=(-10, 10)))
    plain, without = solve(moves, width=5, height=4, switches=Switches(value_bounds=False))
    assert bounded == plain
    assert with_bounds["bound_cutoffs"] > 0 and without["bound_cutoffs"] == 0
    assert with_bounds["nodes"] < without["nodes"]
    c = with_bounds
    assert c["pv_nodes"] + c["cut_nodes"] + c["all_nodes"] + c["leaves"] + c["tt_cutoffs"] \
        + c["bound_cutoffs"] == c["nodes"]


def test_a_weak_solve_gives_the_sign() -> None:
    for moves, score in (("2252576253462244111563365343671351441", -1),
                         ("7422341735647741166133573473242566", 1),
                         ("23163416124767223154467471272416755633", 0)):
        weak, _ = solve(moves, switches=Switches(window=(-1, 1)))
        assert (weak > 0) - (weak < 0) == (score > 0) - (score < 0)


# Pons, "Solving Connect Four", parts 3-6: the mean positions explored on Test_L3_R1; the
# totals over its 1,000 positions, from an independent implementation of his steps.
PONS_LADDER = [
    ("alpha-beta, left to right, bound, window [-21, 21]", ",order=left,anticipate=0", "alphabeta",
     (-21, 21), 283_618),
    ("centre-first columns", ",order=centre,anticipate=0", "alphabeta", (-21, 21), 139_659),
    ("weak solver, window [-1, 1]", ",order=centre,anticipate=0", "alphabeta", (-1, 1), 107_145),
]


@pytest.mark.parametrize(("step", "options", "name", "window", "total"), PONS_LADDER,
                         ids=[s[0] for s in PONS_LADDER])
def test_pons_ladder_on_test_l3_r1(step: str, options: str, name: str, window: tuple[int, int],
                                   total: int) -> None:
    game = find_game("connect4")
    found = load_problems(f"connect4:{shared('Test_L3_R1')}{options}").problems
    nodes = 0
    for problem in found:
        result = run_search(game.tree(problem), make_spec(name), problem.default_depth,
                            Switches(window=window))
        nodes += result.counters["nodes"]
        assert game.judge(problem, result.best_move, result.score, result.bound), problem.problem_id
    assert nodes == total


def test_pons_minimax_on_the_first_hundred() -> None:
    """Pons's minimax (no bound, left to right): 11,024,541 nodes on all 1,000 positions
    (measured: 36 s here); the first hundred, pinned, in a test's time."""
    game = find_game("connect4")
    found = load_problems(f"connect4:{shared('Test_L3_R1')},order=left,anticipate=0").problems[:100]
    nodes = sum(run_search(game.tree(p), make_spec("minimax"), p.default_depth,
                           Switches(value_bounds=False)).counters["nodes"] for p in found)
    assert nodes == 2_315_552


@pytest.mark.parametrize("name", EXACT)
def test_every_exact_variant_solves_the_end_game_set(name: str) -> None:
    game = find_game("connect4")
    found = load_problems(f"connect4:{shared('Test_L3_R1')}").problems[::25]
    if name == "minimax":
        found = found[:10]
    for switches in (Switches(), Switches(tt_size=1 << 14, iterative_deepening=True),
                     Switches(window=(-1, 1))):
        for problem in found:
            result = run_search(game.tree(problem), make_spec(name), problem.default_depth, switches)
            assert game.judge(problem, result.best_move, result.score, result.bound), \
                (name, switches, problem.problem_id, result.score)


def test_run_prints_the_solve_rate(tmp_path: Path) -> None:
    path = tmp_path / "few"
    path.write_text("2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n"
                    "23163416124767223154467471272416755633 0\n")
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", "--problems", f"connect4:{path}", "--variants",
                                      "alphabeta,pvs,mtdf", "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    frame = load_results(out)
    assert (frame["solved"] == 1).all() and set(frame["game"]) == {"connect4"}
    assert set(frame["suite"]) == {"few"}           # Pons's final tree is the default
    assert list(frame["known_score"].astype(int).unique()) == [-1, 1, 0]
    assert "each problem to its own depth, at most 8, 3 problems" in result.output
    assert "solved: 3 of 3 by every variant" in result.output
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<code>alphabeta</code>, each problem to its own depth (at most 8)." in page


def test_sets_solved_to_each_problems_end_are_one_group() -> None:
    import pandas as pd

    from harness.report.depths import group_own_depths

    rows = pd.DataFrame({"suite": ["s"] * 4 + ["t"] * 4, "problem_id": list("aabb") * 2,
                         "variant": ["x", "y"] * 4, "depth": [5, 5, 8, 8, 2, 2, 3, 3]})
    rows.loc[6:7, "problem_id"] = "a"          # t: problem a at depths 2 and 3, a sweep
    grouped = group_own_depths(rows)
    assert list(grouped["depth"]) == [8, 8, 8, 8, 2, 2, 3, 3]
    assert list(grouped["own_depth"]) == [True] * 4 + [False] * 4
    assert group_own_depths(grouped).equals(grouped)


@pytest.mark.parametrize(("line", "reason"), [
    ("128 1\n", "few:1: move 3: '8' is not a column (1 to 7)"),
    ("11111111 0\n", "few:1: move 7: column 1 is full"),
    ("12121212 0\n", "few:1: move 7: column 1 wins"),
    ("1234 x\n", "few:1: score 'x' is not an integer"),
    ("1234 1 2\n", "few:1: expected the moves and a score, found 3 fields"),
])
def test_bad_lines_are_one_line_exit_2(tmp_path: Path, line: str, reason: str) -> None:
    path = tmp_path / "few"
    path.write_text(line)
    result = CliRunner().invoke(cli, ["run", "--problems", f"connect4:{path}", "--no-progress",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert reason in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("options", [",order=centre,anticipate=1", ",order=threats,anticipate=0", ""])
def test_pons_later_ideas_keep_every_score_and_shrink_the_tree(options: str) -> None:
    """Anticipating losing moves and ordering by threats (Pons, parts 8 and 9; both are the
    game's defaults) search smaller trees to the same scores, with the value floor raising
    alpha."""
    game = find_game("connect4")
    plain = load_problems(f"connect4:{shared('Test_L3_R1')},order=centre,anticipate=0").problems[::10]
    later = load_problems(f"connect4:{shared('Test_L3_R1')}{options}").problems[::10]
    before = after = 0
    for a, b in zip(plain, later, strict=True):
        first = run_search(game.tree(a), make_spec("alphabeta"), a.default_depth, Switches(window=(-21, 21)))
        second = run_search(game.tree(b), make_spec("alphabeta"), b.default_depth, Switches(window=(-21, 21)))
        assert first.score == second.score
        before += first.counters["nodes"]
        after += second.counters["nodes"]
    assert after < before


def test_a_position_without_a_safe_move_is_lost_in_two() -> None:
    # White holds columns 2-4 on the bottom row, open at 1 and 5: Black cannot block both.
    tree = Connect4Tree(board_from("22334"), anticipate=True)
    assert tree.moves() == [] and tree.terminal_value() == -((42 - 5) // 2) == -18
    plain = Connect4Tree(board_from("22334"))
    assert len(plain.moves()) == 7
    assert run_search(plain, make_spec("alphabeta"), 37).score == -18


def test_a_root_window_is_recorded_and_read_back() -> None:
    import json

    from harness.run.plan import ExperimentConfig

    config = ExperimentConfig(problems=("connect4:4453,width=5,height=4",), variants="alphabeta",
                              switches=Switches(window=(-1, 1), value_bounds=False))
    again = ExperimentConfig.from_dict(json.loads(json.dumps(config.as_dict())))
    assert again == config and again.switches.window == (-1, 1)


def test_mtd_pons_tests_the_windows_pons_solver_tests() -> None:
    """Pons's root (part 8): min = -(42 - 14) / 2 = -14, max = 14; the midpoint 0 is pulled
    to min/2 = -7, so the first pass asks "more than -7?" with (-7, -6), and so on. The
    windows below are those an independent transcription of Pons's solve() (C++ integer
    division) tests on this position of Test_L1_R1 (score 8); his solver searches 10,657
    nodes there, the harness a similar number (its table is not his)."""
    board = board_from("17516442226766")
    tree = Connect4Tree(board, "threats", anticipate=True)
    result = run_search(tree, make_spec("mtd-pons"), 42 - board.moves, trace=True)
    assert result.score == 8 and result.bound == "exact"
    assert result.trace is not None
    assert [(p.alpha, p.beta) for p in result.trace] == [(-7, -6), (7, 8), (11, 12), (9, 10), (8, 9)]
    assert 5_000 < result.counters["nodes"] < 20_000
    # Without the tree's range (value bounds off) the same driver is MTD-bi.
    small = Connect4Tree(board_from("", 5, 4))
    off = Switches(value_bounds=False)
    bisect = run_search(small, make_spec("mtd-bi"), 20, off)
    pons = run_search(small, make_spec("mtd-pons"), 20, off)
    assert pons.counters == bisect.counters and pons.score == bisect.score
    assert run_search(small, make_spec("mtd-pons"), 20).counters != bisect.counters


def test_a_value_range_holds_every_score() -> None:
    """The range a Connect Four node states (lose to the next stone, win with one's own)
    holds the exact score of every position of the end-game set's first fifty."""
    for problem in load_problems(f"connect4:{shared('Test_L3_R1')}").problems[:50]:
        tree = find_game("connect4").tree(problem)
        low, high = tree.value_range()  # type: ignore[attr-defined]
        assert low <= int(problem.position.split()[1]) <= high


def test_keys_are_unique_and_spread_over_the_table() -> None:
    """The mixed key is one per position (a bijection of Pons's key) and its low bits take
    every column into account: the positions two plies deep fill distinct slots of a
    power-of-two table, where Pons's raw key (low bits: the first three columns) does not."""
    import itertools

    deep = {"".join(m) for m in itertools.product("1234567", repeat=4)}
    assert len({Connect4Tree(board_from(m)).key() for m in deep}) == len({
        (b.position, b.mask) for b in map(board_from, deep)})      # transpositions merge
    positions = {m: Connect4Tree(board_from(m)).key() for m in (f"{a}{b}" for a in "1234567"
                                                                 for b in "1234567")}
    assert len(set(positions.values())) == 49
    assert len({k % (1 << 20) for k in positions.values()}) == 49
    raw = {b.position + b.mask for b in map(board_from, positions)}
    assert len({k % (1 << 20) for k in raw}) < 49
