"""The claims, one module each, and their list. A claim's module holds its record
(``CLAIM``: title, source, what it needs measured, its verdict rules), its analysis, its
judge and its chart; adding a claim is a module and a line in :data:`CLAIMS`."""

from __future__ import annotations

from collections.abc import Sequence

from harness.errors import HarnessError
from harness.reproduce.analysis import ClaimInfo
from harness.reproduce.claims import (
    breuker,
    gnuchess,
    knuth_moore,
    mtdf,
    ordering,
    pearl,
    plaat_sss,
    pons,
    pvs_article,
    pvs_modern,
    schaeffer,
    schaeffer_games,
    stockman,
    three_games_modern,
    three_games_report,
    zwp,
)

CLAIMS: tuple[ClaimInfo, ...] = (
    knuth_moore.CLAIM,
    pearl.CLAIM,
    mtdf.CLAIM,
    pvs_article.CLAIM,
    gnuchess.CLAIM,
    breuker.CLAIM,
    zwp.CLAIM,
    ordering.CLAIM,
    pons.CLAIM,
    stockman.CLAIM,
    plaat_sss.CLAIM,
    three_games_report.CLAIM,
    schaeffer.CLAIM,
    pvs_modern.CLAIM,
    three_games_modern.CLAIM,
    schaeffer_games.CLAIM,
)
"""The claims, in report order (a claim's number is its place here)."""


def claim_keys() -> list[str]:
    """The claims' keys, in order (``only`` also takes their numbers, from 1)."""
    return [c.key for c in CLAIMS]


def number(key: str) -> int:
    """A claim's number, from 1."""
    return claim_keys().index(key) + 1


def select(only: Sequence[str] | None) -> list[ClaimInfo]:
    """The claims named in ``only`` (keys or numbers, a list or one comma-separated
    string), in report order; every claim for ``None``."""
    if only is None:
        return list(CLAIMS)
    if isinstance(only, str):
        only = only.split(",")
    chosen: list[ClaimInfo] = []
    for item in only:
        item = item.strip()
        match = [c for i, c in enumerate(CLAIMS, 1) if item in (c.key, str(i))]
        if not match:
            raise HarnessError(f"unknown claim {item!r} (valid: {', '.join(claim_keys())}, "
                               f"or 1-{len(CLAIMS)})")
        if match[0] not in chosen:
            chosen.append(match[0])
    if not chosen:
        raise HarnessError("no claim selected")
    return [c for c in CLAIMS if c in chosen]
