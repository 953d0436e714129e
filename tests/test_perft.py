"""``harness perft``: a move generator checked against a perft suite's counts.

The counts are the standard ones (chessprogramming wiki, "Perft Results"), independent of
the harness; a count that differs is exit 3 and a line on stderr, a bad line exit 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import DISAGREEMENT_EXIT
from harness.games.chess.perft import check_suite, read_suite

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
    assert [line.split()[:2] for line in result.output.splitlines()] == [
        ["D1", "48"], ["D2", "2,039"], ["D3", "97,862"]]


@pytest.mark.skipif(not SHARED.is_file(), reason="../shared/positions is absent")
def test_the_public_perft_suite_to_depth_2() -> None:
    result = CliRunner().invoke(cli, ["perft", str(SHARED), "--depth", "2"])
    assert result.exit_code == 0, result.output
    assert "128 positions, depths 1-2" in result.output
