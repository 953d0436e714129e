"""Build of the optional compiled move generator; everything else is in pyproject.toml.

``optional=True``: where no C compiler is found the package installs without it and
``harness.trees.movegen`` uses its pure-Python generator (same moves, same order).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("harness.trees._movegen", ["harness/trees/_movegen.c"],
                             extra_compile_args=["-O2"], optional=True)])
