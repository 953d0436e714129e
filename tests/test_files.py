"""Every output is written whole (harness/files.py): a write that fails at any point leaves
the old file as it was (or none), never a torn one or a temporary one, and its error names
the file."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import files
from harness.cli import cli
from harness.errors import HarnessError
from harness.files import write_whole, writing
from harness.report import drawing


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` but the lock, by relative path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".harness.lock"}


def test_a_whole_write_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    write_whole(path, "old\n")
    write_whole(path, b"new\n")
    assert path.read_bytes() == b"new\n" and os.listdir(tmp_path) == ["a.txt"]
    assert path.stat().st_mode & 0o777 == 0o644


def test_a_writer_that_fails_mid_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("old\n")
    with pytest.raises(ValueError), writing(path) as file:
        file.write("half a new ")
        raise ValueError("the writer broke")
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["a.csv"]


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_a_full_disk_at_any_step_names_the_file_and_leaves_the_old_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    path = tmp_path / "chart.svg"
    path.write_bytes(b"<svg>old</svg>")

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    if step == "write":
        with pytest.raises(HarnessError, match=f"^{path}: cannot write: No space left on device$"), \
                writing(path, binary=True) as file:
            file.write(b"<svg>")
            full()
    else:
        monkeypatch.setattr(files.os, step, full)
        with pytest.raises(HarnessError, match=f"^{path}: cannot write: No space left on device$"):
            write_whole(path, b"<svg>new</svg>")
    assert path.read_bytes() == b"<svg>old</svg>" and os.listdir(tmp_path) == ["chart.svg"]


def test_a_folder_that_cannot_be_written_is_named(tmp_path: Path) -> None:
    with pytest.raises(HarnessError, match=f"^{tmp_path / 'nowhere' / 'a.txt'}: cannot write: "):
        write_whole(tmp_path / "nowhere" / "a.txt", "text")


@pytest.fixture(scope="module")
def pristine_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished run (its report and charts drawn) for the whole module: a run takes
    seconds, a copy of it milliseconds."""
    out = tmp_path_factory.mktemp("pristine") / "run"
    result = CliRunner().invoke(cli, ["run", "--trees", "random:b=3,d=3,n=6,seed=1", "--depth", "1-3",
                                      "--variants", "alphabeta,pvs", "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def finished_run(pristine_run: Path, tmp_path: Path) -> Path:
    """A test's own copy of the finished run, which it may break."""
    out = tmp_path / "run"
    shutil.copytree(pristine_run, out, ignore=shutil.ignore_patterns(".harness.lock"))
    return out


REPORT_FILES = ("summary.csv", "comparison.csv", "charts/relative_nodes.png",
                "charts/relative_nodes.svg", "charts/nodes_by_depth.png", "charts/nodes_by_depth.svg",
                "charts/rates.png", "charts/rates.svg", "charts/scatter.png", "charts/scatter.svg",
                "report.html")
"""What ``harness report`` writes, in the order it writes them."""


@pytest.mark.parametrize("failing", range(len(REPORT_FILES)), ids=lambda i: REPORT_FILES[i])
def test_report_interrupted_at_any_file_leaves_every_file_whole(
        finished_run: Path, monkeypatch: pytest.MonkeyPatch, failing: int) -> None:
    """The rename of the ``failing``-th output fails (a full disk): the command says which
    file in one line, exit 2, and every file of the folder is as it was."""
    before = contents(finished_run)
    assert set(REPORT_FILES) <= set(before)
    replace = os.replace
    calls = []

    def rename(source: str, target: str | Path) -> None:
        calls.append(target)
        if len(calls) == failing + 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        replace(source, target)

    monkeypatch.setattr(files.os, "replace", rename)
    # Every chart drawn in this process, in order: a forked child's renames are not counted here.
    monkeypatch.setattr(drawing, "spare_cores", lambda: 0)
    result = CliRunner().invoke(cli, ["report", str(finished_run)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip() == (f"Error: {finished_run / REPORT_FILES[failing]}: cannot "
                                      "write: No space left on device")
    assert contents(finished_run) == before


@pytest.mark.parametrize("chart", ["relative_nodes", "rates", "scatter"])
def test_a_chart_that_cannot_be_written_is_named_wherever_it_is_drawn(
        finished_run: Path, monkeypatch: pytest.MonkeyPatch, chart: str) -> None:
    """A full disk for one chart's file, whichever process draws it (this one, or a forked
    child whose chart is then redrawn here): the same one line naming it, exit 2, every file
    as it was."""
    before = contents(finished_run)
    replace = os.replace
    target = finished_run / "charts" / f"{chart}.png"

    def rename(source: str, to: str | Path) -> None:
        if Path(to) == target:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        replace(source, to)

    monkeypatch.setattr(files.os, "replace", rename)
    result = CliRunner().invoke(cli, ["report", str(finished_run)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip() == f"Error: {target}: cannot write: No space left on device"
    assert contents(finished_run) == before
    assert not [p for p in (finished_run / "charts").iterdir() if p.name.endswith(".tmp")]


LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
from harness.cli import cli
cli(sys.argv[2:])
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE and SIGXFSZ as on Linux")
def test_a_file_size_limit_leaves_no_chart_cut(finished_run: Path) -> None:
    """Under a file-size limit smaller than a chart, ``report`` stops at the first chart
    naming it ("File too large"); no chart is left cut at the limit."""
    before = contents(finished_run)
    largest = max(len(data) for name, data in before.items() if name.endswith(".png"))
    limit = largest // 2
    done = subprocess.run([sys.executable, "-c", LIMITED, str(limit), "report", str(finished_run)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith(f"Error: {finished_run / 'charts'}/") and line.endswith(
        ".png: cannot write: File too large"), line
    assert contents(finished_run) == before
