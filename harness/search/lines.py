"""The lines a search reports: its principal variation and the names of a line's moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from harness.games.base import Move, Tree
from harness.search.table import TranspositionTable


def principal_variation(tree: Tree, table: TranspositionTable | None,
                        root_line: tuple[Move, object] | None, first: Move | None,
                        depth: int) -> list[Move]:
    """The line from the root: ``first``, then the moves that gave the last pass its
    value (``root_line``, when it was exact and that pass chose ``first``), then the table's
    moves, while each is legal and leads to a position not already on the line."""
    if first is None:
        return []
    rest = root_line[1] if root_line is not None and root_line[0] == first else None
    line = [first]
    seen = {tree.key()}
    tree.push(first)
    while len(line) < depth:
        key = tree.key()
        if key in seen:
            break
        seen.add(key)
        move: Move | None = None
        if rest is not None:
            pair = cast("tuple[Move, object]", rest)
            move, rest = pair
        elif table is not None:
            entry = table.probe(key)
            move = entry[4] if entry is not None else None
        if move is None or move not in tree.moves():
            break
        line.append(move)
        tree.push(move)
    for _ in line:
        tree.pop()
    return line


def line_names(tree: Tree, line: Sequence[Move]) -> list[str]:
    """The names of a line's moves from the cursor, each named at the node it is played
    from (a name may depend on it: an index among the node's children, the player to
    move)."""
    names = []
    for move in line:
        names.append(tree.move_name(move))
        tree.push(move)
    for _ in line:
        tree.pop()
    return names
