"""resume.md → DOCX in the look of the PDF, with real Word styles so it stays editable
(the page and the styles: ``docx_template``).  It lays out the same reading of the resume as
the PDF (``layout.read_layout``): the name is Title, a section Heading 1, an entry's row
Heading 2 with its dates (in the modern template after the place the title ends with, when
the row has room for both) at the style's right tab stop, bullets List Bullet at their level;
bold, italic, code, strikethrough and links are Word runs and hyperlinks; a generic
two-column table is label / value pairs without borders."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import datetime, timezone
from types import ModuleType
from typing import TYPE_CHECKING

from cvagent_cli import languages
from cvagent_cli.document.entry_words import split_title
from cvagent_cli.errors import ConfigError, CvAgentError
from cvagent_cli.formats.writing.docx_template import (
    CODE_FONT,
    LIST_LEVELS,
    Look,
    ems,
    ordered_list,
    rules,
    set_up,
    style_id,
    text_width,
)
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
from cvagent_cli.formats.writing.options import DEFAULT_OPTIONS, WriteOptions, choose_paper
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


def _style_run(run: DocxRun, source: Run, *, bold: bool | None = None) -> None:
    run.bold = True if source.bold or bold else (False if bold is False else None)
    run.italic = source.italic or None
    run.font.strike = source.strike or None
    if source.code:
        run.font.name = CODE_FONT


def add_runs(paragraph: DocxParagraph, runs: Line, *, bold: bool | None = None) -> None:
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


def _hyperlink(paragraph: DocxParagraph, href: str, runs: Line, bold: bool | None) -> None:
    # lazy: python-docx loads only when a Word file is written
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.text.run import Run as DocxRun

    rel = paragraph.part.relate_to(href, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rel)
    for source in runs:
        # a web address, e-mail or phone never breaks at its hyphens: Word's non-breaking
        # hyphen (w:noBreakHyphen), which Word, LibreOffice's PDF and python-docx read as "-"
        for index, piece in enumerate(source.text.split("-")):
            if index:
                element = OxmlElement("w:r")
                element.style = style_id("Hyperlink")
                element.append(OxmlElement("w:noBreakHyphen"))
                link.append(element)
            if piece:
                element = OxmlElement("w:r")
                run = DocxRun(element, paragraph)
                run.text = piece
                element.style = style_id("Hyperlink")
                _style_run(run, source, bold=bold)
                link.append(element)
    paragraph._p.append(link)


def _paragraph(document: DocxDocument, style: str | None = None) -> DocxParagraph:
    """A new paragraph in ``style``, named by its id: python-docx's ``add_paragraph(style=)``
    reads every style of the template to find one by name (a third of an export's time)."""
    paragraph = document.add_paragraph()
    if style is not None:
        paragraph._p.style = style_id(style)
    return paragraph


def _muted(paragraph: DocxParagraph, runs: Line, look: Look) -> None:
    # lazy: python-docx loads only when a Word file is written
    from docx.shared import RGBColor

    start = len(paragraph.runs)
    add_runs(paragraph, runs, bold=False)
    for run in paragraph.runs[start:]:
        run.font.color.rgb = RGBColor.from_string(look.muted)


#: The PDF's separator between contact items: 0.45 em either side of the bar.
_BAR_EMS = 0.9 + ems("|")


def _fits(title: Line, right: Line, look: Look, width: float) -> bool:
    """Whether a bold ``title`` and ``right`` fit on one line of the page, 1.2 em apart, as
    the PDF decides it (``ems``)."""
    return bool((ems(plain(title), bold=True) + ems(plain(right)) + 1.2) * look.size <= width)


def _title(row: DocxParagraph, runs: Line, look: Look, *, dated: bool) -> None:
    """An entry's title (bold by its style); in templates that split it, "Title — Employer"
    with the employer in regular weight, as the PDF splits it."""
    if look.title_split and dated and len(runs) == 1 and not runs[0].href:
        _head, sep, _rest = split_title(runs[0].text)
        if sep:
            at = runs[0].text.index(sep)
            row.add_run(runs[0].text[:at])
            row.add_run(runs[0].text[at:]).bold = False
            return
    add_runs(row, runs)


def _section(document: DocxDocument, block: Heading, look: Look) -> None:
    """A section title; in templates with a partial rule, the line after it as the PDF
    draws it: a gap, then a struck-through tab to the margin's tab stop (the line at the
    middle of the letters, in the title's colour, and as long as the title leaves)."""
    title = _paragraph(document, "Heading 1")
    add_runs(title, block.runs)
    if look.rule == "partial":
        title.add_run("\u2002")  # an en space: the PDF's 0.6 em less the line's own start
        title.add_run("\t").font.strike = True


def _entry(document: DocxDocument, block: Subheading, look: Look, dates_at: str) -> None:
    """An entry's row: Heading 2, its dates (and in some templates its place) at the
    style's right tab stop; with ``dates_at`` "inline", the dates right after the title,
    " · " between, in the same paragraph (the place stays in the title as written)."""
    row = _paragraph(document, "Heading 2")
    title, dates = block.title, block.dates
    if dates_at == "inline":
        _title(row, title, look, dated=bool(block.dates))
        if dates:
            _muted(row, [Run(" · "), *dates], look)
        return
    width = text_width(document)
    if look.place_right and block.place and _fits(block.head, where(block), look, width):
        title, dates = block.head, where(block)
    _title(row, title, look, dated=bool(block.dates or block.place))
    if dates:
        row.add_run("\t")
        _muted(row, dates, look)


def _bullets(document: DocxDocument, block: Bullets) -> None:
    """Each item at its level: List Bullet, List Bullet 2, List Bullet 3 (deeper items at
    the third); a numbered list numbers from 1."""
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml.ns import qn

    list_id: int | None = None
    for item in block.items:
        level = min(item.depth, LIST_LEVELS - 1)
        style = "List Number" if item.number is not None else "List Bullet"
        paragraph = _paragraph(document, style + (f" {level + 1}" if level else ""))
        if item.number is not None:
            list_id = list_id if list_id is not None else ordered_list(document)
            num = paragraph._p.get_or_add_pPr().get_or_add_numPr()
            num.get_or_add_ilvl().set(qn("w:val"), str(level))
            num.get_or_add_numId().set(qn("w:val"), str(list_id))
        add_runs(paragraph, item.runs)


def _table(document: DocxDocument, table: Table, look: Look) -> None:
    """A table as the PDF sets it: label / value pairs without borders, a row the PDF's row
    gap and a cap height under the last; another table between rules (above it, under its
    header row, below it) with no grid.  The first column as wide as its longest cell
    (``ems``, bold where the cell is) and the cells' margins, the others share the rest."""
    # lazy: python-docx loads only when a Word file is written
    from docx.enum.text import WD_LINE_SPACING
    from docx.shared import Pt

    width = max(len(row) for row in table.rows)
    grid = document.add_table(rows=len(table.rows), cols=width)
    bold = [
        [(table.pairs and c == 0) or (table.header and r == 0) for c in range(width)]
        for r in range(len(table.rows))
    ]
    if width > 1:
        first = max(ems(plain(row[0]), bold=bold[r][0]) for r, row in enumerate(table.rows))
        first = min((first + 1.5) * look.size, text_width(document) / 2)
        rest = (text_width(document) - first) / (width - 1)
        for index, column in enumerate(grid.columns):
            column.width = Pt(first if index == 0 else rest)
            for cell in column.cells:
                cell.width = column.width
    if not table.pairs:
        rules(grid, header=table.header)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row):
            paragraph = grid.cell(r, c).paragraphs[0]
            if table.pairs:
                spacing = paragraph.paragraph_format
                spacing.line_spacing_rule = WD_LINE_SPACING.EXACTLY
                spacing.line_spacing, spacing.space_after = Pt(look.row_pitch), Pt(0)
            add_runs(paragraph, cell, bold=bold[r][c] or None)


def _header(document: DocxDocument, block: HeaderLine, look: Look) -> None:
    """The contact line, its items between muted bars, or a headline in the muted colour.
    As in the PDF, the line wraps between items, never inside one or after a bar: a new
    line where the next item would not fit, measured as the PDF measures it (``ems``; where
    Word's font is wider, it still wraps inside the item).  Each line is a paragraph, the next ones
    the body's line pitch below (the header's styles set the header's lines closer)."""
    # lazy: python-docx loads only when a Word file is written
    from docx.shared import Pt

    if not block.contact and len(block.items) == 1:
        add_runs(_paragraph(document, "Subtitle"), block.items[0])
        return
    paragraph = _paragraph(document, "Contact")
    width = text_width(document) / look.size
    at = 0.0  # ems along the line
    for index, part in enumerate(block.items):
        size = ems(plain(part))
        if index and at + _BAR_EMS + size > width:
            paragraph = _paragraph(document, "Contact")
            paragraph.paragraph_format.space_before = Pt(look.pitch - look.header_pitch)
            at = 0.0
        elif index:
            _muted(paragraph, [Run(" | ")], look)
            at += _BAR_EMS
        add_runs(paragraph, part)
        at += size


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
    labels = languages.get(layout.language).labels
    props.category = labels.resume
    props.language = labels.docx_lang
    props.created = props.modified = now.replace(tzinfo=None, microsecond=0)
    props.revision = 1


def paper(markdown: str | Layout, options: WriteOptions) -> str:
    """The DOCX's paper: the PDF's (``choose_paper``: the one asked for, else the resume's
    own country's); a layout without its Markdown, A4 unless asked."""
    if isinstance(markdown, str):
        return choose_paper(markdown, options.paper)
    return options.paper or "a4"


#: A PDF whose last page's text ends this far down (of the page height) leaves Word no slack.
NEARLY_FULL = 0.9
#: How many resumes' PDF spacing ``pdf_spacing`` keeps (a chat session exports one resume).
_KEPT = 8


class _Settled:
    """The spacing and last-page fill the PDF settled on, by (Markdown, template, paper,
    where the dates go):
    typesetting the PDF is most of a DOCX export's time, and a PDF exported first (or a
    DOCX exported again) in the same process has settled them already.  They depend on
    nothing else (the fonts are the package's)."""

    def __init__(self) -> None:
        self._found: dict[tuple[str, str, str, str], tuple[float, float]] = {}

    def get(self, key: tuple[str, str, str, str]) -> tuple[float, float] | None:
        return self._found.get(key)

    def put(self, key: tuple[str, str, str, str], space: float, fill: float) -> None:
        self._found.pop(key, None)
        self._found[key] = (space, fill)
        while len(self._found) > _KEPT:
            del self._found[next(iter(self._found))]


_SETTLED = _Settled()


def remember_pdf(
    markdown: str, template: str, paper_name: str, dates: str, space: float, fill: float
) -> None:
    """Note what a PDF export of ``markdown`` settled on, for a DOCX of it (``pdf_spacing``)."""
    _SETTLED.put((markdown, template, paper_name, dates), space, fill)


def pdf_spacing(markdown: str | Layout, template: str, options: WriteOptions) -> float:
    """The spacing of the PDF of the same resume (1.0, or tighter where that saved a last
    page that held a small tail), so the Word document has the PDF's page count; 1.0 when
    the PDF cannot be made (typst missing).  Word and LibreOffice break lines a little
    differently from typst, so where the PDF fills its last page to the bottom the DOCX
    takes the next tighter spacing rather than spill a few lines onto a page of their own."""
    if not isinstance(markdown, str):
        return 1.0
    key = (markdown, template, paper(markdown, options), options.dates)
    settled = _SETTLED.get(key)
    if settled is None:
        # lazy: the PDF writer loads typst, which a DOCX export needs only for this number
        from cvagent_cli.formats.writing.pdf_export import export_pdf

        try:
            result = export_pdf(markdown, template, options=replace(options, embed_source=False))
        except CvAgentError:
            return 1.0
        settled = (result.space, result.fill)
        _SETTLED.put(key, *settled)
    return _docx_spacing(*settled)


def _docx_spacing(space: float, fill: float) -> float:
    # lazy: the PDF writer's spacings; typst itself loads only when a PDF is compiled
    from cvagent_cli.formats.writing.pdf_export import TIGHTER

    tighter = [step for step in TIGHTER if step < space]
    if fill >= NEARLY_FULL and tighter:
        return tighter[0]
    return space


def render_docx(
    markdown: str | Layout,
    template: str = "classic",
    *,
    now: datetime | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> bytes:
    """Markdown → DOCX bytes in ``template``'s look (see ``docx_template``)."""
    docx = require_docx()
    layout = markdown if isinstance(markdown, Layout) else read_layout(markdown)
    document = docx.Document()
    chosen = get_template(template)
    look = set_up(
        document,
        chosen.pdf,
        chosen.docx,
        layout.language,
        paper(markdown, options),
        pdf_spacing(markdown, template, options),
    )
    _properties(document, layout, now or datetime.now(timezone.utc))
    for block in layout.blocks:
        if isinstance(block, Name):
            add_runs(_paragraph(document, "Title"), block.runs)
        elif isinstance(block, HeaderLine):
            _header(document, block, look)
        elif isinstance(block, Heading):
            _section(document, block, look)
        elif isinstance(block, Subheading):
            _entry(document, block, look, options.dates)
        elif isinstance(block, Paragraph):
            paragraph = document.add_paragraph()
            for index, line in enumerate(block.lines):
                if index:
                    paragraph.add_run().add_break()
                add_runs(paragraph, line)
        elif isinstance(block, Bullets):
            _bullets(document, block)
        elif isinstance(block, Table):
            _table(document, block, look)
    if options.embed_source and isinstance(markdown, str):
        add_docx_source(document, markdown)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
