"""Every code block of the README, ``docs/*.md`` and ``examples/*/README.md`` is run, or
says why not.

What a block is, by its info string and the HTML comment on the line above it:

- ``python``: run, in order, in one interpreter per document (the blocks read like a
  notebook), with the examples installed and a fresh folder as the working directory;
  a function named ``test_*`` that a block defines is called.
- ``sh``, ``shell``, ``console`` or none: each command runs. ``harness ...`` is run as
  ``python -m harness ...``; ``pip install ./examples/NAME`` must name an example (every
  example is installed for every document, once); a ``"quoted"`` text in a command's
  comment must be in its output. Any other command cannot run here.
- ``toml``: a fragment of an example's ``pyproject.toml`` (every key, the same value).
- ``<!-- excerpt: PATH -->`` (a Python block): its lines, comments and blank lines aside,
  are lines of ``PATH`` in the same order; ``PATH`` itself is run by its own tests.
- ``<!-- needs: MODULE -->``: run in an interpreter of its own where ``MODULE`` can be
  imported, skipped (and reported so) where it cannot.
- ``<!-- not-run: REASON -->``: not run (long runs, downloads, ``make``, sample output);
  the reason is required.

Any other block fails, and so does an indented code block (fence it). The examples are
installed once (``conftest.pip_install_into``); everything else is a few short runs.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import pip_install_into

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "examples").glob("*/README.md"))]
EXAMPLES = sorted(path.parent for path in (ROOT / "examples").glob("*/pyproject.toml"))
SHELL = ("", "sh", "shell", "console")
MARKER = re.compile(r"<!--\s*(not-run|excerpt|needs):\s*(.*?)\s*-->")


@dataclass(frozen=True)
class Block:
    """One fenced code block of a document."""

    path: Path
    """The document."""
    line: int
    """The line of its opening fence (from 1)."""
    language: str
    """Its info string's first word (empty when there is none)."""
    text: str
    """Its contents."""
    marker: str = ""
    """``not-run``, ``excerpt`` or ``needs`` from the comment above it, or empty."""
    argument: str = ""
    """What the marker says: the reason, the file, the module."""

    @property
    def where(self) -> str:
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{path}:{self.line}"


def read_blocks(path: Path) -> list[Block]:
    """The fenced blocks of ``path``, each with the marker on the nearest non-blank line
    above it; an indented code block (a blank line, then a line indented by four spaces,
    outside a list) is an error."""
    lines = path.read_text().splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            start, language = i, line[3:].strip().split(" ")[0]
            i += 1
            while not lines[i].startswith("```"):
                i += 1
            above = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
            found = MARKER.fullmatch(above.strip())
            blocks.append(Block(path, start + 1, language, "\n".join(lines[start + 1:i]) + "\n",
                                *(found.groups() if found else ("", ""))))
        elif (line.startswith("    ") and i > 0 and not lines[i - 1].strip()
              and not _in_list(lines, i)):
            raise AssertionError(f"{path}:{i + 1}: an indented code block is "
                                 "not run by tests/test_docs.py: fence it")
        i += 1
    return blocks


def _in_list(lines: list[str], i: int) -> bool:
    """Whether line ``i`` continues a list item (the paragraph above it is one)."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    while j >= 0 and lines[j].strip():
        if re.match(r"\s*([-*]|\d+\.)\s", lines[j]):
            return True
        j -= 1
    return False


def commands(block: Block) -> list[tuple[str, str]]:
    """A shell block's commands (continuation lines joined), each with its comment."""
    found: list[tuple[str, str]] = []
    pending = ""
    for raw in block.text.splitlines():
        command, comment = split_comment(raw)
        if command.rstrip().endswith("\\"):
            pending += command.rstrip()[:-1].strip() + " "
            continue
        command = pending + command.strip()
        pending = ""
        if command:
            found.append((command, comment))
    return found


def split_comment(line: str) -> tuple[str, str]:
    """``line`` split at its first ``#`` outside quotes (a ``#`` that starts a word)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i], line[i + 1:]
    return line, ""


def why_it_cannot_run(block: Block) -> str | None:
    """Why ``block`` cannot run here, or ``None`` when the tests run or check it."""
    if block.marker == "not-run":
        return None if block.argument else "a not-run marker needs its reason"
    if block.marker == "excerpt":
        if block.language != "python":
            return "only a python block can be an excerpt"
        return None if (ROOT / block.argument).is_file() else f"no file {block.argument}"
    if block.language == "python" or block.language == "toml":
        return None
    if block.language not in SHELL:
        return f"a {block.language!r} block is not run (mark it <!-- not-run: reason -->)"
    for command, _ in commands(block):
        words = shlex.split(command)
        if words[0] == "harness":
            continue
        if words[:2] == ["pip", "install"] and all(_example(word) for word in words[2:]):
            continue
        return f"cannot run {command!r} here (mark the block <!-- not-run: reason -->)"
    return None


def _example(word: str) -> bool:
    return (ROOT / word).resolve() in EXAMPLES


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every example plug-in installed by pip into one folder."""
    folder = tmp_path_factory.mktemp("site")
    for example in EXAMPLES:
        pip_install_into(folder, example)
    return folder


def environment(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(site)}


SESSION = r"""
import contextlib, io, json, sys, traceback

namespace = {"__name__": "__main__"}
for request in sys.stdin:
    code, name = json.loads(request)
    output = io.StringIO()
    error = None
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            before = dict(namespace)
            exec(compile(code, name, "exec"), namespace)
            for key, value in list(namespace.items()):
                if key.startswith("test_") and callable(value) and before.get(key) is not value:
                    value()
    except BaseException:
        error = traceback.format_exc()
    sys.stdout.write(json.dumps([output.getvalue(), error]) + "\n")
    sys.stdout.flush()
"""


class Session:
    """One Python interpreter that runs a document's Python blocks in order."""

    def __init__(self, site: Path, folder: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", SESSION], cwd=folder,
                                        env=environment(site), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def run(self, block: Block) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        # Line numbers in a traceback are the document's.
        code = "\n" * block.line + block.text
        self.process.stdin.write(json.dumps([code, str(block.path)]) + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline()
        assert reply, f"{block.where}: the interpreter died"
        output, error = json.loads(reply)
        assert error is None, f"{block.where} failed:\n{output}{error}"

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def run_shell(block: Block, site: Path, folder: Path) -> None:
    for command, comment in commands(block):
        words = shlex.split(command)
        if words[0] != "harness":
            continue                            # pip install ./examples/...: installed
        done = subprocess.run([sys.executable, "-m", "harness", *words[1:]], cwd=folder,
                              env=environment(site), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{block.where}: {command}\n{done.stderr}"
        assert "Traceback" not in done.stderr, f"{block.where}: {command}\n{done.stderr}"
        for said in re.findall(r'"([^"]+)"', comment):
            assert said in done.stdout, f"{block.where}: {command}: {said!r} is not in its output"


def code_lines(text: str) -> list[str]:
    """The lines of Python ``text`` that hold code, comments and indentation aside."""
    return [code for code in (split_comment(line)[0].strip() for line in text.splitlines()) if code]


def check_excerpt(block: Block) -> None:
    source = iter(code_lines((ROOT / block.argument).read_text()))
    for line in code_lines(block.text):
        assert any(line == other for other in source), \
            f"{block.where}: {line!r} is not in {block.argument} (in this order)"


def is_fragment(part: Any, whole: Any) -> bool:
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and is_fragment(v, whole[k])
                                               for k, v in part.items())
    return bool(part == whole)


def check_toml(block: Block) -> None:
    part = tomllib.loads(block.text)
    wholes = [tomllib.loads((example / "pyproject.toml").read_text()) for example in EXAMPLES]
    assert any(is_fragment(part, whole) for whole in wholes), \
        f"{block.where}: not in any example's pyproject.toml"


def blocks_needing_a_module() -> list[Block]:
    """Every block with a ``needs`` marker (a document that cannot be read is reported by
    the tests of documents)."""
    found: list[Block] = []
    for path in DOCUMENTS:
        with contextlib.suppress(AssertionError):
            found += [block for block in read_blocks(path) if block.marker == "needs"]
    return found


NEEDS = blocks_needing_a_module()


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_block_runs_or_says_why_not(path: Path) -> None:
    reasons = [f"{block.where}: {reason}" for block in read_blocks(path)
               if (reason := why_it_cannot_run(block)) is not None]
    assert not reasons, "\n".join(reasons)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_blocks_run(path: Path, site: Path, tmp_path: Path) -> None:
    session: Session | None = None
    try:
        for block in read_blocks(path):
            if block.marker in ("not-run", "needs") or why_it_cannot_run(block) is not None:
                continue                        # the test above reports the last kind
            if block.marker == "excerpt":
                check_excerpt(block)
            elif block.language == "toml":
                check_toml(block)
            elif block.language == "python":
                session = session or Session(site, tmp_path)
                session.run(block)
            else:
                run_shell(block, site, tmp_path)
    finally:
        if session is not None:
            session.close()


@pytest.mark.parametrize("block", NEEDS, ids=lambda b: b.where)
def test_a_block_that_needs_a_module(block: Block, site: Path, tmp_path: Path) -> None:
    if _missing(block.argument):
        pytest.skip(f"{block.where} needs {block.argument}, which is not installed")
    if block.language == "python":
        session = Session(site, tmp_path)
        try:
            session.run(block)
        finally:
            session.close()
    else:
        run_shell(block, site, tmp_path)


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:
        return True


def test_the_reader_of_blocks_sees_markers_and_refuses_what_it_cannot_run(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- not-run: takes an hour -->\n```\nmake bench\n```\n\n"
                    "```\nmake bench\n```\n\n<!-- not-run: -->\n```\nx\n```\n\n"
                    "```sh\nharness run --tree t.json \\\n   --depth 2  # \"score 3\"\n```\n")
    blocks = read_blocks(page)
    assert [(b.line, b.marker, b.argument) for b in blocks] == [
        (2, "not-run", "takes an hour"), (6, "", ""), (11, "not-run", ""), (15, "", "")]
    assert why_it_cannot_run(blocks[0]) is None
    assert "cannot run 'make bench'" in str(why_it_cannot_run(blocks[1]))
    assert why_it_cannot_run(blocks[2]) == "a not-run marker needs its reason"
    assert why_it_cannot_run(blocks[3]) is None
    assert commands(blocks[3]) == [("harness run --tree t.json --depth 2", ' "score 3"')]
    indented = tmp_path / "indented.md"
    indented.write_text("Run:\n\n    harness games\n")
    with pytest.raises(AssertionError, match="indented code block"):
        read_blocks(indented)


README_LINES = 400
"""The README is a quick start, one example a command and links: the detail is in docs/."""
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_stays_short() -> None:
    lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert lines <= README_LINES, f"README.md: {lines} lines, at most {README_LINES} (detail goes to docs/)"


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(path: Path) -> None:
    """A link to a file of the repository names one that exists, and its #anchor a heading
    of it (a page moved or a section renamed breaks no link silently)."""
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue                                    # https:, mailto:
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists() or (anchor and linked.suffix == ".md"
                                   and anchor not in anchors(linked)):
            broken.append(target)
    assert broken == [], f"{path.name}: broken links {broken}"


ISSUE_REFERENCE = re.compile(r"\bissues? \d+|#\d+\b", re.IGNORECASE)
"""An issue's number: it means something to whoever filed it, nothing to a reader of the
repository."""


@pytest.mark.parametrize("name", ["docs/status.md", "CHANGELOG.md"])
def test_status_and_changelog_say_what_a_user_can_do_not_which_issue(name: str) -> None:
    found = [line.strip() for line in (ROOT / name).read_text(encoding="utf-8").splitlines()
             if ISSUE_REFERENCE.search(line)]
    assert found == [], f"{name} speaks in issue numbers: {found}"


def test_the_issue_pattern_sees_the_spellings() -> None:
    assert all(ISSUE_REFERENCE.search(text) for text in ("Issue 28: checkers", "issues 27 and 28",
                                                          "(issue 26)", "see #38"))
    assert not ISSUE_REFERENCE.search("claim 12, 552 positions, depth 13")
