"""The Word side of an export template: the page and the styles of a DOCX, built from the
same template as the PDF (``PdfStyle``: its fonts, sizes, margins, colours and section rule),
so the two look alike and a recruiter who edits the DOCX in Word keeps the look.

The look lives in Word styles, not in each run: Title (the name), Subtitle (a headline),
Contact (the contact line), Heading 1 (a section, with its rule as a bottom border),
Heading 2 (an entry's row: its dates at a right tab stop), Normal, List Bullet / 2 / 3 (one
bulleted list whose levels are the styles' list levels) and Hyperlink.

Vertical space: the PDF's lines are ``cap height + leading`` apart (Typst's edges), so
every style has that exact line pitch at its size, and the PDF's gaps between blocks become
space before and after less the leading each Word line already holds.  The lines under the
name are closer than that in the PDF (0.35 em and a cap height apart), so the header's
styles have that pitch, and a contact line that wraps is one paragraph a line, each after
the first the leading further down (``Look.header_pitch``): the header is as tall as the
PDF's.  Word and LibreOffice set an exact line with ``ABOVE`` of its pitch over the
baseline and take the larger of one paragraph's space after and the next one's space
before, as Typst takes the larger of two blocks' spacings.

Fonts: Noto Sans for Latin text and Noto Sans SC for Chinese (a Chinese resume is all Noto
Sans SC, as in the PDF), with the East-Asian language zh-CN (python-docx's template says
ja-JP, so Word and LibreOffice drew Japanese glyph forms).  Where those fonts are not
installed, the font table names the stand-ins (``DocxStyle``) and the font family."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cvagent_cli import languages
from cvagent_cli.formats.writing.templates import DocxStyle, PdfStyle
from cvagent_cli.script import WIDE_TEXT

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument
    from docx.oxml.xmlchemy import BaseOxmlElement
    from docx.table import Table as DocxTable

#: Typst's top edge of a line is the cap height: Noto Sans's is 0.714 em, Noto Sans SC's 0.733.
CAP_HEIGHT = {"Noto Sans": 0.714, "Noto Sans SC": 0.733}
#: The Latin font: the first of the PDF's fonts for the language (``Labels.fonts``).
LATIN_FONT = "Noto Sans"


def first_font(language: str) -> str:
    """The font a resume in ``language`` is set in first (a Chinese one, Noto Sans SC
    throughout, its Latin letters too, as in the PDF)."""
    return languages.get(language).labels.fonts.split(",")[0].strip().strip('"')


CJK_FONT = "Noto Sans SC"
CODE_FONT = "DejaVu Sans Mono"
#: Word and LibreOffice set a line of exact pitch with this much of it above the baseline.
ABOVE = 0.8
#: Typst resolves the PDF's spacing (``cv-space``, in em) inside a heading at the heading's
#: own size: 1.4 em of the body for the name, 1.2 em for a section title.
NAME_EM, SECTION_EM = 1.4, 1.2
#: The PDF's full section rule lies this far (em of the section title) below its baseline.
RULE_DROP = 0.75
#: The section rule's width in points (and in Word's eighths of a point).
RULE_WIDTH, RULE_EIGHTHS = 0.625, 5
#: Noto Sans's advance widths (em) of the printable ASCII characters (" " to "~"), regular
#: and bold, as rendercv-fonts' NotoSans-Regular.ttf and -Bold.ttf have them (a test reads
#: the files): how wide a line of the PDF is, for the DOCX's line and row breaks.
ASCII_EMS = {
    False: (
        "0.26 0.269 0.408 0.646 0.572 0.831 0.732 0.225 0.3 0.3 0.551 0.572 0.268 0.322 0.268 "
        "0.372 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.268 0.268 0.572 "
        "0.572 0.572 0.434 0.899 0.639 0.65 0.632 0.73 0.556 0.519 0.728 0.741 0.339 0.273 "
        "0.619 0.524 0.907 0.76 0.781 0.605 0.781 0.622 0.549 0.556 0.731 0.6 0.93 0.586 "
        "0.566 0.572 0.329 0.372 0.329 0.572 0.444 0.281 0.561 0.615 0.48 0.615 0.564 0.344 "
        "0.615 0.618 0.258 0.258 0.534 0.258 0.935 0.618 0.605 0.615 0.615 0.413 0.479 0.361 "
        "0.618 0.508 0.786 0.529 0.51 0.47 0.38 0.551 0.38 0.572"
    ),
    True: (
        "0.26 0.282 0.479 0.646 0.572 0.902 0.75 0.266 0.339 0.339 0.542 0.572 0.285 0.32 "
        "0.281 0.415 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.572 0.281 0.285 "
        "0.572 0.572 0.572 0.477 0.898 0.692 0.665 0.642 0.732 0.56 0.549 0.724 0.765 0.389 "
        "0.331 0.664 0.559 0.943 0.813 0.791 0.621 0.791 0.656 0.551 0.577 0.756 0.65 0.967 "
        "0.67 0.626 0.579 0.331 0.415 0.331 0.572 0.411 0.365 0.599 0.632 0.516 0.632 0.597 "
        "0.387 0.632 0.65 0.299 0.298 0.62 0.298 0.975 0.65 0.625 0.632 0.632 0.447 0.502 "
        "0.434 0.65 0.571 0.856 0.578 0.571 0.493 0.394 0.551 0.394 0.572"
    ),
}
_ASCII = {bold: [float(w) for w in ems.split()] for bold, ems in ASCII_EMS.items()}
#: A character outside ASCII that is not wide: Noto Sans's dashes and a middle dot, else
#: its average letter.
_OTHER_EMS = {"\u2014": 1.0, "\u2013": 0.5, "\u00b7": 0.268}
_WIDE_RE = re.compile(f"[{WIDE_TEXT}]")


def ems(text: str, *, bold: bool = False) -> float:
    """How wide ``text`` is in the PDF, in em: Noto Sans's widths (``ASCII_EMS``), 1 em a
    CJK character.  The DOCX decides its line breaks with it (Word lays the page out, not
    python-docx), as the PDF measures its own."""
    table = _ASCII[bold]
    total = 0.0
    for ch in text:
        if " " <= ch <= "~":
            total += table[ord(ch) - 32]
        elif _WIDE_RE.match(ch):
            total += 1.0
        else:
            total += _OTHER_EMS.get(ch, 0.6)
    return total


#: Page sizes in cm (width, height).
PAPER_CM = {"a4": (21.0, 29.7), "letter": (21.59, 27.94)}
#: Word's list levels for a bullet's depth: List Bullet, List Bullet 2, List Bullet 3.
LIST_LEVELS = 3

_LENGTH_RE = re.compile(r"([\d.]+)\s*(pt|cm|mm|in|em)")
_COLOURS = {"black": "000000", "white": "FFFFFF"}


def _points(length: str, size: float = 10.0) -> float:
    """A Typst length ("10pt", "1.6cm", "0.55em") in points."""
    match = _LENGTH_RE.search(length)
    if match is None:
        raise ValueError(f"not a length: {length!r}")
    value, unit = float(match.group(1)), match.group(2)
    return value * {"pt": 1.0, "cm": 72 / 2.54, "mm": 72 / 25.4, "in": 72.0, "em": size}[unit]


def colour(typst: str) -> str | None:
    """A Typst colour ('rgb("#1f5f8b")', "luma(60)", "black") as Word's RRGGBB; None for
    "inherit" (the text's own)."""
    if typst in _COLOURS:
        return _COLOURS[typst]
    if hex_code := re.search(r"#([0-9a-fA-F]{6})", typst):
        return hex_code.group(1).upper()
    if luma := re.fullmatch(r"luma\((\d+)\)", typst):
        return f"{int(luma.group(1)):02X}" * 3
    return None


@dataclass(frozen=True)
class Look:
    """The PDF template's settings in Word's units (points, RRGGBB)."""

    size: float
    name_size: float
    section_size: float
    margin_x: float
    margin_y: float
    pitch: float  # the body's line pitch
    space: float  # the template's unit of vertical space (1 em of the body)
    leading: float
    accent: str
    muted: str
    link: str | None
    centred: bool
    place_right: bool
    title_split: bool
    rule: str  # full: a line under the section title; partial: a line after it
    language: str
    cap: float

    @classmethod
    def of(cls, style: PdfStyle, language: str, tighter: float = 1.0) -> Look:
        size = _points(style.size)
        # the PDF's leading: Chinese has more, as ideographs fill the em (pdf_export)
        leading = _points(style.leading_for(languages.get(language).spaced), size)
        margin = dict(re.findall(r"(\w+):\s*([\d.]+\s*\w+)", style.margin))
        cap = CAP_HEIGHT.get(first_font(language), CAP_HEIGHT[LATIN_FONT])
        return cls(
            size=size,
            name_size=_points(style.name_size),
            section_size=_points(style.section_size),
            margin_x=_points(margin.get("x", "1.6cm")),
            margin_y=_points(margin.get("y", "1.5cm")),
            pitch=cap * size + leading,
            space=style.space * size * tighter,
            leading=leading,
            accent=colour(style.accent) or "000000",
            muted=colour(style.muted) or "000000",
            link=colour(style.link),
            centred=style.header_align == "center",
            place_right=style.place_right,
            title_split=style.title_split,
            rule=style.rule,
            language=language,
            cap=cap,
        )

    def gap(self, spaces: float) -> float:
        """The PDF's gap of ``spaces`` units between blocks, less the leading a Word line
        already holds above its text."""
        return max(0.0, spaces * self.space - self.leading)

    @property
    def header_pitch(self) -> float:
        """The pitch of a line under the name: the PDF sets those lines 0.35 em (its contact
        block's spacing) and a cap height apart, closer than the body's lines."""
        return 0.35 * self.space + self.cap * self.size

    def between(self, upper: float, lower: float, distance: float) -> float:
        """The space between a line of pitch ``upper`` and the next, of pitch ``lower``, that
        sets their baselines ``distance`` apart (``ABOVE``)."""
        return max(0.0, distance - (1 - ABOVE) * upper - ABOVE * lower)

    def name_after(self) -> float:
        """The space under the name: the PDF's name block ends 0.55 em (of its heading's
        size, ``NAME_EM``) above the next line's cap height; a Word line holds its baseline
        ``ABOVE`` of its pitch down, the PDF's the cap height, so the header lines under a
        name set lower than the PDF's (its pitch holds the glyphs) move up by the difference."""
        name_pitch = self.pitch_at(self.name_size)
        distance = max(0.55 * NAME_EM, 0.35) * self.space + self.cap * self.size
        lower_by = ABOVE * name_pitch - self.cap * self.name_size
        return self.between(name_pitch, self.header_pitch, distance - lower_by)

    def section_spacing(self) -> tuple[float, float, int]:
        """A section title's space before and after, and its rule's distance under the
        line (Word's ``w:space``, whole points): as far from the body as in the PDF, whose
        full rule lies ``RULE_DROP`` under the title's baseline and whose partial one
        (``section_line``) is on the title's line."""
        pitch, section_cap = self.pitch_at(self.section_size), self.cap * self.section_size
        before = self.between(self.pitch, pitch, 1.25 * SECTION_EM * self.space + section_cap)
        drop, under = 0.0, 0
        if self.rule == "full":
            drop = RULE_DROP * self.section_size
            under = max(0, round(drop - (1 - ABOVE) * pitch - RULE_WIDTH / 2))
        below = max(0.6 * SECTION_EM, 0.65) * self.space + self.cap * self.size
        after = self.between(pitch, self.pitch, drop + below)
        return before, max(0.0, after - (under + RULE_WIDTH if self.rule == "full" else 0)), under

    @property
    def row_pitch(self) -> float:
        """The pitch of label / value pairs: the PDF's grid sets its rows 0.55 em apart."""
        return min(self.pitch, 0.55 * self.space + self.cap * self.size)

    def pitch_at(self, size: float) -> float:
        """The pitch of a line of ``size`` type that is one line (the name, a section
        title): its cap height and the body's leading, which ``gap`` takes off the space
        above it, as in the PDF (a leading scaled to the size would add the difference)."""
        return self.cap * size + self.leading


def set_up(
    document: DocxDocument,
    style: PdfStyle,
    word: DocxStyle,
    language: str,
    paper_name: str,
    tighter: float = 1.0,
) -> Look:
    """The page, the fonts and the styles of ``document`` as the template draws them, the
    space between blocks ``tighter`` times the template's (the PDF's own tightening)."""
    # lazy: python-docx loads only when a Word file is written
    from docx.shared import Pt

    look = Look.of(style, language, tighter)
    width, height = PAPER_CM[paper_name]
    for section in document.sections:
        section.page_width, section.page_height = Pt(width * 72 / 2.54), Pt(height * 72 / 2.54)
        section.left_margin = section.right_margin = Pt(look.margin_x)
        section.top_margin = section.bottom_margin = Pt(look.margin_y)
        section.header_distance = section.footer_distance = Pt(look.margin_y / 2)
    _defaults(document, look)
    _font_table(document, word)
    _styles(document, look, text_width=width * 72 / 2.54 - 2 * look.margin_x)
    _bullets(document, look)
    return look


def text_width(document: DocxDocument) -> float:
    """The width between the margins, in points."""
    section = document.sections[0]
    page, left, right = section.page_width, section.left_margin, section.right_margin
    assert page is not None and left is not None and right is not None  # set_up sets them
    return float((page - left - right) / 12700)


# -- XML ----------------------------------------------------------------------------------


def _child(parent: BaseOxmlElement, tag: str, **attrs: str) -> BaseOxmlElement:
    """``parent``'s ``w:tag`` replaced by a new one with ``attrs``, in schema order."""
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    old = parent.find(qn(f"w:{tag}"))
    element = OxmlElement(f"w:{tag}", {qn(f"w:{k}"): v for k, v in attrs.items()})
    if old is not None:
        old.addprevious(element)
        parent.remove(old)
    else:
        _insert_in_order(parent, element)
    return element


#: The order of the children of w:pPr and w:rPr (ECMA-376 §17.3.1.26, §17.3.2.28) that
#: this module writes; Word refuses a file whose properties are out of order.
_ORDER = {
    "pPr": "pStyle keepNext keepLines numPr pBdr tabs spacing ind contextualSpacing jc outlineLvl".split(),
    "rPr": "rFonts b bCs i iCs color spacing kern sz szCs u lang".split(),
}


def _insert_in_order(parent: BaseOxmlElement, element: BaseOxmlElement) -> None:
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml.ns import qn

    order = _ORDER.get(parent.tag.rsplit("}", 1)[1], [])
    name = element.tag.rsplit("}", 1)[1]
    for tag in order[order.index(name) + 1 :] if name in order else []:
        found = parent.find(qn(f"w:{tag}"))
        if found is not None:
            found.addprevious(element)
            return
    parent.append(element)


def _run_props(rpr: BaseOxmlElement, look: Look, size: float, **marks: str | None) -> None:
    """Fonts, size, colour and marks of a style's (or the defaults') run properties."""
    latin = first_font(look.language)
    _child(rpr, "rFonts", ascii=latin, hAnsi=latin, eastAsia=CJK_FONT, cs=latin)
    for tag in ("b", "bCs", "i", "iCs"):
        if marks.get(tag) is not None:
            _child(rpr, tag, val=str(marks[tag]))
    if marks.get("color") is not None:
        _child(rpr, "color", val=str(marks["color"]))
    half_points = str(round(size * 2))
    _child(rpr, "sz", val=half_points)
    _child(rpr, "szCs", val=half_points)


def _para_props(
    ppr: BaseOxmlElement, pitch: float, before: float, after: float, jc: str | None = None
) -> None:
    for tag in ("contextualSpacing", "pBdr", "numPr"):
        _drop(ppr, tag)
    twips = {"before": before, "after": after, "line": pitch}
    spacing = {k: str(round(v * 20)) for k, v in twips.items()}
    _child(ppr, "spacing", **spacing, lineRule="exact")
    if jc:
        _child(ppr, "jc", val=jc)


def _defaults(document: DocxDocument, look: Look) -> None:
    """docDefaults: the body font, size and languages; the theme's East-Asian language."""
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml.ns import qn

    styles = document.styles.element
    rpr = styles.find(qn("w:docDefaults")).find(qn("w:rPrDefault")).find(qn("w:rPr"))
    _run_props(rpr, look, look.size)
    main = languages.get(look.language).labels.docx_lang
    _child(rpr, "lang", val=main, eastAsia="zh-CN", bidi="ar-SA")
    ppr = styles.find(qn("w:docDefaults")).find(qn("w:pPrDefault")).find(qn("w:pPr"))
    _para_props(ppr, look.pitch, 0, look.gap(0.65))
    theme = document.settings.element.find(qn("w:themeFontLang"))
    if theme is not None:
        theme.set(qn("w:val"), main)
        theme.set(qn("w:eastAsia"), "zh-CN")


def _font_table(document: DocxDocument, word: DocxStyle) -> None:
    """Name the fonts and their stand-ins (``w:altName``) where they are not installed:
    Word looks a missing font up by its alternate name, and by its family (sans-serif)."""
    # lazy: python-docx loads only when a Word file is written
    from docx.opc.constants import RELATIONSHIP_TYPE
    from lxml import etree

    part = document.part.part_related_by(RELATIONSHIP_TYPE.FONT_TABLE)
    root = etree.fromstring(part.blob)
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    fonts = (  # name, stand-in, character set, PANOSE, family, pitch
        (LATIN_FONT, word.latin_fallback, "00", "020B0502040504020204", "swiss", "variable"),
        (CJK_FONT, word.cjk_fallback, "86", "020B0500000000000000", "swiss", "variable"),
        (CODE_FONT, word.code_fallback, "00", "020B0609030804020204", "modern", "fixed"),
    )
    for name, alternate, charset, panose, family, pitch in fonts:
        font = etree.SubElement(root, f"{w}font", {f"{w}name": name})
        etree.SubElement(font, f"{w}altName", {f"{w}val": alternate})
        etree.SubElement(font, f"{w}panose1", {f"{w}val": panose})
        etree.SubElement(font, f"{w}charset", {f"{w}val": charset})
        etree.SubElement(font, f"{w}family", {f"{w}val": family})
        etree.SubElement(font, f"{w}pitch", {f"{w}val": pitch})
    # python-docx keeps the font table as an opaque part: its bytes are replaced whole
    part._blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


# -- styles -------------------------------------------------------------------------------


def style_id(name: str) -> str:
    """The id of the style ``name`` in the document ``set_up`` made (Word's, and
    python-docx's for a style it adds: the name without its spaces); a paragraph names
    its style by id."""
    return name.replace(" ", "")


def _style(document: DocxDocument, name: str, kind: str = "paragraph") -> BaseOxmlElement:
    """The element of style ``name``, added (based on Normal) when the template lacks it."""
    # lazy: python-docx loads only when a Word file is written
    from docx.enum.style import WD_STYLE_TYPE

    try:
        style = document.styles[name]
    except KeyError:
        kinds = {"paragraph": WD_STYLE_TYPE.PARAGRAPH, "character": WD_STYLE_TYPE.CHARACTER}
        style = document.styles.add_style(name, kinds[kind])
        if kind == "paragraph":
            style.base_style = document.styles["Normal"]
        style.quick_style = True
    if style.style_id != style_id(name):  # python-docx's template, or its way to name ids
        raise LookupError(f"the style {name!r} has the id {style.style_id!r}")
    element: BaseOxmlElement = style.element
    return element


def _styles(document: DocxDocument, look: Look, text_width: float) -> None:
    # lazy: python-docx loads only when a Word file is written
    from docx.enum.text import WD_TAB_ALIGNMENT
    from docx.shared import Pt

    jc = "center" if look.centred else None
    body, name, section, header = (
        look.pitch,
        look.pitch_at(look.name_size),
        look.pitch_at(look.section_size),
        look.header_pitch,
    )
    (section_before, section_after, rule_under), accent = look.section_spacing(), look.accent
    paragraphs: dict[str, tuple[float, float, float, float, str | None, str, str]] = {
        # name: size, pitch, space before, space after, alignment, bold, colour
        "Normal": (look.size, body, 0, look.gap(0.65), None, "0", "000000"),
        "Title": (look.name_size, name, 0, look.name_after(), jc, "1", look.accent),
        "Subtitle": (look.size, header, 0, 0, jc, "0", look.muted),
        "Contact": (look.size, header, 0, 0, jc, "0", "000000"),
        # the rule ends a section title: the PDF's whole gap below it (no line leading there)
        "Heading 1": (look.section_size, section, section_before, section_after, None, "1", accent),
        # the PDF's entry ends 0.45 em above its body, but a paragraph or list keeps 0.65 from it
        "Heading 2": (look.size, body, look.gap(0.95), look.gap(0.65), None, "1", "000000"),
    }
    for style_name, (size, pitch, before, after, align, bold, tint) in paragraphs.items():
        element = _style(document, style_name)
        _para_props(element.get_or_add_pPr(), pitch, before, after, align)
        rpr = element.get_or_add_rPr()
        for tag in ("spacing", "kern"):  # the Title's letter spacing in python-docx's template
            _drop(rpr, tag)
        _run_props(rpr, look, size, b=bold, bCs=bold, i="0", iCs="0", color=tint)
    heading = document.styles["Heading 1"]
    if look.rule == "full":
        _rule(heading.element.get_or_add_pPr(), look.accent, rule_under)
    else:  # the line after the title (``section_line``) ends at the margin's tab stop
        heading.paragraph_format.tab_stops.add_tab_stop(Pt(text_width), WD_TAB_ALIGNMENT.RIGHT)
    heading.paragraph_format.keep_with_next = True
    row = document.styles["Heading 2"].paragraph_format
    row.keep_with_next = True
    row.tab_stops.add_tab_stop(Pt(text_width), WD_TAB_ALIGNMENT.RIGHT)
    link = _style(document, "Hyperlink", "character").get_or_add_rPr()
    _child(link, "u", val="none")  # as the PDF draws a link: in the text's colour or the link's
    _child(link, "color", val=look.link or "000000")
    # an address breaks by the Latin rules: with Chinese ones LibreOffice breaks it at a "."
    _child(link, "lang", val="en-US")


def rules(table: DocxTable, *, header: bool) -> None:
    """A table's rules as the PDF draws them: 0.6 pt above and below it, 0.4 pt under its
    header row, no grid."""
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls, qn

    tbl_pr = table._tbl.tblPr
    line = 'w:val="single" w:sz="{}" w:space="0" w:color="000000"'
    borders = parse_xml(
        f"<w:tblBorders {nsdecls('w')}><w:top {line.format(RULE_EIGHTHS)}/>"
        f"<w:bottom {line.format(RULE_EIGHTHS)}/></w:tblBorders>"
    )
    later = [tbl_pr.find(qn(f"w:{tag}")) for tag in ("shd", "tblLayout", "tblCellMar", "tblLook")]
    found = [element for element in later if element is not None]
    if found:
        found[0].addprevious(borders)
    else:
        tbl_pr.append(borders)
    if header:
        for cell in table.rows[0].cells:
            tc_pr = cell._tc.get_or_add_tcPr()
            tc_pr.append(
                parse_xml(f"<w:tcBorders {nsdecls('w')}><w:bottom {line.format(3)}/></w:tcBorders>")
            )


def _drop(parent: BaseOxmlElement, tag: str) -> None:
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml.ns import qn

    for old in parent.findall(qn(f"w:{tag}")):
        parent.remove(old)


def _rule(ppr: BaseOxmlElement, accent: str, under: int) -> None:
    """The full section rule: a 0.6 pt line under the heading, as the PDF draws it."""
    border = _child(ppr, "pBdr")
    _child(border, "bottom", val="single", sz=str(RULE_EIGHTHS), space=str(under), color=accent)


def _indent(look: Look, kind: str, level: int) -> tuple[float, float]:
    """A list level's (left, hanging) indent in points: as the PDF indents a list (0.15 em,
    the marker, 0.55 em), each level by as much again."""
    hanging = (0.36 + 0.55) * look.size if kind == "bullet" else 1.6 * look.size
    return 0.15 * look.size + hanging + level * (0.7 * look.size + hanging), hanging


def _bullets(document: DocxDocument, look: Look) -> None:
    """One bulleted list for List Bullet, List Bullet 2 and 3 (its levels 0–2), so a nested
    bullet is a level of its list, as Word's "Increase indent" makes it; the marker in the
    accent colour.  Numbered lists get levels the same way (``ordered_list``: each list
    numbers from 1).  The styles carry the indents too (LibreOffice reads them there)."""
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml.ns import qn

    numbering = document.part.numbering_part.element
    for old in numbering.iter(qn("w:pStyle")):  # the template's lists named these styles
        old.getparent().remove(old)
    ids = [int(a.get(qn("w:abstractNumId"))) for a in numbering.findall(qn("w:abstractNum"))]
    bullets = max(ids, default=-1) + 1
    numbering.insert(len(ids), _abstract_list(bullets, look, "bullet"))
    numbering.insert(len(ids) + 1, _abstract_list(bullets + 1, look, "decimal"))
    num_id = numbering.add_num(bullets).numId
    for level in range(LIST_LEVELS):
        suffix = f" {level + 1}" if level else ""
        for name, kind in (("List Bullet", "bullet"), ("List Number", "decimal")):
            ppr = _style(document, name + suffix).get_or_add_pPr()
            _para_props(ppr, look.pitch, 0, 0)
            left, hanging = _indent(look, kind, level)
            _child(ppr, "ind", left=str(round(left * 20)), hanging=str(round(hanging * 20)))
            if kind == "bullet":
                num = _child(ppr, "numPr")
                _child(num, "ilvl", val=str(level))
                _child(num, "numId", val=str(num_id))


#: The name of the numbered list definition (``w:abstractNum/w:name``).
_NUMBERS = "cvagent numbers"


def ordered_list(document: DocxDocument) -> int:
    """A new numbered list (numbering from 1) over the decimal levels: its numId."""
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml.ns import qn

    numbering = document.part.numbering_part.element
    for abstract in numbering.findall(qn("w:abstractNum")):
        name = abstract.find(qn("w:name"))
        if name is not None and name.get(qn("w:val")) == _NUMBERS:
            return int(numbering.add_num(int(abstract.get(qn("w:abstractNumId")))).numId)
    raise LookupError("set_up has not run")


def _abstract_list(abstract_id: int, look: Look, kind: str) -> BaseOxmlElement:
    # lazy: python-docx loads only when a Word file is written
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    levels = []
    for level in range(LIST_LEVELS):
        left, hanging = _indent(look, kind, level)
        text = "\u2022" if kind == "bullet" else f"%{level + 1}."
        tint = f'<w:color w:val="{look.accent}"/>' if kind == "bullet" else ""
        # the marker in one Latin font for every script: in a CJK font "•" is a full
        # em wide, wider than the hanging indent, and the text moved to the next tab stop
        font = LATIN_FONT
        fonts = (
            f'<w:rFonts w:ascii="{font}" w:hAnsi="{font}" w:eastAsia="{font}" w:hint="default"/>'
        )
        levels.append(
            f'<w:lvl w:ilvl="{level}"><w:start w:val="1"/><w:numFmt w:val="{kind}"/>'
            f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/><w:pPr>'
            f'<w:ind w:left="{round(left * 20)}" w:hanging="{round(hanging * 20)}"/></w:pPr>'
            f'<w:rPr>{fonts}{tint}<w:lang w:val="en-US" w:eastAsia="en-US"/></w:rPr></w:lvl>'
        )
    name = f'<w:name w:val="{_NUMBERS}"/>' if kind == "decimal" else ""
    return parse_xml(
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abstract_id}">'
        f'<w:multiLevelType w:val="hybridMultilevel"/>{name}{"".join(levels)}</w:abstractNum>'
    )
