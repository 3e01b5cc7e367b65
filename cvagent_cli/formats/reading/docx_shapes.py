"""Where a DOCX text box sits on the page, and the order a reader reads such boxes in.

Word and WPS templates built from floating text boxes (``wp:anchor`` drawings, or VML
shapes in older files) store the boxes in the order they were made, not the page's: a
section's title shape can come after its body, a sidebar after the main column.  A box
placed against the page or its margins has a position; boxes of one page are read by a
recursive cut of the page (columns side by side left to right when their boxes do not
sit on the same rows, otherwise bands from the top down).  A box placed against its
paragraph or line moves with the text and stays where it is anchored.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, NamedTuple

from cvagent_cli.formats.reading.docx_styles import W

_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_V = "{urn:schemas-microsoft-com:vml}"
EMU_PER_POINT = 12700
_PAGE_FRAMES = ("page", "margin", "column", "leftMargin", "topMargin")
_VML_STYLE_RE = re.compile(r"([\w-]+)\s*:\s*([^;]+)")
_ROW_SLACK = 6.0  # points: two boxes whose tops are this close sit on one row


class Spot(NamedTuple):
    """A box's place on the page, in points from the page's top left corner."""

    x: float
    y: float
    w: float
    h: float


def margins(document: Any) -> tuple[float, float]:
    """The first section's left and top margins in points (what "margin" positions add)."""
    sections = document.sections
    if not len(sections):
        return 72.0, 72.0
    section = sections[0]
    left = section.left_margin.pt if section.left_margin is not None else 72.0
    top = section.top_margin.pt if section.top_margin is not None else 72.0
    return float(left), float(top)


def _offset(position: Any) -> float | None:
    if position is None:
        return None
    offset = position.find(f"{_WP}posOffset")
    if offset is not None and (offset.text or "").lstrip("-").isdigit():
        return int(offset.text) / EMU_PER_POINT
    align = position.find(f"{_WP}align")
    return 0.0 if align is not None and align.text in ("left", "top") else None


def _anchored(anchor: Any, edges: tuple[float, float]) -> Spot | None:
    horizontal = anchor.find(f"{_WP}positionH")
    vertical = anchor.find(f"{_WP}positionV")
    if horizontal is None or vertical is None:
        return None
    if vertical.get("relativeFrom") not in _PAGE_FRAMES:
        return None  # placed against its paragraph or line: it moves with the text
    x, y = _offset(horizontal), _offset(vertical)
    if x is None or y is None:
        return None
    if horizontal.get("relativeFrom") in ("margin", "column"):
        x += edges[0]
    if vertical.get("relativeFrom") in ("margin", "topMargin"):
        y += edges[1]
    extent = anchor.find(f"{_WP}extent")
    w = int(extent.get("cx", "0")) / EMU_PER_POINT if extent is not None else 0.0
    h = int(extent.get("cy", "0")) / EMU_PER_POINT if extent is not None else 0.0
    return Spot(x, y, w, h)


def _points(value: str) -> float | None:
    match = re.fullmatch(r"\s*(-?[\d.]+)\s*(pt|in|cm|mm|px)?\s*", value)
    if not match:
        return None
    scale = {"pt": 1.0, "in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4, "px": 0.75, None: 0.75}
    return float(match.group(1)) * scale[match.group(2)]


def _vml(shape: Any, edges: tuple[float, float]) -> Spot | None:
    style = dict(
        (k.strip().lower(), v.strip()) for k, v in _VML_STYLE_RE.findall(shape.get("style", ""))
    )
    if style.get("position") != "absolute":
        return None
    vertical = style.get("mso-position-vertical-relative", "text")
    if vertical not in ("page", "margin", "top-margin-area"):
        return None
    x = _points(style.get("margin-left") or style.get("left") or "0")
    y = _points(style.get("margin-top") or style.get("top") or "0")
    if x is None or y is None:
        return None
    if style.get("mso-position-horizontal-relative", "text") in ("margin", "text"):
        x += edges[0]
    if vertical == "margin":
        y += edges[1]
    return Spot(
        x, y, _points(style.get("width", "0")) or 0.0, _points(style.get("height", "0")) or 0.0
    )


def spot(box: Any, edges: tuple[float, float]) -> Spot | None:
    """Where the text box whose content is ``box`` (``w:txbxContent``) is placed on its
    page, or None when it moves with the text (inline, or placed against a paragraph)."""
    ancestor = box.getparent()
    while ancestor is not None and ancestor.tag != f"{W}p":
        if ancestor.tag == f"{_WP}anchor":
            return _anchored(ancestor, edges)
        if ancestor.tag == f"{_WP}inline":
            return None
        if ancestor.tag in (f"{_V}shape", f"{_V}rect", f"{_V}roundrect"):
            return _vml(ancestor, edges)
        ancestor = ancestor.getparent()
    return None


def _rows_side_by_side(left: list[Spot], right: list[Spot]) -> bool:
    """Every box of the smaller side starts on the row of a box on the other side: a
    dates box beside each entry's box, not a sidebar beside a column (whose boxes line up
    with the column's now and then, not all the way down)."""
    few, many = sorted((left, right), key=len)
    return all(any(abs(a.y - b.y) <= _ROW_SLACK for b in many) for a in few)


def _cut(spots: list[tuple[int, Spot]], vertical: bool) -> list[list[tuple[int, Spot]]]:
    """Split where no box crosses a line (x for columns, y for bands), in page order."""

    def lo(s: Spot) -> float:
        return s.x if vertical else s.y

    def hi(s: Spot) -> float:
        return s.x + s.w if vertical else s.y + s.h

    ordered = sorted(spots, key=lambda item: (lo(item[1]), hi(item[1])))
    groups: list[list[tuple[int, Spot]]] = [[ordered[0]]]
    reach = hi(ordered[0][1])
    for item in ordered[1:]:
        if lo(item[1]) >= reach - 1:  # boxes may touch by a point
            groups.append([])
        groups[-1].append(item)
        reach = max(reach, hi(item[1]))
    return groups


def reading_order(spots: list[Spot]) -> list[int]:
    """The indexes of ``spots`` (boxes of one page) in reading order."""

    def order(items: list[tuple[int, Spot]]) -> list[int]:
        if len(items) <= 1:
            return [i for i, _ in items]
        columns = _cut(items, vertical=True)
        if len(columns) > 1 and not any(
            _rows_side_by_side([s for _, s in a], [s for _, s in b])
            for a, b in itertools.pairwise(columns)
        ):
            return [i for column in columns for i in order(column)]
        bands = _cut(items, vertical=False)
        if len(bands) > 1:
            return [i for band in bands for i in order(band)]
        row = lambda item: (round(item[1].y / _ROW_SLACK), item[1].x)  # noqa: E731
        return [i for i, _ in sorted(items, key=row)]

    return order(list(enumerate(spots)))
