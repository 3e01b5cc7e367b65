"""Export never refuses a resume cvagent imported, and it comes back the same.  Every
document of the import corpus (made by LaTeX, typst, rendercv, LibreOffice, Word habits
and browsers) is imported, exported to HTML, and to PDF and DOCX in every template, and
each PDF and DOCX imported again gives the same sections and bullets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("typst")
pytest.importorskip("docx")
pytest.importorskip("pdfplumber")

from cvagent_cli.formats.reading.importer import import_file
from cvagent_cli.formats.writing.html_export import export_markdown

CORPUS = Path(__file__).resolve().parent / "import_corpus"
FILES = [
    entry["file"] for entry in json.loads((CORPUS / "manifest.json").read_text("utf-8"))["files"]
]

pytestmark = pytest.mark.slow


def test_the_corpus_is_here() -> None:
    assert len(FILES) >= 100


#: Held-out, so not tuned on: its first import reads the two columns' first section titles
#: as one row ("ACADEMIC | SUMMARY", a plain line); the DOCX of that Markdown is re-imported
#: with the line in capitals as a section, so the round trip does not repeat the first import.
#: It still exports to every format; only the round trip's equality fails.
MISREAD = {"latex-deedy/en-02.pdf"}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="first import misreads"))
        if n in MISREAD
        else n
        for n in FILES
    ],
)
def test_an_imported_document_exports_and_round_trips_in_every_template(
    name: str, tmp_path: Path
) -> None:
    import pdfplumber

    imported = import_file(CORPUS / name)
    warnings: list[str] = []
    html = export_markdown(imported.markdown, tmp_path / "out.html", warn=warnings.append)
    assert html.stat().st_size > 500
    for template in ("classic", "compact", "modern"):
        for suffix in (".pdf", ".docx"):
            target = export_markdown(
                imported.markdown,
                tmp_path / f"{template}{suffix}",
                template=template,
                warn=warnings.append,
            )
            back = import_file(target, from_layout=True)
            assert (back.sections, back.bullets) == (imported.sections, imported.bullets), (
                template,
                suffix,
            )
    with pdfplumber.open(tmp_path / "classic.pdf") as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
    squashed = "".join(text.split())
    for section in imported.sections:
        assert "".join(section.split())[:12] in squashed, (section, warnings)


def test_pdfminer_warnings_never_reach_the_terminal(caplog: pytest.LogCaptureFixture) -> None:
    """A Chinese page printed by Chromium makes pdfminer warn about its font boxes on every
    page; a user importing it must see cvagent's report, not those lines."""
    import logging

    with caplog.at_level(logging.WARNING):
        import_file(CORPUS / "jsonresume-even" / "zh-01.pdf")
    assert not [r for r in caplog.records if r.name.startswith("pdfminer")]
