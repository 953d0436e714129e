"""Claim 14, the PVS article on the modern profile: the jobs are `harness run --profile
modern`'s searches, fail-highs a move caused, the judged statistics and the two beside
each, odd and even depths and game phases apart, the Bonferroni level, the checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import HarnessError
from harness.reproduce import power
from harness.reproduce.claims import pvs_modern as m
from harness.reproduce.measure import FULL, QUICK, measure
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import FAILS, HOLDS, INCONCLUSIVE

BOOT = Bootstrap(0.95, 2000, 0)


def test_the_jobs_are_the_modern_profile_at_each_depth() -> None:
    jobs = m.jobs(QUICK)
    assert len(jobs) == QUICK.pvs_modern[0]
    runs = jobs[0][2]
    assert [(r.variant, r.depth) for r in runs] == [(v, d) for d in range(6, QUICK.pvs_modern[1] + 1)
                                                    for v in ("alphabeta", "pvs")]
    switches = runs[0].switches
    assert switches.iterative_deepening and switches.tt_size == QUICK.tt_size
    assert switches.null_move and switches.check_extension and switches.selectivity.late_move_reductions
    problem = jobs[0][1]
    assert problem.option("repetition") and problem.option("killers") and problem.option("history")
    assert list(m.depths(FULL)) == list(range(6, 13))


def test_its_counts_are_harness_run_s(tmp_path: Path) -> None:
    """The claim's searches and `harness run --profile modern`'s are the same searches."""
    tags, problem, runs = m.jobs(QUICK)[0]
    rows = measure(tags, problem, runs[:2])
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["run", "--profile", "modern", "--suite", "selfplay-explore.epd",
                                       "--depth", "6", "--variants", "alphabeta,pvs", "--limit", "1",
                                       "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    found = pd.read_csv(out / "results.csv")
    for row in rows:
        same = found[found["variant"] == row["variant"]].iloc[0]
        assert (same["nodes"], same["qnodes"], same["fail_highs"]) == (
            row["nodes"], row["qnodes"], row["fail_highs"])


def frame(first: list[int], moved: list[int], ab: list[int], pvs: list[int],
          depth: int = 6) -> pd.DataFrame:
    """Rows of two variants on len(ab) positions: PVS's fail-highs first of those a move
    caused (plus 10 null-move and 5 static cut-offs each), and each one's total nodes."""
    rows = []
    for i, (f, mv, a, p) in enumerate(zip(first, moved, ab, pvs, strict=True)):
        for variant, total in (("alphabeta", a), ("pvs", p)):
            rows.append({"suite": "s", "config": "modern",
                         "problem_id": f"selfplay-explore.{i + 1}", "variant": variant,
                         "depth": depth, "status": "ok", "nodes": total - total // 4,
                         "qnodes": total // 4, "fail_highs": mv + 15, "fail_highs_first": f,
                         "null_cutoffs": 10, "reverse_futility_cutoffs": 5, "researches": 1,
                         "zw_searches": 10})
    return pd.DataFrame(rows)


def test_a_fail_high_no_move_caused_is_left_out_of_the_rate() -> None:
    rows = frame([9, 18], [10, 20], [100, 400], [90, 300])
    found = m.depth_numbers(rows, BOOT)
    assert found["first"]["rate"] == pytest.approx(27 / 30)
    assert found["first_every"] == pytest.approx(27 / 60)
    assert found["ratio"]["ratio"] == pytest.approx(np.sqrt(0.9 * 0.75))     # geometric mean
    assert found["ratio"]["totals"] == pytest.approx(390 / 500)
    assert found["ratio"]["median"] == pytest.approx((0.9 + 0.75) / 2)
    assert found["first_mean"] == pytest.approx(0.9) and found["first_median"] == pytest.approx(0.9)


def test_phases_and_parity_are_reported_apart() -> None:
    rows = pd.concat([frame([9, 5, 1], [10, 10, 10], [100] * 3, [90, 80, 70], depth=d)
                      for d in (6, 7)])
    found = m.numbers_of(rows, "selfplay-explore.epd", BOOT)
    assert found["parity"] == {"odd": ["7"], "even": ["6"]}
    phases = found["depths"]["6"]["phases"]
    wanted = m.game_phases("selfplay-explore.epd")
    assert [wanted[f"selfplay-explore.{i}"] for i in (1, 2, 3)] == list(phases)  # one each
    assert phases["opening"]["first"] == pytest.approx(0.9)
    assert phases["middle"]["ratio"] == pytest.approx(0.8)


def test_a_stopped_search_is_never_a_result() -> None:
    rows = frame([9], [10], [100], [90]).assign(status=["ok", "max-nodes"])
    with pytest.raises(HarnessError, match="did not finish"):
        m.numbers_of(rows, "selfplay-explore.epd", BOOT)


def summary(low: float, high: float) -> dict[str, float]:
    return {"rate": (low + high) / 2, "ratio": (low + high) / 2, "low": low, "high": high,
            "n": 30.0, "fewer": 20.0, "equal": 0.0, "more": 10.0, "sign_p": 0.1, "level": 0.99}


@pytest.mark.parametrize(("interval", "outcome"), [((0.87, 0.93), HOLDS), ((0.5, 0.8), FAILS),
                                                   ((0.8, 0.9), INCONCLUSIVE)])
def test_every_depth_is_two_checks_against_the_bands(interval: tuple[float, float],
                                                     outcome: str) -> None:
    depth = {"first": summary(*interval), "ratio": summary(*interval)}
    checks = m.judge({"depths": {"6": depth, "7": depth}})
    assert len(checks) == 4 and {c.outcome for c in checks} == {outcome}
    assert sum("depth 7" in c.statement for c in checks) == 2


def test_the_level_is_bonferroni_over_the_claim_s_checks() -> None:
    depths = len(m.depths(FULL))
    assert m.RULES.bootstrap.level == pytest.approx(1 - 0.05 / (2 * depths), abs=1e-6)
    assert str(2 * depths) in m.RULES.rules["statistics"]["multiplicity"]


def test_power_at_a_higher_level_needs_more_positions() -> None:
    """The same data explored give a wider interval at a higher level: the same spread,
    read at that level; the confirmation's interval at that level needs more positions."""
    band = m.RULES.check("saves").band
    at_95 = power.Estimate("x", 30, (0.85, 0.95), 100, 0.9)
    z = power.Estimate("x", 30, (0.85, 0.95), 100, 0.9, level=0.996).z
    half = 0.05 * z / at_95.z
    corrected = power.Estimate("x", 30, (0.9 - half, 0.9 + half), 100, 0.9, level=0.996)
    assert corrected.spread_at(100) == pytest.approx(at_95.spread_at(100))
    assert corrected.expected_half_width > at_95.expected_half_width
    needed_95, needed = power.needed_n(at_95, band), power.needed_n(corrected, band)
    assert needed_95 is not None and needed is not None and needed > needed_95
    assert power.probability(corrected, band) < power.probability(at_95, band)


@pytest.mark.parametrize(("folder", "key"), [("2026-11-28-3", "pvs-modern"), ("2026-11-27-3", "pvs-article")])
def test_the_kept_checks_are_what_the_judges_give_again(folder: str, key: str) -> None:
    """Claims 4 and 14 judge the article's two sentences with one function: each kept
    run's checks (statements and outcomes) are what it gives on the kept numbers."""
    import json

    from harness.reproduce.claims import pvs_article

    kept = Path(__file__).resolve().parents[1] / "docs/reproduction" / folder / "claims.json"
    claim = next(c for c in json.loads(kept.read_text())["claims"] if c["key"] == key)
    judge = m.judge if key == "pvs-modern" else pvs_article.judge_pvs_article
    assert [(c.statement, c.outcome) for c in judge(claim["numbers"])] == [
        (c["statement"], c["outcome"]) for c in claim["checks"]]
