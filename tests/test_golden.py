"""Exact node counts on fixed trees: the project's currency, checked by hand once, pinned here."""

from __future__ import annotations

import math

import pytest

from harness.games.trees import generate_tree, parse_spec, parse_tree
from harness.search import VARIANTS, make_spec, run_search
from harness.search.minimal import knuth_moore, minimal_leaves

from .conftest import TEXTBOOK

FIELDS = ("nodes", "leaves", "zw_searches", "researches", "research_nodes", "fail_highs",
          "fail_highs_first", "cutoffs", "pv_nodes", "cut_nodes", "all_nodes", "passes")

# [[3, 12, 8], [2, 4, 6], [14, 5, 2]]: value 3. Alpha-beta prunes 4 and 6 (11 nodes, 7
# leaves); minimax sees all 13 nodes and 9 leaves. The PVS family tests the 2nd and 3rd
# root moves and the 2nd and 3rd leaves under the first: 4 zero-window searches.
TEXTBOOK_COUNTS = {
    "minimax": (13, 9, 0, 0, 0, 0, 0, 0, 4, 0, 0, 1),
    "alphabeta": (11, 7, 0, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "alphabeta-fs": (11, 7, 0, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "pvs": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "pvs-fs": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "pvs-marsland": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "negascout": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "negascout-fs": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "moreland": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "belle": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "scout": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "aspiration": (15, 10, 6, 0, 0, 2, 1, 1, 3, 2, 0, 2),
    "mtdf": (14, 8, 0, 0, 0, 4, 3, 3, 0, 4, 2, 2),
    "mtd-bi": (25, 11, 0, 0, 0, 6, 4, 5, 0, 6, 4, 4),
    "mtd-pons": (25, 11, 0, 0, 0, 6, 4, 5, 0, 6, 4, 4),     # no value range: MTD-bi
    # MT-SSS* (upper bounds stepping down; no stored leaves, the table's move first):
    # beta=inf: each MIN child cuts on its first leaf (3, 2, 14), root <= 14, 7 nodes;
    # beta=14: C (hash move) sees 14 and 5, cut at 5; A <= 3 and B <= 2 from the table, 6
    # nodes; beta=5: C again, its cutting leaf 5 first, then 14 and 2 (a fail-high on its
    # last child: no cutoff); A, B from the table; root <= 3 (A), 7 nodes; beta=3: A's
    # leaves 3, 12, 8 keep it at 3, the root fails high on it, 5 nodes. Fail-highs: the
    # MIN nodes 3 + 1 + 1 and the last root; all nodes: the first three roots and A.
    "mt-sss": (25, 11, 0, 0, 0, 6, 4, 5, 0, 6, 4, 4),
    # MT-DUAL* (lower bounds stepping up): beta=-inf+1: A's three leaves, A = 3 (an All
    # node from its side), the root fails high on it, 5 nodes; beta=4: A cuts on its leaf
    # 3, B on 2, C on its last leaf 2 (no cutoff), root <= 3 = lower, 9 nodes.
    "mt-dual": (14, 8, 0, 0, 0, 4, 3, 3, 0, 4, 2, 2),
    # SSS* and DUAL* (harness.search.sss.COUNTING): nodes visited, each once (the root,
    # its three MIN children, the 7 leaves alpha-beta evaluates, in another order), one
    # search; no window, so no node is PV, Cut or All.
    "sss": (11, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
    "dual": (11, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
    "zwp": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "zwp-all": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
    "zwp-pv": (11, 7, 4, 0, 0, 2, 1, 1, 2, 2, 0, 1),
}

# [[8, 2], [5, 9]]: value 5. PVS re-searches twice (leaf 2 under the first move, then the
# second move, whose test fails high): 7 leaves where alpha-beta needs 4. Belle takes the
# failed-high last root move as best without a re-search: its score 3 is a lower bound.
# Marsland's PVS and fail-soft NegaScout learn 5 from the second move's test (fail-soft:
# the leaf 5 below it) and re-search with (5, inf): leaf 5 alone fails high there (10
# nodes, 6 leaves); the wiki's versions learn only 3 and search leaf 9 again.
RESEARCH_TREE = [[8, 2], [5, 9]]
RESEARCH_COUNTS = {
    "alphabeta": (7, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1),
    "pvs": (11, 7, 3, 2, 4, 0, 0, 0, 3, 0, 1, 1),
    "negascout": (11, 7, 3, 2, 4, 0, 0, 0, 3, 0, 1, 1),
    "pvs-marsland": (10, 6, 2, 2, 3, 1, 1, 1, 2, 1, 1, 1),
    "negascout-fs": (10, 6, 2, 2, 3, 1, 1, 1, 2, 1, 1, 1),
    "scout": (11, 7, 3, 2, 4, 0, 0, 0, 3, 0, 1, 1),
    "belle": (8, 5, 2, 1, 1, 0, 0, 0, 2, 0, 1, 1),
}


def counts(data: object, name: str, depth: int = 2) -> tuple[int, ...]:
    result = run_search(parse_tree(data), make_spec(name), depth)
    return tuple(result.counters[f] for f in FIELDS)


def test_every_variant_has_textbook_counts() -> None:
    assert set(TEXTBOOK_COUNTS) == {v.name for v in VARIANTS}


@pytest.mark.parametrize("name", sorted(TEXTBOOK_COUNTS))
def test_textbook_tree(name: str) -> None:
    result = run_search(parse_tree(TEXTBOOK), make_spec(name), 2)
    assert (result.score, result.bound, result.best_move) == (3, "exact", "0")
    assert counts(TEXTBOOK, name) == TEXTBOOK_COUNTS[name]


@pytest.mark.parametrize("name", sorted(RESEARCH_COUNTS))
def test_pvs_can_visit_more_leaves_than_alphabeta(name: str) -> None:
    assert counts(RESEARCH_TREE, name) == RESEARCH_COUNTS[name]
    ab = counts(RESEARCH_TREE, "alphabeta")[1]
    pvs = counts(RESEARCH_TREE, "pvs")[1]
    assert pvs > ab


def test_belle_reports_a_lower_bound_for_an_unresolved_fail_high() -> None:
    result = run_search(parse_tree(RESEARCH_TREE), make_spec("belle"), 2)
    assert (result.score, result.bound, result.best_move) == (3, "lower", "1")
    assert run_search(parse_tree(RESEARCH_TREE), make_spec("pvs"), 2).score == 5


def test_negascout_refinement_skips_last_ply_research() -> None:
    plain = run_search(parse_tree(RESEARCH_TREE), make_spec("negascout"), 2)
    refined = run_search(parse_tree(RESEARCH_TREE),
                         make_spec("negascout", {"research_min_depth": "2"}), 2)
    assert refined.score == plain.score == 5
    assert refined.counters["researches"] == 1        # only the root's, not the leaf's
    assert refined.counters["leaves"] == 6


@pytest.mark.parametrize("b,d", [(2, 2), (2, 5), (3, 3), (3, 4), (4, 4), (5, 3), (6, 2), (8, 3)])
@pytest.mark.parametrize("name", ["alphabeta", "alphabeta-fs", "pvs", "pvs-fs", "negascout",
                                  "moreland", "belle", "scout", "zwp"])
def test_knuth_moore_on_perfectly_ordered_uniform_trees(name: str, b: int, d: int) -> None:
    # A wide value range makes values distinct, as Knuth and Moore's theorem assumes.
    tree = generate_tree(parse_spec(f"random:b={b},d={d},ordering=perfect,range=1000000"), 0)
    expected = b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1
    assert knuth_moore(b, d) == expected
    assert run_search(tree, make_spec(name), d).counters["leaves"] == expected


@pytest.mark.parametrize("spec", ["random:b=3,d=4,range=1000000", "random:b=5,d=3,seed=4"])
def test_measured_minimal_tree_equals_knuth_moore_on_uniform_trees(spec: str) -> None:
    tree = generate_tree(parse_spec(spec), 0)
    b, d = tree.shape.branching, tree.shape.height
    assert b is not None
    assert minimal_leaves(tree, d) == knuth_moore(b, d)


def test_minimal_tree_of_textbook_tree() -> None:
    # Reordered best-first: [[3, 8, 12], [2, ...], [2, ...]]: 3 + 1 + 1 leaves.
    assert minimal_leaves(parse_tree(TEXTBOOK), 2) == 5
