"""The DOCX package around the text: a macro-enabled document or a template (another main
content type, which python-docx refuses), and embedded objects whose content is not text.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from cvagent_cli.formats.reading.docx_styles import W

_DOCX_MAIN = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
#: Word's other main parts: macro-enabled (.docm) and templates (.dotx, .dotm), which
#: python-docx refuses by content type although the text is stored the same way.
_OTHER_MAINS = (
    b"application/vnd.ms-word.document.macroEnabled.main+xml",
    b"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    b"application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"


def as_plain_docx(data: bytes) -> tuple[bytes, bool]:
    """``data`` with a plain DOCX main content type, and whether it had another one (a
    macro-enabled document or a template).  Macros are never read, let alone run."""
    source = zipfile.ZipFile(io.BytesIO(data))
    types = source.read("[Content_Types].xml")
    if not any(main in types for main in _OTHER_MAINS):
        return data, False
    for main in _OTHER_MAINS:
        types = types.replace(main, _DOCX_MAIN)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            body = types if item.filename == "[Content_Types].xml" else source.read(item)
            target.writestr(item, body)
    return out.getvalue(), True


def embedded_objects(document: Any) -> int:
    """OLE objects (a spreadsheet, an equation) and charts: their data is not text."""
    body = document.element.body
    charts = sum(1 for g in body.iter(f"{_A}graphicData") if g.get("uri") == _CHART_URI)
    return sum(1 for _ in body.iter(f"{W}object")) + charts
