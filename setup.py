"""Builds of the optional compiled modules; everything else is in pyproject.toml.

- The move generator (``harness/games/chess/_movegen.c``).
- The Connect Four tree (``harness/games/connect4/_board.c``, see
  ``harness/games/connect4/compiled.py``).
- The Othello tree (``harness/games/othello/_board.c``, see
  ``harness/games/othello/compiled.py``).
- The checkers tree (``harness/games/checkers/_board.c``, see
  ``harness/games/checkers/compiled.py``).
- The per-node methods of OpenSpiel trees (``harness/games/openspiel/_cursor.c``, see
  ``harness/games/openspiel/cursor.py``).
- The chess tree (``harness/games/chess/_board.c``, see ``harness/games/chess/compiled.py``).
- The search frame's C twin for native trees (``harness/search/_engine.c``, see
  ``harness/search/engine.py``).
- The search core, compiled from its Python source with mypyc (see
  ``harness/search/compiled.py``), with a record of the sources it was compiled from.

All are optional: where no C compiler is found (or mypyc cannot compile the core) the
package installs without them and runs the same code in Python, with the same counts.

``HARNESS_BUILD_PURE=1`` builds none of them: a pure-Python package in seconds (mypyc takes about
a minute), for tests of what a build ships (``tests/test_install.py``), not for use.
"""

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SEARCH_PYTHON = ("__init__", "compiled", "registry", "run", "trace", "minimal", "agreement", "sss", "signals")
"""The modules of ``harness/search`` that stay Python; mypyc compiles every other one (the
frame, counters, table, drivers and every variant's loop: each per-node path of a search),
so a new variant's module is compiled without being listed anywhere. ``compiled`` chooses
between the compiled core and its source before any of it is imported, so it cannot be
part of it; ``trace``'s ``TracingSearch`` is an interpreted subclass of the compiled
``Search`` (an observer, off the measured path); ``registry`` (the variant records, read
once per run), ``run`` (once per search) and ``minimal`` (a measurement) run no per-node
code; ``sss`` is SSS* and DUAL* (the variants ``sss`` and ``dual``), which reach each
state by replaying its path from the root: a reference for the search's shape, not a fast one;
``signals`` is what a compiled search calls to let Ctrl-C in (it must enter the interpreter).
The Makefile reads this line."""
SEARCH_CORE = tuple(sorted(path.stem for path in Path("harness/search").glob("*.py")
                           if path.stem not in SEARCH_PYTHON))
"""The modules of ``harness/search`` that mypyc compiles."""
SOURCES_RECORD = "harness/search/compiled_from.json"
"""sha256 of each compiled module's source: the core runs compiled only while they match."""


class BuildWithRecord(build_ext):
    """build_ext, then the record of the sources the search core was compiled from."""

    def run(self) -> None:
        super().run()
        built = Path("." if self.inplace else self.build_lib)
        record = {name: hashlib.sha256(Path(f"harness/search/{name}.py").read_bytes()).hexdigest()
                  for name in SEARCH_CORE}
        (built / SOURCES_RECORD).write_text(json.dumps(record, indent=1) + "\n")


BOARD_CURSOR = ["harness/games/board_cursor.h", "harness/games/board_native.h",
                "harness/games/board_learning.h",
                "harness/games/native_tree.h"]
"""The headers a game's ``_board.c`` includes for its cursor: a change to any rebuilds it."""


def compiled_extensions() -> list[Extension]:
    """The move generator, the Connect Four, Othello and chess trees and, where mypyc can compile it, the
    search core; none with ``HARNESS_BUILD_PURE=1``."""
    if os.environ.get("HARNESS_BUILD_PURE") == "1":
        print("harness: HARNESS_BUILD_PURE=1: nothing compiled; it runs as Python", file=sys.stderr)
        return []
    extensions = [Extension("harness.games.chess._movegen", ["harness/games/chess/_movegen.c"],
                            depends=["harness/games/chess/board_geometry.h"],
                            extra_compile_args=["-O2"], optional=True),
                  Extension("harness.games.connect4._board", ["harness/games/connect4/_board.c"],
                            depends=BOARD_CURSOR,
                            extra_compile_args=["-O2"], optional=True),
                  Extension("harness.games.othello._board", ["harness/games/othello/_board.c"],
                            depends=BOARD_CURSOR,
                            extra_compile_args=["-O2"], optional=True),
                  Extension("harness.games.checkers._board", ["harness/games/checkers/_board.c"],
                            depends=BOARD_CURSOR,
                            extra_compile_args=["-O2"], optional=True),
                  Extension("harness.games.openspiel._cursor", ["harness/games/openspiel/_cursor.c"],
                            extra_compile_args=["-O2"], optional=True),
                  Extension("harness.search._engine", ["harness/search/_engine.c"],
                            depends=["harness/games/native_tree.h", "harness/search/engine_state.h",
                                     "harness/search/engine_frame.h",
                                     "harness/search/engine_loops.h",
                                     "harness/search/engine_best_first.h"],
                            extra_compile_args=["-O2"], optional=True),
                  Extension("harness.games.chess._board", ["harness/games/chess/_board.c"],
                            depends=[*(f"harness/games/chess/board_{part}.h"
                                       for part in ("geometry", "magic", "position", "moves", "lists", "key", "see",
                                                    "draws", "order", "quiesce")),
                                     *BOARD_CURSOR],
                            extra_compile_args=["-O2"], optional=True)]
    try:
        from mypyc.build import mypycify

        # The rest of the package is only read for its types, and its dependencies (numpy,
        # pandas, chess) may not be installed yet while this builds: no errors from it.
        core = mypycify(["--follow-imports=silent", *(f"harness/search/{name}.py" for name in SEARCH_CORE)],
                        group_name="harness.search.native", opt_level="3")
    except (Exception, SystemExit) as error:  # mypyc's type check exits on errors
        print(f"harness: the search core is not compiled ({error}); it runs as Python", file=sys.stderr)
        return extensions
    for extension in core:
        extension.optional = True
    return extensions + core


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildWithRecord})
