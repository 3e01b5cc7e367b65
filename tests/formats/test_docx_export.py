"""The DOCX is built from the PDF's template: its paper, margins, fonts and styles, real Word
styles a recruiter can edit (Title, Heading 1/2, List Bullet at its levels), Chinese set
with its own language and font, links kept as links, and the PDF's page count."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.writing.docx_export import render_docx
from cvagent_cli.formats.writing.docx_template import CJK_FONT
from cvagent_cli.formats.writing.options import WriteOptions
from cvagent_cli.formats.writing.templates import TEMPLATES, get_template

docx = pytest.importorskip("docx")

SAMPLES = Path(__file__).resolve().parents[2] / "sample_resumes"
NESTED = """# Ana Ruiz

ana@example.com | github.com/ana-ruiz-example

## Experience

### Engineer — Acme, Seattle, WA
Mar 2020 – Present

- Led the billing rewrite
  - Cut failed payments by 30%
    - Retried cards with backoff
- Mentored two engineers
"""


def _document(markdown: str, template: str = "classic", **options: str) -> docx.Document:
    return docx.Document(
        io.BytesIO(render_docx(markdown, template, options=WriteOptions(**options)))
    )


def _styles(document: docx.Document) -> dict[str, str]:
    return {p.text: p.style.name for p in document.paragraphs}


def test_the_name_sections_entries_and_nested_bullets_have_word_styles() -> None:
    styles = _styles(_document(NESTED))
    assert styles["Ana Ruiz"] == "Title"
    assert styles["Experience"] == "Heading 1"
    assert styles["Engineer — Acme, Seattle, WA\tMar 2020 – Present"] == "Heading 2"
    assert styles["Led the billing rewrite"] == "List Bullet"
    assert styles["Cut failed payments by 30%"] == "List Bullet 2"
    assert styles["Retried cards with backoff"] == "List Bullet 3"


def test_nested_bullets_are_levels_of_one_list_and_import_back_nested() -> None:
    """List Bullet 2 is level 1 of List Bullet's list (python-docx's template gives each
    its own one-level list, and the DOCX came back flat)."""
    document = _document(NESTED)
    num = {}
    for name in ("List Bullet", "List Bullet 2", "List Bullet 3"):
        pr = document.styles[name].element.pPr.numPr
        num[name] = (pr.numId.val, pr.ilvl.val)
    assert num["List Bullet 2"] == (num["List Bullet"][0], 1)
    assert num["List Bullet 3"] == (num["List Bullet"][0], 2)
    markdown = import_bytes(render_docx(NESTED), "nested", ".docx").markdown
    assert "- Led the billing rewrite\n  - Cut failed payments by 30%\n" in markdown
    assert "\n    - Retried cards with backoff\n" in markdown


@pytest.mark.parametrize(
    ("paper", "size_cm"), [("a4", (21.0, 29.7)), ("letter", (21.59, 27.94)), (None, (21.0, 29.7))]
)
def test_the_paper_is_the_one_asked_for(paper: str | None, size_cm: tuple[float, float]) -> None:
    section = _document(NESTED, paper=paper).sections[0]  # type: ignore[arg-type]
    assert (round(section.page_width.cm, 2), round(section.page_height.cm, 2)) == size_cm


@pytest.mark.parametrize("template", TEMPLATES)
def test_margins_fonts_and_sizes_are_the_pdf_templates(template: str) -> None:
    pdf = get_template(template).pdf
    margin = {k: float(v) for k, v in re.findall(r"(\w+):\s*([\d.]+)cm", pdf.margin)}
    document = _document(NESTED, template)
    section = document.sections[0]
    assert round(section.left_margin.cm, 2) == round(section.right_margin.cm, 2) == margin["x"]
    assert round(section.top_margin.cm, 2) == round(section.bottom_margin.cm, 2) == margin["y"]
    styles = document.styles
    assert styles["Normal"].font.size.pt == float(pdf.size.removesuffix("pt"))
    assert styles["Title"].font.size.pt == float(pdf.name_size.removesuffix("pt"))
    assert styles["Heading 1"].font.size.pt == float(pdf.section_size.removesuffix("pt"))
    assert styles["Normal"].font.name == "Noto Sans"  # the PDF's body font
    # the full section rule is a bottom border of the heading style
    rule = styles["Heading 1"].element.pPr.find(f"{{{_W}}}pBdr/{{{_W}}}bottom")
    assert (rule is not None) is (pdf.rule == "full")


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def test_the_modern_header_is_centred_and_classic_is_not() -> None:
    from docx.enum.text import WD_ALIGN_PARAGRAPH

    assert _document(NESTED, "modern").styles["Title"].paragraph_format.alignment == (
        WD_ALIGN_PARAGRAPH.CENTER
    )
    assert _document(NESTED, "modern").styles["Contact"].paragraph_format.alignment == (
        WD_ALIGN_PARAGRAPH.CENTER
    )
    assert _document(NESTED).styles["Title"].paragraph_format.alignment is None


def test_entry_rows_put_their_dates_at_a_right_tab_stop_at_the_margin() -> None:
    from docx.enum.text import WD_TAB_ALIGNMENT

    document = _document(NESTED)
    section = document.sections[0]
    width = section.page_width - section.left_margin - section.right_margin
    stops = list(document.styles["Heading 2"].paragraph_format.tab_stops)
    twip = 635  # EMU: Word stores a tab stop in twips
    assert [(s.alignment, abs(s.position - width) <= twip) for s in stops] == [
        (WD_TAB_ALIGNMENT.RIGHT, True)
    ]


def test_a_partial_rule_is_a_line_after_the_section_title_and_a_full_one_under_it() -> None:
    """modern draws its rule after the title, on its line, as its PDF does (a struck-through
    tab to the margin); classic a bottom border."""
    for template, border in (("classic", True), ("modern", False)):
        document = _document(NESTED, template)
        heading = document.styles["Heading 1"].element.pPr
        assert (heading.find(f"{{{_W}}}pBdr/{{{_W}}}bottom") is not None) is border
        title = next(p for p in document.paragraphs if p.style.name == "Heading 1")
        assert title.text.strip() == "Experience"
        assert [r.text for r in title.runs if r.font.strike] == ([] if border else ["\t"])


def _xml(data: bytes, name: str) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(name).decode("utf-8")


def test_a_chinese_resume_names_its_language_and_an_east_asian_font() -> None:
    data = render_docx((SAMPLES / "zh_new_grad.md").read_text(encoding="utf-8"))
    styles = _xml(data, "word/styles.xml")
    defaults = styles[styles.index("<w:docDefaults>") : styles.index("</w:docDefaults>")]
    assert f'w:eastAsia="{CJK_FONT}"' in defaults
    assert 'w:val="zh-CN" w:eastAsia="zh-CN"' in defaults
    assert "eastAsiaTheme" not in defaults  # the theme's font would win over the named one
    assert "ja-JP" not in styles + _xml(data, "word/settings.xml")
    assert f'w:name="{CJK_FONT}"' in _xml(data, "word/fontTable.xml")


def test_links_stay_links_and_do_not_break_at_their_hyphens() -> None:
    data = render_docx(NESTED)
    document = docx.Document(io.BytesIO(data))
    targets = {
        r.target_ref for r in document.part.rels.values() if r.reltype.endswith("/hyperlink")
    }
    assert {"mailto:ana@example.com", "https://github.com/ana-ruiz-example"} <= targets
    body = _xml(data, "word/document.xml")
    assert "<w:noBreakHyphen/>" in body and ">github.com/ana<" in body
    contact = [p.text for p in document.paragraphs if "@" in p.text]
    assert contact == ["ana@example.com | github.com/ana-ruiz-example"]
    # in a Chinese resume too, an address breaks by Latin rules (not at its dots)
    link = docx.Document(io.BytesIO(render_docx("# 王晓雨\n\n邮箱: wx@example.com\n")))
    lang = link.styles["Hyperlink"].element.rPr.find(f"{{{_W}}}lang")
    assert lang is not None and lang.get(f"{{{_W}}}val") == "en-US"


def test_the_contact_line_wraps_between_items_never_after_a_bar() -> None:
    """As in the PDF: a new line before the item that would not fit, so no line ends
    with "|" and no label ("Blog:") is left at a line's end without its address (each line
    a paragraph: the header's lines are closer than the body's, the wrapped ones not)."""
    markdown = (
        "# Ana Ruiz\n\nEmail: ana.ruiz.longname@example.com | Phone: +1 555-010-2000 | "
        "Blog: ana-ruiz-writes-about-distributed-systems.example.com | "
        "linkedin.com/in/ana-ruiz-example\n\n## Skills\n\n- Go\n"
    )
    lines = [p.text for p in _document(markdown).paragraphs if p.style.name == "Contact"]
    assert len(lines) > 1, lines
    assert all(not line.startswith("|") and not line.endswith("|") for line in lines)
    assert lines[1].startswith("Blog: ana-ruiz-writes")


def _soffice_pdf(data: bytes, folder: Path) -> bytes:
    source = folder / "resume.docx"
    source.write_bytes(data)
    profile = (folder / "profile").as_uri()
    subprocess.run(
        ["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf"]
        + ["--outdir", str(folder), str(source)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return (folder / "resume.pdf").read_bytes()


def _soffice_pages(data: bytes, folder: Path) -> int:
    _soffice_pdf(data, folder)
    info = subprocess.run(
        ["pdfinfo", str(folder / "resume.pdf")], check=True, capture_output=True, text=True
    ).stdout
    found = re.search(r"Pages:\s+(\d+)", info)
    assert found
    return int(found.group(1))


def _header_baselines(data: bytes, section_size: float) -> list[float]:
    """The baselines of page 1's lines from the name down to the first section title."""
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        found = []
        for line in page.extract_text_lines():
            found.append(float(page.height - line["chars"][0]["matrix"][5]))
            if abs(line["chars"][0]["size"] - section_size) < 0.1:
                return found
    raise AssertionError("no section title on page 1")


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("soffice") or not shutil.which("pdfinfo"), reason="soffice")
@pytest.mark.parametrize(
    ("sample", "template"),
    [
        ("en_senior_backend", "classic"),
        ("en_new_grad", "modern"),
        ("zh_new_grad", "classic"),
        # pages the PDF fills to the bottom: at the PDF's tightened spacing, and a full one
        ("en_senior_backend", "compact"),
        ("zh_senior_frontend", "classic"),
        # a page the PDF fills to 91%: the header's lines as the PDF sets them
        ("zh_senior_frontend", "modern"),
    ],
)
def test_libreoffice_draws_the_docx_on_as_many_pages_as_the_pdf(
    sample: str, template: str, tmp_path: Path
) -> None:
    from cvagent_cli.formats.writing.pdf_export import export_pdf

    markdown = (SAMPLES / f"{sample}.md").read_text(encoding="utf-8")
    pdf_pages = export_pdf(markdown, template).pages
    assert _soffice_pages(render_docx(markdown, template), tmp_path) == pdf_pages


def test_a_docx_after_the_pdf_of_the_same_resume_does_not_typeset_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``/export`` of the PDF then the DOCX (or the DOCX twice) typesets once: the DOCX
    takes the spacing the PDF settled on, and a changed resume or template is set anew."""
    from cvagent_cli.formats.writing import docx_export, pdf_export
    from cvagent_cli.formats.writing.html_export import render_document

    monkeypatch.setattr(docx_export, "_SETTLED", docx_export._Settled())
    calls: list[str] = []
    real = pdf_export.export_pdf

    def counted(markdown: str, template: str = "classic", **kwargs: object) -> object:
        calls.append(template)
        return real(markdown, template, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf_export, "export_pdf", counted)
    markdown = (SAMPLES / "zh_senior_frontend.md").read_text(encoding="utf-8")
    render_document(markdown, ".pdf", template="modern")
    after_pdf = render_document(markdown, ".docx", template="modern")
    render_document(markdown, ".docx", template="modern")
    assert calls == ["modern"]
    render_document(markdown, ".docx", template="compact")
    render_document(markdown + "\n- one more\n", ".docx", template="modern")
    assert calls == ["modern", "compact", "modern"]
    monkeypatch.setattr(docx_export, "_SETTLED", docx_export._Settled())
    alone = render_document(markdown, ".docx", template="modern")
    assert _xml(after_pdf, "word/styles.xml") == _xml(alone, "word/styles.xml")


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("soffice"), reason="soffice")
@pytest.mark.parametrize(
    ("sample", "template"),
    [
        ("zh_senior_frontend", "modern"),
        ("zh_new_grad", "classic"),
        ("en_senior_backend", "classic"),
    ],
)
def test_libreoffice_sets_the_header_lines_where_the_pdf_does(
    sample: str, template: str, tmp_path: Path
) -> None:
    """The lines under the name and the first section title lie within 3 pt of the PDF's
    (the body's line pitch over the headline and contact lines made a Chinese header 10 pt
    taller, and a full page spilled a line onto a second)."""
    from cvagent_cli.formats.writing.pdf_export import render_pdf

    markdown = (SAMPLES / f"{sample}.md").read_text(encoding="utf-8")
    section = float(get_template(template).pdf.section_size.removesuffix("pt"))
    pdf = _header_baselines(render_pdf(markdown, template), section)
    drawn = _header_baselines(_soffice_pdf(render_docx(markdown, template), tmp_path), section)
    assert len(drawn) == len(pdf)
    assert max(abs(a - b) for a, b in zip(pdf[1:], drawn[1:], strict=True)) < 3, (pdf, drawn)


def test_the_widths_the_docx_measures_lines_with_are_the_pdf_fonts() -> None:
    """``ASCII_EMS`` is what rendercv-fonts' Noto Sans says (a font update would move the
    DOCX's contact and row breaks away from the PDF's)."""
    from fontTools.ttLib import TTFont

    from cvagent_cli.formats.writing.docx_template import ASCII_EMS
    from cvagent_cli.formats.writing.pdf_export import font_dir

    for bold, name in ((False, "NotoSans-Regular.ttf"), (True, "NotoSans-Bold.ttf")):
        font = TTFont(str(font_dir() / name), lazy=True)
        cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
        upm = font["head"].unitsPerEm
        widths = [round(metrics[cmap[code]][0] / upm, 3) for code in range(32, 127)]
        assert [float(w) for w in ASCII_EMS[bold].split()] == widths


def test_the_contact_line_breaks_where_the_pdf_breaks_it() -> None:
    """Measured with the PDF's widths (the separator 0.45 em either side of its bar): this
    line fits the PDF's A4 line whole, and an estimate of 0.55 em a letter wrapped it."""
    markdown = (SAMPLES / "en_mid_data_analyst.md").read_text(encoding="utf-8")
    contact = [p.text for p in _document(markdown).paragraphs if "@" in p.text]
    assert len(contact) == 1 and "linkedin.com" in contact[0]


def test_a_table_is_set_between_rules_with_no_grid_and_pairs_at_the_pdfs_row_pitch() -> None:
    document = _document((SAMPLES / "en_product_manager_table.md").read_text(encoding="utf-8"))
    table = document.tables[0]
    assert table.style.name != "Table Grid"
    borders = table._tbl.tblPr.find(f"{{{_W}}}tblBorders")
    assert [b.tag.rsplit("}", 1)[1] for b in borders] == ["top", "bottom"]
    first, second = (table.columns[i].width for i in (0, 1))
    assert first < second / 3  # "Area" beside "Tools & Methods", not half and half
    pairs = _document((SAMPLES / "zh_mid_java_table.md").read_text(encoding="utf-8"))
    cell = pairs.tables[0].cell(0, 0).paragraphs[0].paragraph_format
    body = pairs.styles["Normal"].paragraph_format.line_spacing
    assert cell.line_spacing < body and cell.space_after == 0


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("sample", ["en_senior_backend", "zh_senior_frontend"])
def test_inline_dates_follow_the_title_in_its_paragraph_with_no_tab(
    sample: str, template: str
) -> None:
    """``--dates inline``: each dated entry's row is "title · dates" in one paragraph, no tab
    stop used, as the PDF and the HTML set it; right-aligned (the default) uses the tab."""
    import docx

    markdown = (SAMPLES / f"{sample}.md").read_text(encoding="utf-8")
    inline = render_docx(markdown, template, options=WriteOptions(dates="inline"))
    rows = [p for p in docx.Document(io.BytesIO(inline)).paragraphs if p.style.name == "Heading 2"]
    dated = [p.text for p in rows if " · " in p.text]
    assert dated and all("\t" not in p.text for p in rows)
    assert all(re.search(r" · .*\d{4}", text) for text in dated)
    right = render_docx(markdown, template)
    tabbed = [
        p.text
        for p in docx.Document(io.BytesIO(right)).paragraphs
        if p.style.name == "Heading 2" and "\t" in p.text
    ]
    assert len(tabbed) >= len(dated)


def test_the_spacing_a_pdf_settled_on_is_kept_apart_for_each_place_of_the_dates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The DOCX takes the spacing of the PDF with the same dates setting: a PDF set with
    inline dates says nothing about the right-aligned one."""
    from cvagent_cli.formats.writing import docx_export, pdf_export
    from cvagent_cli.formats.writing.html_export import render_document

    monkeypatch.setattr(docx_export, "_SETTLED", docx_export._Settled())
    calls: list[str] = []
    real = pdf_export.export_pdf

    def counted(markdown: str, template: str = "classic", **kwargs: object) -> object:
        calls.append(kwargs["options"].dates)  # type: ignore[attr-defined]
        return real(markdown, template, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf_export, "export_pdf", counted)
    markdown = (SAMPLES / "en_new_grad.md").read_text(encoding="utf-8")
    inline = WriteOptions(dates="inline")
    render_document(markdown, ".pdf", options=inline)
    render_document(markdown, ".docx", options=inline)
    assert calls == ["inline"]
    render_document(markdown, ".docx")
    assert calls == ["inline", "right"]
