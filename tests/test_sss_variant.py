"""SSS* and DUAL* as the variants ``sss`` and ``dual``: registered, run by ``harness run``
on any tree (chess included), their answers minimax's, their counters as
:data:`harness.search.sss.COUNTING` defines them, and a search that would pass ``max_open``
stopped with the status ``max-open`` and its bound while the run goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import cli
from harness.games.registry import find_game, load_problems
from harness.games.trees import generate_tree, parse_spec, parse_tree
from harness.results import load_results
from harness.search import Switches, find_variant, make_spec, run_search
from harness.search.sss import COUNTING, dual_star, sss_star
from harness.search.trace import evaluated_leaves, totals, visited

from .conftest import TEXTBOOK
from .test_properties import nested, specs

PLAIN = Switches()
BEST_FIRST = ("sss", "dual")
UNUSED = ("zw_searches", "researches", "research_nodes", "fail_highs", "fail_highs_first",
          "fail_lows", "cutoffs", "pv_nodes", "cut_nodes", "all_nodes", "tt_probes", "tt_hits",
          "tt_cutoffs", "null_searches", "null_cutoffs", "bound_cutoffs", "tt_deep_cutoffs")
"""The counters that have no meaning for a best-first search: always 0."""


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args))


def minimax(tree: Any, depth: int, switches: Switches = PLAIN) -> int:
    tree.reset()
    score = run_search(tree, make_spec("minimax"), depth, switches).score
    assert score is not None
    return score


def test_registered_with_their_counting_and_open_bound() -> None:
    for name in BEST_FIRST:
        variant = find_variant(name)
        assert variant.exact and variant.counting == COUNTING and variant.loop is None
        assert variant.options["max_open"].default == 100_000
        assert not variant.uses_table and not variant.iterative
    listing = invoke("variants").output
    assert listing.count(f"counters: {COUNTING}") == 2
    assert "\nsss " in listing and "\ndual " in listing and "max-open" in listing


def test_textbook_counts_and_trace() -> None:
    # The reference functions' searches, now through the frame: 11 nodes visited (the
    # root, its three MIN children, 7 leaves), one pass, nothing else counted.
    tree = parse_tree(TEXTBOOK)
    for name, reference in (("sss", sss_star), ("dual", dual_star)):
        result = run_search(tree, make_spec(name), 2, trace=True)
        expected = reference(tree, 2)
        assert (result.score, result.bound, result.status) == (3, "exact", "ok")
        assert result.best_move == "0" and result.pv == ["0"]
        assert result.counters["nodes"] == expected.nodes == 11
        assert result.counters["leaves"] == len(expected.leaves) == 7
        assert result.counters["passes"] == 1
        assert all(result.counters[k] == 0 for k in UNUSED)
        assert result.trace is not None
        assert set(evaluated_leaves(result.trace)) == set(expected.leaves)
        assert len(visited(result.trace)) == 11
        assert totals(result.trace) == {**totals([]), "nodes": 11, "leaves": 7, "passes": 1}


@settings(max_examples=80, deadline=None)
@given(data=nested, name=st.sampled_from(BEST_FIRST))
def test_the_answer_is_minimax_s_on_explicit_trees(data: Any, name: str) -> None:
    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    tree.reset()
    result = run_search(tree, make_spec(name), depth, trace=True)
    assert (result.score, result.bound, result.status) == (minimax(tree, depth), "exact", "ok")
    reference = sss_star(tree, depth, name == "dual")
    assert result.counters["nodes"] == reference.nodes
    assert result.counters["leaves"] == len(reference.leaves)
    assert result.trace is not None and len(visited(result.trace)) == reference.nodes
    assert set(evaluated_leaves(result.trace)) == set(reference.leaves)


@settings(max_examples=40, deadline=None)
@given(spec=specs, cut=st.integers(0, 2), name=st.sampled_from(BEST_FIRST),
       table=st.sampled_from([0, 64]), iterative=st.booleans())
def test_the_answer_is_minimax_s_whatever_the_switches(spec: str, cut: int, name: str,
                                                       table: int, iterative: bool) -> None:
    """A table changes nothing (it is never probed); under iterative deepening each depth
    is a new search, its counts added: one pass per iteration."""
    tree = generate_tree(parse_spec(spec), 0)
    depth = max(1, tree.shape.height - cut)
    switches = Switches(tt_size=table, iterative_deepening=iterative, tt_leaves=bool(table))
    tree.reset()
    result = run_search(tree, make_spec(name), depth, switches)
    assert (result.score, result.bound) == (minimax(tree, depth), "exact")
    assert result.counters["passes"] == (depth if iterative else 1)
    assert all(result.counters[k] == 0 for k in UNUSED)
    single = sss_star(tree, depth, name == "dual").nodes
    assert (result.counters["nodes"] == single) or iterative


def test_a_search_past_its_open_bound_stops_with_its_bound() -> None:
    # OPEN needs 64 states for SSS* (b ** ceil(d / 2)) and 16 for DUAL* (b ** floor(d / 2)).
    tree = generate_tree(parse_spec("random:b=4,d=5"), 0)
    true = minimax(tree, 5)
    for name, room, bound in (("sss", 63, "upper"), ("dual", 15, "lower")):
        tree.reset()
        result = run_search(tree, make_spec(name, {"max_open": str(room)}), 5)
        assert (result.bound, result.status, result.best_move) == (bound, "max-open", "")
        assert result.score is not None
        assert (result.score >= true) if bound == "upper" else (result.score <= true)
        tree.reset()
        enough = run_search(tree, make_spec(name, {"max_open": str(room + 1)}), 5)
        assert (enough.score, enough.status) == (true, "ok")


def test_the_node_limit_stops_it_like_any_search() -> None:
    tree = parse_tree(TEXTBOOK)
    result = run_search(tree, make_spec("sss"), 2, max_nodes=5)
    assert (result.score, result.status, result.counters["nodes"]) == (None, "max-nodes", 6)


def test_a_run_on_a_tree_file_cross_checks_them(tmp_path: Path, textbook_file: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--tree", str(textbook_file), "--variants", "minimax,alphabeta,sss,dual",
                    "--tt", "1024", "--id", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "4 exact variants agree" in result.output
    rows = load_results(out).set_index("variant")
    assert list(rows.loc[["sss", "dual"], "score"]) == [3, 3]
    assert list(rows.loc[["sss", "dual"], "passes"]) == [2, 2]     # depths 1 and 2
    assert list(rows.loc[["sss", "dual"], "tt_probes"]) == [0, 0]


def test_a_run_goes_on_past_a_search_that_runs_out_of_open(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--problems", "random:b=4,d=5,n=2,seed=3", "--variants",
                    "minimax,sss:max_open=20,dual", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    frame = load_results(out)
    stopped = frame[frame["variant"] == "sss:max_open=20"]
    assert set(stopped["status"]) == {"max-open"} and set(stopped["bound"]) == {"upper"}
    assert set(frame.loc[frame["variant"] == "dual", "status"]) == {"ok"}
    assert "3 exact variants agree on 2 (problem, depth) pairs" in result.output


def test_a_shallow_chess_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--problems", "chess:bench.epd", "--limit", "2", "--variants",
                    "minimax,alphabeta,sss,dual", "--depth", "1-2", "--no-progress",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "4 exact variants agree on 4 (problem, depth) pairs" in result.output
    frame = load_results(out)
    best_first = frame[frame["variant"].isin(BEST_FIRST)]
    assert (best_first["qnodes"] > 0).all() and (best_first["best_move"].str.len() > 0).all()
    assert (best_first["status"] == "ok").all()
    alphabeta = frame[frame["variant"] == "alphabeta"].set_index(["problem_id", "depth"])
    sss = frame[frame["variant"] == "sss"].set_index(["problem_id", "depth"])
    assert (sss["leaves"] <= alphabeta["leaves"]).all()        # Stockman's dominance


def test_check_extension_is_the_frame_s() -> None:
    """With --check-extension SSS* and DUAL* go deeper where the frame does, so their
    answers stay minimax's (which differ from those without, on these positions)."""
    problems = load_problems("chess:bench.epd").problems[:3]
    extended = Switches(check_extension=True)
    changed = 0
    for problem in problems:
        tree = find_game("chess").tree(problem)
        true = minimax(tree, 2, extended)
        plain = run_search(tree, make_spec("minimax"), 2)
        tree.reset()
        changed += plain.counters["nodes"] != run_search(tree, make_spec("minimax"), 2,
                                                         extended).counters["nodes"]
        for name in BEST_FIRST:
            tree.reset()
            result = run_search(tree, make_spec(name), 2, extended)
            assert (result.score, result.bound) == (true, "exact")
    assert changed
