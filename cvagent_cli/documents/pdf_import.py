"""PDF → paragraphs with layout hints, read from the glyphs pdfplumber finds on each page.

``pdf_glyphs`` cleans the glyphs (fake bold, icons, unknown glyph codes, soft hyphens,
bullets drawn as shapes); ``pdf_layout`` makes words and lines and finds columns.  Here the
pages are put together: running headers, footers and page numbers that repeat from page to
page go, a cover letter after the resume is left out, a line with cells is split (a date at
the right margin goes under its entry, a table row keeps ``|`` between its cells), the name is
chosen from the layout, and lines become paragraphs.
"""

from __future__ import annotations

import io
import itertools
import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from cvagent_cli.documents.formats import UNREADABLE_HINT
from cvagent_cli.documents.pdf_glyphs import SOFT_HYPHEN, page_glyphs, shape_marks
from cvagent_cli.documents.pdf_layout import (
    Line,
    Word,
    cjk,
    find_gutter,
    fragment_side,
    join_words,
    make_lines,
    table_channels,
)
from cvagent_cli.documents.structure import Para, Recognition, _is_date_text, plain
from cvagent_cli.errors import ConfigError, InputError
from cvagent_cli.resume import person
from cvagent_cli.resume.kinds import classify_title

INSTALL_HINT = "pip install 'cvagent[documents]'"
_PAGE_NUMBER_RE = re.compile(
    r"^[-–—\s]*(?:page|p\.|seite|página|pagina)?\s*\d{1,3}\s*(?:(?:/|of|von|de|sur|／)\s*\d{1,3})?"
    r"[-–—\s]*$|^第\s*\d+\s*页(?:\s*[,，/／]?\s*共\s*\d+\s*页)?$|^共\s*\d+\s*页",
    re.IGNORECASE,
)
_SALUTATION_RE = re.compile(
    r"^(?:dear\b|to whom it may concern|hello\b|尊敬的|您好|sehr geehrte)", re.IGNORECASE
)
_CLOSING_RE = re.compile(
    r"^(?:sincerely|yours(?: sincerely| faithfully| truly)?,|(?:best|kind|warm) regards|"
    r"regards,|respectfully|此致|敬礼|mit freundlichen)",
    re.IGNORECASE,
)
_LETTER_TITLE_RE = re.compile(
    r"^(?:cover letter|letter of motivation|motivation letter|求职信|自荐信|推荐信)$", re.I
)
_NAME_FIELD_RE = re.compile(
    r"(?:^|\s)(?:full\s*name|name|姓\s*名)\s*[:：]\s*([^|｜\s,，;；:：]+(?: [A-Z][^\s|｜,，;；:：]*){0,3})",
    re.IGNORECASE,
)
_CJK_PUNCT_RE = re.compile(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]")
_SEPARATORS = frozenset("|｜·•–—-/,")
_MARGIN = 0.12  # the top and bottom share of a page where running headers and footers sit


def _require_pdfplumber():
    try:
        import pdfplumber  # lazy: heavy, and only in the `documents` extra
    except ImportError as exc:
        raise ConfigError("PDF import needs pdfplumber", hint=INSTALL_HINT) from exc
    return pdfplumber


class _PageLine(Line):
    """A line with what the page-level reading decided about it."""

    fixed = False  # stands alone: a cell split off its row, a table row
    # "title" (the name), "header" (the lines under it), "row" (a line of cells), "date" (a
    # date split off its row): decided here; "" is left to ``structure``
    role = ""


def _as_page_line(line: Line, fixed: bool = False) -> _PageLine:
    out = _PageLine(line.words, line.page, line.bullet, line.bullet_x, line.edge, line.tracking)
    out.fixed = fixed
    return out


def _part(
    words: list[Word], of: Line, bullet: bool = False, fixed: bool = False, role: str = ""
) -> _PageLine:
    """A new line made of some of ``of``'s words (a cell of it)."""
    out = _as_page_line(Line(words, of.page, bullet, of.bullet_x, of.edge, of.tracking), fixed)
    out.role = role
    return out


def _set_apart(label: list[Word], rest: list[Word]) -> bool:
    """The label is typeset as a heading beside the text: larger, or bold beside regular
    (a moderncv item label, "Languages  Python, R", is neither)."""
    size = max(w.size for w in label)
    return size >= statistics.median(w.size for w in rest) + 1 or (
        all(w.bold for w in label) and not any(w.bold for w in rest)
    )


def _is_section(text: str) -> bool:
    """A short text that names a kind of resume section ("Experience", "教育背景")."""
    text = text.strip().rstrip(":：")
    return 0 < len(text) <= 30 and len(text.split()) <= 4 and classify_title(text) != "other"


def _is_fragment(text: str) -> bool:
    """A short piece a layout prints at a row's edge: a date, a place, a role."""
    text = text.strip()
    return _is_date_text(text) or (
        len(text) <= 45 and len(text.split()) <= 6 and not text.endswith((".", "。", "；", ";"))
    )


def _read_page(page, number: int, recognition: Recognition) -> list[Line]:
    glyphs, rotated = page_glyphs(page)
    if rotated:
        recognition.unplaced.append(rotated)
    if not glyphs:
        return []
    size = statistics.median(g.size for g in glyphs)
    marks = shape_marks(page, size)
    lines = make_lines(glyphs, marks, number)
    gutter = find_gutter(lines)
    if gutter is None:
        return _with_edge(lines)
    x, top, bottom = gutter
    inside = [ln for ln in lines if ln.top >= top - 0.5 and ln.bottom <= bottom + 0.5]
    left = [Line([w for w in ln.words if w.x1 <= x], number) for ln in inside]
    right = [Line([w for w in ln.words if w.x0 >= x], number) for ln in inside]
    left = [ln for ln in left if ln.words]
    right = [ln for ln in right if ln.words]
    if fragment_side(left, right, _is_date_text):
        return _with_edge(lines)  # fragments on their rows: read row by row
    _note(recognition, "two-column layout: read the left column, then the right one")

    def region(keep: Callable[[float, float], bool]) -> list[Line]:
        return _with_edge(
            make_lines(
                [g for g in glyphs if keep((g.x0 + g.x1) / 2, g.mid)],
                [m for m in marks if keep((m.x0 + m.x1) / 2, (m.top + m.bottom) / 2)],
                number,
            )
        )

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


def _note(recognition: Recognition, note: str) -> None:
    if note not in recognition.notes:
        recognition.notes.append(note)


def _with_bars(cells: list[list[Word]]) -> list[Word]:
    words: list[Word] = []
    for cell in cells:
        if words:
            w = cell[0]
            words.append(Word("|", w.x0, w.x0, w.top, w.bottom, w.size, False))
        words.extend(cell)
    return words


def _split_cells(lines: list[_PageLine]) -> list[_PageLine]:
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
    out: list[_PageLine] = []
    last_date: _PageLine | None = None
    for index, line in enumerate(lines):
        if line.role:  # the name, the lines under it: one line each
            line.words = _with_bars(line.cells()) if line.role == "header" else line.words
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
        cells = line.cells(tables.get(index, []))
        if len(cells) == 1 and not line.bullet:
            cells = line.edge_cells(lambda t: _is_date_text(t) or _is_section(t))
        if (
            len(cells) > 1
            and not line.bullet
            and _is_section(join_words(cells[0]))
            and cells[0][0].x0 < body_x - 0.5 * line.size <= cells[1][0].x0  # a margin column
            and _set_apart(cells[0], cells[1])
        ):
            # a section title in a margin column, printed on its first line's row (moderncv
            # "fancy"): the title first, then the row
            out.append(_part(cells[0], line, fixed=True))
            cells = cells[1:]
            line = _part([w for cell in cells for w in cell], line)
            if len(cells) == 1:
                out.append(line)
                continue
        tail, size = cells[-1], line.size
        at_margin = tail[-1].x1 >= right_edge - 1.5 * size
        if line.bullet and len(cells) > 1 and at_margin and _is_fragment(join_words(tail)):
            if (
                last_date is not None
                and abs(last_date.x1 - tail[-1].x1) < size
                and 0 <= tail[0].top - last_date.bottom < size
            ):
                last_date.words.extend(tail)
            else:
                last_date = _part(tail, line, fixed=True, role="date")
                at = len(out)
                while at and out[at - 1].bullet:
                    at -= 1
                out.insert(at, last_date)
            rest = [w for cell in cells[:-1] for w in cell]
            out.append(_part(rest, line, bullet=True))
            continue
        last_date = None
        if len(cells) == 1 or line.bullet:
            out.append(line)
        elif len(cells) == 2 and _is_date_text(join_words(tail)):
            out.append(_part(cells[0], line))
            last_date = _part(tail, line, fixed=True, role="date")
            out.append(last_date)
        elif len(cells) == 2 and _is_date_text(join_words(cells[0])):
            out.append(_part(tail, line))
            last_date = _part(cells[0], line, fixed=True, role="date")
            out.append(last_date)
        else:
            row = _part(_with_bars(cells), line, fixed=True)
            row.role = "row"  # cells of a row: text, never a heading
            out.append(row)
    return out


def _key(line: Line) -> str:
    return re.sub(r"\d+", "#", " ".join(line.text().lower().split()))


def _drop_running_lines(
    pages: list[list[Line]], heights: list[float], recognition: Recognition
) -> list[list[Line]]:
    """Remove page numbers and the headers and footers repeated in the page margins."""

    def margin(line: Line, height: float) -> str:
        if line.bottom <= _MARGIN * height:
            return "top"
        if line.top >= (1 - _MARGIN) * height:
            return "bottom"
        return ""

    seen: Counter[tuple[str, str, int]] = Counter()
    for lines, height in zip(pages, heights, strict=True):
        keys = {(margin(ln, height), _key(ln), round(ln.size)) for ln in lines}
        seen.update(k for k in keys if k[0])
    out: list[list[Line]] = []
    running = 0
    for lines, height in zip(pages, heights, strict=True):
        kept = []
        for line in lines:
            where = margin(line, height)
            if where and _PAGE_NUMBER_RE.match(line.text().strip()):
                recognition.dropped += 1
                continue
            if where and len(pages) > 1 and seen[(where, _key(line), round(line.size))] >= 2:
                running += 1
                continue
            kept.append(line)
        out.append(kept)
    if running:
        _note(
            recognition,
            f"a running header or footer repeated on each page was left out ({running} lines)",
        )
    return out


def _drop_cover_letter(pages: list[list[Line]], recognition: Recognition) -> list[list[Line]]:
    """A letter after the resume (a salutation near its top, a closing or a letter title)
    is not part of the resume: it and the pages after it are left out, with a note."""
    for index in range(1, len(pages)):
        texts = [ln.text().strip() for ln in pages[index]]
        if not texts:
            continue
        head = texts[: max(4, len(texts) // 2)]
        titled = any(_LETTER_TITLE_RE.match(t) for t in texts[:4])
        salutation = any(_SALUTATION_RE.match(t) for t in head)
        closing = any(_CLOSING_RE.match(t) for t in texts)
        if (salutation and (closing or titled)) or (titled and closing):
            last = len(pages)
            span = f"page {index + 1}" if last == index + 1 else f"pages {index + 1}–{last}"
            _note(recognition, f"a cover letter after the resume ({span}) was left out")
            return pages[:index]
    return pages


def _name_like(text: str) -> bool:
    return (
        classify_title(text) == "other"
        and not re.search(r"[@\d]|https?:|www\.", text)
        and 0 < len(text) <= 60
    )


def _split_name(
    lines: list[_PageLine], line: _PageLine, index: int, named: str | None
) -> _PageLine:
    """The name's cell of ``line`` as a line of its own, the other cells on a line after it
    ("Tobiah Thornquist | QA Automation Engineer": the name, then the subtitle)."""
    cells = line.cells()
    words = cells[index]
    others = cells[:index] + cells[index + 1 :]
    after: list[Word] = _with_bars(others) if others else []
    cut = next((k for k in range(1, len(words)) if join_words(words[:k]) == named), None)
    if cut is not None:
        tail = words[cut:]
        while tail and tail[0].text in _SEPARATORS:
            tail = tail[1:]
        words, after = words[:cut], tail + after
    if not after:
        return line
    at = lines.index(line)
    name = _part(words, line)
    lines[at : at + 1] = [name, _part(after, line)]
    return name


def _choose_name(lines: list[_PageLine], body: float, recognition: Recognition) -> list[_PageLine]:
    """Mark the name (``role = "title"``) and the lines under it, and drop a document title
    ("Resume", "个人简历") at the top.  The name is the largest text near the top of the first
    page, else the value of a ``Name:`` / ``姓名：`` field."""
    first_page = [ln for ln in lines if ln.page == 0]
    if not first_page:
        return lines
    top = min(ln.top for ln in first_page)
    span = max(ln.bottom for ln in first_page) - top
    # the top of the page, whatever column a line was read in
    head = sorted((ln for ln in first_page if ln.top <= top + 0.3 * span), key=lambda ln: ln.top)
    head = head[:12]
    titles = [ln for ln in head if not ln.bullet and person.is_generic_title(ln.text())]
    if titles:
        _note(recognition, f"the document title '{titles[0].text().strip()}' was left out")
    lines = [ln for ln in lines if ln not in titles]
    head = [ln for ln in head if ln not in titles]
    # A name is a cell of its own: an e-mail, a phone or a place may share its row.
    candidates = [
        (ln, i, cell)
        for ln in head
        if not ln.bullet
        for i, cell in enumerate(ln.cells())
        if _name_like(join_words(cell))
    ]
    name: _PageLine | None = None
    from_field = False
    if candidates:
        line, index, cell = max(candidates, key=lambda c: max(w.size for w in c[2]))
        text = join_words(cell)
        named = person.clean_name(text)
        size = max(w.size for w in cell)
        if size > body + 1 or (named and line is head[0]):
            name = _split_name(lines, line, index, named)
    if name is None:
        for line in first_page:
            match = _NAME_FIELD_RE.search(line.text())
            value = person.clean_name(match.group(1)) if match else None
            if value:
                size = max(w.size for w in line.words)
                word = Word(value, line.x0, line.x1, line.top, line.bottom, size, True)
                name, from_field = _PageLine([word], 0), True
                lines.insert(0, name)
                break
    if name is None:
        return lines
    name.role = "title"
    start = lines.index(name)
    # a long name wrapped in a narrow sidebar ("Saoirse / Delacroix- / Amani")
    so_far = name.text()
    while start + 1 < len(lines) and not from_field:
        if person.clean_name(so_far) and not so_far.endswith("-"):
            break
        nxt, prev = lines[start + 1], lines[start]
        if abs(nxt.size - name.size) >= 0.5 or nxt.top - prev.bottom > 0.6 * name.size:
            break
        nxt.role, start = "title", start + 1
        so_far += " " + nxt.text()
    for line in lines[start + 1 : start + 9]:
        if line.page or line.top > top + 0.4 * span or _is_section(join_words(line.cells()[0])):
            break
        if len(line.text()) > 90 and not line.bold:
            break  # running text: a summary with no heading
        if not line.bullet:
            line.role = "header"  # a subtitle or a contact line, never a section
    _rejoin_wrapped_contacts(lines, start + 1)
    return lines


def _rejoin_wrapped_contacts(lines: list[_PageLine], start: int) -> None:
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
            and not _continues(first.text(), other.text())
            and _continues(first.text(), second.text())
        ):
            lines[i + 1], lines[i + 2] = second, other


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


_SPLIT_CONTACT_RE = re.compile(r"(?:[@/]|\w\.\w)\S*$")


def _continues(prev: str, nxt: str) -> bool:
    """A contact line wrapped in a narrow column: "yu-" "tong40@example.com",
    "ana.lee@example.c" "om" (an address is whole once it ends in a domain: ".com")."""
    start = nxt[:1]
    if not start or not (start.islower() or start.isdigit()):
        return False
    if prev.endswith(("-", "@", "/", ".")):
        return True
    token = prev.split()[-1] if prev.split() else ""
    return (
        bool(_SPLIT_CONTACT_RE.search(token))
        and " " not in nxt.strip()
        and not re.search(r"\.[A-Za-z]{2,}$", token)
    )


def _joiner(prev: str, nxt: str, words: _Words) -> tuple[str, str]:
    """(prev with its end fixed, the separator) for a wrapped line: no space at a CJK
    wrap; a soft hyphen re-joins a word, and so does a hyphen where the document shows it
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


def _paragraph(group: list[_PageLine], known: _Words) -> Para | None:
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
                sep = "" if _SPLIT_CONTACT_RE.search(head) else sep
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


def _dated(groups: list[tuple[list[_PageLine], float]], group: list[_PageLine]) -> bool:
    """The group is one line and a date split off its row (or the next row) follows it."""
    if len(group) > 1 or group[0].bullet:
        return False
    index = next(i for i, (g, _) in enumerate(groups) if g is group)
    for following, _ in groups[index + 1 : index + 3]:
        line = following[0]
        if line.bullet:
            return False
        if line.fixed and _is_date_text(line.text()):
            return True
    return False


def _paragraphs(lines: list[_PageLine], hyphenating: bool) -> list[Para]:
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
    usual = min(sorted(gaps)[len(gaps) // 4], 0.5 * size) if gaps else 0.3 * size
    groups: list[tuple[list[_PageLine], float]] = []  # (lines, text x)
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
                    and _continues(last.text(), line.text())
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


def pdf_paragraphs(data: bytes, source: str) -> tuple[list[Para], Recognition]:
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
            for number, page in enumerate(pdf.pages):
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
    pages = _drop_cover_letter(_drop_running_lines(pages, heights, recognition), recognition)
    lines = [_as_page_line(ln) for page_lines in pages for ln in page_lines]
    if not lines:
        return [], recognition
    body = statistics.median(ln.size for ln in lines)
    lines = _choose_name(lines, body, recognition)
    by_page: dict[int, list[_PageLine]] = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    lines = [ln for page in by_page.values() for ln in _split_cells(page)]
    return _paragraphs(lines, tex), recognition
