"""Exact variants agree, or the run says so: a planted key collision makes the MTD drivers
answer wrongly; the run writes disagreements.csv, records it in run.json, prints it, shows it
at the top of report.html and exits 3; compare gives no verdict on nodes for a wrong answer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.games import registry
from harness.games.base import Problem, Tree
from harness.games.trees.game import RandomTrees
from harness.report.answers import DISAGREEMENT_EXIT, check_answers
from harness.search.agreement import Answer, disagreement
from harness.search.registry import find_variant, parse_variants
from harness.search.run import Switches, run_search

TREES = "b=3,d=5,n=12,seed=4,ordering=0.5,values=incremental,range=50"


class DepthKeyed:
    """A random tree whose key leaves out everything but the depth: every position of one
    depth shares a key (the planted bug of the issue: a key missing part of the state)."""

    def __init__(self, tree: Tree) -> None:
        self._tree = tree
        self._depth = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self._tree, name)

    def push(self, move: object) -> None:
        self._depth += 1
        self._tree.push(move)

    def pop(self) -> None:
        self._depth -= 1
        self._tree.pop()

    def reset(self) -> None:
        self._depth = 0
        self._tree.reset()

    def key(self) -> int:
        return self._depth


class CollidingTrees(RandomTrees):
    name = "colliding"

    def tree(self, problem: Problem) -> Tree:
        return DepthKeyed(super().tree(problem))  # type: ignore[return-value]


@pytest.fixture
def colliding() -> Iterator[None]:
    game = CollidingTrees()
    registry.GAMES.append(game)
    try:
        yield
    finally:
        registry.GAMES.remove(game)


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def test_the_rule_on_answers() -> None:
    assert disagreement([Answer("minimax", 5, "exact"), Answer("pvs", 5, "exact")]) is None
    assert disagreement([Answer("minimax", 5, "exact"), Answer("belle", 3, "lower")]) is None
    assert disagreement([Answer("minimax", 5, "exact"), Answer("mtdf", 7, "exact")]) == "minimax 5, mtdf 7"
    assert disagreement([Answer("minimax", 5, "exact"), Answer("belle", 6, "lower")]) is not None
    assert disagreement([Answer("a", 5, "lower"), Answer("b", 4, "upper")]) is not None
    assert disagreement([Answer("a", 5, "lower"), Answer("b", 5, "upper")]) is None
    assert disagreement([Answer("a", None, "none"), Answer("b", 4, "exact")]) is None


def test_variants_say_whether_their_answers_are_checked() -> None:
    assert find_variant("pvs").inexact_reason({"research_min_depth": 1}) is None
    assert "trusts tests" in str(find_variant("pvs").inexact_reason({"research_min_depth": 2}))
    assert find_variant("belle").inexact_reason({}) is None
    assert "bound" in find_variant("belle").answers
    result = invoke("variants")
    assert "answers: the reference" in result.output and "answers: exact" in result.output


def test_minimax_visits_every_node_whatever_the_table_and_value_bounds() -> None:
    tree = RandomTrees().tree(RandomTrees().load("", (("b", "3"), ("d", "4")), False).problems[0])
    spec = parse_variants("minimax")[0]
    plain = run_search(tree, spec, 4)
    with_table = run_search(tree, spec, 4, Switches(tt_size=1024))
    assert plain.counters["nodes"] == with_table.counters["nodes"] == sum(3 ** i for i in range(5))
    assert with_table.tt_size == 0


def test_a_sound_run_agrees_and_says_so(tmp_path: Path) -> None:
    result = invoke("run", "--problems", f"random:{TREES}", "--variants", "all", "--depth", "1-4",
                    "--no-progress", "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert ("answers cross-checked: 1056 of 1056 answers (22 exact variants agree on 48 "
            "(problem, depth) pairs)\n") in result.output
    assert not (tmp_path / "run" / "disagreements.csv").exists()
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert info["answers"]["disagreeing"] == 0 and info["switches"]["tt_size"] == 1 << 20


def test_a_colliding_key_is_caught_everywhere_a_user_looks(tmp_path: Path, colliding: None) -> None:
    out = tmp_path / "run"
    # Every variant shares the table and so the colliding key: minimax, which keeps none, is
    # the reference that shows them wrong.
    result = invoke("run", "--problems", f"colliding:{TREES}", "--variants",
                    "minimax,alphabeta,mtdf,pvs", "--depth", "3-5", "--no-progress", "--out", str(out))
    assert result.exit_code == DISAGREEMENT_EXIT, result.output
    assert "ANSWERS DISAGREE" in result.output and "Traceback" not in result.output
    assert "the exact variants' answers disagree" in result.stderr
    rows = pd.read_csv(out / "disagreements.csv")
    assert set(rows["variant"]) == {"minimax", "alphabeta", "mtdf", "pvs"}
    assert set(rows.loc[rows["variant"] == "minimax", "agrees"]) == {1}
    assert {"score", "bound", "depth", "problem_id", "agrees"} <= set(rows.columns)
    info = json.loads((out / "run.json").read_text())
    assert info["answers"]["disagreeing"] > 0 and info["finished"]
    page = (out / "report.html").read_text()
    assert page.index("Answers disagree") < page.index("<img")
    # The results stay written, and the comparison never ranks the wrong answer.
    assert len(pd.read_csv(out / "results.csv")) == 4 * 3 * 12
    compared = invoke("compare", "alphabeta", "mtdf", "--run", str(out))
    assert compared.exit_code == DISAGREEMENT_EXIT
    assert "wrong answers" in compared.output and "fewer nodes than" not in compared.output
    allowed = invoke("compare", "alphabeta", "mtdf", "--run", str(out), "--allow-disagreement")
    assert allowed.exit_code == 0 and "wrong answers" in allowed.output


def test_allow_disagreement_exits_zero_with_everything_written(tmp_path: Path,
                                                               colliding: None) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--problems", f"colliding:{TREES}", "--variants", "alphabeta,mtdf",
                    "--own-tables", "--depth", "4", "--no-progress", "--out", str(out),
                    "--allow-disagreement")
    assert result.exit_code == 0 and "ANSWERS DISAGREE" in result.output
    assert (out / "disagreements.csv").exists()


def test_null_move_runs_are_not_cross_checked() -> None:
    rows = pd.DataFrame({"game": "g", "suite": "s", "problem_id": "1", "depth": 3,
                         "variant": ["alphabeta", "pvs"], "score": [1, 2], "bound": "exact",
                         "tt_size": 0, "iterative": 0})
    assert check_answers(rows).disagreeing == 1
    skipped = check_answers(rows, {"config": {"switches": {"null_move": 2}}})
    assert skipped.disagreeing == 0 and "null move" in str(skipped.skipped)
    trusting = rows.assign(variant=["alphabeta", "pvs:research_min_depth=2"])
    assert check_answers(trusting).disagreeing == 0


def test_differing_conditions_are_named_beside_the_verdict(tmp_path: Path) -> None:
    result = invoke("compare", "alphabeta", "mtdf", "--problems", f"random:{TREES}", "--depth", "3",
                    "--own-tables", "--no-progress", "--out", str(tmp_path / "c"))
    assert result.exit_code == 0, result.output
    assert "searched differently: mtdf: a 1,048,576-entry table, no iterative deepening; " \
           "alphabeta: no table, no iterative deepening" in result.output
    shared = invoke("compare", "alphabeta", "mtdf", "--problems", f"random:{TREES}", "--depth", "3",
                    "--no-progress", "--out", str(tmp_path / "d"))
    assert shared.exit_code == 0 and "searched differently" not in shared.output
    aspiration = invoke("compare", "alphabeta", "aspiration", "--problems", f"random:{TREES}",
                        "--depth", "3", "--no-progress", "--out", str(tmp_path / "e"))
    assert "searched differently: aspiration: no table, iterative deepening; alphabeta: no " \
           "table, no iterative deepening" in aspiration.output


def test_a_claim_measured_on_disagreeing_answers_is_not_measured(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claim 1 (Knuth and Moore) with PVS made to answer one more than it found."""
    from dataclasses import replace

    from harness import reproduce as rp
    from harness.reproduce import measure

    real = measure.run_search

    def off_by_one(tree, spec, depth, *args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(tree, spec, depth, *args, **kwargs)
        return replace(result, score=result.score + 1) if spec.name == "pvs" else result

    monkeypatch.setattr(measure, "run_search", off_by_one)
    out = rp.reproduce(tmp_path / "out", quick=True, only=["knuth-moore"])
    assert out.disagree
    assert out.claims[0].verdict.startswith(f"{rp.NOT_MEASURED}: the exact variants' answers disagree")
    rows = pd.read_csv(tmp_path / "out" / "data" / "disagreements.csv")
    assert set(rows.loc[rows["agrees"] == 0, "variant"]) == {"pvs"}


def test_a_deeper_table_entry_is_counted_and_its_answer_left_out(tmp_path: Path) -> None:
    """King and queen against king at depth 6: the table meets a position again at another
    ply and its deeper entry changes alpha-beta's score (990 without a table, 993 with one).
    The search counts it (tt_deep_cutoffs), and the run leaves that answer out of the check
    instead of calling it wrong."""
    epd = tmp_path / "kqk.epd"
    epd.write_text("8/2k5/8/8/8/8/5K2/4Q3 w - - id \"KQK\";\n", encoding="utf-8")
    out = tmp_path / "run"
    result = invoke("run", "--suite", str(epd), "--variants", "minimax,alphabeta", "--depth", "6",
                    "--tt", "65536", "--id", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = pd.read_csv(out / "results.csv").set_index("variant")
    assert (rows.loc["minimax", "score"], rows.loc["alphabeta", "score"]) == (990, 993)
    assert rows.loc["alphabeta", "tt_deep_cutoffs"] > 0 == rows.loc["minimax", "tt_deep_cutoffs"]
    assert ("1 decided by deeper table entries, re-checked without a table: 0 agree, 1 hold "
            "the deeper entry's value instead") in result.output
    recheck = pd.read_csv(out / "rechecks.csv")
    assert recheck[["score", "bound", "status"]].values.tolist() == [[990, "exact", "ok"]]
