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
    :class:`Span` values: backticks first (code is literal), then ``**`` and ``*`` toggle
    bold and italic. A chunk between backticks with an odd number of single ``*`` keeps
    them as text (a lone star is not markup)."""
    spans: list[Span] = []
    for k, chunk in enumerate(str(text).split("`")):
        if k % 2:
            spans.append(Span(chunk, code=True))
            continue
        italic_marks = sum(part.count("*") for part in chunk.split("**")) % 2 == 0
        strong = em = False
        for token in re.split(r"(\*\*|\*)", chunk):
            if token == "**":
                strong = not strong
            elif token == "*" and italic_marks:
                em = not em
            elif token:
                last = spans[-1] if spans else None
                if last is not None and (last.code, last.strong, last.em) == (False, strong, em):
                    spans[-1] = Span(last.text + token, strong=strong, em=em)
                else:
                    spans.append(Span(token, strong=strong, em=em))
    return tuple(spans)
