"""harness reproduce: what claims.json records of how it was made (commit, clean tree,
versions, machine), in a git checkout made for the test and outside any."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness.reproduce.provenance import (
    UNKNOWN,
    dependency_versions,
    last_commit_of,
    provenance,
    source_state,
)


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    git(folder, "init", "-q")
    git(folder, "config", "user.email", "t@example.org")
    git(folder, "config", "user.name", "t")
    (folder / "rules.json").write_text("{}\n", encoding="utf-8")
    git(folder, "add", "rules.json")
    git(folder, "commit", "-qm", "rules")
    return folder


def test_a_clean_checkout_names_its_commit(checkout: Path) -> None:
    state = source_state(checkout)
    assert state == {"commit": git(checkout, "rev-parse", "HEAD"), "clean": True, "changed": [],
                     "changed_count": 0}


def test_a_changed_or_new_file_makes_the_tree_not_clean(checkout: Path) -> None:
    (checkout / "rules.json").write_text('{"changed": 1}\n', encoding="utf-8")
    (checkout / "new.json").write_text("{}\n", encoding="utf-8")      # untracked counts too
    state = source_state(checkout)
    assert state["clean"] is False and state["changed_count"] == 2
    assert sorted(state["changed"]) == ["new.json", "rules.json"]


def test_outside_a_checkout_the_commit_is_unknown(tmp_path: Path) -> None:
    assert source_state(tmp_path) == {"commit": UNKNOWN, "clean": UNKNOWN, "changed": [],
                                      "changed_count": 0}
    assert last_commit_of("rules.json", tmp_path) == UNKNOWN


def test_the_commit_that_last_changed_a_file(checkout: Path) -> None:
    first = git(checkout, "rev-parse", "HEAD")
    (checkout / "other.txt").write_text("x\n", encoding="utf-8")
    git(checkout, "add", "other.txt")
    git(checkout, "commit", "-qm", "other")
    assert last_commit_of("rules.json", checkout) == first
    assert last_commit_of("never.json", checkout) == UNKNOWN


def test_the_declared_dependencies_with_their_versions() -> None:
    found = dependency_versions()
    assert {"numpy", "pandas", "click", "chess", "matplotlib"} <= set(found)
    assert "dask" not in found and "pytest" not in found          # extras are not dependencies
    assert all(isinstance(v, str) and v for v in found.values())


def test_the_record_holds_source_versions_and_machine() -> None:
    record = provenance()
    assert set(record) == {"source", "harness", "dependencies", "counting_version", "environment"}
    here = source_state(Path(__file__).parent)
    assert record["source"]["commit"] == here["commit"]
    assert record["environment"]["machine"]["cpus"] and record["environment"]["python"]
