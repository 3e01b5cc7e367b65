"""``cvagent import``: a PDF, DOCX, HTML or text resume → resume Markdown."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cvagent_cli.cli.error_exit import handle_user_errors

if TYPE_CHECKING:
    # the importer loads when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.formats.reading.importer import ImportResult


@handle_user_errors
def import_command(
    file: Annotated[
        str,
        typer.Argument(
            help="The resume to import: .pdf, .docx (or .docm), .html, .txt (or .md), .json (JSON Resume), .yaml/.yml (rendercv), or - for stdin (format sniffed from the bytes).",
            show_default=False,
        ),
    ],
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Markdown file to write, or - for stdout. Default: FILE with a .md suffix next to it (stdout when FILE is -).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output.")] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="No recognition report on stderr (warnings are still shown)."
        ),
    ] = False,
    from_layout: Annotated[
        bool,
        typer.Option(
            "--from-layout",
            help="Read the page even when the PDF or DOCX carries the Markdown source cvagent embedded in it.",
        ),
    ] = False,
) -> None:
    """Import a PDF, Word (.docx), HTML, text, JSON Resume or rendercv file as resume Markdown.

    Recovers the name, sections (##), entries (###), bullets and contact
    lines from the file's layout (a JSON Resume or rendercv file: from its fields);
    prints what it recognised, and anything not imported, to stderr.
    A PDF or DOCX that cvagent exported carries its Markdown source inside:
    that comes back exactly, unless the page was edited since (then the
    page is read, with a warning) or --from-layout is given.
    PDF and DOCX need the documents extra: pip install '.\\[documents]' in a checkout
    A scanned PDF (no text layer) is read by OCR when the ocr extra is
    installed (a progress bar per page, at most 6 pages); without it, it is refused.
    Only a PDF's first 20 pages are read; a file that does not look like
    a resume (an invoice) is imported with a warning.

      cvagent import resume.pdf                 (writes resume.md next to it)
      cvagent import cv.docx -o resume.md --force
      cvagent import resume.json                (JSON Resume → resume.md)
      cvagent import cv.yaml -o resume.md       (rendercv's input file)
      cat cv.html | cvagent import - > resume.md
    """
    # the importer loads when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.errors import InputError
    from cvagent_cli.formats.file_types import default_output
    from cvagent_cli.formats.reading.importer import (
        import_bytes,
        import_file,
        write_markdown,
    )
    from cvagent_cli.store.textio import MAX_BYTES
    from cvagent_cli.ui.progress import OCR_PROGRESS, page_progress

    with page_progress(OCR_PROGRESS) as progress:
        if file == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
            result = import_bytes(
                data, "standard input", progress=progress, from_layout=from_layout
            )
            target = output or "-"
        else:
            path = Path(file)
            result = import_file(path, progress, from_layout=from_layout)
            target = output or str(default_output(path))
            if output is None and Path(target).resolve() == path.resolve():
                raise InputError(
                    f"{path} is already Markdown; importing it would overwrite it",
                    hint="pass -o NEW.md or -o -",
                )
    if target == "-":
        sys.stdout.write(result.markdown)
        sys.stdout.flush()
        written = "standard output"
    else:
        written = str(write_markdown(result, Path(target), force=force))
    for warning in result.warnings:
        print(f"cvagent: warning: {warning}", file=sys.stderr)
    if not quiet:
        _report(result, written)


def _report(result: ImportResult, written: str) -> None:
    lines = [f"cvagent: imported {result.source} ({result.format}) → {written}"]
    sections = ", ".join(result.sections) or "none"
    lines.append(f"  sections ({len(result.sections)}): {sections}")
    lines.append(f"  entries: {result.entries} · bullets: {result.bullets}")
    found = ", ".join(result.contacts) or "none"
    lines.append(f"  contact: {found}")
    missing = result.missing_contacts
    if missing:
        lines.append(f"  not found: {', '.join(missing)}")
    for note in result.notes:
        lines.append(f"  note: {note}")
    print("\n".join(lines), file=sys.stderr)
