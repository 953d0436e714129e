"""What an install ships and what it is called: the project's own suites and the pages'
templates are package data (found from a built wheel, away from the checkout), the
distribution has a name of its own (``harness`` on PyPI is an unrelated project) while the
command and the import package stay ``harness``, and the build prints no deprecation
warning."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.games.chess.suite_files import PROJECT_POSITIONS, project_positions
from harness.games.othello.game import POSITIONS as OTHELLO_POSITIONS
from harness.results import environment

ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTION = "gametree-harness"
"""The distribution's name on PyPI (checked free there; ``harness`` is taken)."""

# Run from an empty folder with only the unpacked wheel on the path: what the project's own
# suites resolve to when the checkout is not there.
FIND_SCRIPT = """
import json
import harness
from harness.games.chess.suite_files import find_suite, list_suites
print(json.dumps({"package": harness.__file__, "bench": str(find_suite("bench.epd")),
                  "suites": {s.name: [str(s.path), s.positions] for s in list_suites()}}))
"""

# The same for the pages' templates: found and rendered from the unpacked wheel.
RENDER_SCRIPT = """
import json
from harness.report.render import environment, render
print(json.dumps({"template": environment().get_template("report.html.j2").filename,
                  "page": render("index.html.j2", {"title": "t", "folder": "<f>", "runs": []})}))
"""


class Built:
    """A wheel built from a copy of the source, and what the build printed."""

    def __init__(self, wheel: Path, log: str) -> None:
        self.wheel = wheel
        self.log = log
        with zipfile.ZipFile(wheel) as archive:
            self.names = set(archive.namelist())
            info = next(name for name in self.names if name.endswith(".dist-info/METADATA"))
            self.metadata = archive.read(info).decode("utf-8")
            points = next(name for name in self.names if name.endswith(".dist-info/entry_points.txt"))
            self.entry_points = archive.read(points).decode("utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    # A copy, so the build's build/ and *.egg-info stay out of the checkout (others use it);
    # without built modules (so it takes seconds, not mypyc's minute) and without the
    # network (the build backend comes from this environment: the test extra has it).
    setuptools = metadata.version("setuptools")
    assert int(setuptools.split(".")[0]) >= 77, (f"setuptools {setuptools} cannot read the SPDX licence: "
                                                 "the test extra brings >=77 (make install)")
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "MANIFEST.in"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "harness", source / "harness",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "compiled_from.json"))
    out = work / "wheels"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--no-index", "-v", "-w", str(out), str(source)],
                          env={**os.environ, "HARNESS_BUILD_PURE": "1"}, capture_output=True, text=True,
                          timeout=300)
    log = done.stdout + done.stderr
    assert done.returncode == 0, f"(needs setuptools>=77, in the test extra)\n{log[-4000:]}"
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    yield Built(wheels[0], log)


def test_the_sdist_ships_every_c_source_and_header(built: Built, tmp_path: Path) -> None:
    """setup.py declares the extensions only where it builds them: the C sources reach an
    sdist made anywhere through MANIFEST.in (a header the build depends on included)."""
    source = built.wheel.parents[1] / "source"
    out = tmp_path / "sdist"
    done = subprocess.run([sys.executable, "-c", "import sys, setuptools.build_meta as backend; "
                           "print(backend.build_sdist(sys.argv[1]))", str(out)],
                          cwd=source, env={**os.environ, "HARNESS_BUILD_PURE": "1"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    with tarfile.open(out / done.stdout.strip().splitlines()[-1]) as archive:
        shipped = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    expected = {str(path.relative_to(ROOT)) for pattern in ("*.c", "*.h")
                for path in (ROOT / "harness").rglob(pattern)}
    assert len(expected) >= 7 and expected <= shipped, expected - shipped


def test_the_wheel_ships_every_file_of_the_projects_suites(built: Built) -> None:
    shipped = {name for name in built.names if name.startswith(PROJECT_POSITIONS + "/")}
    expected = {f"{PROJECT_POSITIONS}/{path.name}"
                for path in project_positions().iterdir() if path.is_file()}
    assert {f"{PROJECT_POSITIONS}/bench.epd", f"{PROJECT_POSITIONS}/perft.epd"} <= expected
    assert shipped == expected


def test_the_wheel_ships_othellos_suite(built: Built) -> None:
    expected = {f"harness/games/othello/positions/{path.name}"
                for path in OTHELLO_POSITIONS.iterdir() if path.is_file()}
    assert "harness/games/othello/positions/phases.txt" in expected
    assert expected <= built.names


def test_the_wheel_ships_the_checkers_suite(built: Built) -> None:
    assert "harness/games/checkers/positions/suite.txt" in built.names


def test_the_wheel_ships_every_registered_claim_rule(built: Built) -> None:
    rules = Path(__file__).resolve().parents[1] / "harness" / "reproduce" / "rules"
    expected = {f"harness/reproduce/rules/{path.name}" for path in rules.glob("*.json")}
    assert len(expected) >= 8
    assert expected <= built.names


def test_an_installed_package_finds_its_own_suites(built: Built, tmp_path: Path) -> None:
    installed = tmp_path / "site-packages"
    with zipfile.ZipFile(built.wheel) as archive:
        archive.extractall(installed)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "HARNESS_SUITES"}
    env.update(PYTHONPATH=str(installed), XDG_DATA_HOME=str(tmp_path / "no-downloads"))
    done = subprocess.run([sys.executable, "-c", FIND_SCRIPT], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    positions = installed / PROJECT_POSITIONS
    assert Path(found["package"]).parent == installed / "harness"
    assert found["bench"] == str(positions / "bench.epd")
    assert found["suites"] == {"bench.epd": [str(positions / "bench.epd"), 40],
                               "perft.epd": [str(positions / "perft.epd"), 6],
                               "plaat-confirm.epd": [str(positions / "plaat-confirm.epd"), 330],
                               "pvs-modern-confirm.epd": [str(positions / "pvs-modern-confirm.epd"), 500],
                               "schaeffer-confirm.epd": [str(positions / "schaeffer-confirm.epd"), 60],
                               "selfplay-confirm.epd": [str(positions / "selfplay-confirm.epd"), 450],
                               "selfplay-explore.epd": [str(positions / "selfplay-explore.epd"), 60],
                               "three-games-modern-confirm.epd":
                                   [str(positions / "three-games-modern-confirm.epd"), 200]}



def test_the_wheel_ships_every_page_template(built: Built) -> None:
    templates = ROOT / "harness" / "report" / "templates"
    expected = {f"harness/report/templates/{path.name}" for path in templates.iterdir()}
    assert {"harness/report/templates/report.html.j2", "harness/report/templates/page.css"} <= expected
    assert expected <= built.names


def test_an_installed_package_renders_its_pages(built: Built, tmp_path: Path) -> None:
    installed = tmp_path / "site-packages"
    with zipfile.ZipFile(built.wheel) as archive:
        archive.extractall(installed)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run([sys.executable, "-c", RENDER_SCRIPT], cwd=elsewhere,
                          env={**os.environ, "PYTHONPATH": str(installed)}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["template"] == str(installed / "harness" / "report" / "templates" / "report.html.j2")
    assert "<h1>harness runs in &lt;f&gt;</h1>" in found["page"]
    assert "font-family: system-ui" in found["page"]     # the shared style, included


def test_the_distribution_has_its_own_name_and_the_command_keeps_harness(built: Built) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION
    assert project["scripts"] == {"harness": "harness.cli:main"}
    assert re.search(rf"^Name: {re.escape(DISTRIBUTION)}$", built.metadata, re.MULTILINE)
    assert re.search(r"^License-Expression: MIT$", built.metadata, re.MULTILINE)
    assert "harness = harness.cli:main" in built.entry_points
    assert built.wheel.name.startswith(DISTRIBUTION.replace("-", "_") + "-")


def test_the_build_prints_no_deprecation_warning(built: Built) -> None:
    warned = [line for line in built.log.splitlines() if re.search(r"(?i)warning.*deprecat", line)]
    assert warned == []


def test_every_install_hint_names_the_distribution() -> None:
    # "pip install 'harness[dask]'" would install the unrelated project of that name ('.[dask]',
    # a checkout, names none).
    texts = [ROOT / "README.md", *sorted((ROOT / "harness").rglob("*.py"))]
    hints = {(path.name, name) for path in texts
             for name in re.findall(r"pip install\s+'?([A-Za-z][\w.-]*)\[", path.read_text(encoding="utf-8"))}
    assert hints and {name for _, name in hints} == {DISTRIBUTION}, hints
    result = CliRunner().invoke(cli, ["run", "--help"])
    assert f"pip install '{DISTRIBUTION}[dask]'" in " ".join(result.output.split())


def test_version_and_run_json_read_the_distributions_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    # The installed metadata names the distribution only after a reinstall: answer for it here.
    real = metadata.version

    def version(name: str) -> str:
        if name == DISTRIBUTION:
            return "9.9.9"
        if name == "harness":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", version)
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0, result.output
    assert "9.9.9" in result.output
    assert environment()["versions"]["harness"] == "9.9.9"
