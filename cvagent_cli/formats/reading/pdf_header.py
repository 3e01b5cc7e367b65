"""The name at the top of a PDF resume and the lines under it (subtitle, contact details).

The name is the largest text near the top of page 1, in a cell of its own, else the value of
a ``Name:`` / ``姓名：`` field; a document title ("Resume", "个人简历") is left out.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from cvagent_cli import languages
from cvagent_cli.document import person, zh_names
from cvagent_cli.document.basics import URL_RE
from cvagent_cli.document.kinds import classify_title
from cvagent_cli.document.title_words import is_document_title
from cvagent_cli.formats.reading.docx_text import LABELS, NAME_LABELS
from cvagent_cli.formats.reading.ocr_names import (
    capital_i,
    cased_as_printed,
    chinese_name_glued,
    spelled_as_the_email,
    title_glued_on,
)
from cvagent_cli.formats.reading.pdf_columns import table_channels
from cvagent_cli.formats.reading.pdf_glyphs import OCR_FONT, ink_share
from cvagent_cli.formats.reading.pdf_layout import Word, cjk, join_words
from cvagent_cli.formats.reading.pdf_lines import (
    SEPARATORS,
    PageLine,
    as_large,
    is_section,
    level,
    note,
    part,
    same_size,
    set_apart,
    with_bars,
)
from cvagent_cli.formats.reading.pdf_zh_names import chinese_name_whole
from cvagent_cli.formats.reading.structure import Recognition

_NAME_FIELD_RE = re.compile(
    r"(?:^|\s)(?:(?:full\s*name|name)\s*[:：|｜]|姓\s*名\s*[:：|｜]?)\s*"
    r"([^|｜\s,，;；:：]+(?: [A-Z][^\s|｜,，;；:：]*){0,3})",
    re.IGNORECASE,
)


#: A date stamp a resume builder prints at the top ("Last updated in Nov 2026", "更新于
#: 2026年11月"): page furniture, never the name nor the line the name must come first after.
#: Its words may be glued: OCR drops the spaces of small text ("Last updatedin Nov2026").
_STAMP_RE = re.compile(
    r"^\s*(?:(?:last\s*)?(?:updated|modified|revised)|as\s*of|(?:最后|最近)?(?:更新|修改)(?:于|时间|日期)?)"
    r"(?:\s*[:：]|\s*(?:in|on|at)\b|\s*于)?\s*(.+)$",
    re.IGNORECASE,
)


#: A month's first three letters, lower case, in every language that abbreviates months
_MONTHS = frozenset(m[:3].casefold() for m in languages.words_of(lambda x: x.dates.abbreviations))


def is_date_stamp(text: str) -> bool:
    """ "Last updated in Nov 2026", "Last Updated on 14th November 2026", "最后更新于 2026年11月": a
    word saying so, then a date (a year, and a month or a day, nothing else)."""
    match = _STAMP_RE.match(text)
    if not match or len(text) > 60:
        return False
    date = re.sub(r"(?<=\d)(?:st|nd|rd|th)\b", "", match.group(1).strip())  # "14th November"
    words = re.findall(r"[^\W\d_]+", date)
    return (
        bool(re.search(r"(?:19|20)\d\d", date))
        and bool(re.fullmatch(r"[\w\s.,/年月日号-]+", date))
        and all(w in "年月日号" or w[:3].casefold() in _MONTHS for w in words)
    )


SPLIT_CONTACT_RE = re.compile(r"(?:[@/]|\w\.\w)\S*$")


def continues(prev: str, nxt: str) -> bool:
    """A contact line wrapped in a narrow column: "yu-" "tong40@example.com",
    "ana.lee@example.c" "om" (an address is whole once it ends in a domain: ".com")."""
    start = nxt[:1]
    if not start or not (start.islower() or start.isdigit()):
        return False
    if prev.endswith(("-", "@", "/", ".")):
        return True
    token = prev.split()[-1] if prev.split() else ""
    return (
        bool(SPLIT_CONTACT_RE.search(token))
        and " " not in nxt.strip()
        and not re.search(r"\.[A-Za-z]{2,}$", token)
    )


def _name_like(text: str) -> bool:
    return (
        classify_title(text) == "other"
        and text.casefold() not in LABELS  # a form's label ("姓名", "Name")
        and not re.search(r"[@\d]|https?:|www\.", text)
        and not any("/" in m.group() for m in URL_RE.finditer(text))  # "github.com/ana"
        and 0 < len(text) <= 60
    )


def _em(words: list[Word], ocr: bool) -> float:
    """The size of a cell's text: a text layer's font size; on a scanned page, the ink's
    height over the share of an em its letters span ("Tobiah" 0.72, "Thornquist" 0.93)."""
    size = max(w.size for w in words)
    return size / ink_share(join_words(words)) if ocr else size


def _largest(
    candidates: list[tuple[PageLine, int, list[Word]]], ocr: bool, body: float
) -> tuple[PageLine, int, list[Word]]:
    """The name's cell: the largest text; of several about as large (OCR's sizes are
    coarse), the first one that reads as a name.  On a scanned page, when none of those
    reads as a name, the largest cell that does and is set clearly larger than the body
    (1.3 times its ink: not a city, "武汉", in a contact line): OCR reads the letters of a
    logo too ("europass" over a Europass CV), and a text layer has none."""
    if not ocr:  # a text layer's sizes are exact: the largest text, the first of a tie
        return max(candidates, key=lambda c: max(w.size for w in c[2]))
    largest = max(_em(c[2], ocr) for c in candidates)
    near = [c for c in candidates if as_large(_em(c[2], ocr), largest, ocr)]
    named = [c for c in candidates if person.clean_name(join_words(c[2]))]
    first = next((c for c in near if c in named), None)
    if first is not None:
        return first
    stacked = next((a for a, b in itertools.combinations(near, 2) if _stack(a, b)), None)
    if stacked is not None:  # "OREN" over "ASHCOMBE": the name in two lines
        return stacked
    large = [c for c in named if max(w.size for w in c[2]) >= 1.3 * body]
    return max(large, key=lambda c: _em(c[2], ocr)) if large else near[0]


#: The lines of a name stacked over two stand less than this many of its ems apart.
_STACK_GAP = 0.6


def _stack(
    upper: tuple[PageLine, int, list[Word]], lower: tuple[PageLine, int, list[Word]]
) -> bool:
    """Two cells as large as each other, one over the other within half a line, that
    read as a name together."""
    (_, _, a), (_, _, b) = upper, lower
    size = max(w.size for w in a)
    over = min(a[-1].x1, b[-1].x1) > max(a[0].x0, b[0].x0)
    near = 0 <= min(w.top for w in b) - max(w.bottom for w in a) < _STACK_GAP * size
    return over and near and bool(person.clean_name(f"{join_words(a)} {join_words(b)}"))


def _is_name_label(cell: list[Word]) -> bool:
    label = " ".join(join_words(cell).rstrip(":：").split()).casefold()
    return label in NAME_LABELS


def _split_name(
    lines: list[PageLine], line: PageLine, index: int, named: str | None, ocr: bool
) -> PageLine:
    """The name's cell of ``line`` as a line of its own, the other cells on a line after it
    ("Tobiah Thornquist | QA Automation Engineer": the name, then the subtitle).  A cell
    after the name's, as large, is the rest of the name when it breaks a word with a hyphen
    (a name justified in a narrow sidebar: "Corentin    Dun-" / "more") or, on a scan, when
    it stands less than an em away (the detector read one name as two boxes)."""
    cells = line.cells()
    while index + 1 < len(cells):
        head, rest = cells[index], cells[index + 1]
        near = ocr and rest[0].x0 - head[-1].x1 < max(w.size for w in head)
        wraps = rest[-1].text.endswith(("-", "\xad")) and len(rest) == 1
        if not (near or wraps) or not same_size(_em(rest, ocr), _em(head, ocr), ocr):
            break
        cells[index : index + 2] = [head + rest]
    words = _cut_after(cells[index], named)
    others = cells[:index] + cells[index + 1 :]
    after: list[Word] = with_bars(others) if others else []
    cut = next(
        (k for k in range(1, len(words)) if join_words(words[:k]).rstrip(",，") == named), None
    )
    if cut is not None:
        tail = words[cut:]
        while tail and tail[0].text in SEPARATORS:
            tail = tail[1:]
        last = words[cut - 1]  # "Ravensworth," of "Anouk Ravensworth, UX Researcher"
        words = [*words[: cut - 1], replace(last, text=last.text.rstrip(",，"))]
        after = tail + after
    if not after:
        return line
    at = lines.index(line)
    name = part(words, line)
    lines[at : at + 1] = [name, part(after, line)]
    return name


def _cut_after(words: list[Word], named: str | None) -> list[Word]:
    """``words`` with the word that holds the end of the name ``named`` and a comma after it
    cut in two there ("罗明轩，数据工程师", one word as OCR reads Chinese with no spaces), or
    Latin letters after a Chinese name ("郑若曦Java"), the width shared by characters."""
    if not named:
        return words
    for k, word in enumerate(words):
        before = join_words(words[:k])
        rest = named[len(before) :].lstrip() if named.startswith(before) else None
        comma = len(rest or "")
        if not rest or not word.text.startswith(rest):
            continue
        if word.text[comma : comma + 1] in ("，", ","):
            end = comma + 1  # the comma goes with the name, and is taken off after
        elif cjk(rest[-1]) and re.match("[A-Za-z]", word.text[comma:]):
            end = comma  # "郑若曦Java": a headline glued on
        else:
            continue
        if end == len(word.text):
            return words  # the comma ends the word: the words are cut there already
        at = word.x0 + (word.x1 - word.x0) * end / len(word.text)
        head = replace(word, text=word.text[:end], x1=at)
        tail = replace(word, text=word.text[end:], x0=at)
        return [*words[:k], head, tail, *words[k + 1 :]]
    return words


def choose_name(lines: list[PageLine], body: float, recognition: Recognition) -> list[PageLine]:
    """Mark the name (``role = "title"``) and the lines under it, and drop a document title
    ("Resume", "个人简历") at the top.  The name is the largest text near the top of the first
    page, else the value of a ``Name:`` / ``姓名：`` field."""
    first_page = [ln for ln in lines if ln.page == 0]
    if not first_page:
        return lines
    top = min(ln.top for ln in first_page)
    span = max(ln.bottom for ln in first_page) - top
    # the top of the page, whatever column a line was read in
    head_bottom = top + 0.3 * span
    head = sorted((ln for ln in first_page if ln.top <= head_bottom), key=lambda ln: ln.top)
    head = head[:12]
    titles = [ln for ln in head if not ln.bullet and is_document_title(ln.text())]
    if titles:
        note(recognition, f"the document title '{titles[0].text().strip()}' was left out")
    stamps = [ln for ln in head if not ln.bullet and is_date_stamp(ln.text())]
    if stamps:
        note(recognition, f"the date stamp '{stamps[0].text().strip()}' was left out")
    lines = [ln for ln in lines if ln not in titles and ln not in stamps]
    head = [ln for ln in head if ln not in titles and ln not in stamps]
    ocr = any(w.font == OCR_FONT for ln in head for w in ln.words)
    if ocr:
        head = [title_glued_on(lines, ln) for ln in head]
    # A name is a cell of its own: an e-mail, a phone or a place may share its row.
    # (A value after a Name / 姓名 label is left to the field below: the row stays whole.)
    candidates = [
        (ln, i, cells[i])
        for ln in head
        if not ln.bullet or ln.size > 1.5 * body  # a mark before a big name: not a list
        for cells in [ln.cells()]
        for i in range(len(cells))
        if _name_like(join_words(cells[i])) and not (i and _is_name_label(cells[i - 1]))
    ]
    # A line set like the section titles is not the name, unless it opens the page (the
    # second line of "LANGUAGE / PROFICIENCY" wrapped in a sidebar is not a person).
    # (OCR gives the lines of one detected box one size: a side label read in the name's
    # box, "个人信息 | 何若曦", says nothing of how the name is set.)
    sections = [ln for ln in first_page if is_section(ln.text())]
    candidates = [
        c
        for c in candidates
        if c[0] is head[0]
        or (round(c[0].size), c[0].bold)
        not in {(round(s.size), s.bold) for s in sections if not (ocr and level(s, c[0]))}
    ]
    name: PageLine | None = None
    from_field = False
    field: tuple[str, PageLine] | None = None
    searched = False  # the Name field is looked for only when it may be needed
    if candidates:
        line, index, cell = _largest(candidates, ocr, body)
        text = join_words(cell)
        named = person.clean_name(text) or (chinese_name_glued(text) if ocr else None)
        size = max(w.size for w in cell)
        # a cell that does not read as a name gives way to a Name field's value (on a
        # scan, "City" of a details grid measures a little taller than the body)
        if size > body + 1 and not named:
            field, searched = _name_field(first_page, ocr, head_bottom), True
        if (size > body + 1 and (named or field is None)) or (named and line is head[0]):
            name = _split_name(lines, line, index, named, ocr)
            name.bullet = False
    if name is None and not searched:
        field = _name_field(first_page, ocr, head_bottom)
    if name is None and field is not None:
        value, line = field
        size = max(w.size for w in line.words)
        name = PageLine([Word(value, line.x0, line.x1, line.top, line.bottom, size, True)], 0)
        from_field = True
        lines.insert(0, name)
    if name is None:
        return lines
    name.role = "title"
    chinese_name_whole(lines, name, ocr, recognition)
    _split_glued(name, recognition)
    start = lines.index(name)
    # a long name wrapped in a narrow sidebar ("Saoirse / Delacroix- / Amani"), or stacked
    # in big letters with the contact lines level with it at the side ("OREN / HALLORAN")
    so_far = name.text()
    while start + 1 < len(lines) and not from_field:
        if person.clean_name(so_far) and not so_far.endswith("-"):
            break
        _stacked_under(lines, start, ocr)
        nxt, prev = lines[start + 1], lines[start]
        if (
            not same_size(_em(nxt.words, ocr), _em(name.words, ocr), ocr)
            # (after a hyphen, an em: the rest of the word may have no tall letters, "more")
            or nxt.top - prev.bottom > (1.0 if so_far.endswith("-") else _STACK_GAP) * name.size
        ):
            break
        nxt.role, start = "title", start + 1
        so_far += " " + nxt.text()
    if ocr:
        for line in lines[lines.index(name) : start + 1]:
            line.words = [replace(w, text=cased_as_printed(w.text)) for w in line.words]
        spelled_as_the_email(lines[lines.index(name) : start + 1], first_page, recognition)
    _mark_header(lines, start + 1, top + 0.4 * span, name, body)
    _rejoin_wrapped_contacts(lines, start + 1)
    return lines


def _name_field(
    first_page: list[PageLine], ocr: bool, head_bottom: float
) -> tuple[str, PageLine] | None:
    """The value of the page's ``Name:`` / ``姓名：`` field and its line: "姓名：韩嘉怡", or
    a table's cells, "姓名 | 梁若曦 | 电话 | …"."""
    tables = table_channels(list(first_page))
    for index, line in enumerate(first_page):
        cells = line.cells(tables.get(index, []))
        match = _NAME_FIELD_RE.search(join_words(with_bars(cells)))
        value = _named(_before_label(match.group(1)), ocr) if match else None
        if value:
            return value, line
    return _beside_labels(first_page, tables, ocr, head_bottom)


def _beside_labels(
    first_page: list[PageLine],
    tables: dict[int, list[tuple[float, float]]],
    ocr: bool,
    head_bottom: float,
) -> tuple[str, PageLine] | None:
    """A whole name in a cell of a details grid's row, beside the labels of other fields
    ("Maelis Valderrama | Phone | …"): the grid's Name label went unread (OCR misses a
    short word in a shaded cell), or was cut where a narrow cell wraps it ("Nam" / "e"), or
    the grid never had one.  Near the top of the page (above ``head_bottom``)."""
    for index, line in enumerate(first_page):
        if line.top > head_bottom:
            continue
        texts = [join_words(c).strip() for c in line.cells(tables.get(index, []))]
        labels = [_label_or_its_start(t) for t in texts]
        if not any(labels):
            continue
        for text, label in zip(texts, labels, strict=True):
            value = None if label else _named(text, ocr)
            if value and (len(value.split()) > 1 or zh_names.plausible(value)):
                return value, line
    return None


def _named(text: str, ocr: bool) -> str | None:
    """The name a field's value holds (on a scan, a capital I read as a small l put back:
    "llse Kowalczyk")."""
    return person.clean_name(capital_i(text) if ocr else text) if text else None


def _is_label(text: str) -> bool:
    """A form's label ("Phone", "City:", "性别")."""
    return text.casefold().rstrip(":：") in LABELS


def _label_or_its_start(text: str) -> bool:
    """A form's label, or its first letters where a narrow cell wrapped it ("Emai")."""
    label = text.casefold().rstrip(":：")
    return label in LABELS or (
        len(label) >= 3 and label.isalpha() and any(lb.startswith(label) for lb in LABELS)
    )


def _before_label(value: str) -> str:
    """A name field's value up to the next field's label, which a grid's narrow gap (or OCR,
    reading the grid as one line) leaves beside it: "Marisol Ashcombe Phone", or glued on,
    "Marisol AshcombePhone"."""
    words = value.split()
    for k, word in enumerate(words):
        if k and _is_label(word):
            return " ".join(words[:k])
        glued = next((lb for lb in LABELS if word.casefold().endswith(lb)), None)
        if k and glued and word[-len(glued)].isupper() and word[: -len(glued)][-1:].islower():
            return " ".join([*words[:k], word[: -len(glued)]])
    return value


def _stacked_under(lines: list[PageLine], at: int, ocr: bool) -> None:
    """Bring the next line of the name's column up under the name at ``at`` when the lines
    read between them are all beside it (contact lines at the right, level with a name
    stacked over two lines).  On a scanned page, a smaller cell on its row (OCR puts a
    contact line level with its middle on the row) stays where it was read."""
    name = lines[at]
    for k in range(at + 1, min(at + 7, len(lines))):
        line = lines[k]
        if line.page != name.page:
            return
        if min(line.x1, name.x1) > max(line.x0, name.x0):  # in the name's column
            cells = line.cells()
            if ocr and len(cells) > 1 and same_size(_em(cells[0], ocr), _em(name.words, ocr), ocr):
                lines[k : k + 1] = [part(cells[0], line), part(with_bars(cells[1:]), line)]
            if k > at + 1:
                lines.insert(at + 1, lines.pop(k))
            return


def _split_glued(name: PageLine, recognition: Recognition) -> None:
    """A name printed as two runs with no space between them ("AnnaNováková": the given
    and family names in two weights, a design tool's habit) is split where a lower-case
    letter meets a capital, when that leaves a name of two words."""
    text = name.text().strip()
    split = person.unglued(text)
    if split is None:
        return
    first = name.words[0]
    name.words = [Word(split, first.x0, name.x1, name.top, name.bottom, first.size, first.bold)]
    note(recognition, f"the name '{text}' was printed with no space: read as {split}")


def _mark_header(
    lines: list[PageLine], start: int, bottom: float, name: PageLine, size: float
) -> None:
    """The lines under the name are a subtitle and contact lines, never a section, down to
    the first section title, or a line set like a heading (1.3 times the body ``size`` or
    larger) that is not under the name at all (a column's "ACADEMIC / BACKGROUND").  A
    section title set apart on a contact line's row ("Boulder, CO     Work Experience")
    starts the body beside a sidebar: the row is split there, and the lines in the body's
    column from then on are body, read after the sidebar's."""
    body_x: float | None = None
    body: list[PageLine] = []
    end = start
    for line in list(lines[start : start + 8]):
        cells = line.cells()
        if line.page or line.top > bottom or (body_x is None and is_section(join_words(cells[0]))):
            break
        end = lines.index(line) + 1
        if body_x is not None and line.x0 >= body_x - line.size:
            body.append(line)
            continue
        beside = line.x1 < name.x0 or line.x0 > name.x1
        if beside and line.size >= 1.3 * size and not line.bullet:
            end -= 1
            break  # a column's heading: the body starts
        if len(line.text()) > 90 and not line.bold:
            break  # running text: a summary with no heading
        # a details grid's row ("City | Dublin | Objective | UX Researcher") is fields
        grid = _is_label(join_words(cells[0]))
        split = (
            None
            if grid
            else next((i for i in range(1, len(cells)) if _section_cell(cells, i)), None)
        )
        if body_x is None and split is not None:
            body_x = cells[split][0].x0
            side = part([w for cell in cells[:split] for w in cell], line)
            rest = part([w for cell in cells[split:] for w in cell], line)
            lines[end - 1 : end] = [side, rest]
            end += 1
            line = side
            body.append(rest)
        if not line.bullet:
            line.role = "header"  # a subtitle or a contact line, never a section
    if body:  # the sidebar's lines first, then the body's
        moved = {id(ln) for ln in body}
        lines[start:end] = [ln for ln in lines[start:end] if id(ln) not in moved] + body


def _section_cell(cells: list[list[Word]], index: int) -> bool:
    """The cell is a section title set apart from the cells before it on its row."""
    before = [w for cell in cells[:index] for w in cell]
    return is_section(join_words(cells[index])) and set_apart(cells[index], before)


def _rejoin_wrapped_contacts(lines: list[PageLine], start: int) -> None:
    """A contact item wrapped in a margin column may have a line of the other column read
    between its two halves ("wil-", "Platform Engineer", "helmina.o@example.com"): the
    second half is moved up under the first."""
    end = start
    while end < len(lines) and lines[end].role == "header":
        end += 1
    for i in range(start, end - 2):
        first, other, second = lines[i], lines[i + 1], lines[i + 2]
        same_column = min(first.x1, second.x1) > max(first.x0, second.x0)  # x ranges overlap
        if (
            same_column
            and not continues(first.text(), other.text())
            and continues(first.text(), second.text())
        ):
            lines[i + 1], lines[i + 2] = second, other
