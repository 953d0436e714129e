"""``harness ablate --engine``: the registry of the features real engines switch (every
option it names is one the engine offers, where the engine is installed), an engine's
ablation on the fake engine of ``tests/fake_uci.py`` (its options change its counts by
known factors), and bad input as one line. And a run's report with an engine beside a
variant: their nodes and solve rates side by side."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.engines.features import ENGINE_FEATURES, PROGRAMS, check_offered, features_of
from harness.engines.session import EngineSession
from harness.engines.spec import locate, parse_engine
from harness.errors import HarnessError
from harness.report import charts
from harness.run.profiles import BY_NAME
from tests.fake_uci import FACTORS
from tests.test_ablate import interrupted_copy, refused_in_one_line

FAKE = Path(__file__).with_name("fake_uci.py")

WAC = ('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";\n'
       '8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";\n'
       '5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id "WAC.003";\n')
"""The first three positions of Win at Chess."""

INSTALLED = {"GNU Chess": "gnuchess --uci", "Toga II": "toga2", "Glaurung": "glaurung"}
"""The command of each program of the registry, as Debian installs it."""


def fake(mode: str = "toga", name: str = "toga") -> str:
    """A spec of the fake engine in ``mode``."""
    return f"{name}={shlex.join([sys.executable, str(FAKE), mode])}"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inputs") / "wac3.epd"
    path.write_text(WAC)
    return path


def test_every_record_names_an_enhancement_of_the_harness() -> None:
    for record in ENGINE_FEATURES:
        assert record.feature in BY_NAME, record
        assert record.settings and all(s.off != s.on for s in record.settings), record
    assert set(PROGRAMS) == set(INSTALLED)
    pairs = [(record.program, record.feature) for record in ENGINE_FEATURES]
    assert len(pairs) == len(set(pairs))            # one record a feature of a program


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_option_of_the_registry_is_offered_by_its_engine(program: str) -> None:
    command = INSTALLED[program]
    if locate(command.split()[0]) is None:
        pytest.skip(f"{program} is not installed ({command.split()[0]} not on PATH nor in "
                    "/usr/games: apt-get install gnuchess toga2 glaurung)")
    session = EngineSession(parse_engine(f"probe={command}"))
    try:
        records = features_of(session.id_name)
        assert records and all(r.program == program for r in records), session.id_name
        assert records == tuple(r for r in ENGINE_FEATURES if r.program == program)
        check_offered("probe", session.id_name, records, session.offered)
    finally:
        session.close()


def test_an_option_the_engine_lacks_is_refused_by_the_check() -> None:
    session = EngineSession(parse_engine(fake("toga-old")))
    try:
        with pytest.raises(HarnessError, match="offers no option 'History Pruning'"):
            check_offered("toga", session.id_name, features_of(session.id_name),
                          session.offered)
    finally:
        session.close()


@pytest.fixture(scope="module")
def fake_ablation(suite: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    out = tmp_path_factory.mktemp("fake") / "ablation"
    result = invoke("ablate", "--engine", fake(), "--suite", str(suite), "--depth", "3-4",
                    "--out", str(out), "--no-progress")
    return out, result


def test_an_engine_is_taken_apart_feature_by_feature(fake_ablation: tuple[Path, Result]) -> None:
    out, result = fake_ablation
    assert result.exit_code == 0, result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr
    table = pd.read_csv(out / "ablation.csv", keep_default_na=False, na_values=[""])
    toga = [r.feature for r in ENGINE_FEATURES if r.program == "Toga II"]
    assert table["configuration"].tolist() == ["base", *(f"no-{f}" for f in toga)] * 2
    assert set(table["depth"]) == {3, 4} and (table["n"] == 3).all()
    ratios = table[table["depth"] == 4].set_index("configuration")["nodes_ratio"]
    expected = {"null-move": FACTORS["NullMove Pruning", "Never"],
                "lmr": FACTORS["History Pruning", "false"],
                "futility": FACTORS["Futility Pruning", "false"],
                "delta": FACTORS["Delta Pruning", "false"],
                "qchecks": FACTORS["Quiescence Check Plies", "0"]}
    for feature, factor in expected.items():
        assert ratios[f"no-{feature}"] == pytest.approx(factor, rel=0.01), feature
    assert ratios["base"] == 1.0
    assert set(table["frame"]) == {"engine"}
    for name in ("ablation.png", "ablation.svg", "index.html"):
        assert (out / name).is_file()


def test_each_configuration_is_a_run_of_the_engine_alone(
        fake_ablation: tuple[Path, Result]) -> None:
    out, _ = fake_ablation
    base = json.loads((out / "base" / "run.json").read_text())
    no_null = json.loads((out / "no-null-move" / "run.json").read_text())
    assert base["variants"] == {} and base["config"]["variants"] == ""
    assert base["engines"]["toga"]["settings"]["NullMove Pruning"] == "Always"
    assert no_null["engines"]["toga"]["settings"]["NullMove Pruning"] == "Never"
    assert no_null["engines"]["toga"]["settings"]["History Pruning"] == "true"
    rows = pd.read_csv(out / "no-null-move" / "results.csv")
    assert set(rows["subject"]) == {"engine"} and len(rows) == 6
    recorded = json.loads((out / "ablation.json").read_text())
    assert recorded["engine"] == fake() and "profile" not in recorded


def test_an_engine_ablation_resumes(fake_ablation: tuple[Path, Result], tmp_path: Path) -> None:
    out, _ = fake_ablation
    copy = interrupted_copy(out, tmp_path / "copy", "no-lmr", "no-delta", 2)
    result = invoke("ablate", "--resume", str(copy), "--no-progress")
    assert result.exit_code == 0, result.output + result.stderr
    numbers = ["configuration", "depth", "n", "nodes", "nodes_ratio", "solved"]
    mine = pd.read_csv(copy / "ablation.csv")[numbers]
    pd.testing.assert_frame_equal(mine, pd.read_csv(out / "ablation.csv")[numbers])
    resumed = json.loads((copy / "no-delta" / "run.json").read_text())
    assert resumed["resumed"][0]["problems_kept"] == 1


def test_only_the_features_asked_for(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "only"
    result = invoke("ablate", "--engine", fake(), "--suite", str(suite), "--depth", "2",
                    "--enhancements", "null-move", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output + result.stderr
    table = pd.read_csv(out / "ablation.csv")
    assert table["configuration"].tolist() == ["base", "no-null-move"]
    settings = json.loads((out / "base" / "run.json").read_text())["engines"]["toga"]["settings"]
    assert "History Pruning" not in settings        # a feature not ablated is left as it is


@pytest.mark.parametrize("engine, args, message", [
    ("toga-old", [], "offers no option 'History Pruning', which switches lmr in Toga II"),
    ("ok", [], "the harness knows no UCI option that switches a search feature in it"),
    ("toga", ["--enhancements", "late-move-reductions"],
     "unknown enhancement 'late-move-reductions'"),
    ("toga", ["--enhancements", "razoring"], "cannot switch razoring"),
    ("toga", ["--problems", "connect4:4453"], "UCI engines search chess positions"),
    ("toga", ["--profile", "modern"], "give one of them"),
    ("toga", ["--variant", "pvs"], "give one of them"),
    ("toga", ["--from-bare"], "--from-bare adds enhancements"),
    ("toga", ["--depth", "0"], "depth 0 is impossible"),
    ("toga,History Pruning=false", [], "sets History Pruning, which the ablation switches"),
    ("nosuch", [], "not found"),
])
def test_bad_input_is_one_line(engine: str, args: list[str], message: str, suite: Path,
                               tmp_path: Path) -> None:
    mode, _, options = engine.partition(",")
    spec = ("toga=/nonexistent/engine" if mode == "nosuch"
            else fake(mode) + ("," + options if options else ""))
    problems = [] if "--problems" in args else ["--suite", str(suite)]
    depth = [] if "--depth" in args else ["--depth", "2"]
    result = invoke("ablate", "--engine", spec, *problems, *args, *depth,
                    "--out", str(tmp_path / "out"))
    refused_in_one_line(result, message, tmp_path / "out")


def test_a_run_report_shows_variants_and_engines_side_by_side(suite: Path,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--suite", str(suite), "--variants", "pvs", "--depth", "1-2",
                    "--engine", fake("ok", "fake"), "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output + result.stderr
    html = (out / "report.html").read_text()
    section = html.split("variants and engines side by side</h2>")[1].split("<h2>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", section, re.S)
    cells = [re.sub(r"<[^>]+>", " ", row).split() for row in rows]
    heading = " ".join(cells[0])
    assert "nodes" in heading and "solve rate" in heading
    assert [c[0] for c in cells[1:]] == ["pvs", "fake"]
    assert all(c[1] == "2" for c in cells[1:])          # the deepest depth only
    engines = html.split("<h3>Engines</h3>")[1].split("</table>")[0]
    assert "Fake UCI 1.0" in engines and "Hash=16" in engines


def test_a_run_without_engines_has_no_such_section(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--suite", str(suite), "--variants", "pvs,alphabeta", "--depth", "1",
                    "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output + result.stderr
    html = (out / "report.html").read_text()
    assert "side by side</h2>" not in html and "<h3>Engines</h3>" not in html


def test_the_relative_chart_shows_a_ratio_when_every_one_is_far_from_1() -> None:
    rows = pd.DataFrame({"ratio": [0.09], "ratio_low": [0.05], "ratio_high": [0.16]})
    low, high = charts._ratio_limits(rows)
    assert low < 0.05 and high > 1
    rows = pd.DataFrame({"ratio": [0.09, 1.2], "ratio_low": [0.05, 1.1],
                         "ratio_high": [0.16, 1.3]})
    low, _ = charts._ratio_limits(rows)     # one near 1: the far one is an arrow at the edge
    assert low > 0.09 * 2


def test_a_run_of_engines_alone(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "alone"
    result = invoke("run", "--suite", str(suite), "--variants", "", "--depth", "2",
                    "--engine", fake("ok", "fake"), "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output + result.stderr
    rows = pd.read_csv(out / "results.csv")
    assert list(rows["variant"]) == ["fake"] * 3 and set(rows["subject"]) == {"engine"}
    result = invoke("run", "--suite", str(suite), "--variants", "", "--depth", "2",
                    "--out", str(tmp_path / "none"))
    assert result.exit_code == 2 and "no variants given" in result.stderr
    assert "Traceback" not in result.output + result.stderr
