"""``modern_match``: does the modern profile play like a tournament program?

Two figures (issue 40), from ``harness match`` run as a subprocess on the openings of the
project's ``bench.epd`` (40 openings, each played twice with the sides swapped: 80 games;
``--quick`` the first 10 pairs), 20,000 nodes a move, two workers:

- ``pvs@modern`` against ``pvs@classic``: the modern side's score (target more than 70%).
- ``pvs@modern`` against ``alphabeta@modern``: the repetitions either side could have
  avoided while ahead by more than a pawn (target 0). A game that ended in a threefold
  repetition is replayed: each move after which the position had occurred before in the
  game is a *repeating move*; it was avoidable when its mover had a legal move that repeats
  nothing, and made while ahead when an independent search of the position before it (the
  modern profile with the game's history, to depth :data:`JUDGE_DEPTH`) scores it above
  :data:`PAWN` centipawns for the mover. Every repeating move, with that search's score,
  is in the details.
"""

from __future__ import annotations

import csv
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, Figure, Outcome, Target

SCORE_TARGET = Target(">=", 0.70)
AVOIDABLE_TARGET = Target("<=", 0)
NODES = 20_000
"""Nodes a move, as issue 40 names it."""
GAMES = {"full": 80, "quick": 20}
JUDGE_DEPTH = 8
"""Depth of the search that says whether a repeating move's mover was ahead."""
PAWN = 100
"""More than this many centipawns ahead: ahead by more than a pawn."""
OPENINGS = "chess:bench.epd"


def play(a: str, b: str, games: int, out: Path) -> list[dict[str, str]]:
    """``harness match a b`` on the openings, ``games`` games (SPRT off), its rows."""
    command = [sys.executable, "-m", "harness", "match", a, b, "--problems", OPENINGS,
               "--nodes", str(NODES), "--games", str(games), "--sprt", "0,2,0.0000001,0.0000001",
               "--jobs", "2", "--no-progress", "--out", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    with (out / "games.csv").open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


def score_of(rows: list[dict[str, str]]) -> float:
    """Side A's points over the games."""
    return sum(float(r["points_a"]) for r in rows) / len(rows)


def repeating_moves(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Every repeating move of the games that ended in a threefold repetition, each with
    whether it was avoidable and the judging search's score for its mover."""
    import chess

    from harness.games.chess.compiled import chess_tree
    from harness.games.chess.game import position_of
    from harness.games.chess.quiescence import QuiescenceRules
    from harness.games.chess.tree import Ordering
    from harness.games.registry import load_problems
    from harness.run.profiles import find_profile
    from harness.search import parse_variants, run_search

    openings = {p.problem_id: p for p in load_problems(OPENINGS).problems}
    modern = find_profile("modern").configuration
    chess_options = {k: v == "1" for k, v in modern.game_options.get("chess", {}).items()}
    ordering = Ordering(True, chess_options.get("killers", False),
                        chess_options.get("history", False),
                        QuiescenceRules(chess_options.get("qsee", False),
                                        chess_options.get("delta", False),
                                        chess_options.get("qchecks", False)))
    spec = parse_variants("pvs")[0]
    found: list[dict[str, Any]] = []
    for row in rows:
        if row["reason"] != "threefold_repetition":
            continue
        board = position_of(openings[row["opening"]]).board()
        for ply, text in enumerate(row["moves"].split()):
            move = chess.Move.from_uci(text)
            mover = "first" if ply % 2 == 0 else "second"
            before = board.copy()
            board.push(move)
            if not board.is_repetition(2):
                continue
            avoidable = any(not _repeats(before, other) for other in before.legal_moves)
            tree = chess_tree(before, ordering, "compiled", True)
            result = run_search(tree, spec, JUDGE_DEPTH, modern.switches)
            score = result.score if result.score is not None else 0
            found.append({"pair": row["pair"], "game": row["game"], "ply": ply + 1,
                          "move": text, "mover": row[mover], "score": score,
                          "avoidable": avoidable, "ahead": score > PAWN})
    return found


def _repeats(board: Any, move: Any) -> bool:
    board.push(move)
    try:
        return bool(board.is_repetition(2))
    finally:
        board.pop()


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    games = GAMES[mode]
    figures: list[Figure] = []
    details: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="bench-modern-match-") as folder:
        root = Path(folder)
        classic = play("pvs@modern", "pvs@classic", games, root / "classic")
        score = score_of(classic)
        draws = sum(r["result"] == "1/2-1/2" for r in classic)
        wins = sum(float(r["points_a"]) == 1.0 for r in classic)
        figures.append(Figure("pvs@modern against pvs@classic: score", score, "", SCORE_TARGET,
                              f"{len(classic)} games at {NODES:,} nodes a move: W {wins} "
                              f"D {draws} L {len(classic) - wins - draws}"))
        modern = play("pvs@modern", "alphabeta@modern", games, root / "modern")
        moves = repeating_moves(modern)
        avoidable = [m for m in moves if m["avoidable"] and m["ahead"]]
        threefold = sum(r["reason"] == "threefold_repetition" for r in modern)
        figures.append(Figure(
            "two modern sides: repetitions avoidable while ahead by more than a pawn",
            len(avoidable), "", AVOIDABLE_TARGET,
            f"{len(modern)} games, {threefold} ended in a threefold repetition; "
            f"{len(moves)} repeating moves judged by pvs --profile modern to depth "
            f"{JUDGE_DEPTH}, the most a mover was ahead at one: "
            f"{max((m['score'] for m in moves), default=0)} cp"))
        details["repeating moves"] = moves
        details["modern score"] = score_of(modern)
    method = (f"harness match on {OPENINGS}'s openings, {games} games (SPRT bounds made "
              f"unreachable), {NODES:,} nodes a move, --jobs 2; games ending in a threefold "
              "repetition replayed with python-chess and each repeating move's position "
              f"searched with the modern profile and the game's history to depth {JUDGE_DEPTH}.")
    return Outcome("modern_match", figures, 1, mode, method, details,
                   time.perf_counter() - start)
