"""Which search core runs: the modules compiled with mypyc, or their source.

``setup.py`` compiles the search core (the frame, the counters, the table, the loops and
the drivers) with mypyc when the package is installed where a C compiler is found: the
same source, typed as ``mypy --strict`` already checks it, run as C. A node of a search
then costs about half what it costs interpreted, and every variant's counts are the same
(a test compares every variant's results from both). Without a compiler the package installs as
plain Python and this module has nothing to choose.

The compiled modules are used all together or not at all (compiled loops call the
compiled frame directly), and only while each source is the one it was compiled from (the
build records their sha256; file times would not do: unpacking a wheel can leave a
source newer than its build): after an edit, the source runs, with a warning, until the
next install (``make install``) compiles it again. ``HARNESS_PURE_PYTHON=1`` in the
environment runs the source. Either way ``run.json`` records which core ran.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = "harness.search"
RECORD = "compiled_from.json"
"""Written by the build (``setup.py``): the sha256 of each source it compiled."""
SHARED_LIBRARY = "native__mypyc"
"""The module mypyc puts the compiled code of all of them in (setup.py names the group)."""
HERE = Path(__file__).resolve().parent


def compiled_modules(directory: Path = HERE) -> dict[str, Path]:
    """The modules of ``directory`` that have a compiled build beside their source,
    each with the build's path (mypyc's shared library has no source and is left out)."""
    found: dict[str, Path] = {}
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for built in directory.glob(f"*{suffix}"):
            name = built.name[: -len(suffix)]
            if (directory / f"{name}.py").is_file():
                found.setdefault(name, built)
    return found


def stale_sources(built: dict[str, Path], directory: Path = HERE) -> list[str]:
    """The compiled modules whose source is not the one they were compiled from (by the
    sha256 the build recorded in ``compiled_from.json``; no record: all of them)."""
    try:
        record = json.loads((directory / RECORD).read_text())
    except (OSError, ValueError):
        record = {}
    return sorted(name for name in built
                  if record.get(name) != hashlib.sha256((directory / f"{name}.py").read_bytes()).hexdigest())


class SourceFinder(importlib.abc.MetaPathFinder):
    """Imports the named modules of the search core from their source."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(f"{PACKAGE}.{name}" for name in names)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{fullname.rsplit('.', 1)[1]}.py")


def choose() -> None:
    """Decide, once, before any module of the core is imported: leave the compiled
    modules to the normal import, or have the source imported instead
    (:func:`compiled_in_use` tells afterwards which ran)."""
    built = compiled_modules()
    if not built:
        return
    if os.environ.get("HARNESS_PURE_PYTHON"):
        sys.meta_path.insert(0, SourceFinder(list(built)))
        return
    if any(HERE.glob(f"{SHARED_LIBRARY}.*")):
        stale = stale_sources(built)
    else:                                              # a build that failed half-way
        stale = sorted(built)
    if stale:
        warnings.warn("harness: the compiled search core does not match its source "
                      f"({', '.join(f'harness/search/{n}.py' for n in stale)}: edited since, or "
                      "the build is incomplete); it runs from source (about twice as slow) "
                      "until `make install` compiles it again", stacklevel=2)
        sys.meta_path.insert(0, SourceFinder(list(built)))


def compiled_in_use() -> bool:
    """Whether the search core running in this process is the compiled one (recorded
    with every run)."""
    from harness.search import core
    return Path(core.__file__ or "").suffix != ".py"


choose()   # on first import: the package imports this module before any other of the core
