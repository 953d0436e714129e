"""A fake UCI engine for the tests: just enough UCI (``uci``, ``isready``, ``setoption``,
``ucinewgame``, ``position``, ``go``, ``stop``, ``quit``) to stand in for a real one, with
modes that misbehave as real engines do, so the fault matrix runs where no engine is
installed.

Run as ``python fake_uci.py [MODE] [FILE]``. Modes: ``ok`` (answers every search, its node
count a function of the position and depth), ``hang`` (never answers ``go``), ``crash``
(dies on every ``go``), ``crash-once`` (dies on the first ``go`` when FILE does not exist
yet, creating it), ``ignore-nodes`` (never answers ``go nodes N`` without a depth, as GNU
Chess), ``drift`` (its count grows by one each search, as a nondeterministic engine),
``crash-on-quit`` (dies with SIGSEGV on ``quit``, as GNU Chess), ``mute`` (never says
``uciok``), ``hang-black`` and ``crash-black`` (``hang`` and ``crash`` with black to move
only: the first WAC position, white to move, passes the check before a run), ``toga``
(says it is Toga II and offers Toga II's search options, each of which changes its node
count by a factor of :data:`FACTORS`, for ``harness ablate --engine``), ``toga-old``
(the same without ``History Pruning``, as another version might), ``illegal-black``
(answers a search with black to move with an illegal move), ``log`` (appends every
``position`` command it gets to FILE: what a match sends it) and ``hang-once-after``
(counts its searches in FILE over all its processes and hangs once, on search N + 1, N the
third argument; then plays on as ``ok``).
"""

from __future__ import annotations

import os
import signal
import sys
import time
import zlib

import chess

TOGA_OPTIONS = (
    "option name NullMove Pruning type combo default Always var Always var Fail High var Never",
    "option name History Pruning type check default true",
    "option name Futility Pruning type check default true",
    "option name Delta Pruning type check default true",
    "option name Quiescence Check Plies type spin default 1 min 0 max 2",
)
"""Toga II 3.0's search options as it declares them (those ``harness ablate`` switches)."""

FACTORS = {("NullMove Pruning", "Never"): 3.0, ("History Pruning", "false"): 2.0,
           ("Futility Pruning", "false"): 1.25, ("Delta Pruning", "false"): 1.1,
           ("Quiescence Check Plies", "0"): 0.8}
"""How much more a search counts in the ``toga`` modes with an option so set: the ratios
an ablation of the fake engine must find."""


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    marker = sys.argv[2] if len(sys.argv) > 2 else ""
    hang_after = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    board = chess.Board()
    searches = 0
    settings: dict[str, str] = {}
    for raw in sys.stdin:
        line = raw.strip()
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            if mode == "mute":
                continue
            say("id name Toga II 3.0 (fake)" if mode.startswith("toga") else "id name Fake UCI 1.0")
            say("id author the harness's tests")
            say("option name Hash type spin default 1 min 1 max 128")
            say("option name Threads type spin default 1 min 1 max 4")
            say("option name Clear Hash type button")
            say("option name Style type combo default Normal var Normal var Risky")
            for option in TOGA_OPTIONS if mode.startswith("toga") else ():
                if not (mode == "toga-old" and "History Pruning" in option):
                    say(option)
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "setoption" and "value" in words:
            at = words.index("value")
            settings[" ".join(words[2:at])] = " ".join(words[at + 1:])
        elif words[0] == "position":
            board = position(words)
            if mode == "log":
                with open(marker, "a", encoding="utf-8") as log:
                    log.write(line + "\n")
        elif words[0] == "go":
            searches += 1
            depth = int(words[words.index("depth") + 1]) if "depth" in words else None
            black = board.turn == chess.BLACK
            if mode == "hang" or (mode == "ignore-nodes" and depth is None) or \
                    (mode == "hang-black" and black) or \
                    (mode == "hang-once-after" and hangs_now(marker, hang_after)):
                continue
            if mode == "crash" or (mode == "crash-once" and not os.path.exists(marker)) or \
                    (mode == "crash-black" and black):
                if marker:
                    open(marker, "w").close()
                os.kill(os.getpid(), signal.SIGKILL)
            depth = depth or 1
            nodes = 100 * depth + zlib.crc32(board.fen().encode()) % 97
            nodes += searches if mode == "drift" else 0
            for (option, value), factor in FACTORS.items():
                nodes = round(nodes * factor) if settings.get(option) == value else nodes
            moves = sorted(move.uci() for move in board.legal_moves)
            if not moves:
                say("info depth 0 score mate 0")
                say("bestmove (none)")
                continue
            say(f"info depth {depth} seldepth {depth + 2} score cp {nodes % 50 - 25} nodes {nodes} "
                f"time 3 pv {moves[0]}")
            if mode == "illegal-black" and black:
                say(f"bestmove {illegal(board)}")
                continue
            say(f"bestmove {moves[0]}")
        elif words[0] == "quit":
            if mode == "crash-on-quit":
                os.kill(os.getpid(), signal.SIGSEGV)
            return
    time.sleep(0)


def position(words: list[str]) -> chess.Board:
    if words[1] == "startpos":
        board, rest = chess.Board(), words[2:]
    else:
        end = words.index("moves") if "moves" in words else len(words)
        board, rest = chess.Board(" ".join(words[2:end])), words[end:]
    for move in rest[1:]:
        board.push_uci(move)
    return board


def hangs_now(counter: str, after: int) -> bool:
    """Count a search in the file ``counter``; true on search ``after + 1`` the first time
    (a file beside it remembers the hang)."""
    count = 1
    if os.path.exists(counter):
        with open(counter) as file:
            count += int(file.read() or 0)
    with open(counter, "w") as file:
        file.write(str(count))
    if count > after and not os.path.exists(counter + ".hung"):
        open(counter + ".hung", "w").close()
        return True
    return False


def illegal(board: chess.Board) -> str:
    """A move in UCI notation that is not legal at ``board``: a piece moved one square up
    where it cannot go (well formed, so only its legality is wrong)."""
    legal = set(board.legal_moves)
    for square in chess.SQUARES:
        for target in chess.SQUARES:
            move = chess.Move(square, target)
            if square != target and move not in legal:
                return move.uci()
    raise AssertionError("every move legal")


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
