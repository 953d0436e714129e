"""What a hostile user found after the bad-input matrix (tests/test_bad_input.py): each row
failed before its fix (a traceback, a silent no-op, a folder written into, a gate passed
on a cut file) and is now one line and exit 2, a warning, or a refusal."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import harness
from harness.cli import cli
from harness.errors import HarnessError

TREES = "random:b=3,d=3,n=4,seed=1"
README = Path(__file__).resolve().parents[1] / "README.md"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def a_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("edges") / "run"
    result = invoke("run", "--trees", TREES, "--variants", "alphabeta,pvs", "--depth", "2-3",
                    "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def a_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("edges") / "match"
    result = invoke("match", "alphabeta", "pvs", "--problems", "openspiel:tic_tac_toe,plies=1",
                    "--games", "2", "--depth", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def refused(result: Result, words: str) -> None:
    assert result.exit_code == 2, result.output
    assert words in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["compare", "alphabeta", "pvs", "--trees", TREES, "--depth", "2", "--seed", "-1"],
    ["diff", ".", ".", "--seed", "-1"],
    ["check", TREES, "--seed", "-1"],
], ids=["compare", "diff", "check"])
def test_a_negative_seed_is_refused_before_anything_runs(args: list[str]) -> None:
    refused(invoke(*args), "-1 is not in the range x>=0")


def test_compare_run_refuses_options_it_would_ignore(a_run: Path) -> None:
    refused(invoke("compare", "alphabeta", "pvs", "--run", str(a_run), "--suite", "wac.epd"),
            "--run takes the problems, variants and switches of the run")
    shown = invoke("compare", "alphabeta", "pvs", "--run", str(a_run), "--depth", "3")
    assert shown.exit_code == 0, shown.output


def test_a_match_refuses_an_odd_number_of_games() -> None:
    refused(invoke("match", "alphabeta", "pvs", "--problems", "openspiel:tic_tac_toe",
                   "--games", "3"), "--games 3: games come in pairs")


def test_tree_refuses_no_lines_and_warns_of_a_depth_past_the_tree() -> None:
    refused(invoke("tree", "--trees", TREES, "--variant", "alphabeta", "--max-lines", "-1"),
            "-1 is not in the range x>=1")
    deep = invoke("tree", "--trees", TREES, "--variant", "alphabeta", "--depth", "9")
    assert deep.exit_code == 0
    assert "--depth 9 on random:b=3,d=3,n=4,seed=1" in deep.output
    assert "its trees end at depth 3" in deep.output


def test_one_commands_folder_is_refused_by_another(a_run: Path, a_match: Path) -> None:
    refused(invoke("run", "--resume", str(a_match)), "holds a match (harness match), not a run")
    refused(invoke("show", str(a_match)), "holds a match (harness match), not a run")
    refused(invoke("report", str(a_match)), "holds a match (harness match), not a run")
    refused(invoke("reproduce", "--quick", "--only", "knuth-moore", "--out", str(a_run)),
            "holds a run (harness run), not a reproduction")
    refused(invoke("match", "alphabeta", "pvs", "--problems", "openspiel:tic_tac_toe",
                   "--out", str(a_run)), "holds a run (harness run), not a match")
    refused(invoke("run", "--trees", TREES, "--out", str(a_match), "--no-progress"),
            "holds a match (harness match), not a run")


def test_a_cut_results_file_is_said_and_fails_a_gate(a_run: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut"
    shutil.copytree(a_run, cut)
    lines = (a_run / "results.csv").read_text().splitlines(keepends=True)
    (cut / "results.csv").write_text("".join(lines[:6]))
    said = "INCOMPLETE: " + str(cut / "results.csv") + " holds 5 of the 16 searches"
    assert said in invoke("show", str(cut)).output
    assert said in invoke("report", str(cut)).output
    gate = invoke("diff", str(a_run), str(cut), "--fail-if-worse", "50")
    assert gate.exit_code == 1 and f"FAIL: {said}" in gate.output
    whole = tmp_path / "whole"
    shutil.copytree(a_run, whole)
    assert invoke("diff", str(a_run), str(whole), "--fail-if-worse", "50").exit_code == 0


def test_a_suites_folder_that_is_not_there_is_named(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setenv("HARNESS_SUITES", str(tmp_path / "no-such-folder"))
    result = invoke("suites")
    assert f"$HARNESS_SUITES: {tmp_path / 'no-such-folder'} is not a folder" in result.output


def test_chess_flags_without_chess_warn(tmp_path: Path) -> None:
    result = invoke("run", "--trees", TREES, "--variants", "alphabeta", "--depth", "2",
                    "--killers", "--history", "--no-progress", "--out", str(tmp_path / "r"))
    assert result.exit_code == 0
    assert "--killers, --history: chess's move ordering, and no problem of this run is chess" \
        in result.output


def test_the_python_api_checks_its_arguments_in_its_own_words(a_run: Path) -> None:
    config = harness.ExperimentConfig(problems="chess:bk.epd", depths=3)
    assert (config.problems, config.depths) == (("chess:bk.epd",), (3,))
    assert harness.ExperimentConfig(problems=["random:b=2"], depths=[1, 2]).depths == (1, 2)
    for bad, field in ((dict(depths="3"), "depths"), (dict(problems=5), "problems"),
                       (dict(max_nodes=1.5), "max_nodes"), (dict(variants=["pvs"]), "variants"),
                       (dict(limit=True), "limit")):
        with pytest.raises(HarnessError, match=rf"^ExperimentConfig\.{field}: "):
            harness.ExperimentConfig(**bad)      # type: ignore[arg-type]
    with pytest.raises(HarnessError, match="a file; load_results reads a run folder"):
        harness.load_results(a_run / "results.csv")
    with pytest.raises(HarnessError, match="not a run folder's path"):
        harness.load_results(3)                  # type: ignore[arg-type]


def test_the_readme_says_how_to_install_the_nim_plugin_it_checks() -> None:
    line = next(line for line in README.read_text().splitlines() if "harness check nim:" in line)
    assert "pip install -e examples/harness-nim" in line
    assert (README.parent / "examples" / "harness-nim" / "pyproject.toml").is_file()
    refused(invoke("check", "nim:3-4-5"), "pip install -e examples/harness-nim")
