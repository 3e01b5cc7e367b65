"""A Chinese name as a page sets it, read family name first and whole.

Western templates set the given name first ("晨阳 宋"), or the family name apart from it:
in a lighter weight or another colour on the same row, stacked over or under the given
name in large letters (a design tool's "first name / last name" boxes); Chinese resumes
space a name's characters out ("王  诗  琪").  Neither a text layer nor OCR keeps all of
it: OCR drops a narrow space ("一鸣李"), and the reader takes a cell or a line for the
name, so the family name set apart is left behind.  Which reading is the name is what
``zh_names.plausible`` decides: a family name, then characters given names are made of.
"""

from __future__ import annotations

import re

from cvagent_cli.document import zh_names
from cvagent_cli.formats.reading.pdf_layout import Word, join_words
from cvagent_cli.formats.reading.pdf_lines import PageLine, note, same_size, with_bars
from cvagent_cli.formats.reading.structure import Recognition
from cvagent_cli.script import HAN

_HAN_RE = re.compile(f"[{HAN}]+")
_OCR_APART_SIZES = 1.5  # OCR measures a lone, lighter family name up to this much smaller


def chinese_name_whole(
    lines: list[PageLine], name: PageLine, ocr: bool, recognition: Recognition
) -> None:
    """The name ``name`` (a line of ``lines``) read family name first and whole: a
    given name printed first is turned round, letter-spacing is closed, and a family name
    set apart beside, over or under it is joined to it (and its line taken out)."""
    text = " ".join(name.text().split())
    parts = text.split(" ")
    bare = "".join(parts)
    if not all(_HAN_RE.fullmatch(p) for p in parts):
        return
    turned = bare[-1] + bare[:-1]
    if len(parts) == 2 and len(parts[0]) == 2 and len(parts[1]) == 1:
        if parts[0] in zh_names.COMPOUND_FAMILY:  # "欧阳 明"
            read, why = bare, "spaced out"
        elif zh_names.plausible(turned) or parts[0][0] not in zh_names.FAMILY:
            read, why = turned, "printed given name first"  # "晨阳 宋" (not "张伟 男")
        else:
            return
    elif len(parts) > 1 and zh_names.plausible(bare):
        read, why = bare, "spaced out"  # "王 诗 琪", "李 一鸣"
    elif len(bare) == 3 and not zh_names.plausible(bare) and zh_names.plausible(turned):
        read, why = turned, "printed given name first"  # "一鸣李": OCR saw no space
    elif len(bare) <= 2 or not zh_names.plausible(bare):
        found = _family_apart(lines, name, bare, ocr)
        if found is None:
            return
        apart, cell, read = found
        rest = [c for c in apart.cells() if c != cell]
        if rest:
            apart.words = with_bars(rest)
        else:
            lines.remove(apart)
        why = "set apart from its family name"
    else:
        return
    first = name.words[0]
    name.words = [Word(read, first.x0, name.x1, name.top, name.bottom, first.size, first.bold)]
    note(recognition, f"the name '{text}' was {why}: read as {read}")


def _family_apart(
    lines: list[PageLine], name: PageLine, bare: str, ocr: bool
) -> tuple[PageLine, list[Word], str] | None:
    """A cell set as large as the name ``name`` (read ``bare``) and next to it, on its row
    within two characters' width or over or under it within half a line, that makes a
    whole name with it: a family name beside a given name, or a given name beside a family
    name.  (A cell: OCR reads a family name stacked over the given name on one row with a
    contact line level with it, "马 | 南京".)  The line, the cell, and the name they make."""
    for line in lines:
        if line is name or line.page != name.page:
            continue
        for cell in line.cells():
            other = join_words(cell).strip()
            if not _HAN_RE.fullmatch(other):
                continue
            whole = next((n for n in (other + bare, bare + other) if zh_names.plausible(n)), None)
            if whole is None or not _family_size(max(w.size for w in cell), name.size, ocr):
                continue
            x0, x1 = cell[0].x0, cell[-1].x1
            top, bottom = min(w.top for w in cell), max(w.bottom for w in cell)
            beside = abs((top + bottom) - (name.top + name.bottom)) / 2 < 0.25 * name.size and (
                min(abs(x0 - name.x1), abs(name.x0 - x1)) < 2 * name.size
            )
            over = min(x1, name.x1) > max(x0, name.x0) and (
                max(top, name.top) - min(bottom, name.bottom) < 0.6 * name.size
            )
            if beside or over:
                return line, cell, whole
    return None


def _family_size(size: float, name: float, ocr: bool) -> bool:
    """A family name set apart as large as the given name: in one size on a text layer;
    under OCR within half as large again, as the family name is often set in a lighter
    weight and OCR's box for one character hugs its ink (a regular "黄" over a bold "晓彤",
    both 36 pt, measures 27 against 34)."""
    if not ocr:
        return same_size(size, name, ocr)
    return max(size, name) <= _OCR_APART_SIZES * min(size, name)
