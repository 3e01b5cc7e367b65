"""Bad documents through the real CLI (`import`, `analyze`, `chat`): a file that cannot be
read is one error line (and its hint) with exit 2; a file that can be read in part is
imported with a warning.  Never a traceback; never a file written for a refused input."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, TIMEOUT, run_chat
from tests.support import bad_documents as bad
from tests.support.openai_server import Reply

REFUSED: list[tuple[str, Callable[[], bytes], str]] = [
    ("locked.pdf", bad.encrypted_pdf, "the PDF is encrypted (password-protected)"),
    ("scan.pdf", bad.image_only_pdf, "has no text layer"),
    ("cut.pdf", bad.truncated_pdf, "not a readable PDF file"),
    ("empty.pdf", bad.zero_page_pdf, "the PDF has no pages"),
]


DATA = Path(__file__).parents[1] / "formats" / "data"
REFUSED_WORD: list[tuple[str, Callable[[], bytes], str]] = [
    (
        "locked.docx",  # made by msoffcrypto-tool: tests/formats/data/make_locked_docx.py
        lambda: (DATA / "locked.docx").read_bytes(),
        "the Word file is encrypted (password-protected)",
    ),
    (
        "old.docx",  # a Word 97 .doc LibreOffice wrote, under a .docx name
        lambda: (DATA / "legacy-doc.docx").read_bytes(),
        "a legacy Word .doc file, not a .docx, cannot be imported",
    ),
    ("scan.docx", bad.image_only_docx, "the DOCX has no text, only 1 image (a scanned resume?)"),
    ("broken.docx", lambda: bad.small_resume_docx()[:3000], "not a readable DOCX file"),
]


def cvagent(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", *args],
        capture_output=True,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=TIMEOUT,
    )


def assert_one_error(proc: subprocess.CompletedProcess, message: str) -> None:
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    assert bad.first_line(proc.stderr).startswith("cvagent: error: ")
    assert message in bad.first_line(proc.stderr)
    lines = err.strip().splitlines()
    assert len(lines) <= 2 and (len(lines) == 1 or lines[1].strip().startswith("hint: "))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "build", "message"), REFUSED, ids=[r[0] for r in REFUSED])
@pytest.mark.parametrize("command", ["import", "analyze", "chat"])
def test_an_unreadable_pdf_is_one_line_and_exit_2(tmp_path, command, name, build, message):
    (tmp_path / name).write_bytes(build())
    proc = cvagent(command, name, cwd=tmp_path)
    assert_one_error(proc, message)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # nothing written


@pytest.mark.parametrize(
    ("name", "build", "message"), REFUSED_WORD, ids=[r[0] for r in REFUSED_WORD]
)
@pytest.mark.slow
@pytest.mark.parametrize("command", ["import", "analyze", "chat"])
def test_an_unreadable_word_file_is_one_line_and_exit_2(tmp_path, command, name, build, message):
    (tmp_path / name).write_bytes(build())
    proc = cvagent(command, name, cwd=tmp_path)
    assert_one_error(proc, message)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.slow
def test_a_200_page_pdf_is_read_up_to_the_page_budget_with_a_warning(tmp_path):
    from cvagent_cli.formats.reading.importer import PAGE_BUDGET

    (tmp_path / "thesis.pdf").write_bytes(bad.long_pdf(201))
    proc = cvagent("import", "thesis.pdf", "-q", cwd=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert err.strip() == (
        f"cvagent: warning: the PDF has 201 pages, more than a resume: only the first "
        f"{PAGE_BUDGET} were read"
    )
    markdown = (tmp_path / "thesis.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Ottoline Vaskávez\n")
    assert f"Appendixpage{PAGE_BUDGET - 1}marker" in markdown  # page 20 was read
    assert f"Appendixpage{PAGE_BUDGET}marker" not in markdown  # page 21 was not
    analyzed = cvagent("analyze", "thesis.pdf", "--json", cwd=tmp_path)
    assert analyzed.returncode == 0 and b"Traceback" not in analyzed.stderr
    assert b'"name": "Ottoline Vask' in analyzed.stdout


@pytest.mark.parametrize(
    ("name", "build", "note"),
    [
        ("cv.docm", bad.docm, "a macro-enabled Word file: its text was read, its macros were not"),
        (
            "cv.docx",
            bad.docx_with_embedded_object,
            "1 embedded object (a spreadsheet, a chart …) left out",
        ),
    ],
    ids=["docm", "embedded-object"],
)
@pytest.mark.slow
def test_word_files_with_macros_or_objects_are_read_with_a_note(tmp_path, name, build, note):
    (tmp_path / name).write_bytes(build())
    proc = cvagent("import", name, cwd=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert f"note: {note}" in err
    assert "sections (2): Experience, Education" in err
    markdown = (tmp_path / "cv.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Bertrand Quillon\n")
    analyzed = cvagent("analyze", name, "--json", cwd=tmp_path)
    assert analyzed.returncode == 0 and b'"name": "Bertrand Quillon"' in analyzed.stdout


@pytest.mark.slow
def test_chat_on_a_docm_edits_the_imported_markdown(server, chat_env, tmp_path):
    source = tmp_path / "cv.docm"
    source.write_bytes(bad.docm())
    before = source.read_bytes()
    server.enqueue(Reply(text="It reads well."))
    proc = run_chat([str(source), "-m", "is it ok?"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert "imported cv.docm (Word) to cv.md" in proc.stderr.decode()
    assert "Bertrand Quillon" in str(server.requests[0]["messages"])
    assert source.read_bytes() == before


@pytest.mark.parametrize(
    ("name", "build"), [("invoice.pdf", bad.invoice_pdf), ("invoice.docx", bad.invoice_docx)]
)
@pytest.mark.slow
def test_an_invoice_is_imported_with_a_warning_and_analyze_names_no_person(tmp_path, name, build):
    (tmp_path / name).write_bytes(build())
    proc = cvagent("import", name, "-o", "-", "-q", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stderr.decode().strip() == (
        "cvagent: warning: this does not look like a resume: no section a resume has "
        f"(Experience, Education, Skills …) and no dated entries; check that {name} is the "
        "file you meant"
    )
    assert proc.stdout.decode().startswith("# Marlow Brothers Plumbing\n")
    import json

    analyzed = cvagent("analyze", name, "--json", cwd=tmp_path)
    report = json.loads(analyzed.stdout)
    assert report["basics"]["name"] is None  # not the plumbing company
    first = report["findings"][0]
    assert first["rule_id"] == "completeness.not-a-resume" and first["severity"] == "error"
    assert first["message"].startswith("This does not look like a resume")
    shown = cvagent("analyze", name, cwd=tmp_path).stdout.decode()
    assert "This does not look like a resume" in shown and "Marlow Brothers" not in shown


@pytest.mark.slow
def test_chat_on_an_invoice_says_it_is_not_a_resume(server, chat_env, tmp_path):
    source = tmp_path / "invoice.pdf"
    source.write_bytes(bad.invoice_pdf())
    server.enqueue(Reply(text="This is an invoice."))
    proc = run_chat([str(source), "-m", "is my resume ok?"], chat_env)
    err = " ".join(proc.stderr.decode().split())  # wrapped at 100 columns: the path's length
    assert proc.returncode == 0, err
    assert "imported invoice.pdf (PDF) to invoice.md" in err
    assert "(warning: this does not look like a resume" in err
