"""Columns read from evidence, on a page's lines.

- A page has two columns only when a vertical gutter runs through most of its text height
  with text on both sides, and the narrower side is a column of its own rather than
  fragments (dates, places, roles) each printed on the row of a line on the other side.
- A table's rows share white channels between their columns (``table_channels``).
"""

from __future__ import annotations

import itertools
import statistics
from collections import Counter
from collections.abc import Callable

from cvagent_cli.formats.reading.pdf_glyphs import BULLET_CHARS
from cvagent_cli.formats.reading.pdf_layout import Line, Word, flag_bullet


def _row_partner(line: Line, others: list[Line]) -> bool:
    return any(
        min(line.bottom, o.bottom) - max(line.top, o.top)
        >= 0.5 * min(line.bottom - line.top, o.bottom - o.top)
        for o in others
    )


def find_gutter(lines: list[Line]) -> tuple[float, float, float] | None:
    """(x, top, bottom) of a gutter between two columns, or None.

    Candidates are the middles of wide gaps inside lines.  For each, the words crossing it
    are found, and the tallest stretch with none: it must run through most of the text
    height with text on both sides for much of it."""
    if len(lines) < 6:
        return None
    # a bullet glyph inside a row is the start of the other column's list item
    words = [w for ln in lines for w in ln.words if w.text not in BULLET_CHARS]
    text_top = min(w.top for w in words)
    text_bottom = max(w.bottom for w in words)
    height = text_bottom - text_top
    size = statistics.median(w.size for w in words)
    candidates: set[float] = set()
    for ln in lines:
        for a, b in zip(ln.words, ln.words[1:], strict=False):
            if b.x0 - a.x1 > 0.8 * size:  # both edges of the gap and its middle
                for x in (a.x1 + 0.5, (a.x1 + b.x0) / 2, b.x0 - 0.5):
                    candidates.add(round(x, 1))
    # Columns whose lines never share a baseline (a sidebar beside a main column, each
    # with its own spacing) leave no gap inside a line: the edges of the lines that start
    # or end away from the page's margins are candidates too.
    left_margin = min(w.x0 for w in words)
    right_margin = max(w.x1 for w in words)
    for ln in lines:
        if ln.x0 > left_margin + 2 * size:
            candidates.add(round(ln.x0 - 0.5, 1))
        if ln.x1 < right_margin - 2 * size:
            candidates.add(round(ln.x1 + 0.5, 1))
    # What a gutter cannot pass through: the words, and the space between two words of a
    # line that is no wider than a space of that line's size ("Lorcan  Eberhardt" in 30 pt).
    blocks = [(w.x0, w.x1, w.top, w.bottom) for w in words]
    for ln in lines:
        for a, b in itertools.pairwise(ln.words):
            if b.x0 - a.x1 < 0.8 * max(a.size, b.size):
                blocks.append((a.x1, b.x0, min(a.top, b.top), max(a.bottom, b.bottom)))
    best: tuple[float, float, float, float] | None = None
    for x in sorted(candidates):
        crossing = sorted((top, bottom) for x0, x1, top, bottom in blocks if x0 < x < x1)
        edges = [text_top - 1, *(v for t, b in crossing for v in (t, b)), text_bottom + 1]
        stretch = max(
            ((edges[i], edges[i + 1]) for i in range(0, len(edges), 2)),
            key=lambda s: s[1] - s[0],
        )
        top, bottom = stretch
        if bottom - top < 0.55 * height:
            continue
        inside = [w for w in words if w.top >= top - 0.5 and w.bottom <= bottom + 0.5]
        left = [w for w in inside if w.x1 <= x]
        right = [w for w in inside if w.x0 >= x]
        if not left or not right:
            continue
        band = min(w.x0 for w in right) - max(w.x1 for w in left)
        spans = [max(w.bottom for w in s) - min(w.top for w in s) for s in (left, right)]
        if band < 0.8 * size or min(spans) < 0.1 * (bottom - top):
            continue
        # The tallest stretch wins; the band between the columns only breaks near-ties.
        score = round((bottom - top) / (0.02 * height)) + band / (band + size)
        if best is None or score > best[0]:
            best = (score, float(x), _columns_start(top, left, right, size), bottom)
    return best[1:] if best else None


def _columns_start(top: float, left: list[Word], right: list[Word], size: float) -> float:
    """Where the columns start.  Text above the first row where both sides have text that
    does not line up with its side's column (a name centred over both, a date stamp in the
    corner) is the page's head, read first; a column that simply starts higher (its
    section title above the sidebar's first line) keeps its lines.  The first row is found
    within a third of an em: on one baseline, CJK glyph boxes stand taller than Latin ones
    (a label "EXPERIENCE" beside "海川新能源有限公司")."""
    start = max(min(w.top for w in left), min(w.top for w in right)) - 0.35 * size
    for side in (left, right):
        edge = Counter(round(w.x0) for w in side if w.top >= start).most_common(1)
        above = [w for w in side if w.top < start]
        if above and edge and any(abs(w.x0 - edge[0][0]) < 0.5 * size for w in above):
            return top
    return max(top, start)


def _same_row(line: Line, others: list[Line]) -> bool:
    """A line printed on the same baseline as one of ``others`` (one row of the source),
    within a third of an em: a row that mixes digits and CJK sets its boxes unevenly."""
    tol = 0.35 * line.size  # digits and CJK in one line: boxes shift by a quarter em
    return any(abs(o.bottom - line.bottom) <= tol and abs(o.top - line.top) <= tol for o in others)


def _longest_run(lines: list[Line]) -> int:
    """The most lines in a row set close one under the other (a list, a paragraph)."""
    best = run = 1
    for a, b in itertools.pairwise(lines):
        run = run + 1 if b.top - a.bottom < 0.8 * a.size else 1
        best = max(best, run)
    return best


def _flush_right(lines: list[Line]) -> bool:
    """Most lines end at one x and start at many: a right-aligned column of labels (a
    sidebar of its own is set flush left)."""
    ends = sorted(ln.x1 for ln in lines)
    middle = ends[len(ends) // 2]
    flush = sum(1 for x in ends if abs(x - middle) <= 1.5)
    starts = {round(ln.x0) for ln in lines}
    return flush >= 0.7 * len(lines) and len(starts) >= 0.5 * len(lines)


def fragment_side(left: list[Line], right: list[Line], is_date: Callable[[str], bool]) -> bool:
    """True when one side holds fragments printed on the rows of the other side's lines
    (dates, places, roles), not a column of its own: nearly all its lines sit on the
    baseline of a line across the gutter, never more than three in a block, and either many
    are dates or the other side has lines of its own between them (an entry's bullets)."""
    shared = [ln for ln in left + right if _row_partner(ln, right if ln in left else left)]
    if not shared:
        return False
    first, last = min(ln.top for ln in shared), max(ln.bottom for ln in shared)
    # Only the rows from the first to the last shared one: a title above does not count.
    left = [ln for ln in left if ln.top >= first - 0.5 and ln.bottom <= last + 0.5]
    right = [ln for ln in right if ln.top >= first - 0.5 and ln.bottom <= last + 0.5]
    for small, big in ((left, right), (right, left)):
        dates = sum(1 for ln in small if is_date(ln.text()))
        if len(small) >= 3 and _flush_right(small) and (small is left or dates >= 0.4 * len(small)):
            # labels set flush right against the gutter (dates, titles, places), or dates
            # at the right margin; a right-hand column flush right without them is a
            # sidebar set that way (skills, schools, links)
            return True
        if len(small) < 2 or _longest_run(small) > 3:
            continue
        if sum(1 for ln in small if _same_row(ln, big)) < 0.75 * len(small):
            continue
        pairs = list(itertools.pairwise(small))
        interleaved = sum(
            1
            for a, b in pairs
            if any(
                a.bottom < o.top and o.bottom < b.top and not _row_partner(o, small) for o in big
            )
        )
        if interleaved >= 0.4 * len(pairs) or dates >= 0.4 * len(small):
            return True
    return False


def _inside_columns(line: Line, channels: list[tuple[float, float]]) -> bool:
    """The line's words sit between the channels, right of the first column: the wrapped
    rest of a row's cells ("example.net" under "lorcan.halloran@")."""
    return line.x0 > channels[0][1] and all(
        not (w.x0 < b and w.x1 > a) for w in line.words for a, b in channels
    )


def table_channels(lines: list[Line]) -> dict[int, list[tuple[float, float]]]:
    """For lines in a table (two or more consecutive rows with a gap of most of an em at the
    same place in each), the vertical white channels between their columns, by line index."""
    out: dict[int, list[tuple[float, float]]] = {}
    start = 0
    channels: list[tuple[float, float]] = []
    for i, line in enumerate([*lines, None]):
        joined: list[tuple[float, float]] = []
        if line is not None and i > start and not line.bullet:
            prev = lines[i - 1]
            if prev.page == line.page and 0 <= line.top - prev.bottom < 1.5 * line.size:
                if channels and _inside_columns(line, channels):
                    continue  # the rest of some cells wrapped in their columns
                joined = [
                    (max(a, c), min(b, d))
                    for a, b in channels
                    for c, d in line.gaps(0.6)
                    if min(b, d) - max(a, c) >= 0.3 * line.size
                ]
        if joined:
            channels = joined
            continue
        if i - start >= 2 and channels:
            for j in range(start, i):
                out[j] = channels
        start = i
        channels = line.gaps(0.6) if line is not None and not line.bullet else []
    return out


def side_labels(
    left: list[Line],
    right: list[Line],
    is_title: Callable[[str], bool],
    is_date: Callable[[str], bool],
) -> list[Line] | None:
    """The left side's section names when it is a narrow column of them beside their
    content (Europass, Google Docs templates; an entry's dates may sit there too), a name
    wrapped over two lines joined ("Professional" "Experience"); None unless two at least
    name a section, every other line is a date, and the content beside is much longer."""
    if not left:
        return None
    ordered = sorted(left, key=lambda ln: ln.top)
    groups = [Line(list(ordered[0].words), ordered[0].page)]
    for line in ordered[1:]:
        last = groups[-1]
        text = " ".join(w.text for w in line.words)
        near = 0 <= line.top - last.bottom < 0.6 * line.size
        if near and abs(line.size - last.size) < 0.5 and not is_date(text):
            last.words = last.words + line.words
        else:
            groups.append(Line(list(line.words), line.page))
    labels = [g for g in groups if is_title(" ".join(w.text for w in g.words))]
    dates = [g for g in groups if is_date(" ".join(w.text for w in g.words))]
    if len(labels) < 2 or len(labels) + len(dates) < len(groups) or len(right) < 2 * len(groups):
        return None
    return labels


def labels_in_head(
    head: list[Line], labels: list[Line], x: float, is_title: Callable[[str], bool]
) -> list[Line]:
    """The head's lines (above the columns), with a section name set in the labels'
    column, ending where the other labels end, split off its row and read after it:
    Europass's "PERSONAL INFORMATION" level with the name heads the contact lines under
    the name, and the name stays the first line."""
    edge = statistics.median(ln.x1 for ln in labels)
    out: list[Line] = []
    for line in head:
        label = [w for w in line.words if w.x1 <= x]
        rest = [w for w in line.words if w.x0 >= x]
        if (
            label
            and rest
            and len(label) + len(rest) == len(line.words)
            and abs(label[-1].x1 - edge) < 1.0
            and is_title(" ".join(w.text for w in label))
        ):
            out += [Line(rest, line.page), Line(label, line.page)]
        else:
            out.append(line)
    return out


def before_their_rows(labels: list[Line], content: list[Line]) -> list[Line]:
    """Section names from a side column, each before the content line on its row."""
    return sorted(
        labels + content, key=lambda ln: ln.top - (0.5 * ln.size if ln in labels else 0.0)
    )


def _inner_list_x(line: Line) -> float | None:
    """Where a second list item starts on a list item's row, after a gap wider than half
    an em and twice the row's word gaps (a column gap, however narrow): the x of its bullet
    glyph ("· Designed the on-call …   · Cut cloud spend …")."""
    if not line.bullet or len(line.words) < 3:
        return None
    usual = statistics.median(b.x0 - a.x1 for a, b in itertools.pairwise(line.words))
    for prev, word in itertools.pairwise(line.words):
        if (
            word.text in BULLET_CHARS
            and word is not line.words[-1]
            and word.x0 - prev.x1 > max(0.5 * prev.size, 2 * usual)
        ):
            return word.x0
    return None


def list_columns(lines: list[Line]) -> list[Line]:
    """A list set in two columns inside one column of text (a theme's CSS columns): rows
    whose list item is followed, after a wide gap, by another item's bullet glyph.  The
    block of rows of that size with nothing crossing the glyph's x is read as its left
    column, then its right one, so each item keeps its wrapped lines (the left column's
    right edge is the glyph's x, where its lines wrap)."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        first = lines[i]
        x = _inner_list_x(first)
        if x is None:
            out.append(first)
            i += 1
            continue
        j = i + 1
        while (
            j < len(lines)
            and lines[j].page == first.page
            and abs(lines[j].size - first.size) < 0.5
            and 0 <= lines[j].top - lines[j - 1].bottom < 0.8 * first.size
            and not any(w.x0 < x - 0.5 < w.x1 for w in lines[j].words)
        ):
            j += 1
        left: list[Line] = []
        right: list[Line] = []
        for line in lines[i:j]:
            on_right = line.bullet and line.bullet_x >= x - 0.5  # an item of the right only
            words = [w for w in line.words if w.x1 <= x - 0.5]
            if words:
                left.append(Line(words, line.page, line.bullet, line.bullet_x, edge=x - 0.5))
            words = [w for w in line.words if w.x0 >= x - 0.5]
            if words:
                part = Line(words, line.page, on_right, line.bullet_x, edge=line.edge)
                if not on_right:
                    flag_bullet(part)
                right.append(part)
        out += left + right
        i = j
    return out
