"""DOCX resumes written the way people lay them out in Word, and LibreOffice's PDF of each.

python-docx writes the DOCX (raw XML where it has no API): layout tables with a shaded
sidebar, shaded section bars, bullets from Word's numbering with Symbol (U+F0B7) and
Wingdings (U+F0A7, U+F0D8) glyphs, right-aligned tab stops for dates, a VML text box for
the name and contacts, headers and footers with PAGE / NUMPAGES fields, East Asian fonts
named the way Chinese Word users name them.  Each DOCX is a corpus document itself
(producer ``docx-…``), and LibreOffice Writer (``soffice --convert-to pdf``) prints it to
the PDF of producer ``libreoffice-…``.
"""

from __future__ import annotations

import copy
import shutil
import tempfile
from pathlib import Path

import docx
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Cm, Pt, RGBColor
from people import Person
from registry import producer, run

ACCENT = "1F4E79"
FONTS = {"en": ("Calibri", "Calibri"), "zh": ("Calibri", "微软雅黑")}


# ---------------------------------------------------------------- raw XML helpers


def shade(paragraph_or_cell, fill: str) -> None:
    props = (
        paragraph_or_cell._p.get_or_add_pPr()
        if hasattr(paragraph_or_cell, "_p")
        else paragraph_or_cell._tc.get_or_add_tcPr()
    )
    props.append(parse_xml(f'<w:shd {nsdecls("w")} w:val="clear" w:color="auto" w:fill="{fill}"/>'))


def bottom_border(paragraph) -> None:
    paragraph._p.get_or_add_pPr().append(
        parse_xml(
            f'<w:pBdr {nsdecls("w")}><w:bottom w:val="single" w:sz="8" w:space="1" '
            f'w:color="{ACCENT}"/></w:pBdr>'
        )
    )


def no_borders(table) -> None:
    borders = "".join(
        f'<w:{side} w:val="nil"/>'
        for side in ("top", "left", "bottom", "right", "insideH", "insideV")
    )
    table._tbl.tblPr.append(parse_xml(f"<w:tblBorders {nsdecls('w')}>{borders}</w:tblBorders>"))


def widths(table, cm: tuple[float, ...]) -> None:
    """Column widths in the grid and in every cell, as Word writes them (LibreOffice
    lays a table out by its grid)."""
    for col, w in zip(table._tbl.tblGrid.findall(qn("w:gridCol")), cm, strict=True):
        col.set(qn("w:w"), str(int(w * 567)))
    for row in table.rows:
        for cell, w in zip(row.cells, cm, strict=True):
            cell.width = Cm(w)


def set_fonts(document, lang: str, size: float = 10.5) -> None:
    latin, east = FONTS[lang]
    style = document.styles["Normal"]
    style.font.name = latin
    style.font.size = Pt(size)
    style.element.rPr.rFonts.set(qn("w:eastAsia"), east)


def field(paragraph, instr: str) -> None:
    paragraph._p.append(
        parse_xml(
            f'<w:fldSimple {nsdecls("w")} w:instr="{instr}"><w:r><w:t>1</w:t></w:r></w:fldSimple>'
        )
    )


def add_bullet_numbering(document, glyph: str, font: str) -> int:
    """A bullet list definition like the one Word writes for its bullet button; its numId."""
    numbering = document.part.numbering_part.element
    abstract_id = 90 + len(numbering.findall(qn("w:abstractNum")))
    abstract = parse_xml(
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abstract_id}">'
        '<w:multiLevelType w:val="hybridMultilevel"/>'
        f'<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="{glyph}"/>'
        '<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="420" w:hanging="420"/></w:pPr>'
        f'<w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}" w:hint="default"/></w:rPr></w:lvl>'
        "</w:abstractNum>"
    )
    first_num = numbering.find(qn("w:num"))
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    num_id = 90 + len(numbering.findall(qn("w:num")))
    numbering.append(
        parse_xml(
            f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>'
        )
    )
    return num_id


def bullet(container, text: str, num_id: int):
    p = container.add_paragraph(style="List Paragraph")
    p._p.get_or_add_pPr().append(
        parse_xml(
            f'<w:numPr {nsdecls("w")}><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'
        )
    )
    p.add_run(text)
    p.paragraph_format.space_after = Pt(0)
    return p


def right_tab(paragraph, at_cm: float) -> None:
    paragraph.paragraph_format.tab_stops.add_tab_stop(Cm(at_cm), WD_TAB_ALIGNMENT.RIGHT)


def textbox(paragraph, lines: list[tuple[str, bool, float]], width_pt: int = 470) -> int:
    """A VML text box (Word 2007-2010 write these; LibreOffice reads them) holding
    ``lines`` of (text, bold, size), at the top of the page; returns where it ends (pt)."""
    inner = "".join(
        f'<w:p><w:r><w:rPr>{"<w:b/>" if bold else ""}<w:sz w:val="{int(size * 2)}"/></w:rPr>'
        f'<w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>'
        for text, bold, size in lines
    )
    height = 30 * len(lines) + 24
    paragraph._p.append(
        parse_xml(
            f'<w:r {nsdecls("w")} xmlns:v="urn:schemas-microsoft-com:vml" '
            'xmlns:o="urn:schemas-microsoft-com:office:office" '
            'xmlns:w10="urn:schemas-microsoft-com:office:word"><w:pict>'
            '<v:shape id="Text Box 1" o:spid="_x0000_s1026" type="#_x0000_t202" '
            f'style="position:absolute;margin-left:0;margin-top:36pt;width:{width_pt}pt;'
            f"height:{height}pt;z-index:251659264;mso-position-horizontal:center;"
            'mso-position-horizontal-relative:margin;mso-position-vertical-relative:page" '
            f'fillcolor="#DEEAF6" strokecolor="#{ACCENT}">'
            f"<v:textbox><w:txbxContent>{inner}</w:txbxContent></v:textbox>"
            '<w10:wrap type="topAndBottom"/></v:shape></w:pict></w:r>'
        )
    )
    return 36 + height


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def page_footer(document, person: Person) -> None:
    footer = document.sections[0].footer.paragraphs[0]
    footer.add_run(f"{person.name} – ")
    if person.lang == "zh":
        footer.add_run("第 ")
        field(footer, "PAGE")
        footer.add_run(" 页 / 共 ")
        field(footer, "NUMPAGES")
        footer.add_run(" 页")
    else:
        footer.add_run("Page ")
        field(footer, "PAGE")
        footer.add_run(" of ")
        field(footer, "NUMPAGES")


# ---------------------------------------------------------------- three layouts


def section_bar(container, title: str) -> None:
    p = container.add_paragraph()
    run_ = p.add_run(title.upper() if title.isascii() else title)
    run_.bold = True
    run_.font.size = Pt(12)
    run_.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
    shade(p, ACCENT)
    p.paragraph_format.space_before = Pt(8)


def underlined_title(container, title: str) -> None:
    p = container.add_paragraph()
    run_ = p.add_run(title)
    run_.bold = True
    run_.font.size = Pt(13)
    run_.font.color.rgb = RGBColor(0x1F, 0x4E, 0x79)
    bottom_border(p)
    p.paragraph_format.space_before = Pt(6)


def entry_with_tab(container, e, num_id: int, at_cm: float) -> None:
    """``Company, Place<TAB>Date`` with a right tab stop, the role under it, then bullets."""
    p = container.add_paragraph()
    right_tab(p, at_cm)
    p.add_run(e.org).bold = True
    if e.place:
        p.add_run(f", {e.place}")
    p.add_run(f"\t{e.date}")
    p.paragraph_format.space_after = Pt(0)
    role = container.add_paragraph()
    role.add_run(e.title).italic = True
    role.paragraph_format.space_after = Pt(0)
    for b in e.bullets:
        bullet(container, b, num_id)


def body_sections(container, person: Person, title, num_id: int, at_cm: float, kinds=None) -> None:
    for s in person.sections:
        if kinds is not None and s.kind not in kinds:
            continue
        title(container, s.title)
        if s.text:
            container.add_paragraph(s.text)
        for item in s.items:
            bullet(container, item, num_id)
        for e in s.entries:
            entry_with_tab(container, e, num_id, at_cm)


def contact_line(person: Person) -> str:
    return f"{person.phone}  |  {person.email}  |  {person.location}  |  {person.website}"


def docx_shaded_bars(person: Person) -> docx.Document:
    """Name and headline, a contact line, shaded section bars, Symbol bullets, tab-stop
    dates, a footer with page numbers."""
    d = docx.Document()
    set_fonts(d, person.lang)
    section = d.sections[0]
    section.left_margin = section.right_margin = Cm(1.8)
    name = d.add_paragraph()
    r = name.add_run(person.name)
    r.bold, r.font.size = True, Pt(22)
    d.add_paragraph(person.headline)
    d.add_paragraph(contact_line(person))
    num_id = add_bullet_numbering(d, "\uf0b7", "Symbol")
    body_sections(d, person, section_bar, num_id, 17.4)
    page_footer(d, person)
    return d


def docx_table_layout(person: Person) -> docx.Document:
    """A one-row, two-cell layout table: a shaded sidebar (name, contacts, skills, awards)
    and the main column; Wingdings square bullets."""
    d = docx.Document()
    set_fonts(d, person.lang, 10)
    section = d.sections[0]
    section.left_margin = section.right_margin = Cm(1.2)
    table = d.add_table(rows=1, cols=2)
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    no_borders(table)
    left, right = table.rows[0].cells
    widths(table, (5.8, 12.8))
    shade(left, "DEEAF6")
    num_id = add_bullet_numbering(d, "\uf0a7", "Wingdings")
    p = left.paragraphs[0]
    r = p.add_run(person.name)
    r.bold, r.font.size = True, Pt(18)
    left.add_paragraph(person.headline)
    for value in (person.phone, person.email, person.location, person.website):
        left.add_paragraph(value)
    side = {"skills", "awards"}
    body_sections(left, person, underlined_title, num_id, 5.0, kinds=side)
    right.paragraphs[0].add_run("")
    kinds = {s.kind for s in person.sections} - side
    body_sections(right, person, underlined_title, num_id, 11.4, kinds=kinds)
    # the sidebar is read first: label the sections in that order
    person.sections.sort(key=lambda s: 0 if s.kind in side else 1)
    return d


def docx_textbox(person: Person) -> docx.Document:
    """Name and contacts in a VML text box; entries as borderless two-cell tables (title |
    date); Wingdings arrow bullets; the name in the page header, page numbers in the footer."""
    d = docx.Document()
    set_fonts(d, person.lang)
    section = d.sections[0]
    section.left_margin = section.right_margin = Cm(2)
    section.header.paragraphs[0].add_run(f"{person.name} · {person.headline}").font.size = Pt(8)
    box_end = textbox(
        d.add_paragraph(),
        [(person.name, True, 20), (person.headline, False, 11), (contact_line(person), False, 9.5)],
    )
    section.top_margin = Pt(box_end + 12)  # the body starts under the box
    num_id = add_bullet_numbering(d, "\uf0d8", "Wingdings")
    for s in person.sections:
        underlined_title(d, s.title)
        if s.text:
            d.add_paragraph(s.text)
        for item in s.items:
            bullet(d, item, num_id)
        for e in s.entries:
            table = d.add_table(rows=1, cols=2)
            no_borders(table)
            a, b = table.rows[0].cells
            widths(table, (12, 5))
            a.paragraphs[0].add_run(e.org).bold = True
            a.add_paragraph(e.title + (f" · {e.place}" if e.place else ""))
            b.paragraphs[0].add_run(e.date)
            b.paragraphs[0].alignment = 2  # right
            for text in e.bullets:
                bullet(d, text, num_id)
    page_footer(d, person)
    return d


def docx_word_styles(person: Person) -> docx.Document:
    """Word's own styles, as a careful Word user writes: Title, Subtitle, Heading 1 for
    sections, Heading 2 for entries with the date after a right tab, List Bullet; a
    header with the name and a footer with the page number."""
    d = docx.Document()
    set_fonts(d, person.lang)
    d.sections[0].header.paragraphs[0].add_run(person.name).font.size = Pt(8)
    d.add_paragraph(person.name, style="Title")
    d.add_paragraph(person.headline, style="Subtitle")
    d.add_paragraph(contact_line(person))
    for s in person.sections:
        d.add_paragraph(s.title, style="Heading 1")
        if s.text:
            d.add_paragraph(s.text)
        for item in s.items:
            d.add_paragraph(item, style="List Bullet")
        for e in s.entries:
            h = d.add_paragraph(f"{e.title}, {e.org}\t{e.date}", style="Heading 2")
            right_tab(h, 16.5)
            if e.place:
                d.add_paragraph(e.place).runs[0].italic = True
            for b in e.bullets:
                d.add_paragraph(b, style="List Bullet")
    footer = d.sections[0].footer.paragraphs[0]
    footer.alignment = 1  # centre
    field(footer, "PAGE")
    return d


def details_grid(d: docx.Document, person: Person, labels: tuple[str, ...], per_row: int):
    """The document title ("个人简历" / "Résumé") over a 基本信息 table of label/value cells
    (the name, phone, e-mail, city, the job sought, a link), ``per_row`` pairs to a row, as
    Chinese Word templates lay them out; returns the table."""
    zh = person.lang == "zh"
    title = d.add_paragraph()
    title.alignment = 1
    r = title.add_run("个人简历" if zh else "Résumé")
    r.bold, r.font.size = True, Pt(20)
    values = (
        person.name,
        person.phone,
        person.email,
        person.location,
        person.headline,
        person.website,
    )
    underlined_title(d, "基本信息" if zh else "Personal Details")
    table = d.add_table(rows=-(-len(labels) // per_row), cols=2 * per_row)
    table.style = "Table Grid"
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        row, col = divmod(i, per_row)
        label_cell, value_cell = table.rows[row].cells[2 * col], table.rows[row].cells[2 * col + 1]
        label_cell.paragraphs[0].add_run(label).bold = True
        shade(label_cell, "DEEAF6")
        value_cell.paragraphs[0].add_run(value)
    return table


def docx_info_table(person: Person) -> docx.Document:
    """A document title ("个人简历" / "Résumé") over a 基本信息 table whose cells hold the
    name, phone, e-mail, city, the job sought and a link (a label cell, then its value), as
    Chinese Word templates do; sections with a rule under the title, Symbol bullets."""
    zh = person.lang == "zh"
    d = docx.Document()
    set_fonts(d, person.lang)
    labels = (
        ("姓名", "电话", "邮箱", "所在城市", "求职意向", "GitHub")
        if zh
        else ("Name", "Phone", "Email", "City", "Objective", "GitHub")
    )
    details_grid(d, person, labels, per_row=2)
    num_id = add_bullet_numbering(d, "\uf0b7", "Symbol")
    body_sections(d, person, underlined_title, num_id, 16.5)
    # the details table is a section of its own in the labels
    from people import Section

    person.sections.insert(0, Section("details", "基本信息" if zh else "Personal Details"))
    return d


LAYOUTS = {
    "shaded-bars": docx_shaded_bars,
    "table-layout": docx_table_layout,
    "textbox": docx_textbox,
    "word-styles": docx_word_styles,
    "info-table": docx_info_table,
}
NOTES = {
    "shaded-bars": "shaded section bars, Symbol U+F0B7 bullets, right tab stops for dates, page-number footer",
    "table-layout": "two-column layout table with a shaded sidebar, Wingdings U+F0A7 bullets",
    "textbox": "VML text box for name and contacts, entry tables, Wingdings U+F0D8 bullets, header and footer",
    "word-styles": "Word's styles (Title, Heading 1/2, List Bullet), tab-stop dates, header and footer",
    "info-table": "a document title over a personal-details table (name, phone, e-mail in label/value cells), Symbol bullets",
}


def soffice_pdf(source: Path, out: Path, to: str = "pdf") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile"
        run(
            [
                "soffice",
                f"-env:UserInstallation=file://{profile}",
                "--headless",
                "--convert-to",
                to,
                "--outdir",
                tmp,
                str(source),
            ],
            Path(tmp),
            timeout=240,
        )
        shutil.copy(Path(tmp) / f"{source.stem}.{to}", out)


PLAN = [("en", {}), ("zh", {}), ("en", {}), ("zh", {})]


def make_docx(layout: str):
    def produce(person: Person, out: Path, stem: str, lang: str):
        document = LAYOUTS[layout](person)
        path = out / f"{stem}.docx"
        document.save(path)
        return [path], set(), f"python-docx, Word habits: {NOTES[layout]}"

    return produce


def make_libreoffice(layout: str):
    def produce(person: Person, out: Path, stem: str, lang: str):
        source = out / f"{stem}.source.docx"
        LAYOUTS[layout](copy.deepcopy(person)).save(source)
        LAYOUTS[layout](person)  # the same reading order for the labels
        soffice_pdf(source, out / f"{stem}.pdf")
        return (
            [out / f"{stem}.pdf", source],
            set(),
            f"LibreOffice Writer PDF of a DOCX with {NOTES[layout]}",
        )

    return produce


@producer("libreoffice", "libreoffice-docx", PLAN)
def produce_libreoffice_docx(person: Person, out: Path, stem: str, lang: str):
    """LibreOffice Writer's own DOCX export: a Word-habit DOCX (shaded bars, Symbol
    bullets, tab-stop dates) opened and saved again as DOCX by LibreOffice."""
    source = out / f"{stem}.source.docx"
    docx_shaded_bars(person).save(source)
    with tempfile.TemporaryDirectory() as tmp:
        # the input must not share the output's name in the output folder
        staged = Path(tmp) / "in" / f"{stem}.docx"
        staged.parent.mkdir()
        shutil.copy(source, staged)
        soffice_pdf(staged, out / f"{stem}.docx", to="docx")
    return (
        [out / f"{stem}.docx", source],
        set(),
        "LibreOffice Writer's DOCX export of a Word-habit DOCX",
    )


for _layout in LAYOUTS:
    producer("docx", f"docx-{_layout}", PLAN)(make_docx(_layout))
    if _layout in ("shaded-bars", "table-layout", "textbox", "info-table"):
        producer("libreoffice", f"libreoffice-{_layout}", PLAN)(make_libreoffice(_layout))
