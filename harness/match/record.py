"""A match's files: ``games.csv`` (one tidy row per game, written pair by pair as the pairs
are decided in order), ``games.pgn`` for chess, and reading the rows back to resume."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from harness.errors import HarnessError
from harness.files import write_whole
from harness.games.base import Problem
from harness.match.play import Game

GAMES_FILE = "games.csv"
PGN_FILE = "games.pgn"
COLUMNS = ("pair", "game", "opening", "first", "second", "result", "points_a", "reason",
           "plies", "nodes_a", "nodes_b", "work_a", "work_b", "seconds_a", "seconds_b",
           "frame_a", "frame_b", "mean_depth_a", "mean_depth_b", "moves")
"""``games.csv``: the pair's number, the game in it (0: A first), the opening's id, the
labels of the sides that moved first and second from it, the result from the first
mover's side (``1-0``, ``0-1``, ``1/2-1/2``), A's points, how it ended, the plies, each
side's nodes of its finished searches (the budget's measure), nodes and quiescence nodes
of all its searches, their seconds and the frame they ran in (``compiled``, ``python``...:
seconds of two frames compare implementations, not algorithms), its mean depth, and the
moves (space-separated)."""


def game_row(pair: int, number: int, game: Game, labels: tuple[str, str]) -> dict[str, object]:
    """One row of ``games.csv``."""
    first, second = labels if game.a_first else (labels[1], labels[0])
    points_first = game.points_a if game.a_first else 1 - game.points_a
    result = {1.0: "1-0", 0.0: "0-1"}.get(points_first, "1/2-1/2")

    def mean_depth(side: int) -> str:
        return f"{game.depths[side] / game.searches[side]:.2f}" if game.searches[side] else ""

    return {"pair": pair, "game": number, "opening": game.opening, "first": first,
            "second": second, "result": result, "points_a": game.points_a,
            "reason": game.reason, "plies": game.plies, "nodes_a": game.nodes[0],
            "nodes_b": game.nodes[1], "work_a": game.work[0], "work_b": game.work[1],
            "seconds_a": f"{game.seconds[0]:.6f}", "seconds_b": f"{game.seconds[1]:.6f}",
            "frame_a": game.frames[0], "frame_b": game.frames[1],
            "mean_depth_a": mean_depth(0), "mean_depth_b": mean_depth(1),
            "moves": " ".join(game.moves)}


class GamesWriter:
    """Appends pairs to ``games.csv`` (the header first, when the file is new)."""

    def __init__(self, path: Path, labels: tuple[str, str]) -> None:
        self.path, self.labels = path, labels
        if not path.exists() or path.stat().st_size == 0:
            write_whole(path, _lines([dict(zip(COLUMNS, COLUMNS, strict=True))]))

    def add(self, pair: int, games: Sequence[Game]) -> None:
        text = _lines(game_row(pair, i, g, self.labels) for i, g in enumerate(games))
        with self.path.open("a", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()


def _lines(rows: Iterable[Mapping[str, object]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


def read_pairs(path: Path) -> list[tuple[float, float, list[dict[str, str]]]]:
    """The complete pairs of ``games.csv`` in order: A's points in each game and the rows.
    A last pair left half-written by a kill is dropped (the file is cut back to the whole
    pairs, which are replayed identically)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    if rows and list(rows[0]) != list(COLUMNS):
        raise HarnessError(f"{path}: not a match's {GAMES_FILE} of this harness (columns differ: "
                           "one written before each side's frame was recorded cannot be "
                           "resumed; play the match again with another --out)")
    pairs: list[tuple[float, float, list[dict[str, str]]]] = []
    for start in range(0, len(rows) - 1, 2):
        first, second = rows[start], rows[start + 1]
        try:
            complete = (int(first["pair"]) == int(second["pair"]) == len(pairs)
                        and first["game"] == "0" and second["game"] == "1")
            points = (float(first["points_a"]), float(second["points_a"]))
        except (TypeError, ValueError):
            complete = False
        if not complete:
            break
        pairs.append((points[0], points[1], [first, second]))
    if 2 * len(pairs) != len(rows) or not text.endswith("\n"):
        write_whole(path, _lines([dict(zip(COLUMNS, COLUMNS, strict=True))])
                    + _lines(row for _, _, kept in pairs for row in kept))
    return pairs


def write_pgn(path: Path, rows: Sequence[dict[str, str]], openings: dict[str, Problem],
              event: str) -> None:
    """Every chess game of ``rows`` as PGN, from its opening's FEN (python-chess)."""
    import chess
    import chess.pgn

    from harness.games.chess.game import position_of

    out = io.StringIO()
    for row in rows:
        board = position_of(openings[row["opening"]]).board()
        game = chess.pgn.Game()
        game.setup(board)
        white_first = board.turn == chess.WHITE
        white, black = ((row["first"], row["second"]) if white_first
                        else (row["second"], row["first"]))
        first_won = {"1-0": True, "0-1": False}.get(row["result"])
        result = ("1/2-1/2" if first_won is None
                  else "1-0" if first_won == white_first else "0-1")
        game.headers.update({"Event": event, "Round": f"{int(row['pair']) + 1}.{int(row['game']) + 1}",
                             "White": white, "Black": black, "Result": result,
                             "Opening": row["opening"], "Termination": row["reason"]})
        node: chess.pgn.GameNode = game
        for move in row["moves"].split():
            node = node.add_variation(chess.Move.from_uci(move))
        print(game, file=out, end="\n\n")
    write_whole(path, out.getvalue())
