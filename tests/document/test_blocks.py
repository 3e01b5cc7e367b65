"""The fast block scanner (``document/blocks.py``) against markdown-it, its fallback.

Whenever ``scan`` answers, its tokens must be markdown-it's tokens of the same types
(type, tag, line map, content, markup), and a document parsed through it must be the
same document, with the same report, as one parsed by markdown-it alone.
"""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document import blocks
from cvagent_cli.document.blocks import markdown_it_parser
from cvagent_cli.document.document import ResumeDocument
from tests.conftest import sample_resume_paths

TODAY = date(2025, 6, 1)

# Resume-like lines, and the awkward ones: fences, setext underlines, nested and lazy
# lists, tables (and lines that look like their rows), HTML, quotes, indented code,
# front matter, reference definitions, tabs, Chinese, empty items, thematic breaks.
LINES = [
    "# Jane Doe",
    "## Experience",
    "### Acme Corp — Engineer",
    "#### Skills ###",
    "##",
    "# ",
    "####### seven",
    "#工作经历",
    "## 工作经历",
    "**Skills**",
    "**Skills**:",
    "Text line.**Skills**",
    "EXPERIENCE",
    "Education",
    "Jan 2020 – Present",
    "2019.03 - 至今",
    "2019. not a list after a paragraph",
    "1. first",
    "2. second",
    "3) third",
    "1.",
    "1234567890. ten digits",
    "- Built a service that handles 40M requests per day",
    "- 负责系统设计，提升性能30%",
    "* star item",
    "+ plus item",
    "- **Bold** lead",
    "- #tag in an item",
    "- # heading in an item",
    "- 1. nested ordered",
    "- - nested",
    "-  two spaces",
    "-     five spaces",
    "-",
    "- ",
    "*",
    "*italic* start",
    "+86 138 0013 8000",
    "-dash",
    "--",
    "---",
    "- - -",
    "***",
    "___",
    "===",
    "=",
    "...",
    "  - indented item",
    "   continuation",
    "    indented code",
    "\t- tab item",
    "tab\tinside",
    "| a | b |",
    "|---|---|",
    "| :--- | ---: |",
    ":---|---",
    "|---|",
    "--- | ---",
    "-|-",
    "| 1 | 2 | 3 |",
    "a | b",
    "| x \\| y | z |",
    "- a | b",
    "```",
    "```python",
    "~~~",
    "> quote",
    "> - quoted item",
    "<div align=center>",
    "</div>",
    "<h3>Experience</h3>",
    "<!-- comment -->",
    "[ref]: http://example.com",
    "[GitHub](https://github.com/x) | email@example.com",
    "Email: a@b.com | Phone: +1 555-123-4567",
    "title: Jane",
    "\u3000全角空格",
    "\u00a0nbsp",
    "&amp; entity",
    "trailing spaces   ",
    "ends with hashes ##",
    "",
    "",
    "",
    "   ",
]

#: Lines that do not by themselves send a text to markdown-it (most generated texts
#: are made of these, so that the comparison mostly runs on texts ``scan`` answers).
EASY = [line for line in LINES if line and blocks.scan(line + "\n") is not None] + ["", ""]


@st.composite
def markdown(draw: st.DrawFn) -> str:
    pool = LINES if draw(st.integers(0, 2)) == 0 else EASY
    lines = draw(st.lists(st.sampled_from(pool), max_size=30))
    if draw(st.booleans()) and lines:
        lines = ["---", *draw(st.lists(st.sampled_from(["name: X", "  - a", "..."]))), *lines]
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))
    if draw(st.integers(0, 9)) == 0:
        text = text.replace("\n", "\r\n")
    return text


def projection(tokens) -> list[tuple]:
    return [
        (t.type, t.tag, t.map, t.content, t.markup) for t in tokens if t.type in blocks.FAST_TYPES
    ]


def markdown_it_tokens(text: str) -> list[tuple]:
    return projection(markdown_it_parser().parse(text))


def structure(doc: ResumeDocument) -> dict:
    return {
        "sections": [dataclasses.asdict(s) for s in doc.sections],
        "roots": [s.id for s in doc.roots],
        "blocks": doc.blocks,
        "front_matter": (doc.front_matter, doc.front_matter_span, doc.front_matter_error),
        "html_inline_lines": doc.html_inline_lines,
        "title": (doc.title_line, doc.name_headings),
    }


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown())
@example("- a\n\n- b\n\nc\n")
@example("Title\n---\n- item\nlazy\n# H\n| a | b |\n|---|---|\n| 1 |\n")
@example("---\ntitle: x\n---\n# Name\n")
@example("para\n2. two\n1. one\n")
@example("- x\n   ")  # a last line of only spaces, without a newline, is no line
@example("")
def test_scan_gives_markdown_its_tokens(text: str) -> None:
    fast = blocks.scan(text)
    if fast is not None:
        assert projection(fast) == markdown_it_tokens(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown())
def test_fast_and_markdown_it_documents_are_the_same(text: str) -> None:
    fast = ResumeDocument.from_text(text)
    slow = _markdown_it_only(text)
    assert structure(fast) == structure(slow)
    assert analyze(fast, today=TODAY) == analyze(slow, today=TODAY)


def _markdown_it_only(text: str) -> ResumeDocument:
    original = blocks.scan
    blocks.scan = lambda text: None  # type: ignore[assignment]
    try:
        return ResumeDocument.from_text(text)
    finally:
        blocks.scan = original


@pytest.mark.skipif(not blocks.PORTED, reason="markdown-it-py < 4.3: the scanner steps aside")
@pytest.mark.parametrize("path", sample_resume_paths(), ids=lambda p: p.name)
def test_samples_take_the_fast_path_and_parse_the_same(path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = blocks.scan(text)
    assert fast is not None  # plain resume Markdown: the scanner handles it
    assert projection(fast) == markdown_it_tokens(text)
    doc, slow = ResumeDocument.from_text(text), _markdown_it_only(text)
    assert structure(doc) == structure(slow)
    assert analyze(doc, today=TODAY) == analyze(slow, today=TODAY)


@pytest.mark.parametrize(
    "text",
    [
        "```\ncode\n```\n",
        "> quote\n",
        "<div>\n</div>\n",
        "    indented code\n",
        "- a\n  - nested\n",
        "a\r\nb\r\n",
        "a\tb\n",
        "[ref]: http://x\n",
        "***\n",
        "- \n",
        "---\nunclosed: front matter\n",
    ],
)
def test_what_the_scanner_leaves_to_markdown_it(text: str) -> None:
    assert blocks.scan(text) is None


def test_with_an_older_markdown_it_the_scanner_steps_aside(monkeypatch) -> None:
    # pyproject allows markdown-it-py >= 3.0, whose rules differ from the ported ones
    text = sample_resume_paths()[0].read_text(encoding="utf-8")
    monkeypatch.setattr(blocks, "PORTED", False)
    assert blocks.scan(text) is None
    assert structure(ResumeDocument.from_text(text)) == structure(_markdown_it_only(text))
