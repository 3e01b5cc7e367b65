"""Export: resume Markdown → a file to send (PDF, Word, HTML: ``writing/``) or data for
other tools (JSON Resume, rendercv YAML: ``interchange/``), the writer chosen by the
target's extension, as ``reading/importer.py`` chooses the reader.  ``cvagent export`` and
the chat's ``/export`` both come here."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cvagent_cli.formats.interchange import ecosystem
from cvagent_cli.formats.writing.embedded_source import unprinted
from cvagent_cli.formats.writing.html_export import (
    check_export_target,
    export_markdown,
    render_document,
)
from cvagent_cli.formats.writing.options import DEFAULT_OPTIONS, WriteOptions
from cvagent_cli.formats.writing.templates import DEFAULT
from cvagent_cli.store.atomic import check_output_path, new_file_mode, write_output
from cvagent_cli.store.textio import read_text_file


@dataclass
class Exported:
    target: Path
    template: str | None  # None for data (JSON Resume, rendercv), which takes no template
    left_out: list[str] = field(default_factory=list)  # fields the data format has no place for
    warnings: list[str] = field(default_factory=list)  # characters the PDF fonts cannot draw


def check_target(target: Path, *, force: bool = False, suffix: str | None = None) -> Path:
    """Refuse, before anything is written or asked, a target of an extension cvagent does
    not export to (``suffix`` names the format when the name does not), or a place that
    cannot be written (or exists, without ``force``)."""
    if not _is_data(target, suffix):
        check_export_target(target, force, suffix)
    check_output_path(target, overwrite=force)
    return target


def _is_data(target: Path, suffix: str | None) -> bool:
    return (suffix or target.suffix).lower() in ecosystem.EXPORT_SUFFIXES


def source_notice(markdown: str, suffix: str, name: str, options: WriteOptions) -> list[str]:
    """The warning that a PDF or DOCX will carry text its page does not show, in the
    Markdown source embedded in it (``writing/embedded_source.py``)."""
    hidden = unprinted(markdown) if options.embed_source else []
    if not hidden or suffix.lower() not in (".pdf", ".docx"):
        return []
    return [
        f"{name} carries the resume's Markdown, with what the page does not show "
        f"({', '.join(hidden)}); --no-source leaves it out"
    ]


@dataclass
class Rendered:
    data: bytes
    left_out: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def render_text(
    markdown: str,
    suffix: str,
    *,
    template: str = DEFAULT,
    strict: bool = False,
    source: str = "<text>",
    options: WriteOptions = DEFAULT_OPTIONS,
) -> Rendered:
    """The bytes of resume Markdown ``markdown`` as a file of type ``suffix`` (``.pdf``,
    ``.docx``, ``.html``, ``.json``, ``.yaml``), for standard output."""
    if suffix.lower() in ecosystem.EXPORT_SUFFIXES:
        text, left_out = ecosystem.render(markdown, suffix, source=source)
        return Rendered(text.encode("utf-8"), left_out)
    rendered = Rendered(b"", warnings=source_notice(markdown, suffix, "the output", options))
    rendered.data = render_document(
        markdown,
        suffix,
        template=template,
        strict=strict,
        warn=rendered.warnings.append,
        options=options,
    )
    return rendered


def export_text(
    markdown: str,
    target: Path,
    *,
    template: str = DEFAULT,
    force: bool = False,
    strict: bool = False,
    source: str = "<text>",
    new_mode: int | None = None,
    suffix: str | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> Exported:
    """Write resume Markdown ``markdown`` as ``target`` (in the format ``suffix`` names,
    else its extension), atomically; a PDF leaves out the characters its fonts cannot draw
    (``strict``: refuses instead) and says so."""
    if _is_data(target, suffix):
        check_output_path(target, overwrite=force)
        rendered = render_text(markdown, suffix or target.suffix, source=source)
        write_output(target, rendered.data, new_mode=new_mode)
        return Exported(target, None, rendered.left_out)
    notice = source_notice(markdown, suffix or target.suffix, target.name, options)
    exported = Exported(target, template, warnings=notice)
    export_markdown(
        markdown,
        target,
        force=force,
        template=template,
        strict=strict,
        warn=exported.warnings.append,
        new_mode=new_mode,
        suffix=suffix,
        options=options,
    )
    return exported


def export_file(
    source: Path,
    target: Path,
    *,
    template: str = DEFAULT,
    force: bool = False,
    strict: bool = False,
    suffix: str | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> Exported:
    """Write resume file ``source`` as ``target``; a new file gets ``source``'s permission
    bits.  A target cvagent cannot write is refused before ``source`` is read."""
    if not _is_data(target, suffix):
        check_export_target(target, force, suffix)
    return export_text(
        read_text_file(source).text,
        target,
        template=template,
        force=force,
        strict=strict,
        source=str(source),
        new_mode=new_file_mode(source),
        suffix=suffix,
        options=options,
    )
