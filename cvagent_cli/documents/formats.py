"""Documents (PDF, Word, HTML) where a Markdown resume is expected: which files they
are, and how ``chat`` (a ``.md`` copy imported beside the document), ``analyze`` and
``--jd`` (imported in memory) take them.

Kept apart from the importer so that a Markdown resume never loads it: the readers are
imported only when a document is really imported.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli.errors import InputError

if TYPE_CHECKING:
    from cvagent_cli.analysis.jd import JobDescription
    from cvagent_cli.document.document import ResumeDocument

#: File extensions ``cvagent import`` knows, and the reader each one goes to.
SUFFIXES = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".docm": "docx",  # macro-enabled: read as a .docx, the macros are never run
    ".html": "html",
    ".htm": "html",
    ".txt": "text",
    ".text": "text",
    ".md": "text",
    ".markdown": "text",
    ".json": "json",  # JSON Resume
}

#: What chat and analyze import on the fly instead of reading as Markdown text.
DOCUMENT_FORMATS = ("pdf", "docx", "html", "json")
DOCUMENT_SUFFIXES = tuple(suffix for suffix, fmt in SUFFIXES.items() if fmt in DOCUMENT_FORMATS)
FORMAT_NAMES = {"pdf": "PDF", "docx": "Word", "html": "HTML", "json": "JSON Resume"}
#: For a document that cannot be read (damaged, or not what its name says).
UNREADABLE_HINT = (
    "open it in the app that made it and save it again as PDF or .docx, "
    "or copy its text into a .md file"
)
_DOCUMENT_MAGIC = ((b"%PDF", "pdf"), (b"PK\x03\x04", "docx"))


def default_output(path: Path) -> Path:
    """Where a document's Markdown goes by default: beside it (``cv.pdf`` → ``cv.md``)."""
    return path.with_suffix(".md")


def document_format(path: Path, *, sniff: bool = True) -> str | None:
    """``pdf``, ``docx``, ``html`` or ``json`` (JSON Resume) when ``path`` is a document to import rather than a
    Markdown resume to read: by its extension, or (``sniff``) by its first bytes for a PDF
    or Word file saved under another name.  None otherwise (and for a path that is not a
    file)."""
    fmt = SUFFIXES.get(path.suffix.lower())
    if fmt in DOCUMENT_FORMATS:
        return fmt
    if not sniff:
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(8)
    except OSError:
        return None
    return next((f for magic, f in _DOCUMENT_MAGIC if head.startswith(magic)), None)


def editable_markdown(path: Path, *, read_only: bool = False) -> tuple[Path, str | None]:
    """The Markdown resume to work on for ``path``, and what was done to get it (a notice).

    ``path`` itself for Markdown or text.  For a PDF, Word or HTML resume, the ``.md`` next
    to it (``cv.pdf`` → ``cv.md``): imported now if there is none; used as it is if it is
    newer than the document (an earlier import, perhaps edited since); never overwritten.
    A read-only session imports nothing."""
    fmt = document_format(path)
    if fmt is None:
        return path, None
    name = FORMAT_NAMES[fmt]
    target = default_output(path)
    again = f"`cvagent import {path} --force` imports the {name} file again"
    if target.exists():
        try:
            newer = target.stat().st_mtime >= path.stat().st_mtime
        except OSError:
            newer = False
        if not newer:
            raise InputError(
                f"{path} is newer than {target.name} next to it, which may hold edits",
                hint=f"open {target} to keep them, or {again}",
            )
        return target, f"opened {target.name}, imported from {path.name} earlier ({again})"
    if read_only:
        raise InputError(
            f"{path} is a {name} file, and a read-only session writes no files",
            hint=f"import it first: `cvagent import {path}`, then open {target.name}",
        )
    from cvagent_cli.documents.reading.importer import import_beside

    imported = import_beside(path)
    return imported.target, imported.notice()


def read_job_description(path: Path) -> JobDescription:
    """A job description from a Markdown or text file, or from a PDF, Word or HTML one
    (its text imported in memory; nothing is written)."""
    from cvagent_cli.analysis.jd import JobDescription

    if document_format(path) is None:
        return JobDescription.from_path(path)
    from cvagent_cli.documents.reading.importer import import_file

    return JobDescription.from_text(import_file(path).markdown, str(path))


def read_resume(item: str) -> ResumeDocument:
    """A resume to analyze: a Markdown or text file as it is, a PDF, Word or HTML file
    (by its extension) imported in memory, nothing written; ``-`` is standard input, where
    a PDF or Word file is recognised by its first bytes."""
    from cvagent_cli.document.document import ResumeDocument

    if item == "-":
        return _read_stdin()
    path = Path(item)
    if document_format(path, sniff=False) is None:  # by name: each file is opened once
        return ResumeDocument.from_path(path)  # (a PDF named .txt is refused with a hint)
    from cvagent_cli.documents.reading.importer import import_file

    return ResumeDocument.from_text(import_file(path).markdown, source=item)


def _read_stdin() -> ResumeDocument:
    import sys

    from cvagent_cli.analysis.analyzer import MAX_ANALYZED_CHARS, too_long
    from cvagent_cli.document.document import ResumeDocument
    from cvagent_cli.store.textio import MAX_BYTES, check_not_blank, decode_bytes

    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    if any(data.startswith(magic) for magic, _ in _DOCUMENT_MAGIC):
        from cvagent_cli.documents.reading.importer import import_bytes

        markdown = import_bytes(data, "standard input").markdown
        return ResumeDocument.from_text(markdown, source="<stdin>")
    decoded = check_not_blank(decode_bytes(data, "standard input"), "standard input")
    if len(decoded.text) > MAX_ANALYZED_CHARS:  # refused before it is parsed
        raise too_long("standard input", f"{len(decoded.text):,} characters long")
    return ResumeDocument.from_decoded(decoded, source="<stdin>")
