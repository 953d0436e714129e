"""What the compiled-tree tests share: walking a tree and its compiled twin together, and
two searches compared field by field."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from harness.search.run import SearchResult


def same(native: SearchResult, python: SearchResult) -> None:
    """Two searches found and did the same: every field of the result but its time and the
    frame that ran it (score, bound, best move, line, status, every counter)."""
    ours = {k: v for k, v in dataclasses.asdict(native).items() if k not in ("time_s", "frame")}
    theirs = {k: v for k, v in dataclasses.asdict(python).items() if k not in ("time_s", "frame")}
    assert ours == theirs


def walk_twins(python: Any, native: Any, answers: Callable[[Any], object],
               choices: Sequence[int], back: int) -> None:
    """Push the same random legal moves (``choice % len(moves)`` of the Python tree's) into
    both trees, comparing ``answers`` of each after every push, then after ``back`` pops and
    after a reset: a compiled tree must say what its Python twin says at every node."""
    history = [answers(python)]
    assert answers(native) == history[0]
    for choice in choices:
        moves = python.moves()
        if not moves:
            break
        move = moves[choice % len(moves)]
        python.push(move)
        native.push(move)
        history.append(answers(python))
        assert answers(native) == history[-1]
    for _ in range(min(back, len(history) - 1)):
        history.pop()
        python.pop()
        native.pop()
        assert answers(python) == answers(native) == history[-1]
    python.reset()
    native.reset()
    assert answers(python) == answers(native) == history[0]
