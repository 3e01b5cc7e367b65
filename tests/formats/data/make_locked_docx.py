"""Make ``locked.docx`` (a Word file with a password to open, as Office stores it: an
encrypted package inside a compound file) and ``legacy-doc.docx`` (a Word 97 .doc saved
under a .docx name) from a one-page resume of an invented person.

Needs ``msoffcrypto-tool`` (PyPI, in a side environment: not a cvagent dependency) and
LibreOffice for the .doc; CI only reads the committed files.

    /path/to/venv-with-msoffcrypto/bin/python tests/formats/data/make_locked_docx.py
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
DOCUMENT = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{W}"><w:body>'
    "<w:p><w:r><w:t>Imogen Castellanos-Reid</w:t></w:r></w:p>"
    "<w:p><w:r><w:t>imogen.cr@example.com</w:t></w:r></w:p></w:body></w:document>"
)
TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.'
    'openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType='
    '"application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
    'ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType='
    '"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://'
    'schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http:'
    '//schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="word/document.xml"/></Relationships>'
)


def main() -> None:
    from msoffcrypto.format.ooxml import OOXMLFile

    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", TYPES)
        package.writestr("_rels/.rels", RELS)
        package.writestr("word/document.xml", DOCUMENT)
    locked = io.BytesIO()
    OOXMLFile(io.BytesIO(plain.getvalue())).encrypt("hunter2", locked)
    (HERE / "locked.docx").write_bytes(locked.getvalue())
    soffice = shutil.which("soffice")
    if soffice is None:
        raise SystemExit("LibreOffice is needed for legacy-doc.docx")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "cv.docx"
        source.write_bytes(plain.getvalue())
        profile = Path(tmp, "profile").as_uri()
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation={profile}",
                "--headless",
                "--convert-to",
                "doc",
                "--outdir",
                tmp,
                str(source),
            ],
            check=True,
            timeout=300,
        )
        shutil.copy(Path(tmp) / "cv.doc", HERE / "legacy-doc.docx")


if __name__ == "__main__":
    main()
