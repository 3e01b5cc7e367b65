"""The formats cvagent imports (PDF, Word, HTML, text, JSON Resume): which file is which,
by its extension or first bytes, and where its Markdown goes.  How ``chat``, ``analyze``
and ``--jd`` open such a file is ``opening``."""

from __future__ import annotations

from pathlib import Path

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
    ".yaml": "rendercv",  # rendercv's cv.yaml (its content is checked: a top-level cv:)
    ".yml": "rendercv",
}

#: What chat and analyze import on the fly instead of reading as Markdown text.
DOCUMENT_FORMATS = ("pdf", "docx", "html", "json")
DOCUMENT_SUFFIXES = tuple(suffix for suffix, fmt in SUFFIXES.items() if fmt in DOCUMENT_FORMATS)
FORMAT_NAMES = {
    "pdf": "PDF",
    "docx": "Word",
    "html": "HTML",
    "json": "JSON Resume",
    "rendercv": "rendercv YAML",
}
#: For a document that cannot be read (damaged, or not what its name says).
UNREADABLE_HINT = (
    "open it in the app that made it and save it again as PDF or .docx, "
    "or copy its text into a .md file"
)
DOCUMENT_MAGIC = ((b"%PDF", "pdf"), (b"PK\x03\x04", "docx"))


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
    return next((f for magic, f in DOCUMENT_MAGIC if head.startswith(magic)), None)
