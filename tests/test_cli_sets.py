"""The command line with several problem sets: compared per set unless pooled on request,
and ``harness run`` prints a brief summary with pointers to the full tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.report.compare import POOLED

SETS = ("random:b=3,d=3,n=6,seed=2,ordering=0.9", "random:b=3,d=3,n=6,seed=2,ordering=random")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_run_prints_a_brief_summary_and_where_the_tables_are(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--trees", SETS[0], "--trees", SETS[1], "--variants",
                    "alphabeta,pvs,minimax", "--depth", "1-3", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Problem sets, each on its own: ordering=0.9, ordering=random" in text
    assert "ordering=0.9 (depth 3, 6 problems)" in text and "most nodes:   minimax" in text
    assert f"harness show {out}" in text and str(out / "report.html") in text
    assert "min_leaves" not in text and "re-search" not in text   # not the full table
    assert len(text.splitlines()) < 22        # with the answers line


def test_compare_is_per_set_and_pooled_only_on_request(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    result = invoke("compare", "alphabeta", "pvs", "--trees", SETS[0], "--trees", SETS[1],
                    "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out / "compare.csv")
    suites = list(pd.unique(table["suite"]))        # full (normalised) names in the file
    assert table.columns[0] == "suite" and len(suites) == 2
    assert "ordering=0.9" in suites[0] and "ordering=random" in suites[1]
    assert (table["n"] == 6).all()
    assert result.output.count("Problem set: ") == 2
    pooled = invoke("compare", "alphabeta", "pvs", "--run", str(out), "--pooled")
    assert pooled.exit_code == 0, pooled.output
    table = pd.read_csv(out / "compare.csv")
    assert set(table["suite"]) == {POOLED} and (table["n"] == 12).all()
    assert f"Problem set: {POOLED}" in pooled.output and "pooled into one group" in pooled.output
