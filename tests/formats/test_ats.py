"""What an applicant tracking system reads from each exported PDF: the text pdfplumber and
poppler's pdftotext extract has every section title, entry and bullet in order and no
Markdown markers; every link is clickable; importing the export gives the resume back.

Every sample resume and tests/formats/data/inline_marks.md (all the inline Markdown a
resume uses), in every template.  The pdftotext half is skipped where poppler is not
installed (``apt-get install poppler-utils``)."""

from __future__ import annotations

import functools
import io
import re
import shutil
from pathlib import Path

import pytest

from cvagent_cli.document.dates import RANGE_RE
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.entry_words import title_place
from cvagent_cli.document.inline import HTML_TAG_RE, plain_inline
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.writing.docx_export import render_docx
from cvagent_cli.formats.writing.docx_template import CODE_FONT
from cvagent_cli.formats.writing.pdf_export import render_pdf
from cvagent_cli.formats.writing.templates import TEMPLATES
from tests.formats.test_html_export import SAMPLES
from tests.support.pdf_measures import pdftotext_text as pdftotext
from tests.support.roundtrip import compare

MARKS = Path(__file__).parent / "data" / "inline_marks.md"
DOCUMENTS = [*SAMPLES, MARKS]
#: Markdown left in extracted text: bold/strike/code markers, a link's "](", *x* and _x_.
MARKER_RES = (
    re.compile(r"\*\*|~~|`|\]\("),
    re.compile(r"(?<![\w*])\*(?=\S)[^*\n]+(?<=\S)\*(?![\w*])"),
    re.compile(r"(?<![\w_])_(?=\S)[^_\n]+(?<=\S)_(?![\w_])"),
)


@functools.cache
def pdf_of(path: Path, template: str) -> bytes:
    return render_pdf(path.read_text(encoding="utf-8"), template)


def squash(text: str) -> str:
    """No whitespace, brackets or separators: an entry's "(2022.03 - 2022.12)" is printed
    on its row, and a contact line wraps between its items, where no "|" is printed."""
    return re.sub(r"[\s()（）|｜·•]+", "", text)


def expected_in_order(markdown: str) -> list[str]:
    """Section titles, entry titles, paragraphs and bullets, in the source's order.  An
    entry title's place may be printed beside its dates (the modern template: "Northwind
    Payments" on the left, "Seattle, WA · Mar 2019 – Present" on the right): the title
    before its place and the place with what follows are two pieces, in that order, so the
    comma between them is all that is not compared."""
    doc = ResumeDocument.from_text(markdown)
    source = markdown.splitlines()
    found: list[tuple[int, str]] = []
    for section in doc.sections:
        if section.heading_line:
            pieces = [section.title]
            if section.level >= 3:
                pieces = at_place(section.title, section.title, section.kind, doc.language)
            found += [(section.heading_line, piece) for piece in pieces]
        found += [(b.line, b.text) for b in section.bullets]
        for p in section.paragraphs if section.heading_line else []:
            first = source[p.line - 1]
            if first.lstrip().startswith(("**", "__")):  # an entry written as a bold line
                title = plain_inline(HTML_TAG_RE.sub("", first))
                found += [
                    (p.line, piece) for piece in at_place(p.text, title, section.kind, doc.language)
                ]
            else:
                found.append((p.line, p.text))
    return [text for _, text in sorted(found, key=lambda f: f[0]) if squash(text)]


def at_place(text: str, title: str, kind: str, language: str) -> list[str]:
    """``text`` split before the place its entry ``title`` ends with, as the resume's
    structured reading (``entry_words.title_place``) finds it."""
    place = title_place(title, kind, language)
    if not place or f", {place}" not in text:
        return [text]
    before, after = text.split(f", {place}", 1)
    return [before, place + after]


def assert_reads_in_order(text: str, markdown: str) -> None:
    flat = squash(text)
    position = 0
    for piece in map(squash, expected_in_order(markdown)):
        found = flat.find(piece, position)
        assert found >= 0, f"missing or out of order: {piece!r}"
        position = found + len(piece)


def markers(text: str) -> list[str]:
    return [m.group() for pattern in MARKER_RES for m in pattern.finditer(text)]


def pdfplumber_text(data: bytes) -> str:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_pdfplumber_reads_every_title_entry_and_bullet_in_order(path: Path, template: str) -> None:
    text = pdfplumber_text(pdf_of(path, template))
    assert_reads_in_order(text, path.read_text(encoding="utf-8"))
    assert markers(text) == []


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext not installed")
@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_pdftotext_reads_every_title_entry_and_bullet_in_order(path: Path, template: str) -> None:
    """In its physical-layout and content-stream modes.  Its default mode guesses columns:
    a right-aligned date over short bullets can come after them (as in any layout with a
    dates column); there every piece is checked to be there, in any order."""
    markdown = path.read_text(encoding="utf-8")
    data = pdf_of(path, template)
    for mode in ("-layout", "-raw"):
        text = pdftotext(data, mode)
        assert_reads_in_order(text, markdown)
        assert markers(text) == []
    text = squash(pdftotext(data))
    for piece in expected_in_order(markdown):
        for chunk in RANGE_RE.sub("\0", piece).split("\0"):
            assert squash(chunk) in text
    assert markers(pdftotext(data)) == []


def test_the_marker_check_can_fail() -> None:
    assert markers("a **b** c *d* e _f_ `g` ~~h~~ [i](j)") == [
        "**",
        "**",
        "`",
        "`",
        "~~",
        "~~",
        "](",
        "*d*",
        "_f_",
    ]
    with pytest.raises(AssertionError, match="out of order"):
        assert_reads_in_order(
            "Skills\nExperience\n- Built it", "# A\n\n## Experience\n\n- Built it\n\n## Skills\n"
        )


def test_an_entry_place_may_move_beside_its_dates_but_not_go_missing_or_first() -> None:
    markdown = "# A\n\n## Experience\n\n### Engineer — Acme, Seattle, WA\nMar 2019 – Present\n"
    for printed in (
        "A Experience Engineer — Acme, Seattle, WA Mar 2019 – Present",  # classic
        "A Experience Engineer — Acme Seattle, WA · Mar 2019 – Present",  # modern
    ):
        assert_reads_in_order(printed, markdown)
    for broken in (
        "A Experience Engineer — Acme Mar 2019 – Present",
        "A Experience Seattle, WA Engineer — Acme Mar 2019 – Present",
        "A Experience Engineer — Acme Mar 2019 – Present Seattle, WA",
    ):
        with pytest.raises(AssertionError, match="out of order"):
            assert_reads_in_order(broken, markdown)
    bold = "# A\n\n## Experience\n\n**Engineer — Acme, Austin, TX**\nJan 2022 – Present\n"
    assert_reads_in_order("A Experience Engineer — Acme Austin, TX · Jan 2022 – Present", bold)
    with pytest.raises(AssertionError, match="out of order"):
        assert_reads_in_order("A Experience Engineer — Acme · Jan 2022 – Present", bold)


def test_every_link_of_the_inline_sample_is_clickable() -> None:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf_of(MARKS, "classic"))) as pdf:
        uris = {link["uri"] for page in pdf.pages for link in page.hyperlinks}
    assert uris == {
        "mailto:noa.varga@example.com",
        "tel:+351912345678",
        "https://noa-varga.example.dev/projects/platform-notes",
        "https://github.com/noa-varga-example",
        "https://example.com/notes/queue-design",
    }


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_contact_details_of_every_sample_are_links(path: Path) -> None:
    import pdfplumber

    basics = ResumeDocument.from_path(path).basics
    with pdfplumber.open(io.BytesIO(pdf_of(path, "modern"))) as pdf:
        uris = " ".join(link["uri"] for page in pdf.pages for link in page.hyperlinks)
    for value in (basics.email, basics.linkedin, basics.github, basics.website):
        if value:
            assert value.removeprefix("https://") in uris
    if basics.phone:
        assert "tel:+" in uris or "tel:" in uris


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_importing_the_export_gives_the_resume_back(path: Path, template: str, fmt: str) -> None:
    original = path.read_text(encoding="utf-8")
    data = pdf_of(path, template) if fmt == "pdf" else render_docx(original, template)
    imported = import_bytes(data, path.name, f".{fmt}", from_layout=True).markdown
    result = compare(original, imported)
    assert result.sections and result.bullets and result.contacts, imported
    assert result.score, (result.score_before, result.score_after)


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_docx_text_has_no_markdown_markers_and_keeps_the_marks(path: Path, template: str) -> None:
    import docx

    document = docx.Document(io.BytesIO(render_docx(path.read_text(encoding="utf-8"), template)))
    cells = [p for t in document.tables for row in t.rows for c in row.cells for p in c.paragraphs]
    paragraphs = [*document.paragraphs, *cells]
    text = "\n".join(p.text for p in paragraphs)
    assert markers(text) == []
    assert_reads_in_order(text, path.read_text(encoding="utf-8"))
    if path == MARKS:
        runs = [r for p in paragraphs for r in p.runs]
        assert any(r.italic and r.text == "40 minutes" for r in runs)
        assert any(r.font.strike and r.text == "hand-rolled" for r in runs)
        assert any(r.font.name == CODE_FONT and r.text == "bazel" for r in runs)
        links = [h.address for p in document.paragraphs for h in p.hyperlinks]
        assert "https://example.com/notes/queue-design" in links
        assert "mailto:noa.varga@example.com" in links
