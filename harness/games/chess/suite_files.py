"""Finding EPD suites, listing them, and downloading the public ones.

Suites are looked up by file name in the project's own ``harness/games/chess/positions/`` folder (suites
the project makes itself, e.g. ``perft.epd``; package data, so an installed package has
them too), then in each folder of the environment variable ``HARNESS_SUITES`` (separated
by ``os.pathsep``). Public suites are not part of the project: :data:`KNOWN_SUITES` pins
where to download each one and its sha256, and :func:`download_suite` fetches and checks it.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import re
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass
from pathlib import Path

from harness.errors import HarnessError
from harness.files import write_whole
from harness.games.chess.epd import load_suite

SUITES_ENV = "HARNESS_SUITES"
"""Environment variable: more folders to look for suites in, separated by ``os.pathsep``."""

SUITES_URL_ENV = "HARNESS_SUITES_URL"
"""Environment variable: a base URL to download the known suites from instead of their own."""

DOWNLOAD_TIMEOUT = 30.0
"""Seconds to wait for a download server before giving up."""

MAX_SUITE_BYTES = 64 * 1024 * 1024
"""A download larger than this is refused."""


@dataclass(frozen=True)
class KnownSuite:
    """A public suite with a pinned download."""

    name: str
    """Its short name, as in ``harness suites get NAME``."""
    file_name: str
    """The name it is saved under, e.g. ``wac.epd``."""
    url: str
    """Where it is downloaded from (a commit-pinned raw URL)."""
    sha256: str
    """sha256 of the published file (hex); a download that differs is refused."""
    description: str
    """What it is."""
    licence: str
    """Its licence and holder."""


_SENJO = "https://raw.githubusercontent.com/zd3nik/SenjoUCIAdapter/85bf492/epd"

KNOWN_SUITES: dict[str, KnownSuite] = {suite.name: suite for suite in (
    KnownSuite(
        "wac", "wac.epd",
        "https://raw.githubusercontent.com/jdart1/arasan-chess/36774cd7581685491ad0e0f77ec7b3a0a5763376"
        "/tests/wacnew.epd",
        "9bfb7b42cf5bbc7f3d60ff767ca3be460e0ae4d9110ef9a71ddf0bd7071d4d46",
        "Win At Chess (Reinfeld, 1958): 300 tactical positions with bm (one am, WAC.274)",
        "MIT (Arasan, Jon Dart)"),
    KnownSuite(
        "bk", "bk.epd", f"{_SENJO}/bk.epd",
        "5ec04792855455348b21a78dac15b39560cc9b459a5a0dbeca9401d82e51e9e6",
        "Bratko-Kopec (1982): 24 positions with bm",
        "MIT (Shawn Chidester)"),
    KnownSuite(
        "kaufman", "kaufman.epd", f"{_SENJO}/kaufman.epd",
        "58345fe85017df8f43976d01c67208ee66c896c28ccfd97b975b71ded156e6a6",
        "Kaufman test: 25 positions with bm or am; lines 3 and 8 are malformed as published",
        "MIT (Shawn Chidester)"),
    KnownSuite(
        "perftsuite", "perftsuite.epd", f"{_SENJO}/perftsuite.epd",
        "07df63ad773d40329e7f39bbdf7cef957340a7355c3d4a17c5023f0997530dfd",
        "128 perft positions in the format 'FEN ;D1 n ;D2 n ...' (not EPD: load_suite refuses it)",
        "MIT (Shawn Chidester)"),
)}
"""The public suites :func:`download_suite` knows, by name, with pinned URLs and checksums."""


@dataclass(frozen=True)
class SuiteInfo:
    """A suite file found in the suite folders."""

    name: str
    """The file name, e.g. ``wac.epd``."""
    path: Path
    """Where it is."""
    positions: int
    """The number of lines that are valid EPD positions."""
    invalid: int
    """The number of other lines that are neither blank nor comments."""
    error: str | None = None
    """Why the file could not be read at all (then both counts are 0), or None."""
    perft: int = 0
    """Lines in the perft-suite format (a FEN, then ``;D1 20 ;D2 400 ...``): a file of them
    is a perft suite, counts to check a move generator against, not positions to search."""


PROJECT_POSITIONS = "harness/games/chess/positions"
"""Where the project's own suites are, relative to :func:`project_root`. Inside the package,
as package data (pyproject.toml), because only the package is installed: a folder beside it
exists in a checkout but not after ``pip install``."""


def project_root() -> Path:
    """The folder that holds the ``harness`` package: the project root in a checkout,
    site-packages in an install."""
    return Path(__file__).resolve().parents[3]


def project_positions() -> Path:
    """The project's own suites, :data:`PROJECT_POSITIONS` (found in a checkout and in an
    install alike)."""
    return project_root() / PROJECT_POSITIONS


def download_dir() -> Path:
    """Where ``harness suites get`` saves by default: outside the project (public suites
    are never copied into it), in ``$XDG_DATA_HOME/harness/suites`` (``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "harness" / "suites"


def suite_dirs() -> list[Path]:
    """The folders suites are looked up in, in order: :func:`project_positions`, each
    folder of ``HARNESS_SUITES``, the shared public suites beside a checkout
    (:func:`shared_positions`), then :func:`download_dir`."""
    extra = [Path(entry) for entry in os.environ.get(SUITES_ENV, "").split(os.pathsep) if entry]
    for folder in extra:
        if not folder.is_dir():
            warnings.warn(f"${SUITES_ENV}: {folder} is not a folder; suites are not looked up "
                          "there", UserWarning, stacklevel=2)
    return [project_positions(), *[f for f in extra if f.is_dir()], *shared_positions(),
            download_dir()]


def shared_positions() -> list[Path]:
    """``../shared/positions`` from the working folder and from the checkout the package runs
    from, where they exist (the public suites are kept beside the project, never in it), so
    ``wac.epd`` is found outside ``make`` too."""
    candidates = [Path.cwd().parent / "shared" / "positions",
                  Path(__file__).resolve().parents[4] / "shared" / "positions"]
    found: list[Path] = []
    for folder in candidates:
        if folder.is_dir() and folder.resolve() not in [f.resolve() for f in found]:
            found.append(folder)
    return found


def find_suite(name_or_path: str | Path) -> Path:
    """The suite file meant by ``name_or_path``: an existing file as it is; otherwise a bare
    file name (``.epd`` may be left out) looked up in :func:`suite_dirs`."""
    given = Path(name_or_path)
    if given.is_file():
        return given
    if given.exists():
        raise HarnessError(f"{given}: is not a file")
    if given.parent != Path("."):
        raise HarnessError(f"{given}: no such file")
    names = [given.name] if given.suffix else [given.name, given.name + ".epd"]
    for folder in suite_dirs():
        for name in names:
            candidate = folder / name
            if candidate.is_file():
                return candidate
    where = ", ".join(["the current folder", *(str(folder) for folder in suite_dirs())])
    if not os.environ.get(SUITES_ENV):
        where += f" (set {SUITES_ENV} for more folders)"
    known = _known(given.name)
    hint = (f"get it with 'harness suites get {known.name}'" if known else
            f"public suites can be downloaded with 'harness suites get NAME' ({', '.join(KNOWN_SUITES)})")
    raise HarnessError(f"suite {str(name_or_path)!r} not found (looked in {where}); {hint}")


def list_suites() -> list[SuiteInfo]:
    """Every ``*.epd`` file in :func:`suite_dirs`, in lookup order; a name found in an earlier
    folder hides the same name later (as :func:`find_suite` does). Malformed lines are
    counted, not raised."""
    found: list[SuiteInfo] = []
    seen: set[str] = set()
    for folder in suite_dirs():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.epd")):
            if path.name in seen or not path.is_file():
                continue
            seen.add(path.name)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    suite = load_suite(path, skip_invalid=True)
            except HarnessError as exc:
                found.append(SuiteInfo(path.name, path, 0, 0, str(exc)))
                continue
            perft = sum(1 for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
                        if PERFT_LINE.match(line))
            found.append(SuiteInfo(path.name, path, len(suite.positions), len(suite.skipped),
                                   perft=perft))
    return found


PERFT_LINE = re.compile(r"^\s*[^;\s]+ [wb] \S+ \S+(?: \d+ \d+)?\s*(?:;\s*D\d+ \d+\s*)+;?\s*$")
"""A line of a perft suite: a FEN, then ``;D1 20 ;D2 400 ...`` (move counts by depth; the
public suite writes two of its ``;`` after the count, ``;D2 191; D3 2812``)."""


def download_suite(name: str, dest: str | Path, base_url: str | None = None,
                   timeout: float = DOWNLOAD_TIMEOUT) -> Path:
    """Download the known suite ``name`` (or its file name) into the folder ``dest`` and
    return the file's path.

    The file is fetched from its pinned URL, or from ``base_url`` (default: the environment
    variable ``HARNESS_SUITES_URL``) followed by ``/`` and its file name. Its sha256 must be
    the pinned one; otherwise nothing is written. The file is written atomically (a
    temporary file, then :func:`os.replace`); a file already there with the right sha256
    is kept without downloading.
    """
    known = _known(name)
    if known is None:
        raise HarnessError(f"unknown suite {name!r} (known: {', '.join(KNOWN_SUITES)})")
    dest = Path(dest)
    target = dest / known.file_name
    if target.is_file() and _sha256_of(target) == known.sha256:
        return target
    base_url = base_url if base_url is not None else os.environ.get(SUITES_URL_ENV) or None
    url = f"{base_url.rstrip('/')}/{known.file_name}" if base_url else known.url
    data = _fetch(url, timeout)
    actual = hashlib.sha256(data).hexdigest()
    if actual != known.sha256:
        raise HarnessError(f"{url}: sha256 mismatch for {known.file_name}: expected {known.sha256}, "
                           f"got {actual}; nothing written")
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HarnessError(f"{dest}: cannot create folder: {exc.strerror or exc}") from None
    write_whole(target, data)
    return target


def _known(name: str) -> KnownSuite | None:
    key = name.lower()
    for suite in KNOWN_SUITES.values():
        if key in (suite.name, suite.file_name):
            return suite
    return None


def _fetch(url: str, timeout: float) -> bytes:
    try:
        request = urllib.request.Request(url, headers={"User-Agent": "harness-suites"})
        # A new opener per call, so proxy settings in the environment are read now.
        with urllib.request.build_opener().open(request, timeout=timeout) as response:
            data: bytes = response.read(MAX_SUITE_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise HarnessError(f"{url}: download failed: HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise HarnessError(f"{url}: download failed: {_reason(exc.reason)}") from None
    except (OSError, ValueError, http.client.HTTPException) as exc:
        raise HarnessError(f"{url}: download failed: {_reason(exc)}") from None
    if len(data) > MAX_SUITE_BYTES:
        raise HarnessError(f"{url}: download failed: larger than {MAX_SUITE_BYTES} bytes")
    return data


def _reason(reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return "timed out"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return " ".join(str(reason).split()) or type(reason).__name__


def _sha256_of(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""
