"""The chess tree's cache of what is a pure function of a position (legal moves in static
order, the evaluation, check status, the quiescence moves, the quiescence search's value
and node count for each window), shared by every variant, depth and iteration that
searches one problem: :class:`PositionCache` and its records, :class:`PositionInfo`."""

from __future__ import annotations

from collections.abc import Hashable

import chess

from harness.games.chess.quiescence import NO_RULES

DEFAULT_CACHE_ENTRIES = 1_500_000
"""Records a cache keeps (later ones are transient): about 800 MB at the most, so two
worker processes fit in 2 GiB. A record takes about 540 bytes with everything it holds
(WAC.147, alphabeta at depths 1-5: 4.4 million records, 2,247 MiB); with this cap the
core variants at depths 1-5 peak at 1,007 MiB on WAC.147 and 913 MiB on WAC.092, and most
problems of WAC need far fewer records. A smaller cap only costs time."""
TRANSIENT = -1
"""The generation of records made while the cache is full (see :class:`PositionCache`)."""
DEFAULT_CACHE_RESULTS = 1_000_000
"""Quiescence results a cache remembers before it stops remembering more: about 110 MB
at the most. WAC.091 (core variants at depths 1-5) would remember 1.5 million: with this
cap it takes 60 s and 778 MiB, with 2 million 53 s and 818 MiB, with none 66 s and 682 MiB."""


# Most records are leaves: they share these empty containers instead of owning one each.
_NO_CODES: frozenset[int] = frozenset()
_NO_CHILDREN: dict[int, PositionInfo] = {}
_CODES = tuple(range(1 << 15))
"""One int object per move code, so the links of a million records share them."""


class PositionInfo:
    """What the cache knows about one position; each part computed on first use."""

    __slots__ = ("children", "evaluation", "generation", "in_check", "key", "moves", "packed",
                 "phase", "qchecks", "qmoves", "qplan", "quiescence", "tactical")

    def __init__(self, key: Hashable | None, generation: int) -> None:
        self.key = key
        """The position's key (:func:`position_key`); ``None`` until the board has been
        brought to the position (a leaf whose evaluation came from its parent's never is)."""
        self.generation = generation
        """The cache's generation when this record was made (see :class:`PositionCache`)."""
        self.in_check: bool | None = None
        """Whether the side to move is in check."""
        self.evaluation: int | None = None
        """Static evaluation for the side to move."""
        self.packed: int | None = None
        """Material and piece-square sum (:func:`harness.games.chess.evaluation.material_sum`),
        carried from the parent by the move's delta, so the evaluation needs no board."""
        self.phase = 0
        """Game phase, with ``packed``."""
        self.moves: tuple[chess.Move, ...] | None = None
        """Legal moves in static order."""
        self.tactical = _NO_CODES
        """Codes (:func:`move_code`) of the moves that are captures or promotions (known
        with ``moves``)."""
        self.qmoves: tuple[chess.Move, ...] | None = None
        """Legal captures and promotions in MVV-LVA order, for quiescence."""
        self.qplan: tuple[tuple[chess.Move, int], ...] | None = None
        """``qmoves`` as the cache's quiescence rules search them, with their victims'
        values (:func:`harness.games.chess.quiescence.capture_plan`)."""
        self.qchecks: tuple[tuple[chess.Move, int], ...] | None = None
        """The quiet moves that give check, as the rules search them at the horizon
        (:func:`harness.games.chess.quiescence.quiet_checks`), paired as ``qplan``'s."""
        self.children = _NO_CHILDREN
        """The position each move leads to, by :func:`move_code`: a warm cursor walks
        these links and never hashes a position key. Only a keyed record has children
        (until it has one, it shares the empty ``_NO_CHILDREN``, never written to)."""
        self.quiescence: tuple[int, ...] = ()
        """Quiescence results, four numbers each: ``alpha, beta, value, qnodes`` (see
        :meth:`ChessTree.quiesce`; ``alpha`` tagged by :func:`window_tag`). A flat tuple:
        most records have none or a few, and a dictionary each would cost several times
        the memory."""


class PositionCache:
    """Per-problem store of :class:`PositionInfo`: keyed records by position key, and
    records not yet keyed linked from their parents.

    Policy: once it holds ``max_entries`` records it keeps what it has and makes further
    records transient (generation ``TRANSIENT``: never linked, never registered, freed
    when the cursor leaves them), so memory stays bounded, results are unaffected, and a
    problem too big for the cap still finds the positions it kept warm in every later
    search (emptying instead made every later variant of WAC.147 at depth 5 as slow as
    the first). Once its records hold ``max_results`` quiescence results (by default at
    most as many as records), it remembers no more. Free it (``clear``) when a problem is
    done. Emptying cuts the links between the records (only keyed records, all in
    ``entries``, have links) and starts a new generation; a record of an older generation
    (one a cursor still stands on) is never linked to again, so nothing emptied stays
    reachable.
    """

    __slots__ = ("entries", "generation", "made", "max_entries", "max_results", "misses",
                 "results", "rules")

    def __init__(self, max_entries: int = DEFAULT_CACHE_ENTRIES,
                 max_results: int | None = None) -> None:
        self.entries: dict[Hashable, PositionInfo] = {}
        """Keyed records."""
        self.max_entries = max_entries
        """Cap on the records kept in one generation."""
        self.max_results = min(max_entries, DEFAULT_CACHE_RESULTS) if max_results is None else max_results
        """Cap on the quiescence results remembered in one generation."""
        self.results = 0
        """Quiescence results remembered in this generation."""
        self.made = 0
        """Records kept in this generation."""
        self.misses = 0
        """Records made in all (positions met that were not known)."""
        self.generation = 0
        """How many times the cache was emptied."""
        self.rules = NO_RULES
        """The quiescence rules its records' quiescence results and move plans were made
        under: a tree with other rules empties the cache before it uses it."""

    def clear(self) -> None:
        for info in self.entries.values():
            info.children = _NO_CHILDREN
        self.entries.clear()
        self.made = 0
        self.results = 0
        self.generation += 1

    def make(self, key: Hashable | None) -> PositionInfo:
        """A new, empty record (registered under ``key`` if given), or a transient one
        when the cache is full."""
        self.misses += 1
        if self.made >= self.max_entries:
            return PositionInfo(key, TRANSIENT)
        self.made += 1
        info = PositionInfo(key, self.generation)
        if key is not None:
            self.entries[key] = info
        return info

    def lookup(self, key: Hashable) -> PositionInfo:
        """The record of the position with ``key``, made empty if it is new."""
        info = self.entries.get(key)
        return self.make(key) if info is None else info


