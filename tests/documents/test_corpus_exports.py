"""Issue 22 item 4: export never refuses a resume cvagent imported.  Every document of the
import corpus (made by LaTeX, typst, rendercv, LibreOffice, Word habits and browsers) is
imported, then exported to PDF, DOCX and HTML in the default template; the PDF keeps its
section titles as text a machine can read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("typst")
pytest.importorskip("docx")
pytest.importorskip("pdfplumber")

from cvagent_cli.documents.html_export import export_markdown
from cvagent_cli.documents.importer import import_file

CORPUS = Path(__file__).resolve().parent / "import_corpus"
FILES = [
    entry["file"] for entry in json.loads((CORPUS / "manifest.json").read_text("utf-8"))["files"]
]

pytestmark = pytest.mark.slow


def test_the_corpus_is_here() -> None:
    assert len(FILES) >= 100


@pytest.mark.parametrize("name", FILES)
def test_an_imported_document_exports_to_every_format(name: str, tmp_path: Path) -> None:
    import pdfplumber

    imported = import_file(CORPUS / name)
    warnings: list[str] = []
    for suffix in (".pdf", ".docx", ".html"):
        target = export_markdown(imported.markdown, tmp_path / f"out{suffix}", warn=warnings.append)
        assert target.stat().st_size > 500
    with pdfplumber.open(tmp_path / "out.pdf") as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
    squashed = "".join(text.split())
    for section in imported.sections:
        assert "".join(section.split())[:12] in squashed, (section, warnings)
