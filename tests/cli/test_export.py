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
