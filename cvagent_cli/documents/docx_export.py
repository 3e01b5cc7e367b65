"""resume.md → DOCX with real Word styles (Heading 1/2/3, List Bullet) so it stays editable."""

from __future__ import annotations

import io
import re

from cvagent_cli.documents.markdown_source import export_lines, table_rows
from cvagent_cli.documents.templates import check_template
from cvagent_cli.errors import ConfigError
from cvagent_cli.install import documents_hint

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")


def _require_docx(what: str = "DOCX export"):
    try:
        import docx  # lazy: heavy, and only in the `documents` extra
    except ImportError as exc:
        raise ConfigError(f"{what} needs python-docx", hint=documents_hint()) from exc
    return docx


def _add_runs(paragraph, text: str) -> None:
    text = _LINK.sub(r"\1 (\2)", text)
    pos = 0
    for match in _BOLD.finditer(text):
        if match.start() > pos:
            paragraph.add_run(text[pos : match.start()])
        paragraph.add_run(match.group(1)).bold = True
        pos = match.end()
    if pos < len(text):
        paragraph.add_run(text[pos:])


def _add_table(document, rows: list[list[str]]) -> None:
    width = max(len(r) for r in rows)
    table = document.add_table(rows=len(rows), cols=width)
    table.style = "Table Grid"
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            _add_runs(table.cell(r, c).paragraphs[0], text)


def _compact(document) -> None:
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


def render_docx(markdown: str, template: str = "classic") -> bytes:
    """Markdown → DOCX bytes: headings keep their level, `-`/`*` items become List Bullet."""
    docx = _require_docx()
    document = docx.Document()
    if check_template(template) == "compact":
        _compact(document)
    source = export_lines(markdown)
    i = 0
    while i < len(source):
        line = source[i].strip()
        i += 1
        if not line:
            continue
        heading = re.match(r"^(#{1,3})\s*(.+)$", line)
        if line.startswith("|"):
            block = [line]
            while i < len(source) and source[i].strip().startswith("|"):
                block.append(source[i].strip())
                i += 1
            _add_table(document, table_rows(block))
        elif heading:
            _add_runs(document.add_heading(level=len(heading.group(1))), heading.group(2))
        elif re.match(r"^[-*+]\s+", line):
            _add_runs(document.add_paragraph(style="List Bullet"), line[2:].strip())
        else:
            _add_runs(document.add_paragraph(), line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
