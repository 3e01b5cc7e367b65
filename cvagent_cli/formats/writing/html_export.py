"""resume.md → a printable, self-contained HTML page, written from the resume's layout
(``layout.read_layout``, the reading the PDF and DOCX share) in a template's look.

Every template writes the same page: links (the contact line's e-mail, phone and web
addresses, and the Markdown's own links) as ``<a href>``; an entry as a row with its title
on the left and its dates on the right (``.entry``, the place beside the dates where the
template moves it there); e-mail addresses and phone numbers that never break, and web
addresses that break only after a ``/``.  The page's sizes come from the template's PDF
settings (type sizes, leading, spacing, margins), and the print stylesheet sets the
paper (``choose_paper``: the one asked for, else the resume's own country's, as the PDF) and keeps what the PDF keeps together:
a section title with what follows, an entry's row with its first lines, a bullet whole.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from cvagent_cli import languages
from cvagent_cli.document.entry_words import split_title
from cvagent_cli.errors import InputError
from cvagent_cli.formats.writing.layout import (
    URL_TEXT_RE,
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
from cvagent_cli.formats.writing.options import DEFAULT_OPTIONS, WriteOptions, choose_paper
from cvagent_cli.formats.writing.templates import PdfStyle, check_template, get_template
from cvagent_cli.store.atomic import check_output_path, write_output

#: The shared stylesheet; ``--size`` … ``--lead`` come from the template (``page_css``).
#: A gap the PDF sets from one baseline to the next block's capitals (``s`` × the space
#: unit, in the body's type size) is ``calc(s * var(--space) - var(--lead))`` here: a
#: CSS line box adds the leading around its text itself.  Bullets are spaced as lines are.
STYLESHEET = """
html { font-size: var(--size); }
body { font-family: "Noto Sans", "Helvetica Neue", Arial, "Noto Sans SC", "Noto Sans CJK SC",
       "PingFang SC", sans-serif; line-height: var(--line); color: #222;
       max-width: var(--measure); margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: var(--name-size); line-height: 1.15;
     margin: 0 0 calc(0.55rem * var(--space) - var(--lead)); }
h2 { font-size: var(--section-size); line-height: 1.2; border-bottom: 0.6pt solid currentColor;
     margin: calc(1.25rem * var(--space) - var(--lead)) 0 calc(0.6rem * var(--space)); }
h3, h4, h5, h6 { font-size: 1em;
     margin: calc(0.95rem * var(--space) - var(--lead)) 0 calc(0.45rem * var(--space) - var(--lead)); }
p, ul, ol, table { margin: calc(0.65rem * var(--space) - var(--lead)) 0; }
p.header { margin: calc(0.35rem * var(--space)) 0; }
ul, ol { padding-left: 1.2em; }
li > ul, li > ol { margin: 0; }
a { color: inherit; text-decoration: none; }
.nobr { white-space: nowrap; }
.entry { display: flex; align-items: baseline; column-gap: 1.2em;
         margin: calc(0.95rem * var(--space) - var(--lead)) 0 calc(0.45rem * var(--space) - var(--lead)); }
.entry > :first-child { margin: 0; flex: 1 1 auto; }
.entry .where { margin: 0; color: #444; white-space: nowrap; text-align: right; }
.entry .org { font-weight: normal; }
table { border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 0.3em 0.35em; }
table.pairs th { padding-left: 0; padding-right: 1.2em; }
h2, h3, h4, h5, h6, .entry { break-after: avoid; page-break-after: avoid; }
.entry, li, tr { break-inside: avoid; page-break-inside: avoid; }
p, li { orphans: 2; widows: 2; }
@media print {
  body { max-width: none; margin: 0; padding: 0; }
}
"""

#: CSS page sizes of the papers ``WriteOptions.paper`` names, and their widths.
_PAPERS = {"a4": ("A4", 21.0), "letter": ("letter", 21.59)}
#: The height of a capital over the type size (Noto Sans): a line's pitch in the PDF is
#: this plus the template's leading.
_CAP_HEIGHT = 0.714
_MARGIN_RE = re.compile(r"([xy])\s*:\s*([\d.]+)cm")
_EM_RE = re.compile(r"^([\d.]+)em$")


def page_css(style: PdfStyle, paper: str | None) -> str:
    """The CSS variables and ``@page`` rule of a template's PDF settings on ``paper``."""
    size, width = _PAPERS[paper or "a4"]
    margins = {axis: float(cm) for axis, cm in _MARGIN_RE.findall(style.margin)}
    x, y = margins.get("x", 1.5), margins.get("y", 1.5)
    found = _EM_RE.match(style.leading)
    leading = float(found.group(1)) if found else 0.55
    return (
        f":root {{ --size: {style.size}; --name-size: {style.name_size}; "
        f"--section-size: {style.section_size}; --line: {_CAP_HEIGHT + leading:.3f}; "
        f"--lead: {leading}rem; --space: {style.space}; "
        f"--measure: {width - 2 * x:.2f}cm; }}\n"
        f"@page {{ size: {size}; margin: {y}cm {x}cm; }}\n"
    )


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
    chosen = get_template(template)
    style = (
        page_css(chosen.pdf, choose_paper(markdown, options.paper)) + STYLESHEET + chosen.html.css
    )
    layout = read_layout(markdown)
    inline = options.dates == "inline"
    style += INLINE_DATES_CSS if inline else ""
    body = layout_html(layout, chosen.pdf, dates_inline=inline)
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
    lang = languages.get(layout.language).labels.html_lang
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


#: Longer than this, a word may break anywhere rather than run past the margin (as in the PDF).
_LONG_WORD = 60


def _text_html(text: str, href: str | None) -> str:
    """A run's text: an e-mail address or phone number unbreakable, a web address in
    pieces that end at each ``/`` (it breaks there, never at a hyphen)."""
    target = href or ""
    if target.startswith(("mailto:", "tel:")) or ("@" in text and " " not in text):
        return _nobr(text)
    if URL_TEXT_RE.match(text):
        return "<wbr>".join(_nobr(part) for part in re.findall(r"[^/]*/+|[^/]+$", text))
    return html.escape(text, quote=False)


def _nobr(text: str) -> str:
    escaped = html.escape(text, quote=False)
    return escaped if len(text) > _LONG_WORD else f'<span class="nobr">{escaped}</span>'


def _run_html(run: Run) -> str:
    text = html.escape(run.text, quote=False) if run.code else _text_html(run.text, run.href)
    for flag, tag in (
        (run.code, "code"),
        (run.strike, "s"),
        (run.italic, "em"),
        (run.bold, "strong"),
    ):
        if flag:
            text = f"<{tag}>{text}</{tag}>"
    return text


#: The dates right after an entry's title (``WriteOptions.dates`` inline).
INLINE_DATES_CSS = ".entry .when { font-weight: normal; color: #444; }\n"


def layout_html(
    layout: Layout, style: PdfStyle | None = None, *, dates_inline: bool = False
) -> str:
    """The page body written from the resume's layout: an entry is a row with its title
    on the left and its dates on the right (``.where``; with the place, in a template
    that moves it there), or with ``dates_inline`` its dates right after its title in the
    same heading (``.when``)."""
    style = style or PdfStyle()
    out: list[str] = []
    for block in layout.blocks:
        if isinstance(block, Name):
            out.append(f"<h1>{runs_html(block.runs)}</h1>")
        elif isinstance(block, HeaderLine):  # the lines under the name: one paragraph
            items = "&nbsp;| ".join(runs_html(item) for item in block.items)
            if out and out[-1].startswith('<p class="header">'):
                out[-1] = out[-1].removesuffix("</p>") + f"<br>\n{items}</p>"
            else:
                out.append(f'<p class="header">{items}</p>')
        elif isinstance(block, Heading):
            out.append(f"<h2>{runs_html(block.runs)}</h2>")
        elif isinstance(block, Subheading):
            out.append(_entry_html(block, style, dates_inline=dates_inline))
        elif isinstance(block, Paragraph):
            out.append("<p>" + "<br>\n".join(runs_html(line) for line in block.lines) + "</p>")
        elif isinstance(block, Bullets):
            out.append(_list_html(block.items))
        elif isinstance(block, Table):
            out.append(_table_html(block))
    return "\n".join(out) + "\n"


def _entry_html(block: Subheading, style: PdfStyle, *, dates_inline: bool = False) -> str:
    """An entry's row: the title (its place moved right where the template does) on the
    left, the dates on the right; or the dates right after the title, ``dates_inline``."""
    tag = f"h{min(block.level, 6)}"
    dates_inline = dates_inline and bool(block.dates)
    moved = style.place_right and bool(block.place) and not dates_inline
    right = where(block) if moved else block.dates
    head = block.head if moved else block.title
    title = runs_html(head)
    if style.title_split and right and len(head) == 1 and not head[0].href:
        left, sep, rest = split_title(head[0].text)
        if sep:  # "Title — Employer": the title bold, the employer regular
            at = head[0].text.index(sep)
            left, rest = head[0].text[:at], head[0].text[at:]
            title = f'{_text_html(left, None)}<span class="org">{_text_html(rest, None)}</span>'
    if dates_inline:
        when = f'<span class="when"> · <span class="nobr">{runs_html(right)}</span></span>'
        return f'<div class="entry"><{tag}>{title}{when}</{tag}></div>'
    side = f'<p class="where">{runs_html(right)}</p>' if right else ""
    return f'<div class="entry"><{tag}>{title}</{tag}>{side}</div>'


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
        # the PDF writer, and typst with it, load only for a PDF (and the DOCX writer's note)
        from cvagent_cli.formats.writing.docx_export import remember_pdf
        from cvagent_cli.formats.writing.pdf_export import describe, export_pdf

        result = export_pdf(text, template, strict=strict, options=options)
        # a DOCX of the same resume (``/export`` again, several formats) need not typeset it
        remember_pdf(text, template, result.paper, options.dates, result.space, result.fill)
        if result.left_out and warn is not None:
            warn(
                f"left out of {name}: {describe(result.left_out)}, "
                "which the PDF fonts cannot draw (--strict refuses instead)"
            )
        return result.data
    return render_html(text, template=template, options=options).encode("utf-8")
