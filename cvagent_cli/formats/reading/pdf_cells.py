"""Ruled tables: the grid a form draws around its cells (a details table of label/value
pairs, as Word and WPS templates lay them out) decides which words belong together.

Text wrapped inside a narrow cell ("Anna-" / "Lena", "s.fitzgerald-" / "moore@uni…",
"Nam" / "e") is one value, however many lines it takes; without the grid, each line of the
wrap reads as a row of its own.  Each row of such a table becomes one line whose words are
its cells, so the page-level reading joins them with ``|`` like any other row.

Only tables of short cells are read here.  A cell holding a list or a paragraph (a whole
resume laid out in one bordered table) is left to the ordinary reading, line by line.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from cvagent_cli.formats.reading.pdf_layout import Line, Word, cjk

if TYPE_CHECKING:
    from pdfplumber.page import Page
    from pdfplumber.table import Table

_GRID = {"vertical_strategy": "lines", "horizontal_strategy": "lines"}
_MAX_CELL_LINES = 6  # more is a paragraph or a list, not a value
_RULE = 2.0  # points: a rectangle this thin is a drawn rule


def _vertical_rules(page: Page) -> int:
    """How many vertical rules the page draws (lines, thin rectangles): a cheap test before
    the table finder, which costs as much again as reading the page."""
    count = 0
    for obj in (*page.lines, *page.rects):
        width = float(obj["x1"]) - float(obj["x0"])
        height = float(obj["bottom"]) - float(obj["top"])
        if width <= _RULE and height > 4:
            count += 1
        elif obj.get("object_type") == "rect" and width > _RULE and height > _RULE:
            count += 2  # a stroked box draws two
    return count


def _inside(word: Word, box: tuple[float, float, float, float]) -> bool:
    x0, top, x1, bottom = box
    mid_x, mid_y = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return x0 <= mid_x <= x1 and top <= mid_y <= bottom


def _glued(prev: Word, nxt: Word, first: bool, right: float) -> bool:
    """No space where a cell's text wraps: after a hyphen or a slash (the break a wrapper
    takes inside a compound, an address or a URL), between CJK characters, and where one
    word wider than the cell was broken wherever the edge fell ("lena.whitcom" / "be-",
    "Nam" / "e"): the piece before the break starts its line and fills it to the cell's
    edge (the next glyph did not fit), and the piece after it goes on in lower case.  A
    capital after the wrap starts a word ("Jean-Baptiste" / "Okonkwo"), though the line
    before it may fill the cell as well."""
    if prev.text.endswith(("-", "/", "@")) or (cjk(prev.text[-1:]) and cjk(nxt.text[:1])):
        return True
    glyph = (nxt.x1 - nxt.x0) / max(len(nxt.text), 1)
    lower = nxt.text[:1].islower() or nxt.text[:1].isdigit() or nxt.text[:1] in ".@_"
    return first and lower and prev.x1 >= right - 1.2 * glyph


def _cell_word(lines: list[list[Word]], right: float) -> Word:
    """The lines of one cell as one word: its text joined across the wraps; ``right`` is
    where the cell's text must stop (its right edge less the padding)."""
    text = lines[0][0].text
    flat = [w for line in lines for w in line]
    starts = {id(line[0]) for line in lines}
    for prev, word in itertools.pairwise(flat):
        wrap = prev.top < word.top - 0.5 * word.size
        # CJK text has no spaces: a form spreads a label over its cell ("姓　　名")
        glued = (cjk(prev.text[-1:]) and cjk(word.text[:1])) or (
            wrap and _glued(prev, word, id(prev) in starts, right)
        )
        text += word.text if glued else " " + word.text
    first = lines[0]
    return Word(
        text=text,
        x0=min(w.x0 for w in flat),
        x1=max(w.x1 for w in flat),
        top=min(w.top for w in first),
        bottom=max(w.bottom for w in first),
        size=max(w.size for w in flat),
        bold=sum(w.bold for w in flat) * 2 > len(flat),
        caps=all(w.caps for w in flat),
        font=first[0].font,
    )


def _cell_lines(lines: list[Line], box: tuple[float, float, float, float]) -> list[list[Word]]:
    out = []
    for line in lines:
        words = [w for w in line.words if _inside(w, box)]
        if words:
            out.append(words)
    return out


def _table_rows(lines: list[Line], table: Table, page: int) -> list[Line] | None:
    """The table's rows as lines of cell words, or None when it is not a table of short
    values (a cell with a bullet list or a paragraph, a single column, a line that runs
    out of the table)."""
    x0, top, x1, bottom = table.bbox
    within = [ln for ln in lines if top - 1 <= (ln.top + ln.bottom) / 2 <= bottom + 1]
    for line in within:
        if line.bullet or any(not x0 - 1 <= (w.x0 + w.x1) / 2 <= x1 + 1 for w in line.words):
            return None
    rows: list[Line] = []
    for row in table.rows:
        boxes = [box for box in row.cells if box is not None]
        words: list[Word] = []
        for box in boxes:
            cell = _cell_lines(within, box)
            if not cell:
                continue
            if len(cell) > _MAX_CELL_LINES:
                return None
            pad = max(0.0, min(w.x0 for ln in cell for w in ln) - box[0])
            words.append(_cell_word(cell, box[2] - pad))
        if words:
            rules = tuple(box[2] for box in boxes[:-1])
            rows.append(Line(words, page, rules=rules))
    if len(rows) < 1 or max(len(r.words) for r in rows) < 2:
        return None
    return rows


def ruled_tables(page: Page, drawn: list[dict[str, Any]] | None = None) -> list[Table]:
    """The page's ruled tables of two columns or more (pdfplumber's, from the lines it
    draws, or on a scan from the rules OCR saw on its picture, ``drawn``): a box drawn
    round the page or a section is not a table."""
    settings: dict[str, Any] = _GRID
    if drawn is not None:
        verticals = sum(line["x0"] == line["x1"] for line in drawn)
        settings = {
            "vertical_strategy": "explicit",
            "horizontal_strategy": "explicit",
            "explicit_vertical_lines": drawn,
            "explicit_horizontal_lines": drawn,
        }
    else:
        verticals = _vertical_rules(page)
    if verticals < 3:
        return []
    tables = page.find_tables(settings)
    return [t for t in tables if max((len(r.cells) for r in t.rows), default=0) >= 2]


def crosses(tables: list[Table], x: float, top: float, bottom: float) -> bool:
    """A column gutter at ``x`` from ``top`` to ``bottom`` runs through a ruled table: it
    is the gap between two of the table's columns, not between two columns of the page."""
    for table in tables:
        x0, t0, x1, b0 = table.bbox
        if x0 < x < x1 and t0 < bottom and b0 > top:
            return True
    return False


def read_ruled_tables(lines: list[Line], tables: list[Table], number: int) -> list[Line]:
    """``lines`` with each ruled table of short values replaced by one line per row."""
    for table in tables:
        rows = _table_rows(lines, table, number)
        if rows is None:
            continue
        _, top, _, bottom = table.bbox
        kept = [ln for ln in lines if not top - 1 <= (ln.top + ln.bottom) / 2 <= bottom + 1]
        lines = sorted([*kept, *rows], key=lambda ln: ln.top)
    return lines
