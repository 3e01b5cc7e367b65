"""The files export writes: their metadata (PDF, DOCX, HTML), their permission bits, and
the command's defaults (PDF, the --strict exit code)."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cvagent_cli.formats.exporter import export_file
from cvagent_cli.formats.writing.docx_export import render_docx
from cvagent_cli.formats.writing.html_export import render_html
from cvagent_cli.formats.writing.pdf_export import render_pdf
from cvagent_cli.store.atomic import atomic_write_bytes

EN = Path("sample_resumes/en_new_grad.md")
ZH = Path("sample_resumes/zh_mid_java_table.md")


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_pdf_metadata_names_the_person_and_the_skills() -> None:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(render_pdf(EN.read_text(encoding="utf-8")))) as pdf:
        meta = pdf.metadata
    assert meta["Title"] == "Kevin Zhou — Resume"
    assert meta["Author"] == "Kevin Zhou"
    assert meta["Subject"] == "Resume of Kevin Zhou"
    assert "Python" in meta["Keywords"] and "PostgreSQL" in meta["Keywords"]
    assert meta["CreationDate"].startswith(f"D:{datetime.now(timezone.utc).year}")
    with pdfplumber.open(io.BytesIO(render_pdf(ZH.read_text(encoding="utf-8")))) as pdf:
        assert pdf.metadata["Title"] == "陈浩然 — 简历"


def test_docx_core_properties_are_the_persons_not_the_librarys() -> None:
    import docx

    data = render_docx(EN.read_text(encoding="utf-8"), "modern")
    props = docx.Document(io.BytesIO(data)).core_properties
    assert props.title == "Kevin Zhou — Resume"
    assert props.author == props.last_modified_by == "Kevin Zhou"
    assert props.subject == "Resume of Kevin Zhou"
    assert "Python" in props.keywords
    assert props.comments == ""
    assert props.created.year == datetime.now(timezone.utc).year
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in ("docProps/core.xml", "docProps/app.xml"):
            assert b"python-docx" not in archive.read(name)


def test_html_has_title_and_meta_tags() -> None:
    page = render_html(ZH.read_text(encoding="utf-8"))
    assert "<title>陈浩然 — 简历</title>" in page
    assert '<meta name="author" content="陈浩然">' in page
    assert '<meta name="keywords" content="' in page and 'lang="zh-CN"' in page


@pytest.mark.usefixtures("umask_022")
@pytest.mark.parametrize("suffix", [".pdf", ".docx", ".html"])
def test_an_export_gets_the_resumes_permission_bits(tmp_path: Path, suffix: str) -> None:
    source = tmp_path / "r.md"
    source.write_text(EN.read_text(encoding="utf-8"), encoding="utf-8")
    source.chmod(0o644)
    out = export_file(source, tmp_path / f"r{suffix}").target
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    source.chmod(0o640)
    out = export_file(source, tmp_path / f"private{suffix}").target
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


@pytest.mark.usefixtures("umask_022")
def test_a_new_file_is_0644_under_umask_022_and_an_old_one_keeps_its_bits(tmp_path: Path) -> None:
    new = tmp_path / "new.md"
    atomic_write_bytes(new, b"x")
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    new.chmod(0o600)
    atomic_write_bytes(new, b"y")
    assert stat.S_IMODE(new.stat().st_mode) == 0o600
    os.umask(0o077)
    other = tmp_path / "other.md"
    atomic_write_bytes(other, b"x")
    assert stat.S_IMODE(other.stat().st_mode) == 0o600


@pytest.mark.usefixtures("umask_022")
def test_import_writes_a_0644_markdown_file(tmp_path: Path) -> None:
    from cvagent_cli.formats.reading.importer import import_beside

    pdf = tmp_path / "cv.pdf"
    pdf.write_bytes(render_pdf(EN.read_text(encoding="utf-8")))
    imported = import_beside(pdf)
    assert stat.S_IMODE(imported.target.stat().st_mode) == 0o644


def _cvagent(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "cvagent_cli", *args], capture_output=True)


@pytest.mark.slow
def test_export_without_output_writes_a_pdf(tmp_path: Path) -> None:
    source = tmp_path / "r.md"
    source.write_text(EN.read_text(encoding="utf-8"), encoding="utf-8")
    done = _cvagent("export", str(source), "--template", "modern")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.slow
def test_export_warns_about_a_character_it_leaves_out_and_strict_refuses(tmp_path: Path) -> None:
    source = tmp_path / "r.md"
    source.write_text("# Ana Exemplo\n\n## Skills\n\n- Cuneiform 𒀀\n", encoding="utf-8")
    done = _cvagent("export", str(source), "-o", str(tmp_path / "r.pdf"))
    assert done.returncode == 0
    assert "U+12000 CUNEIFORM SIGN A" in done.stderr.decode()
    done = _cvagent("export", str(source), "-o", str(tmp_path / "s.pdf"), "--strict")
    assert done.returncode == 2
    assert "cannot draw" in done.stderr.decode() and "Traceback" not in done.stderr.decode()
    assert not (tmp_path / "s.pdf").exists()


def test_the_modern_template_is_there_in_html_and_docx_too() -> None:
    import docx

    text = EN.read_text(encoding="utf-8")
    assert "#1f5f8b" in render_html(text, template="modern")
    assert "#1f5f8b" not in render_html(text)
    document = docx.Document(io.BytesIO(render_docx(text, "modern")))
    assert str(document.styles["Heading 1"].font.color.rgb) == "1F5F8B"


def test_a_resume_imported_with_icons_and_emoji_exports_to_pdf(tmp_path: Path) -> None:
    from cvagent_cli.formats.reading.importer import import_bytes
    from cvagent_cli.formats.writing.html_export import export_markdown

    page = (
        "<html><body><h1>Ana Exemplo</h1><p>\uf0e0 ana@example.com | \U0001f4de +1 555-010-2000"
        " | \uf09b github.com/ana-example</p><h2>Experience</h2><h3>Engineer — Acme</h3>"
        "<ul><li>Shipped the \u2728 onboarding flow 🚀</li></ul></body></html>"
    )
    markdown = import_bytes(page.encode(), "cv.html", ".html").markdown
    warnings: list[str] = []
    for suffix in (".pdf", ".docx", ".html"):
        out = export_markdown(markdown, tmp_path / f"cv{suffix}", warn=warnings.append)
        assert out.stat().st_size > 0
    assert warnings == []
