"""Seeded random game trees, a pure function of their parameters.

Every random draw is a counter-based hash (splitmix64) of the seed, the tree's index, a
stream number and the node id, computed with fixed-width integer arithmetic: the same
spec gives the same trees on every machine, in every process, with any NumPy version.
(Python's salted ``hash`` and NumPy's generator streams are never used.)

Knobs, given as a spec such as ``random:b=8,d=6,n=100,seed=1,ordering=0.9,values=incremental``:

- ``b``: branching, fixed (``b=8``) or a range drawn per node (``b=2-5``);
- ``d``: depth in plies (leaves lie at ply ``d``);
- ``n``: number of trees; tree ``i`` uses its own streams of the seed;
- ``seed``: the seed;
- ``values``: ``uniform`` (every node's static value drawn independently, so shallow
  searches say nothing about deep ones) or ``incremental`` (a child's value is its
  parent's plus a random edge value, so they do);
- ``range``: ``R`` for values (uniform) or edge values (incremental) in ``[-R, R]``, or
  ``LO:HI``; small ranges make ties;
- ``ordering``: how children are ordered relative to their true (depth ``d``) minimax
  values: ``random``, ``perfect`` (best first), ``worst`` (best last), or a probability
  ``p`` that the best child comes first (otherwise it takes a uniformly drawn later place;
  the other children are in random order).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from harness.errors import HarnessError
from harness.games.trees.arrays import ArrayTree, TreeShape
from harness.games.trees.knobs import ORDERINGS, VALUE_MODELS

MAX_NODES = 30_000_000
"""Largest tree generated, to fail fast instead of exhausting memory."""

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_VALUE, _BRANCH, _ORDER, _COIN, _PLACE = 1, 2, 3, 4, 5

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class SyntheticSpec:
    """The parameters of a set of synthetic trees."""

    branching: tuple[int, int]
    """Least and greatest number of children of an interior node (equal when fixed)."""
    depth: int
    """Depth of every leaf, in plies."""
    count: int = 1
    """Number of trees in the set."""
    seed: int = 0
    """Seed of the set."""
    ordering: str | float = "random"
    """``random``, ``perfect``, ``worst``, or the probability that the best child is first."""
    values: str = "uniform"
    """Value model: ``uniform`` or ``incremental``."""
    value_range: tuple[int, int] = (-1000, 1000)
    """Inclusive range of values (uniform) or edge values (incremental)."""

    @property
    def uniform(self) -> bool:
        """Whether every interior node has the same number of children."""
        return self.branching[0] == self.branching[1]

    def __str__(self) -> str:
        lo, hi = self.branching
        b = str(lo) if lo == hi else f"{lo}-{hi}"
        vlo, vhi = self.value_range
        r = str(vhi) if vlo == -vhi else f"{vlo}:{vhi}"
        return (f"random:b={b},d={self.depth},n={self.count},seed={self.seed},"
                f"ordering={self.ordering},values={self.values},range={r}")


_KEYS = ("b", "d", "n", "seed", "ordering", "values", "range")


def parse_spec(text: str) -> SyntheticSpec:
    """Parse ``random:k=v,...``; every error is one line naming the spec and the key."""
    kind, _, body = text.partition(":")
    if kind != "random":
        raise HarnessError(f"tree spec {text!r}: unknown kind {kind!r} (expected 'random:k=v,...')")
    fields: dict[str, str] = {}
    for item in filter(None, body.split(",")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise HarnessError(f"tree spec {text!r}: {item!r} is not key=value")
        if key not in _KEYS:
            raise HarnessError(f"tree spec {text!r}: unknown key {key!r} (valid: {', '.join(_KEYS)})")
        fields[key] = value.strip()
    if "d" not in fields or "b" not in fields:
        raise HarnessError(f"tree spec {text!r}: 'b' (branching) and 'd' (depth) are required")

    def integer(key: str, default: int, least: int) -> int:
        raw = fields.get(key, str(default))
        try:
            number = int(raw)
        except ValueError:
            raise HarnessError(f"tree spec {text!r}: {key}={raw!r} is not an integer") from None
        if number < least:
            raise HarnessError(f"tree spec {text!r}: {key}={number} must be at least {least}")
        return number

    branching = _parse_range(text, "b", fields["b"], "-")
    if branching[0] < 1:
        raise HarnessError(f"tree spec {text!r}: b must be at least 1")
    depth = integer("d", 1, 1)
    count = integer("n", 1, 1)
    seed = integer("seed", 0, 0)
    values = fields.get("values", "uniform")
    if values not in VALUE_MODELS:
        raise HarnessError(f"tree spec {text!r}: values={values!r} (valid: {', '.join(VALUE_MODELS)})")
    raw_range = fields.get("range", "1000")
    if ":" in raw_range:
        value_range = _parse_range(text, "range", raw_range, ":")
    else:
        r = integer("range", 1000, 0)
        value_range = (-r, r)
    if max(abs(value_range[0]), abs(value_range[1])) * (depth + 1) >= 1 << 40:
        raise HarnessError(f"tree spec {text!r}: range is too large")
    ordering: str | float = fields.get("ordering", "random")
    if ordering not in ORDERINGS:
        try:
            ordering = float(ordering)
        except ValueError:
            raise HarnessError(f"tree spec {text!r}: ordering={ordering!r} (valid: "
                               f"{', '.join(ORDERINGS)} or a probability)") from None
        if not 0.0 <= ordering <= 1.0:
            raise HarnessError(f"tree spec {text!r}: ordering={ordering} is not a probability")
    spec = SyntheticSpec(branching, depth, count, seed, ordering, values, value_range)
    size = sum(branching[1] ** k for k in range(depth + 1))
    if size > MAX_NODES:
        raise HarnessError(f"tree spec {text!r}: up to {size:,} nodes per tree; "
                           f"the limit is {MAX_NODES:,}")
    return spec


def _parse_range(text: str, key: str, raw: str, sep: str) -> tuple[int, int]:
    lo_text, has_sep, hi_text = raw.rpartition(sep) if sep == ":" else raw.partition(sep)
    if not has_sep:
        lo_text = hi_text = raw
    try:
        lo, hi = int(lo_text), int(hi_text)
    except ValueError:
        raise HarnessError(f"tree spec {text!r}: {key}={raw!r} is not N or LO{sep}HI") from None
    if lo > hi:
        raise HarnessError(f"tree spec {text!r}: {key}={raw!r} has LO > HI")
    return lo, hi


def _mix64(x: int) -> int:
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _draw(key: int, ids: I64) -> U64:
    """64 random bits per id: splitmix64 of the id in the stream named by ``key``."""
    x = ids.astype(np.uint64) * np.uint64(_GOLDEN) + np.uint64(key)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _uniform(key: int, ids: I64, lo: int, hi: int) -> I64:
    return (_draw(key, ids) % np.uint64(hi - lo + 1)).astype(np.int64) + lo


def generate_tree(spec: SyntheticSpec, index: int) -> ArrayTree:
    """Tree ``index`` (0-based) of the set described by ``spec``."""
    if not 0 <= index < spec.count:
        raise HarnessError(f"tree {index} is outside the set {spec} (0..{spec.count - 1})")

    def stream(number: int) -> int:
        return _mix64((spec.seed * 0x100000001B3 + index * 0x1000193 + number) & _MASK)

    lo_b, hi_b = spec.branching
    lo_v, hi_v = spec.value_range
    # Breadth-first construction: level k holds ids [starts[k], starts[k+1]).
    level = np.zeros(1, dtype=np.int64)
    value_root = (_uniform(stream(_VALUE), level, lo_v, hi_v) if spec.values == "uniform"
                  else np.zeros(1, dtype=np.int64))
    levels = [level]
    values = [value_root]                   # root-perspective values, per level
    counts: list[I64] = []                  # children per node, per level
    next_id = 1
    for _ in range(spec.depth):
        if lo_b == hi_b:
            nb = np.full(level.size, lo_b, dtype=np.int64)
        else:
            nb = _uniform(stream(_BRANCH), level, lo_b, hi_b)
        total = int(nb.sum())
        child = np.arange(next_id, next_id + total, dtype=np.int64)
        draws = _uniform(stream(_VALUE), child, lo_v, hi_v)
        if spec.values == "incremental":
            draws = draws + np.repeat(values[-1], nb)
        counts.append(nb)
        levels.append(child)
        values.append(draws)
        level = child
        next_id += total
    counts.append(np.zeros(level.size, dtype=np.int64))

    # Static values for the side to move, then true negamax values bottom-up.
    static = [v if k % 2 == 0 else -v for k, v in enumerate(values)]
    negamax = [static[-1]]
    for k in range(spec.depth - 1, -1, -1):
        starts = np.concatenate(([0], np.cumsum(counts[k])[:-1]))
        negamax.insert(0, np.maximum.reduceat(-negamax[0], starts))

    kids = [_order_children(spec, stream, levels[k], counts[k], levels[k + 1], negamax[k + 1])
            for k in range(spec.depth)]
    all_counts = np.concatenate(counts)
    first = np.concatenate(([0], np.cumsum(all_counts)))
    shape = TreeShape(nodes=next_id, height=spec.depth,
                      branching=lo_b if spec.uniform else None)
    return ArrayTree(_to_array(first), _to_array(np.concatenate(kids) if kids else first[:0]),
                     _to_array(np.concatenate(static)), shape)


def _order_children(spec: SyntheticSpec, stream: object, parents: I64, nb: I64,
                    children: I64, child_negamax: I64) -> I64:
    """The children of one level, grouped by parent, each group in search order."""
    assert callable(stream)
    parent = np.repeat(parents, nb)
    ordering = spec.ordering
    if ordering == "perfect":        # best for the parent = lowest value for the child
        return children[np.lexsort((children, child_negamax, parent))]
    if ordering == "worst":
        return children[np.lexsort((children, -child_negamax, parent))]
    shuffle = _draw(stream(_ORDER), children)
    if ordering == "random":
        return children[np.lexsort((shuffle, parent))]
    # Probability p that the best child (first on ties) comes first.
    p = float(ordering)
    by_value = np.lexsort((children, child_negamax, parent))
    starts = np.concatenate(([0], np.cumsum(nb)[:-1]))
    is_best = np.zeros(children.size, dtype=np.int64)
    is_best[by_value[starts]] = 1
    coin = (_draw(stream(_COIN), parents) >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    later = np.maximum(nb - 1, 1).astype(np.uint64)
    place = np.where((coin < p) | (nb == 1), 0,
                     1 + (_draw(stream(_PLACE), parents) % later).astype(np.int64))
    # Rank the other children by the shuffle; the best goes last for now.
    order = np.lexsort((shuffle, is_best, parent))
    rank = np.empty(children.size, dtype=np.int64)
    rank[order] = np.arange(children.size) - np.repeat(starts, nb)
    best_place = np.repeat(place, nb)
    position = np.where(is_best == 1, best_place, rank + (rank >= best_place))
    return children[np.lexsort((position, parent))]


def _to_array(values: I64) -> array[int]:
    out = array("q")
    out.frombytes(np.ascontiguousarray(values, dtype="<i8").tobytes())
    return out
