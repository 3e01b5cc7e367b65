"""Word resumes built the way people build them in Word and WPS, not the way cvagent
writes them: shaded layout tables for section and company bars, a whole resume inside one
table, custom styles based on Heading 1 and outline levels, Symbol and Wingdings bullets
(numbering definitions, ``w:sym``, a typed U+F0B7), right-aligned tab stops for dates,
text boxes (with the VML fallback Word writes beside them), contact details in the page
header and junk in the footer.  Invented people only.

``tests/formats/data/regenerate.py`` saves these files and their LibreOffice round trips
(``soffice --convert-to docx``) next to it; the tests read both.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from docx.oxml import parse_xml

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_NS = (
    f'xmlns:w="{W_NS}" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:w10="urn:schemas-microsoft-com:office:word"'
)
SYMBOL_BULLET = 1  # numId of a Symbol-font bullet list ("\uf0b7")
WINGDINGS_BULLET = 2  # numId of a Wingdings bullet list ("§", a square)
DECIMAL_LIST = 3  # numId of a numbered list


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _run(text: str, *, bold: bool = False, size: float = 0, color: str = "", font: str = "") -> str:
    props = ""
    if font:
        props += f'<w:rFonts w:ascii="{font}" w:hAnsi="{font}" w:eastAsia="{font}"/>'
    if bold:
        props += "<w:b/>"
    if color:
        props += f'<w:color w:val="{color}"/>'
    if size:
        props += f'<w:sz w:val="{int(size * 2)}"/>'
    parts = text.split("\t")
    body = "<w:tab/>".join(f'<w:t xml:space="preserve">{_esc(p)}</w:t>' for p in parts)
    return f"<w:r><w:rPr>{props}</w:rPr>{body}</w:r>"


def _p(runs: str, ppr: str = "") -> str:
    return f"<w:p {_NS}><w:pPr>{ppr}</w:pPr>{runs}</w:p>"


def _numbering(document: Any) -> None:
    """Three list definitions, as Word writes them: Symbol and Wingdings bullets, 1. 2. 3."""
    numbering = document.part.numbering_part.element

    def abstract(aid: int, fmt: str, text: str, font: str) -> str:
        rpr = f'<w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}" w:hint="default"/></w:rPr>'
        return (
            f'<w:abstractNum {_NS} w:abstractNumId="{aid}"><w:multiLevelType w:val="hybridMultilevel"/>'
            f'<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/>'
            f'<w:pPr><w:ind w:left="360" w:hanging="360"/></w:pPr>{rpr if font else ""}</w:lvl>'
            f'<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{"o" if fmt == "bullet" else "%2)"}"/><w:lvlJc w:val="left"/>'
            f'<w:pPr><w:ind w:left="1080" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
        )

    first_num = numbering.find(f"{{{W_NS}}}num")
    for aid, fmt, text, font in (
        (91, "bullet", "\uf0b7", "Symbol"),
        (92, "bullet", "\u00a7", "Wingdings"),
        (93, "decimal", "%1.", ""),
    ):
        element = parse_xml(abstract(aid, fmt, text, font))
        if first_num is not None:
            first_num.addprevious(element)
        else:
            numbering.append(element)
    for num_id, aid in ((SYMBOL_BULLET, 91), (WINGDINGS_BULLET, 92), (DECIMAL_LIST, 93)):
        for old in numbering.findall(f"{{{W_NS}}}num"):
            if old.get(f"{{{W_NS}}}numId") == str(num_id):
                numbering.remove(old)
        numbering.append(
            parse_xml(f'<w:num {_NS} w:numId="{num_id}"><w:abstractNumId w:val="{aid}"/></w:num>')
        )


class Builder:
    """Appends raw WordprocessingML to a python-docx document's body."""

    def __init__(self) -> None:
        import docx

        self.document = docx.Document()
        _numbering(self.document)
        self.body = self.document.element.body
        self.sect = self.body.find(f"{{{W_NS}}}sectPr")

    def add(self, xml: str) -> None:
        self.sect.addprevious(parse_xml(xml))

    def para(self, text: str = "", *, ppr: str = "", **run: Any) -> None:
        self.add(_p(_run(text, **run) if text else "", ppr))

    def runs(self, *runs: str, ppr: str = "") -> None:
        self.add(_p("".join(runs), ppr))

    def listed(self, text: str, num_id: int, level: int = 0) -> None:
        self.para(
            text, ppr=f'<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr>'
        )

    def table(self, rows: list[list[str]], *, widths: list[int] | None = None) -> None:
        """``rows`` of cell XML (``<w:tc>…</w:tc>``)."""
        cols = max(len(r) for r in rows)
        widths = widths or [9000 // cols] * cols
        grid = "".join(f'<w:gridCol w:w="{w}"/>' for w in widths)
        body = "".join(f"<w:tr>{''.join(r)}</w:tr>" for r in rows)
        self.add(
            f'<w:tbl {_NS}><w:tblPr><w:tblW w:w="9000" w:type="dxa"/>'
            '<w:tblBorders><w:top w:val="nil"/><w:bottom w:val="nil"/><w:insideH w:val="nil"/>'
            '<w:insideV w:val="nil"/></w:tblBorders></w:tblPr>'
            f"<w:tblGrid>{grid}</w:tblGrid>{body}</w:tbl>"
        )

    def header(self, *lines: str, footer: bool = False) -> None:
        part = self.document.sections[0].footer if footer else self.document.sections[0].header
        part.is_linked_to_previous = False
        element = part._element
        for p in list(element):
            element.remove(p)
        for line in lines:
            element.append(parse_xml(line))

    def save(self) -> bytes:
        out = io.BytesIO()
        self.document.save(out)
        return out.getvalue()


def cell(*paras: str, fill: str = "", span: int = 1, width: int = 0, vmerge: str = "") -> str:
    """A table cell; ``vmerge`` "restart" starts a cell merged down over the next rows,
    "continue" is its place in each of them."""
    props = f'<w:tcW w:w="{width}" w:type="dxa"/>' if width else ""
    if span > 1:
        props += f'<w:gridSpan w:val="{span}"/>'
    if vmerge:
        props += '<w:vMerge w:val="restart"/>' if vmerge == "restart" else "<w:vMerge/>"
    if fill:
        props += f'<w:shd w:val="clear" w:color="auto" w:fill="{fill}"/>'
    content = "".join(p.replace(f"<w:p {_NS}>", "<w:p>") for p in paras) or "<w:p/>"
    return f"<w:tc><w:tcPr>{props}</w:tcPr>{content}</w:tc>"


def p(text: str = "", *, ppr: str = "", **run: Any) -> str:
    return _p(_run(text, **run) if text else "", ppr)


RIGHT = '<w:jc w:val="right"/>'
RIGHT_TAB = '<w:tabs><w:tab w:val="right" w:pos="9000"/></w:tabs>'


def _page_field(instr: str, shown: str) -> str:
    return (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        f'<w:r><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        f"<w:r><w:t>{shown}</w:t></w:r>"
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )


def shaded_tables_en() -> bytes:
    """An English resume laid out with shaded tables: a dark one-cell bar per section, a
    light two-cell bar per company and project (the dates right-aligned in the second
    cell), Symbol bullets; contact details in the page header, a page number and a
    "confidential" line in the footer."""
    b = Builder()
    b.header(
        p("Marguerite Okonkwo-Hale", bold=True, size=20, ppr='<w:jc w:val="center"/>'),
        p(
            "marguerite.ohale@example.com | +1 555-010-2468 | linkedin.com/in/mohale-example",
            ppr='<w:jc w:val="center"/>',
        ),
    )
    b.header(
        _p(
            _run("Confidential – Marguerite Okonkwo-Hale – Page ", size=8)
            + _page_field("PAGE", "1")
            + _run(" of ", size=8)
            + _page_field("NUMPAGES", "2"),
            '<w:jc w:val="center"/>',
        ),
        footer=True,
    )
    dark, light = "1F3864", "D9E2F3"

    def bar(title: str) -> str:
        return cell(p(title, bold=True, size=12, color="FFFFFF"), fill=dark, span=2)

    def company(left: str, right: str) -> list[str]:
        return [
            cell(p(left, bold=True), fill=light, width=6500),
            cell(p(right, ppr=RIGHT), fill=light, width=2500),
        ]

    def table(*rows: list[str]) -> None:
        b.table(list(rows), widths=[6500, 2500])

    table([bar("Professional Summary")])
    b.para("Data engineer with 9 years of building pipelines for freight and retail companies.")
    table(
        [bar("Experience")],
        company("Northwind Freight — Senior Data Engineer", "Mar 2020 – Present"),
    )
    b.listed(
        "Moved 140 nightly batch jobs to streaming, cutting data delay from 24 h to 5 min.",
        SYMBOL_BULLET,
    )
    b.listed("Led 4 engineers; hired 2.", SYMBOL_BULLET)
    table(company("Project: Route Optimiser", "2021"))
    b.listed("Saved 9% fuel across 600 trucks with a routing model.", SYMBOL_BULLET)
    table(company("Tillbrook Retail — Data Engineer", "Jun 2016 – Feb 2020"))
    b.listed("Built the sales warehouse used by 300 analysts.", SYMBOL_BULLET)
    b.listed("Cut the monthly close from 6 days to 2.", SYMBOL_BULLET)
    # one table: the bar, then two entries with their dates in the second cell
    table(
        [bar("Education")],
        company("M.Sc. Data Science — Harwick University", "2016 – 2017"),
        company("B.Sc. Computer Science — Harwick University", "2012 – 2016"),
    )
    table([bar("Beyond the Office")])
    b.listed("Organise the Harwick data meetup: 30 talks since 2019.", SYMBOL_BULLET)
    table([bar("Skills")])
    b.table(
        [
            [cell(p("Languages", bold=True)), cell(p("Python, SQL, Scala"))],
            [cell(p("Platforms", bold=True)), cell(p("Spark, Kafka, Airflow, Snowflake"))],
        ]
    )
    return b.save()


def styled_outline_en() -> bytes:
    """Sections made four ways that Word shows alike: the Heading 1 style, a custom style
    based on Heading 1, a custom style with an outline level, and a Normal paragraph with
    a direct outline level; entries in a custom style at outline level 2 (``w:outlineLvl``
    1); bullets as Symbol characters (``w:sym``) and as a typed U+F0B7 with a tab."""
    b = Builder()
    styles = b.document.styles.element
    styles.append(
        parse_xml(
            f'<w:style {_NS} w:type="paragraph" w:customStyle="1" w:styleId="CVSection">'
            '<w:name w:val="CV Section"/><w:basedOn w:val="Heading1"/>'
            '<w:rPr><w:caps/><w:color w:val="2F5496"/></w:rPr></w:style>'
        )
    )
    styles.append(
        parse_xml(
            f'<w:style {_NS} w:type="paragraph" w:customStyle="1" w:styleId="ResumeHead">'
            '<w:name w:val="Resume Head"/><w:basedOn w:val="Normal"/>'
            '<w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/></w:rPr></w:style>'
        )
    )
    styles.append(
        parse_xml(
            f'<w:style {_NS} w:type="paragraph" w:customStyle="1" w:styleId="JobLine">'
            '<w:name w:val="Job Line"/><w:basedOn w:val="Normal"/>'
            f'<w:pPr><w:outlineLvl w:val="1"/>{RIGHT_TAB}</w:pPr><w:rPr><w:b/></w:rPr></w:style>'
        )
    )
    b.para("Teodor Vasquez-Lindqvist", ppr='<w:pStyle w:val="Title"/>')
    b.para("teodor.vl@example.com · +46 70 000 12 34 · Malmö")
    b.para("Experience", ppr='<w:pStyle w:val="CVSection"/>')
    b.para(
        "Backend Developer, Saltviken Games\tJan 2021 – Present", ppr='<w:pStyle w:val="JobLine"/>'
    )
    sym = '<w:r><w:sym w:font="Symbol" w:char="F0B7"/></w:r><w:r><w:tab/></w:r>'
    b.runs(sym, _run("Cut matchmaking latency from 900 ms to 120 ms."))
    b.runs(sym, _run("Ran the on-call rota for 12 services."))
    b.para(
        "Support Engineer, Brightmoor Telecom\tAug 2017 – Dec 2020",
        ppr='<w:pStyle w:val="JobLine"/>',
    )
    b.para("\uf0b7\tAnswered 3,000 tickets a year at 96% satisfaction.", font="Symbol")
    b.para("Education", ppr='<w:pStyle w:val="Heading1"/>')
    b.para(
        "M.Sc. Software Engineering, Lundvik University\t2015 – 2017",
        ppr='<w:pStyle w:val="JobLine"/>',
    )
    b.para("Volunteering", bold=True, size=13, ppr='<w:outlineLvl w:val="0"/>')
    b.para("Code Club Mentor, Malmö Library\t2019 – 2023", ppr='<w:pStyle w:val="JobLine"/>')
    b.listed("Taught Python to 40 children a year.", SYMBOL_BULLET)
    b.para("Languages and Tools", ppr='<w:pStyle w:val="ResumeHead"/>')
    b.listed("Go, Rust, PostgreSQL, Kubernetes", WINGDINGS_BULLET)
    b.listed("Swedish, English, Spanish", WINGDINGS_BULLET)
    return b.save()


def _text_box(*paras: str) -> str:
    """A floating text box as Word 2010+ writes it: the DrawingML shape in mc:Choice and
    the same text again in a VML fallback for older readers."""
    content = "".join(x.replace(f"<w:p {_NS}>", "<w:p>") for x in paras)
    return (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        '<wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" '
        'behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
        '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>0</wp:posOffset>'
        '</wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>0</wp:posOffset></wp:positionV>'
        '<wp:extent cx="2000000" cy="9000000"/><wp:wrapSquare wrapText="bothSides"/>'
        '<wp:docPr id="7" name="Sidebar"/><a:graphic><a:graphicData '
        'uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp>'
        '<wps:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
        f"<wps:txbx><w:txbxContent>{content}</w:txbxContent></wps:txbx><wps:bodyPr/>"
        "</wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
        '<mc:Fallback><w:pict><v:rect style="position:absolute;width:157pt;height:708pt">'
        f"<v:textbox><w:txbxContent>{content}</w:txbxContent></v:textbox></v:rect></w:pict>"
        "</mc:Fallback></mc:AlternateContent></w:r>"
    )


def tabs_and_boxes_zh() -> bytes:
    """A Chinese resume as WPS users make it: the name and contact details in a text box,
    section titles as shaded paragraphs, the dates at a right-aligned tab stop (and a
    date-first line), Wingdings bullets typed as characters ("Ø" is an arrow in
    Wingdings), a numbered list, and the same page number in the footer."""
    b = Builder()
    b.header(_p(_run("第 ", size=9) + _page_field("PAGE", "1") + _run(" 页", size=9)), footer=True)
    box = _text_box(
        p("郑雨菲", bold=True, size=22),
        p("电话：139-0013-9527"),
        p("邮箱：zhengyufei@example.com"),
        p("求职意向：产品经理 | 上海"),
    )
    b.runs(box)
    shade = '<w:shd w:val="clear" w:color="auto" w:fill="DEEAF6"/>'

    def section(title: str) -> None:
        b.para(title, bold=True, size=13, ppr=shade)

    section("教育背景")
    b.para("2014.09 - 2018.06\t复旦某学院\t信息管理与信息系统 本科", ppr=RIGHT_TAB)
    section("工作经历")
    b.para("上海某某网络科技有限公司 — 高级产品经理\t2020.03 - 至今", bold=True, ppr=RIGHT_TAB)
    b.para("Ø\t负责会员体系改版，付费转化率提升 12%。", font="Wingdings")
    b.para("Ø\t推动 A/B 实验平台落地，每月上线 30+ 实验。", font="Wingdings")
    b.para("杭州某某电商有限公司 — 产品经理\t2018.07 - 2020.02", bold=True, ppr=RIGHT_TAB)
    b.listed("搭建商家后台数据看板，覆盖 2,000 家商家。", DECIMAL_LIST)
    b.listed("梳理退款流程，客诉下降 35%。", DECIMAL_LIST)
    section("专业技能")
    b.listed("Axure、Figma、SQL、Python 数据分析", WINGDINGS_BULLET)
    return b.save()


def whole_table_zh() -> bytes:
    """A WPS template: the whole resume in one table, label cells beside value cells at
    the top, a shaded row spanning the table for each section, and date-first entry rows."""
    b = Builder()
    fill = "D9D9D9"
    label = lambda t: cell(p(t, bold=True), width=1500)  # noqa: E731
    value = lambda t, span=1: cell(p(t), span=span, width=3000 * span)  # noqa: E731
    bar = lambda t: cell(p(t, bold=True, size=12), fill=fill, span=4)  # noqa: E731
    bullets = lambda *items: cell(  # noqa: E731
        *(
            p(i, ppr=f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{SYMBOL_BULLET}"/></w:numPr>')
            for i in items
        ),
        span=4,
    )
    b.para("个人简历", bold=True, size=18, ppr='<w:jc w:val="center"/>')
    b.table(
        [
            [label("姓名"), value("林晓蕾"), label("性别"), value("女")],
            [label("电话"), value("138-0013-5678"), label("邮箱"), value("linxiaolei@example.com")],
            [label("求职意向"), value("Java 后端开发工程师", span=3)],
            [bar("教育背景")],
            [value("2016.09 - 2020.06"), value("华东某某大学"), value("软件工程"), value("本科")],
            [bar("工作经历")],
            [
                value("2020.07 - 至今"),
                value("某某网络科技有限公司", span=2),
                value("后端开发工程师"),
            ],
            [
                bullets(
                    "负责订单服务重构，接口 P99 延迟从 800ms 降至 120ms。",
                    "设计库存扣减方案，大促期间零超卖。",
                )
            ],
            [value("2019.07 - 2019.12"), value("某某软件有限公司", span=2), value("Java 实习生")],
            [bullets("开发报表导出模块，导出耗时缩短 70%。")],
            [bar("专业技能")],
            [bullets("Java、Spring Boot、MySQL、Redis、Kafka")],
        ],
        widths=[1500, 3000, 1500, 3000],
    )
    return b.save()


def form_table_zh() -> bytes:
    """A 个人简历 form: a photo cell merged down beside the personal details, each section's
    label merged down beside its rows, "-" and "1." typed before a tab, and a running
    head repeating the name."""
    b = Builder()
    b.header(p("邵嘉禾 个人简历", size=9))
    label = lambda t, **k: cell(p(t, bold=True), width=1200, **k)  # noqa: E731
    value = lambda t, span=1: cell(p(t), span=span, width=2600 * span)  # noqa: E731
    photo = lambda first=False: cell(width=1400, vmerge="restart" if first else "continue")  # noqa: E731
    side = lambda t="": cell(  # noqa: E731
        *([p(t, bold=True, size=12)] if t else []),
        width=1200,
        vmerge="restart" if t else "continue",
    )
    block = lambda *lines: cell(*(p(x) for x in lines), span=4, width=8000)  # noqa: E731
    b.table(
        [
            [label("姓名"), value("邵嘉禾"), label("性别"), value("男"), photo(True)],
            [
                label("电话"),
                value("137-0013-4455"),
                label("邮箱"),
                value("shaojiahe@example.com"),
                photo(),
            ],
            [label("籍贯"), value("江苏南京"), label("出生年月"), value("1997.03"), photo()],
            [
                side("教育背景"),
                value("2015.09 - 2019.06"),
                value("南京某某大学"),
                value("电子信息工程 本科", 2),
            ],
            [side(), block("主修课程：信号与系统、数字电路、嵌入式系统")],
            [
                side("工作经历"),
                value("2019.07 - 至今"),
                value("苏州某某智能制造有限公司"),
                value("嵌入式软件工程师", 2),
            ],
            [
                side(),
                block(
                    "-\t负责产线控制器固件开发，设备停机时间减少 40%。",
                    "-\t主导 OTA 升级方案，覆盖 12,000 台设备。",
                ),
            ],
            [side("专业技能"), block("1.\tC/C++、RTOS、Linux 驱动开发", "2.\tPython 自动化测试")],
        ],
        widths=[1200, 2600, 1200, 2600, 1400],
    )
    return b.save()


FIXTURES: dict[str, Callable[[], bytes]] = {
    "form_table_zh": form_table_zh,
    "shaded_tables_en": shaded_tables_en,
    "styled_outline_en": styled_outline_en,
    "tabs_and_boxes_zh": tabs_and_boxes_zh,
    "whole_table_zh": whole_table_zh,
}
