"""``harness diff OLD NEW``: one run against an earlier one (issue 25, "In CI").

OLD is one small run (ten random trees, four variants, depths 1-3); each NEW is a copy of
it with its ``results.csv`` or ``run.json`` edited, so every ratio and every changed answer
is known exactly.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.errors import DISAGREEMENT_EXIT
from harness.report.diff import MOVE, SCORE, TABLE_COLUMNS, WRONG, diff_runs
from tests.test_bad_input import edit_rows

VARIANTS = "alphabeta,pvs,pvs:research_min_depth=2,belle"
"""Two exact variants, one inexact (trusts tests without a re-search), one returning bounds."""
PROBLEMS = 10
Row = dict[str, str]


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("diff") / "old"
    result = CliRunner().invoke(cli, ["run", "--trees", f"random:b=3,d=4,n={PROBLEMS}",
                                      "--depth", "1-3", "--variants", VARIANTS, "--no-progress",
                                      "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def edited(old: Path, new: Path, change: Callable[[list[Row]], None]) -> Path:
    """A copy of ``old`` at ``new`` whose results.csv rows went through ``change``."""
    shutil.copytree(old, new)
    edit_rows(new / "results.csv", change)
    return new


def where(variant: str, depth: int, problem: str | None = None) -> Callable[[Row], bool]:
    return lambda row: (row["variant"] == variant and row["depth"] == str(depth)
                        and (problem is None or row["problem_id"] == problem))


def scale_nodes(match: Callable[[Row], bool], factor: int) -> Callable[[list[Row]], None]:
    def change(rows: list[Row]) -> None:
        for row in filter(match, rows):
            row["nodes"] = str(int(row["nodes"]) * factor)
    return change


def set_column(match: Callable[[Row], bool], column: str,
               value: Callable[[Row], str]) -> Callable[[list[Row]], None]:
    def change(rows: list[Row]) -> None:
        hits = [row for row in rows if match(row)]
        assert len(hits) == 1
        hits[0][column] = value(hits[0])
    return change


def harness_diff(*args: str | Path) -> Result:
    return CliRunner().invoke(cli, ["diff", *map(str, args)])


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with the sha256 of its bytes (what read-only keeps)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_run_against_its_copy_is_all_ties_and_passes(old: Path, tmp_path: Path) -> None:
    new = tmp_path / "new"
    shutil.copytree(old, new)
    before = fingerprint(old), fingerprint(new)
    result = harness_diff(old, new, "--fail-if-worse", "0", "--markdown", tmp_path / "m.md")
    assert result.exit_code == 0, result.output
    assert (fingerprint(old), fingerprint(new)) == before       # read only, no lock left
    assert "No score, bound or best move changed." in result.stdout
    assert "Settings that differ" not in result.stdout
    found = diff_runs(old, new)
    assert len(found.table) == 4 * 3
    assert (found.table["n"] == PROBLEMS).all() and (found.table["ratio"] == 1).all()
    assert (found.table["ties"] == PROBLEMS).all() and (found.table["sign_p"] == 1).all()
    assert found.changes == () and found.config == ()
    assert (found.only_old, found.only_new) == (0, 0)
    markdown = (tmp_path / "m.md").read_text()
    assert markdown.startswith("## harness diff\n")
    assert ("**Passed** (no set, variant and depth over 0% more nodes; no exact variant's answer "
            "changed).") in markdown


def test_a_variant_made_worse_is_a_ratio_and_fails_the_gate(old: Path, tmp_path: Path) -> None:
    new = edited(old, tmp_path / "new", scale_nodes(where("pvs", 3), 2))
    found = diff_runs(old, new)
    row = found.table.set_index(["variant", "depth"]).loc[("pvs", 3)]
    assert (row["ratio"], row["ratio_low"], row["ratio_high"]) == (2.0, 2.0, 2.0)
    assert (row["wins"], row["ties"], row["losses"]) == (0, 0, PROBLEMS)
    assert row["sign_p"] == 2 / 2 ** PROBLEMS and row["significant"]
    assert row["nodes_new"] == 2 * row["nodes_old"]
    others = found.table[(found.table["variant"] != "pvs") | (found.table["depth"] != 3)]
    assert (others["ratio"] == 1).all()
    assert list(found.worse(5)[["variant", "depth"]].itertuples(index=False, name=None)) == \
        [("pvs", 3)]
    result = harness_diff(old, new, "--fail-if-worse", "5", "--markdown", tmp_path / "m.md",
                          "--out", tmp_path / "t.csv")
    assert result.exit_code == 1, result.output
    suite = found.table["suite"].iloc[0]
    assert result.stderr.splitlines() == [
        f"FAIL: pvs on {suite} at depth 3: 2 times OLD's nodes (limit 5% more)"]
    assert harness_diff(old, new, "--fail-if-worse", "100").exit_code == 0   # 2.0 is not > 2.0
    assert harness_diff(old, new, "--fail-if-worse", "99.9").exit_code == 1
    assert harness_diff(old, new).exit_code == 0                             # no gate asked
    markdown = (tmp_path / "m.md").read_text()
    assert "**Failed**:\n\n- FAIL: pvs on" in markdown
    assert ("| variant | depth | n | NEW/OLD | 95% interval | W/T/L | sign p | sig | nodes OLD "
            "| nodes NEW | changed |") in markdown
    assert (f"| pvs | 3 | {PROBLEMS} | 2.000 | 2.000-2.000 | 0/0/{PROBLEMS} | 0.002 | \\* | "
            f"{row['nodes_old']} | {row['nodes_new']} | 0 |") in markdown
    with (tmp_path / "t.csv").open(newline="") as file:
        table = list(csv.DictReader(file))
    assert list(table[0]) == list(TABLE_COLUMNS) and len(table) == 12


def test_the_ratio_is_the_geometric_mean_over_the_problems(old: Path, tmp_path: Path) -> None:
    new = edited(old, tmp_path / "new", scale_nodes(where("alphabeta", 2, "0"), 4))
    row = diff_runs(old, new).table.set_index(["variant", "depth"]).loc[("alphabeta", 2)]
    assert row["ratio"] == pytest.approx(4 ** (1 / PROBLEMS), rel=1e-12)
    assert (row["wins"], row["ties"], row["losses"]) == (0, PROBLEMS - 1, 1)
    assert row["median_ratio"] == 1 and not row["significant"]
    assert row["ratio_low"] == 1 and row["ratio_high"] > row["ratio"]


def test_a_changed_answer_of_an_exact_variant_is_a_failure(old: Path, tmp_path: Path) -> None:
    new = edited(old, tmp_path / "new", set_column(where("alphabeta", 2, "3"), "score",
                                                   lambda row: str(int(row["score"]) + 1)))
    found = diff_runs(old, new)
    assert [(c.kind, c.variant, c.depth, c.problem_id) for c in found.changes] == \
        [(WRONG, "alphabeta", 2, "3")]
    change = found.changes[0]
    assert change.new.score == change.old.score + 1        # type: ignore[operator]
    result = harness_diff(old, new)
    assert result.exit_code == DISAGREEMENT_EXIT, result.output
    assert f"WRONG: {change.text}" in result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"error: exact variants' answers changed on 1 searches (exit {DISAGREEMENT_EXIT}, or "
        "--allow-disagreement)")
    assert "(an exact variant: both cannot be right)" in change.text
    assert "1 (1 wrong)" in result.stdout
    assert harness_diff(old, new, "--allow-disagreement").exit_code == 0


def test_a_wrong_answer_outranks_a_worse_ratio(old: Path, tmp_path: Path) -> None:
    def both(rows: list[Row]) -> None:
        scale_nodes(where("pvs", 3), 2)(rows)
        set_column(where("alphabeta", 2, "3"), "score", lambda r: str(int(r["score"]) + 1))(rows)

    new = edited(old, tmp_path / "new", both)
    result = harness_diff(old, new, "--fail-if-worse", "5", "--markdown", tmp_path / "m.md")
    assert result.exit_code == DISAGREEMENT_EXIT
    assert [line.split(":")[0] for line in result.stderr.splitlines()] == ["FAIL", "WRONG", "error"]
    allowed = harness_diff(old, new, "--fail-if-worse", "5", "--allow-disagreement",
                           "--markdown", tmp_path / "a.md")
    assert allowed.exit_code == 1
    assert "**Failed**:" in (tmp_path / "m.md").read_text()
    assert "**Failed**:" in (tmp_path / "a.md").read_text()      # the ratio still fails


def test_changes_that_are_listed_not_failed(old: Path, tmp_path: Path) -> None:
    """An inexact variant's score, a bound that still allows the value, a best move with
    the same answer: listed, exit 0."""
    def changes(rows: list[Row]) -> None:
        set_column(where("pvs:research_min_depth=2", 3, "1"), "score",
                   lambda r: str(int(r["score"]) - 7))(rows)
        set_column(where("alphabeta", 3, "2"), "best_move", lambda r: "x" + r["best_move"])(rows)
        belle = next(r for r in rows if where("belle", 1, "4")(r))
        belle["bound"], belle["score"] = "lower", str(int(belle["score"]) - 5)

    new = edited(old, tmp_path / "new", changes)
    found = diff_runs(old, new)
    assert [(c.kind, c.variant, c.depth, c.problem_id) for c in found.changes] == [
        (SCORE, "pvs:research_min_depth=2", 3, "1"), (SCORE, "belle", 1, "4"),
        (MOVE, "alphabeta", 3, "2")]
    inexact, bound, move = found.changes
    assert inexact.why == "not an exact variant: research_min_depth above 1 trusts tests " \
                          "without a re-search"
    assert bound.why == "both bounds allow the same value"
    assert bound.new.bound == "lower" and bound.new.score == bound.old.score - 5  # type: ignore[operator]
    assert move.new_move == "x" + move.old_move and move.kind == MOVE
    assert move.text.endswith(f"(the same answer, {move.old.score})")
    assert found.wrong == ()
    result = harness_diff(old, new, "--fail-if-worse", "0")
    assert result.exit_code == 0, result.output
    assert "Changed answers and best moves (3):" in result.stdout
    assert f"  MOVE: {move.text}" in result.stdout and f"  SCORE: {inexact.text}" in result.stdout


def test_settings_that_differ_are_named_first(old: Path, tmp_path: Path) -> None:
    new = tmp_path / "new"
    shutil.copytree(old, new)
    info = json.loads((new / "run.json").read_text())
    info["switches"]["tt_size"] = 65536
    info["config"]["depths"] = [1, 2, 3, 4]
    info["variants"]["pvs"]["version"] = "0.2.0"
    (new / "run.json").write_text(json.dumps(info))
    found = diff_runs(old, new)
    assert [d.text for d in found.config] == [
        "switch tt_size: 0 -> 65536 (a different search, not only the change under test: "
        "ratios are not comparable)",
        "variant pvs version: 0.1.0 -> 0.2.0 (the variant itself changed)",
        "depths: 1, 2, 3 -> 1, 2, 3, 4 (only the depths both searched are compared)"]
    result = harness_diff(old, new, "--markdown", tmp_path / "m.md")
    assert result.exit_code == 0
    assert f"  ! {found.config[0].text}\n  - {found.config[1].text}" in result.stdout
    assert result.stdout.index("Settings that differ:") < result.stdout.index("Problem set:")
    assert "- **not comparable**: switch tt\\_size: 0 -> 65536" in (tmp_path / "m.md").read_text()


def test_only_the_searches_both_made_are_compared(old: Path, tmp_path: Path) -> None:
    new = edited(old, tmp_path / "new", lambda rows: rows.__setitem__(
        slice(None), [r for r in rows if r["depth"] != "3" and r["variant"] != "belle"]))
    found = diff_runs(old, new)
    assert sorted(set(found.table["depth"])) == [1, 2]
    assert "belle" not in set(found.table["variant"])
    assert (found.only_old, found.only_new) == (4 * 3 * PROBLEMS - 3 * 2 * PROBLEMS, 0)
    assert not math.isnan(found.table["ratio"].max())
    assert (f"Not compared: {found.only_old} searches only in OLD, 0 only in NEW."
            in harness_diff(old, new).stdout)


def test_a_search_stopped_without_a_score_is_listed_not_failed(old: Path, tmp_path: Path) -> None:
    def stopped(rows: list[Row]) -> None:
        row = next(r for r in rows if where("alphabeta", 3, "5")(r))
        row["score"], row["bound"], row["status"] = "", "none", "max-nodes"

    found = diff_runs(old, edited(old, tmp_path / "new", stopped))
    assert [(c.kind, c.why) for c in found.changes] == [(SCORE, "a search stopped without a score")]
    assert found.changes[0].text.endswith(" -> (no score) (a search stopped without a score)")


@pytest.mark.parametrize("delta", [False, True])
def test_a_changed_score_in_a_set_that_prunes_by_the_window_is_no_failure(tmp_path: Path,
                                                                          delta: bool) -> None:
    """Chess's delta=1 makes a set inexact (run.json says so): its changed answers are said,
    not failed; the same change in an exact set is WRONG."""
    old, new = tmp_path / "old", tmp_path / "new"
    spec = "chess:bench.epd,delta=1" if delta else "chess:bench.epd"
    made = CliRunner().invoke(cli, ["run", "--problems", spec, "--limit", "2", "--depth", "2",
                                    "--variants", "alphabeta", "--out", str(old), "--no-progress"])
    assert made.exit_code == 0, made.output
    shutil.copytree(old, new)

    def worse(rows: list[dict[str, str]]) -> None:
        rows[0]["score"] = str(int(rows[0]["score"]) + 7)

    edit_rows(new / "results.csv", worse)
    changes = diff_runs(old, new).changes
    assert [change.kind for change in changes] == [SCORE if delta else WRONG]
    if delta:
        assert "delta" in changes[0].why
