"""The resume's own Markdown, carried inside the PDF or DOCX cvagent writes, so that
``cvagent import`` of that file gives the resume back byte for byte
(``reading/embedded_source.py`` reads it, and checks it still agrees with the page).

- PDF: an embedded file (``resume.md``, ``text/markdown``) in the catalog's name tree,
  attached by Typst's ``pdf.attach`` (Typst 0.14+; it writes the ``source`` relationship as
  ``/AFRelationship`` only in a PDF/A-3 file, which this is not); PDF viewers list it under
  attachments, and the file stays PDF/UA-1.
- DOCX: a custom XML part (``customXml/itemN.xml``, the package's documented place for data
  that is not content, which Word keeps when it saves; LibreOffice does too), holding the
  text in one element of its own namespace, with its properties part as Word writes them.

The text is stored as UTF-8, as the writer was given it (front matter, comments and line
endings included): what is embedded is exactly what import returns.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli.document.blocks import front_matter_length
from cvagent_cli.wording import plural

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument

#: The embedded file's name in a PDF (what a viewer's attachment list shows).
SOURCE_NAME = "resume.md"
MIME_TYPE = "text/markdown"
DESCRIPTION = "The Markdown source of this resume, written by cvagent (cvagent import reads it)"
#: The namespace of the DOCX part's one element, ``<source>``.
DOCX_NAMESPACE = "urn:cvagent:resume-source:1"
_CUSTOM_XML = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml"
_CUSTOM_XML_PROPS = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps"
)
_PROPS_TYPE = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"
_DATASTORE = "http://schemas.openxmlformats.org/officeDocument/2006/customXml"
_ITEM_RE = re.compile(r"/customXml/item\d+\.xml$")


def unprinted(markdown: str) -> list[str]:
    """What the embedded source holds that the page does not show ("front matter", "2 HTML
    comments"): the export says so, since the file may go to a stranger."""
    found = ["front matter"] if front_matter_length(markdown) else []
    comments = markdown.count("<!--")
    if comments:
        found.append(plural(comments, "HTML comment"))
    return found


def pdf_attachment(folder: Path, markdown: str) -> str:
    """Write ``markdown`` into the Typst project ``folder`` and return the Typst line that
    attaches it to the PDF (to be appended to the document's source)."""
    (folder / SOURCE_NAME).write_bytes(markdown.encode("utf-8"))
    # (constants without quotes or backslashes: Typst string literals as written)
    return (
        f'#pdf.attach("{SOURCE_NAME}", relationship: "source", '
        f'mime-type: "{MIME_TYPE}", description: "{DESCRIPTION}")\n'
    )


def add_docx_source(document: DocxDocument, markdown: str) -> None:
    """Add ``markdown`` to ``document`` as a custom XML part related from the main part."""
    # lazy: python-docx loads only when a Word file is written
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from lxml import etree

    root = etree.Element(f"{{{DOCX_NAMESPACE}}}source", nsmap={None: DOCX_NAMESPACE})
    root.set("name", SOURCE_NAME)
    root.set("type", MIME_TYPE)
    root.text = markdown  # lxml writes a CR as &#13;, so CRLF line endings survive parsing
    blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    package = document.part.package
    number = 1 + sum(1 for p in package.iter_parts() if _ITEM_RE.match(p.partname))
    item = Part(PackURI(f"/customXml/item{number}.xml"), "application/xml", blob, package)
    # A stable id, so the same resume gives the same part.
    item_id = uuid.UUID(bytes=hashlib.sha256(blob).digest()[:16], version=4)
    props = (
        f"<?xml version='1.0' encoding='UTF-8' standalone='no'?>\n"
        f'<ds:datastoreItem ds:itemID="{{{str(item_id).upper()}}}" xmlns:ds="{_DATASTORE}">'
        f'<ds:schemaRefs><ds:schemaRef ds:uri="{DOCX_NAMESPACE}"/></ds:schemaRefs>'
        "</ds:datastoreItem>"
    ).encode()
    item.relate_to(
        Part(PackURI(f"/customXml/itemProps{number}.xml"), _PROPS_TYPE, props, package),
        _CUSTOM_XML_PROPS,
    )
    document.part.relate_to(item, _CUSTOM_XML)
