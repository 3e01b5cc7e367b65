"""resume.md → a printable, self-contained HTML page (markdown-it-py is already a dependency)."""

from __future__ import annotations

import html
from pathlib import Path

from cvagent_cli.documents.templates import check_template
from cvagent_cli.errors import InputError
from cvagent_cli.resume.textio import check_output_path, read_text_file, write_output

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


def render_html(markdown: str, title: str = "Resume", template: str = "classic") -> str:
    """Markdown → one HTML document with an embedded print stylesheet."""
    from markdown_it import MarkdownIt  # lazy: not needed at start-up

    from cvagent_cli.documents.markdown_source import strip_front_matter

    style = STYLESHEET + (COMPACT_STYLESHEET if check_template(template) == "compact" else "")
    body = (
        MarkdownIt("commonmark", {"html": True, "breaks": True, "linkify": False})
        .enable("table")
        .render(strip_front_matter(markdown))
    )
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{style}</style></head>"
        f"<body>\n{body}</body></html>\n"
    )


def export_resume(
    source: Path, target: Path, *, force: bool = False, template: str = "classic"
) -> Path:
    """Write ``source`` (resume Markdown) as ``target``; refuses to overwrite unless ``force``."""
    check_export_target(target, force)
    return export_markdown(read_text_file(source).text, target, force=force, template=template)


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
    text: str, target: Path, *, force: bool = False, template: str = "classic"
) -> Path:
    """Write resume Markdown ``text`` as ``target`` (.pdf, .docx or .html), atomically."""
    suffix = check_export_target(target, force)
    check_template(template)
    first = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), "Resume")
    if suffix == ".docx":
        from cvagent_cli.documents.docx_export import render_docx

        data = render_docx(text, template)
    elif suffix == ".pdf":
        from cvagent_cli.documents.pdf_export import render_pdf

        data = render_pdf(text, template)
    else:
        data = render_html(text, first, template).encode("utf-8")
    return write_output(target, data)
