"""Properties that must hold on every tree: exactness, bounds, pruning, counter identities."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.games.trees import INF, ArrayTree, generate_tree, parse_spec, parse_tree
from harness.search import VARIANTS, Switches, find_variant, make_spec, run_search
from harness.search.core import Search

EXACT = [v.name for v in VARIANTS if v.exact]
LOOPS = [v.name for v in VARIANTS if v.loop is not None]
FAIL_HARD = ["alphabeta", "pvs", "moreland"]
FULL_WINDOW = ["minimax", "alphabeta", "alphabeta-fs"]
"""Variants that search every child with the node's window."""

# Nested lists with branching from 1 to 4, depth up to 5, and a small value range (ties).
nested = st.recursive(st.integers(-6, 6), lambda kids: st.lists(kids, min_size=1, max_size=4),
                      max_leaves=40)
switches = st.sampled_from([Switches(), Switches(tt_size=1), Switches(tt_size=5),
                            Switches(tt_size=1024), Switches(iterative_deepening=True),
                            Switches(tt_size=16, iterative_deepening=True)])
specs = st.builds(
    lambda lo, extra, d, seed, ordering, values, r: (
        f"random:b={lo}-{lo + extra},d={d},seed={seed},ordering={ordering},values={values},range={r}"),
    st.integers(1, 3), st.integers(0, 2), st.integers(1, 4), st.integers(0, 10**6),
    st.sampled_from(["random", "perfect", "worst", "0.5", "0.9"]),
    st.sampled_from(["uniform", "incremental"]), st.sampled_from([1, 3, 1000]))


def minimax(tree: ArrayTree, depth: int) -> int:
    tree.reset()
    return run_search(tree, make_spec("minimax"), depth).score


def check_result(name: str, tree: ArrayTree, depth: int, sw: Switches, true: int) -> dict[str, int]:
    tree.reset()
    result = run_search(tree, make_spec(name), depth, sw)
    if result.bound == "exact":
        assert result.score == true, (name, sw)
    else:
        assert name == "belle" and result.bound == "lower" and result.score <= true
    assert result.status == "ok"
    return result.counters


def check_counters(c: dict[str, Any], name: str = "") -> None:
    if name and find_variant(name).counting:    # best-first (SSS*): no window, no node types
        assert c["nodes"] >= c["leaves"] >= 1 and c["passes"] >= 1
        assert c["pv_nodes"] == c["cut_nodes"] == c["all_nodes"] == c["tt_probes"] == 0
        return
    assert c["fail_highs_first"] <= c["fail_highs"] == c["cut_nodes"]
    assert c["cutoffs"] <= c["fail_highs"]
    assert c["fail_lows"] == c["all_nodes"]
    assert c["pv_nodes"] + c["cut_nodes"] + c["all_nodes"] + c["leaves"] + c["tt_cutoffs"] == c["nodes"]
    assert c["research_nodes"] <= c["nodes"]
    assert c["researches"] <= c["zw_searches"]
    assert c["passes"] >= 1
    assert c["tt_cutoffs"] <= c["tt_hits"] <= c["tt_probes"]


@settings(max_examples=150, deadline=None)
@given(data=nested, sw=switches)
def test_every_exact_variant_equals_minimax_on_explicit_trees(data: Any, sw: Switches) -> None:
    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    true = minimax(tree, depth)
    for name in [*EXACT, "belle"]:
        check_counters(check_result(name, tree, depth, sw, true), name)


@settings(max_examples=60, deadline=None)
@given(spec=specs, cut=st.integers(0, 3), sw=switches)
def test_every_exact_variant_equals_minimax_on_synthetic_trees(spec: str, cut: int,
                                                               sw: Switches) -> None:
    tree = generate_tree(parse_spec(spec), 0)
    depth = max(1, tree.shape.height - cut)      # shallower searches use interior values
    true = minimax(tree, depth)
    for name in [*EXACT, "belle"]:
        check_counters(check_result(name, tree, depth, sw, true), name)


@settings(max_examples=150, deadline=None)
@given(data=nested, a=st.integers(-8, 8), width=st.integers(1, 6), table=st.booleans())
def test_results_bound_the_true_value_for_narrow_windows(data: Any, a: int, width: int,
                                                         table: bool) -> None:
    from harness.search.table import TranspositionTable

    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    true = minimax(tree, depth)
    b = a + width
    for name in LOOPS:
        spec = make_spec(name)
        loop = spec.variant.loop
        assert loop is not None
        tree.reset()
        search = Search(tree, TranspositionTable(64) if table else None)
        v, _ = search.root(loop(dict(spec.options)), depth, a, b)
        if v <= a:
            assert true <= v, name
        elif v >= b:
            assert true >= v, name
        elif name == "belle" and search.root_lower_bound:
            assert v <= true
        else:
            assert v == true, name
        if name in FAIL_HARD and tree.shape.height > 0:   # a leaf returns its raw value
            assert a <= v <= b, name


@settings(max_examples=150, deadline=None)
@given(data=nested)
def test_alphabeta_never_visits_more_than_minimax(data: Any) -> None:
    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    full = run_search(tree, make_spec("minimax"), depth).counters
    for name in ("alphabeta", "alphabeta-fs"):
        tree.reset()
        pruned = run_search(tree, make_spec(name), depth).counters
        assert pruned["leaves"] <= full["leaves"]
        assert pruned["nodes"] <= full["nodes"]


@settings(max_examples=60, deadline=None)
@given(data=nested)
def test_fail_soft_and_fail_hard_alphabeta_expand_the_same_tree(data: Any) -> None:
    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    hard = run_search(tree, make_spec("alphabeta"), depth).counters
    tree.reset()
    soft = run_search(tree, make_spec("alphabeta-fs"), depth).counters
    assert (hard["nodes"], hard["leaves"]) == (soft["nodes"], soft["leaves"])


@settings(max_examples=60, deadline=None)
@given(data=nested)
def test_options_that_stay_exact(data: Any) -> None:
    tree = parse_tree(data)
    depth = max(1, tree.shape.height)
    true = minimax(tree, depth)
    for name, options in [("pvs", {"zw_min_depth": "3"}), ("pvs", {"research_min_depth": "2"}),
                          ("pvs-fs", {"research_min_depth": "2"}),
                          ("negascout", {"research_min_depth": "2"}),
                          ("moreland", {"zw_min_depth": "2"}), ("zwp", {"improve": "0"}),
                          ("aspiration", {"window": "1", "widen": "double"}),
                          ("aspiration", {"inner": "negascout"}),
                          ("aspiration", {"inner": "belle"}), ("mtdf", {"guess": "5"})]:
        tree.reset()
        result = run_search(tree, make_spec(name, options), depth)
        if result.bound == "exact":
            assert result.score == true, (name, options)
        else:
            assert options.get("inner") == "belle" and result.score <= true


def test_mtd_pass_cap_is_reported() -> None:
    tree = generate_tree(parse_spec("random:b=3,d=4,seed=2"), 0)
    result = run_search(tree, make_spec("mtd-bi", {"max_passes": "2"}), 4)
    assert result.status == "pass-cap"
    assert result.counters["passes"] == 2
    assert result.bound in ("lower", "upper")
    true = minimax(tree, 4)
    assert (result.score <= true) if result.bound == "lower" else (result.score >= true)


def test_infinite_bounds_are_outside_every_value() -> None:
    tree = generate_tree(parse_spec("random:b=2,d=3,range=999999999:999999999"), 0)
    assert abs(minimax(tree, 3)) < INF


class KeyCounting:
    """A tree that counts the keys read from it."""

    def __init__(self, tree: ArrayTree) -> None:
        self.tree = tree
        self.keys = 0

    def key(self) -> Any:
        self.keys += 1
        return self.tree.key()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tree, name)


@given(spec=specs)
def test_the_principal_variation_is_a_line_of_exact_values_read_without_keys(spec: str) -> None:
    """Without a table, a variant whose root value is exact reports a line as long as the
    search is deep, each position on it worth the score for its side to move (minimax's,
    searched from there to the remaining depth), and reads no key per node: only those of
    the line, to stop where a position repeats."""
    tree = generate_tree(parse_spec(spec), 0)
    depth = tree.shape.height
    for name in EXACT:
        if find_variant(name).uses_table:
            continue
        tree.reset()
        counting = KeyCounting(tree)
        result = run_search(counting, make_spec(name), depth)  # type: ignore[arg-type]
        if result.bound != "exact":
            continue
        assert counting.keys <= depth + 1, name
        # A child whose value a zero-window test settled (NegaScout's last plies) was never
        # searched with a window it fell inside: the line stops above it.
        assert len(result.pv) == depth or (len(result.pv) > 0 and name not in FULL_WINDOW), name
        line = moves_named(tree, result.pv)
        for ply in range(len(line)):
            for move in line[:ply]:
                tree.push(move)
            worth = negamax(tree, depth - ply)
            for _ in line[:ply]:
                tree.pop()
            assert worth == (result.score if ply % 2 == 0 else -result.score), (name, ply)


def negamax(tree: ArrayTree, depth: int) -> int:
    """The value at the cursor, searched ``depth`` plies by the definition."""
    moves = tree.moves()
    if depth == 0 or not moves:
        return tree.value() if moves else tree.terminal_value()
    best = -INF
    for move in moves:
        tree.push(move)
        best = max(best, -negamax(tree, depth - 1))
        tree.pop()
    return best


def moves_named(tree: ArrayTree, names: list[str]) -> list[Any]:
    """The moves a principal variation names, followed from the root."""
    moves = []
    for name in names:
        move = next(m for m in tree.moves() if tree.move_name(m) == name)
        moves.append(move)
        tree.push(move)
    for _ in moves:
        tree.pop()
    return moves
