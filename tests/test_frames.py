"""The frame is part of the record, and time is a measure within one frame.

Each search's frame (compiled, python, pure-python, best-first) is a column of results.csv;
a run whose variants ran in several says which in its summary, its tables and its report;
``compare``, ``diff`` and ``show`` compare time per search with the paired intervals nodes
have (``--measure time``) and refuse it across frames or on files that recorded none.
Which variant runs in which frame is read from the rows: only SSS*'s (best-first) is fixed,
and alpha-beta and alpha-beta fail-soft share their loop family, so one frame.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.errors import HarnessError
from harness.report import stats
from harness.report.compare import compare
from harness.report.frames import NOT_ALGORITHMS, check_one_frame, frames_line, frames_text
from harness.report.measures import TIME, find_measure, microseconds
from harness.results import ROW_COLUMNS, SCHEMA_VERSION, UNKNOWN_FRAME, load_results
from harness.search.run import FRAMES

TREES = "random:b=3,d=4,n=6,seed=2"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def run(out: Path, variants: str, depth: str = "3-4") -> str:
    result = invoke("run", "--trees", TREES, "--variants", variants, "--depth", depth,
                    "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A run in two frames (SSS* is best-first), and what it printed."""
    out = tmp_path_factory.mktemp("frames") / "mixed"
    return run(out, "alphabeta,alphabeta-fs,sss"), out


@pytest.fixture(scope="module")
def one_frame(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run whose variants share one frame."""
    out = tmp_path_factory.mktemp("frames") / "one"
    run(out, "alphabeta,alphabeta-fs")
    return out


def frame_of(run_dir: Path, variant: str) -> str:
    frames = load_results(run_dir).groupby("variant")["frame"].unique()[variant]
    assert len(frames) == 1
    return str(frames[0])


def rewrite(run_dir: Path, change: dict[str, object] | None = None, drop_frame: bool = False,
            seconds: float = 1.0) -> None:
    """Edit a copied run's results.csv: set columns of alphabeta's rows (``change``), scale
    its times, or write it as schema version 2 wrote it (no frame column)."""
    path = run_dir / "results.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for row in rows:
        if row["variant"] == "alphabeta":
            row.update({k: str(v) for k, v in (change or {}).items()})
            row["time_s"] = f"{float(row['time_s']) * seconds:.6f}"
    columns = [c for c in rows[0] if not (drop_frame and c == "frame")]
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    if drop_frame:
        info = json.loads((run_dir / "run.json").read_text())
        info.update(schema_version=2, columns=columns)
        (run_dir / "run.json").write_text(json.dumps(info))


def copy(run_dir: Path, dest: Path, **edits: object) -> Path:
    shutil.copytree(run_dir, dest)
    rewrite(dest, **edits)  # type: ignore[arg-type]
    return dest


def refused(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for said in words:
        assert said in result.stderr, result.stderr


# -- the record -------------------------------------------------------------------------

def test_the_frame_column_is_written_and_read_back(mixed: tuple[str, Path]) -> None:
    _, out = mixed
    header = (out / "results.csv").read_text().splitlines()[0].split(",")
    assert header[:len(ROW_COLUMNS)] == list(ROW_COLUMNS) and header[-1] == "frame"
    assert json.loads((out / "run.json").read_text())["schema_version"] == SCHEMA_VERSION == 4
    rows = load_results(out)
    assert set(rows["frame"]) <= set(FRAMES)
    assert frame_of(out, "sss") == "best-first"
    assert frame_of(out, "alphabeta") == frame_of(out, "alphabeta-fs") != "best-first"
    summary = pd.read_csv(out / "summary.csv")
    assert summary.groupby("variant")["frame"].unique()["sss"].tolist() == ["best-first"]


def test_a_run_in_several_frames_says_which_in_its_summary(mixed: tuple[str, Path]) -> None:
    output, out = mixed
    ran = frame_of(out, "alphabeta")
    said = (f"FRAMES: the variants ran in different frames (alphabeta, alphabeta-fs: {ran}; "
            f"sss: best-first): {NOT_ALGORITHMS}")
    assert output.splitlines()[0] == said
    shown = invoke("show", str(out))
    assert shown.exit_code == 0 and said in shown.output
    header = shown.output.splitlines()[1].split()
    assert header[-2:] == ["time_s", "frame"]               # the frame beside the time
    assert "<th>frame</th>" in (out / "report.html").read_text().replace(" ", "")


def test_one_frame_is_not_said_again_and_a_frame_unknown_is(one_frame: Path) -> None:
    shown = invoke("show", str(one_frame))
    assert shown.exit_code == 0 and "FRAMES" not in shown.output and "frame" not in shown.output
    rows = load_results(one_frame)
    assert frames_line(rows) == ""
    assert frames_line(rows.drop(columns="frame")) == ""      # rows made by hand: nothing said
    assert frames_line(rows.assign(frame="")).startswith(f"FRAMES: {UNKNOWN_FRAME} for every")
    assert frames_text(["python", "compiled", "python"]) == "python+compiled"
    assert frames_text(["python", ""]) == frames_text([float("nan")]) == UNKNOWN_FRAME


def test_a_results_file_of_schema_2_loads_and_says_frame_unknown(mixed: tuple[str, Path],
                                                               tmp_path: Path) -> None:
    _, out = mixed
    old = copy(out, tmp_path / "old", drop_frame=True)
    rows = load_results(old)
    assert (rows["frame"] == "").all()
    pd.testing.assert_frame_equal(rows.drop(columns="frame"),
                                  load_results(out).drop(columns="frame"))
    shown = invoke("show", str(old))
    assert shown.exit_code == 0, shown.output
    assert f"FRAMES: {UNKNOWN_FRAME} for every search" in shown.output
    assert shown.output.splitlines()[2].endswith(UNKNOWN_FRAME)
    nodes = invoke("compare", "alphabeta", "sss", "--run", str(old), "--out", str(tmp_path / "c"))
    assert nodes.exit_code == 0, nodes.output
    assert "variant sss frame: frame unknown -> best-first (nodes compare; times cannot" in \
        invoke("diff", str(old), str(out)).output


# -- time as a measure ------------------------------------------------------------------

def test_compare_measures_time_with_paired_intervals(one_frame: Path, tmp_path: Path) -> None:
    result = invoke("compare", "alphabeta", "alphabeta-fs", "--run", str(one_frame),
                    "--measure", "time", "--out", str(tmp_path / "cmp"))
    assert result.exit_code == 0, result.output
    assert "per-problem time ratios (time per search)" in result.output
    assert "ms/search A" in result.output and "nodes/s B" in result.output
    assert "alphabeta-fs took " in result.output
    table = pd.read_csv(tmp_path / "cmp" / "compare.csv")
    row = table[table["depth"] == 4].iloc[0]
    assert row["measure"] == "time" and row["n"] == 6 and row["frame_a"] == row["frame_b"]
    rows = load_results(one_frame)
    at = rows[rows["depth"] == 4].sort_values("problem_id")
    a = microseconds(at.loc[at["variant"] == "alphabeta", "time_s"])
    b = microseconds(at.loc[at["variant"] == "alphabeta-fs", "time_s"])
    ratios = stats.ratios(a, b)
    assert row["ratio"] == pytest.approx(stats.geometric_mean(ratios))
    assert (row["ratio_low"], row["ratio_high"]) == pytest.approx(stats.bootstrap_interval(ratios))
    assert row["nodes_per_s_a"] == pytest.approx(row["nodes_a"] / row["time_a"])


def test_diff_measures_time_with_paired_intervals(mixed: tuple[str, Path], tmp_path: Path) -> None:
    _, out = mixed
    slower = copy(out, tmp_path / "slower", seconds=3.0)      # alphabeta three times as slow
    result = invoke("diff", str(out), str(slower), "--measure", "time", "--fail-if-worse", "50",
                    "--out", str(tmp_path / "diff.csv"))
    assert result.exit_code == 1, result.output
    table = pd.read_csv(tmp_path / "diff.csv")
    deepest = table[table["depth"] == 4].set_index("variant")
    row = deepest.loc["alphabeta"].to_dict()
    assert row["measure"] == "time" and (row["wins"], row["losses"]) == (0, 6)
    assert 2 < row["ratio_low"] <= row["ratio"] <= row["ratio_high"] < 4
    assert deepest.loc["sss", "ratio"] == 1.0                 # each in its own frame, unchanged
    assert "FAIL: alphabeta on" in result.stderr and "times OLD's time" in result.stderr
    assert "nodes/s OLD" in result.output


def test_show_measures_time_against_the_baseline(one_frame: Path) -> None:
    result = invoke("show", str(one_frame), "--measure", "time")
    assert result.exit_code == 0, result.output
    assert "s/search" in result.output and "nodes/s" in result.output
    assert "geometric mean of per-problem time ratios (time per search), 95% interval" in \
        result.output
    assert f"{frame_of(one_frame, 'alphabeta')} frame]" in result.output


def test_a_time_of_zero_is_one_microsecond() -> None:
    rows = pd.DataFrame([{"suite": "s", "problem_id": str(i), "variant": v, "depth": 2,
                          "nodes": 10, "time_s": t, "frame": "python"}
                         for i in range(3) for v, t in (("a", 0.0), ("b", 0.000003))])
    table = compare(rows, "a", ["b"], resamples=100, measure=TIME).table
    assert table.iloc[0]["ratio"] == pytest.approx(4.0)       # (3 + 1) / (0 + 1)
    assert np.array_equal(microseconds(pd.Series([0.0000004, 0.0000016])), [0, 2])


def test_check_one_frame_names_the_pair() -> None:
    pairs = pd.DataFrame({"frame_a": ["python", "python"], "frame_b": ["python", "compiled"]})
    with pytest.raises(HarnessError, match="pvs in the compiled frame \\(1 of 2 searches\\)"):
        check_one_frame(pairs, ["alphabeta", "pvs"], ("a", "b"))
    check_one_frame(pairs.iloc[:1], ["alphabeta", "pvs"], ("a", "b"))


# -- refusals ---------------------------------------------------------------------------

def test_time_across_frames_is_refused_everywhere(mixed: tuple[str, Path], tmp_path: Path) -> None:
    _, out = mixed
    ran = frame_of(out, "alphabeta")
    across = f"--measure time: alphabeta ran in the {ran} frame and sss in the best-first frame"
    refused(invoke("compare", "alphabeta", "sss", "--run", str(out), "--measure", "time",
                   "--out", str(tmp_path / "c")), across, NOT_ALGORITHMS)
    refused(invoke("show", str(out), "--measure", "time"), across)
    other = "compiled" if ran != "compiled" else "python"
    moved = copy(out, tmp_path / "moved", change={"frame": other})
    refused(invoke("diff", str(out), str(moved), "--measure", "time"),
            f"alphabeta in OLD ({out}) ran in the {ran} frame and alphabeta in NEW ({moved}) in "
            f"the {other} frame")
    assert invoke("diff", str(out), str(moved)).exit_code == 0         # nodes still compare


def test_a_run_made_for_a_refused_time_comparison_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "fresh"
    result = invoke("compare", "alphabeta", "sss", "--trees", TREES, "--depth", "2",
                    "--measure", "time", "--no-progress", "--out", str(out))
    refused(result, "--measure time: alphabeta ran in the",
            f"(the run is kept: harness compare alphabeta sss --run {out})")
    assert len(load_results(out)) == 12


def test_run_ranks_by_time_in_one_frame_and_keeps_a_refused_run(tmp_path: Path) -> None:
    """``harness run --measure time``: the summary by time per search where every variant
    ran in one frame; across frames, the summary by nodes, the folder named, then the
    refusal (exit 2), every row saved."""
    out = tmp_path / "timed"
    result = invoke("run", "--trees", TREES, "--variants", "alphabeta,pvs", "--depth", "3",
                    "--measure", "time", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "geometric mean of per-problem time ratios" in result.output
    assert "ms/search" in result.output
    mixed_out = tmp_path / "mixed"
    result = invoke("run", "--trees", TREES, "--variants", "alphabeta,sss", "--depth", "3",
                    "--measure", "time", "--no-progress", "--out", str(mixed_out))
    refused(result, "--measure time: alphabeta ran in the")
    assert f"(saved in {mixed_out})" in result.stdout and "fewer nodes" in result.stdout
    assert len(load_results(mixed_out)) == 12
    resumed = invoke("run", "--resume", str(out), "--measure", "time", "--no-progress")
    assert resumed.exit_code == 0, resumed.output


def test_time_on_a_file_without_frames_is_refused(mixed: tuple[str, Path], tmp_path: Path) -> None:
    _, out = mixed
    old = copy(out, tmp_path / "old", drop_frame=True)
    rerun = "re-run it to record its frame, or compare nodes"
    refused(invoke("compare", "alphabeta", "alphabeta-fs", "--run", str(old), "--measure", "time",
                   "--out", str(tmp_path / "c")), "alphabeta has no frame recorded", rerun)
    refused(invoke("diff", str(old), str(out), "--measure", "time"),
            f"alphabeta in OLD ({old}) has no frame recorded", rerun)
    refused(invoke("show", str(old), "--measure", "time"), rerun)


@pytest.mark.parametrize("command", [["show", "."], ["diff", ".", "."], ["run", "--trees", TREES],
                                     ["compare", "alphabeta", "pvs", "--run", "."]])
def test_an_unknown_measure_is_refused(command: list[str]) -> None:
    refused(invoke(*command, "--measure", "leaves"), "Invalid value for '--measure'")
    with pytest.raises(HarnessError, match="--measure leaves: not a measure"):
        find_measure("leaves")

