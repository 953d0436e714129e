"""Shared helpers for the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.fixture
def textbook_file() -> Path:
    return DATA / "textbook.json"
