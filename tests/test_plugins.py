"""Variant plug-ins: an installed package adds a variant through the entry-point group
``harness.variants``; a broken or clashing plug-in is one warning line, never a failure."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from .conftest import harness_installed_with, pip_install_into

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "harness-reverse-alphabeta"
TREES = "random:b=3,d=4,n=4,seed=1,ordering=perfect"


harness = harness_installed_with


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example plug-in installed (by pip, from its own pyproject) into a folder."""
    return pip_install_into(tmp_path_factory.mktemp("site"), EXAMPLE)


def test_an_installed_variant_is_listed_with_its_package(installed: Path) -> None:
    listed = harness(installed, "variants")
    assert listed.returncode == 0, listed.stderr
    assert "\nreverse-alphabeta " in listed.stdout
    assert "added by: harness-reverse-alphabeta 0.1.0 (plug-in)" in listed.stdout
    assert "added by" not in listed.stdout.split("\nreverse-alphabeta ")[0]   # built-ins


def test_every_variant_runs_beside_the_plugin(installed: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run = harness(installed, "run", "--trees", TREES, "--variants", "all", "--no-progress",
                  "--out", str(out))
    assert run.returncode == 0, run.stderr
    frame = pd.read_csv(out / "results.csv")
    assert "reverse-alphabeta" in set(frame["variant"])
    exact = frame[~frame["variant"].isin(["belle"])]
    assert exact.groupby("problem_id")["score"].nunique().eq(1).all()      # one value each
    nodes = frame.pivot_table(index="problem_id", columns="variant", values="nodes")
    # Perfectly ordered trees: the best move first, so last-to-first is the worst order.
    assert (nodes["reverse-alphabeta"] > nodes["alphabeta"]).all()


BROKEN = {
    "broken_plugin-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: broken-plugin\n"
                                             "Version: 0.1\n",
    "broken_plugin-0.1.dist-info/entry_points.txt": "[harness.variants]\n"
                                                     "missing = no_such_module:VARIANT\n"
                                                     "clash = clash_module:VARIANT\n"
                                                     "odd = clash_module:NOT_A_VARIANT\n",
    "clash_module.py": "from harness.search.registry import Variant, find_variant\n"
                       "VARIANT = Variant('pvs', 'a second pvs', 'nowhere', "
                       "loop=find_variant('alphabeta').loop)\n"
                       "NOT_A_VARIANT = 42\n",
}


def test_a_broken_or_clashing_plugin_is_a_warning_line_and_the_rest_works(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for name, text in BROKEN.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text)
    out = tmp_path / "run"
    run = harness(site, "run", "--trees", TREES, "--variants", "alphabeta,pvs", "--no-progress",
                  "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    warnings = [line for line in run.stderr.splitlines() if line.startswith("warning: plug-in")]
    assert len(warnings) == 3 and all("broken-plugin 0.1" in line for line in warnings)
    assert any("'missing'" in w and "cannot be loaded (ModuleNotFoundError" in w for w in warnings)
    assert any("'clash'" in w and "the name 'pvs' is taken" in w for w in warnings)
    assert any("'odd'" in w and "42 is not a harness.search.registry.Variant" in w
               for w in warnings)
    frame = pd.read_csv(out / "results.csv")
    assert set(frame["variant"]) == {"alphabeta", "pvs"}            # the built-in pvs
    assert frame.loc[frame["variant"] == "pvs", "zw_searches"].sum() > 0
