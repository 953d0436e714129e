"""Claim 16, Schaeffer (1989) in Othello and checkers: a job per position and setting of
killers and history, each game's aspiration window, the confirmation's held-out positions,
the depths judged per game, and the numbers of a position measured end to end."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.reproduce.claims import schaeffer as s13
from harness.reproduce.claims import schaeffer_games as g
from harness.reproduce.measure import QUICK, measure
from harness.reproduce.phases import CONFIRM, EXPLORE, data_of
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import FAILS, HOLDS, INCONCLUSIVE

BOOT = Bootstrap(0.95, 2000, 0)


def test_each_position_is_four_problems_each_with_its_setting_s_searches() -> None:
    jobs = [j for j in g.jobs(QUICK) if dict(j[0])["set"] == "othello"]
    first = jobs[0][1].problem_id
    mine = [(p, runs) for _, p, runs in jobs if p.problem_id == first]
    assert len(mine) == 4
    labels: list[str] = []
    for problem, runs in mine:
        killers, history = bool(problem.option("killers")), bool(problem.option("history"))
        for run in runs:
            letters = run.config
            assert ("K" in letters, "H" in letters) == (killers, history), (letters, problem.suite)
            assert run.ordering is None                       # the problem's, not chess's
            if "A" in letters:
                assert run.variant.endswith(f"window={g.window('othello')}")
        labels += [r.config for r in runs if r.depth == 4]
    # Every distinct search of the 128 combinations, once, at each factorial depth.
    assert sorted(labels) == sorted(c.label for c in s13.unique_searches(s13.EVERY))
    assert (g.window("othello"), g.window("checkers")) == (4, 50)


def test_its_counts_are_harness_run_s(tmp_path: Path) -> None:
    """A combination with killers, history, a table and aspiration is `harness run`'s search
    of the same problem with the same options."""
    tags, problem, runs = next(j for j in g.jobs(QUICK) if dict(j[0])["set"] == "checkers"
                               and j[1].option("killers") and j[1].option("history"))
    run = next(r for r in runs if r.config == "THKAI")
    (row,) = measure(tags, problem, (run,))
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "run", "--problems", "checkers:plaat-explore.txt,killers=1,history=1", "--limit",
        str(int(problem.problem_id)), "--depth", str(run.depth), "--variants", run.variant,
        "--tt", str(run.switches.tt_size), "--id", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    found = pd.read_csv(out / "results.csv", dtype={"problem_id": str})
    same = found[found["problem_id"] == str(problem.problem_id)].iloc[0]
    assert (same["nodes"], same["qnodes"], same["score"]) == (row["nodes"], row["qnodes"], row["score"])


def test_the_confirmation_leaves_out_every_position_searched_before() -> None:
    confirm, explore = data_of(g.RULES, CONFIRM), data_of(g.RULES, EXPLORE)
    assert confirm is not None and explore is not None
    data, explored = confirm[g.KEY], explore[g.KEY]
    checkers = g.held_out_positions("checkers", data, explored, 1000)
    assert len(checkers) == 366                  # 400, of which 34 are in earlier files
    earlier = {p.position for name in ("suite.txt", "plaat-confirm.txt", "plaat-confirm-3.txt",
                                       "modern-confirm.txt", "plaat-explore.txt")
               for p in g.held_out_positions("checkers", {"checkers": name},
                                             {"checkers": name}, 10_000)}
    assert not earlier & {p.position for p in checkers}
    othello = g.held_out_positions("othello", data, explored, 1000)
    seen = {p.position for name in ("phases.txt", "plaat-confirm.txt", "plaat-confirm-3.txt",
                                    "modern-confirm.txt", "plaat-explore.txt")
            for p in g.held_out_positions("othello", {"othello": name}, {"othello": name}, 10_000)}
    assert len(othello) == 256 and not seen & {p.position for p in othello}


def share_of(value: float, low: float, high: float) -> dict[str, float]:
    return {"value": value, "low": low, "high": high, "n": 30.0, "n_each": 30.0,
            "mean": value, "median": value, "level": 0.95}


def numbers_at(depths: dict[str, tuple[float, float, float]],
               gain: tuple[float, float, float] = (0.0, -0.001, 0.002)) -> dict[str, object]:
    found = {}
    for depth, share in depths.items():
        found[depth] = {"share": share_of(*share), "share_deepening": share_of(*share),
                        "gains": {e: share_of(*gain) for e in s13.OTHERS},
                        "gains_deepening": {e: share_of(*gain) for e in s13.OTHERS_WITH_DEEPENING},
                        "positions": 30, "to_bare": {}, "to_all": {}, "totals": {}}
    return {"depths": found, "factorial_depth": 8}


def test_checkers_is_judged_from_depth_7_and_an_undefined_share_is_inconclusive() -> None:
    nan = float("nan")
    shares = {"4": (nan, nan, nan), "5": (1.7, nan, nan), "6": (0.5, 0.4, 0.6),
              "7": (0.995, 0.991, 0.999), "8": (1.2, nan, nan)}
    checks = g.judge({"checkers": numbers_at(shares)})
    claimed = [c for c in checks if c.kind == "claim"]
    statements = [c.statement for c in claimed]
    assert not any("depth 4" in t or "depth 5" in t or "depth 6" in t for t in statements)
    outcomes = {t.split(":")[0]: c.outcome for t, c in zip(statements, claimed, strict=True)
                if "99%" in t}
    assert outcomes == {"checkers, depth 7": HOLDS, "checkers, depth 8": INCONCLUSIVE}
    gains = [c for c in claimed if "gains at most 1%" in c.statement]
    assert len(gains) == 4 and {c.outcome for c in gains} == {HOLDS}
    assert all(c.statement.startswith("checkers, depth 8") for c in gains)
    # Othello is judged from depth 4; a share below 0.99 does not hold.
    othello = g.judge({"othello": numbers_at({"4": (0.7, 0.6, 0.8), "8": (0.99, 0.991, 0.995)})})
    shares_judged = [c for c in othello if c.kind == "claim" and "99%" in c.statement]
    assert [c.outcome for c in shares_judged] == [FAILS, HOLDS]
    # A scale that reaches no judged depth judges nothing.
    assert g.judge({"checkers": numbers_at({"4": (0.9, 0.8, 1.0)})}) == []


def test_the_words_say_what_an_undefined_share_is() -> None:
    nan = float("nan")
    assert g.share_text(share_of(nan, nan, nan)).startswith("undefined")
    assert "no interval" in g.share_text(share_of(1.78, nan, nan))
    assert g.share_text(share_of(0.98, 0.88, 1.16)) == "0.9800 (0.8800 to 1.1600)"


@pytest.mark.parametrize("game", ["othello", "checkers"])
def test_one_position_measured_gives_every_number(game: str) -> None:
    jobs = [j for j in g.jobs(QUICK) if dict(j[0])["set"] == game]
    first = jobs[0][1].problem_id
    rows = pd.DataFrame([row for tags, p, runs in jobs if p.problem_id == first
                         for row in measure(tags, p, runs)])
    found = g.numbers_of(rows, BOOT, QUICK)[game]
    factorial = dict((n, f) for n, _, f, _ in QUICK.schaeffer_games)[game]
    assert found["factorial_depth"] == factorial
    deepest = found["depths"][str(factorial)]
    assert deepest["positions"] == 1
    assert set(deepest["totals"]) == {c.label for c in s13.unique_searches(s13.EVERY)}
    assert deepest["to_bare"]["-"] == 1.0
    # Refutation tables added to table + history alone search the same tree.
    assert deepest["gains"]["refutations"]["value"] == 0.0
