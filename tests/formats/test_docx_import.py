"""DOCX files made with Word habits (tests/support/word_habits.py), as python-docx writes
them and as LibreOffice writes them back (tests/formats/data/libreoffice/, made by
regenerate_libreoffice.py): layout tables, outline levels, Symbol bullets, tab-stop dates,
text boxes, headers and footers."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from cvagent_cli.formats.reading.importer import ImportResult, import_bytes
from tests.support import word_habits as habits
from tests.support.word_habits import SYMBOL_BULLET, Builder, cell, p

LIBREOFFICE = Path(__file__).parent / "data" / "libreoffice"

EXPECTED = {
    "shaded_tables_en": dict(
        start="# Marguerite Okonkwo-Hale\n\nmarguerite.ohale@example.com | +1 555-010-2468",
        sections=["Professional Summary", "Experience", "Education", "Beyond the Office", "Skills"],
        entries=[
            "### Northwind Freight — Senior Data Engineer\nMar 2020 – Present\n",
            "### Project: Route Optimiser\n2021\n",
            "### Tillbrook Retail — Data Engineer\nJun 2016 – Feb 2020\n",
            "### M.Sc. Data Science — Harwick University\n2016 – 2017\n",
            "### B.Sc. Computer Science — Harwick University\n2012 – 2016\n",
        ],
        bullets=6,
        contacts={"name", "email", "phone", "linkedin"},
        absent=["Confidential", "Page 1", "| Professional Summary", "| Experience"],
    ),
    "styled_outline_en": dict(
        start="# Teodor Vasquez-Lindqvist\n",
        sections=["Experience", "Education", "Volunteering", "Languages and Tools"],
        entries=[
            "### Backend Developer, Saltviken Games\nJan 2021 – Present\n",
            "### Support Engineer, Brightmoor Telecom\nAug 2017 – Dec 2020\n",
            "### M.Sc. Software Engineering, Lundvik University\n2015 – 2017\n",
            "### Code Club Mentor, Malmö Library\n2019 – 2023\n",
        ],
        bullets=6,
        contacts={"name", "email", "phone"},
        absent=["\uf0b7", "\t", " | Answered"],
    ),
    "tabs_and_boxes_zh": dict(
        start="# 郑雨菲\n\n电话：139-0013-9527\n\n邮箱：zhengyufei@example.com",
        sections=["教育背景", "工作经历", "专业技能"],
        entries=[
            "### 复旦某学院 | 信息管理与信息系统 本科\n2014.09 - 2018.06\n",
            "### 上海某某网络科技有限公司 — 高级产品经理\n2020.03 - 至今\n",
            "### 杭州某某电商有限公司 — 产品经理\n2018.07 - 2020.02\n",
        ],
        bullets=5,
        contacts={"name", "email", "phone"},
        absent=["Ø", "第 1 页"],
    ),
    "whole_table_zh": dict(
        start="# 林晓蕾\n\n姓名：林晓蕾 | 性别：女\n",  # the name field, not "个人简历"
        sections=["教育背景", "工作经历", "专业技能"],
        entries=[
            "### 华东某某大学 | 软件工程 | 本科\n2016.09 - 2020.06\n",
            "### 某某网络科技有限公司 | 后端开发工程师\n2020.07 - 至今\n",
            "### 某某软件有限公司 | Java 实习生\n2019.07 - 2019.12\n",
        ],
        bullets=4,
        contacts={"name", "email", "phone"},
        absent=["| 姓名", "\n姓名\n", "个人简历"],
    ),
    "form_table_zh": dict(
        start="姓名：邵嘉禾 | 性别：男\n\n电话：137-0013-4455 | 邮箱：shaojiahe@example.com\n\n"
        "籍贯：江苏南京 | 出生年月：1997.03\n\n## 教育背景\n",
        sections=["教育背景", "工作经历", "专业技能"],
        entries=[
            "### 南京某某大学 | 电子信息工程 本科\n2015.09 - 2019.06\n",
            "### 苏州某某智能制造有限公司 | 嵌入式软件工程师\n2019.07 - 至今\n",
        ],
        bullets=4,
        contacts={"name", "email", "phone"},
        absent=["个人简历", "| 2015.09", "\t", "1."],
    ),
}
SOURCES = [(name, "python-docx") for name in EXPECTED] + [
    (name, "libreoffice") for name in EXPECTED
]


def _import(name: str, writer: str) -> ImportResult:
    if writer == "libreoffice":
        data = (LIBREOFFICE / f"{name}.docx").read_bytes()
    else:
        data = habits.FIXTURES[name]()
    return import_bytes(data, f"{name}.docx", ".docx")


@pytest.mark.parametrize(("name", "writer"), SOURCES, ids=[f"{n}-{w}" for n, w in SOURCES])
def test_word_habits_are_read_as_the_resume_they_lay_out(name: str, writer: str) -> None:
    expected = EXPECTED[name]
    result = _import(name, writer)
    md = result.markdown
    assert md.startswith(expected["start"]), md[:300]
    assert result.sections == expected["sections"]  # every section a ## sibling, in order
    for entry in expected["entries"]:
        assert entry in md  # the entry as ###, its dates on the line below
    assert result.entries == len(expected["entries"])
    assert result.bullets == expected["bullets"]
    assert expected["contacts"] <= set(result.contacts)
    for text in expected["absent"]:
        assert text not in md
    assert not result.warnings


def test_a_data_grid_stays_a_table_and_a_bar_row_does_not_make_one() -> None:
    md = _import("shaded_tables_en", "python-docx").markdown
    assert "| Languages | Python, SQL, Scala |\n|---|---|\n| Platforms |" in md
    assert md.count("\n|---|") == 1  # one table
    # LibreOffice joins the Skills bar and the grid below it into one table: read as lines
    md = _import("shaded_tables_en", "libreoffice").markdown
    assert "## Skills\n\nLanguages: Python, SQL, Scala\n\nPlatforms: Spark" in md


def test_the_whole_table_template_gives_label_value_lines_and_the_name() -> None:
    result = _import("whole_table_zh", "python-docx")
    assert (
        "姓名：林晓蕾 | 性别：女\n\n电话：138-0013-5678 | 邮箱：linxiaolei@example.com"
        in result.markdown
    )
    assert result.contacts["name"] == "林晓蕾"


def test_a_text_box_is_read_once_where_it_is_anchored() -> None:
    result = _import("tabs_and_boxes_zh", "python-docx")
    assert result.markdown.count("郑雨菲") == 1  # not again from Word's VML fallback copy
    assert result.markdown.index("求职意向") < result.markdown.index("## 教育背景")
    assert "1 text box placed on the page: read in the page's order" in result.notes[0]


def test_header_contacts_are_kept_once_and_footer_junk_is_dropped() -> None:
    result = _import("shaded_tables_en", "python-docx")
    assert result.markdown.count("marguerite.ohale@example.com") == 1
    assert any("header or footer line left out" in note for note in result.notes)


def _builder_docx(build) -> bytes:
    b = Builder()
    build(b)
    return b.save()


def test_a_repeated_header_is_kept_once_and_a_footer_email_is_kept() -> None:
    def build(b: Builder) -> None:
        b.header(p("Ilse Marchetti-Obi", bold=True, size=18), p("Page 1 of 2"))
        b.header(
            p("ilse.mo@example.com · +1 555-010-7777"), p("References on request"), footer=True
        )
        b.para("Experience", bold=True, size=13)
        b.para("Nurse, Saint Aldric Hospital\t2018 – 2024", bold=True)
        b.para("\u2022\tCared for 20 patients a shift.")
        # a second page section repeating the same header
        b.add(
            '<w:p xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            '<w:pPr><w:sectPr><w:type w:val="nextPage"/></w:sectPr></w:pPr></w:p>'
        )
        b.para("Education", bold=True, size=13)
        b.para("B.Sc. Nursing, Fenwick University\t2014 – 2018", bold=True)

    result = import_bytes(_builder_docx(build), "cv.docx", ".docx")
    md = result.markdown
    assert md.startswith("# Ilse Marchetti-Obi\n")
    assert md.count("Ilse Marchetti-Obi") == 1
    assert "ilse.mo@example.com · +1 555-010-7777" in md
    assert "Page 1" not in md and "References on request" not in md
    assert result.sections == ["Experience", "Education"]
    assert "- Cared for 20 patients a shift." in md


def test_numbering_taken_away_and_numbered_titles_are_not_bullets() -> None:
    def build(b: Builder) -> None:
        b.para("Anouk Tremblay-Sato", bold=True, size=18)
        b.para("anouk.ts@example.com")
        numbered = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr>'
        b.para("Experience", bold=True, size=12, ppr=numbered)  # "1. Experience"
        b.para("Barista, Kettle & Crumb\t2021 – 2023", bold=True)
        b.listed("Served 300 customers a day.", SYMBOL_BULLET)
        # List Bullet style, with its numbering taken away by numId 0: a plain line
        b.para(
            "Trained 3 new staff.",
            ppr='<w:pStyle w:val="ListBullet"/><w:numPr><w:numId w:val="0"/></w:numPr>',
        )
        b.para("Education", bold=True, size=12, ppr=numbered)

    md = import_bytes(_builder_docx(build), "cv.docx", ".docx").markdown
    assert "## Experience" in md and "## Education" in md
    assert "- Served 300 customers a day." in md
    assert "\nTrained 3 new staff.\n" in md


def test_content_controls_and_a_dates_column_cell() -> None:
    def build(b: Builder) -> None:
        b.para("Rasmus Oyelaran", bold=True, size=18)
        b.para("rasmus.o@example.com · +1 555-010-3434")
        b.add(
            '<w:sdt xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            "<w:sdtPr/><w:sdtContent>"
            '<w:p><w:r><w:rPr><w:b/><w:sz w:val="26"/></w:rPr><w:t>Experience</w:t></w:r></w:p>'
            "</w:sdtContent></w:sdt>"
        )
        b.table(
            [
                [
                    cell(p("2019 – 2024"), width=2000),
                    cell(
                        p("Welder, Ironbridge Yards", bold=True),
                        p("Joined 4,000 m of pipe with no failed X-ray.", ppr=_bullet()),
                        p("Trained 6 apprentices.", ppr=_bullet()),
                        width=7000,
                    ),
                ]
            ],
            widths=[2000, 7000],
        )

    result = import_bytes(_builder_docx(build), "cv.docx", ".docx")
    assert result.sections == ["Experience"]
    assert "### Welder, Ironbridge Yards\n2019 – 2024\n" in result.markdown
    assert result.bullets == 2


def _bullet() -> str:
    return f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{SYMBOL_BULLET}"/></w:numPr>'


def _mutations(data: bytes, seed: int) -> bytes:
    """``data`` with a few elements of one of its XML parts removed, emptied, or given
    attribute values that are not what the schema says (a damaged or hand-edited file)."""
    import io
    import random
    import zipfile

    from lxml import etree

    rng = random.Random(seed)
    source = zipfile.ZipFile(io.BytesIO(data))
    part = rng.choice(
        [n for n in source.namelist() if n.startswith("word/") and n.endswith(".xml")]
    )
    root = etree.fromstring(source.read(part))
    elements = list(root.iter())
    for _ in range(rng.randint(1, 6)):
        element = rng.choice(elements)
        roll = rng.random()
        if roll < 0.4 and element.getparent() is not None:
            element.getparent().remove(element)
        elif roll < 0.7:
            for key in list(element.attrib):
                element.attrib[key] = rng.choice(["", "-1", "abc", "99999999999", "F0B7"])
        else:
            element.text = rng.choice(["\t", "\uf0b7", "", "x" * 300, "2019 – 2021", "Ø"])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            target.writestr(name, etree.tostring(root) if name == part else source.read(name))
    return out.getvalue()


@pytest.mark.parametrize("name", list(EXPECTED))
def test_a_damaged_docx_is_read_or_refused_never_a_crash(name: str) -> None:
    from cvagent_cli.errors import InputError

    data = (LIBREOFFICE / f"{name}.docx").read_bytes()
    for seed in range(12):
        with contextlib.suppress(InputError):  # refused in one line is fine; a crash is not
            import_bytes(_mutations(data, seed), "damaged.docx", ".docx")


def _replace_part(data: bytes, part: str, edit) -> bytes:
    import io
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            body = source.read(name)
            target.writestr(name, edit(body) if name == part else body)
    return out.getvalue()


def test_attribute_values_that_are_not_numbers_are_ignored() -> None:
    import re

    def damage(xml: bytes) -> bytes:
        xml = re.sub(rb'(<w:(?:sz|ilvl|outlineLvl) w:val=")[^"]*"', rb'\1abc"', xml)
        return xml.replace(b"<w:b/>", b'<w:b w:val="maybe"/>')

    data = _replace_part(habits.styled_outline_en(), "word/document.xml", damage)
    data = _replace_part(data, "word/styles.xml", damage)
    result = import_bytes(data, "odd.docx", ".docx")
    assert result.markdown.startswith("# Teodor Vasquez-Lindqvist\n")
    assert result.bullets == 6


def test_a_docx_without_a_body_is_one_input_error() -> None:
    import re

    from cvagent_cli.errors import InputError

    data = _replace_part(
        habits.styled_outline_en(),
        "word/document.xml",
        lambda xml: re.sub(rb"<w:body>.*</w:body>", b"", xml, flags=re.S),
    )
    with pytest.raises(InputError, match="the DOCX has no text"):
        import_bytes(data, "nobody.docx", ".docx")


@pytest.mark.parametrize("sample", ["en_senior_backend", "zh_senior_frontend"])
def test_a_docx_libreoffice_wrote_from_a_web_page_keeps_the_resume(sample: str) -> None:
    from cvagent_cli.document.document import ResumeDocument

    def facts(markdown: str) -> tuple[list[str], int, str | None, str | None]:
        doc = ResumeDocument.from_text(markdown)
        titles = [s.title for s in doc.sections if s.heading_line and s.level == 2]
        bullets = sum(len(s.bullets) for s in doc.sections)
        return titles, bullets, doc.basics.name, doc.basics.email

    original = (Path(__file__).parents[2] / "sample_resumes" / f"{sample}.md").read_text("utf-8")
    data = (LIBREOFFICE / f"from_html_{sample}.docx").read_bytes()
    assert facts(import_bytes(data, "cv.docx", ".docx").markdown) == facts(original)


def test_a_hyperlink_in_the_page_header_keeps_its_address() -> None:
    from docx.opc.constants import RELATIONSHIP_TYPE as RT

    b = Builder()
    header = b.document.sections[0].header
    header.is_linked_to_previous = False
    url = "https://www.linkedin.com/in/oona-feraud-example"
    rid = header.part.relate_to(url, RT.HYPERLINK, is_external=True)
    b.header(
        p("Oona Feraud", bold=True, size=18),
        p("oona.feraud@example.com | ")[: -len("</w:p>")]
        + f'<w:hyperlink r:id="{rid}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
        f'2006/relationships"><w:r><w:t>LinkedIn</w:t></w:r></w:hyperlink></w:p>',
    )
    b.para("Experience", bold=True, size=13)
    b.para("Pastry Chef, Maison Ardoise\t2017 – 2024", bold=True)
    result = import_bytes(b.save(), "cv.docx", ".docx")
    assert f"[LinkedIn]({url})" in result.markdown
    assert result.contacts.get("linkedin", "").endswith("linkedin.com/in/oona-feraud-example")


def test_a_merge_that_does_not_line_up_is_still_read() -> None:
    # python-docx's grid refuses this table (no cell above the merged one); Word shows it
    def build(b: Builder) -> None:
        b.para("Celestine Abara", bold=True, size=18)
        b.para("celestine.abara@example.com")
        b.para("Experience", bold=True, size=13)
        b.table(
            [
                [cell(p("Florist, Petal & Stem", bold=True)), cell(p("2020 – 2024"))],
                [
                    cell(p("Arranged flowers for 150 weddings.")),
                    cell(p("")),
                    cell(vmerge="continue"),
                ],
            ]
        )

    result = import_bytes(_builder_docx(build), "cv.docx", ".docx")
    assert "### Florist, Petal & Stem\n2020 – 2024\n" in result.markdown
    assert "Arranged flowers for 150 weddings." in result.markdown


def test_a_document_title_is_not_the_name() -> None:
    def build(b: Builder, with_name: bool) -> None:
        b.para("Résumé", bold=True, size=20)
        rows = [[cell(p("Email")), cell(p("tobias.lindqvist@example.com"))]]
        if with_name:
            rows.insert(0, [cell(p("Name")), cell(p("Tobias Lindqvist-Aho"))])
        b.table(rows)
        b.para("Experience", bold=True, size=13)
        b.para("Baker, Crumb & Co.\t2019 – 2024", bold=True)

    named = import_bytes(_builder_docx(lambda b: build(b, True)), "cv.docx", ".docx")
    assert named.markdown.startswith("# Tobias Lindqvist-Aho\n")
    assert "Résumé" not in named.markdown
    assert 'the document title "Résumé" left out: the name is Tobias Lindqvist-Aho' in named.notes
    # no details table with a name: the title stays as written, and no name is invented
    unnamed = import_bytes(_builder_docx(lambda b: build(b, False)), "cv.docx", ".docx")
    assert unnamed.markdown.startswith("# Résumé\n")
    assert "name" not in unnamed.contacts
