from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, SAMPLE, TIMEOUT

pytestmark = pytest.mark.slow  # every test here runs the CLI as a process


def _export(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "export", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
    )


def test_export_unknown_extension_is_one_line_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "r.odt"
    done = _export(str(SAMPLE), "-o", str(out))
    assert done.returncode == 2
    assert "cannot export to '.odt'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not out.exists()


def test_export_keeps_an_existing_output_unless_force(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    out.write_text("keep", encoding="utf-8")
    assert _export(str(SAMPLE), "-o", str(out)).returncode == 2
    assert out.read_text(encoding="utf-8") == "keep"
    assert _export(str(SAMPLE), "-o", str(out), "--force").returncode == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_export_to_a_missing_folder_is_one_line_exit_2(tmp_path: Path) -> None:
    done = _export(str(SAMPLE), "-o", str(tmp_path / "no" / "such" / "x.pdf"))
    assert done.returncode == 2, done.stderr
    assert "does not exist" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_export_onto_a_folder_is_refused_even_with_force(tmp_path: Path) -> None:
    folder = tmp_path / "sub.pdf"
    folder.mkdir()
    for extra in ([], ["--force"]):
        done = _export(str(SAMPLE), "-o", str(folder), *extra)
        assert done.returncode == 2, done.stderr
        assert "is a folder" in done.stderr and "Traceback" not in done.stderr
    assert folder.is_dir() and list(folder.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["sub.pdf"]  # no temp file left


def test_export_never_replaces_a_read_only_file(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    out.write_text("keep", encoding="utf-8")
    out.chmod(0o444)
    done = _export(str(SAMPLE), "-o", str(out), "--force")
    assert done.returncode == 2 and "read-only" in done.stderr
    assert out.read_text(encoding="utf-8") == "keep"


def _export_bytes(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "export", *args],
        capture_output=True,
        timeout=TIMEOUT,
        cwd=cwd,
    )


@pytest.mark.parametrize(
    ("fmt", "starts"),
    [("json", b"{"), ("yaml", b"cv:"), ("html", b"<!DOCTYPE html>"), ("pdf", b"%PDF-")],
)
@pytest.mark.parametrize("dash", ["-", "/dev/stdout"])
def test_export_to_standard_output_with_a_format(fmt: str, starts: bytes, dash: str) -> None:
    done = _export_bytes(str(SAMPLE), "-o", dash, "--format", fmt)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(starts)
    assert b"wrote" not in done.stderr  # stdout holds the file alone


def test_standard_output_without_a_format_names_every_format(tmp_path: Path) -> None:
    done = _export(str(SAMPLE), "-o", "-")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "standard output has no extension" in done.stderr
    assert "json (JSON Resume) or yaml (rendercv)" in done.stderr


def test_a_dash_file_name_is_not_taken_for_standard_output(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "export", str(SAMPLE), "-o", "-.json"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert "'-.json' is not standard output" in done.stderr
    assert "-o - --format json" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_format_names_the_file_type_and_a_clash_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "resume"
    assert _export(str(SAMPLE), "-o", str(plain), "--format", "json").returncode == 0
    assert plain.read_text(encoding="utf-8").startswith("{")
    clash = _export(str(SAMPLE), "-o", str(tmp_path / "r.pdf"), "--format", "docx")
    assert clash.returncode == 2 and "says '.pdf' but --format says '.docx'" in clash.stderr
    unknown = _export(str(SAMPLE), "-o", str(tmp_path / "r.txt"))
    assert ".json (JSON Resume) or .yaml (rendercv)" in unknown.stderr


def test_export_paper_option_setting_and_default(tmp_path: Path) -> None:
    """An American resume is Letter by default; --paper and CVAGENT_PAPER choose; a
    paper typer does not know is a usage error (exit 2)."""
    import os

    import pdfplumber

    def height(path: Path) -> float:
        with pdfplumber.open(path) as pdf:
            return round(float(pdf.pages[0].height))

    out = tmp_path / "r.pdf"
    assert _export(str(SAMPLE), "-o", str(out)).returncode == 0
    assert height(out) == 792  # Letter: the sample's phone is +1
    assert _export(str(SAMPLE), "-o", str(out), "--force", "--paper", "a4").returncode == 0
    assert height(out) == 842
    env = {**os.environ, "CVAGENT_PAPER": "a4"}
    done = subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "export", str(SAMPLE), "-o", str(out), "--force"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert height(out) == 842
    done = _export(str(SAMPLE), "-o", str(out), "--force", "--paper", "a5")
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_export_dates_option_and_setting(tmp_path: Path) -> None:
    """--dates inline and CVAGENT_DATES=inline set the dates right after the title (one
    line of extracted text: "title · dates"); by default they are right-aligned (a leader
    of spaces between); a value typer does not know is a usage error (exit 2)."""
    import os

    from tests.support.pdf_measures import dated_entries, pdfminer_text

    entry = dated_entries(SAMPLE.read_text(encoding="utf-8"))[0]
    inline = f"{entry.title} · {entry.dates}"
    out = tmp_path / "r.pdf"
    assert _export(str(SAMPLE), "-o", str(out)).returncode == 0
    assert inline not in pdfminer_text(out.read_bytes())
    assert _export(str(SAMPLE), "-o", str(out), "--force", "--dates", "inline").returncode == 0
    assert inline in pdfminer_text(out.read_bytes())
    out.unlink()
    done = subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "export", str(SAMPLE), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
        env={**os.environ, "CVAGENT_DATES": "inline"},
    )
    assert done.returncode == 0, done.stderr
    assert inline in pdfminer_text(out.read_bytes())
    done = _export(str(SAMPLE), "-o", str(out), "--force", "--dates", "left")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "invalid value for '--dates': 'left' is not one of 'right', 'inline'\n" in done.stderr
