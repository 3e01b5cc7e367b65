"""Documents laid out by position: DOCX floating text boxes read in the page's order (the
fallback copy once), and a name found in a labelled field with a second pair on its line."""

from __future__ import annotations

import io

import pytest

from cvagent_cli.formats.reading.docx_shapes import Spot, reading_order
from cvagent_cli.formats.reading.docx_text import name_field
from cvagent_cli.formats.reading.importer import import_bytes

docx = pytest.importorskip("docx")

_NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"'
)


def _box(n: int, x: float, y: float, w: float, h: float, lines: list[tuple[str, int]]) -> str:
    """A floating text box as Word 2010+ writes it: a wps shape and its VML fallback."""
    content = (
        "<w:txbxContent>"
        + "".join(
            f'<w:p><w:r><w:rPr>{"<w:b/>" if size > 12 else ""}<w:sz w:val="{2 * size}"/></w:rPr>'
            f"<w:t>{text}</w:t></w:r></w:p>"
            for text, size in lines
        )
        + "</w:txbxContent>"
    )
    emu = 12700
    return (
        f'<w:r {_NS}><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        '<wp:anchor simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" '
        'allowOverlap="1" distT="0" distB="0" distL="0" distR="0"><wp:simplePos x="0" y="0"/>'
        f'<wp:positionH relativeFrom="page"><wp:posOffset>{int(x * emu)}</wp:posOffset></wp:positionH>'
        f'<wp:positionV relativeFrom="page"><wp:posOffset>{int(y * emu)}</wp:posOffset></wp:positionV>'
        f'<wp:extent cx="{int(w * emu)}" cy="{int(h * emu)}"/><wp:wrapNone/>'
        f'<wp:docPr id="{n}" name="Text Box {n}"/>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        f'<wps:wsp><wps:cNvSpPr txBox="1"/><wps:txbx>{content}</wps:txbx><wps:bodyPr/></wps:wsp>'
        "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
        f'<mc:Fallback><w:pict><v:shape id="b{n}" style="position:absolute;margin-left:{x}pt;'
        f"margin-top:{y}pt;width:{w}pt;height:{h}pt;mso-position-horizontal-relative:page;"
        f'mso-position-vertical-relative:page"><v:textbox>{content}</v:textbox></v:shape>'
        "</w:pict></mc:Fallback></mc:AlternateContent></w:r>"
    )


def _floating_docx(boxes: list[str]) -> bytes:
    from docx.oxml import parse_xml

    document = docx.Document()
    anchor = document.add_paragraph()
    for box in boxes:
        anchor._p.append(parse_xml(box))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_floating_boxes_are_read_in_the_order_of_the_page_not_of_the_file() -> None:
    boxes = [  # stored bodies first, titles after them, the name last
        _box(1, 50, 300, 500, 60, [("Lakeshore College, B.S. Mathematics, 2014 - 2018", 10)]),
        _box(2, 50, 140, 500, 120, [("Quillfeather Labs, Data Engineer, 2020 - Present", 10)]),
        _box(3, 50, 270, 500, 24, [("Education", 14)]),
        _box(4, 50, 110, 500, 24, [("Experience", 14)]),
        _box(5, 50, 40, 500, 60, [("Marisol Thornquist", 24), ("marisol@example.com", 10)]),
    ]
    markdown = import_bytes(_floating_docx(boxes), "cv.docx", ".docx").markdown
    order = [markdown.index(t) for t in ("Marisol", "Experience", "Quillfeather", "Education")]
    assert order == sorted(order)
    assert markdown.index("Education") < markdown.index("Lakeshore")
    assert markdown.startswith("# Marisol Thornquist")
    assert markdown.count("Quillfeather Labs") == 1  # the VML fallback copy is not read again


def test_a_sidebar_is_read_whole_before_the_column_beside_it() -> None:
    side = [Spot(20, 40, 170, 30), Spot(20, 80, 170, 100), Spot(20, 195, 170, 60)]
    main = [Spot(205, 40, 370, 30), Spot(205, 72, 370, 118), Spot(205, 200, 370, 30)]
    spots = [main[2], side[1], main[0], side[2], main[1], side[0]]
    assert reading_order(spots) == [5, 1, 3, 2, 4, 0]


def test_a_dates_box_beside_each_entry_is_read_row_by_row() -> None:
    entries = [Spot(50, 100, 380, 40), Spot(50, 160, 380, 40)]
    dates = [Spot(440, 101, 100, 16), Spot(440, 161, 100, 16)]
    assert reading_order([dates[1], entries[1], dates[0], entries[0]]) == [3, 2, 1, 0]


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("姓名：梁梓萱\u3000\u3000性别：男", "梁梓萱"),
        ("Name: Kwame Ravensworth    Gender: Male", "Kwame Ravensworth"),
        ("Name: Kwame Ravensworth Gender: Male", "Kwame Ravensworth"),
        ("姓名：林晓蕾 | 性别：女", "林晓蕾"),
    ],
)
def test_a_name_field_ends_where_the_next_pair_of_its_line_starts(line: str, name: str) -> None:
    assert name_field([], [line]) == name


def test_a_details_box_under_a_document_title_gives_the_name() -> None:
    boxes = [
        _box(1, 20, 40, 170, 30, [("R E S U M E", 18)]),
        _box(2, 20, 80, 170, 80, [("Name: Kwame Ravensworth    Gender: Male", 10)]),
        _box(3, 205, 40, 370, 24, [("Experience", 14)]),
        _box(4, 205, 70, 370, 80, [("Quillfeather Labs, Data Engineer, 2020 - Present", 10)]),
    ]
    markdown = import_bytes(_floating_docx(boxes[::-1]), "cv.docx", ".docx").markdown
    assert markdown.startswith("# Kwame Ravensworth")


def _typst_pdf(markup: str) -> bytes:
    typst = pytest.importorskip("typst")
    from cvagent_cli.formats.writing.pdf_export import font_dir

    page = "#set page(width: 595pt, height: 842pt, margin: 40pt)\n#set text(size: 10pt)\n"
    return bytes(typst.compile((page + markup).encode("utf-8"), font_paths=[str(font_dir())]))


SIDE_LABELS_TYP = """
#text(size: 22pt)[Marisol Thornquist] \\
marisol.thornquist\\@example.com · +1 303-555-0142
#v(10pt)
#let label(body) = text(weight: "bold", fill: rgb("#c0392b"), body)
#grid(columns: (90pt, 1fr), column-gutter: 16pt, row-gutter: 14pt,
  label[Professional Experience],
  [*Quillfeather Labs* · Denver, CO #h(1fr) Mar 2020 – Present \\
   Data Engineer
   - Cut cloud spend by 31% by rightsizing 240 instances and retiring idle clusters.
   - Built a deploy pipeline used by 12 teams, from commit to production in minutes.
   - Moved 60 services to containers in a quarter without a minute of downtime.],
  label[Education],
  [*Lakeshore College* · Madison, WI #h(1fr) 2014 – 2018 \\
   B.S. Mathematics \\
   Thesis on graph colouring and scheduling, with honours, supervised by the department],
  label[Skills],
  [Python, SQL, Spark, Airflow, Kafka, Flink, Postgres, Redis, DuckDB and ClickHouse \\
   dbt, Looker, Terraform \\ Kubernetes, AWS],
)
"""


def test_section_names_in_a_left_column_head_the_content_beside_them() -> None:
    result = import_bytes(_typst_pdf(SIDE_LABELS_TYP), "side.pdf", ".pdf")
    assert result.sections == ["Professional Experience", "Education", "Skills"]
    assert "## Professional Experience\n\n### Quillfeather Labs" in result.markdown
    assert result.bullets == 3


STACKED_TYP = """
#place(top + right, align(right, text(size: 9pt)[+1 303-555-0142 \\ \\
  marisol.thornquist\\@example.com \\ Denver, CO]))
#text(size: 34pt)[MARISOL] \\
#text(size: 34pt, weight: "bold")[THORNQUIST]
#v(8pt)
== Experience
*Quillfeather Labs* #h(1fr) Mar 2020 – Present \\
- Cut cloud spend by 31% by rightsizing 240 instances.
"""


def test_a_name_stacked_over_two_lines_beside_the_contacts_is_one_name() -> None:
    result = import_bytes(_typst_pdf(STACKED_TYP), "stacked.pdf", ".pdf")
    assert "# MARISOL THORNQUIST\n" in result.markdown


def test_a_chinese_name_printed_given_name_first_is_read_family_name_first() -> None:
    markup = (
        "#text(size: 24pt)[晨阳 宋]\n\n电话：139-0000-1234\n\n== 工作经历\n星河数据 2020 - 至今\n"
    )
    result = import_bytes(_typst_pdf(markup), "zh.pdf", ".pdf")
    assert result.markdown.startswith("# 宋晨阳\n")
    assert any("晨阳 宋" in n for n in result.notes)


def test_oblique_text_is_read_and_rotated_text_is_not() -> None:
    markup = "Before \\ #skew(ax: -15deg)[数据工程师 Data Engineer] \\ #rotate(90deg)[WATERMARK]"
    result = import_bytes(_typst_pdf(markup), "skew.pdf", ".pdf")
    assert "数据工程师 Data Engineer" in result.markdown
    assert "WATERMARK" not in result.markdown


@pytest.mark.parametrize(
    ("printed", "name"),
    [
        ('Anna#text(weight: "bold")[Nováková]', "Anna Nováková"),
        ("McAllister", "McAllister"),  # a capital inside one name: no evidence, kept
    ],
)
def test_a_name_glued_in_the_text_layer_is_split_where_its_case_changes(
    printed: str, name: str
) -> None:
    markup = (
        f"#text(size: 24pt)[{printed}]\n\nanna\\@example.com\n\n== Experience\nAcme 2020 - 2022\n"
    )
    result = import_bytes(_typst_pdf(markup), "glued.pdf", ".pdf")
    assert result.markdown.startswith(f"# {name}\n")
