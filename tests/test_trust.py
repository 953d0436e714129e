"""Trust under misuse: one writer per folder, workers that die with their parent, damaged
results read as far as they are whole, interrupts that say how to finish."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness import cli as cli_module
from harness import cli_reproduce
from harness.cli import cli
from harness.errors import HarnessError
from harness.lock import hold_folder, reading_folder
from harness.results import RESULTS_FILE, RUN_FILE, load_results
from harness.run import experiment
from harness.run.executors import Execution, run_jobs, start_workers
from harness.run.experiment import run_default, run_experiment
from harness.run.plan import ExperimentConfig
from harness.run.progress import Listener

SLOW_TREES = "random:b=6,d=7,n=60,seed=3,ordering=0.8"
"""Trees that take a while (tens of seconds with every core variant), to act mid-run."""
posix_only = pytest.mark.skipif(os.name != "posix", reason="signals and /proc")


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def start_run(out: Path, *extra: str) -> subprocess.Popen[str]:
    """A real ``harness run`` process on :data:`SLOW_TREES`, once its rows file exists."""
    process = subprocess.Popen([sys.executable, "-m", "harness", "run", "--trees", SLOW_TREES,
                                "--variants", "core", "--no-progress", "--out", str(out), *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out / RESULTS_FILE).exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    return process


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate()


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@posix_only
def test_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = start_run(out)
    try:
        second = subprocess.run([sys.executable, "-m", "harness", "run", "--resume", str(out),
                                 "--no-progress"], capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        line = one_line(second.stderr)
        assert "another harness process" in line and f"pid {first.pid}" in line
        assert first.poll() is None                 # the first goes on, alone
    finally:
        stop(first)
    # Killed outright, the first holds no lock any more: the resume may take over.
    assert subprocess.run([sys.executable, "-m", "harness", "run", "--resume", str(out),
                           "--no-progress", "--jobs", "2"], capture_output=True,
                          timeout=300).returncode == 0
    assert len(load_results(out)) == 60 * 10


def test_every_command_that_writes_a_run_folder_takes_its_lock(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--trees", "random:b=2,d=3,n=3", "--variants", "alphabeta,pvs",
                  "--out", str(out)).exit_code == 0
    with hold_folder(out, ["harness", "run", "--resume", str(out)]):
        for args in (["run", "--resume", str(out)], ["report", str(out)],
                     ["compare", "alphabeta", "pvs", "--run", str(out)],
                     ["run", "--trees", "random:b=2,d=2", "--out", str(out)]):
            result = invoke(*args)
            assert result.exit_code == 2, args
            assert "another harness process" in result.output
            assert f"pid {os.getpid()}" in result.output and "--resume" in result.output
    assert invoke("report", str(out)).exit_code == 0      # released with the block


def test_a_comparison_of_a_run_elsewhere_only_reads_it(finished_run: Path, tmp_path: Path) -> None:
    """compare --run DIR --out ELSEWHERE writes nothing in DIR, not even its lock (it takes a
    shared lock through a read-only handle): it is refused while a writer holds DIR, and
    readers do not refuse each other."""
    lock = finished_run / ".harness.lock"
    before = {path: path.read_bytes() for path in finished_run.rglob("*") if path.is_file()}
    args = ["compare", "alphabeta", "pvs", "--run", str(finished_run)]
    result = invoke(*args, "--out", str(tmp_path / "elsewhere"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "elsewhere" / "compare.csv").exists()
    assert {path: path.read_bytes() for path in finished_run.rglob("*") if path.is_file()} == before
    lock.chmod(0o444)                                           # read-only: still read
    with reading_folder(finished_run), reading_folder(finished_run):
        assert invoke(*args, "--out", str(tmp_path / "again")).exit_code == 0
        refused = invoke("report", str(finished_run))          # a writer waits for readers
        assert refused.exit_code == 2 and "another harness process is using" in refused.output
    with hold_folder(finished_run, ["harness", "run", "--resume", str(finished_run)]):
        result = invoke(*args, "--out", str(tmp_path / "during"))
        assert result.exit_code == 2
        assert "another harness process is writing this folder" in result.output
        assert f"pid {os.getpid()}" in result.output
    assert not (tmp_path / "during" / "compare.csv").exists()


def children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            except OSError:
                continue
            if int(parent) == pid and state != "Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def assert_workers_die_with(process: subprocess.Popen[str], workers: list[int]) -> None:
    """Kill ``process`` outright; its ``workers`` must be gone within 10 seconds."""
    process.kill()
    process.wait()
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(w) for w in workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_workers_exit_when_their_parent_is_killed(tmp_path: Path) -> None:
    process = start_run(tmp_path / "run", "--jobs", "2")
    try:
        deadline = time.monotonic() + 60
        while len(workers := children(process.pid)) < 2:
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        assert_workers_die_with(process, workers)
    finally:
        stop(process)


@pytest.fixture(scope="module")
def pristine_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished run for the whole module: a run takes seconds (its charts), a copy of
    it milliseconds."""
    out = tmp_path_factory.mktemp("pristine") / "run"
    assert invoke("run", "--trees", "random:b=3,d=3,n=6,seed=1", "--variants", "alphabeta,pvs",
                  "--depth", "2-3", "--out", str(out)).exit_code == 0
    return out


@pytest.fixture
def finished_run(pristine_run: Path, tmp_path: Path) -> Path:
    """A test's own copy of the finished run, which it may tear."""
    out = tmp_path / "run"
    shutil.copytree(pristine_run, out)
    return out


READERS = (["report"], ["show"], ["compare", "alphabeta", "pvs", "--run"])


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_results_file_torn_mid_row_is_read_up_to_its_last_whole_row(finished_run: Path,
                                                                      command: list[str]) -> None:
    path = finished_run / RESULTS_FILE
    before = load_results(finished_run).drop(columns="time_s")
    whole = path.read_bytes()
    path.write_bytes(whole[:len(whole) - 40])                   # cut inside the last row
    runner = CliRunner()
    result = runner.invoke(cli, [*command, str(finished_run)])
    assert result.exit_code == 0, result.output + result.stderr
    warning = one_line(result.stderr)
    assert warning.startswith(f"warning: {path}: read 23 complete rows, skipped a last line torn")
    assert f"harness run --resume {finished_run}" in warning
    assert invoke("run", "--resume", str(finished_run)).exit_code == 0      # which repairs it
    pd.testing.assert_frame_equal(load_results(finished_run).drop(columns="time_s"), before)


@pytest.mark.parametrize("size", [20, 0])
@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_results_file_without_a_whole_row_is_one_line(finished_run: Path, command: list[str],
                                                        size: int) -> None:
    path = finished_run / RESULTS_FILE
    path.write_bytes(path.read_bytes()[:size])
    result = CliRunner().invoke(cli, [*command, str(finished_run)])
    assert result.exit_code == 2
    line = one_line(result.stderr)
    assert f"{path}: no complete result rows" in line
    assert f"harness run --resume {finished_run}" in line
    assert isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_results_file_with_only_its_header_says_so(finished_run: Path,
                                                     command: list[str]) -> None:
    path = finished_run / RESULTS_FILE
    path.write_text(path.read_text().splitlines(keepends=True)[0])
    result = CliRunner().invoke(cli, [*command, str(finished_run)])
    assert result.exit_code == 2
    assert one_line(result.stderr) == (f"Error: {path}: a header and no rows (no problem "
                                       f"finished); finish or repair it with: harness run "
                                       f"--resume {finished_run}")


def test_rows_with_garbage_counts_are_skipped_not_fatal(finished_run: Path) -> None:
    path = finished_run / RESULTS_FILE
    lines = path.read_text().splitlines(keepends=True)
    lines[3] = lines[3].replace(",ok,", ",ok,x", 1)             # a count that is not a number
    path.write_text("".join(lines))
    with pytest.warns(UserWarning, match="skipped 1 rows with a count that is not a number"):
        frame = load_results(finished_run)
    assert len(frame) == 23 and frame["nodes"].dtype == "int64"


def test_an_unreachable_scheduler_leaves_no_folder(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    execution = Execution(executor="dask", scheduler="tcp://127.0.0.1:1", connect_timeout=1)
    config = ExperimentConfig(problems=("random:b=2,d=2,n=2",), variants="alphabeta")
    with pytest.raises(HarnessError, match=re.escape("--scheduler tcp://127.0.0.1:1: cannot connect")):
        run_experiment(config, out, execution=execution)
    assert not out.exists()


class Interrupter(Listener):
    """Ctrl-C after ``after`` problems."""

    def __init__(self, after: int) -> None:
        self.after = after

    def problem_done(self) -> None:
        self.after -= 1
        if self.after == 0:
            raise KeyboardInterrupt


def test_ctrl_c_in_compare_says_the_command_that_finishes_the_comparison(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["compare", "alphabeta", "pvs", "negascout", "--trees", "random:b=3,d=4,n=8,seed=2",
            "--seed", "3"]
    whole = invoke(*args, "--out", str(tmp_path / "whole"))
    assert whole.exit_code == 0
    out = tmp_path / "cut"
    monkeypatch.setattr(cli_module, "progress_for", lambda options: Interrupter(3))
    result = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert result.exit_code == 130
    line = one_line(result.stderr)
    finish = f"harness compare alphabeta pvs negascout --resume {out} --seed 3"
    assert line.endswith(f"finish with: {finish}") and "saved in" in line
    monkeypatch.undo()
    finished = invoke(*finish.split()[1:])
    assert finished.exit_code == 0, finished.output
    assert (out / "compare.csv").read_text() == (tmp_path / "whole" / "compare.csv").read_text()
    assert finished.stdout.split("\nwrote")[0] == whole.stdout.split("\nwrote")[0]


def test_ctrl_c_in_reproduce_keeps_what_was_measured_and_resume_finishes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = tmp_path / "whole"
    assert invoke("reproduce", "--quick", "--only", "1", "--out", str(whole)).exit_code == 0
    out = tmp_path / "cut"
    monkeypatch.setattr(cli_reproduce, "progress_for", lambda options: Interrupter(5))
    result = CliRunner().invoke(cli, ["reproduce", "--quick", "--only", "1",
                                                      "--out", str(out)])
    assert result.exit_code == 130
    line = one_line(result.stderr)
    assert line.endswith(f"finish with: harness reproduce --resume {out}")
    assert len((out / "measured.jsonl").read_text().splitlines()) == 5
    monkeypatch.undo()
    again = invoke("reproduce", "--quick", "--out", str(out))
    assert again.exit_code == 2 and "already holds a reproduction" in again.output
    assert invoke("reproduce", "--resume", str(out)).exit_code == 0

    def claims(folder: Path) -> list[dict[str, object]]:
        return [{k: v for k, v in c.items() if k != "seconds"}
                for c in json.loads((folder / "claims.json").read_text())["claims"]]

    assert claims(out) == claims(whole)
    assert not (out / "measured.jsonl").exists()
    assert invoke("reproduce", "--resume", str(out)).exit_code == 2        # nothing left to do


def test_a_dask_run_beside_another_cluster_warns_of_nothing(tmp_path: Path) -> None:
    """Dask's default HTTP port taken (another cluster, another run): the local cluster's
    scheduler takes a free one without a word (it once warned in three lines)."""
    pytest.importorskip("distributed")
    import contextlib
    import socket

    with socket.socket() as taken:
        with contextlib.suppress(OSError):      # taken already, by something else: the same
            taken.bind(("127.0.0.1", 8787))
        taken.listen()
        done = subprocess.run([sys.executable, "-m", "harness", "run", "--problems",
                               "random:b=3,d=3,n=4,seed=1", "--variants", "alphabeta",
                               "--depth", "3", "--executor", "dask", "--jobs", "2", "--no-progress",
                               "--out", str(tmp_path / "run")],
                              capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


@posix_only
def test_ctrl_c_on_dask_prints_no_worker_traceback(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    process = start_run(out, "--executor", "dask", "--jobs", "2")
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130
    assert one_line(err).endswith(f"finish with: harness run --resume {out}")


@posix_only
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_says_how_to_resume_as_ctrl_c_does(tmp_path: Path, jobs: str) -> None:
    """SIGTERM (a kill, a cancelled CI job) once ended a run with "Terminated" and nothing
    else: now it goes Ctrl-C's way, with the signal's own exit code 143, and its workers go."""
    out = tmp_path / "run"
    process = start_run(out, "--jobs", jobs)
    time.sleep(0.5)
    workers = children(process.pid)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 143
    line = one_line(err)
    assert line.startswith(f"terminated: every finished problem is saved in {out}/results.csv")
    assert line.endswith(f"finish with: harness run --resume {out}")
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its parent"
        time.sleep(0.1)


def test_sigterm_in_compare_and_reproduce_goes_the_ctrl_c_way(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The handler is installed by compare and reproduce too (and removed afterwards)."""

    class Terminator(Listener):
        def problem_done(self) -> None:
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(cli_module, "progress_for", lambda options: Terminator())
    monkeypatch.setattr(cli_reproduce, "progress_for", lambda options: Terminator())
    before = signal.getsignal(signal.SIGTERM)
    out = tmp_path / "cmp"
    result = CliRunner().invoke(cli, ["compare", "alphabeta", "pvs", "--trees",
                                      "random:b=2,d=3,n=3", "--out", str(out)])
    assert result.exit_code == 143
    assert one_line(result.stderr).endswith(
        f"finish with: harness compare alphabeta pvs --resume {out}")
    result = CliRunner().invoke(cli, ["reproduce", "--quick", "--only", "1", "--out",
                                      str(tmp_path / "rep")])
    assert result.exit_code == 143
    assert one_line(result.stderr).startswith("terminated: every finished measurement is saved")
    assert signal.getsignal(signal.SIGTERM) == before

    def terminated_while_planning(*args: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(cli_module, "make_config", terminated_while_planning)
    result = CliRunner().invoke(cli, ["run", "--trees", "random:b=2,d=2", "--out",
                                      str(tmp_path / "run")])
    assert result.exit_code == 143 and one_line(result.stderr) == "terminated"


def where(_: int) -> int:
    return os.getpid()


def test_no_more_workers_start_than_there_are_jobs() -> None:
    with start_workers(Execution(jobs=8), 1) as workers:
        assert not workers.parallel                         # one job runs here
        assert dict(workers.map(where, [(0,)])) == {0: os.getpid()}
    with start_workers(Execution(jobs=8), 2) as workers:
        list(workers.map(where, [(0,), (1,)]))
        assert len(workers.pool._processes) == 2  # type: ignore[attr-defined]
    assert len(set(dict(run_jobs(where, [(i,) for i in range(6)], Execution(jobs=2))).values())) <= 2


def test_an_interrupted_default_run_resumes_from_its_folder(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = tuple((name, ExperimentConfig(problems=(f"random:b=2,d=3,n=3,seed={seed}",),
                                         variants="alphabeta,pvs"))
                 for seed, name in enumerate(("trees", "chess")))
    monkeypatch.setattr(experiment, "DEFAULT_RUNS", tiny)
    whole, _ = run_default(tmp_path / "whole")
    out = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run_default(out, progress=Interrupter(2))
    assert experiment.is_default_folder(out) and not (out / "chess" / RUN_FILE).exists()
    resumed, index = run_default(out, resume=True)
    assert index.exists()
    for a, b in zip(whole, resumed, strict=True):
        columns = [c for c in a.results.columns if c != "time_s"]
        pd.testing.assert_frame_equal(a.results[columns], b.results[columns])


FORK_SERVER_PARENT = """
import sys, time
from multiprocessing import get_context
from harness.run import executors
executors.get_context = lambda: get_context("forkserver")   # Python 3.14's default on Linux

def nap(i):
    time.sleep(60)

if __name__ == "__main__":
    with executors.start_workers(executors.Execution(jobs=2), 2) as workers:
        print("started", flush=True)
        list(workers.map(nap, [(0,), (1,)]))
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_workers_of_a_fork_server_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(FORK_SERVER_PARENT)
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == "started\n"
        deadline = time.monotonic() + 30
        while len(workers := [w for c in children(process.pid) for w in children(c)]) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert_workers_die_with(process, workers)       # the watcher thread, within seconds
    finally:
        stop(process)
