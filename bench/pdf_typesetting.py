"""How the PDF export sets a resume, measured (issue 31): the vertical rhythm of lists,
where text extraction puts an entry's dates, and what page breaks do to entries and lists.

1. **Pitch** (pdfplumber, the ``top`` of each line's characters), per template and
   language, over every sample: the median distance from one line of a bullet to the next
   line of the same bullet, from the last line of a bullet to the next bullet, and that
   distance after a list's first bullet.  One rhythm is all three equal.
2. **Reading order**: the dated entries of the 9 samples × every template whose dates
   (and place) do not come right after the title in pdfminer's text (default
   ``LAParams``) and in poppler's ``pdftotext`` (its default reading order, ``-layout``
   and ``-raw``), ``tests/support/pdf_measures.py``.  pdfminer, ``-layout`` and ``-raw``
   read 114 of 114 next to the title; the default mode reads 33 apart, and what decides
   that is in poppler's ``TextPage::coalesce`` (TextOutputDev.cc).  It drops space
   characters (``UnicodeIsWhitespace``), so the leader is a gap.  A block grows from its
   top-left word by the lines below whose baseline is within 1.5 × the font size
   (``maxLineSpacingDelta``) at the same size (±5 %), and by the words of its lines that
   lie within 0.3 em of it (``minColSpacing1``), or within 1 em (``minColSpacing2``)
   when no more than three lines have one: the dates join the title's block only when a
   line of the entry reaches under them, else they are a block of their own, read after
   the title's whole block (the entry's body with it).  The blocks are then ordered by
   Breuel's rules (``TextBlock::isBeforeByRule1/2``): a block wholly to the left of the
   dates' block, anywhere below it on the page, comes first unless a block under the
   dates (``ExMin``/``ExMax``, widened down the page) bridges the two, which only a
   full line below does.  Tried and measured (apart in the default mode, of 114): a
   right-aligned page number in the footer 32; the title 7 % larger than its body 17,
   both 15 (its taller line then overlaps the first bullet's); the page number and
   0.2 em more space under each title 11; an ``/ActualText`` span over title, leader
   and dates (added to the PDF by hand) lands at the page corner, as poppler places it
   with the graphics state at its end and typst draws every run in its own
   ``q … cm … Q`` (typst 0.15 has no ActualText either: its ``pdf`` module is ``attach``
   and ``artifact``).  Text in the gap closes it: a leader of muted "·" every 0.35 em
   reads 0 apart in all four (a visible change), as do the dates set right after the
   title (" · ", not aligned).
3. **Page breaks**: a resume of entries with bullet and paragraph bodies and a short
   Skills list, pushed down by 0 … 15 two-line paragraphs, in every template (48 trials):
   a page ending with an entry's title, and a short list (4 items or fewer) split over two
   pages.

``python bench/pdf_typesetting.py`` prints the three tables (no timing: nothing to race).
"""

from __future__ import annotations

import io
import shutil
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SAMPLES = sorted((ROOT / "sample_resumes").glob("*.md"))


def pitch_table() -> list[str]:
    from cvagent_cli.formats.writing.pdf_export import render_pdf
    from cvagent_cli.formats.writing.templates import TEMPLATES
    from tests.support.pdf_measures import pitches

    rows = ["| template | language | inside a bullet | bullet to bullet | after the first bullet |"]
    rows.append("|---|---|---|---|---|")
    for template in TEMPLATES:
        for language in ("en", "zh"):
            found: dict[str, list[float]] = defaultdict(list)
            for path in SAMPLES:
                if path.name.startswith(language):
                    data = render_pdf(path.read_text(encoding="utf-8"), template)
                    for kind, values in pitches(data).items():
                        found[kind] += values
            cells = [
                f"{statistics.median(found[k]):.1f} pt (n={len(found[k])})" if found[k] else "—"
                for k in ("inside", "between", "after first")
            ]
            rows.append(f"| {template} | {language} | " + " | ".join(cells) + " |")
    return rows


def reading_order_table() -> list[str]:
    from cvagent_cli.formats.writing.pdf_export import render_pdf
    from cvagent_cli.formats.writing.templates import TEMPLATES
    from tests.support.pdf_measures import EXTRACTORS, apart, dated_entries

    extractors = {
        name: extract
        for name, extract in EXTRACTORS.items()
        if not name.startswith("pdftotext") or shutil.which("pdftotext")
    }
    total = 0
    wrong: dict[str, int] = dict.fromkeys(extractors, 0)
    either = 0
    details = []
    for template in TEMPLATES:
        for path in SAMPLES:
            markdown = path.read_text(encoding="utf-8")
            data = render_pdf(markdown, template)
            total += len(dated_entries(markdown))
            bad: set[str] = set()
            for name, extract in extractors.items():
                missed = apart(data, markdown, extract)
                wrong[name] += len(missed)
                bad |= {e.title for e in missed}
                details += [f"  {name} {template} {path.stem}: {e.title}" for e in missed]
            either += len(bad)
    rows = [f"dated entries: {total} (9 samples × {len(TEMPLATES)} templates)"]
    rows += [f"dates not next to the title, {name}: {n}" for name, n in wrong.items()]
    rows.append(f"dates not next to the title in any of them: {either}")
    return rows + details


def page_break_table() -> list[str]:
    import pdfplumber

    from cvagent_cli.formats.writing.pdf_export import render_pdf
    from cvagent_cli.formats.writing.templates import TEMPLATES
    from tests.support.pdf_measures import TRIAL_SKILLS, TRIAL_TITLES, trial_resume

    trials = stranded = split = 0
    details = []
    for template in TEMPLATES:
        for padding in range(16):
            trials += 1
            data = render_pdf(trial_resume(padding), template)
            with pdfplumber.open(io.BytesIO(data)) as pdf:
                pages = [(p.extract_text() or "").splitlines() for p in pdf.pages]
            for number, lines in enumerate(pages[:-1], 1):
                if lines[-1].startswith(TRIAL_TITLES):
                    stranded += 1
                    details.append(f"  title at the end of page {number}: {template} +{padding}")
            skill_pages = {
                n for n, lines in enumerate(pages) for ln in lines if ln.startswith(TRIAL_SKILLS)
            }
            if len(skill_pages) > 1:
                split += 1
                details.append(f"  Skills split over pages: {template} +{padding}")
    return [
        f"trials: {trials}",
        f"a page ends with an entry title: {stranded}",
        f"the Skills list split: {split}",
        *details,
    ]


def main() -> None:
    for name, table in (
        ("pitch", pitch_table),
        ("reading order", reading_order_table),
        ("page breaks", page_break_table),
    ):
        print(f"## {name}")
        print("\n".join(table()))
        print()


if __name__ == "__main__":
    main()
