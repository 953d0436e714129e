"""The layers import only downwards: the search knows no game, no game knows the search,
a report knows no run, a run no reproduction; in C, a game includes nothing of the search.

Read from the source with ``ast`` (every import, at module level or inside a function), so
an import is caught whether or not a test happens to run it.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parents[1] / "harness"
ROOT = HARNESS.parent


def imports(path: Path, source: str | None = None, root: Path = ROOT) -> list[tuple[str, list[str]]]:
    """Every import statement of ``path`` (a file of a package under ``root``), at module
    level or in a function: ``import a.b`` as ``("a.b", [])``, ``from a import b, c`` as
    ``("a", ["b", "c"])``, relative imports resolved."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    text = path.read_text() if source is None else source
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.append((base, [alias.name for alias in node.names]))
    return found


def imported(path: Path, source: str | None = None) -> set[str]:
    """Every module ``path`` (a file of the package) imports: ``from a import b`` gives
    ``a`` and ``a.b``, relative imports resolved."""
    names: set[str] = set()
    for base, members in imports(path, source):
        names.add(base)
        names.update(f"{base}.{member}" for member in members)
    return names


def modules(package: str) -> list[Path]:
    return sorted((HARNESS / package).rglob("*.py"))


BOTTOM = ("harness.errors", "harness.options", "harness.plugins", "harness.files")
"""What any module may import: errors, options in names, plug-in loading, files written
whole (they import only errors)."""


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("path", modules("search"), ids=lambda p: p.name)
def test_the_search_imports_no_game_and_nothing_above_it(path: Path) -> None:
    """``harness.search`` imports itself, ``harness.games.base`` (the tree interface) and
    ``harness.errors``; no chess, no other tree, no drawing."""
    allowed = ("harness.search", "harness.games.base", *BOTTOM)
    bad = sorted(name for name in imported(path)
                 if (within(name, "harness") and not any(within(name, a) for a in allowed))
                 or within(name, "chess"))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


FOUNDATION = ("harness.results", "harness.lock", "harness.search", "harness.games", *BOTTOM)
"""What every layer above the games may import: the run folder's files, the search, the games."""
LAYERS = (
    ("harness.options", ("harness.errors",)),
    ("harness.plugins", ("harness.errors",)),
    ("harness.files", ("harness.errors",)),
    ("harness.moved", ()),
    ("harness.games.base", BOTTOM),
    ("harness.games.trees", ("harness.games.base", "harness.games.trees", *BOTTOM)),
    ("harness.games", ("harness.games", *BOTTOM)),
    ("harness.check", ("harness.check", "harness.games", "harness.search", *BOTTOM)),
    ("harness.suites", ("harness.suites", "harness.games", "harness.search", *BOTTOM)),
    ("harness.engines", ("harness.engines", "harness.games", *BOTTOM)),
    ("harness.report", ("harness.report", *FOUNDATION)),
    ("harness.run", ("harness.run", "harness.report", "harness.engines", *FOUNDATION)),
    ("harness.reproduce", ("harness.reproduce", "harness.run", "harness.report", *FOUNDATION)),
    ("harness.match", ("harness.match", "harness.run", "harness.report", "harness.engines",
                       *FOUNDATION)),
    ("harness.uci", ("harness.uci", "harness.match", "harness.run", "harness.report", *FOUNDATION)),
)
"""Each package (the first that matches a module) and what it may import of the harness:
the former names' finder nothing; the game interface nothing but errors; the synthetic and
explicit trees only it; a game other games, never the search (what plays games with the
search is above it: the self-test, ``check``, and the suite generators, ``suites``); the UCI
engines the games only (they talk to programs about chess positions, and a run and a
match use them); reports no run; runs no reproduction; the UCI engine (``harness uci``)
plays a match's moves; nothing but the command imports the command."""


def package_modules() -> list[Path]:
    return sorted(path for path in HARNESS.rglob("*.py")
                  if any(within(dotted(path), name) for name, _ in LAYERS))


def dotted(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("path", package_modules(), ids=lambda p: str(p.relative_to(HARNESS)))
def test_each_package_imports_only_downwards(path: Path) -> None:
    allowed = next(allowed for name, allowed in LAYERS if within(dotted(path), name))
    bad = sorted(name for name in imported(path)
                 if within(name, "harness") and name != "harness"
                 and not any(within(name, a) for a in allowed))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_checks_see_imports_inside_functions() -> None:
    code = "def f():\n    from ...search.run import MAX_DEPTH\n    import chess\n"
    found = imported(HARNESS / "games" / "trees" / "probe.py", code)
    assert {"harness.search.run", "harness.search.run.MAX_DEPTH", "chess"} <= found


def test_setup_names_only_search_modules_that_exist() -> None:
    """setup.py compiles every module of harness/search but those it keeps Python: each of
    those must exist (a renamed one would otherwise be compiled silently)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    kept = next(ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SEARCH_PYTHON"
                                                       for t in node.targets))
    present = {path.stem for path in (HARNESS / "search").glob("*.py")}
    assert set(kept) <= present
    assert {"core", "alphabeta", "trace"} <= present and "core" not in kept and "trace" in kept


HEAVY = ("pandas", "numpy", "matplotlib", "chess", "dask", "distributed", "pyspiel", "scipy")
"""Libraries only the commands that use them import (``harness --help`` must stay quick:
``benchmarks/startup.py`` times it)."""

_PROBE = """
import json, sys
from click.testing import CliRunner
from harness.cli import cli
commands, heavy = json.loads(sys.argv[1]), json.loads(sys.argv[2])
codes = [CliRunner().invoke(cli, args).exit_code for args in commands]
before = [m for m in heavy if m in sys.modules]
import harness.results  # the probe itself: a module that does use pandas
print(json.dumps({"codes": codes, "loaded": before, "after": [m for m in heavy if m in sys.modules]}))
"""


def test_help_and_the_listings_import_no_heavy_library() -> None:
    """``harness --help``, every command's ``--help``, ``harness games`` and ``harness
    variants``, in a fresh interpreter, load none of :data:`HEAVY` (lazy imports: in
    ``harness/__init__.py``, the command functions, the games' methods)."""
    from harness.cli import cli

    commands = [["--help"], ["games"], ["variants"], ["suites", "get", "--help"],
                ["suites", "generate", "--help"], *([name, "--help"] for name in cli.commands)]
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(commands), json.dumps(HEAVY)],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["codes"] == [0] * len(commands)
    assert found["loaded"] == []
    assert {"pandas", "numpy"} <= set(found["after"])      # the probe sees a heavy import


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


@pytest.mark.parametrize("path", sorted([*HARNESS.rglob("*.c"), *HARNESS.rglob("*.h")]),
                         ids=lambda p: str(p.relative_to(HARNESS)))
def test_c_includes_cross_no_layer(path: Path) -> None:
    """In C as in Python: a game includes nothing of the search; the search includes of the
    games only the tree protocol (``games/native_tree.h``, the C side of ``games/base.py``)."""
    for name in INCLUDE.findall(path.read_text()):
        target = (path.parent / name).resolve().relative_to(HARNESS.resolve())
        home, there = path.relative_to(HARNESS).parts[0], target.parts[0]
        if home == "games":
            assert there == "games", f"{path.relative_to(ROOT)} includes {name}"
        elif home == "search":
            assert there == "search" or target.as_posix() == "games/native_tree.h", \
                f"{path.relative_to(ROOT)} includes {name}"


def import_graph(folder: Path, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the package in ``folder`` and the modules of that package it imports
    (at module level or in a function), by dotted name. ``from a import b`` is the module
    ``a.b`` where there is one, else ``a`` itself (a name its ``__init__.py`` defines: that
    module is in the graph like any other); the packages an import only passes through are
    not (Python imports a parent first, whatever the order, so no cycle comes of it)."""
    paths = {dotted(path, root): path for path in sorted(folder.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found = set()
        for base, members in imports(path, root=root):
            for target in [f"{base}.{m}" if f"{base}.{m}" in paths else base for m in members] or [base]:
                while target and target not in paths:       # a module outside the package
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


PACKAGES = sorted(path.name for path in HARNESS.iterdir()
                  if path.is_dir() and (path / "__init__.py").exists())


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_a_package(package: str) -> None:
    assert cycles(import_graph(HARNESS / package)) == []


def test_no_import_cycle_across_the_packages_either() -> None:
    """The whole of ``harness`` at once: the top-level modules (``cli.py``, ``results.py``,
    ...) and any circle the layers would allow between packages of one layer."""
    assert cycles(import_graph(HARNESS)) == []


def test_the_cycle_check_sees_a_cycle_through_a_package_init(tmp_path: Path) -> None:
    """A package's ``__init__.py`` that imports a module which, in a function, imports a
    name the ``__init__.py`` defines is a cycle; a module importing its sibling through
    the package (``from pkg import sibling``) is not one with the package."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.a import f\nLIMIT = 3\n")
    (package / "a.py").write_text("def f():\n    from pkg import LIMIT\n    return LIMIT\n")
    (package / "b.py").write_text("from pkg import a\nfrom . import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    graph = import_graph(package, tmp_path)
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg"}, "pkg.b": {"pkg.a", "pkg.c"}, "pkg.c": {"pkg.a"}}
    assert cycles(graph) == [["pkg", "pkg.a"]]


def test_the_cycle_check_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
