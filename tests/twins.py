"""What the compiled-tree tests share: walking a tree and its compiled twin together."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


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
