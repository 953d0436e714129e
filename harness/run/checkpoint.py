"""A log of finished jobs, so an interrupted measurement resumes where it stopped.

Each finished job's rows are appended as one JSON line (``{"job": i, "rows": [...]}``)
and made durable at once; reading it back keeps every whole line and drops a last one
torn by a crash. Used by ``harness reproduce``, whose results are only written once every
claim is measured (a run keeps its rows in ``results.csv`` instead).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from harness.errors import HarnessError
from harness.files import writing


class JobLog:
    """Finished jobs of one measurement, appended to a JSON-lines file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        """The file: one line per finished job."""

    def read(self) -> dict[int, list[dict[str, Any]]]:
        """Each finished job's rows by its index (a torn last line is left out)."""
        if not self.path.exists():
            return {}
        finished: dict[int, list[dict[str, Any]]] = {}
        text = self.path.read_text(encoding="utf-8")
        whole = text[:text.rfind("\n") + 1]
        for number, line in enumerate(whole.splitlines(), 1):
            try:
                entry = json.loads(line)
                finished[int(entry["job"])] = list(entry["rows"])
            except (ValueError, KeyError, TypeError):
                raise HarnessError(f"{self.path}:{number}: not a finished job's record") from None
        return finished

    def restart(self, finished: dict[int, list[dict[str, Any]]]) -> None:
        """Rewrite the log with ``finished`` only (drops a torn last line)."""
        with writing(self.path) as file:
            for index in sorted(finished):
                file.write(_line(index, finished[index]))

    def append(self, index: int, rows: list[dict[str, Any]]) -> None:
        """Record job ``index`` as finished with ``rows``, durably."""
        with self.path.open("a", encoding="utf-8") as file:
            file.write(_line(index, rows))
            file.flush()
            os.fsync(file.fileno())


def _line(index: int, rows: list[dict[str, Any]]) -> str:
    return json.dumps({"job": index, "rows": rows}, separators=(",", ":")) + "\n"
