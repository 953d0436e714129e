"""Problems made as a run reaches them: a set a hundred million strong costs what its first
problems do, ``--limit`` stops reading a file, and the rows are those of the sets held whole."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.base import Problem, ProblemSet, ProblemStream, count_problems
from harness.games.chess.suite_files import project_positions
from harness.games.registry import load_problems
from harness.results import RESULTS_FILE, RUN_FILE
from harness.run import experiment as experiment_module
from harness.run import plan as plan_module
from harness.run import progress as progress_module
from harness.run.executors import Execution, Workers, costliest_first, start_order, start_workers
from harness.run.experiment import resume_experiment, run_experiment
from harness.run.plan import ExperimentConfig, plan_experiment
from harness.run.progress import Listener

HUGE = "random:b=2,d=2,n=100000000"


def rows(run_dir: Path) -> pd.DataFrame:
    return pd.read_csv(run_dir / RESULTS_FILE).drop(columns="time_s")


def epd_lines(count: int) -> list[str]:
    """``count`` legal positions: the four fields of the project's suite's lines, repeated
    (no id: each is its line's, so all differ)."""
    text = (project_positions() / "bench.epd").read_text(encoding="utf-8")
    fields = [" ".join(line.split()[:4]) for line in text.splitlines()
              if line.strip() and not line.startswith("#")]
    return list(itertools.islice(itertools.cycle(fields), count))


def test_a_hundred_million_trees_are_a_stream_of_known_length() -> None:
    found = load_problems(HUGE)
    assert isinstance(found.problems, ProblemStream)
    assert len(found.problems) == 100_000_000 == found.problems.known_length
    assert found.problems[99_999_999].problem_id == "99999999"       # made on demand
    assert [p.problem_id for p in found.problems[:3]] == ["0", "1", "2"]
    assert [p.index for p in itertools.islice(found.problems, 2)] == [0, 1]
    assert count_problems(found.problems, 3) == 3
    with pytest.raises(IndexError):
        found.problems[100_000_000]


def test_a_run_with_a_limit_on_a_hundred_million_trees(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", "--problems", HUGE, "--limit", "3", "--variants",
                                      "alphabeta", "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert list(rows(out)["problem_id"]) == [0, 1, 2]
    info = json.loads((out / RUN_FILE).read_text())
    assert info["problems"] == 3
    assert info["suites"][next(iter(info["suites"]))]["problems"] == 3


def test_the_plan_reads_a_file_no_further_than_the_limit(tmp_path: Path) -> None:
    """A bad line after the limit is never read (so never reported); one before it is,
    exactly as without a limit."""
    path = tmp_path / "big.epd"
    lines = epd_lines(5_000)
    lines[10] = "not a position"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plan = plan_experiment(ExperimentConfig(problems=(f"chess:{path}",), variants="alphabeta",
                                            limit=10))
    assert len(plan.problems) == 10
    assert plan.problems[9].index == 10 and plan.problems[9].problem_id == "big.10"
    for limit in (11, None):
        with pytest.raises(HarnessError, match=f"^{path}:11: invalid EPD: 3 field"):
            plan_experiment(ExperimentConfig(problems=(f"chess:{path}",), variants="alphabeta",
                                             limit=limit))


def test_bytes_after_the_limit_are_not_read(tmp_path: Path) -> None:
    path = tmp_path / "tail.epd"
    path.write_bytes("\n".join(epd_lines(3)).encode() + b"\n\xff\xfe garbage\n")
    found = load_problems(f"chess:{path}")
    assert [p.problem_id for p in found.problems[:3]] == ["tail.1", "tail.2", "tail.3"]
    with pytest.raises(HarnessError, match=f"^{path}:4: not UTF-8 text$"):
        len(found.problems)


def test_a_run_with_a_limit_searches_the_lines_before_a_bad_one(tmp_path: Path) -> None:
    path = tmp_path / "late.epd"
    path.write_text("\n".join([*epd_lines(2), "8/8/8/8/8/8/8/8 w - -", *epd_lines(2)]) + "\n",
                    encoding="utf-8")
    args = ["run", "--suite", str(path), "--variants", "alphabeta", "--depth", "1",
            "--no-progress"]
    done = CliRunner().invoke(cli, [*args, "--limit", "2", "--out", str(tmp_path / "two")])
    assert done.exit_code == 0, done.output
    assert list(rows(tmp_path / "two")["problem_id"]) == ["late.1", "late.2"]
    refused = CliRunner().invoke(cli, [*args, "--limit", "3", "--out", str(tmp_path / "three")])
    assert refused.exit_code == 2
    assert refused.stderr.strip() == f"Error: {path}:3: illegal position: no white king, no black king, empty"
    assert not (tmp_path / "three").exists()


def test_skipped_lines_are_told_once_however_often_the_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "skips.epd"
    path.write_text("\n".join(["junk", *epd_lines(3), "more junk"]) + "\n", encoding="utf-8")
    found = load_problems(f"chess:{path}", skip_invalid=True)
    with pytest.warns(UserWarning) as told:
        assert len(found.problems) == 3
        assert len(list(found.problems)) == 3
        assert found.problems[2].problem_id == "skips.4"
    assert [str(w.message).split(":")[1] for w in told] == ["1", "5"]
    assert [line for line, _ in found.record["skipped"]] == [1, 5]


def materialised(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every set a list, as they were before problems were made lazily."""
    def whole(text: str, skip_invalid: bool = False) -> ProblemSet:
        found = load_problems(text, skip_invalid)
        found.problems = list(found.problems)
        return found

    monkeypatch.setattr(plan_module, "load_problems", whole)


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, ...]:
    folder = tmp_path_factory.mktemp("sets")
    (folder / "positions.c4").write_text("# Pons's notation\n4453 0\n\n44 1\n2252\n",
                                         encoding="utf-8")
    nodes = [{"value": v, "children": leaves} for v, leaves in
             ((3, [3, 12, 8]), (0, [2, 4, 6]), (-1, [14, 5, 2]))]
    (folder / "tree.json").write_text(json.dumps(nodes), encoding="utf-8")
    return ("random:b=3,d=3,n=5,seed=2,ordering=0.5", "chess:bench.epd",
            f"connect4:{folder / 'positions.c4'},width=5,height=4", f"tree:{folder / 'tree.json'}",
            "openspiel:tic_tac_toe,plies=2", "othello:phases.txt")


@pytest.mark.parametrize("game", ["random", "chess", "connect4", "tree", "openspiel", "othello"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_every_game_gives_the_rows_of_its_sets_held_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sets: tuple[str, ...], game: str,
        jobs: int) -> None:
    if game == "openspiel":
        pytest.importorskip("pyspiel")
    [text] = [s for s in sets if s.startswith(game)]
    config = ExperimentConfig(problems=(text,), variants="alphabeta,pvs", depths=(1, 2),
                              limit=4)
    run_experiment(config, tmp_path / "lazy", report=False, execution=Execution(jobs=jobs))
    with monkeypatch.context() as patch:
        materialised(patch)
        run_experiment(config, tmp_path / "whole", report=False)
    lazy, whole = rows(tmp_path / "lazy"), rows(tmp_path / "whole")
    assert len(whole) == 2 * 2 * min(4, len(load_problems(text).problems))
    pd.testing.assert_frame_equal(lazy, whole)
    for name in (RUN_FILE,):
        info = [json.loads((tmp_path / run / name).read_text()) for run in ("lazy", "whole")]
        assert info[0]["suites"] == info[1]["suites"] and info[0]["problems"] == info[1]["problems"]


def test_a_resume_reads_the_sets_only_as_far_as_the_rows_kept(tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = ExperimentConfig(problems=(HUGE,), variants="alphabeta,pvs", depths=(1, 2), limit=6)

    class StopAfterTwo(Listener):
        done = 0

        def problem_done(self) -> None:
            self.done += 1
            if self.done == 2:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_experiment(config, out, progress=StopAfterTwo(), report=False)
    assert len(rows(out)) == 2 * 2 * 2
    resume_experiment(out, report=False)
    run_experiment(config, tmp_path / "whole", report=False)
    pd.testing.assert_frame_equal(rows(out), rows(tmp_path / "whole"))
    assert json.loads((out / RUN_FILE).read_text())["resumed"][0]["problems_kept"] == 2


class Notes(Listener):
    def __init__(self) -> None:
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)


def test_what_takes_a_while_before_the_first_search_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_module, "SLOW_SECONDS", 0.0)     # everything is slow
    notes = Notes()
    config = ExperimentConfig(problems=(HUGE, "chess:bench.epd"), variants="alphabeta",
                              depths=(1,), limit=2)
    run_experiment(config, tmp_path / "run", progress=notes, report=False)
    assert notes.notes[:3] == [f"reading {HUGE} (up to --limit 2) before the first search",
                               "reading chess:bench.epd (up to --limit 2) before the first search",
                               "starting worker processes"]


def test_a_quick_step_says_nothing() -> None:
    notes = Notes()
    with progress_module.announced(notes, "reading"):
        pass
    assert notes.notes == []


def test_workers_read_jobs_a_bounded_way_ahead() -> None:
    """An endless supply of jobs: the first results come back, and no more than the
    look-ahead was read beyond those started."""
    read = itertools.count()

    def endless() -> Iterator[tuple[Any, ...]]:
        for number in read:
            yield (number, 2)

    with start_workers(Execution(jobs=2), 2) as workers:
        found = workers.map(divmod, endless(), cost=lambda job: float(job[0] % 7))
        firsts = [next(found) for _ in range(3)]
        found.close()
    assert all(result == divmod(index, 2) for index, result in firsts)
    assert next(read) <= 3 * 1024 + 3


def test_inline_workers_read_one_job_at_a_time() -> None:
    read = itertools.count()
    found = Workers().map(divmod, ((n, 3) for n in read))
    assert [next(found) for _ in range(2)] == [(0, (0, 0)), (1, (0, 1))]
    assert next(read) == 2


@given(st.lists(st.integers(0, 5), max_size=40), st.integers(1, 50))
def test_costliest_first_is_the_start_order_within_its_window(costs: list[int], window: int) -> None:
    started = [i for i, _ in costliest_first(enumerate(costs), float, window)]
    assert sorted(started) == list(range(len(costs)))
    if window >= len(costs):
        assert started == start_order([float(c) for c in costs])
    for position, index in enumerate(started):   # a job started later is cheaper, or read later
        assert all(costs[i] < costs[index] or i > index for i in started[position + 1:])


def test_a_stream_with_an_unknown_length_is_counted_once() -> None:
    made = []

    def make() -> Iterator[Problem]:
        made.append(1)
        return (Problem("random", "s", str(i), "s", i) for i in range(5))

    stream = ProblemStream(make)
    assert stream.known_length is None
    assert count_problems(stream, 2) == 2 and stream.known_length is None
    assert len(stream) == 5 and len(stream) == 5 and stream.known_length == 5
    assert [p.problem_id for p in stream[1:4]] == ["1", "2", "3"] and stream[-1].problem_id == "4"
    assert len(made) == 4


def test_stopped_while_reading_its_problems_says_nothing_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(config: ExperimentConfig, progress: Listener | None = None) -> None:
        raise KeyboardInterrupt                 # Ctrl-C while a big file is read

    monkeypatch.setattr(experiment_module, "plan_experiment", interrupted)
    out = tmp_path / "never"
    result = CliRunner().invoke(cli, ["run", "--problems", HUGE, "--no-progress", "--out", str(out)])
    assert result.exit_code == 130
    assert result.stderr.strip() == ("interrupted: before the first search, nothing was written; "
                                     "finish with: the same command again")
    assert not out.exists()


def test_a_file_changed_while_the_run_reads_it_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "moving.epd"
    path.write_text("\n".join(epd_lines(4)) + "\n", encoding="utf-8")

    class Editor(Listener):
        def problem_done(self) -> None:             # someone edits the file mid-run
            path.write_text("\n".join(epd_lines(5)[1:]) + "\n", encoding="utf-8")

    config = ExperimentConfig(problems=(f"chess:{path}",), variants="alphabeta", depths=(1,))
    with pytest.raises(HarnessError, match=f"^{path}: changed while the run read it .* two "
                                           "versions of the file"):
        run_experiment(config, tmp_path / "run", progress=Editor(), report=False)
