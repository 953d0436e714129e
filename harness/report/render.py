"""Every HTML page the harness writes comes from a Jinja2 template in
``harness/report/templates`` (package data): a run's ``report.html``, the ``index.html`` of
a folder of runs and ``harness reproduce``'s ``report.html``. Python prepares plain values
(text, numbers already formatted, flags); the templates hold all the markup and escape
every value they are given.

Jinja2 is imported on the first page written, not with this module: ``harness --help``
and every command that writes no page never pay for it."""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2

TEMPLATES = "templates"
"""The folder of templates inside the ``harness.report`` package."""


@functools.cache
def environment() -> jinja2.Environment:
    """The one template environment, made once per process: templates from the package
    (an installed copy finds them as well as a checkout), every value autoescaped, an
    undefined name an error rather than an empty string; the filter ``spans`` is
    :func:`inline_spans`."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("harness.report", TEMPLATES),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["spans"] = inline_spans
    return env


def render(template: str, context: Mapping[str, Any]) -> str:
    """``template`` (a file name under ``templates/``) rendered with ``context``."""
    return environment().get_template(template).render(context)


def png_source(data: bytes) -> str:
    """A PNG as the ``src`` of an image embedded in the page (the page needs no other file)."""
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


@dataclass(frozen=True)
class Span:
    """A stretch of prose in one style (the pages' Markdown-like inline markup, parsed)."""

    text: str
    """The plain text, escaped when drawn."""
    code: bool = False
    """In backticks: drawn as code, nothing inside it is markup."""
    strong: bool = False
    """Between ``**``: bold."""
    em: bool = False
    """Between single ``*``: italic."""


def inline_spans(text: str) -> tuple[Span, ...]:
    """``text`` with Markdown's ``code``, ``**bold**`` and ``*italic*`` spans as
    :class:`Span` values. Backticks first (code is literal; an unpaired backtick is text),
    then runs of ``*`` that pair as emphasis (:func:`_pair_stars`); every other star is
    text, so ``SSS*``, ``DUAL*``, ``b ** d`` and ``2*3`` come out as written. A star or
    backtick after a backslash is text (:func:`literal`)."""
    spans: list[Span] = []
    text = str(text)
    for mark, stand_in in ESCAPED.items():
        text = text.replace("\\" + mark, stand_in)
    chunks = text.split("`")
    if len(chunks) % 2 == 0:                  # an odd number of backticks: the last is text
        chunks[-2:] = [chunks[-2] + "`" + chunks[-1]]
    for k, chunk in enumerate(chunks):
        if k % 2:
            spans.append(Span(chunk, code=True))
            continue
        for piece, strong, em in _styled_pieces(chunk):
            last = spans[-1] if spans else None
            if last is not None and (last.code, last.strong, last.em) == (False, strong, em):
                spans[-1] = Span(last.text + piece, strong=strong, em=em)
            else:
                spans.append(Span(piece, strong=strong, em=em))
    return tuple(Span(_unescape(s.text), s.code, s.strong, s.em) for s in spans)


ESCAPED = {"*": "\ue000", "`": "\ue001"}
"""Each markup character a backslash makes text, and the private-use character that stands
for it while the spans are parsed (neither markup, space, letter nor digit)."""


def literal(text: str) -> str:
    """``text`` with its stars and backticks escaped, to be put inside markup (``*{caption}*``)
    and read as written, in the page and in Markdown alike."""
    return str(text).replace("*", "\\*").replace("`", "\\`")


def _unescape(text: str) -> str:
    """``text`` with each escaped character's stand-in back as itself."""
    for mark, stand_in in ESCAPED.items():
        text = text.replace(stand_in, mark)
    return text


STAR_RUN = re.compile(r"\*+")
"""A run of stars: emphasis marks or text."""


def _flanks(chunk: str, start: int, end: int) -> tuple[bool, bool]:
    """Whether the star run ``chunk[start:end]`` may open and may close emphasis, as in
    CommonMark but stricter: it opens before a non-space and not after a letter or digit
    (so the star of ``SSS*`` never opens), and closes after a non-space and not before a
    letter or digit."""
    before = chunk[start - 1] if start > 0 else " "
    after = chunk[end] if end < len(chunk) else " "
    return (not after.isspace() and not before.isalnum(),
            not before.isspace() and not after.isalnum())


def _pair_stars(chunk: str) -> list[tuple[int, int]]:
    """Where the stars of ``chunk`` that mark emphasis are, as ``(start, end)`` spans. A
    run closes the nearest open run of one to three stars it is as long as, then with the
    stars it has left the next (``**a *b***``); a closing run longer than its opener keeps
    its first stars as text (``**in SSS***`` is bold ``in SSS*``); runs left open in
    between are text."""
    marks: list[tuple[int, int]] = []
    open_runs: list[tuple[int, int]] = []            # (start, end) of runs that may open
    for run in STAR_RUN.finditer(chunk):
        start, end = run.span()
        opens, closes = _flanks(chunk, start, end)
        unused_end = end                             # a run closes from its last star back
        while closes:
            opener = next((i for i in range(len(open_runs) - 1, -1, -1)
                           if open_runs[i][1] - open_runs[i][0] <= unused_end - start), None)
            if opener is None:
                break
            opener_start, opener_end = open_runs[opener]
            width = opener_end - opener_start
            marks += [(opener_start, opener_end), (unused_end - width, unused_end)]
            unused_end -= width
            del open_runs[opener:]
        if unused_end == end and opens and end - start <= 3:
            open_runs.append((start, end))
    return marks


def _styled_pieces(chunk: str) -> list[tuple[str, bool, bool]]:
    """``chunk`` (no code in it) as ``(text, strong, em)`` pieces, its emphasis marks
    (:func:`_pair_stars`) dropped and toggling the style: three stars bold and italic, two
    bold, one italic."""
    marks = _pair_stars(chunk)
    pieces: list[tuple[str, bool, bool]] = []
    strong = em = False
    position = 0
    for mark_start, mark_end in sorted(marks):
        if mark_start > position:
            pieces.append((chunk[position:mark_start], strong, em))
        width = mark_end - mark_start
        strong ^= width >= 2
        em ^= width != 2
        position = mark_end
    if position < len(chunk):
        pieces.append((chunk[position:], strong, em))
    return pieces
