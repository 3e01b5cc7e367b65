"""PDF → paragraphs with layout hints, from pdfplumber's words (font, size, position).

Words become lines (by their vertical middle, so CJK and Latin glyphs of one line meet),
lines become paragraphs (by the gap above them, their indentation and bullet glyphs), and
a page with an empty vertical band through its body is read as two columns.
"""

from __future__ import annotations

import io
import itertools
import re
import statistics
from dataclasses import dataclass, field

from cvagent_cli.documents.formats import UNREADABLE_HINT
from cvagent_cli.documents.structure import BULLET_GLYPHS, Para, Recognition
from cvagent_cli.errors import ConfigError, InputError

INSTALL_HINT = "pip install 'cvagent[documents]'"
_BOLD_FONT_RE = re.compile(r"bold|black|heavy|semibold|demi|-bd|,bd|\bsb\b", re.IGNORECASE)
_CJK_RE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_PAGE_NUMBER_RE = re.compile(
    r"^(?:page\s*)?\d{1,2}(?:\s*(?:/|of)\s*\d{1,2})?$|^第\s*\d+\s*页", re.I
)
_GLYPHS = set(BULLET_GLYPHS) - set("-*+")


def _require_pdfplumber():
    try:
        import pdfplumber  # lazy: heavy, and only in the `documents` extra
    except ImportError as exc:
        raise ConfigError("PDF import needs pdfplumber", hint=INSTALL_HINT) from exc
    return pdfplumber


@dataclass
class Word:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool
    caps: bool = False

    @property
    def mid(self) -> float:
        return (self.top + self.bottom) / 2


@dataclass
class Line:
    words: list[Word] = field(default_factory=list)
    page: int = 0

    @property
    def x0(self) -> float:
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
        return all(w.bold for w in self.words if w.text not in _GLYPHS)

    @property
    def glyph(self) -> bool:
        first = self.words[0].text
        return first in _GLYPHS or (first[:1] in _GLYPHS and len(self.words) == 1)

    def text(self, start: int = 0) -> str:
        return _join_words(self.words[start:])


def _join_words(words: list[Word]) -> str:
    out = ""
    for i, word in enumerate(words):
        if i and word.x0 - words[i - 1].x1 > 0.12 * max(word.size, 1):
            out += " "
        out += word.text
    return out


def _rotated(obj: dict) -> bool:
    matrix = obj.get("matrix") or (1, 0, 0, 1, 0, 0)
    return obj.get("object_type") == "char" and (
        not obj.get("upright", True) or abs(matrix[1]) > 1e-3 or abs(matrix[2]) > 1e-3
    )


def _read_words(page, recognition: Recognition) -> list[Word]:
    rotated = [c["text"] for c in page.chars if _rotated(c)]
    if rotated:  # a vertical sidebar label, a watermark: no place in the reading order
        recognition.unplaced.append("".join(rotated))
        page = page.filter(lambda obj: not _rotated(obj))
    raw = page.extract_words(
        extra_attrs=["fontname", "size"], keep_blank_chars=False, x_tolerance=1.5
    )
    words: list[Word] = []
    for w in raw:
        font = str(w.get("fontname", ""))
        text = str(w["text"])
        if not text.strip():
            continue
        words.append(
            Word(
                text=text,
                x0=float(w["x0"]),
                x1=float(w["x1"]),
                top=float(w["top"]),
                bottom=float(w["bottom"]),
                size=round(float(w.get("size", 0.0)), 1),
                bold=bool(_BOLD_FONT_RE.search(font.split("+")[-1])),
                caps="smallcap" in font.lower() or font.lower().endswith("sc"),
            )
        )
    return words


def _lines(words: list[Word], page: int) -> list[Line]:
    lines: list[Line] = []
    for word in sorted(words, key=lambda w: (round(w.mid), w.x0)):
        for line in reversed(lines[-3:]):
            ref = statistics.median(w.mid for w in line.words)
            if abs(word.mid - ref) <= 0.4 * max(word.size, line.size):
                line.words.append(word)
                break
        else:
            lines.append(Line([word], page))
    for line in lines:
        line.words.sort(key=lambda w: w.x0)
    lines.sort(key=lambda ln: ln.top)
    return lines


def _side_by_side(line: Line, x: float) -> bool | None:
    """True when ``line`` has text on both sides of ``x`` with a wide gap there (a row of
    two columns), False when it runs across ``x``, None when it lies on one side."""
    if any(w.x0 < x < w.x1 for w in line.words):
        return False
    left = [w.x1 for w in line.words if w.x1 <= x]
    right = [w.x0 for w in line.words if w.x0 >= x]
    if not left or not right:
        return None
    return min(right) - max(left) > 1.5 * line.size


def _gutter(lines: list[Line]) -> float | None:
    """The x of the gap between two columns, if the page has them: several rows with text
    on both sides of one wide gap, and few lines running across it (a name, a contact line)."""
    if len(lines) < 4:
        return None
    candidates = {
        round((a.x1 + b.x0) / 2)
        for ln in lines
        for a, b in zip(ln.words, ln.words[1:], strict=False)
        if b.x0 - a.x1 > 1.5 * ln.size
    }
    best: tuple[int, float] | None = None
    for x in sorted(candidates):
        split = crossing = 0
        for line in lines:
            state = _side_by_side(line, x)
            if state is True:
                split += 1
            elif state is False:
                crossing += 1
        enough = split >= 2 and crossing <= max(3, 0.3 * len(lines)) and crossing < split + 3
        if enough and (best is None or split > best[0]):
            best = (split, float(x))
    return best[1] if best else None


def _split_columns(lines: list[Line], gutter: float) -> tuple[list[Line], list[Line], list[Line]]:
    """(full-width lines, left column, right column)."""
    full: list[Line] = []
    left: list[Line] = []
    right: list[Line] = []
    for line in lines:
        if _side_by_side(line, gutter) is False:
            full.append(line)
            continue
        lw = [w for w in line.words if w.x1 <= gutter]
        rw = [w for w in line.words if w.x0 >= gutter]
        if lw:
            left.append(Line(lw, line.page))
        if rw:
            right.append(Line(rw, line.page))
    return full, left, right


def _partner(line: Line, others: list[Line]) -> Line | None:
    return next((o for o in others if abs(o.top - line.top) < 0.6 * max(o.size, 1)), None)


def _is_date_column(left: list[Line], right: list[Line]) -> bool:
    from cvagent_cli.documents.structure import _is_date_text

    paired = [ln for ln in left if _partner(ln, right) is not None]
    dates = sum(1 for ln in paired if _is_date_text(ln.text()))
    return len(paired) >= 2 and dates >= 0.6 * len(paired)


def _page_lines(page, number: int, recognition: Recognition) -> list[Line]:
    words = _read_words(page, recognition)
    lines = _lines(words, number)
    # Page numbers and running footers: a short number line in the bottom margin.
    kept = []
    for line in lines:
        if line.top > 0.9 * float(page.height) and _PAGE_NUMBER_RE.match(line.text().strip()):
            recognition.dropped += 1
            continue
        kept.append(line)
    lines = kept
    gutter = _gutter(lines)
    if gutter is None:
        return _split_right_aligned(lines)
    full, left, right = _split_columns(lines, gutter)
    for dates, body in ((left, right), (right, left)):
        if not _is_date_column(dates, body):
            continue
        # moderncv style (dates in a narrow column beside the entries) or dates pushed to
        # the right margin: each date goes right under its entry line.
        paired = [(ln, _partner(ln, body)) for ln in dates]
        merged: list[Line] = sorted(
            full + body + [ln for ln, p in paired if p is None], key=lambda ln: ln.top
        )
        for date, partner in paired:
            if partner is not None:
                merged.insert(merged.index(partner) + 1, date)
        note = "dates set apart from their entries (a column or the right margin): each was put under its entry"
        if note not in recognition.notes:
            recognition.notes.append(note)
        return merged
    note = "two-column layout: read the left column, then the right one"
    if note not in recognition.notes:
        recognition.notes.append(note)
    header = [ln for ln in full if ln.top <= min((x.top for x in left + right), default=0)]
    rest = [ln for ln in full if ln not in header]
    return header + sorted(left + rest, key=lambda ln: ln.top) + right


def _split_right_aligned(lines: list[Line]) -> list[Line]:
    """ "Data Analyst — Acme          Jan 2022 – Present": a date pushed to the right margin
    becomes its own line under the entry."""
    from cvagent_cli.documents.structure import _is_date_text

    out: list[Line] = []
    for line in lines:
        split = None
        for i in range(1, len(line.words)):
            gap = line.words[i].x0 - line.words[i - 1].x1
            if gap > 3 * line.size and _is_date_text(_join_words(line.words[i:])):
                split = i
                break
        if split is None:
            out.append(line)
        else:
            out.append(Line(line.words[:split], line.page))
            out.append(Line(line.words[split:], line.page))
    return out


def _runs_markdown(words: list[Word]) -> tuple[str, str]:
    """Inline Markdown for words with bold runs, and the bold lead-in (if the text starts
    bold and goes on in regular weight)."""
    parts: list[tuple[bool, str]] = []
    for i, word in enumerate(words):
        gap = word.x0 - words[i - 1].x1 if i else 0.0
        space = i > 0 and (gap > 0.12 * max(word.size, 1) or gap < -word.size)
        if parts and parts[-1][0] == word.bold:
            parts[-1] = (word.bold, parts[-1][1] + (" " if space else "") + word.text)
        else:
            if space and parts:
                parts[-1] = (parts[-1][0], parts[-1][1] + " ")
            parts.append((word.bold, word.text))
    if len(parts) == 1:
        return parts[0][1], ""
    text = ""
    for bold, chunk in parts:
        core = chunk.strip()
        pad = " " if chunk.endswith(" ") else ""
        text += (f"**{core}**" if bold and core else core) + pad
    lead = parts[0][1].strip() if parts[0][0] else ""
    return text, lead


def _paragraphs(lines: list[Line], recognition: Recognition) -> list[Para]:
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
    right_edge = max(ln.x1 for ln in lines)
    groups: list[tuple[list[Line], float, bool]] = []  # (lines, text x, bullet)
    for line in lines:
        words = line.words
        bullet = line.glyph
        text_x = words[1].x0 if bullet and len(words) > 1 else line.x0
        if groups:
            prev_lines, prev_x, _ = groups[-1]
            prev = prev_lines[-1]
            same = (
                not bullet
                and prev.page == line.page
                and line.top - prev.bottom <= usual + 0.3 * line.size
                and abs(line.x0 - prev_x) < 0.8 * line.size
                and abs(line.size - prev.size) < 0.5
                and line.bold == prev.bold
            )
            if same:
                prev_lines.append(line)
                continue
        groups.append(([line], text_x, bullet))
    paras: list[Para] = []
    glyph_x: float | None = None
    for group, _text_x, bullet in groups:
        group_right = max(ln.x1 for ln in group)
        words: list[Word] = []
        text_lines: list[str] = []
        for i, line in enumerate(group):
            ws = line.words[1:] if (i == 0 and bullet) else line.words
            if not ws:
                continue
            chunk = _join_words(ws)
            if text_lines:
                prev_line = group[i - 1]
                # wrapped, not broken: the next line's first word would not have fit
                first = ws[0].x1 - ws[0].x0
                full = prev_line.x1 + first + 0.3 * line.size > min(group_right, right_edge)
                prev_text = text_lines[-1]
                if (full and (prev_text.endswith(("/", "-")) and not prev_text.endswith(" -"))) or (
                    full and _CJK_RE.match(chunk[:1]) and _CJK_RE.match(prev_text[-1:])
                ):
                    text_lines[-1] += chunk
                elif full:
                    text_lines[-1] += " " + chunk
                else:
                    text_lines.append(chunk)
            else:
                text_lines.append(chunk)
            words.extend(ws)
        if not words:
            continue
        if any(w.bold for w in words) and not all(w.bold for w in words):
            text, lead = _runs_markdown(words)
        else:
            text, lead = "\n".join(text_lines), ""
        size = statistics.median(w.size for w in words)
        depth = 0
        if bullet:
            x = group[0].x0
            glyph_x = x if glyph_x is None else glyph_x
            depth = 1 if x > glyph_x + size else 0
        else:
            glyph_x = None
        all_bold = all(w.bold for w in words)
        paras.append(
            Para(
                text=text.replace("**", "") if all_bold else text,
                role="bullet" if bullet else "text",
                bold=all_bold,
                size=size,
                depth=depth,
                caps=all(w.caps for w in words),
                lead=lead,
                page=group[0].page,
            )
        )
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
    lines: list[Line] = []
    try:
        with pdf:
            pages = pdf.pages[:max_pages]
            for number, page in enumerate(pages):
                lines += _page_lines(page, number, recognition)
                recognition.images += len(page.images)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(
            f"{source}: not a readable PDF file ({type(exc).__name__})", hint=UNREADABLE_HINT
        ) from None
    if not lines:
        raise InputError(
            f"{source} has no text layer; OCR is not supported",
            hint="it is a scanned or image-only PDF: export it again from the program that "
            "made it, or type the text into a .md file",
        )
    return _paragraphs(lines, recognition), recognition
