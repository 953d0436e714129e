"""``harness check GAME:SPEC``, the games' self-test: each bug planted in a copy of Connect
Four (``tests/planted.py``), and a variant with one, is found and named with the moves that
reproduce it; every built-in game and both example plug-ins pass."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Sequence
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner, Result

from harness.check.game import (
    KINDS,
    CheckOptions,
    Finding,
    RootedTree,
    check_game,
    path_text,
    reach,
    self_test,
)
from harness.cli import cli
from harness.errors import HarnessError
from harness.games import registry
from harness.games.base import Move, Tree
from harness.games.chess.tree import ChessTree
from harness.search import registry as variants
from harness.search.core import Search
from harness.search.registry import Variant, make_spec
from harness.search.run import Switches, run_search

from .conftest import DATA, harness_installed_with, pip_install_into
from .planted import BUGS, GAMES

SMALL = "start,width=4,height=4"
"""Connect Four on a 4x4 board from the empty board: every line ends within 16 plies."""
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted games registered beside the built-in ones."""
    monkeypatch.setattr(registry, "GAMES", [*registry.GAMES, *GAMES])


def check(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", *args])


def replay(tree: Tree, path: Sequence[str]) -> None:
    """Play the moves ``path`` names from the root of ``tree``."""
    for name in path:
        tree.push(next(m for m in tree.moves() if tree.move_name(m) == name))


def fresh_tree(game: str, path: Sequence[str]) -> Tree:
    problem = registry.load_problems(f"{game}:{SMALL}").problems[0]
    tree = registry.find_game(game).tree(problem)
    replay(tree, path)
    return tree


@pytest.mark.parametrize("bug", BUGS)
def test_each_planted_bug_is_found_with_a_path(planted: None, bug: str) -> None:
    kind = BUGS[bug][1]
    findings = check_game(f"planted-{bug}:{SMALL}", playouts=10)
    assert findings and all(f.kind in KINDS for f in findings)
    named = [f for f in findings if f.kind == kind]
    assert named, [str(f) for f in findings]
    first = named[0]
    assert first.problem == f"planted-{bug}:{SMALL} start"
    assert str(first).startswith(f"planted-{bug}:{SMALL} start: {kind}: ")
    assert str(first).endswith(f"({' and '.join(path_text(p) for p in first.paths)})")
    assert "\n" not in str(first)


def test_the_paths_reproduce_what_they_report(planted: None) -> None:
    sign = next(f for f in check_game(f"planted-sign:{SMALL}", playouts=10) if f.kind == "end")
    tree = fresh_tree("planted-sign", sign.paths[0])
    assert not tree.moves() and tree.terminal_value() == -tree.value() != 0
    key = next(f for f in check_game(f"planted-key:{SMALL}", playouts=10) if f.kind == "key")
    one, other = (fresh_tree("planted-key", path) for path in key.paths)
    assert len(key.paths) == 2 and key.paths[0] != key.paths[1]
    assert one.key() == other.key()
    assert sorted(map(one.move_name, one.moves())) != sorted(map(other.move_name, other.moves()))
    out = next(f for f in check_game(f"planted-range:{SMALL}", playouts=10) if f.kind == "range")
    tree = fresh_tree("planted-range", out.paths[0])
    low, high = tree.value_range()  # type: ignore[attr-defined]
    assert not low <= tree.value() <= high


def test_a_shared_key_shows_in_the_text_where_the_tree_has_one(planted: None) -> None:
    texts = [f for f in check_game(f"planted-text:{SMALL}", playouts=10) if f.kind == "key"]
    assert texts and all(f.message.endswith("text") for f in texts)
    assert any(f.message.endswith(": different text") for f in texts)   # nothing else differs


def test_pop_and_moves_bugs_name_the_move_at_fault(planted: None) -> None:
    pop = check_game(f"planted-pop:{SMALL}")
    assert [(f.kind, f.message, f.paths) for f in pop] == [
        ("push-pop", "after child_value(4) the key changed", ((),))]   # column 4 never comes back
    moves = check_game(f"planted-shuffle:{SMALL}")
    assert moves[0].kind == "moves" and moves[0].message.startswith("moves() gave [")
    assert moves[0].paths == ((),)


def test_a_crash_is_a_finding_and_the_check_stops_at_the_most_findings(planted: None) -> None:
    crash = check_game(f"planted-crash:{SMALL}", walk_depth=5)
    assert [f.kind for f in crash] == ["error"]
    # Connect Four's child_value pushes, reads value() and pops: at the parent, four stones.
    assert crash[0].message == "child_value() raised ValueError: five stones"
    assert len(crash[0].paths[0]) == 4
    report = self_test(f"planted-key:{SMALL}", CheckOptions(playouts=10, max_findings=3))
    assert len(report.findings) == 3 and report.stopped
    assert report.summary()[-1] == "3 findings (the most asked for: the check stopped there)"


def test_a_clean_twin_and_a_declared_player(planted: None) -> None:
    report = self_test(f"planted-none:{SMALL}", CheckOptions(playouts=10))
    assert report.findings == () and not report.turns and report.ends > 0
    player = self_test(f"planted-player:{SMALL}", CheckOptions(playouts=10))
    assert player.findings == () and player.turns
    assert "turns     player() changes with every move" in player.summary()


def skip_last(s: Search, moves: Sequence[Move], depth: int, alpha: int,
              beta: int) -> tuple[int, int, Move | None]:
    """Fail-hard alpha-beta that never tries the last move (when there are two or more)."""
    kept = list(moves[:-1]) or list(moves)
    best: Move | None = None
    for i, move in enumerate(kept):
        value = -s.child(skip_last, move, depth - 1, -beta, -alpha)
        if value >= beta:
            return beta, i, move
        if value > alpha:
            alpha, best = value, move
    return alpha, len(kept) - 1, best


def test_a_variant_that_disagrees_is_reported_once_with_its_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    broken = Variant("skip-last", "alpha-beta that never tries the last move", "a test",
                     loop=lambda options: skip_last)
    monkeypatch.setattr(variants, "VARIANTS", [*variants.VARIANTS, broken])
    spec = "random:b=3,d=4,n=1"
    findings = check_game(spec, playouts=5, variants="alphabeta,skip-last,belle")
    assert {f.kind for f in findings} == {"search"}
    assert len(findings) == 2                      # the first position, without and with a table
    first, tabled = findings
    assert first.message.startswith("skip-last disagrees with minimax at depth 3: minimax ")
    assert tabled.message.startswith("skip-last disagrees with minimax at depth 3 with a table "
                                     "of 65,536 entries: minimax ")
    problem = registry.load_problems(spec).problems[0]
    tree = RootedTree(registry.find_game("random").tree(problem), first.paths[0])
    answers = {run_search(tree, make_spec(name), 3).score for name in ("minimax", "skip-last")}
    assert len(answers) == 2
    result = check(spec, "--playouts", "5", "--variants", "alphabeta,skip-last")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == str(first)
    assert "2 findings" in result.output.splitlines()[-1]


@pytest.mark.parametrize("bug", BUGS)
def test_the_command_exits_1_naming_the_bug_and_a_path(planted: None, bug: str) -> None:
    result = check(f"planted-{bug}:{SMALL}", "--playouts", "10", "--max-findings", "3")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    found = [line for line in lines if line.startswith(f"planted-{bug}:")]
    assert any(f": {BUGS[bug][1]}: " in line and ("(after " in line or "(at the root" in line)
               for line in found), result.output
    assert lines[-1].startswith(f"{len(found)} finding")


def test_a_clean_game_prints_what_was_checked_and_exits_0() -> None:
    result = check(f"connect4:{SMALL}", "--playouts", "4", "--seed", "7")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"checked   connect4:{SMALL}: 1 problem, 4 playouts"
    assert re.fullmatch(r"positions [\d,]+ checked \([\d,]+ keys\), every move tried from "
                        r"[\d,]+ of them", lines[1])
    assert lines[4].startswith("searches  ") and "compared with minimax" in lines[4]
    assert "without and with a table of 65,536 entries" in lines[4]
    assert lines[5].startswith("variants  minimax, alphabeta,") and "belle" in lines[5]
    assert lines[-1] == "clean: no inconsistency found"


def test_the_same_seed_checks_the_same_positions() -> None:
    one, two, other = (self_test(f"connect4:{SMALL}",
                                 CheckOptions(playouts=6, seed=seed, variants="alphabeta"))
                       for seed in (1, 1, 2))
    assert one == two
    assert (one.positions, one.keys) != (other.positions, other.keys)


@pytest.mark.parametrize("spec,options", [
    pytest.param("random:b=3,d=4,n=2", {}, id="random"),
    pytest.param(f"tree:{DATA / 'textbook.json'}", {}, id="tree-file"),
    pytest.param("connect4:4453,order=centre,anticipate=0", {"playouts": 4}, id="connect4"),
    pytest.param(f"connect4:{SMALL}", {"depth": 4, "playouts": 4}, id="connect4-4x4"),
    pytest.param("chess:bench.epd", {"limit": 2, "depth": 2, "playouts": 2, "samples": 1},
                 id="chess"),
    pytest.param("othello:phases.txt", {"limit": 3, "playouts": 4}, id="othello"),
    pytest.param("checkers:suite.txt", {"limit": 3, "depth": 4, "playouts": 3}, id="checkers"),
])
def test_every_built_in_game_passes(spec: str, options: dict[str, int]) -> None:
    report = self_test(spec, CheckOptions(**options))
    assert report.findings == (), [str(f) for f in report.findings]
    assert report.positions > report.problems and report.searches > 0
    assert report.searched >= report.problems


def test_openspiel_passes() -> None:
    if importlib.util.find_spec("pyspiel") is None:
        pytest.skip("OpenSpiel (pyspiel) is not installed")
    report = self_test("openspiel:tic_tac_toe", CheckOptions(playouts=5))
    assert report.findings == () and report.ends > 0 and report.searches > 0


def test_a_search_a_deeper_table_entry_decided_is_left_out() -> None:
    """King and queen against king: within 4 plies no position is met at two plies, so a
    table answers as minimax; at depth 6 a deeper entry changes alpha-beta's score (993, not
    990), and the frame counts it."""
    tree = ChessTree(chess.Board("8/2k5/8/8/8/8/5K2/4Q3 w - - 0 1"))
    assert reach(tree, 6) == 6
    four = run_search(tree, make_spec("alphabeta"), 4, Switches(tt_size=1 << 16, iterative_deepening=True))
    assert four.counters["tt_deep_cutoffs"] == 0
    plain = run_search(tree, make_spec("alphabeta"), 6).score
    tabled = run_search(tree, make_spec("alphabeta"), 6,
                        Switches(tt_size=1 << 16, iterative_deepening=True))
    assert (plain, tabled.score) == (990, 993) and tabled.counters["tt_deep_cutoffs"] > 0


def test_a_position_met_at_two_plies_is_compared_unless_a_deeper_entry_decided_it(
        tmp_path: Path) -> None:
    epd = tmp_path / "kk.epd"
    epd.write_text('8/8/8/4k3/8/8/4K3/8 w - - id "kk";\n')
    report = self_test(f"chess:{epd}", CheckOptions(depth=5, playouts=0, variants="alphabeta,mtdf"))
    assert report.findings == () and report.searched == 1
    # alphabeta and mtdf (its own table) with no table switched on, then both with one:
    # only alphabeta without a table escapes the kings' shuffles met at two plies.
    assert (report.searches, report.untabled) == (1, 3)
    assert f"; {report.untabled} with a table left out (a deeper entry decided them)" in \
        report.summary()[4]


def test_a_finding_is_a_frozen_value() -> None:
    finding = Finding("key", "g:s 1", "two positions share key 5: different value",
                      (("1", "2"), ("2", "1")))
    assert str(finding) == ("g:s 1: key: two positions share key 5: different value "
                            "(after 1 2 and after 2 1)")
    with pytest.raises(AttributeError):
        finding.kind = "moves"  # type: ignore[misc]


@pytest.mark.parametrize("args,line", [
    (["nosuch:x"], "unknown game 'nosuch'"),
    (["connect4:9"], "connect4:9: "),
    (["random:b=2,d=2", "--depth", "101"], "check: depth 101 is deeper than the harness searches"),
    (["random:b=2,d=2", "--variants", "pvz"], "unknown variant 'pvz'"),
    (["random:b=2,d=2", "--depth", "0"], "--depth"),
    (["random:b=2,d=2", "--playouts", "-1"], "--playouts"),
])
def test_bad_input_is_one_line_exit_2(args: list[str], line: str) -> None:
    result = check(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1 and line in result.stderr


def test_bad_options_of_the_library_are_one_line_errors() -> None:
    with pytest.raises(HarnessError, match=r"^unknown game 'nosuch'"):
        check_game("nosuch:x")
    with pytest.raises(HarnessError, match=r"^check: playouts must not be negative, not -1$"):
        check_game("random:b=2,d=2", playouts=-1)


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both example plug-ins installed (by pip, from their own pyprojects) into a folder."""
    site = tmp_path_factory.mktemp("site")
    pip_install_into(site, EXAMPLES / "harness-nim")
    return pip_install_into(site, EXAMPLES / "harness-reverse-alphabeta")


def test_the_example_plugins_pass_and_their_variants_are_compared(examples: Path) -> None:
    nim = harness_installed_with(examples, "check", "nim:3-4-5", "--playouts", "5")
    assert nim.returncode == 0, nim.stdout + nim.stderr
    lines = nim.stdout.splitlines()
    assert lines[0] == "checked   nim:3-4-5: 1 problem, 5 playouts"
    listed = next(line for line in lines if line.startswith("variants  ")).split(", ")
    assert {"alphabeta-shallow", "reverse-alphabeta"} <= set(listed)
    assert lines[-1] == "clean: no inconsistency found"
    trees = harness_installed_with(examples, "check", "random:b=3,d=3", "--variants",
                                   "reverse-alphabeta", "--playouts", "2")
    assert trees.returncode == 0, trees.stdout + trees.stderr
    assert "variants  reverse-alphabeta" in trees.stdout
