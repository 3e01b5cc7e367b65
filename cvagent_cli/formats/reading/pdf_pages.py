"""Page-level clean-up of a PDF: page numbers and the headers and footers repeated in
every page's margins, and a cover letter printed after the resume."""

from __future__ import annotations

import re
from collections import Counter

from cvagent_cli.formats.reading.pdf_layout import Line
from cvagent_cli.formats.reading.pdf_lines import note
from cvagent_cli.formats.reading.structure import PAGE_NUMBER_LINE_RE, Recognition

_SALUTATION_RE = re.compile(
    r"^(?:dear\b|to whom it may concern|hello\b|尊敬的|您好|sehr geehrte)", re.IGNORECASE
)

_CLOSING_RE = re.compile(
    r"^(?:sincerely|yours(?: sincerely| faithfully| truly)?,|(?:best|kind|warm) regards|"
    r"regards,|respectfully|此致|敬礼|mit freundlichen)",
    re.IGNORECASE,
)

_LETTER_TITLE_RE = re.compile(
    r"^(?:cover letter|letter of motivation|motivation letter|求职信|自荐信|推荐信)$", re.I
)

_MARGIN = 0.12  # the top and bottom share of a page where running headers and footers sit


def _key(line: Line) -> str:
    return re.sub(r"\d+", "#", " ".join(line.text().lower().split()))


def _numbered(line: Line, number: int) -> bool:
    """A margin line of cells, one of them this page's number ("… · Résumé | 1"): a
    running header or footer, though the page may be the only one."""
    cells = [" ".join(w.text for w in cell).strip() for cell in line.cells()]
    return len(cells) >= 2 and any(
        cell == str(number)
        or (bool(PAGE_NUMBER_LINE_RE.fullmatch(cell)) and bool(re.search(rf"\b{number}\b", cell)))
        for cell in cells
        if cell
    )


def drop_running_lines(
    pages: list[list[Line]], heights: list[float], recognition: Recognition
) -> list[list[Line]]:
    """Remove page numbers and the headers and footers repeated in the page margins."""

    def margin(line: Line, height: float) -> str:
        if line.bottom <= _MARGIN * height:
            return "top"
        if line.top >= (1 - _MARGIN) * height:
            return "bottom"
        return ""

    seen: Counter[tuple[str, str, int]] = Counter()
    for lines, height in zip(pages, heights, strict=True):
        keys = {(margin(ln, height), _key(ln), round(ln.size)) for ln in lines}
        seen.update(k for k in keys if k[0])
    out: list[list[Line]] = []
    running = 0
    for number, (lines, height) in enumerate(zip(pages, heights, strict=True), start=1):
        kept = []
        for line in lines:
            where = margin(line, height)
            if where and PAGE_NUMBER_LINE_RE.match(line.text().strip()):
                recognition.dropped += 1
                continue
            if where and _numbered(line, number):
                running += 1  # "November 2026 | A. Person · Résumé | 1", on any page
                continue
            if where and len(pages) > 1 and seen[(where, _key(line), round(line.size))] >= 2:
                running += 1
                continue
            kept.append(line)
        out.append(kept)
    if running:
        note(
            recognition,
            f"a running header or footer (repeated on each page, or with the page number) "
            f"was left out ({running} lines)",
        )
    return out


def drop_cover_letter(pages: list[list[Line]], recognition: Recognition) -> list[list[Line]]:
    """A letter after the resume (a salutation near its top, a closing or a letter title)
    is not part of the resume: it and the pages after it are left out, with a note."""
    for index in range(1, len(pages)):
        texts = [ln.text().strip() for ln in pages[index]]
        if not texts:
            continue
        head = texts[: max(4, len(texts) // 2)]
        titled = any(_LETTER_TITLE_RE.match(t) for t in texts[:4])
        salutation = any(_SALUTATION_RE.match(t) for t in head)
        closing = any(_CLOSING_RE.match(t) for t in texts)
        if (salutation and (closing or titled)) or (titled and closing):
            last = len(pages)
            span = f"page {index + 1}" if last == index + 1 else f"pages {index + 1}–{last}"
            note(recognition, f"a cover letter after the resume ({span}) was left out")
            return pages[:index]
    return pages
