"""Plug-ins: what installed packages add through an entry-point group
(``importlib.metadata``), each record marked with the package that added it.

A broken import, a record of the wrong type or a name already taken is one line naming
the package (the command line prints it as a warning); the built-in records and every
other plug-in still work, and no plug-in can change what a built-in name means.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import metadata
from typing import TypeVar

T = TypeVar("T")

BUILT_IN = "built in"
"""The origin of the harness's own variants and games."""


def load_entry_points(group: str, kind: type[T], taken: Iterable[str], name_of: Callable[[T], str],
                      mark: Callable[[T, str], T]) -> tuple[list[T], list[str]]:
    """The records (instances of ``kind``) installed packages add through ``group``, each
    passed through ``mark(record, "package version")``, and one line per entry point or
    record left out. An entry point names a record or a list or tuple of them."""
    added: list[T] = []
    problems: list[str] = []
    names = set(taken)
    for entry in metadata.entry_points(group=group):
        package = f"{entry.dist.name} {entry.dist.version}" if entry.dist else entry.value
        try:
            loaded = entry.load()
        except Exception as exc:                # whatever a plug-in's import raises is its own
            problems.append(f"plug-in {entry.name!r} of {package}: cannot be loaded "
                            f"({type(exc).__name__}: {exc}); the harness runs without it")
            continue
        for record in list(loaded) if isinstance(loaded, list | tuple) else [loaded]:
            if not isinstance(record, kind):
                problems.append(f"plug-in {entry.name!r} of {package}: {record!r} is not a "
                                f"{kind.__module__}.{kind.__qualname__}; left out")
            elif name_of(record) in names:
                problems.append(f"plug-in {entry.name!r} of {package}: the name "
                                f"{name_of(record)!r} is taken; left out")
            else:
                names.add(name_of(record))
                added.append(mark(record, package))
    return added, problems
