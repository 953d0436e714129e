"""Every file the harness writes is written whole: into a temporary file in the same folder,
made durable, then renamed over the old one, so a crash, a full disk or a file-size limit
leaves the old file or the new one and never a torn one; and a write that fails names the
file it was writing. Input files too big to hold are read a line at a time
(:func:`read_text_lines`).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from harness.errors import HarnessError


def write_whole(path: str | Path, data: bytes | str) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` whole (see the module); ``path``."""
    with writing(path, binary=isinstance(data, bytes)) as file:
        file.write(data)
    return Path(path)


@contextmanager
def writing(path: str | Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file object to write ``path`` through (``with writing(p) as file: ...``): a
    temporary file beside it, renamed to ``path`` when the block ends without an error,
    removed when it ends with one (the old ``path`` untouched). For writers that need a
    file object (matplotlib's ``savefig``, pandas' ``to_csv``); text is UTF-8 with the
    newlines as written. An :class:`OSError` on the way, the writer's included, becomes a
    :class:`HarnessError` naming ``path``."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise failed(path, exc) from None
    try:
        with (os.fdopen(fd, "wb") if binary
              else os.fdopen(fd, "w", encoding="utf-8", newline="")) as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.chmod(tmp, 0o644)                # mkstemp's 0o600 would hide a report from others
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise failed(path, exc) from None
        raise


def failed(path: str | Path, exc: OSError) -> HarnessError:
    """The one line for a write of ``path`` that failed with ``exc``."""
    return HarnessError(f"{path}: cannot write: {exc.strerror or exc}")


def read_text_lines(path: str | Path) -> Iterator[str]:
    """The lines of a UTF-8 text file (a byte-order mark dropped; without ``\n`` or
    ``\r\n``), read one at a time as they are asked for, so a reader that stops early
    reads no further. A line that is not UTF-8 is ``FILE:LINE: not UTF-8 text`` and a
    read that fails ``FILE: cannot read: reason``, both :class:`HarnessError`."""
    try:
        file = Path(path).open("rb")  # noqa: SIM115 (an open error is named, not a read's)
    except OSError as exc:
        raise HarnessError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with file:
        number = 0
        while True:
            try:
                data = file.readline()
            except OSError as exc:
                raise HarnessError(f"{path}: cannot read: {exc.strerror or exc}") from None
            if not data:
                return
            number += 1
            try:
                text = data.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise HarnessError(f"{path}:{number}: not UTF-8 text") from None
            yield text.removesuffix("\n").removesuffix("\r")


def file_sha256(path: str | Path) -> str:
    """sha256 of a file's bytes (hex), read in blocks (a big file is never held whole);
    a read that fails is ``FILE: cannot read: reason``."""
    digest = hashlib.sha256()
    try:
        with Path(path).open("rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise HarnessError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return digest.hexdigest()


def read_json(path: Path, missing: str) -> Any:
    """The JSON value in ``path``; a :class:`HarnessError` saying ``missing`` when there is
    no such file, and the file, line, column and reason when it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HarnessError(missing) from None
    except json.JSONDecodeError as exc:
        raise HarnessError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
