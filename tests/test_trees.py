"""Explicit and synthetic trees: parsing, conventions, errors, generation knobs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.games.trees import generate_tree, load_tree_file, parse_spec, parse_tree
from harness.games.trees.explicit import json_nesting
from harness.search import make_spec, run_search


def children(tree, node: int) -> list[int]:  # type: ignore[no-untyped-def]
    return list(tree.kids[tree.first[node]:tree.first[node + 1]])


def test_root_perspective_is_converted_to_negamax() -> None:
    tree = parse_tree([[3, 12], [2, 4]])
    assert list(tree.values)[3:] == [3, 12, 2, 4]          # leaves at ply 2: sign +
    tree = parse_tree([3, 12, 8])
    assert list(tree.values)[1:] == [-3, -12, -8]           # leaves at ply 1: sign -
    assert run_search(tree, make_spec("minimax"), 1).score == 12


def test_negamax_perspective_is_taken_as_given() -> None:
    tree = parse_tree({"tree": [3, 12, 8], "perspective": "negamax"})
    assert run_search(tree, make_spec("minimax"), 1).score == -3


def test_interior_values_allow_shallow_searches() -> None:
    tree = parse_tree([{"value": 1, "children": [5, 6]}, {"value": 7, "children": [0]}])
    assert run_search(tree, make_spec("alphabeta"), 1).score == 7
    assert run_search(tree, make_spec("alphabeta"), 2).score == 5
    assert tree.shape.valueless_plies == {0}


def test_shape_of_uniform_and_ragged_trees() -> None:
    assert parse_tree([[1, 2], [3, 4]]).shape.branching == 2
    assert parse_tree([[1, 2], [3]]).shape.branching is None
    assert parse_tree([[1, 2], 3]).shape.branching is None
    assert parse_tree([[1, 2], [3, 4]]).shape.height == 2


def test_move_names_are_positions_in_the_file() -> None:
    result = run_search(parse_tree([1, 5, 3]), make_spec("alphabeta"), 1)
    assert (result.score, result.best_move) == (5, "1")    # the root player takes 5
    result = run_search(parse_tree([[1], [5], [3]]), make_spec("alphabeta"), 2)
    assert (result.score, result.best_move) == (5, "1")
    tree = generate_tree(parse_spec("random:b=4,d=2,seed=1,ordering=worst"), 0)
    best = run_search(tree, make_spec("alphabeta"), 2).best_move
    assert best == str(children(tree, 0)[-1] - 1)        # worst ordering: searched last


@pytest.mark.parametrize("text,message", [
    ("[[1, 2], [3,", "bad.json:1:13: invalid JSON"),
    ('[[1, 2], [3, "x"]]', "bad.json: tree[1][1]: leaf value must be an integer, not 'x'"),
    ("[[1, 2], [3, 1.5]]", "bad.json: tree[1][1]: leaf value must be an integer, not 1.5"),
    ("[[1, 2], [3, true]]", "bad.json: tree[1][1]: leaf value must be an integer, not True"),
    ("[[1, 2], []]", "bad.json: tree[1]: empty child list"),
    ('{"tree": [1], "perspective": "max"}', "bad.json: perspective must be 'root' or 'negamax'"),
    ('{"tree": [1], "extra": 1}', "bad.json: unknown key 'extra'"),
    ('[{"children": [1], "v": 2}]', "bad.json: tree[0]: unknown key 'v'"),
    ("[1e400]", "bad.json: tree[0]: leaf value must be an integer"),
])
def test_bad_tree_files_name_file_and_place(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(HarnessError) as info:
        load_tree_file(path)
    assert str(info.value).startswith(str(path) + message.removeprefix("bad.json"))
    assert "\n" not in str(info.value)


def test_missing_tree_file(tmp_path: Path) -> None:
    with pytest.raises(HarnessError, match="cannot read"):
        load_tree_file(tmp_path / "nope.json")


@pytest.mark.parametrize("levels", [2_000, 20_000])
def test_tree_nested_too_deep_to_read_names_file_and_depth(tmp_path: Path, levels: int) -> None:
    # json's decoder recurses per level: this was a RecursionError and a traceback.
    path = tmp_path / "deep.json"
    path.write_text("[" * levels + "1" + "]" * levels)
    with pytest.raises(HarnessError) as info:
        load_tree_file(path)
    assert str(info.value) == (f"{path}: nested {levels:,} deep, too deep to read; the harness "
                               "searches trees up to height 100")


def test_json_nesting_counts_brackets_outside_strings() -> None:
    assert json_nesting("[[1], 2]") == 2
    assert json_nesting('{"tree": [[1, {"value": 2}]], "x": "[[[[\\"]]]"}') == 4
    assert json_nesting("7") == 0


def test_tree_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b"[[1, 2],\n [3, 4]] \xe9")
    with pytest.raises(HarnessError) as info:
        load_tree_file(path)
    assert str(info.value) == f"{path}:2: not UTF-8 text"
    path.write_bytes(b"\xef\xbb\xbf[[1, 2], [3, 4]]")             # a byte-order mark is fine
    assert load_tree_file(path).shape.height == 2


@pytest.mark.parametrize("text", ["5", '{"value": 5}', '{"tree": 5, "perspective": "negamax"}'])
def test_tree_file_with_a_single_leaf_names_the_file(tmp_path: Path, text: str) -> None:
    # It loaded, and the run said "depth 0 is impossible" without naming the file.
    path = tmp_path / "leaf.json"
    path.write_text(text)
    with pytest.raises(HarnessError) as info:
        load_tree_file(path)
    assert str(info.value).startswith(f"{path}: the tree is a single leaf; a tree is a nested list")
    assert parse_tree(5).shape.height == 0          # as data (tests, properties) it is a tree


def test_spec_round_trips_and_defaults() -> None:
    spec = parse_spec("random:b=2-5,d=3,n=4,seed=9,ordering=0.75,values=incremental,range=-3:10")
    assert str(spec) == ("random:b=2-5,d=3,n=4,seed=9,ordering=0.75,values=incremental,"
                         "range=-3:10")
    assert parse_spec(str(spec)) == spec
    assert str(parse_spec("random:b=3,d=2")) == ("random:b=3,d=2,n=1,seed=0,ordering=random,"
                                                  "values=uniform,range=1000")


@pytest.mark.parametrize("text,message", [
    ("random:b=2,d=3,x=1", "unknown key 'x'"),
    ("random:b=2", "'b' (branching) and 'd' (depth) are required"),
    ("grid:b=2,d=2", "unknown kind 'grid'"),
    ("random:b=0,d=2", "b must be at least 1"),
    ("random:b=5-2,d=2", "LO > HI"),
    ("random:b=2,d=0", "d=0 must be at least 1"),
    ("random:b=2,d=x", "d='x' is not an integer"),
    ("random:b=2,d=2,ordering=best", "ordering='best'"),
    ("random:b=2,d=2,ordering=1.5", "not a probability"),
    ("random:b=2,d=2,values=gauss", "values='gauss'"),
    ("random:b=40,d=9", "the limit is"),
    ("random:b=2,d", "'d' is not key=value"),
])
def test_bad_specs(text: str, message: str) -> None:
    with pytest.raises(HarnessError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_spec(text)


def test_synthetic_trees_are_pinned() -> None:
    # The generator is a pure function of the spec: these numbers hold on every machine.
    tree = generate_tree(parse_spec("random:b=3,d=2,seed=1,ordering=perfect"), 0)
    assert list(tree.values) == [895, 963, 224, -340, 893, -858, -174, 38, 422, 366, -227,
                                 -223, -944]
    assert children(tree, 0) == [2, 1, 3]
    other = generate_tree(parse_spec("random:b=3,d=2,seed=1,ordering=perfect,n=2"), 1)
    assert list(other.values) != list(tree.values)


def test_perfect_and_worst_ordering() -> None:
    spec = "random:b=4,d=3,seed=3,range=1000000,ordering="
    for ordering, pick in (("perfect", min), ("worst", max)):
        tree = generate_tree(parse_spec(spec + ordering), 0)
        for node in range(1 + 4 + 16):
            kids = children(tree, node)
            values = []
            for kid in kids:
                tree.reset()
                path = []
                n = kid
                while n:
                    path.append(n)
                    n = next(p for p in range(n) if n in children(tree, p))
                for step in reversed(path):
                    tree.push(step)
                values.append(run_search(tree, make_spec("minimax"), 3 - len(path)).score
                              if len(path) < 3 else tree.value())
            assert values[0] == pick(values)


def test_ordering_probability_places_the_best_child() -> None:
    def first_is_best_rate(p: str) -> float:
        tree = generate_tree(parse_spec(f"random:b=5,d=2,seed=5,range=1000000,ordering={p}"), 0)
        perfect = generate_tree(parse_spec("random:b=5,d=2,seed=5,range=1000000,ordering=perfect"), 0)
        hits = sum(children(tree, n)[0] == children(perfect, n)[0] for n in range(6))
        return hits / 6
    assert first_is_best_rate("1") == 1.0
    assert first_is_best_rate("0") == 0.0
    tree = generate_tree(parse_spec("random:b=6,d=4,seed=5,ordering=0.7,n=1"), 0)
    perfect = generate_tree(parse_spec("random:b=6,d=4,seed=5,ordering=perfect"), 0)
    interior = range(1 + 6 + 36 + 216)
    rate = sum(children(tree, n)[0] == children(perfect, n)[0] for n in interior) / len(interior)
    assert 0.6 < rate < 0.8


def test_branching_ranges_and_incremental_values() -> None:
    tree = generate_tree(parse_spec("random:b=1-3,d=4,seed=2,values=incremental,range=5"), 0)
    sizes = {len(children(tree, n)) for n in range(tree.shape.nodes) if children(tree, n)}
    assert sizes == {1, 2, 3}
    assert tree.shape.branching is None
    for node in range(tree.shape.nodes):
        for kid in children(tree, node):
            # root-perspective child value = parent's + an edge in [-5, 5]; signs alternate
            assert abs(-tree.values[kid] - tree.values[node]) <= 5


def test_json_tree_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"tree": [[1, 2], [3, 4]], "perspective": "root"}))
    assert run_search(load_tree_file(path), make_spec("pvs"), 2).score == 3
