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
