"""Bad input, command by command (issue 16): exit code 2, one line on stderr naming the file,
line or option at fault, never a traceback, and no run folder started for nothing.

Every case must fail before anything is searched or measured, so each takes well under a
second (the one exception, ``suites generate`` into a folder inside a file, plays one game
before it writes).
"""

from __future__ import annotations

import csv
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from harness.cli import cli
from harness.command_line import OneLineUsage

TALL = 150
"""Height of ``tall.json``: loads, but deeper than any search goes (MAX_DEPTH is 100)."""

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
OTHELLO = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder of bad (and a few good) inputs shared by every case; no case writes in it."""
    d = tmp_path_factory.mktemp("inputs")
    files = {
        "afile": "not a folder\n",
        "bad.json": "[[1, 2], [3,",
        "leaf.json": "5",
        "strings.json": '[[1, "a"]]',
        "emptychild.json": "[[1], []]",
        "shallow.json": "[[1, 2], [3, 4]]",
        "good.json": "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]",
        "deep2k.json": "[" * 2_000 + "1" + "]" * 2_000,
        "deep20k.json": "[" * 20_000 + "1" + "]" * 20_000,
        "tall.json": "[" * TALL + "1" + "]" * TALL,
        "garbage.epd": "not a position\n",
        "allbad.epd": "garbage one\n# a comment\ngarbage two\n",
        "empty.epd": "# only a comment\n",
        "twice.epd": f'{START} id "a";\n{START} id "a";\n',
        "good.epd": f'{START} id "start";\n',
        "notfen.perft": "not a fen ;D1 20\n",
        "field.perft": f"{START} ;D1 20 ;D2 four hundred\n",
        "nocounts.perft": f"{START}\n",
        "twice.perft": f"{START} ;D1 20 ;D1 20\n",
        "kings.perft": "4k3/8/8/8/8/8/8/K3K3 w - - 0 1 ;D1 5\n",
        "counts.epd": f'{START} D1 20; D2 "four hundred";\n',
        "wac.epd": f'{START} id "WAC.001";\n',      # far too short for a confirmation
        "othello.txt": f"{OTHELLO}\n{OTHELLO[:-1]}Z\n",
        "othello2.txt": f"{OTHELLO}\n{OTHELLO}\n",
        "checkers-notfen.txt": "B:W21,22\n",
        "checkers-square.txt": "# a comment\nB:W21,33:B1\n",
        "checkers-twice.txt": "B:W21,22:B1,22\n",
        "checkers-crowned.txt": "W:W21:B1,30\n",
        "checkers-value.txt": "B:W21:B1 lots\n",
        "checkers-over.txt": "W:W:B1,2\n",
        "checkers-again.txt": "B:W21:B1\nB:W21:B1. 3\n",
        "checkers-empty.txt": "# nothing\n",
    }
    for name, text in files.items():
        (d / name).write_text(text)
    (d / "latin.json").write_bytes(b"[[1, 2],\n [3, 4]] # caf\xe9")
    (d / "latin.epd").write_bytes(f'{START} id "a";\n'.encode() + b"# caf\xe9\n")
    (d / "emptydir").mkdir()
    (d / "damaged").mkdir()
    (d / "damaged" / "run.json").write_text("{not json")
    result = CliRunner().invoke(cli, ["run", "--trees", "random:b=2,d=2,n=1", "--variants",
                                      "alphabeta,pvs", "--no-progress", "--out", str(d / "run")])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["run", "--trees", "random:b=2,d=2,n=1,seed=5", "--variants",
                                      "alphabeta", "--no-progress", "--out", str(d / "other")])
    assert result.exit_code == 0, result.output
    for name, change in BAD_ROWS.items():
        shutil.copytree(d / "run", d / name)
        change(d / name / "results.csv")
    return d


def edit_rows(path: Path, change: Callable[[list[dict[str, str]]], None]) -> None:
    """Rewrite the ``results.csv`` at ``path`` with ``change`` applied to its rows."""
    with path.open(newline="") as file:
        reader = csv.DictReader(file)
        columns, rows = list(reader.fieldnames or ()), list(reader)
    change(rows)
    with path.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def set_field(index: int, column: str, value: str) -> Callable[[Path], None]:
    """Set ``column`` of row ``index`` (0: the file's line 2) to ``value``."""
    def change(rows: list[dict[str, str]]) -> None:
        rows[index][column] = value
    return lambda path: edit_rows(path, change)


BAD_ROWS: dict[str, Callable[[Path], None]] = {
    "twice": lambda path: edit_rows(path, lambda rows: rows.append(dict(rows[0]))),
    "negative": set_field(1, "nodes", "-5"),
    "stranger": set_field(0, "variant", "pvz"),
    "underground": set_field(1, "depth", "-1"),
    "nowhere": set_field(0, "suite", "elsewhere"),
}
"""Run folders whose ``results.csv`` holds a row that cannot be right (line 2: the first
row; the fixture's run has two, alphabeta and pvs at depth 2): every command that reads
rows refuses them, naming file, line and field."""


def invoke(args: list[str], inputs: Path, out: Path) -> Result:
    """Run the CLI in-process with ``{d}`` (the inputs) and ``{out}`` filled in; suites are
    looked up only in the inputs (and the project's own), whatever the environment says."""
    argv = [arg.format(d=inputs, out=out) for arg in args]
    runner = CliRunner(env={"HARNESS_SUITES": str(inputs)})
    return runner.invoke(cli, argv)


def assert_one_line(result: Result, names: str) -> None:
    """Exit code 2 by a clean exit, exactly one non-empty line on stderr (``Error: ...``,
    naming ``names``; ``names$``: ending with it), nothing on stdout, no traceback anywhere."""
    everything = result.output + result.stderr
    assert "Traceback" not in everything, everything
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, everything
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), lines[0]
    if names.endswith("$"):
        assert lines[0].endswith(names[:-1]), lines[0]
    else:
        assert names in lines[0], lines[0]
    assert result.stdout == ""


NEEDS_DASK = pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                reason="needs the Dask extra")

TREES = ["--trees", "random:b=2,d=2,n=1"]
RUN = ["run", "--variants", "alphabeta", "--no-progress", "--out", "{out}"]
CMP = ["compare", "alphabeta", "pvs", "--no-progress", "--out", "{out}"]
TREE = ["tree", "--variant", "pvs"]
MATCH = ["match", "--no-progress", "--out", "{out}"]

CASES = [
    # run: tree files
    pytest.param([*RUN, "--tree", "{d}/missing.json"], "{d}/missing.json: cannot read",
                 id="run-missing-tree"),
    pytest.param([*RUN, "--tree", "{d}/emptydir"], "{d}/emptydir: cannot read", id="run-tree-is-folder"),
    pytest.param([*RUN, "--tree", "{d}/bad.json"], "{d}/bad.json:1:13: invalid JSON", id="run-bad-json"),
    pytest.param([*RUN, "--tree", "{d}/strings.json"], "{d}/strings.json: tree[0][1]: leaf value",
                 id="run-string-leaf"),
    pytest.param([*RUN, "--tree", "{d}/emptychild.json"], "{d}/emptychild.json: tree[1]: empty child",
                 id="run-empty-child-list"),
    pytest.param([*RUN, "--tree", "{d}/leaf.json"], "{d}/leaf.json: the tree is a single leaf",
                 id="run-single-leaf"),
    pytest.param([*RUN, "--tree", "{d}/latin.json"], "{d}/latin.json:2: not UTF-8 text",
                 id="run-not-utf8-tree"),
    pytest.param([*RUN, "--tree", "{d}/deep2k.json"], "{d}/deep2k.json: nested 2,000 deep",
                 id="run-nested-2000"),
    pytest.param([*RUN, "--tree", "{d}/deep20k.json"], "{d}/deep20k.json: nested 20,000 deep",
                 id="run-nested-20000"),
    pytest.param([*RUN, "--tree", "{d}/tall.json"], f"{{d}}/tall.json: the tree's height, {TALL},",
                 id="run-tree-taller-than-any-search"),
    pytest.param([*RUN, "--tree", "{d}/shallow.json", "--depth", "1"],
                 "{d}/shallow.json: depth 1 puts the horizon", id="run-horizon-without-values"),
    pytest.param([*RUN, "--tree", "{d}/good.json", "--tree", "{d}/./good.json"],
                 "two problem sets are called good.json", id="run-same-tree-twice"),
    # run: synthetic specs
    pytest.param([*RUN, "--trees", "random:b=2,d=2,q=1"], "unknown option 'q'", id="run-spec-unknown-key"),
    pytest.param([*RUN, "--trees", "nonsense"], "--trees 'nonsense': not random:", id="run-spec-no-kind"),
    pytest.param([*RUN, "--trees", "random:b=40,d=9"], "the limit is", id="run-spec-too-big"),
    pytest.param([*RUN, "--trees", "random:b=1,d=150"], "d=150, the trees' height",
                 id="run-spec-deeper-than-any-search"),
    pytest.param([*RUN, *TREES, *TREES], "two problem sets are called", id="run-same-spec-twice"),
    pytest.param([*RUN, *TREES, "--tt-leaves"], "--tt-leaves needs a table: give --tt SIZE",
                 id="run-tt-leaves-without-table"),
    pytest.param([*RUN, *TREES, "--window", "1"], "--window '1' is not LO,HI", id="run-window-one-number"),
    pytest.param([*RUN, *TREES, "--window", "2,1"], "--window 2,1: needs LO < HI", id="run-window-empty"),
    pytest.param([*RUN, *TREES, "--window", "a,b"], "--window 'a,b' is not LO,HI",
                 id="run-window-not-numbers"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-notfen.txt"],
                 "{d}/checkers-notfen.txt:1: 'B:W21,22' is not a FEN", id="run-checkers-not-fen"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-square.txt"],
                 "{d}/checkers-square.txt:2: '33': squares are 1 to 32", id="run-checkers-square"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-twice.txt"],
                 "{d}/checkers-twice.txt:1: square 22 is given twice", id="run-checkers-square-twice"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-crowned.txt"],
                 "{d}/checkers-crowned.txt:1: a black man on square 30, its crowning row",
                 id="run-checkers-uncrowned-man"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-value.txt"],
                 "{d}/checkers-value.txt:1: value 'lots' is not an integer", id="run-checkers-value"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-over.txt"],
                 "{d}/checkers-over.txt:1: the side to move has no move", id="run-checkers-game-over"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-again.txt"],
                 "{d}/checkers-again.txt:2: the position of line 1 again", id="run-checkers-duplicate"),
    pytest.param([*RUN, "--problems", "checkers:{d}/checkers-empty.txt"],
                 "{d}/checkers-empty.txt: no positions", id="run-checkers-no-positions"),
    pytest.param([*RUN, "--problems", "checkers:nowhere.txt"],
                 "checkers:nowhere.txt: no such file, and not start", id="run-checkers-no-file"),
    pytest.param([*RUN, "--problems", "checkers:start,tree=fast"],
                 "option tree='fast' is not one of: auto, compiled, python", id="run-checkers-tree"),
    pytest.param([*RUN, "--problems", "connect4:18"], "connect4:18: move 2: '8' is not a column",
                 id="run-connect4-column-off-the-board"),
    pytest.param([*RUN, "--problems", "connect4:4,width=3"], "option width='3' must be at least 4",
                 id="run-connect4-board-too-small"),
    pytest.param([*RUN, "--problems", "connect4:4,order=diagonal"],
                 "option order='diagonal' is not one of: centre, left, threats",
                 id="run-connect4-unknown-order"),
    pytest.param([*RUN, "--problems", "connect4:4,anticipate=maybe"],
                 "option anticipate='maybe' is not a boolean", id="run-connect4-anticipate-not-boolean"),
    pytest.param([*RUN, "--problems", "connect4:4", "--variants", "mtd-pons:max_passes=0"],
                 "variant 'mtd-pons': option max_passes='0' must be at least 1",
                 id="run-mtd-pons-no-passes"),
    pytest.param([*RUN, "--problems", "othello:{d}/othello.txt", "--depth", "2"],
                 "{d}/othello.txt:2: side to move 'Z' is not X or O", id="run-othello-bad-side"),
    pytest.param([*RUN, "--problems", "othello:{d}/othello2.txt", "--depth", "2"],
                 "{d}/othello2.txt:2: the position of line 1 again", id="run-othello-same-position"),
    pytest.param([*RUN, "--problems", "othello:{d}/good.json"],
                 "{d}/good.json:1: expected 64 squares, the side to move and optionally a value, "
                 "found 9 fields", id="run-othello-not-a-position"),
    pytest.param([*RUN, "--problems", "othello:nowhere.txt"],
                 "othello:nowhere.txt: no such file, and not start or a suite the project ships",
                 id="run-othello-no-such-suite"),
    # run: problems named GAME:SPEC
    pytest.param([*RUN, "--problems", "bench.epd"], "--problems 'bench.epd': not GAME:SPEC",
                 id="run-problems-without-game"),
    pytest.param([*RUN, "--problems", "chest:bench.epd"], "unknown game 'chest' (did you mean 'chess'",
                 id="run-problems-unknown-game"),
    pytest.param([*RUN, "--problems", "chess:bench.epd,bogus=1"],
                 "chess:bench.epd,bogus=1: unknown option 'bogus' (valid: mvv_lva, killers, history, "
                 "qsee, delta, qchecks, repetition, tree)",
                 id="run-problems-unknown-option"),
    pytest.param([*RUN, "--problems", "chess:bench.epd,tree=c"],
                 "option tree='c' is not one of: auto, compiled, python", id="run-chess-unknown-tree"),
    pytest.param([*RUN, "--problems", "chess:bench.epd,killers=2"], "option killers='2' is not a boolean",
                 id="run-problems-bad-option-value"),
    pytest.param([*RUN, "--problems", "random:b=2,d=2,fig.json"], "'fig.json' is not key=value",
                 id="run-problems-random-with-a-file"),
    pytest.param([*RUN, "--problems", "tree:{d}/missing.json"], "{d}/missing.json",
                 id="run-problems-no-tree-file"),
    *(pytest.param([*RUN, *given], "chess: which suite? a chess set needs an EPD file name",
                   id=f"run-chess-without-a-file-{name}")
      for name, given in (("problems", ["--problems", "chess:"]), ("suite", ["--suite", ""]),
                          ("options-only", ["--problems", "chess:,killers=1"]))),
    pytest.param(["check", "chess:"], "chess: which suite?", id="check-chess-without-a-file"),
    pytest.param([*RUN, "--problems", "openspiel:"], "openspiel: which game?",
                 id="run-problems-openspiel-no-game"),
    pytest.param([*RUN, "--problems", "openspiel:tic_tac_toe,moves=4 x"], "are not action numbers",
                 id="run-problems-openspiel-bad-moves"),
    pytest.param([*RUN, "--problems", "openspiel:tic_tac_toe,moves=4 4"], "action 4 is not legal",
                 id="run-problems-openspiel-illegal-move"),
    pytest.param([*RUN, "--problems", "openspiel:othello"],
                 "openspiel:othello: the game's length, 128 plies, is the depth searched without --depth",
                 id="run-problems-openspiel-longer-than-any-search"),
    pytest.param([*RUN, "--problems", "openspiel:tic_tac_toe(foo=1)"],
                 "openspiel: game 'tic_tac_toe(foo=1)': Unknown parameter 'foo'",
                 id="run-problems-openspiel-unknown-parameter"),
    pytest.param([*RUN, "--problems", "openspiel:tic_tac_toe(("],
                 "openspiel: game 'tic_tac_toe((': Missing closing bracket ')'.",
                 id="run-problems-openspiel-unparsable"),
    pytest.param([*RUN, "--problems", "openspiel:backgammon"],
                 "game 'backgammon()' cannot be searched: it has chance events",
                 id="run-problems-openspiel-chance"),
    pytest.param([*RUN, "--problems", "openspiel:oshi_zumo"],
                 "cannot be searched: its players move simultaneously",
                 id="run-problems-openspiel-simultaneous"),
    pytest.param([*RUN, "--problems", "openspiel:phantom_ttt"],
                 "cannot be searched: it has imperfect information",
                 id="run-problems-openspiel-imperfect-information"),
    pytest.param([*RUN, "--problems", "openspiel:chinese_checkers(players=3)"],
                 "cannot be searched: it has 3 players", id="run-problems-openspiel-three-players"),
    pytest.param([*RUN, "--problems", "openspiel:matrix_pd"], "it is not zero-sum",
                 id="run-problems-openspiel-not-zero-sum"),
    pytest.param([*RUN, "--problems", "openspiel:tic_tac_toe,moves=0 3 1 4 2"],
                 "game 'tic_tac_toe()' is over after [0, 3, 1, 4, 2]: no move to search",
                 id="run-problems-openspiel-over"),
    pytest.param([*RUN, "--problems", "openspiel:othello,eval=othelo", "--depth", "2"],
                 "unknown evaluation eval='othelo' (did you mean 'othello'? known: othello, "
                 "othello-discs", id="run-problems-openspiel-unknown-eval"),
    pytest.param([*RUN, "--problems", "openspiel:checkers,eval=othello", "--depth", "2"],
                 "eval=othello evaluates othello, not checkers",
                 id="run-problems-openspiel-eval-of-another-game"),
    # run: variants, depths, switches
    pytest.param([*RUN, *TREES, "--variants", "pvz"], "unknown variant 'pvz'", id="run-unknown-variant"),
    pytest.param([*RUN, *TREES, "--variants", "pvs:depth=2"], "unknown option 'depth'",
                 id="run-unknown-variant-option"),
    pytest.param([*RUN, *TREES, "--variants", "pvs:zw_min_depth=x"], "zw_min_depth",
                 id="run-bad-variant-option-value"),
    pytest.param([*RUN, *TREES, "--depth", "0"], "--depth 0: depth 0 is impossible", id="run-depth-0"),
    pytest.param([*RUN, *TREES, "--depth", "101"], "--depth 101: depth 101 is impossible",
                 id="run-depth-101"),
    pytest.param([*RUN, *TREES, "--depth", "x"], "--depth 'x' is not N or A-B", id="run-depth-text"),
    pytest.param([*RUN, *TREES, "--depth", "3-2"], "--depth '3-2': the range is empty",
                 id="run-depth-empty-range"),
    pytest.param([*RUN, *TREES, "--depth", "1-1000000000"], "--depth 1-1000000000: depth 1000000000",
                 id="run-depth-huge-range"),
    pytest.param([*RUN, "--tree", "{d}/tall.json", "--depth", "101"], "--depth 101",
                 id="run-tall-tree-depth-101"),
    pytest.param([*RUN, *TREES, "--tt", "-1"], "--tt -1", id="run-negative-table"),
    pytest.param([*RUN, *TREES, "--null-move", "-1"], "--null-move -1", id="run-negative-null-move"),
    pytest.param([*RUN, *TREES, "--max-nodes", "0"], "--max-nodes 0", id="run-max-nodes-0"),
    pytest.param([*RUN, *TREES, "--limit", "0"], "--limit 0", id="run-limit-0"),
    *(pytest.param([*RUN, *TREES, "--executor", "dask", "--scheduler", address],
                   f"--scheduler {shlex.quote(address)}: not a scheduler address ({reason}",
                   id=f"run-scheduler-{name}", marks=NEEDS_DASK)
      for name, address, reason in (
          ("not-an-address", "not a url", "missing port number in address 'not a url'"),
          ("unknown-scheme", "foo://x:1", "unknown address scheme 'foo'"),
          ("no-port", "tcp://host", "missing port number"))),
    pytest.param([*RUN, *TREES, "--executor", "dask", "--scheduler", ""],
                 "--scheduler '': an empty address", id="run-scheduler-empty", marks=NEEDS_DASK),
    # run: EPD suites
    pytest.param([*RUN, "--suite", "nosuch"], "suite 'nosuch' not found", id="run-unknown-suite"),
    pytest.param([*RUN, "--suite", "{d}/garbage.epd"], "{d}/garbage.epd:1: invalid EPD",
                 id="run-malformed-epd"),
    pytest.param([*RUN, "--suite", "{d}/latin.epd"], "{d}/latin.epd:2: not UTF-8 text",
                 id="run-not-utf8-epd"),
    pytest.param([*RUN, "--suite", "{d}/twice.epd"], "{d}/twice.epd:2: duplicate id 'a'",
                 id="run-duplicate-epd-id"),
    pytest.param([*RUN, "--suite", "{d}/allbad.epd", "--skip-invalid"],
                 "{d}/allbad.epd: no valid positions (2 lines skipped as malformed",
                 id="run-skip-invalid-leaves-nothing"),
    pytest.param([*RUN, "--suite", "{d}/empty.epd"], "{d}/empty.epd: no positions",
                 id="run-empty-epd"),
    pytest.param([*RUN, *TREES, "--suite", "{d}/allbad.epd", "--skip-invalid"],
                 "{d}/allbad.epd: no valid positions", id="run-skip-invalid-leaves-one-suite-empty"),
    # run: output and resume
    pytest.param(["run", *TREES, "--variants", "alphabeta", "--out", "{d}/afile/sub"],
                 "{d}/afile/sub", id="run-out-inside-a-file"),
    pytest.param(["run", *TREES, "--variants", "alphabeta", "--out", ""],
                 "--out '': an empty name", id="run-out-empty"),
    pytest.param(["run", "--resume", "{d}/emptydir"], "{d}/emptydir/run.json: not a run folder",
                 id="run-resume-not-a-run"),
    pytest.param(["run", "--resume", "{d}/damaged"], "{d}/damaged/run.json:1:2: invalid JSON",
                 id="run-resume-damaged-run-json"),
    pytest.param(["run", "--resume", "{d}/run", "--depth", "3"], "drop --depth$",
                 id="run-resume-with-depth"),
    pytest.param(["run", "--resume", "{d}/run", "--tree", "{d}/good.json"], "drop --tree$",
                 id="run-resume-with-tree"),
    pytest.param(["run", "--resume", "{d}/run", "--variants", "pvs"], "drop --variants$",
                 id="run-resume-with-variants"),
    pytest.param(["run", "--resume", "{d}/run", "--out", "{out}"], "drop --out$",
                 id="run-resume-with-out"),
    # compare
    pytest.param(["compare", "alphabeta", "alphabeta", *TREES, "--out", "{out}"],
                 "compare needs distinct variants", id="compare-same-variant-twice"),
    pytest.param(["compare", "alphabeta", "pvz", *TREES, "--out", "{out}"], "unknown variant 'pvz'",
                 id="compare-unknown-variant"),
    pytest.param([*CMP, "--tree", "{d}/leaf.json"], "{d}/leaf.json: the tree is a single leaf",
                 id="compare-single-leaf"),
    pytest.param([*CMP, *TREES, "--depth", "0"], "--depth 0", id="compare-depth-0"),
    pytest.param([*CMP, "--tree", "{d}/deep20k.json"], "{d}/deep20k.json: nested 20,000 deep",
                 id="compare-nested-20000"),
    pytest.param(["compare", "alphabeta", "pvs", *TREES, "--out", "{d}/afile/sub"], "{d}/afile/sub",
                 id="compare-out-inside-a-file"),
    pytest.param([*CMP, *TREES, "--fail-if-worse", "-5"],
                 "--fail-if-worse -5: must be a percentage of at least 0",
                 id="compare-negative-tolerance"),
    pytest.param(["compare", "alphabeta", "pvs", "--run", "{d}/run", "--fail-if-worse", "nan"],
                 "--fail-if-worse nan", id="compare-run-tolerance-not-a-number"),
    pytest.param(["compare", "alphabeta", "pvs", *TREES, "--out", ""], "--out '': an empty name",
                 id="compare-out-empty"),
    pytest.param(["compare", "alphabeta", "pvs", "--run", "{d}/run", "--out", ""],
                 "--out '': an empty name", id="compare-run-out-empty"),
    pytest.param(["compare", "alphabeta", "negascout", "--run", "{d}/run"], "negascout",
                 id="compare-run-without-the-variant"),
    pytest.param(["compare", "alphabeta", "pvs", "--run", "{d}/emptydir"], "{d}/emptydir",
                 id="compare-run-not-a-run"),
    # tree
    pytest.param([*TREE, *TREES, "--depth", "1-2"], "--depth 1-2: harness tree needs one --depth N",
                 id="tree-depth-range"),
    pytest.param([*TREE, *TREES, "--depth", "0"], "--depth 0", id="tree-depth-0"),
    pytest.param(["tree", "--variant", "pvz", *TREES], "unknown variant 'pvz'", id="tree-unknown-variant"),
    pytest.param([*TREE, "--compare", "pvz", *TREES], "unknown variant 'pvz'", id="tree-unknown-compare"),
    pytest.param([*TREE, *TREES, "--problem", "nosuch"], "no problem 'nosuch'", id="tree-unknown-problem"),
    pytest.param([*TREE, "--tree", "{d}/tall.json"], f"{{d}}/tall.json: the tree's height, {TALL},",
                 id="tree-default-depth-too-deep"),
    pytest.param([*TREE, "--tree", "{d}/deep2k.json"], "{d}/deep2k.json: nested 2,000 deep",
                 id="tree-nested-2000"),
    pytest.param([*TREE, "--tree", "{d}/latin.json"], "{d}/latin.json:2: not UTF-8", id="tree-not-utf8"),
    pytest.param([*TREE, "--suite", "{d}/allbad.epd", "--skip-invalid"], "{d}/allbad.epd: no valid",
                 id="tree-skip-invalid-leaves-nothing"),
    pytest.param([*TREE, *TREES, "--out", "{d}/afile/sub/drawing"],
                 "--out {d}/afile/sub/drawing: {d}/afile is a file, not a folder",
                 id="tree-out-inside-a-file"),
    pytest.param([*TREE, *TREES, "--jobs", "2"], "--jobs", id="tree-has-no-jobs"),
    pytest.param([*TREE, *TREES, "--limit", "1"], "--limit", id="tree-has-no-limit"),
    pytest.param([*TREE, *TREES, "--out", "{d}/emptydir"], "--out", id="tree-out-is-a-folder"),
    pytest.param(["tree", *TREES], "--variant", id="tree-without-variant"),
    pytest.param([*TREE, *TREES, "--out", ""], "--out '': an empty name", id="tree-out-empty"),
    # report and show
    pytest.param(["report", "{d}/emptydir"], "{d}/emptydir", id="report-not-a-run"),
    pytest.param(["report", "{d}/damaged"], "{d}/damaged/run.json:1:2: invalid JSON",
                 id="report-damaged-run-json"),
    pytest.param(["report", "{d}/run", "--baseline", "nosuch"], "nosuch", id="report-unknown-baseline"),
    pytest.param(["show", "{d}/emptydir"], "{d}/emptydir", id="show-not-a-run"),
    pytest.param(["show", "{d}/damaged"], "{d}/damaged/run.json:1:2: invalid JSON",
                 id="show-damaged-run-json"),
    # diff: both folders are runs, different ones, with something in common
    pytest.param(["diff", "{d}/emptydir", "{d}/run"], "{d}/emptydir/run.json: not a run folder",
                 id="diff-old-not-a-run"),
    pytest.param(["diff", "{d}/run", "{d}/damaged"], "{d}/damaged/run.json:1:2: invalid JSON",
                 id="diff-new-damaged-run-json"),
    pytest.param(["diff", "{d}", "{d}/run"], "{d}: a folder of runs, not a run: diff one of them",
                 id="diff-a-folder-of-runs"),
    pytest.param(["diff", "{d}/run", "{d}/./run"], "OLD and NEW are the same folder ({d}/run)",
                 id="diff-the-same-run-twice"),
    pytest.param(["diff", "{d}/run", "{d}/other"],
                 "OLD and NEW have no problem set in common (OLD: random:b=2,d=2,n=1,seed=0,",
                 id="diff-nothing-in-common"),
    pytest.param(["diff", "{d}/run", "{d}/twice", "--fail-if-worse", "-5"],
                 "--fail-if-worse -5: must be a percentage of at least 0",
                 id="diff-negative-tolerance"),
    pytest.param(["diff", "{d}/run", "{d}/twice", "--markdown", "{d}/afile/summary.md"],
                 "--markdown {d}/afile/summary.md: {d}/afile is a file", id="diff-markdown-inside-a-file"),
    pytest.param(["diff", "{d}/run", "{d}/twice", "--out", "{d}/afile/diff.csv"],
                 "--out {d}/afile/diff.csv: {d}/afile is a file", id="diff-out-inside-a-file"),
    # check: all before anything is walked
    pytest.param(["check", "nosuch:x"], "unknown game 'nosuch'", id="check-unknown-game"),
    pytest.param(["check", "tree:{d}/bad.json"], "{d}/bad.json:1:13: invalid JSON",
                 id="check-bad-json"),
    pytest.param(["check", "chess:{d}/garbage.epd"], "{d}/garbage.epd:1: invalid EPD",
                 id="check-bad-epd"),
    pytest.param(["check", *TREES[1:], "--depth", "101"], "check: depth 101 is deeper",
                 id="check-depth-101"),
    pytest.param(["check", *TREES[1:], "--variants", "pvz"], "unknown variant 'pvz'",
                 id="check-unknown-variant"),
    # rows that cannot be right: every reader, the same line
    *(pytest.param([*command, f"{{d}}/{folder}"], f"{{d}}/{folder}/results.csv:{where}",
                   id=f"{command[0]}-{folder}")
      for command in (["show"], ["report"], ["compare", "alphabeta", "pvs", "--run"],
                      ["run", "--resume"], ["diff", "{d}/run"])
      for folder, where in (
          ("twice", "4: the same search as line 2 (random:b=2,d=2,n=1,seed=0,ordering=random,"
                    "values=uniform,range=1000 problem 0, alphabeta at depth 2): a row is there "
                    "twice"),
          ("negative", "3: nodes '-5': a count cannot be negative"),
          ("stranger", "2: variant 'pvz': not a variant of this run (run.json: alphabeta, pvs)"),
          ("underground", "3: depth '-1': a depth is at least 1"),
          ("nowhere", "2: suite 'elsewhere': not a problem set of this run"))),
    # reproduce: all before measuring
    pytest.param(["reproduce", "--only", "nosuch", "--out", "{out}"], "unknown claim 'nosuch'",
                 id="reproduce-unknown-claim"),
    pytest.param(["reproduce", "--quick", "--only", "1", "--jobs", "0", "--out", "{out}"], "--jobs 0",
                 id="reproduce-jobs-0"),
    pytest.param(["reproduce", "--quick", "--only", "1", "--no-progress", "--out", "{d}/afile/sub"],
                 "{d}/afile/sub", id="reproduce-out-inside-a-file"),
    pytest.param(["reproduce", "--quick", "--only", "1", "--out", ""], "--out '': an empty name",
                 id="reproduce-out-empty"),
    pytest.param(["reproduce", "--quick", "--phase", "confirm", "--only", "1", "--out", "{out}"],
                 "--quick is exploration", id="reproduce-quick-confirm"),
    # suites
    pytest.param(["suites", "get", "nosuch", "--dest", "{out}"], "unknown suite 'nosuch'",
                 id="suites-get-unknown"),
    pytest.param(["suites", "get", "wac", "--dest", "{out}", "--base-url", "http://127.0.0.1:1"],
                 "http://127.0.0.1:1/wac.epd", id="suites-get-unreachable"),
    pytest.param(["suites", "generate", "--count", "0", "--out", "{out}/g.epd"], "--count 0",
                 id="suites-generate-count-0"),
    pytest.param(["suites", "generate", "--count", "1", "--jobs", "1", "--out", "{d}/afile/g.epd"],
                 "{d}/afile/g.epd", id="suites-generate-out-inside-a-file"),
    pytest.param(["suites", "generate", "--jobs", "0", "--out", "{out}/g.epd"], "--jobs 0",
                 id="suites-generate-jobs-0"),
    pytest.param(["suites", "get", "wac", "--dest", "{out}", "--base-url", "notaurl"],
                 "notaurl/wac.epd: download failed: unknown url type", id="suites-get-not-a-url"),
    # perft
    pytest.param(["perft", "{d}/notfen.perft"], "{d}/notfen.perft:1: not a FEN", id="perft-not-a-fen"),
    pytest.param(["perft", "{d}/field.perft"], "{d}/field.perft:1: 'D2 four hundred' is not",
                 id="perft-bad-count"),
    pytest.param(["perft", "{d}/nocounts.perft"], "{d}/nocounts.perft:1: no counts", id="perft-no-counts"),
    pytest.param(["perft", "{d}/twice.perft"], "{d}/twice.perft:1: depth 1 repeated", id="perft-depth-twice"),
    pytest.param(["perft", "{d}/missing.perft"], "{d}/missing.perft: no such file", id="perft-missing"),
    pytest.param(["perft"], "give a SUITE or --fen FEN", id="perft-nothing-to-count"),
    pytest.param(["perft", "{d}/field.perft", "--fen", START], "give a SUITE or --fen FEN",
                 id="perft-suite-and-fen"),
    pytest.param(["perft", "--fen", "8/8/8 w"], "--fen: not a FEN", id="perft-bad-fen"),
    pytest.param(["perft", "{d}/empty.epd"], "{d}/empty.epd: no positions", id="perft-empty-suite"),
    pytest.param(["perft", "{d}/kings.perft"], "{d}/kings.perft:1: illegal position: too many kings",
                 id="perft-illegal-position"),
    pytest.param(["perft", "{d}/counts.epd"], "{d}/counts.epd:1: 'D2 four hundred' is not",
                 id="perft-epd-bad-count"),
    pytest.param(["perft", "--fen", "4k3/8/8/8/8/8/8/K3K3 w - - 0 1"],
                 "--fen: illegal position: too many kings", id="perft-fen-two-white-kings"),
    pytest.param(["perft", "--fen", "4k3/8/8/8/8/8/4R3/K7 w - - 0 1"],
                 "--fen: illegal position: opposite check", id="perft-fen-side-not-to-move-in-check"),
    pytest.param([*RUN, *TREES, "--epd-out", "{out}/x.epd"], "--epd-out {out}/x.epd: no chess",
                 id="run-epd-out-without-chess"),
    pytest.param([*RUN, "--suite", "{d}/good.epd", "--epd-out", "{d}/afile/x.epd"],
                 "--epd-out {d}/afile/x.epd: {d}/afile is a file", id="run-epd-out-inside-a-file"),
    # match
    pytest.param([*MATCH, "nosuch", "pvs", "--problems", "chess:{d}/good.epd"],
                 "unknown variant 'nosuch'", id="match-unknown-variant"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--sprt", "2,0"],
                 "--sprt: elo0 (2.0) must be below elo1 (0.0)", id="match-bad-sprt"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--sprt", "0,2,x,y"],
                 "--sprt '0,2,x,y': not numbers", id="match-sprt-not-numbers"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--nodes", "0"],
                 "--nodes 0: must be at least 1", id="match-bad-nodes"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--nodes", "5",
                  "--depth", "2"], "give one budget", id="match-two-budgets"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--time", "x"],
                 "--time 'x': not S+INC", id="match-bad-time"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--games", "1"],
                 "--games 1: a match plays at least one pair", id="match-one-game"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "random:b=2,d=2,n=1"],
                 "random: cannot be played move by move", id="match-unplayable-game"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/garbage.epd"],
                 "{d}/garbage.epd:1:", id="match-bad-openings"),
    pytest.param([*MATCH, "pvs"], "two variants and the openings are needed", id="match-one-side"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--calibrate",
                  "--link-depth", "1"], "--calibrate needs --link-depth 2 or more",
                 id="match-calibrate-at-depth-1"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--games", "4"],
                 "--games 4: chess:{d}/good.epd has 1 openings, at most 2 games",
                 id="match-more-games-than-openings"),
    pytest.param(["match", "--resume", "{d}/run"], "{d}/run/run.json: not a match's configuration",
                 id="match-resume-a-run-folder"),
    pytest.param([*MATCH, "pvs", "alphabeta", "--problems", "chess:{d}/good.epd", "--resume", "{d}/run"],
                 "--resume takes the sides from the folder", id="match-resume-with-sides"),
]


@pytest.mark.parametrize("args,names", CASES)
def test_bad_input_is_one_line_exit_2(inputs: Path, tmp_path: Path, args: list[str], names: str,
                                      request: pytest.FixtureRequest) -> None:
    out = tmp_path / "out"
    result = invoke(args, inputs, out)
    assert_one_line(result, names.format(d=inputs, out=out))
    assert not out.exists()                     # nothing started, nothing half-written
    assert not (inputs / "emptydir" / ".harness.lock").exists()       # nor locked


USAGE = [
    # Click's own checks (types, choices, required, existing paths): one line when the
    # command's class is OneLineUsage.
    pytest.param(["tree", "--variant", "pvs", "--tt", "x"], "--tt", id="tree-tt-not-a-number"),
    pytest.param(["variants", "extra"], "extra", id="variants-extra-argument"),
    pytest.param(["variants", "--bogus"], "--bogus", id="variants-unknown-option"),
    pytest.param(["run", "--jobs", "abc"], "--jobs", id="run-jobs-not-a-number"),
    pytest.param(["run", "--null-rule", "neither"], "--null-rule", id="run-bad-choice"),
    pytest.param(["run", "--out", "{d}/afile"], "--out", id="run-out-is-a-file"),
    pytest.param(["compare", "alphabeta"], "OTHERS", id="compare-one-variant"),
    pytest.param(["report", "{d}/nosuch"], "RUN_DIR", id="report-missing-folder"),
    pytest.param(["show", "{d}/nosuch"], "RUN_DIR", id="show-missing-folder"),
    pytest.param(["reproduce", "--jobs", "x"], "--jobs", id="reproduce-jobs-not-a-number"),
    pytest.param(["suites", "--bogus"], "--bogus", id="suites-unknown-option"),
    pytest.param(["suites", "get"], "NAME", id="suites-get-without-name"),
    pytest.param(["suites", "generate"], "--out", id="suites-generate-without-out"),
    pytest.param(["nosuch"], "nosuch", id="unknown-command"),
    pytest.param(["check"], "GAME:SPEC", id="check-without-problems"),
    pytest.param(["diff", "{d}/run"], "NEW", id="diff-one-run"),
    pytest.param(["diff", "{d}/run", "{d}/nosuch"], "NEW", id="diff-missing-folder"),
    pytest.param(["check", "random:b=2,d=2", "--playouts", "-1"], "--playouts",
                 id="check-negative-playouts"),
    pytest.param(["perft", "--depth", "9", "--fen", "x"], "--depth", id="perft-depth-too-deep"),
    pytest.param(["perft", "--generator", "stockfish"], "--generator", id="perft-unknown-generator"),
]


def command_of(args: list[str]) -> click.Command:
    """The command (or group) whose parser sees ``args``' first unknown word or option."""
    command: click.Command = cli
    for word in args:
        if not isinstance(command, click.Group) or word not in command.commands:
            break
        command = command.commands[word]
    return command


@pytest.mark.parametrize("args,names", USAGE)
def test_usage_errors_are_one_line_too(inputs: Path, tmp_path: Path, args: list[str],
                                       names: str) -> None:
    result = invoke(args, inputs, tmp_path / "out")
    everything = result.output + result.stderr
    assert "Traceback" not in everything and result.exit_code == 2, everything
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert names.format(d=inputs) in result.stderr.strip().splitlines()[-1]
    if not isinstance(command_of(args), OneLineUsage):
        pytest.xfail("Click's usage error is three lines (usage, hint, error) until this "
                     "command's class is OneLineUsage (the cli group's, in cli.py)")
    assert_one_line(result, names.format(d=inputs))


def test_an_unwritable_out_folder(inputs: Path, tmp_path: Path) -> None:
    """A real permission error (not a path through a file): a folder without write
    permission, or, as root (who writes anywhere), read-only sysfs."""
    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o500)
    else:
        folder = Path("/sys")
        try:
            (folder / "harness-probe").mkdir()
        except OSError:
            pass
        else:
            (folder / "harness-probe").rmdir()
            pytest.skip("this machine lets root write in /sys")
    try:
        result = invoke(["run", *TREES, "--variants", "alphabeta", "--out", str(folder / "run")],
                        inputs, tmp_path / "out")
        assert_one_line(result, str(folder / "run"))
        result = invoke(["tree", "--variant", "pvs", *TREES, "--out", str(folder / "drawing")],
                        inputs, tmp_path / "out")
        assert_one_line(result, f"--out {folder / 'drawing'}: cannot write in {folder}")
    finally:
        if folder != Path("/sys"):
            folder.chmod(0o700)


def harness_command() -> list[str]:
    script = Path(sys.executable).parent / "harness"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "harness"]


@pytest.mark.parametrize("args,names", [
    pytest.param(["run", "--tree", "{d}/deep20k.json", "--out", "{out}"], "{d}/deep20k.json: nested",
                 id="nested-20000"),
    pytest.param(["tree", "--variant", "pvs", *TREES, "--out", "{d}/afile/sub/x"], "--out {d}/afile",
                 id="out-inside-a-file"),
])
def test_the_installed_command_prints_no_traceback(inputs: Path, tmp_path: Path, args: list[str],
                                                   names: str) -> None:
    out = tmp_path / "out"
    argv = [arg.format(d=inputs, out=out) for arg in args]
    done = subprocess.run([*harness_command(), *argv], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HARNESS_SUITES": str(inputs)})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert names.format(d=inputs) in lines[0]
    assert done.stdout == "" and not out.exists()
