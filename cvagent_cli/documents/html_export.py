"""resume.md → a printable, self-contained HTML page (markdown-it-py is already a dependency)."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli.documents.templates import check_template
from cvagent_cli.errors import InputError
from cvagent_cli.store.textio import check_output_path, new_file_mode, read_text_file, write_output

if TYPE_CHECKING:
    from datetime import datetime

STYLESHEET = """
body { font-family: "Helvetica Neue", Arial, "Noto Sans SC", "PingFang SC", sans-serif;
       max-width: 46em; margin: 2em auto; line-height: 1.4; color: #222; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #888; margin-top: 1.2em; font-size: 1.15em; }
h3 { margin: 0.8em 0 0.2em; font-size: 1em; }
ul { margin: 0.2em 0; padding-left: 1.2em; }
a { color: inherit; }
@media print { body { margin: 0; } @page { margin: 1.5cm; } }
"""


COMPACT_STYLESHEET = """
body { font-size: 13px; line-height: 1.25; max-width: 52em; margin: 1em auto; }
h1 { font-size: 1.6em; margin: 0 0 0.1em; }
h2 { margin-top: 0.8em; margin-bottom: 0.3em; }
h3 { margin: 0.5em 0 0.1em; }
p { margin: 0.2em 0; }
ul { margin: 0.1em 0; }
@media print { @page { margin: 1cm; } }
"""


MODERN_STYLESHEET = """
h1 { color: #1f5f8b; text-align: center; font-size: 2.2em; }
h1 + p { text-align: center; }
h2 { color: #1f5f8b; border-bottom-color: #1f5f8b; }
li::marker { color: #1f5f8b; }
"""
EXTRA_STYLES = {"compact": COMPACT_STYLESHEET, "modern": MODERN_STYLESHEET}


def render_html(
    markdown: str,
    title: str | None = None,
    template: str = "classic",
    *,
    now: datetime | None = None,
) -> str:
    """Markdown → one HTML document with an embedded print stylesheet, and the resume's
    title, author, description, keywords and date in ``<title>`` and ``<meta>`` tags."""
    from datetime import datetime, timezone

    from markdown_it import MarkdownIt  # lazy: not needed at start-up

    from cvagent_cli.documents.layout import read_layout
    from cvagent_cli.documents.markdown_source import strip_front_matter

    style = STYLESHEET + EXTRA_STYLES.get(check_template(template), "")
    layout = read_layout(markdown)
    body = (
        MarkdownIt("commonmark", {"html": True, "breaks": True, "linkify": False})
        .enable(["table", "strikethrough"])
        .render(strip_front_matter(markdown))
    )
    created = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d")
    meta = {
        "author": layout.name,
        "description": layout.subject,
        "keywords": ", ".join(layout.keywords),
        "date": created,
    }
    tags = "".join(
        f'<meta name="{key}" content="{html.escape(value)}">'
        for key, value in meta.items()
        if value
    )
    lang = "zh-CN" if layout.language == "zh" else "en"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title or layout.title)}</title>{tags}<style>{style}</style></head>"
        f"<body>\n{body}</body></html>\n"
    )


def export_resume(
    source: Path,
    target: Path,
    *,
    force: bool = False,
    template: str = "classic",
    strict: bool = False,
    warn: Callable[[str], None] | None = None,
) -> Path:
    """Write ``source`` (resume Markdown) as ``target``; refuses to overwrite unless
    ``force``.  A new file gets ``source``'s permission bits (owner-writable)."""
    check_export_target(target, force)
    return export_markdown(
        read_text_file(source).text,
        target,
        force=force,
        template=template,
        strict=strict,
        warn=warn,
        new_mode=new_file_mode(source),
    )


def check_export_target(target: Path, force: bool) -> str:
    suffix = target.suffix.lower()
    if suffix not in (".html", ".htm", ".docx", ".pdf") and not target.is_dir():
        raise InputError(
            f"{target}: cannot export to '{suffix or 'no extension'}'",
            hint="export to .pdf, .docx or .html",
        )
    check_output_path(target, overwrite=force)
    return suffix


def export_markdown(
    text: str,
    target: Path,
    *,
    force: bool = False,
    template: str = "classic",
    strict: bool = False,
    warn: Callable[[str], None] | None = None,
    new_mode: int | None = None,
) -> Path:
    """Write resume Markdown ``text`` as ``target`` (.pdf, .docx or .html), atomically.

    A PDF leaves out the characters its fonts cannot draw and says so through ``warn``
    (``strict``: refuses instead).  A new file gets ``new_mode``, else 0o666 under the
    umask (never the temporary file's 0600)."""
    suffix = check_export_target(target, force)
    check_template(template)
    if suffix == ".docx":
        from cvagent_cli.documents.docx_export import render_docx

        data = render_docx(text, template)
    elif suffix == ".pdf":
        from cvagent_cli.documents.pdf_export import describe, export_pdf

        result = export_pdf(text, template, strict=strict)
        write_output(target, result.data, new_mode=new_mode)
        if result.left_out and warn is not None:
            warn(
                f"left out of {target.name}: {describe(result.left_out)}, "
                "which the PDF fonts cannot draw (--strict refuses instead)"
            )
        return target
    else:
        data = render_html(text, template=template).encode("utf-8")
    return write_output(target, data, new_mode=new_mode)
