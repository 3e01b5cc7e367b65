"""PDF layout reading on files other tools made (typst, pdfLaTeX; invented people).

The PDFs are committed under pdf_layouts/ and made by pdf_layouts/make_pdfs.py.  Each test
checks one behaviour of the reader; the glyph-level ones feed hand-made characters in the
shape pdfplumber gives them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cvagent_cli.formats.reading.importer import ImportResult, import_bytes
from cvagent_cli.formats.reading.pdf_glyphs import OCR_FONT, Glyph, page_glyphs, shape_marks
from cvagent_cli.formats.reading.pdf_import import split_cells
from cvagent_cli.formats.reading.pdf_join import join_paragraphs
from cvagent_cli.formats.reading.pdf_layout import make_lines, rows
from cvagent_cli.formats.reading.pdf_lines import as_page_line

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


def test_a_ruled_form_keeps_each_cell_whole_however_it_wraps() -> None:
    """LibreOffice's PDF of a Word form: narrow label/value cells wrap a hyphenated name over
    three lines, a label mid-word and an e-mail over five lines; each cell is read whole,
    and the row keeps its cells apart with ``|``."""
    md = _import("ruled_form").markdown
    assert md.startswith("# Anna-Lena Whitcombe-Farraday\n")
    assert (
        "**Name** | Anna-Lena Whitcombe-Farraday | **Phone** | (720) 555-0112 | "
        "**Email** | anna-lena.whitcombe-farraday@example.org"
    ) in md
    assert "**Contact** | Jean-Baptiste Okonkwo-Lindqvist | **City** | Edinburgh, UK" in md
    assert "github.com/anselmwhi-example" in md
    assert "## Experience" in md


def test_a_ruled_chinese_form_joins_spread_labels_and_wrapped_values() -> None:
    md = _import("ruled_form_zh").markdown
    assert md.startswith("# 欧阳明轩\n")
    assert (
        "**姓名** | 欧阳明轩 | **电话** | 139-0000-5922 | **邮箱** | ouyang.mingxuan-dev@example.com"
        in md
    )
    assert "**意向** | 测试开发工程师 | **主页** | github.com/mingxuan83-example" in md


@pytest.mark.parametrize(
    ("prev", "nxt", "first", "glued"),
    [
        (("lena.whitcom", 450, 511), ("be-", 450, 458), True, True),  # broken at the edge
        (("Nam", 90, 110.7), ("e", 90, 95.4), True, True),
        (("Jean-Baptiste", 124, 181.4), ("Okonkwo-", 124, 168), True, False),  # a new word
        (("Backend", 124, 160), ("engineer", 124, 165), True, False),  # room was left
        (("Senior", 124, 150), ("engineer", 124, 165), False, False),  # not its line's start
        (("Whitcombe-", 162, 213), ("Farraday", 162, 199), True, True),  # after a hyphen
    ],
)
def test_a_wrap_in_a_cell_is_glued_only_where_a_word_was_broken(
    prev: tuple[str, float, float], nxt: tuple[str, float, float], first: bool, glued: bool
) -> None:
    from cvagent_cli.formats.reading.pdf_cells import _glued
    from cvagent_cli.formats.reading.pdf_layout import Word

    def word(text: str, x0: float, x1: float) -> Word:
        return Word(text, x0, x1, 0, 10, 10, False)

    right = {"lena.whitcom": 512.0, "Nam": 113.0}.get(prev[0], 186.8)
    assert _glued(word(*prev), word(*nxt), first, right) is glued


def test_radicals_in_a_chromium_text_layer_read_as_the_ideographs_drawn() -> None:
    """Chromium with Noto Sans CJK maps shared glyphs to Kangxi radicals (工 as U+2F2F ⼯,
    长 as U+2ED3 ⻓): the page looks right and its text matches nothing.  The import gives
    the ideographs, so the sections are sections."""
    import pdfplumber

    path = HERE / "chromium_radicals_zh.pdf"
    with pdfplumber.open(path) as pdf:
        layer = "".join(c["text"] for c in pdf.pages[0].chars)
    assert "⼯" in layer and "⻓" in layer  # the file has the problem
    result = _import("chromium_radicals_zh")
    md = result.markdown
    assert not re.search("[\u2e80-\u2fdf]", md)
    assert "## 工作经历" in md and "## 教育经历" in md and "## 专业技能" in md
    assert "长沙" in md and "### 青禾网络科技有限公司 · 前端工程师" in md
    assert "负责用户中心与支付页面的开发" in md


@pytest.mark.parametrize(
    ("radical", "ideograph"),
    [
        ("⼯", "工"),
        ("⼾", "户"),
        ("⻓", "长"),
        ("⻚", "页"),
        ("⾬", "雨"),
        ("⼹", "彐"),
        ("工", "工"),
        ("a", "a"),
    ],
)
def test_a_radical_becomes_the_ideograph_its_glyph_draws(radical: str, ideograph: str) -> None:
    from cvagent_cli.script import unify_radical

    assert unify_radical(radical) == ideograph


def test_an_icon_before_a_section_title_keeps_it_a_section_and_ligatures_are_letters() -> None:
    """A web builder printed by Chromium with its icon font missing: each section title
    starts with an unknown glyph (a bullet, by its look), and "Airflow" is set with the
    "ﬂ" ligature.  The titles stay sections; the list items stay items; no ligature
    reaches the Markdown."""
    md = _import("chromium_icons").markdown
    assert "## EXPERIENCE" in md and "## EDUCATION" in md and "## SKILLS" in md
    assert "- Wrote the runbook for the warehouse failover." in md
    assert "- Python, SQL, Airflow" in md
    assert not re.search("[\ufb00-\ufb06]", md)


def test_a_short_sidebar_beside_a_taller_column_is_read_as_a_column() -> None:
    """A web builder's grid, printed by Chromium: a shaded sidebar with one short section
    beside the main column.  Their lines never share a baseline (no gap inside a line
    shows the gutter), and the sidebar is a sixth of the column's height; its section is
    read whole, before the main column, not interleaved with it."""
    result = _import("chromium_sidebar")
    md = result.markdown
    assert "## LANGUAGES\n\nNorwegian (native), English (C1)\n\n## PROFILE" in md
    assert "## PROFILE\n\nQA engineer with an eye for flaky tests.\n\n## EXPERIENCE" in md
    assert any("two-column" in n for n in result.notes)


def test_a_wrapped_section_title_in_a_sidebar_is_not_taken_for_the_name() -> None:
    """The name set in bold body size on the first line; a sidebar's "LANGUAGE /
    PROFICIENCY" wraps, and its second line is the largest text near the top that is not
    a section name.  It is set like the section titles, so it is not the name."""
    from cvagent_cli.formats.reading.pdf_header import choose_name
    from cvagent_cli.formats.reading.pdf_layout import Line, Word
    from cvagent_cli.formats.reading.structure import Recognition

    def line(text: str, top: float, size: float, bold: bool, x: float = 60) -> object:
        return as_page_line(Line([Word(text, x, x + 6 * len(text), top, top + size, size, bold)]))

    lines = [
        line("Łukasz Żak", 64, 10, True),
        line("Gdańsk, Poland · lukasz.zak@example.com", 80, 10, False),
        line("LANGUAGE", 109, 12, True),
        line("PROFICIENCY", 123, 12, True),
        line("Polish (native), English (C1)", 143, 10, False),
        line("EXPERIENCE", 160, 12, True, 220),
        *(
            line(f"Tested release {n} of the mobile app.", 180 + 14 * n, 10, False)
            for n in range(12)
        ),
    ]
    chosen = choose_name(lines, 10, Recognition())  # type: ignore[arg-type]
    assert [ln.text() for ln in chosen if ln.role == "title"] == ["Łukasz Żak"]


def test_a_separator_printed_before_an_icon_is_not_a_cell_of_its_own() -> None:
    from cvagent_cli.formats.reading.pdf_layout import Word
    from cvagent_cli.formats.reading.pdf_lines import with_bars

    def cell(*texts: str) -> list[Word]:
        return [Word(t, 10 * i, 10 * i + 8, 0, 8, 8, False) for i, t in enumerate(texts)]

    cells = [cell("139-0000-6402", "|"), cell("a@example.com", "·"), cell("github.com/a")]
    text = " ".join(w.text for w in with_bars(cells))
    assert text == "139-0000-6402 | a@example.com | github.com/a"
    assert " ".join(w.text for w in with_bars([cell("|")])) == "|"  # nothing else: kept


@pytest.mark.parametrize(
    ("prev", "nxt", "sep"),
    [
        ("priyanka.fennimore@exa", "mple.net", ""),
        ("mingxuan62@example.c", "om", ""),
        ("linkedin.com/in/maria-reyes-example", "maria-pm.example.com", " "),
        ("ana@example.com", "and", " "),
    ],
)
def test_a_wrapped_line_glues_an_address_cut_before_its_domain_is_whole(
    prev: str, nxt: str, sep: str
) -> None:
    from cvagent_cli.formats.reading.pdf_join import _joiner, _Words

    words = _Words(frozenset(), frozenset(), False)
    assert _joiner(prev, nxt, words) == (prev, sep)


def test_a_box_round_the_page_is_not_a_ruled_table_and_a_big_name_is_not_a_gutter() -> None:
    """JSON Resume's macchiato theme: a page-size box, a sidebar, a 30 pt name whose word
    space is wider than the body's column gap test.  The box is no table (it would hide the
    gutter); the gutter runs below the name, so the name stays whole."""
    import pdfplumber

    from cvagent_cli.formats.reading.pdf_cells import ruled_tables

    corpus = Path(__file__).parent / "import_corpus" / "jsonresume-macchiato"
    with pdfplumber.open(corpus / "en-01.pdf") as pdf:
        assert any(r["x1"] - r["x0"] > 500 for r in pdf.pages[0].rects)
        assert ruled_tables(pdf.pages[0]) == []
    md = import_bytes((corpus / "en-02.pdf").read_bytes(), "en-02.pdf", ".pdf").markdown
    assert md.startswith("# Lorcan Eberhardt\n")
    assert "lorcan.eberhardt@example.net" in md


@pytest.mark.parametrize(
    ("word", "read"),
    [
        ("AUTOMATiON", "AUTOMATION"),
        ("REDiS", "REDIS"),
        ("GiB", "GiB"),
        ("iOS", "iOS"),
        ("MiNi", "MiNi"),
    ],
)
def test_a_small_caps_i_between_capitals_is_a_capital(word: str, read: str) -> None:
    """Awesome-CV's small caps (Source Sans Pro) give "I" as "i" in the text layer."""
    from cvagent_cli.formats.reading.pdf_layout import _capital_i

    assert _capital_i(word) == read


def test_a_footer_with_this_page_number_is_left_out_on_a_one_page_resume() -> None:
    from cvagent_cli.formats.reading.pdf_layout import Line, Word
    from cvagent_cli.formats.reading.pdf_pages import drop_running_lines
    from cvagent_cli.formats.reading.structure import Recognition

    def line(top: float, *cells: str) -> Line:
        words = [
            Word(c, 60 + 150 * i, 60 + 150 * i + 6 * len(c), top, top + 8, 8, False)
            for i, c in enumerate(cells)
        ]
        return Line(words)

    body = [line(100 + 14 * i, f"Wrote the runbook for service {i}.") for i in range(20)]
    footer = line(800, "November 14, 2026", "Wren Abernathy · Résumé", "1")
    entry = line(780, "Lakeshore College", "2019 – 2021")
    recognition = Recognition()
    (kept,) = drop_running_lines([[*body, entry, footer]], [842.0], recognition)
    assert footer not in kept and entry in kept and len(kept) == 21
    assert any("page number" in n for n in recognition.notes)


def test_an_actual_text_span_gives_a_blank_glyph_its_text() -> None:
    """typst draws 专业 in "专业技能" with a fallback font's blank .notdef glyph, (cid:0)
    in the text layer; the second carries an /ActualText (业), the first nothing.  The
    heading reads as the text layer says ("业技能"), and the blank glyph left at its start
    is no bullet mark."""
    from cvagent_cli.formats.reading.importer import import_file

    corpus = Path(__file__).resolve().parent / "import_corpus"
    lines = import_file(corpus / "rendercv-sb2nov" / "zh-01.pdf").markdown.splitlines()
    assert "## 业技能" in lines
    assert not any(line.startswith("- 业技能") for line in lines)


def test_actual_text_replaces_only_glyphs_with_no_text_of_their_own() -> None:
    from cvagent_cli.formats.reading.pdf_glyphs import with_actual_text

    span = "ActualText\x1f7\x1f业"
    ligature = "ActualText\x1f8\x1ffi"
    chars = [
        {"text": "(cid:0)", "fontname": "NewCM", "tag": "Span"},
        {"text": "(cid:0)", "fontname": "NewCM", "tag": span},
        {"text": "技", "fontname": "UnDotum", "tag": "Span"},
        {"text": "ﬁ", "fontname": "Lato", "tag": ligature},
    ]
    assert [c["text"] for c in with_actual_text(chars)] == ["", "业", "技", "ﬁ"]


def test_a_bullet_glyph_whose_actual_text_is_a_private_code_stays_a_bullet() -> None:
    """Chromium prints a theme's icon-font bullet with a fallback font's blank glyph and an
    /ActualText of its private-use code (U+F0D7) on some pages: still a list marker."""
    from cvagent_cli.formats.reading.importer import import_file

    corpus = Path(__file__).resolve().parent / "import_corpus" / "jsonresume-flat"
    md = import_file(corpus / "en-01.pdf").markdown
    assert "- Automated regression tests for the mobile app" in md
    assert "- Led the migration of 40 services from a monolith to event-driven workers." in md


def _glyphs(text: str, x0: float, top: float, size: float, font: str, base: float) -> list[Glyph]:
    width = 0.55 * size
    return [
        Glyph(
            ch, x0 + i * width, x0 + (i + 1) * width, top, top + size, size, font, False, base=base
        )
        for i, ch in enumerate(text)
    ]


def test_ocr_text_twice_the_size_of_a_row_is_a_row_of_its_own_though_their_middles_meet() -> None:
    # OCR's base is a box's middle: a 27 pt "黄" set over the given name and a 10 pt e-mail
    # at the right margin share a middle by chance
    big = _glyphs("黄", 44, 63.4, 26.7, OCR_FONT, base=79.5)
    email = _glyphs("yutong47@example.com", 451, 74.6, 10.4, OCR_FONT, base=80.8)
    assert sorted(len(r) for r in rows(big + email)) == [1, 20]
    # a text layer's base is the baseline: a big name and small text on it share a row
    big = _glyphs("Ana", 44, 63.4, 26.7, "Arial", base=90.0)
    small = _glyphs("MBA", 120, 82.0, 10.4, "Arial", base=90.0)
    assert [len(r) for r in rows(big + small)] == [6]


def test_a_bar_typed_with_a_chinese_input_method_separates_cells() -> None:
    glyphs = [
        *_glyphs("郑若曦", 224, 65, 25, OCR_FONT, base=80),
        *_glyphs("丨", 300, 65, 25, OCR_FONT, base=80),
        *_glyphs("Java", 330, 65, 25, OCR_FONT, base=80),
    ]
    (line,) = make_lines(glyphs, [], 0)
    assert line.text() == "郑若曦 | Java"
