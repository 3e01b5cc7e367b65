"""Print ``script.RADICAL_FORMS`` / ``script.RADICAL_IDEOGRAPHS``: the ideograph each radical
(CJK Radicals Supplement, Kangxi Radicals) is drawn with in Noto Sans CJK SC.

A PDF whose CJK font shares one glyph between a radical and an ideograph may map the glyph
back to the radical in its text layer (Chromium printing with Noto Sans CJK or Source Han
Sans does), so "工作经历" reads as "⼯作经历".  The table is read from the font that does it:
each radical code point in the font's cmap, and the unified ideograph mapped to the same
glyph.  Kangxi radicals also have Unicode compatibility mappings (NFKC); where the font and
NFKC differ (⼾: 户 in the SC face, 戶 by NFKC) the font wins, as it decides what was drawn.

    python bench/radical_table.py [/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]

Needs fontTools (a dependency of typst's tooling is not enough: ``pip install fonttools``).
"""

from __future__ import annotations

import sys

from fontTools.ttLib import TTCollection


def main(path: str) -> None:
    faces = TTCollection(path).fonts
    face = next(f for f in faces if "CJK SC" in f["name"].getDebugName(4))
    cmap = face.getBestCmap()
    by_glyph: dict[str, list[int]] = {}
    for cp, glyph in cmap.items():
        by_glyph.setdefault(glyph, []).append(cp)
    forms, ideographs = [], []
    for cp in range(0x2E80, 0x2FE0):
        glyph = cmap.get(cp)
        same = [c for c in by_glyph.get(glyph, []) if 0x3400 <= c <= 0x9FFF] if glyph else []
        if same:
            forms.append(chr(cp))
            ideographs.append(chr(min(same)))
    for name, chars in (("RADICAL_FORMS", forms), ("RADICAL_IDEOGRAPHS", ideographs)):
        text = "".join(chars)
        print(f"{name} = (")
        for i in range(0, len(text), 40):
            print(f'    "{text[i : i + 40]}"')
        print(")")


if __name__ == "__main__":
    main(
        sys.argv[1]
        if len(sys.argv) > 1
        else "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    )
