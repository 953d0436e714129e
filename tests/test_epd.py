"""EPD suites: the public files as published, the rules for a valid line, operations,
``solved`` and writing EPD back."""

from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path

import chess
import pytest

from harness.errors import HarnessError
from harness.games.chess.epd import (
    EpdOperand,
    EpdPosition,
    SkippedLineWarning,
    load_suite,
    parse_epd,
    solved,
    write_epd,
)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"


SHARED_FOLDERS = [
    *(Path(entry) for entry in os.environ.get("HARNESS_SUITES", "").split(os.pathsep) if entry),
    Path(__file__).resolve().parents[2] / "shared" / "positions",
]
"""Where the public suites may be: ``HARNESS_SUITES`` as the tests started, ``../shared/positions``."""


def shared_suite(name: str) -> Path:
    """A public suite from ``HARNESS_SUITES`` or ``../shared/positions``; the test is skipped
    when it is absent. These files are never copied into the project."""
    for folder in SHARED_FOLDERS:
        if (folder / name).is_file():
            return folder / name
    pytest.skip(f"public suite {name} not available (../shared/positions or HARNESS_SUITES)")


def write(tmp_path: Path, text: str, name: str = "mine.epd") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def error_of(path: Path) -> str:
    with pytest.raises(HarnessError) as info:
        load_suite(path)
    message = str(info.value)
    assert "\n" not in message
    return message


# The public suites, as published.

def test_wac_has_300_positions_with_bm_and_one_am() -> None:
    path = shared_suite("wac.epd")
    suite = load_suite(path)
    assert (suite.name, suite.path, len(suite.positions), suite.skipped) == ("wac.epd", path, 300, ())
    assert suite.sha256 == "9bfb7b42cf5bbc7f3d60ff767ca3be460e0ae4d9110ef9a71ddf0bd7071d4d46"
    assert all(p.ops["bm"] for p in suite.positions)
    assert [p.id for p in suite.positions if "am" in p.ops] == ["WAC.274"]
    assert len({p.id for p in suite.positions}) == 300
    assert [p.line for p in suite.positions] == list(range(1, 301))
    first = suite.positions[0]
    assert first.id == "WAC.001"
    assert first.epd == "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -"
    assert first.fen == first.epd + " 0 1"
    assert first.ops == {"bm": [chess.Move.from_uci("g3g6")], "id": "WAC.001"}
    assert solved(first, chess.Move.from_uci("g3g6")) is True
    assert solved(first, chess.Move.from_uci("g3g4")) is False
    wac274 = next(p for p in suite.positions if p.id == "WAC.274")
    board = wac274.board()
    assert solved(wac274, board.parse_san("Rb6")) is True
    assert solved(wac274, board.parse_san("Rg5+")) is True
    assert solved(wac274, board.parse_san("Rd6")) is False


def test_bk_has_crlf_and_a_header() -> None:
    path = shared_suite("bk.epd")
    assert b"\r\n" in path.read_bytes()
    suite = load_suite(path)
    assert len(suite.positions) == 24
    assert suite.positions[0].line == 2                       # line 1 is the '#' header
    assert [p.id for p in suite.positions[:2]] == ["BK.01", "BK.02"]
    assert not any("\r" in p.fen or "\r" in p.id for p in suite.positions)
    assert suite.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_kaufman_lines_3_and_8_are_malformed() -> None:
    path = shared_suite("kaufman.epd")
    message = error_of(path)
    assert message.startswith(f"{path}:3: invalid EPD: ")
    assert "missing ';' before 'id'?" in message
    with pytest.warns(SkippedLineWarning) as caught:
        suite = load_suite(path, skip_invalid=True)
    assert [line for line, _ in suite.skipped] == [3, 8]
    assert all("invalid san: 'id'" in reason for _, reason in suite.skipped)
    assert [str(w.message).split(": ")[0] for w in caught] == [f"{path}:3", f"{path}:8"]
    assert len(suite.positions) == 23
    position3 = next(p for p in suite.positions if p.id == "position 03")
    assert "bm" not in position3.ops and position3.ops["am"] == [position3.board().parse_san("Rd1")]


def test_perftsuite_is_not_epd() -> None:
    path = shared_suite("perftsuite.epd")
    message = error_of(path)
    assert message.startswith(f"{path}:1: not EPD: ")
    assert "perft-suite format" in message
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkippedLineWarning)
        suite = load_suite(path, skip_invalid=True)
    assert (len(suite.positions), len(suite.skipped)) == (0, 128)
    assert all(reason.startswith("not EPD: ") for _, reason in suite.skipped)


def test_perftsuite_line_51_is_an_impossible_check(tmp_path: Path) -> None:
    line = shared_suite("perftsuite.epd").read_text().split("\n")[50]
    position = " ".join(line.split()[:4])
    path = write(tmp_path, f"{START} id \"ok\";\n{position} id \"51\";\n")
    assert error_of(path) == f"{path}:2: illegal position: impossible check"


# What a valid line is.

@pytest.mark.parametrize("line,reason", [
    (f"{START} ;D1 20 ;D2 400 ;D3 8902", "not EPD: ';D1 20 ;D2 400 ;D3 8902' after the four position "
                                        "fields is the perft-suite format"),
    (f"{START} 0 1 ;D1 20 ;D2 400", "not EPD: '0 1 ;D1 20 ;D2 400' after the four position fields is "
                                   "the perft-suite format"),
    (f"{START} 0 1", "not EPD: '0 1' after the four position fields (a FEN's move counters?"),
    (f"{START} 0 1 bm e4;", "not EPD: '0 1 bm e4;' after the four position fields (a FEN's move"),
    (f"{START} ; bm e4;", "not EPD: '; bm e4;': ';' with no operation before it"),
    (f"{START} bm e4;; id \"x\";", "not EPD: 'bm e4;; id \"x\";': ';' with no operation before it"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "invalid EPD: 2 field(s), expected the four"),
    (f"{START} bm e4; bm d4;", "invalid EPD: opcode 'bm' appears twice"),
    (f"{START} bm e4; x-y 5;", "invalid EPD: invalid opcode 'x-y'"),
    (f"{START} id \"x;", "invalid EPD: 'id \"x;': unterminated string"),
    (f"{START} id \"x\" bm e4;", "invalid EPD: missing ';' after the string operand of 'id'"),
    (f"{START} id \"x\" \"y\";", "invalid EPD: 'id \"x\" \"y\";': a second string in one operation"),
    (f"{START} bm e5;", "invalid EPD: illegal san: 'e5' in "),
    (f"{START} bm e4 id \"x\";", "invalid EPD: invalid san: 'id' (missing ';' before 'id'?)"),
    (f"{START} c0 unquoted comment;", "invalid EPD: invalid san: 'unquoted comment'"),
    ("rnbqkbnr/ppppppp/8 w - - id \"x\";", "invalid EPD: expected 8 rows in position part of fen"),
    ("8/8/8/8/8/8/8/8 w - -", "illegal position: no white king, no black king, "),
    ("4k3/8/8/8/8/8/8/4R1K1 w - -", "illegal position: opposite check"),
    ("4k3/8/8/8/8/8/8/4K3 w KQ -", "illegal position: bad castling rights"),
    ("4k3/8/8/8/8/8/8/4K3 w - e3", "illegal position: invalid ep square"),
])
def test_malformed_lines_name_file_line_and_reason(tmp_path: Path, line: str, reason: str) -> None:
    path = write(tmp_path, f"# a comment\n{line}\n{START} id \"fine\";\n")
    assert error_of(path).startswith(f"{path}:2: {reason}")
    with pytest.warns(SkippedLineWarning, match=f"{path}:2: "):
        suite = load_suite(path, skip_invalid=True)
    assert [p.id for p in suite.positions] == ["fine"]
    assert suite.skipped[0][0] == 2 and suite.skipped[0][1].startswith(reason)
    with pytest.raises(HarnessError, match=r"^(not EPD|invalid EPD|illegal position)"):
        parse_epd(line)


def test_python_chess_alone_would_read_the_perft_format_as_operations() -> None:
    # Why the rule about ';' exists: without move counters the perft-suite format parses.
    _, ops = chess.Board.from_epd(f"{START} ;D1 20 ;D2 400")
    assert ops == {"D1": 20, "D2": 400}
    with pytest.raises(HarnessError, match="perft-suite format"):
        parse_epd(f"{START} ;D1 20 ;D2 400")


def test_blank_lines_comments_crlf_and_default_ids(tmp_path: Path) -> None:
    path = write(tmp_path, f"# header\r\n\r\n{START}\r\n   \r\n  # indented comment\r\n"
                           f"{KIWIPETE} bm Qxf6 e5d3\r\n{START} id \"named\";\r\n")
    suite = load_suite(path)
    assert [(p.line, p.id) for p in suite.positions] == [(3, "mine.3"), (6, "mine.6"), (7, "named")]
    assert suite.positions[0].ops == {}
    assert suite.positions[1].ops["bm"] == [chess.Move.from_uci("f3f6"), chess.Move.from_uci("e5d3")]


def test_utf8_bom_is_accepted_and_bad_bytes_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "bom.epd"
    path.write_bytes(b"\xef\xbb\xbf" + f"{START} id \"a\";\n".encode())
    assert load_suite(path).positions[0].id == "a"
    path.write_bytes(f"{START} id \"a\";\n".encode() + b"# caf\xe9\n")
    assert error_of(path) == f"{path}:2: not UTF-8 text"
    assert error_of(tmp_path / "missing.epd").startswith(f"{tmp_path / 'missing.epd'}: cannot read: ")


def test_duplicate_ids_are_errors(tmp_path: Path) -> None:
    path = write(tmp_path, f"{START} id \"a\";\n{KIWIPETE} id \"a\";\n")
    assert error_of(path) == f"{path}:2: duplicate id 'a' (also on line 1)"


def test_every_operation_is_kept(tmp_path: Path) -> None:
    line = (f"{KIWIPETE} bm Qxf6 Nxf7; am a3; pv e2a6 b4c3; acd 12; acn 123456; ce -35; "
            "c0 \"semi; colon \\\"quoted\\\"\"; Hnodes 99; noop; hmvc 7; fmvn 42; id \"k\";")
    position = load_suite(write(tmp_path, line + "\n")).positions[0]
    move = chess.Move.from_uci
    assert position.ops == {
        "bm": [move("f3f6"), move("e5f7")], "am": [move("a2a3")], "pv": [move("e2a6"), move("b4c3")],
        "acd": 12, "acn": 123456, "ce": -35, "c0": 'semi; colon "quoted"', "Hnodes": 99, "noop": None,
        "hmvc": 7, "fmvn": 42, "id": "k",
    }
    assert position.epd == KIWIPETE
    assert position.fen == KIWIPETE + " 7 42"
    board = position.board()
    assert (board.fen(), board.halfmove_clock, board.fullmove_number) == (position.fen, 7, 42)
    assert hash(position) == hash(position)                  # frozen, hashable despite the dict


def test_positions_without_legal_moves_are_problems(tmp_path: Path) -> None:
    mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -"
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - -"
    suite = load_suite(write(tmp_path, f"{mate} id \"mate\";\n{stalemate} id \"stalemate\";\n"))
    boards = [p.board() for p in suite.positions]
    assert boards[0].is_checkmate() and boards[1].is_stalemate()


def test_solved() -> None:
    board = chess.Board()
    e4, d4, a3 = (board.parse_san(san) for san in ("e4", "d4", "a3"))

    def position(ops: str) -> EpdPosition:
        b, parsed = parse_epd(f"{START} {ops}")
        return EpdPosition(1, "x", b.epd(), b.fen(), parsed)

    assert solved(position("id \"none\";"), e4) is None
    assert solved(position("bm e4 d4;"), e4) is True
    assert solved(position("bm e4 d4;"), d4) is True
    assert solved(position("bm e4 d4;"), a3) is False
    assert solved(position("am a3;"), e4) is True
    assert solved(position("am a3;"), a3) is False
    assert solved(position("bm e4 d4; am d4;"), d4) is False
    assert solved(position("bm e4 d4; am d4;"), e4) is True


# Writing EPD.

def test_written_epd_round_trips(tmp_path: Path) -> None:
    start, kiwi = chess.Board(), chess.Board(KIWIPETE + " 3 17")
    rows: list[tuple[chess.Board, dict[str, EpdOperand]]] = [
        (start, {"id": "start", "bm": [start.parse_san("e4")], "acd": 8, "acn": 1_234_567, "ce": 25,
                 "pv": [start.parse_san("e4")], "Hnodes": 42, "Hzw_searches": 7, "c0": "a \"quote\"; semi"}),
        (kiwi, {"id": "kiwi", "am": [kiwi.parse_san("a3")], "acs": 0.25,
                "hmvc": kiwi.halfmove_clock, "fmvn": kiwi.fullmove_number}),
    ]
    path = tmp_path / "out.epd"
    write_epd(path, rows, header=["written by a test"])
    lines = path.read_text().splitlines()
    assert lines[0] == "# written by a test"
    for (board, ops), line in zip(rows, lines[1:], strict=True):
        parsed_board, parsed = chess.Board.from_epd(line)
        assert parsed == ops
        assert parsed_board.fen() == board.fen()
    suite = load_suite(path)
    assert [p.ops for p in suite.positions] == [ops for _, ops in rows]
    assert [p.line for p in suite.positions] == [2, 3]
    assert not list(tmp_path.glob(".out.epd.*"))             # no temporary file left


def test_results_can_be_added_to_a_loaded_suite(tmp_path: Path) -> None:
    source = write(tmp_path, f"{START} bm e4; id \"a\";\n{KIWIPETE} bm Qxf6; id \"b\";\n")
    suite = load_suite(source)
    rows: list[tuple[EpdPosition, dict[str, EpdOperand]]] = [
        (p, {**p.ops, "acd": 6, "acn": 1000 + i, "Hnodes": 1000 + i}) for i, p in enumerate(suite.positions)]
    out = tmp_path / "results.epd"
    write_epd(out, rows)
    again = load_suite(out)
    assert [p.ops for p in again.positions] == [ops for _, ops in rows]
    assert [p.epd for p in again.positions] == [p.epd for p in suite.positions]


def test_wac_round_trips_through_write_epd(tmp_path: Path) -> None:
    suite = load_suite(shared_suite("wac.epd"))
    out = tmp_path / "wac-copy.epd"
    write_epd(out, [(p, p.ops) for p in suite.positions])
    again = load_suite(out)
    assert [(p.id, p.epd, p.ops) for p in again.positions] == [(p.id, p.epd, p.ops) for p in suite.positions]


@pytest.mark.parametrize("ops,reason", [
    ({"1x": 5}, "invalid opcode '1x'"),
    ({"en_passant": 5}, "invalid opcode 'en_passant'"),
    ({"bm": [chess.Move.from_uci("e2e5")]}, "cannot write EPD: bm: e2e5 is not a legal move"),
    ({"pv": [chess.Move.from_uci("e2e4"), chess.Move.from_uci("e2e4")]}, "cannot write EPD: pv: e2e4 is not"),
    ({"ce": float("nan")}, "cannot write EPD: "),
])
def test_write_epd_refuses_what_cannot_be_read_back(tmp_path: Path, ops: dict[str, EpdOperand],
                                                    reason: str) -> None:
    with pytest.raises(HarnessError) as info:
        write_epd(tmp_path / "x.epd", [(chess.Board(), ops)])
    assert str(info.value).startswith(f"{tmp_path / 'x.epd'}: position 1: {reason}")
    assert "\n" not in str(info.value)
    assert not (tmp_path / "x.epd").exists()
