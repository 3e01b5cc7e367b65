import re
from pathlib import Path

import pytest

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.formats.exporter import export_file

SAMPLES = sorted(
    p
    for p in Path("sample_resumes").glob("*.md")
    if not p.name.lower().startswith(("jd_", "readme"))
)


def _section_titles(sample: Path) -> list[str]:
    """The level-2 section titles the document model finds in the sample."""
    doc = ResumeDocument.from_path(sample)
    return [s.title for s in doc.sections if s.heading_line and s.level == 2]


@pytest.mark.parametrize("template", ["classic", "modern"])
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_export_html_keeps_every_heading_of_the_sample(
    sample: Path, template: str, tmp_path: Path
) -> None:
    """Every section title the document model finds ("## Skills", "**Skills**", a setext
    heading) is on the page, in order; in the modern template (written from the layout,
    as the PDF is) each is an ``<h2>``.  Classic is markdown-it's page of the Markdown, where
    a bold line stays a bold paragraph."""
    out = export_file(sample, tmp_path / "r.html", template=template).target
    page = out.read_text(encoding="utf-8")
    doc = ResumeDocument.from_path(sample)
    titles = [s.title for s in doc.sections if s.heading_line and s.level == 2]
    assert titles
    if template == "modern":
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
