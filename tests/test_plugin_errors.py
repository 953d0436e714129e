"""An exception in a plug-in's code (its game's tree, its variant's loop) is one line naming
the package, the game or variant and the method, exit code 2, never a traceback; the rows
already written stay and ``--resume`` finishes the run once the plug-in is fixed. A bug in
the harness's own code keeps its traceback.

The plug-in, ``harness-faulty``, is installed by pip from the sources below; it fails
where the environment variable ``FAULTY`` says (read when the fault would happen, so a
worker process and a resumed run see it as the parent does).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import harness.games.registry as game_registry
import harness.search.registry as variant_registry
from harness.cli import cli
from harness.games.base import Game
from harness.games.registry import find_game
from harness.plugins import load_entry_points
from harness.run.blame import Running, plugin_error

from .conftest import harness_installed_with, pip_install_into

PACKAGE = "harness-faulty 0.1.0"

SOURCES = {
    "pyproject.toml": """\
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "harness-faulty"
version = "0.1.0"
requires-python = ">=3.11"

[tool.setuptools]
packages = ["faulty"]

[project.entry-points."harness.games"]
faulty = "faulty.game:GAME"

[project.entry-points."harness.variants"]
fragile = "faulty.variant:VARIANT"
""",
    "faulty/__init__.py": "",
    "faulty/game.py": '''\
"""faulty:N: N binary trees of height 3; problem FAULTY_AT (default 2) breaks as FAULTY says."""

import os

from harness.games.base import Game, Problem, ProblemSet


def broken(problem_id):
    return os.environ.get("FAULTY", "") if problem_id == os.environ.get("FAULTY_AT", "2") else ""


def _make_room(path):
    if len(path) == 1:
        raise ValueError("no room for another stone")


class ChainTree:
    def __init__(self, fault):
        self.fault, self.path = fault, []

    def moves(self):
        return [0, 1] if len(self.path) < 3 else []

    def push(self, move):
        if self.fault == "push":
            _make_room(self.path)
        self.path.append(move)

    def pop(self):
        self.path.pop()

    def value(self):
        return sum(self.path) if len(self.path) % 2 == 0 else -sum(self.path)

    def terminal_value(self):
        return self.value()

    def child_value(self, move):
        total = sum(self.path) + move
        return total if (len(self.path) + 1) % 2 == 0 else -total

    def key(self):
        return list(self.path) if self.fault == "key" else tuple(self.path)

    def move_name(self, move):
        return str(move)

    def reset(self):
        self.path = []

    def cutoff(self, move, depth):
        pass


class Faulty(Game):
    name = "faulty"
    spec = "N"
    description = "trees that break on demand"
    source = "tests/test_plugin_errors.py"

    def load(self, spec, options, skip_invalid=False):
        if os.environ.get("FAULTY") == "load":
            int("many")
        return ProblemSet(spec, [Problem(self.name, spec, str(i), spec, i, options, 3)
                                 for i in range(1, int(spec) + 1)])

    def tree(self, problem):
        return ChainTree(broken(problem.problem_id))

    def judge(self, problem, best_move, score, bound):
        if broken(problem.problem_id) == "judge":
            return {}[best_move]
        return None


GAME = Faulty()
''',
    "faulty/variant.py": '''\
import os

from harness.games.base import INF
from harness.search.registry import Variant


def fragile(s, moves, depth, alpha, beta):
    if os.environ.get("FAULTY") == "loop" and depth == 1:
        raise ZeroDivisionError("the loop divided by zero")
    if os.environ.get("FAULTY") == "return":
        return 0
    best, best_move = -INF, None
    for i, m in enumerate(moves):
        v = -s.child(fragile, m, depth - 1, -beta, -max(alpha, best))
        if v > best:
            best, best_move = v, m
            if best >= beta:
                return best, i, m
    return best, len(moves) - 1, best_move


VARIANT = Variant("fragile", "fail-soft alpha-beta that breaks on demand", "tests",
                  loop=lambda options: fragile)
''',
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``harness-faulty`` installed by pip into a folder of its own."""
    source = tmp_path_factory.mktemp("faulty")
    for name, text in SOURCES.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text)
    return pip_install_into(tmp_path_factory.mktemp("site"), source)


@pytest.fixture
def registered(site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plug-in's game and variant registered in this process, as the registries load
    them (marked with the package), for CliRunner."""
    monkeypatch.syspath_prepend(str(site))
    games, problems = load_entry_points(game_registry.PLUGIN_GROUP, Game,  # type: ignore[type-abstract]
                                        (g.name for g in game_registry.GAMES), lambda g: g.name,
                                        game_registry._mark)
    variants, more = variant_registry.load_plugins()
    assert not problems + more and [g.origin for g in games] == [PACKAGE]
    monkeypatch.setattr(game_registry, "GAMES", [*game_registry.GAMES, *games])
    monkeypatch.setattr(variant_registry, "VARIANTS", [*variant_registry.VARIANTS, *variants])
    yield
    for module in [m for m in sys.modules if m == "faulty" or m.startswith("faulty.")]:
        del sys.modules[module]


def one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_a_tree_method_that_raises_is_one_line_and_the_run_resumes(
        registered: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    monkeypatch.setenv("FAULTY", "push")
    run = CliRunner().invoke(cli, ["run", "--problems", "faulty:3", "--variants", "alphabeta",
                                   "--no-progress", "--out", str(out)])
    assert run.exit_code == 2, run.output
    line = one_error_line(run.stderr)
    assert line.startswith(f"Error: game faulty (package {PACKAGE}): ChainTree.push raised "
                           "ValueError: no room for another stone (faulty/game.py, line 14; while "
                           "searching faulty:3 2 with alphabeta to depth 3); the problems finished "
                           f"before it are kept in {out} (--resume {out} finishes the rest)"), line
    kept = pd.read_csv(out / "results.csv")
    assert list(kept["problem_id"]) == [1]                  # problem 1 finished before
    monkeypatch.delenv("FAULTY")                            # the plug-in fixed
    resumed = CliRunner().invoke(cli, ["run", "--resume", str(out), "--no-progress"])
    assert resumed.exit_code == 0, resumed.output
    assert list(pd.read_csv(out / "results.csv")["problem_id"]) == [1, 2, 3]


def test_a_game_method_its_load_and_harness_tree_are_blamed_too(registered: None, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAULTY", "judge")
    run = CliRunner().invoke(cli, ["run", "--problems", "faulty:3", "--variants", "alphabeta",
                                   "--no-progress", "--out", str(tmp_path / "run")])
    assert run.exit_code == 2
    assert one_error_line(run.stderr).startswith(
        f"Error: game faulty (package {PACKAGE}): Faulty.judge raised KeyError: '1' "
        "(faulty/game.py, line 72; on faulty:3 2)")
    monkeypatch.setenv("FAULTY", "load")
    loaded = CliRunner().invoke(cli, ["run", "--problems", "faulty:3", "--no-progress",
                                      "--out", str(tmp_path / "loaded")])
    assert loaded.exit_code == 2 and not (tmp_path / "loaded").exists()
    assert one_error_line(loaded.stderr) == (
        f"Error: game faulty (package {PACKAGE}): Faulty.load raised ValueError: invalid literal "
        "for int() with base 10: 'many' (faulty/game.py, line 63)")
    monkeypatch.setenv("FAULTY", "loop")
    drawn = CliRunner().invoke(cli, ["tree", "--trees", "random:b=2,d=3,n=1", "--variant", "fragile"])
    assert drawn.exit_code == 2
    assert one_error_line(drawn.stderr) == (
        f"Error: variant fragile (package {PACKAGE}): fragile raised ZeroDivisionError: the loop "
        "divided by zero (faulty/variant.py, line 9; while searching random:b=2,d=3,n=1,seed=0,"
        "ordering=random,values=uniform,range=1000 0 with fragile to depth 3)")


@pytest.mark.parametrize(("fault", "problems", "message"), [
    ("loop", "random:b=2,d=3,n=4",
     f"Error: variant fragile (package {PACKAGE}): fragile raised ZeroDivisionError: the loop "
     "divided by zero (faulty/variant.py, line 9; while searching random:b=2,d=3,n=4,seed=0,"),
    ("return", "random:b=2,d=3,n=4",
     f"Error: variant fragile (package {PACKAGE}): the harness failed in harness.search.core.expand "
     "on what the plug-in returned: TypeError: "),
    ("push", "faulty:4",
     f"Error: game faulty (package {PACKAGE}): ChainTree.push raised ValueError: no room for "
     "another stone (faulty/game.py, line 14; while searching faulty:4 2 with "),
    ("key", "faulty:4",
     f"Error: game faulty (package {PACKAGE}): ChainTree.key returned a list, which cannot be "
     "hashed (keys index the transposition table: ints, or tuples of ints); while searching "
     "faulty:4 2 with "),
])
def test_in_worker_processes_it_is_one_line_too(site: Path, tmp_path: Path, fault: str,
                                                problems: str, message: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAULTY", fault)
    run = harness_installed_with(site, "run", "--problems", problems, "--variants",
                                 "alphabeta,fragile", "--jobs", "2", "--no-progress",
                                 "--out", str(tmp_path / "run"))
    assert run.returncode == 2, run.stderr
    assert one_error_line(run.stderr).startswith(message), run.stderr


def test_an_exception_in_the_harness_with_nothing_of_a_plugin_is_its_own_bug() -> None:
    def harness_code() -> None:
        raise RuntimeError("a harness bug")

    try:
        harness_code()
    except RuntimeError as exc:
        assert plugin_error(exc, Running(find_game("random"))) is None
