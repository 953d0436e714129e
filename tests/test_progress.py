"""Progress: inside long problems, per phase, and a line while the report is written."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from harness.run.executors import Execution
from harness.run.experiment import run_experiment
from harness.run.plan import ExperimentConfig
from harness.run.progress import Listener, Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Recorder(Listener):
    """Every event, in order."""

    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def phase(self, name: str, problems: int, searches: int, problems_done: int = 0,
              searches_done: int = 0) -> None:
        self.events.append(("phase", name, problems, searches, problems_done, searches_done))

    def searched(self, count: int) -> None:
        self.events.append(("searched", count))

    def problem_done(self) -> None:
        self.events.append(("problem",))

    def note(self, text: str) -> None:
        self.events.append(("note", text))

    def phase_done(self) -> None:
        self.events.append(("done",))


CONFIG = ExperimentConfig(problems=("random:b=3,d=4,n=3,seed=1",), variants="alphabeta,pvs",
                          depths=(2, 3, 4))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_reports_every_search_then_the_report(tmp_path: Path, jobs: int) -> None:
    recorder = Recorder()
    run_experiment(CONFIG, tmp_path / "phase-a", progress=recorder, execution=Execution(jobs=jobs))
    events = recorder.events
    # The set searched, not the folder written (phase-a): the folder is named on the command.
    assert events[0] == ("phase", "random:b=3,d=4,n=3,seed=1,ordering=random,values=uniform,"
                                  "range=1000", 3, 18, 0, 0)
    assert sum(e[1] for e in events if e[0] == "searched") == 18      # 3 problems x 2 x 3
    assert events.count(("problem",)) == 3
    first_problem = events.index(("problem",))
    assert sum(e[1] for e in events[:first_problem] if e[0] == "searched") >= 6  # seen inside it
    assert events[-2] == ("done",) and events[-1][0] == "note" and "report.html" in events[-1][1]


def test_a_run_of_several_sets_names_each_briefly(tmp_path: Path) -> None:
    recorder = Recorder()
    config = ExperimentConfig(problems=("random:b=2,d=2,n=2,seed=1", "random:b=2,d=2,n=2,seed=2"),
                              variants="alphabeta")
    run_experiment(config, tmp_path / "out", progress=recorder, report=False)
    assert recorder.events[0] == ("phase", "2 sets: seed=1, seed=2", 4, 4, 0, 0)


def test_the_terminal_line_moves_during_a_long_search() -> None:
    stream = Terminal()
    progress = Progress(stream)
    progress.phase("chess", 10, 30)
    progress.searched(3)
    time.sleep(1.3)                      # one search still going: the clock still ticks
    drawn = stream.getvalue()
    assert drawn.count("\r") >= 2 and "chess: 0/10 problems, 3/30 searches" in drawn
    assert "elapsed 0:00:01" in drawn
    progress.phase_done()
    assert stream.getvalue().endswith("\n")
    progress.phase("trees", 4, 8)       # a new phase counts from its own start
    progress.phase_done()
    assert "trees: 0/4 problems, 0/8 searches, elapsed 0:00:00" in stream.getvalue()


def test_a_resumed_phase_estimates_from_this_session_only() -> None:
    stream = io.StringIO()
    progress = Progress(stream, interval=3600)
    progress.phase("run", 10, 100, 5, 50)
    progress.searched(10)
    assert "5/10 problems, 60/100 searches" in progress.text()
    assert "left ?" not in progress.text()
