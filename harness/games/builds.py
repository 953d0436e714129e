"""The games' optional C extensions: whether each was built, and whether it may run.

Each is built when the package is installed where a C compiler is found, and each has a
Python twin with the same counts. ``HARNESS_PURE_PYTHON`` set in the environment runs the
twins (as it runs the search core from source: :mod:`harness.search.compiled`).
:class:`OptionalBuild` is what a game's ``compiled.py`` says about its extension: the
module, whether it runs, and which tree a caller gets.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType

from harness.errors import HarnessError


def optional_extension(name: str) -> ModuleType | None:
    """The compiled module ``name``, or ``None`` where it was not built (no C compiler at
    install): its Python twin runs instead."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def pure_python() -> bool:
    """Whether ``HARNESS_PURE_PYTHON`` asks for the Python twins in this process."""
    return bool(os.environ.get("HARNESS_PURE_PYTHON"))


class OptionalBuild:
    """A game's optional C extension (``extension``, the compiled twin of its Python tree),
    as its ``compiled.py`` offers it: ``built``, the module or ``None``; ``available``
    and ``in_use`` (what ``run.json`` records); ``chooses``, which tree a caller gets;
    ``module``, the module or a :class:`HarnessError` that names ``game`` and ``what``
    was not built. ``set_up`` is called once with the module where it was built (the
    tables it takes from the Python modules). Tests set ``built`` to ``None`` to play a
    build without the extension."""

    def __init__(self, game: str, extension: str,
                 set_up: Callable[[ModuleType], object] | None = None,
                 what: str = "the compiled tree") -> None:
        self.game = game
        self.what = what
        self.built = optional_extension(extension)
        if self.built is not None and set_up is not None:
            set_up(self.built)

    def available(self) -> bool:
        """Whether the compiled module was built and imports."""
        return self.built is not None

    def in_use(self) -> bool:
        """Whether the game's trees are the compiled ones in this process (built, and
        ``HARNESS_PURE_PYTHON`` not set)."""
        return self.built is not None and not pure_python()

    def chooses(self, compiled: bool | None) -> bool:
        """Whether a tree asked for with ``compiled`` (``True``, ``False``, or ``None``:
        the default) is the compiled one: by default where it is in use."""
        return self.in_use() if compiled is None else compiled

    def module(self) -> ModuleType:
        """The compiled module; a :class:`HarnessError` where it was not built."""
        if self.built is None:
            raise HarnessError(f"{self.game}: {self.what} was not built (no C compiler at install)")
        return self.built
