"""The generated benchmark suite: the committed ``harness/games/chess/positions/bench.epd``
is what the generator makes (checked on its first positions, in fresh processes with different
hash seeds), every position passes the filters, the phase mix holds, and bad settings are refused."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import chess
import pytest

from harness.errors import HarnessError
from harness.games.chess.epd import load_suite
from harness.games.chess.suite_files import find_suite, project_positions, project_root
from harness.suites.chess_bench import (
    BENCH_PATH,
    DEFAULT_SETTINGS,
    ENDGAME,
    MIDDLEGAME,
    GenerateSettings,
    generate_suite,
    generated_header,
    material_balance,
    material_signature,
    phase,
    phase_name,
    write_generated_suite,
)

BENCH = project_positions() / "bench.epd"
ROOT = project_root()
PREFIX = 3
"""Positions regenerated to compare with the committed file (the whole suite takes ~30 s)."""
C0 = re.compile(r"seed 1 game (\d+) ply (\d+) phase (middlegame|endgame)")

# Writes the header and the first PREFIX positions of the default suite (with argv[2] worker
# processes) as write_generated_suite writes the whole file: a prefix of
# harness/games/chess/positions/bench.epd.
PREFIX_SCRIPT = f"""
import sys
from harness.games.chess.epd import write_epd
from harness.suites.chess_bench import generate_suite, generated_header
suite = generate_suite(limit={PREFIX}, workers=int(sys.argv[2]))
write_epd(sys.argv[1], suite, header=generated_header(40, 1))
"""


def bench_lines() -> list[str]:
    return BENCH.read_text(encoding="utf-8").splitlines()


def test_bench_is_found_by_name_and_loads() -> None:
    assert find_suite("bench") == BENCH
    suite = load_suite(BENCH)
    assert len(suite.positions) == 40
    assert [p.id for p in suite.positions] == [f"GEN.{i:03d}" for i in range(1, 41)]


def test_bench_header_says_how_to_regenerate_it() -> None:
    header = [line[2:] for line in bench_lines() if line.startswith("#")]
    assert header == generated_header(40, 1)
    assert ("Regenerate it byte for byte with: harness suites generate --count 40 --seed 1 "
            "--out harness/games/chess/positions/bench.epd") in header


def test_bench_prefix_is_regenerated_byte_for_byte_in_fresh_processes(tmp_path: Path) -> None:
    # Two processes with different hash seeds (str hashing differs), one playing the games
    # itself, one in two worker processes.
    runs = (("0", "1"), ("12345", "2"))
    outputs = [tmp_path / f"prefix-{hash_seed}.epd" for hash_seed, _ in runs]
    processes = [subprocess.Popen([sys.executable, "-c", PREFIX_SCRIPT, str(out), workers], cwd=ROOT,
                                  env={**os.environ, "PYTHONHASHSEED": hash_seed},
                                  stderr=subprocess.PIPE, text=True)
                 for out, (hash_seed, workers) in zip(outputs, runs, strict=True)]
    for process in processes:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    first, second = (out.read_bytes() for out in outputs)
    assert first == second
    expected = "".join(line + "\n" for line in bench_lines()[:len(generated_header(40, 1)) + PREFIX])
    assert first.decode("utf-8") == expected


def test_same_positions_in_this_process_with_one_worker() -> None:
    suite = load_suite(BENCH)
    made = generate_suite(limit=2, workers=1)
    assert [(board.epd(), ops) for board, ops in made] == [
        (p.epd, {"id": p.ops["id"], "c0": p.ops["c0"]}) for p in suite.positions[:2]]


def test_bench_positions_pass_the_filters() -> None:
    suite = load_suite(BENCH)
    s = DEFAULT_SETTINGS
    seen_pawns: set[tuple[int, int]] = set()
    for position in suite.positions:
        board = position.board()
        assert set(position.ops) == {"id", "c0"}, position.id            # no bm: no known answer
        assert board.is_valid() and not board.is_game_over() and not board.is_check(), position.id
        assert board.legal_moves.count() >= s.min_legal_moves, position.id
        assert abs(material_balance(board)) <= s.max_imbalance, position.id
        match = C0.fullmatch(str(position.ops["c0"]))
        assert match, position.ops["c0"]
        assert phase_name(board) == match.group(3), position.id
        if match.group(3) == MIDDLEGAME:
            assert phase(board) >= s.middlegame_min_phase and int(match.group(2)) >= s.middlegame_min_ply
        else:
            assert phase(board) <= s.endgame_max_phase
            assert chess.popcount(board.occupied) >= s.endgame_min_men
        pawns = (board.pawns & board.occupied_co[chess.WHITE], board.pawns & board.occupied_co[chess.BLACK])
        assert pawns not in seen_pawns, position.id
        seen_pawns.add(pawns)
    assert len({p.epd for p in suite.positions}) == len(suite.positions)
    materials = Counter(material_signature(p.board()) for p in suite.positions)
    assert max(materials.values()) <= s.max_same_material
    assert len(materials) >= 30                                          # varied material


def test_bench_phase_mix() -> None:
    suite = load_suite(BENCH)
    phases = Counter(str(p.ops["c0"]).rsplit(" ", 1)[1] for p in suite.positions)
    assert phases == {MIDDLEGAME: 24, ENDGAME: 16}                       # 60% / 40%
    games = [int(m.group(1)) for p in suite.positions if (m := C0.fullmatch(str(p.ops["c0"])))]
    assert games == sorted(games)
    assert max(Counter(games).values()) <= 2                             # one of each phase per game
    men = [chess.popcount(p.board().occupied) for p in suite.positions]
    assert min(men) >= 6 and max(men) >= 28


def test_write_small_suite_with_another_seed(tmp_path: Path) -> None:
    out = write_generated_suite(tmp_path / "small.epd", count=3, seed=4, workers=1)
    suite = load_suite(out)
    assert [str(p.ops["c0"]).split()[-1] for p in suite.positions].count(ENDGAME) == 1
    assert all(str(p.ops["c0"]).startswith("seed 4 game ") for p in suite.positions)
    assert not {p.epd for p in suite.positions} & {p.epd for p in load_suite(BENCH).positions}
    text = out.read_text()
    assert f"--count 3 --seed 4 --out {out.as_posix()}\n" in text      # outside the project: as given
    assert len({p.epd for p in suite.positions}) == 3


def test_helpers() -> None:
    start = chess.Board()
    assert phase(start) == 24 and phase_name(start) == MIDDLEGAME
    assert material_balance(start) == 0
    assert material_signature(start) == "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP"
    rook_ending = chess.Board("4k3/pp6/8/8/8/8/PPP5/R3K3 w - - 0 1")
    assert phase(rook_ending) == 2 and phase_name(rook_ending) == ENDGAME
    assert material_balance(rook_ending) == 6
    assert phase_name(chess.Board("r3k3/8/8/8/8/8/8/RN1QK3 w - - 0 1")) is None     # phase 9: neither


def test_header_for_other_settings_names_the_python_call() -> None:
    header = generated_header(10, 3, GenerateSettings(depth=2), out="x.epd")
    assert "write_generated_suite('x.epd', count=10, seed=3" in header[1]
    assert any("depth=2" in line for line in header)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"count": 0}, "count 0 must be at least 1"),
    ({"limit": -1}, "limit -1 must be at least 0"),
    ({"workers": 0}, "workers 0 must be at least 1"),
    ({"settings": GenerateSettings(variant="nope")}, "nope"),
    ({"settings": GenerateSettings(depth=0)}, "depth 0"),
    ({"settings": GenerateSettings(random_move=1.5)}, "random_move=1.5 must be between 0 and 1"),
    ({"settings": GenerateSettings(opening_min=5, opening_max=2)}, "opening plies 5-2"),
    ({"settings": GenerateSettings(endgame_max_phase=12)}, "phases must satisfy"),
    ({"settings": GenerateSettings(max_imbalance=-1)}, "max_imbalance=-1"),
    ({"settings": GenerateSettings(max_games=0)}, "max_games=0"),
])
def test_bad_input_is_one_line(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(HarnessError, match=re.escape(message)) as caught:
        generate_suite(**kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_impossible_settings_give_up_after_max_games() -> None:
    impossible = GenerateSettings(opening_min=0, opening_max=0, middlegame_min_ply=0, middlegame_max_ply=0,
                                  search_window=0, endgame_max_ply=1, min_legal_moves=500, max_games=2)
    with pytest.raises(HarnessError, match="2 games gave only 0 of 5 positions"):
        generate_suite(5, 1, impossible, workers=1)


def test_bench_path_constant() -> None:
    assert ROOT / BENCH_PATH == BENCH
