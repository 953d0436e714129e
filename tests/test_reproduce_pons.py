"""Claim 9, Pons's ladder: its jobs, its verdict both ways, and what it says without the
test sets (the measurement itself runs in ``make report``'s quick reproduction; its totals
are pinned by tests/test_connect4.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from harness.errors import HarnessError
from harness.reproduce import claims as registry
from harness.reproduce import measure
from harness.reproduce.analysis import Context
from harness.reproduce.claims import pons
from harness.reproduce.verdicts import FAILS, HOLDS, THEOREM, Band, verdict_of
from harness.search.run import FRAMES

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
    statements = [c.statement for c in checks if c.kind != THEOREM]
    assert statements[0] == ("minimax: mean nodes on Test_L3_R1 is Pons's 11,024 (as printed, "
                             "rounded down; band [11024, 11025))")
    assert statements[2] == ("centre order: mean nodes on Test_L3_R1 is Pons's 139.7 (as printed, "
                             "rounded to the nearest; band [139.65, 139.75))")


def test_a_mean_off_pons_figure_does_not_hold() -> None:
    """One node more per position on alpha-beta (284.618) prints as 284.6, not Pons's 283.6."""
    means = dict(PUBLISHED_TOTALS, **{"alpha-beta": 284.618})
    checks = pons.judge_pons(numbers(means))
    outcome = {c.statement.split(":")[0]: c.outcome for c in checks if c.kind != THEOREM}
    assert outcome["alpha-beta"] == FAILS and outcome["minimax"] == HOLDS
    assert verdict_of(checks) == "3 of 4 checks hold, 1 does not hold"


AS_PRINTED = {"minimax": ("11,024", 3), "alpha-beta": ("283.6", 4), "centre order": ("139.7", 5),
              "weak solver": ("107.1", 5)}
"""Pons's figures as his tutorial prints them (the column 'mean nb pos', End-Easy), and the part."""


def test_the_rules_quote_pons_s_figures_as_printed() -> None:
    figures = pons.RULES.parameters["printed_means"]
    assert {step: (f["printed"], f["part"]) for step, f in figures.items()} == AS_PRINTED
    for step, (printed, part) in AS_PRINTED.items():
        figure = figures[step]
        assert f"/solving-connect-four/0{part}-" in figure["url"]
        assert figure["page"].startswith(f"Part {part} ")
        assert f"mean nb pos {printed} |" in figure["row"]
        assert f"'{printed}'" in pons.RULES.check(f"mean/{step}").reason
        assert printed in pons.CLAIM.claimed and pons.printed(step) == printed


@pytest.mark.parametrize("printed,rounding,low,high", [
    ("139.7", "nearest", 139.65, 139.75),
    ("283.6", "nearest", 283.55, 283.65),
    ("11,024", "nearest", 11023.5, 11024.5),
    ("11,024", "down", 11024, 11025),
    ("2,081,790", "nearest", 2081789.5, 2081790.5),
    ("54.93", "down", 54.93, 54.94),
])
def test_a_printed_figure_s_band_is_its_precision(printed: str, rounding: str, low: float,
                                                  high: float) -> None:
    """Closed below, open above: a mean half-way rounds up, to the next figure."""
    assert pons.printed_band(printed, rounding) == Band(low, high, low_open=False, high_open=True)


def test_a_figure_that_is_not_one_or_an_unknown_rounding_is_refused() -> None:
    with pytest.raises(HarnessError, match="rounding 'up' is none of nearest, down"):
        pons.printed_band("139.7", "up")
    with pytest.raises(HarnessError, match="'13a': not a number"):
        pons.printed_band("13a", "nearest")
    with pytest.raises(HarnessError, match="not a finite number"):
        pons.printed_band("inf", "nearest")


def test_each_band_is_its_figure_s_printed_precision() -> None:
    for step, figure in pons.RULES.parameters["printed_means"].items():
        rule = pons.RULES.check(f"mean/{step}")
        assert rule.band == pons.printed_band(figure["printed"], figure["rounding"]), step
        assert str(rule.band) in rule.reason


@pytest.mark.parametrize("step,inside,outside", [
    ("minimax", (11024.0, 11024.999), (11023.999, 11025.0)),
    ("alpha-beta", (283.55, 283.649), (283.549, 283.65)),
    ("centre order", (139.65, 139.749), (139.649, 139.75)),
    ("weak solver", (107.05, 107.149), (107.049, 107.15)),
])
def test_a_mean_just_outside_the_printed_precision_fails_and_one_inside_holds(
        step: str, inside: tuple[float, float], outside: tuple[float, float]) -> None:
    for mean, expected in [*((x, HOLDS) for x in inside), *((x, FAILS) for x in outside)]:
        checks = pons.judge_pons(numbers(dict(PUBLISHED_TOTALS, **{step: mean})))
        outcome = {c.statement.split(":")[0]: c.outcome for c in checks if c.kind != THEOREM}
        assert outcome[step] == expected, (step, mean)


def test_the_minimax_figure_is_read_as_rounded_down_for_the_reason_its_rule_gives() -> None:
    """Pons's own part-3 program's mean, the harness's too, is 11,024.541: printed as 11,024,
    so rounded down; to the nearest it would miss (the rule says so, with both bands)."""
    mean = PUBLISHED_TOTALS["minimax"]
    assert mean == 11024.541
    assert pons.RULES.check("mean/minimax").band.contains(mean)
    assert not pons.printed_band("11,024", "nearest").contains(mean)
    assert "11,024.541" in pons.RULES.check("mean/minimax").reason
    assert "[11023.5, 11024.5)" in pons.RULES.check("mean/minimax").reason
    tenths = [PUBLISHED_TOTALS[s] for s in ("alpha-beta", "centre order", "weak solver")]
    assert [pons.printed_band(f"{x:.1f}", "nearest").contains(x) for x in tenths] == [True] * 3
    assert not pons.printed_band("139.7", "down").contains(PUBLISHED_TOTALS["centre order"])


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
    # Each row names the frame its time is of, and the time table says it (issue 39).
    assert set(frame["frame"]) <= set(FRAMES) and frame["frame"].notna().all()
    times = section.tables[-1]
    assert all("frame)" in row[1] for row in times[2])
