"""The command line, end to end through Click's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.results import ROW_COLUMNS, SCHEMA_VERSION, load_results
from harness.search import VARIANTS


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def test_variants_lists_every_variant_with_source() -> None:
    result = invoke("variants")
    assert result.exit_code == 0
    for variant in VARIANTS:
        assert f"\n{variant.name} " in "\n" + result.output
    assert result.output.count("source: ") == len(VARIANTS)
    assert "option zw_min_depth=1" in result.output


def test_run_tree_file(tmp_path: Path, textbook_file: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--tree", str(textbook_file), "--variants", "alphabeta,minimax",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "alphabeta" in result.output and "textbook.json" in result.output
    frame = load_results(out)
    assert list(frame.columns) == list(ROW_COLUMNS)
    rows = frame.set_index("variant")
    assert (rows.loc["alphabeta", "nodes"], rows.loc["alphabeta", "leaves"]) == (11, 7)
    assert (rows.loc["minimax", "nodes"], rows.loc["minimax", "leaves"]) == (13, 9)
    assert rows.loc["alphabeta", "score"] == 3
    info = json.loads((out / "run.json").read_text())
    assert info["schema_version"] == SCHEMA_VERSION
    assert info["config"]["problems"] == [f"tree:{textbook_file}"]
    assert info["finished"] and info["versions"]["pandas"]
    assert len(info["config_hash"]) == 64


def test_run_synthetic_with_options_depth_range_table_and_id(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--trees", "random:b=3,d=4,n=3,seed=2", "--variants",
                    "pvs:zw_min_depth=3,research_min_depth=2,mtdf", "--depth", "2-4",
                    "--tt", "4096", "--id", "--minimal", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame = load_results(out)
    assert len(frame) == 3 * 2 * 3
    assert set(frame["variant"]) == {"pvs:research_min_depth=2,zw_min_depth=3", "mtdf"}
    assert set(frame["depth"]) == {2, 3, 4}
    assert (frame["tt_size"] == 4096).all() and (frame["iterative"] == 1).all()
    assert (frame["minimal_source"] == "measured").all()
    pvs = frame[frame["variant"].str.startswith("pvs")]
    assert (pvs["options"] == "research_min_depth=2,zw_min_depth=3").all()
    assert (frame.groupby(["problem_id", "depth"])["score"].nunique() == 1).all()
    assert (frame["passes"] >= frame["depth"]).all()       # one pass per iteration at least


def test_run_default_shows_the_comparison(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from harness.run import experiment

    # The real default (trees and the project's chess suite), shrunk to test size.
    small = tuple((name, replace(config, limit=2, depths=(1, 2))) for name, config
                  in experiment.DEFAULT_RUNS)
    assert [name for name, _ in small] == ["trees", "chess"]
    assert small[1][1].problems == ("chess:bench.epd",)
    monkeypatch.setattr(experiment, "DEFAULT_RUNS", small)
    out = tmp_path / "default"
    result = invoke("run", "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    trees, chess = load_results(out / "trees"), load_results(out / "chess")
    assert trees["suite"].nunique() == 2 and len(set(trees["variant"])) == len(VARIANTS)
    assert set(chess["suite"]) == {"bench.epd"} and chess["fen"].str.len().gt(0).all()
    assert (trees["iterative"] == 1).all() and (chess["iterative"] == 1).all()
    assert 'href="chess/report.html"' in (out / "index.html").read_text()


@pytest.mark.parametrize("args,message", [
    (["--tree", "{bad}"], "invalid JSON"),
    (["--tree", "{leaf}"], "leaf value must be an integer"),
    (["--tree", "{empty}"], "empty child list"),
    (["--tree", "{missing}"], "cannot read"),
    (["--trees", "random:b=2,d=2,q=1"], "unknown option 'q'"),
    (["--trees", "random:b=2,d=2", "--variants", "pvz"], "unknown variant 'pvz' (valid: minimax"),
    (["--trees", "random:b=2,d=2", "--variants", "pvs:depth=2"], "unknown option 'depth'"),
    (["--trees", "random:b=2,d=2", "--variants", "pvs:zw_min_depth=x"], "is not an integer"),
    (["--trees", "random:b=2,d=2", "--depth", "0"], "depth 0 is impossible"),
    (["--trees", "random:b=2,d=2", "--depth", "-1"], "depth '-1' is not N or A-B"),
    (["--trees", "random:b=2,d=2", "--depth", "3-2"], "is empty"),
    (["--tree", "{shallow}", "--depth", "1"], "interior nodes without a value"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path: Path, args: list[str],
                                               message: str) -> None:
    files = {"bad": "[[1, 2], [3,", "leaf": '[[1, "a"]]', "empty": "[[1], []]",
             "shallow": "[[1, 2], [3, 4]]"}
    for name, text in files.items():
        (tmp_path / f"{name}.json").write_text(text)
    args = [a.format(**{k: str(tmp_path / f"{k}.json") for k in [*files, "missing"]})
            for a in args]
    result = invoke("run", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert message in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()               # nothing started, nothing half-written


def test_existing_run_folder_is_refused(tmp_path: Path, textbook_file: Path) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--tree", str(textbook_file), "--out", str(out)).exit_code == 0
    before = (out / "results.csv").read_text()
    result = invoke("run", "--tree", str(textbook_file), "--out", str(out))
    assert result.exit_code == 2 and "already holds a run" in result.output
    assert (out / "results.csv").read_text() == before


def test_unknown_schema_version_is_refused(tmp_path: Path, textbook_file: Path) -> None:
    out = tmp_path / "run"
    invoke("run", "--tree", str(textbook_file), "--out", str(out))
    info = json.loads((out / "run.json").read_text())
    info["schema_version"] = 999
    (out / "run.json").write_text(json.dumps(info))
    from harness.errors import HarnessError
    with pytest.raises(HarnessError, match="schema version 999"):
        load_results(out)


def test_results_are_tidy(tmp_path: Path) -> None:
    out = tmp_path / "run"
    invoke("run", "--trees", "random:b=2,d=3,n=2", "--variants", "core", "--out", str(out))
    frame = pd.read_csv(out / "results.csv")
    assert not frame.duplicated(["suite", "problem_id", "variant", "depth"]).any()
    assert len(frame) == 2 * 10


def test_help_for_every_command() -> None:
    for command in ([], ["run"], ["variants"]):
        result = invoke(*command, "--help")
        assert result.exit_code == 0 and "Usage" in result.output


SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"
needs_shared = pytest.mark.skipif(not (SHARED / "wac.epd").is_file(),
                                  reason="the public suites (../shared/positions) are not here")


@needs_shared
def test_run_chess_suite_with_epd_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import chess

    monkeypatch.setenv("HARNESS_SUITES", str(SHARED))
    out, epd = tmp_path / "bk", tmp_path / "bk-out.epd"
    result = invoke("run", "--suite", "bk", "--variants", "alphabeta,pvs", "--depth", "1-2",
                    "--out", str(out), "--epd-out", str(epd))
    assert result.exit_code == 0, result.output
    assert "solved" in result.output
    frame = load_results(out)
    assert len(frame) == 24 * 2 * 2
    assert frame["fen"].str.contains("/").all() and frame["pv"].str.len().gt(0).all()
    assert set(frame["solved"].dropna()) <= {0.0, 1.0} and frame["solved"].notna().all()
    info = json.loads((out / "run.json").read_text())
    assert info["suites"]["bk.epd"]["sha256"] == (
        "5ec04792855455348b21a78dac15b39560cc9b459a5a0dbeca9401d82e51e9e6")
    assert info["config"]["switches"]["quiescence"] is True
    lines = epd.read_text().splitlines()
    assert len(lines) == len(frame)
    board, ops = chess.Board.from_epd(lines[0])
    assert board.fen() == frame["fen"][0]
    assert ops["id"] == frame["problem_id"][0] and ops["acd"] == 1 and "bm" in ops
    assert ops["acn"] == frame["nodes"][0] and ops["Hvariant"] == "alphabeta"
    assert [m.uci() for m in ops["pv"]] == frame["pv"][0].split()


@needs_shared
def test_malformed_epd_stops_or_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HARNESS_SUITES", str(SHARED))
    result = invoke("run", "--suite", "kaufman", "--variants", "alphabeta", "--depth", "1",
                    "--out", str(tmp_path / "k1"))
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and "kaufman.epd:3:" in result.output
    assert len(result.output.strip().splitlines()) == 1
    result = invoke("run", "--suite", "kaufman", "--skip-invalid", "--variants", "alphabeta",
                    "--depth", "1", "--out", str(tmp_path / "k2"))
    assert result.exit_code == 0, result.output
    info = json.loads((tmp_path / "k2" / "run.json").read_text())
    assert [line for line, _ in info["suites"]["kaufman.epd"]["skipped"]] == [3, 8]
    assert len(load_results(tmp_path / "k2")) == 23
    result = invoke("run", "--suite", "perftsuite", "--out", str(tmp_path / "p"))
    assert result.exit_code == 2 and "perftsuite.epd:1:" in result.output


def test_missing_suite_says_where_it_looked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.games.chess import suite_files as suites

    monkeypatch.setenv("HARNESS_SUITES", str(tmp_path))
    monkeypatch.setattr(suites, "shared_positions", list)     # no checkout's shared suites
    result = invoke("run", "--suite", "wac", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert str(tmp_path) in result.output and "harness suites get wac" in result.output


def test_suites_lists_project_suites(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HARNESS_SUITES", str(tmp_path))
    result = invoke("suites")
    assert result.exit_code == 0
    assert "perft.epd" in result.output and "6 positions" in result.output


@needs_shared
def test_suites_get_from_a_local_server(tmp_path: Path) -> None:
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(SHARED))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        result = invoke("suites", "get", "bk", "--dest", str(tmp_path), "--base-url", url)
        assert result.exit_code == 0, result.output
        assert (tmp_path / "bk.epd").read_bytes() == (SHARED / "bk.epd").read_bytes()
        result = invoke("suites", "get", "nosuch", "--dest", str(tmp_path), "--base-url", url)
        assert result.exit_code == 2 and "unknown suite" in result.output
    finally:
        server.shutdown()
        server.server_close()


def test_compare_runs_and_gates(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    args = ["compare", "alphabeta", "pvs", "minimax", "--trees", "random:b=3,d=4,n=12,seed=4",
            "--out", str(out)]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "minimax searched more nodes than alphabeta" in result.output
    assert "significant" in result.output
    table = pd.read_csv(out / "compare.csv")
    assert set(table["variant"]) == {"pvs", "minimax"} and (table["n"] == 12).all()
    assert (out / "compare_scatter.png").stat().st_size > 0
    gated = invoke("compare", "alphabeta", "minimax", "--run", str(out), "--fail-if-worse", "10")
    assert gated.exit_code == 1
    fail = gated.stderr.splitlines()         # which variant, set and depth broke the gate
    assert fail and all(line.startswith("FAIL: minimax needs ") for line in fail)
    assert f"more nodes than alphabeta on {table['suite'][0]} at depth 4 (limit 10%)" in fail[-1]
    relaxed = invoke("compare", "alphabeta", "pvs", "--run", str(out), "--fail-if-worse", "1000")
    assert relaxed.exit_code == 0, relaxed.output
    missing = invoke("compare", "alphabeta", "negascout", "--run", str(out))
    assert missing.exit_code == 2 and "negascout" in missing.output


def test_report_rebuilds_from_results_and_show_prints_summary(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--trees", "random:b=3,d=3,n=4", "--variants", "alphabeta,pvs,scout",
                  "--depth", "1-3", "--out", str(out)).exit_code == 0
    page = (out / "report.html").read_text()
    summary = (out / "summary.csv").read_bytes()
    (out / "report.html").unlink()
    (out / "summary.csv").unlink()
    result = invoke("report", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "report.html").read_text() == page          # a pure function of the rows
    assert (out / "summary.csv").read_bytes() == summary
    shown = invoke("show", str(out))
    assert shown.exit_code == 0 and "scout" in shown.output and "re-search" in shown.output
    folder = invoke("show", str(tmp_path))              # a folder of runs: each one
    assert folder.exit_code == 0 and f"{out}\n" in folder.output and "scout" in folder.output
    assert invoke("show", str(out / "charts")).exit_code == 2


def test_limit_and_a_folder_of_runs_gets_an_index(tmp_path: Path) -> None:
    runs = tmp_path / "ci"
    for name, spec in (("a", "random:b=2,d=3,n=5,seed=1"), ("b", "random:b=3,d=3,n=5,seed=2")):
        result = invoke("run", "--trees", spec, "--limit", "2", "--variants", "alphabeta,pvs",
                        "--no-progress", "--out", str(runs / name))
        assert result.exit_code == 0, result.output
        assert load_results(runs / name)["problem_id"].nunique() == 2
    result = invoke("report", str(runs))
    assert result.exit_code == 0, result.output
    index = (runs / "index.html").read_text()
    assert 'href="a/report.html"' in index and 'href="b/report.html"' in index
    (runs / "index.html").unlink()
    assert invoke("report", "--index-only", str(runs)).exit_code == 0
    assert (runs / "index.html").read_text() == index
    assert invoke("report", str(tmp_path / "ci" / "a" / "charts")).exit_code == 2
