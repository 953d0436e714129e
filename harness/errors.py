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
