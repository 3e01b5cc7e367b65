"""What a DOCX file's style and numbering parts say about a paragraph: its outline level
(from ``w:outlineLvl``, or a built-in Heading/Title style, through ``w:basedOn``), its
weight, size and capitals, and whether its list numbering draws a bullet.

python-docx resolves a style by scanning the styles part on every ``.style`` access, which
is most of the time of a large file, so facts are looked up once per style id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_RE = re.compile(r"^(?:heading|标题)\s*(\d)$")
BODY_LEVEL = 9  # w:outlineLvl 9: body text
#: Fonts whose characters are pictures: "§" in Wingdings is a square, "Ø" an arrow, and
#: U+F0B7 in Symbol the round bullet Word inserts.
SYMBOL_FONTS = ("symbol", "wingdings", "webdings", "zapfdingbats", "opensymbol")


def val(element: Any, tag: str) -> str | None:
    """The ``w:val`` of child ``tag`` of ``element`` (None when either is missing)."""
    if element is None:
        return None
    child = element.find(f"{W}{tag}")
    return None if child is None else child.get(f"{W}val")


def on(element: Any, tag: str) -> bool | None:
    """A toggle property (``<w:b/>``, ``<w:caps w:val="0"/>``): True, False or unset."""
    if element is None:
        return None
    child = element.find(f"{W}{tag}")
    if child is None:
        return None
    return child.get(f"{W}val") not in ("0", "false", "off")


def number(text: str | None) -> int:
    """An integer attribute (a size in half-points, a list level), 0 when it is missing
    or not a number (a damaged file)."""
    try:
        return int(text or 0)
    except ValueError:
        return 0


@dataclass(frozen=True)
class StyleFacts:
    name: str = ""
    outline: int = BODY_LEVEL  # 0 for a top-level heading
    title: bool = False
    bold: bool | None = None
    caps: bool | None = None
    size: float = 0.0
    num: tuple[str, int] | None = None  # (numId, ilvl) of a list style


class Styles:
    """Style facts by style id, with what each style inherits from its base styles."""

    def __init__(self, document: Any) -> None:
        self.by_id: dict[str, Any] = {}
        self.default: dict[str, str] = {}
        self.body_size = 0.0  # the document default (w:docDefaults), in pt
        try:
            root = document.part.styles.element
        except Exception:  # a DOCX without a styles part
            root = None
        if root is not None:
            defaults = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
            self.body_size = number(val(defaults, "sz")) / 2
            for style in root.iter(f"{W}style"):
                sid = style.get(f"{W}styleId")
                kind = style.get(f"{W}type") or "paragraph"
                if sid:
                    self.by_id[sid] = style
                if sid and style.get(f"{W}default") in ("1", "true"):
                    self.default[kind] = sid
        self.cache: dict[str, StyleFacts] = {}

    def facts(self, style_id: str | None, kind: str = "paragraph") -> StyleFacts:
        key = f"{kind}:{style_id}"
        if key not in self.cache:
            self.cache[key] = self._resolve(style_id or self.default.get(kind), kind)
        return self.cache[key]

    def _resolve(self, style_id: str | None, kind: str) -> StyleFacts:
        chain, seen = [], set()
        while style_id and style_id in self.by_id and style_id not in seen:
            seen.add(style_id)
            chain.append(self.by_id[style_id])
            style_id = val(self.by_id[style_id], "basedOn")
        if not chain:
            return StyleFacts()
        name = (val(chain[0], "name") or "").lower()
        # pandoc's Subtitle is based on Title: the headline under the name, not a title
        subtitle = name in ("subtitle", "副标题")
        outline, title, bold, caps, size, num = BODY_LEVEL, False, None, None, 0.0, None
        for style in chain:  # nearest first: the first setting found wins
            ppr, rpr = style.find(f"{W}pPr"), style.find(f"{W}rPr")
            own = (val(style, "name") or "").lower()
            level = val(ppr, "outlineLvl")
            heading = _HEADING_RE.match(own)
            if outline == BODY_LEVEL and not title:
                if level is not None and level.isdigit():
                    outline = int(level)
                elif heading:
                    outline = int(heading.group(1)) - 1
                elif own in ("title", "标题") and not subtitle:
                    title = True
            if bold is None:
                bold = on(rpr, "b")
            if caps is None:
                caps = on(rpr, "caps") or on(rpr, "smallCaps")
            if not size and val(rpr, "sz"):
                size = number(val(rpr, "sz")) / 2
            if num is None and ppr is not None and ppr.find(f"{W}numPr") is not None:
                numpr = ppr.find(f"{W}numPr")
                num = (val(numpr, "numId") or "0", number(val(numpr, "ilvl")))
        if kind != "paragraph":
            outline, title, num = BODY_LEVEL, False, None
        return StyleFacts(name, outline, title, bold, caps, size, num)


@dataclass(frozen=True)
class Level:
    fmt: str  # bullet, decimal, chineseCounting …
    text: str  # the level text: "\uf0b7", "%1."
    font: str  # the font the marker is drawn in


class Numbering:
    """The list levels of a DOCX file: numId → ilvl → what the marker is."""

    def __init__(self, document: Any) -> None:
        self.levels: dict[tuple[str, int], Level] = {}
        try:
            root = document.part.numbering_part.element
        except Exception:  # no numbering part: no lists
            return
        abstract: dict[str, dict[int, Level]] = {}
        for item in root.iter(f"{W}abstractNum"):
            levels: dict[int, Level] = {}
            for lvl in item.iter(f"{W}lvl"):
                rpr = lvl.find(f"{W}rPr")
                fonts = rpr.find(f"{W}rFonts") if rpr is not None else None
                font = (fonts.get(f"{W}ascii") or "") if fonts is not None else ""
                levels[number(lvl.get(f"{W}ilvl"))] = Level(
                    val(lvl, "numFmt") or "decimal", val(lvl, "lvlText") or "", font
                )
            abstract[item.get(f"{W}abstractNumId") or ""] = levels
        for num in root.iter(f"{W}num"):
            levels = abstract.get(val(num, "abstractNumId") or "", {})
            for ilvl, level in levels.items():
                self.levels[(num.get(f"{W}numId") or "", ilvl)] = level

    def level(self, num_id: str, ilvl: int) -> Level | None:
        if num_id in ("", "0"):  # numId 0 takes a style's numbering away
            return None
        return self.levels.get((num_id, ilvl)) or Level("decimal", "", "")

    @staticmethod
    def is_bullet(level: Level) -> bool:
        return level.fmt == "bullet" or (level.fmt == "none" and bool(level.text.strip()))
