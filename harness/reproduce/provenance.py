"""What a reproduction was made with, as ``claims.json`` records it: the commit and whether
the tree was clean, the versions of the harness and of every dependency it declares, the
counting rules and the machine (:func:`harness.results.environment`).

Two runs of the same rules whose counts differ are explained by a commit: this is where
each run names its own. Outside a git checkout (an installed wheel), or without git, the
commit and the tree's state are ``"unknown"``, never guessed.
"""

from __future__ import annotations

import re
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from harness.results import environment
from harness.run.resumable import HARNESS_DISTRIBUTION
from harness.search.counters import COUNTING_VERSION

UNKNOWN = "unknown"
"""The commit, or the tree's state, where git cannot say (no checkout, no git)."""

TOUCHING = ("harness/search", "harness/games")
"""The folders whose commits can change a count (the searches, the games' trees)."""

CHANGED_SHOWN = 20
"""Changed paths listed in a record of a tree that is not clean (the count is always given)."""

_PACKAGE = Path(__file__).resolve().parents[1]
"""The ``harness`` package's folder: git is asked about the checkout that holds it."""


def _git(args: list[str], where: Path) -> str | None:
    """Git's output for ``args`` in ``where``; ``None`` when git fails or is missing."""
    try:
        out = subprocess.run(["git", *args], cwd=where, capture_output=True, text=True,
                             timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def source_state(where: Path | None = None) -> dict[str, Any]:
    """The commit checked out where the harness's code is (``where``: any folder of the
    checkout, by default the package's own), and whether the tree is ``clean`` (``git
    status --porcelain``, untracked files included: an uncommitted rules file counts), with
    the paths that are not (the first :data:`CHANGED_SHOWN`, and their number). Both are
    :data:`UNKNOWN` outside a checkout."""
    folder = _PACKAGE if where is None else where
    head = _git(["rev-parse", "HEAD"], folder)
    status = _git(["status", "--porcelain"], folder)
    if head is None or status is None:
        return {"commit": UNKNOWN, "clean": UNKNOWN, "changed": [], "changed_count": 0}
    changed = [line[3:] for line in status.splitlines() if line.strip()]
    return {"commit": head.strip(), "clean": not changed, "changed": changed[:CHANGED_SHOWN],
            "changed_count": len(changed)}


def last_commit_of(path: str, where: Path | None = None) -> str:
    """The last commit that changed ``path`` (relative to the checkout's top), or
    :data:`UNKNOWN`: for a rules file, the commit that froze its current version (when
    the file is committed unchanged since)."""
    folder = _PACKAGE if where is None else where
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top is None:
        return UNKNOWN
    found = _git(["log", "-1", "--format=%H", "--", path], Path(top.strip()))
    return found.strip() if found and found.strip() else UNKNOWN


def checkout_root(where: Path | None = None) -> Path | None:
    """The top of the checkout the harness runs from (``None``: not a checkout)."""
    top = _git(["rev-parse", "--show-toplevel"], _PACKAGE if where is None else where)
    return None if top is None else Path(top.strip())


def commits_between(old: str, new: str, where: Path | None = None) -> list[str] | None:
    """The commits after ``old`` up to ``new`` that touched :data:`TOUCHING` (``git log
    old..new``), as ``hash subject`` lines, newest first: those that can explain a count
    that differs between two runs. ``None`` when either commit is unknown or git cannot
    say (not a checkout, a commit it does not have)."""
    if UNKNOWN in (old, new) or not old or not new:
        return None
    if old == new:
        return []
    found = _git(["log", "--format=%h %s", f"{old}..{new}", "--", *(f":(top){p}" for p in TOUCHING)],
                 _PACKAGE if where is None else where)
    return None if found is None else [line for line in found.splitlines() if line.strip()]


def uncommitted(path: str, where: Path | None = None) -> bool | None:
    """Whether ``path`` (relative to the checkout's top) differs from its last commit, or
    is not committed at all; ``None`` outside a checkout."""
    folder = _PACKAGE if where is None else where
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top is None:
        return None
    status = _git(["status", "--porcelain", "--", path], Path(top.strip()))
    return None if status is None else bool(status.strip())


_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def dependency_versions() -> dict[str, str | None]:
    """Every dependency the harness's distribution declares (not those of an extra), with
    the version installed (``None``: not installed). Empty when the harness is not
    installed as a distribution."""
    try:
        declared = metadata.requires(HARNESS_DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return {}
    versions: dict[str, str | None] = {}
    for requirement in declared:
        if "extra" in requirement.partition(";")[2]:
            continue
        match = _NAME.match(requirement)
        if match is None:
            continue
        name = match.group(1)
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return dict(sorted(versions.items()))


def provenance() -> dict[str, Any]:
    """What ``claims.json`` records of how it was made: ``source`` (:func:`source_state`),
    the harness's version and its dependencies' (:func:`dependency_versions`), the
    counting rules' version, and ``environment`` (Python, compiled parts, machine)."""
    env = environment()
    return {"source": source_state(), "harness": env["versions"].get("harness"),
            "dependencies": dependency_versions(), "counting_version": COUNTING_VERSION,
            "environment": env}
