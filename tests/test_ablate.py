"""``harness ablate``: a profile taken apart on the same problems and depths, for chess and
Connect Four; ablation.csv's columns and numbers; resume; bad input as one line."""

from __future__ import annotations

import csv
import json
import math
import re
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.report.ablation import ABLATION_COLUMNS, NOT_OFFERED
from harness.report.stats import geometric_mean_ratio
from harness.run.ablation import AblationConfig, plan_ablation

WAC = ('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";\n'
       '8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";\n'
       '5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id "WAC.003";\n')
"""The first three positions of Win at Chess (Reinfeld), as the public suite writes them."""

CONNECT4 = "4453\n44\n3344\n"
"""Three Connect Four positions, as move sequences (Pons's notation)."""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "wac3.epd").write_text(WAC)
    (folder / "c4.txt").write_text(CONNECT4)
    return folder


@pytest.fixture(scope="module")
def chess_ablation(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    out = tmp_path_factory.mktemp("chess") / "ablation"
    result = invoke("ablate", "--suite", str(inputs / "wac3.epd"), "--depth", "3",
                    "--enhancements", "tt,hash-move,killers,check-extension", "--from-bare",
                    "--out", str(out), "--no-progress")
    return out, result


def table(out: Path) -> pd.DataFrame:
    return pd.read_csv(out / "ablation.csv", keep_default_na=False, na_values=[""])


def test_chess_end_to_end(chess_ablation: tuple[Path, Result]) -> None:
    out, result = chess_ablation
    assert result.exit_code == 0, result.output
    with (out / "ablation.csv").open(newline="") as file:
        header = next(csv.reader(file))
    assert tuple(header) == ABLATION_COLUMNS
    rows = table(out)
    assert rows["configuration"].tolist() == [
        "base", "no-tt", "no-hash-move", "no-killers", "no-check-extension", "bare",
        "bare+tt", "bare+hash-move", "bare+killers", "bare+check-extension"]
    assert rows["against"].fillna("").tolist() == [
        "", "base", "base", "base", "base", "base", "bare", "bare+tt", "bare", "bare"]
    assert (rows["n"] == 3).all() and (rows["depth"] == 3).all() and (rows["stopped"] == 0).all()
    base = rows.iloc[0]
    assert base["nodes_ratio"] == 1.0 and base["best_move_changed"] == 0.0
    for folder in ("base", "no-tt", "bare", "bare+tt", "bare+hash-move"):
        assert (out / folder / "results.csv").is_file() and (out / folder / "report.html").is_file()
    for name in ("ablation.png", "ablation.svg", "index.html", "ablation.json"):
        assert (out / name).is_file()
    assert "no-check-extension" in result.output and "wrote" in result.output
    page = (out / "index.html").read_text()
    assert "<h2>Ablation: profile modern, pvs" in page and 'src="ablation.png"' in page
    assert page.count("<tr>") == 1 + len(rows)


def nodes(folder: Path) -> list[float]:
    rows = pd.read_csv(folder / "results.csv").sort_values("problem_id")
    return (rows["nodes"] + rows["qnodes"]).astype(float).tolist()


def test_the_ratios_are_those_of_the_runs_beside_them(chess_ablation: tuple[Path, Result]) -> None:
    out, _ = chess_ablation
    rows = table(out).set_index("configuration")
    for name, against in (("no-tt", "base"), ("bare+killers", "bare"),
                          ("bare+hash-move", "bare+tt")):
        expected = geometric_mean_ratio(nodes(out / against), nodes(out / name))
        assert math.isclose(float(rows.loc[name, "nodes_ratio"]), expected, rel_tol=1e-9)
        assert float(rows.loc[name, "ratio_low"]) <= expected <= float(rows.loc[name, "ratio_high"])
    # removing the table changes the tree searched: the counts differ
    assert rows.loc["no-tt", "nodes"] != rows.loc["base", "nodes"]


def test_each_configuration_ran_what_it_says(chess_ablation: tuple[Path, Result]) -> None:
    out, _ = chess_ablation
    def run(name: str) -> dict[str, Any]:
        return dict(json.loads((out / name / "run.json").read_text()))
    base, no_killers, bare = run("base"), run("no-killers"), run("bare")
    assert base["switches"]["tt_size"] == 2 ** 20 and base["switches"]["null_move"] == 2
    assert "killers=1" in base["config"]["problems"][0]
    assert "killers=0" in no_killers["config"]["problems"][0]
    assert no_killers["switches"] == base["switches"]
    assert bare["switches"]["tt_size"] == 0 and not bare["switches"]["iterative_deepening"]
    assert run("bare+hash-move")["switches"]["tt_size"] == 2 ** 20   # with what it needs


def refused_in_one_line(result: Result, message: str, out: Path) -> None:
    """An ablation refused as bad input: one line on stderr saying ``message``, exit 2, no
    traceback, and no configuration begun in ``out``."""
    everything = result.output + result.stderr
    assert "Traceback" not in everything
    assert result.exit_code == 2, everything
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert not (out / "base").exists()


def interrupted_copy(out: Path, copy: Path, never_begun: str, begun: str, kept_rows: int) -> Path:
    """A copy of the ablation ``out`` as an interruption leaves one: the configuration
    ``never_begun`` missing, ``begun`` unfinished with its first ``kept_rows`` rows, no
    ``ablation.csv``."""
    shutil.copytree(out, copy)
    shutil.rmtree(copy / never_begun)
    info = json.loads((copy / begun / "run.json").read_text())
    info["finished"] = None
    (copy / begun / "run.json").write_text(json.dumps(info))
    lines = (copy / begun / "results.csv").read_text().splitlines(keepends=True)
    (copy / begun / "results.csv").write_text("".join(lines[:1 + kept_rows]))
    (copy / "ablation.csv").unlink()
    return copy


def test_resume_finishes_what_is_missing(chess_ablation: tuple[Path, Result],
                                         tmp_path: Path) -> None:
    out, _ = chess_ablation
    copy = interrupted_copy(out, tmp_path / "copy", "no-killers", "bare", 1)
    result = invoke("ablate", "--resume", str(copy), "--no-progress")
    assert result.exit_code == 0, result.output
    numbers = [c for c in ABLATION_COLUMNS if c not in ("time_s",)]
    pd.testing.assert_frame_equal(table(copy)[numbers], table(out)[numbers])
    resumed = json.loads((copy / "bare" / "run.json").read_text())
    assert resumed["resumed"][0]["problems_kept"] == 1


def test_connect4_lists_what_the_game_does_not_offer(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "c4"
    result = invoke("ablate", "--problems", f"connect4:{inputs / 'c4.txt'}", "--depth", "4",
                    "--enhancements", "tt,killers,null-move", "--out", str(out), "--jobs", "2",
                    "--no-progress")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output + result.stderr
    rows = table(out).set_index("configuration")
    assert rows.loc["no-killers", "note"] == NOT_OFFERED
    assert rows.loc["no-null-move", "note"] == NOT_OFFERED
    assert math.isnan(float(rows.loc["no-killers", "nodes_ratio"])) and rows.loc["no-killers", "n"] == 0
    assert rows.loc["no-tt", "n"] == 3 and rows.loc["no-tt", "note"] != NOT_OFFERED
    assert not (out / "no-killers").exists() and not (out / "no-null-move").exists()
    assert re.search(rf"no-killers +{NOT_OFFERED}", result.output)
    # the base's run does not pretend to a null move Connect Four cannot make
    assert json.loads((out / "base" / "run.json").read_text())["switches"]["null_move"] == 0
    assert "warning" not in result.stderr


def test_plan_pairs_an_added_enhancement_with_what_it_needs() -> None:
    planned = plan_ablation(AblationConfig(("chess:bench.epd",), only=("hash-move",),
                                           from_bare=True))
    arms = {p.arm.name: p.arm for p in planned}
    assert list(arms) == ["base", "no-hash-move", "bare", "bare+tt", "bare+hash-move"]
    assert arms["bare+hash-move"].against == "bare+tt"


@pytest.mark.parametrize("args, message", [
    (["--profile", "turbo"], "unknown profile 'turbo'"),
    (["--profile", "classic"], "profile classic has no enhancement"),
    (["--enhancements", "late-move-reductions"], "unknown enhancement 'late-move-reductions'"),
    (["--enhancements", ","], "name at least one enhancement"),
    (["--depth", "0"], "depth 0 is impossible"),
    (["--depth", "three"], "--depth 'three' is not N or A-B"),
    (["--limit", "0"], "--limit 0: needs at least 1"),
    (["--variant", "pvs,alphabeta"], "searches with one variant"),
    (["--variant", "nosuch"], "nosuch"),
    (["--problems", "chess:WAC,killers=0"], "sets killers, which the ablation changes"),
    (["--resume", "INPUTS"], "not an ablation's folder"),
    (["--resume", "INPUTS", "--depth", "3"], "drop --depth"),
])
def test_bad_input_is_one_line(args: list[str], message: str, inputs: Path,
                               tmp_path: Path) -> None:
    given = [str(inputs) if a == "INPUTS" else a.replace("WAC", str(inputs / "wac3.epd"))
             for a in args]
    problems = [] if any(a in ("--resume", "--problems") for a in args) else [
        "--suite", str(inputs / "wac3.epd")]
    out = [] if "--resume" in args else ["--out", str(tmp_path / "out")]
    refused_in_one_line(invoke("ablate", *problems, *given, *out), message, tmp_path / "out")


def test_no_problems_is_one_line(tmp_path: Path) -> None:
    result = invoke("ablate", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "needs problems" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_an_ablation_folder_is_not_started_twice(chess_ablation: tuple[Path, Result],
                                                 inputs: Path) -> None:
    out, _ = chess_ablation
    result = invoke("ablate", "--suite", str(inputs / "wac3.epd"), "--depth", "3",
                    "--out", str(out))
    assert result.exit_code == 2 and "already holds an ablation" in result.stderr


def test_harness_report_rebuilds_the_index_with_the_ablation(
        chess_ablation: tuple[Path, Result], tmp_path: Path) -> None:
    out, _ = chess_ablation
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    before = (copy / "index.html").read_text()
    result = invoke("report", str(copy), "--index-only")
    assert result.exit_code == 0, result.output
    after = (copy / "index.html").read_text()

    def section(page: str) -> str:
        return page[page.index("<h2>Ablation"):page.index("</table>")]
    assert section(after) == section(before) and section(after).count("<tr>") == 11
