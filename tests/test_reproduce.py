"""harness reproduce: verdict rules on made-up numbers, and small real reproductions."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from harness import reproduce as rp
from harness.errors import HarnessError
from harness.reproduce import (
    FAILS,
    HOLDS,
    NO_WAC,
    NOT_MEASURED,
    PARTLY,
    Check,
    ReproduceOutput,
    Scale,
    judge_knuth_moore,
    judge_mtdf,
    judge_never_more,
    judge_ordering,
    judge_pearl,
    judge_pvs_article,
    judge_same_tree,
    judge_zwp,
    knuth_moore_formula,
    pearl_asymptote,
    pearl_root,
    reproduce,
    verdict_of,
)
from harness.reproduce.claims.ordering import level_runs
from harness.search.minimal import knuth_moore

VERDICTS = {HOLDS, FAILS, PARTLY}

TINY = Scale(km_max_leaves=64, km_branchings=(2, 3), km_trees=1, pearl=((3, 4),), pearl_trees=2,
             sweep_branching=3, sweep_depth=3, sweep_trees=2, chess_positions=2, chess_depth=2,
             tt_size=4096)
"""A scale small enough for a test to run every claim."""

EPD = (
    '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "T.1";\n'
    'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id "T.2";\n'
)


def ratio(value: float, low: float, high: float, n: int = 10) -> dict[str, float]:
    return {"ratio": value, "low": low, "high": high, "n": float(n)}


def check(passed: bool) -> Check:
    return Check("a statement", passed, "a number")


# --- verdict rules ---------------------------------------------------------------------

def test_verdict_is_decided_by_the_share_of_checks_passed() -> None:
    assert verdict_of([check(True), check(True)]) == HOLDS
    assert verdict_of([check(False), check(False)]) == FAILS
    assert verdict_of([check(True), check(False)]) == PARTLY
    assert verdict_of([]) == NOT_MEASURED


def test_pearl_asymptote_solves_its_equation() -> None:
    for b in (2, 3, 5, 8, 20):
        x = pearl_root(b)
        assert 0 < x < 1 and abs(x ** b + x - 1) < 1e-12
    assert pearl_asymptote(5) == pytest.approx(3.0796, abs=1e-4)       # "about 3.08"
    assert pearl_asymptote(2) == pytest.approx((1 + math.sqrt(5)) / 2)  # x = 1/golden ratio
    with pytest.raises(HarnessError):
        pearl_root(0)


def test_formula_as_stated_equals_the_library() -> None:
    for b in range(1, 9):
        for d in range(1, 9):
            assert knuth_moore_formula(b, d) == knuth_moore(b, d)
    assert knuth_moore_formula(8, 6) == 8 ** 3 + 8 ** 3 - 1


def test_knuth_moore_checks_are_exact() -> None:
    numbers = {"variants": {"alphabeta": {"searches": 5, "exact": 5},
                            "pvs": {"searches": 5, "exact": 4}}}
    assert [c.passed for c in judge_knuth_moore(numbers)] == [True, False]
    assert verdict_of(judge_knuth_moore(numbers)) == PARTLY


def pearl_numbers(first: float, last: float) -> dict[str, Any]:
    target = pearl_asymptote(5)
    return {"branchings": {"5": {"asymptote": target, "estimate_first": first,
                                 "estimate_last": last, "first_depth": 3, "last_depth": 9}}}


def test_pearl_needs_a_trend_toward_the_asymptote_and_ten_percent() -> None:
    target = pearl_asymptote(5)
    assert verdict_of(judge_pearl(pearl_numbers(3.9, target * 1.09))) == HOLDS
    assert verdict_of(judge_pearl(pearl_numbers(3.9, target * 1.11))) == PARTLY     # trend only
    assert verdict_of(judge_pearl(pearl_numbers(3.1, target * 1.11))) == FAILS
    # Within 10% but further away than at the start: partly.
    assert verdict_of(judge_pearl(pearl_numbers(target, target * 0.95))) == PARTLY


def test_mtdf_checks_band_interval_and_passes() -> None:
    good = {"leaves": ratio(0.93, 0.91, 0.95), "mtdf_passes_per_iteration": 4.2}
    assert verdict_of(judge_mtdf(good)) == HOLDS
    fewer_by_more = {**good, "leaves": ratio(0.80, 0.75, 0.85)}
    assert [c.passed for c in judge_mtdf(fewer_by_more)] == [True, False, True]
    worse = {"leaves": ratio(1.05, 0.97, 1.14), "mtdf_passes_per_iteration": 7.0}
    assert verdict_of(judge_mtdf(worse)) == FAILS
    boundary = {"leaves": ratio(0.95, 0.93, 0.999), "mtdf_passes_per_iteration": 3.0}
    assert verdict_of(judge_mtdf(boundary)) == HOLDS                   # bands are inclusive


def test_pvs_article_judges_the_best_ordering() -> None:
    numbers = {"best_config": "+hash move", "configs": {
        "none": {"fh_first_pvs": 0.3, "ratio": ratio(0.5, 0.4, 0.6)},
        "+hash move": {"fh_first_pvs": 0.91, "ratio": ratio(0.9, 0.86, 0.97)}}}
    assert verdict_of(judge_pvs_article(numbers)) == HOLDS
    numbers["configs"]["+hash move"]["ratio"] = ratio(0.9, 0.8, 1.01)    # interval reaches 1
    assert [c.passed for c in judge_pvs_article(numbers)] == [True, False]
    numbers["configs"]["+hash move"]["fh_first_pvs"] = 0.97
    assert verdict_of(judge_pvs_article(numbers)) == FAILS


def test_universal_claims_fail_on_one_problem() -> None:
    more = {"sets": {"synthetic trees": {"problems": 100, "more": 0},
                     "chess positions": {"problems": 10, "more": 1}}}
    assert [c.passed for c in judge_never_more(more)] == [True, False]
    same = {"sets": {"synthetic trees": {"problems": 100, "identical": 100}}}
    assert verdict_of(judge_same_tree(same)) == HOLDS
    same["sets"]["synthetic trees"]["identical"] = 99
    assert verdict_of(judge_same_tree(same)) == FAILS
    assert verdict_of(judge_never_more({"sets": {"x": {"problems": 0, "more": 0}}})) == FAILS


def test_zwp_checks() -> None:
    found = {"improvement": ratio(0.99, 0.98, 0.995), "zwp-all": ratio(1.0, 1.0, 1.0),
             "zwp-pv": ratio(0.97, 0.95, 0.99)}
    numbers = {"improvement_never_costs": {"problems": 10, "more": 0}, "sets": {"chess": found}}
    assert verdict_of(judge_zwp(numbers)) == HOLDS
    numbers["sets"]["chess"] = {**found, "zwp-all": ratio(0.985, 0.98, 0.99)}    # saves 1.5%
    assert [c.passed for c in judge_zwp(numbers)] == [True, True, False, True]
    numbers["improvement_never_costs"]["more"] = 1
    assert judge_zwp(numbers)[0].passed is False


def summary(value: float, low: float, high: float, n: int = 10, more: int = 0) -> dict[str, float]:
    return {**ratio(value, low, high, n), "more": float(more)}


def ordering_numbers(models: tuple[str, ...] = ("distinct", "tied")) -> dict[str, Any]:
    """Claim 8's numbers where every statement holds (each test breaks one)."""
    zw = ("pvs", "negascout")
    levels = [f"{k / 10:.1f}" for k in range(11)]
    return {
        "variants": {v: {m: {"0.9": summary(0.95, 0.92, 0.98),
                             "random": summary(1.2, 1.1, 1.3, more=7)} for m in models}
                     for v in zw},
        "advantage_shrinks": {m: {v: ratio(1.25, 1.1, 1.4) for v in zw} for m in models},
        "research_nodes": {m: {v: ratio(40.0, 10.0, 150.0) for v in zw} for m in models},
        "alphabeta_by_level": {m: {
            "steps": [{"from": a, "to": b, **ratio(0.8, 0.7, 0.9)}
                      for a, b in itertools.pairwise(levels)],
            "overall": {"from": "0.0", "to": "1.0", **ratio(0.07, 0.06, 0.08)}} for m in models},
        "minimal_tree": {"model": "distinct", "level": "1.0", "b": 6, "d": 6, "formula": 431,
                         "variants": {v: {"trees": 8, "exact": 8} for v in ("alphabeta", *zw)}},
    }


def passed_by_label(numbers: dict[str, Any]) -> dict[str, bool]:
    return {label: c.passed for label, c in rp.ordering_statements(numbers)}


def test_ordering_checks_hold_on_numbers_that_agree_with_the_texts() -> None:
    numbers = ordering_numbers()
    checks = judge_ordering(numbers)
    assert len(checks) == 11 and verdict_of(checks) == HOLDS
    assert [c for _, c in rp.ordering_statements(numbers)] == checks
    assert all(c.statement and c.measured for c in checks)


def test_ordering_good_ordering_must_save_for_every_zero_window_variant() -> None:
    numbers = ordering_numbers()
    numbers["variants"]["negascout"]["tied"]["0.9"] = summary(0.97, 0.90, 1.01)   # reaches 1
    passed = passed_by_label(numbers)
    assert passed["tied: good ordering saves"] is False
    assert passed["distinct: good ordering saves"] is True
    assert verdict_of(judge_ordering(numbers)) == PARTLY


def test_ordering_advantage_must_shrink_with_random_ordering() -> None:
    numbers = ordering_numbers()
    numbers["advantage_shrinks"]["distinct"]["pvs"] = ratio(1.18, 0.95, 1.41)     # reaches 1
    assert passed_by_label(numbers)["distinct: the advantage shrinks with random ordering"] is False
    numbers["advantage_shrinks"]["distinct"]["pvs"] = ratio(0.9, 0.85, 0.95)      # grows instead
    assert passed_by_label(numbers)["distinct: the advantage shrinks with random ordering"] is False


def test_ordering_random_ordering_must_cost_more_re_search() -> None:
    numbers = ordering_numbers()
    numbers["research_nodes"]["tied"]["negascout"] = ratio(1.5, 0.8, 3.0)
    passed = passed_by_label(numbers)
    assert passed["tied: more re-search with random ordering"] is False
    assert passed["distinct: more re-search with random ordering"] is True


def test_ordering_can_lose_needs_one_tree_where_alpha_beta_searched_less() -> None:
    numbers = ordering_numbers()
    numbers["variants"]["pvs"]["distinct"]["random"] = summary(0.9, 0.8, 0.99, more=1)
    assert passed_by_label(numbers)["distinct: can lose with random ordering"] is True
    numbers["variants"]["pvs"]["distinct"]["random"] = summary(0.9, 0.8, 0.99, more=0)
    assert passed_by_label(numbers)["distinct: can lose with random ordering"] is False


def test_ordering_alpha_beta_must_not_rise_significantly_at_any_step() -> None:
    label = "tied: alpha-beta falls monotonically"
    numbers = ordering_numbers()
    steps = numbers["alphabeta_by_level"]["tied"]["steps"]
    steps[4] = {**steps[4], **ratio(1.02, 0.97, 1.08)}        # a rise within the noise
    assert passed_by_label(numbers)[label] is True
    steps[4] = {**steps[4], **ratio(1.10, 1.03, 1.18)}        # a significant rise
    check = dict(rp.ordering_statements(numbers))[label]
    assert check.passed is False and "0.4 to 0.5" in check.measured
    numbers = ordering_numbers()
    numbers["alphabeta_by_level"]["tied"]["overall"].update(ratio(0.97, 0.9, 1.02))
    assert passed_by_label(numbers)[label] is False           # no overall fall
    numbers["alphabeta_by_level"]["tied"]["steps"] = []
    assert passed_by_label(numbers)[label] is False           # nothing measured


def test_ordering_minimal_tree_is_exact() -> None:
    numbers = ordering_numbers()
    numbers["minimal_tree"]["variants"]["negascout"]["exact"] = 7
    check = dict(rp.ordering_statements(numbers))["minimal tree at p = 1"]
    assert check.passed is False and "7 of 8" in check.measured and "431" in check.statement
    numbers["minimal_tree"]["variants"] = {"pvs": {"trees": 0, "exact": 0}}
    assert passed_by_label(numbers)["minimal tree at p = 1"] is False


def test_ordering_verdict_says_when_nothing_holds() -> None:
    numbers = ordering_numbers(("distinct",))
    for v in ("pvs", "negascout"):
        numbers["variants"][v]["distinct"] = {"0.9": summary(1.1, 1.05, 1.2),
                                              "random": summary(0.9, 0.85, 0.95, more=0)}
        numbers["advantage_shrinks"]["distinct"][v] = ratio(0.8, 0.7, 0.9)
        numbers["research_nodes"]["distinct"][v] = ratio(0.5, 0.3, 0.8)
    numbers["alphabeta_by_level"]["distinct"]["overall"].update(ratio(1.2, 1.1, 1.3))
    numbers["minimal_tree"]["variants"]["pvs"]["exact"] = 0
    checks = judge_ordering(numbers)
    assert len(checks) == 6 and verdict_of(checks) == FAILS


def test_level_runs_compress_consecutive_levels() -> None:
    assert level_runs(["0.3", "0.5", "0.6", "0.7", "1.0"]) == "0.3, 0.5-0.7, 1.0"
    assert level_runs([]) == "none"


def test_unknown_claims_are_refused(tmp_path: Path) -> None:
    with pytest.raises(HarnessError, match="unknown claim 'nine'"):
        reproduce(tmp_path, quick=True, only=["nine"])
    with pytest.raises(HarnessError, match="needs at least 1"):
        reproduce(tmp_path, quick=True, jobs=0, only=["1"])


# --- real reproductions ------------------------------------------------------------------

@pytest.fixture(scope="module")
def cheap(tmp_path_factory: pytest.TempPathFactory) -> ReproduceOutput:
    return reproduce(tmp_path_factory.mktemp("reproduce") / "out", quick=True,
                     only=["knuth-moore", "2"])


def test_knuth_moore_holds_exactly(cheap: ReproduceOutput) -> None:
    claim = cheap.claims[0]
    assert (claim.key, claim.verdict) == ("knuth-moore", HOLDS)
    assert claim.checks and all(c.passed for c in claim.checks)
    variants = claim.numbers["variants"]
    assert set(variants) == {"alphabeta", "pvs", "negascout"}
    assert all(v["exact"] == v["searches"] > 0 and not v["mismatches"] for v in variants.values())
    assert claim.numbers["formula_equals_library"] is True
    assert [5, 4] in claim.numbers["pairs"] and [8, 5] in claim.numbers["pairs"]


def test_pearl_is_measured_against_the_asymptote(cheap: ReproduceOutput) -> None:
    claim = cheap.claims[1]
    assert claim.key == "pearl" and claim.verdict in VERDICTS
    five = claim.numbers["branchings"]["5"]
    assert five["asymptote"] == pytest.approx(3.08, abs=0.005)
    assert five["depths"] == list(range(1, len(five["leaves"]) + 1))
    assert five["estimate_last"] == pytest.approx(math.sqrt(five["leaves"][-1] / five["leaves"][-3]))
    assert "leaves(d) / leaves(d-1)" in claim.setup


def test_files_are_written_and_self_contained(cheap: ReproduceOutput) -> None:
    out = cheap.out_dir
    md = cheap.report_md.read_text(encoding="utf-8")
    page = cheap.report_html.read_text(encoding="utf-8")
    for claim in cheap.claims:
        assert claim.title in md and f"Verdict: {claim.verdict}" in md
        assert {p.suffix for p in claim.charts} == {".png", ".svg"}
        assert all(p.is_file() and p.parent == out / "charts" for p in claim.charts)
    assert "How verdicts are decided" in md and "within 10%" in md
    assert "![" in md and "(charts/knuth_moore.png)" in md
    images = re.findall(r'src="([^"]+)"', page)
    assert len(images) == 2 and all(i.startswith("data:image/png;base64,") for i in images)
    assert "<script" not in page and "href=" not in page
    record = json.loads((out / "claims.json").read_text(encoding="utf-8"))
    assert record["mode"] == "quick"
    assert [c["verdict"] for c in record["claims"]] == [c.verdict for c in cheap.claims]
    assert record["claims"][0]["charts"][0].startswith("charts/")
    assert {p.name for p in cheap.data} == {"knuth-moore.csv", "pearl.csv"}


def test_chess_claims_are_skipped_cleanly_without_a_suite(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rp, "chess_suite", lambda: None)
    out = reproduce(tmp_path / "out", quick=True, only=["mtdf", "pvs-article"])
    assert [c.verdict for c in out.claims] == [NO_WAC, NO_WAC]
    assert all(not c.checks and not c.charts for c in out.claims)
    assert out.data == ()
    assert NO_WAC in out.report_md.read_text(encoding="utf-8")


def test_every_claim_runs_at_a_tiny_scale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "tiny.epd"
    suite.write_text(EPD, encoding="utf-8")
    monkeypatch.setattr(rp, "QUICK", TINY)
    monkeypatch.setattr(rp, "chess_suite", lambda: suite)
    out = reproduce(tmp_path / "out", quick=True, jobs=1)
    assert [c.key for c in out.claims] == rp.claim_keys()
    for claim in out.claims:
        assert claim.verdict in VERDICTS, (claim.key, claim.verdict)
        assert claim.verdict == verdict_of(claim.checks)
        assert claim.measured and claim.setup and claim.charts
    by_key = {c.key: c for c in out.claims}
    assert by_key["knuth-moore"].verdict == HOLDS
    assert "tiny.epd" in by_key["mtdf"].setup
    assert set(by_key["pvs-article"].numbers["configs"]) == {c.name for c in rp.chess_configs(1)}
    assert set(by_key["gnuchess"].numbers["sets"]) == {"synthetic trees, distinct values",
                                                       "synthetic trees, tied values",
                                                       "chess (positions x ordering steps)"}
    breuker = by_key["breuker"].numbers["sets"]
    # Where PVS and NegaScout differ, some zero-window test failed high and was re-searched.
    assert all(s["research_free_differences"] == 0 for s in breuker.values())
    ordering = by_key["ordering"].numbers["variants"]
    assert set(ordering) == set(rp.ALL_VARIANTS) - {"alphabeta"}
    # Perfect ordering: every PVS-family variant searches alpha-beta's tree exactly.
    for name in ("pvs", "negascout", "alphabeta-fs"):
        assert ordering[name]["distinct"]["1.0"]["ratio"] == 1.0
    claim8 = by_key["ordering"]
    assert len(claim8.checks) == 11
    minimal = claim8.numbers["minimal_tree"]
    assert minimal["formula"] == knuth_moore(3, 3) == 11
    assert all(x["exact"] == x["trees"] == 2 for x in minimal["variants"].values())
    assert claim8.checks[-1].passed                               # exact, as claim 1
    steps = claim8.numbers["alphabeta_by_level"]["distinct"]["steps"]
    assert [(s["from"], s["to"]) for s in steps][:2] == [("0.0", "0.1"), ("0.1", "0.2")]
    assert "Trends." in claim8.measured and "Verdict:" in claim8.measured
    html = out.report_html.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == len(out.claims)


def test_a_claim_is_one_record_in_the_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim with a dataset of its own needs only its record (as its module would hold it)
    and its place in the list: measured after the built-in datasets, numbered, judged and
    written up with its rule."""
    from harness.games.registry import load_problems
    from harness.reproduce import claims as registry
    from harness.reproduce.analysis import ClaimInfo, Context, Section
    from harness.reproduce.measure import Job, Run

    def jobs(scale: Scale) -> list[Job]:
        return [((("dataset", "extra"),), p, (Run("default", "alphabeta", 2),))
                for p in load_problems("random:b=2,d=2,n=2,seed=1").problems]

    def analyse(ctx: Context, info: ClaimInfo) -> Section:
        leaves = int(ctx.frames["extra"]["leaves"].sum())
        return Section(info, "two tiny trees", f"{leaves} leaves", {"leaves": leaves},
                       [Check("some leaves", leaves > 0, str(leaves))])

    extra = ClaimInfo("extra", "An extra claim", "a test", "trees have leaves", analyse,
                      jobs=jobs, rule=("Extra", ": more than none."))
    monkeypatch.setattr(registry, "CLAIMS", (*registry.CLAIMS, extra))
    out = reproduce(tmp_path / "out", quick=True, only=["9", "knuth-moore"])
    assert [(c.key, c.verdict) for c in out.claims] == [("knuth-moore", HOLDS), ("extra", HOLDS)]
    md = out.report_md.read_text(encoding="utf-8")
    assert "## 9. An extra claim" in md and "- Extra (9): more than none." in md
    assert {p.name for p in out.data} == {"knuth-moore.csv", "extra.csv"}
    assert rp.summary_lines(out)[1].startswith("9. extra: holds. ")
    datasets = [tags[0][1] for tags, _, _ in rp.jobs_of(registry.select(["9", "1"]), rp.QUICK, None)]
    assert datasets[-1] == "extra" and datasets[0] == "knuth-moore"     # the new one last
