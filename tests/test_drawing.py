"""A report's charts drawn in forked children (harness.report.drawing): the same bytes as
drawn here, a child that fails redrawn here, an error raised here as without children.

The forks run in a fresh single-threaded process (a test worker of pytest-xdist has
threads, where the harness itself never forks)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from harness.report.drawing import save_charts, spare_cores

SCRIPT = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from harness.report import charts
    from harness.report.drawing import save_charts

    parent = os.getpid()

    def chart(k, fail=None):
        def build():
            if fail == "always" or (fail == "child" and os.getpid() != parent):
                where = "a child" if os.getpid() != parent else "the parent"
                raise RuntimeError(f"chart {k} failed in {where}")
            with charts.chart_style():
                fig = charts.figure(4.0, 3.0)
                ax = fig.subplots()
                ax.plot([1, 2, 3], [k, k * k, k + 5], label=f"line {k}")
                ax.set_title(f"chart {k}")
                ax.legend()
            return fig
        return build

    out, fail = Path(sys.argv[1]), sys.argv[2]
    drawn = [(f"c{k}", chart(k, fail if k == 2 else None)) for k in range(3)]
    save_charts(drawn, out, spare=2)
    print("drawn", os.getpid() == parent)
""")


def forked(out: Path, fail: str = "none") -> subprocess.CompletedProcess[str]:
    out.mkdir()
    return subprocess.run([sys.executable, "-c", SCRIPT, str(out), fail], capture_output=True,
                          text=True, timeout=120)


def drawn_here(out: Path) -> None:
    """The same three charts, drawn in this process without children (the script's
    definitions, not its forks)."""
    namespace: dict[str, Any] = {}
    exec(compile(SCRIPT.split("out, fail =")[0], "script", "exec"), namespace)
    out.mkdir()
    save_charts([(f"c{k}", namespace["chart"](k)) for k in range(3)], out, spare=0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_charts_drawn_in_children_are_the_bytes_drawn_here(tmp_path: Path) -> None:
    done = forked(tmp_path / "forked")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "drawn True" and done.stderr == ""
    drawn_here(tmp_path / "here")
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert names == [f"c{k}.{suffix}" for k in range(3) for suffix in ("png", "svg")]
    for name in names:
        assert (tmp_path / "forked" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_a_chart_its_child_failed_is_drawn_here(tmp_path: Path) -> None:
    """The child's failure is silent (no traceback from it) and its chart is still drawn."""
    done = forked(tmp_path / "out", "child")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "Traceback" not in done.stdout
    assert (tmp_path / "out" / "c2.png").is_file() and (tmp_path / "out" / "c2.svg").is_file()
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_a_chart_that_fails_everywhere_raises_here_once(tmp_path: Path) -> None:
    done = forked(tmp_path / "out", "always")
    assert done.returncode != 0
    assert done.stderr.count("Traceback") == 1
    assert "RuntimeError: chart 2 failed in the parent" in done.stderr
    assert "in a child" not in done.stderr


def test_no_fork_beside_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork copies locks other threads hold: with a second thread running, no child."""
    import threading
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert spare_cores() == 0
