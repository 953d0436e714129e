"""Short names for problem sets and the brief summary ``harness run`` prints."""

from __future__ import annotations

import pandas as pd
import pytest

from harness.report.summary import brief_summary, set_names
from tests.test_compare import BASE, frame

DEFAULT_SETS = ("random:b=8,d=6,n=20,seed=1,ordering=0.9,values=incremental,range=100",
                "random:b=8,d=6,n=20,seed=1,ordering=random,values=incremental,range=100")


def test_set_names_keep_what_differs_and_say_the_rest_once() -> None:
    names = set_names(DEFAULT_SETS)
    assert [names.label(s) for s in DEFAULT_SETS] == ["ordering=0.9", "ordering=random"]
    assert names.common == "random:b=8,d=6,n=20,seed=1,values=incremental,range=100"
    several = set_names(["random:b=2,d=3,n=5,seed=1", "random:b=3,d=3,n=5,seed=2"])
    assert several.short == {"random:b=2,d=3,n=5,seed=1": "b=2,seed=1",
                             "random:b=3,d=3,n=5,seed=2": "b=3,seed=2"}
    assert several.common == "random:d=3,n=5"
    assert set_names(["random:b=2,d=3", "other:b=2,d=3"]).short == {
        "random:b=2,d=3": "random", "other:b=2,d=3": "other"}


@pytest.mark.parametrize("suites", [
    ["bench.epd"],                                    # one set: its own name
    ["random:b=2,d=3", "bench.epd"],                  # nothing shared
    ["random:a=1,b=2", "random:b=2,a=1"],             # own parts would be empty
    ["x.json", "x.json"],                             # the same set twice
])
def test_set_names_fall_back_to_full_names(suites: list[str]) -> None:
    names = set_names(suites)
    assert names.common == "" and all(names.label(s) == s for s in suites)
    assert names.label("not a set") == "not a set"


def _opposite() -> pd.DataFrame:
    """b halves the nodes with good ordering and doubles them with random ordering; c is
    within noise of the baseline; a shallower depth that the summary must not report."""
    good, bad = DEFAULT_SETS
    noisy = [n + (3 if i % 2 else -3) for i, n in enumerate(BASE)]
    return pd.concat([
        frame({"alphabeta": BASE, "b": [n // 2 for n in BASE], "c": noisy}, suite=good),
        frame({"alphabeta": BASE, "b": [2 * n for n in BASE], "c": noisy}, suite=bad),
        frame({"alphabeta": BASE, "b": BASE, "c": BASE}, depth=2, suite=good),
    ], ignore_index=True)


def test_brief_summary_per_set_at_the_deepest_depth() -> None:
    text = brief_summary(_opposite(), resamples=500)
    lines = text.splitlines()
    assert lines[:2] == ["Problem sets, each on its own: ordering=0.9, ordering=random",
                         "  (all of them random:b=8,d=6,n=20,seed=1,values=incremental,range=100)"]
    assert len(lines) <= 13 and all(len(line) <= 110 for line in lines)
    good = text.split("ordering=0.9 (depth 3, 10 problems)")[1].split("ordering=random (")[0]
    bad = text.split("ordering=random (depth 3, 10 problems)")[1]
    assert "fewest nodes: b  0.500 (0.500-0.500)  50.0% fewer nodes, significant" in good
    assert "most nodes:   c  0.999" in good and "not significant (interval includes 1)" in good
    assert "fewest nodes: c  0.999" in bad
    assert "most nodes:   b  2.000 (2.000-2.000)  2 times the nodes, significant" in bad
    assert "significant at 5%: 1 with fewer nodes, 0 with more, 1 not significant" in good
    assert "significant at 5%: 0 with fewer nodes, 1 with more, 1 not significant" in bad
    assert "depth 2" not in text and "random:b=8,d=6,n=20,seed=1,ordering" not in text


def test_brief_summary_solved_counts_and_lone_variants() -> None:
    results = frame({"alphabeta": BASE, "pvs": BASE}, solved=True)
    results.loc[(results["variant"] == "pvs") & (results["problem_id"] == "1"), "solved"] = "False"
    text = brief_summary(results, resamples=100)
    assert text.splitlines()[2] == "s (depth 3, 10 problems)"   # one set: its name as it is
    assert "solved: from 4 (pvs) to 5 (alphabeta) of 5" in text
    assert "solved: 5 of 5 by every variant" in brief_summary(frame({"a": BASE, "b": BASE},
                                                                    solved=True), resamples=100)
    alone = brief_summary(frame({"pvs": BASE}))
    assert f"only pvs: nothing to compare ({sum(BASE):,} nodes)" in alone


@pytest.mark.parametrize("others,most", [
    ({"slower": [n + n // 50 + 1 for n in BASE]}, "slower"),          # one variant, at ~1.02
    ({"same": BASE, "slower": [2 * n for n in BASE]}, "slower"),       # 1.000 and 2.000
])
def test_brief_summary_names_no_fewest_when_none_searched_fewer(others: dict[str, list[int]],
                                                                 most: str) -> None:
    """A variant at 1.015 was called "fewest nodes" ("1.5% more nodes"), another at "1.000
    as many nodes": when none searched fewer nodes than the baseline, the line says so."""
    lines = brief_summary(frame({"alphabeta": BASE, **others}), resamples=100).splitlines()
    assert "  fewest nodes: no variant searched fewer nodes than alphabeta" in lines
    assert next(line for line in lines if "most nodes:" in line).startswith(f"  most nodes:   {most}")
    assert sum("nodes:" in line for line in lines) == 2

