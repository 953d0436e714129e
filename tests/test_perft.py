"""``harness perft``: a move generator checked against a perft suite's counts.

The counts are the standard ones (chessprogramming wiki, "Perft Results"), independent of
the harness; a count that differs is exit 3 and a line on stderr, a bad line exit 2.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import DISAGREEMENT_EXIT
from harness.games.chess import compiled
from harness.games.chess.epd import illegal_position
from harness.games.chess.perft import check_suite, parse_line, read_suite
from harness.games.chess.suite_files import project_positions

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
SUITE = (f"# two positions and an endgame\n{START} ;D1 20 ;D2 400 ;D3 8902\n\n"
         f"{KIWIPETE} ;D1 48 ;D2 2039 ;D3 97862\n{POSITION_3} ;D1 14 ;D2 191; D3 2812 ;D4 43238\n")
SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions" / "perftsuite.epd"


@pytest.mark.parametrize("generator", ["harness", "python-chess"])
def test_every_count_of_the_standard_positions(tmp_path: Path, generator: str) -> None:
    path = tmp_path / "p.perft"
    path.write_text(SUITE)
    result = CliRunner().invoke(cli, ["perft", str(path), "--depth", "4", "--generator", generator])
    assert result.exit_code == 0, result.output
    assert "p.perft:2: ok  D1 20, D2 400, D3 8,902" in result.output
    assert "p.perft:5: ok  D1 14, D2 191, D3 2,812, D4 43,238" in result.output
    assert "3 positions, depths 1-4" in result.output and "every count is the suite's" in result.output


def test_a_wrong_count_is_exit_3_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "p.perft"
    path.write_text(SUITE.replace(";D2 2039", ";D2 2038"))
    result = CliRunner().invoke(cli, ["perft", str(path), "--depth", "2"])
    assert result.exit_code == DISAGREEMENT_EXIT, result.output
    assert "p.perft:4: DIFFERS  D1 48, D2 2,039 (expected 2,038)" in result.stderr
    assert "1 counts differ from the suite's" in result.stderr
    assert "Traceback" not in result.output


def test_depths_beyond_the_option_are_not_counted_and_the_limit_stops_reading(tmp_path: Path) -> None:
    path = tmp_path / "p.perft"
    path.write_text(SUITE + "not a position at all\n")
    results = check_suite(read_suite(path, limit=2), depth=2)
    assert [(r.position.line, r.depth, r.counted, r.agrees) for r in results] == [
        (2, 1, 20, True), (2, 2, 400, True), (4, 1, 48, True), (4, 2, 2039, True)]
    result = CliRunner().invoke(cli, ["perft", str(path), "--limit", "3", "--depth", "1"])
    assert result.exit_code == 0, result.output


def test_counts_from_a_fen() -> None:
    result = CliRunner().invoke(cli, ["perft", "--fen", KIWIPETE, "--depth", "3"])
    assert result.exit_code == 0, result.output
    assert [line.split()[:2] for line in result.output.splitlines()[:3]] == [
        ["D1", "48"], ["D2", "2,039"], ["D3", "97,862"]]


@pytest.mark.skipif(not SHARED.is_file(), reason="../shared/positions is absent")
def test_the_public_perft_suite_to_depth_2() -> None:
    """Its line 51 is an impossible check (two bishops on one diagonal give it), which a
    run refuses: so does perft, unless told to skip it."""
    refused = CliRunner().invoke(cli, ["perft", str(SHARED), "--depth", "2"])
    assert refused.exit_code == 2
    assert refused.stderr.strip() == f"Error: {SHARED}:51: illegal position: impossible check"
    result = CliRunner().invoke(cli, ["perft", str(SHARED), "--depth", "2", "--skip-invalid"])
    assert result.exit_code == 0, result.output
    assert f"warning: {SHARED}:51: illegal position: impossible check (skipped)" in result.stderr
    assert "127 positions (1 line skipped), depths 1-2" in result.stdout


def test_the_projects_perft_epd_is_a_suite() -> None:
    """The project's perft.epd (EPD with 'D1 20; D2 400;' operations) was read as a FEN
    and refused ("invalid half-move clock"); its counts are the published ones."""
    result = CliRunner().invoke(cli, ["perft", "perft.epd", "--depth", "3"])
    assert result.exit_code == 0, result.output
    assert "perft.epd:7 (start): ok  D1 20, D2 400, D3 8,902" in result.stdout
    assert "perft.epd:8 (kiwipete): ok  D1 48, D2 2,039, D3 97,862" in result.stdout
    assert "perft.epd:12 (position6): ok  D1 46, D2 2,079, D3 89,890" in result.stdout
    assert "6 positions, depths 1-3" in result.stdout and "the last ply bulk-counted" in result.stdout


def test_both_formats_give_the_same_position_and_counts() -> None:
    epd = parse_line(f'{KIWIPETE[:-4]} D1 48; D2 2039; hmvc 3; fmvn 7; id "kiwipete";', "p.epd", 2)
    public = parse_line(f"{KIWIPETE[:-4]} 3 7 ;D1 48 ;D2 2039", "p.perft", 2)
    assert epd is not None and public is not None
    assert (epd.fen, epd.counts, epd.name) == (KIWIPETE[:-4] + " 3 7", {1: 48, 2: 2039}, "kiwipete")
    assert (public.fen, public.counts, public.name) == (epd.fen, epd.counts, "")


def test_a_wrong_count_in_an_epd_suite_names_the_position_and_depth(tmp_path: Path) -> None:
    path = tmp_path / "p.epd"
    path.write_text((project_positions() / "perft.epd").read_text().replace("D3 97862;", "D3 97863;"))
    result = CliRunner().invoke(cli, ["perft", str(path), "--depth", "3"])
    assert result.exit_code == DISAGREEMENT_EXIT, result.output
    assert "p.epd:8 (kiwipete): DIFFERS  D1 48, D2 2,039, D3 97,862 (expected 97,863)" in result.stderr
    assert "1 counts differ from the suite's: p.epd:8 (kiwipete) D3 (exit 3)" in result.stderr
    assert "p.epd:9 (position3): ok" in result.stdout        # the others are still counted


@pytest.mark.parametrize("text", ["", "# a comment\n\n"])
def test_a_suite_with_no_position_is_refused(tmp_path: Path, text: str) -> None:
    """As a run refuses it; perft passed it, counting nothing."""
    path = tmp_path / "empty.epd"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["perft", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (f"Error: {path}: no positions (no perft lines: 'FEN ;D1 20 "
                                     ";D2 400 ...' or EPD with 'D1 20; D2 400;')")


def test_a_suite_whose_every_line_is_skipped_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kings.perft"
    path.write_text("4k3/8/8/8/8/8/8/K3K3 w - - 0 1 ;D1 5\n")
    result = CliRunner().invoke(cli, ["perft", str(path), "--skip-invalid"])
    assert result.exit_code == 2
    assert (f"{path}: no valid positions (1 lines skipped; the first, line 1: illegal position: "
            "too many kings)") in result.stderr


@pytest.mark.parametrize("fen,why", [
    ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "too many kings"),                 # two white kings
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "no white king"),
    ("4k3/8/8/8/8/8/4R3/K7 w - - 0 1", "opposite check"),                 # Black, not to move, in check
    ("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", "impossible check"),            # perftsuite.epd:51
])
def test_an_illegal_fen_is_refused_as_a_run_refuses_it(fen: str, why: str) -> None:
    result = CliRunner().invoke(cli, ["perft", "--fen", fen])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == f"Error: --fen: illegal position: {why}"
    assert illegal_position(chess.Board(fen)) == f"illegal position: {why}"   # what a run says


def test_without_the_compiled_board_it_counts_in_python_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HARNESS_PURE_PYTHON", "1")
    result = CliRunner().invoke(cli, ["perft", "perft.epd", "--depth", "2", "--limit", "2"])
    assert result.exit_code == 0, result.output
    assert "generator harness (Python), the last ply bulk-counted" in result.stdout
    assert "counts in Python" in result.stderr and "note: " in result.stderr
    monkeypatch.delenv("HARNESS_PURE_PYTHON")
    result = CliRunner().invoke(cli, ["perft", "perft.epd", "--depth", "2", "--limit", "2"])
    assert "note: " not in result.stderr
    expected = "compiled" if compiled.compiled_available() else "Python"
    assert f"generator harness ({expected})" in result.stdout


def test_where_the_board_was_not_built_the_note_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled.BUILD, "built", None)              # as after HARNESS_BUILD_PURE=1
    result = CliRunner().invoke(cli, ["perft", "--fen", KIWIPETE, "--depth", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split()[:2] == ["D2", "2,039"]
    assert "generator harness (Python)" in result.stdout
    assert ("note: the compiled chess board was not built (HARNESS_BUILD_PURE=1, or no C compiler "
            "at install): the harness's generator counts in Python") in result.stderr


@pytest.mark.parametrize("generator", ["harness", "python-chess"])
def test_the_fen_counts_say_their_rate_and_the_bulk_counting(generator: str) -> None:
    result = CliRunner().invoke(cli, ["perft", "--fen", START, "--depth", "2", "--generator", generator])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert all(re.search(r" s  [\d.-]+ M nodes/s$", line) for line in lines[:2]), lines
    assert lines[2].startswith(f"generator {generator}") and lines[2].endswith("the last ply bulk-counted")


@pytest.mark.skipif(not compiled.compiled_available(), reason="the compiled chess board was not built")
@pytest.mark.parametrize("signal_number,exit_code,said", [
    (signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_a_deep_compiled_count_stops_when_asked(signal_number: int, exit_code: int, said: str) -> None:
    """Depth 7 from the start is 3.2 billion leaves (about a minute compiled), depth 8 85
    billion: Ctrl-C or SIGTERM stops the count at once, the counts shown kept. The C
    count looked at no signal, so it ran to the end of the depth first."""
    process = subprocess.Popen([sys.executable, "-m", "harness", "perft", "--fen", START, "--depth", "8"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    shown = [process.stdout.readline() for _ in range(6)]      # D1-D6: D7 is being counted
    assert shown[5].startswith("D6    119,060,324"), shown
    process.send_signal(signal_number)
    try:
        rest, errors = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == exit_code, errors
    assert f"{said}: every count above is complete; finish with: the same command again" in errors
    assert "Traceback" not in errors and rest == ""
