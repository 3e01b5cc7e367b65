"""Glyphs → words → lines (columns and table channels: ``pdf_columns``).

- A line is the glyphs that share a row (their boxes overlap vertically).
- Words are split at drawn spaces and at gaps wider than the line's usual gap between
  letters, so a justified line keeps its spaces however its words are spread.
- Cells: a gap of several ems inside a line separates cells (a table row, a date pushed to
  the right margin, an email beside the name).
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from cvagent_cli.formats.reading.docx_text import LABELS
from cvagent_cli.formats.reading.pdf_glyphs import BULLET_CHARS, OCR_FONT, Glyph
from cvagent_cli.script import WIDE_TEXT

_CJK_RE = re.compile(f"[{WIDE_TEXT}]")
CELL_GAP = 1.4  # ems: a wider gap inside a line separates cells (justified spaces stay below)
_OCR_ROW_SIZES = 2.0  # OCR glyphs of sizes further apart than this are never one row


@dataclass(eq=False)
class Word:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool
    caps: bool = False
    mark: bool = False  # a bullet candidate (glyph or shape), not text
    icon: bool = False  # the mark is an icon-font glyph
    font: str = ""


@dataclass(eq=False)
class Line:
    words: list[Word] = field(default_factory=list)
    page: int = 0
    bullet: bool = False  # started with a bullet mark (removed from ``words``)
    bullet_x: float = 0.0
    edge: float = 0.0  # the right edge of the text around it (its column), 0 when unknown
    tracking: float = 0.0  # extra space between letters (letter-spaced headings)
    rules: tuple[float, ...] = ()  # x of the drawn rules between its cells (a ruled table)

    @property
    def x0(self) -> float:
        return self.bullet_x if self.bullet else self.words[0].x0

    @property
    def text_x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def size(self) -> float:
        return max(w.size for w in self.words)

    @property
    def bold(self) -> bool:
        return all(w.bold for w in self.words)

    def cells(self, channels: Sequence[tuple[float, float]] = ()) -> list[list[Word]]:
        """The line's words split at wide gaps (measured in the smaller font: an address in
        8 pt beside a name in 24 pt) and at the table ``channels`` it is in."""
        out: list[list[Word]] = [[self.words[0]]]
        for prev, word in itertools.pairwise(self.words):
            wide = word.x0 - prev.x1 > CELL_GAP * max(min(word.size, prev.size), 1) + 2 * (
                self.tracking
            )
            # a rule between them (OCR's glyph boxes reach into the blank where a rule was
            # painted out: a quarter of an em either side, between the words' middles)
            reach = 0.25 * min(word.size, prev.size)
            ruled = any(
                max(prev.x1 - reach, (prev.x0 + prev.x1) / 2)
                <= x
                <= min(word.x0 + reach, (word.x0 + word.x1) / 2)
                for x in self.rules
            )
            if wide or ruled or any(prev.x1 <= a and b <= word.x0 for a, b in channels):
                out.append([word])
            else:
                out[-1].append(word)
        return _spaced_labels(out)

    def edge_cells(self, piece: Callable[[str], bool]) -> list[list[Word]]:
        """The line split at a gap that sets a ``piece`` apart at its start or its end (a
        date, a section title in a margin column): a gap wider than half an em and 1.5 times the
        line's usual word gap ("2019–Present  Lead Data …")."""
        words = self.words
        if len(words) < 2:
            return [words]
        gaps = [b.x0 - a.x1 for a, b in itertools.pairwise(words)]
        usual = statistics.median(gaps) if len(gaps) > 2 else 0.0
        for i, gap in enumerate(gaps):
            if gap < max(0.5 * self.size + 2 * self.tracking, 1.5 * usual):
                continue
            head, tail = words[: i + 1], words[i + 1 :]
            if piece(join_words(head)) or piece(join_words(tail)):
                return [head, tail]
        return [words]

    def gaps(self, least: float) -> list[tuple[float, float]]:
        return [
            (a.x1, b.x0)
            for a, b in itertools.pairwise(self.words)
            if b.x0 - a.x1 >= least * max(a.size, b.size, 1)
        ]

    def text(self) -> str:
        return join_words(self.words)


def cjk(ch: str) -> bool:
    return bool(ch) and bool(_CJK_RE.match(ch))


def _spaced_labels(cells: list[list[Word]]) -> list[list[Word]]:
    """A form's label spread across its cell ("姓　　名", "电　　话"): the characters, each a
    cell of its own, are one label again when together they make one."""
    out: list[list[Word]] = []
    i = 0
    while i < len(cells):
        for n in (4, 3, 2):
            run = cells[i : i + n]
            if (
                len(run) == n
                and all(len(c) == 1 and len(c[0].text) == 1 and cjk(c[0].text) for c in run)
                and "".join(c[0].text for c in run) in LABELS
            ):
                label = "".join(c[0].text for c in run)
                out.append([replace(run[0][0], text=label, x1=run[-1][0].x1)])
                i += n
                break
        else:
            out.append(cells[i])
            i += 1
    return out


def join_words(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


def rows(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """Glyphs grouped into rows by their baseline (a big name and the two small lines of
    contact details beside it are three rows, though their boxes overlap); a few smaller
    glyphs raised or lowered inside a row's box (a superscript) stay in it.

    OCR knows no baseline: its glyphs' ``base`` is their box's middle, so a big family
    name set over the given name and a small e-mail line beside it share a middle by
    chance.  OCR text more than twice the size of a row's is a row of its own: text set
    on one baseline in two such sizes has middles apart anyway."""
    open_rows: list[tuple[float, float, list[Glyph]]] = []
    for g in sorted(glyphs, key=lambda g: g.base):
        for i in range(len(open_rows) - 1, max(len(open_rows) - 4, -1), -1):
            base, size, members = open_rows[i]
            if g.font == OCR_FONT and max(g.size, size) > _OCR_ROW_SIZES * min(g.size, size):
                continue
            if abs(g.base - base) <= 0.3 * min(g.size, size):
                members.append(g)
                break
        else:
            open_rows.append((g.base, g.size, [g]))
    out: list[list[Glyph]] = []
    for _, _, members in open_rows:
        prev = out[-1] if out else None
        if (
            prev is not None
            and len(members) <= 4
            and max(g.size for g in members) < 0.85 * max(g.size for g in prev)
            and min(g.top for g in members) >= min(g.top for g in prev) - 0.5
            and max(g.bottom for g in members) <= max(g.bottom for g in prev) + 0.5
        ):
            prev.extend(members)
            continue
        out.append(members)
    return out


def words_of(row: list[Glyph]) -> list[Word]:
    """A row's glyphs as words: split at drawn spaces and at gaps wider than the row's usual
    gap between letters (justified and letter-spaced lines included)."""
    row = sorted(row, key=lambda g: g.x0)
    texts = [g for g in row if g.kind != "space"]
    gaps = [
        b.x0 - a.x1
        for a, b in itertools.pairwise(texts)
        if b.x0 - a.x1 < 0.5 * max(a.size, b.size, 1)
    ]
    # the usual gap between letters: about 0, or the tracking of letter-spaced text
    usual = statistics.median(gaps) if len(gaps) >= 3 else 0.0
    words: list[Word] = []
    current: list[Glyph] = []
    prev: Glyph | None = None
    for g in row:
        if g.kind == "space":
            _flush(current, words)
            current = []
            prev = None
            continue
        if prev is not None:
            size = max(prev.size, g.size, 1)
            gap = g.x0 - prev.x1
            cjk_pair = cjk(prev.text[-1:]) and cjk(g.text[:1])
            limit = max(0.06 * size, min(usual, 0.4 * size) + 0.1 * size)
            if (
                g.kind in ("mark", "icon")
                or prev.kind in ("mark", "icon")
                or (gap > limit and not (cjk_pair and gap < 0.2 * size))
            ):
                _flush(current, words)
                current = []
        current.append(g)
        prev = g
    _flush(current, words)
    return words


def _tracking(words: list[Word], row: list[Glyph]) -> float:
    """The letter spacing of a row: the mean gap between the letters inside its words."""
    letters = sum(len(w.text) for w in words)
    if letters <= len(words):
        return 0.0
    inner = sum(w.x1 - w.x0 for w in words) - sum(
        g.x1 - g.x0 for g in row if g.kind not in ("space", "mark", "icon")
    )
    return max(0.0, inner / (letters - len(words)))


#: A capital "I" that a small-caps font's text layer gives as "i" (Awesome-CV's Source Sans
#: Pro: "AUTOMATiON", "REDiS"): between capitals, in a word of capitals.
_SMALL_CAP_I_RE = re.compile(r"(?<=[A-Z])i(?=[A-Z])")


def _capital_i(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    upper = sum(c.isupper() for c in letters)
    if upper < 4 or any(c.islower() and c != "i" for c in letters):
        return text
    fixed = _SMALL_CAP_I_RE.sub("I", text)
    return fixed if not any(c.islower() for c in fixed) else text


def _flush(glyphs: list[Glyph], words: list[Word]) -> None:
    if not glyphs:
        return
    text = _capital_i("".join(g.text for g in glyphs))
    if text == "丨":  # a bar typed with a Chinese input method, or OCR's reading of "|"
        text = "|"
    font = glyphs[0].font
    words.append(
        Word(
            text=text,
            x0=glyphs[0].x0,
            x1=glyphs[-1].x1,
            top=min(g.top for g in glyphs),
            bottom=max(g.bottom for g in glyphs),
            size=max(g.size for g in glyphs),
            bold=sum(g.bold for g in glyphs) * 2 > len(glyphs),
            caps="smallcap" in font.lower() or font.lower().endswith("sc"),
            mark=all(g.kind in ("mark", "icon") for g in glyphs),
            icon=any(g.kind == "icon" for g in glyphs),
            font=font,
        )
    )


def make_lines(glyphs: list[Glyph], marks: list[Glyph], page: int) -> list[Line]:
    """Lines in top-to-bottom order; a line that starts with a bullet mark (a bullet glyph,
    an unknown glyph, a small shape just left of the text) is flagged ``bullet``."""
    lines = []
    for row in rows(glyphs):
        words = words_of(row)
        if words:
            lines.append(Line(words, page, tracking=_tracking(words, row)))
    lines.sort(key=lambda ln: ln.top)
    for mark in marks:
        mid = (mark.top + mark.bottom) / 2
        for line in lines:
            first = line.words[0]
            if line.top <= mid <= line.bottom and 0 <= first.x0 - mark.x1 <= 2.5 * line.size:
                mark.size = first.size
                line.words.insert(0, _mark_word(mark))
                break
    # where the page's list items put their marks: a mark elsewhere in a row starts an item
    # only if it stands in that column
    columns = [ln.words[0].x0 for ln in lines if _glyphish(ln.words[0]) and _one_mark(ln)]
    split: list[Line] = []
    for line in lines:
        for part in _at_marks(line, columns):
            flag_bullet(part)
            if part.words:
                split.append(part)
    return split


_BOXES = BULLET_CHARS - set("-–—*+·∙⁃")  # dashes and dots are also punctuation


def _glyphish(word: Word) -> bool:
    return word.mark or (len(word.text) == 1 and word.text in _BOXES)


def _one_mark(line: Line) -> bool:
    """A row with marks before several of its words ("□ Raleigh  □ +1 512 …") is a row of
    icons, not a list item."""
    return sum(1 for w in line.words[1:] if _glyphish(w)) == 0


def _at_marks(line: Line, columns: list[float]) -> list[Line]:
    """A row that holds a bullet mark after a gap, in the column where the page's list
    items have theirs, is two lines: what a margin column prints on the row (a date wrapped
    in moderncv's date column), then the bullet item."""
    for i in range(1, len(line.words) - 1):
        word, prev = line.words[i], line.words[i - 1]
        if (
            word.mark
            and not prev.mark
            and word.x0 - prev.x1 >= 0.5 * max(prev.size, 1)
            and any(abs(word.x0 - x) < 2 for x in columns)
        ):
            return [Line(line.words[:i], line.page), Line(line.words[i:], line.page)]
    return [line]


def _mark_word(mark: Glyph) -> Word:
    return Word(mark.text, mark.x0, mark.x1, mark.top, mark.bottom, mark.size, False, mark=True)


def flag_bullet(line: Line) -> None:
    """Mark ``line`` a list item when it starts with a bullet glyph or mark (the glyph
    removed), and drop marks elsewhere in it."""
    words = line.words
    first = words[0]
    rest = words[1:]
    if not _one_mark(line):  # icons before each item of a row: drop them, no bullet
        line.words = [w for w in words if not _glyphish(w)] or words
        return
    glyph = first.mark or (
        first.text in BULLET_CHARS
        or (len(first.text) == 1 and first.text == "o" and "courier" in first.font.lower())
    )
    if first.icon and rest:
        # An icon-font list marker is set smaller than the text (moderncv's circle); an
        # icon at the text's size before a phone number or an address is an icon.
        small = first.size <= 0.8 * rest[0].size or first.x1 - first.x0 <= 0.5 * rest[0].size
        glyph = glyph and small
    if glyph and rest and not rest[0].mark:
        gap = rest[0].x0 - first.x1
        loose = first.mark or first.text not in "-*+–—" or gap > 0.15 * first.size
        if loose:
            line.bullet, line.bullet_x = True, first.x0
            words.pop(0)
    elif len(first.text) > 1 and first.text[0] in "•▪‣●◦■►▶➢➤✓✔❖" and not first.mark:
        # "•Item" with no gap after the glyph
        line.bullet, line.bullet_x = True, first.x0
        first.text = first.text[1:]
    # marks anywhere else (rating dots, icons with no Unicode) are not text
    line.words = [w for w in line.words if not w.mark]
