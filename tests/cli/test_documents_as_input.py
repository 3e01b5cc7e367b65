"""PDF, Word and HTML resumes where a Markdown one is expected.

``chat`` (and ``/load``, or a typed path) imports the document to the ``.md`` next to it
and edits that: the document itself is never written, and an existing ``.md`` (which may
hold edits) is never overwritten.  ``analyze`` and ``--jd`` import in memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cvagent_cli.agent.compose import build_session
from cvagent_cli.agent.intent import Intent, classify_heuristic, extract_path
from cvagent_cli.errors import InputError
from cvagent_cli.formats.file_types import document_format
from cvagent_cli.formats.opening import editable_markdown
from cvagent_cli.formats.writing.docx_export import render_docx
from cvagent_cli.formats.writing.pdf_export import render_pdf
from cvagent_cli.store.textio import convert_hint, decode_bytes
from tests.cli.conftest import SAMPLE, run_chat
from tests.support.openai_server import Reply
from tests.support.scripted import ScriptedModel

NAME = "Daniel R. Okafor"  # the sample's (invented) person


@pytest.fixture
def pdf(tmp_path) -> Path:
    path = tmp_path / "cv.pdf"
    path.write_bytes(render_pdf(SAMPLE.read_text(encoding="utf-8")))
    return path


def test_documents_are_told_apart_by_name_and_by_their_first_bytes(tmp_path, pdf):
    renamed = tmp_path / "cv.txt"
    renamed.write_bytes(pdf.read_bytes())  # a PDF saved under a text name
    docx = tmp_path / "word-file"
    docx.write_bytes(render_docx(SAMPLE.read_text(encoding="utf-8")))
    assert [document_format(p) for p in (pdf, renamed, docx, SAMPLE)] == [
        "pdf",
        "pdf",
        "docx",
        None,
    ]
    assert document_format(tmp_path / "missing.md") is None


def test_a_document_is_imported_once_then_its_markdown_is_reused(pdf):
    before = pdf.read_bytes()
    path, notice = editable_markdown(pdf)
    assert path == pdf.with_suffix(".md") and NAME in path.read_text(encoding="utf-8")
    assert notice and "imported cv.pdf (PDF) to cv.md" in notice and "bullets" in notice
    path.write_text(path.read_text(encoding="utf-8") + "\n- an edit of mine\n", encoding="utf-8")
    again, notice = editable_markdown(pdf)
    assert again == path and "an edit of mine" in path.read_text(encoding="utf-8")
    assert notice and notice.startswith("opened cv.md, imported from cv.pdf earlier")
    assert pdf.read_bytes() == before


def test_a_document_newer_than_its_markdown_is_not_guessed_at(pdf):
    md, _ = editable_markdown(pdf)
    kept = md.read_bytes()
    os.utime(md, (1_000_000_000, 1_000_000_000))  # the PDF was updated after the import
    with pytest.raises(InputError) as info:
        editable_markdown(pdf)
    assert "newer than cv.md" in info.value.message and "--force" in (info.value.hint or "")
    assert md.read_bytes() == kept


def test_a_read_only_session_imports_nothing(pdf):
    with pytest.raises(InputError) as info:
        editable_markdown(pdf, read_only=True)
    assert "read-only" in info.value.message and "cvagent import" in (info.value.hint or "")
    assert not pdf.with_suffix(".md").exists()


@pytest.mark.slow
def test_chat_on_a_pdf_edits_the_imported_markdown(server, chat_env, pdf):
    before = pdf.read_bytes()
    server.enqueue(Reply(text="Your resume reads well."))
    proc = run_chat([str(pdf), "-m", "is my resume ok?"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    err = proc.stderr.decode()
    assert "imported cv.pdf (PDF) to cv.md" in err
    assert pdf.read_bytes() == before
    assert NAME in str(server.requests[0]["messages"])  # the model got the imported resume

    os.utime(pdf.with_suffix(".md"), (1_000_000_000, 1_000_000_000))
    proc = run_chat([str(pdf), "-m", "again"], chat_env)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("cvagent: error: ") and "Traceback" not in err


def test_load_and_a_typed_path_import_a_word_resume(tmp_path, resume):
    docx = tmp_path / "other.docx"
    docx.write_bytes(render_docx(SAMPLE.read_text(encoding="utf-8")))
    session = build_session(client=ScriptedModel(), doc=None)
    doc = session.open_resume(docx)
    assert doc.path == tmp_path / "other.md" and NAME in doc.text
    assert any("imported other.docx (Word)" in n.text for n in session.take_notices())
    session.close()
    # typing the path (or "open …") loads it straight away, Chinese too
    assert extract_path("open ~/cv/简历.docx") == "~/cv/简历.docx"
    assert classify_heuristic("打开 简历.pdf").intent is Intent.LOAD_RESUME
    mention = classify_heuristic("I exported it to cv.pdf, does it look ok?")
    assert mention is None or mention.intent is not Intent.LOAD_RESUME  # named, not opened


def test_the_hints_for_documents_name_cvagent_import():
    with pytest.raises(InputError) as info:
        decode_bytes(b"%PDF-1.7\n", "cv.pdf")
    assert "`cvagent import cv.pdf`" in (info.value.hint or "")
    assert "cvagent import -" in convert_hint("a PDF file", "<stdin>")
    assert "OCR" in convert_hint("a PNG image", "cv.png")
    assert ".docx" in convert_hint("a legacy Word/Office document", "cv.doc")


@pytest.mark.parametrize("suffix", [".pdf", ".docx", ".html"])
def test_a_job_description_may_be_a_document(tmp_path, suffix):
    from cvagent_cli.analysis.jd import JobDescription
    from cvagent_cli.formats.opening import read_job_description
    from cvagent_cli.formats.writing.html_export import render_html

    source = SAMPLE.parent / "jobs" / "en_backend.md"
    text = source.read_text(encoding="utf-8")
    render = {".pdf": render_pdf, ".docx": render_docx, ".html": lambda t: render_html(t).encode()}
    path = tmp_path / f"job{suffix}"
    path.write_bytes(render[suffix](text))
    job = read_job_description(path)
    expected = set(JobDescription.from_text(text).keywords)
    assert len(expected) >= 10 and set(job.keywords) == expected
    assert not list(tmp_path.glob("*.md"))  # read in memory: nothing written


# -- analyze: imported in memory, in a batch too ----------------------------------------------
def _analyze(args, stdin: bytes = b""):
    from tests.cli.test_analyze import analyze

    return analyze([str(a) for a in args], stdin=stdin)


@pytest.mark.slow
def test_analyze_reads_a_pdf_a_word_file_and_a_piped_pdf(tmp_path, pdf):
    import json

    docx = tmp_path / "cv.docx"
    docx.write_bytes(render_docx(SAMPLE.read_text(encoding="utf-8")))
    markdown = json.loads(_analyze([SAMPLE, "--json"]).stdout)
    for path in (pdf, docx):
        proc = _analyze([path, "--json"])
        assert proc.returncode == 0, proc.stderr.decode()
        report = json.loads(proc.stdout)
        assert report["source"] == str(path) and abs(report["score"] - markdown["score"]) <= 5
    piped = _analyze(["--json"], stdin=pdf.read_bytes())
    assert piped.returncode == 0, piped.stderr.decode()
    assert json.loads(piped.stdout)["source"] == "<stdin>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cv.docx", "cv.pdf"]  # nothing written


@pytest.mark.slow
def test_a_folder_of_documents_is_analyzed_in_the_pool_as_in_one_process(tmp_path, pdf):
    import shutil

    from cvagent_cli.cli.batch import MIN_POOL_FILES

    for i in range(MIN_POOL_FILES):
        shutil.copy(SAMPLE, tmp_path / f"r{i:02d}.md")
    (tmp_path / "broken.docx").write_bytes(b"PK\x03\x04 not a zip")
    one, two = (_analyze([tmp_path, "--json", "-j", n]) for n in ("1", "2"))
    assert one.returncode == two.returncode == 2  # the broken file is reported, not fatal
    assert two.stdout == one.stdout
    assert str(pdf) in two.stdout.decode() and "broken.docx" in two.stderr.decode()
