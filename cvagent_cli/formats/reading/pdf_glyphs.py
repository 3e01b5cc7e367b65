"""PDF characters as a reader should see them, before any layout is read.

pdfplumber gives every glyph drawn on a page with its box, font and size.  What other tools
draw is not always text: the same glyph stamped three times to fake bold ("学学学位位位"),
icon-font glyphs in the private-use area or glyph codes with no Unicode (``(cid:123)``)
(unless an /ActualText span says what they stand for),
soft hyphens, bullets drawn as little circles or squares instead of a "•".  This module
turns them into ``Glyph`` records: text to read, a bullet candidate, or nothing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cvagent_cli.script import is_east_asian, unify_radical

if TYPE_CHECKING:
    from pdfplumber.page import Page

# "CMBX10", "SFBX1000": TeX's bold extended fonts say so in two letters.
_BOLD_FONT_RE = re.compile(r"bold|black|heavy|semibold|demi|-bd|,bd|\bsb\b|bx\d|bx$", re.IGNORECASE)
# Fonts made of icons, not letters: whatever their glyphs map to ("HOUSE-CHIMNEY", a
# private-use code) is not resume text.
_ICON_FONT_RE = re.compile(
    r"awesome|icon|academicons|fontello|octicon|devicon|glyphicon|typicons|entypo|"
    r"feather|remixicon|tabler|simple-?icons|materialsymbols|material-?design",
    re.IGNORECASE,
)
# Word's and LibreOffice's bullet fonts: their glyphs sit in the private-use area (U+F0B7).
_SYMBOL_FONT_RE = re.compile(r"symbol|wingding|dingbat|webding", re.IGNORECASE)
_CID_RE = re.compile(r"^\(cid:\d+\)$")
# The bullets Word offers, as Symbol and Wingdings code them (• ▪ ➢ ❖ ✓ ● ■ ❑ ◻).
_WORD_BULLETS = frozenset("\uf0b7\uf0a7\uf0d8\uf076\uf0fc\uf06c\uf06e\uf071\uf0a8")
BULLET_CHARS = frozenset("•◦▪▫‣●○■□◆◇►▶▸▹➢➣➤➔→⇒✓✔❖♦❑❒∙·⁃–—-*+")
#: The font of the glyphs OCR reads (``ocr_page``): their size is the height of their line's
#: ink, not a font size.
OCR_FONT = "ocr"

_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\ufffd\u00a0")
SOFT_HYPHEN = "\u00ad"
#: Latin ligatures a text layer may give as one character (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ).
_LIGATURES = frozenset("\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06")


#: How far letters reach, in ems from the baseline: capitals, digits and ascenders ("A",
#: "7", "h") up to about 0.72, lower-case letters without ascenders to 0.5; descenders ("g",
#: "y", a comma) down to 0.21 below; a Chinese character spans about 0.9 in all.
_CAP_HEIGHT, _X_HEIGHT, _DESCENDER, _CJK_HEIGHT = 0.72, 0.5, 0.21, 0.9
_ASCENDING = frozenset("bdfhiklt0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ([{/|\\@#$%&?!'\"")
_DESCENDING = frozenset("gjpqy,;()[]{}|/@$")


def ink_share(text: str) -> float:
    """The share of an em a line's ink spans from its highest to its lowest point, by the
    letters it holds: "Thornquist" (capitals, ascenders and a descender) about 0.93,
    "Tobiah" 0.72, "summary" 0.71, "EXPERIENCE" 0.72, "教育背景" 0.9.  OCR measures a line
    by its ink, so that a name stacked as "Tobiah" over "Thornquist" in one font measures
    one size (``pdf_header`` compares names so).  A line's glyphs keep the ink's height as
    their size: the layout reader's measures were set on it."""
    letters = [ch for ch in text if not ch.isspace()]
    if any(is_east_asian(ch) for ch in letters):
        return _CJK_HEIGHT
    if not letters:
        return _CAP_HEIGHT + _DESCENDER
    top = _CAP_HEIGHT if any(ch in _ASCENDING or not ch.isascii() for ch in letters) else _X_HEIGHT
    return top + (_DESCENDER if any(ch in _DESCENDING for ch in letters) else 0.0)


@dataclass(slots=True)
class Glyph:
    """One drawn character.  ``kind``: ``text``; ``space`` (a drawn space: a word break);
    ``mark`` (a bullet glyph, an unknown glyph or a small shape: a bullet at the start of a
    line, dropped elsewhere); ``icon`` (from an icon font: a bullet when small and at the
    start of a line, dropped elsewhere); ``shy`` (a soft hyphen: a hyphenation point)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    font: str
    bold: bool
    kind: str = "text"
    base: float = 0.0  # the baseline, from the top of the page like ``top``

    @property
    def mid(self) -> float:
        return (self.top + self.bottom) / 2


def _private_use(ch: str) -> bool:
    code = ord(ch[0])
    return 0xE000 <= code <= 0xF8FF or code >= 0xF0000


def _baseline(c: dict[str, Any]) -> float:
    """Where the glyph sits: its text matrix's origin, measured like ``top``."""
    matrix = c.get("matrix")
    if matrix and "y1" in c:
        return float(c["top"]) + float(c["y1"]) - float(matrix[5])
    return float(c["bottom"])


def _rotated(obj: dict[str, Any]) -> bool:
    # a baseline that is not level (b); a skew alone (c) is an oblique face drawn from an
    # upright one (Chromium's italic CJK), read like any other text
    matrix = obj.get("matrix") or (1, 0, 0, 1, 0, 0)
    return not obj.get("upright", True) or abs(matrix[1]) > 1e-3


#: The ``tag`` pdfplumber gives a glyph drawn inside a marked-content span with an
#: /ActualText (the text the span's glyphs stand for): this prefix, the span's number, and
#: the text, apart by U+001F.
_ACTUAL = "ActualText\x1f"


def read_actual_text(page: Page) -> None:
    """Lay the page out once with a device that notes each glyph's /ActualText span (the
    PDF's own word for what a run of glyphs says, where its font cannot: typst writes one
    for a glyph drawn with a fallback font's blank .notdef).  pdfplumber then reads its
    characters from that layout; on any failure it lays the page out itself."""
    try:
        # lazy: pdfminer loads only when a PDF is read
        from pdfminer.pdfinterp import PDFPageInterpreter
        from pdfminer.utils import decode_text
        from pdfplumber.page import PDFPageAggregatorWithMarkedContent
    except ImportError:  # pragma: no cover - pdfplumber's own import failed first
        return

    class Device(PDFPageAggregatorWithMarkedContent):
        spans: list[str | None]
        serial = 0

        def begin_tag(self, tag: Any, props: Any = None) -> None:
            super().begin_tag(tag, props)
            actual = props.get("ActualText") if isinstance(props, dict) else None
            if isinstance(actual, bytes | str):
                Device.serial += 1
                text = decode_text(actual) if isinstance(actual, bytes) else actual
                self.spans.append(f"{_ACTUAL}{Device.serial}\x1f{text}")
            else:
                self.spans.append(None)

        def end_tag(self) -> None:
            super().end_tag()
            if self.spans:
                self.spans.pop()

        def render_char(self, *args: Any, **kwargs: Any) -> float:
            advance = float(super().render_char(*args, **kwargs))
            actual = next((span for span in reversed(self.spans) if span), None)
            if actual and self.cur_item._objs:
                setattr(self.cur_item._objs[-1], "tag", actual)  # noqa: B010 (pdfplumber's own attribute)
            return advance

    try:
        device = Device(page.pdf.rsrcmgr, pageno=page.page_number, laparams=page.pdf.laparams)
        device.spans = []
        PDFPageInterpreter(page.pdf.rsrcmgr, device).process_page(page.page_obj)
        page._layout = device.get_result()
    except Exception:  # a broken page: pdfplumber lays it out (and reports) itself
        return


def with_actual_text(chars: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Characters with each /ActualText span's text in place of its glyphs' (on its first
    glyph; the others are dropped) when at least half the span's glyphs have no text of
    their own."""
    spans: dict[str, list[dict[str, Any]]] = {}
    for c in chars:
        tag = str(c.get("tag") or "")
        if tag.startswith(_ACTUAL):
            spans.setdefault(tag, []).append(c)
    if not spans:
        return chars
    replaced: dict[int, str] = {}
    blank: set[tuple[str, str]] = set()  # (font, "(cid:N)"): a glyph with no text
    for tag, glyphs in spans.items():
        unmapped = [g for g in glyphs if _CID_RE.match(str(g.get("text", "")))]
        if 2 * len(unmapped) < len(glyphs) or not unmapped:
            # the glyphs say it themselves (an icon before a linked phone number, whose
            # span's ActualText is the link, "tel:+1 …"): keep their boxes and fonts
            continue
        text = tag.split("\x1f", 2)[2]
        if all(_private_use(ch) or ch in BULLET_CHARS for ch in text):
            continue  # a bullet or an icon's private code: the glyph says as much (a mark)
        blank.update((str(g.get("fontname")), str(g.get("text"))) for g in unmapped)
        for i, g in enumerate(glyphs):
            replaced[id(g)] = text if i == 0 else ""
    # The same blank glyph outside a span (typst writes no /ActualText for the first
    # character it drew with it): its text is lost; it is no bullet mark either.
    for c in chars:
        if id(c) not in replaced and (str(c.get("fontname")), str(c.get("text"))) in blank:
            replaced[id(c)] = ""
    return [{**c, "text": replaced[id(c)]} if id(c) in replaced else c for c in chars]


def page_glyphs(page: Page) -> tuple[list[Glyph], str]:
    """(glyphs, rotated text left out) for a pdfplumber page.  Icon-font glyphs are dropped:
    a contact line keeps its text, a gap stays where the icon was."""
    glyphs: list[Glyph] = []
    rotated: list[str] = []
    for c in with_actual_text(page.chars):
        text = str(c.get("text", ""))
        if not text:
            continue
        if _rotated(c):  # a vertical sidebar label, a watermark: no place in reading order
            rotated.append(text)
            continue
        if len(text) == 1:
            text = unify_radical(text)
            if text in _LIGATURES:  # "ﬂ" (U+FB02) in "Airﬂow" matches no "Airflow"
                text = unicodedata.normalize("NFKC", text)
            elif text == "\u2011":  # XeLaTeX's non-breaking hyphen: "multi‑tenant"
                text = "-"
        font = str(c.get("fontname", "")).split("+")[-1]
        size = float(c.get("size") or 0.0) or float(c["bottom"]) - float(c["top"])
        kind = "text"
        narrow = float(c["x1"]) - float(c["x0"]) <= 0.6 * size
        if _ICON_FONT_RE.search(font):
            # An icon; a small one at the start of a line is a list marker (moderncv's
            # FontAwesome circle).  An icon's name ("HOUSE-CHIMNEY") is never text.
            if len(text) > 1 and not _CID_RE.match(text):
                continue
            text, kind = "•", "icon"
        elif _CID_RE.match(text) or _private_use(text):
            # An unknown glyph, or a Symbol/Wingdings bullet (often drawn in a substitute
            # font): a bullet if a line starts with it.  Other private-use glyphs are icons.
            if _private_use(text) and not (
                text in _WORD_BULLETS or _SYMBOL_FONT_RE.search(font) or narrow
            ):
                continue
            text, kind = "•", "mark"
        elif text.isspace():
            kind = "space"
        elif text == SOFT_HYPHEN:
            kind = "shy"
        elif text in _INVISIBLE or not text.isprintable():
            continue
        glyphs.append(
            Glyph(
                text=text,
                x0=float(c["x0"]),
                x1=float(c["x1"]),
                top=float(c["top"]),
                bottom=float(c["bottom"]),
                size=round(size, 1),
                font=font,
                bold=bool(_BOLD_FONT_RE.search(font)),
                kind=kind,
                base=_baseline(c),
            )
        )
    return _without_fake_bold(glyphs), "".join(rotated)


def _without_fake_bold(glyphs: list[Glyph]) -> list[Glyph]:
    """The same glyph drawn 2–4 times a fraction of its width apart is one bold glyph."""
    by_text: dict[str, list[Glyph]] = {}
    for g in glyphs:
        by_text.setdefault(g.text, []).append(g)
    dropped: set[int] = set()
    for same in by_text.values():
        if len(same) < 2:
            continue
        same.sort(key=lambda g: (g.top, g.x0))
        for i, g in enumerate(same):
            if id(g) in dropped:
                continue
            for other in same[i + 1 :]:
                if other.top - g.top > 0.25 * g.size:
                    break
                if id(other) in dropped or g.kind == "space":
                    continue
                width = max(g.x1 - g.x0, 0.2 * g.size)
                if abs(other.x0 - g.x0) < 0.45 * width and abs(other.size - g.size) < 0.5:
                    dropped.add(id(other))
                    g.bold = True
    if not dropped:
        return glyphs
    return [g for g in glyphs if id(g) not in dropped]


def shape_marks(page: Page, size: float) -> list[Glyph]:
    """Small filled or outlined shapes (circles, squares, short dashes): bullets drawn as
    vector graphics (typst templates, some web builders).  Whether each one is a bullet is
    decided later, by where it sits in its line."""
    marks: list[Glyph] = []
    limit = 0.8 * size
    for obj in (*page.curves, *page.rects, *page.lines):
        w = float(obj["x1"]) - float(obj["x0"])
        h = float(obj["bottom"]) - float(obj["top"])
        if not (0.5 <= w <= limit and h <= limit):
            continue
        dash = h < 0.2 * size and w >= 0.25 * size
        if not dash and not (h >= 0.5 and 0.5 <= w / max(h, 0.01) <= 2):
            continue
        marks.append(
            Glyph(
                text="–" if dash else "•",
                x0=float(obj["x0"]),
                x1=float(obj["x1"]),
                top=float(obj["top"]),
                bottom=float(obj["bottom"]),
                size=0.0,
                font="shape",
                bold=False,
                kind="mark",
            )
        )
    return marks
