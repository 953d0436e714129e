"""Shared helpers for the tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def can_compile() -> bool:
    """Whether this machine has a C compiler and Python's headers (CI machines have both):
    where it does, the install must have built the compiled parts, or a broken build would
    hide behind the silent fall-back to Python."""
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return bool(shutil.which("cc") or shutil.which("gcc")) and headers.is_file()


@pytest.fixture
def textbook_file() -> Path:
    return DATA / "textbook.json"


@pytest.fixture(autouse=True)
def private_download_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Suites a user downloaded must not leak into the tests (nor the tests into them)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))


def harness_installed_with(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m harness ARGS`` with ``site`` on the path, as if installed there."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def pip_install_into(site: Path, package: Path) -> Path:
    """``package`` (a folder with its own pyproject) installed by pip into ``site``. pip
    builds a local folder in place (its ``build/`` and ``*.egg-info``), so it builds a copy
    beside ``site``: test files on other workers (pytest-xdist) install the same examples at
    the same time."""
    with tempfile.TemporaryDirectory(dir=site.parent) as scratch:
        copy = Path(scratch) / package.name
        shutil.copytree(package, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        build = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                                "--no-build-isolation", "--no-index", "--target", str(site),
                                str(copy)], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    return site
