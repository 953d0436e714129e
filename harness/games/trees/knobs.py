"""The named values of a synthetic tree spec's knobs: the parser
(:func:`harness.games.trees.synthetic.parse_spec`) accepts these and ``harness games`` lists
these, so the two cannot drift apart. Apart from the generator so that listing the games
does not import numpy."""

from __future__ import annotations

from collections.abc import Mapping

ORDERINGS: Mapping[str, str] = {
    "random": "children in random order",
    "perfect": "children best first, in order of value",
    "worst": "children worst first, the best last",
}
"""``ordering=NAME``: each name and what it does (a number instead is the probability that
the best child comes first)."""

VALUE_MODELS: Mapping[str, str] = {
    "uniform": "independent leaf values",
    "incremental": "edge increments summed along the path",
}
"""``values=NAME``: each value model and what it is."""


def listing(names: Mapping[str, str]) -> str:
    """``name (meaning), ...`` for an option's help."""
    return ", ".join(f"{name} ({meaning})" for name, meaning in names.items())
