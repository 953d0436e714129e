"""docs/architecture.md stays the house's map: every module named, nothing named that is gone,
and the checklists' files real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
SOURCES = (".py", ".c", ".h")


def modules() -> list[Path]:
    return sorted(path.relative_to(ROOT) for path in (ROOT / "harness").rglob("*")
                  if path.suffix in SOURCES and "__pycache__" not in path.parts)


def named() -> set[Path]:
    """The files the page's "Every module" tables name: each table under a heading
    ``### `harness/PACKAGE/```, one row per module."""
    text = PAGE.read_text().split("## Every module", 1)[1]
    found: set[Path] = set()
    folder: str | None = None
    for line in text.splitlines():
        heading = re.match(r"### `(harness[^`]*)/`", line)
        if heading:
            folder = heading.group(1)
            continue
        row = re.match(r"\| `([^`]+)` \|", line)
        if row and folder is not None:
            found.add(Path(folder) / row.group(1))
    return found


def test_every_module_is_named_once_with_a_line() -> None:
    missing = [str(path) for path in modules() if path not in named()]
    assert not missing, f"docs/architecture.md does not name: {missing}"


def test_every_module_named_exists() -> None:
    gone = sorted(str(path) for path in named() if not (ROOT / path).is_file())
    assert not gone, f"docs/architecture.md names files that are gone: {gone}"


def checklist_paths() -> list[str]:
    text = PAGE.read_text().split("## Checklists", 1)[1].split("## Every module", 1)[0]
    paths = re.findall(r"`((?:harness|tests|benchmarks)/[^`\s]*|setup\.py|Makefile|"
                       r"pyproject\.toml)`", text)
    # A placeholder stands for any game or claim: check it with one that exists.
    return sorted({p.replace("<game>", "connect4").replace("<claim>", "pons") for p in paths})


@pytest.mark.parametrize("path", checklist_paths())
def test_every_file_a_checklist_names_exists(path: str) -> None:
    assert (ROOT / path).exists(), f"a checklist of docs/architecture.md names {path}"


def test_the_checklists_are_there() -> None:
    text = PAGE.read_text()
    for heading in ("### Adding a built-in compiled game", "### Adding a variant",
                    "### Adding a claim of the literature"):
        assert heading in text
    assert len(checklist_paths()) >= 15


def test_every_compiled_source_is_in_the_makefile() -> None:
    """The game checklist's step 6: each C file setup.py builds is one of the Makefile's
    COMPILED_SOURCES (else an edit would not rebuild it)."""
    setup = (ROOT / "setup.py").read_text()
    makefile = (ROOT / "Makefile").read_text()
    built = re.findall(r'Extension\("[^"]+", \["([^"]+\.c)"\]', setup)
    assert len(built) >= 7
    assert not [c for c in built if c not in makefile]
