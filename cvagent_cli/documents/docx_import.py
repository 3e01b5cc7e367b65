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

from cvagent_cli.documents.structure import (
    Para,
    Recognition,
    _is_date_text,
    assign_roles,
    to_markdown,
)
from cvagent_cli.errors import InputError

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_RE = re.compile(r"^heading\s*(\d)$")


def _run_bold(run: Any, paragraph: Any) -> bool:
    if run.bold is not None:
        return bool(run.bold)
    style = run.style
    while style is not None:
        if style.font.bold is not None:
            return bool(style.font.bold)
        style = style.base_style
    pstyle = paragraph.style
    while pstyle is not None:
        if pstyle.font.bold is not None:
            return bool(pstyle.font.bold)
        pstyle = pstyle.base_style
    return False


def _run_size(run: Any, paragraph: Any) -> float:
    if run.font.size is not None:
        return float(run.font.size.pt)
    pstyle = paragraph.style
    while pstyle is not None:
        if pstyle.font.size is not None:
            return float(pstyle.font.size.pt)
        pstyle = pstyle.base_style
    return 0.0


def _pieces(paragraph: Any) -> list[tuple[str, bool, float]]:
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
            bold = bool(runs) and all(_run_bold(r, paragraph) for r in runs if r.text.strip())
            size = max((_run_size(r, paragraph) for r in runs), default=0.0)
            out.append((text, bold, size))
        else:
            out.append((item.text, _run_bold(item, paragraph), _run_size(item, paragraph)))
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


def _list_depth(paragraph: Any) -> int | None:
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.numPr is not None:
        ilvl = ppr.numPr.ilvl
        return int(ilvl.val) if ilvl is not None and ilvl.val is not None else 0
    style = (paragraph.style.name if paragraph.style is not None else "").lower()
    if "list" in style:
        match = re.search(r"(\d)$", style)
        return int(match.group(1)) - 1 if match else 0
    return None


def _paragraph(paragraph: Any) -> list[Para]:
    pieces = _pieces(paragraph)
    text, bold, lead = _inline(pieces)
    if not text.strip():
        return []
    size = max((s for t, _, s in pieces if t.strip()), default=0.0)
    style = (paragraph.style.name if paragraph.style is not None else "").lower()
    heading = _HEADING_RE.match(style)
    if style == "title":
        return [Para(text=text.replace("**", ""), role="title", bold=True, size=size)]
    if heading:
        return [Para(text=text.replace("**", ""), role=f"h{heading.group(1)}", size=size)]
    depth = _list_depth(paragraph)
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


def _table(table: Any, recognition: Recognition) -> list[Para]:
    if _is_data_table(table):
        rows = [[c.text.strip() for c in _cells(row)] for row in table.rows]
        return [Para(text="", role="table", rows=rows)]
    note = "a layout table (e.g. two columns): read cell by cell, left to right"
    if note not in recognition.notes:
        recognition.notes.append(note)
    out: list[Para] = []
    for row in table.rows:
        for cell in _cells(row):
            out += _blocks(cell, recognition)
    return out


def _blocks(container: Any, recognition: Recognition) -> list[Para]:
    from docx.table import Table

    out: list[Para] = []
    for item in container.iter_inner_content():
        if isinstance(item, Table):
            out += _table(item, recognition)
        else:
            out += _paragraph(item)
    return out


def _text_boxes(document: Any, recognition: Recognition) -> list[Para]:
    from docx.text.paragraph import Paragraph

    out: list[Para] = []
    for box in document.element.body.iter(f"{_W}txbxContent"):
        for p in box.iter(f"{_W}p"):
            out += _paragraph(Paragraph(p, document))
    if out:
        recognition.notes.append(f"{len(out)} paragraphs in text boxes: read after the body")
    return out


def _shift_headings(paras: list[Para]) -> list[Para]:
    """Word resumes use Heading 1 for sections when the name is the Title (or plain text):
    map the heading levels used onto title / ## / ###."""
    levels = sorted({int(p.role[1]) for p in paras if re.fullmatch(r"h\d", p.role)})
    if not levels:
        return paras
    ones = [p for p in paras if p.role == f"h{levels[0]}"]
    has_title = any(p.role == "title" for p in paras)
    first_heading = next((p for p in paras if re.fullmatch(r"h\d", p.role)), None)
    if not has_title and len(ones) == 1 and first_heading is ones[0]:
        ones[0].role = "title"
        levels = levels[1:]
    mapping = {level: f"h{min(i + 2, 3)}" for i, level in enumerate(levels)}
    for para in paras:
        if re.fullmatch(r"h\d", para.role):
            para.role = mapping.get(int(para.role[1]), "h3")
    return paras


def docx_paragraphs(data: bytes, source: str = "<docx>") -> tuple[list[Para], Recognition]:
    from cvagent_cli.documents.docx_export import _require_docx

    docx = _require_docx("DOCX import")
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises several unrelated types on a broken zip
        raise InputError(f"{source}: not a readable DOCX file ({type(exc).__name__})") from exc
    recognition = Recognition()
    paras = _blocks(document, recognition) + _text_boxes(document, recognition)
    recognition.images = len(document.inline_shapes)
    if not paras:
        raise InputError(f"{source}: the DOCX has no text")
    return _shift_headings(paras), recognition


def docx_to_markdown(data: bytes, source: str = "<docx>") -> str:
    """DOCX bytes → resume Markdown (headings, entries, bullets, tables)."""
    paras, _ = docx_paragraphs(data, source)
    return to_markdown(assign_roles(paras))
