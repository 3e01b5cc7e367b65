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
- text boxes are read where they are anchored (once, not again from Word's VML copy);
  the page header is read once at the top (contact details often live there), and the
  footer only for contact details: page numbers and repeated lines are left out.
"""

from __future__ import annotations

import io
import re
from typing import Any

from cvagent_cli.documents.docx_styles import (
    BODY_LEVEL,
    SYMBOL_FONTS,
    Numbering,
    StyleFacts,
    Styles,
    W,
    number,
    on,
    val,
)
from cvagent_cli.documents.formats import UNREADABLE_HINT
from cvagent_cli.documents.structure import (
    BULLET_GLYPHS,
    Para,
    Recognition,
    _is_date_text,
    assign_roles,
    body_size,
    headingish,
    plain,
    shift_headings,
    to_markdown,
)
from cvagent_cli.errors import InputError
from cvagent_cli.resume.dates import find_ranges
from cvagent_cli.wording import plural

_DOCX_MAIN = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
#: Word's other main parts: macro-enabled (.docm) and templates (.dotx, .dotm), which
#: python-docx refuses by content type although the text is stored the same way.
_OTHER_MAINS = (
    b"application/vnd.ms-word.document.macroEnabled.main+xml",
    b"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    b"application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_WRAPPERS = {f"{W}{t}" for t in ("ins", "smartTag", "fldSimple", "customXml", "bdo", "dir")}
_TYPED_GLYPHS = set(BULLET_GLYPHS)  # "-", "*" and "+" too, when a space or tab follows
#: A number typed before a tab ("1.<TAB>Cut costs …"): a list item Word did not number.
_TYPED_NUMBER_RE = re.compile(r"^\s*(?:\d{1,2}[.)、]|\(\d{1,2}\)|[a-z][.)])\t")
_PRIVATE_USE_RE = re.compile(r"[\uf000-\uf0ff]")
_PAGE_NUMBER_RE = re.compile(
    r"\bpage\s*\d+(?:\s*(?:of|/)\s*\d+)?\b|^\s*-?\s*\d{1,3}\s*(?:(?:/|of)\s*\d{1,3})?\s*-?\s*$"
    r"|第\s*\d+\s*页|共\s*\d+\s*页",
    re.IGNORECASE,
)
_CONTACT_RE = re.compile(
    r"@|\+?\d[\d\s().-]{6,}\d|https?://|www\.|linkedin|github|电话|手机|邮箱", re.IGNORECASE
)
#: Label cells of a 基本信息 / personal-details grid ("姓名 | 林晓蕾 | 性别 | 女").
_LABELS = frozenset(
    "姓名 性别 年龄 电话 手机 联系电话 邮箱 电子邮箱 邮件 民族 籍贯 学历 学位 专业 生日 出生年月 "
    "出生日期 政治面貌 住址 地址 现居 现居地 微信 求职意向 意向岗位 期望职位 期望城市 工作年限 "
    "毕业院校 身高 婚姻状况 name phone mobile email e-mail address location nationality "
    "birthday website github linkedin".split()
)
#: The role of an entry line found by its dates, until Word's heading levels are mapped
#: (``shift_headings`` would take an "h3" for a Word level).
_ENTRY = "entry"
_CELL_LIMIT = 120  # characters: a longer cell is a block of text, not part of a line

Piece = tuple[str, bool, float, str, bool]  # text, bold, size, font, caps
Look = tuple[str, bool, int, bool, str]  # style, bold, size, caps, shading


class _Reader:
    """Reads one document: body, tables, text boxes, headers and footers."""

    def __init__(self, document: Any, recognition: Recognition) -> None:
        self.document = document
        self.recognition = recognition
        self.styles = Styles(document)
        self.numbering = Numbering(document)
        self.looks: dict[int, Look] = {}  # id(Para) → how the paragraph looks
        self.boxes = 0
        self.layout_tables = 0

    # -- containers ----------------------------------------------------------------------
    def blocks(self, element: Any, fill: str = "") -> list[Para]:
        """The paragraphs and tables of a body, cell, text box or header, in order (content
        controls, ``w:sdt``, are looked into: Word templates wrap whole sections in them)."""
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        out: list[Para] = []
        for child in element:
            if child.tag == f"{W}p":
                out += self.paragraph(Paragraph(child, self.document.part), fill)
            elif child.tag == f"{W}tbl":
                out += self.table(Table(child, self.document.part))
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
            if not inner:
                self.boxes += 1
                out += self.blocks(box)
        return out

    # -- paragraphs ------------------------------------------------------------------------
    def pieces(self, p: Any, style: StyleFacts) -> list[Piece]:
        out: list[Piece] = []
        for kind, element in _inline_items(p):
            if kind == "link":
                runs = [self.run(r, style) for r in element.iter(f"{W}r")]
                text = "".join(r[0] for r in runs)
                address = _link_address(element, self.document.part)
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
        out = self.text_boxes(p)
        ppr = p.find(f"{W}pPr")
        style = self.styles.facts(val(ppr, "pStyle"))
        pieces = self.pieces(p, style)
        glyph, pieces = _leading_glyph(pieces)
        text, bold, lead = _inline([(t, b, s) for t, b, s, _, _ in pieces])
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
            made[0].role = f"h{outline + 1}"
        else:
            made = self.listed(ppr, style, text, size, glyph, bold, caps, lead)
        for para in made:
            self.looks[id(para)] = look
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
            level is not None and (Numbering.is_bullet(level) or not _section_like(text, bold))
        )
        typed = _TYPED_NUMBER_RE.match(text)
        if typed and not is_bullet:
            is_bullet, text = True, text[typed.end() :]
        if is_bullet:
            depth = num[1] if num is not None and level is not None else 0
            body = " ".join(text.replace("\t", " ").split())
            return [Para(text=body, role="bullet", depth=min(depth, 3), size=size)]
        if "\t" in text:
            return self.line([(t, bold or _all_bold(t)) for t in text.split("\t")], size=size)
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
        if _pairs(cells, known=True):
            return [Para(text=_joined_pairs(texts), size=size)]
        dated = [i for i, text in enumerate(texts) if _is_date_text(text)]
        if len(cells) >= 2 and len(dated) == 1 and dated[0] in (0, len(cells) - 1):
            date = plain(texts.pop(dated[0]))
            cells.pop(dated[0])
            left = " | ".join(plain(t) if b else t for t, b in cells)
            left_bold = all(b for _, b in cells)
            entry = Para(text=left, bold=left_bold, size=size)
            if headingish(entry) and (left_bold or find_ranges(date)):
                entry.text, entry.role = plain(left), _ENTRY  # its dates are a range
            return [entry, Para(text=date, size=size)]
        if _pairs(cells, known=False):
            return [Para(text=_joined_pairs(texts), size=size)]
        bold = all(b for _, b in cells)
        return [Para(text=" | ".join(plain(t) if bold else t for t in texts), bold=bold, size=size)]

    # -- tables ----------------------------------------------------------------------------
    def table(self, table: Any) -> list[Para]:
        rows = [_cells(row) for row in table.rows]
        if _is_data_table(rows):
            grid = [[c.text.strip() for c in row] for row in rows]
            return [Para(text="", role="table", rows=grid)]
        self.layout_tables += 1
        out: list[Para] = []
        read: set[int] = set()  # a cell merged down over rows comes back in each of them
        for row in rows:
            fresh = [c for c in row if id(c._tc) not in read]
            read.update(id(c._tc) for c in fresh)
            # A label merged down beside the rows it names (教育背景 beside its entries)
            # comes first, on its own; the rest of the row is read as a line.
            spans = [c for c in fresh if _spans_rows(c) and len(c.text) <= 40]
            for cell in spans:
                out += self.blocks(cell._tc, _cell_fill(cell))
            out += self.row([c for c in fresh if c not in spans])
        return out

    def row(self, cells: list[Any]) -> list[Para]:
        contents = [self.blocks(c._tc, _cell_fill(c)) for c in cells]
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
                self.looks[id(para)] = self.looks.get(id(first), ("", False, 0, False, ""))
            return made
        out = [para for paras in filled for para in paras]
        head = filled[0]
        if (
            len(filled) >= 2
            and len(head) == 1
            and head[0].role == "text"
            and _is_date_text(head[0].text)
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
                for para in self.blocks(part._element):
                    key = " ".join(plain(para.text).split())
                    if not key and para.role != "table":
                        continue
                    if key in seen:
                        continue  # the same line on every page, or already in the body
                    if _says_nothing_new(key, words):
                        dropped += 1  # "Jane Doe – Résumé" over a body that names her
                        seen.add(key)
                        continue
                    seen.add(key)
                    junk = bool(_PAGE_NUMBER_RE.search(key)) or len(key) <= 2
                    if junk or (footer and not _CONTACT_RE.search(key)):
                        dropped += 1
                        continue
                    kept.append(para)
        return kept, dropped


_GENERIC_WORDS = frozenset("resume résumé cv curriculum vitae 简历 个人简历 求职简历 履历".split())
_WORD_RE = re.compile(r"[\u4e00-\u9fff]+|[^\W_]+(?:[.@+'’-][^\W_]+)*")


def _says_nothing_new(line: str, body: str) -> bool:
    """Every word of a header line is already in the body (lower-cased), apart from
    "Resume" and the like: a running head repeating the name."""
    line = line.lower()
    for generic in ("个人简历", "求职简历", "简历", "履历"):
        line = line.replace(generic, " ")
    words = [w for w in _WORD_RE.findall(line) if w not in _GENERIC_WORDS]
    return all(w in body for w in words)


def _inline_items(p: Any):
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


def _leading_glyph(pieces: list[Piece]) -> tuple[bool, list[Piece]]:
    """(True, pieces without it) when the line starts with a bullet character: a typed
    "•", a Symbol/Wingdings character (``w:sym``, or "Ø" typed in Wingdings), or a
    private-use glyph such as U+F0B7, followed by a space or a tab."""
    index = next((i for i, pc in enumerate(pieces) if pc[0].strip()), None)
    if index is None:
        return False, pieces
    text, bold, size, font, caps = pieces[index]
    stripped = text.lstrip()
    first = stripped[0]
    symbolic = font.startswith(SYMBOL_FONTS) or bool(_PRIVATE_USE_RE.match(first))
    if not (symbolic or first in _TYPED_GLYPHS):
        return False, pieces
    rest = stripped[1:]
    after = rest or "".join(pc[0] for pc in pieces[index + 1 :])
    if first in _TYPED_GLYPHS and not symbolic and not after[:1].isspace():
        return False, pieces  # "·NET", "–40%": not a bullet without a space after it
    if not "".join(pc[0] for pc in pieces[index + 1 :]).strip() and not rest.strip():
        return False, pieces
    return True, [*pieces[:index], (rest.lstrip(), bold, size, font, caps), *pieces[index + 1 :]]


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


def _section_like(text: str, bold: bool) -> bool:
    """A numbered paragraph that is a title ("1. Education" in bold), not a list item."""
    from cvagent_cli.resume.kinds import classify_title

    return bold and len(plain(text)) <= 40 and classify_title(plain(text)) != "other"


def _section_name(text: str) -> bool:
    from cvagent_cli.resume.kinds import _EXACT, normalize_title

    return normalize_title(plain(text).rstrip(":：")) in _EXACT


def _all_bold(text: str) -> bool:
    text = text.strip()
    return text.startswith("**") and text.endswith("**") and text.count("**") == 2


def _pairs(cells: list[tuple[str, bool]], *, known: bool) -> bool:
    """Whether ``cells`` are label, value, label, value …: labels a personal-details grid
    uses (姓名, 电话, Email) or that end in a colon; or, when not ``known``, short bold
    cells each followed by a plain one ("**Languages** | Python, SQL")."""
    if len(cells) < 2 or len(cells) % 2:
        return False
    for (label, bold), (_, value_bold) in zip(cells[::2], cells[1::2], strict=True):
        key = plain(label).rstrip(":：").strip()
        named = key.lower() in _LABELS or (
            plain(label).endswith(("：", ":")) and 0 < len(key) <= 12
        )
        if not (named if known else bold and not value_bold and len(key) <= 25):
            return False
    return True


def _joined_pairs(texts: list[str]) -> str:
    def pair(label: str, value: str) -> str:
        key = plain(label).rstrip(":：").strip()
        colon = "：" if re.search(r"[\u4e00-\u9fff]", key) else ": "
        return f"{key}{colon}{value}"

    return " | ".join(pair(k, v) for k, v in zip(texts[::2], texts[1::2], strict=True))


def _cells(row: Any) -> list[Any]:
    seen: list[Any] = []
    for cell in row.cells:  # a merged cell is repeated once per grid column
        if not any(cell._tc is other._tc for other in seen):
            seen.append(cell)
    return seen


def _spans_rows(cell: Any) -> bool:
    tcpr = cell._tc.find(f"{W}tcPr")
    return val(tcpr, "vMerge") == "restart"


def _cell_fill(cell: Any) -> str:
    tcpr = cell._tc.find(f"{W}tcPr")
    shade = tcpr.find(f"{W}shd") if tcpr is not None else None
    fill = shade.get(f"{W}fill") if shade is not None else ""
    return "" if fill in (None, "auto", "FFFFFF", "ffffff") else fill


def _is_data_table(rows: list[list[Any]]) -> bool:
    """A grid of short one-paragraph cells (基本信息, a skills matrix), not a page layout:
    two rows or more, two cells or more in every row, no shaded bar, no dated entry."""
    if len(rows) < 2 or any(len(row) < 2 for row in rows):
        return False
    widths = {len(row) for row in rows}
    if len(widths) > 1 or any(_spans_rows(c) for row in rows for c in row):
        return False  # merged cells: a form, read as lines
    for row in rows:
        dated = 0
        for cell in row:
            paragraphs = [p for p in cell.paragraphs if p.text.strip()]
            if len(paragraphs) > 1 or cell.tables or len(cell.text) > _CELL_LIMIT:
                return False
            if cell._tc.find(f".//{W}numPr") is not None:
                return False
            dated += bool(find_ranges(cell.text))
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
        and (p.role == "h2" or (p.role == "text" and headingish(p) and _section_name(p.text)))
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
            and not _is_date_text(para.text)
            and looks.get(id(para)) in distinct
        ):
            para.role = "h2"


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
    return sum(1 for _ in body.iter(f"{W}object")) + charts


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
    if document.element.body is None:
        raise InputError(f"{source}: the DOCX has no text")
    try:
        paras = _read(document, recognition)
    except Exception as exc:  # python-docx and lxml raise many types on damaged XML
        raise InputError(
            f"{source}: a damaged DOCX file ({type(exc).__name__})", hint=UNREADABLE_HINT
        ) from exc
    if not paras:
        raise InputError(f"{source}: the DOCX has no text")
    return paras, recognition


def _read(document: Any, recognition: Recognition) -> list[Para]:
    reader = _Reader(document, recognition)
    body = reader.blocks(document.element.body)
    header, dropped = reader.furniture(body)
    notes = recognition.notes
    if reader.layout_tables:
        notes.append(
            f"{plural(reader.layout_tables, 'layout table')} (section bars, columns): "
            "read row by row as the text they lay out"
        )
    if reader.boxes:
        notes.append(
            f"{plural(reader.boxes, 'text box', 'text boxes')} read where they are anchored"
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
    objects = _embedded_objects(document)
    if objects:
        notes.append(
            f"{plural(objects, 'embedded object')} (a spreadsheet, a chart …) left out: "
            "copy what matters from it into the resume as text"
        )
    paras = shift_headings(header + body)
    for para in paras:
        if para.role == _ENTRY:
            para.role = "h3"
    _siblings(paras, reader.looks)
    return paras


def docx_to_markdown(data: bytes, source: str = "<docx>") -> str:
    """DOCX bytes → resume Markdown (headings, entries, bullets, tables)."""
    paras, _ = docx_paragraphs(data, source)
    return to_markdown(assign_roles(paras))
