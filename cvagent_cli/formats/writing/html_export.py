"""resume.md → a printable, self-contained HTML page (markdown-it-py is already a dependency)."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli.errors import InputError
from cvagent_cli.formats.markdown_source import strip_front_matter
from cvagent_cli.formats.writing.layout import (
    Bullets,
    HeaderLine,
    Heading,
    Item,
    Layout,
    Line,
    Name,
    Paragraph,
    Run,
    Subheading,
    Table,
    read_layout,
    where,
)
from cvagent_cli.formats.writing.options import DEFAULT_OPTIONS, WriteOptions
from cvagent_cli.formats.writing.templates import check_template, get_template
from cvagent_cli.store.textio import check_output_path, write_output

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


def render_html(
    markdown: str,
    title: str | None = None,
    template: str = "classic",
    *,
    now: datetime | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> str:
    """Markdown → one HTML document with an embedded print stylesheet, and the resume's
    title, author, description, keywords and date in ``<title>`` and ``<meta>`` tags."""
    from datetime import datetime, timezone

    from markdown_it import MarkdownIt  # lazy: not needed at start-up

    html_style = get_template(template).html
    style = STYLESHEET + html_style.css
    layout = read_layout(markdown)
    if html_style.from_layout:
        body = layout_html(layout)
    else:
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


def runs_html(runs: Line) -> str:
    """HTML for a line of runs; runs that share a link become one ``<a>``."""
    out: list[str] = []
    i = 0
    while i < len(runs):
        href = runs[i].href
        j = i + 1
        while j < len(runs) and runs[j].href == href:
            j += 1
        pieces = "".join(_run_html(r) for r in runs[i:j])
        out.append(f'<a href="{html.escape(href)}">{pieces}</a>' if href else pieces)
        i = j
    return "".join(out)


def _run_html(run: Run) -> str:
    text = html.escape(run.text, quote=False)
    for flag, tag in (
        (run.code, "code"),
        (run.strike, "s"),
        (run.italic, "em"),
        (run.bold, "strong"),
    ):
        if flag:
            text = f"<{tag}>{text}</{tag}>"
    return text


def layout_html(layout: Layout) -> str:
    """The page body written from the resume's layout: an entry is a row with its title
    on the left and its place and dates on the right (``.where``)."""
    out: list[str] = []
    for block in layout.blocks:
        if isinstance(block, Name):
            out.append(f"<h1>{runs_html(block.runs)}</h1>")
        elif isinstance(block, HeaderLine):  # the lines under the name: one paragraph
            items = " | ".join(runs_html(item) for item in block.items)
            if out and out[-1].startswith('<p class="header">'):
                out[-1] = out[-1].removesuffix("</p>") + f"<br>\n{items}</p>"
            else:
                out.append(f'<p class="header">{items}</p>')
        elif isinstance(block, Heading):
            out.append(f"<h2>{runs_html(block.runs)}</h2>")
        elif isinstance(block, Subheading):
            tag = f"h{min(block.level, 6)}"
            right = where(block)
            side = f'<p class="where">{runs_html(right)}</p>' if right else ""
            head = block.head if block.place else block.title
            out.append(f'<div class="entry"><{tag}>{runs_html(head)}</{tag}>{side}</div>')
        elif isinstance(block, Paragraph):
            out.append("<p>" + "<br>\n".join(runs_html(line) for line in block.lines) + "</p>")
        elif isinstance(block, Bullets):
            out.append(_list_html(block.items))
        elif isinstance(block, Table):
            out.append(_table_html(block))
    return "\n".join(out) + "\n"


def _list_html(items: list[Item]) -> str:
    """Nested ``<ul>``/``<ol>`` for items with depths."""
    out: list[str] = []
    open_lists: list[str] = []
    for item in items:
        tag = "ol" if item.number is not None else "ul"
        while len(open_lists) > item.depth + 1:
            out[-1] += f"</li></{open_lists.pop()}>"
        if len(open_lists) == item.depth + 1:
            out[-1] += "</li>"
        while len(open_lists) < item.depth + 1:
            start = f' start="{item.number}"' if item.number not in (None, 1) else ""
            out.append(f"<{tag}{start}>")
            open_lists.append(tag)
        out.append(f"<li>{runs_html(item.runs)}")
    while open_lists:
        out[-1] += f"</li></{open_lists.pop()}>"
    return "\n".join(out)


def _table_html(table: Table) -> str:
    rows = table.rows
    if table.pairs:
        cells = [
            f"<tr><th>{runs_html(row[0])}</th><td>{runs_html(row[1] if len(row) > 1 else [])}</td></tr>"
            for row in rows
            if row
        ]
        return '<table class="pairs">' + "".join(cells) + "</table>"
    out = ["<table>"]
    if table.header and rows:
        out.append(
            "<thead><tr>" + "".join(f"<th>{runs_html(c)}</th>" for c in rows[0]) + "</tr></thead>"
        )
        rows = rows[1:]
    out.append("<tbody>")
    out += ["<tr>" + "".join(f"<td>{runs_html(c)}</td>" for c in row) + "</tr>" for row in rows]
    out.append("</tbody></table>")
    return "".join(out)


def check_export_target(target: Path, force: bool, suffix: str | None = None) -> str:
    suffix = suffix or target.suffix.lower()
    if suffix not in (".html", ".htm", ".docx", ".pdf") and not target.is_dir():
        raise InputError(
            f"{target}: cannot export to '{suffix or 'no extension'}'",
            hint="export to .pdf, .docx or .html, or .json (JSON Resume) or .yaml (rendercv); "
            "--format names it when the file name does not",
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
    suffix: str | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> Path:
    """Write resume Markdown ``text`` as ``target`` (.pdf, .docx or .html, or ``suffix``),
    atomically.

    A PDF leaves out the characters its fonts cannot draw and says so through ``warn``
    (``strict``: refuses instead).  A new file gets ``new_mode``, else 0o666 under the
    umask (never the temporary file's 0600)."""
    suffix = check_export_target(target, force, suffix)
    data = render_document(
        text,
        suffix,
        template=template,
        strict=strict,
        warn=warn,
        name=target.name,
        options=options,
    )
    return write_output(target, data, new_mode=new_mode)


def render_document(
    text: str,
    suffix: str,
    *,
    template: str = "classic",
    strict: bool = False,
    warn: Callable[[str], None] | None = None,
    name: str = "the PDF",
    options: WriteOptions = DEFAULT_OPTIONS,
) -> bytes:
    """The bytes of resume Markdown ``text`` as a ``.pdf``, ``.docx`` or ``.html`` file
    (``export -o - --format pdf`` writes them to standard output)."""
    check_template(template)
    if suffix == ".docx":
        # One writer per file: the others, and the libraries they load, stay unloaded.
        from cvagent_cli.formats.writing.docx_export import render_docx

        return render_docx(text, template, options=options)
    if suffix == ".pdf":
        from cvagent_cli.formats.writing.pdf_export import describe, export_pdf

        result = export_pdf(text, template, strict=strict, options=options)
        if result.left_out and warn is not None:
            warn(
                f"left out of {name}: {describe(result.left_out)}, "
                "which the PDF fonts cannot draw (--strict refuses instead)"
            )
        return result.data
    return render_html(text, template=template, options=options).encode("utf-8")
