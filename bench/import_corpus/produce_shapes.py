"""Resumes laid out by position rather than by flow: the shapes found in real files people send.

- ``docx-floating-word``: a Word template built from floating text boxes (``wp:anchor`` +
  ``wps:wsp`` inside ``mc:AlternateContent``, the VML ``v:textbox`` copy as the fallback,
  as Word 2010+ writes them): a name box, then a title shape and a content box per section,
  stored in the file in another order than the page's (templates are edited box by box);
- ``docx-floating-wps``: the same as WPS templates lay it out: a shaded sidebar of boxes
  (a spaced document title, a "姓名：… 性别：…" details box with two label/value pairs on
  a line, skills, awards) beside a main column of title shapes and content boxes whose
  lines hold labels ("专业：…"); no name line but the labelled field;
- ``docx-side-labels`` / ``libreoffice-side-labels``: Europass-like, a two-column table
  with the section names (and an entry's dates) in a narrow right-aligned left column
  beside the content; LibreOffice's PDF of it;
- ``chromium-side-labels``: a Google-Docs-like page printed by Chromium: each section a
  row, its name in a narrow left column level with its first entry;
- ``chromium-quote-header``: a quotation and its (invented) author under the header; in
  half of the files the contact lines come before the name;
- ``chromium-friggeri``: Friggeri-like: a two-tone name, a left sidebar whose titles are
  small, upper-case and letter-spaced, main titles whose first three letters are coloured;
- ``chromium-canva``: Canva-like absolute positioning: a name stacked over two lines (the
  contacts at the right, level with it), letter-spaced titles; one Chinese file prints the
  name family-name-last as a Western template does ("雨桐 王").

Every person is invented (people.py); quotation authors are invented too.
"""

from __future__ import annotations

import copy
import html
import random
import tempfile
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.shared import Cm, Pt
from people import Person
from produce_html import chromium_pdf
from produce_office import (
    add_bullet_numbering,
    bullet,
    escape,
    no_borders,
    set_fonts,
    shade,
    soffice_pdf,
    widths,
)
from registry import producer, seed_of

PLAN = [("en", {}), ("zh", {}), ("en", {}), ("zh", {})]
EMU = 12700  # per point


def _index(stem: str) -> int:
    return int(stem.split("-")[1]) - 1  # "zh-02" -> 1


# ---------------------------------------------------------------- floating text boxes

_NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:w10="urn:schemas-microsoft-com:office:word"'
)


def p_xml(
    text: str,
    size: float = 10,
    bold: bool = False,
    color: str = "",
    num_id: int = 0,
    tab_at: float = 0,
    align: str = "",
) -> str:
    """One paragraph of a text box: ``text`` may hold a tab (a right tab stop at ``tab_at``
    points), ``num_id`` makes it a bullet of that numbering."""
    ppr = ""
    if num_id:
        ppr += f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'
    if tab_at:
        ppr += f'<w:tabs><w:tab w:val="right" w:pos="{int(tab_at * 20)}"/></w:tabs>'
    ppr += '<w:spacing w:after="20"/>'
    if align:
        ppr += f'<w:jc w:val="{align}"/>'
    rpr = ("<w:b/>" if bold else "") + (f'<w:color w:val="{color}"/>' if color else "")
    rpr += f'<w:sz w:val="{int(size * 2)}"/><w:szCs w:val="{int(size * 2)}"/>'
    runs = "<w:r><w:tab/></w:r>".join(
        f'<w:r><w:rPr>{rpr}</w:rPr><w:t xml:space="preserve">{escape(part)}</w:t></w:r>'
        for part in text.split("\t")
    )
    return f"<w:p><w:pPr>{ppr}</w:pPr>{runs}</w:p>"


class Box:
    """A floating text box at (x, y) points on a page, holding ``inner`` paragraphs."""

    def __init__(self, x: float, y: float, w: float, h: float, inner: str, fill: str = ""):
        self.x, self.y, self.w, self.h, self.inner, self.fill = x, y, w, h, inner, fill

    def xml(self, n: int) -> str:
        fill = (
            f'<a:solidFill><a:srgbClr val="{self.fill}"/></a:solidFill>'
            if self.fill
            else "<a:noFill/>"
        )
        vml_fill = f'fillcolor="#{self.fill}"' if self.fill else 'filled="f"'
        content = f"<w:txbxContent>{self.inner}</w:txbxContent>"
        return (
            f'<w:r {_NS}><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
            '<wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" '
            f'relativeHeight="{251659264 + n}" behindDoc="0" locked="0" layoutInCell="1" '
            'allowOverlap="1"><wp:simplePos x="0" y="0"/>'
            f'<wp:positionH relativeFrom="page"><wp:posOffset>{int(self.x * EMU)}</wp:posOffset></wp:positionH>'
            f'<wp:positionV relativeFrom="page"><wp:posOffset>{int(self.y * EMU)}</wp:posOffset></wp:positionV>'
            f'<wp:extent cx="{int(self.w * EMU)}" cy="{int(self.h * EMU)}"/>'
            '<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/>'
            f'<wp:docPr id="{n}" name="Text Box {n}"/><wp:cNvGraphicFramePr/>'
            '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
            '<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr>'
            f'<a:xfrm><a:off x="0" y="0"/><a:ext cx="{int(self.w * EMU)}" cy="{int(self.h * EMU)}"/></a:xfrm>'
            f'<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>{fill}<a:ln><a:noFill/></a:ln></wps:spPr>'
            f"<wps:txbx>{content}</wps:txbx>"
            '<wps:bodyPr rot="0" vert="horz" wrap="square" lIns="91440" tIns="45720" '
            'rIns="91440" bIns="45720" anchor="t"><a:noAutofit/></wps:bodyPr></wps:wsp>'
            "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
            f'<mc:Fallback><w:pict><v:shape id="Text Box {n}" o:spid="_x0000_s{1025 + n}" '
            'type="#_x0000_t202" style="position:absolute;'
            f"margin-left:{self.x:.1f}pt;margin-top:{self.y:.1f}pt;width:{self.w:.1f}pt;"
            f"height:{self.h:.1f}pt;z-index:{n};mso-position-horizontal-relative:page;"
            f'mso-position-vertical-relative:page" {vml_fill} stroked="f">'
            f'<v:textbox>{content}</v:textbox><w10:wrap anchorx="page" anchory="page"/>'
            "</v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
        )


def lines_height(lines: list[tuple[str, float]], width: float) -> float:
    """A generous height for paragraphs of (text, size) wrapped at ``width`` points."""
    total = 8.0
    for text, size in lines:
        per_char = size * (0.95 if any("\u4e00" <= c <= "\u9fff" for c in text) else 0.5)
        per_line = max(1, int((width - 16) / per_char))
        total += (1 + len(text) // per_line) * size * 1.35 + 1
    return total


def place_boxes(d: docx.Document, pages: list[list[Box]], rng: random.Random) -> None:
    """Anchor each page's boxes in one paragraph of that page, in a shuffled order (the
    file's order is not the page's), a page break between pages."""
    for i, boxes in enumerate(pages):
        anchor = d.add_paragraph()
        if i:
            anchor.paragraph_format.page_break_before = True
        order = list(boxes)
        rng.shuffle(order)
        for box in order:
            anchor._p.append(parse_xml(box.xml(len(anchor._p) + 100 * i + 1)))


def section_content(s, num_id: int, tab_at: float, size: float) -> list[tuple[str, dict]]:
    """The paragraphs of a section body as (text, p_xml options)."""
    out: list[tuple[str, dict]] = []
    if s.text:
        out.append((s.text, {}))
    for item in s.items:
        out.append((item, {"num_id": num_id}))
    for e in s.entries:
        out.append((f"{e.org}\t{e.date}", {"bold": True, "tab_at": tab_at}))
        out.append((e.title + (f" | {e.place}" if e.place else ""), {}))
        out += [(b, {"num_id": num_id}) for b in e.bullets]
    return [(t, {"size": size, **o}) for t, o in out]


def content_box(x: float, y: float, w: float, paras: list[tuple[str, dict]], fill="") -> Box:
    inner = "".join(p_xml(t, **o) for t, o in paras)
    return Box(x, y, w, lines_height([(t, o.get("size", 10)) for t, o in paras], w), inner, fill)


def flow(
    items: list[tuple[str, list[tuple[str, dict]]]], x: float, y: float, w: float, bottom: float
) -> list[list[Box]]:
    """Title shapes and content boxes down a column from ``y``, a new page when full."""
    pages: list[list[Box]] = [[]]
    for title, paras in items:
        head = content_box(x, y, w, [(title, {"size": 13, "bold": True, "color": "FFFFFF"})])
        head.fill = "2E75B6"
        body = content_box(x, y + head.h + 2, w, paras)
        if body.y + body.h > bottom and pages[-1]:
            pages.append([])
            y = 50.0
            head.y, body.y = y, y + head.h + 2
        pages[-1] += [head, body]
        y = body.y + body.h + 10
    return pages


def docx_floating_word(person: Person, rng: random.Random) -> docx.Document:
    d = docx.Document()
    set_fonts(d, person.lang)
    num_id = add_bullet_numbering(d, "\uf0b7", "Symbol")
    top = content_box(
        50,
        40,
        495,
        [
            (person.name, {"size": 24, "bold": True}),
            (person.headline, {"size": 12}),
            (
                f"{person.phone}  ·  {person.email}  ·  {person.location}  ·  {person.website}",
                {"size": 9.5},
            ),
        ],
    )
    items = [(s.title, section_content(s, num_id, 470, 10)) for s in person.sections]
    pages = flow(items, 50, top.y + top.h + 12, 495, 800)
    pages[0].insert(0, top)
    place_boxes(d, pages, rng)
    return d


def docx_floating_wps(person: Person, rng: random.Random) -> docx.Document:
    zh = person.lang == "zh"
    d = docx.Document()
    set_fonts(d, person.lang)
    num_id = add_bullet_numbering(d, "●", "宋体" if zh else "Arial")
    side_kinds = {"skills", "awards"}
    major = "专业：" if zh else "Major: "
    title = "个 人 简 历" if zh else "R E S U M E"
    details = (
        [
            (f"姓名：{person.name}　　性别：{'女' if rng.random() < 0.5 else '男'}", {}),
            (f"电话：{person.phone}", {}),
            (f"邮箱：{person.email}", {}),
            (f"现居：{person.location}", {}),
            (f"求职意向：{person.headline}", {}),
        ]
        if zh
        else [
            (f"Name: {person.name}    Gender: {'Female' if rng.random() < 0.5 else 'Male'}", {}),
            (f"Phone: {person.phone}", {}),
            (f"Email: {person.email}", {}),
            (f"City: {person.location}", {}),
            (f"Objective: {person.headline}", {}),
        ]
    )
    side = [
        content_box(20, 40, 170, [(title, {"size": 18, "bold": True, "color": "FFFFFF"})], "2E75B6")
    ]
    side.append(content_box(20, side[-1].y + side[-1].h + 10, 170, details, "DDEBF7"))
    for s in person.sections:
        if s.kind in side_kinds:
            y = side[-1].y + side[-1].h + 14
            side.append(content_box(20, y, 170, [(s.title, {"size": 12, "bold": True})]))
            paras = [(f"● {i}", {"size": 9.5}) for i in s.items]
            side.append(content_box(20, side[-1].y + side[-1].h, 170, paras))
    main_items = []
    for s in person.sections:
        if s.kind in side_kinds:
            continue
        paras = section_content(s, num_id, 330, 10)
        if s.kind == "education":  # WPS forms label the major on its own line
            paras = [
                (f"{major}{t}", o) if t.split(" | ")[0] in {e.title for e in s.entries} else (t, o)
                for t, o in paras
            ]
        main_items.append((s.title, paras))
    pages = flow(main_items, 205, 40, 370, 800)
    pages[0] = side + pages[0]
    place_boxes(d, pages, rng)
    # the sidebar is read first
    person.sections.sort(key=lambda s: 0 if s.kind in side_kinds else 1)
    for s in person.sections:
        if s.kind == "education":
            for e in s.entries:
                e.title = f"{major}{e.title}"
    return d


# ---------------------------------------------------------------- side labels (Europass)


def docx_side_labels(person: Person) -> docx.Document:
    """One borderless two-column table: section names and an entry's dates in the narrow
    left column (right-aligned, blue), the content beside them."""
    zh = person.lang == "zh"
    d = docx.Document()
    set_fonts(d, person.lang)
    section = d.sections[0]
    section.left_margin = section.right_margin = Cm(1.5)
    num_id = add_bullet_numbering(d, "▪", "Arial")
    rows: list[tuple[str, list[tuple[str, dict]]]] = [
        ("", [(person.name, {"size": 20, "bold": True})]),
        ("", [(person.headline, {"size": 11})]),
        ("", [(f"{person.phone} | {person.email} | {person.location} | {person.website}", {})]),
    ]
    for s in person.sections:
        rows.append((s.title.upper() if not zh else s.title, []))
        if s.text:
            rows.append(("", [(s.text, {})]))
        for item in s.items:
            rows.append(("", [(item, {"bullet": True})]))
        for e in s.entries:
            body = [(e.org + (f", {e.place}" if e.place else ""), {"bold": True}), (e.title, {})]
            body += [(b, {"bullet": True}) for b in e.bullets]
            rows.append((e.date, body))
    table = d.add_table(rows=len(rows), cols=2)
    no_borders(table)
    widths(table, (4.6, 13.4))
    for (label, body), row in zip(rows, table.rows, strict=True):
        left, right = row.cells
        lp = left.paragraphs[0]
        lp.alignment = 2
        r = lp.add_run(label)
        r.font.size = Pt(9 if not body else 9.5)
        r.font.color.rgb = docx.shared.RGBColor(0x0E, 0x41, 0x94)
        if not body:  # a section name: its row is ruled on the right
            r.bold = True
            right.paragraphs[0].add_run("")
            shade(right, "E7EEF8")
            continue
        first = True
        for text, opts in body:
            if opts.get("bullet"):
                bullet(right, text, num_id)
                continue
            p = right.paragraphs[0] if first else right.add_paragraph()
            first = False
            run = p.add_run(text)
            run.bold = bool(opts.get("bold"))
            if "size" in opts:
                run.font.size = Pt(opts["size"])
            p.paragraph_format.space_after = Pt(0)
    return d


# ---------------------------------------------------------------- HTML pages

_CSS = """
@page { size: A4; margin: 14mm 14mm; }
body { font-family: 'Liberation Sans', 'Noto Sans CJK SC', sans-serif; font-size: 10pt;
       color: #222; margin: 0; }
ul { margin: 2px 0 6px 0; padding-left: 16px; } li { margin: 1px 0; }
p { margin: 2px 0; }
.org { font-weight: bold; } .muted { color: #666; }
.right { float: right; }
"""


def entry_html(e, date_right: bool = True) -> str:
    date = f'<span class="right muted">{html.escape(e.date)}</span>' if date_right else ""
    place = f" · {html.escape(e.place)}" if e.place else ""
    bullets = "".join(f"<li>{html.escape(b)}</li>" for b in e.bullets)
    return (
        f'<p>{date}<span class="org">{html.escape(e.org)}</span>{place}</p>'
        f"<p><i>{html.escape(e.title)}</i></p>" + (f"<ul>{bullets}</ul>" if bullets else "")
    )


def body_html(s, date_right: bool = True) -> str:
    out = f"<p>{html.escape(s.text)}</p>" if s.text else ""
    if s.items:
        out += "<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in s.items) + "</ul>"
    return out + "".join(entry_html(e, date_right) for e in s.entries)


def contacts(person: Person) -> list[str]:
    return [person.phone, person.email, person.location, person.website]


def page_html(body: str, css: str = "") -> str:
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        f"<style>{_CSS}{css}</style></head><body>{body}</body></html>"
    )


def print_html(page: str, pdf: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "resume.html"
        source.write_text(page, encoding="utf-8")
        chromium_pdf(source, pdf)


def html_side_labels(person: Person, rng: random.Random) -> str:
    """Google-Docs-like: the name and a contact line, then a table whose rows are the
    sections, each name in a narrow left cell level with its first line."""
    rows = "".join(
        f'<tr><td class="label">{html.escape(s.title)}</td><td>{body_html(s)}</td></tr>'
        for s in person.sections
    )
    css = (
        "h1 { font-size: 26pt; margin: 0 0 4px 0; font-weight: normal; }"
        "table { border-collapse: collapse; width: 100%; margin-top: 12px; }"
        "td { vertical-align: top; padding: 6px 8px 6px 0; }"
        ".label { width: 24%; color: #c0392b; font-weight: bold; font-size: 10.5pt; }"
    )
    header = (
        f"<h1>{html.escape(person.name)}</h1><p>{html.escape(person.headline)}</p>"
        f'<p class="muted">{" · ".join(html.escape(c) for c in contacts(person))}</p>'
    )
    return page_html(header + f"<table>{rows}</table>", css)


_QUOTES = {
    "en": [
        ("Measure twice, ship once, and write down what you learned.", "Ottoline Brackenridge"),
        ("A clear question is half of the answer.", "Barnaby Quillon"),
    ],
    "zh": [
        ("千里之行，始于足下；百尺竿头，更进一步。", "林语晨"),
        ("知之者不如好之者。", "周慕白"),
    ],
}


def html_quote_header(person: Person, rng: random.Random, contacts_first: bool) -> str:
    quote, author = rng.choice(_QUOTES[person.lang])
    name = f"<h1>{html.escape(person.name)}</h1><p>{html.escape(person.headline)}</p>"
    lines = "".join(f"<p>{html.escape(c)}</p>" for c in contacts(person))
    contact = f'<div class="contact">{lines}</div>'
    header = (contact + name) if contacts_first else (name + contact)
    header += (
        f'<blockquote><p>“{html.escape(quote)}”</p><p class="author">— {html.escape(author)}'
        "</p></blockquote>"
    )
    sections = "".join(f"<h2>{html.escape(s.title)}</h2>{body_html(s)}" for s in person.sections)
    css = (
        "h1 { font-size: 24pt; margin: 6px 0 2px 0; }"
        "h2 { font-size: 13pt; border-bottom: 1px solid #999; margin: 12px 0 4px 0; }"
        ".contact p { margin: 0; font-size: 9.5pt; color: #444; }"
        "blockquote { font-style: italic; margin: 10px 40px; color: #555; }"
        ".author { text-align: right; font-size: 9.5pt; }"
    )
    return page_html(header + sections, css)


def html_friggeri(person: Person, rng: random.Random) -> str:
    zh = person.lang == "zh"
    side_kinds = {"skills", "awards"}
    if zh:
        first, last = person.name[1:], person.name[0]
        name = f'<span class="last">{last}</span><span class="first">{first}</span>'
    else:
        first, last = person.name.split(" ", 1)
        name = f'<span class="first">{first}</span> <span class="last">{last}</span>'
    side = '<div class="stitle">' + ("联系方式" if zh else "CONTACT") + "</div>"
    side += "".join(f"<p>{html.escape(c)}</p>" for c in contacts(person))
    main = ""
    for s in person.sections:
        if s.kind in side_kinds:
            if not zh:
                s.title = s.title.upper()
            side += f'<div class="stitle">{html.escape(s.title)}</div>'
            side += "".join(f"<p>{html.escape(i)}</p>" for i in s.items)
        else:
            t = s.title
            main += f'<h2><span class="hl">{html.escape(t[:3])}</span>{html.escape(t[3:])}</h2>'
            main += body_html(s)
    css = (
        "header { text-align: center; margin-bottom: 10px; }"
        ".first { font-size: 30pt; font-weight: 200; color: #777; }"
        ".last { font-size: 30pt; font-weight: bold; }"
        ".wrap { display: flex; gap: 18px; } aside { width: 26%; font-size: 8.5pt; }"
        "main { width: 74%; }"
        ".stitle { font-size: 7.5pt; letter-spacing: 0.3em; color: #999; margin: 10px 0 3px 0; }"
        "aside p { margin: 0 0 2px 0; }"
        "h2 { font-size: 15pt; font-weight: normal; color: #888; margin: 10px 0 4px 0; }"
        ".hl { color: #2e86c1; }"
    )
    header = f"<header><div>{name}</div><p>{html.escape(person.headline)}</p></header>"
    # the sidebar is read first
    person.sections.sort(key=lambda s: 0 if s.kind in side_kinds else 1)
    return page_html(
        header + f'<div class="wrap"><aside>{side}</aside><main>{main}</main></div>', css
    )


def html_canva(person: Person, rng: random.Random, family_last: bool) -> str:
    zh = person.lang == "zh"
    if zh:
        lines = (
            [person.name[1:], person.name[0]] if family_last else [person.name[0], person.name[1:]]
        )
    else:
        lines = [w.upper() for w in person.name.split(" ", 1)]
    if family_last:
        name = f'<div class="name" style="top:30px">{html.escape(" ".join(lines))}</div>'
    else:
        name = (
            f'<div class="name" style="top:20px">{html.escape(lines[0])}</div>'
            f'<div class="name bold" style="top:70px">{html.escape(lines[1])}</div>'
        )
    contact = "".join(
        f'<div class="contact" style="top:{22 + 22 * i}px">{html.escape(c)}</div>'
        for i, c in enumerate(contacts(person))
    )
    head = f'<div class="head">{contact}{name}</div>'
    body = f'<p class="headline">{html.escape(person.headline)}</p>'
    for s in person.sections:
        title = s.title if zh else s.title.upper()
        s.title = title
        body += f"<h2>{html.escape(title)}</h2>{body_html(s)}"
    css = (
        ".head { position: relative; height: 130px; }"
        ".name { position: absolute; left: 0; font-size: 36pt; letter-spacing: 0.08em;"
        " font-weight: 300; }"
        ".bold { font-weight: 800; }"
        ".contact { position: absolute; right: 0; font-size: 9pt; text-align: right; }"
        ".headline { font-size: 12pt; letter-spacing: 0.2em; color: #8a6d3b; }"
        "h2 { font-size: 11pt; letter-spacing: 0.25em; border-top: 2px solid #222;"
        " padding-top: 4px; margin: 14px 0 4px 0; }"
    )
    if zh:  # a design tool embeds one typeface for the whole page
        css += "body { font-family: 'Noto Sans CJK SC', sans-serif; }"
    return page_html(head + body, css)


# ---------------------------------------------------------------- producers


def _rng(person: Person) -> random.Random:
    return random.Random(seed_of(person.name))


@producer("docx", "docx-floating-word", PLAN)
def produce_floating_word(person: Person, out: Path, stem: str, lang: str):
    path = out / f"{stem}.docx"
    docx_floating_word(person, _rng(person)).save(path)
    note = "python-docx, Word 2010+ floating text boxes (wps:wsp + VML fallback), stored out of page order"
    return [path], set(), note


@producer("docx", "docx-floating-wps", PLAN)
def produce_floating_wps(person: Person, out: Path, stem: str, lang: str):
    path = out / f"{stem}.docx"
    docx_floating_wps(person, _rng(person)).save(path)
    note = (
        "python-docx, WPS-habit floating text boxes: a sidebar with a 'Name: … Gender: …' "
        "details box, title shapes and content boxes stored out of page order"
    )
    return [path], {"headline"}, note


@producer("docx", "docx-side-labels", PLAN)
def produce_side_labels(person: Person, out: Path, stem: str, lang: str):
    if lang == "en":
        for s in person.sections:
            s.title = s.title.upper()
    path = out / f"{stem}.docx"
    docx_side_labels(person).save(path)
    return [path], set(), "python-docx, Europass-like side labels: a two-column table"


@producer("libreoffice", "libreoffice-side-labels", PLAN)
def produce_lo_side_labels(person: Person, out: Path, stem: str, lang: str):
    if lang == "en":
        for s in person.sections:
            s.title = s.title.upper()
    source = out / f"{stem}.source.docx"
    docx_side_labels(copy.deepcopy(person)).save(source)
    soffice_pdf(source, out / f"{stem}.pdf")
    return (
        [out / f"{stem}.pdf", source],
        set(),
        "LibreOffice PDF of a Europass-like side-label DOCX",
    )


def _chromium(make, note: str, skip=lambda lang: set()):
    def produce(person: Person, out: Path, stem: str, lang: str):
        page = make(person, _rng(person), _index(stem))
        (out / f"{stem}.html").write_text(page, encoding="utf-8")
        print_html(page, out / f"{stem}.pdf")
        return [out / f"{stem}.pdf", out / f"{stem}.html"], skip(lang), note

    return produce


producer("html", "chromium-side-labels", PLAN)(
    _chromium(lambda p, r, i: html_side_labels(p, r), "Google-Docs-like side labels, Chromium")
)
producer("html", "chromium-quote-header", PLAN)(
    _chromium(
        lambda p, r, i: html_quote_header(p, r, contacts_first=i % 2 == 1),
        "a quotation with its author under the header (contacts first in half), Chromium",
    )
)
producer("html", "chromium-friggeri", PLAN)(
    _chromium(
        lambda p, r, i: html_friggeri(p, r),
        "Friggeri-like: two-tone name, small letter-spaced sidebar titles, Chromium",
        lambda lang: {"extra-section:" + ("联系方式" if lang == "zh" else "CONTACT")},
    )
)
producer("html", "chromium-canva", PLAN)(
    _chromium(
        lambda p, r, i: html_canva(p, r, family_last=p.lang == "zh" and i == 0),
        "Canva-like absolute positioning: a stacked name level with the contacts, Chromium",
    )
)
