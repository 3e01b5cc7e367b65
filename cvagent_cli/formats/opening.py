"""Opening a document (PDF, Word, HTML) where a Markdown resume is expected: ``chat``
works on a ``.md`` copy imported beside it; ``analyze`` and ``--jd`` import it in memory.
A Markdown resume opens as it is and never loads the importer."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli.analysis.jd import JobDescription
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.formats.file_types import (
    DOCUMENT_MAGIC,
    FORMAT_NAMES,
    default_output,
    document_format,
)
from cvagent_cli.store.textio import MAX_BYTES, check_not_blank, decode_bytes

if TYPE_CHECKING:
    from cvagent_cli.formats.reading.ocr import PageProgress


def editable_markdown(
    path: Path, *, read_only: bool = False, progress: PageProgress | None = None
) -> tuple[Path, str | None]:
    """The Markdown resume to work on for ``path``, and what was done to get it (a notice).

    ``path`` itself for Markdown or text.  For a PDF, Word or HTML resume, the ``.md`` next
    to it (``cv.pdf`` → ``cv.md``): imported now if there is none; used as it is if it is
    newer than the document (an earlier import, perhaps edited since); never overwritten.
    A read-only session imports nothing.  ``progress`` is told of each page OCR reads."""
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
    # the readers load only when a document is really imported, never for a .md resume
    from cvagent_cli.formats.reading.importer import import_beside

    imported = import_beside(path, progress)
    return imported.target, imported.notice()


def read_job_description(path: Path) -> JobDescription:
    """A job description from a Markdown or text file, or from a PDF, Word or HTML one
    (its text imported in memory; nothing is written)."""
    if document_format(path) is None:
        return JobDescription.from_path(path)
    from cvagent_cli.formats.reading.importer import import_file  # a document: see above

    return JobDescription.from_text(import_file(path).markdown, str(path))


def read_resume(
    item: str,
    progress: PageProgress | None = None,
    warn: Callable[[str], None] | None = None,
) -> ResumeDocument:
    """A resume to analyze: a Markdown or text file as it is, a PDF, Word or HTML file
    (by its extension) imported in memory, nothing written; ``-`` is standard input, where
    a PDF or Word file is recognised by its first bytes.  ``progress`` is told of each page
    OCR reads, ``warn`` of what the import warns about (the text came from OCR)."""
    if item == "-":
        return _read_stdin(progress, warn)
    path = Path(item)
    if document_format(path, sniff=False) is None:  # by name: each file is opened once
        return ResumeDocument.from_path(path)  # (a PDF named .txt is refused with a hint)
    from cvagent_cli.formats.reading.importer import import_file  # a document: see above

    result = import_file(path, progress)
    _tell(warn, result.warnings)
    return ResumeDocument.from_text(result.markdown, source=item)


def _read_stdin(
    progress: PageProgress | None, warn: Callable[[str], None] | None
) -> ResumeDocument:
    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    if any(data.startswith(magic) for magic, _ in DOCUMENT_MAGIC):
        from cvagent_cli.formats.reading.importer import import_bytes  # see above

        result = import_bytes(data, "standard input", progress=progress)
        _tell(warn, result.warnings)
        return ResumeDocument.from_text(result.markdown, source="<stdin>")
    decoded = check_not_blank(decode_bytes(data, "standard input"), "standard input")
    # the analyzer's size budget, read only for piped text (the analyzer is loaded anyway)
    from cvagent_cli.analysis.analyzer import MAX_ANALYZED_CHARS, too_long

    if len(decoded.text) > MAX_ANALYZED_CHARS:  # refused before it is parsed
        raise too_long("standard input", f"{len(decoded.text):,} characters long")
    return ResumeDocument.from_decoded(decoded, source="<stdin>")


def _tell(warn: Callable[[str], None] | None, warnings: list[str]) -> None:
    if warn is not None:
        for warning in warnings:
            warn(warning)
