"""A reproduction kept in the repository (its compact form, the README's table of it) and a
run compared with an earlier one of the same rules: a count that differs names the commits
that can explain it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import HarnessError
from harness.reproduce import kept
from harness.reproduce.provenance import checkout_root, commits_between

COMMIT = "e8dc30e3" + "0" * 32
"""A made-up commit (git does not know it)."""


def make_run(folder: Path, *, nodes: int = 100, commit: str = COMMIT, clean: bool = True,
             rules_sha: str = "r1", mode: str = "full", finished: str | None = "2026-11-27T20:00:00+00:00",
             verdict: str = "holds") -> Path:
    """A finished reproduction of claim 2 (pearl) with three rows, the second ``nodes``."""
    (folder / "data").mkdir(parents=True)
    rows = [{"dataset": "pearl", "b": 3, "problem_id": str(i), "config": "default",
             "variant": "alphabeta", "depth": 2, "nodes": nodes if i == 1 else 50 + i,
             "leaves": 9, "time_s": 0.001 * (i + 1)} for i in range(3)]
    pd.DataFrame(rows).to_csv(folder / "data" / "pearl.csv", index=False)
    claim = {"key": "pearl", "verdict": verdict,
             "rules": {"version": 5, "rules_sha256": rules_sha, "data": {"digest": "d1"}}}
    record: dict[str, Any] = {"mode": mode, "phase": "confirm", "scale": {"pearl_trees": 3},
                              "provenance": {"source": {"commit": commit, "clean": clean}},
                              "claims": [claim]}
    (folder / "claims.json").write_text(json.dumps(record), encoding="utf-8")
    table = f"| # | claim | verdict |\n|---|---|---|\n| 2 | Pearl | {verdict} |\n"
    (folder / "verdicts.md").write_text(table, encoding="utf-8")
    (folder / "measuring.json").write_text(json.dumps({"finished": finished}), encoding="utf-8")
    return folder


def test_keep_writes_the_compact_form_in_a_dated_folder(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    dest = kept.keep(run, tmp_path / "docs" / "reproduction")
    assert dest == tmp_path / "docs" / "reproduction" / "2026-11-27"
    assert (dest / "claims.json").read_bytes() == (run / "claims.json").read_bytes()
    assert (dest / "verdicts.md").read_bytes() == (run / "verdicts.md").read_bytes()
    packed = (dest / "data" / "pearl.csv.gz").read_bytes()
    frame = pd.read_csv(dest / "data" / "pearl.csv.gz")
    assert "time_s" not in frame.columns and frame["nodes"].tolist() == [50, 100, 52]
    assert gzip.decompress(packed).decode("utf-8").startswith("dataset,b,problem_id")
    assert kept.kept_runs(tmp_path / "docs" / "reproduction") == [dest]
    # the same run kept again writes the same bytes (no time stamp in the archive)
    again = kept.keep(run, tmp_path / "other")
    assert (again / "data" / "pearl.csv.gz").read_bytes() == packed
    with pytest.raises(HarnessError, match=r"kept already, in .*2026-11-27"):
        kept.keep(run, tmp_path / "docs" / "reproduction")


@pytest.mark.parametrize("change,message", [({"mode": "quick"}, "quick run"),
                                            ({"finished": None}, "unfinished")])
def test_keep_refuses_a_quick_or_unfinished_run(tmp_path: Path, change: dict[str, Any],
                                                message: str) -> None:
    run = make_run(tmp_path / "run", **change)
    with pytest.raises(HarnessError, match=message):
        kept.keep(run, tmp_path / "kept")


def test_the_same_counts_compare_equal_against_the_kept_form(tmp_path: Path) -> None:
    old = kept.keep(make_run(tmp_path / "old"), tmp_path / "kept")
    found = kept.compare(make_run(tmp_path / "new"), old)
    assert found.compared == ["pearl"] and not found.differences and not found.unexplained
    assert "every count of the rows both measured is the same" in "\n".join(found.lines())


def test_a_differing_count_is_named_with_both_commits(tmp_path: Path) -> None:
    old = make_run(tmp_path / "old")
    new = make_run(tmp_path / "new", nodes=101, commit="f" * 40)
    found = kept.compare(new, old)
    (diff,) = found.differences
    assert (diff.claim, diff.dataset, diff.differing, diff.compared) == ("pearl", "pearl", 1, 3)
    assert diff.examples == ("dataset=pearl, problem_id=1, config=default, depth=2, "
                             "variant=alphabeta: nodes 100 -> 101",)
    text = "\n".join(found.lines())
    assert "commit e8dc30e30000" in text and "at commit ffffffffffff" in text
    assert found.between is None and "git cannot say" in text and not found.unexplained


def test_a_difference_no_commit_explains_is_unexplained(tmp_path: Path) -> None:
    old = make_run(tmp_path / "old")
    found = kept.compare(make_run(tmp_path / "new", nodes=99), old)      # the same commit
    assert found.between == [] and found.unexplained
    assert "unexplained" in found.lines()[-1]
    # an uncommitted change could explain it
    dirty = kept.compare(make_run(tmp_path / "dirty", nodes=99, clean=False), old)
    assert not dirty.unexplained and "tree was not clean" in "\n".join(dirty.lines())


def test_other_rules_are_not_compared(tmp_path: Path) -> None:
    old = make_run(tmp_path / "old")
    found = kept.compare(make_run(tmp_path / "new", nodes=1, rules_sha="r2"), old)
    assert found.compared == [] and not found.differences
    assert found.skipped == {"pearl": "other rules: version 5 against 5"}
    scaled = kept.compare(make_run(tmp_path / "scaled", nodes=1, mode="other"), old)
    assert scaled.skipped == {"pearl": "another scale"}


def test_the_commits_between_two_runs_are_those_that_touched_searches_or_games() -> None:
    if checkout_root() is None:
        pytest.skip("not a git checkout")
    # c50ffe0 changed the compiled frame (harness/search); 838cf16 only tests
    between = commits_between("0926d99", "e8dc30e")
    assert between is not None and any(line.startswith("c50ffe0") for line in between)
    assert not any(line.startswith("838cf16") for line in between)
    assert commits_between("e8dc30e", "e8dc30e") == []
    assert commits_between("unknown", "e8dc30e") is None


def test_the_newest_kept_run_is_compared_by_default(tmp_path: Path) -> None:
    root = tmp_path / "kept"
    kept.keep(make_run(tmp_path / "a", nodes=7, finished="2026-11-20T00:00:00+00:00"), root)
    newest = kept.keep(make_run(tmp_path / "b", nodes=8, finished="2026-11-27T00:00:00+00:00",
                                verdict="inconclusive"), root)
    # A later kept run of another claim only is passed over: it measured nothing of this one.
    other = make_run(tmp_path / "c", finished="2026-11-28T00:00:00+00:00")
    record = json.loads((other / "claims.json").read_text(encoding="utf-8"))
    record["claims"][0]["key"] = "three-games"
    (other / "claims.json").write_text(json.dumps(record), encoding="utf-8")
    assert kept.keep(other, root).name == "2026-11-28"
    run = make_run(tmp_path / "run", nodes=8)
    found = kept.compare_with_earlier(run, None, root)
    assert found is not None and found.old == str(newest) and not found.differences
    assert (run / "comparison.md").read_text(encoding="utf-8").count("every count") == 1
    assert kept.compare_with_earlier(run, None, tmp_path / "none") is None


def test_the_readme_table_must_be_the_kept_runs_rows(tmp_path: Path) -> None:
    root = tmp_path / "docs" / "reproduction"
    assert kept.readme_differences("# README\n", [], tmp_path) == []
    dest = kept.keep(make_run(tmp_path / "run"), root)
    relative = "docs/reproduction/2026-11-27/verdicts.md"
    block = kept.readme_block([dest], tmp_path)
    readme = f"# README\n\nThe verdicts:\n\n{block}\nMore.\n"
    assert kept.readme_table(readme) == (relative, (dest / "verdicts.md").read_text("utf-8"))
    assert kept.readme_differences(readme, [dest], tmp_path) == []
    assert kept.readme_differences("# README\n", [dest], tmp_path) == [
        f"the README shows no kept run's verdicts ({relative} kept)"]
    edited = readme.replace("| holds |", "| does not hold |")
    assert kept.readme_differences(edited, [dest], tmp_path) == [
        f"the README's table differs from the kept rows of {relative}"]
    assert kept.readme_differences(readme, [], tmp_path) == [
        f"the README shows {relative}, but no run is kept"]
    with pytest.raises(HarnessError, match="not closed"):
        kept.readme_table(readme.replace(kept.README_END, ""))


def test_a_later_run_of_some_claims_replaces_only_their_rows(tmp_path: Path) -> None:
    """Claims 2 and 3 kept on one day, claim 3 confirmed again the next, claim 4 alone on the
    same day (its folder gets -2): the README shows 2 from the first, 3 and 4 from the later."""
    root = tmp_path / "docs" / "reproduction"
    first = kept.keep(make_run(tmp_path / "a", finished="2026-11-27T10:00:00+00:00"), root)
    (first / "verdicts.md").write_text("| # | claim | verdict |\n|---|---|---|\n| 2 | Pearl | holds |\n"
                                       "| 3 | Plaat | inconclusive |\n", encoding="utf-8")
    second = kept.keep(make_run(tmp_path / "b", finished="2026-11-28T01:00:00+00:00",
                                verdict="inconclusive"), root)
    (second / "verdicts.md").write_text("| # | claim | verdict |\n|---|---|---|\n"
                                        "| 3 | Plaat | holds |\n", encoding="utf-8")
    third = kept.keep(make_run(tmp_path / "c", finished="2026-11-28T02:00:00+00:00",
                               verdict="does not hold"), root)
    assert third.name == "2026-11-28-2"
    (third / "verdicts.md").write_text("| # | claim | verdict |\n|---|---|---|\n"
                                       "| 4 | PVS | does not hold |\n", encoding="utf-8")
    runs = kept.kept_runs(root)
    assert runs == [first, second, third]
    names, table = kept.kept_table(runs, tmp_path)
    assert names == ("docs/reproduction/2026-11-27/verdicts.md, docs/reproduction/2026-11-28/"
                     "verdicts.md, docs/reproduction/2026-11-28-2/verdicts.md")
    assert table.splitlines()[2:] == ["| 2 | Pearl | holds |", "| 3 | Plaat | holds |",
                                      "| 4 | PVS | does not hold |"]
    readme = "# R\n\n" + kept.readme_block(runs[:1], tmp_path) + "\nEnd.\n"
    assert kept.readme_differences(readme, runs, tmp_path) != []
    updated = kept.readme_with_kept(readme, runs, tmp_path)
    assert kept.readme_differences(updated, runs, tmp_path) == [] and updated.endswith("\nEnd.\n")


def test_the_readme_shows_the_newest_kept_run() -> None:
    """The repository's README and its kept runs (docs/reproduction/<date>/)."""
    top = Path(__file__).resolve().parents[1]
    readme = (top / "README.md").read_text(encoding="utf-8")
    assert kept.readme_differences(readme, kept.kept_runs(top / kept.KEPT_FOLDER), top) == []


def test_a_quick_run_is_refused_before_it_runs(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["reproduce", "--quick", "--only", "1", "--no-progress",
                                      "--out", str(tmp_path / "out"), "--keep", str(tmp_path / "k")])
    assert result.exit_code == 2 and "--keep: a quick run" in result.output
    assert not (tmp_path / "out").exists()


def test_a_finished_run_made_without_keep_is_kept_by_resume(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    done = CliRunner().invoke(cli, ["reproduce", "--resume", str(run), "--keep",
                                     str(tmp_path / "kept")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "kept" / "2026-11-27" / "verdicts.md").read_bytes() == \
        (run / "verdicts.md").read_bytes()
    # without --keep a finished run is still refused, and an unfinished one is not kept
    done = CliRunner().invoke(cli, ["reproduce", "--resume", str(run)])
    assert done.exit_code == 2 and "Traceback" not in done.output
    assert not kept.finished_run(make_run(tmp_path / "open", finished=None))


def test_keeping_into_the_checkout_writes_the_readme_table(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``--resume RUN --keep docs/reproduction`` in a checkout keeps the run and writes the
    README's block anew; a README without a block is left alone."""
    import harness.reproduce.provenance as provenance

    top = tmp_path / "checkout"
    root = top / kept.KEPT_FOLDER
    first = kept.keep(make_run(tmp_path / "a", finished="2026-11-26T00:00:00+00:00"), root)
    readme = top / "README.md"
    readme.write_text("# R\n\n" + kept.readme_block([first], top) + "\nEnd.\n", encoding="utf-8")
    monkeypatch.setattr(provenance, "checkout_root", lambda where=None: top)
    run = make_run(tmp_path / "b", verdict="does not hold")
    monkeypatch.chdir(top)                      # ROOT as a user types it, relative
    result = CliRunner().invoke(cli, ["reproduce", "--resume", str(run), "--keep", "docs/reproduction"])
    assert result.exit_code == 0, result.output
    assert "wrote the kept verdicts into" in result.output
    text = readme.read_text(encoding="utf-8")
    assert "| 2 | Pearl | does not hold |" in text and text.endswith("\nEnd.\n")
    assert kept.readme_differences(text, kept.kept_runs(root), top) == []
    readme.write_text("# R\n", encoding="utf-8")
    other = make_run(tmp_path / "c", verdict="inconclusive")
    result = CliRunner().invoke(cli, ["reproduce", "--resume", str(other), "--keep", str(root)])
    assert result.exit_code == 0 and readme.read_text(encoding="utf-8") == "# R\n"
