"""``cvagent import``: a PDF, DOCX, HTML or text resume → resume Markdown plus a report.

The format comes from the file name when it has a known extension, otherwise (stdin, no
extension) from the bytes: ``%PDF``, a ZIP holding ``word/document.xml``, ``<html``, or
else text.  Everything that can go wrong with the input is an ``InputError`` (exit 2);
a missing reader library is a ``ConfigError`` naming the extra to install (exit 3).
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli.analysis.resemblance import looks_like_resume
from cvagent_cli.analysis.resemblance import warning as not_a_resume
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.formats.file_types import (
    FORMAT_NAMES,
    SUFFIXES,
    UNREADABLE_HINT,
    default_output,
)
from cvagent_cli.formats.reading.roles import assign_roles
from cvagent_cli.formats.reading.structure import Para, Recognition, to_markdown
from cvagent_cli.formats.reading.text_import import looks_like_markdown, text_paragraphs
from cvagent_cli.store.atomic import check_output_path, write_output
from cvagent_cli.store.textio import MAX_BYTES, decode_bytes, missing_file
from cvagent_cli.wording import plural

if TYPE_CHECKING:
    from cvagent_cli.formats.reading.ocr import PageProgress

#: Pages of a PDF that are read.  A resume has a few; reading a 300-page book would take
#: about a minute (~0.15 s a page), so the rest is left out with a note.
PAGE_BUDGET = 20
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # a compound file: old Office, or encrypted
ENCRYPTED_HINT = "save an unprotected copy (print to PDF) and import that"
CONTACT_FIELDS = ("name", "email", "phone", "linkedin", "github", "website", "location")


@dataclass
class ImportResult:
    markdown: str
    format: str
    source: str
    sections: list[str] = field(default_factory=list)
    entries: int = 0
    bullets: int = 0
    contacts: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # shown even with -q

    @property
    def missing_contacts(self) -> list[str]:
        return [f for f in ("name", "email", "phone") if f not in self.contacts]


def sniff(data: bytes) -> str:
    """The format of ``data`` from its first bytes."""
    if data.startswith(b"%PDF") or data[:1024].lstrip().startswith(b"%PDF"):
        return "pdf"
    if data.startswith((b"PK\x03\x04", _OLE_MAGIC)):  # (an old or encrypted Word file)
        return "docx"
    head = data[:2048].lstrip().lower()
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:].lstrip()
    if head.startswith(b"{") and any(k in head for k in (b'"basics"', b'"work"', b'"$schema"')):
        return "json"  # a JSON Resume file
    if head.startswith((b"<!doctype html", b"<html")) or b"<html" in head[:512] or b"<body" in head:
        return "html"
    if re.search(rb"^cv:", data[:4096], re.MULTILINE):
        return "rendercv"  # rendercv's cv.yaml
    return "text"


def format_of(source: str, data: bytes, suffix: str | None) -> str:
    if suffix:
        suffix = suffix.lower()
        if suffix == ".doc":
            raise InputError(
                f"{source}: legacy Word .doc files cannot be imported",
                hint="open it in Word or LibreOffice and save it as .docx",
            )
        if suffix not in SUFFIXES:
            raise InputError(
                f"{source}: cannot import '{suffix}' files",
                hint="import a .pdf, .docx, .html, .txt, .md, .json (JSON Resume) "
                "or .yaml (rendercv) file",
            )
        sniffed = sniff(data)
        if sniffed in ("pdf", "docx"):
            return sniffed  # a PDF or Word file under another name (.txt, .docx): the bytes win
        return SUFFIXES[suffix]
    return sniff(data)


def _check_docx_zip(data: bytes, source: str) -> None:
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except zipfile.BadZipFile:
        raise InputError(
            f"{source}: not a readable DOCX file (a broken ZIP archive)", hint=UNREADABLE_HINT
        ) from None
    if "word/document.xml" not in names:
        raise InputError(
            f"{source}: a ZIP archive but not a Word document (no word/document.xml)",
            hint="an .odt or .pages file: save it as .docx first",
        )


def pdf_page_count(data: bytes, source: str) -> int | None:
    """The page count the PDF's page tree declares, read without reading any page (a few
    ms even for 300 pages); None when the file is too damaged to say, which the reader then
    reports.  An encrypted PDF and one with no pages are refused here."""
    try:
        # lazy: pdfminer loads only when a PDF is read
        from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError
        from pdfminer.pdfparser import PDFParser
        from pdfminer.pdftypes import resolve1
    except ImportError:  # the reader names the extra to install
        return None
    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)))
        count = resolve1(resolve1(document.catalog["Pages"]).get("Count"))
    except PDFEncryptionError:
        raise InputError(
            f"{source}: the PDF is encrypted (password-protected)", hint=ENCRYPTED_HINT
        ) from None
    except Exception:  # damaged: pdfplumber may still recover it, or says what is wrong
        return None
    if not isinstance(count, int):
        return None
    if count <= 0:
        raise InputError(f"{source}: the PDF has no pages", hint=UNREADABLE_HINT)
    return count


def _refuse_ole(data: bytes, source: str) -> None:
    """A Word file that is not a ZIP package: one with a password to open (Office stores
    it encrypted in a compound file) or a legacy .doc under a .docx name."""
    if "EncryptedPackage".encode("utf-16-le") in data:
        raise InputError(
            f"{source}: the Word file is encrypted (password-protected)",
            hint="open it in Word, remove the password (File › Info › Protect Document) "
            "and save a copy, or export it to PDF",
        )
    raise InputError(
        f"{source}: a legacy Word .doc file, not a .docx, cannot be imported",
        hint="open it in Word or LibreOffice and save it as .docx",
    )


def read_paragraphs(
    data: bytes, source: str, fmt: str, progress: PageProgress | None = None
) -> tuple[list[Para], Recognition]:
    if fmt == "pdf":
        if not data.lstrip().startswith(b"%PDF"):
            raise InputError(
                f"{source}: not a readable PDF file (no %PDF header)", hint=UNREADABLE_HINT
            )
        # One reader per file: the others, and the libraries they load, stay unloaded.
        from cvagent_cli.formats.reading.pdf_import import pdf_paragraphs

        pages = pdf_page_count(data, source)
        if pages is None or pages <= PAGE_BUDGET:
            return pdf_paragraphs(data, source, progress=progress)
        paras, recognition = pdf_paragraphs(data, source, PAGE_BUDGET, progress)
        recognition.warnings.append(
            f"the PDF has {pages} pages, more than a resume: only the first {PAGE_BUDGET} were read"
        )
        return paras, recognition
    if fmt == "docx":
        if data.startswith(_OLE_MAGIC):
            _refuse_ole(data, source)
        if not data.startswith(b"PK"):
            raise InputError(
                f"{source}: not a readable DOCX file (not a ZIP archive)", hint=UNREADABLE_HINT
            )
        _check_docx_zip(data, source)
        from cvagent_cli.formats.reading.docx_import import docx_paragraphs  # (as for PDF)

        return docx_paragraphs(data, source)
    decoded = decode_bytes(data, source)
    if fmt == "html":
        from cvagent_cli.formats.reading.html_import import html_paragraphs  # (as for PDF)

        return html_paragraphs(decoded.text, source)
    return text_paragraphs(decoded.text), Recognition()


def import_bytes(
    data: bytes,
    source: str,
    suffix: str | None = None,
    progress: PageProgress | None = None,
    *,
    from_layout: bool = False,
) -> ImportResult:
    """Convert a resume file's bytes to Markdown and say what was recognised (``progress``:
    told of each page that OCR reads, when a PDF has no text layer).  A PDF or DOCX that
    cvagent wrote gives back the Markdown embedded in it, unless ``from_layout`` or its
    page no longer agrees with it (``embedded_source.py``)."""
    if not data.strip():
        raise InputError(f"{source} is empty; there is no resume to import")
    if len(data) > MAX_BYTES:
        raise InputError(f"{source} is {len(data) / 1_048_576:.1f} MB; a resume should be smaller")
    fmt = format_of(source, data, suffix)
    if fmt == "json":
        from cvagent_cli.formats.interchange.ecosystem import import_json  # (as for PDF)

        markdown, notes = import_json(data, source)
        return describe(markdown, fmt, source, Recognition(notes))
    if fmt == "rendercv":
        from cvagent_cli.formats.interchange.ecosystem import import_rendercv  # (as for PDF)

        markdown, notes = import_rendercv(data, source)
        return describe(markdown, fmt, source, Recognition(notes))
    if fmt == "text":
        text = decode_bytes(data, source).text
        if looks_like_markdown(text):
            return describe(
                text.strip() + "\n", fmt, source, Recognition(["already Markdown: kept as it is"])
            )
    said = Recognition()  # what the embedded source came to, if the file has one
    if fmt in ("pdf", "docx"):
        from cvagent_cli.formats.reading.embedded_source import read_embedded  # (as for PDF)

        embedded = read_embedded(data, fmt, source, from_layout=from_layout, pages=PAGE_BUDGET)
        if embedded.markdown is not None:
            return describe(embedded.markdown, fmt, source, Recognition([embedded.note or ""]))
        if embedded.note:
            (said.warnings if embedded.warning else said.notes).append(embedded.note)
    paras, recognition = read_paragraphs(data, source, fmt, progress)
    recognition.notes[:0] = said.notes
    recognition.warnings[:0] = said.warnings
    paras = join_wrapped_items(paras)
    named = SUFFIXES.get((suffix or "").lower())
    if named and named != fmt:
        recognition.notes.append(
            f"a {FORMAT_NAMES[fmt]} file named {suffix}: read as {fmt.upper()}"
        )
    if not any(p.text.strip() or p.rows for p in paras):
        raise InputError(f"{source} has no text to import")
    markdown = to_markdown(assign_roles(paras))
    return describe(markdown, fmt, source, recognition)


# What a contact line prints between its items (``pdf_lines.SEPARATORS`` without the
# slashes, dashes and commas, which also end words): a line that ends with one was wrapped.
_ITEM_SEPARATOR = "[|｜·•∙・]"
_WRAPPED_ITEMS_RE = re.compile(rf"\s({_ITEM_SEPARATOR})[ \t]*\n\s*")
_DANGLING_RE = re.compile(rf"\s+{_ITEM_SEPARATOR}\s*$")
_LINE_ROLES = ("text", "header")  # what a reader gives a contact line (the PDF: "header")


def join_wrapped_items(paras: list[Para]) -> list[Para]:
    """A line of items wrapped by the page ("a@x.com · +1 555 · Tel Aviv ·" over
    "linkedin.com/in/x"), as one line: no separator is left dangling at a line's end."""
    out: list[Para] = []
    for para in paras:
        if para.role in _LINE_ROLES:
            para.text = _WRAPPED_ITEMS_RE.sub(r" \1 ", para.text)
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.role in _LINE_ROLES
            and para.role in _LINE_ROLES
            and _DANGLING_RE.search(prev.text)
            and para.text.strip()
        ):
            prev.text = prev.text.rstrip() + " " + para.text.lstrip()
            continue
        out.append(para)
    for para in out:
        if para.role in _LINE_ROLES:
            para.text = _DANGLING_RE.sub("", para.text)
    return out


def describe(markdown: str, fmt: str, source: str, recognition: Recognition) -> ImportResult:
    """The recognition report, read back from the Markdown by the analyzer's parser."""
    doc = ResumeDocument.from_text(markdown, source=source)
    warnings = list(recognition.warnings)
    if not looks_like_resume(doc):
        warnings.append(f"{not_a_resume()}; check that {source} is the file you meant")
    basics = doc.basics
    contacts = {f: str(getattr(basics, f)) for f in CONTACT_FIELDS if getattr(basics, f)}
    notes = list(recognition.notes)
    if recognition.images:
        notes.append(f"{plural(recognition.images, 'image')} skipped (photos, icons, logos)")
    if recognition.dropped:
        notes.append(f"{plural(recognition.dropped, 'page-number line')} dropped")
    if recognition.unplaced:
        chars = sum(len(t) for t in recognition.unplaced)
        notes.append(
            f"rotated text ({chars} characters, e.g. a vertical label or a watermark) "
            "could not be placed and was left out"
        )
    return ImportResult(
        markdown=markdown,
        format=fmt,
        source=source,
        sections=[s.title for s in doc.sections if s.heading_line and s.level == 2],
        entries=sum(1 for s in doc.sections if s.heading_line and s.level == 3),
        bullets=sum(len(s.bullets) for s in doc.sections),
        contacts=contacts,
        notes=notes,
        warnings=warnings,
    )


@dataclass(frozen=True)
class Imported:
    """A document imported to the Markdown file next to it, for editing."""

    source: Path
    target: Path
    result: ImportResult

    def notice(self) -> str:
        r = self.result
        kind = FORMAT_NAMES.get(r.format, r.format)
        warnings = "".join(f" (warning: {w})" for w in r.warnings)
        return (
            f"imported {self.source.name} ({kind}) to {self.target.name}: "
            f"{plural(len(r.sections), 'section')}, {plural(r.bullets, 'bullet')}; "
            f"edits go to {self.target.name}, {self.source.name} is left as it is{warnings}"
        )


def import_file(
    path: Path, progress: PageProgress | None = None, *, from_layout: bool = False
) -> ImportResult:
    """:func:`import_bytes` of the file at ``path`` (its format from its extension)."""
    return import_bytes(
        read_input(path), str(path), path.suffix or None, progress, from_layout=from_layout
    )


def import_beside(path: Path, progress: PageProgress | None = None) -> Imported:
    """Import document ``path`` to the Markdown file next to it (``cv.pdf`` → ``cv.md``),
    which chat then edits; an existing file is never overwritten."""
    result = import_file(path, progress)
    target = write_markdown(result, default_output(path))
    return Imported(path, target, result)


def write_markdown(result: ImportResult, target: Path, *, force: bool = False) -> Path:
    check_output_path(
        target, overwrite=force, exists_hint="pass --force to overwrite it, or -o - for stdout"
    )
    return write_output(target, result.markdown.encode("utf-8"))


def read_input(path: Path) -> bytes:
    if not path.exists():
        raise missing_file(path)
    if path.is_dir():
        raise InputError(f"{path} is a folder, not a file")
    try:
        return path.read_bytes()
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
