"""One page picture → the glyphs OCR reads on it (``ocr.py`` decides which pages).

Where the time goes, measured on one core: recognition costs about 0.1 ms per pixel
column of every line drawn 48 px high (2–3 s for a dense page whatever its resolution), and
detection grows with the picture's area (1.3 s for a page drawn 1,664 px high, 0.6 s at
1,280, 0.35 s at 960, where it missed a large bold name).  So lines are found on the page
drawn at most ``DETECT_SIDE`` px on its long side, and each line is read from the page at
the scan's own resolution, one line at a time: RapidOCR's batches pad every line
to the longest of the batch, which cost 1.6× the time of reading them one by one.

Word breaks come from the picture, not from the model: its recognizer drops the spaces of
small English text ("forturning"), and the positions it gives each character are a few
pixels coarse.  Between two letters, a run of blank pixel columns wider than
``SPACE_GAP`` of the line's ink height is a space (letters sit under 0.1 apart, words
about 0.3); each character's box then reaches the blank run on either side, so that the
layout reader sees words, word gaps and the wide gaps between cells as a text layer draws
them.
"""

from __future__ import annotations

import itertools
from typing import Any

import cv2  # installed with the ocr extra (rapidocr-onnxruntime needs OpenCV)
import numpy as np

from cvagent_cli.formats.reading.ocr_names import chinese_name_as_written, may_be_chinese_name
from cvagent_cli.formats.reading.pdf_glyphs import OCR_FONT, Glyph
from cvagent_cli.formats.reading.pdf_layout import cjk

#: The long side, in pixels, of the page picture that lines are found on.
DETECT_SIDE = 1280
#: A rule: ink running unbroken this many points, thinner than this many.
_RULE_LENGTH = 30
_RULE_WIDTH = 3
#: A blank run between two letters at least this share of the line's ink height is a space.
SPACE_GAP = 0.25
#: A blank run between two Chinese characters at least this share of the ink's height is
#: kept as it is: they stand at most about 0.4 apart in running text and spaced titles
#: ("教 育 背 景"), 0.5–0.6 where a space was typed (a name printed "晨阳 宋").
_CJK_GAP = 0.5
#: In letter-spaced text a space is this many times the usual gap between letters, and more.
_TRACKED = 1.5
#: The width of a word space, as a share of the glyph box's height.
_WORD_SPACE = 0.25
#: How far a glyph's box reaches above and below the line's ink, as a share of its height.
_INK_MARGIN = 0.1
#: A bullet as OCR reads it at the start of a line.
_BULLETS = frozenset("·•●◦▪■□◆◇►▶▸➢➤✓✔-–*")
#: Round bullets as the engine reads them when a letter follows without a space.
_ROUND_BULLETS = frozenset("oO0○◦。°")
#: Lines the recognizer is less sure of than this are noise (a rule, a photo's edge).
_TEXT_SCORE = 0.5


def picture_glyphs(
    engine: Any, gray: Any, scale: float
) -> tuple[list[Glyph], list[dict[str, Any]]]:
    """The glyphs of a page drawn as the grayscale array ``gray`` at ``scale`` pixels per
    point, and the rules drawn on it (``without_rules``), in points from the page's
    top-left corner."""
    gray, drawn = without_rules(gray, scale)
    boxes = _detect(engine, gray)
    if not boxes:
        return [], drawn
    found = {id(box) for box in boxes}
    boxes = sorted(whole_lines(gray, boxes), key=lambda b: (b[0][1], b[0][0]))
    crops = engine.get_crop_img_list(gray, boxes)
    glyphs: list[Glyph] = []
    for box, crop in zip(boxes, crops, strict=True):
        read, _ = engine.text_rec([cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)], True)
        text, score, info = read[0]
        if score < _TEXT_SCORE or not text.strip():
            continue
        if id(box) not in found and len(text.replace(" ", "")) < 2:
            continue  # large ink the detector passed over, read as one sign: a logo's emblem
        columns = [col for word in info[2] for col in word]
        if len(columns) != len(text):
            continue  # the recognizer could not place this line's characters
        if may_be_chinese_name(text):
            text = chinese_name_as_written(text, other_choices(engine, columns))
        centers = [(col + 0.5) * crop.shape[1] / info[0] for col in columns]
        line = line_glyphs(text, centers, crop, box / scale)
        if line and line[0].kind != "mark":
            glyphs += _bullet_left_of(gray, line[0], scale)
        glyphs += line
    return glyphs, drawn


#: A character the recognizer gives less than this probability is one it hesitated over;
#: the others it gave at least ``_CHOICE`` are its other choices for it.
_SURE = 0.95
_CHOICE = 0.05


def other_choices(engine: Any, columns: list[int]) -> list[list[str]]:
    """For each character of the line read last (at the picture's columns ``columns``),
    the other characters the recognizer gave a fair chance, most likely first: none where
    it was sure.  Empty when the engine keeps no scores (``ocr.KeptScores``)."""
    decode = engine.text_rec.postprocess_op
    scores = getattr(decode, "scores", None)
    if scores is None:
        return []
    probability = scores[0][columns]
    choices: list[list[str]] = []
    for row in probability:
        ranked = np.argsort(-row)[:4]
        unsure = row[ranked[0]] < _SURE
        choices.append([decode.character[k] for k in ranked[1:] if unsure and row[k] >= _CHOICE])
    return choices


def _bullet_left_of(gray: Any, first: Glyph, scale: float) -> list[Glyph]:
    """A bullet the detector left out of its line (a dot is too small to be text at the
    size lines are found at): a small blob of ink (up to 0.6 em, or 0.9 em if it is solid:
    "●"), alone within two ems left of the line's first letter and level with it, as a
    mark."""
    em = first.size * scale
    top, bottom = round(first.top * scale), round(first.bottom * scale)
    right = round(first.x0 * scale)
    left = max(0, round(right - 2 * em))
    if right - left < 2 or bottom <= top:
        return []
    strip = gray[top:bottom, left:right].astype(np.int16)
    ink = np.abs(strip - int(np.median(gray[top:bottom, left : right + round(em)]))) > 60
    cols, rows = np.flatnonzero(ink.any(axis=0)), np.flatnonzero(ink.any(axis=1))
    if not len(cols):
        return []
    width, height = cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1
    solid = ink.sum() / (width * height) >= 0.6  # a round or square bullet, not an icon
    if max(width, height) > (0.9 if solid else 0.6) * em:
        return []
    middle = (rows[0] + rows[-1] + 1) / 2 / (bottom - top)
    if not 0.25 < middle < 0.75 or cols[-1] + 1 > right - left - 0.15 * em:
        return []  # not level with the text, or touching it (a letter's edge)
    x0, x1 = (left + cols[0]) / scale, (left + cols[-1] + 1) / scale
    return [_glyph("•", x0, x1, first.top, first.bottom, first.size, "mark")]


def without_rules(gray: Any, scale: float) -> tuple[Any, list[dict[str, Any]]]:
    """The page with its drawn rules (a line under or beside a section title, a table's
    borders) painted out, and the rules, as pdfplumber's line objects in points (a ruled
    table's grid: ``pdf_cells.ruled_tables``).  The recognizer reads a rule that touches a
    line as a dot or a dash ("Work Experience."), and the detector joins text across it.
    A rule is dark ink running unbroken for ``_RULE_LENGTH`` points and thinner than
    ``_RULE_WIDTH`` (a shaded bar is thicker, and stays)."""
    ink = (gray < 160).astype(np.uint8)
    long_run = max(8, round(_RULE_LENGTH * scale))
    thick = max(2, round(_RULE_WIDTH * scale))
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, long_run), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((long_run, 1), np.uint8))
    bars = cv2.dilate(
        cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((thick, thick), np.uint8)),
        np.ones((3, 3), np.uint8),
    ).astype(bool)
    across, down = across.astype(bool) & ~bars, down.astype(bool) & ~bars
    rules = across | down
    if not rules.any():
        return gray, []
    out = gray.copy()
    out[rules] = 255
    return out, _lines_of(across, scale, "h") + _lines_of(down, scale, "v")


def _lines_of(mask: Any, scale: float, orientation: str) -> list[dict[str, Any]]:
    """The rules of one direction in ``mask``, as line objects in points."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    out = []
    for x, y, width, height, _ in stats[1:count]:
        if orientation == "h":
            x0, x1 = x / scale, (x + width) / scale
            top = bottom = (y + height / 2) / scale
        else:
            x0 = x1 = (x + width / 2) / scale
            top, bottom = y / scale, (y + height) / scale
        out.append(
            {
                "object_type": "line",
                "x0": float(x0),
                "x1": float(x1),
                "top": float(top),
                "bottom": float(bottom),
                "width": float(x1 - x0),
                "height": float(bottom - top),
            }
        )
    return out


def _detect(engine: Any, gray: Any) -> list[Any]:
    """The text lines' boxes (four corners, in ``gray``'s pixels), top to bottom."""
    height, width = gray.shape[:2]
    shrink = min(1.0, DETECT_SIDE / max(height, width))
    small = cv2.resize(
        gray,
        (max(32, round(width * shrink)), max(32, round(height * shrink))),
        interpolation=cv2.INTER_AREA,
    )
    found, _ = engine.text_det(cv2.cvtColor(small, cv2.COLOR_GRAY2BGR))
    if found is None or len(found) == 0:
        return []
    ratio = np.array([width / small.shape[1], height / small.shape[0]], dtype=np.float32)
    return [np.asarray(box, dtype=np.float32) * ratio for box in engine.sorted_boxes(found)]


#: Text the detector left out is looked for only this large (its ink's height, times the
#: median height of the boxes found, which reach about 0.3 of a line above and below its
#: ink: 1.2 is twice the body's ink) and no larger: a name in big bold Chinese ("李一鸣",
#: whose middle character is a bare stroke) can go unseen on a whole page; an icon is no
#: taller than its line, a photo far taller than any name.
_MISSED_HEIGHT = (1.2, 4.0)


def whole_lines(gray: Any, boxes: list[Any]) -> list[Any]:
    """``boxes`` and the large text the detector left out of them: a box for a line no box
    touches, and a box that stops short of its line widened over the rest of it (the
    family name of a big "李一鸣" left out of its box on a 300 dpi page).  Lines are the
    ink joined where letters stand closer than half the median box's height, between
    ``_MISSED_HEIGHT`` times that height, at least as wide as high, and not a solid shape
    (a shaded bar round a title the detector found)."""
    heights = [float(b[:, 1].max() - b[:, 1].min()) for b in boxes]
    line = float(np.median(heights))
    ink = (gray < 128).astype(np.uint8)
    gap = max(3, round(0.5 * line))
    joined = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    low, high = _MISSED_HEIGHT
    spans = [(b[:, 0].min(), b[:, 1].min(), b[:, 0].max(), b[:, 1].max()) for b in boxes]
    out = list(boxes)
    for x, y, width, height, area in _large_rows(stats[1:count], low * line, high * line):
        if width < height:
            continue
        if not 0.1 * width * height <= area <= 0.7 * width * height:
            continue  # specks, or a solid shape
        touching = [
            k
            for k, (x0, y0, x1, y1) in enumerate(spans)
            if x < x1 and x0 < x + width and y < y1 and y0 < y + height
        ]
        pad = 0.3 * height
        if not touching:
            x0, y0 = max(0.0, x - pad), max(0.0, y - pad)
            x1, y1 = (
                min(gray.shape[1] - 1.0, x + width + pad),
                min(gray.shape[0] - 1.0, y + height + pad),
            )
            out.append(_rectangle(x0, y0, x1, y1))
        elif len(touching) == 1:
            (k,) = touching
            x0, y0, x1, y1 = spans[k]
            # a box round one flat character of the line ("一" of a big "徐一鸣") lies
            # inside its height, about its middle: it grows to the whole line, up and down
            flat = (
                y1 - y0 < 0.8 * height
                and y - pad <= y0
                and y1 <= y + height + pad
                and abs(y0 + y1 - 2 * y - height) < 0.5 * height
            )
            if (y1 - y0 >= 0.8 * height or flat) and (x < x0 - pad or x + width > x1 + pad):
                left = min(x0, max(0.0, x - pad))
                right = max(x1, min(gray.shape[1] - 1.0, x + width + pad))
                if flat:
                    y0 = min(y0, max(0.0, y - pad))
                    y1 = max(y1, min(gray.shape[0] - 1.0, y + height + pad))
                out[k] = _rectangle(left, y0, right, y1)  # the box of this line, too short
    return out


def _large_rows(stats: Any, low: float, high: float) -> list[tuple[int, int, int, int, int]]:
    """The ink of large text (components ``low`` to ``high`` pixels high, from
    ``cv2.connectedComponentsWithStats``) joined along its row: large characters stand
    further apart than the body's letters, "马 一 鸣" set wide in a big light font (and the
    flat "一" is no taller than a body letter).  Each row as (x, y, width, height, ink)."""
    parts = [tuple(int(v) for v in st) for st in stats]
    used: set[int] = set()
    rows: list[tuple[int, int, int, int, int]] = []
    for seed in sorted(
        (k for k, p in enumerate(parts) if low <= p[3] <= high), key=lambda k: parts[k][0]
    ):
        if seed in used:
            continue
        used.add(seed)
        x0, y0, w, h, ink = parts[seed]
        x1, y1 = x0 + w, y0 + h
        grown = True
        while grown:
            grown = False
            for k, (x, y, width, height, area) in enumerate(parts):
                reach = 0.6 * (y1 - y0)
                if k in used or y < y0 - 0.2 * (y1 - y0) or y + height > y1 + 0.2 * (y1 - y0):
                    continue
                if x - x1 > reach or x0 - (x + width) > reach:
                    continue
                used.add(k)
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + width), max(y1, y + height)
                ink += area
                grown = True
        if low <= y1 - y0 <= high:
            rows.append((x0, y0, x1 - x0, y1 - y0, ink))
    return rows


def _rectangle(x0: float, y0: float, x1: float, y1: float) -> Any:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)


def ink_columns(crop: Any) -> tuple[Any, int, int]:
    """Which pixel columns of a line's picture hold ink (dark on light, or light on a dark
    bar), and the rows its ink spans (first, past last): the longest run of inked rows, so
    that a descender of the line above, cut into the picture, is left out."""
    pixels = crop.astype(np.int16)
    background = int(np.median(pixels))
    contrast = np.abs(pixels - background)
    ink = contrast > max(25, 0.25 * int(contrast.max()))
    band, run = (0, crop.shape[0]), None
    best = 0
    for y, inked in enumerate([*ink.any(axis=1), False]):
        if inked and run is None:
            run = y
        elif not inked and run is not None:
            if y - run > best:
                band, best = (run, y), y - run
            run = None
    return ink[band[0] : band[1]].any(axis=0), band[0], band[1]


def _blank_run(ink: Any, start: float, end: float) -> tuple[int, int]:
    """The widest run of blank columns between two character centres: (first, past last),
    or an empty run at the middle when the letters touch."""
    lo, hi = max(0, int(start)), min(len(ink), int(end) + 1)
    best = ((lo + hi) // 2, (lo + hi) // 2)
    run_start = None
    for x in range(lo, hi):
        if not ink[x]:
            run_start = x if run_start is None else run_start
            if x + 1 - run_start > best[1] - best[0]:
                best = (run_start, x + 1)
        else:
            run_start = None
    return best


def line_glyphs(text: str, centers: list[float], crop: Any, box: Any) -> list[Glyph]:
    """One line read by the recognizer (``text``, each character's centre in the line's
    picture ``crop``) as glyphs on the line's box (``box``: its corners in points).  Each
    character reaches the blank run between it and the next one; a space the model read,
    or a run a space wide between two letters (not CJK), is a word break."""
    ink, ink_top, ink_bottom = ink_columns(crop)
    ink_height = ink_bottom - ink_top
    left, box_top = float(box[:, 0].min()), float(box[:, 1].min())
    per_px = (float(box[:, 0].max()) - left) / max(crop.shape[1], 1)
    down = (float(box[:, 1].max()) - box_top) / max(crop.shape[0], 1)
    # the size is the ink's height (about an em, a text layer's font size); the glyph box
    # reaches a little above and below it, as a font's box does
    size = round(ink_height * down, 1)
    top = box_top + (ink_top - _INK_MARGIN * ink_height) * down
    bottom = box_top + (ink_bottom + _INK_MARGIN * ink_height) * down
    letters = [(ch, x) for ch, x in zip(text, centers, strict=True) if ch.strip()]
    spaced: set[int] = set()
    seen = 0
    for ch in text:  # which letters the model read a space before
        if not ch.strip():
            spaced.add(seen)
        else:
            seen += 1
    chars = [ch for ch, _ in letters]
    xs = [x for _, x in letters]
    runs = [_blank_run(ink, a, b) for a, b in itertools.pairwise(xs)]
    # letter-spaced text ("S U M M A R Y") is one word: a space is wider than its letters' gaps
    gaps = [
        b - a
        for i, (a, b) in enumerate(runs)
        if i + 1 not in spaced and not (cjk(chars[i]) or cjk(chars[i + 1]))
    ]
    usual = float(np.median(gaps)) / max(ink_height, 1) if len(gaps) >= 3 else 0.0
    space_gap = max(SPACE_GAP, _TRACKED * usual + 0.1) * ink_height
    inked = np.flatnonzero(ink)
    first = min(float(inked[0]) if len(inked) else 0.0, xs[0])
    last = max(float(inked[-1] + 1) if len(inked) else float(crop.shape[1]), xs[-1])

    def glyph(ch: str, a: float, b: float, kind: str) -> Glyph:
        return _glyph(ch, left + a * per_px, left + b * per_px, top, bottom, size, kind)

    out: list[Glyph] = []
    start = first
    # a round bullet read as a letter ("oLed") stands a space apart from the word after it;
    # an "O" touching the next letter is the word's own ("OREN")
    bullet = _bullet(chars) and (chars[0] in _BULLETS or runs[0][1] - runs[0][0] >= space_gap)
    dot = _unread_dot(ink, xs[0], space_gap, ink_height)
    if dot is not None and not bullet:
        out += [glyph("•", *dot[0], "mark"), glyph(" ", dot[0][1], dot[1], "space")]
        start = dot[1]
    for i, ch in enumerate(chars):
        if i + 1 == len(chars):
            end, gap = last, None
        else:
            a, b = runs[i]
            # Chinese characters touch: a gap between them is a form's spaced label
            # ("姓　　名") or a cell's edge, which the layout reader reads as it is
            wide = b - a >= (_CJK_GAP * ink_height if cjk(ch) or cjk(chars[i + 1]) else space_gap)
            end, gap = (float(a), (a, b)) if i + 1 in spaced or wide else (float(b), None)
        kind = "mark" if i == 0 and bullet else "text"
        out.append(glyph("•" if kind == "mark" else ch, start, end, kind))
        if gap is not None:
            out.append(glyph(" ", gap[0], gap[1], "space"))
            start = float(gap[1])
        else:
            start = end
    _narrow_spaces(out, bottom - top)
    return out


def _unread_dot(
    ink: Any, center: float, gap: float, height: float
) -> tuple[tuple[float, float], float] | None:
    """A bullet the recognizer did not read, in the line's picture before its first letter
    (whose centre is at ``center``): a blob of ink at most 0.6 of the ink's ``height`` wide,
    a ``gap`` or more apart from the letter.  Its columns, and where the letter starts."""
    x = min(int(center), len(ink) - 1)
    while x > 0 and ink[x - 1]:
        x -= 1  # back to the letter's left edge
    letter = x
    while x > 0 and not ink[x - 1]:
        x -= 1  # across the blank before it
    blob = np.flatnonzero(ink[:x])
    if not len(blob) or letter - x < gap or blob[-1] - blob[0] + 1 > 0.6 * height:
        return None
    return (float(blob[0]), float(blob[-1] + 1)), float(letter)


def _narrow_spaces(glyphs: list[Glyph], height: float) -> None:
    """Word gaps made as wide as a text layer's: between the ink of two words lie the space
    and both letters' side bearings, and a gap that wide sets a word apart as a cell of its
    own ("Selected | Projects").  A gap of a line's height or more is left as it is (a date
    set apart at the right margin)."""
    for prev, space, after in zip(glyphs, glyphs[1:], glyphs[2:], strict=False):
        if space.kind != "space" or prev.kind != "text" or after.kind != "text":
            continue
        if cjk(prev.text) or cjk(after.text):
            continue  # (see _CJK_GAP)
        gap = after.x0 - prev.x1
        if _WORD_SPACE * height < gap < height:
            prev.x1 = after.x0 - _WORD_SPACE * height
            space.x0, space.x1 = prev.x1, after.x0


def _bullet(chars: list[str]) -> bool:
    """Does the line start with a list marker?  A dot or a dash, or a round bullet that the
    engine read as a letter or a full stop ("oPresented", "。负责", ". Led") before a capital
    or a Chinese word."""
    if len(chars) < 2:
        return False
    first, second = chars[0], chars[1]
    if first in _BULLETS:
        return True
    # a small round bullet is often read as a full stop (". Automated")
    return (first in _ROUND_BULLETS or first == ".") and (second.isupper() or cjk(second))


def _glyph(
    text: str, x0: float, x1: float, top: float, bottom: float, size: float, kind: str
) -> Glyph:
    return Glyph(
        text=text,
        x0=x0,
        x1=max(x1, x0 + 0.1),
        top=top,
        bottom=bottom,
        size=size,
        font=OCR_FONT,
        bold=False,
        kind=kind,
        base=(top + bottom) / 2,
    )
