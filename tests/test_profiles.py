"""Search profiles (``--profile``): what each sets, that a switch typed beside one wins, that
run.json writes it out in full, and a match side's own profile (``pvs@modern``)."""

from __future__ import annotations

import csv
import json
from dataclasses import asdict, fields
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.command_line import SWITCH_OPTIONS, problem_options, profiled
from harness.errors import HarnessError
from harness.match.play import Side, make_side
from harness.match.settings import MatchConfig, config_from_json
from harness.run.profiles import (
    ENHANCEMENTS,
    MODERN_TABLE,
    PROFILES,
    Configuration,
    find_enhancement,
    find_profile,
    with_enhancements,
)
from harness.search.run import Switches
from harness.search.selective import SWITCHES, Selectivity

WAC = ('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";\n'
       '8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";\n')
"""The first two positions of Win at Chess (Reinfeld), as the public suite writes them."""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def wac(tmp_path: Path) -> Path:
    path = tmp_path / "wac2.epd"
    path.write_text(WAC)
    return path


def test_find_profile_and_what_each_sets() -> None:
    assert find_profile("classic").configuration == Configuration(Switches(), {})
    modern = find_profile("modern").configuration
    every_selective_switch = Selectivity(**{name: True for name in SWITCHES})
    assert modern.switches == Switches(tt_size=MODERN_TABLE, iterative_deepening=True,
                                       hash_move=True, null_move=2, null_rule="either",
                                       check_extension=True, selectivity=every_selective_switch)
    assert modern.game_options == {"chess": {"killers": "1", "history": "1", "repetition": "1",
                                              "qsee": "1", "delta": "1", "qchecks": "1"}}
    assert MODERN_TABLE == 2 ** 20
    with pytest.raises(HarnessError, match=r"unknown profile 'fast' \(known: classic, modern\)"):
        find_profile("fast")
    with pytest.raises(HarnessError, match="unknown enhancement 'late-move-reductions'"):
        find_enhancement("late-move-reductions")


def test_the_bare_base_has_every_enhancement_of_the_profile_off() -> None:
    bare = find_profile("modern").bare
    assert bare.switches == Switches(hash_move=False)
    assert bare.game_options == {"chess": {"killers": "0", "history": "0", "repetition": "0",
                                            "qsee": "0", "delta": "0", "qchecks": "0"}}
    again = with_enhancements((find_enhancement("tt"),), bare)
    assert again.switches.tt_size == MODERN_TABLE and again.switches.hash_move is False


def test_every_enhancement_names_a_real_field() -> None:
    switch_fields = {f.name for f in fields(Switches)}
    for enhancement in ENHANCEMENTS:
        where, dot, selective = enhancement.field.partition(".")
        assert enhancement.game or where in switch_fields
        assert not dot or (where == "selectivity" and selective in SWITCHES)
        assert enhancement.on != enhancement.off
    names = [p.name for p in PROFILES]
    assert names == ["classic", "modern"] and len(set(names)) == len(names)


def test_every_switch_has_an_option_that_wins_beside_a_profile() -> None:
    """A switch with no option in SWITCH_OPTIONS could not be set beside --profile: a new
    switch's option joins that table."""
    assert {field.partition(".")[0] for field in SWITCH_OPTIONS.values()} \
        == {f.name for f in fields(Switches)}
    assert {field.partition(".")[2] for field in SWITCH_OPTIONS.values() if "." in field} \
        == set(SWITCHES)
    command = click.command()(problem_options(lambda **_: None))
    assert set(SWITCH_OPTIONS) <= {param.name for param in command.params}


def test_a_switch_typed_beside_the_profile_wins() -> None:
    options = {"tt_size": 1000, "no_hash_move": True, "null_move": 0, "killers": False,
               "history": False, "no_mvv_lva": False}
    modern = find_profile("modern")
    switches, games = profiled(options, modern, typed={"tt_size", "null_move"})
    assert switches.tt_size == 1000 and switches.null_move == 0     # typed: theirs
    assert switches.hash_move is True and switches.check_extension  # not typed: the profile's
    quiescence = {"qsee": "1", "delta": "1", "qchecks": "1"}
    assert games["chess"] == {"killers": "1", "history": "1", "repetition": "1", **quiescence}
    _, games = profiled({**options, "no_mvv_lva": True}, modern, typed=set())
    assert games["chess"] == {"killers": "1", "history": "1", "repetition": "1", **quiescence,
                              "mvv_lva": "0"}
    # A selective switch typed (off, as a flag left out reads) is the profile's no longer.
    switches, _ = profiled({**options, "futility": False}, modern, typed={"futility"})
    assert not switches.selectivity.futility and switches.selectivity.late_move_reductions


def test_run_json_writes_the_profile_out_in_full(tmp_path: Path, wac: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--suite", str(wac), "--variants", "pvs", "--depth", "2",
                    "--profile", "modern", "--no-hash-move", "--null-move", "0",
                    "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    info = json.loads((out / "run.json").read_text())
    profile = info["profile"]
    assert profile["name"] == "modern"
    assert profile["switches"] == json.loads(json.dumps(asdict(
        find_profile("modern").configuration.switches)))
    assert profile["game_options"] == {"chess": {"killers": "1", "history": "1",
                                                "repetition": "1", "qsee": "1", "delta": "1",
                                                "qchecks": "1"}}
    assert profile["enhancements"][:3] == ["iterative-deepening", "tt", "hash-move"]
    # what the searches ran with: the profile, and the switches typed beside it
    assert info["switches"]["hash_move"] is False and info["switches"]["null_move"] == 0
    assert info["switches"]["tt_size"] == MODERN_TABLE and info["switches"]["check_extension"]
    assert info["config"]["problems"] == [
        f"chess:{wac},killers=1,history=1,repetition=1,qsee=1,delta=1,qchecks=1"]
    assert info["config"]["profile"] == "modern"


def test_a_problem_set_naming_an_option_keeps_it_under_a_profile(tmp_path: Path,
                                                                 wac: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--problems", f"chess:{wac},killers=0", "--variants", "pvs",
                    "--depth", "1", "--profile", "modern", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    info = json.loads((out / "run.json").read_text())
    assert info["config"]["problems"] == [
        f"chess:{wac},killers=0,history=1,repetition=1,qsee=1,delta=1,qchecks=1"]


def test_classic_is_the_run_without_a_profile(tmp_path: Path, wac: Path) -> None:
    rows = []
    for name, extra in (("plain", []), ("classic", ["--profile", "classic"])):
        out = tmp_path / name
        result = invoke("run", "--suite", str(wac), "--variants", "pvs", "--depth", "2",
                        "--out", str(out), "--no-progress", *extra)
        assert result.exit_code == 0, result.output
        with (out / "results.csv").open(newline="") as file:
            rows.append([{k: v for k, v in row.items() if k != "time_s"}
                         for row in csv.DictReader(file)])
    assert rows[0] == rows[1] and len(rows[0]) == 2


@pytest.mark.parametrize("args, message", [
    (["run", "--suite", "WAC", "--profile", "turbo"], "unknown profile 'turbo'"),
    (["compare", "alphabeta", "pvs", "--suite", "WAC", "--profile", "turbo"],
     "unknown profile 'turbo'"),
    (["match", "pvs@turbo", "pvs", "--problems", "chess:bench.epd"], "unknown profile 'turbo'"),
    (["match", "pvs@", "pvs", "--problems", "chess:bench.epd"], "VARIANT@PROFILE"),
])
def test_an_unknown_profile_is_one_line(args: list[str], message: str, wac: Path) -> None:
    result = invoke(*[str(wac) if a == "WAC" else a for a in args])
    everything = result.output + result.stderr
    assert "Traceback" not in everything
    assert result.exit_code == 2, everything
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_a_match_side_carries_its_profile() -> None:
    modern = find_profile("modern").configuration
    side = make_side("pvs", modern.switches, "modern",
                     (("chess", "killers", "1"), ("chess", "history", "1")))
    assert side.name == "pvs@modern" and Side("pvs").name == "pvs"
    config = MatchConfig((side, Side("pvs")), "chess:bench.epd")
    again = config_from_json(json.loads(json.dumps(config.as_json())))
    assert again.sides == config.sides


def test_a_side_searches_with_its_own_game_options() -> None:
    from harness.games.registry import load_problems

    problem = load_problems("chess:bench.epd").problems[0]
    side = Side("pvs", Switches(), "modern", (("chess", "killers", "1"), ("chess", "history", "1"),
                                              ("connect4", "order", "left")))
    own = dict(side.problem(problem).options)
    assert own["killers"] is True and own["history"] is True and own["mvv_lva"] is True
    assert dict(problem.options)["killers"] is False
    assert Side("pvs").problem(problem) is problem


def test_compare_searches_under_the_profile(tmp_path: Path, wac: Path) -> None:
    out = tmp_path / "compare"
    result = invoke("compare", "alphabeta", "pvs", "--suite", str(wac), "--depth", "2",
                    "--profile", "modern", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    info = json.loads((out / "run.json").read_text())
    assert info["profile"]["name"] == "modern" and info["switches"]["null_move"] == 2


def test_a_match_names_each_side_with_its_profile(tmp_path: Path) -> None:
    out = tmp_path / "match"
    result = invoke("match", "pvs@modern", "pvs@classic", "--problems", "chess:bench.epd",
                    "--depth", "1", "--games", "2", "--link-depth", "1", "--max-plies", "6",
                    "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    assert "A pvs@modern vs B pvs@classic" in result.output
    assert "answers not compared" in result.output
    with (out / "games.csv").open(newline="") as file:
        games = list(csv.DictReader(file))
    assert {(g["first"], g["second"]) for g in games} == {("pvs@modern", "pvs@classic"),
                                                         ("pvs@classic", "pvs@modern")}
    sides = json.loads((out / "run.json").read_text())["config"]["sides"]
    assert [s["profile"] for s in sides] == ["modern", "classic"]
    assert sides[0]["switches"]["tt_size"] == MODERN_TABLE and sides[1]["switches"]["tt_size"] == 0


def test_two_modern_sides_are_not_held_to_agree(tmp_path: Path) -> None:
    """Two sides of the modern profile search with the same switches, but those prune by
    the window: their answers may differ and both be right, so the match is played and
    says why they were not compared (it refused it as a bug before)."""
    result = invoke("match", "pvs@modern", "alphabeta@modern", "--problems", "chess:bench.epd",
                    "--depth", "2", "--games", "2", "--link-depth", "4", "--max-plies", "6",
                    "--out", str(tmp_path / "match"), "--no-progress")
    assert result.exit_code == 0, result.output
    assert "answers not compared: selective search (late_move_reductions" in result.output
    exact = invoke("match", "pvs", "alphabeta", "--problems", "chess:bench.epd", "--depth", "2",
                   "--games", "2", "--link-depth", "3", "--max-plies", "6",
                   "--out", str(tmp_path / "exact"), "--no-progress")
    assert exact.exit_code == 0, exact.output
    assert "the exact sides agree" in exact.output
