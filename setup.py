"""Builds of the optional compiled modules; everything else is in pyproject.toml.

- The move generator (``harness/trees/_movegen.c``).
- The search core, compiled from its Python source with mypyc (see
  ``harness/search/compiled.py``).

Both are optional: where no C compiler is found (or mypyc cannot compile the core) the
package installs without them and runs the same code in Python, with the same counts.
"""

import sys

from setuptools import Extension, setup

SEARCH_CORE = ("counters", "table", "core", "alphabeta", "pvs", "negascout", "zwp", "drivers")
"""The modules of ``harness/search`` that mypyc compiles: every per-node path of a search."""

extensions = [Extension("harness.trees._movegen", ["harness/trees/_movegen.c"],
                        extra_compile_args=["-O2"], optional=True)]
try:
    from mypyc.build import mypycify

    core = mypycify([f"harness/search/{name}.py" for name in SEARCH_CORE],
                    group_name="harness.search.native", opt_level="3")
except (Exception, SystemExit) as error:  # mypyc's type check exits on errors
    print(f"harness: the search core is not compiled ({error}); it runs as Python", file=sys.stderr)
else:
    for extension in core:
        extension.optional = True
    extensions += core

setup(ext_modules=extensions)
