"""``cvagent export``: resume.md → a file to send (PDF, DOCX or HTML)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from cvagent_cli.cli.error_exit import handle_user_errors
from cvagent_cli.errors import UsageError
from cvagent_cli.formats.writing import templates
from cvagent_cli.formats.writing.options import WriteOptions
from cvagent_cli.formats.writing.templates import DEFAULT, REGISTRY, TEMPLATES

TEMPLATE_HELP = ", ".join(f"{t.name} ({t.summary})" for t in REGISTRY.values())


def _template(name: str) -> str:
    """``--template``: one of the templates the registry found (a usage error, exit 2)."""
    if name not in templates.REGISTRY:
        raise typer.BadParameter(f"'{name}' is not one of {', '.join(templates.REGISTRY)}")
    return name


class Format(str, Enum):
    pdf = "pdf"
    docx = "docx"
    html = "html"
    json = "json"
    yaml = "yaml"


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


PAPER_HELP = (
    "The paper of a PDF: a4 or letter. Default: the 'paper' setting (cvagent config), "
    "else Letter for a resume whose phone (+1) or address is in the US or Canada, else A4."
)


class Dates(str, Enum):
    right = "right"
    inline = "inline"


DATES_HELP = (
    "Where an entry's dates go: right (right-aligned on the title's row) or inline (right "
    "after the title: 'Engineer — Acme · 2019 – 2021'). Inline keeps every PDF text reader, "
    "poppler's default pdftotext mode included, reading the dates with their title; right-"
    "aligned, that mode reads some apart. Default: the 'dates' setting (cvagent config), "
    "else right. PDF, DOCX and HTML."
)


def chosen_dates(dates: Dates | None) -> str:
    """``--dates``, else the ``dates`` setting (config file, CVAGENT_DATES)."""
    if dates is not None:
        return dates.value
    from cvagent_cli.settings import load_settings  # reads the config file: only when needed

    return load_settings().dates


def chosen_paper(paper: Paper | None) -> str | None:
    """``--paper``, else the ``paper`` setting (config file, CVAGENT_PAPER); None: the
    writer chooses from the resume (``options.choose_paper``)."""
    if paper is not None:
        return paper.value
    from cvagent_cli.settings import load_settings  # reads the config file: only when needed

    return load_settings().paper


#: What ``-o`` may name for standard output.
STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1")
FORMAT_HINT = "--format pdf, docx or html (to send), json (JSON Resume) or yaml (rendercv)"


def output_and_format(
    resume: Path, output: Path | None, fmt: Format | None
) -> tuple[Path | None, str]:
    """Where the export goes (None: standard output) and its extension (``.pdf`` …), from
    ``-o`` and ``--format``; a clash or a format that cannot be known is a ``UsageError``."""
    wanted = f".{fmt.value}" if fmt is not None else None
    if output is not None and str(output) in STDOUT_NAMES:
        if wanted is None:
            raise UsageError(
                "standard output has no extension to tell the format", hint=FORMAT_HINT
            )
        return None, wanted
    if output is not None and output.name.startswith("-.") and output.parent == Path("."):
        raise UsageError(
            f"'{output}' is not standard output",
            hint=f"write -o - --format {output.suffix.lstrip('.') or 'json'} for standard "
            f'output, or its full path (-o "$PWD/{output}") for a file of that name',
        )
    if output is None:
        return resume.with_suffix(wanted or ".pdf"), wanted or ".pdf"
    suffix = output.suffix.lower()
    if wanted is None:
        return output, suffix
    if suffix and suffix != wanted and not (wanted == ".yaml" and suffix == ".yml"):
        raise UsageError(
            f"-o {output} says '{suffix}' but --format says '{wanted}'",
            hint="leave one of them out, or make them agree",
        )
    return output, suffix or wanted


def write_stdout(data: bytes, suffix: str) -> None:
    """Export bytes into a pipe or file; binary formats never onto a terminal."""
    if suffix in (".pdf", ".docx") and sys.stdout.isatty():
        raise UsageError(
            f"a {suffix[1:].upper()} file would be printed on the terminal as binary data",
            hint=f"redirect it: … -o - --format {suffix[1:]} > resume{suffix}",
        )
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


@handle_user_errors
def export_command(
    resume: Annotated[Path, typer.Argument(help="The resume Markdown file.")],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Output file: .pdf, .docx or .html, or .json (JSON Resume) or .yaml/.yml (rendercv input); the extension decides. '-' is standard output (with --format). Default: RESUME with .pdf.",
        ),
    ] = None,
    fmt: Annotated[
        Format | None,
        typer.Option(
            "--format",
            "-f",
            help="The format when -o does not say it: with -o - (standard output), or a name without an extension.",
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
    no_source: Annotated[
        bool,
        typer.Option(
            "--no-source",
            help="Leave the Markdown source out of a PDF or DOCX. By default it is embedded (the whole file: front matter and comments too), so cvagent import gives the resume back exactly.",
        ),
    ] = False,
    paper: Annotated[Paper | None, typer.Option("--paper", help=PAPER_HELP)] = None,
    dates: Annotated[Dates | None, typer.Option("--dates", help=DATES_HELP)] = None,
) -> None:
    """Export a Markdown resume to PDF, Word (.docx) or a printable HTML page,
    or as data for other tools: JSON Resume (.json) or rendercv YAML (.yaml).

    A PDF or DOCX carries the resume's Markdown inside (a PDF attachment, a
    DOCX custom part), so cvagent import of it gives the resume back exactly;
    --no-source leaves it out.
    PDF and DOCX need the documents extra: pip install '.\\[documents]' in a checkout

      cvagent export resume.md -o resume.pdf
      cvagent export resume.md -o resume.docx --template compact
      cvagent export resume.md -o resume.json     (JSON Resume, schema v1.0.0)
      cvagent export resume.md -o cv.yaml         (rendercv 2.8: rendercv render cv.yaml)
      cvagent export resume.md --template modern      (writes resume.pdf)
      cvagent export resume.md --paper letter     (US Letter instead of the default)
      cvagent export resume.md --dates inline     (dates right after each title)
      cvagent export resume.md -o - --format json | jq .basics
    """
    # the exporters load when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.formats.exporter import export_file, render_text
    from cvagent_cli.store.textio import read_text_file

    target, suffix = output_and_format(resume, output, fmt)
    options = WriteOptions(
        paper=chosen_paper(paper), embed_source=not no_source, dates=chosen_dates(dates)
    )
    if target is None:  # standard output
        rendered = render_text(
            read_text_file(resume).text,
            suffix,
            template=template,
            strict=strict,
            source=str(resume),
            options=options,
        )
        for item in rendered.left_out:
            typer.echo(f"cvagent: not in the output: {item}", err=True)
        for message in rendered.warnings:
            typer.echo(f"cvagent: warning: {message}", err=True)
        write_stdout(rendered.data, suffix)
        return
    exported = export_file(
        resume,
        target,
        template=template,
        force=force,
        strict=strict,
        suffix=suffix,
        options=options,
    )
    for item in exported.left_out:
        typer.echo(f"cvagent: not in {target.name}: {item}", err=True)
    for message in exported.warnings:
        typer.echo(f"cvagent: warning: {message}", err=True)
    typer.echo(f"wrote {exported.target}", err=True)
