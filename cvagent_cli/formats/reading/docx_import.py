"""DOCX → resume Markdown from Word styles, outline levels, numbering, direct formatting and
tables.

Word resumes come many ways: with real styles (Title, Heading 1–3, List Bullet) or custom
ones based on them; with direct formatting only (bold + a larger size, a typed "•", dates
after a right-aligned tab stop); laid out in tables (a shaded bar per section, a company
bar with its dates in a second cell, a whole WPS template in one table); with the name in
a text box or the page header.  All of it is read into ``Para`` records and ``structure``
decides the rest:

- heading levels come from the outline level (``w:outlineLvl`` of the paragraph, or of its
  style through ``w:basedOn``; Heading N is level N), so sections made with different
  styles that Word shows as siblings stay siblings;
- a list paragraph whose numbering draws a bullet, a ``w:sym`` or typed Symbol/Wingdings
  character at the start of a line, and a typed "•" are bullets;
- a table is a Markdown table only when it is a grid of data (基本信息, a skills matrix);
  otherwise it is the page layout and is read row by row: a row of short cells is one
  line ("label：value" pairs, or an entry with its dates), a bar is a paragraph;
- text boxes are read once (not again from Word's VML fallback copy): where they are
  anchored when they move with the text, and in the page's reading order when they are
  placed on the page (``docx_shapes``: templates built from floating boxes store them in
  the order they were made, not the page's);
  the page header is read once at the top (contact details often live there), and the
  footer only for contact details: page numbers and repeated lines are left out.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from cvagent_cli.document.dates import find_ranges
from cvagent_cli.document.person import clean_name
from cvagent_cli.document.title_words import is_document_title
from cvagent_cli.errors import InputError
from cvagent_cli.formats.file_types import UNREADABLE_HINT
from cvagent_cli.formats.reading.docx_package import as_plain_docx, embedded_objects
from cvagent_cli.formats.reading.docx_shapes import Spot, margins, reading_order, spot
from cvagent_cli.formats.reading.docx_styles import (
    BODY_LEVEL,
    Numbering,
    StyleFacts,
    Styles,
    W,
    number,
    on,
    val,
)
from cvagent_cli.formats.reading.docx_text import (
    CONTACT_RE,
    TYPED_NUMBER_RE,
    Piece,
    all_bold,
    inline,
    joined_pairs,
    leading_glyph,
    name_field,
    pairs,
    says_nothing_new,
    section_like,
    section_name,
)
from cvagent_cli.formats.reading.structure import (
    PAGE_NUMBER_IN_RE,
    Para,
    Recognition,
    body_size,
    headingish,
    is_date_text,
    plain,
    shift_headings,
)
from cvagent_cli.formats.writing.docx_export import require_docx
from cvagent_cli.wording import plural

_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_WRAPPERS = {f"{W}{t}" for t in ("ins", "smartTag", "fldSimple", "customXml", "bdo", "dir")}
#: The role of an entry line found by its dates, until Word's heading levels are mapped
#: (``shift_headings`` would take an "h3" for a Word level).
_ENTRY = "entry"
_DETAILS_LINES = 8  # a details box under a document title is within its first lines
_CELL_LIMIT = 120  # characters: a longer cell is a block of text, not part of a line

Look = tuple[str, bool, int, bool, str]  # style, bold, size, caps, shading


class _Reader:
    """Reads one document: body, tables, text boxes, headers and footers."""

    def __init__(self, document: Any, recognition: Recognition) -> None:
        self.document = document
        self.recognition = recognition
        self.styles = Styles(document)
        self.numbering = Numbering(document)
        self.part = document.part  # the body's part, or the header's being read
        self.looks: dict[int, Look] = {}  # id(Para) → how the paragraph looks
        self.looked: list[Para] = []  # keeps those Paras alive, so no id is reused
        self.table_lines: list[Para] = []  # lines made of a table row's cells
        self.boxes = 0
        self.layout_tables = 0
        self.edges = margins(document)
        # text boxes placed on the page, a list per page; each page's boxes are read in
        # the page's order where the first of them is anchored (a marker Para until then)
        self.placed: list[list[tuple[Spot, list[Para]]]] = [[]]
        self.markers: dict[int, int] = {}
        self.in_place = 0  # > 0: in a table, header or footer, boxes are read where anchored

    def look(self, para: Para, look: Look) -> None:
        self.looks[id(para)] = look
        self.looked.append(para)

    # -- containers ----------------------------------------------------------------------
    def blocks(self, element: Any, fill: str = "") -> list[Para]:
        """The paragraphs and tables of a body, cell, text box or header, in order (content
        controls, ``w:sdt``, are looked into: Word templates wrap whole sections in them)."""
        # lazy: python-docx loads only when a Word file is read
        from docx.text.paragraph import Paragraph

        out: list[Para] = []
        for child in element:
            if child.tag == f"{W}p":
                out += self.paragraph(Paragraph(child, self.part), fill)
            elif child.tag == f"{W}tbl":
                out += self.table(child)
            elif child.tag in (f"{W}sdt", f"{W}customXml"):
                content = child.find(f"{W}sdtContent")
                out += self.blocks(content if content is not None else child, fill)
        return out

    def text_boxes(self, p: Any) -> list[Para]:
        out: list[Para] = []
        for box in p.iter(f"{W}txbxContent"):
            ancestor = box.getparent()
            inner = False
            while ancestor is not None and ancestor is not p:
                if ancestor.tag in (f"{_MC}Fallback", f"{W}txbxContent"):
                    inner = True  # Word's VML copy of the same box, or a box in a box
                    break
                ancestor = ancestor.getparent()
            if inner:
                continue
            self.boxes += 1
            where = None if self.in_place else spot(box, self.edges)
            if where is None:
                out += self.blocks(box)
                continue
            if not self.placed[-1]:
                marker = Para(text="")
                self.markers[id(marker)] = len(self.placed) - 1
                self.looked.append(marker)  # keeps its id
                out.append(marker)
            self.placed[-1].append((where, self.blocks(box)))
        return out

    def page_break(self, p: Any) -> None:
        """A page starts before ``p`` (its page boxes are another page's)."""
        ppr = p.find(f"{W}pPr")
        before = ppr is not None and on(ppr, "pageBreakBefore")
        breaks = any(br.get(f"{W}type") == "page" for br in p.iter(f"{W}br"))
        if (before or breaks) and self.placed[-1]:
            self.placed.append([])

    def in_page_order(self, paras: list[Para]) -> list[Para]:
        """``paras`` with each page's placed boxes, in the page's reading order, where the
        page's first box is anchored."""
        out: list[Para] = []
        for para in paras:
            group = self.markers.get(id(para))
            if group is None:
                out.append(para)
                continue
            boxes = self.placed[group]
            for i in reading_order([where for where, _ in boxes]):
                out += boxes[i][1]
        return out

    # -- paragraphs ------------------------------------------------------------------------
    def pieces(self, p: Any, style: StyleFacts) -> list[Piece]:
        out: list[Piece] = []
        for kind, element in _inline_items(p):
            if kind == "link":
                runs = [self.run(r, style) for r in element.iter(f"{W}r")]
                text = "".join(r[0] for r in runs)
                address = _link_address(element, self.part)
                if address.startswith("mailto:"):
                    address = address[len("mailto:") :]
                if address and address.rstrip("/") not in text and text.strip():
                    text = f"[{text}]({address})"
                shown = [r for r in runs if r[0].strip()]
                bold = bool(shown) and all(r[1] for r in shown)
                size = max((r[2] for r in shown), default=0.0)
                out.append((text, bold, size, "", False))
            else:
                out.append(self.run(element, style))
        return out

    def run(self, r: Any, style: StyleFacts) -> Piece:
        rpr = r.find(f"{W}rPr")
        char = self.styles.facts(val(rpr, "rStyle"), "character")
        text, font = [], _font(rpr)
        for child in r:
            tag = child.tag
            if tag == f"{W}t":
                text.append(child.text or "")
            elif tag in (f"{W}tab", f"{W}ptab"):
                text.append("\t")
            elif (
                tag == f"{W}br" and child.get(f"{W}type") not in ("page", "column")
            ) or tag == f"{W}cr":
                text.append("\n")
            elif tag == f"{W}noBreakHyphen":
                text.append("-")
            elif tag == f"{W}sym":
                code = child.get(f"{W}char") or ""
                try:
                    text.append(chr(int(code, 16)))
                except (ValueError, OverflowError):
                    continue
                font = (child.get(f"{W}font") or font).lower()
        bold = on(rpr, "b")
        bold = bold if bold is not None else char.bold if char.bold is not None else style.bold
        size = number(val(rpr, "sz")) / 2 or char.size or style.size or self.styles.body_size
        caps = on(rpr, "caps") or on(rpr, "smallCaps") or char.caps or style.caps
        return "".join(text), bool(bold), float(size), font, bool(caps)

    def paragraph(self, paragraph: Any, fill: str = "") -> list[Para]:
        p = paragraph._p
        self.page_break(p)
        out = self.text_boxes(p)
        ppr = p.find(f"{W}pPr")
        style = self.styles.facts(val(ppr, "pStyle"))
        pieces = self.pieces(p, style)
        glyph, pieces = leading_glyph(pieces)
        text, bold, lead = inline([(t, b, s) for t, b, s, _, _ in pieces])
        if not text.strip():
            return out
        visible = [pc for pc in pieces if pc[0].strip()]
        size = max((pc[2] for pc in visible), default=0.0)
        caps = bool(visible) and all(pc[4] for pc in visible)
        shade = ppr.find(f"{W}shd") if ppr is not None else None
        fill = (shade.get(f"{W}fill") if shade is not None else None) or fill
        look: Look = (style.name, bold, round(size), caps, (fill or "").lower())
        level = val(ppr, "outlineLvl")
        outline = int(level) if level is not None and level.isdigit() else style.outline
        made: list[Para]
        if style.title and not glyph:
            made = [Para(text=plain(text), role="title", bold=True, size=size)]
        elif outline < BODY_LEVEL and not glyph:
            made = self.line([(t, True) for t in text.split("\t")], size=size)
            if made:  # a date after a tab goes under the heading, like an entry's
                made[0].role = f"h{outline + 1}"
        else:
            made = self.listed(ppr, style, text, size, glyph, bold, caps, lead)
        for para in made:
            self.look(para, look)
        return out + made

    def listed(
        self,
        ppr: Any,
        style: StyleFacts,
        text: str,
        size: float,
        glyph: bool,
        bold: bool,
        caps: bool,
        lead: str,
    ) -> list[Para]:
        numpr = ppr.find(f"{W}numPr") if ppr is not None else None
        num = (
            (val(numpr, "numId") or "0", number(val(numpr, "ilvl")))
            if numpr is not None
            else style.num
        )
        level = self.numbering.level(*num) if num is not None else None
        is_bullet = glyph or (
            level is not None and (Numbering.is_bullet(level) or not section_like(text, bold))
        )
        typed = TYPED_NUMBER_RE.match(text)
        if typed and not is_bullet:
            is_bullet, text = True, text[typed.end() :]
        if is_bullet:
            depth = num[1] if num is not None and level is not None else 0
            body = " ".join(text.replace("\t", " ").split())
            return [Para(text=body, role="bullet", depth=min(depth, 3), size=size)]
        if "\t" in text:
            return self.line([(t, bold or all_bold(t)) for t in text.split("\t")], size=size)
        lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
        return [Para(text="\n".join(lines), bold=bold, size=size, lead=lead, caps=caps)]

    def line(self, cells: list[tuple[str, bool]], *, size: float) -> list[Para]:
        """One printed line made of ``cells`` (text between tab stops, or table cells, each
        with whether it is bold): "label: value" pairs, an entry whose dates go on the next
        line, or one line with " | " between the cells."""
        cells = [(" ".join(text.split()), bold) for text, bold in cells if plain(text)]
        if not cells:
            return []
        texts = [text for text, _ in cells]
        if pairs(cells, known=True):
            return [Para(text=joined_pairs(texts), size=size)]
        dated = [i for i, text in enumerate(texts) if is_date_text(text)]
        if len(cells) >= 2 and len(dated) == 1 and dated[0] in (0, len(cells) - 1):
            date = plain(texts.pop(dated[0]))
            cells.pop(dated[0])
            left = " | ".join(plain(t) if b else t for t, b in cells)
            left_bold = all(b for _, b in cells)
            entry = Para(text=left, bold=left_bold, size=size)
            if headingish(entry) and (left_bold or find_ranges(date)):
                entry.text, entry.role = plain(left), _ENTRY  # its dates are a range
            return [entry, Para(text=date, size=size)]
        if pairs(cells, known=False):
            return [Para(text=joined_pairs(texts), size=size)]
        bold = all(b for _, b in cells)
        return [Para(text=" | ".join(plain(t) if bold else t for t in texts), bold=bold, size=size)]

    # -- tables ----------------------------------------------------------------------------
    def table(self, tbl: Any) -> list[Para]:
        self.in_place += 1
        try:
            return self.table_lines_of(tbl)
        finally:
            self.in_place -= 1

    def table_lines_of(self, tbl: Any) -> list[Para]:
        rows = _rows(tbl)
        if _is_data_table(rows):
            grid = [[_text(tc).strip() for tc in row] for row in rows]
            return [Para(text="", role="table", rows=grid)]
        self.layout_tables += 1
        out: list[Para] = []
        for row in rows:
            cells = [tc for tc in row if _merged(tc) != "continue"]
            # A label merged down beside the rows it names (教育背景 beside its entries)
            # comes first, on its own; the rest of the row is read as a line.
            spans = [tc for tc in cells if _merged(tc) and len(_text(tc)) <= 40]
            for tc in spans:
                out += self.blocks(tc, _cell_fill(tc))
            out += self.row([tc for tc in cells if tc not in spans])
        return out

    def row(self, cells: list[Any]) -> list[Para]:
        contents = [self.blocks(tc, _cell_fill(tc)) for tc in cells]
        filled = [paras for paras in contents if paras]
        if not filled:
            return []
        simple = all(
            len(paras) == 1
            and paras[0].role == "text"
            and "\n" not in paras[0].text
            and len(plain(paras[0].text)) <= _CELL_LIMIT
            for paras in filled
        )
        if simple and len(filled) >= 2:
            first = filled[0][0]
            made = self.line(
                [(paras[0].text, paras[0].bold) for paras in filled],
                size=max(paras[0].size for paras in filled),
            )
            for para in made:
                self.look(para, self.looks.get(id(first), ("", False, 0, False, "")))
            self.table_lines += made
            return made
        out = [para for paras in filled for para in paras]
        head = filled[0]
        if (
            len(filled) >= 2
            and len(head) == 1
            and head[0].role == "text"
            and is_date_text(head[0].text)
        ):
            # a dates column beside an entry's cell: the dates go under the entry's first line
            rest = [para for paras in filled[1:] for para in paras]
            out = [rest[0], head[0], *rest[1:]]
        return out

    # -- page header and footer ------------------------------------------------------------
    def furniture(self, body: list[Para]) -> tuple[list[Para], int]:
        """The header's lines worth keeping (once), the footer's contact lines; and how many
        lines were left out (page numbers, a repeated name, "Confidential")."""
        seen = {" ".join(plain(p.text).split()) for p in body}
        words = " ".join(seen).lower()
        kept: list[Para] = []
        dropped = 0
        for section in self.document.sections:
            parts = [
                (section.first_page_header, False),
                (section.header, False),
                (section.even_page_header, False),
                (section.first_page_footer, True),
                (section.footer, True),
                (section.even_page_footer, True),
            ]
            for part, footer in parts:
                if part.is_linked_to_previous:
                    continue
                self.part = part.part  # its hyperlinks are relationships of its own part
                self.in_place += 1
                paras = self.blocks(part._element)
                self.in_place -= 1
                for para in paras:
                    key = " ".join(plain(para.text).split())
                    if not key and para.role != "table":
                        continue
                    if key in seen:
                        continue  # the same line on every page, or already in the body
                    if says_nothing_new(key, words):
                        dropped += 1  # "Jane Doe – Résumé" over a body that names her
                        seen.add(key)
                        continue
                    seen.add(key)
                    junk = bool(PAGE_NUMBER_IN_RE.search(key)) or len(key) <= 2
                    if junk or (footer and not CONTACT_RE.search(key)):
                        dropped += 1
                        continue
                    kept.append(para)
        self.part = self.document.part
        return kept, dropped


def _inline_items(p: Any) -> Iterator[tuple[str, Any]]:
    """("run", w:r) and ("link", w:hyperlink) in a paragraph, looking through insertions,
    fields, smart tags and inline content controls; deleted text and text boxes are not
    the paragraph's own text."""
    for child in p:
        tag = child.tag
        if tag == f"{W}r":
            yield "run", child
        elif tag == f"{W}hyperlink":
            yield "link", child
        elif tag in _WRAPPERS:
            yield from _inline_items(child)
        elif tag == f"{W}sdt":
            content = child.find(f"{W}sdtContent")
            if content is not None:
                yield from _inline_items(content)


def _link_address(link: Any, part: Any) -> str:
    rid = link.get(f"{_R}id")
    if not rid:
        return ""
    try:
        return str(part.rels[rid].target_ref)
    except KeyError:
        return ""


def _font(rpr: Any) -> str:
    fonts = rpr.find(f"{W}rFonts") if rpr is not None else None
    if fonts is None:
        return ""
    return (fonts.get(f"{W}ascii") or fonts.get(f"{W}hAnsi") or "").lower()


def _children(element: Any, tag: str) -> Iterator[Any]:
    """The ``tag`` children of ``element``, looking through content controls."""
    for child in element:
        if child.tag == f"{W}{tag}":
            yield child
        elif child.tag in (f"{W}sdt", f"{W}customXml"):
            content = child.find(f"{W}sdtContent")
            yield from _children(content if content is not None else child, tag)


def _rows(tbl: Any) -> list[list[Any]]:
    """The cells (``w:tc``) of each row, as the file stores them: a cell spanning columns
    once, a cell merged down once in each row it covers (see ``_merged``).  Read from the
    XML rather than python-docx's grid, which refuses merges that do not line up."""
    return [list(_children(tr, "tc")) for tr in _children(tbl, "tr")]


def _merged(tc: Any) -> str:
    """ "restart" for a cell merged down over the next rows, "continue" for its place in
    each of them (empty: the text is in the first), "" for a cell of its own."""
    tcpr = tc.find(f"{W}tcPr")
    merge = tcpr.find(f"{W}vMerge") if tcpr is not None else None
    if merge is None:
        return ""
    return "restart" if merge.get(f"{W}val") == "restart" else "continue"


def _text(element: Any) -> str:
    return "".join(t.text or "" for t in element.iter(f"{W}t"))


def _cell_fill(tc: Any) -> str:
    tcpr = tc.find(f"{W}tcPr")
    shade = tcpr.find(f"{W}shd") if tcpr is not None else None
    fill = shade.get(f"{W}fill") if shade is not None else ""
    return "" if fill in (None, "auto", "FFFFFF", "ffffff") else fill


def _is_data_table(rows: list[list[Any]]) -> bool:
    """A grid of short one-paragraph cells (基本信息, a skills matrix), not a page layout:
    two rows or more, the same two cells or more in every row, no merged or shaded bar,
    no dated entry."""
    if len(rows) < 2 or any(len(row) < 2 for row in rows):
        return False
    if len({len(row) for row in rows}) > 1 or any(_merged(tc) for row in rows for tc in row):
        return False  # merged cells: a form, read as lines
    for row in rows:
        dated = 0
        for tc in row:
            paragraphs = [p for p in _children(tc, "p") if _text(p).strip()]
            text = _text(tc)
            if len(paragraphs) > 1 or tc.find(f".//{W}tbl") is not None:
                return False
            if len(text) > _CELL_LIMIT or tc.find(f".//{W}numPr") is not None:
                return False
            dated += bool(find_ranges(text))
        if dated:
            return False  # "Acme | Engineer | 2019 – 2021": an entry, not data
    return True


def _siblings(paras: list[Para], looks: dict[int, Look]) -> None:
    """A short line that looks exactly like the file's section titles (the same style,
    weight, size, capitals and shading, when that look stands out from the body) is a
    section too: siblings stay siblings, whether or not their words are known."""
    body = round(body_size(paras))
    marks = {
        looks[id(p)]
        for p in paras
        if id(p) in looks
        and (p.role == "h2" or (p.role == "text" and headingish(p) and section_name(p.text)))
    }
    distinct = {
        look
        for look in marks
        if look[4] or look[3] or (body and look[2] > body) or look[0] not in ("", "normal")
    }
    for para in paras:
        if (
            para.role == "text"
            and headingish(para)
            and not is_date_text(para.text)
            and looks.get(id(para)) in distinct
        ):
            para.role = "h2"


def docx_paragraphs(data: bytes, source: str = "<docx>") -> tuple[list[Para], Recognition]:
    docx = require_docx("DOCX import")
    try:
        data, macro_enabled = as_plain_docx(data)
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises several unrelated types on a broken zip
        raise InputError(
            f"{source}: not a readable DOCX file (damaged or cut short)", hint=UNREADABLE_HINT
        ) from exc
    recognition = Recognition()
    if macro_enabled:
        recognition.notes.append(
            "a macro-enabled Word file: its text was read, its macros were not"
        )
    if document.element.body is None:
        raise InputError(f"{source}: the DOCX has no text")
    try:
        paras = _read(document, recognition)
    except Exception as exc:  # python-docx and lxml raise many types on damaged XML
        raise InputError(
            f"{source}: a damaged DOCX file (its text could not be read)", hint=UNREADABLE_HINT
        ) from exc
    if not paras:
        if recognition.images:
            raise InputError(
                f"{source}: the DOCX has no text, only {plural(recognition.images, 'image')}"
                " (a scanned resume?); OCR is not supported",
                hint="export it again from the program that made it, or type the text "
                "into a .md file",
            )
        raise InputError(f"{source}: the DOCX has no text")
    return paras, recognition


def _named(paras: list[Para], table_lines: list[Para], notes: list[str]) -> list[Para]:
    """A document title at the top over a personal-details table ("Résumé", "个人简历", as
    Word and WPS templates have it) is not the name: the table's Name / 姓名 field becomes
    the title line the analyzer and every reader look for, and the document title is left
    out.  Without such a table the title is kept as written (the analyzer points it out)."""
    first = next((i for i, p in enumerate(paras[:3]) if p.text.strip()), None)
    if first is None or paras[first].role not in ("title", "text", "h1", "h2"):
        return paras
    title = paras[first]
    if not is_document_title(title.text):
        return paras
    rest = paras[:first] + paras[first + 1 :]
    rows = [row for p in rest if p.role == "table" for row in p.rows]
    made = {id(p) for p in table_lines}
    # a details table's lines, or the lines at the top (a details box: "姓名：… 性别：…")
    lines = [p.text for i, p in enumerate(rest) if id(p) in made or i < _DETAILS_LINES]
    name = clean_name(name_field(rows, lines))
    if not name:
        return paras
    notes.append(f'the document title "{plain(title.text)}" left out: the name is {name}')
    return [Para(text=name, role="title", bold=True, size=title.size), *rest]


def _read(document: Any, recognition: Recognition) -> list[Para]:
    reader = _Reader(document, recognition)
    body = reader.in_page_order(reader.blocks(document.element.body))
    header, dropped = reader.furniture(body)
    notes = recognition.notes
    if reader.layout_tables:
        notes.append(
            f"{plural(reader.layout_tables, 'layout table')} (section bars, columns): "
            "read row by row as the text they lay out"
        )
    placed = sum(len(page) for page in reader.placed)
    if reader.boxes - placed:
        notes.append(
            f"{plural(reader.boxes - placed, 'text box', 'text boxes')} read in place, "
            "where anchored"
        )
    if placed:
        notes.append(
            f"{plural(placed, 'text box', 'text boxes')} placed on the page: read in the "
            "page's order (columns, then top to bottom), not the file's"
        )
    if header:
        notes.append(
            f"{plural(len(header), 'line')} from the page header or footer kept at the top"
        )
    if dropped:
        notes.append(
            f"{plural(dropped, 'header or footer line')} left out (page numbers, repeated lines)"
        )
    recognition.images = len(document.inline_shapes)
    objects = embedded_objects(document)
    if objects:
        notes.append(
            f"{plural(objects, 'embedded object')} (a spreadsheet, a chart …) left out: "
            "copy what matters from it into the resume as text"
        )
    paras = _named(header + body, reader.table_lines, notes)
    paras = shift_headings(paras)
    for para in paras:
        if para.role == _ENTRY:
            para.role = "h3"
    _siblings(paras, reader.looks)
    return paras
