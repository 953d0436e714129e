"""Variant against baseline: pairing, ratios, tests, verdicts, the CI gate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from harness.errors import HarnessError
from harness.report.compare import (
    POOLED,
    TABLE_COLUMNS,
    compare,
    default_baseline,
    pair,
    pairs,
    render_comparison,
    worse_than,
)
from harness.run.experiment import run_experiment
from harness.run.plan import ExperimentConfig


def frame(nodes: dict[str, list[int]], depth: int = 3, suite: str = "s",
          solved: bool = False) -> pd.DataFrame:
    """A results-like frame: one row per variant x problem, problems numbered from 0."""
    rows = []
    for variant, counts in nodes.items():
        for i, n in enumerate(counts):
            row = {"suite": suite, "problem_id": str(i), "variant": variant, "depth": depth,
                   "nodes": n, "leaves": n // 2, "zw_searches": 10, "researches": 1,
                   "fail_highs": 4, "fail_highs_first": 3, "time_s": 0.001}
            if solved:
                row["solved"] = "True" if i % 2 else ""
            rows.append(row)
    return pd.DataFrame(rows)


BASE = [100, 120, 140, 160, 180, 200, 220, 240, 260, 280]


def test_halved_nodes_win_everywhere() -> None:
    results = frame({"alphabeta": BASE, "pvs": [n // 2 for n in BASE]})
    comparison = compare(results, "alphabeta", ["pvs"])
    assert list(comparison.table.columns) == list(TABLE_COLUMNS)
    row = comparison.table.iloc[0]
    assert (row["suite"], row["variant"], row["depth"], row["n"]) == ("s", "pvs", 3, 10)
    assert row["ratio"] == pytest.approx(0.5)
    assert row["ratio_low"] == pytest.approx(0.5) and row["ratio_high"] == pytest.approx(0.5)
    assert row["median_ratio"] == pytest.approx(0.5)
    assert (row["wins"], row["ties"], row["losses"]) == (10, 0, 0)
    assert row["sign_p"] == 2 / 1024
    assert row["nodes_a"] == sum(BASE) and row["nodes_b"] == sum(n // 2 for n in BASE)
    assert row["research_rate_a"] == pytest.approx(0.1)
    assert row["fh_first_rate_b"] == pytest.approx(0.75)
    assert row["significant"]
    assert row["verdict"].startswith("pvs searched fewer nodes than alphabeta: 50.0% fewer")
    assert "significant at 5%" in row["verdict"] and "not significant" not in row["verdict"]
    assert not worse_than(comparison, 0)


def test_nine_of_ten_and_the_interval_decide_significance() -> None:
    other = [n - 10 for n in BASE[:9]] + [BASE[9] + 5]
    row = compare(frame({"alphabeta": BASE, "b": other}), "alphabeta", ["b"]).table.iloc[0]
    assert (row["wins"], row["ties"], row["losses"]) == (9, 0, 1)
    assert row["sign_p"] == 22 / 1024
    assert row["ratio_low"] <= row["ratio"] <= row["ratio_high"]
    assert row["significant"] == (row["ratio_high"] < 1)


def test_mixed_results_are_not_significant() -> None:
    other = [n * 2 if i % 2 else n // 2 for i, n in enumerate(BASE)]
    row = compare(frame({"alphabeta": BASE, "b": other}), "alphabeta", ["b"]).table.iloc[0]
    assert (row["wins"], row["losses"]) == (5, 5)
    assert row["sign_p"] == 1.0
    assert not row["significant"]
    assert "not significant at 5%" in row["verdict"]
    assert "the interval includes 1" in row["verdict"]


def test_equal_counts_are_ties() -> None:
    comparison = compare(frame({"alphabeta": BASE, "same": BASE}), "alphabeta", [])
    row = comparison.table.iloc[0]
    assert (row["wins"], row["ties"], row["losses"], row["ratio"]) == (0, 10, 0, 1.0)
    assert "exactly as many nodes on all 10 problems" in row["verdict"]
    assert row["largest"] == ""
    assert comparison.differences.empty


def test_pairs_only_problems_both_searched() -> None:
    results = pd.concat([
        frame({"alphabeta": BASE}),
        frame({"b": [1000] * 12}).query("problem_id != '0'"),  # lacks 0, has 10 and 11
        frame({"b": [5]}, depth=4),  # a depth the baseline never searched
    ], ignore_index=True)
    paired = pair(results, "alphabeta", "b")
    assert sorted(paired["problem_id"]) == sorted(str(i) for i in range(1, 10))
    table = compare(results, "alphabeta", ["b"]).table
    assert table["depth"].tolist() == [3, 4]
    assert table["n"].tolist() == [9, 0]
    assert "no problems in common" in table.iloc[1]["verdict"]
    assert np.isnan(table.iloc[1]["ratio"])


def test_pairs_at_once_equal_pairs_one_by_one() -> None:
    """A report pairs every variant from one merge: each pair is the one made alone, in
    any row order of the results, and a variant with nothing in common gets no rows."""
    results = pd.concat([
        frame({"alphabeta": BASE, "b": [n // 2 for n in BASE]}, suite="x"),
        frame({"alphabeta": BASE, "c": [2 * n for n in BASE]}, depth=4, suite="y"),
        frame({"d": [7, 8]}, depth=5, suite="x"),
    ], ignore_index=True)
    shuffled = results.sample(frac=1.0, random_state=3).reset_index(drop=True)
    for source in (results, shuffled):
        together = pairs(source, "alphabeta", ["b", "c", "d"])
        for other in ("b", "c", "d"):
            pd.testing.assert_frame_equal(together[other], pairs(results, "alphabeta", [other])[other])
    assert list(together["b"].columns) == ["suite", "problem_id", "depth", "nodes_a",
                                           "zw_searches_a", "researches_a", "fail_highs_a",
                                           "fail_highs_first_a", "time_s_a", "nodes_b",
                                           "zw_searches_b", "researches_b", "fail_highs_b",
                                           "fail_highs_first_b", "time_s_b"]
    assert together["b"]["nodes_b"].tolist() == [n // 2 for n in BASE]
    assert len(together["c"]) == 10 and together["d"].empty
    assert list(together["d"].columns) == list(together["b"].columns)
    with pytest.raises(HarnessError, match="'e' is not in the results"):
        pairs(results, "alphabeta", ["b", "e"])


def _two_sets(y_factor: float = 2.0) -> pd.DataFrame:
    """Problem set x where b halves the baseline's nodes, set y where it multiplies them."""
    return pd.concat([frame({"alphabeta": BASE, "b": [n // 2 for n in BASE]}, suite="x"),
                      frame({"alphabeta": BASE, "b": [round(y_factor * n) for n in BASE]},
                            suite="y")], ignore_index=True)


def test_each_problem_set_is_compared_on_its_own() -> None:
    comparison = compare(_two_sets(), "alphabeta", ["b"])
    table = comparison.table
    assert not comparison.pooled
    assert TABLE_COLUMNS[0] == "suite" and table["suite"].tolist() == ["x", "y"]
    x, y = table.iloc[0], table.iloc[1]
    assert (x["n"], x["wins"], x["losses"], x["ratio"]) == (10, 10, 0, pytest.approx(0.5))
    assert (y["n"], y["wins"], y["losses"], y["ratio"]) == (10, 0, 10, pytest.approx(2.0))
    assert x["significant"] and y["significant"]
    assert x["verdict"].startswith("b searched fewer nodes than alphabeta: 50.0% fewer")
    assert y["verdict"].startswith("b searched more nodes than alphabeta: 2 times as many")
    assert x["largest"].startswith("0 (100->50")   # one set: no set name in front
    assert set(comparison.differences["suite"]) == {"x", "y"}


def test_pooling_only_on_request_and_labelled() -> None:
    results = pd.concat([frame({"alphabeta": BASE, "b": BASE}, suite="x"),
                         frame({"alphabeta": BASE, "b": [2 * n for n in BASE]}, suite="y")],
                        ignore_index=True)
    comparison = compare(results, "alphabeta", ["b"], pooled=True)
    assert comparison.pooled and len(comparison.table) == 1
    row = comparison.table.iloc[0]
    assert row["suite"] == POOLED == "all problem sets (pooled)"
    assert (row["n"], row["wins"], row["ties"], row["losses"]) == (20, 0, 10, 10)
    assert row["ratio"] == pytest.approx(np.sqrt(2))
    assert row["largest"].startswith("y/0 (100->200")
    text = render_comparison(comparison)
    assert "pooled into one group" in text and f"Problem set: {POOLED}" in text


def test_worse_than_gates_each_problem_set() -> None:
    results = _two_sets(y_factor=1.3)   # x: 0.5, y: 1.3; pooled: sqrt(0.65) = 0.81
    assert worse_than(compare(results, "alphabeta", ["b"]), 20)
    assert not worse_than(compare(results, "alphabeta", ["b"]), 31)
    assert not worse_than(compare(results, "alphabeta", ["b"], pooled=True), 20)


def test_render_has_one_block_per_problem_set() -> None:
    text = render_comparison(compare(_two_sets(), "alphabeta", ["b"]))
    assert "each problem set on its own" in text and "pooled" not in text
    x_block, y_block = text.split("Problem set: x")[1].split("Problem set: y")
    assert "10/0/0" in x_block and "b searched fewer nodes" in x_block
    assert "0/0/10" in y_block and "b searched more nodes" in y_block
    assert "searched fewer" not in y_block


def test_largest_differences_by_absolute_log_ratio() -> None:
    other = list(BASE)
    other[3] = BASE[3] * 4   # x4
    other[7] = BASE[7] // 8  # /8: the largest
    other[1] = BASE[1] * 2   # x2
    comparison = compare(frame({"alphabeta": BASE, "b": other}), "alphabeta", ["b"])
    diffs = comparison.differences
    assert diffs["problem_id"].tolist() == ["7", "3", "1"]
    assert diffs["rank"].tolist() == [1, 2, 3]
    assert diffs["ratio"].tolist() == pytest.approx([30 / 240, 4.0, 2.0])
    assert comparison.table.iloc[0]["largest"].split("; ")[0] == "7 (240->30, x0.125)"


def test_worse_than_gate() -> None:
    results = frame({"alphabeta": BASE, "slow": [n * 3 // 2 for n in BASE], "fast": BASE})
    comparison = compare(results, "alphabeta", ["slow", "fast"])
    assert worse_than(comparison, 10)
    assert worse_than(comparison, 49)
    assert not worse_than(comparison, 51)
    with pytest.raises(HarnessError):
        worse_than(comparison, -1)


def test_render_is_a_readable_table() -> None:
    results = frame({"alphabeta": BASE, "pvs": [n // 2 for n in BASE], "mtdf": BASE})
    text = compare(results, "alphabeta", []).render()
    assert "B/A" in text and "W/T/L" in text and "10/0/0" in text
    assert "pvs searched fewer nodes than alphabeta" in text
    assert "mtdf and alphabeta searched exactly as many nodes" in text


def test_bad_requests_raise() -> None:
    results = frame({"alphabeta": BASE, "pvs": BASE})
    with pytest.raises(HarnessError, match="not in the results"):
        compare(results, "nosuch", ["pvs"])
    with pytest.raises(HarnessError, match="not in the results"):
        compare(results, "alphabeta", ["nosuch"])
    with pytest.raises(HarnessError, match="also among"):
        compare(results, "alphabeta", ["pvs", "alphabeta"])
    with pytest.raises(HarnessError, match="more than once"):
        compare(pd.concat([results, results.iloc[:1]]), "alphabeta", ["pvs"])
    with pytest.raises(HarnessError, match="lack the columns"):
        compare(results.drop(columns="nodes"), "alphabeta", ["pvs"])


def test_default_baseline_and_solved_column_is_ignored() -> None:
    assert default_baseline(frame({"pvs": BASE, "alphabeta": BASE})) == "alphabeta"
    assert default_baseline(frame({"pvs": BASE, "mtdf": BASE})) == "pvs"
    with_solved = frame({"alphabeta": BASE, "pvs": BASE[::-1]}, solved=True)
    without = with_solved.drop(columns="solved")
    assert compare(with_solved, "alphabeta", []).table.equals(compare(without, "alphabeta", []).table)


def test_same_inputs_same_comparison() -> None:
    rng = np.random.default_rng(5)
    other = [int(n * rng.uniform(0.7, 1.2)) for n in BASE]
    results = frame({"alphabeta": BASE, "b": other})
    first = compare(results, "alphabeta", ["b"], seed=9).table
    assert first.equals(compare(results, "alphabeta", ["b"], seed=9).table)


def test_compare_on_a_real_run(tmp_path: Path) -> None:
    config = ExperimentConfig(problems=("random:b=3,d=3,n=6,seed=2,ordering=0.7",),
                              variants="alphabeta,pvs,minimax", depths=(1, 2, 3))
    results = run_experiment(config, tmp_path / "run").results
    comparison = compare(results, default_baseline(results), [])
    table = comparison.table
    assert table["variant"].tolist() == ["pvs"] * 3 + ["minimax"] * 3
    assert table["n"].tolist() == [6] * 6
    minimax = table[table["variant"] == "minimax"]
    # alpha-beta never searches more than minimax with the same move order
    assert (minimax["wins"] == 0).all() and (minimax["ratio"] >= 1).all()
    deepest = results[(results["variant"] == "minimax") & (results["depth"] == 3)]
    assert minimax.iloc[-1]["nodes_b"] == deepest["nodes"].sum()
    assert "alphabeta" in comparison.render()
