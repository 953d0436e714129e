"""Parallel and distributed runs, progress, interruption and resume: nothing lost, nothing changed."""

from __future__ import annotations

import gc
import io
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
from harness.games.base import Problem
from harness.games.chess.suite_files import project_positions
from harness.games.registry import find_game, load_problems
from harness.results import RESULTS_FILE
from harness.run.executors import Execution, collector_paused, run_jobs
from harness.run.experiment import resume_experiment, run_experiment
from harness.run.plan import ExperimentConfig
from harness.run.progress import Listener, Progress

ROOT = Path(__file__).resolve().parents[1]
SPEC = "random:b=5,d=5,n=12,seed=8,ordering=0.7,values=incremental,range=30"
CONFIG = ExperimentConfig(problems=(SPEC,), variants="alphabeta,pvs,negascout,mtdf",
                          depths=(3, 5))


def rows(run_dir: Path) -> pd.DataFrame:
    return pd.read_csv(run_dir / RESULTS_FILE).drop(columns="time_s")


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    out = tmp_path_factory.mktemp("serial") / "run"
    run_experiment(CONFIG, out, report=False)
    return rows(out)


def test_worker_processes_give_identical_rows(tmp_path: Path, serial: pd.DataFrame) -> None:
    run_experiment(CONFIG, tmp_path / "j2", report=False, execution=Execution(jobs=2))
    pd.testing.assert_frame_equal(rows(tmp_path / "j2"), serial)


def test_dask_cluster_gives_identical_rows(tmp_path: Path, serial: pd.DataFrame) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        execution = Execution(executor="dask", scheduler=cluster.scheduler_address)
        run_experiment(CONFIG, tmp_path / "dask", report=False, execution=execution)
    pd.testing.assert_frame_equal(rows(tmp_path / "dask"), serial)


def log_start(log: str, index: int) -> int:
    """A job that notes when it starts, then takes long enough for the order to show."""
    with open(log, "a") as out:
        out.write(f"{index}\n")
    time.sleep(0.3)
    return index * index


def test_the_costliest_jobs_start_first(tmp_path: Path) -> None:
    log = str(tmp_path / "starts")
    costs = [1.0, 5.0, 2.0, 9.0, 5.0, 0.0]
    arguments = [(log, i) for i in range(len(costs))]
    results = dict(run_jobs(log_start, arguments, Execution(jobs=2), lambda job: costs[job[1]]))
    assert results == {i: i * i for i in range(len(costs))}        # each result by its index
    started = [int(line) for line in Path(log).read_text().split()]
    assert set(started[:2]) == {3, 1}            # 9, then the first of the two 5s
    assert set(started[2:4]) == {4, 2} and set(started[4:]) == {0, 5}


def test_serial_runs_ask_no_estimate() -> None:
    def unwanted(job: tuple[int, int]) -> float:
        raise AssertionError("a serial run needs no start order")

    assert dict(run_jobs(divmod, [(7, 2), (9, 4)], Execution(), unwanted)) == {0: (3, 1), 1: (2, 1)}


def test_work_estimates_rank_bigger_problems_higher() -> None:
    small, big = (load_problems(f"random:b={b},d=4,n=1").problems[0] for b in (2, 6))
    assert 0 < work(small) < work(big)
    suite = project_positions() / "perft.epd"
    estimates = {p.problem_id: work(p) for p in load_problems(f"chess:{suite}").problems}
    assert estimates["start"] == 400 and estimates["kiwipete"] == 2039


def test_a_tree_files_estimate_is_its_size_known_since_planning(tmp_path: Path) -> None:
    copy = tmp_path / "textbook.json"
    copy.write_text((ROOT / "tests" / "data" / "textbook.json").read_text())
    [problem] = load_problems(f"tree:{copy}").problems
    size = float(find_game("tree").tree(problem).shape.nodes)  # type: ignore[attr-defined]
    copy.unlink()                       # the estimate must not read the file again
    assert work(problem) == size > 1


def work(problem: Problem) -> float:
    return find_game(problem.game).work(problem)


def test_the_collector_is_paused_while_searching_and_restored() -> None:
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()


def test_interrupt_then_resume_equals_an_uninterrupted_run(tmp_path: Path,
                                                           serial: pd.DataFrame) -> None:
    out = tmp_path / "run"

    class StopAfterFour(Listener):
        done = 0

        def problem_done(self) -> None:
            self.done += 1
            if self.done == 4:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_experiment(CONFIG, out, progress=StopAfterFour(), report=False)
    assert len(rows(out)) == 4 * 4 * 2                     # four finished problems kept
    with (out / RESULTS_FILE).open("a") as file:            # and a line torn mid-write
        file.write('"random:b=5,d=5,n=12,seed=8,ordering=0.7,values=incremental,range=30",4,alpha')
    resume_experiment(out, report=False)
    pd.testing.assert_frame_equal(rows(out), serial)


def test_sigkill_midway_then_resume(tmp_path: Path) -> None:
    spec = "random:b=6,d=6,n=24,seed=3,ordering=0.8,values=incremental,range=50"
    args = ["run", "--trees", spec, "--variants", "core", "--no-progress"]
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    # The reference without its report (the resumed run draws one): the same rows.
    run_experiment(ExperimentConfig(problems=(spec,), variants="core"), whole, report=False)
    process = subprocess.Popen([sys.executable, "-m", "harness", *args, "--out", str(killed)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = killed / RESULTS_FILE
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if results.exists() and results.read_text().count("\n") > 1 + 3 * 10:
            break                                           # three problems are in
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL
    partial = rows(killed)
    assert 0 < len(partial) < 24 * 10, "the kill must land midway"
    result = CliRunner().invoke(cli, ["run", "--resume", str(killed), "--no-progress"])
    assert result.exit_code == 0, result.output
    pd.testing.assert_frame_equal(rows(killed), rows(whole))
    assert (killed / "report.html").exists()


def test_resume_refuses_new_options(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_experiment(CONFIG, out, report=False)
    result = CliRunner().invoke(cli, ["run", "--resume", str(out), "--depth", "2"])
    assert result.exit_code == 2 and "drop --depth" in result.output
    result = CliRunner().invoke(cli, ["run", "--resume", str(out), "--jobs", "2", "--no-progress"])
    assert result.exit_code == 0, result.output               # nothing left: still fine


def test_max_nodes_is_recorded_not_lost(tmp_path: Path) -> None:
    config = ExperimentConfig(problems=("random:b=4,d=6,n=2,seed=1",),
                              variants="minimax,alphabeta", max_nodes=2000)
    frame = run_experiment(config, tmp_path / "run", report=False).results
    stopped = frame[frame["variant"] == "minimax"]
    assert (stopped["status"] == "max-nodes").all() and stopped["score"].isna().all()
    assert (stopped["nodes"] == 2001).all()          # the node that crossed the limit
    done = frame[frame["variant"] == "alphabeta"]
    assert (done["status"] == "ok").all()


def test_progress_lines_without_a_terminal() -> None:
    stream = io.StringIO()
    progress = Progress(stream, interval=3600)
    progress.phase("trees", 10, 40)
    for _ in range(10):
        progress.searched(4)
        progress.problem_done()
    progress.note("writing the report")
    progress.phase_done()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3                       # the phase begins, the report, the phase ends
    assert lines[0].startswith("progress: trees: 0/10 problems, 0/40 searches")
    assert lines[1] == "trees: writing the report"
    assert lines[2].startswith("progress: trees: 10/10 problems, 40/40 searches")
    assert "left 0:00:00" in lines[2]


def test_bad_execution_options(tmp_path: Path) -> None:
    for args, message in ((["--jobs", "0"], "needs at least 1"),
                          (["--scheduler", "tcp://x:1"], "--scheduler goes with --executor dask")):
        result = CliRunner().invoke(cli, ["run", "--trees", "random:b=2,d=2", *args,
                                          "--out", str(tmp_path / "x")])
        assert result.exit_code == 2 and message in result.output


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_ctrl_c_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    process = subprocess.Popen([sys.executable, "-m", "harness", "run", "--trees",
                                "random:b=6,d=6,n=40,seed=3", "--variants", "core",
                                "--no-progress", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out / RESULTS_FILE).exists():
        time.sleep(0.02)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert f"harness run --resume {out}" in err and "Traceback" not in err


def test_dask_missing_is_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)       # as if not installed
    result = CliRunner().invoke(cli, ["run", "--trees", "random:b=2,d=2", "--executor", "dask",
                                      "--no-progress", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "pip install 'gametree-harness[dask]'" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()                      # checked before starting
