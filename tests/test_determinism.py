"""The same spec gives identical results in fresh processes, whatever the hash seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

from harness.search import VARIANTS

SPEC = "random:b=2-4,d=4,n=3,seed=11,ordering=0.8,values=incremental,range=20"


def run_in_fresh_process(out: Path, hash_seed: str) -> pd.DataFrame:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    subprocess.run([sys.executable, "-m", "harness", "run", "--trees", SPEC, "--variants", "all",
                    "--depth", "1-4", "--tt", "64", "--out", str(out)],
                   check=True, env=env, capture_output=True, timeout=300)
    return pd.read_csv(out / "results.csv").drop(columns="time_s")


def test_results_are_identical_across_processes(tmp_path: Path) -> None:
    first = run_in_fresh_process(tmp_path / "a", "1")
    second = run_in_fresh_process(tmp_path / "b", "12345")
    assert len(first) == 3 * len(VARIANTS) * 4
    pd.testing.assert_frame_equal(first, second)


def test_chess_table_slots_are_the_same_in_every_process() -> None:
    # A position key must hash alike everywhere, or a table search's counts would not.
    code = ("import chess; from harness.games.chess.tree import ChessTree; "
            "t = ChessTree(chess.Board('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1')); "
            "print(hash(t.key()), [hash(t.key()) for m in list(t.moves())[:5] "
            "if t.push(m) is None and (t.pop() or True)])")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(runs) == 1
