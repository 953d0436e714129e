"""The one exception the harness raises for bad input, and the wording of the errors it
turns into one."""

from __future__ import annotations

from pathlib import Path


class HarnessError(ValueError):
    """Bad input: a malformed tree or spec, an unknown variant or option, an impossible depth.

    The message is one line that names the file (and line) or the option and says what is
    wrong; the CLI prints it as it is and exits with code 2.
    """


def decode_utf8(path: str | Path, data: bytes) -> str:
    """A file's bytes as text (a UTF-8 byte-order mark is dropped), or a
    :class:`HarnessError` naming the file and the line of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise HarnessError(f"{path}:{line}: not UTF-8 text") from None


def os_error_text(exc: OSError) -> str:
    """An operating-system error as one line, ``FILE: reason`` (both files of a rename).

    The operation is not named: the same error comes from creating a folder, writing or
    reading, and the library words the errors whose operation it knows itself."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is None:
        return reason
    files = str(exc.filename) if exc.filename2 is None else f"{exc.filename} -> {exc.filename2}"
    return f"{files}: {reason}"


def check_writable(path: str | Path, option: str) -> None:
    """Make sure a file can be written at ``path`` (its folder made if need be) before any
    work that would be lost if it could not: a :class:`HarnessError` naming ``option``
    otherwise. A probe file is written and removed: permission bits do not tell (root, a
    read-only mount)."""
    folder = Path(path).parent
    probe = folder / f".{Path(path).name}.probe"
    blocking = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if blocking is not None and not blocking.is_dir():
        raise HarnessError(f"{option} {path}: {blocking} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise HarnessError(f"{option} {path}: cannot write in {folder}: {exc.strerror or exc}") from None


DISAGREEMENT_EXIT = 3
"""The exit status of a run, comparison or reproduction whose exact variants' answers
disagree (everything is written; ``--allow-disagreement`` exits 0)."""
DISAGREEMENTS_FILE = "disagreements.csv"
"""Where a run lists every answer to the problems on which its exact variants disagree."""
