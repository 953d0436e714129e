"""The search core compiled with mypyc counts exactly as its source does.

Each check runs in a fresh process, once as installed (compiled where a compiler was
found) and once with ``HARNESS_PURE_PYTHON=1`` (the source), and compares everything the
searches report: every variant, on synthetic trees and on chess positions, with the
shared enhancements switched on in turn, on Othello and checkers positions with their
killers and history, and a trace.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.games.chess.suite_files import project_positions
from harness.search import VARIANTS, compiled

from .conftest import can_compile

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, sys
from harness.games.chess.epd import load_suite
from harness.search import VARIANTS, Switches, make_spec, run_search
from harness.search.compiled import compiled_in_use
from harness.search.trace import totals
from harness.games.trees import generate_tree, parse_spec
from harness.games.chess.tree import ChessTree, Ordering

out = {"compiled": compiled_in_use(), "runs": []}
def record(tree, name, depth, switches, trace=False):
    r = run_search(tree, make_spec(name), depth, switches, trace=trace)
    out["runs"].append([name, depth, str(switches), r.score, r.bound, r.best_move, r.pv, r.status,
                        r.counters, None if r.trace is None else totals(r.trace)])
spec = parse_spec("random:b=2-5,d=5,n=3,seed=5,ordering=0.7,values=incremental,range=30")
for index in range(spec.count):
    tree = generate_tree(spec, index)
    for variant in VARIANTS:
        for switches in (Switches(), Switches(tt_size=256, iterative_deepening=True)):
            record(tree, variant.name, 4, switches)
    record(tree, "pvs", 3, Switches(), trace=True)
boards = [p.board() for p in load_suite(sys.argv[1]).positions[:3]]
chess_switches = ((Ordering(), Switches()),
                  (Ordering(killers=True, history=True), Switches(tt_size=4096)),
                  (Ordering(), Switches(null_move=2, check_extension=True, iterative_deepening=True)))
# Each position with one set of switches: every set, every position, a third of the searches.
for board, (ordering, switches) in zip(boards, chess_switches, strict=True):
    for variant in VARIANTS:
        record(ChessTree(board.copy(), ordering), variant.name, 2, switches)
# Othello's and checkers' Python trees with killers and history (dynamic_order.py): what
# the frame's cutoff teaches them orders the next nodes, in both cores alike.
from harness.games.registry import load_problems
from harness.games.othello.game import read_position
from harness.games.othello.tree import OthelloTree
from harness.games.checkers.board import parse_fen
from harness.games.checkers.tree import CheckersTree
learning = Switches(tt_size=256, iterative_deepening=True)
for problem in list(load_problems("othello:phases.txt").problems)[5:25:10]:
    for variant in VARIANTS:
        record(OthelloTree(read_position(problem.position)[0], True, True), variant.name, 3, learning)
for problem in list(load_problems("checkers:suite.txt").problems)[:2]:
    for variant in VARIANTS:
        record(CheckersTree(parse_fen(problem.position.split()[0]), True, True), variant.name, 4,
               learning)
print(json.dumps(out))
"""


def searches(pure: bool) -> dict[str, object]:
    env = {key: value for key, value in os.environ.items() if key != "HARNESS_PURE_PYTHON"}
    if pure:
        env["HARNESS_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(project_positions() / "bench.epd")],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_and_source_cores_report_the_same() -> None:
    source = searches(pure=True)
    installed = searches(pure=False)
    assert source["compiled"] is False
    assert installed["compiled"] is compiled.compiled_in_use()
    assert len(source["runs"]) == (3 * (2 * len(VARIANTS) + 1) + 3 * len(VARIANTS)  # type: ignore[arg-type]
                                   + 4 * len(VARIANTS))
    assert installed["runs"] == source["runs"]


def test_the_core_is_compiled_where_a_compiler_is() -> None:
    if can_compile() and not os.environ.get("HARNESS_PURE_PYTHON"):
        assert compiled.compiled_in_use()


def test_builds_are_found_beside_their_sources_and_checked_against_the_record(tmp_path: Path) -> None:
    suffix = compiled.importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in ("core", "pvs", "table"):
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
        (tmp_path / f"{name}{suffix}").write_bytes(b"")
    (tmp_path / f"native__mypyc{suffix}").write_bytes(b"")   # mypyc's shared library: no source
    (tmp_path / "drivers.py").write_text("")                  # not compiled
    built = compiled.compiled_modules(tmp_path)
    assert sorted(built) == ["core", "pvs", "table"]
    assert compiled.stale_sources(built, tmp_path) == ["core", "pvs", "table"]   # no record
    record = {name: hashlib.sha256(f"# {name}\n".encode()).hexdigest() for name in ("core", "pvs")}
    (tmp_path / compiled.RECORD).write_text(json.dumps(record))
    (tmp_path / "pvs.py").write_text("# pvs, edited\n")
    assert compiled.stale_sources(built, tmp_path) == ["pvs", "table"]


def test_the_source_finder_loads_only_the_named_modules() -> None:
    finder = compiled.SourceFinder(["core"])
    spec = finder.find_spec("harness.search.core", None)
    assert spec is not None and spec.origin == str(compiled.HERE / "core.py")
    assert finder.find_spec("harness.search.registry", None) is None


def _core_in_a_copy(tmp_path: Path, change: Callable[[Path], None]) -> tuple[list[str], str]:
    """Copy the installed package (builds included), ``change`` its ``harness/search``,
    import it in a fresh process: what it prints (whether the core is compiled, the
    file ``core`` came from) and its warnings."""
    copy = tmp_path / "harness"
    shutil.copytree(ROOT / "harness", copy, ignore=shutil.ignore_patterns("__pycache__"))
    change(copy / "search")
    code = ("import warnings; warnings.simplefilter('always');"
            "from harness.search.compiled import compiled_in_use; import harness.search.core as c;"
            "print(compiled_in_use(), c.__file__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)}, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split(), done.stderr


def _edit_pvs(search: Path) -> None:
    with (search / "pvs.py").open("a") as source:
        source.write("\n")


def _drop_shared_library(search: Path) -> None:
    for library in search.glob(f"{compiled.SHARED_LIBRARY}.*"):
        library.unlink()


@pytest.mark.skipif(not compiled.compiled_in_use(), reason="the search core is not compiled here")
def test_an_edited_source_runs_instead_of_its_stale_build(tmp_path: Path) -> None:
    printed, warned = _core_in_a_copy(tmp_path, _edit_pvs)
    assert printed == ["False", str(tmp_path / "harness" / "search" / "core.py")]
    assert "(harness/search/pvs.py: edited since" in warned


@pytest.mark.skipif(not compiled.compiled_in_use(), reason="the search core is not compiled here")
def test_a_build_without_its_shared_library_runs_the_source(tmp_path: Path) -> None:
    printed, warned = _core_in_a_copy(tmp_path, _drop_shared_library)
    assert printed == ["False", str(tmp_path / "harness" / "search" / "core.py")]
    assert "the build is incomplete" in warned


def test_an_unchanged_copy_runs_what_this_process_runs(tmp_path: Path) -> None:
    printed, warned = _core_in_a_copy(tmp_path, lambda search: None)
    assert printed[0] == str(compiled.compiled_in_use())
    assert "does not match its source" not in warned
