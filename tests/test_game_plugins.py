"""Game plug-ins: an installed package adds a game through the entry-point group
``harness.games`` (the example ``examples/harness-nim`` adds Nim and a variant); every
variant runs on it and agrees with Bouton's theory; a broken or clashing game plug-in is
one warning line, never a failure."""

from __future__ import annotations

from functools import reduce
from operator import xor
from pathlib import Path

import pandas as pd
import pytest

from .conftest import harness_installed_with, pip_install_into

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "harness-nim"
NIM = {"1-2-3": (1, 2, 3), "3-4-5": (3, 4, 5)}
"""The problems searched, by suite, with their piles: 1-2-3 is a loss for the mover
(nim-sum 0), 3-4-5 a win (nim-sum 2)."""


harness = harness_installed_with


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example plug-in installed (by pip, from its own pyproject) into a folder."""
    return pip_install_into(tmp_path_factory.mktemp("site"), EXAMPLE)


def test_an_installed_game_is_listed_with_its_package(installed: Path) -> None:
    listed = harness(installed, "games")
    assert listed.returncode == 0, listed.stderr
    assert "\nnim:PILES" in listed.stdout
    nim = listed.stdout.split("\nnim:PILES")[1]
    assert "added by: harness-nim 0.1.0 (plug-in)" in nim
    assert "option order=small-first" in nim
    assert "added by" not in listed.stdout.split("\nnim:PILES")[0]          # built-ins
    variants = harness(installed, "variants")
    assert "added by: harness-nim 0.1.0 (plug-in)" in variants.stdout.split("\nalphabeta-shallow ")[1]


def test_every_variant_runs_on_nim_and_agrees_with_bouton(installed: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run = harness(installed, "run", "--problems", "nim:1-2-3", "--problems", "nim:3-4-5",
                  "--variants", "all", "--no-progress", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr
    frame = pd.read_csv(out / "results.csv", dtype={"suite": str})
    assert set(frame["game"]) == {"nim"} and set(frame["suite"]) == set(NIM)
    assert {"minimax", "alphabeta", "mtdf", "alphabeta-shallow"} <= set(frame["variant"])
    assert frame.groupby("suite")["variant"].nunique().eq(frame["variant"].nunique()).all()
    assert (frame["depth"] == frame["suite"].map(lambda s: sum(NIM[s]))).all()   # to the end
    exact = frame[~frame["variant"].isin(["belle"])]        # Belle's root score is a bound
    assert (exact["bound"] == "exact").all() and (exact["solved"] == 1).all()
    bouton = {suite: 1 if reduce(xor, piles) else -1 for suite, piles in NIM.items()}
    assert bouton == {"1-2-3": -1, "3-4-5": 1}              # the mover loses iff nim-sum is 0
    for suite, piles in NIM.items():
        assert (frame.loc[frame["suite"] == suite, "nim_sum"] == reduce(xor, piles)).all()
        assert set(exact.loc[exact["suite"] == suite, "score"]) == {bouton[suite]}   # all agree
    nodes = frame.pivot_table(index="suite", columns="variant", values="nodes")
    # Shallow cutoffs only: fewer nodes than no pruning, more than alpha-beta's deep cutoffs.
    assert (nodes["alphabeta"] < nodes["alphabeta-shallow"]).all()
    assert (nodes["alphabeta-shallow"] < nodes["minimax"]).all()
    assert nodes.loc["3-4-5", "minimax"] == 1_038_768       # every line of the game, counted


def test_options_and_a_shallow_search(installed: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run = harness(installed, "run", "--problems", "nim:2 3 4,order=large-first", "--depth", "2",
                  "--variants", "alphabeta,alphabeta-shallow", "--tt", "1000", "--no-progress",
                  "--out", str(out))
    assert run.returncode == 0, run.stderr
    frame = pd.read_csv(out / "results.csv")
    assert set(frame["suite"]) == {"2-3-4,order=large-first"}
    assert (frame["score"] == 0).all() and (frame["solved"] == 0).all()   # 0: undecided
    assert set(frame["best_move"]) == {"1:2"}              # all 0: the first, the most from pile 1


BAD = {
    "nim:3-x": "nim:3-x: 'x' is not a pile size",
    "nim:3 -1": "nim:3 -1: pile -1 is negative",
    "nim:": "nim:: no piles",
    "nim:3-4,order=big": "option order='big' is not one of: small-first, large-first",
}


@pytest.mark.parametrize("name", BAD)
def test_bad_nim_input_is_one_line(installed: Path, tmp_path: Path, name: str) -> None:
    run = harness(installed, "run", "--problems", name, "--variants", "alphabeta",
                  "--no-progress", "--out", str(tmp_path / "run"))
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and BAD[name] in run.stderr


def fake_site(site: Path, package: str, entry_points: str, modules: dict[str, str]) -> None:
    """``package`` 0.1 as if installed in ``site``: its metadata, entry points, modules."""
    files = {f"{package}-0.1.dist-info/METADATA": "Metadata-Version: 2.1\n"
                                                 f"Name: {package.replace('_', '-')}\n"
                                                 "Version: 0.1\n",
             f"{package}-0.1.dist-info/entry_points.txt": entry_points, **modules}
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text)


def test_a_broken_or_clashing_game_plugin_is_a_warning_line_and_the_rest_works(
        tmp_path: Path) -> None:
    site = tmp_path / "site"
    fake_site(site, "broken_game", "[harness.games]\nbroken = broken_game_module:GAME\n",
              {"broken_game_module.py": "raise RuntimeError('no board today')\n"})
    fake_site(site, "clashing_game", "[harness.games]\nclash = clashing_game_module:GAME\n",
              {"clashing_game_module.py": "from harness.games.chess.game import Chess\n"
                                          "GAME = Chess()\n"})
    out = tmp_path / "run"
    run = harness(site, "run", "--trees", "random:b=2,d=2,n=1", "--variants", "alphabeta",
                  "--no-progress", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    warnings = [line for line in run.stderr.splitlines() if line.startswith("warning: plug-in")]
    assert len(warnings) == 2
    broken = [w for w in warnings if "broken-game 0.1" in w]
    clash = [w for w in warnings if "clashing-game 0.1" in w]
    assert len(broken) == 1 and "'broken'" in broken[0]
    assert "cannot be loaded (RuntimeError: no board today)" in broken[0]
    assert len(clash) == 1 and "'clash'" in clash[0] and "the name 'chess' is taken" in clash[0]
    frame = pd.read_csv(out / "results.csv")
    assert list(frame["variant"]) == ["alphabeta"] and frame["score"].notna().all()
    listed = harness(site, "games")
    assert listed.returncode == 0 and "added by" not in listed.stdout   # chess is the built-in
