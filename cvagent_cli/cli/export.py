"""``cvagent export``: resume.md → a file to send (PDF, DOCX or HTML)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cvagent_cli.cli.error_exit import handle_user_errors
from cvagent_cli.documents.writing import templates
from cvagent_cli.documents.writing.templates import DEFAULT, REGISTRY, TEMPLATES

TEMPLATE_HELP = ", ".join(f"{t.name} ({t.summary})" for t in REGISTRY.values())


def _template(name: str) -> str:
    """``--template``: one of the templates the registry found (a usage error, exit 2)."""
    if name not in templates.REGISTRY:
        raise typer.BadParameter(f"'{name}' is not one of {', '.join(templates.REGISTRY)}")
    return name


@handle_user_errors
def export_command(
    resume: Annotated[Path, typer.Argument(help="The resume Markdown file.")],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Output file: .pdf, .docx or .html, or .json (JSON Resume) or .yaml/.yml (rendercv input); the extension decides. Default: RESUME with .pdf.",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output.")] = False,
    template: Annotated[
        str,
        typer.Option(
            "--template",
            "-t",
            metavar="|".join(TEMPLATES),
            callback=_template,
            help=f"The look of a PDF, DOCX or HTML file: {TEMPLATE_HELP}.",
        ),
    ] = DEFAULT,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Refuse (exit 2) a resume with characters the PDF fonts cannot draw, instead of leaving them out with a warning.",
        ),
    ] = False,
) -> None:
    """Export a Markdown resume to PDF, Word (.docx) or a printable HTML page,
    or as data for other tools: JSON Resume (.json) or rendercv YAML (.yaml).

    PDF and DOCX need the documents extra: pip install '.\\[documents]' in a checkout

      cvagent export resume.md -o resume.pdf
      cvagent export resume.md -o resume.docx --template compact
      cvagent export resume.md -o resume.json     (JSON Resume, schema v1.0.0)
      cvagent export resume.md -o cv.yaml         (then: rendercv render cv.yaml)
      cvagent export resume.md --template modern      (writes resume.pdf)
    """
    # the exporters load when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.documents.exporter import export_file

    target = output or resume.with_suffix(".pdf")
    exported = export_file(resume, target, template=template, force=force, strict=strict)
    for item in exported.left_out:
        typer.echo(f"cvagent: not in {target.name}: {item}", err=True)
    for message in exported.warnings:
        typer.echo(f"cvagent: warning: {message}", err=True)
    typer.echo(f"wrote {exported.target}", err=True)
