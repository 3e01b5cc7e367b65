import io
import subprocess
import sys
from pathlib import Path

import pytest

from cvagent_cli.errors import UsageError
from cvagent_cli.formats.exporter import export_file
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.writing.docx_export import render_docx
from cvagent_cli.formats.writing.html_export import render_html
from cvagent_cli.formats.writing.pdf_export import render_pdf
from tests.formats.test_html_export import SAMPLES
from tests.support.roundtrip import compare

LONGEST = max(SAMPLES, key=lambda p: len(p.read_text(encoding="utf-8")))


def _pdf_pages_and_body_size(data: bytes) -> tuple[int, float]:
    import statistics

    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        sizes = [round(c["size"], 1) for page in pdf.pages for c in page.chars]
        return len(pdf.pages), statistics.mode(sizes)


def test_compact_pdf_has_no_more_pages_and_a_smaller_font() -> None:
    text = LONGEST.read_text(encoding="utf-8")
    classic_pages, classic_size = _pdf_pages_and_body_size(render_pdf(text))
    compact_pages, compact_size = _pdf_pages_and_body_size(render_pdf(text, "compact"))
    assert classic_pages >= 2  # the longest sample is a two-page resume
    assert compact_pages <= classic_pages
    assert compact_size < classic_size


def test_compact_docx_sets_smaller_text_and_margins() -> None:
    import docx

    text = LONGEST.read_text(encoding="utf-8")
    classic = docx.Document(io.BytesIO(render_docx(text)))
    compact = docx.Document(io.BytesIO(render_docx(text, "compact")))
    assert compact.styles["Normal"].font.size.pt == 9  # the compact PDF's 9pt
    assert classic.styles["Normal"].font.size.pt == 10
    assert compact.sections[0].left_margin < classic.sections[0].left_margin


def test_compact_html_takes_the_compact_sizes_and_margins() -> None:
    text = LONGEST.read_text(encoding="utf-8")
    assert "--size: 9pt;" in render_html(text, template="compact")
    assert "margin: 1.0cm 1.2cm;" in render_html(text, template="compact")
    assert "--size: 10pt;" in render_html(text)


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
def test_a_compact_export_imports_back_too(fmt: str) -> None:
    text = LONGEST.read_text(encoding="utf-8")
    data = (render_pdf if fmt == "pdf" else render_docx)(text, "compact")
    assert compare(text, import_bytes(data, "c", f".{fmt}", from_layout=True).markdown).ok


@pytest.mark.slow
def test_unknown_template_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown template"):
        export_file(LONGEST, tmp_path / "r.html", template="fancy")
    assert not (tmp_path / "r.html").exists()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cvagent_cli",
            "export",
            str(LONGEST),
            "-o",
            str(tmp_path / "r.pdf"),
            "--template",
            "fancy",
        ],
        capture_output=True,
    )
    assert done.returncode == 2
    assert not (tmp_path / "r.pdf").exists()


# -- a template is one module the registry finds ----------------------------------------
def test_the_shipped_templates_are_the_modules_of_the_templates_folder() -> None:
    from cvagent_cli.formats.writing import templates

    folder = Path(templates.__file__).parent
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert templates.TEMPLATES[0] == "classic"  # the default first
    assert sorted(templates.TEMPLATES) == modules


def test_a_template_added_as_one_module_is_used_by_every_writer(tmp_path, monkeypatch) -> None:
    """A new look is one file: its module defines ``TEMPLATE`` (PDF, DOCX and HTML settings
    together); nothing else names it."""
    import docx

    from cvagent_cli.formats.writing import templates
    from cvagent_cli.formats.writing.layout import read_layout
    from cvagent_cli.formats.writing.pdf_export import to_typst

    package = tmp_path / "more_templates"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "slate.py").write_text(
        "from cvagent_cli.formats.writing.templates import (\n"
        "    HtmlStyle, PdfStyle, Template,\n)\n\n"
        'TEMPLATE = Template(\n    "slate",\n    "grey headings",\n'
        '    pdf=PdfStyle(accent="luma(40)"),\n'
        '    html=HtmlStyle(css="h2 { color: slategray; }"),\n)\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    found = templates.find_templates([str(package)], "more_templates")
    assert list(found) == ["slate"]
    monkeypatch.setattr(templates, "REGISTRY", {**templates.REGISTRY, **found})
    markdown = "# Ana Ruiz\n\n## Skills\n\n- Go, SQL\n"
    assert "h2 { color: slategray; }" in render_html(markdown, template="slate")
    assert "luma(40)" in to_typst(read_layout(markdown), "slate")
    document = docx.Document(io.BytesIO(render_docx(markdown, "slate")))
    assert str(document.styles["Heading 1"].font.color.rgb) == "282828"  # luma(40)
    with pytest.raises(UsageError):
        render_html(markdown, template="no-such-look")
