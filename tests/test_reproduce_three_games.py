"""harness reproduce, claim 12 (Plaat et al.'s three games): the jobs and their data, the
spread among the algorithms, MTD(f)'s first guess placed around the value, every score the
same, and each check reachable both ways."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from harness.errors import HarnessError
from harness.games.chess.suite_files import find_suite
from harness.reproduce import claims as registry
from harness.reproduce.claims import three_games as tg
from harness.reproduce.measure import FULL, QUICK, chess_positions, measure
from harness.reproduce.phases import CONFIRM, EXPLORE, check_held_out, data_of, phase_scale
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import (
    CLAIM,
    EXTENSION,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    THEOREM,
    counted,
    verdict_of,
    verdict_with_extensions,
)
from harness.search.registry import parse_variants
from harness.search.run import run_search

BOOT = Bootstrap(0.95, 2_000, 0)


def _wac_found() -> bool:
    try:
        find_suite("wac.epd")
    except HarnessError:
        return False
    return True


needs_wac = pytest.mark.skipif(not _wac_found(), reason="claim 12's chess data are WAC, "
                               "Bratko-Kopec and Kaufman (../shared/positions, absent)")


def small_rows(games: tuple[tuple[str, int, int, int], ...]) -> pd.DataFrame:
    """Every job of a tiny scale measured in this process, as the reproduction's frame."""
    scale = replace(QUICK, games=games)
    rows = [{**dict(tags), **row} for tags, problem, runs in tg.jobs(scale)
            for row in measure(tags, problem, runs)]
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def tiny() -> pd.DataFrame:
    return small_rows((("chess", 2, 2, 2), ("othello", 2, 3, 4), ("checkers", 2, 4, 5),
                       ("synthetic", 3, 3, 4), ("synthetic-random", 3, 3, 4)))


@needs_wac
def test_values_agree(tiny: pd.DataFrame) -> None:
    """The correctness check: on synthetic trees (no position reached twice) every
    algorithm's score is aspiration NegaScout's on each tree and depth, and the check built
    on it passes; each set records its own count."""
    numbers = tg.numbers_of(tiny, BOOT)
    trees = tiny[tiny["set"].isin(tg.SYNTHETIC) & (tiny["config"] == tg.CONFIG)
                 & (tiny["variant"] != tg.REFERENCE)]                 # compared with it
    assert (numbers["value_disagreements"], numbers["searches"]) == (0, len(trees))
    theorem = [c for c in tg.judge_three_games(numbers) if c.kind == THEOREM]
    assert [c.outcome for c in theorem] == [HOLDS]
    assert set(numbers["sets"]) == {*tg.GAMES, *tg.SYNTHETIC}
    assert all(found["score_differs"][1] > 0 for found in numbers["sets"].values())


@needs_wac
def test_a_score_that_differs_fails_the_value_check(tiny: pd.DataFrame) -> None:
    frame = tiny.copy()
    tree = frame.index[(frame["set"] == "synthetic") & (frame["variant"] == tg.MTDF)][0]
    frame.loc[tree, "score"] += 1
    assert tg.disagreements(frame)[0] == 1
    numbers = tg.numbers_of(frame, BOOT)
    theorem = [c for c in tg.judge_three_games(numbers) if c.kind == THEOREM]
    assert [c.outcome for c in theorem] == [FAILS]


@needs_wac
def test_every_algorithm_at_every_depth_then_the_guesses(tiny: pd.DataFrame) -> None:
    runs = tg.runs_of("othello", 3, 4)
    iterative = [(r.depth, r.variant) for r in runs if r.config == tg.CONFIG]
    assert iterative == [(d, v) for d in (3, 4) for v in tg.VARIANTS]
    assert tg.VARIANTS[0] == tg.REFERENCE and len(set(tg.VARIANTS)) == 6
    guesses = [r for r in runs if r.config == tg.GUESS]
    assert [r.guess_error for r in guesses] == tg.RULES.parameters["guess_errors"]["othello"]
    assert all(r.depth == 4 and not r.switches.iterative_deepening for r in guesses)
    assert all(r.switches.tt_leaves and r.switches.tt_narrow for r in runs)
    assert not [r for r in tg.runs_of("synthetic", 3, 4) if r.config == tg.GUESS]


def test_the_first_guesses_go_to_at_most_the_rules_positions() -> None:
    most = int(tg.RULES.parameters["guess_positions"])
    found = tg.jobs(replace(QUICK, games=(("othello", most + 2, 3, 3),)))
    guessed = [j for j in found if any(r.config == tg.GUESS for r in j[2])]
    assert len(found) == most + 2 and len(guessed) == most
    assert all(len([r for r in j[2] if r.config == tg.CONFIG]) == 6 for j in found)


@needs_wac
def test_the_first_guess_is_the_value_plus_the_error(tiny: pd.DataFrame) -> None:
    """A guess run searches MTD(f) from v + e, v the job's first score at its depth: the same
    counts as MTD(f) given that guess by hand."""
    tags, problem, runs = next(j for j in tg.jobs(replace(QUICK, games=(("othello", 1, 3, 3),))))
    guess = next(r for r in runs if r.config == tg.GUESS and r.guess_error == 4)
    rows = measure(tags, problem, (runs[0], guess))
    value = rows[0]["score"]
    assert rows[1]["guess_error"] == 4 and rows[1]["score"] == value
    from harness.games.registry import find_game

    by_hand = run_search(find_game(problem.game).tree(problem),
                         parse_variants(f"{guess.variant},guess={value + 4}")[0], 3, guess.switches)
    assert by_hand.counters["leaves"] == rows[1]["leaves"]
    assert by_hand.counters["passes"] == rows[1]["passes"]


def test_a_guess_needs_a_value_before_it() -> None:
    tags, problem, runs = tg.jobs(replace(QUICK, games=(("othello", 1, 3, 3),)))[0]
    guess = next(r for r in runs if r.config == tg.GUESS)
    with pytest.raises(HarnessError, match="no value to place a first guess around at depth 3"):
        measure(tags, problem, (guess,))


@needs_wac
def test_positions_are_spread_evenly_through_each_file() -> None:
    data = tg.phase_data(11)
    othello = tg.problems_of("othello", data, 4, 4)
    # 8 positions of each of 4 phases: one of each phase
    assert [p.index for p in othello] == [0, 8, 16, 24]
    chess = tg.problems_of("chess", data, 30, 6)
    assert [p.problem_id for p in chess][:2] == ["WAC.181", "WAC.182"] and len(chess) == 30
    assert tg.spread_evenly(othello, 10) == othello


def held_chess(data: Any) -> set[str]:
    """A confirmation's chess positions (board, side, castling, en passant)."""
    return {tg._key(p) for p in tg.problems_of("chess", data, 10_000, 1)}


def fens(parts: list[Any]) -> set[str]:
    """Chess positions (board, side, castling, en passant) of a phase's ranges."""
    return {" ".join(p.position.split()[:4]) for part in parts for p in chess_positions(
        find_suite(str(part["suite"])), part["positions"][0],
        part["positions"][1] - part["positions"][0] + 1)}


EXPLORE_SEED, CONFIRM_SEED = (int(tg.RULES.rules["phases"][p]["games"]["seed"])
                              for p in ("explore", "confirm"))


@needs_wac
def test_the_phases_name_held_out_data() -> None:
    explore, confirm = (tg.phase_data(seed) for seed in (EXPLORE_SEED, CONFIRM_SEED))
    assert [data_of(tg.RULES, p) for p in (EXPLORE, CONFIRM)] == [{"games": explore}, {"games": confirm}]
    assert explore["seed"] != confirm["seed"]
    seen, held = fens(tg.chess_parts(explore)), fens(tg.chess_parts(confirm))
    assert len(seen) == 30 and held and not seen & held
    # No other claim's chess data (WAC 1-180) among this claim's.
    for info in registry.CLAIMS:
        if info.rules is None or info.key == tg.KEY:
            continue
        for phase in (EXPLORE, CONFIRM):
            chess = (data_of(info.rules, phase) or {}).get("chess")
            if chess is not None:
                assert not fens([chess]) & (seen | held), info.key
    for game in ("othello", "checkers"):
        seen = {p.position for p in tg.problems_of(game, explore, 10_000, 1)}
        held = {p.position for p in tg.problems_of(game, confirm, 10_000, 1)}
        assert seen and held and not seen & held
    # Nor any position an earlier version's confirmation searched (held out means new).
    for earlier in tg.RULES.history:
        before = earlier.rules.get("phases", {}).get("confirm", {}).get("games")
        if before is None or before["seed"] == confirm["seed"]:
            continue
        assert not fens(tg.chess_parts(before)) & held_chess(confirm)
        for game in ("othello", "checkers"):
            searched = {p.position for p in tg._positions(game, before)}
            assert not searched & {p.position for p in tg.problems_of(game, confirm, 10_000, 1)}
    with pytest.raises(HarnessError, match="no phase's games data have seed 99"):
        tg.phase_data(99)
    # A confirmation never searches an explored position: here every one of them.
    assert tg.problems_of("checkers", {**confirm, "checkers": explore["checkers"]}, 1000, 1) == []
    # Nor a position of a file its data name as searched before.
    again = {**confirm, "searched": {"othello": [confirm["othello"]]}}
    assert tg.problems_of("othello", again, 1000, 1) == []


def test_a_confirmation_on_the_exploration_seed_is_refused() -> None:
    selected = [c for c in registry.CLAIMS if c.key == tg.KEY]
    scale = phase_scale(QUICK, CONFIRM, selected)
    assert dict(scale.seeds)["games"] == CONFIRM_SEED
    check_held_out(selected, registry.CLAIMS, scale, None)
    explored = replace(scale, seeds=tuple((k, EXPLORE_SEED if k == "games" else v) for k, v in scale.seeds))
    with pytest.raises(HarnessError, match=f"games seed {EXPLORE_SEED} is exploration data"):
        check_held_out(selected, registry.CLAIMS, explored, None)


def test_the_spread_is_the_most_over_the_fewest_geometric_mean() -> None:
    """Three problems, leaves of each algorithm a fixed multiple of the reference's: the
    spread is the largest multiple over the smallest, its interval a point."""
    factors = {"mtdf": 0.9, tg.REFERENCE: 1.0, "pvs": 1.05, "mtd-bi": 1.2, "mt-sss": 1.1,
               "mt-dual": 0.95}
    rows = [{"suite": "s", "problem_id": str(i), "variant": v, "leaves": 1000 * (i + 1) * f,
             "nodes": 2000 * (i + 1), "qnodes": 0} for i in range(3) for v, f in factors.items()]
    found = tg.spread(pd.DataFrame(rows), BOOT)
    assert found["spread"] == pytest.approx(1.2 / 0.9)
    assert found["low"] == pytest.approx(1.2 / 0.9) and found["high"] == pytest.approx(1.2 / 0.9)
    assert [found["most"], found["fewest"]] == ["mtd-bi", "mtdf"]
    assert tg.spread(pd.DataFrame(rows[:0], columns=list(rows[0])), BOOT)["n"] == 0
    # Among the spread check's algorithms only: MTD-bi and PVS left out.
    four = tg.spread(pd.DataFrame(rows), BOOT, among=tg.SPREAD)
    assert set(tg.SPREAD) == {tg.MTDF, tg.REFERENCE, "mt-sss", "mt-dual"}
    assert four["spread"] == pytest.approx(1.1 / 0.9) and four["most"] == "mt-sss"


def numbers_with(leaves: tuple[float, float, float], total: tuple[float, float, float],
                 passes: tuple[float, float, float], spread: tuple[float, float, float]) -> dict[str, Any]:
    """Numbers of every game at depth 6 with the given (estimate, low, high) intervals."""
    def ratio(r: tuple[float, float, float]) -> dict[str, float]:
        return {"ratio": r[0], "low": r[1], "high": r[2], "n": 100.0, "level": 0.95}

    at = {"ratios": {tg.MTDF: {"leaves": ratio(leaves), "effort": ratio(total)}},
          "passes": {"mean": passes[0], "low": passes[1], "high": passes[2], "n": 100.0},
          "spread": {"spread": spread[0], "low": spread[1], "high": spread[2], "n": 100.0,
                     "most": "mt-sss", "fewest": "mtdf"},
          "spread_all": {"spread": spread[0], "low": spread[1], "high": spread[2], "n": 100.0,
                         "most": "mtd-bi", "fewest": "mtdf"}}
    return {"sets": {g: {"deepest": 6, "by_depth": {"6": at}} for g in tg.GAMES},
            "value_disagreements": 0, "searches": 10}


INSIDE = numbers_with((0.93, 0.91, 0.94), (0.95, 0.93, 0.97), (4.5, 4.0, 5.0), (1.1, 1.05, 1.15))
OUTSIDE = numbers_with((1.05, 1.01, 1.09), (1.05, 1.02, 1.08), (8.0, 7.0, 9.0), (1.5, 1.3, 1.7))


@pytest.mark.parametrize("numbers,verdict", [(INSIDE, HOLDS), (OUTSIDE, FAILS)])
def test_every_check_is_reachable_both_ways(numbers: dict[str, Any], verdict: str) -> None:
    checks = tg.judge_three_games(numbers)
    claims = [c for c in checks if c.kind == CLAIM]
    extensions = [c for c in checks if c.kind == EXTENSION]
    assert len(claims) == 15 and {c.outcome for c in claims} == {verdict}
    assert len(counted(claims)) == 12          # the two leaves checks of a game count once
    assert len(extensions) == 3 and {c.outcome for c in extensions} == {verdict}
    assert verdict_of(checks) == verdict


def test_the_spread_of_all_six_is_an_extension_with_its_own_verdict() -> None:
    """MTD-bi outside 20% (the extension) leaves the claim's verdict as the four make it."""
    numbers = numbers_with((0.93, 0.91, 0.94), (0.95, 0.93, 0.97), (4.5, 4.0, 5.0), (1.1, 1.05, 1.15))
    for game in tg.GAMES:
        numbers["sets"][game]["by_depth"]["6"] = {
            **numbers["sets"][game]["by_depth"]["6"],
            "spread_all": {"spread": 1.3, "low": 1.25, "high": 1.35, "n": 100.0, "most": "mtd-bi",
                           "fewest": "mtdf"}}
    checks = tg.judge_three_games(numbers)
    assert verdict_of(checks) == HOLDS
    six = [c for c in checks if c.kind == EXTENSION]
    assert [c.outcome for c in six] == [FAILS] * 3 and "MTD-bi" in six[0].measured
    assert verdict_with_extensions(checks) == f"{HOLDS} (extension, {six[0].extension}: {FAILS})"


def test_five_to_ten_and_fewer_share_one_interval() -> None:
    numbers = numbers_with((0.97, 0.96, 0.98), (0.95, 0.93, 0.97), (4.5, 4.0, 5.0), (1.1, 1.05, 1.15))
    checks = tg.judge_three_games(numbers)
    chess = [c for c in checks if c.statement.startswith("chess") and c.kind == CLAIM]
    assert [c.outcome for c in chess] == [HOLDS, FAILS, HOLDS, HOLDS, HOLDS]
    assert chess[0].estimate == chess[1].estimate == "chess, depth 6: leaves ratio"
    assert verdict_of(checks) == "9 of 12 checks hold, 3 do not hold"
    unsure = numbers_with((0.95, 0.93, 1.0), (0.95, 0.93, 0.97), (4.5, 4.0, 5.0), (1.1, 1.05, 1.25))
    outcomes = counted([c for c in tg.judge_three_games(unsure) if c.kind == CLAIM])
    assert outcomes.count(INCONCLUSIVE) == 6


def test_a_game_not_measured_has_no_checks() -> None:
    numbers = dict(INSIDE)
    numbers["sets"] = {"othello": INSIDE["sets"]["othello"]}
    checks = tg.judge_three_games(numbers)
    assert len([c for c in checks if c.kind == CLAIM]) == 5


def test_the_scales_are_the_registered_samples() -> None:
    assert [list(x) for x in QUICK.games] == tg.RULES.sample["quick"]["games"]
    assert [list(x) for x in FULL.games] == tg.RULES.sample["full"]["games"]


def test_the_claim_is_the_twelfth() -> None:
    assert registry.CLAIMS[11].key == tg.KEY and registry.number(tg.KEY) == 12
    assert registry.CLAIMS[11].jobs is tg.jobs


def test_chess_is_not_measured_without_its_suites(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ../shared/positions (a fresh clone) the exploration's WAC positions are not
    found: chess has no problems, so it is not measured, and the other games still are."""
    def absent(name: str) -> Any:
        raise HarnessError(f"suite {name!r} not found")

    monkeypatch.setattr(tg, "find_suite", absent)
    explore = tg.RULES.rules["phases"]["explore"]["games"]
    assert tg.problems_of("chess", explore, 5, 3) == []
    assert len(tg.problems_of("othello", explore, 2, 3)) == 2


def test_chess_is_reported_per_game_phase_from_the_kept_run() -> None:
    """The kept confirmation of rules v3: openings' passes per iteration at depth 6 are what
    a plain recomputation from the kept rows and the suites' c0 gives (11.09, the third
    referee reading's 11.1), and the middle game's and endgame's are far fewer."""
    from harness.reproduce.claims.three_games import phase_numbers
    from harness.reproduce.measure import game_phases

    kept = Path(__file__).resolve().parents[1] / "docs/reproduction/2026-11-28/data/three-games.csv.gz"
    rows = pd.read_csv(kept, low_memory=False, dtype={"problem_id": str})
    chess = rows[(rows["set"] == "chess") & (rows["config"] == "MT")]
    found = phase_numbers(chess, [6])
    mtd = chess[(chess["variant"] == "mtdf") & (chess["depth"] == 6)]
    phase = mtd["problem_id"].map(game_phases("selfplay-confirm.epd", "plaat-confirm.epd"))
    expected = ((mtd["passes"] - mtd["first_passes"]) / 5).groupby(phase).mean()
    assert set(found) == {"opening", "middle", "endgame"}
    for name, at in found.items():
        assert at["6"]["passes"] == pytest.approx(expected[name])
        assert at["6"]["positions"] == int((phase == name).sum())
    assert found["opening"]["6"]["passes"] == pytest.approx(11.09, abs=0.005)
    assert found["opening"]["6"]["passes"] > 1.7 * found["middle"]["6"]["passes"]
