"""From a node saving to Elo: the prediction's arithmetic, the calibration's depth, and a
calibrated match end to end."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from harness.match.calibrate import (
    CALIBRATION_FILE,
    Calibration,
    calibration_depth,
    predict,
)
from harness.match.link import Link
from harness.match.match import run_match
from harness.match.pairs import Tally
from harness.match.play import Budget, Side
from harness.match.settings import MatchConfig
from harness.match.stats import Pentanomial, Sprt, estimate


def calibration_of(pair_points: list[tuple[float, float]], depth: int = 4) -> Calibration:
    tally = Tally(Sprt())
    for first, second in pair_points:
        tally.add(first, second)
    return Calibration(depth, tally.progress(len(pair_points)))


def test_the_prediction_is_plies_times_the_elo_of_a_ply() -> None:
    # B searches twice A's nodes; a ply costs 4 times the nodes: A is half a ply deeper.
    checked = Link(5, 10, (1000, 2000), (), (250, 500))
    assert checked.branching == 4.0 and checked.ratio == 0.5
    # A ply scores 3/4 in every pair (a win and a draw): 190.85 Elo.
    calibration = calibration_of([(1, 0.5), (0.5, 1)] * 5)
    per_ply = calibration.progress.estimate
    assert per_ply is not None and per_ply.elo == pytest.approx(-400 * math.log10(1 / 0.75 - 1))
    match = estimate(Pentanomial(0, 0, 2, 8, 10))     # any estimate: its interval, 195 to 408
    prediction = predict(checked, calibration, match)
    assert prediction is not None
    assert prediction.plies == pytest.approx(0.5)
    assert prediction.elo == pytest.approx(0.5 * per_ply.elo)
    assert prediction.agrees is False                 # 95 Elo is outside it


def test_a_match_without_an_interval_neither_agrees_nor_disagrees() -> None:
    """Every pair of the match drawn: its Elo interval is undefined, not the point 0, so
    the prediction is compared with nothing (before, 0 +/- 0 made it disagree)."""
    checked = Link(5, 10, (1000, 2000), (), (250, 500))
    calibration = calibration_of([(1, 0.5), (0.5, 1), (1, 0), (0.5, 0.5)])
    prediction = predict(checked, calibration, estimate(Pentanomial(0, 0, 6, 0, 0)))
    assert prediction is not None and prediction.agrees is None


def test_no_prediction_without_its_numbers() -> None:
    wins = calibration_of([(1, 1)] * 3)               # a ply worth everything: infinite Elo
    checked = Link(5, 10, (1000, 2000), (), (250, 500))
    assert predict(checked, wins, None) is None
    flat = Link(1, 10, (1000, 2000), ())              # depth 1: no branching factor
    assert flat.branching is None
    assert predict(flat, calibration_of([(1, 0.5)]), None) is None


def test_the_calibration_depth() -> None:
    assert calibration_depth([4.2, 3.9, 4.6], Budget("nodes")) == 4
    assert calibration_depth([], Budget("nodes")) == 1
    assert calibration_depth([9.0], Budget("depth", depth=3)) == 3


def test_a_calibrated_match(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("44\n4453\n")
    config = MatchConfig((Side("pvs"), Side("alphabeta")), f"connect4:{openings}",
                         Budget("nodes", nodes=300), link_depth=4, calibrate=True)
    result = run_match(config, tmp_path / "out")
    assert result.calibration is not None and result.calibration.progress.pair == 2
    with (tmp_path / "out" / CALIBRATION_FILE).open() as file:
        rows = list(csv.DictReader(file))
    depth = result.calibration.depth
    assert [(r["first"], r["second"]) for r in rows] == [
        (f"pvs@{depth + 1}", f"pvs@{depth}"), (f"pvs@{depth}", f"pvs@{depth + 1}")] * 2
    info = json.loads((tmp_path / "out" / "run.json").read_text())
    assert info["config"]["calibrate"] is True
    assert info["result"]["calibration"]["pairs"] == 2


def test_the_command_says_what_a_ply_is_worth(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from harness.cli import cli

    openings = tmp_path / "openings.txt"
    openings.write_text("44\n4453\n")
    result = CliRunner().invoke(cli, ["match", "pvs", "alphabeta", "--problems",
                                      f"connect4:{openings}", "--nodes", "300", "--link-depth",
                                      "4", "--calibrate", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(",")[0] for line in lines if line.startswith("calibration:")] == [
        "calibration: pair 1/2", "calibration: pair 2/2"]
    told = [line for line in lines if line.startswith("Elo of one ply (A at depth ")]
    assert len(told) == 1 and "2 pairs): " in told[0]
