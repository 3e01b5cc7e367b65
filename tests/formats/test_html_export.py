import re
import shutil
from pathlib import Path

import pytest

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.formats.exporter import export_file
from cvagent_cli.formats.writing.html_export import render_html
from cvagent_cli.formats.writing.options import WriteOptions
from cvagent_cli.formats.writing.templates import TEMPLATES

SAMPLES = sorted(
    p
    for p in Path("sample_resumes").glob("*.md")
    if not p.name.lower().startswith(("jd_", "readme"))
)


def _section_titles(sample: Path) -> list[str]:
    """The level-2 section titles the document model finds in the sample."""
    doc = ResumeDocument.from_path(sample)
    return [s.title for s in doc.sections if s.heading_line and s.level == 2]


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_export_html_keeps_every_heading_of_the_sample(
    sample: Path, template: str, tmp_path: Path
) -> None:
    """Every section title the document model finds ("## Skills", "**Skills**", a setext
    heading) is an ``<h2>`` of the page, in order, in every template (each is written
    from the layout, as the PDF is)."""
    out = export_file(sample, tmp_path / "r.html", template=template).target
    page = out.read_text(encoding="utf-8")
    doc = ResumeDocument.from_path(sample)
    titles = [s.title for s in doc.sections if s.heading_line and s.level == 2]
    assert titles
    headings = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h2>(.*?)</h2>", page)]
    assert headings == titles
    text = re.sub(r"<[^>]+>", "", page.split("<body>", 1)[1])
    position = 0
    for title in titles:
        position = text.find(title, position)
        assert position >= 0, f"missing or out of order: {title}"


def test_export_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    target.write_text("keep", encoding="utf-8")
    with pytest.raises(InputError):
        export_file(SAMPLES[0], target)
    assert target.read_text(encoding="utf-8") == "keep"


def test_export_rejects_unknown_extension_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        export_file(SAMPLES[0], tmp_path / "r.xyz")
    assert not (tmp_path / "r.xyz").exists()


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_export_docx_uses_word_heading_and_bullet_styles(sample: Path, tmp_path: Path) -> None:
    import docx

    out = export_file(sample, tmp_path / "r.docx").target
    paragraphs = docx.Document(str(out)).paragraphs
    headings = [p.text for p in paragraphs if p.style.name == "Heading 1"]
    # setext headings ("Skills" over "------") and bold-line sections ("**Skills**") are
    # level-2 headings too: the sections the document model finds
    expected = _section_titles(sample)
    assert expected and headings == expected
    assert any(p.style.name == "List Bullet" for p in paragraphs)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_export_pdf_text_layer_contains_every_section_title(sample: Path, tmp_path: Path) -> None:
    import pdfplumber

    out = export_file(sample, tmp_path / "r.pdf").target
    with pdfplumber.open(str(out)) as pdf:
        text = "".join((page.extract_text() or "") for page in pdf.pages)
    squashed = text.replace(" ", "").replace("\n", "")
    titles = _section_titles(sample)
    assert titles, "each sample has sections"
    for title in titles:
        assert title.replace(" ", "") in squashed


def test_export_pdf_leaves_out_a_glyph_no_font_covers_with_a_warning(tmp_path: Path) -> None:
    import pdfplumber

    source = tmp_path / "r.md"
    source.write_text("# Ana Exemplo\n\n## Skills\n\n- Cuneiform 𒀀 tablets\n", encoding="utf-8")
    exported = export_file(source, tmp_path / "r.pdf")
    out, warnings = exported.target, exported.warnings
    assert len(warnings) == 1 and "U+12000 CUNEIFORM SIGN A" in warnings[0]
    with pdfplumber.open(str(out)) as pdf:
        text = pdf.pages[0].extract_text()
    assert "Cuneiform" in text and "tablets" in text and "𒀀" not in text


def test_export_pdf_strict_refuses_a_glyph_no_font_covers(tmp_path: Path) -> None:
    source = tmp_path / "r.md"
    source.write_text("# Ana Exemplo\n\n## Skills\n\n- Cuneiform 𒀀\n", encoding="utf-8")
    with pytest.raises(InputError, match="U\\+12000"):
        export_file(source, tmp_path / "r.pdf", strict=True)
    assert not (tmp_path / "r.pdf").exists()


def test_export_pdf_drops_icons_silently_and_draws_emoji(tmp_path: Path) -> None:
    import pdfplumber

    source = tmp_path / "r.md"
    source.write_text(
        "# Ana Exemplo\n\n\uf0e0 ana@example.com | \uf095 +1 555-010-2000 | 🚀 launches\n\n"
        "## Skills\n\n- Go\n",
        encoding="utf-8",
    )
    exported = export_file(source, tmp_path / "r.pdf")
    out, warnings = exported.target, exported.warnings
    assert warnings == []  # the icons go without a word; the emoji font draws the rocket
    with pdfplumber.open(str(out)) as pdf:
        text = pdf.pages[0].extract_text()
    assert "ana@example.com" in text and "\uf0e0" not in text and "🚀" in text


# -- links, entry rows, addresses and print (issue 31) ------------------------------------
LINKED = """# Ana Exemplo

ana.exemplo@example.com | +1 206-555-0142 | linkedin.com/in/ana-exemplo-example | [Portfolio](https://ana-exemplo.example.dev/work)

## Experience

### Staff Engineer — Northwind Payments, Seattle, WA
Mar 2019 – Present

- Led the ledger rewrite ([design notes](https://notes.example.com/ledger-rewrite))
- Cut p99 latency from 900 ms to 300 ms
"""


def _text(fragment: str) -> str:
    return re.sub(r"<[^>]+>", "", fragment).replace("&nbsp;", " ")


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_links_the_contact_line_and_the_markdown_links(template: str) -> None:
    page = render_html(LINKED, template=template)
    links = {href: _text(text) for href, text in re.findall(r'<a href="([^"]+)">(.*?)</a>', page)}
    assert links["mailto:ana.exemplo@example.com"] == "ana.exemplo@example.com"
    assert (
        links["https://linkedin.com/in/ana-exemplo-example"]
        == "linkedin.com/in/ana-exemplo-example"
    )
    assert links["https://ana-exemplo.example.dev/work"] == "Portfolio"
    assert links["https://notes.example.com/ledger-rewrite"] == "design notes"
    assert any(href.startswith("tel:+1206555") for href in links)


@pytest.mark.parametrize("template", TEMPLATES)
def test_an_entrys_dates_sit_on_its_title_row_not_in_a_paragraph(template: str) -> None:
    """As in the PDF: one row, the title left and the dates right (in modern with the
    place the title ends with)."""
    page = render_html(LINKED, template=template)
    rows = re.findall(r'<div class="entry"><h3>(.*?)</h3><p class="where">(.*?)</p></div>', page)
    assert len(rows) == 1
    title, right = (_text(x) for x in rows[0])
    if template == "modern":
        assert (title, right) == (
            "Staff Engineer — Northwind Payments",
            "Seattle, WA · Mar 2019 – Present",
        )
    else:
        assert (title, right) == (
            "Staff Engineer — Northwind Payments, Seattle, WA",
            "Mar 2019 – Present",
        )
    assert "<p>Mar 2019" not in page
    assert ".entry { display: flex;" in page


def test_web_addresses_break_only_after_a_slash_and_emails_never() -> None:
    page = render_html(LINKED)
    link = re.search(r'<a href="https://linkedin.com/[^"]+">(.*?)</a>', page)
    assert link is not None
    pieces = link.group(1).split("<wbr>")
    assert [_text(p) for p in pieces] == ["linkedin.com/", "in/", "ana-exemplo-example"]
    assert all(p.startswith('<span class="nobr">') for p in pieces)  # no break at a hyphen
    assert '<span class="nobr">ana.exemplo@example.com</span>' in page
    assert ".nobr { white-space: nowrap; }" in page


# unset: the resume's own country's paper, as for the PDF (a +1 phone: Letter)
@pytest.mark.parametrize(("paper", "size"), [(None, "letter"), ("a4", "A4"), ("letter", "letter")])
@pytest.mark.parametrize("template", TEMPLATES)
def test_print_css_sets_the_paper_and_the_templates_margins(
    template: str, paper: str | None, size: str
) -> None:
    from cvagent_cli.formats.writing.templates import get_template

    page = render_html(LINKED, template=template, options=WriteOptions(paper=paper))
    margin = dict(re.findall(r"([xy]): ([\d.]+)cm", get_template(template).pdf.margin))
    assert (
        f"@page {{ size: {size}; margin: {float(margin['y'])}cm {float(margin['x'])}cm; }}" in page
    )
    css = page.split("<style>", 1)[1].split("</style>", 1)[0]
    assert re.search(r"h2, h3, h4, h5, h6, \.entry \{ break-after: avoid;", css)
    assert re.search(r"\.entry, li, tr \{ break-inside: avoid;", css)


def _print_pages(html_file: Path) -> int:
    import subprocess

    pdf = html_file.with_suffix(".pdf")
    subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            str(html_file),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    found = re.search(r"Pages:\s+(\d+)", info.stdout)
    assert found, info.stdout
    return int(found.group(1))


@pytest.mark.slow
@pytest.mark.skipif(
    not (shutil.which("chromium") and shutil.which("pdfinfo")), reason="needs chromium and pdfinfo"
)
@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(
    "name", ["en_senior_backend.md", "zh_new_grad.md", "en_mid_data_analyst.md"]
)
def test_a_page_prints_on_as_many_pages_as_the_pdf(
    template: str, name: str, tmp_path: Path
) -> None:
    """Chromium's print of the HTML (the template's paper, margins and sizes) takes the
    pages the PDF export takes: a one-page resume prints on one page."""
    from cvagent_cli.formats.writing.pdf_export import export_pdf

    text = (Path("sample_resumes") / name).read_text(encoding="utf-8")
    page = tmp_path / "r.html"
    page.write_text(render_html(text, template=template), encoding="utf-8")
    assert _print_pages(page) == export_pdf(text, template).pages


@pytest.mark.parametrize("template", ["classic", "modern"])
def test_inline_dates_follow_the_title_in_the_same_heading(template: str) -> None:
    """``WriteOptions(dates="inline")``: an entry's dates come right after its title (the
    place included, as written) in the same heading, not in a right-aligned paragraph."""
    markdown = (
        "# Pat Example\n\n## Experience\n\n**Engineer** — Acme, Austin, TX\nMar 2019 – Present\n"
    )
    inline = render_html(markdown, template=template, options=WriteOptions(dates="inline"))
    heading = inline[inline.index("<h3>") : inline.index("</h3>")]
    assert re.sub("<[^>]+>", "", heading) == "Engineer — Acme, Austin, TX · Mar 2019 – Present"
    assert heading.endswith(
        '<span class="when"> · <span class="nobr">Mar 2019 – Present</span></span>'
    )
    assert 'class="where"' not in inline
    assert 'class="where"' in render_html(markdown, template=template)
