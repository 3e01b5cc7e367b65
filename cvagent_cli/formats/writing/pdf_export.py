"""resume.md → PDF through typst (compiler in a wheel) with Noto Sans + Noto Sans SC fonts.

The resume is read once (``layout.read_layout``) and written as Typst code: every piece of
resume text is a Typst string literal, so nothing in it is ever read as markup.  The three
templates share one set of Typst functions (``_LIBRARY``) and differ in their settings.

Typesetting rules: one vertical rhythm (from one bullet to the next as from one line of
a bullet to the next; Chinese with more leading, as ideographs fill the em); an entry's
title and dates share a row, the dates right-aligned after a leader of spaces in the same
paragraph, so text extraction reads them next to the title (pdfminer, ``pdftotext -layout``
and ``-raw``; poppler's default reading order not always, ``bench/pdf_typesetting.py`` says
why), in the modern template with the place the title ends with ("Seattle, WA · 2019 – …")
when the row has room for both, else as written; a title too long to share its line with
its dates takes the line whole and the dates go right-aligned under it; an entry's title (and a
section's) is kept on the page with what follows it, a paragraph as well as a list; a
short list (``SHORT_LIST``) is never split over two pages; a contact line wraps between
items, so a separator never starts or ends a line; e-mail addresses and names never break,
web addresses only after a ``/``; no hyphenation; a word longer than a line (or an address
part) breaks every 60 characters rather than run past the margin.  When the last page would
hold only a small tail, the layout is tried again with tighter spacing (within the
template's limits) and kept if that saves the page.  The paper is ``options.paper``, else
the resume's country's (``options.choose_paper``).

A character the fonts cannot draw is left out with a warning naming it (an error with
``strict``); icon-font characters (Unicode private use) are left out silently.
"""

from __future__ import annotations

import atexit
import functools
import json
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli import languages
from cvagent_cli.document.entry_words import split_title
from cvagent_cli.errors import ConfigError, InputError
from cvagent_cli.formats.writing.embedded_source import pdf_attachment
from cvagent_cli.formats.writing.layout import (
    URL_TEXT_RE,
    Block,
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
    plain,
    read_layout,
    where,
)
from cvagent_cli.formats.writing.options import (
    DEFAULT_OPTIONS,
    PAPER_SIZES,
    WriteOptions,
    choose_paper,
)
from cvagent_cli.formats.writing.templates import PdfStyle, check_template, get_template
from cvagent_cli.install import documents_hint
from cvagent_cli.script import WIDE_TEXT

if TYPE_CHECKING:
    import typst

FONT_FILES = ("NotoSans-Regular.ttf", "NotoSansSC-Regular.ttf")


#: How far the spacing may shrink to save a page whose content is a small tail, in turn.
TIGHTER = (0.85, 0.7)
#: A last page filled less than this (of its text height) is a tail worth trying to save.
TAIL = 0.35

_LIBRARY = r"""
#let cv-space = CV_SPACE * 1em
#show link: it => if CV_LINK == "inherit" { it } else { text(fill: CV_LINK, it) }
#set par(leading: CV_LEADING, spacing: 0.65 * cv-space, justify: false)
// one rhythm: from one bullet to the next as from one line of a bullet to the next
#set list(marker: text(font: "Noto Sans", fill: CV_ACCENT)[•], indent: 0.15em, body-indent: 0.55em, spacing: CV_LEADING)
#set enum(indent: 0.15em, body-indent: 0.55em, spacing: CV_LEADING)
#set block(spacing: 0.65 * cv-space)
#show heading.where(level: 1): it => block(above: 0pt, below: 0.55 * cv-space, width: 100%, align(CV_HEADER_ALIGN, text(size: CV_NAME_SIZE, weight: "bold", fill: CV_ACCENT, it.body)))
#show heading.where(level: 2): it => block(sticky: true, above: 1.25 * cv-space, below: 0.6 * cv-space, width: 100%, {
  set text(size: CV_SECTION_SIZE, weight: "bold", fill: CV_ACCENT)
  if CV_RULE == "partial" {
    grid(columns: (auto, 1fr), column-gutter: 0.6em, align: horizon, it.body, line(length: 100%, stroke: 0.6pt + CV_ACCENT))
  } else {
    it.body
    v(-0.45em)
    line(length: 100%, stroke: 0.6pt + CV_ACCENT)
  }
})
// An entry's row: one paragraph, the dates (and place) right-aligned after a leader of
// spaces, so that text extraction reads them on the title's line, next to it.  A title
// too long to share its line with them takes the line whole (and may wrap), and they go
// right-aligned under it: never its last word alone beside them.
#let cv-gap = 1.2em
#let cv-leader = box(width: 1fr, repeat[#" "])
#let cv-fits(title, right, width) = measure(title).width + measure(h(cv-gap)).width + measure(right).width <= width
#let cv-row(title, dates, width) = {
  let right = text(fill: CV_MUTED, dates)
  if cv-fits(title, right, width) [#title#cv-leader#right] else [#title#linebreak()#cv-leader#right]
}
#let cv-entry-block(body) = block(sticky: true, above: 0.95 * cv-space, below: 0.45 * cv-space, width: 100%, body)
#let cv-entry(title, dates: none) = cv-entry-block(if dates == none { title } else {
  layout(size => cv-row(title, dates, size.width))
})
// Dates inline (``WriteOptions.dates``): right after the title, in one paragraph that
// wraps as text does; the dates themselves never break.
#let cv-entry-inline(title, dates) = cv-entry-block([#title#text(fill: CV_MUTED)[ · #box(dates)]])
// The modern row: the place moves beside the dates when the row has room for both.
#let cv-entry-where(head, place-dates, title, dates) = cv-entry-block(layout(size => {
  if cv-fits(head, text(fill: CV_MUTED, place-dates), size.width) { cv-row(head, place-dates, size.width) } else { cv-row(title, dates, size.width) }
}))
#let cv-contacts(..items, sep: "|") = block(width: 100%, above: 0.35 * cv-space, below: 0.35 * cv-space, layout(size => {
  let gap = h(0.45em)
  let mark = text(fill: CV_MUTED, sep)
  let sep-width = measure([#gap#mark#gap]).width
  let x = 0pt
  let parts = ()
  for (i, item) in items.pos().enumerate() {
    let width = measure(item).width
    if i > 0 and x + sep-width + width > size.width {
      parts.push(linebreak())
      x = 0pt
    } else if i > 0 {
      parts.push([#gap#mark#gap])
      x += sep-width
    }
    parts.push(if width < size.width { box(item) } else { item })
    x += width
  }
  align(CV_HEADER_ALIGN, parts.join())
}))
#let cv-pairs(..cells) = grid(columns: (auto, 1fr), column-gutter: 1.2em, row-gutter: 0.55 * cv-space, ..cells)
#let cv-table(columns, ..cells) = table(columns: columns, stroke: none, inset: (x: 0.35em, y: 0.3em), ..cells)
#let cv-together(body) = block(breakable: false, body)
"""


def font_dir() -> Path:
    try:
        import rendercv_fonts  # lazy: only in the `documents` extra
    except ImportError as exc:
        raise ConfigError("PDF export needs rendercv-fonts", hint=documents_hint()) from exc
    return Path(rendercv_fonts.__file__).parent / "Noto Sans"


@functools.lru_cache(maxsize=1)
def _emoji_font() -> Path | None:
    """Noto Emoji (SIL OFL), packaged on PyPI by manimgx-fonts; None when not installed.

    Typst reads fonts by folder, and that package's folder also holds another Noto Sans:
    the emoji font is linked into a folder of its own for the life of the process."""
    try:
        import manimgx_fonts  # lazy, optional
    except ImportError:
        return None
    path = Path(manimgx_fonts.__file__).parent / "NotoEmoji[wght].ttf"
    if not path.is_file():
        return None
    folder = Path(tempfile.mkdtemp(prefix="cvagent-emoji-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    link = folder / path.name
    try:
        link.symlink_to(path)
    except OSError:
        shutil.copyfile(path, link)
    return link


# -- Typst code ---------------------------------------------------------------------------


def typst_string(text: str) -> str:
    """``text`` as a Typst string literal: resume text is never read as markup."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_HYPHENATED_RE = re.compile(r"(\w+(?:-\w+)+)")


#: Longer than a line holds at the smallest size: such a word (a 1,360-letter string, a
#: 400-character URL segment) may break every ``_LONG_WORD`` characters, or it runs past
#: the right margin and is clipped.  Typst breaks between two boxes, never inside one.
_LONG_WORD = 60
_LONG_WORD_RE = re.compile(rf"[^\s{WIDE_TEXT}]{{{_LONG_WORD + 1},}}")


def _boxes(text: str) -> str:
    """``text`` in one box, or, when longer than ``_LONG_WORD``, in boxes of that length."""
    if len(text) <= _LONG_WORD:
        return f"#box({typst_string(text)})"
    return "".join(
        f"#box({typst_string(text[i : i + _LONG_WORD])})" for i in range(0, len(text), _LONG_WORD)
    )


def _unbreakable(text: str, href: str | None) -> str:
    """An e-mail address in one box; a web address in boxes that end at each ``/`` (so it
    breaks there and nowhere else); other text as it is.  A word longer than a line breaks
    every ``_LONG_WORD`` characters (no hyphen: hyphenation is off)."""
    if (href or "").startswith("mailto:") or ("@" in text and " " not in text):
        return "[" + _boxes(text) + "]"
    if URL_TEXT_RE.match(text):
        parts = re.findall(r"[^/]*/+|[^/]+$", text)
        return "[" + "".join(_boxes(p) for p in parts) + "]"
    if "-" in text and _HYPHENATED_RE.search(text):  # "cross-team" never breaks at its hyphen
        pieces = _HYPHENATED_RE.split(text)
        return (
            "["
            + "".join(_boxes(p) if i % 2 else _long_words(p) for i, p in enumerate(pieces) if p)
            + "]"
        )
    if _LONG_WORD_RE.search(text):
        return "[" + _long_words(text) + "]"
    return typst_string(text)


def _long_words(text: str) -> str:
    """Typst content for ``text`` with each over-long word in boxes (see ``_boxes``)."""
    out, at = [], 0
    for match in _LONG_WORD_RE.finditer(text):
        if match.start() > at:
            out.append(f"#{typst_string(text[at : match.start()])}")
        out.append(_boxes(match.group()))
        at = match.end()
    if at < len(text):
        out.append(f"#{typst_string(text[at:])}")
    return "".join(out)


def _run(run: Run) -> str:
    body = _unbreakable(run.text, run.href) if not run.code else f"raw({typst_string(run.text)})"
    if run.strike:
        body = f"strike({body})"
    if run.italic:
        body = f"emph({body})"
    if run.bold:
        body = f"strong({body})"
    return body


def inline(runs: Line) -> str:
    """Typst content for a line of runs; runs sharing a link become one link."""
    out: list[str] = []
    i = 0
    while i < len(runs):
        href = runs[i].href
        j = i + 1
        while j < len(runs) and runs[j].href == href:
            j += 1
        pieces = "".join(f"#{_run(r)}" for r in runs[i:j])
        out.append(f"#link({typst_string(href)})[{pieces}]" if href else pieces)
        i = j
    return "[" + "".join(out) + "]"


def _title(runs: Line, style: PdfStyle, *, dated: bool) -> str:
    """An entry's title in bold; in templates that split it, "Title — Employer" as a bold
    title and a regular employer, split where the resume's structured reading splits it
    (``entry_words.split_title``).  Only on a row with dates: an import reads a row of
    mixed weights as an entry by the dates beside it."""
    if style.title_split and dated and len(runs) == 1 and not runs[0].href:
        head, sep, rest = split_title(runs[0].text)
        if sep:
            at = runs[0].text.index(sep)
            head, rest = runs[0].text[:at], runs[0].text[at + len(sep) :]
            return f"[#strong({typst_string(head)})#{typst_string(sep)}#{typst_string(rest)}]"
    return inline([replace(r, bold=True) for r in runs])


def _block(block: Block, style: PdfStyle, *, dates_inline: bool = False) -> str:
    """Typst code for one block; an entry's dates right after its title with
    ``dates_inline``, else right-aligned on its row."""
    if isinstance(block, Name):
        return f"= #box({inline(block.runs)})"
    if isinstance(block, HeaderLine):
        items = ", ".join(inline(item) for item in block.items)
        if not block.contact and len(block.items) == 1:
            return f"#align({style.header_align}, text(fill: {style.muted}, {items}))"
        return f"#cv-contacts({items})"
    if isinstance(block, Heading):
        return f"== #{inline(block.runs)}"
    if isinstance(block, Subheading):
        dated = bool(block.dates or block.place)
        title = _title(block.title, style, dated=dated)
        if dates_inline and block.dates:
            return f"#cv-entry-inline({title}, {inline(block.dates)})"
        if style.place_right and block.place:  # on one row when both fit, else as written
            head = _title(block.head, style, dated=dated)
            dates = inline(block.dates)
            return f"#cv-entry-where({head}, {inline(where(block))}, {title}, {dates})"
        return (
            f"#cv-entry({title}, dates: {inline(block.dates)})"
            if block.dates
            else (f"#cv-entry({title})")
        )
    if isinstance(block, Paragraph):
        return " #linebreak()\n".join(f"#{inline(line)}" for line in block.lines)
    if isinstance(block, Bullets):
        return _bullets(block.items)
    if isinstance(block, Table):
        return _table(block)
    raise TypeError(block)


#: A list of at most this many items (their nested ones aside) and characters is never
#: split over two pages: split, it leaves one or two lines alone (Skills: 1 line / 3 lines).
SHORT_LIST = (4, 600)


def _bullets(items: list[Item]) -> str:
    code = _list(items)
    top = sum(1 for item in items if item.depth == 0)
    if top <= SHORT_LIST[0] and sum(len(plain(item.runs)) for item in items) <= SHORT_LIST[1]:
        return f"#cv-together[\n{code}\n]"
    return code


def _list(items: list[Item]) -> str:
    lines = []
    for item in items:
        marker = "-" if item.number is None else f"{item.number}."
        lines.append("  " * item.depth + f"{marker} #{inline(item.runs)}")
    return "\n".join(lines)


def _table(table: Table) -> str:
    if table.pairs:
        pairs = ", ".join(
            f"strong({inline(row[0])}), {inline(row[1] if len(row) > 1 else [])}"
            for row in table.rows
        )
        return f"#cv-pairs({pairs})"
    width = max(len(row) for row in table.rows)
    rows = [row + [[]] * (width - len(row)) for row in table.rows]
    cells: list[str] = ["table.hline(stroke: 0.6pt)"]
    body = rows
    if table.header:
        head = ", ".join(f"strong({inline(c)})" for c in rows[0])
        cells += [f"table.header({head})", "table.hline(stroke: 0.4pt)"]
        body = rows[1:]
    cells += [inline(c) for row in body for c in row]
    cells.append("table.hline(stroke: 0.6pt)")
    columns = "(" + ", ".join(["auto"] + ["1fr"] * (width - 1)) + ",)"
    return f"#cv-table({columns}, {', '.join(cells)})"


def _metadata(layout: Layout, now: datetime) -> str:
    keywords = ", ".join(typst_string(k) for k in layout.keywords)
    date = f"datetime(year: {now.year}, month: {now.month}, day: {now.day}, hour: {now.hour}, minute: {now.minute}, second: {now.second})"
    return (
        f"#set document(title: {typst_string(layout.title)}, "
        f"author: {typst_string(layout.name or layout.title)}, "
        f"description: {typst_string(layout.subject)}, keywords: ({keywords}{',' if keywords else ''}), "
        f"date: {date})"
    )


#: What typst calls each paper of ``options.PAPERS``.
TYPST_PAPERS = {"a4": "a4", "letter": "us-letter"}


def _preamble(style: PdfStyle, layout: Layout, space: float, paper: str) -> str:
    language = languages.get(layout.language)
    lang = language.labels.typst_lang
    emoji = ', "Noto Emoji"' if _emoji_font() else ""
    library = _LIBRARY
    for key, value in (
        ("CV_SPACE", f"{space * style.space:.3f}"),
        ("CV_LEADING", style.leading_for(language.spaced)),
        ("CV_ACCENT", style.accent),
        ("CV_MUTED", style.muted),
        ("CV_NAME_SIZE", style.name_size),
        ("CV_SECTION_SIZE", style.section_size),
        ("CV_HEADER_ALIGN", style.header_align),
        ("CV_RULE", typst_string(style.rule)),
        ("CV_LINK", typst_string(style.link) if style.link == "inherit" else style.link),
    ):
        library = library.replace(key, value)
    # A Chinese resume is set in Noto Sans SC throughout (its Latin letters too): with two
    # fonts on a line, their different heights split the line for text extractors.
    fonts = language.labels.fonts
    return (
        f'#set page(paper: "{TYPST_PAPERS[paper]}", margin: {style.margin})\n'
        f"#set text(font: ({fonts}{emoji}), size: {style.size}, "
        f"lang: {lang}, hyphenate: false)\n"
        '#show raw: set text(font: ("DejaVu Sans Mono", "Noto Sans SC"), size: 1.15em)\n' + library
    )


def to_typst(
    markdown: str | Layout,
    template: str = "classic",
    *,
    space: float = 1.0,
    now: datetime | None = None,
    paper: str = "a4",
    dates: str = "right",
) -> str:
    """The Typst source of a resume (Markdown, or its layout) in ``template``, an entry's
    dates ``right``-aligned on its row or ``inline`` after its title."""
    layout = markdown if isinstance(markdown, Layout) else read_layout(markdown)
    style = get_template(template).pdf
    out = [
        _metadata(layout, now or datetime.now(timezone.utc)),
        _preamble(style, layout, space, paper),
    ]
    out += [_block(b, style, dates_inline=dates == "inline") + "\n" for b in layout.blocks]
    out.append("#context [#metadata(here().position()) <cv-end>]")
    return "\n".join(out) + "\n"


# -- glyphs -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _cmap(path: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont  # lazy

    return frozenset(TTFont(path, lazy=True).getBestCmap())


def _font_files() -> list[Path]:
    folder = font_dir()
    files = [folder / name for name in FONT_FILES]
    emoji = _emoji_font()
    return files + ([emoji] if emoji else [])


def _ignorable(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) == "Cf" or "\ufe00" <= ch <= "\ufe0f"


def private_use(ch: str) -> bool:
    return unicodedata.category(ch) == "Co"


def missing_glyphs(text: str, fonts: list[Path]) -> list[str]:
    """The characters of ``text`` no font in ``fonts`` draws (private-use icons aside)."""
    wanted = {ord(ch) for ch in text if not _ignorable(ch) and not private_use(ch)}
    for font in fonts:  # the small Latin font first: a Latin resume never loads the CJK one
        if not wanted:
            break
        wanted -= _cmap(str(font))
    return sorted(chr(code) for code in wanted)


def _drop(layout: Layout, drop: Callable[[str], bool]) -> Layout:
    def line(runs: Line) -> Line:
        out = [replace(r, text="".join(ch for ch in r.text if not drop(ch))) for r in runs]
        return [r for r in out if r.text]

    blocks: list[Block] = []
    for block in layout.blocks:
        if isinstance(block, Name | Heading):
            block = replace(block, runs=line(block.runs))
        elif isinstance(block, HeaderLine):
            items = [line(item) for item in block.items]
            block = replace(block, items=[i for i in items if "".join(r.text for r in i).strip()])
            if not block.items:
                continue
        elif isinstance(block, Subheading):
            block = replace(
                block, title=line(block.title), dates=line(block.dates), place=line(block.place)
            )
        elif isinstance(block, Paragraph):
            block = replace(block, lines=[line(ln) for ln in block.lines])
        elif isinstance(block, Bullets):
            block = replace(block, items=[replace(i, runs=line(i.runs)) for i in block.items])
        elif isinstance(block, Table):
            block = replace(block, rows=[[line(c) for c in row] for row in block.rows])
        blocks.append(block)
    return replace(layout, blocks=blocks)


def _all_text(layout: Layout) -> str:
    """Every character the PDF will print (collected by the same walk that drops some)."""
    seen: list[str] = []

    def keep(ch: str) -> bool:
        seen.append(ch)
        return False

    _drop(layout, keep)
    return "".join(seen)


def describe(chars: list[str]) -> str:
    """'"𒀀" (U+12000 CUNEIFORM SIGN A)' for each character, at most five."""
    named = [
        f'"{ch}" (U+{ord(ch):04X} {unicodedata.name(ch, "")})'.replace(" )", ")") for ch in chars
    ]
    more = f" and {len(chars) - 5} more" if len(chars) > 5 else ""
    return ", ".join(named[:5]) + more


# -- compiling ----------------------------------------------------------------------------


@dataclass
class PdfResult:
    data: bytes
    pages: int
    left_out: list[str]  # characters the fonts cannot draw, left out
    space: float  # the spacing the layout was kept at (1.0: the template's own)
    paper: str = "a4"  # a4 or letter (``options.choose_paper``)
    fill: float = 1.0  # how far down its page the text ends (0 to 1 of the page height)


def render_pdf(
    markdown: str,
    template: str = "classic",
    *,
    strict: bool = False,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> bytes:
    """Markdown → PDF bytes (see ``export_pdf`` for the warnings)."""
    return export_pdf(markdown, template, strict=strict, options=options).data


def export_pdf(
    markdown: str,
    template: str = "classic",
    *,
    strict: bool = False,
    now: datetime | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> PdfResult:
    """Markdown → PDF on ``options.paper`` (by default the resume's own country's,
    ``choose_paper``), tightening the spacing once or twice when that saves a last page
    that holds only a small tail.  Characters no font draws are left out (``left_out``),
    or refused with ``strict``."""
    check_template(template)
    try:
        import typst  # lazy
    except ImportError as exc:
        raise ConfigError("PDF export needs typst", hint=documents_hint()) from exc
    fonts = _font_files()
    layout = _drop(read_layout(markdown), private_use)
    missing = missing_glyphs(_all_text(layout), fonts)
    if missing and strict:
        raise InputError(
            f"the PDF fonts cannot draw {describe(missing)}",
            hint="remove those characters, or export without --strict to leave them out",
        )
    if missing:
        gone = set(missing)
        layout = _drop(layout, lambda ch: ch in gone)
    now = now or datetime.now(timezone.utc)
    paper = choose_paper(markdown, options.paper)
    font_set = _typst_fonts(tuple(str(f.parent) for f in fonts))
    with tempfile.TemporaryDirectory(prefix="cvagent-pdf-") as folder:
        source = Path(folder) / "resume.typ"
        attach = pdf_attachment(Path(folder), markdown) if options.embed_source else ""
        best: PdfResult | None = None
        for space in (1.0, *TIGHTER):
            code = to_typst(
                layout, template, space=space, now=now, paper=paper, dates=options.dates
            )
            code += attach
            source.write_text(code, encoding="utf-8")
            compiler = typst.Compiler(str(source), root=folder, font_paths=font_set)
            try:
                data = compiler.compile(format="pdf", pdf_standards=["ua-1"])
            except typst.TypstError:  # PDF/UA refuses something: a tagged PDF all the same
                data = compiler.compile(format="pdf")
            assert isinstance(data, bytes)
            pages, fill = _end(compiler, paper)
            result = PdfResult(data, pages, missing, space, paper, fill)
            if best is None:
                best = result
            elif pages < best.pages:
                return result
            if pages < 2 or fill >= TAIL:
                break
        assert best is not None
        return best


def render_png(
    markdown: str,
    template: str = "classic",
    *,
    ppi: float = 60,
    now: datetime | None = None,
    options: WriteOptions = DEFAULT_OPTIONS,
) -> list[bytes]:
    """The pages of the PDF export as PNG images (for the visual regression tests)."""
    # lazy: typst (its compiler is in the wheel) loads only when a PDF is written
    import typst

    result = export_pdf(markdown, template, now=now, options=options)
    layout = _drop(read_layout(markdown), private_use)
    code = to_typst(
        layout, template, space=result.space, now=now, paper=result.paper, dates=options.dates
    )
    fonts = _typst_fonts(tuple(str(f.parent) for f in _font_files()))
    pages = typst.compile(code.encode("utf-8"), font_paths=fonts, format="png", ppi=ppi)
    return [pages] if isinstance(pages, bytes) else list(pages)


@functools.lru_cache(maxsize=4)
def _typst_fonts(folders: tuple[str, ...]) -> typst.Fonts:
    # lazy: typst (its compiler is in the wheel) loads only when a PDF is written
    import typst

    return typst.Fonts(include_system_fonts=False, font_paths=list(folders))


def _end(compiler: typst.Compiler, paper: str) -> tuple[int, float]:
    """The page count, and how full the last page is (0 to 1 of the page height)."""
    found = json.loads(compiler.query("<cv-end>", field="value"))
    if not found:
        return 1, 1.0
    end = found[0]
    y = float(str(end["y"]).removesuffix("pt"))
    return int(end["page"]), y / PAPER_SIZES[paper][1]
