"""Honest under limits: a stopped search is never a result, a search stops when asked, and
"cross-checked" says how many answers were checked.

Each test here failed on the code before these rules: the summary ranked a search stopped
after one node first ("100.0% fewer nodes"), called 15 stopped searches cross-checked, a
--jobs 1 search ignored Ctrl-C and SIGTERM, and harness tree filled memory without a word.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.games.registry import load_problems
from harness.report.answers import check_answers
from harness.report.compare import compare, worse_rows
from harness.report.stopped import FINISHED, headline, stopped_mask
from harness.run.feasible import infeasible, minimal_tree

TREES = "random:b=3,d=4,n=6,seed=2,ordering=0.5,values=incremental,range=20"


def invoke(*args: str) -> object:
    return CliRunner().invoke(cli, list(args))


def run(tmp_path: Path, *args: str, name: str = "run") -> tuple[str, Path]:
    out = tmp_path / name
    result = CliRunner().invoke(cli, ["run", *args, "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output, out


def test_a_search_stopped_by_its_open_limit_is_not_ranked(tmp_path: Path) -> None:
    output, out = run(tmp_path, "--problems", TREES, "--variants", "alphabeta,sss:max_open=1",
                      "--depth", "4")
    assert output.startswith("STOPPED: 6 of 12 searches stopped before their end (max-open on 6)")
    assert "fewest nodes" not in output
    assert "not ranked:   sss:max_open=1  stopped on 6 of 6 problems" in output
    table = pd.read_csv(out / "comparison.csv")
    row = table[table["variant"] == "sss:max_open=1"].iloc[0]
    assert (row["stopped"], row["stopped_b"], row["stopped_a"]) == (6, 6, 0)
    assert pd.isna(row["ratio"]) and not row["significant"]
    assert row["verdict"].startswith("stopped before the end: sss:max_open=1 on 6 of 6 problems")
    summary = pd.read_csv(out / "summary.csv").set_index("variant")
    assert summary.loc["sss:max_open=1", "stopped"] == 6 and summary.loc["alphabeta", "stopped"] == 0
    assert pd.isna(summary.loc["sss:max_open=1", "ratio"])
    page = (out / "report.html").read_text()
    assert "STOPPED: 6 of 12 searches stopped before their end" in page


def test_searches_stopped_at_the_node_limit_are_neither_compared_nor_checked(tmp_path: Path) -> None:
    output, out = run(tmp_path, "--problems", TREES, "--variants", "alphabeta,pvs,mtdf",
                      "--depth", "4", "--max-nodes", "5")
    assert output.startswith("STOPPED: 18 of 18 searches stopped before their end (max-nodes on 18)")
    assert "as many nodes" not in output and "fewest nodes" not in output
    assert ("answers not cross-checked: no question had two exact answers (18 answers: their "
            "search stopped)") in output
    shown = invoke("show", str(out))
    assert "STOPPED: 18 of 18" in shown.output  # type: ignore[attr-defined]


def test_a_gate_never_passes_on_a_stopped_search(tmp_path: Path) -> None:
    """compare --fail-if-worse: a ratio over the finished problems alone would pass; a
    stopped search fails the gate, named."""
    result = CliRunner().invoke(cli, ["compare", "alphabeta", "pvs", "--problems", TREES,
                                      "--depth", "4", "--max-nodes", "30", "--no-progress",
                                      "--out", str(tmp_path / "c"), "--fail-if-worse", "1000"])
    assert result.exit_code == 1, result.output
    assert "no ratio can meet the limit of 1000%" in result.output
    assert "Traceback" not in result.output


def test_diff_gives_no_ratio_where_a_search_stopped(tmp_path: Path) -> None:
    _, old = run(tmp_path, "--problems", TREES, "--variants", "alphabeta", "--depth", "4",
                 name="old")
    _, new = run(tmp_path, "--problems", TREES, "--variants", "alphabeta", "--depth", "4",
                 "--max-nodes", "30", name="new")
    result = CliRunner().invoke(cli, ["diff", str(old), str(new), "--fail-if-worse", "1000",
                                      "--allow-disagreement"])
    assert result.exit_code == 1, result.output
    assert "searches stopped before their end: no ratio can meet the limit" in result.output
    plain = CliRunner().invoke(cli, ["diff", str(old), str(old / ".." / "new")])
    assert "stopped" in plain.output and "Traceback" not in plain.output


def rows(**columns: list[object]) -> pd.DataFrame:
    n = len(next(iter(columns.values())))
    base: dict[str, list[object]] = {"game": ["random"] * n, "suite": ["s"] * n,
                                     "tt_deep_cutoffs": [0] * n}
    return pd.DataFrame({**base, **columns})


def test_the_answer_check_counts_what_it_left_out() -> None:
    frame = rows(problem_id=["1", "1", "1", "2", "2"], depth=[3] * 5,
                 variant=["alphabeta", "pvs", "mtdf", "alphabeta", "pvs"],
                 score=[5, 5, None, 7, None], bound=["exact", "exact", "none", "exact", "none"],
                 status=["ok", "ok", "max-nodes", "ok", "max-nodes"], nodes=[10] * 5)
    checked = check_answers(frame)
    assert (checked.questions, checked.answers, checked.stopped, checked.alone) == (1, 2, 2, 1)
    assert checked.note() == ("answers cross-checked: 2 of 5 answers (3 exact variants agree on "
                              "1 (problem, depth) pair); not checked: 2 answers: their search "
                              "stopped; 1 answer: no other exact answer to the same question")


def test_a_rechecked_deeper_answer_is_checked() -> None:
    frame = rows(problem_id=["1", "1"], depth=[4, 4], variant=["alphabeta", "pvs"],
                 score=[3, 9], bound=["exact", "exact"], status=["ok", "ok"], nodes=[5, 5])
    frame["tt_deep_cutoffs"] = [0, 2]
    alone = check_answers(frame)
    assert (alone.questions, alone.deeper, alone.alone) == (0, 1, 1)
    table_free = rows(problem_id=["1"], depth=[4], variant=["alphabeta without a table (re-check)"],
                      score=[3], bound=["exact"], status=["ok"], nodes=[40])
    rechecked = check_answers(frame, rechecks=table_free)
    assert (rechecked.questions, rechecked.deeper, rechecked.deeper_differ) == (1, 0, 1)
    assert "1 hold the deeper entry's value instead" in rechecked.note()
    frame.loc[1, "score"] = 3
    assert check_answers(frame, rechecks=table_free).deeper_agree == 1
    stopped = table_free.assign(status="max-nodes")
    assert check_answers(frame, rechecks=stopped).deeper == 1


def test_stopped_means_any_status_but_a_finished_one() -> None:
    frame = pd.DataFrame({"status": ["ok", "pass-cap", "max-nodes", "max-open", "", None]})
    assert stopped_mask(frame).tolist() == [False, False, True, True, False, False]
    assert set(FINISHED) == {"ok", "pass-cap"}
    assert headline(frame).startswith("STOPPED: 2 of 6 searches")
    assert headline(pd.DataFrame({"nodes": [1]})) == ""


def test_compare_pairs_a_stopped_baseline_too() -> None:
    frame = rows(problem_id=["1", "1", "2", "2"], depth=[2] * 4,
                 variant=["alphabeta", "pvs"] * 2, score=[1, 1, None, 4],
                 bound=["exact", "exact", "none", "exact"],
                 status=["ok", "ok", "max-nodes", "ok"], nodes=[10, 8, 50, 7])
    table = compare(frame, "alphabeta", ["pvs"]).table
    row = table.iloc[0]
    assert (row["n"], row["stopped"], row["stopped_a"], row["stopped_b"]) == (1, 1, 1, 0)
    assert "alphabeta (the baseline) on 1 of 2 problems" in row["verdict"]
    assert len(worse_rows(compare(frame, "alphabeta", ["pvs"]), 50.0)) == 1


def test_the_minimal_tree_estimate_warns_of_a_run_that_cannot_finish(tmp_path: Path) -> None:
    assert minimal_tree(2, 4) == 7 and minimal_tree(3, 3) == 9 + 3 - 1
    result = CliRunner().invoke(cli, ["run", "--suite", "bench.epd", "--limit", "1",
                                      "--depth", "99", "--max-nodes", "100", "--variants",
                                      "alphabeta", "--no-progress", "--out", str(tmp_path / "x")])
    assert result.exit_code == 0, result.output
    assert "even a perfectly ordered" not in result.output      # a node limit bounds it
    problem = load_problems("chess:bench.epd", False).problems[0]       # 47 moves at its root
    lines = infeasible([problem], (99,), None)
    assert len(lines) == 1 and "--depth 99 on bench.epd" in lines[0] and "10^84" in lines[0]
    assert infeasible([problem], (6,), None) == []
    assert infeasible([problem], (99,), 1000) == []


def test_harness_tree_refuses_a_trace_it_cannot_hold(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["tree", "--suite", "bench.epd", "--variant", "alphabeta",
                                      "--depth", "7"])
    assert result.exit_code == 2, result.output
    assert "passed 50,000 nodes, more than a trace can show or hold" in result.output
    too_many = CliRunner().invoke(cli, ["tree", "--suite", "bench.epd", "--variant", "alphabeta",
                                        "--depth", "3", "--max-nodes", "600000"])
    assert too_many.exit_code == 2 and "draws at most 500,000" in too_many.output
    first = CliRunner().invoke(cli, ["tree", "--suite", "bench.epd", "--variant", "alphabeta",
                                     "--depth", "7", "--max-nodes", "200"])
    assert first.exit_code == 0 and "stopped at the node limit" in first.output


def harness_process(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "harness", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONWARNINGS": "ignore"})


def signalled(process: subprocess.Popen[str], sign: int, after: float,
              started: Path | None = None) -> tuple[int, str, float]:
    """Send ``sign`` once the search is under way (``started`` exists, then ``after``
    seconds: a loaded machine may take seconds to import and plan); the exit code, the
    output and how long the process took to end after it."""
    deadline = time.monotonic() + 120
    while started is not None and not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(after)
    sent = time.monotonic()
    process.send_signal(sign)
    output, _ = process.communicate(timeout=60)
    return process.returncode, output, time.monotonic() - sent


@pytest.mark.parametrize(("problem", "variant", "sign", "code"), [
    ("chess:bench.epd", "pvs", signal.SIGINT, 130),           # the mypyc frame, compiled board
    ("connect4:4", "alphabeta", signal.SIGTERM, 143),          # the C engine where built
], ids=["python-frame-ctrl-c", "c-engine-sigterm"])
def test_a_jobs_1_search_stops_when_asked(tmp_path: Path, problem: str, variant: str,
                                          sign: int, code: int) -> None:
    """A search that cannot end (depth 99, no limit) stops on Ctrl-C or SIGTERM with the
    resume line (the time it takes is measured in the notes, not asserted: machines vary;
    before, only SIGKILL ended it)."""
    out = tmp_path / "deep"
    process = harness_process("run", "--problems", problem, "--limit", "1", "--variants",
                              variant, "--depth", "99", "--jobs", "1", "--no-progress",
                              "--out", str(out))
    returncode, output, _ = signalled(process, sign, after=1.0, started=out / "run.json")
    assert returncode == code, output
    assert f"finish with: harness run --resume {out}" in output
    assert "Traceback" not in output


def test_an_interrupted_run_resumes_to_its_end(tmp_path: Path) -> None:
    out = tmp_path / "run"
    process = harness_process("run", "--suite", "bench.epd", "--limit", "8", "--variants",
                              "alphabeta,pvs", "--depth", "5", "--jobs", "1", "--no-progress",
                              "--out", str(out))
    results = out / "results.csv"
    deadline = time.monotonic() + 120
    while (not results.exists() or len(results.read_text().splitlines()) < 2) \
            and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    if process.poll() is not None:
        pytest.skip("the run ended before it could be interrupted")
    returncode, output, _ = signalled(process, signal.SIGINT, after=0.0)
    assert returncode == 130, output
    kept = pd.read_csv(results)
    assert 0 < kept["problem_id"].nunique() < 8
    resumed = CliRunner().invoke(cli, ["run", "--resume", str(out), "--no-progress"])
    assert resumed.exit_code == 0, resumed.output
    finished = pd.read_csv(results)
    assert len(finished) == 8 * 2 and finished["status"].eq("ok").all()
