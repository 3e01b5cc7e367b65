"""A Markdown resume as structured data: the person, and each section's entries with their
dates, place, text and bullets.  The JSON Resume and rendercv exporters read this, not the
Markdown: it is built once from the parsed ``ResumeDocument`` (its sections, bullets,
basics and the date grammar of ``document.dates``), never from a second Markdown parser.

The entries are the document's own (``ResumeDocument.entries``, see ``document.entries``):
here each is only mapped onto the formats' fields (its dates, place, summary and
highlights).  Lines that fit no field are kept as they are (``EntryData.summary``,
``Basics.extra``, ``Part.markdown``), so nothing is lost on the way.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from cvagent_cli import languages
from cvagent_cli.document.dates import PRESENT, DateRange, YearMonth, find_ranges
from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.document.entries import Entry, subtree, top_sections
from cvagent_cli.document.entry_words import is_place, split_title, take_dates
from cvagent_cli.document.inline import plain_inline
from cvagent_cli.document.kinds import classify_title, normalize_title, strip_decoration
from cvagent_cli.document.tables import TABLE_RULE_RE, table_rows
from cvagent_cli.document.title_words import is_document_title
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
    title: kind
    for language in languages.every()
    for kind in ("interests", "references")
    for title in language.sections.titles.get(kind, ())
}
#: Sections whose content is a list of entries (a heading, dates, bullets) rather than a
#: list of one-line items.
ENTRY_FIELDS = ("work", "projects", "education", "volunteer")

_MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
#: The labels (and section titles) of the position a person seeks: their headline.
OBJECTIVE_LABELS = frozenset(languages.words_of(lambda x: x.contact.objective_labels))
_HEADLINE_CHARS = 60
#: A setext underline or a thematic break: no contact detail.
_RULE_RE = re.compile(r"^\s*(?:=+|-{3,}|\*{3,}|_{3,})\s*$")
_LABEL_RE = re.compile(r"^\s*([^:：]{1,24}?)\s*[:：]\s*(.+)$")
_LIST_SPLIT_RE = re.compile(r"\s*[,，、;；]\s*")
_WORD_RE = re.compile(r"[A-Za-z0-9][\w.+#-]*[\w+#]|[A-Za-z0-9]|" f"[{HAN}]")
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
class EntryData:
    """An entry (``document.entries.Entry``) mapped onto the formats' fields: its title
    without the dates, the dates, the place a dates line names, paragraphs, highlights."""

    title: str = ""  # the heading's plain text, dates removed
    dates: Dates = field(default_factory=Dates)
    date_note: str = ""  # "(expected)" after a date
    date_text: str = ""  # the dates as written
    location: str = ""
    summary: list[str] = field(default_factory=list)  # paragraphs (lines joined by "\n")
    bullets: list[str] = field(default_factory=list)  # every bullet once, nested ones too
    levels: list[int] = field(default_factory=list)  # each bullet's depth (0: top level)
    marked: list[str] = field(default_factory=list)  # each bullet's inline Markdown


@dataclass
class Part:
    """A ``##`` section."""

    title: str
    kind: str  # the analyzer's kind, or interests / references
    # (``dataclasses.field`` below: this class's own ``field`` hides the imported one)
    field: str | None  # the JSON Resume field it fills; None: kept as Markdown
    entries: list[EntryData] = dataclasses.field(default_factory=list)
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
        if target == "summary" and self.is_objective(section):
            target = "label"  # "## 求职意向" over "数据分析师": the headline, not a summary
        part = Part(title=section.title, kind=kind, field=target)
        if target is None:
            part.markdown = self.doc.section_text(section).split("\n", 1)[-1].strip("\n")
            return part
        if target in ("summary", "label"):
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

    def is_objective(self, section: Section) -> bool:
        """A section naming the position sought ("求职意向") in one short line."""
        if normalize_title(section.title) not in OBJECTIVE_LABELS or section.children:
            return False
        text = self.summary_text(section)
        return len(text) == 1 and "\n" not in text[0] and len(text[0]) <= _HEADLINE_CHARS

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
            if not line.strip() or TABLE_RULE_RE.match(line):
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
        return subtree(self.doc, section)

    def entries(self, section: Section) -> tuple[list[str], list[EntryData]]:
        """The paragraphs above the section's first sub-heading, and its entries."""
        intro = [
            "\n".join(flat(x) for x in self.raw_lines(p.line, p.end_line))
            for p in (section.paragraphs if section.children else [])
        ]
        entries = [e for e in self.doc.entries if e.root_id == section.id]
        return intro, [self.entry_data(e) for e in entries]

    def entry_data(self, entry: Entry) -> EntryData:
        data = EntryData()
        heading = plain_inline(entry.heading) if entry.heading else ""
        data.title, data.dates, data.date_note = _take_dates(heading)
        ranges = find_ranges(heading)
        data.date_text = ranges[0].raw if ranges else ""
        for lines in [*entry.head, *entry.paragraphs]:
            self.add_paragraph(data, lines)
        data.bullets = [flat(b.text) for b in entry.bullets]
        data.levels = [b.depth for b in entry.bullets]
        data.marked = [" ".join(b.text.split()) for b in entry.bullets]
        return data

    @staticmethod
    def add_paragraph(entry: EntryData, lines: list[str]) -> None:
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
        lines = self.contact_lines(out.name)
        # A link is the person's when the contact lines (or front matter) state it: a
        # project's link in a bullet, or "M.Sc." read as an address, is none.
        stated = " ".join([*map(flat, lines), *map(str, (doc.front_matter or {}).values())])
        links = [x for x in (info.linkedin, info.github) if x]
        links += [x for x in info.links if x not in links and x != info.website]
        out.links = [x for x in links if _stated(x, stated) and is_address(x)]
        out.website = (
            info.website
            if info.website and _stated(info.website, stated) and is_address(info.website)
            else ""
        )
        known = [out.name, out.email, out.phone, out.location, out.website, *out.links]
        for number, line in enumerate(lines):
            for piece in re.split(r"\s+[|｜·•]\s+|\s*[|｜]\s*|\s{3,}", flat(line)):
                piece = strip_decoration(piece)  # "📧 maya@example.com" is the e-mail
                if piece and not self.contact_piece(out, known, piece, first=number == 0):
                    out.extra.append(piece)
        return out

    def contact_lines(self, name: str) -> list[str]:
        """The lines that state the person's details: the title after the name, and the
        contact sections (their tables as "label: value" lines)."""
        doc = self.doc
        title = doc._title or ""
        lines: list[str] = []
        if title and name and name in title:
            rest = title.replace(name, "", 1).strip(" -–—|｜·:：").removeprefix("的")
            rest = strip_decoration(rest)  # "# Maya Cohen 🚀": the rocket is no headline
            if any(ch.isalnum() for ch in rest) and not is_document_title(rest):
                lines.append(rest)  # "陈浩然 - Java工程师": read as the first contact line
        table_lines = {
            n for b in doc.blocks if b.kind == "table" for n in range(b.start_line, b.end_line + 1)
        }
        for s in doc.sections:
            if s.kind != "contact" or (s.level > 2 and s.parent_id):
                continue
            start = s.heading_line + 1 if s.heading_line else s.start_line
            for n in range(start, s.own_end_line + 1):
                if n in table_lines or (doc.front_matter_span and n <= doc.front_matter_span[1]):
                    continue
                if doc.line(n).strip() and not _RULE_RE.match(doc.line(n)):
                    lines.append(doc.line(n))
            for rows in self.tables(s):
                for row in rows[1:] if rows and _generic_header(rows[0]) else rows:
                    cells = [flat(c) for c in row if c.strip()]
                    if cells:
                        lines.append(
                            "：".join(cells) if HAN_RE.search(cells[0]) else ": ".join(cells)
                        )
        return lines

    @staticmethod
    def contact_piece(out: Basics, known: list[str], piece: str, *, first: bool) -> bool:
        """Put one piece of a contact line in its field; False when no field takes it."""
        label_match = _LABEL_RE.match(piece)
        value = label_match.group(2).strip() if label_match else piece
        key = label_match.group(1).casefold() if label_match else ""
        if _mapped(value, known) or _mapped(piece, known):
            return True
        if key in OBJECTIVE_LABELS and not out.label:
            out.label = value
            return True
        if (
            first
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
                return True
            if not is_place(piece) and not (out.location and out.location in piece):
                out.label = piece
                return True
        if not out.location and is_place(piece):
            out.location = piece
            known.append(piece)
            return True
        return False


_HOST_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:www\.)?([^/?#]+)(.*)$", re.IGNORECASE)


def is_address(link: str) -> bool:
    """A web address, not an abbreviation the address pattern also matches ("M.Sc.",
    "B.Eng"): a scheme, "www.", a path, or a host whose last label is lower case."""
    found = _HOST_RE.match(link.rstrip("."))
    if not found:
        return False
    host, rest = found.groups()
    if re.match(r"^(?:[a-z][a-z0-9+.-]*://|www\.)", link, re.IGNORECASE) or rest.strip("/"):
        return True
    return host.rsplit(".", 1)[-1].islower()


def _stated(link: str, text: str) -> bool:
    bare = re.sub(r"^(?:https?://)?(?:www\.)?", "", link, flags=re.IGNORECASE).rstrip("/")
    return bool(bare) and bare.casefold() in text.casefold()


def _mapped(value: str, known: list[str]) -> bool:
    squashed = re.sub(r"\s+", "", value).casefold()
    for k in known:
        if not k:
            continue
        k2 = re.sub(r"\s+", "", k).casefold()
        if squashed == k2 or squashed.removeprefix("https://").removeprefix("http://") == k2:
            return True
    return False


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


def _take_dates(text: str) -> tuple[str, Dates, str]:
    """``text`` without its first date range, the dates, and a note in brackets right
    after them ("(expected)")."""
    rest, found, note = take_dates(text)
    return rest, _dates(found) if found else Dates(), note


def _dates(r: DateRange) -> Dates:
    return Dates(start=r.start, end=r.end, current=r.is_current, style=r.start_format)


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
