"""Claim 13, Schaeffer (1989): the combinations of the seven enhancements and the searches
they are, the shares and gains computed from totals, the checks, and the claim measured
end to end at the quick scale."""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest

from harness.errors import HarnessError
from harness.games.registry import find_game, load_problems
from harness.reproduce.claims import schaeffer as s
from harness.reproduce.measure import QUICK, measure
from harness.reproduce.rules import Bootstrap
from harness.reproduce.verdicts import FAILS, HOLDS, INCONCLUSIVE
from harness.search import parse_variants, run_search

BOOT = Bootstrap(0.95, 2000, 0)


def test_the_128_combinations_are_80_searches() -> None:
    assert len(s.EVERY) == 128 and len({c.label for c in s.EVERY}) == 128
    assert len(s.unique_searches(s.EVERY)) == 80
    aspiration = s.Combination.of(("aspiration",)).search()
    assert aspiration.on == {"aspiration", "deepening"}          # it deepens iteratively
    assert s.Combination.of(("refutations", "table")).search().label == "T"
    assert s.Combination.of(("refutations", "deepening")).search().label == "RI"
    assert [c.label for c in s.combinations_named(["-", "THKRAMI"])] == ["-", "THKRAMI"]
    with pytest.raises(HarnessError, match="letters"):
        s.combinations_named(["TX"])


def test_each_search_is_what_its_letters_say() -> None:
    run = s.Combination.of(s.ENHANCEMENTS).run(5, 1 << 10)
    assert run.variant == f"aspiration:inner=pvs,window={s.WINDOW}" and run.depth == 5
    assert run.switches.tt_size == 1 << 10 and run.switches.iterative_deepening
    assert run.switches.refutations and run.ordering is not None
    assert run.ordering.killers and run.ordering.history and run.ordering.mvv_lva
    bare = s.BARE.run(5, 1 << 10)
    assert bare.variant == "alphabeta" and bare.switches.tt_size == 0
    assert not (bare.switches.iterative_deepening or bare.switches.refutations)
    assert bare.ordering is not None and not (bare.ordering.killers or bare.ordering.history)
    assert s.Combination.of(("minimal-window",)).run(3, 8).variant == "pvs"


@pytest.mark.parametrize(("label", "same_as"), [("A", "AI"), ("R", "-"), ("TRK", "TK"),
                                                ("HRAM", "HRAMI")])
def test_combinations_read_from_one_search_search_alike(label: str, same_as: str) -> None:
    """What the dedupe says, the searches do: the same counts on a real position."""
    problem = next(iter(load_problems("chess:selfplay-explore.epd").problems))
    counts = []
    for text in (label, same_as):
        combination = s.combinations_named([text])[0]
        on = combination.on                           # the search as its own letters ask
        searched = combination.run(3, 1 << 12)
        run = replace(searched, switches=replace(searched.switches,
                                                 iterative_deepening="deepening" in on,
                                                 refutations="refutations" in on))
        tree = find_game("chess").tree(problem)
        assert run.ordering is not None
        tree.set_ordering(run.ordering)               # type: ignore[attr-defined]
        result = run_search(tree, parse_variants(run.variant)[0], 3, run.switches)
        counts.append((result.score, result.counters["nodes"], result.counters["qnodes"]))
    assert counts[0] == counts[1]


def totals(rows: dict[str, list[float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, index=[f"p{i}" for i in range(len(next(iter(rows.values()))))])


def test_the_share_is_a_ratio_of_totals_with_its_interval() -> None:
    frame = totals({"-": [100, 300], "THKRAMI": [10, 30], "TH": [20, 30], "THI": [10, 30]})
    found = s.share_summary(frame, s.TH, None, BOOT)
    assert found["value"] == pytest.approx((400 - 50) / (400 - 40))
    assert found["low"] <= found["value"] <= found["high"]
    assert found["mean"] == pytest.approx(((80 / 90) + 1.0) / 2)
    gain = s.share_summary(frame, s.TH, s.THI, BOOT)
    assert gain["value"] == pytest.approx(10 / 360)
    costly = totals({"-": [10, 10], "THKRAMI": [20, 20], "TH": [5, 5]})
    assert math.isnan(s.share_summary(costly, s.TH, None, BOOT)["value"])   # no reduction


def test_the_per_position_line_says_which_positions_it_is_over() -> None:
    # The second position's seven enhancements search more than the bare search: its share
    # is undefined, so the mean and median are over the first alone, and the line says so
    # (the fifth referee reading's R2: the kept report printed n = 40 over 39).
    frame = totals({"-": [100, 10], "THKRAMI": [10, 20], "TH": [20, 5]})
    found = s.share_summary(frame, s.TH, None, BOOT)
    assert (found["n"], found["n_each"]) == (2, 1)
    assert found["mean"] == pytest.approx(80 / 90)
    assert "over the 1 of 2 positions where all seven reduce the tree" in s._share_text(found)
    both = s.share_summary(totals({"-": [100, 300], "THKRAMI": [10, 30], "TH": [20, 30]}),
                           s.TH, None, BOOT)
    assert "where all seven" not in s._share_text(both)


def test_a_stopped_search_is_never_a_total() -> None:
    rows = pd.DataFrame([{"depth": 4, "problem_id": "p", "config": "-", "nodes": 5, "qnodes": 1,
                          "status": "max-nodes"}])
    with pytest.raises(HarnessError, match="did not finish"):
        s.totals_by_position(rows, 4)


def numbers(share: tuple[float, float], gain: tuple[float, float]) -> dict[str, object]:
    def summary(low: float, high: float) -> dict[str, float]:
        return {"value": (low + high) / 2, "low": low, "high": high, "n": 30.0, "mean": 0.0,
                "median": 0.0, "level": 0.95}
    depth = {"share": summary(*share), "share_deepening": summary(*share),
             "gains": {e: summary(*gain) for e in s.OTHERS},
             "gains_deepening": {e: summary(*gain) for e in s.OTHERS_WITH_DEEPENING}}
    return {"depths": {"4": depth, "5": depth}}


@pytest.mark.parametrize(("share", "gain", "outcome"), [
    ((0.992, 0.998), (-0.01, 0.005), HOLDS), ((0.90, 0.95), (0.02, 0.05), FAILS),
    ((0.98, 0.995), (0.0, 0.02), INCONCLUSIVE)])
def test_the_checks_read_their_bands(share: tuple[float, float], gain: tuple[float, float],
                                     outcome: str) -> None:
    checks = s.judge(numbers(share, gain))
    claim = [c for c in checks if not c.extension]
    assert len(claim) == 2 + len(s.OTHERS)          # the share at each depth, gains at the deepest
    assert all("depth 5" in c.statement for c in claim if "gains" in c.statement)
    assert {c.outcome for c in claim} == {outcome}
    assert len([c for c in checks if c.extension]) == 2 + len(s.OTHERS_WITH_DEEPENING)


def test_the_quick_scale_searches_the_exploration_s_first_positions() -> None:
    jobs = s.jobs(QUICK)
    assert len(jobs) == QUICK.schaeffer[0]
    runs = jobs[0][2]
    assert {r.depth for r in runs} == {4, 5}
    assert len([r for r in runs if r.depth == 4]) == 80
    assert len([r for r in runs if r.depth == 5]) == len(s.unique_searches(s.needed())) == 16
    assert all(p.suite == "selfplay-explore.epd" for _, p, _ in jobs)


def test_one_position_measured_gives_every_number() -> None:
    tags, problem, runs = s.jobs(QUICK)[0]
    rows = pd.DataFrame(measure(tags, problem, runs))
    found = s.numbers_of(rows, BOOT)
    assert set(found) == {"4", "5"}
    assert found["5"]["positions"] == 1
    assert set(found["4"]["totals"]) == {c.label for c in s.unique_searches(s.EVERY)}
    assert found["5"]["to_bare"]["-"] == 1.0
