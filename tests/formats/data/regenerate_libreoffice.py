"""Regenerate the LibreOffice-written DOCX files in ``libreoffice/``: each resume of
``tests/support/word_habits.py`` saved by python-docx, opened and saved again as DOCX by
LibreOffice Writer (``soffice --convert-to docx``), which writes its own styles, numbering,
tables and text boxes; and two sample resumes exported to HTML by cvagent, opened in
LibreOffice as web pages and saved as DOCX (``from_html_*.docx``).  Needs LibreOffice
(Debian: ``libreoffice-writer-nogui``); CI only reads the committed files.

    python tests/formats/data/regenerate_libreoffice.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from cvagent_cli.formats.writing.html_export import render_html  # noqa: E402
from tests.support.word_habits import FIXTURES  # noqa: E402

FROM_HTML = ("en_senior_backend", "zh_senior_frontend")  # sample_resumes/<name>.md


def main() -> None:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        sys.exit("LibreOffice is not installed (apt-get install libreoffice-writer-nogui)")
    out = HERE / "libreoffice"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        sources = []
        for name, build in FIXTURES.items():
            path = Path(tmp) / f"{name}.docx"
            path.write_bytes(build())
            sources.append(str(path))
        profile = Path(tmp, "profile").as_uri()
        convert = [soffice, f"-env:UserInstallation={profile}", "--headless"]
        convert += ["--convert-to", "docx:MS Word 2007 XML"]
        subprocess.run([*convert, "--outdir", str(out), *sources], check=True, timeout=600)
        pages = []
        for name in FROM_HTML:
            markdown = (HERE.parents[2] / "sample_resumes" / f"{name}.md").read_text("utf-8")
            page = Path(tmp) / f"from_html_{name}.html"
            page.write_text(render_html(markdown), encoding="utf-8")
            pages.append(str(page))
        html = ["--infilter=HTML (StarWriter)"]
        subprocess.run([*convert, *html, "--outdir", str(out), *pages], check=True, timeout=600)
    for path in sorted(out.glob("*.docx")):
        print(f"{path.relative_to(HERE)}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
