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
import itertools
import logging
import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING

from cvagent_cli.document.kinds import is_standalone_title
from cvagent_cli.documents.formats import UNREADABLE_HINT
from cvagent_cli.documents.reading.pdf_cells import crosses, read_ruled_tables, ruled_tables
from cvagent_cli.documents.reading.pdf_glyphs import (
    SOFT_HYPHEN,
    page_glyphs,
    read_actual_text,
    shape_marks,
)
from cvagent_cli.documents.reading.pdf_header import SPLIT_CONTACT_RE, choose_name, continues
from cvagent_cli.documents.reading.pdf_layout import (
    Line,
    Word,
    cjk,
    find_gutter,
    fragment_side,
    join_words,
    make_lines,
    table_channels,
)
from cvagent_cli.documents.reading.pdf_lines import (
    PageLine,
    as_page_line,
    is_fragment,
    is_section,
    note,
    part,
    set_apart,
    with_bars,
)
from cvagent_cli.documents.reading.pdf_pages import drop_cover_letter, drop_running_lines
from cvagent_cli.documents.reading.structure import Para, Recognition, is_date_text, plain
from cvagent_cli.errors import ConfigError, InputError
from cvagent_cli.install import documents_hint
from cvagent_cli.script import CJK_SYMBOLS, FULLWIDTH_PUNCT

if TYPE_CHECKING:
    from pdfplumber.page import Page

_CJK_PUNCT_RE = re.compile(f"[{CJK_SYMBOLS}{FULLWIDTH_PUNCT}]")


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


def _read_page(page: Page, number: int, recognition: Recognition) -> list[Line]:
    read_actual_text(page)
    glyphs, rotated = page_glyphs(page)
    if rotated:
        recognition.unplaced.append(rotated)
    if not glyphs:
        return []
    size = statistics.median(g.size for g in glyphs)
    marks = shape_marks(page, size)
    tables = ruled_tables(page)
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
    if fragment_side(left, right, is_date_text):
        return _with_edge(lines)  # fragments on their rows: read row by row
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

    return (
        region(lambda _x, y: y < top - 0.5)
        + region(lambda gx, y: within(y) and gx < x)
        + region(lambda gx, y: within(y) and gx >= x)
        + region(lambda _x, y: y > bottom + 0.5)
    )


def _with_edge(lines: list[Line]) -> list[Line]:
    edge = max((ln.x1 for ln in lines), default=0.0)
    for line in lines:
        line.edge = edge
    return lines


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


@dataclass(frozen=True)
class _Words:
    """The document's own words, as evidence for re-joining words split at a line end."""

    plain: frozenset[str]
    compounds: frozenset[str]
    hyphenating: bool  # the producer hyphenates words (TeX, a justified paragraph)

    @classmethod
    def of(cls, lines: Sequence[Line], hyphenating: bool) -> _Words:
        texts = {w.text.lower().strip(".,;:()") for ln in lines for w in ln.words}
        compounds = {t for t in texts if re.search(r"[^\W\d_]-[^\W\d_]", t)}
        return cls(frozenset(texts), frozenset(compounds), hyphenating)


def _joiner(prev: str, nxt: str, words: _Words) -> tuple[str, str]:
    """(prev with its end fixed, the separator) for a wrapped line: no space at a CJK
    wrap or inside a wrapped e-mail address or URL; a soft hyphen re-joins a word, and so does a hyphen where the document shows it
    splits words ("manage-" "ment": a TeX or justified paragraph, or "management" elsewhere),
    unless the hyphenated form is printed elsewhere ("full-stack")."""
    if prev.endswith(SOFT_HYPHEN):
        return prev[:-1], ""
    if (
        (cjk(prev[-1:]) and cjk(nxt[:1]))
        or _CJK_PUNCT_RE.match(prev[-1:] + " ")
        or (_CJK_PUNCT_RE.match(nxt[:1] + " "))
    ):
        return prev, ""
    match = re.search(r"([^\W\d_]+)-$", prev)
    if match and nxt[:1].islower():
        tail = re.split(r"[^\w]", nxt, maxsplit=1)[0]
        head = match.group(1)
        if (head + tail).lower() in words.plain or (
            words.hyphenating and f"{head}-{tail}".lower() not in words.compounds
        ):
            return prev[:-1], ""
    if prev.endswith(("/", "-")) and not prev.endswith(" -"):
        return prev, ""
    token = prev.split()[-1] if prev.split() else ""
    local, at, domain = token.rpartition("@")
    cut = "." not in domain or re.search(r"\.[A-Za-z]?$", domain)
    if at and local and cut and nxt[:1].isalnum():
        # "priyanka.fennimore@exa" "mple.net", "mingxuan62@example.c" "om": an address cut
        # before its domain is whole
        return prev, ""
    return prev, " "


def _runs(tokens: list[tuple[str, bool, str]]) -> tuple[str, str]:
    """Inline Markdown for (separator, bold, text) tokens, and the bold lead-in when the
    text starts bold and goes on in regular weight."""
    parts: list[tuple[bool, str]] = []
    for sep, bold, text in tokens:
        if parts and parts[-1][0] == bold:
            parts[-1] = (parts[-1][0], parts[-1][1] + sep + text)
        else:
            if parts and sep:
                parts[-1] = (parts[-1][0], parts[-1][1] + sep)
            parts.append((bold, text))
    if len(parts) == 1 or not any(b for b, _ in parts):
        return "".join(t for _, t in parts), ""
    out = ""
    for bold, chunk in parts:
        core = chunk.strip()
        pad = chunk[len(chunk.rstrip()) :]
        out += (f"**{core}**" if bold and core else core) + pad
    lead = parts[0][1].strip() if parts[0][0] else ""
    return out, lead


def _paragraph(group: list[PageLine], known: _Words) -> Para | None:
    """One paragraph from its lines: wrapped lines joined, broken lines kept apart."""
    right = max(ln.x1 for ln in group)
    ends = [ln.x1 for ln in group[:-1]]
    justified = len(ends) >= 2 and max(ends) - min(ends) < 1.0
    evidence = replace(known, hyphenating=known.hyphenating or justified)
    tokens: list[tuple[str, bool, str]] = []
    for i, line in enumerate(group):
        if i:
            prev = group[i - 1]
            first = line.words[0]
            # wrapped, not broken: the next line's first word would not have fit in the
            # column (or the paragraph is justified: its lines all end at one place)
            fits = prev.x1 + (first.x1 - first.x0) + 0.3 * line.size <= (prev.edge or right)
            wrapped = not fits or (justified and prev.x1 >= right - 1.0)
            head, sep = tokens[-1][2], "\n"
            if line.role == "header":  # grouped only when it continues the line above
                head, sep = _joiner(head, first.text, evidence)
                sep = "" if SPLIT_CONTACT_RE.search(head) else sep
            elif wrapped:
                head, sep = _joiner(head, first.text, evidence)
            tokens[-1] = (tokens[-1][0], tokens[-1][1], head)
        else:
            sep = ""
        for j, word in enumerate(line.words):
            tokens.append((sep if j == 0 else " ", word.bold, word.text))
    tokens = [(s, b, t.replace(SOFT_HYPHEN, "")) for s, b, t in tokens]
    tokens = [tok for tok in tokens if tok[2]]
    if not tokens:
        return None
    words = [w for ln in group for w in ln.words if w.text != "|"]
    all_bold = all(w.bold for w in words)
    if all_bold or not any(w.bold for w in words):
        text, lead = "".join(s + t for s, _, t in tokens), ""
    else:
        text, lead = _runs(tokens)
        text = text.replace("\n", " ")
    return Para(
        text=text,
        role="bullet" if group[0].bullet else "text",
        bold=all_bold,
        size=statistics.median(w.size for w in words) if words else 0.0,
        caps=bool(words) and all(w.caps for w in words),
        lead=lead,
        page=group[0].page,
    )


def _icon_heading(line: PageLine, body: float) -> bool:
    """A line that starts with a mark (an icon font's glyph, an unknown glyph) and is a
    section title set apart like one ("  EXPERIENCE" in 13 pt over a 10.5 pt body): the
    mark is the title's icon, as builders put one before every section name."""
    text = line.text().strip()
    capitals = text.isupper() and any(c.isalpha() for c in text)
    return is_standalone_title(text.rstrip(":：")) and (
        line.size > body + 0.5 or (line.bold and capitals)
    )


def _dated(groups: list[tuple[list[PageLine], float]], group: list[PageLine]) -> bool:
    """The group is one line and a date split off its row (or the next row) follows it."""
    if len(group) > 1 or group[0].bullet:
        return False
    index = next(i for i, (g, _) in enumerate(groups) if g is group)
    for following, _ in groups[index + 1 : index + 3]:
        line = following[0]
        if line.bullet:
            return False
        if line.fixed and is_date_text(line.text()):
            return True
    return False


def join_paragraphs(lines: list[PageLine], hyphenating: bool) -> list[Para]:
    if not lines:
        return []
    gaps = [
        b.top - a.bottom
        for a, b in itertools.pairwise(lines)
        if a.page == b.page and abs(a.size - b.size) < 0.5 and 0 <= b.top - a.bottom < 2 * a.size
    ]
    # The gap between the lines of one paragraph: the small gaps (a quartile, so a page of
    # one-line paragraphs does not make the paragraph gap look usual).
    size = statistics.median(ln.size for ln in lines)
    for line in lines:
        if line.bullet and _icon_heading(line, size):
            line.bullet = False  # an icon before a section title, not a list item
    usual = min(sorted(gaps)[len(gaps) // 4], 0.5 * size) if gaps else 0.3 * size
    groups: list[tuple[list[PageLine], float]] = []  # (lines, text x)
    for line in lines:
        last = groups[-1][0][-1] if groups else None
        if (
            last is not None
            and line.role == last.role
            and line.page == last.page
            and (
                line.role == "title"
                or (
                    line.role == "header"
                    and abs(line.size - last.size) < 0.5
                    and continues(last.text(), line.text())
                )
            )
        ):
            groups[-1][0].append(line)
            continue
        if groups and not (line.bullet or line.fixed or line.role):
            prev_lines, prev_x = groups[-1]
            prev = prev_lines[-1]
            if (
                not prev.fixed
                and not prev.role
                and prev.page == line.page
                and line.top - prev.bottom <= usual + 0.3 * line.size
                and abs(line.x0 - prev_x) < 0.8 * line.size
                and abs(line.size - prev.size) < 0.5
                and line.bold == prev.bold
            ):
                prev_lines.append(line)
                continue
        groups.append(([line], line.text_x0))
    known = _Words.of(lines, hyphenating)
    paras: list[Para] = []
    glyph_x: float | None = None
    for group, _ in groups:
        para = _paragraph(group, known)
        if para is None:
            continue
        first = group[0]
        if first.role == "title":
            para.role, para.text = "title", plain(para.text)
        elif first.role == "header":
            para.role = "header"
        elif para.lead and group is not groups[-1][0] and _dated(groups, group):
            # "**Company,** Role | Place" over the date printed on its row: the whole row
            # is the entry's heading, the date the line under it.
            para.role, para.text, para.lead = "h3", plain(para.text), ""
        elif first.role in ("row", "date"):
            para.role = first.role  # text under its entry, never a heading
        if first.bullet:
            glyph_x = first.bullet_x if glyph_x is None else glyph_x
            para.depth = 1 if first.bullet_x > glyph_x + 0.8 * para.size else 0
        else:
            glyph_x = None
        paras.append(para)
    return paras


def pdf_paragraphs(
    data: bytes, source: str, max_pages: int | None = None
) -> tuple[list[Para], Recognition]:
    """The paragraphs of the PDF's first ``max_pages`` pages (all when None)."""
    pdfplumber = _require_pdfplumber()
    recognition = Recognition()
    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except Exception as exc:  # pdfminer raises many types on broken or encrypted files
        name = type(exc).__name__
        chain = f"{exc!r} {exc.__cause__!r} {exc.__context__!r}".lower()
        if "password" in chain or "encrypt" in chain:
            raise InputError(
                f"{source}: the PDF is encrypted (password-protected)",
                hint="save an unprotected copy (print to PDF) and import that",
            ) from None
        raise InputError(
            f"{source}: not a readable PDF file ({name})", hint=UNREADABLE_HINT
        ) from None
    pages: list[list[Line]] = []
    heights: list[float] = []
    try:
        with pdf:
            producer = " ".join(str(pdf.metadata.get(k, "")) for k in ("Producer", "Creator"))
            tex = bool(re.search(r"tex\b|tex[-\s]|latex|xdvipdfmx", producer, re.IGNORECASE))
            for number, page in enumerate(pdf.pages[:max_pages]):
                pages.append(_read_page(page, number, recognition))
                heights.append(float(page.height))
                recognition.images += len(page.images)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(
            f"{source}: not a readable PDF file ({type(exc).__name__})", hint=UNREADABLE_HINT
        ) from None
    if not any(pages):
        raise InputError(
            f"{source} has no text layer; OCR is not supported",
            hint="it is a scanned or image-only PDF: export it again from the program that "
            "made it, or type the text into a .md file",
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
