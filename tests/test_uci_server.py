"""``harness uci``: the protocol's parser (with Hypothesis), the engine driven by
python-chess (options, setoption, analysis to a depth, moves played, stop during an
infinite analysis, the game's repetitions seen), a matrix of malformed lines fed raw, and
a short game against Stockfish where it is installed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from harness.cli import cli
from harness.engines.session import harness_score
from harness.games.chess.evaluation import MATE
from harness.uci.protocol import (
    GoCommand,
    UciInputError,
    UciOption,
    find_option,
    parse_go,
    parse_position,
    parse_setoption,
    uci_score,
)
from harness.uci.server import time_limits

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "harness", "uci"]
STOCKFISH = Path("/usr/games/stockfish")
LOSING = "1q5k/1r6/8/8/8/8/8/7K w - - 0 1"
"""White to move, a queen and a rook down, its king free to shuffle h1-g1."""
SHUFFLE = ("h1g1", "h8g8", "g1h1", "g8h8")
"""Both kings there and back: after it, h1g1 repeats a position of the game."""

# The parser.

moves = st.lists(st.from_regex(r"[a-h][1-8][a-h][1-8][qrbn]?", fullmatch=True), max_size=6)


@given(moves)
def test_position_startpos_and_fen_with_moves(played: list[str]) -> None:
    assert parse_position(["startpos", "moves", *played]) == parse_position(["startpos", "moves", *played])
    assert parse_position(["startpos", "moves", *played]).moves == tuple(played)
    fen = chess.Board().fen().split()
    command = parse_position(["fen", *fen, "moves", *played])
    assert command.fen == " ".join(fen) and command.moves == tuple(played)
    assert parse_position(["startpos"]).fen is None


@pytest.mark.parametrize("tokens", [[], ["fen"], ["fen", "moves", "e2e4"], ["start"],
                                    ["startpos", "e2e4"]])
def test_malformed_positions_say_why(tokens: list[str]) -> None:
    with pytest.raises(UciInputError, match="position"):
        parse_position(tokens)


numbers = st.integers(min_value=0, max_value=10**9)


@given(depth=numbers, nodes=numbers, wtime=st.integers(-1000, 10**7), movestogo=st.integers(1, 80))
def test_go_reads_every_limit(depth: int, nodes: int, wtime: int, movestogo: int) -> None:
    go, ignored = parse_go(f"depth {depth} nodes {nodes} wtime {wtime} btime 5 winc 0 "
                           f"binc 7 movestogo {movestogo} infinite".split())
    assert ignored == []
    assert go == GoCommand(depth=max(depth, 1), nodes=nodes, wtime=wtime, btime=5, winc=0,
                           binc=7, movestogo=movestogo, infinite=True)
    assert go.clock(True) == (wtime, 0) and go.clock(False) == (5, 7)


@given(st.lists(st.text(alphabet="abcdefgh012345678 -x", max_size=8), max_size=8))
def test_go_never_fails_but_with_a_reason(tokens: list[str]) -> None:
    try:
        parse_go([t for t in tokens if t.strip()])
    except UciInputError as exc:
        assert str(exc).startswith("go")


@pytest.mark.parametrize("text, reason", [("depth", "a number expected"),
                                          ("nodes x", "not a whole number"),
                                          ("nodes -5", "at least 0"), ("movestogo 0", "at least 1"),
                                          ("mate 0", "at least 1")])
def test_malformed_go_says_why(text: str, reason: str) -> None:
    with pytest.raises(UciInputError, match=reason):
        parse_go(text.split())


def test_go_skips_unknown_tokens_and_reads_searchmoves() -> None:
    go, ignored = parse_go(["wibble", "searchmoves", "e2e4", "d2d4", "depth", "3"])
    assert go.searchmoves == ("e2e4", "d2d4") and go.depth == 3
    assert ignored == ["go: 'wibble' ignored (not a go parameter)"]


@given(st.lists(st.sampled_from(["Null", "Move", "Hash", "x"]), min_size=1, max_size=3),
       st.lists(st.sampled_from(["1", "true", "a b"]), max_size=3))
def test_setoption_names_and_values_of_several_words(name: list[str], value: list[str]) -> None:
    tokens = ["name", *name, *(["value", *value] if value else [])]
    assert parse_setoption(tokens) == (" ".join(name), " ".join(value) if value else None)


def test_options_are_checked_by_kind() -> None:
    spin = UciOption("tt", "spin", "0", 0, 100)
    combo = UciOption("rule", "combo", "either", choices=("either", "both"))
    check = UciOption("killers", "check", "false")
    assert spin.line() == "option name tt type spin default 0 min 0 max 100"
    assert combo.line() == "option name rule type combo default either var either var both"
    assert (spin.checked(" 7 "), combo.checked("BOTH"), check.checked("True")) == ("7", "both", "true")
    for option, bad in ((spin, "101"), (spin, "x"), (combo, "neither"), (check, "maybe")):
        with pytest.raises(UciInputError, match=option.name):
            option.checked(bad)
    assert find_option((spin, check), "KILLERS") is check
    with pytest.raises(UciInputError, match="no option"):
        find_option((spin,), "Hash")


@given(st.integers(1, 60))
def test_mate_scores_are_moves_and_the_inverse_of_the_engines_reading(plies: int) -> None:
    score = MATE - plies if plies % 2 else -(MATE - plies)
    written = uci_score(score)
    assert written == f"mate {(plies + 1) // 2 if score > 0 else -(plies // 2)}"
    mate = chess.engine.Mate(int(written.split()[1]))
    assert harness_score(chess.engine.PovScore(mate, chess.WHITE), chess.WHITE) == score


@given(st.integers(-9_999, 9_999))
def test_centipawns_are_as_they_are(score: int) -> None:
    assert uci_score(score) == f"cp {score}"


def test_time_limits() -> None:
    assert time_limits(GoCommand(movetime=1000), True) == pytest.approx((0.98, None))
    hard, soft = time_limits(GoCommand(wtime=60_000, btime=1, winc=1000), True)
    assert soft == pytest.approx(1.5) and hard == pytest.approx(5.98)   # share 3 s
    hard, soft = time_limits(GoCommand(wtime=60_000, btime=100, movestogo=1), False)
    assert hard == pytest.approx(0.03) and soft == pytest.approx(0.03)  # never past half
    assert time_limits(GoCommand(depth=3), True) == (None, None)


# The engine, through python-chess.


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    with chess.engine.SimpleEngine.popen_uci(COMMAND, cwd=ROOT) as running:
        yield running


def test_options_are_listed(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"].startswith("harness ")
    options = engine.options
    assert options["variant"].type == "combo" and "pvs" in (options["variant"].var or [])
    assert options["profile"].var == ["none", "classic", "modern"]
    assert options["null-move"].type == "spin" and options["killers"].type == "check"
    assert options["null-rule"].var == ["either", "both"]
    assert options["repetition"].default is True


def test_analysis_to_a_depth_under_a_configuration(engine: chess.engine.SimpleEngine) -> None:
    engine.configure({"profile": "modern", "variant": "negascout"})
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["depth"] == 3
    assert info["score"].white() == chess.engine.Mate(1)    # Qxf7#
    assert info["pv"][0] == chess.Move.from_uci("h5f7")
    engine.configure({"profile": "none", "variant": "pvs"})


def test_moves_played_are_legal(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for _ in range(6):
        move = engine.play(board, chess.engine.Limit(nodes=3000)).move
        assert move is not None and move in board.legal_moves
        board.push(move)


def test_stop_ends_an_infinite_analysis_with_a_move(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move is not None and best.move in board.legal_moves


def test_the_games_repetition_is_seen(engine: chess.engine.SimpleEngine) -> None:
    """After the kings' shuffle, going back repeats the game: 0, where every other move
    loses a queen and a rook's worth; without ``repetition`` the search does not see it."""
    board = chess.Board(LOSING)
    for move in SHUFFLE:
        board.push_uci(move)
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].relative == chess.engine.Cp(0)
    assert info["pv"][0] == chess.Move.from_uci("h1g1")
    engine.configure({"repetition": False})
    blind = engine.analyse(board, chess.engine.Limit(depth=3))
    engine.configure({"repetition": True})
    assert blind["score"].relative < chess.engine.Cp(-900)


# Malformed input, raw.

MALFORMED = [
    "position fen not a fen at all", "go depth 2",          # no valid position: bestmove 0000
    "position startpos moves e2e5", "position", "position fen", "position startpos moves e2",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",               # no kings
    "go depth x", "go nodes -5", "go movestogo 0", "go mate 0", "go depth",
    "setoption name tt value -1", "setoption name tt value 99999999999",
    "setoption name nosuch value 1", "setoption name killers value maybe",
    "setoption name variant value nosuch", "setoption name tt-leaves value true",
    "setoption value 3", "setoption", "setoption name",
    "xyzzy", "", "   ", "\x00\x01", "é" * 5000, "debug on", "register later",
    "ponderhit", "stop",
    "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 2",            # checkmated
    "isready",
    "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1 moves", "go depth 1",   # black to move
]
"""Malformed lines, each go answered at once but the last (the input then ends: the
server answers the search under way before it leaves)."""


def test_malformed_lines_are_answered_never_a_traceback() -> None:
    text = "\n".join(["uci", *MALFORMED]) + "\n"
    done = subprocess.run(COMMAND, input=text.encode("utf-8", "surrogateescape"),
                          capture_output=True, cwd=ROOT, timeout=120)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0
    assert "Traceback" not in out + err
    assert "readyok" in out.splitlines()
    answers = [line for line in out.splitlines() if line.startswith("bestmove")]
    assert answers[:-1] == ["bestmove 0000"] * 7    # no position, 5 malformed, checkmated
    move = chess.Move.from_uci(answers[-1].split()[1])
    assert move in chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1").legal_moves
    said = "\n".join(line for line in out.splitlines() if line.startswith("info string"))
    for reason in ("not legal", "not a whole number", "no option 'nosuch'", "true or false",
                   "outside 0 to", "needs a table", "unknown command ignored", "checkmate",
                   "no valid position"):
        assert reason in said, reason


def test_a_node_budget_gives_the_same_search_in_two_processes() -> None:
    """``go nodes`` is the match's budget: every depth's line and the move the same, time
    aside."""
    text = b"setoption name profile value modern\nposition startpos moves d2d4\ngo nodes 20000\n"
    runs = [subprocess.run(COMMAND, input=text, capture_output=True, cwd=ROOT, timeout=120)
            for _ in range(2)]
    lines = [[re.sub(r" nps \d+ time \d+", "", line) for line in run.stdout.decode().splitlines()]
             for run in runs]
    assert lines[0] == lines[1]
    assert lines[0][-1].startswith("bestmove ") and len(lines[0]) > 4


def test_a_search_piped_in_is_answered_before_the_end() -> None:
    done = subprocess.run(COMMAND, input=b"position startpos\ngo depth 2\n",
                          capture_output=True, cwd=ROOT, timeout=120)
    assert done.stdout.decode().splitlines()[-1].startswith("bestmove ")


@pytest.mark.parametrize("args, reason", [(["--variant", "nosuch"], "nosuch"),
                                          (["--profile", "nosuch"], "one of none, classic, modern"),
                                          (["--tt-leaves"], "needs a table"),
                                          (["--tt", "-1"], "--tt: -1 is outside 0 to"),
                                          (["--null-move", "9"], "outside 0 to 8")])
def test_a_bad_command_line_is_one_line(args: list[str], reason: str) -> None:
    result = CliRunner().invoke(cli, ["uci", *args], input="")
    assert result.exit_code == 2
    assert reason in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


# A game against Stockfish.


@pytest.mark.skipif(not STOCKFISH.exists(), reason="/usr/games/stockfish is not installed "
                    "(Debian and Ubuntu: apt-get install stockfish)")
def test_a_game_against_stockfish() -> None:
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(COMMAND, cwd=ROOT) as harness, \
            chess.engine.SimpleEngine.popen_uci(str(STOCKFISH)) as stockfish:
        stockfish.configure({"Threads": 1, "Hash": 16})
        players = {chess.WHITE: harness, chess.BLACK: stockfish}
        while not board.is_game_over(claim_draw=True) and board.fullmove_number <= 40:
            move = players[board.turn].play(board, chess.engine.Limit(nodes=2000)).move
            assert move is not None and move in board.legal_moves, f"{move} in {board.fen()}"
            board.push(move)
    assert len(board.move_stack) >= 2


@pytest.mark.parametrize("lines", [["go depth 0"], ["go infinite", "stop"],
                                   ["go nodes 1"], ["go movetime 1"], ["go wtime 0 btime 0"]])
def test_every_go_is_answered_with_a_legal_move(lines: list[str]) -> None:
    text = "\n".join(["position startpos moves e2e4", *lines]) + "\n"
    done = subprocess.run(COMMAND, input=text.encode(), capture_output=True, cwd=ROOT,
                          timeout=120)
    answer = done.stdout.decode().splitlines()[-1].split()
    assert answer[0] == "bestmove"
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(answer[1]) in board.legal_moves


def test_the_match_tells_each_depth_and_stops_where_told() -> None:
    """``choose``'s hook (what ``harness uci`` reports from): each finished depth in turn,
    and ``False`` ends the deepening there."""
    from harness.games.base import Problem
    from harness.games.registry import find_game
    from harness.match.play import Budget, choose, make_side
    from harness.match.rules import playing
    from harness.options import resolve
    from harness.search.run import SearchResult, Switches

    options = resolve("chess", find_game("chess").options, {})
    problem = Problem("chess", "uci", "uci", "uci", options=options,
                      position=chess.Board().epd(hmvc=0, fmvn=1))
    told: list[tuple[int, str]] = []

    def hear(depth: int, result: SearchResult) -> bool:
        told.append((depth, result.best_move))
        return depth < 3

    choice = choose(playing(problem), make_side("pvs", Switches()), Budget("nodes", nodes=10**9),
                    on_iteration=hear)
    assert [depth for depth, _ in told] == [1, 2, 3]
    assert choice.depth == 3 and choice.move == told[-1][1]


def test_a_worker_that_dies_is_replaced_and_the_search_answered() -> None:
    engine = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert engine.stdin is not None and engine.stdout is not None

    def send(line: str) -> None:
        assert engine.stdin is not None
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(prefix: str) -> list[str]:
        lines: list[str] = []
        while not lines or not lines[-1].startswith(prefix):
            lines.append(engine.stdout.readline().strip() if engine.stdout else "")
        return lines

    send("isready")
    read_until("readyok")
    workers = [int(d.name) for d in Path("/proc").iterdir() if d.name.isdigit()
               and (d / "stat").read_text().split()[3] == str(engine.pid)]
    send("position startpos")
    send("go infinite")
    read_until("info depth 2")
    os.kill(workers[0], signal.SIGKILL)
    stat = Path(f"/proc/{workers[0]}/stat")
    while stat.exists() and stat.read_text().split()[2] != "Z":    # until it is dead
        time.sleep(0.01)
    send("isready")
    said = read_until("readyok")
    assert "info string the search process ended; a new one is started" in said
    assert not any(line.startswith("bestmove") for line in said)    # infinite: not yet
    send("stop")
    answer = read_until("bestmove")[-1].split()[1]
    assert chess.Move.from_uci(answer) in chess.Board().legal_moves
    send("go depth 2")
    assert read_until("bestmove")[-1].startswith("bestmove ")
    send("quit")
    assert engine.wait(timeout=30) == 0
    assert "Traceback" not in (engine.stderr.read() if engine.stderr else "")
