"""The modules that moved, still importable under the names they had.

A plug-in's tests import the self-test as ``harness.games.testing`` (the guides said so
until it moved above the search), and the headers of the shipped suite files say how to
remake them byte for byte, ``python -m harness.games.checkers.suite ...``: those files
keep their bytes, as the sealed rules quote their sha256s. So each former name is an
alias of the module's new home: its attributes are the new module's, and ``python -m``
under the former name runs the new module. Nothing under ``harness/games`` imports upwards
for it: the package ``harness`` installs the finder (:func:`install`)."""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from collections.abc import Sequence
from functools import partial
from types import CodeType, ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Loader
else:
    Loader = object     # importlib.abc costs 20 ms at every start (harness --help): types only

FORMER_HOMES = {
    "harness.games.testing": "harness.check.game",
    "harness.games.evaluations": "harness.games.openspiel.evaluations",
    "harness.games.chess.generate": "harness.suites.chess_bench",
    "harness.games.chess.suite": "harness.suites.chess_selfplay",
    "harness.games.checkers.suite": "harness.suites.checkers",
    "harness.games.othello.generate": "harness.suites.othello",
}
"""Each former module name and the module now at its place."""


class _Alias(Loader):
    """The loader of a former name: a module whose attributes are read from ``home``."""

    def __init__(self, home: str) -> None:
        self.home = home
        """The module's name now."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        """The default module object."""
        return None

    def exec_module(self, module: ModuleType) -> None:
        """Every look-up on ``module`` goes to the new home (PEP 562's ``__getattr__``)."""
        home = importlib.import_module(self.home)
        module.__doc__ = home.__doc__
        module.__getattr__ = partial(getattr, home)  # type: ignore[method-assign]
        module.__dir__ = partial(dir, home)  # type: ignore[method-assign]

    def get_code(self, fullname: str) -> CodeType | None:
        """The new home's code, for ``python -m`` (runpy asks the loader for it)."""
        import importlib.util

        spec = importlib.util.find_spec(self.home)
        loader = None if spec is None else spec.loader
        get_code = getattr(loader, "get_code", None)
        return None if get_code is None else get_code(self.home)


class _FormerHomes:
    """A meta path finder that knows only :data:`FORMER_HOMES`."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The alias's spec for a former name; ``None`` (ask the next finder) for any other."""
        home = FORMER_HOMES.get(fullname)
        return None if home is None else importlib.machinery.ModuleSpec(fullname, _Alias(home))


def install() -> None:
    """Put the finder first on ``sys.meta_path``, once (a former name's file is gone, so
    no other finder would answer, but an installed copy of an old version might)."""
    if not any(isinstance(finder, _FormerHomes) for finder in sys.meta_path):
        sys.meta_path.insert(0, _FormerHomes())
