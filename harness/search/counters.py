"""The counters of VARIANTS.md, with exactly that page's meanings, as one slotted object."""

from __future__ import annotations

COUNTER_NAMES = (
    "nodes", "leaves", "qnodes", "zw_searches", "researches", "research_nodes",
    "fail_highs", "fail_highs_first", "fail_lows", "cutoffs",
    "pv_nodes", "cut_nodes", "all_nodes", "passes",
    "tt_probes", "tt_hits", "tt_cutoffs", "null_searches", "null_cutoffs", "bound_cutoffs",
    "tt_deep_cutoffs",
)

COUNTING_VERSION = 1
"""The version of the counting rules (VARIANTS.md as this code implements it): bumped by
any change that changes a count of some search. A run records it in ``run.json``, and a
resume refuses rows counted under another version (they would not add up with new ones)."""


class Counters:
    """What one search did; every field a plain integer (see VARIANTS.md for each meaning)."""

    __slots__ = COUNTER_NAMES

    nodes: int
    """Calls of the recursive search, root, driver passes and re-searches included."""
    leaves: int
    """Static evaluations at the horizon or at terminal nodes."""
    qnodes: int
    """Quiescence nodes below the horizon (chess only; not part of ``nodes``)."""
    zw_searches: int
    """Child searches with a zero window started by a node whose own window was wider."""
    researches: int
    """Second searches of a child after its zero-window test failed high."""
    research_nodes: int
    """Nodes spent inside re-searches (each node once, however deeply nested)."""
    fail_highs: int
    """Interior nodes that returned ``>= beta``."""
    fail_highs_first: int
    """Fail-highs caused by the first child searched."""
    fail_lows: int
    """Interior nodes that returned ``<= alpha``."""
    cutoffs: int
    """Fail-highs that left at least one child unsearched."""
    pv_nodes: int
    """Interior nodes that returned an exact value (``alpha < v < beta``)."""
    cut_nodes: int
    """Interior nodes that failed high."""
    all_nodes: int
    """Interior nodes that failed low."""
    passes: int
    """Root searches: driver passes, aspiration re-searches, iterations."""
    tt_probes: int
    """Transposition-table look-ups."""
    tt_hits: int
    """Look-ups that found the position."""
    tt_cutoffs: int
    """Look-ups whose stored bound answered the search without expanding the node."""
    null_searches: int
    """Null-move searches started (chess, with null move on); their nodes are in ``nodes``."""
    null_cutoffs: int
    """Nodes that failed high on their null-move search (counted as fail-highs and
    cut nodes, never as first-move fail-highs)."""
    bound_cutoffs: int
    """Nodes answered by the tree's value bound (value bounds on): the most the player to
    move can still score is no more than alpha, so the node returns it unexpanded."""

    tt_deep_cutoffs: int
    """Table cutoffs (and, with narrowing on, narrowed windows) by an entry searched deeper
    than the node needed: a search with any need not return minimax's value at its depth
    (a position met again at another ply, as in chess), so its answer is not cross-checked.
    Not a counter of VARIANTS.md: the harness's own, for that check."""

    def __init__(self) -> None:
        for name in COUNTER_NAMES:
            setattr(self, name, 0)

    def as_dict(self) -> dict[str, int]:
        """The counters by name, in the order of :data:`COUNTER_NAMES`."""
        return {name: getattr(self, name) for name in COUNTER_NAMES}

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v}" for k, v in self.as_dict().items() if v)
        return f"Counters({body})"
