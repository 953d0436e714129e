"""``modern``: does the modern profile search like a tournament program?

Three figures (issue 40), on the Win At Chess suite (``wac.epd``, 300 positions; ``--quick``
its first 30):

- ``harness run --suite wac.epd --variants pvs --profile modern --depth 10 --jobs 2`` (every
  selective switch, iterative deepening to depth 10) as a subprocess: its wall time (target
  under 10 minutes) and the positions solved at depth 10 (target at least 270), beside the
  classic configuration the issue names (table, iterative deepening, killers, history,
  null move, check extension: full width) at depth 6, run the same way.
- Nodes and qnodes to complete depth 8, modern over that full-width configuration, the
  median of per-position ratios over the first 50 positions (``--quick`` 10): target at
  most 0.2.
- Where Debian's ``gnuchess`` is installed: GNU Chess 6 on the same positions at depth 6
  through UCI (one thread, 16 MB hash, a new game before each search), its nodes and solved
  count beside the harness's (skipped, and said, where it is not).

Solved is the harness's own judgement (``bm``/``am``) of each search's best move.
"""

from __future__ import annotations

import contextlib
import csv
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, Figure, Outcome, Target, first_positions_epd, wac_path

WALL_TARGET = Target("<=", 600.0)
SOLVED_TARGET = Target(">=", 270)
RATIO_TARGET = Target("<=", 0.2)
FULL_WIDTH = ["--tt", "1048576", "--id", "--killers", "--history", "--null-move", "2",
              "--check-extension"]
"""Today's best full-width configuration (issue 40's words): table, iterative deepening,
hash move, killers, history, null move R=2, check extension."""
SIZES = {"full": (300, 50), "quick": (30, 10)}
"""Positions of the depth-10 run and of the depth-8 ratio."""


def harness_run(epd: Path, depth: int, options: list[str], out: Path) -> tuple[float, list[dict[str, str]]]:
    """``harness run`` of pvs on ``epd`` to ``depth`` with ``options``, two workers: its
    wall seconds and its rows."""
    command = [sys.executable, "-m", "harness", "run", "--suite", str(epd), "--variants", "pvs",
               "--depth", str(depth), *options, "--jobs", "2", "--no-progress", "--out", str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    with (out / "results.csv").open(encoding="utf-8") as file:
        return wall, [row for row in csv.DictReader(file) if int(row["depth"]) == depth]


def solved(rows: list[dict[str, str]]) -> int:
    return sum(row["solved"] in ("1", "True", "true") for row in rows)


def work(row: dict[str, str]) -> int:
    return int(row["nodes"]) + int(row["qnodes"])


def gnuchess(epd: Path, depth: int) -> tuple[int, int, int] | None:
    """GNU Chess at ``depth`` on every position of ``epd``: (positions, nodes, solved), or
    ``None`` where it is not installed."""
    program = shutil.which("gnuchess") or shutil.which("gnuchess", path="/usr/games")
    if program is None:
        return None
    import chess
    import chess.engine

    from harness.games.chess.epd import load_suite
    from harness.games.chess.epd import solved as solves

    engine = chess.engine.SimpleEngine.popen_uci([program, "--uci"])
    try:
        engine.configure({"Hash": 16} if "Hash" in engine.options else {})
        nodes = found = count = 0
        for position in load_suite(epd).positions:
            info = engine.analyse(position.board(), chess.engine.Limit(depth=depth), game=object())
            nodes += int(info.get("nodes", 0))
            pv = info.get("pv")
            found += bool(pv and solves(position, pv[0]))
            count += 1
    finally:
        with contextlib.suppress(chess.engine.EngineError):     # GNU Chess crashes on quit
            engine.quit()
    return count, nodes, found


def measure(mode: str, repeats: int | None = None) -> Outcome:
    start = time.perf_counter()
    wac = wac_path()
    positions, sample = SIZES[mode]
    figures: list[Figure] = []
    details: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="bench-modern-") as folder:
        root = Path(folder)
        epd = first_positions_epd(wac, positions, root)
        wall, modern = harness_run(epd, 10, ["--profile", "modern"], root / "modern10")
        classic_wall, classic = harness_run(epd, 6, FULL_WIDTH, root / "classic6")
        figures += [
            Figure("pvs --profile modern, WAC to depth 10, 2 workers: wall time", wall, "s",
                   WALL_TARGET if positions == 300 else None, f"{positions} positions"),
            Figure("... positions solved at depth 10", solved(modern), "",
                   SOLVED_TARGET if positions == 300 else None,
                   f"full width (table, ID, killers, history, null move, check extension) "
                   f"solves {solved(classic)} at depth 6 in {classic_wall:.0f} s"),
        ]
        few = first_positions_epd(wac, sample, root)
        _, modern8 = harness_run(few, 8, ["--profile", "modern"], root / "modern8")
        _, wide8 = harness_run(few, 8, FULL_WIDTH, root / "wide8")
        by_id = {row["problem_id"]: work(row) for row in wide8}
        ratios = [work(row) / by_id[row["problem_id"]] for row in modern8
                  if by_id.get(row["problem_id"])]
        ratio = statistics.median(ratios)
        figures.append(Figure("nodes + qnodes to depth 8, modern / full width (median per position)",
                              ratio, "x", RATIO_TARGET,
                              f"{len(ratios)} positions; total {sum(work(r) for r in modern8):,} "
                              f"against {sum(by_id.values()):,}; solved {solved(modern8)} "
                              f"against {solved(wide8)}"))
        details["depth 8"] = {"modern": sum(work(r) for r in modern8),
                              "full width": sum(by_id.values()),
                              "ratios": [round(r, 4) for r in ratios]}
        classic_epd = first_positions_epd(wac, sample, root)
        _, harness6 = harness_run(classic_epd, 6, FULL_WIDTH, root / "classic6-sample")
        found = gnuchess(classic_epd, 6)
        if found is None:
            figures.append(Figure("GNU Chess at depth 6: nodes", None, "", None,
                                  "not measured: gnuchess is not installed (apt-get install gnuchess)"))
        else:
            count, nodes, solved_count = found
            figures.append(Figure("GNU Chess at depth 6: nodes", nodes, "", None,
                                  f"solves {solved_count} of {count}; the harness full width at "
                                  f"depth 6: {sum(work(r) for r in harness6):,} nodes + qnodes, "
                                  f"solves {solved(harness6)}"))
    method = ("harness run as a subprocess (pvs, --jobs 2) on the first positions of wac.epd: "
              "--profile modern to depth 10, the full-width configuration (table, iterative "
              "deepening, killers, history, null move 2, check extension) to depth 6, both to "
              "depth 8 on a sample for the per-position node ratio; GNU Chess through UCI "
              "(python-chess) at depth 6 on the sample where installed.")
    return Outcome("modern", figures, 1, mode, method, details, time.perf_counter() - start)
