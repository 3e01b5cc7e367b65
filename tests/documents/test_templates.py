import io
import subprocess
import sys
from pathlib import Path

import pytest

from cvagent_cli.documents.reading.importer import import_bytes
from cvagent_cli.documents.writing.docx_export import render_docx
from cvagent_cli.documents.writing.html_export import export_resume, render_html
from cvagent_cli.documents.writing.pdf_export import render_pdf
from cvagent_cli.errors import UsageError
from tests.documents.test_html_export import SAMPLES
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
    assert compact.styles["Normal"].font.size.pt == 9.5
    assert classic.styles["Normal"].font.size is None
    assert compact.sections[0].left_margin < classic.sections[0].left_margin


def test_compact_html_adds_the_compact_stylesheet() -> None:
    text = LONGEST.read_text(encoding="utf-8")
    assert "font-size: 13px" in render_html(text, template="compact")
    assert "font-size: 13px" not in render_html(text)


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
def test_a_compact_export_imports_back_too(fmt: str) -> None:
    text = LONGEST.read_text(encoding="utf-8")
    data = (render_pdf if fmt == "pdf" else render_docx)(text, "compact")
    assert compare(text, import_bytes(data, "c", f".{fmt}").markdown).ok


@pytest.mark.slow
def test_unknown_template_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown template"):
        export_resume(LONGEST, tmp_path / "r.html", template="fancy")
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
