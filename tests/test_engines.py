"""UCI engines as subjects of a run (:mod:`harness.engines`): specs parsed, the fault matrix
(not found, not UCI, an option rejected, a hang, a crash, ``go nodes`` ignored, a crash on
``quit``, counts that do not repeat) on a fake engine (``tests/fake_uci.py``) so it runs
everywhere, ``harness run --engine`` and ``harness engines`` through the command line, and
Stockfish and GNU Chess where they are installed."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import chess
import chess.engine
import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from harness.cli import cli
from harness.engines import session as session_module
from harness.engines.probe import check_engine, find_engines
from harness.engines.session import EngineLimits, EngineSession, harness_score
from harness.engines.spec import EngineSpec, locate, parse_engine, parse_engines
from harness.errors import HarnessError
from harness.games.chess.evaluation import MATE
from harness.results import ENGINE, NOT_MEASURED, load_results, load_run_info

FAKE = Path(__file__).with_name("fake_uci.py")
FEN = "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1"


def fake(mode: str = "ok", *extra: str, name: str = "fake") -> str:
    """The spec of the fake engine in ``mode`` (``extra``: its further arguments)."""
    return f"{name}={shlex.join([sys.executable, str(FAKE), mode, *extra])}"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def refused(result: Result, *words: str) -> None:
    """A bad input: exit 2, one line on stderr holding ``words``, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert all(word in result.output for word in words), result.output


@pytest.fixture()
def quick_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that is not UCI is found out in a second, not ten."""
    monkeypatch.setattr(session_module, "START_TIMEOUT", 1.0)


# -- specs ---------------------------------------------------------------------------------

def test_a_spec_is_a_name_a_command_and_options() -> None:
    spec = parse_engine("gnuchess-nonull=gnuchess --uci,NullMove Pruning=Never,Hash=16")
    assert spec == EngineSpec("gnuchess-nonull", ("gnuchess", "--uci"),
                              (("NullMove Pruning", "Never"), ("Hash", "16")))
    assert parse_engine("sf='/opt/my engines/sf' -x").command == ("/opt/my engines/sf", "-x")


@pytest.mark.parametrize(("text", "words"), [
    ("stockfish", "not NAME=COMMAND"),
    ("=stockfish", "not NAME=COMMAND"),
    ("a,b=stockfish", "may hold only"),
    ("sf=", "no command"),
    ("sf=stockfish,Hash", "not Option=Value"),
    ("sf=stockfish,Hash=1,hash=2", "given twice"),
    ("sf='stockfish", "not shell words"),
])
def test_a_bad_spec_is_one_line(text: str, words: str) -> None:
    with pytest.raises(HarnessError, match=words):
        parse_engine(text)


def test_two_engines_of_one_name_are_refused() -> None:
    with pytest.raises(HarnessError, match="two engines are called sf"):
        parse_engines(["sf=stockfish", "sf=stockfish,Hash=32"])


WORD = st.text(st.sampled_from("abcxyz019-_./"), min_size=1, max_size=8)
OPTION_NAME = st.text(st.sampled_from("abcXYZ19 _"), min_size=1, max_size=10).map(str.strip) \
    .filter(bool)
OPTION_VALUE = st.text(st.sampled_from("abc019 -_"), max_size=8).map(str.strip)


@given(name=st.from_regex(r"[a-z0-9][a-z0-9_.+-]{0,10}", fullmatch=True),
       command=st.lists(WORD, min_size=1, max_size=4),
       options=st.dictionaries(OPTION_NAME, OPTION_VALUE, max_size=4))
def test_a_spec_written_out_parses_back_to_itself(name: str, command: list[str],
                                                  options: dict[str, str]) -> None:
    lowered = {key.lower(): (key, value) for key, value in options.items()}
    spec = EngineSpec(name, tuple(command), tuple(lowered.values()))
    assert parse_engine(spec.text) == spec


def test_a_program_is_looked_for_on_the_path_and_in_usr_games(tmp_path: Path) -> None:
    program = tmp_path / "myengine"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    assert locate("myengine", str(tmp_path)) == str(program)
    assert locate(str(program)) == str(program)
    assert locate("no-such-engine-anywhere", str(tmp_path)) is None


@pytest.mark.parametrize(("score", "expected"), [
    (chess.engine.Cp(35), 35),
    (chess.engine.Mate(1), MATE - 1),                 # mate with the next move: one ply
    (chess.engine.Mate(3), MATE - 5),
    (chess.engine.Mate(-2), -(MATE - 4)),             # mated after two moves of each side
    (chess.engine.Mate(-0), -MATE),                   # mated on the board
])
def test_scores_are_written_as_the_harness_writes_chess_scores(score: chess.engine.Score,
                                                               expected: int) -> None:
    assert harness_score(chess.engine.PovScore(score, chess.WHITE), chess.WHITE) == expected
    assert harness_score(chess.engine.PovScore(-score, chess.BLACK), chess.WHITE) == expected


# -- the fault matrix, on the fake engine ---------------------------------------------------

def test_a_search_reports_its_nodes_depths_score_and_moves() -> None:
    session = EngineSession(parse_engine(fake()))
    try:
        found = session.search(FEN, 3)
        again = session.search(FEN, 3)
    finally:
        session.close()
    assert session.id_name == "Fake UCI 1.0"
    assert session.settings == {"Threads": "1", "Hash": "16"}      # the harness's defaults
    assert found.status == "ok" and found == again
    assert (found.depth, found.seldepth, found.bound) == (3, 5, "exact")
    assert found.nodes is not None and found.nodes >= 300
    assert found.best_move == found.pv[0] and chess.Move.from_uci(found.best_move) in \
        chess.Board(FEN).legal_moves


def test_the_spec_s_options_come_before_the_defaults() -> None:
    session = EngineSession(parse_engine(fake() + ",hash=64,Style=Risky"))
    session.close()
    assert session.settings == {"Hash": "64", "Style": "Risky", "Threads": "1"}
    assert session.describe()["defaults"] == {"Threads": "1"}


@pytest.mark.parametrize(("options", "words"), [
    (",Nope=1", "rejects option 'Nope': it offers no such option"),
    (",Hash=1000", "rejects option Hash=1000: expected value for option 'Hash' to be at most"),
    (",Hash=lots", "rejects option Hash=lots: expected integer"),
    (",Style=Wild", "rejects option Style=Wild: invalid value for combo"),
])
def test_an_option_rejected_is_one_line_naming_the_engine(options: str, words: str) -> None:
    with pytest.raises(HarnessError, match=f"^engine fake .*{words}"):
        EngineSession(parse_engine(fake() + options))


@pytest.mark.usefixtures("quick_start")
@pytest.mark.parametrize(("spec", "words"), [
    ("bad=/bin/cat", "does not speak UCI (no uciok within 1 s)"),
    ("bad=/bin/true", "does not speak UCI (it exited before uciok"),
    (fake("mute", name="bad"), "does not speak UCI"),
    ("bad=no-such-engine-anywhere --uci", "no-such-engine-anywhere not found on PATH or in /usr/games"),
])
def test_an_engine_that_cannot_start_is_one_line(spec: str, words: str) -> None:
    with pytest.raises(HarnessError, match=r"^engine bad") as caught:
        EngineSession(parse_engine(spec))
    assert words in str(caught.value)


def test_a_hung_search_times_out_and_the_next_one_starts_a_new_engine() -> None:
    session = EngineSession(parse_engine(fake("hang")), EngineLimits(timeout_s=0.5))
    try:
        first, second = session.search(FEN, 2), session.search(FEN, 2)
    finally:
        session.close()
    assert (first.status, second.status) == ("timeout", "timeout")
    assert first.nodes is None and first.best_move == "" and "0.5 s" in first.reason
    assert session.restarts == 1


def test_an_engine_that_crashes_is_started_again_once(tmp_path: Path) -> None:
    once = EngineSession(parse_engine(fake("crash-once", str(tmp_path / "crashed"))))
    found = once.search(FEN, 2)
    once.close()
    assert found.status == "ok" and once.restarts == 1
    always = EngineSession(parse_engine(fake("crash")))
    found = always.search(FEN, 2)
    always.close()
    assert found.status == "crashed" and "died twice" in found.reason


def test_a_crash_on_quit_is_not_a_fault() -> None:
    session = EngineSession(parse_engine(fake("crash-on-quit")))
    assert session.search(FEN, 2).status == "ok"
    session.close()                                     # no exception, nothing said


def test_an_engine_that_ignores_go_nodes_is_refused_with_nodes() -> None:
    spec = parse_engine(fake("ignore-nodes"))
    with pytest.raises(HarnessError, match=r"engine fake .*ignores go nodes"):
        check_engine(spec, EngineLimits(nodes=100), FEN, 2, "here")
    checked = check_engine(spec, EngineLimits(), FEN, 2, "here")      # depths alone: fine
    assert checked.warning == "" and checked.record["determinism"]["repeats"]


def test_counts_that_do_not_repeat_are_a_warning() -> None:
    checked = check_engine(parse_engine(fake("drift")), EngineLimits(), FEN, 2, "wac.epd WAC.001")
    assert "engine fake: the same search twice (wac.epd WAC.001, depth 2)" in checked.warning
    assert not checked.record["determinism"]["repeats"]


# -- harness run --engine -------------------------------------------------------------------

def run_args(out: Path, *engines: str, limit: str = "2") -> list[str]:
    return ["run", "--suite", "wac.epd", "--limit", limit, "--variants", "alphabeta,pvs",
            "--depth", "1-2", "--no-progress", "--out", str(out),
            *(arg for spec in engines for arg in ("--engine", spec))]


def test_a_run_with_an_engine_writes_its_rows_and_records_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke(*run_args(out, fake()))
    assert result.exit_code == 0, result.output
    rows = load_results(out)
    mine = rows[rows["variant"] == "fake"]
    assert len(mine) == 4 and set(mine["subject"]) == {ENGINE} and set(mine["frame"]) == {ENGINE}
    assert mine[list(NOT_MEASURED)].isna().all().all()              # empty, not 0
    assert (mine["nodes"] > 0).all() and list(mine["depth_reached"]) == [1, 2, 1, 2]
    assert mine["solved"].notna().all() and (mine["status"] == "ok").all()
    ours = rows[rows["variant"] != "fake"]
    assert (ours["subject"] == "variant").all() and ours["leaves"].notna().all()
    info = load_run_info(out)
    record = info["engines"]["fake"]
    assert record["id_name"] == "Fake UCI 1.0" and record["settings"] == {"Threads": "1", "Hash": "16"}
    assert record["determinism"]["repeats"] and info["engine_warnings"] == []
    assert "fake" in info["answers"]["unchecked"]                   # never cross-checked
    assert "Engines beside the variants" in result.output
    assert "fake: Fake UCI 1.0" in result.output


def test_a_hung_or_crashing_engine_does_not_stop_the_run(tmp_path: Path) -> None:
    # The check before the run searches the first problem: a hang there is refused...
    refused(invoke(*run_args(tmp_path / "a", fake("hang")), "--engine-timeout", "0.5"),
            "engine fake", "ended timeout")
    # ...one later, in the run, is a row.
    out = tmp_path / "b"
    marker = tmp_path / "after-first"
    result = invoke(*run_args(out, fake("ok", name="good"), fake("crash-once", str(marker))))
    assert result.exit_code == 0, result.output
    rows = load_results(out)
    assert set(rows.loc[rows["variant"] == "fake", "status"]) == {"ok"}


def test_a_hang_or_a_crash_in_the_run_is_a_row_and_the_run_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "run"                  # WAC.001: white to move, WAC.002: black
    result = invoke(*run_args(out, fake("hang-black", name="hangs"), fake("crash-black", name="dies")),
                    "--engine-timeout", "0.5")
    assert result.exit_code == 0, result.output
    rows = load_results(out)
    for name, status in (("hangs", "timeout"), ("dies", "crashed")):
        mine = rows[rows["variant"] == name]
        first, second = mine[mine["problem_id"] == "WAC.001"], mine[mine["problem_id"] == "WAC.002"]
        assert first["status"].eq("ok").all() and len(first) == 2
        assert second["status"].eq(status).all() and second["nodes"].isna().all()
    assert "STOPPED: 4 of 16 searches" in result.output
    assert "timeout on 2, crashed on 2" in result.output
    compared = invoke("compare", "alphabeta", "hangs", "--run", str(out), "--out", str(tmp_path / "c"))
    assert compared.exit_code == 0, compared.output
    assert "hangs on 1 of 2 problems (a node or OPEN limit, an engine's timeout or crash)" \
        in compared.output


def test_worker_processes_give_the_same_rows(tmp_path: Path) -> None:
    """Each job starts its own engines, wherever it runs: the rows do not depend on it."""
    for jobs in ("1", "2"):
        assert invoke(*run_args(tmp_path / jobs, fake()), "--jobs", jobs).exit_code == 0
    one, two = (load_results(tmp_path / jobs).drop(columns="time_s") for jobs in ("1", "2"))
    assert one.equals(two) and (one["subject"] == ENGINE).sum() == 4


def test_a_determinism_warning_is_said_and_recorded(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke(*run_args(out, fake("drift")))
    assert result.exit_code == 0, result.output
    assert "WARNING: engine fake: the same search twice" in result.output
    assert load_run_info(out)["engine_warnings"][0].startswith("engine fake:")


@pytest.mark.usefixtures("quick_start")
@pytest.mark.parametrize(("extra", "words"), [
    (["--engine", "bad=/bin/cat"], "engine bad (/bin/cat): does not speak UCI"),
    (["--engine", "x=no-such-engine-anywhere"], "engine x: no-such-engine-anywhere not found"),
    (["--engine", fake() + ",Hash=1000"], "rejects option Hash=1000"),
    (["--engine", fake("ignore-nodes"), "--nodes", "100"], "ignores go nodes"),
    (["--engine", fake(name="pvs")], "a variant of this run has that name"),
    (["--nodes", "100"], "no --engine is given"),
    (["--engine", fake(), "--nodes", "0"], "--nodes 0: needs at least 1"),
    (["--engine", fake(), "--engine-timeout", "0"], "needs more than 0 seconds"),
    (["--engine", "sf=stockfish", "--engine", "sf=stockfish"], "two engines are called sf"),
])
def test_bad_engines_are_one_line_and_nothing_is_written(tmp_path: Path, extra: list[str],
                                                         words: str) -> None:
    out = tmp_path / "run"
    result = invoke(*run_args(out), *extra)
    refused(result, words)
    assert not (out / "results.csv").exists()


def test_engines_search_chess_only(tmp_path: Path) -> None:
    refused(invoke("run", "--trees", "random:b=2,d=2,n=1", "--engine", fake(), "--out",
                   str(tmp_path / "r")), "UCI engines search chess positions", "random")
    refused(invoke("run", "--engine", fake()), "--engine searches chess problems")


def test_a_run_with_engines_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*run_args(out, fake(), limit="3")).exit_code == 0
    whole = (out / "results.csv").read_text().splitlines()
    last = [line for line in whole if ",WAC.003," in line]
    assert len(last) == 6                                  # 2 variants and 1 engine, 2 depths
    (out / "results.csv").write_text("\n".join(line for line in whole if line not in last[2:])
                                     + "\n")
    info = load_run_info(out)
    info["finished"] = None
    (out / "run.json").write_text(json.dumps(info))
    result = invoke("run", "--resume", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    again = (out / "results.csv").read_text().splitlines()
    assert [line for line in again if ",WAC.003," not in line] == \
        [line for line in whole if ",WAC.003," not in line]           # kept as they were
    rows = load_results(out).drop(columns="time_s")
    assert len(rows) == 18 and rows.iloc[-6:]["status"].eq("ok").all()
    assert rows.iloc[-2:]["subject"].eq(ENGINE).all()


def test_compare_names_what_it_compares_for_an_engine(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*run_args(out, fake())).exit_code == 0
    result = invoke("compare", "pvs", "fake", "--run", str(out), "--out", str(tmp_path / "c"))
    assert result.exit_code == 0, result.output
    assert "fake: a UCI engine" in result.output and "compared: nodes at equal depth" in result.output
    assert "solved" in result.output


# -- harness engines -------------------------------------------------------------------------

def test_engines_lists_a_named_engine_with_its_options() -> None:
    result = invoke("engines", fake())
    assert result.exit_code == 0, result.output
    assert "fake: Fake UCI 1.0" in result.output
    assert "option Hash spin default 1 [1, 128]" in result.output
    assert "option Style combo default 'Normal' (Normal | Risky)" in result.output
    assert "ablate --engine: no feature it switches is known (known programs: " in result.output


@pytest.mark.skipif(shutil.which("toga2") is None and not Path("/usr/games/toga2").exists(),
                    reason="Toga II is not installed (apt-get install toga2)")
def test_engines_says_which_features_ablate_can_switch() -> None:
    """Toga II's records (harness/engines/features.py) as the listing says them."""
    result = invoke("engines", "toga2")
    assert result.exit_code == 0, result.output
    assert ("ablate --engine switches null-move off with NullMove Pruning=Never (on: Always)"
            in result.output)
    assert "ablate --engine switches lmr off with History Pruning=false (on: true)" in result.output


@pytest.mark.usefixtures("quick_start")
@pytest.mark.parametrize(("name", "words"), [
    ("crafty", "engine 'crafty' is not one the harness knows"),
    ("bad=/bin/cat", "engine bad (/bin/cat): does not speak UCI"),
    ("bad=", "no command"),
])
def test_engines_refuses_what_it_cannot_list(name: str, words: str) -> None:
    refused(invoke("engines", name), words)


def test_engines_says_which_known_ones_are_missing() -> None:
    found, missing = find_engines()
    names = {engine.spec.name for engine in found} | {line.split(":")[0] for line in missing}
    assert names == {"stockfish", "gnuchess", "toga2", "glaurung", "ethereal", "fairy-stockfish"}


# -- real engines, where they are installed ------------------------------------------------

REAL = {"stockfish": "stockfish", "gnuchess": "gnuchess --uci"}
WAC = ["2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
       "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
       "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RK1 b - - 0 1"]


def real(name: str) -> EngineSpec:
    program = REAL[name].split()[0]
    if locate(program) is None:
        pytest.skip(f"{program} is not installed here (apt-get install {program})")
    return parse_engine(f"{name}={REAL[name]}")


@pytest.mark.parametrize("name", sorted(REAL))
def test_a_real_engine_repeats_its_node_counts(name: str) -> None:
    spec = real(name)
    counts = []
    for _ in range(2):                         # two processes, as two runs would be
        session = EngineSession(spec)
        counts.append([session.search(fen, 5) for fen in WAC])
        session.close()                        # GNU Chess dies on quit: not a fault
    assert all(found.status == "ok" and found.nodes for found in counts[0])
    assert [f.nodes for f in counts[0]] == [f.nodes for f in counts[1]]
    assert [f.best_move for f in counts[0]] == [f.best_move for f in counts[1]]
    assert all(found.depth is not None and found.depth >= 5 for found in counts[0])


def test_stockfish_honours_go_nodes_and_gnuchess_does_not() -> None:
    stockfish, gnuchess = real("stockfish"), real("gnuchess")
    checked = check_engine(stockfish, EngineLimits(nodes=2000), WAC[0], 6, "WAC.001")
    assert checked.record["id_name"].startswith("Stockfish")
    assert checked.record["determinism"]["first"]["nodes"] <= 2000 + 64
    with pytest.raises(HarnessError, match=r"engine gnuchess .*ignores go nodes"):
        check_engine(gnuchess, EngineLimits(nodes=2000), WAC[0], 3, "WAC.001")


def test_a_run_beside_gnuchess(tmp_path: Path) -> None:
    real("gnuchess")
    out = tmp_path / "run"
    result = invoke("run", "--suite", "wac.epd", "--limit", "2", "--variants", "pvs", "--depth", "3",
                    "--no-progress", "--out", str(out), "--engine", "gnuchess=gnuchess --uci")
    assert result.exit_code == 0, result.output
    rows = load_results(out)
    gnu = rows[rows["variant"] == "gnuchess"]
    assert len(gnu) == 2 and (gnu["nodes"] > 0).all() and (gnu["seldepth"] >= 3).all()
    assert load_run_info(out)["engines"]["gnuchess"]["id_name"].startswith("GNU Chess")


# -- results of schema version 3 (before engines) --------------------------------------------

def as_version_3(out: Path, drop_problem: str | None = None) -> None:
    """Turn the run in ``out`` into one an older harness wrote (schema version 3: no
    ``subject``, ``depth_reached`` or ``seldepth``), without ``drop_problem``'s rows."""
    import csv
    import io

    later = ("subject", "depth_reached", "seldepth")
    rows = list(csv.DictReader(io.StringIO((out / "results.csv").read_text())))
    columns = [c for c in rows[0] if c not in later]
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(row for row in rows if row["problem_id"] != drop_problem)
    (out / "results.csv").write_text(text.getvalue())
    info = load_run_info(out)
    info.update(schema_version=3, columns=columns, finished=None if drop_problem else info["finished"])
    (out / "run.json").write_text(json.dumps(info))


def test_a_version_3_run_is_read_and_resumed_as_version_4(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--suite", "wac.epd", "--limit", "2", "--variants", "alphabeta",
                  "--depth", "1", "--no-progress", "--out", str(out)).exit_code == 0
    as_version_3(out, drop_problem="WAC.002")
    old = load_results(out)
    assert list(old["subject"]) == ["variant"] and old["depth_reached"].isna().all()
    result = invoke("run", "--resume", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    assert load_run_info(out)["schema_version"] == 4
    assert list(load_results(out)["subject"]) == ["variant", "variant"]
