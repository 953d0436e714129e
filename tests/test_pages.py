"""The HTML pages come from templates: every text a user chose (variant, problem-set and
file names, commands, a folder's name) is escaped, the reproduction's Markdown-like spans
are read as before, and Jinja2 is loaded only to write a page."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.report import render
from harness.report.page import report_files, write_index, write_report
from harness.report.render import Span, inline_spans
from harness.reproduce.document import _Doc
from harness.run.experiment import run_experiment
from harness.run.plan import ExperimentConfig
from tests.test_compare import BASE, frame

HOSTILE_VARIANT = "<script>alert(1)</script>&pvs"
HOSTILE_SET = "tree:<b>bold</b>&co.json"


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A report whose variant, problem set, plug-in record, file name and command hold markup."""
    results = frame({"alphabeta": BASE, HOSTILE_VARIANT: [n // 2 for n in BASE]}, suite=HOSTILE_SET)
    info = {
        "config_hash": "abc<def>",
        "command": ["harness", "run", "--problems", HOSTILE_SET],
        "variants": {HOSTILE_VARIANT: {"name": "<i>plug</i>", "options": {"k<": "v&"},
                                       "source": "my_pkg:<Variant>"}},
        "suites": {HOSTILE_SET: {"game": "tree", "path": "/data/<x>&y.json", "sha256": "<0>"}},
    }
    files = write_report(tmp_path_factory.mktemp("hostile"), results, info, resamples=200)
    return files.html.read_text(encoding="utf-8")


def test_a_name_with_markup_is_shown_as_text_everywhere(hostile_page: str) -> None:
    page = hostile_page
    assert "<script" not in page and "<b>" not in page and "<i>" not in page and "<x>" not in page
    # the verdict table, the summary and comparison tables, the run's variants
    assert page.count(f'<td class="text">{_escaped(HOSTILE_VARIANT)}</td>') >= 3
    assert f"<code>{_escaped(HOSTILE_SET)}</code>" in page   # the sets' sentence and headings
    for text in ("&lt;i&gt;plug&lt;/i&gt;", "k&lt;=v&amp;", "my_pkg:&lt;Variant&gt;",
                 "/data/&lt;x&gt;&amp;y.json", "<code>&lt;0&gt;</code>", "abc&lt;def&gt;"):
        assert text in page, text
    # an attribute too: the chart's alternative text is the chart's own title, quoted
    assert "&amp;pvs" in page and "&pvs" not in page.replace("&amp;pvs", "")


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory: pytest.TempPathFactory, hostile_page: str) -> Path:
    path = tmp_path_factory.mktemp("page") / "report.html"
    path.write_text(hostile_page, encoding="utf-8")
    return path


@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium to read the page with")
def test_a_browser_reads_the_names_as_text(hostile_file: Path, tmp_path: Path) -> None:
    """Chromium (headless) reads the page: the names with markup are text in its document,
    no element of theirs, and every table of the source is a table there."""
    done = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                           f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                           hostile_file.as_uri()], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert "<script" not in dom and "<b>" not in dom and "<i>" not in dom
    assert f'<td class="text">{_escaped(HOSTILE_VARIANT)}</td>' in dom
    source = hostile_file.read_text(encoding="utf-8")
    assert dom.count("<table") == source.count("<table") >= 4
    assert dom.count("<details") == source.count("<details") == 4


def test_file_and_folder_names_with_markup_are_escaped_in_the_report_and_index(
        tmp_path: Path) -> None:
    tree = tmp_path / "<b>&fig.json"
    tree.write_text(json.dumps([[1, 2], [3, [4, 5]]]), encoding="utf-8")
    folder = tmp_path / "runs"
    run = run_experiment(ExperimentConfig(problems=(f"tree:{tree}",), variants="alphabeta,pvs"),
                         folder / 'r&<b>"x').run_dir
    report = (run / "report.html").read_text(encoding="utf-8")
    assert "<b>" not in report and "&lt;b&gt;&amp;fig.json" in report
    page = write_index(folder, [(run, report_files(run))]).read_text(encoding="utf-8")
    assert '<a href="r%26%3Cb%3E%22x/report.html">r&amp;&lt;b&gt;&#34;x</a>: tree:' in page
    assert "<b>" not in page and "&lt;b&gt;&amp;fig.json; 1 problems x 2 variants" in page


def test_the_reproductions_spans_and_escaping() -> None:
    doc = _Doc()
    doc.heading(2, "1. A <claim> & **more**", "knuth-moore")
    doc.para("**Verdict: holds.** a < b & `x<y>*z*` *it* and **bold *both***")
    doc.items(["2 * 3 = 6"])
    doc.table(["a|b", "`c`"], [["*x*", "<td>"]])
    page = doc.html("t <&>")
    assert "<title>t &lt;&amp;&gt;</title>" in page
    assert ('<h2 id="knuth-moore">1. A &lt;claim&gt; &amp; <strong>more</strong></h2>') in page
    assert ("<p><strong>Verdict: holds.</strong> a &lt; b &amp; <code>x&lt;y&gt;*z*</code> "
            "<em>it</em> and <strong>bold </strong><strong><em>both</em></strong></p>") in page
    assert "<li>2 * 3 = 6</li>" in page                      # a lone star is text
    assert "<th>a|b</th><th><code>c</code></th>" in page
    assert "<td><em>x</em></td><td>&lt;td&gt;</td>" in page


def test_inline_spans() -> None:
    assert inline_spans("plain") == (Span("plain"),)
    assert inline_spans("a `**b**` c") == (Span("a "), Span("**b**", code=True), Span(" c"))
    assert inline_spans("**a** *b*") == (Span("a", strong=True), Span(" "), Span("b", em=True))
    assert inline_spans("x * y") == (Span("x * y"),)
    assert inline_spans("**a *b* c**") == (Span("a ", strong=True), Span("b", strong=True, em=True),
                                           Span(" c", strong=True))
    assert inline_spans("") == ()


def test_the_environment_is_made_once_and_undefined_is_an_error() -> None:
    import jinja2

    assert render.environment() is render.environment()
    assert render.environment().autoescape is True
    with pytest.raises(jinja2.UndefinedError):
        render.render("index.html.j2", {"title": "t", "folder": "f"})     # no runs


def test_every_template_is_used() -> None:
    """No template is left over: each is rendered by the harness or included by one."""
    folder = Path(render.__file__).parent / render.TEMPLATES
    sources = {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}
    python = "".join(p.read_text(encoding="utf-8") for p in (Path(render.__file__).parents[1]).rglob("*.py"))
    for name in sources:
        used = f'"{name}"' in python or any(f'"{name}"' in text for text in sources.values())
        assert used, name


@pytest.mark.parametrize("module", ["harness.cli", "harness.report.page",
                                    "harness.reproduce.document"])
def test_jinja2_is_loaded_only_to_write_a_page(module: str) -> None:
    code = f"import sys, {module}; print('jinja2' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=True)
    assert done.stdout.strip() == "False"


def test_a_page_made_by_a_new_environment_is_the_same_bytes(tmp_path: Path) -> None:
    """Rendering is a pure function of the values: a second environment gives the same page."""
    results = frame({"alphabeta": BASE, "pvs": [n // 2 for n in BASE]})
    first = write_report(tmp_path / "a", results, {"config_hash": "x"}, resamples=200)
    render.environment.cache_clear()
    second = write_report(tmp_path / "b", results, {"config_hash": "x"}, resamples=200)
    assert first.html.read_bytes() == second.html.read_bytes()


def _visible_text(page: str) -> str:
    """The text a reader sees of ``page``'s body: its tags dropped, entities read."""
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []
            self.skip = 0

        def handle_starttag(self, tag: str, attrs: object) -> None:
            self.skip += tag in ("style", "title")

        def handle_endtag(self, tag: str) -> None:
            self.skip -= tag in ("style", "title")

        def handle_data(self, data: str) -> None:
            if not self.skip:
                self.parts.append(data)

    parser = Text()
    parser.feed(page)
    return "".join(parser.parts)


def test_every_claims_title_source_and_claim_survive_rendering() -> None:
    """Each claim's title, source and claim, written as the reproduction writes them
    (heading, bold lead-in, a caption in italics), read in the page exactly as written:
    the stars of SSS*, DUAL* and MT-SSS* are text, not italics."""
    from harness.report.render import literal
    from harness.reproduce.claims import CLAIMS, number

    doc = _Doc()
    for claim in CLAIMS:
        doc.heading(2, f"{number(claim.key)}. {claim.title}", claim.key)
        doc.para(f"**Source.** {claim.source}")
        doc.para(f"**Claimed.** {claim.claimed}")
        doc.para(f"*{literal(claim.title)}.*")
    text = _visible_text(doc.html("claims"))
    assert any("*" in claim.title for claim in CLAIMS)    # the case this guards
    for claim in CLAIMS:
        for written in (f"{number(claim.key)}. {claim.title}", f"Source. {claim.source}",
                        f"Claimed. {claim.claimed}", f"{claim.title}."):
            assert written in text, written


@pytest.mark.parametrize(("text", "spans"), [
    ("SSS* and DUAL*", (Span("SSS* and DUAL*"),)),
    ("MT-SSS*'s leaves against SSS*'s", (Span("MT-SSS*'s leaves against SSS*'s"),)),
    ("b ** d leaves, 2*3*4", (Span("b ** d leaves, 2*3*4"),)),
    ("**Verdict: SSS* holds.** more", (Span("Verdict: SSS* holds.", strong=True), Span(" more"))),
    ("**about SSS***", (Span("about SSS*", strong=True),)),
    ("*than SSS\\* or DUAL\\*.*", (Span("than SSS* or DUAL*.", em=True),)),
    ("a *word* b", (Span("a "), Span("word", em=True), Span(" b"))),
    ("a`b", (Span("a`b"),)),                                     # an unpaired backtick is text
])
def test_stars_are_emphasis_only_in_pairs(text: str, spans: tuple[Span, ...]) -> None:
    assert inline_spans(text) == spans


# A word starts and ends with a letter or digit before its stars: after punctuation
# ("-*: 0*", "0-*: 0*") a star followed by punctuation opens emphasis, as CommonMark's
# flanking rules read it (and inline_spans does).
@given(st.lists(st.one_of(st.from_regex(r"[A-Za-z0-9]([A-Za-z0-9-]{0,4}[A-Za-z0-9])?\*{0,2}['.,:]?",
                                        fullmatch=True),
                          st.sampled_from(["*", "**", "b ** d", "2*3"])), max_size=12))
def test_prose_without_an_emphasis_pair_reads_as_written(words: list[str]) -> None:
    """Stars after a word or between spaces (names such as SSS*, products, powers) are
    never emphasis: the spans hold every character, in one plain span."""
    text = " ".join(words)
    assert inline_spans(text) == ((Span(text),) if text else ())


def test_a_star_after_punctuation_opens_emphasis_as_commonmark_reads_it() -> None:
    """Hypothesis found "0 0 0-*: 0*": the star after "-" and before ":" is left-flanking,
    so it opens emphasis that the last star closes (CommonMark: "0-<em>: 0</em>")."""
    assert inline_spans("0-*: 0*") == (Span("0-"), Span(": 0", em=True))


def test_literal_text_inside_markup_reads_as_written() -> None:
    from harness.report.render import literal

    for text in ("SSS* or DUAL*", "`x` and *y*", "**"):
        assert inline_spans(f"*{literal(text)}*") == (Span(text, em=True),)
