"""UCI engines in ``harness match``: an engine as either side, the game's moves sent with
every position, the bad inputs and the faults mid-match (one line, the pairs kept,
``--resume``), the calibration ladder; on the fake engine (``tests/fake_uci.py``) so they
run everywhere, and a short match against Stockfish where it is installed."""

from __future__ import annotations

import csv
import json
import math
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.engines import session as session_module
from harness.engines.spec import locate
from harness.games.chess.game import position_of
from harness.games.registry import load_problems
from harness.match.engine_side import is_engine_side
from harness.match.ladder import Rung, crossing, place
from harness.match.pairs import Tally
from harness.match.stats import Sprt
from harness.results import ENGINE

FAKE = Path(__file__).with_name("fake_uci.py")
OPENINGS = "chess:bench.epd"
QUICK = ("--nodes", "300", "--max-plies", "12", "--games", "2", "--no-progress")
"""A short match: one pair, six moves a side, a small node budget for the harness's side."""


def fake(mode: str = "ok", *extra: str, name: str = "fake") -> str:
    """The spec of the fake engine in ``mode`` (``extra``: its further arguments)."""
    return f"{name}={shlex.join([sys.executable, str(FAKE), mode, *extra])}"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def refused(result: Result, *words: str) -> str:
    """A bad input: exit 2, one line on stderr holding ``words``, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    assert all(word in errors[0] for word in words), result.output
    return errors[0]


def games(folder: Path, name: str = "games.csv") -> list[dict[str, str]]:
    with (folder / name).open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


def moves(folder: Path, name: str = "games.csv") -> list[str]:
    return [row["moves"] for row in games(folder, name)]


@pytest.fixture()
def quick_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that is not UCI is found out in a second, not ten."""
    monkeypatch.setattr(session_module, "START_TIMEOUT", 1.0)


# -- naming a side ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "engine"), [
    ("sf=stockfish", True), ("gnu=gnuchess --uci,Hash=16", True),
    ("sf=stockfish,Skill Level=3", True), ("pvs", False), ("pvs@modern", False),
    ("pvs:zw_min_depth=3", False), ("negascout:zw_min_depth=2@modern", False)])
def test_a_side_is_an_engine_when_it_is_a_spec(text: str, engine: bool) -> None:
    assert is_engine_side(text) is engine


# -- a match against an engine ---------------------------------------------------------------

def test_an_engine_side_plays_and_is_said_to_be_one(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = invoke("match", "pvs", fake(), *QUICK, "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = games(out)
    assert len(rows) == 2 and {r["frame_b"] for r in rows} == {ENGINE}
    assert {r["frame_a"] for r in rows} != {ENGINE}
    # The fake's nodes are 100 a ply of depth plus a hash of the position below 97.
    assert all(int(r["nodes_b"]) == int(r["work_b"]) > 0 for r in rows)
    info = json.loads((out / "run.json").read_text())
    assert info["result"]["engine_sides"] == ["B"]
    record = info["result"]["engines"]["b"]
    assert record["id_name"] == "Fake UCI 1.0" and record["budget"] == {"nodes": 300}
    assert record["determinism"]["repeats"] is True
    assert info["config"]["sides"][1]["engine"]["name"] == "fake"
    assert info["result"]["link"] is None
    assert "side B is a UCI engine: fake = Fake UCI 1.0" in result.output
    assert "different programs" in result.output
    assert "no node ratio at depth 3" in result.output
    page = (out / "report.html").read_text()
    assert "Fake UCI 1.0" in page and "different programs" in page


def test_an_engine_can_be_side_a_at_a_depth(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = invoke("match", fake(name="first"), "alphabeta", "--depth", "2", "--max-plies", "8",
                    "--games", "2", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = games(out)
    assert {r["frame_a"] for r in rows} == {ENGINE}
    # At depth 2 the fake says it reached depth 2 on every move.
    assert {r["mean_depth_a"] for r in rows} == {"2.00"}
    assert json.loads((out / "run.json").read_text())["result"]["engines"]["a"]["budget"] == \
        {"depth": 2}


def test_two_engines_can_play_each_other(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = invoke("match", fake(name="one"), fake(name="two"), *QUICK, "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = games(out)
    assert {r["frame_a"] for r in rows} == {r["frame_b"] for r in rows} == {ENGINE}
    assert "no node ratio at depth 3: both sides are UCI engines" in result.output
    assert "side A is a UCI engine: one" in result.output
    assert "side B is a UCI engine: two" in result.output


def test_the_engine_is_sent_the_games_moves_with_every_position(tmp_path: Path) -> None:
    log = tmp_path / "positions.log"
    out = tmp_path / "m"
    result = invoke("match", "pvs", fake("log", str(log)), *QUICK, "--out", str(out))
    assert result.exit_code == 0, result.output
    opening = position_of(load_problems(OPENINGS).problems[0]).fen
    sent = [line for line in log.read_text().splitlines() if opening in line]
    for row in games(out):
        played = row["moves"].split()
        # Each position the engine was asked is the opening and a prefix of the game.
        asked = {line.partition(" moves ")[2] for line in sent}
        engine_first = row["first"] == "fake"
        prefixes = {" ".join(played[:ply]) for ply in range(0 if engine_first else 1,
                                                             len(played), 2)}
        assert prefixes <= asked, (prefixes - asked, asked)
    assert any(len(line.partition(" moves ")[2].split()) >= 6 for line in sent)


def test_a_node_budget_replays_the_same_games(tmp_path: Path) -> None:
    for name in ("one", "two"):
        result = invoke("match", "pvs", fake(), *QUICK, "--out", str(tmp_path / name))
        assert result.exit_code == 0, result.output
    assert moves(tmp_path / "one") == moves(tmp_path / "two")


def test_two_workers_play_the_games_of_one(tmp_path: Path) -> None:
    args = ("pvs", fake(), "--nodes", "300", "--max-plies", "8", "--games", "4", "--no-progress")
    for name, jobs in (("one", "1"), ("two", "2")):
        result = invoke("match", *args, "--jobs", jobs, "--out", str(tmp_path / name))
        assert result.exit_code == 0, result.output
    assert moves(tmp_path / "one") == moves(tmp_path / "two")


def test_a_clock_gives_the_engine_its_clock(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = invoke("match", "pvs", fake(), "--time", "1+0.1", "--max-plies", "6", "--games", "2",
                    "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    record = json.loads((out / "run.json").read_text())["result"]["engines"]["b"]
    assert record["budget"] == {"clock_s": 1.0, "increment_s": 0.1}
    assert "its clock of 1+0.1 s, ucinewgame before each move" in result.output


# -- bad inputs ------------------------------------------------------------------------------

def test_an_engine_side_in_another_game_is_refused(tmp_path: Path) -> None:
    refused(invoke("match", "pvs", fake(), "--problems", "connect4:start", "--games", "2",
                   "--out", str(tmp_path / "m")), "side B fake is a UCI engine", "chess only")


def test_a_node_budget_for_an_engine_that_ignores_go_nodes_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.engines import probe

    monkeypatch.setattr(probe, "NODES_PROBE_TIMEOUT", 1.0)
    line = refused(invoke("match", "pvs", fake("ignore-nodes"), *QUICK,
                          "--out", str(tmp_path / "m")), "engine fake", "ignores go nodes")
    assert "--depth" in line
    assert not (tmp_path / "m").exists()


def test_a_ladder_engine_that_ignores_go_nodes_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.engines import probe

    monkeypatch.setattr(probe, "NODES_PROBE_TIMEOUT", 1.0)
    refused(invoke("match", "pvs", "alphabeta", "--problems", OPENINGS, *QUICK, "--ladder", "100",
                   "--ladder-engine", fake("ignore-nodes"), "--out", str(tmp_path / "m")),
            "engine fake", "ignores go nodes", "--ladder-engine")


def test_an_unknown_engine_program_is_refused(tmp_path: Path) -> None:
    refused(invoke("match", "pvs", "nowhere=no-such-engine-here", *QUICK,
                   "--out", str(tmp_path / "m")), "engine nowhere", "not found")


@pytest.mark.usefixtures("quick_start")
def test_a_program_that_is_not_uci_is_refused(tmp_path: Path) -> None:
    refused(invoke("match", "pvs", fake("mute", name="mute"), *QUICK,
                   "--out", str(tmp_path / "m")), "engine mute", "does not speak UCI")


def test_an_option_the_engine_lacks_is_refused(tmp_path: Path) -> None:
    refused(invoke("match", "pvs", fake() + ",Bogus=1", *QUICK, "--out", str(tmp_path / "m")),
            "engine fake", "rejects option 'Bogus'")


@pytest.mark.parametrize(("extra", "words"), [
    (("--calibrate",), ("--calibrate", "UCI engine", "--ladder")),
    (("--engine-timeout", "0"), ("--engine-timeout 0",)),
    (("--ladder", "100,x"), ("--ladder '100,x'",)),
    (("--ladder", "1000,100"), ("rising",)),
    (("--ladder-engine", "sf=stockfish"), ("--ladder N1,N2",)),
])
def test_bad_engine_options_are_refused(extra: tuple[str, ...], words: tuple[str, ...],
                                        tmp_path: Path) -> None:
    refused(invoke("match", "pvs", fake(), *QUICK, *extra, "--out", str(tmp_path / "m")), *words)


def test_a_bad_spec_names_the_side(tmp_path: Path) -> None:
    refused(invoke("match", "pvs", "sf=stockfish,Hash", *QUICK, "--out", str(tmp_path / "m")),
            "side B", "Option=Value")


# -- faults mid-match ------------------------------------------------------------------------

@pytest.mark.parametrize(("mode", "words"), [
    ("hang-black", ("hung", "no bestmove within 1 s")),
    ("crash-black", ("crashed",)),
    ("illegal-black", ("illegal move", "illegal uci")),
])
def test_a_fault_on_a_move_stops_the_match_in_one_line(mode: str, words: tuple[str, ...],
                                                       tmp_path: Path) -> None:
    # The first opening has white to move: the check before the match passes, and the
    # engine fails on its first move as black (side B, second in the pair's first game).
    out = tmp_path / "m"
    line = refused(invoke("match", "pvs", fake(mode), *QUICK, "--engine-timeout", "1",
                          "--out", str(out)), "engine fake (Fake UCI 1.0)", "at ply 2 of GEN.001",
                   "--resume", *words)
    assert "0 finished pair(s)" in line
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "engine_fault" and words[0] in info["fault"]


def test_a_hang_keeps_the_pairs_played_and_resume_plays_on(tmp_path: Path) -> None:
    counter = tmp_path / "searches"
    # Three searches in the check before the match (go nodes tried, then one position
    # twice), six moves of the engine a game: the
    # engine hangs on its first move of the second pair.
    spec = fake("hang-once-after", str(counter), "15")
    out = tmp_path / "m"
    args = ("--nodes", "300", "--max-plies", "12", "--games", "4", "--no-progress",
            "--engine-timeout", "1")
    line = refused(invoke("match", "pvs", spec, *args, "--out", str(out)), "hung",
                   "1 finished pair(s)")
    assert "GEN.002" in line
    assert len(games(out)) == 2
    again = invoke("match", "--resume", str(out), "--no-progress", "--engine-timeout", "5")
    assert again.exit_code == 0, again.output
    config = json.loads((out / "run.json").read_text())["config"]
    assert config["sides"][1]["engine_timeout"] == 5.0
    whole = invoke("match", "pvs", fake(), *args, "--out", str(tmp_path / "whole"))
    assert whole.exit_code == 0, whole.output
    assert moves(out) == moves(tmp_path / "whole")


# -- the calibration ladder ------------------------------------------------------------------

def test_the_ladder_plays_each_rung_and_places_a(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = invoke("match", "pvs", "alphabeta", "--problems", OPENINGS, *QUICK,
                    "--link-depth", "0", "--ladder", "100,1000", "--ladder-engine", fake(),
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    for nodes in (100, 1000):
        rows = games(out, f"ladder-{nodes}.csv")
        assert len(rows) == 2 and {r["frame_b"] for r in rows} == {ENGINE}
        assert rows[0]["second"] == f"fake@{nodes}n"
    ladder = json.loads((out / "run.json").read_text())["result"]["ladder"]
    assert [rung["nodes"] for rung in ladder["rungs"]] == [100, 1000]
    assert ladder["engine"] == "fake" and ladder["placement"]["text"]
    assert "ladder: A against fake at 1,000 nodes a move, 1 pairs" in result.output
    assert f"ladder: {ladder['placement']['text']}" in result.output
    page = (out / "report.html").read_text()
    assert ladder["placement"]["text"] in page and "The calibration ladder" in page
    assert (out / "ladder.png").exists() and (out / "ladder.svg").exists()


def test_a_hang_on_the_ladder_keeps_its_pairs_and_resume_plays_on(tmp_path: Path) -> None:
    counter = tmp_path / "searches"
    # Three searches in the check, twelve a pair of the rung: the hang is in its second pair.
    args = ("pvs", "alphabeta", "--problems", OPENINGS, "--nodes", "300", "--max-plies", "12",
            "--games", "4", "--no-progress", "--link-depth", "0", "--ladder", "500",
            "--engine-timeout", "1")
    out = tmp_path / "m"
    line = refused(invoke("match", *args, "--ladder-engine",
                          fake("hang-once-after", str(counter), "15"), "--out", str(out)),
                   "hung", "the ladder stopped", "--resume")
    assert "GEN.002" in line
    assert len(games(out)) == 4 and len(games(out, "ladder-500.csv")) == 2
    again = invoke("match", "--resume", str(out), "--no-progress")
    assert again.exit_code == 0, again.output
    whole = invoke("match", *args, "--ladder-engine", fake(), "--out", str(tmp_path / "whole"))
    assert whole.exit_code == 0, whole.output
    assert moves(out, "ladder-500.csv") == moves(tmp_path / "whole", "ladder-500.csv")
    assert moves(out) == moves(tmp_path / "whole")


def _rung(nodes: int, pairs: list[tuple[float, float]]) -> Rung:
    tally = Tally(Sprt())
    for first, second in pairs:
        tally.add(first, second)
    return Rung(nodes, tally.progress(len(pairs)))


def test_the_placement_interpolates_in_log_nodes() -> None:
    assert crossing([100, 10_000], [100.0, -100.0])[0] == pytest.approx(1000.0)
    assert crossing([100, 1000], [0.0, -50.0])[0] == pytest.approx(100.0)   # even at 100
    assert crossing([100, 1000], [-5.0, -50.0]) == (None, "below 100")
    assert crossing([100, 1000], [50.0, 5.0]) == (None, "above 1,000")
    assert crossing([100, 1000], [math.inf, -50.0]) == (None, "between 100 and 1,000")
    assert crossing([100, 1000], [math.nan, math.nan]) == (None, "undefined")
    # A won more against the weak rung than it lost against the strong one.
    rungs = [_rung(100, [(1, 1), (1, 0.5), (0.5, 0.5), (1, 0)]),
             _rung(10_000, [(0, 0), (0, 0.5), (0.5, 0.5), (1, 0)])]
    placed = place(rungs, "sf")
    assert placed.nodes == pytest.approx(1000.0)
    assert placed.text.startswith("A plays like sf at about 1,000 nodes a move (95% interval: ")
    assert place(rungs[:1], "sf").text.startswith("A scores at least even against every "
                                                  "rung: above 100")
    assert place(rungs[1:], "sf").text.startswith("A is weaker than every rung: below 10,000")
    # Few pairs: A worse against the weaker rung than against the stronger one.
    upside_down = place([rungs[1], replace(rungs[0], nodes=100_000)], "sf")
    assert upside_down.nodes is None
    assert upside_down.text.startswith("A is not placed: it is below 0 Elo against the lowest "
                                       "rung (10,000 nodes a move of sf)")
    assert "too few pairs a rung to order them" in upside_down.text


# -- Stockfish -------------------------------------------------------------------------------

@pytest.mark.skipif(locate("stockfish") is None, reason="Stockfish is not installed here "
                    "(apt-get install stockfish)")
def test_stockfish_replays_the_same_games_at_a_node_budget(tmp_path: Path) -> None:
    args = ("pvs", "sf=stockfish", "--nodes", "2000", "--max-plies", "24", "--games", "2",
            "--no-progress")
    for name in ("one", "two"):
        result = invoke("match", *args, "--out", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert "Stockfish" in result.output
    first, second = games(tmp_path / "one"), games(tmp_path / "two")
    assert [r["moves"] for r in first] == [r["moves"] for r in second]
    assert [r["nodes_b"] for r in first] == [r["nodes_b"] for r in second]
    for row in first:
        board = position_of(load_problems(OPENINGS).problems[0]).board()
        for move in row["moves"].split():
            assert chess.Move.from_uci(move) in board.legal_moves
            board.push_uci(move)
