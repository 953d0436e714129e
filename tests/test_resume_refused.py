"""A resume or a reproduction's resume that would mix rows made under other conditions is
refused in one line (exit code 2, no traceback) and touches nothing; unchanged, a resume
keeps every finished row. A confirmation without its held-out positions is refused before it
measures anything. (Issue 16's bad-input matrix is tests/test_bad_input.py.)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.reproduce.claims import select
from harness.reproduce.measure import chess_suite, made_with
from harness.reproduce.phases import EXPLORE, suite_named
from harness.run.experiment import run_experiment
from harness.run.plan import ExperimentConfig
from harness.search import registry
from harness.search.counters import COUNTING_VERSION
from harness.search.registry import find_variant
from tests.test_bad_input import START, assert_one_line, edit_rows
from tests.test_trust import Interrupter


@pytest.fixture
def interrupted(tmp_path: Path) -> Path:
    """A run interrupted after 2 of its 4 problems: three random trees and a tree file
    (``fig.json`` beside the run folder), alphabeta and pvs, each to its height."""
    tree = tmp_path / "fig.json"
    tree.write_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    config = ExperimentConfig(problems=("random:b=2,d=3,n=3,seed=1", f"tree:{tree}"),
                              variants="alphabeta,pvs")
    with pytest.raises(KeyboardInterrupt):
        run_experiment(config, tmp_path / "run", progress=Interrupter(2))
    return tmp_path / "run"


def edit_run(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    """A change of the ``run.json`` in a run folder."""
    def edit(run: Path) -> None:
        info = json.loads((run / "run.json").read_text())
        change(info)
        (run / "run.json").write_text(json.dumps(info, indent=2))
    return edit


def put(record: str, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(info: dict[str, Any]) -> None:
        info[record][key] = value
    return change


RESUME = ["run", "--resume", "{run}"]
CHANGED = [
    pytest.param(RESUME, edit_run(put("config", "depths", [1, 2, 3])),
                 "{run}: cannot resume: run.json's config.depths changed after its rows were made "
                 "(it no longer matches config_hash); put run.json back as it was, or start a "
                 "new run with another --out$", id="run-depths-edited"),
    pytest.param(["compare", "alphabeta", "pvs", "--resume", "{run}"],
                 edit_run(put("config", "depths", [2])), "run.json's config.depths changed",
                 id="compare-depths-edited"),
    pytest.param(RESUME, edit_run(put("config", "variants", "alphabeta,pvs,negascout")),
                 "run.json's config.variants changed", id="run-variants-edited"),
    pytest.param(RESUME, edit_run(put("config", "problems", ["random:b=2,d=3,n=4,seed=1"])),
                 "run.json's config.problems changed", id="run-problems-edited"),
    pytest.param(RESUME, edit_run(lambda info: info.update(counting_version=0)),
                 "{run}: cannot resume: its rows were counted by counting rules version 0, this "
                 f"harness counts by version {COUNTING_VERSION}", id="run-counting-rules-changed"),
    pytest.param(RESUME, edit_run(lambda info: info.pop("counting_version")),
                 "its rows were counted by rules older than the harness records",
                 id="run-counting-rules-unrecorded"),
    pytest.param(RESUME, edit_run(lambda info: info["variants"]["pvs"].update(version="0.0.1")),
                 "{run}: cannot resume: its rows of variant pvs were made by gametree-harness "
                 "0.0.1, this one is gametree-harness ", id="run-harness-version-changed"),
    pytest.param(RESUME, edit_run(put("switches", "tt_size", 4096)),
                 "{run}: cannot resume: the switches tt_size differ from those its rows were made "
                 "with", id="run-switches-changed"),
    pytest.param(RESUME, lambda run: (run.parent / "fig.json").write_text("[[3, 12, 8], [2, 4, 6], [1]]"),
                 "{run}: cannot resume: {tree} changed since its rows were made (sha256 ",
                 id="run-tree-file-changed"),
    pytest.param(RESUME, lambda run: edit_rows(run / "results.csv", lambda rows: rows.append(dict(rows[2]))),
                 "{run}/results.csv:", id="run-row-twice"),
]


@pytest.mark.parametrize("args,change,names", CHANGED)
def test_a_changed_run_is_not_resumed(interrupted: Path, args: list[str],
                                      change: Callable[[Path], None], names: str) -> None:
    """A resume refuses, in one line, a run whose configuration, variants, counting rules
    or problem files changed since its rows were made, and leaves every file as it is."""
    change(interrupted)
    before = {path.name: path.read_bytes() for path in interrupted.iterdir() if path.is_file()
              and path.name != ".harness.lock"}
    result = CliRunner().invoke(cli, [arg.format(run=interrupted) for arg in args])
    assert_one_line(result, names.format(run=interrupted, tree=interrupted.parent / "fig.json"))
    after = {path.name: path.read_bytes() for path in interrupted.iterdir() if path.is_file()
             and path.name != ".harness.lock"}
    assert after == before


def test_a_resume_without_a_change_keeps_every_finished_row(interrupted: Path) -> None:
    """The counterpart: unchanged, the resume keeps the 2 finished problems' rows as they
    were and adds the rest."""
    kept = (interrupted / "results.csv").read_text().splitlines()
    result = CliRunner().invoke(cli, ["run", "--resume", str(interrupted), "--no-progress"])
    assert result.exit_code == 0, result.output
    info = json.loads((interrupted / "run.json").read_text())
    assert info["resumed"][0]["problems_kept"] == 2
    rows = (interrupted / "results.csv").read_text().splitlines()
    assert len(kept) == 1 + 2 * 2 and len(rows) == 1 + 4 * 2
    assert set(kept) <= set(rows)


@pytest.mark.parametrize("later,names", [
    (None, "its rows of variant plug were made by plug-dist 1.2, which is not installed now; "
           "install plug-dist 1.2 again to finish it, or start a new run with another --out$"),
    ("plug-dist 1.3", "its rows of variant plug were made by plug-dist 1.2, this one is "
                      "plug-dist 1.3"),
])
def test_a_plugin_variant_gone_or_upgraded_is_not_resumed(interrupted: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         later: str | None, names: str) -> None:
    """A run with a plug-in's variant (``all``) whose plug-in was uninstalled or upgraded
    before the resume: refused, naming the distribution and version, no row lost."""
    plug = replace(find_variant("alphabeta"), name="plug", origin="plug-dist 1.2")
    monkeypatch.setattr(registry, "VARIANTS", [*registry.VARIANTS, plug])
    config = ExperimentConfig(problems=("random:b=2,d=3,n=3,seed=1",), variants="all", depths=(2,))
    out = tmp_path / "with-plug"
    with pytest.raises(KeyboardInterrupt):
        run_experiment(config, out, progress=Interrupter(1))
    info = json.loads((out / "run.json").read_text())
    assert info["variants"]["plug"]["distribution"] == "plug-dist"
    assert info["variants"]["plug"]["version"] == "1.2"
    assert info["variants"]["alphabeta"]["distribution"] == "gametree-harness"
    rows = (out / "results.csv").read_bytes()
    monkeypatch.setattr(registry, "VARIANTS", [v for v in registry.VARIANTS if v.name != "plug"]
                        + ([] if later is None else [replace(plug, origin=later)]))
    result = CliRunner().invoke(cli, ["run", "--resume", str(out)])
    assert_one_line(result, names)
    assert (out / "results.csv").read_bytes() == rows


def test_a_confirmation_without_its_positions_is_refused(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A confirmation whose suite lacks the rules' positions is refused in one line. The suite
    is a stand-in of one position under the name the rules give: the real held-out suite
    ships in the package, and a refusal that failed must not measure it (this test once
    named wac.epd, and ran claim 3's confirmation when its rules moved to the self-play suite)."""
    from harness import reproduce as rp

    short = tmp_path / "selfplay-confirm.epd"
    short.write_text(f'{START} id "stand-in.1";\n', "utf-8")
    monkeypatch.setattr(rp, "chess_suite", lambda *named: short)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["reproduce", "--phase", "confirm", "--only", "mtdf",
                                      "--out", str(out)])
    assert_one_line(result, f"--phase confirm: {short} holds 1 of the rules' confirmation "
                            "positions 1-300")
    assert not out.exists()


@pytest.mark.parametrize("change,names", [
    (lambda made: made.update(counting_version=0),
     "{out}: cannot resume: its rows were counted by counting rules version 0, this harness "
     f"counts by version {COUNTING_VERSION}; start afresh with another --out"),
    (lambda made: made.update(harness="0.0.1"),
     "{out}: cannot resume: its rows were made by gametree-harness 0.0.1, this one is "),
    (lambda made: made["suite"].update(sha256="0" * 64),
     "{out}: cannot resume: {suite} changed since its rows were made (sha256 000000000000... "
     "then, "),
    (lambda made: made["suite"].update(path="/elsewhere/wac.epd"),
     "{out}: cannot resume: its chess positions came from /elsewhere/wac.epd, now from {suite}"),
    (lambda made: None, "{out}/measuring.json: its claims were measured on other problems"),
], ids=["counting-rules", "harness-version", "suite-changed", "suite-moved", "jobs"])
def test_a_changed_reproduction_is_not_resumed(tmp_path: Path, change: Callable[[dict[str, Any]], None],
                                               names: str) -> None:
    """``reproduce --resume`` says what changed since its rows were made, where
    ``measuring.json`` records it, and touches nothing."""
    suite = chess_suite(suite_named(select(["mtdf"]), EXPLORE))     # the suite its rules name
    assert suite is not None
    made = made_with(suite)
    change(made)
    out = tmp_path / "reproduction"
    out.mkdir()
    settings = {"quick": True, "claims": ["mtdf"], "jobs": 1, "fingerprint": "another",
                "made_with": made, "started": "then", "finished": None}
    (out / "measuring.json").write_text(json.dumps(settings))
    before = (out / "measuring.json").read_bytes()
    result = CliRunner().invoke(cli, ["reproduce", "--resume", str(out)])
    assert_one_line(result, names.format(out=out, suite=suite))
    assert (out / "measuring.json").read_bytes() == before
    assert sorted(p.name for p in out.iterdir() if p.name != ".harness.lock") == ["measuring.json"]
