"""The same spec gives identical results in fresh processes, whatever the hash seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

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
    assert len(first) == 3 * 15 * 4
    pd.testing.assert_frame_equal(first, second)
