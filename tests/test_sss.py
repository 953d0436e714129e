"""Stockman's SSS*, DUAL*, and the MT drivers that reformulate them (mt-sss, mt-dual):
their values, and the literature's two statements about them, leaf for leaf.

(a) Stockman's dominance: SSS* never evaluates a leaf that alpha-beta (the same move
order, no table) skips; DUAL* neither. (b) Plaat et al.'s equivalence: MT-SSS* with a
table that holds everything evaluates the same leaves as SSS*, in the same order, and
MT-DUAL* the same as DUAL*. Both hold on every explicit and synthetic tree tried here,
ties included, when MT searches the children in the tree's order, as Plaat et al.'s MT
does (``Switches(hash_move=False)``). With the hash move first (the frame's default) they
hold while siblings' values differ; with ties the hash move is the child that reached the
tied bound first in the previous pass's order, not the leftmost, and the search can
finish on another child than SSS* does (``test_the_hash_move_breaks_ties_unlike_sss``).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.errors import HarnessError
from harness.games.trees import ArrayTree, generate_tree, parse_spec, parse_tree
from harness.search import Switches, make_spec, run_search
from harness.search.sss import dual_star, sss_star
from harness.search.trace import evaluated_leaves

from .conftest import TEXTBOOK
from .test_properties import nested, specs

MT_ORDER = Switches(tt_size=1 << 16, hash_move=False)
"""Plaat et al.'s MT: a table that holds every node, children in the tree's order."""
MT_LEAVES = Switches(tt_size=1 << 16, hash_move=False, tt_leaves=True, tt_narrow=True)
"""MT as Plaat et al. write it: leaves stored too (their bounds answer later passes)."""
MT_HASH = Switches(tt_size=1 << 16)
"""The same with the table's move searched first (the frame's default)."""
PLAIN = Switches()

Leaf = tuple[str, ...]


def traced(tree: ArrayTree, name: str, depth: int,
           switches: Switches = PLAIN) -> tuple[int, list[Leaf]]:
    """The score and the leaves evaluated, each once, in the order first evaluated."""
    tree.reset()
    result = run_search(tree, make_spec(name), depth, switches, trace=True)
    assert result.score is not None and result.bound == "exact" and result.trace is not None
    return result.score, evaluated_leaves(result.trace)


def minimax(tree: ArrayTree, depth: int) -> int:
    tree.reset()
    score = run_search(tree, make_spec("minimax"), depth).score
    assert score is not None
    return score


def distinct(data: Any) -> Any:
    """``data`` with every leaf value made unique, order kept (value * 100 + its index)."""
    count = iter(range(100))

    def relabel(node: Any) -> Any:
        return [relabel(k) for k in node] if isinstance(node, list) else node * 100 + next(count)

    return relabel(data)


def check_statements(tree: ArrayTree, depth: int,
                     mts: tuple[Switches, ...] = (MT_ORDER, MT_LEAVES)) -> None:
    true = minimax(tree, depth)
    sss, dual = sss_star(tree, depth), dual_star(tree, depth)
    assert sss.value == dual.value == true
    _, alphabeta = traced(tree, "alphabeta", depth)
    assert set(sss.leaves) <= set(alphabeta)                            # (a) dominance
    assert set(dual.leaves) <= set(alphabeta)
    assert len(set(sss.leaves)) == len(sss.leaves)                      # each leaf once
    for mt in mts:
        assert traced(tree, "mt-sss", depth, mt) == (true, list(sss.leaves))     # (b)
        assert traced(tree, "mt-dual", depth, mt) == (true, list(dual.leaves))


def test_textbook_tree_by_hand() -> None:
    # SSS*: the root's three MIN children each get their first leaf (3, 2, 14, merits
    # min(inf, f)); 14 is highest, so C's next leaves 5 and 2 (merit min(14, 5) = 5, then
    # 2); now A's 3 is highest: 12 and 8 keep it at 3, A is solved at 3 and so the root.
    # DUAL* (lower bounds, the root's children a MAX node's of its search): A's leaves
    # solve A at 3 (merit max(-inf, f) from the other side), then B's 2 and C's 14, 5, 2
    # each fall below 3 in turn. Both see the 7 leaves alpha-beta sees, in other orders.
    tree = parse_tree(TEXTBOOK)
    sss, dual = sss_star(tree, 2), dual_star(tree, 2)
    assert sss.value == dual.value == 3
    assert sss.leaves == (("0", "0"), ("1", "0"), ("2", "0"), ("2", "1"), ("2", "2"),
                          ("0", "1"), ("0", "2"))
    assert dual.leaves == (("0", "0"), ("0", "1"), ("0", "2"), ("1", "0"), ("2", "0"),
                           ("2", "1"), ("2", "2"))
    # SSS*: root, its 3 children, their first leaves, C's 2 more, A's 2 more; DUAL*: every
    # node (the root's children all generated, then every leaf of each MIN node of its).
    assert (sss.generated, dual.generated) == (11, 13)
    check_statements(tree, 2)


@settings(max_examples=120, deadline=None)
@given(data=nested)
def test_the_statements_hold_on_explicit_trees_with_ties(data: Any) -> None:
    tree = parse_tree(data)
    check_statements(tree, max(1, tree.shape.height))


@settings(max_examples=60, deadline=None)
@given(spec=specs, cut=st.integers(0, 2))
def test_the_statements_hold_on_synthetic_trees(spec: str, cut: int) -> None:
    tree = generate_tree(parse_spec(spec), 0)
    check_statements(tree, max(1, tree.shape.height - cut))


@settings(max_examples=80, deadline=None)
@given(data=nested)
def test_with_the_hash_move_the_equivalence_holds_for_distinct_values(data: Any) -> None:
    tree = parse_tree(distinct(data))
    check_statements(tree, max(1, tree.shape.height), (MT_HASH,))


def test_the_hash_move_breaks_ties_unlike_sss() -> None:
    # Root children A [-2, 0], B [-1, -1], C [-3], D [2, -1, 0, 1]: value -1 (B and D).
    # The first passes leave the upper bounds A -2, B -1, C -3, D -1, and D the table's
    # move (it reached -1 first: it was searched first, as the previous best). SSS* takes
    # the leftmost of the tied states, B's solved leaf, and solves B with its second
    # leaf; MT in the tree's order does the same; MT with the hash move first finishes D
    # instead (its leaves 0 and 1), never looking at B's second leaf.
    tree = parse_tree([[-2, 0], [-1, -1], [-3], [2, -1, 0, 1]])
    sss = sss_star(tree, 2)
    assert sss.value == -1
    assert traced(tree, "mt-sss", 2, MT_ORDER)[1] == list(sss.leaves)
    _, hashed = traced(tree, "mt-sss", 2, MT_HASH)
    assert set(sss.leaves) - set(hashed) == {("1", "1")}
    assert set(hashed) - set(sss.leaves) == {("3", "2"), ("3", "3")}


@settings(max_examples=80, deadline=None)
@given(data=nested, size=st.sampled_from([1, 3, 7]))
def test_a_small_table_stays_exact_between_sss_and_alphabeta(data: Any, size: int) -> None:
    """Without the room to keep every bound, MT re-expands what it lost: the value stays
    minimax's, the leaves include SSS*'s (more may be evaluated: the equivalence needs the
    memory) and stay within alpha-beta's (every pass is alpha-beta in a zero window)."""
    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    true = minimax(tree, depth)
    _, alphabeta = traced(tree, "alphabeta", depth)
    small = Switches(tt_size=size, hash_move=False)
    for name, dual in (("mt-sss", False), ("mt-dual", True)):
        value, leaves = traced(tree, name, depth, small)
        assert value == true
        assert set(sss_star(tree, depth, dual).leaves) <= set(leaves) <= set(alphabeta)


def test_a_small_table_can_cost_leaves_sss_does_not_evaluate() -> None:
    # Value -9. With room for everything the last pass (beta -9) finds the bound of the
    # MAX node 00 in the table; with one slot it was overwritten, so the pass expands 00
    # again, and its MIN child 000 must show both its leaves -8 and -3 above -9: leaf
    # 0001, which SSS* never needed, is evaluated (7 leaves for SSS*'s 6).
    tree = parse_tree([[[[-8, -3], [-2], [6, -9]], [[-6, -9]]]])
    sss = sss_star(tree, 4)
    assert traced(tree, "mt-sss", 4, MT_ORDER)[1] == list(sss.leaves)
    _, small = traced(tree, "mt-sss", 4, Switches(tt_size=1, hash_move=False))
    assert set(small) - set(sss.leaves) == {("0", "0", "0", "1")}
    assert set(sss.leaves) < set(small)


def test_sss_refuses_a_tree_beyond_its_open_list() -> None:
    # OPEN holds a max solution tree's leaves: b ** ceil(d / 2) for SSS*, whose MAX nodes
    # (every child) are the root's plies 0, 2, 4; b ** floor(d / 2) for DUAL*.
    tree = generate_tree(parse_spec("random:b=4,d=5"), 0)
    assert sss_star(tree, 5).largest_open == 64
    assert dual_star(tree, 5, max_open=16).largest_open == 16
    with pytest.raises(HarnessError, match=r"^SSS\*: OPEN passed 63 states at depth 5 "):
        sss_star(tree, 5, max_open=63)
    with pytest.raises(HarnessError, match=r"^DUAL\*: OPEN passed 15 states"):
        dual_star(tree, 5, max_open=15)


def test_a_pass_cap_leaves_the_bound_found_so_far() -> None:
    tree = parse_tree(TEXTBOOK)
    sss = run_search(tree, make_spec("mt-sss", {"max_passes": "2"}), 2)
    assert (sss.score, sss.bound, sss.status) == (5, "upper", "pass-cap")    # 14, then 5
    tree.reset()
    dual = run_search(tree, make_spec("mt-dual", {"max_passes": "1"}), 2)
    assert (dual.score, dual.bound, dual.status) == (3, "lower", "pass-cap")


def test_a_tree_with_a_range_starts_the_steps_at_its_ends() -> None:
    """Where a tree states its least and most value (Connect Four), MT-SSS*'s first pass
    tests the top of the range rather than +inf, and MT-DUAL*'s just above the bottom."""
    from harness.games.connect4.tree import Connect4Tree, board_from

    def tree() -> Connect4Tree:
        return Connect4Tree(board_from("1122", 4, 4))

    low, high = tree().value_range()
    exact = run_search(tree(), make_spec("mtd-bi"), 20).score
    for name, first in (("mt-sss", high), ("mt-dual", low + 1)):
        result = run_search(tree(), make_spec(name), 20, trace=True)
        assert result.trace is not None and result.trace[0].beta == first
        assert (result.score, result.bound) == (exact, "exact")
