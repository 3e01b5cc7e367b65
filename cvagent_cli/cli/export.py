"""``cvagent export``: resume.md → a file to send (PDF, DOCX or HTML)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from cvagent_cli.cli.errors import handle_user_errors


class Template(str, Enum):  # the names in cvagent_cli/documents/templates.py
    classic = "classic"
    compact = "compact"


@handle_user_errors
def export_command(
    resume: Annotated[Path, typer.Argument(help="The resume Markdown file.")],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Output file: .pdf, .docx or .html (the extension decides). Default: RESUME with .html.",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output.")] = False,
    template: Annotated[
        Template,
        typer.Option(
            "--template",
            "-t",
            help="classic (the default look) or compact (tighter margins, smaller font: one page where possible).",
        ),
    ] = Template.classic,
) -> None:
    """Export a Markdown resume to PDF, Word (.docx) or a printable HTML page.

    PDF and DOCX need the documents extra: pip install '.\\[documents]' in a checkout

      cvagent export resume.md -o resume.pdf
      cvagent export resume.md -o resume.docx --template compact
    """
    from cvagent_cli.documents.html_export import export_resume

    target = output or resume.with_suffix(".html")
    written = export_resume(resume, target, force=force, template=template.value)
    typer.echo(f"wrote {written}", err=True)
