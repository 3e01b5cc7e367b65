"""resume.md → DOCX with real Word styles (Title/Heading 1/2, List Bullet) so it stays
editable.  It lays out the same reading of the resume as the PDF (``layout.read_layout``):
bold, italic, code, strikethrough and links are Word runs and hyperlinks; an entry's dates
sit on its row at a right-aligned tab stop (in the modern template after the place the
title ends with, when the row has room for both); entry rows and headings are kept with the next
paragraph; a generic two-column table is label / value pairs without borders."""

from __future__ import annotations

import io
from datetime import datetime, timezone
from types import ModuleType
from typing import TYPE_CHECKING

from cvagent_cli.errors import ConfigError
from cvagent_cli.formats.writing.embedded_source import add_docx_source
from cvagent_cli.formats.writing.layout import (
    Bullets,
    HeaderLine,
    Heading,
    Layout,
    Line,
    Name,
    Paragraph,
    Run,
    Subheading,
    Table,
    plain,
    read_layout,
    where,
)
from cvagent_cli.formats.writing.options import DEFAULT_OPTIONS, WriteOptions
from cvagent_cli.formats.writing.templates import get_template
from cvagent_cli.install import documents_hint

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument
    from docx.text.paragraph import Paragraph as DocxParagraph
    from docx.text.run import Run as DocxRun


def require_docx(what: str = "DOCX export") -> ModuleType:
    try:
        import docx  # lazy: heavy, and only in the `documents` extra
    except ImportError as exc:
        raise ConfigError(f"{what} needs python-docx", hint=documents_hint()) from exc
    return docx


def _style_run(run: DocxRun, source: Run, *, bold: bool = False) -> None:
    run.bold = source.bold or bold or None
    run.italic = source.italic or None
    run.font.strike = source.strike or None
    if source.code:
        run.font.name = "Consolas"


def add_runs(paragraph: DocxParagraph, runs: Line, *, bold: bool = False) -> None:
    """``runs`` into ``paragraph``; runs that share a link become one Word hyperlink."""
    i = 0
    while i < len(runs):
        href = runs[i].href
        j = i + 1
        while j < len(runs) and runs[j].href == href:
            j += 1
        if href:
            _hyperlink(paragraph, href, runs[i:j], bold)
        else:
            for source in runs[i:j]:
                _style_run(paragraph.add_run(source.text), source, bold=bold)
        i = j


def _hyperlink(paragraph: DocxParagraph, href: str, runs: Line, bold: bool) -> None:
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.text.run import Run as DocxRun

    rel = paragraph.part.relate_to(href, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rel)
    for source in runs:
        element = OxmlElement("w:r")
        run = DocxRun(element, paragraph)
        run.text = source.text
        _style_run(run, source, bold=bold)
        run.font.underline = True
        link.append(element)
    paragraph._p.append(link)


def _tab_right(paragraph: DocxParagraph, document: DocxDocument) -> None:
    from docx.enum.text import WD_TAB_ALIGNMENT

    section = document.sections[0]
    page, left, right = section.page_width, section.left_margin, section.right_margin
    if page is None or left is None or right is None:  # python-docx's template sets all three
        return
    width = page - left - right
    paragraph.paragraph_format.tab_stops.add_tab_stop(width, WD_TAB_ALIGNMENT.RIGHT)


def _fits(title: Line, right: Line, document: DocxDocument) -> bool:
    """Whether a bold ``title`` and ``right`` fit on one line of the page, by an estimate
    (Word lays the page out, not python-docx): 0.45 em a Latin character (Calibri's
    average in running text), 1 em a CJK one, bold 5% wider, 1 em between them."""
    style = document.styles["Normal"].font.size
    size = style.pt if style is not None else 11.0
    section = document.sections[0]
    page, margin_l, margin_r = section.page_width, section.left_margin, section.right_margin
    if page is None or margin_l is None or margin_r is None:  # python-docx's template sets all
        return True
    width = (page - margin_l - margin_r) / 12700  # pt

    def ems(text: str) -> float:
        return sum(1.0 if ord(ch) >= 0x2E80 else 0.45 for ch in text)

    return bool((1.05 * ems(plain(title)) + ems(plain(right)) + 1) * size <= width)


def _table(document: DocxDocument, table: Table) -> None:
    from docx.shared import Pt

    width = max(len(row) for row in table.rows)
    grid = document.add_table(rows=len(table.rows), cols=width)
    if not table.pairs:
        grid.style = "Table Grid"
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row):
            paragraph = grid.cell(r, c).paragraphs[0]
            paragraph.paragraph_format.space_after = Pt(1)
            add_runs(paragraph, cell, bold=(table.pairs and c == 0) or (table.header and r == 0))


def _compact(document: DocxDocument) -> None:
    """Tighter margins, a smaller font, less space after paragraphs."""
    from docx.shared import Cm, Pt

    for section in document.sections:
        section.left_margin = section.right_margin = Cm(1.5)
        section.top_margin = section.bottom_margin = Cm(1.2)
    sizes = {"Normal": 9.5, "List Bullet": 9.5, "Title": 18, "Heading 1": 16}
    sizes.update({"Heading 2": 12, "Heading 3": 10})
    for name, size in sizes.items():
        style = document.styles[name]
        style.font.size = Pt(size)
        style.paragraph_format.space_after = Pt(1 if name in ("Normal", "List Bullet") else 2)
        if name.startswith("Heading"):
            style.paragraph_format.space_before = Pt(6)


def _accent(document: DocxDocument, colour: str) -> None:
    from docx.shared import RGBColor

    for name in ("Heading 1", "Heading 2", "Heading 3"):
        document.styles[name].font.color.rgb = RGBColor.from_string(colour)


def _properties(document: DocxDocument, layout: Layout, now: datetime) -> None:
    """Core properties as a person's document has them (python-docx's template says
    "python-docx", and that it was made in 2013)."""
    props = document.core_properties
    props.title = layout.title
    props.author = layout.name or layout.title
    props.last_modified_by = layout.name or ""
    props.subject = layout.subject
    keywords = ""
    for word in layout.keywords:  # Word keeps at most 255 characters
        if len(keywords) + len(word) + 2 > 255:
            break
        keywords = f"{keywords}, {word}" if keywords else word
    props.keywords = keywords
    props.comments = ""
    props.category = "简历" if layout.language == "zh" else "Resume"
    props.language = "zh-CN" if layout.language == "zh" else "en-US"
    props.created = props.modified = now.replace(tzinfo=None, microsecond=0)
    props.revision = 1


def render_docx(
    markdown: str | Layout,
    template: str = "classic",
    *,
    now: datetime | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> bytes:
    """Markdown → DOCX bytes: headings keep their level, bullets are List Bullet."""
    docx = require_docx()
    from docx.shared import Pt

    layout = markdown if isinstance(markdown, Layout) else read_layout(markdown)
    document = docx.Document()
    look = get_template(template).docx
    if look.compact:
        _compact(document)
    if look.accent:
        _accent(document, look.accent)
    _properties(document, layout, now or datetime.now(timezone.utc))
    for block in layout.blocks:
        if isinstance(block, Name):
            add_runs(document.add_heading(level=1), block.runs)
        elif isinstance(block, HeaderLine):
            paragraph = document.add_paragraph()
            for index, part in enumerate(block.items):
                if index:
                    paragraph.add_run(" | ")
                add_runs(paragraph, part)
        elif isinstance(block, Heading):
            heading = document.add_heading(level=2)
            heading.paragraph_format.keep_with_next = True
            add_runs(heading, block.runs)
        elif isinstance(block, Subheading):
            row = document.add_paragraph()
            row.paragraph_format.keep_with_next = True
            row.paragraph_format.space_before = Pt(6)
            row.paragraph_format.space_after = Pt(2)
            title, dates = block.title, block.dates
            if look.place_right and block.place and _fits(block.head, where(block), document):
                title, dates = block.head, where(block)
            add_runs(row, title, bold=True)
            if dates:
                _tab_right(row, document)
                row.add_run("\t")
                add_runs(row, dates)
        elif isinstance(block, Paragraph):
            paragraph = document.add_paragraph()
            for index, line in enumerate(block.lines):
                if index:
                    paragraph.add_run().add_break()
                add_runs(paragraph, line)
        elif isinstance(block, Bullets):
            for item in block.items:
                style = "List Number" if item.number is not None else "List Bullet"
                if item.depth:
                    style += f" {min(item.depth + 1, 3)}"
                add_runs(document.add_paragraph(style=style), item.runs)
        elif isinstance(block, Table):
            _table(document, block)
    if options.embed_source and isinstance(markdown, str):
        add_docx_source(document, markdown)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
