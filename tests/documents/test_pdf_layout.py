"""PDF layout reading on files other tools made (typst, pdfLaTeX; invented people).

The PDFs are committed under pdf_layouts/ and made by pdf_layouts/make_pdfs.py.  Each test
checks one behaviour of the reader; the glyph-level ones feed hand-made characters in the
shape pdfplumber gives them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cvagent_cli.documents.reading.importer import ImportResult, import_bytes
from cvagent_cli.documents.reading.pdf_glyphs import page_glyphs, shape_marks
from cvagent_cli.documents.reading.pdf_import import join_paragraphs, split_cells
from cvagent_cli.documents.reading.pdf_layout import make_lines
from cvagent_cli.documents.reading.pdf_lines import as_page_line

HERE = Path(__file__).parent / "pdf_layouts"
_CJK_SPACE_RE = re.compile(r"[\u4e00-\u9fff] [\u4e00-\u9fff]")


def _import(name: str) -> ImportResult:
    return import_bytes((HERE / f"{name}.pdf").read_bytes(), f"{name}.pdf", ".pdf")


def _lines(md: str) -> list[str]:
    return [ln for ln in md.splitlines() if ln.strip()]


def _near(md: str, anchor: str, fragment: str) -> bool:
    """``fragment`` is on the line of ``anchor`` or within the two lines after it."""
    lines = _lines(md)
    at = next(i for i, ln in enumerate(lines) if anchor in ln)
    return any(fragment in ln for ln in lines[at : at + 3])


def test_right_aligned_dates_and_places_stay_with_their_row() -> None:
    result = _import("right_aligned")
    md = result.markdown
    assert not any("two-column" in n for n in result.notes)
    assert _near(md, "Northwind Freight", "Seattle, WA")
    assert _near(md, "Senior Data Engineer", "2004 – 2005")
    assert _near(md, "Data Analyst", "2001 – 2004")
    assert not re.search(r"^#+ .*\d{4}", md, re.MULTILINE)  # never a "### 2004 – 2005"
    assert md.index("2004 – 2005") < md.index("- Rebuilt the nightly")


def test_running_header_footer_and_page_numbers_are_left_out() -> None:
    result = _import("running_footer")
    md = result.markdown
    assert "Curriculum Vitae" not in md and "Page" not in md and " of 2" not in md
    assert any("running header or footer" in n for n in result.notes)
    assert md.count("### Consultant") == 14  # the body on both pages is all there
    assert md.startswith("# Tobias Wrenfield\n")


def test_cover_letter_after_the_resume_is_left_out_with_a_note() -> None:
    result = _import("cover_letter")
    assert "Dear Hiring Manager" not in result.markdown and "Sincerely" not in result.markdown
    assert any("cover letter" in n and "page 2" in n for n in result.notes)
    assert "- Launched the billing portal used by 2,400 customers." in result.markdown


def test_fake_bold_glyphs_collapse_to_one() -> None:
    md = _import("fake_bold_cjk").markdown
    assert md.startswith("# 林雨桐\n")
    assert "学位：计算机科学与技术" in md and "职位：全栈开发工程师" in md
    assert "学学" not in md and "职职" not in md and "林林" not in md


def test_no_space_where_a_cjk_line_wraps() -> None:
    md = _import("fake_bold_cjk").markdown
    bullet = next(ln for ln in md.splitlines() if ln.startswith("- 负责公司"))
    assert bullet.endswith("前端页面，日均处理订单二十万笔。")  # it wraps on the page
    assert not _CJK_SPACE_RE.search(bullet)


def test_icon_font_glyphs_go_and_the_contact_text_stays() -> None:
    result = _import("icons_shapes")
    assert not re.search("[\ue000-\uf8ff]", result.markdown)
    assert {"email", "phone", "github"} <= set(result.contacts)
    assert "okonkwo.ah@example.com" in result.markdown


def test_shape_bullets_and_nested_dash_bullets() -> None:
    result = _import("icons_shapes")
    md = result.markdown
    assert "- Wrote a bus route planner for the city of Lagos in Rust.\n" in md
    assert "  - Served 40,000 requests a day.\n  - Cached timetables in Redis.\n" in md
    assert "**-**" not in md and "**–**" not in md
    assert result.bullets == 5


def test_tex_icons_word_spaces_and_hyphenation() -> None:
    result = _import("justified_tex")
    md = result.markdown
    # pdfTeX draws no spaces: they come from the gaps of the justified line
    assert "capacity planning, infrastructure operations, and security reviews" in md
    assert not re.search(r"[A-Za-z]{25,}", md)
    # words TeX hyphenated at a line end are whole again
    assert "that correlates infrastructure" in md and "for organisations standardising" in md
    # fontawesome5 icons in the contact line leave the contacts readable
    assert {"email", "phone", "github"} <= set(result.contacts)
    assert "### Site Reliability Engineer, Gondolier Payments" in md


def test_the_name_is_not_the_document_title_nor_merged_with_the_email() -> None:
    result = _import("name_row_table")
    md = result.markdown
    assert md.startswith("# Henrietta Vasquez-Lowe\n")
    assert "RESUME" not in md
    assert "## Senior Backend Engineer" not in md  # a subtitle, not a section
    assert result.sections == ["EXPERIENCE", "SKILLS"]
    assert result.contacts.get("email") == "henrietta.vl@example.com"


def test_table_rows_keep_a_separator_between_cells() -> None:
    md = _import("name_row_table").markdown
    assert "Language | Level | Years" in md and "Python | Advanced | 9" in md


def test_the_name_from_a_name_field_under_a_document_title() -> None:
    result = _import("name_field_zh")
    assert result.markdown.startswith("# 韩嘉怡\n")
    assert "# 个人简历" not in result.markdown
    assert result.sections == ["教育背景", "工作经历"]
    assert {"email", "phone"} <= set(result.contacts)


class _Page:
    """What pdfplumber gives for a page: chars (and no drawings)."""

    def __init__(self, rows: list[list[tuple[str, str]]]) -> None:
        self.curves: list[dict] = []
        self.rects: list[dict] = []
        self.lines: list[dict] = []
        self.chars: list[dict] = []
        for r, row in enumerate(rows):
            x = 50.0
            for text, font in row:
                for ch in [text] if text.startswith("(cid:") or "Awesome" in font else text:
                    width = 10.0 if "Icons" in font or "Awesome" in font else 6.0
                    self.chars.append(
                        {
                            "text": ch,
                            "fontname": f"ABCDEF+{font}",
                            "size": 10.0,
                            "x0": x,
                            "x1": x + width,
                            "top": 100.0 + 14 * r,
                            "bottom": 110.0 + 14 * r,
                            "upright": True,
                            "matrix": (1, 0, 0, 1, 0, 0),
                        }
                    )
                    x += width
                x += 5.0  # a word gap between the runs


def _page_lines(rows: list[list[tuple[str, str]]]) -> list[tuple[bool, str]]:
    page = _Page(rows)
    glyphs, _ = page_glyphs(page)
    return [(ln.bullet, ln.text()) for ln in make_lines(glyphs, shape_marks(page, 10), 0)]


@pytest.mark.parametrize(
    ("glyph", "font"),
    [
        ("\uf0b7", "Symbol"),
        ("\uf0a7", "Wingdings-Regular"),
        ("(cid:127)", "CIDFont"),
        ("▪", "Arial"),
    ],
)
def test_a_bullet_glyph_at_a_line_start_is_a_bullet(glyph: str, font: str) -> None:
    assert _page_lines([[(glyph, font), ("Built", "Arial"), ("things", "Arial")]]) == [
        (True, "Built things")
    ]


def test_icon_font_words_and_private_use_glyphs_are_dropped() -> None:
    lines = _page_lines(
        [
            [("HOUSE-CHIMNEY", "FontAwesome6Free-Solid"), ("Berlin", "Arial")],
            [("\ue001", "SomeIcons"), ("ana@example.com", "Arial")],
        ]
    )
    assert lines == [(False, "Berlin"), (False, "ana@example.com")]


def test_a_soft_hyphen_at_a_line_end_rejoins_the_word_and_leaves_no_trace() -> None:
    page = _Page(
        [
            [("Kept", "Arial"), ("the", "Arial"), ("infra\u00ad", "Arial")],
            [("structure", "Arial"), ("up", "Arial")],
            [("a\u00adb", "Arial")],
        ]
    )
    glyphs, _ = page_glyphs(page)
    lines = [as_page_line(ln) for ln in make_lines(glyphs, [], 0)]
    paras = join_paragraphs(split_cells(lines), hyphenating=False)
    assert [p.text for p in paras] == ["Kept the infrastructure up ab"]


def test_word_habits_through_libreoffice() -> None:
    """Symbol-font bullets (U+F0B7, drawn in a substitute font), dates at a right tab stop,
    a running header and a page-number footer on each of two pages."""
    result = _import("libreoffice_word")
    md = result.markdown
    assert result.bullets == 20
    assert "Resume" not in md and "Page" not in md
    assert "### Hydrographic Analyst, Fjordline Survey 2019\nMar 2019 – Feb 2020\n" in md
    assert not re.search("[\ue000-\uf8ff]", md)


def test_a_real_two_column_tex_page_is_read_column_by_column() -> None:
    result = _import("paracol_tex")
    md = result.markdown
    assert any("two-column" in n for n in result.notes)
    assert result.sections == ["Skills", "Languages", "Education", "Experience", "Projects"]
    assert "Python\nKubernetes\nTerraform" in md  # short lines of a narrow column stay lines
    assert "### Staff Engineer, Lakeshore Logistics\n2019 – Present" in md
    assert md.index("2010 – 2014") < md.index("## Experience")


def test_moderncv_dates_column_icon_bullets_and_item_rows() -> None:
    result = _import("moderncv_tex")
    md = result.markdown
    assert "### Lead Data Scientist, Marlowe Insurance, London\n2019–Present" in md
    assert "- Managed a team of five data scientists and two analysts." in md
    assert result.bullets == 2
    assert "Languages | Python, R, SQL" in md and "## Languages" not in md


def test_moderncv_fancy_margin_titles_and_the_address_beside_the_name() -> None:
    """Section titles and dates flush right in a margin column, on the row of the text
    they head; the address printed beside the big name; an e-mail TeX hyphenated in the
    narrow margin, with the subtitle's row read between its halves."""
    result = _import("moderncv_fancy_tex")
    md = result.markdown
    assert md.startswith("# Wilhelmina Oyelaran\n")
    assert result.sections == ["Experience", "Education", "Skills"]
    assert "### B.Eng. Computing, University of Sheffield, Sheffield.\n2012–2016" in md
    assert result.contacts.get("email") == "wilhelmina.oyelaran@example.com"
    assert result.bullets == 2


def test_the_name_from_the_cells_of_a_details_table() -> None:
    result = _import("name_table_zh")
    assert result.markdown.startswith("# 邓思远\n")
    assert "姓名 | 邓思远 | 电话 | 139-0013-7788" in result.markdown
    assert {"email", "phone"} <= set(result.contacts)


def test_an_actual_text_span_gives_a_blank_glyph_its_text() -> None:
    """typst draws 专业 in "专业技能" with a fallback font's blank .notdef glyph, (cid:0)
    in the text layer; the second carries an /ActualText (业), the first nothing.  The
    heading reads as the text layer says ("业技能"), and the blank glyph left at its start
    is no bullet mark."""
    from cvagent_cli.documents.reading.importer import import_file

    corpus = Path(__file__).resolve().parent / "import_corpus"
    lines = import_file(corpus / "rendercv-sb2nov" / "zh-01.pdf").markdown.splitlines()
    assert "## 业技能" in lines
    assert not any(line.startswith("- 业技能") for line in lines)


def test_actual_text_replaces_only_glyphs_with_no_text_of_their_own() -> None:
    from cvagent_cli.documents.reading.pdf_glyphs import with_actual_text

    span = "ActualText\x1f7\x1f业"
    ligature = "ActualText\x1f8\x1ffi"
    chars = [
        {"text": "(cid:0)", "fontname": "NewCM", "tag": "Span"},
        {"text": "(cid:0)", "fontname": "NewCM", "tag": span},
        {"text": "技", "fontname": "UnDotum", "tag": "Span"},
        {"text": "ﬁ", "fontname": "Lato", "tag": ligature},
    ]
    assert [c["text"] for c in with_actual_text(chars)] == ["", "业", "技", "ﬁ"]
