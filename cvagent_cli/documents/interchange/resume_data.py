"""A Markdown resume as structured data: the person, and each section's entries with their
dates, place, text and bullets.  The JSON Resume and rendercv exporters read this, not the
Markdown: it is built once from the parsed ``ResumeDocument`` (its sections, bullets,
basics and the date grammar of ``resume.dates``), never from a second Markdown parser.

An entry is a ``###`` heading, or (in resumes that use bold lines for everything) a
paragraph whose first line is bold or that holds a date range; the bullets and paragraphs
after it, up to the next entry, are its own.  Lines that fit no field are kept as they
are (``Entry.summary``, ``Basics.extra``, ``Part.markdown``), so nothing is lost on the way.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from cvagent_cli.document import person
from cvagent_cli.document.dates import PRESENT, DateRange, YearMonth, find_dates, find_ranges
from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.document.inline import plain_inline, starts_bold
from cvagent_cli.document.kinds import classify_title, normalize_title, strip_decoration
from cvagent_cli.document.person import ROLE_WORDS, ZH_ROLE_RE
from cvagent_cli.documents.markdown_source import table_rows
from cvagent_cli.script import HAN, HAN_RE

#: Section kinds → the JSON Resume field they fill.  ``interests`` and ``references`` are
#: not analyzer kinds (they count as "other" there); ``EXTRA_TITLES`` finds them.
FIELDS = {
    "summary": "summary",
    "experience": "work",
    "projects": "projects",
    "education": "education",
    "skills": "skills",
    "awards": "awards",
    "certifications": "certificates",
    "publications": "publications",
    "languages": "languages",
    "volunteer": "volunteer",
    "interests": "interests",
    "references": "references",
}
EXTRA_TITLES = {
    "interests": "interests",
    "hobbies": "interests",
    "hobbies and interests": "interests",
    "interests and hobbies": "interests",
    "兴趣爱好": "interests",
    "兴趣": "interests",
    "爱好": "interests",
    "业余爱好": "interests",
    "references": "references",
    "referees": "references",
    "推荐人": "references",
    "证明人": "references",
}
#: Sections whose content is a list of entries (a heading, dates, bullets) rather than a
#: list of one-line items.
ENTRY_FIELDS = ("work", "projects", "education", "volunteer")

_MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_SEPARATORS = (" — ", " – ", " | ", "｜", " · ", " - ", " —", "— ")
_ORG_RE = re.compile(
    r"公司|集团|大学|学院|学校|中学|银行|研究院|研究所|医院|实验室|事务所|分行|工作室|"
    r"\b(?:inc|llc|ltd|corp|corporation|company|co|university|college|institute|school|bank|"
    r"labs?|group|agency|office|foundation|association|hospital|studio|gmbh|plc)\b\.?",
    re.IGNORECASE,
)
_DEGREE_RE = re.compile(
    r"^(?P<degree>(?:B|M|Ph|D)\.?\s?(?:Sc|Eng|Ed|Phil|BA|FA|S|A|D)\.?(?![A-Za-z])|MBA|MPA|MFA|BFA|JD|MD|PhD|"
    r"Bachelor(?:'s)?(?: of [A-Z][a-z]+)?|Master(?:'s)?(?: of [A-Z][a-z]+)?|Doctor(?: of [A-Z][a-z]+)?|"
    r"Associate(?:'s)?(?: of [A-Z][a-z]+)?|Diploma)(?:\s+(?:in|of)\s+|,\s*|\s+)?(?P<area>.*)$"
)
_ZH_DEGREE_RE = re.compile(
    r"^(?P<area>.*?)\s*(?P<degree>本科|硕士研究生|硕士|博士研究生|博士|学士|研究生|大专|专科|高中|MBA|EMBA)$"
)
_PLACE_RE = re.compile(
    r"^[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)*(?:, [A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)*){0,2}$"
)
_ZH_PLACE_RE = re.compile(rf"^[{HAN}]{{2,6}}(?:市|省)?$")
_LABEL_RE = re.compile(r"^\s*([^:：]{1,24}?)\s*[:：]\s*(.+)$")
_LIST_SPLIT_RE = re.compile(r"\s*[,，、;；]\s*")
_WORD_RE = re.compile(r"[A-Za-z0-9][\w.+#-]*[\w+#]|[A-Za-z0-9]|" f"[{HAN}]")
_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_PRESENT_RE = re.compile(rf"{PRESENT}\s*$", re.IGNORECASE)


def flat(source: str) -> str:
    """Plain text of inline Markdown, keeping a link's address: ``[demo](https://x)`` →
    ``demo (https://x)`` (JSON Resume strings are plain text)."""

    def link(text: str, url: str) -> str:
        text = text.strip()
        bare = re.sub(r"^(?:https?://|mailto:|tel:)", "", url).rstrip("/")
        return text if not text or bare in text or url in text else f"{text} ({url})"

    return plain_inline(source, link) if source else ""


@dataclass
class Dates:
    start: YearMonth | None = None
    end: YearMonth | None = None
    current: bool = False
    style: str = ""  # the format of the start date as written: "Mon YYYY", "YYYY.MM" …

    @property
    def empty(self) -> bool:
        return self.start is None


@dataclass
class Entry:
    """One job, school, project …: its heading split into parts, and what is under it."""

    title: str = ""  # the heading's plain text, dates removed
    dates: Dates = field(default_factory=Dates)
    date_note: str = ""  # "(expected)" after a date
    date_text: str = ""  # the dates as written
    location: str = ""
    summary: list[str] = field(default_factory=list)  # paragraphs (lines joined by "\n")
    bullets: list[str] = field(default_factory=list)


@dataclass
class Part:
    """A ``##`` section."""

    title: str
    kind: str  # the analyzer's kind, or interests / references
    # (``dataclasses.field`` below: this class's own ``field`` hides the imported one)
    field: str | None  # the JSON Resume field it fills; None: kept as Markdown
    entries: list[Entry] = dataclasses.field(default_factory=list)
    items: list[str] = dataclasses.field(default_factory=list)  # one-line items (skills, awards …)
    layout: str = "bullets"  # how the items were written: bullets | lines | table
    header: list[str] = dataclasses.field(default_factory=list)  # a table's header row
    text: list[str] = dataclasses.field(default_factory=list)  # paragraphs before the entries/items
    markdown: str = ""  # the section as written (for a section with no field)
    # lines no field took (kept as text)
    unplaced: list[str] = dataclasses.field(default_factory=list)


@dataclass
class Basics:
    name: str = ""
    label: str = ""
    email: str = ""
    phone: str = ""
    website: str = ""
    location: str = ""
    links: list[str] = field(default_factory=list)  # profile links, LinkedIn and GitHub first
    extra: list[str] = field(default_factory=list)  # contact lines no field holds


@dataclass
class ResumeData:
    basics: Basics
    parts: list[Part]
    language: str = "en"
    date_style: str = ""
    present: str = ""


def read(doc: ResumeDocument) -> ResumeData:
    """The structured view of a parsed resume."""
    reader = _Reader(doc)
    parts = [
        reader.part(s)
        if s.kind != "contact"
        else Part(title=s.title, kind="contact", field="basics")
        for s in top_sections(doc)
    ]
    ranges = [r for s in top_sections(doc) for r in find_ranges(doc.section_text(s))]
    first_range = next(
        (r for r in ranges if r.start_format != "YYYY"), ranges[0] if ranges else None
    )
    present = ""
    for s in doc.sections:
        for r in find_ranges(doc.section_text(s)):
            word = _PRESENT_RE.search(r.raw) if r.is_current else None
            if word:
                present = word.group(0).strip()
                break
        if present:
            break
    return ResumeData(
        basics=reader.basics(),
        parts=parts,
        language=doc.language,
        date_style=first_range.start_format if first_range else "",
        present=present,
    )


def top_sections(doc: ResumeDocument) -> list[Section]:
    """The resume's sections: the headings at the top of the tree, or right under the
    title (the name) when the sections are nested in it."""
    by_id = {s.id: s for s in doc.sections}
    title = doc.title_line
    out = []
    for s in doc.sections:
        if not s.heading_line or s.heading_line == title:
            continue
        parent = by_id.get(s.parent_id) if s.parent_id else None
        if parent is None or (title is not None and parent.heading_line == title):
            out.append(s)
    return out


def section_kind(section: Section) -> str:
    """The analyzer's kind, or one of the kinds only the data formats have (``EXTRA_TITLES``)."""
    return EXTRA_TITLES.get(normalize_title(section.title)) or section.kind


class _Reader:
    def __init__(self, doc: ResumeDocument) -> None:
        self.doc = doc

    # -- raw text ---------------------------------------------------------------
    def raw_lines(self, start: int, end: int) -> list[str]:
        return [self.doc.line(n) for n in range(start, end + 1) if self.doc.line(n).strip()]

    def bullet_text(self, line: int, end: int) -> str:
        lines = [self.doc.line(n) for n in range(line, max(line, end) + 1)]
        lines[0] = _MARKER_RE.sub("", lines[0], count=1)
        return flat(" ".join(x.strip() for x in lines if x.strip()))

    def tables(self, section: Section) -> list[list[list[str]]]:
        """The rows of each table in ``section`` above its first sub-heading."""
        end = section.own_end_line
        return [
            table_rows([self.doc.line(n) for n in range(b.start_line, b.end_line + 1)])
            for b in self.doc.blocks
            if b.kind == "table" and section.start_line <= b.start_line <= end
        ]

    # -- sections ---------------------------------------------------------------
    def part(self, section: Section) -> Part:
        kind = section_kind(section)
        target = FIELDS.get(kind)
        part = Part(title=section.title, kind=kind, field=target)
        if target is None:
            part.markdown = self.doc.section_text(section).split("\n", 1)[-1].strip("\n")
            return part
        if target == "summary":
            part.text = self.summary_text(section)
        elif target in ENTRY_FIELDS:
            part.text, part.entries = self.entries(section)
        else:
            self.items(section, part)
        unplaced = self.unplaced(section, part)
        if target in ENTRY_FIELDS:
            part.text += unplaced  # written above the entries, where a reader finds it again
        else:
            part.unplaced = unplaced
        return part

    def unplaced(self, section: Section, part: Part) -> list[str]:
        """The section's lines with a word that none of ``part``'s fields holds (a code
        block, an HTML block …): kept as text rather than lost."""
        held = " ".join(
            [*part.text, *part.items, *part.header]
            + [
                " ".join([e.title, e.date_text, e.date_note, e.location, *e.summary, *e.bullets])
                for e in part.entries
            ]
        ).casefold()
        out = []
        for n in range(section.heading_line + 1, section.end_line + 1):
            line = self.doc.line(n)
            if not line.strip() or _TABLE_RULE_RE.match(line):
                continue
            text = flat(_MARKER_RE.sub("", line, count=1))
            words = _WORD_RE.findall(text)
            if any(w.casefold() not in held for w in words):
                out.append(text)
        return out

    def summary_text(self, section: Section) -> list[str]:
        """Paragraphs and bullets in order; a bullet as "- text"."""
        out: list[tuple[int, str]] = [
            (p.line, "\n".join(flat(x) for x in self.raw_lines(p.line, p.end_line)))
            for s in self._tree(section)
            for p in s.paragraphs
        ]
        out += [
            (b.line, "- " + self.bullet_text(b.line, b.end_line))
            for s in self._tree(section)
            for b in s.bullets
        ]
        return [text for _, text in sorted(out)]

    def _tree(self, section: Section) -> list[Section]:
        return [section, *(s for s in self.doc.sections if s.id.startswith(section.id + "/"))]

    def entries(self, section: Section) -> tuple[list[str], list[Entry]]:
        intro: list[str] = []
        entries: list[Entry] = []
        if section.children:
            for p in section.paragraphs:
                intro.append("\n".join(flat(x) for x in self.raw_lines(p.line, p.end_line)))
            if section.bullets:
                entries.append(
                    Entry(bullets=[self.bullet_text(b.line, b.end_line) for b in section.bullets])
                )
            for child in section.children:
                entry = self.entry_from_lines(child.title, [])
                items = sorted(
                    [(p.line, "p", p) for s in self._tree(child) for p in s.paragraphs]
                    + [(b.line, "b", b) for s in self._tree(child) for b in s.bullets]
                    + [(s.heading_line, "h", s) for s in self._tree(child)[1:]],
                    key=lambda t: t[0],
                )
                for _, what, item in items:
                    if isinstance(item, Section):  # "#### 主要贡献": a line of the entry's text
                        self.add_paragraph(entry, [item.title])
                    elif what == "b":
                        entry.bullets.append(self.bullet_text(item.line, item.end_line))
                    else:
                        self.add_paragraph(entry, self.raw_lines(item.line, item.end_line))
                entries.append(entry)
            return intro, entries
        current: Entry | None = None
        loose: list[str] = []  # bullets before any entry
        in_order = sorted(
            [(p.line, "p", p) for p in section.paragraphs]
            + [(b.line, "b", b) for b in section.bullets],
            key=lambda t: t[0],
        )
        for _, what, piece in in_order:
            if what == "b":
                text = self.bullet_text(piece.line, piece.end_line)
                if current is None:
                    loose.append(text)
                else:
                    current.bullets.append(text)
                continue
            lines = self.raw_lines(piece.line, piece.end_line)
            if self.is_entry_head(lines):
                current = self.entry_from_lines(plain_inline(lines[0]), lines[1:])
                entries.append(current)
            elif current is None:
                intro.append("\n".join(flat(x) for x in lines))
            else:
                self.add_paragraph(current, lines)
        if loose:  # "Leadership" as a list of bullets: one entry without a heading
            entries.insert(0, Entry(bullets=loose))
        for rows in self.tables(section):  # a work history written as a table: a row each
            for row in (
                rows[1:] if rows and not any(find_ranges(flat(c)) for c in rows[0]) else rows
            ):
                cells = [flat(c) for c in row if c.strip()]
                if cells:
                    entries.append(self.entry_from_lines(" — ".join(cells), []))
        return intro, entries

    @staticmethod
    def is_entry_head(lines: list[str]) -> bool:
        if len(lines) > 4:
            return False
        if starts_bold(lines[0]) and len(plain_inline(lines[0])) <= 120:
            return True
        return any(find_ranges(plain_inline(x)) for x in lines) and len(lines[0]) <= 120

    def entry_from_lines(self, heading: str, lines: list[str]) -> Entry:
        entry = Entry()
        title, dates, note = _take_dates(heading)
        entry.title, entry.dates, entry.date_note = title, dates, note
        ranges = find_ranges(heading)
        entry.date_text = ranges[0].raw if ranges else ""
        self.add_paragraph(entry, lines)
        return entry

    @staticmethod
    def add_paragraph(entry: Entry, lines: list[str]) -> None:
        kept: list[str] = []
        for raw in lines:
            text = flat(raw)
            ranges = find_ranges(text)
            if entry.dates.empty and ranges:
                rest, dates, note = _take_dates(text)
                entry.dates, entry.date_note = dates, entry.date_note or note
                entry.date_text = ranges[0].raw
                if rest and is_place(rest) and not entry.location:
                    entry.location = rest
                elif rest:
                    kept.append(rest)
                continue
            kept.append(text)
        if kept:
            entry.summary.append("\n".join(kept))

    def items(self, section: Section, part: Part) -> None:
        """One-line items: bullets, the lines of paragraphs, table rows, and sub-headings
        with their bullets ("### Frontend" + "- React" → "Frontend: React")."""
        found: list[tuple[int, str]] = []
        layouts: list[str] = []
        for p in section.paragraphs:
            found += [
                (p.line + i, flat(x)) for i, x in enumerate(self.raw_lines(p.line, p.end_line))
            ]
            layouts.append("lines")
        for b in section.bullets:
            found.append((b.line, self.bullet_text(b.line, b.end_line)))
            layouts.append("bullets")
        for block in self.doc.blocks:
            if (
                block.kind == "table"
                and section.start_line <= block.start_line <= section.own_end_line
            ):
                rows = table_rows(
                    [self.doc.line(n) for n in range(block.start_line, block.end_line + 1)]
                )
                if rows and len(rows[0]) == 2 and not part.header:
                    if any(c.strip() for c in rows[0]):
                        part.header = [flat(c) for c in rows[0]]
                    rows = rows[1:]
                found += [
                    (block.start_line + i, ": ".join(flat(c) for c in row if c.strip()))
                    for i, row in enumerate(rows, start=2)
                ]
                layouts.append("table")
        for child in section.children:
            inner = [
                self.bullet_text(b.line, b.end_line) for s in self._tree(child) for b in s.bullets
            ]
            inner += [
                flat(x)
                for s in self._tree(child)
                for p in s.paragraphs
                for x in self.raw_lines(p.line, p.end_line)
            ]
            found.append(
                (child.heading_line, f"{child.title}: {', '.join(inner)}" if inner else child.title)
            )
        part.items = [text for _, text in sorted(found) if text]
        if layouts:
            part.layout = max(dict.fromkeys(layouts), key=layouts.count)  # a tie: the first

    # -- the person -------------------------------------------------------------
    def basics(self) -> Basics:
        doc = self.doc
        info = doc.basics
        out = Basics(
            name=flat(info.name or ""),
            email=info.email or "",
            phone=info.phone or "",
            location=flat(info.location or "").strip(" *_:："),
        )
        links = [x for x in (info.linkedin, info.github) if x]
        links += [x for x in info.links if x not in links and x != info.website]
        out.links = links
        out.website = info.website or ""
        known = [out.name, out.email, out.phone, out.location, out.website, *out.links]
        title = doc._title or ""
        lines: list[str] = []
        if title and out.name and out.name in title:
            rest = title.replace(out.name, "", 1).strip(" -–—|｜·:：").removeprefix("的")
            rest = strip_decoration(rest)  # "# Maya Cohen 🚀": the rocket is no headline
            if (
                any(ch.isalnum() for ch in rest)
                and not _is_generic(rest)
                and not person.is_generic_title(rest)
            ):
                lines.append(rest)  # "陈浩然 - Java工程师": read as the first contact line
        for s in doc.sections:
            if s.kind != "contact" or (s.level > 2 and s.parent_id):
                continue
            start = s.heading_line + 1 if s.heading_line else s.start_line
            table_lines = {
                n
                for b in doc.blocks
                if b.kind == "table"
                for n in range(b.start_line, b.end_line + 1)
            }
            for n in range(start, s.own_end_line + 1):
                if n in table_lines or (doc.front_matter_span and n <= doc.front_matter_span[1]):
                    continue
                if doc.line(n).strip():
                    lines.append(doc.line(n))
            for rows in self.tables(s):
                for row in rows[1:] if rows and _generic_header(rows[0]) else rows:
                    cells = [flat(c) for c in row if c.strip()]
                    if cells:
                        lines.append(
                            "：".join(cells) if HAN_RE.search(cells[0]) else ": ".join(cells)
                        )
        for number, line in enumerate(lines):
            for piece in re.split(r"\s+[|｜·•]\s+|\s*[|｜]\s*|\s{3,}", flat(line)):
                piece = strip_decoration(piece)  # "📧 maya@example.com" is the e-mail
                if not piece:
                    continue
                label_match = _LABEL_RE.match(piece)
                value = label_match.group(2).strip() if label_match else piece
                key = label_match.group(1).casefold() if label_match else ""
                if _mapped(value, known) or _mapped(piece, known):
                    continue
                if (
                    key in ("求职意向", "意向职位", "目标职位", "title", "position", "headline")
                    and not out.label
                ):
                    out.label = value
                    continue
                if (
                    number == 0
                    and not out.label
                    and not label_match
                    and len(piece) <= 60
                    and not out.extra
                    and len(re.findall(r"\d", piece)) < 5
                ):
                    left, _, right = split_title(piece)
                    if right and is_place(right) and (not out.location or right == out.location):
                        out.label, out.location = left, right
                        known.append(right)
                        continue
                    if not is_place(piece) and not (out.location and out.location in piece):
                        out.label = piece
                        continue
                if not out.location and is_place(piece):
                    out.location = piece
                    known.append(piece)
                    continue
                out.extra.append(piece)
        return out


def _mapped(value: str, known: list[str]) -> bool:
    squashed = re.sub(r"\s+", "", value).casefold()
    for k in known:
        if not k:
            continue
        k2 = re.sub(r"\s+", "", k).casefold()
        if squashed == k2 or squashed.removeprefix("https://").removeprefix("http://") == k2:
            return True
    return False


def _is_generic(text: str) -> bool:
    return normalize_title(text) in (
        "简历",
        "个人简历",
        "resume",
        "cv",
        "résumé",
        "curriculum vitae",
    )


def _generic_header(row: list[str]) -> bool:
    generic = {
        "项目",
        "内容",
        "item",
        "detail",
        "details",
        "field",
        "value",
        "信息",
        "说明",
        "类别",
    }
    return all(
        flat(c).casefold() in generic or not c.strip() or classify_title(flat(c)) == "contact"
        for c in row
    )


def is_place(text: str) -> bool:
    """A town, region or country as an entry title ends with ("Seattle, WA", "杭州")."""
    text = text.strip()
    if not text or len(text) > 40:
        return False
    return (
        bool(_PLACE_RE.match(text) or _ZH_PLACE_RE.match(text))
        and not _ORG_RE.search(text)
        and not _role(text)
    )


def names_employer_or_role(text: str) -> bool:
    """The text names an organisation ("知行教育科技有限公司", "Acme Inc.") or a job
    ("Data Analyst", "运维工程师")."""
    return bool(_ORG_RE.search(text)) or _role(text)


def _role(text: str) -> bool:
    words = {w.strip(".,()").casefold() for w in text.split()}
    return bool(words & ROLE_WORDS) or bool(ZH_ROLE_RE.search(text)) or "intern" in words


def split_title(title: str) -> tuple[str, str, str]:
    """``title`` at its first separator: (left, separator, right)."""
    best: tuple[int, str] | None = None
    for sep in _SEPARATORS:
        at = title.find(sep)
        if at > 0 and (best is None or at < best[0]):
            best = (at, sep)
    if best is None:
        return title, "", ""
    at, sep = best
    return title[:at].strip(), sep, title[at + len(sep) :].strip()


_BRACKETS_RE = re.compile(r"[(（\[【]\s*[)）\]】]")


def _take_dates(text: str, *, single: bool = False) -> tuple[str, Dates, str]:
    """``text`` without its first date range (or, with ``single``, its only date), the
    dates, and a note in brackets right after them ("(expected)")."""
    ranges = find_ranges(text)
    if ranges:
        r = ranges[0]
        dates = _dates(r)
        before, after = text[: r.offset], text[r.offset + len(r.raw) :]
    else:
        singles = find_dates(text) if single else []
        if len(singles) != 1:
            return text.strip(), Dates(), ""
        d = singles[0]
        dates = Dates(start=d.date, style=d.format)
        before, after = text[: d.start], text[d.end :]
    note = ""
    match = re.match(r"^\s*([(（][^()（）]{1,20}[)）])", after)
    if match and not _BRACKETS_RE.search(before[-2:] + after[:2]):
        note = match.group(1)
        after = after[match.end() :]
    rest = (before.rstrip() + " " + after.lstrip()).strip()
    rest = _BRACKETS_RE.sub("", rest)
    rest = re.sub(r"\s*[(（]\s*[)）]", "", rest)
    return rest.strip(" |｜,，·•—–-:：").strip(), dates, note


def _dates(r: DateRange) -> Dates:
    return Dates(start=r.start, end=r.end, current=r.is_current, style=r.start_format)


# -- reading an entry's title ---------------------------------------------------------
@dataclass
class Heading:
    """An entry title read as organisation, role and place (``role_first``: which came first)."""

    organisation: str = ""
    role: str = ""
    location: str = ""
    role_first: bool = True


def read_heading(entry: Entry, language: str) -> Heading:
    """Employer and position (or school and degree) from an entry title."""
    left, sep, right = split_title(entry.title)
    if not sep:
        if "，" not in left and ", " in left and language == "en":
            a, b = left.split(", ", 1)
            if _role(a):
                return Heading(organisation=b, role=a, role_first=True)
        if language == "zh" and " " in left and not _ORG_RE.search(left.rsplit(" ", 1)[1]):
            a, b = left.rsplit(" ", 1)
            if _ORG_RE.search(a) or _role(b):
                return Heading(organisation=a, role=b, role_first=False)
        return Heading(organisation=left, role_first=False)
    role_first = language != "zh"
    if _ORG_RE.search(left) and not _ORG_RE.search(right):
        role_first = False
    elif _role(left) and not _role(right):
        role_first = True
    elif _role(right) and not _role(left):
        role_first = False
    role, org = (left, right) if role_first else (right, left)
    location = ""
    if ", " in org:
        head, tail = org.split(", ", 1)
        if is_place(tail):
            org, location = head, tail
    return Heading(organisation=org, role=role, location=location, role_first=role_first)


def entry_place(title: str, kind: str, language: str) -> str:
    """The place at the end of an entry title ("… — Northwind Payments, Seattle, WA" →
    "Seattle, WA"), read as the JSON Resume and rendercv exporters read it (a school's for
    an education entry); "" when the title names none."""
    entry = Entry(title=title)
    if kind == "education":
        return read_degree(entry).location
    return read_heading(entry, language).location


@dataclass
class Degree:
    institution: str = ""
    study_type: str = ""
    area: str = ""
    location: str = ""
    degree_first: bool = False


def read_degree(entry: Entry) -> Degree:
    left, sep, right = split_title(entry.title)
    sides = [left, right] if sep else [left]
    for i, side in enumerate(sides):
        match = _DEGREE_RE.match(side) or _ZH_DEGREE_RE.match(side)
        if match and (len(sides) == 2 or not _ORG_RE.search(side)):
            other = sides[1 - i] if len(sides) == 2 else ""
            location = ""
            if ", " in other:
                head, tail = other.split(", ", 1)
                if is_place(tail):
                    other, location = head, tail
            return Degree(
                institution=other,
                study_type=match.group("degree").strip(),
                area=match.group("area").strip(" ,，"),
                location=location,
                degree_first=i == 0,
            )
    institution, location = entry.title, ""
    if ", " in institution:
        head, tail = institution.split(", ", 1)
        if is_place(tail):
            institution, location = head, tail
    return Degree(institution=institution, location=location)


def parse_degree(text: str) -> tuple[str, str] | None:
    """(degree, area) of a line that is a degree ("Bachelor of Arts, Communication")."""
    match = _DEGREE_RE.match(text) or _ZH_DEGREE_RE.match(text)
    if not match or _ORG_RE.search(text):
        return None
    return match.group("degree").strip(), match.group("area").strip(" ,，")


def split_label(item: str) -> tuple[str, str]:
    """("Languages", "Go, Python") from "Languages: Go, Python"; ("", item) without a label."""
    match = _LABEL_RE.match(item)
    if match and not re.match(r"^\w+://", item):
        return match.group(1).strip(), match.group(2).strip()
    return "", item


def split_list(text: str) -> list[str]:
    """Keywords separated by "、" or commas, commas inside brackets kept: "AWS (EKS, RDS),
    Go".  A Chinese sentence ("CET-6，可阅读英文文献") is one keyword."""
    seps = "、" if "、" in text else ","
    out: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch in "([（【":
            depth += 1
        elif ch in ")]）】":
            depth = max(0, depth - 1)
        if depth == 0 and ch in seps:
            out.append(current.strip())
            current = ""
            continue
        current += ch
    out.append(current.strip())
    return [x for x in out if x]
