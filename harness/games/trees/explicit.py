"""Explicit trees written as JSON.

A tree is a nested list whose leaves are integers: ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``.
By default leaf values are for the player to move at the root (the textbook MAX/MIN
convention) and are converted to negamax here. The file may instead hold an object
``{"tree": [...], "perspective": "root" | "negamax"}``; with ``"negamax"`` every value is
already for the side to move at its node. A node may also be written as an object
``{"value": V, "children": [...]}`` to give an interior node a static value (needed when
a search's horizon falls on it), or ``{"value": V}`` for a leaf.
"""

from __future__ import annotations

import json
import re
from array import array
from collections import deque
from pathlib import Path
from typing import Any

from harness.errors import HarnessError, decode_utf8
from harness.games.base import INF, MAX_DEPTH
from harness.games.trees.arrays import ArrayTree, TreeShape

PERSPECTIVES = ("root", "negamax")

_STRINGS_AND_OTHERS = re.compile(r'"(?:[^"\\]|\\.)*"|[^][{}"]+')
"""What :func:`json_nesting` drops: JSON strings (escapes included) and everything
that is not a bracket."""


def load_tree_file(path: str | Path) -> ArrayTree:
    """Read and parse a JSON tree file; every error names the file.

    A file holding a single leaf is refused: it is never a search problem, and its height,
    0, would otherwise surface later as an impossible depth without the file's name.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise HarnessError(f"{path}: cannot read: {exc.strerror or exc}") from None
    text = decode_utf8(path, data)
    try:
        decoded = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HarnessError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        # json's decoder recurses once per level, so a tree nested about 1,000 deep (Python's
        # recursion limit) cannot even be read; no search goes that deep anyway.
        raise HarnessError(f"{path}: nested {json_nesting(text):,} deep, too deep to read; the "
                           f"harness searches trees up to height {MAX_DEPTH}") from None
    tree = parse_tree(decoded, source=str(path))
    if tree.shape.height == 0:
        raise HarnessError(f"{path}: the tree is a single leaf; a tree is a nested list whose "
                           "leaves are integers, e.g. [[3, 12, 8], [2, 4, 6]]")
    return tree


def json_nesting(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (``[[1], 2]``: 2), without
    recursing; brackets inside strings do not count."""
    brackets = _STRINGS_AND_OTHERS.sub("", text)
    depth = deepest = 0
    for bracket in brackets:
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif bracket in "]}":
            depth -= 1
    return deepest


def parse_tree(data: Any, source: str = "<tree>") -> ArrayTree:
    """Build an :class:`ArrayTree` from decoded JSON (see the module docstring)."""
    perspective = "root"
    if isinstance(data, dict) and "tree" in data:
        unknown = sorted(set(data) - {"tree", "perspective"})
        if unknown:
            raise HarnessError(f"{source}: unknown key {unknown[0]!r} (expected 'tree', 'perspective')")
        perspective = data.get("perspective", "root")
        if perspective not in PERSPECTIVES:
            raise HarnessError(f"{source}: perspective must be 'root' or 'negamax', not {perspective!r}")
        data = data["tree"]

    first = [0]
    kids: list[int] = []
    values: list[int] = []
    valueless: set[int] = set()
    branchings: set[int] = set()
    leaf_plies: set[int] = set()
    queue: deque[tuple[Any, int, str]] = deque([(data, 0, "tree")])
    next_id = 1
    while queue:
        node, ply, where = queue.popleft()
        value, children = _node_parts(node, source, where)
        sign = -1 if perspective == "root" and ply % 2 else 1
        if value is None:
            valueless.add(ply)
            values.append(0)
        else:
            values.append(sign * value)
        if children is None:
            leaf_plies.add(ply)
        else:
            branchings.add(len(children))
            for i, child in enumerate(children):
                kids.append(next_id)
                next_id += 1
                queue.append((child, ply + 1, f"{where}[{i}]"))
        first.append(len(kids))

    height = max(leaf_plies)
    uniform = len(branchings) == 1 and leaf_plies == {height}
    shape = TreeShape(nodes=len(values), height=height,
                      branching=branchings.pop() if uniform else None,
                      valueless_plies=frozenset(valueless))
    return ArrayTree(array("q", first), array("q", kids), array("q", values), shape)


def _node_parts(node: Any, source: str, where: str) -> tuple[int | None, list[Any] | None]:
    """Split one JSON node into (static value or None, children or None for a leaf)."""
    if isinstance(node, dict):
        unknown = sorted(set(node) - {"value", "children"})
        if unknown:
            raise HarnessError(f"{source}: {where}: unknown key {unknown[0]!r} "
                               "(a node object has 'value' and 'children')")
        value = node.get("value")
        children = node.get("children")
        if value is not None:
            _check_value(value, source, where)
        if children is None:
            if value is None:
                raise HarnessError(f"{source}: {where}: a leaf object needs a 'value'")
            return value, None
        if not isinstance(children, list):
            raise HarnessError(f"{source}: {where}: 'children' must be a list")
        node = children
    else:
        value = None
    if isinstance(node, list):
        if not node:
            raise HarnessError(f"{source}: {where}: empty child list (a leaf is an integer)")
        return value, node
    _check_value(node, source, where)
    return node, None


def _check_value(value: Any, source: str, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HarnessError(f"{source}: {where}: leaf value must be an integer, not {value!r}")
    if not -INF < value < INF:
        raise HarnessError(f"{source}: {where}: value {value} is out of range (|v| < {INF})")
