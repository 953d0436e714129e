"""The games' optional C extensions: whether each was built, and whether it may run.

Each is built when the package is installed where a C compiler is found, and each has a
Python twin with the same counts. ``HARNESS_PURE_PYTHON`` set in the environment runs the
twins (as it runs the search core from source: :mod:`harness.search.compiled`).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


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
