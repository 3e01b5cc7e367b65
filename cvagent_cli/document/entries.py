"""The entries of a resume: each job, school, project or volunteer role, read once.

The analyzer, the PDF/DOCX/HTML layout, JSON Resume, rendercv and the importers all read
these, so they agree on what an entry is.  In a section of jobs, schools, projects or
volunteer work (its top-level kind), an entry is:

- a sub-heading (``### Acme``) and everything under it, deeper headings included;
- else, in a section with no sub-headings: a paragraph with no entry before it, or one
  that opens with bold or holds a date range (``**Acme** — Engineer, 2020 – 2022``), or a
  row of a table ("2016.03 - 2023.09 | 金陵物流科技 | 产品经理"); the paragraphs before its
  first bullet are its head (a dates line, a role line), the bullets and paragraphs after
  it, up to the next entry, its own;
- a list with no title above it ("Leadership" as bullets): one entry without a heading.

Paragraphs of a section above its first sub-heading are its introduction, not an entry.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from cvagent_cli.document.dates import DateRange, find_ranges
from cvagent_cli.document.entry_words import read_degree, read_heading, take_dates
from cvagent_cli.document.inline import plain_inline, starts_bold
from cvagent_cli.document.tables import table_rows
from cvagent_cli.document.tree import Block, Section
from cvagent_cli.document.tree import Bullet as TreeBullet


class Parsed(Protocol):
    """What the entries are read from: a parsed resume (``ResumeDocument``)."""

    @property
    def sections(self) -> Sequence[Section]: ...
    @property
    def blocks(self) -> Sequence[Block]: ...
    @property
    def lines(self) -> Sequence[str]: ...
    @property
    def title_line(self) -> int | None: ...
    def line(self, number: int) -> str: ...


#: Section kinds whose content is a list of entries.
ENTRY_KINDS = frozenset({"experience", "projects", "education", "volunteer"})
#: A paragraph longer than this is never an entry's head.
_HEAD_LINES = 4
_HEAD_CHARS = 120


@dataclass(frozen=True)
class Bullet:
    """A list item: its own lines (not those of the items nested in it) and its depth."""

    line: int
    end_line: int
    text: str  # inline Markdown, its marker taken off, its lines joined
    depth: int = 0  # 0 at the top of the list, 1 nested in the item before it …


@dataclass
class Entry:
    kind: str  # experience | projects | education | volunteer
    root_id: str  # the section that lists it ("experience")
    section_id: str  # its sub-heading's section, or the root
    line: int  # its first line: the heading, or a headless list's first bullet
    end_line: int
    heading: str = ""  # the head's first line as written (inline Markdown); "" for a list
    # the head's other paragraphs (dates, a role), each as its lines
    head: list[list[str]] = field(default_factory=list)
    head_end: int = 0  # the last line of its head
    bullets: list[Bullet] = field(default_factory=list)
    paragraphs: list[list[str]] = field(default_factory=list)  # text under the head
    ranges: list[tuple[int, DateRange]] = field(default_factory=list)  # dates in its head

    row: bool = False  # a row of a table (a job history written as a table)

    @property
    def text(self) -> str:
        """The heading as plain text, dates and all."""
        return plain_inline(self.heading).strip()

    @property
    def title(self) -> str:
        """The heading as plain text without its dates: "Data Analyst — Acme, Seattle"."""
        return take_dates(self.text)[0]

    @property
    def date_range(self) -> DateRange | None:
        return self.ranges[0][1] if self.ranges else None

    @property
    def range_line(self) -> int:
        return self.ranges[0][0] if self.ranges else self.line

    def organisation(self, language: str) -> str:
        """The employer (or school) its title names."""
        if self.kind == "education":
            return read_degree(self.title).institution
        return read_heading(self.title, language).organisation

    def role(self, language: str) -> str:
        """The position (or degree) its title names."""
        if self.kind == "education":
            return read_degree(self.title).study_type
        return read_heading(self.title, language).role

    def place(self, language: str) -> str:
        """The place its title ends with ("Seattle, WA")."""
        if self.kind == "education":
            return read_degree(self.title).location
        return read_heading(self.title, language).location


def top_sections(doc: Parsed) -> list[Section]:
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


def read_entries(doc: Parsed) -> list[Entry]:
    """Every entry of ``doc``, in document order."""
    entries: list[Entry] = []
    for section in top_sections(doc):
        if section.kind in ENTRY_KINDS:
            entries += _Reader(doc, section).entries()
    return entries


def subtree(doc: Parsed, section: Section) -> list[Section]:
    """``section`` and every section nested in it."""
    return [section, *(s for s in doc.sections if s.id.startswith(section.id + "/"))]


#: A piece of a section in line order: (line, "p" | "b" | "h" | "r", what it is): a
#: paragraph or a bullet (the tree's ``Bullet``), a deeper heading, a table row's cells.
_Piece = tuple[int, str, "TreeBullet | Section | list[str]"]


class _Reader:
    """The entries of one top-level section."""

    def __init__(self, doc: Parsed, section: Section) -> None:
        self.doc = doc
        self.section = section
        self.out: list[Entry] = []
        self.tree = subtree(doc, section)
        self.starts = sorted(b.line for s in self.tree for b in s.bullets)

    def new(self, section: Section, line: int, heading: str = "") -> Entry:
        entry = Entry(self.section.kind, self.section.id, section.id, line, line, heading)
        entry.head_end = line
        self.out.append(entry)
        return entry

    def entries(self) -> list[Entry]:
        section = self.section
        if not section.children:
            self.pieces(section)
            return self.out
        loose = [b for b in section.bullets if b.line <= section.own_end_line]
        if loose:  # bullets above the first sub-heading: an entry without a heading
            entry = self.new(section, loose[0].line)
            for bullet in loose:
                self.add_bullet(entry, bullet)
        heads = _entry_sections(section)
        parts = self.parts({s.id for s in heads})
        for child in heads:
            entry = self.new(child, child.heading_line, child.title)
            self.dates(entry, child.heading_line, child.heading_line)
            self.child(entry, child, parts[child.id])
        return self.out

    def parts(self, heads: set[str]) -> dict[str, list[Section]]:
        """The sections that make up each entry heading's entry: itself and those nested
        in it, up to the next heading that is an entry of its own."""
        by_id = {s.id: s for s in self.tree}
        parts: dict[str, list[Section]] = {h: [] for h in heads}
        for s in self.tree:
            owner: Section | None = s
            while owner is not None and owner.id not in heads:
                owner = by_id.get(owner.parent_id) if owner.parent_id else None
            if owner is not None:
                parts[owner.id].append(s)
        return parts

    def child(self, entry: Entry, child: Section, tree: list[Section]) -> None:
        """A sub-heading's entry: what is under it, a deeper heading as a line of it."""
        pieces: list[_Piece] = [(s.heading_line, "h", s) for s in tree[1:]]
        for s in tree:
            pieces += [(p.line, "p", p) for p in s.paragraphs]
            pieces += [(b.line, "b", b) for b in s.bullets]
        self.read(child, pieces, entry)

    def pieces(self, section: Section) -> None:
        """A section with no sub-headings: paragraphs, bullets and table rows in order."""
        pieces: list[_Piece] = [(p.line, "p", p) for p in section.paragraphs]
        pieces += [(b.line, "b", b) for b in section.bullets]
        pieces += [(line, "r", cells) for line, cells in self.table_rows(section)]
        self.read(section, pieces, None)

    def read(self, section: Section, pieces: list[_Piece], current: Entry | None) -> None:
        """Entries from ``pieces`` in line order, after ``current`` (a sub-heading's)."""
        for line, what, piece in sorted(pieces, key=lambda t: t[0]):
            if isinstance(piece, Section):  # "#### 主要贡献" in an entry: a line of it
                if current is not None:
                    self.paragraph(current, line, line, [piece.title])
            elif isinstance(piece, list):  # a table row
                current = self.new(section, line, " — ".join(piece))
                current.row = True
                self.dates(current, line, line)
            elif what == "b":
                if current is None:
                    current = self.new(section, line)
                self.add_bullet(current, piece)
            else:
                current = self.add_paragraph(section, current, line, max(line, piece.end_line))

    def add_paragraph(self, section: Section, current: Entry | None, line: int, end: int) -> Entry:
        """The paragraph at ``line``..``end``: the head of a new entry, more of the head of
        ``current``, or text under it."""
        lines = self.lines(line, end)
        if current is None or (current.heading and self.continues_head(current, lines)):
            if current is None:
                current = self.new(section, line, lines[0])
                lines = lines[1:]
            self.paragraph(current, line, end, lines)
        elif _is_head(lines):
            current = self.new(section, line, lines[0])
            self.paragraph(current, line, end, lines[1:])
        else:
            self.paragraph(current, line, end, lines)
        return current

    @staticmethod
    def continues_head(entry: Entry, lines: list[str]) -> bool:
        """A paragraph before an entry's first bullet is part of its head (a dates line, a
        role line), unless both hold dates: then it is the next entry."""
        if entry.bullets or entry.paragraphs:
            return False
        return not (entry.ranges and any(find_ranges(plain_inline(x)) for x in lines))

    def paragraph(self, entry: Entry, line: int, end: int, lines: list[str]) -> None:
        if not entry.bullets and not entry.paragraphs:
            if lines:
                entry.head.append(lines)
            entry.head_end = max(entry.head_end, end)
            self.dates(entry, line, end)
        elif lines:
            entry.paragraphs.append(lines)
        entry.end_line = max(entry.end_line, end)

    def dates(self, entry: Entry, start: int, end: int) -> None:
        # Raw lines, so that every range keeps its own line number (a paragraph spans several).
        for number in range(max(start, entry.line), min(end, len(self.doc.lines)) + 1):
            for found in find_ranges(self.doc.line(number)):
                entry.ranges.append((number, found))

    def add_bullet(self, entry: Entry, bullet: TreeBullet) -> None:
        """``bullet`` with its own lines: those of the items nested in it are theirs."""
        at = bisect.bisect_right(self.starts, bullet.line)
        nested = at < len(self.starts) and self.starts[at] <= bullet.end_line
        own_end = self.starts[at] - 1 if nested else max(bullet.line, bullet.end_line)
        text = " ".join(x.strip() for x in self.lines(bullet.line, own_end))
        entry.bullets.append(Bullet(bullet.line, own_end, _unmark(text), bullet.depth))
        entry.end_line = max(entry.end_line, bullet.end_line)

    def lines(self, start: int, end: int) -> list[str]:
        return [self.doc.line(n) for n in range(start, end + 1) if self.doc.line(n).strip()]

    def table_rows(self, section: Section) -> list[tuple[int, list[str]]]:
        """The data rows of the tables in ``section`` (a job history as a table), each with
        its line; a header row is one that holds no dates."""
        out: list[tuple[int, list[str]]] = []
        for block in self.doc.blocks:
            if block.kind != "table" or not (
                section.start_line <= block.start_line <= section.own_end_line
            ):
                continue
            lines = list(range(block.start_line, block.end_line + 1))
            rows = table_rows([self.doc.line(n) for n in lines])
            numbered = list(
                zip([n for n in lines if n != block.start_line + 1], rows, strict=False)
            )
            if numbered and not any(find_ranges(plain_inline(c)) for c in numbered[0][1]):
                numbered = numbered[1:]
            out += [(n, [c for c in row if c.strip()]) for n, row in numbered if any(row)]
        return out


def _entry_sections(section: Section) -> list[Section]:
    """The sub-headings of ``section`` that are entries: its children, and a bold line
    the parser nested under one written the same way (two ``**Acme**`` lines in a row
    are two jobs, not a job and its part)."""
    out: list[Section] = []

    def visit(entry: Section) -> None:
        out.append(entry)
        for child in entry.children:
            if _same_look(entry, child):
                visit(child)

    for child in section.children:
        visit(child)
    return sorted(out, key=lambda s: s.heading_line)


def _same_look(parent: Section, child: Section) -> bool:
    return child.heading_style == parent.heading_style and child.heading_style in _LINE_STYLES


_LINE_STYLES = frozenset({"bold", "plain"})


def _is_head(lines: list[str]) -> bool:
    """A paragraph that opens an entry: short, and bold at its start or holding dates."""
    if not lines or len(lines) > _HEAD_LINES:
        return False
    if starts_bold(lines[0]) and len(plain_inline(lines[0])) <= _HEAD_CHARS:
        return True
    return any(find_ranges(plain_inline(x)) for x in lines) and len(lines[0]) <= _HEAD_CHARS


def _unmark(text: str) -> str:
    """A bullet's text without its list marker ("- ", "1. ", "* ")."""
    stripped = text.lstrip()
    for marker in ("- ", "* ", "+ "):
        if stripped.startswith(marker):
            return stripped[2:].strip()
    head, dot, rest = stripped.partition(" ")
    if dot and head[:-1].isdigit() and head[-1:] in ".)":
        return rest.strip()
    return stripped
