"""Claim 9, Pons's ladder: its jobs, its verdict both ways, and what it says without the
test sets (the measurement itself runs in ``make report``'s quick reproduction; its totals
are pinned by tests/test_connect4.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from harness.reproduce import claims as registry
from harness.reproduce import measure
from harness.reproduce.analysis import Context
from harness.reproduce.claims import pons
from harness.reproduce.verdicts import FAILS, HOLDS, THEOREM, verdict_of

SHARED = Path(__file__).resolve().parents[2] / "shared" / "connect4"


def numbers(means: dict[str, float], wrong: int = 0) -> dict[str, Any]:
    return {"ladder": {step: {"positions": 1000, "mean": mean, "total": round(mean * 1000)}
                       for step, mean in means.items()},
            "wrong_scores": wrong, "searches": 4000}


PUBLISHED_TOTALS = {step: int(t) / 1000 for step, t in pons.RULES.parameters["independent_totals"].items()}


def test_the_independent_totals_hold_and_pass() -> None:
    checks = pons.judge_pons(numbers(PUBLISHED_TOTALS))
    assert verdict_of(checks) == HOLDS
    assert all(c.passed for c in checks)
    assert sum(c.kind == THEOREM for c in checks) == 5


def test_a_mean_off_pons_figure_does_not_hold() -> None:
    """One node more per position on alpha-beta (284.618) prints as 284, not Pons's 283."""
    means = dict(PUBLISHED_TOTALS, **{"alpha-beta": 284.618})
    checks = pons.judge_pons(numbers(means))
    outcome = {c.statement.split(":")[0]: c.outcome for c in checks if c.kind != THEOREM}
    assert outcome["alpha-beta"] == FAILS and outcome["minimax"] == HOLDS
    assert verdict_of(checks) == "3 of 4 checks hold, 1 does not hold"


def test_a_wrong_score_fails_the_correctness_check() -> None:
    checks = pons.judge_pons(numbers(PUBLISHED_TOTALS, wrong=1))
    scores = [c for c in checks if c.statement.startswith("every search")]
    assert scores[0].outcome == FAILS
    assert verdict_of(checks) == HOLDS            # a correctness check is not the verdict


def test_without_the_test_sets_it_is_not_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pons, "connect4_folder", lambda: None)
    assert pons.jobs(measure.QUICK) == []
    section = pons.analyse(Context({}, measure.QUICK, None), pons.CLAIM)
    assert section.verdict is not None and section.verdict.startswith("not measured")
    assert section.checks == []


def test_it_is_claim_nine_and_its_jobs_follow_the_scale(monkeypatch: pytest.MonkeyPatch) -> None:
    assert registry.number("pons") == 9
    if not (SHARED / "Test_L3_R1").is_file():
        pytest.skip("Pons's test sets (../shared/connect4) are not here")
    monkeypatch.setenv("HARNESS_CONNECT4", str(SHARED))
    small = measure.Scale(**{**measure.QUICK.__dict__,
                             "connect4": (("Test_L3_R1", 3), ("Test_L1_R1", 2))})
    jobs = pons.jobs(small)
    by_set: dict[str, set[str]] = {}
    for tags, problem, runs in jobs:
        assert dict(tags)["known"] == problem.position.split()[1]
        by_set.setdefault(dict(tags)["set"], set()).update(r.config for r in runs)
        assert all(r.depth == problem.default_depth for r in runs)
    assert {s.name for s in pons.LADDER} <= by_set["Test_L3_R1"]
    assert by_set["Test_L1_R1"] == {"MTD-bi (Pons's tree)", "Pons's root (Pons's tree)"}
    assert len(jobs) == 3 * 3 + 2       # three trees (left, centre, Pons's) on L3; one on L1
    rows = [row for tags, problem, runs in jobs for row in measure.measure(tags, problem, runs)]
    frame = pd.DataFrame(rows)
    section = pons.analyse(Context({"pons": frame}, small, None), pons.CLAIM)
    assert section.numbers["wrong_scores"] == 0
    assert set(section.numbers["means"]) == {"Test_L3_R1", "Test_L1_R1"}
