"""Regenerate the LibreOffice-written DOCX files in ``libreoffice/``: each resume of
``tests/support/word_habits.py`` saved by python-docx, opened and saved again as DOCX by
LibreOffice Writer (``soffice --convert-to docx``), which writes its own styles, numbering,
tables and text boxes.  Needs LibreOffice (Debian: ``libreoffice-writer-nogui``); CI only
reads the committed files.

    python tests/documents/data/regenerate_libreoffice.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from tests.support.word_habits import FIXTURES  # noqa: E402


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
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation={profile}",
                "--headless",
                "--convert-to",
                "docx:MS Word 2007 XML",
                "--outdir",
                str(out),
                *sources,
            ],
            check=True,
            timeout=600,
        )
    for path in sorted(out.glob("*.docx")):
        print(f"{path.relative_to(HERE)}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
