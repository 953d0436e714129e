"""The self-play chess suites (harness.suites.chess_selfplay) and their two shipped files.

The files' headers must remake them (checked on a prefix: the whole confirmation file takes
about a minute), every position must pass the generator's filters, the phases come in
turn, and no position may be in both files, in the project's bench suite or in the public
suites the exploration used (WAC, Bratko-Kopec, Kaufman).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.errors import HarnessError
from harness.games.chess.compiled import compiled_available
from harness.games.chess.epd import load_suite
from harness.games.chess.suite_files import find_suite, project_positions
from harness.suites import chess_selfplay as suite
from harness.suites.chess_bench import phase

SHIPPED = {"selfplay-explore.epd": (60, 21), "selfplay-confirm.epd": (450, 22)}
"""The shipped files: positions and seed."""
PUBLIC = ("wac", "bk", "kaufman")


def header_command(path: Path) -> list[str]:
    """The arguments of the command in a file's header."""
    line = next(line for line in path.read_text().splitlines() if "Regenerate it byte for byte" in line)
    command = line.split("with: ", 1)[1].split()
    assert command[:3] == ["python", "-m", suite.FIRST_HOME]
    return command[3:]


def positions(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line and not line.startswith("#")]


def needs(names: list[str]) -> None:
    """Skip when an excluded suite is not here (the public ones live beside the project)."""
    for name in names:
        try:
            find_suite(name)
        except HarnessError:
            pytest.skip(f"{name}: the public suites (../shared/positions) are not here")


def test_the_same_options_make_the_same_bytes(tmp_path: Path) -> None:
    out = tmp_path / "mine.epd"
    made = []
    for _ in range(2):
        assert suite.main(["--count", "4", "--seed", "7", "--out", str(out)]) == 0
        made.append(out.read_bytes())
    assert made[0] == made[1]
    lines = positions(out)
    assert [line.split('id "')[1].split('"')[0] for line in lines] == [f"mine.{k}" for k in range(1, 5)]
    assert "Excluded suites: none." in out.read_text()


@pytest.mark.parametrize("name", list(SHIPPED))
def test_a_shipped_files_header_remakes_its_first_positions(name: str, tmp_path: Path) -> None:
    shipped = project_positions() / name
    arguments = header_command(shipped)
    count, seed = SHIPPED[name]
    assert arguments[:4] == ["--count", str(count), "--seed", str(seed)]
    exclude = arguments[arguments.index("--exclude") + 1].split(",")
    assert set(PUBLIC) | {"bench"} <= set(exclude)
    needs(exclude)
    arguments[1] = "6"
    out = tmp_path / name
    arguments[arguments.index("--out") + 1] = str(out)
    assert suite.main(arguments) == 0
    assert positions(out) == positions(shipped)[:6]


@pytest.mark.parametrize("name", list(SHIPPED))
def test_every_shipped_position_passes_the_filters_in_its_phase(name: str) -> None:
    loaded = load_suite(project_positions() / name)
    count, _ = SHIPPED[name]
    assert not loaded.skipped and len(loaded.positions) == count
    stem = name.removesuffix(".epd")
    low, high = suite.OPENING_PLIES
    for k, position in enumerate(loaded.positions, 1):
        assert position.id == f"{stem}.{k}"
        board = position.board()
        assert suite.acceptable(board), position.id
        comment = position.ops["c0"]
        assert isinstance(comment, str)
        name_of_phase, ply = comment.split(":")[0], int(comment.rsplit("ply ", 1)[1])
        assert name_of_phase == suite.PHASES[(k - 1) % 3], position.id
        if name_of_phase == "opening":
            assert low <= ply <= high
        elif name_of_phase == "middle":
            assert suite.MIDDLE_PLIES[0] <= ply <= suite.MIDDLE_PLIES[1]
            assert phase(board) >= suite.MIDDLE_MIN_PHASE
        else:
            assert suite.is_endgame(board), position.id
    assert len({position.epd for position in loaded.positions}) == count


def test_no_position_is_in_two_suites() -> None:
    """The two files, bench.epd and the public suites have no position in common (by EPD,
    the FEN without move counters)."""
    explore, confirm = ({p.epd for p in load_suite(project_positions() / name).positions} for name in SHIPPED)
    assert not explore & confirm
    others, _ = suite.excluded_positions(["bench"])
    assert not (explore | confirm) & set(others)
    needs(list(PUBLIC))
    public, _ = suite.excluded_positions(list(PUBLIC))
    assert len(public) >= 340 and not (explore | confirm) & set(public)


def test_a_position_of_an_excluded_suite_is_dropped_and_named(tmp_path: Path) -> None:
    clean = suite.generate(3, 7)
    first = clean.positions[0]
    excluded = tmp_path / "taken.epd"
    excluded.write_text(f'{first.epd} id "taken.1";\n')
    out = tmp_path / "mine.epd"
    assert suite.main(["--count", "3", "--seed", "7", "--exclude", str(excluded), "--out", str(out)]) == 0
    made = positions(out)
    assert all(first.epd not in line for line in made) and len(made) == 3
    assert (f"# Dropped for being in an excluded suite: opening of game {first.game} (= taken.1)"
            in out.read_text().splitlines())
    after = first.game + 1                      # the next game gives the opening instead
    assert made[0].endswith(f'c0 "opening: game {after}, ply {suite.targets(7, after)[0]}";')


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3))
def test_the_first_positions_do_not_depend_on_how_many_follow(seed: int, more: int) -> None:
    short, long = suite.generate(2, seed), suite.generate(2 + more, seed)
    assert long.positions[:2] == short.positions
    assert [found.phase for found in long.positions] == [suite.PHASES[k % 3] for k in range(2 + more)]


@pytest.mark.skipif(not compiled_available(), reason="the compiled chess tree was not built")
def test_the_python_tree_plays_the_same_game() -> None:
    """The file does not depend on which tree was built: the two play the same moves."""
    def game(tree: str) -> list[str]:
        return [board.epd() for ply, board in suite.game_positions(21, 1, tree) if ply <= 12]
    assert game("python") == game("compiled")


@pytest.mark.parametrize(("arguments", "message"), [
    ([], "--count, --seed, --out: missing"),
    (["--count", "3", "--seed", "1"], "--out: missing"),
    (["--count", "x", "--seed", "1", "--out", "f.epd"], "--count 'x': not an integer"),
    (["--count", "0", "--seed", "1", "--out", "f.epd"], "--count 0: must be at least 1"),
    (["--count", "3", "--seed", "1", "--out", "f.epd", "--depth", "3"], "--depth: unknown option"),
    (["--count", "3", "--seed", "1", "--seed", "2", "--out", "f.epd"], "--seed: given twice"),
    (["--count", "3", "--seed", "1", "--out"], "--out: an option without a value"),
    (["--count", "3", "--seed", "1", "--exclude", "no-such-suite", "--out", "f.epd"],
     "suite 'no-such-suite' not found"),
])
def test_bad_options_exit_2_with_one_line(arguments: list[str], message: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert suite.main(arguments) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error and error.startswith("harness.suites.chess_selfplay: ")
    assert not (tmp_path / "f.epd").exists()


def test_an_excluded_file_that_is_no_position_is_named(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.epd"
    bad.write_text("# fine\nnot a position at all\n")
    assert suite.main(["--count", "1", "--seed", "1", "--exclude", str(bad), "--out",
                       str(tmp_path / "f.epd")]) == 2
    assert f"{bad}:2: not a position" in capsys.readouterr().err


def test_filters_no_game_can_meet_are_a_loud_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suite, "MIN_LEGAL_MOVES", 500)
    with pytest.raises(HarnessError, match=r"^20 games gave only 0 of 1 positions \(seed 1\)$"):
        suite.generate(1, 1)
