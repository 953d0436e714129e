"""harness match: games played move by move under a budget, pairs in order whatever the
workers, a resumed match giving the same games, and the command's output."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.base import Problem
from harness.games.registry import load_problems
from harness.match.match import resume_match, run_match
from harness.match.play import Budget, Rules, Side, choose, make_side, play_game, play_pair
from harness.match.record import GAMES_FILE
from harness.match.rules import ChessPlaying, Ending, playing
from harness.match.settings import MatchConfig
from harness.match.summary import cost_text
from harness.report.frames import NOT_ALGORITHMS
from harness.results import UNKNOWN_FRAME
from harness.run.executors import Execution
from harness.search.run import FRAMES, Switches

OPENINGS = "44\n4453\n3\n45\n"
"""Connect Four openings (columns played, Pons's notation)."""
SIDES = (Side("pvs"), Side("alphabeta"))
TIMED = ("seconds_a", "seconds_b")


@pytest.fixture
def openings(tmp_path: Path) -> str:
    path = tmp_path / "openings.txt"
    path.write_text(OPENINGS)
    return f"connect4:{path}"


def games_of(folder: Path) -> list[dict[str, str]]:
    """The rows of games.csv without the wall times (the only columns that may differ)."""
    with (folder / GAMES_FILE).open() as file:
        return [{k: v for k, v in row.items() if k not in TIMED} for row in csv.DictReader(file)]


def chess_problem(tmp_path: Path, fen: str) -> Problem:
    path = tmp_path / "one.epd"
    path.write_text(" ".join(fen.split()[:4]) + ' id "one";\n')
    return load_problems(f"chess:{path}").problems[0]


def test_a_mate_in_one_is_played_and_ends_the_game(tmp_path: Path) -> None:
    problem = chess_problem(tmp_path, "6k1/5ppp/8/8/8/8/8/R5K1 w - -")
    game = play_game(problem, SIDES, True, Budget("nodes", nodes=200))
    assert (game.moves, game.reason, game.points_a, game.plies) == (("a1a8",), "checkmate", 1.0, 1)
    swapped = play_game(problem, SIDES, False, Budget("nodes", nodes=200))
    assert (swapped.moves, swapped.points_a) == (("a1a8",), 0.0)       # B moved first and mated


def test_chess_endings_come_from_python_chess(tmp_path: Path) -> None:
    bare_kings = chess_problem(tmp_path, "8/8/4k3/8/8/3K4/8/8 w - -")
    game = play_game(bare_kings, SIDES, True, Budget("depth", depth=1))
    assert (game.reason, game.plies, game.points_a) == ("insufficient_material", 0, 0.5)
    rooks = chess_problem(tmp_path, "r5k1/8/8/8/8/8/8/R5K1 w - -")
    limited = play_game(rooks, SIDES, True, Budget("depth", depth=1), Rules(max_plies=6))
    assert limited.reason in ("move_limit", "threefold_repetition") and limited.points_a == 0.5
    assert limited.plies <= 6


def test_a_node_budget_keeps_the_last_finished_depth(tmp_path: Path) -> None:
    """The move's search is the deepest within the budget: one more node allowed never
    makes it shallower, and the nodes it reports stay within the budget (depth 1 aside)."""
    position = ChessPlaying(chess_problem(tmp_path, chess.STARTING_FEN))
    depths = []
    for nodes in (50, 500, 5_000):
        choice = choose(position, SIDES[0], Budget("nodes", nodes=nodes))
        assert choice.depth == 1 or choice.nodes <= nodes
        assert choice.work >= choice.nodes
        depths.append(choice.depth)
    assert depths == sorted(depths) and depths[-1] > depths[0]


def test_a_fixed_depth_is_that_depth(tmp_path: Path) -> None:
    position = ChessPlaying(chess_problem(tmp_path, chess.STARTING_FEN))
    assert choose(position, SIDES[1], Budget("depth", depth=2)).depth == 2


def test_connect4_plays_the_win_its_tree_stops_at() -> None:
    """Pons's tree has no moves where the player to move wins at once: the rules play it."""
    problem = load_problems("connect4:454545").problems[0]       # three in column 4: 4 wins
    position = playing(problem)
    choice = choose(position, SIDES[0], Budget("nodes", nodes=100))
    position.play(choice.move)
    ending = position.ending()
    assert ending is not None and (ending.winner, ending.reason) == (0, "four_in_a_row")


def test_games_that_cannot_be_played_say_so() -> None:
    problem = load_problems("random:b=2,d=2,n=1").problems[0]
    with pytest.raises(HarnessError, match="random: cannot be played move by move"):
        playing(problem)
    with pytest.raises(HarnessError, match="a side of a match is one variant"):
        make_side("pvs,alphabeta", Switches())


def test_a_pair_swaps_the_sides(openings: str) -> None:
    problem = load_problems(openings).problems[1]
    first, second = play_pair(problem, SIDES, Budget("nodes", nodes=300))
    assert first.a_first and not second.a_first
    assert first.opening == second.opening == "4453"


def test_jobs_2_plays_the_games_of_jobs_1(openings: str, tmp_path: Path) -> None:
    config = MatchConfig(SIDES, openings, Budget("nodes", nodes=300), link_depth=4)
    one = run_match(config, tmp_path / "one")
    two = run_match(config, tmp_path / "two", Execution(jobs=2))
    assert games_of(tmp_path / "one") == games_of(tmp_path / "two")
    assert len(games_of(tmp_path / "one")) == 8
    assert one.progress == two.progress
    assert one.link == two.link and one.link is not None and not one.link.disagreements


def test_a_killed_match_resumes_with_the_same_games(openings: str, tmp_path: Path) -> None:
    config = MatchConfig(SIDES, openings, Budget("nodes", nodes=300), games=6, link_depth=0)
    whole = run_match(config, tmp_path / "whole")
    folder = tmp_path / "killed"
    run_match(config, folder)
    lines = (folder / GAMES_FILE).read_text().splitlines(keepends=True)
    # Killed while writing the second pair: its first row whole, its second cut short.
    (folder / GAMES_FILE).write_text("".join(lines[:4]) + lines[4][:10])
    resumed = resume_match(folder)
    assert games_of(folder) == games_of(tmp_path / "whole")
    assert resumed.progress == whole.progress
    assert json.loads((folder / "run.json").read_text())["status"] == "games"


def test_the_sprt_stops_the_match_at_the_first_pair_past_a_bound(tmp_path: Path) -> None:
    """A loose test (bounds +-0.41) decides within the game limit; the pairs after the
    decision are not played, on one worker or two."""
    from harness.match.stats import Sprt

    config = MatchConfig((Side("pvs"), Side("minimax")), "chess:bench.epd",
                         Budget("nodes", nodes=300), Rules(max_plies=60),
                         sprt=Sprt(0, 50, 0.4, 0.4), games=20, link_depth=0)
    one = run_match(config, tmp_path / "one")
    two = run_match(config, tmp_path / "two", Execution(jobs=2))
    assert one.stopped == "H1"
    assert 2 * one.progress.pair == len(games_of(tmp_path / "one")) < 20
    assert two.progress == one.progress
    assert games_of(tmp_path / "one") == games_of(tmp_path / "two")


def test_the_command(openings: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["match", "pvs", "alphabeta", "--problems", openings,
                                      "--nodes", "300", "--link-depth", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"match A pvs vs B alphabeta on {openings}, nodes 300 per move -> {out}"
    progress = [line for line in lines if line.startswith("Games ")]
    assert [line.split()[1] for line in progress] == ["2/8", "4/8", "6/8", "8/8"]
    assert all("LLR " in line and "(-2.94, 2.94) [0.00, 2.00]" in line and "Ptnml(0-2): [" in line
               for line in progress)
    assert "no SPRT decision within the game limit" in lines
    assert any(line.startswith("nodes at depth 4 on 4 openings: A/B = ") for line in lines)
    info = json.loads((out / "run.json").read_text())
    assert info["schema_version"] == 2 and info["status"] == "games"
    assert info["config"]["budget"]["nodes"] == 300
    assert set(info["result"]["seconds_per_node"]) == {"a", "b"}
    frames = info["result"]["frames"]                   # whichever frame each side ran in
    assert set(frames) == {"a", "b"} and {frames["a"], frames["b"]} <= set(FRAMES)
    cost = next(line for line in lines if line.startswith("cost per node"))
    assert all(f"{frames[side]} frame" in cost for side in "ab")
    with (out / GAMES_FILE).open(encoding="utf-8") as file:
        games = list(csv.DictReader(file))
    assert {(g["frame_a"], g["frame_b"]) for g in games} == {(frames["a"], frames["b"])}
    assert sum(info["result"]["pentanomial"]) == 4
    assert lines[-1] == f"report: {out / 'report.html'}"
    page = (out / "report.html").read_text()
    assert page.count('src="data:image/png;base64,') == 2 and "LLR after each pair" in page
    assert all((out / f"{name}.{suffix}").exists() for name in ("llr", "elo") for suffix in ("png", "svg"))
    again = CliRunner().invoke(cli, ["match", "--resume", str(out), "--no-progress"])
    assert again.exit_code == 0, again.output
    assert lines[-4:] == again.output.splitlines()[-4:]


def test_chess_writes_pgn(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["match", "alphabeta", "pvs", "--problems", "chess:bench.epd",
                                      "--nodes", "300", "--games", "2", "--max-plies", "20",
                                      "--link-depth", "1", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    import chess.pgn

    with (out / "games.pgn").open() as file:
        games = [chess.pgn.read_game(file) for _ in range(2)]
    rows = games_of(out)
    for game, row in zip(games, rows, strict=True):
        assert game is not None
        assert [m.uci() for m in game.mainline_moves()] == row["moves"].split()
        assert game.headers["Termination"] == row["reason"]


def test_a_clock_budget_plays_and_spends_its_clock(tmp_path: Path) -> None:
    problem = chess_problem(tmp_path, chess.STARTING_FEN)
    game = play_game(problem, SIDES, True, Budget("time", seconds=0.5, increment=0.01),
                     Rules(max_plies=4))
    assert (game.plies, game.reason, game.searches) == (4, "move_limit", (2, 2))
    assert all(s > 0 for s in game.seconds)


def test_adjudication_needs_every_recent_search_to_agree() -> None:
    from harness.match.play import _adjudicated

    ahead = [(0, 500), (1, -450), (0, 600), (1, -700)]        # player 0 winning, both agree
    assert _adjudicated(ahead, 400) == Ending(0, "adjudication")
    assert _adjudicated(ahead, 0) is None                      # off
    assert _adjudicated(ahead[:3], 400) is None                # too few moves
    assert _adjudicated([*ahead[:3], (1, -300)], 400) is None  # one search not sure
    assert _adjudicated([(0, 500), (1, 450), (0, 600), (1, 700)], 400) is None   # they disagree


def test_openspiel_games_are_played_to_their_end(tmp_path: Path) -> None:
    """Tic-tac-toe from each first move: every game ends by OpenSpiel's rules, its moves are
    the trees' names, and the board the moves make is the one the game ended on."""
    pyspiel = pytest.importorskip("pyspiel")
    config = MatchConfig(SIDES, "openspiel:tic_tac_toe,plies=1", Budget("nodes", nodes=500),
                         games=4, link_depth=2)
    result = run_match(config, tmp_path / "out")
    rows = games_of(tmp_path / "out")
    assert result.progress.pair == 2 and {r["reason"] for r in rows} == {"game_over"}
    for row in rows:
        state = pyspiel.load_game("tic_tac_toe").new_initial_state()
        state.apply_action(int(row["opening"]))
        for name in row["moves"].split(" "):
            action = next(a for a in state.legal_actions()
                          if state.action_to_string(state.current_player(), a) == name)
            state.apply_action(action)
        assert state.is_terminal() and len(row["moves"].split(" ")) == int(row["plies"])
        first_return = state.returns()[1]          # player 1 moves first after one action
        points_first = {1.0: 1.0, 0.0: 0.5, -1.0: 0.0}[first_return]
        a_first = row["first"] == "pvs"
        assert float(row["points_a"]) == (points_first if a_first else 1 - points_first)


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs the Dask extra")
def test_dask_plays_the_games_of_one_process(openings: str, tmp_path: Path) -> None:
    config = MatchConfig(SIDES, openings, Budget("nodes", nodes=300), games=4, link_depth=0)
    run_match(config, tmp_path / "here")
    run_match(config, tmp_path / "dask", Execution(jobs=2, executor="dask"))
    assert games_of(tmp_path / "here") == games_of(tmp_path / "dask")


def test_a_folder_that_holds_a_match_is_not_played_over(openings: str, tmp_path: Path) -> None:
    config = MatchConfig(SIDES, openings, Budget("nodes", nodes=300), games=2, link_depth=0)
    run_match(config, tmp_path / "out")
    with pytest.raises(HarnessError, match="already holds a run; choose another --out, or "
                                           "finish it with --resume"):
        run_match(config, tmp_path / "out")


def test_openings_changed_since_the_match_began_are_refused(openings: str, tmp_path: Path) -> None:
    config = MatchConfig(SIDES, openings, Budget("nodes", nodes=300), games=2, link_depth=0)
    run_match(config, tmp_path / "out")
    Path(openings.removeprefix("connect4:")).write_text(OPENINGS + "5\n")
    with pytest.raises(HarnessError, match="the openings changed since the match began"):
        resume_match(tmp_path / "out")


def test_an_interrupted_match_resumes_with_the_same_games(openings: str, tmp_path: Path) -> None:
    """Ctrl-C after two pairs, with two workers playing ahead: the pairs counted are kept,
    none after them, and the resumed match plays the games of an uninterrupted one."""
    config = MatchConfig(SIDES, openings, Budget("nodes", nodes=300), link_depth=0)
    run_match(config, tmp_path / "whole")

    def interrupt(progress: object) -> None:
        if getattr(progress, "pair", 0) == 2:
            raise KeyboardInterrupt

    folder = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run_match(config, folder, Execution(jobs=2), interrupt)
    assert len(games_of(folder)) == 4
    assert json.loads((folder / "run.json").read_text())["status"] == "running"
    result = CliRunner().invoke(cli, ["match", "--resume", str(folder), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert [line.split()[1] for line in result.output.splitlines()
            if line.startswith("Games ")] == ["6/8", "8/8"]
    assert games_of(folder) == games_of(tmp_path / "whole")


def test_a_match_of_draws_has_no_interval_in_words_page_or_record(tmp_path: Path) -> None:
    """Tic-tac-toe played perfectly by both sides: every game drawn, so the Elo interval is
    undefined: said so in the progress lines, on the page and in run.json, never as a band
    of zero width (``Elo 0.00 +/- 0.00``)."""
    pytest.importorskip("pyspiel")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["match", "pvs", "alphabeta", "--problems",
                                      "openspiel:tic_tac_toe,plies=1", "--depth", "9", "--games", "4",
                                      "--link-depth", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    progress = [line for line in result.output.splitlines() if line.startswith("Games ")]
    undefined = "Elo 0.00 (interval undefined: no decisive pair, each scored 1 point of 2)"
    assert len(progress) == 2 and all(f"D {2 * k + 2} L 0 | {undefined} |" in line
                                      for k, line in enumerate(progress))
    assert "+/-" not in result.output
    page = (out / "report.html").read_text()
    assert undefined in page and "+/-" not in page
    title = "harness match: A pvs against B alphabeta on openspiel:tic_tac_toe,plies=1, depth 9 per move"
    assert f"<title>{title}</title>" in page and f"<h1>{title}</h1>" in page
    elo = json.loads((out / "run.json").read_text())["result"]["elo"]
    assert elo["error"] is None and elo["nelo_error"] is None
    assert elo["interval_undefined"] == "no decisive pair, each scored 1 point of 2"


def test_the_match_charts_count_whole_pairs() -> None:
    """A few pairs: the pairs axis of both charts is labelled 1, 2, 3, 4, never 1.5."""
    import math

    from harness.report.match_page import TracePoint, elo_chart, llr_chart

    trace = [TracePoint(k, 0.1 * k, 0.0, math.nan) for k in range(1, 5)]
    for fig in (llr_chart(trace, (-2.94, 2.94)), elo_chart(trace)):
        fig.canvas.draw()
        ax = fig.axes[0]
        low, high = ax.get_xlim()
        shown = [at for at in ax.get_xticks() if low <= at <= high]
        assert shown == [1, 2, 3, 4]


def test_a_match_says_each_sides_frame_beside_its_cost() -> None:
    assert cost_text((1.4e-7, 1.1e-6), ("compiled", "python")) == (
        "cost per node: A 0.14 us/node (compiled frame) B 1.10 us/node (python frame) "
        f"({NOT_ALGORITHMS})")
    assert cost_text((7.5e-7, 7.2e-7), ("python", "python")) == (
        "cost per node (both in the python frame): A 0.75 us/node B 0.72 us/node")
    assert cost_text((7.5e-7, None), ("", "")) == f"cost per node: A 0.75 us/node ({UNKNOWN_FRAME})"
