"""The lines of a PDF page as the reader decides about them (``PageLine``), and the small
rules the page-level steps share: cells joined with ``|``, a section title, a row fragment."""

from __future__ import annotations

import statistics

from cvagent_cli.document.kinds import classify_title
from cvagent_cli.formats.reading.pdf_layout import Line, Word
from cvagent_cli.formats.reading.structure import Recognition, is_date_text


class PageLine(Line):
    """A line with what the page-level reading decided about it."""

    fixed = False  # stands alone: a cell split off its row, a table row
    # "title" (the name), "header" (the lines under it), "row" (a line of cells), "date" (a
    # date split off its row): decided here; "" is left to ``structure``
    role = ""


def as_page_line(line: Line, fixed: bool = False) -> PageLine:
    out = PageLine(
        line.words, line.page, line.bullet, line.bullet_x, line.edge, line.tracking, line.rules
    )
    out.fixed = fixed
    return out


def part(
    words: list[Word], of: Line, bullet: bool = False, fixed: bool = False, role: str = ""
) -> PageLine:
    """A new line made of some of ``of``'s words (a cell of it)."""
    line = Line(words, of.page, bullet, of.bullet_x, of.edge, of.tracking, of.rules)
    out = as_page_line(line, fixed)
    out.role = role
    return out


def note(recognition: Recognition, note: str) -> None:
    if note not in recognition.notes:
        recognition.notes.append(note)


#: What a file prints between the items of a row ("|", "·", "/", ","): at a cell's end it is
#: said again by the bars between cells.
SEPARATORS = frozenset("|｜·•∙・/–—-,")


def _trimmed(cell: list[Word]) -> list[Word]:
    """The cell without the separators at its ends ("+1 416-555-0180 |" before an icon)."""
    start, end = 0, len(cell)
    while start < end and cell[start].text in SEPARATORS:
        start += 1
    while end > start and cell[end - 1].text in SEPARATORS:
        end -= 1
    return cell[start:end]


def with_bars(cells: list[list[Word]]) -> list[Word]:
    words: list[Word] = []
    kept = [trimmed for cell in cells if (trimmed := _trimmed(cell))] if len(cells) > 1 else []
    for cell in kept or cells:
        if words:
            w = cell[0]
            words.append(Word("|", w.x0, w.x0, w.top, w.bottom, w.size, False))
        words.extend(cell)
    return words


def set_apart(label: list[Word], rest: list[Word]) -> bool:
    """The label is typeset as a heading beside the text: larger, or bold beside regular
    (a moderncv item label, "Languages  Python, R", is neither)."""
    size = max(w.size for w in label)
    return size >= statistics.median(w.size for w in rest) + 1 or (
        all(w.bold for w in label) and not any(w.bold for w in rest)
    )


def is_section(text: str) -> bool:
    """A short text that names a kind of resume section ("Experience", "教育背景")."""
    text = text.strip().rstrip(":：")
    return 0 < len(text) <= 30 and len(text.split()) <= 4 and classify_title(text) != "other"


def is_fragment(text: str) -> bool:
    """A short piece a layout prints at a row's edge: a date, a place, a role."""
    text = text.strip()
    return is_date_text(text) or (
        len(text) <= 45 and len(text.split()) <= 6 and not text.endswith((".", "。", "；", ";"))
    )


#: OCR's sizes are the heights of its lines' ink: a line with descenders ("Data Engineer")
#: or one whose picture was cropped short measures up to a quarter more or less than
#: another set in the same font ("Thaddeus Eberhardt").
OCR_SIZES = 1.25


def as_large(size: float, than: float, ocr: bool) -> bool:
    """Is text of ``size`` as large as text of size ``than``, as far as a text layer's font
    sizes, or OCR's ink heights (``ocr``), can tell?"""
    return size * (OCR_SIZES if ocr else 1.0) >= than


def same_size(a: float, b: float, ocr: bool) -> bool:
    """Two lines set in one size: within half a point (a text layer), or as large as each
    other as OCR measures them."""
    return as_large(a, b, ocr) and as_large(b, a, ocr) if ocr else abs(a - b) < 0.5


def level(a: PageLine, b: PageLine) -> bool:
    """Two lines on one row: their middles within a quarter of the smaller's size."""
    return abs((a.top + a.bottom) - (b.top + b.bottom)) / 2 < 0.25 * min(a.size, b.size)
