"""A PDF or DOCX that cvagent exported carries its Markdown source, and importing it gives
the resume back byte for byte; a file edited since, or one whose source breaks the rules
of a resume file, is read from its page instead, and the report says why."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cvagent_cli.cli.app import app
from cvagent_cli.formats.reading.embedded_source import USED
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.writing.docx_export import render_docx
from cvagent_cli.formats.writing.embedded_source import pdf_attachment
from cvagent_cli.formats.writing.options import WriteOptions
from cvagent_cli.formats.writing.pdf_export import _font_files, _typst_fonts, render_pdf, to_typst
from cvagent_cli.formats.writing.templates import TEMPLATES
from tests.formats.test_html_export import SAMPLES

WITHOUT = WriteOptions(embed_source=False)
SAMPLE = next(p for p in SAMPLES if p.name == "en_senior_backend.md").read_text(encoding="utf-8")
# Front matter, a comment the page does not show, CRLF line endings, no final newline.
UNUSUAL = (
    "---\r\ntitle: CV\r\ntags: [x]\r\n---\r\n# Mira Solberg\r\n\r\n"
    "mira@example.com | +1 555 010 7788\r\n\r\n<!-- keep: salary talk in May -->\r\n"
    "## Experience\r\n\r\n### Data Analyst — Fjordline, Oslo\r\n2021 – Present\r\n\r\n"
    "- Cut report time **40%**\r\n  - nested *detail*"
)


def _export(markdown: str, fmt: str, template: str = "classic", **kw: WriteOptions) -> bytes:
    if fmt == "pdf":
        return render_pdf(markdown, template, **kw)
    return render_docx(markdown, template, **kw)


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
@pytest.mark.parametrize("index", range(len(SAMPLES)), ids=lambda i: SAMPLES[i].name)
def test_every_sample_comes_back_byte_for_byte(index: int, fmt: str) -> None:
    # one template per sample, in turn (bench/own_roundtrip.py runs all 54)
    original = SAMPLES[index].read_text(encoding="utf-8")
    data = _export(original, fmt, TEMPLATES[index % len(TEMPLATES)])
    result = import_bytes(data, SAMPLES[index].name, f".{fmt}")
    assert result.markdown == original
    assert result.notes == [USED] and not result.warnings


def test_the_pdf_with_its_source_attached_is_still_pdf_ua() -> None:
    # typst refuses PDF/UA for some documents and the writer then falls back to a tagged
    # PDF without the claim: the attachment must not be one of them
    data = render_pdf(UNUSUAL)
    assert b"<pdfuaid:part>1</pdfuaid:part>" in data
    assert b"/EmbeddedFiles" in data and b"/Subtype/text#2Fmarkdown" in data


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
def test_front_matter_comments_and_crlf_survive(fmt: str) -> None:
    result = import_bytes(_export(UNUSUAL, fmt, "modern"), "cv", f".{fmt}")
    assert result.markdown == UNUSUAL
    assert result.sections == ["Experience"] and result.bullets == 2


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
def test_no_source_leaves_it_out_and_the_page_is_read(fmt: str) -> None:
    data = _export(SAMPLE, fmt, options=WITHOUT)
    assert b"resume.md" not in data and b"urn:cvagent:resume-source" not in _unzipped(data, fmt)
    result = import_bytes(data, "cv", f".{fmt}")
    assert result.markdown != SAMPLE and not any("embedded" in n for n in result.notes)
    assert result.sections[:2] == ["Summary", "Experience"]


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
def test_from_layout_reads_the_page_and_says_the_source_was_ignored(fmt: str) -> None:
    result = import_bytes(_export(UNUSUAL, fmt), "cv", f".{fmt}", from_layout=True)
    assert "title: CV" not in result.markdown and "salary" not in result.markdown
    assert "ignored (--from-layout)" in result.notes[0]


def test_a_docx_edited_after_export_is_read_from_its_page() -> None:
    data = _replace_in_docx(render_docx(SAMPLE), "Northwind", "Southwind")
    result = import_bytes(data, "cv.docx", ".docx")
    assert "Southwind" in result.markdown and "Northwind" not in result.markdown
    (warning,) = result.warnings
    assert "does not match its page" in warning and "'southwind' only on the page" in warning


def test_a_pdf_whose_page_and_source_differ_is_read_from_its_page(tmp_path: Path) -> None:
    # the page says 2019, the source 2018: as if the PDF had been edited after export
    data = _pdf_with_source(SAMPLE, SAMPLE.replace("Mar 2019", "Mar 2018"), tmp_path)
    result = import_bytes(data, "cv.pdf", ".pdf")
    assert "Mar 2019" in result.markdown and "Mar 2018" not in result.markdown
    assert "'2018' only in the source" in result.warnings[0]


@pytest.mark.parametrize(
    ("source", "why"),
    [
        (SAMPLE.replace("Summary", "Summ\u202eary"), "U+202E RIGHT-TO-LEFT OVERRIDE"),
        (SAMPLE.replace("Summary", "Summ\x1bary"), "U+001B ESCAPE"),
        (SAMPLE.encode("utf-16"), "not UTF-8"),
        (SAMPLE + "\n<!--" + "x" * (10 * 1024 * 1024) + "-->\n", "over 10 MB"),
    ],
    ids=["bidi-override", "escape", "utf-16", "11 MB"],
)
def test_a_source_that_breaks_the_rules_of_a_resume_file_is_not_used(
    source: str | bytes, why: str, tmp_path: Path
) -> None:
    result = import_bytes(_pdf_with_source(SAMPLE, source, tmp_path), "cv.pdf", ".pdf")
    assert "\u202e" not in result.markdown and "\x1b" not in result.markdown
    assert result.sections[:2] == ["Summary", "Experience"]
    (warning,) = result.warnings
    assert "was not used" in warning and why in warning


def test_the_docx_source_is_a_custom_xml_part_word_keeps() -> None:
    import docx

    data = render_docx(SAMPLE)
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        rels = package.read("word/_rels/document.xml.rels").decode()
        items = re.findall(r'relationships/customXml" Target="../(customXml/item\d+\.xml)"', rels)
        ours = [i for i in items if b"urn:cvagent:resume-source:1" in package.read(i)]
        assert len(ours) == 1 and package.read(ours[0]).startswith(b"<?xml")
        props = package.read(ours[0].replace("item", "itemProps"))
        assert b'<ds:schemaRef ds:uri="urn:cvagent:resume-source:1"/>' in props
    assert docx.Document(io.BytesIO(data)).paragraphs[0].text  # python-docx reopens it


def test_export_no_source_and_import_from_layout_on_the_command_line(tmp_path: Path) -> None:
    resume = tmp_path / "cv.md"
    resume.write_text(UNUSUAL, encoding="utf-8")
    runner = CliRunner()
    for name, extra in (("with.docx", []), ("without.docx", ["--no-source"])):
        done = runner.invoke(app, ["export", str(resume), "-o", str(tmp_path / name), *extra])
        assert done.exit_code == 0, done.output
    runner.invoke(app, ["import", str(tmp_path / "with.docx"), "-o", str(tmp_path / "a.md")])
    assert (tmp_path / "a.md").read_bytes() == resume.read_bytes()
    for name, extra in (("with.docx", ["--from-layout"]), ("without.docx", [])):
        target = tmp_path / f"{name}.md"
        done = runner.invoke(app, ["import", str(tmp_path / name), "-o", str(target), *extra])
        assert done.exit_code == 0, done.output
        assert "salary" not in target.read_text(encoding="utf-8")


# -- helpers -------------------------------------------------------------------------------


def _unzipped(data: bytes, fmt: str) -> bytes:
    if fmt != "docx":
        return data
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return b"".join(package.read(n) for n in package.namelist())


def _replace_in_docx(data: bytes, old: str, new: str) -> bytes:
    """``data`` with ``old`` replaced in its text, as an edit in Word would leave it (the
    custom XML part kept)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            body = source.read(item)
            if item.filename == "word/document.xml":
                body = body.replace(old.encode(), new.encode())
            target.writestr(item, body)
    return out.getvalue()


def _pdf_with_source(page: str, source: str | bytes, folder: Path) -> bytes:
    """A PDF of ``page`` with ``source`` attached as cvagent attaches its own."""
    import typst

    line = pdf_attachment(folder, "")
    (folder / "resume.md").write_bytes(source if isinstance(source, bytes) else source.encode())
    (folder / "cv.typ").write_text(to_typst(page) + line, encoding="utf-8")
    fonts = _typst_fonts(tuple(str(f.parent) for f in _font_files()))
    data = typst.compile(str(folder / "cv.typ"), root=str(folder), font_paths=fonts)
    assert isinstance(data, bytes)
    return data


def test_an_export_says_when_the_source_holds_what_the_page_does_not_show(tmp_path: Path) -> None:
    from cvagent_cli.formats.exporter import export_text

    exported = export_text(UNUSUAL, tmp_path / "cv.docx")
    (warning,) = exported.warnings
    assert "cv.docx carries the resume's Markdown" in warning
    assert "(front matter, 1 HTML comment); --no-source leaves it out" in warning
    assert not export_text(UNUSUAL, tmp_path / "b.docx", options=WITHOUT).warnings
    assert not export_text(UNUSUAL, tmp_path / "c.html").warnings
    assert not export_text(SAMPLE, tmp_path / "d.docx").warnings
