"""``cvagent export``: resume.md → a file to send (HTML now; PDF and DOCX in progress)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cvagent_cli.cli.errors import handle_user_errors


@handle_user_errors
def export_command(
    resume: Annotated[Path, typer.Argument(help="The resume Markdown file.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Output file (.html).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output.")] = False,
) -> None:
    """Export a Markdown resume to a printable HTML page."""
    from cvagent_cli.documents.html_export import export_resume

    target = output or resume.with_suffix(".html")
    written = export_resume(resume, target, force=force)
    typer.echo(f"wrote {written}", err=True)
