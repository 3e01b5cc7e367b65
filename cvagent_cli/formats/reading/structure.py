"""From paragraphs with layout hints (font size, bold, bullet glyphs) to resume Markdown.

Every reader (PDF, DOCX, HTML, plain text) turns its file into a list of ``Para``: the
text of one paragraph plus what the file said about it.  ``roles.assign_roles`` then
decides what is the name, a section, an entry and a bullet, the same way for every
format, and ``to_markdown`` writes the Markdown.  Here: the paragraph and what a reader
noticed, the small text tests the readers share, page-number patterns, heading levels
from a file's own outline, and the Markdown writer.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from cvagent_cli.document.dates import find_dates, find_ranges
from cvagent_cli.document.entry_words import is_place
from cvagent_cli.script import HAN_RE

BULLET_GLYPHS = "•▪‣●◦■□·∙○◆◇►▶➢➤✓✔❖-–*+"
_GLYPH_RE = re.compile(rf"^\s*[{re.escape(BULLET_GLYPHS)}]\s+|^\s*[•▪‣●◦■□∙○◆◇►▶➢➤✓✔❖]\s*")
_SENTENCE_END = (".", "。", "；", ";", "，", ",")
_BLOCK_START_RE = re.compile(r"^(\s*)(#{1,6}\s|>|={3,}\s*$|-{3,}\s*$|\d+[.)]\s|[-*+]\s)")
_BOLD_RE = re.compile(r"\*\*(.+?)\*\*")
#: The separator an entry's dates follow its title with ("Engineer — Acme · 2019 – 2021").
_LEADING_SEPARATOR_RE = re.compile(r"^[·|｜]\s*")

# -- page numbers: both readers drop them --------------------------------------------------
# "第 2 页" and "共 3 页": a page number and a page count, as Chinese documents write them.
_ZH_PAGE = r"第\s*\d+\s*页"
_ZH_PAGES = r"共\s*\d+\s*页"
#: A PDF line that is a page number and nothing else ("- 2 -", "Page 2 of 3", "Seite 2 von 3",
#: "2/3", "第 2 页，共 3 页"): a PDF line at the top or bottom of a page may be content too.
PAGE_NUMBER_LINE_RE = re.compile(
    r"^[-–—\s]*(?:page|p\.|seite|página|pagina)?\s*\d{1,3}\s*(?:(?:/|of|von|de|sur|／)\s*\d{1,3})?"
    rf"[-–—\s]*$|^{_ZH_PAGE}(?:\s*[,，/／]?\s*{_ZH_PAGES})?$|^{_ZH_PAGES}",
    re.IGNORECASE,
)
#: A page number anywhere in a DOCX header or footer ("Confidential · Page 2 of 3"), or a
#: header that is only a number: Word keeps headers and footers apart from the body.
PAGE_NUMBER_IN_RE = re.compile(
    r"\bpage\s*\d+(?:\s*(?:of|/)\s*\d+)?\b|^\s*-?\s*\d{1,3}\s*(?:(?:/|of)\s*\d{1,3})?\s*-?\s*$"
    rf"|{_ZH_PAGE}|{_ZH_PAGES}",
    re.IGNORECASE,
)


@dataclass
class Para:
    """One paragraph as a reader found it.  ``text`` is inline Markdown (``**bold**``
    runs and ``[text](url)`` links kept); lines inside it are separated by ``\\n``."""

    text: str
    role: str = "text"  # title | h2 | h3 | bullet | text | table
    bold: bool = False  # the whole paragraph is bold
    size: float = 0.0  # font size in points; 0 when the format does not say
    depth: int = 0  # list nesting
    caps: bool = False  # set in capitals / small caps by the file, not by the words
    lead: str = ""  # a bold lead-in run ("Data Analyst — Acme" of "… Jan 2022 – Present")
    rows: list[list[str]] = field(default_factory=list)  # role == "table"
    page: int = 0


@dataclass
class Recognition:
    """What a reader noticed that the Markdown cannot show (for the import report)."""

    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what the user must know (not a resume …)
    unplaced: list[str] = field(default_factory=list)  # text left out (rotated words …)
    images: int = 0
    dropped: int = 0  # page numbers


def plain(text: str) -> str:
    return _BOLD_RE.sub(r"\1", text).replace("\n", " ").strip()


def strip_glyph(text: str) -> tuple[bool, str]:
    """(True, rest) when ``text`` starts with a bullet glyph."""
    match = _GLYPH_RE.match(text)
    if match and text[match.end() :].strip():
        return True, text[match.end() :].strip()
    return False, text


def is_date_text(text: str) -> bool:
    """A short run that is mostly dates (and maybe a place): "Jan 2022 – Present", "2019.03 - 至今"."""
    text = plain(text)
    if not text or len(text) > 60:
        return False
    dates = find_dates(text)
    return bool(dates) or bool(re.search(r"(?:19|20)\d\d", text) and len(text) <= 30)


def headingish(para: Para) -> bool:
    text = plain(para.text)
    if not text or "\n" in para.text.strip() or para.role in ("bullet", "table"):
        return False
    limit = 40 if HAN_RE.search(text) else 80
    return len(text) <= limit and not text.endswith(_SENTENCE_END)


def style_of(para: Para) -> tuple[float, bool, bool]:
    return (round(para.size), para.bold, para.caps or all_caps(plain(para.text)))


def all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha() and c.isascii()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def body_size(paras: list[Para]) -> float:
    sizes: Counter[float] = Counter()
    for para in paras:
        if para.size and para.role in ("text", "bullet"):
            sizes[round(para.size, 1)] += len(para.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def shift_headings(paras: list[Para]) -> list[Para]:
    """Map the heading levels a file uses (Word's Heading 1–9, HTML's h1–h6) onto title /
    ## / ###: a lone first top-level heading is the name; Word resumes often use Heading 1
    for sections when the name is the Title or plain text."""
    levels = sorted({int(p.role[1]) for p in paras if re.fullmatch(r"h\d", p.role)})
    if not levels:
        return paras
    ones = [p for p in paras if p.role == f"h{levels[0]}"]
    has_title = any(p.role == "title" for p in paras)
    first_heading = next((p for p in paras if re.fullmatch(r"h\d", p.role)), None)
    if not has_title and len(ones) == 1 and first_heading is ones[0]:
        ones[0].role = "title"
        levels = levels[1:]
    mapping = {level: f"h{min(i + 2, 3)}" for i, level in enumerate(levels)}
    for para in paras:
        if re.fullmatch(r"h\d", para.role):
            para.role = mapping.get(int(para.role[1]), "h3")
    return paras


def _escape_start(line: str) -> str:
    match = _BLOCK_START_RE.match(line)
    return f"{match.group(1)}\\{line[len(match.group(1)) :]}" if match else line


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _place_beside_dates(text: str) -> tuple[str, str]:
    """("Seattle, WA", "Mar 2019 – Present") from "Seattle, WA · Mar 2019 – Present": the
    place an export printed beside an entry's dates, which goes back to the end of the
    entry's title; ("", text) for anything else."""
    place, sep, dates = text.partition(" · ")
    ranges = find_ranges(dates) if sep else []
    if ranges and ranges[0].offset == 0 and is_place(place):
        return place.strip(), dates.strip()
    return "", text


def to_markdown(paras: list[Para]) -> str:
    """Markdown for paragraphs whose roles are decided (see ``assign_roles``)."""
    out: list[str] = []

    def block(*lines: str) -> None:
        if out and out[-1] != "":
            out.append("")
        out.extend(lines)

    previous = ""
    for para in paras:
        text = para.text.strip()
        if not text and para.role != "table":
            continue
        if para.role == "title":
            block(f"# {plain(text)}")
        elif para.role == "h2":
            block(f"## {plain(text).rstrip(':：').strip()}")
        elif para.role == "h3":
            if para.lead and plain(text) != plain(para.lead):
                rest = text[len(para.lead) + 4 :].strip() if text.startswith("**") else ""
                rest = _LEADING_SEPARATOR_RE.sub("", rest)  # "· 2019 – 2021" of --dates inline
                block(f"### {plain(para.lead)}")
                if rest:
                    out.append(rest)
            else:
                block(f"### {plain(text)}")
        elif para.role == "bullet":
            line = "  " * para.depth + "- " + " ".join(text.split())
            if previous == "bullet":
                out.append(line)
            else:
                block(line)
        elif para.role == "table":
            rows = [r for r in para.rows if any(c.strip() for c in r)]
            if not rows:
                continue
            width = max(len(r) for r in rows)
            rows = [r + [""] * (width - len(r)) for r in rows]
            lines = ["| " + " | ".join(_cell(c) for c in rows[0]) + " |"]
            lines.append("|" + "---|" * width)
            lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows[1:]]
            block(*lines)
        elif previous == "h3" and is_date_text(text):
            place, dates = _place_beside_dates(text)
            if place and out[-1].startswith("### "):  # the modern template's "place · dates"
                out[-1], text = f"{out[-1]}, {place}", dates
            out.append(_escape_start(text))  # the entry's dates, right under its heading
        else:
            block(*(_escape_start(line.strip()) for line in text.split("\n") if line.strip()))
        previous = para.role
    return "\n".join(out).strip() + "\n"
