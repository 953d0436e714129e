"""The modules that moved answer under their former names (:mod:`harness.moved`): a
plug-in's import of the self-test, and the commands in the shipped suites' headers."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from harness.moved import FORMER_HOMES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("former", "home"), sorted(FORMER_HOMES.items()))
def test_a_former_name_is_its_new_home(former: str, home: str) -> None:
    """Every public name of the new module is there under the former one, the same object."""
    old, new = importlib.import_module(former), importlib.import_module(home)
    names = [name for name in vars(new) if not name.startswith("_")]
    assert names and all(getattr(old, name) is getattr(new, name) for name in names)
    assert set(names) <= set(dir(old))
    assert not (ROOT / (former.replace(".", "/") + ".py")).exists()   # an alias, not a file


def test_a_plugin_imports_the_self_test_as_the_guides_once_said() -> None:
    from harness.games.testing import check_game as former

    from harness.check.game import check_game

    assert former is check_game


def test_an_unknown_name_is_still_not_found() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("harness.games.no_such_module")


@pytest.mark.parametrize("former", ["harness.games.checkers.suite", "harness.games.chess.suite"])
def test_python_m_under_a_former_name_runs_the_new_module(former: str) -> None:
    """The headers' ``python -m harness.games.….suite`` runs the generator (here its usage
    line, for arguments it refuses: no game is played)."""
    done = subprocess.run([sys.executable, "-m", former, "--count", "3"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "usage: python -m harness.suites." in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("suite", sorted(ROOT.glob("harness/games/*/positions/*")),
                         ids=lambda p: str(p.relative_to(ROOT / "harness" / "games")))
def test_every_module_a_shipped_header_names_is_there(suite: Path) -> None:
    """A suite's header names the module that wrote it: one that exists, or a former name."""
    named = {word.strip("().,`") for word in suite.read_text().split() if word.startswith("(harness.")
             or word.startswith("harness.")}
    for module in sorted(named):
        assert module in FORMER_HOMES or importlib.util.find_spec(module) is not None, module
