"""Finding, listing and downloading suites (against a local HTTP server), and the project's
perft suite checked against python-chess's move generation."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import chess
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.chess import suite_files as suites
from harness.games.chess.epd import load_suite
from harness.games.chess.suite_files import (
    KNOWN_SUITES,
    KnownSuite,
    SuiteInfo,
    download_dir,
    download_suite,
    find_suite,
    list_suites,
    project_positions,
    shared_positions,
    suite_dirs,
)
from tests.test_epd import START, shared_suite

PROXY_VARIABLES = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No suite folders or download URL from the caller's environment, and no proxy between
    the tests and 127.0.0.1."""
    for name in ("HARNESS_SUITES", "HARNESS_SUITES_URL", *PROXY_VARIABLES):
        monkeypatch.delenv(name, raising=False)


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 serving ``folder``; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextmanager
def dead_port() -> Iterator[int]:
    """A port on 127.0.0.1 that is bound but not listening: connections are refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


# The project's perft suite.

def test_perft_positions() -> None:
    suite = load_suite(find_suite("perft.epd"))
    assert suite.path == project_positions() / "perft.epd"
    assert [p.id for p in suite.positions] == [
        "start", "kiwipete", "position3", "position4", "position5", "position6"]
    assert suite.positions[0].fen == chess.STARTING_FEN
    assert suite.positions[4].fen.endswith(" w KQ - 1 8")       # hmvc/fmvn kept
    for position in suite.positions:
        counts: dict[int, int] = {}
        for depth in range(1, 6):
            count = position.ops[f"D{depth}"]
            assert isinstance(count, int)
            counts[depth] = count
        board = position.board()
        for depth in (1, 2, 3):
            assert perft(board, depth) == counts[depth], (position.id, depth)
        if counts[4] < 500_000:                                  # start, position3, position4
            assert perft(board, 4) == counts[4], (position.id, 4)


def test_perft_suite_header_documents_the_opcodes() -> None:
    text = (project_positions() / "perft.epd").read_text()
    assert "D1..D5" in text.split("\n", 6)[2]
    for line in text.splitlines():
        if not line.startswith("#"):
            _, ops = chess.Board.from_epd(line)
            assert set(ops) >= {"id", "D1", "D2", "D3", "D4", "D5"}


# find_suite and list_suites.

def test_find_suite_takes_an_existing_path_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "perft.epd"
    path.write_text(f"{START}\n")
    assert find_suite(path) == path
    assert find_suite(str(path)) == path


def test_find_suite_looks_in_positions_then_harness_suites(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        folder.mkdir()
        (folder / "perft.epd").write_text(f"{START}\n")       # hidden by the project's own
        (folder / "both.epd").write_text(f"{START}\n")
    (second / "only-b.epd").write_text(f"{START}\n")
    monkeypatch.setenv("HARNESS_SUITES", os.pathsep.join([str(first), "", str(second)]))
    monkeypatch.chdir(tmp_path)
    assert suite_dirs() == [project_positions(), first, second, *shared_positions(), download_dir()]
    assert find_suite("perft.epd") == project_positions() / "perft.epd"
    assert find_suite("perft") == project_positions() / "perft.epd"
    assert find_suite("both.epd") == first / "both.epd"
    assert find_suite("only-b") == second / "only-b.epd"


def test_the_shared_suites_beside_a_checkout_are_found_without_harness_suites(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared" / "positions"
    shared.mkdir(parents=True)
    (shared / "mine.epd").write_text(f"{START}\n")
    (tmp_path / "work").mkdir()
    monkeypatch.delenv("HARNESS_SUITES", raising=False)
    monkeypatch.chdir(tmp_path / "work")
    assert shared in shared_positions()
    assert find_suite("mine") == shared / "mine.epd"


def test_a_missing_suite_says_where_it_looked_and_how_to_get_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(suites, "shared_positions", list)      # no checkout's shared suites
    with pytest.raises(HarnessError) as info:
        find_suite("nowhere.epd")
    message = str(info.value)
    folders = f"{project_positions()}, {download_dir()}"
    assert message.startswith(f"suite 'nowhere.epd' not found (looked in the current folder, "
                              f"{folders} (set HARNESS_SUITES for more folders)); ")
    assert "'harness suites get NAME' (wac, bk, kaufman, perftsuite)" in message
    assert "\n" not in message
    monkeypatch.setenv("HARNESS_SUITES", str(tmp_path))
    with pytest.raises(HarnessError) as info:
        find_suite("wac.epd")
    where = f"{project_positions()}, {tmp_path}, {download_dir()})"
    assert f"{where}; get it with 'harness suites get wac'" in str(info.value)
    with pytest.raises(HarnessError, match="no such file"):
        find_suite(tmp_path / "sub" / "perft.epd")
    with pytest.raises(HarnessError, match="is not a file"):
        find_suite(tmp_path)


def test_list_suites_counts_valid_and_malformed_lines(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mixed.epd").write_text(f"# header\n{START} id \"a\";\n{START} 0 1\n\n{START} id \"b\";\n")
    (tmp_path / "perft.epd").write_text("hidden by the project's own\n")
    (tmp_path / "binary.epd").write_bytes(b"\xff\xfe")
    (tmp_path / "notes.txt").write_text("not a suite\n")
    monkeypatch.setenv("HARNESS_SUITES", str(tmp_path))
    found = {info.name: info for info in list_suites()}
    assert found["perft.epd"] == SuiteInfo("perft.epd", project_positions() / "perft.epd", 6, 0)
    assert found["mixed.epd"] == SuiteInfo("mixed.epd", tmp_path / "mixed.epd", 2, 1)
    assert found["binary.epd"].error == f"{tmp_path / 'binary.epd'}:1: not UTF-8 text"
    assert "notes.txt" not in found


def test_list_suites_on_the_public_suites(monkeypatch: pytest.MonkeyPatch) -> None:
    folder = shared_suite("wac.epd").parent
    monkeypatch.setenv("HARNESS_SUITES", str(folder))
    found = {info.name: (info.positions, info.invalid) for info in list_suites()}
    assert found["wac.epd"] == (300, 0)
    assert found["bk.epd"] == (24, 0)
    assert found["kaufman.epd"] == (23, 2)
    assert found["perftsuite.epd"] == (0, 128)


# Downloads.

def test_known_suites_are_pinned() -> None:
    assert list(KNOWN_SUITES) == ["wac", "bk", "kaufman", "perftsuite"]
    for name, suite in KNOWN_SUITES.items():
        assert (suite.name, suite.file_name) == (name, name + ".epd")
        assert re.fullmatch(r"[0-9a-f]{64}", suite.sha256)
        assert suite.url.startswith("https://raw.githubusercontent.com/")
        assert suite.description and suite.licence
    assert KNOWN_SUITES["wac"].url.endswith("/36774cd7581685491ad0e0f77ec7b3a0a5763376/tests/wacnew.epd")
    assert KNOWN_SUITES["bk"].url == "https://raw.githubusercontent.com/zd3nik/SenjoUCIAdapter/85bf492/epd/bk.epd"


def test_known_checksums_match_the_shared_copies() -> None:
    for suite in KNOWN_SUITES.values():
        path = shared_suite(suite.file_name)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == suite.sha256, suite.name


def test_download_a_public_suite(tmp_path: Path) -> None:
    folder = shared_suite("wac.epd").parent
    with serve(folder) as url:
        path = download_suite("wac", tmp_path / "new" / "folder", base_url=url + "/")
    assert path == tmp_path / "new" / "folder" / "wac.epd"
    assert path.read_bytes() == (folder / "wac.epd").read_bytes()
    assert len(load_suite(path).positions) == 300
    with dead_port() as port:                                # already there: no download
        assert download_suite("wac.epd", path.parent, base_url=f"http://127.0.0.1:{port}") == path


@pytest.fixture
def fake_suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, bytes]:
    """A known suite of our own, served from ``tmp_path / "served"``."""
    data = f"{START} bm e4; id \"a\";\n".encode()
    served = tmp_path / "served"
    served.mkdir()
    (served / "fake.epd").write_bytes(data)
    known = KnownSuite("fake", "fake.epd", "https://example.invalid/fake.epd",
                       hashlib.sha256(data).hexdigest(), "a test suite", "none")
    monkeypatch.setitem(KNOWN_SUITES, "fake", known)
    return served, data


def test_download_from_the_environment_url_replaces_a_wrong_file(
        tmp_path: Path, fake_suite: tuple[Path, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    served, data = fake_suite
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "fake.epd").write_text("stale\n")
    with serve(served) as url:
        monkeypatch.setenv("HARNESS_SUITES_URL", url)
        assert download_suite("fake", dest) == dest / "fake.epd"
    assert (dest / "fake.epd").read_bytes() == data
    assert sorted(p.name for p in dest.iterdir()) == ["fake.epd"]   # no temporary file left


def test_a_wrong_checksum_writes_nothing(tmp_path: Path, fake_suite: tuple[Path, bytes]) -> None:
    served, data = fake_suite
    (served / "fake.epd").write_bytes(data.replace(b"e4", b"d4"))
    dest = tmp_path / "dest"
    with serve(served) as url, pytest.raises(HarnessError) as info:
        download_suite("fake", dest, base_url=url)
    expected = hashlib.sha256(data).hexdigest()
    actual = hashlib.sha256((served / "fake.epd").read_bytes()).hexdigest()
    assert str(info.value) == (f"{url}/fake.epd: sha256 mismatch for fake.epd: expected {expected}, "
                               f"got {actual}; nothing written")
    assert not dest.exists()


def test_a_modified_public_suite_is_refused(tmp_path: Path) -> None:
    served = tmp_path / "served"
    served.mkdir()
    original = shared_suite("bk.epd").read_bytes()
    (served / "bk.epd").write_bytes(original.replace(b"\r\n", b"\n"))
    with serve(served) as url, pytest.raises(HarnessError) as info:
        download_suite("bk", tmp_path / "dest", base_url=url)
    assert "sha256 mismatch for bk.epd: expected 5ec04792" in str(info.value)
    assert not (tmp_path / "dest").exists()


def test_a_missing_file_on_the_server(tmp_path: Path, fake_suite: tuple[Path, bytes]) -> None:
    with serve(tmp_path) as url, pytest.raises(HarnessError) as info:
        download_suite("fake", tmp_path / "dest", base_url=url)
    assert str(info.value) == f"{url}/fake.epd: download failed: HTTP 404 File not found"


def test_a_dead_server(tmp_path: Path, fake_suite: tuple[Path, bytes]) -> None:
    with dead_port() as port, pytest.raises(HarnessError) as info:
        download_suite("fake", tmp_path / "dest", base_url=f"http://127.0.0.1:{port}", timeout=5)
    message = str(info.value)
    assert message.startswith(f"http://127.0.0.1:{port}/fake.epd: download failed: ")
    assert "refused" in message.lower() and "\n" not in message
    assert not (tmp_path / "dest").exists()


def test_an_unknown_suite(tmp_path: Path) -> None:
    with pytest.raises(HarnessError) as info:
        download_suite("nope", tmp_path)
    assert str(info.value) == "unknown suite 'nope' (known: wac, bk, kaufman, perftsuite)"


def test_a_perft_suite_is_listed_as_what_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "counts.epd").write_text(
        f"{START} ;D1 20 ;D2 400 ;D3 8902\n"
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 191; D3 2812\n", encoding="utf-8")
    monkeypatch.setenv("HARNESS_SUITES", str(tmp_path))
    found = {info.name: info for info in list_suites()}
    assert found["counts.epd"].perft == 2 and found["perft.epd"].perft == 0
    result = CliRunner().invoke(cli, ["suites"])
    line = next(line for line in result.output.splitlines() if line.startswith("counts.epd"))
    assert "2 perft positions" in line and "a perft suite" in line and "malformed" not in line
