"""Plug-ins: what installed packages add through an entry-point group
(``importlib.metadata``), each record marked with the package that added it.

A broken import, a record of the wrong type or a name already taken is one line naming
the package (the command line prints it as a warning); the built-in records and every
other plug-in still work, and no plug-in can change what a built-in name means.

An exception raised in a plug-in's code is the plug-in author's to fix, not a bug of the
harness: :func:`find_culprit` reads which installed package's code raised it from the
traceback's frames (:func:`plugin_modules`), so the caller can say so in one line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import PurePath
from traceback import walk_tb
from types import FrameType, TracebackType
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
        package = package_of(entry)
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


def package_of(entry: metadata.EntryPoint) -> str:
    """The installed package an entry point belongs to, as ``name version`` (what a
    plug-in's records are marked with)."""
    return f"{entry.dist.name} {entry.dist.version}" if entry.dist else entry.value


def plugin_modules(groups: Iterable[str]) -> dict[str, str]:
    """The top-level modules of the packages that add something through ``groups``, each
    with its package (``name version``): the modules its entry points name, and every
    top-level module its installed files hold. Read on demand (an error's path only)."""
    modules: dict[str, str] = {}
    packages: dict[str, str] = {}
    for group in groups:
        for entry in metadata.entry_points(group=group):
            modules[entry.module.partition(".")[0]] = package_of(entry)
            if entry.dist is not None:
                packages[entry.dist.name] = package_of(entry)
    for module, names in metadata.packages_distributions().items():
        for name in names:
            if name in packages:
                modules.setdefault(module, packages[name])
    modules.pop("harness", None)                # the harness's own code is never a plug-in's
    return modules


@dataclass(frozen=True)
class Culprit:
    """The plug-in code an exception came from."""

    package: str
    """The installed package, ``name version``."""
    function: str
    """The plug-in's function the harness called, by its qualified name (``NimTree.key``, a
    loop's function): the outermost of the innermost run of that package's frames."""
    receiver: object
    """That function's ``self`` (a tree, a game), or ``None`` for a plain function."""
    where: str
    """Where it was raised: the innermost frame of the package, ``harness_nim/game.py, line 78``."""


def _top_module(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", "")).partition(".")[0]


def find_culprit(traceback: TracebackType | None, modules: dict[str, str]) -> Culprit | None:
    """The plug-in code that raised the exception whose traceback this is (``modules``:
    :func:`plugin_modules`), or ``None`` when no frame of a plug-in's package is in it."""
    frames = [frame for frame, _ in walk_tb(traceback)]
    lines = [line for _, line in walk_tb(traceback)]
    inner = next((i for i in reversed(range(len(frames))) if _top_module(frames[i]) in modules), None)
    if inner is None:
        return None
    top = _top_module(frames[inner])
    called = inner
    while called > 0 and _top_module(frames[called - 1]) == top:
        called -= 1
    path = PurePath(frames[inner].f_code.co_filename)
    tail = path.parts[path.parts.index(top):] if top in path.parts else (path.name,)
    return Culprit(modules[top], frames[called].f_code.co_qualname,
                   frames[called].f_locals.get("self"),
                   f"{'/'.join(tail)}, line {lines[inner]}")
