"""A search that can be stopped: Ctrl-C and SIGTERM in compiled code.

Python runs a signal's handler (``KeyboardInterrupt`` for Ctrl-C; the commands' SIGTERM
handler, :func:`harness.command_line.stops_on_sigterm`) only between the interpreter's
instructions. A search in the compiled frame (mypyc's C over the compiled trees, or
``_engine.c``) passes through none for hours, so a signal would wait for the search to end.
So the frame looks every :data:`SIGNAL_INTERVAL` nodes (``Search._checkpoint``; the C frame
every 65,536, ``engine_state.h``): a pending signal's handler runs then, and its exception
unwinds the search like any other. The look is the node limit's own comparison, so it adds
nothing to a node's cost and changes no count.

This module stays interpreted (``setup.py``'s ``SEARCH_PYTHON``): without the C module, a
call of the plain function below enters the interpreter, which runs pending handlers as a
function starts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import cast

SIGNAL_INTERVAL = 1 << 14
"""Nodes of the Python frame between two looks for a signal (about 1.5 to 15 ms)."""


def _interpreted_poll() -> None:
    """Nothing: the interpreter runs pending signal handlers on entering a function."""


def _poll() -> Callable[[], None]:
    try:
        return cast(Callable[[], None],
                    importlib.import_module("harness.search._engine").poll_signals)
    except (ImportError, AttributeError):
        return _interpreted_poll


poll_signals = _poll()
"""Run the handlers of the signals that arrived (one may raise ``KeyboardInterrupt``)."""
