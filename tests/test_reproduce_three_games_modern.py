"""Claim 15, claim 12 on the modern profile: the jobs are `harness run --profile modern`'s
searches on each game, the confirmation leaves out every position searched before, the
judged depths are the two deepest (one odd, one even), a stopped search leaves its
position out, the Bonferroni level, the checks."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.reproduce.claims import three_games_modern as m
from harness.reproduce.measure import FULL, QUICK, measure
from harness.reproduce.phases import CONFIRM, EXPLORE, data_of
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import FAILS, HOLDS, INCONCLUSIVE

BOOT = Bootstrap(0.95, 2000, 0)


def test_the_jobs_are_both_algorithms_with_the_modern_profile_at_each_depth() -> None:
    jobs = m.jobs(QUICK)
    assert [dict(tags)["set"] for tags, _, _ in jobs] == ["chess"] * 2 + ["othello"] * 2 + ["checkers"] * 2
    for (_, problem, runs), (game, _, first, last) in zip(jobs[::2], QUICK.modern_games, strict=True):
        assert [(r.variant, r.depth) for r in runs] == [
            (v, d) for d in range(first, last + 1) for v in ("aspiration:inner=negascout", m.MTDF_SPEC)]
        switches = runs[0].switches
        assert switches == m.PROFILE.configuration.switches
        assert switches.iterative_deepening and switches.selectivity.late_move_reductions
        assert problem.game == game
    chess = jobs[0][1]
    assert chess.option("repetition") and chess.option("killers") and chess.option("history")


@pytest.mark.parametrize("game", ["chess", "othello"])
def test_its_counts_are_harness_run_s(tmp_path: Path, game: str) -> None:
    """The claim's searches and `harness run --profile modern`'s are the same searches."""
    tags, problem, runs = next(j for j in m.jobs(QUICK) if dict(j[0])["set"] == game)
    rows = measure(tags, problem, runs[:2])
    spec = ("chess:selfplay-explore.epd" if game == "chess" else f"{game}:plaat-explore.txt")
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", "--profile", "modern", "--problems", spec,
                                       "--depth", str(runs[0].depth), "--variants",
                                       "aspiration:inner=negascout,mtdf:max_passes=1000", "--out", str(out),
                                       "--no-progress"])
    assert result.exit_code == 0, result.output
    found = pd.read_csv(out / "results.csv", dtype={"problem_id": str})
    for row in rows:
        same = found[(found["variant"] == row["variant"])
                     & (found["problem_id"] == str(row["problem_id"]))].iloc[0]
        assert (same["nodes"], same["qnodes"], same["leaves"], same["passes"]) == (
            row["nodes"], row["qnodes"], row["leaves"], row["passes"])


def test_the_confirmation_leaves_out_every_position_searched_before() -> None:
    confirm = data_of(m.RULES, CONFIRM)
    explore = data_of(m.RULES, EXPLORE)
    assert confirm is not None and explore is not None
    data, explored = confirm[m.KEY], explore[m.KEY]
    checkers = m.held_out_positions("checkers", data, explored, 1000)
    assert len(checkers) == 375                  # 400, of which 25 are in earlier files
    earlier = {p.position for name in ("suite.txt", "plaat-confirm.txt", "plaat-confirm-3.txt",
                                       "plaat-explore.txt")
               for p in m.held_out_positions("checkers", {"checkers": name}, {"checkers": name}, 10_000)}
    assert not earlier & {p.position for p in checkers}
    assert len(m.held_out_positions("othello", data, explored, 1000)) == 128
    assert len(m.held_out_positions("chess", data, explored, 1000)) == 200


def rows_of(leaves: dict[str, tuple[int, int]], depths: tuple[int, ...] = (11, 12),
            game: str = "othello", status: str = "ok") -> pd.DataFrame:
    """Rows of both algorithms per position (aspiration NegaScout's leaves, MTD(f)'s) at
    every depth; MTD(f) with 5 passes per iteration after a first of 2."""
    rows = []
    for depth in depths:
        for problem, (asp, mtd) in leaves.items():
            for variant, count in (("aspiration:inner=negascout", asp), ("mtdf", mtd)):
                rows.append({"set": game, "suite": f"{game}:x.txt", "config": "modern",
                             "problem_id": problem, "variant": variant, "depth": depth,
                             "status": status if variant == "mtdf" and problem == "p1" else "ok",
                             "nodes": 2 * count, "qnodes": 0, "leaves": count, "score": 0,
                             "passes": 2 + 5 * (depth - 1) if variant == "mtdf" else depth,
                             "first_passes": 2 if variant == "mtdf" else 1, "researches": 0})
    return pd.DataFrame(rows)


def test_the_two_deepest_depths_are_judged_and_parity_reported() -> None:
    found = m.numbers_of(rows_of({"p1": (100, 90), "p2": (100, 80)}, depths=(9, 10, 11, 12)), BOOT)
    game = found["games"]["othello"]
    assert game["judged"] == ["11", "12"]
    assert game["parity"] == {"odd": ["9", "11"], "even": ["10", "12"]}
    at = game["depths"]["12"]
    assert at["leaves"]["ratio"] == pytest.approx((0.9 * 0.8) ** 0.5)
    assert at["leaves"]["totals"] == pytest.approx(170 / 200)
    assert at["mtdf_passes_per_iteration"]["mean"] == pytest.approx(5.0)
    assert len(m.judge(found)) == 2 * 4


def test_a_stopped_search_leaves_its_position_out_and_is_counted() -> None:
    found = m.numbers_of(rows_of({"p1": (100, 90), "p2": (100, 80)}, status="pass-cap"), BOOT)
    game = found["games"]["othello"]
    assert game["left_out"] == ["p1 at depth 11", "p1 at depth 12"]
    assert game["depths"]["12"]["leaves"]["ratio"] == pytest.approx(0.8)
    assert game["depths"]["12"]["positions"] == 1


def summary(low: float, high: float) -> dict[str, float]:
    return {"ratio": (low + high) / 2, "mean": (low + high) / 2, "low": low, "high": high, "n": 30.0,
            "fewer": 20.0, "equal": 0.0, "more": 10.0, "sign_p": 0.1, "level": 0.99,
            "totals": (low + high) / 2, "median": (low + high) / 2}


@pytest.mark.parametrize(("leaves", "outcome"), [((0.91, 0.94), HOLDS), ((1.0, 1.2), FAILS),
                                                 ((0.85, 0.93), INCONCLUSIVE)])
def test_every_judged_depth_is_four_statements_against_the_bands(leaves: tuple[float, float],
                                                                 outcome: str) -> None:
    depth = {"leaves": summary(*leaves), "total_nodes": summary(0.8, 0.9),
             "mtdf_passes_per_iteration": summary(4.0, 5.0)}
    checks = m.judge({"games": {"checkers": {"judged": ["17", "18"],
                                             "depths": {"17": depth, "18": depth}}}})
    assert len(checks) == 8 and sum("depth 17 (odd)" in c.statement for c in checks) == 4
    assert {c.outcome for c in checks if "5-10%" in c.statement} == {outcome}
    assert {c.outcome for c in checks if "total" in c.statement or "passes" in c.statement} == {HOLDS}


def test_the_level_is_bonferroni_over_the_claim_s_intervals() -> None:
    intervals = 3 * m.JUDGED * len(FULL.modern_games)      # leaves, total nodes, passes
    assert m.RULES.bootstrap.level == pytest.approx(1 - 0.05 / intervals, abs=1e-6)
    assert str(intervals) in m.RULES.rules["statistics"]["multiplicity"]
    assert [list(g) for g in FULL.modern_games] == m.RULES.sample["full"]["modern_games"]
