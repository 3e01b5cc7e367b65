"""DOCX → resume Markdown from Word styles, numbering, direct formatting and tables.

Word resumes come two ways: with real styles (Title, Heading 1–3, List Bullet), or with
direct formatting only (bold + a larger size, a typed "•", dates after a tab).  Both are
read into ``Para`` records and ``structure`` decides the rest.  Tables are kept as
Markdown tables when they hold data (基本信息, a skills grid) and read cell by cell when
they are a page layout (a two-column resume in a table).  Text boxes are read after the
body; hyperlinks keep their text and address.
"""

from __future__ import annotations

import io
import re
from typing import Any

from cvagent_cli.documents.formats import UNREADABLE_HINT
from cvagent_cli.documents.structure import (
    Para,
    Recognition,
    _is_date_text,
    assign_roles,
    shift_headings,
    to_markdown,
)
from cvagent_cli.errors import InputError
from cvagent_cli.wording import plural

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_DOCX_MAIN = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
#: Word's other main parts: macro-enabled (.docm) and templates (.dotx, .dotm), which
#: python-docx refuses by content type although the text is stored the same way.
_OTHER_MAINS = (
    b"application/vnd.ms-word.document.macroEnabled.main+xml",
    b"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    b"application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_HEADING_RE = re.compile(r"^heading\s*(\d)$")


class _Styles:
    """Style facts by style id, looked up once: python-docx resolves a style by scanning
    the styles part on every ``.style`` access, which is most of the time of a large file."""

    def __init__(self, document: Any) -> None:
        from docx.enum.style import WD_STYLE_TYPE

        self.document = document
        self.types = WD_STYLE_TYPE
        self.cache: dict[tuple[str | None, str], tuple[str, bool | None, float]] = {}

    def facts(self, style_id: str | None, kind: str) -> tuple[str, bool | None, float]:
        """(name, bold, size in pt) of a paragraph ("p") or character ("r") style, with
        what it inherits from its base styles."""
        key = (style_id, kind)
        if key not in self.cache:
            name, bold, size = "", None, 0.0
            if style_id is not None or kind == "p":
                kind_type = self.types.PARAGRAPH if kind == "p" else self.types.CHARACTER
                style = self.document.part.get_style(style_id, kind_type)
                name = style.name or "" if style is not None else ""
                while style is not None:
                    if bold is None and style.font.bold is not None:
                        bold = bool(style.font.bold)
                    if not size and style.font.size is not None:
                        size = float(style.font.size.pt)
                    style = style.base_style
            self.cache[key] = (name, bold, size)
        return self.cache[key]

    def paragraph(self, paragraph: Any) -> tuple[str, bool | None, float]:
        return self.facts(paragraph._p.style, "p")

    def run(self, run: Any, paragraph: Any) -> tuple[bool, float]:
        _, pbold, psize = self.paragraph(paragraph)
        _, rbold, rsize = self.facts(run._r.style, "r")
        bold = run.bold if run.bold is not None else rbold if rbold is not None else pbold
        size = run.font.size.pt if run.font.size is not None else rsize or psize
        return bool(bold), float(size or 0.0)


def _pieces(paragraph: Any, styles: _Styles) -> list[tuple[str, bool, float]]:
    """(text, bold, size) for the runs and hyperlinks of a paragraph, in order."""
    from docx.text.hyperlink import Hyperlink

    out: list[tuple[str, bool, float]] = []
    for item in paragraph.iter_inner_content():
        if isinstance(item, Hyperlink):
            runs = item.runs
            text = item.text
            address = item.address or ""
            if address.startswith("mailto:"):
                address = address[len("mailto:") :]
            if address and address.rstrip("/") not in text and text.strip():
                text = f"[{text}]({address})"
            facts = [styles.run(r, paragraph) for r in runs if r.text.strip()]
            bold = bool(facts) and all(b for b, _ in facts)
            size = max((sz for _, sz in facts), default=0.0)
            out.append((text, bold, size))
        else:
            out.append((item.text, *styles.run(item, paragraph)))
    return out


def _inline(pieces: list[tuple[str, bool, float]]) -> tuple[str, bool, str]:
    """(inline Markdown, all bold, bold lead-in)."""
    visible = [(t, b) for t, b, _ in pieces if t.strip()]
    if not visible:
        return "", False, ""
    if all(b for _, b in visible):
        return "".join(t for t, _, _ in pieces).strip(), True, ""
    text = ""
    for chunk, bold, _ in pieces:
        if bold and chunk.strip():
            core = chunk.strip()
            left = chunk[: len(chunk) - len(chunk.lstrip())]
            right = chunk[len(chunk.rstrip()) :]
            if text.endswith("**") and not left:
                text = text[:-2] + core + "**" + right  # two bold runs in a row
            else:
                text += f"{left}**{core}**{right}"
        else:
            text += chunk
    lead = ""
    _first_text, first_bold = visible[0]
    if first_bold:
        match = re.match(r"\*\*(.+?)\*\*", text.strip())
        lead = match.group(1) if match else ""
    return text.strip(), False, lead


def _list_depth(paragraph: Any, style: str) -> int | None:
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.numPr is not None:
        ilvl = ppr.numPr.ilvl
        return int(ilvl.val) if ilvl is not None and ilvl.val is not None else 0
    if "list" in style:
        match = re.search(r"(\d)$", style)
        return int(match.group(1)) - 1 if match else 0
    return None


def _paragraph(paragraph: Any, styles: _Styles) -> list[Para]:
    pieces = _pieces(paragraph, styles)
    text, bold, lead = _inline(pieces)
    if not text.strip():
        return []
    size = max((s for t, _, s in pieces if t.strip()), default=0.0)
    style = styles.paragraph(paragraph)[0].lower()
    heading = _HEADING_RE.match(style)
    if style == "title":
        return [Para(text=text.replace("**", ""), role="title", bold=True, size=size)]
    if heading:
        return [Para(text=text.replace("**", ""), role=f"h{heading.group(1)}", size=size)]
    depth = _list_depth(paragraph, style)
    if depth is not None:
        return [Para(text=text.replace("\t", " "), role="bullet", depth=min(depth, 3), size=size)]
    if "\t" in text:
        # "Software Engineer, Acme<TAB>2019 – 2023": the date after a tab stop is its own line.
        left, _, right = text.rpartition("\t")
        if _is_date_text(right) and left.strip():
            left = left.replace("\t", " ").strip()
            left_plain = left.replace("**", "")
            left_bold = bold or (left.startswith("**") and left.endswith("**"))
            return [
                Para(text=left_plain if left_bold else left, bold=left_bold, size=size),
                Para(text=right.replace("**", "").strip(), size=size),
            ]
        text = re.sub(r"\s*\t+\s*", " | " if not bold else " ", text)
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    return [Para(text="\n".join(lines), bold=bold, size=size, lead=lead)]


def _is_data_table(table: Any) -> bool:
    """A grid of short one-paragraph cells (基本信息, a skills matrix), not a page layout."""
    rows = table.rows
    if len(rows) < 2:
        return False
    for row in rows:
        for cell in row.cells:
            paragraphs = [p for p in cell.paragraphs if p.text.strip()]
            if len(paragraphs) > 1 or cell.tables or len(cell.text) > 200:
                return False
    return True


def _cells(row: Any) -> list[Any]:
    seen: list[Any] = []
    for cell in row.cells:  # a merged cell is repeated once per grid column
        if not any(cell._tc is other._tc for other in seen):
            seen.append(cell)
    return seen


def _table(table: Any, recognition: Recognition, styles: _Styles) -> list[Para]:
    if _is_data_table(table):
        rows = [[c.text.strip() for c in _cells(row)] for row in table.rows]
        return [Para(text="", role="table", rows=rows)]
    note = "a layout table (e.g. two columns): read cell by cell, left to right"
    if note not in recognition.notes:
        recognition.notes.append(note)
    out: list[Para] = []
    for row in table.rows:
        for cell in _cells(row):
            out += _blocks(cell, recognition, styles)
    return out


def _blocks(container: Any, recognition: Recognition, styles: _Styles) -> list[Para]:
    from docx.table import Table

    out: list[Para] = []
    for item in container.iter_inner_content():
        if isinstance(item, Table):
            out += _table(item, recognition, styles)
        else:
            out += _paragraph(item, styles)
    return out


def _text_boxes(document: Any, recognition: Recognition, styles: _Styles) -> list[Para]:
    from docx.text.paragraph import Paragraph

    out: list[Para] = []
    for box in document.element.body.iter(f"{_W}txbxContent"):
        for p in box.iter(f"{_W}p"):
            out += _paragraph(Paragraph(p, document), styles)
    if out:
        recognition.notes.append(f"{len(out)} paragraphs in text boxes: read after the body")
    return out


def _as_plain_docx(data: bytes) -> tuple[bytes, bool]:
    """``data`` with a plain DOCX main content type, and whether it had another one (a
    macro-enabled document or a template).  Macros are never read, let alone run."""
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(data))
    types = source.read("[Content_Types].xml")
    if not any(main in types for main in _OTHER_MAINS):
        return data, False
    for main in _OTHER_MAINS:
        types = types.replace(main, _DOCX_MAIN)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            body = types if item.filename == "[Content_Types].xml" else source.read(item)
            target.writestr(item, body)
    return out.getvalue(), True


def _embedded_objects(document: Any) -> int:
    """OLE objects (a spreadsheet, an equation) and charts: their data is not text."""
    body = document.element.body
    charts = sum(1 for g in body.iter(f"{_A}graphicData") if g.get("uri") == _CHART_URI)
    return sum(1 for _ in body.iter(f"{_W}object")) + charts


def docx_paragraphs(data: bytes, source: str = "<docx>") -> tuple[list[Para], Recognition]:
    from cvagent_cli.documents.docx_export import _require_docx

    docx = _require_docx("DOCX import")
    try:
        data, macro_enabled = _as_plain_docx(data)
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises several unrelated types on a broken zip
        raise InputError(
            f"{source}: not a readable DOCX file ({type(exc).__name__})", hint=UNREADABLE_HINT
        ) from exc
    recognition = Recognition()
    if macro_enabled:
        recognition.notes.append(
            "a macro-enabled Word file: its text was read, its macros were not"
        )
    styles = _Styles(document)
    paras = _blocks(document, recognition, styles) + _text_boxes(document, recognition, styles)
    recognition.images = len(document.inline_shapes)
    objects = _embedded_objects(document)
    if objects:
        recognition.notes.append(
            f"{plural(objects, 'embedded object')} (a spreadsheet, a chart …) left out: "
            "copy what matters from it into the resume as text"
        )
    if not paras:
        raise InputError(f"{source}: the DOCX has no text")
    return shift_headings(paras), recognition


def docx_to_markdown(data: bytes, source: str = "<docx>") -> str:
    """DOCX bytes → resume Markdown (headings, entries, bullets, tables)."""
    paras, _ = docx_paragraphs(data, source)
    return to_markdown(assign_roles(paras))
