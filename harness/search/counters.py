"""The counters of VARIANTS.md, with exactly that page's meanings, as one slotted object."""

from __future__ import annotations

COUNTER_NAMES = (
    "nodes", "leaves", "qnodes", "zw_searches", "researches", "research_nodes",
    "fail_highs", "fail_highs_first", "fail_lows", "cutoffs",
    "pv_nodes", "cut_nodes", "all_nodes", "passes",
    "tt_probes", "tt_hits", "tt_cutoffs", "null_searches", "null_cutoffs", "bound_cutoffs",
    "tt_deep_cutoffs",
    "reductions", "reduction_researches", "late_move_prunes", "futility_prunes",
    "reverse_futility_cutoffs", "razor_searches", "razor_cutoffs", "iid_searches",
    "mate_distance_cutoffs", "refutation_moves",
)
"""Every counter, in the order of results.csv's columns; nine before the last are the
selective switches' (:mod:`harness.search.selective`, docs/selective.md), 0 with the
switches off; the last is the refutation tables' (0 with them off)."""

SELECTIVE_COUNTERS = COUNTER_NAMES[COUNTER_NAMES.index("reductions"):
                                   COUNTER_NAMES.index("mate_distance_cutoffs") + 1]
"""The selective switches' counters: a search with any of them above 0 was selective."""

TREE_COUNTER_NAMES = ("repetition_draws",)
"""Counters a tree keeps itself, as attributes of the same names that its ``reset`` zeroes
(0 for a tree without one), read after each search into :attr:`SearchResult.tree_counters
<harness.search.run.SearchResult>` and written to ``results.csv`` after the frame's:
the frame never sees why the tree answered as it did. ``repetition_draws``: nodes below
the root that the tree scored 0 as draws by repetition or by the fifty-move rule (chess
with its option ``repetition``), each time the frame asked for the value of one (at the
horizon or as a node without moves)."""

COUNTING_VERSION = 1
"""The version of the counting rules (VARIANTS.md as this code implements it): bumped by
any change that changes a count of some search. A run records it in ``run.json``, and a
resume refuses rows counted under another version (they would not add up with new ones)."""


class Counters:
    """What one search did; every field a plain integer (see VARIANTS.md for each meaning),
    0 in a new one.

    Every field starts from its class default: a search is made for every position, and
    setting 21 attributes by name took a Connect Four end-game search a microsecond
    (compiled, the defaults are set natively). Compiled, the class takes no other
    attribute; ``tests/test_engine.py`` checks its fields are :data:`COUNTER_NAMES`."""

    nodes: int = 0
    """Calls of the recursive search, root, driver passes and re-searches included."""
    leaves: int = 0
    """Static evaluations at the horizon or at terminal nodes."""
    qnodes: int = 0
    """Quiescence nodes below the horizon (chess only; not part of ``nodes``)."""
    zw_searches: int = 0
    """Child searches with a zero window started by a node whose own window was wider."""
    researches: int = 0
    """Second searches of a child after its zero-window test failed high."""
    research_nodes: int = 0
    """Nodes spent inside re-searches (each node once, however deeply nested)."""
    fail_highs: int = 0
    """Interior nodes that returned ``>= beta``."""
    fail_highs_first: int = 0
    """Fail-highs caused by the first child searched."""
    fail_lows: int = 0
    """Interior nodes that returned ``<= alpha``."""
    cutoffs: int = 0
    """Fail-highs that left at least one child unsearched."""
    pv_nodes: int = 0
    """Interior nodes that returned an exact value (``alpha < v < beta``)."""
    cut_nodes: int = 0
    """Interior nodes that failed high."""
    all_nodes: int = 0
    """Interior nodes that failed low."""
    passes: int = 0
    """Root searches: driver passes, aspiration re-searches, iterations."""
    tt_probes: int = 0
    """Transposition-table look-ups."""
    tt_hits: int = 0
    """Look-ups that found the position."""
    tt_cutoffs: int = 0
    """Look-ups whose stored bound answered the search without expanding the node."""
    null_searches: int = 0
    """Null-move searches started (chess, with null move on); their nodes are in ``nodes``."""
    null_cutoffs: int = 0
    """Nodes that failed high on their null-move search (counted as fail-highs and
    cut nodes, never as first-move fail-highs)."""
    bound_cutoffs: int = 0
    """Nodes answered by the tree's value bound (value bounds on): the most the player to
    move can still score is no more than alpha, so the node returns it unexpanded."""

    tt_deep_cutoffs: int = 0
    """Table cutoffs (and, with narrowing on, narrowed windows) by an entry searched deeper
    than the node needed: a search with any need not return minimax's value at its depth
    (a position met again at another ply, as in chess), so its answer is not cross-checked.
    Not a counter of VARIANTS.md: the harness's own, for that check."""

    # The selective switches' (docs/selective.md): the harness's own, beyond VARIANTS.md.
    reductions: int = 0
    """Late-move reductions: child searches made shallower than the loop asked."""
    reduction_researches: int = 0
    """Reduced searches that did not fail low, searched again at full depth."""
    late_move_prunes: int = 0
    """Quiet moves not searched by late-move (move-count) pruning."""
    futility_prunes: int = 0
    """Quiet moves not searched by futility pruning."""
    reverse_futility_cutoffs: int = 0
    """Nodes answered by their static value less a margin (reverse futility), counted as
    fail-highs and cut nodes too."""
    razor_searches: int = 0
    """Razoring's zero-window horizon evaluations at interior nodes."""
    razor_cutoffs: int = 0
    """Nodes answered by razoring (its evaluation failed low), counted as fail-lows and
    All nodes too."""
    iid_searches: int = 0
    """Internal iterative deepening: shallower searches of a node without a hash move."""
    mate_distance_cutoffs: int = 0
    """Nodes answered by mate-distance pruning (no window left)."""
    refutation_moves: int = 0
    """Nodes without a hash move whose first move was their refutation line's next move
    (refutation tables on): the harness's own, beyond VARIANTS.md."""

    def as_dict(self) -> dict[str, int]:
        """The counters by name, in the order of :data:`COUNTER_NAMES`."""
        return {name: getattr(self, name) for name in COUNTER_NAMES}

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v}" for k, v in self.as_dict().items() if v)
        return f"Counters({body})"
