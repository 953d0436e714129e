"""The command line, end to end through Click's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.results import ROW_COLUMNS, SCHEMA_VERSION, load_results
from harness.search import VARIANTS


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def test_variants_lists_every_variant_with_source() -> None:
    result = invoke("variants")
    assert result.exit_code == 0
    for variant in VARIANTS:
        assert f"\n{variant.name} " in "\n" + result.output
    assert result.output.count("source: ") == len(VARIANTS)
    assert "option zw_min_depth=1" in result.output


def test_run_tree_file(tmp_path: Path, textbook_file: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--tree", str(textbook_file), "--variants", "alphabeta,minimax",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "alphabeta" in result.output and "textbook.json" in result.output
    frame = load_results(out)
    assert list(frame.columns) == list(ROW_COLUMNS)
    rows = frame.set_index("variant")
    assert (rows.loc["alphabeta", "nodes"], rows.loc["alphabeta", "leaves"]) == (11, 7)
    assert (rows.loc["minimax", "nodes"], rows.loc["minimax", "leaves"]) == (13, 9)
    assert rows.loc["alphabeta", "score"] == 3
    info = json.loads((out / "run.json").read_text())
    assert info["schema_version"] == SCHEMA_VERSION
    assert info["config"]["tree_files"] == [str(textbook_file)]
    assert info["finished"] and info["versions"]["pandas"]
    assert len(info["config_hash"]) == 64


def test_run_synthetic_with_options_depth_range_table_and_id(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--trees", "random:b=3,d=4,n=3,seed=2", "--variants",
                    "pvs:zw_min_depth=3,research_min_depth=2,mtdf", "--depth", "2-4",
                    "--tt", "4096", "--id", "--minimal", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame = load_results(out)
    assert len(frame) == 3 * 2 * 3
    assert set(frame["variant"]) == {"pvs:research_min_depth=2,zw_min_depth=3", "mtdf"}
    assert set(frame["depth"]) == {2, 3, 4}
    assert (frame["tt_size"] == 4096).all() and (frame["iterative"] == 1).all()
    assert (frame["minimal_source"] == "measured").all()
    pvs = frame[frame["variant"].str.startswith("pvs")]
    assert (pvs["options"] == "research_min_depth=2,zw_min_depth=3").all()
    assert (frame.groupby(["problem_id", "depth"])["score"].nunique() == 1).all()
    assert (frame["passes"] >= frame["depth"]).all()       # one pass per iteration at least


def test_run_default_shows_the_comparison(tmp_path: Path) -> None:
    out = tmp_path / "default"
    result = invoke("run", "--variants", "alphabeta,pvs", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame = load_results(out)
    assert frame["suite"].nunique() == 2
    assert set(frame["depth"]) == {1, 2, 3, 4, 5, 6}
    assert (frame["iterative"] == 1).all()


@pytest.mark.parametrize("args,message", [
    (["--tree", "{bad}"], "invalid JSON"),
    (["--tree", "{leaf}"], "leaf value must be an integer"),
    (["--tree", "{empty}"], "empty child list"),
    (["--tree", "{missing}"], "cannot read"),
    (["--trees", "random:b=2,d=2,q=1"], "unknown key 'q'"),
    (["--trees", "random:b=2,d=2", "--variants", "pvz"], "unknown variant 'pvz' (valid: minimax"),
    (["--trees", "random:b=2,d=2", "--variants", "pvs:depth=2"], "unknown option 'depth'"),
    (["--trees", "random:b=2,d=2", "--variants", "pvs:zw_min_depth=x"], "is not an integer"),
    (["--trees", "random:b=2,d=2", "--depth", "0"], "depth 0 is impossible"),
    (["--trees", "random:b=2,d=2", "--depth", "-1"], "depth '-1' is not N or A-B"),
    (["--trees", "random:b=2,d=2", "--depth", "3-2"], "is empty"),
    (["--tree", "{shallow}", "--depth", "1"], "interior nodes without a value"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path: Path, args: list[str],
                                               message: str) -> None:
    files = {"bad": "[[1, 2], [3,", "leaf": '[[1, "a"]]', "empty": "[[1], []]",
             "shallow": "[[1, 2], [3, 4]]"}
    for name, text in files.items():
        (tmp_path / f"{name}.json").write_text(text)
    args = [a.format(**{k: str(tmp_path / f"{k}.json") for k in [*files, "missing"]})
            for a in args]
    result = invoke("run", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert message in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()               # nothing started, nothing half-written


def test_existing_run_folder_is_refused(tmp_path: Path, textbook_file: Path) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--tree", str(textbook_file), "--out", str(out)).exit_code == 0
    before = (out / "results.csv").read_text()
    result = invoke("run", "--tree", str(textbook_file), "--out", str(out))
    assert result.exit_code == 2 and "already holds a run" in result.output
    assert (out / "results.csv").read_text() == before


def test_unknown_schema_version_is_refused(tmp_path: Path, textbook_file: Path) -> None:
    out = tmp_path / "run"
    invoke("run", "--tree", str(textbook_file), "--out", str(out))
    info = json.loads((out / "run.json").read_text())
    info["schema_version"] = 999
    (out / "run.json").write_text(json.dumps(info))
    from harness.errors import HarnessError
    with pytest.raises(HarnessError, match="schema version 999"):
        load_results(out)


def test_results_are_tidy(tmp_path: Path) -> None:
    out = tmp_path / "run"
    invoke("run", "--trees", "random:b=2,d=3,n=2", "--variants", "core", "--out", str(out))
    frame = pd.read_csv(out / "results.csv")
    assert not frame.duplicated(["suite", "problem_id", "variant", "depth"]).any()
    assert len(frame) == 2 * 10


def test_help_for_every_command() -> None:
    for command in ([], ["run"], ["variants"]):
        result = invoke(*command, "--help")
        assert result.exit_code == 0 and "Usage" in result.output
