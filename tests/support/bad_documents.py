"""Documents that are not a resume, or not a readable one, built in the test (no binary
fixtures): encrypted, image-only, damaged, zero-page and 200-page PDFs, a macro-enabled
Word file, a DOCX with an embedded spreadsheet object, an invoice.  Invented names only."""

from __future__ import annotations

import io
import re
import zipfile

_SECURITY = (
    b"<< /Filter /Standard /V 1 /R 2 /O <" + b"ab" * 32 + b"> /U <" + b"cd" * 32 + b"> /P -44 >>"
)


def raw_pdf(objects: list[bytes], *, encrypt: bool = False) -> bytes:
    """A PDF from its object bodies (object 1 is the catalog), with a correct xref table."""
    if encrypt:
        objects = [*objects, _SECURITY]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    trailer = b"<< /Size %d /Root 1 0 R" % (len(objects) + 1)
    if encrypt:
        trailer += b" /Encrypt %d 0 R /ID [<%s><%s>]" % (len(objects), b"01" * 16, b"01" * 16)
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def encrypted_pdf() -> bytes:
    """A one-page PDF behind the standard security handler whose empty user password does
    not open it: what a "password to open" PDF looks like to a reader."""
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        ],
        encrypt=True,
    )


def zero_page_pdf() -> bytes:
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])


def typst_pdf(markup: str) -> bytes:
    import typst

    from cvagent_cli.formats.writing.pdf_export import font_dir

    return typst.compile(markup.encode("utf-8"), font_paths=[str(font_dir())])


def image_only_pdf() -> bytes:
    """A "scan": shapes and no text layer."""
    return typst_pdf(
        "#set page(width: 10cm, height: 5cm)\n#rect(width: 5cm, height: 2cm, fill: gray)\n"
    )


def truncated_pdf() -> bytes:
    """The first half of a real PDF (a download cut short)."""
    whole = long_pdf(3)
    return whole[: len(whole) // 2]


def long_pdf(pages: int = 201) -> bytes:
    """A resume followed by ``pages`` - 1 pages of an appendix: a thesis sent as a CV."""
    filler = "Appendix text for the review board, with measurements and remarks. " * 20
    # each page's heading repeats in the same place with another number, as a running
    # header does (the reader may drop it), so each page also says its number in its body
    body = "\n".join(
        f"#pagebreak()\n== Appendix {i}\n{filler}\n\nAppendixpage{i}marker.\n\n{filler}"
        for i in range(1, pages)
    )
    return typst_pdf(
        '#set page(paper: "a4")\n#set text(font: "Noto Sans", size: 10pt)\n'
        "#text(size: 20pt)[*Ottoline Vaskávez*]\n\n"
        "ottoline.vaskavez\\@example.com · +1 555-010-9191\n"
        "== Experience\n*Lab Manager, Brackenfield Institute* #h(1fr) 2019 – 2024\n"
        "- Ran 1,200 assays a month for 14 research groups.\n"
        "== Education\n*Ph.D. Chemistry, Wexmoor University* #h(1fr) 2014 – 2019\n" + body
    )


def _docx(build) -> bytes:
    import docx

    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def small_resume_docx() -> bytes:
    def build(d) -> None:
        d.add_paragraph("Bertrand Quillon", style="Title")
        d.add_paragraph("bertrand.quillon@example.com | +1 555-010-6060")
        d.add_heading("Experience", level=1)
        d.add_paragraph("Site Engineer, Harlow & Finch Builders — 2018 – 2024")
        d.add_paragraph("Delivered 9 school extensions on budget.", style="List Bullet")
        d.add_heading("Education", level=1)
        d.add_paragraph("B.Eng. Civil Engineering, Tamsworth University, 2018")

    return _docx(build)


def _png(width: int = 40, height: int = 20) -> bytes:
    """A grey PNG: the page of a scanned resume, as far as a reader can tell."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def image_only_docx() -> bytes:
    """A resume scanned and pasted into Word as a picture."""

    def build(d) -> None:
        from docx.shared import Cm

        d.add_picture(io.BytesIO(_png()), width=Cm(16))

    return _docx(build)


def _rezip(data: bytes, replace: dict[str, bytes], add: dict[str, bytes]) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item, replace.get(item.filename, source.read(item.filename)))
        for name, body in add.items():
            target.writestr(name, body)
    return out.getvalue()


def docm() -> bytes:
    """The same resume saved by Word as "Word Macro-Enabled Document": another main
    content type and a VBA project part."""
    data = small_resume_docx()
    types = zipfile.ZipFile(io.BytesIO(data)).read("[Content_Types].xml")
    types = types.replace(
        b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        b"application/vnd.ms-word.document.macroEnabled.main+xml",
    ).replace(
        b"</Types>",
        b'<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/></Types>',
    )
    rels = zipfile.ZipFile(io.BytesIO(data)).read("word/_rels/document.xml.rels")
    rels = rels.replace(
        b"</Relationships>",
        b'<Relationship Id="rIdVba" Type="http://schemas.microsoft.com/office/2006/relationships/'
        b'vbaProject" Target="vbaProject.bin"/></Relationships>',
    )
    return _rezip(
        data,
        {"[Content_Types].xml": types, "word/_rels/document.xml.rels": rels},
        {"word/vbaProject.bin": b"\xd0\xcf\x11\xe0 not a real VBA project"},
    )


_OLE_OBJECT = (
    '<w:p xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<w:r><w:object w:dxaOrig="4000" w:dyaOrig="1500">'
    '<v:shape id="_x0000_i1025" style="width:200pt;height:75pt"/>'
    '<o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" ShapeID="_x0000_i1025" '
    'DrawAspect="Content" ObjectID="_1700000001" r:id="rIdOle1"/>'
    "</w:object></w:r></w:p>"
)


def docx_with_embedded_object() -> bytes:
    """A resume with a spreadsheet embedded as an OLE object after its experience."""
    from docx.oxml import parse_xml

    data = small_resume_docx()
    import docx

    document = docx.Document(io.BytesIO(data))
    anchor = document.paragraphs[4]._p  # after the bullet
    anchor.addnext(parse_xml(_OLE_OBJECT))
    part = document.part
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    blob = Part(
        PackURI("/word/embeddings/Microsoft_Excel_Worksheet1.xlsx"),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        b"PK\x03\x04 a spreadsheet",
        part.package,
    )
    rid = part.relate_to(blob, RT.PACKAGE)
    xml = document.element.xml
    assert 'r:id="rIdOle1"' in xml
    for element in document.element.body.iter():
        if element.tag.endswith("}OLEObject"):
            element.set(
                "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id", rid
            )
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


INVOICE_TYP = r"""
#set page(paper: "a4", margin: 2cm)
#set text(font: "Noto Sans", size: 10pt)
#text(size: 22pt)[Marlow Brothers Plumbing]

14 Tanner's Row, Ashby Marsh · VAT No. GB 000 1234 56

Tel. +44 1632 960123 · accounts\@marlow-plumbing.example

#text(size: 14pt)[*INVOICE*]

Invoice No. 2026-0417 #h(1fr) Date: 12 March 2026

Bill to: Flat 3, 22 Orchard Close, Ashby Marsh

#table(columns: (1fr, auto, auto, auto),
  [*Description*], [*Qty*], [*Unit price*], [*Amount*],
  [Replace kitchen mixer tap], [1], [£85.00], [£85.00],
  [Labour (hours)], [2], [£45.00], [£90.00],
  [Call-out charge], [1], [£35.00], [£35.00],
)

#align(right)[Subtotal £210.00 \ VAT 20% £42.00 \ *Total due £252.00*]

Payment within 14 days. Bank: Example Bank, sort code 00-00-00, account 00000000.
Thank you for your business.
"""


def invoice_pdf() -> bytes:
    return typst_pdf(INVOICE_TYP)


def invoice_docx() -> bytes:
    def build(d) -> None:
        title = d.add_paragraph().add_run("Marlow Brothers Plumbing")
        title.bold = True
        d.add_paragraph("14 Tanner's Row, Ashby Marsh · VAT No. GB 000 1234 56")
        d.add_paragraph("Tel. +44 1632 960123 · accounts@marlow-plumbing.example")
        d.add_paragraph().add_run("INVOICE").bold = True
        d.add_paragraph("Invoice No. 2026-0417\tDate: 12 March 2026")
        d.add_paragraph("Bill to: Flat 3, 22 Orchard Close, Ashby Marsh")
        rows = [
            ("Description", "Qty", "Unit price", "Amount"),
            ("Replace kitchen mixer tap", "1", "£85.00", "£85.00"),
            ("Labour (hours)", "2", "£45.00", "£90.00"),
            ("Call-out charge", "1", "£35.00", "£35.00"),
        ]
        table = d.add_table(rows=len(rows), cols=4)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                table.cell(r, c).text = text
        d.add_paragraph("Subtotal £210.00 · VAT 20% £42.00 · Total due £252.00")
        d.add_paragraph("Payment within 14 days. Thank you for your business.")

    return _docx(build)


def first_line(stderr: bytes) -> str:
    """The error line of a CLI failure (the hint, if any, is on the next line)."""
    text = stderr.decode("utf-8", "replace")
    return re.sub(r"\x1b\[[0-9;]*m", "", text).strip().splitlines()[0]
