from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.conftest import ROOT, SAMPLE, TIMEOUT


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
