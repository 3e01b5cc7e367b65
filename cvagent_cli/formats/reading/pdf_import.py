"""PDF → paragraphs with layout hints, read from the glyphs pdfplumber finds on each page.

``pdf_glyphs`` cleans the glyphs (fake bold, icons, unknown glyph codes, soft hyphens,
bullets drawn as shapes); ``pdf_layout`` makes words and lines and finds columns;
``pdf_pages`` drops running headers, footers, page numbers and a trailing cover letter;
``pdf_header`` finds the name.  Here each page is read (columns or rows), a line with cells
is split (a date at the edge of a row goes under its entry, a table row keeps ``|`` between
its cells), and lines become paragraphs.
"""

from __future__ import annotations

import io
import logging
import re
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cvagent_cli.errors import ConfigError, InputError
from cvagent_cli.formats.file_types import UNREADABLE_HINT
from cvagent_cli.formats.reading.ocr import (
    OcrNotInstalled,
    PageProgress,
    ocr_hint,
    read_pages,
)
from cvagent_cli.formats.reading.pdf_cells import crosses, read_ruled_tables, ruled_tables
from cvagent_cli.formats.reading.pdf_columns import (
    before_their_rows,
    find_gutter,
    fragment_side,
    labels_in_head,
    list_columns,
    side_labels,
    table_channels,
)
from cvagent_cli.formats.reading.pdf_glyphs import (
    Glyph,
    page_glyphs,
    read_actual_text,
    shape_marks,
)
from cvagent_cli.formats.reading.pdf_header import choose_name, continues
from cvagent_cli.formats.reading.pdf_join import join_paragraphs
from cvagent_cli.formats.reading.pdf_layout import Line, Word, cjk, join_words, make_lines
from cvagent_cli.formats.reading.pdf_lines import (
    PageLine,
    as_page_line,
    is_fragment,
    is_section,
    note,
    part,
    set_apart,
    with_bars,
)
from cvagent_cli.formats.reading.pdf_pages import drop_cover_letter, drop_running_lines
from cvagent_cli.formats.reading.structure import Para, Recognition, is_date_text
from cvagent_cli.install import documents_hint

if TYPE_CHECKING:
    from pdfplumber.page import Page
    from pdfplumber.pdf import PDF


def _require_pdfplumber() -> ModuleType:
    try:
        import pdfplumber  # lazy: heavy, and only in the `documents` extra
    except ImportError as exc:
        raise ConfigError("PDF import needs pdfplumber", hint=documents_hint()) from exc
    # pdfminer logs what it works round in a file ("Could not get FontBBox from font
    # descriptor …", common in browser-printed CJK PDFs) as warnings, which Python's
    # last-resort handler would print to the user's terminal: what cvagent could not read
    # is reported in its own words instead.
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    return pdfplumber


def _read_page(
    page: Page,
    number: int,
    recognition: Recognition,
    glyphs: list[Glyph] | None = None,
    drawn: list[dict[str, Any]] | None = None,
) -> list[Line]:
    """The lines of ``page``, from its text layer or from ``glyphs`` read by OCR (and the
    rules OCR saw drawn on the picture, ``drawn``)."""
    if glyphs is None:
        read_actual_text(page)
        glyphs, rotated = page_glyphs(page)
        if rotated:
            recognition.unplaced.append(rotated)
    if not glyphs:
        return []
    size = statistics.median(g.size for g in glyphs)
    marks = shape_marks(page, size)
    tables = ruled_tables(page, drawn)
    lines = read_ruled_tables(make_lines(glyphs, marks, number), tables, number)
    gutter = find_gutter(lines)
    if gutter is None or crosses(tables, *gutter):
        return _with_edge(lines)
    x, top, bottom = gutter
    inside = [ln for ln in lines if ln.top >= top - 0.5 and ln.bottom <= bottom + 0.5]
    left = [Line([w for w in ln.words if w.x1 <= x], number) for ln in inside]
    right = [Line([w for w in ln.words if w.x0 >= x], number) for ln in inside]
    left = [ln for ln in left if ln.words]
    right = [ln for ln in right if ln.words]
    labels = side_labels(left, right, is_section, is_date_text)
    if labels is None and fragment_side(left, right, is_date_text):
        return _with_edge(lines)  # fragments on their rows: read row by row
    if labels is None:
        note(recognition, "two-column layout: read the left column, then the right one")

    def region(keep: Callable[[float, float], bool]) -> list[Line]:
        inside = make_lines(
            [g for g in glyphs if keep((g.x0 + g.x1) / 2, g.mid)],
            [m for m in marks if keep((m.x0 + m.x1) / 2, (m.top + m.bottom) / 2)],
            number,
        )
        return _with_edge(read_ruled_tables(inside, tables, number))

    def within(y: float) -> bool:
        return top - 0.5 <= y <= bottom + 0.5

    if labels is None:
        band = region(lambda gx, y: within(y) and gx < x)
        band += region(lambda gx, y: within(y) and gx >= x)
    else:
        # the labels whole: a gutter found inside a word ("Profession|al") leaves no piece
        start = Counter(round(ln.words[0].x0) for ln in right).most_common(1)[0][0] - 1
        labels = (
            side_labels(
                region(lambda gx, y: within(y) and gx < start), right, is_section, is_date_text
            )
            or labels
        )
        note(recognition, "section names in a column at the left: each read before its section")
        boxes = [(ln.x0, ln.top, max(w.x1 for w in ln.words), ln.bottom) for ln in labels]

        def content(gx: float, y: float) -> bool:
            return within(y) and not any(a <= gx <= c and b <= y <= d for a, b, c, d in boxes)

        band = before_their_rows(_with_edge(labels), region(content))
        head = labels_in_head(region(lambda _x, y: y < top - 0.5), labels, x, is_section)
        return head + band + region(lambda _x, y: y > bottom + 0.5)
    return region(lambda _x, y: y < top - 0.5) + band + region(lambda _x, y: y > bottom + 0.5)


def _with_edge(lines: list[Line]) -> list[Line]:
    edge = max((ln.x1 for ln in lines), default=0.0)
    for line in lines:
        line.edge = edge
    return list_columns(lines)


_UNFINISHED = tuple(",，、/-@&(")
_ADDRESS_RE = re.compile(
    r"[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
    r"|(?:https?://|www\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:/[\w.~%-]*)*"
)


def _address_wraps(head: str, rest: str) -> bool:
    """``rest`` is the end of the address ``head`` ends with: the next line goes on with it
    ("…@exa" "mple.net"), or the two form one address though the first half looks whole
    ("…@example.co" "m")."""
    if continues(head, rest):
        return True
    token = head.split()[-1] if head.split() else ""
    return (
        bool(re.search(r"@|/|www\.", token))
        and " " not in rest.strip()
        and (rest[:1].islower() or rest[:1].isdigit())
        and bool(_ADDRESS_RE.fullmatch(token + rest.strip()))
    )


def _wrapped_cells(
    above: PageLine, cells_above: list[list[Word]], line: PageLine, cells: list[list[Word]]
) -> list[int] | None:
    """For a line that is the rest of a table row's cells wrapped in their narrow columns
    ("Email | teodor.dunmore@exa | City | Rotterdam," then "mple.net | Netherlands"): the
    column each of its cells continues, else None.  Each cell starts where a column of the
    row above starts, never in its first column (a new row starts there), the line follows
    the row closely, and one cell at least finishes what the row left unfinished (an
    address cut mid-way, a trailing comma or slash)."""
    if (
        line.bullet
        or line.role == "title"
        or len(cells_above) < 2
        or line.page != above.page
        or abs(line.size - above.size) >= 0.5
        or not 0 <= line.top - max(w.bottom for c in cells_above for w in c) < 0.6 * line.size
    ):
        return None
    starts = [cell[0].x0 for cell in cells_above]
    columns: list[int] = []
    for cell in cells:
        column = next(
            (k for k, x in enumerate(starts) if abs(cell[0].x0 - x) < 0.5 * line.size), None
        )
        if not column or (columns and column <= columns[-1]):
            return None
        if column + 1 < len(starts) and cell[-1].x1 > starts[column + 1]:
            return None  # runs into the next column: not inside this cell
        columns.append(column)
    unfinished = any(
        _address_wraps(join_words(cells_above[k]), join_words(cell))
        or join_words(cells_above[k]).endswith(_UNFINISHED)
        for k, cell in zip(columns, cells, strict=True)
    )
    return columns if unfinished else None


def _join_cell(cell: list[Word], rest: list[Word]) -> None:
    """``rest`` appended to ``cell``: with no space where an address or a CJK text wraps."""
    last, first = cell[-1], rest[0]
    glued = (
        _address_wraps(last.text, first.text)
        or last.text.endswith(("/", "@"))
        or (cjk(last.text[-1:]) and cjk(first.text[:1]))
    )
    if glued:
        cell[-1] = replace(
            last, text=last.text + first.text, x1=max(last.x1, first.x1), bottom=first.bottom
        )
        rest = rest[1:]
    cell.extend(rest)


def split_cells(lines: list[PageLine]) -> list[PageLine]:
    """Lines with cells (wide gaps, table columns).  A date at either edge of a row goes on
    its own line right under the row (the entry it dates); other fragments (a place, a role)
    stay on their row after a `|`, and so do table cells.  A date printed at the right
    margin of a bullet's row belongs to the entry above the bullets: it goes there, and a
    date wrapped onto the next row of its narrow column is joined to it."""
    if not lines:
        return []
    right_edge = max(ln.x1 for ln in lines)
    tables = table_channels(list(lines))
    # where most lines of the page start: text left of it is in a margin column
    body_x = Counter(round(ln.x0) for ln in lines).most_common(1)[0][0]
    out: list[PageLine] = []
    last_date: PageLine | None = None
    last_row: tuple[PageLine, list[list[Word]]] | None = None  # a row of cells, its cells
    for index, line in enumerate(lines):
        if last_row is not None:
            row, row_cells = last_row
            cells = line.cells(tables.get(index, []))
            columns = _wrapped_cells(row, row_cells, line, cells)
            if columns is not None:  # the rest of the row's cells, wrapped in their columns
                for column, cell in zip(columns, cells, strict=True):
                    _join_cell(row_cells[column], cell)
                row.words = with_bars(row_cells)
                last_row = (row, row_cells)
                continue
            last_row = None
        if line.role:  # the name, the lines under it: one line each
            if line.role == "header":
                cells = line.cells(tables.get(index, []))
                line.words = with_bars(cells)
                last_row = (line, cells) if len(cells) > 1 else None
            out.append(line)
            continue
        if (
            last_date is not None
            and not line.bullet
            and len(line.text()) <= 12
            and min(abs(line.x1 - last_date.x1), abs(line.x0 - last_date.x0)) < line.size
            and line.size <= last_date.size + 0.5
            and 0 <= line.top - last_date.bottom < line.size
        ):
            last_date.words.extend(line.words)  # the rest of a date wrapped in its column
            continue
        cells = _row_cells(line, tables.get(index, []))
        if (
            len(cells) > 1
            and not line.bullet
            and is_section(join_words(cells[0]))
            and cells[0][0].x0 < body_x - 0.5 * line.size <= cells[1][0].x0  # a margin column
            and set_apart(cells[0], cells[1])
        ):
            # a section title in a margin column, printed on its first line's row (moderncv
            # "fancy"): the title first, then the row
            out.append(part(cells[0], line, fixed=True))
            cells = cells[1:]
            line = part([w for cell in cells for w in cell], line)
            if len(cells) == 1:
                out.append(line)
                continue
        tail, size = cells[-1], line.size
        at_margin = tail[-1].x1 >= right_edge - 1.5 * size
        if line.bullet and len(cells) > 1 and at_margin and is_fragment(join_words(tail)):
            if (
                last_date is not None
                and abs(last_date.x1 - tail[-1].x1) < size
                and 0 <= tail[0].top - last_date.bottom < size
            ):
                last_date.words.extend(tail)
            else:
                last_date = part(tail, line, fixed=True, role="date")
                at = len(out)
                while at and out[at - 1].bullet:
                    at -= 1
                out.insert(at, last_date)
            rest = [w for cell in cells[:-1] for w in cell]
            out.append(part(rest, line, bullet=True))
            continue
        last_date = None
        if len(cells) == 1 or line.bullet:
            out.append(line)
        elif len(cells) == 2 and is_date_text(join_words(tail)):
            out.append(part(cells[0], line))
            last_date = part(tail, line, fixed=True, role="date")
            out.append(last_date)
        elif len(cells) == 2 and is_date_text(join_words(cells[0])):
            out.append(part(tail, line))
            last_date = part(cells[0], line, fixed=True, role="date")
            out.append(last_date)
        else:
            row = part(with_bars(cells), line, fixed=True)
            row.role = "row"  # cells of a row: text, never a heading
            out.append(row)
            last_row = (row, cells)
    return out


def _row_cells(line: PageLine, channels: list[tuple[float, float]]) -> list[list[Word]]:
    """A row's cells: split at wide gaps and table channels, and a date or a section title
    set apart at a row's edge; a margin title closer to its row's first cell than the
    cells are to each other ("Skills  Kubernetes, Terraform,   Python, Go") is split off."""
    cells = line.cells(channels)
    if line.bullet:
        return cells
    if len(cells) == 1:
        return line.edge_cells(lambda t: is_date_text(t) or is_section(t))
    head = part(cells[0], line).edge_cells(is_section)
    if len(head) == 2 and is_section(join_words(head[0])):
        return [*head, *cells[1:]]
    return cells


def _read_scans(
    pdf: PDF,
    data: bytes,
    source: str,
    pages: list[list[Line]],
    scanned: list[int],
    recognition: Recognition,
    progress: PageProgress | None,
) -> None:
    """The ``scanned`` pages of ``pages`` read by OCR.  Without the ``ocr`` extra a PDF with
    no text at all is refused; one with text elsewhere is read without its scanned pages,
    with a warning."""
    try:
        found = read_pages(data, source, scanned, recognition, progress)
    except OcrNotInstalled:
        if not any(pages):
            raise
        which = ", ".join(str(n + 1) for n in scanned)
        recognition.warnings.append(
            f"{'page' if len(scanned) == 1 else 'pages'} {which} of {source} "
            f"{'is a picture' if len(scanned) == 1 else 'are pictures'} with no text layer "
            f"(a scan), not read: install the ocr extra to read it ({ocr_hint()})"
        )
        return
    recognition.images -= sum(len(pdf.pages[n].images) for n in found)
    for number, scan in found.items():
        page = pdf.pages[number]
        glyphs = scan.glyphs
        if pages[number]:  # a text layer over the scan (a typed header): it wins where it is
            read_actual_text(page)
            layer, _ = page_glyphs(page)
            glyphs = layer + [g for g in glyphs if not _under(g, layer)]
        pages[number] = _read_page(page, number, recognition, glyphs, scan.rules)


#: A page whose text layer holds fewer characters than this over a picture covering most of
#: it is a scan with a few typed lines (a header added after scanning): it is read by OCR.
_FEW_CHARS = 200


def _scanned(page: Page, lines: list[Line]) -> bool:
    """Is ``page`` a scan: a picture and no text, or a picture over half the page and only
    a few lines of text?"""
    if not page.images:
        return False
    if not lines:
        return True
    area = float(page.width) * float(page.height)
    pictured = max(
        (float(i["x1"]) - float(i["x0"])) * (float(i["bottom"]) - float(i["top"]))
        for i in page.images
    )
    return pictured >= 0.5 * area and len(page.chars) < _FEW_CHARS


def _under(glyph: Glyph, layer: list[Glyph]) -> bool:
    """Does OCR's ``glyph`` lie on text the text layer has (within a point)?"""
    x, y = (glyph.x0 + glyph.x1) / 2, glyph.mid
    return any(g.x0 - 1 <= x <= g.x1 + 1 and g.top - 1 <= y <= g.bottom + 1 for g in layer)


def pdf_paragraphs(
    data: bytes, source: str, max_pages: int | None = None, progress: PageProgress | None = None
) -> tuple[list[Para], Recognition]:
    """The paragraphs of the PDF's first ``max_pages`` pages (all when None); with no text
    layer, of what OCR reads on them (``progress`` is told of each page)."""
    pdfplumber = _require_pdfplumber()
    recognition = Recognition()
    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except Exception as exc:  # pdfminer raises many types on broken or encrypted files
        chain = f"{exc!r} {exc.__cause__!r} {exc.__context__!r}".lower()
        if "password" in chain or "encrypt" in chain:
            raise InputError(
                f"{source}: the PDF is encrypted (password-protected)",
                hint="save an unprotected copy (print to PDF) and import that",
            ) from None
        raise InputError(  # not pdfminer's class name ("PdfminerException"): what it means
            f"{source}: not a readable PDF file (damaged or cut short)", hint=UNREADABLE_HINT
        ) from None
    pages: list[list[Line]] = []
    heights: list[float] = []
    try:
        with pdf:
            producer = " ".join(str(pdf.metadata.get(k, "")) for k in ("Producer", "Creator"))
            tex = bool(re.search(r"tex\b|tex[-\s]|latex|xdvipdfmx", producer, re.IGNORECASE))
            pictured: list[int] = []  # scanned pages (see _scanned)
            for number, page in enumerate(pdf.pages[:max_pages]):
                pages.append(_read_page(page, number, recognition))
                heights.append(float(page.height))
                recognition.images += len(page.images)
                if _scanned(page, pages[-1]):
                    pictured.append(number)
            # OCR (the `ocr` extra) reads the scanned pages: every page of a PDF with no
            # text at all (text drawn as outlines has no picture), else the scans
            scanned = pictured if any(pages) else list(range(len(pages)))
            if scanned:
                _read_scans(pdf, data, source, pages, scanned, recognition, progress)
    except InputError:
        raise
    except Exception:
        raise InputError(
            f"{source}: not a readable PDF file (damaged or cut short)", hint=UNREADABLE_HINT
        ) from None
    if not any(pages):
        raise InputError(
            f"{source} has no text layer, and OCR found no text in its pages",
            hint="export it again from the program that made it, or type the text into a .md file",
        )
    pages = drop_cover_letter(drop_running_lines(pages, heights, recognition), recognition)
    lines = [as_page_line(ln) for page_lines in pages for ln in page_lines]
    if not lines:
        return [], recognition
    body = statistics.median(ln.size for ln in lines)
    lines = choose_name(lines, body, recognition)
    by_page: dict[int, list[PageLine]] = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    lines = [ln for page in by_page.values() for ln in split_cells(page)]
    return join_paragraphs(lines, tex), recognition
