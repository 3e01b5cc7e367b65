"""The resume as the PDF and DOCX exporters lay it out, read once from the parsed Markdown.

markdown-it's tokens give the blocks and the inline markup (bold, italic, code,
strikethrough, links); the resume document model (``ResumeDocument``) says which line is
the name and which are section headings, bold ones included.  What comes out is a list of
blocks made of ``Run`` (a piece of text with its marks and link), so the two writers share
one reading and differ only in how they draw it:

- ``Name`` and ``HeaderLine`` (the lines between the name and the first section: a headline,
  the contact line split at its separators, with e-mail, phone and web addresses made links);
- ``Heading`` (a section), ``Subheading`` (the title row of an entry, ``document.entries``:
  its title, the place the title ends with, and the dates written on the line under it or
  at the end of the title; or a sub-heading of a section that lists no entries, a skills
  group);
- ``Paragraph`` (its lines kept), ``Bullets``, ``Table`` (two-column label/value pairs when
  the header row is generic, "项目 | 内容", "Item | Detail"; else a real table).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from cvagent_cli import languages
from cvagent_cli.document.basics import EMAIL_RE
from cvagent_cli.document.dates import find_dates, find_ranges
from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.document.entries import ENTRY_KINDS, Entry, top_sections
from cvagent_cli.document.inline import HTML_TAG_RE, plain_inline
from cvagent_cli.document.phones import find_phones, guess_regions, has_phone_candidate
from cvagent_cli.document.tables import TABLE_RULE_RE

if TYPE_CHECKING:
    from markdown_it.token import Token


@dataclass(frozen=True)
class Run:
    """A piece of text and its marks.  ``href`` makes it (part of) a link."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    strike: bool = False
    href: str | None = None


Line = list[Run]


@dataclass
class Name:
    runs: Line


@dataclass
class HeaderLine:
    """A line under the name: ``items`` are the parts between its separators (``|``, ``·``);
    ``contact`` when it holds an e-mail, phone or web address (else it is a headline)."""

    items: list[Line]
    contact: bool


@dataclass
class Heading:
    runs: Line


@dataclass
class Subheading:
    """``title`` as written; ``place`` the place it ends with (", Seattle, WA"), as the
    entry reads it (``Entry.place``), which the modern template prints beside the dates:
    ``head`` is the title without it.  ``entry`` is the entry it heads (None for a
    sub-heading of a section that lists no entries)."""

    title: Line
    dates: Line = field(default_factory=list)
    level: int = 3
    place: Line = field(default_factory=list)
    entry: Entry | None = None

    @property
    def head(self) -> Line:
        suffix = PLACE_JOIN + plain(self.place)
        if not self.place or not self.title or not self.title[-1].text.endswith(suffix):
            return self.title
        last = self.title[-1]
        rest = last.text[: -len(suffix)]
        return [*self.title[:-1], replace(last, text=rest)] if rest else self.title[:-1]


@dataclass
class Paragraph:
    lines: list[Line]


@dataclass
class Item:
    runs: Line
    depth: int = 0
    number: int | None = None  # an ordered list's number


@dataclass
class Bullets:
    items: list[Item]


@dataclass
class Table:
    rows: list[list[Line]]  # the header row first, when ``header``
    header: bool = True
    pairs: bool = False  # a label / value layout: the header row was generic


Block = Name | HeaderLine | Heading | Subheading | Paragraph | Bullets | Table


@dataclass
class Layout:
    blocks: list[Block]
    name: str
    language: str  # a code of ``languages`` (en, zh, …)
    headline: str
    keywords: list[str]

    @property
    def title(self) -> str:
        word = languages.get(self.language).labels.resume
        return f"{self.name} — {word}" if self.name else word

    @property
    def subject(self) -> str:
        if self.headline:
            return self.headline
        return languages.get(self.language).labels.resume_of.format(name=self.name)


#: What joins an entry's title and its place in the Markdown ("Northwind Payments, Seattle").
PLACE_JOIN = ", "


def plain(runs: Sequence[Run]) -> str:
    return "".join(r.text for r in runs)


#: Between an entry's place and its dates where the two share a line.
WHERE_JOIN = " · "


def where(entry: Subheading) -> Line:
    """What a template that moves the place prints on the right of an entry's row: the
    place and the dates ("Seattle, WA · Mar 2019 – Present"), or whichever there is."""
    if entry.place and entry.dates:
        return [*entry.place, Run(WHERE_JOIN), *entry.dates]
    return entry.place or entry.dates


# -- inline -------------------------------------------------------------------------------

_MARKS = {"strong": "bold", "em": "italic", "s": "strike"}
#: No space after full-width punctuation: "**电话：** 138" is "电话：138" (the colon has its own).
_FULLWIDTH_SPACE_RE = re.compile(r"(?<=[：，。；、！？）】》」』])[ \t]+")
_SEPARATOR_RE = re.compile(r"\s*[|｜•·]\s*|\s+/\s+")
_TLDS = "com|org|net|io|dev|me|cn|co|ai|app|edu|gov|info|tech|site|page|xyz|uk|de|fr|jp|in|ca|au"
_WEB_RE = re.compile(
    rf"(?<![\w@./-])(?:https?://)?(?:www\.)?(?:[a-z0-9-]+\.)+(?:{_TLDS})(?![\w-])(?:/[^\s)\]>|,，;；]*)?",
    re.IGNORECASE,
)
#: A run's text that is a web address ("github.com/x", "https://x.dev/a"): the writers keep
#: it from breaking at a hyphen.
URL_TEXT_RE = re.compile(r"^(?:https?://)?[\w.-]+\.[a-z]{2,}(?:/\S*)?$", re.IGNORECASE)
_HTTP_RE = re.compile(r"(?<![\w@/])https?://[^\s)\]>|,，;；]+")


def inline_runs(children: Sequence[Token], *, html: bool = True) -> list[Line]:
    """The lines (split at line breaks) of an inline token's children, as runs."""
    lines: list[Line] = [[]]
    marks: dict[str, bool] = {}
    href: str | None = None
    for child in children:
        kind = child.type
        if kind in ("softbreak", "hardbreak"):
            lines.append([])
        elif kind == "text" or kind == "code_inline" or kind == "image":
            text = child.content
            if kind == "image":
                text = "".join(c.content for c in child.children or []) or ""
            if text:
                lines[-1].append(Run(text, code=kind == "code_inline", href=href, **marks))
        elif kind == "html_inline":
            continue  # <br>, <span …>: the tag goes, its text (a text token) stays
        elif kind.endswith("_open") and kind[:-5] in _MARKS:
            marks[_MARKS[kind[:-5]]] = True
        elif kind.endswith("_close") and kind[:-6] in _MARKS:
            marks.pop(_MARKS[kind[:-6]], None)
        elif kind == "link_open":
            href = str(child.attrs.get("href") or "") or None
        elif kind == "link_close":
            href = None
    return [_tidy(line) for line in lines]


def _tidy(line: Line) -> Line:
    """Merge runs with the same marks; no space after full-width punctuation; trimmed."""
    out: Line = []
    for run in line:
        if out and _same_marks(out[-1], run):
            out[-1] = replace(out[-1], text=out[-1].text + run.text)
        else:
            out.append(run)
    text_so_far = ""
    tidy: Line = []
    for run in out:
        text = run.text
        if not run.code:
            if text_so_far and text_so_far[-1] in "：，。；、！？）】》」』":
                text = text.lstrip(" \t")
            text = _FULLWIDTH_SPACE_RE.sub("", text)
        text_so_far += text
        if text:
            tidy.append(replace(run, text=text))
    if tidy:
        tidy[0] = replace(tidy[0], text=tidy[0].text.lstrip())
        tidy[-1] = replace(tidy[-1], text=tidy[-1].text.rstrip())
    return [r for r in tidy if r.text]


def _same_marks(a: Run, b: Run) -> bool:
    return (a.bold, a.italic, a.code, a.strike, a.href) == (
        b.bold,
        b.italic,
        b.code,
        b.strike,
        b.href,
    )


def autolink(line: Line, *, web: bool, phones: Mapping[str, str] | None = None) -> Line:
    """Make the e-mail addresses (and, with ``web``, bare web addresses; the ``phones``
    given, as written → ``tel:`` address) in runs that are not links yet into links."""
    out: Line = []
    for run in line:
        if run.href or run.code:
            out.append(run)
            continue
        spans: list[tuple[int, int, str]] = []
        for match in EMAIL_RE.finditer(run.text):
            spans.append((match.start(), match.end(), "mailto:" + match.group()))
        for match in (_WEB_RE if web else _HTTP_RE).finditer(run.text):
            url = match.group().rstrip(".")
            if not _overlaps(spans, match.start()):
                target = url if url.lower().startswith("http") else "https://" + url
                spans.append((match.start(), match.start() + len(url), target))
        for phone, target in (phones or {}).items():
            at = run.text.find(phone)
            if at >= 0 and not _overlaps(spans, at):
                spans.append((at, at + len(phone), target))
        pos = 0
        for start, end, target in sorted(spans):
            if start > pos:
                out.append(replace(run, text=run.text[pos:start]))
            out.append(replace(run, text=run.text[start:end], href=target))
            pos = end
        if pos < len(run.text):
            out.append(replace(run, text=run.text[pos:]))
    return out


def _overlaps(spans: list[tuple[int, int, str]], at: int) -> bool:
    return any(start <= at < end for start, end, _ in spans)


def split_items(line: Line) -> list[Line]:
    """A contact line's parts, split at its separators (``|``, ``｜``, ``·``, ``•``)."""
    items: list[Line] = [[]]
    for run in line:
        if run.href or run.code:
            items[-1].append(run)
            continue
        pieces = _SEPARATOR_RE.split(run.text)
        for index, piece in enumerate(pieces):
            if index:
                items.append([])
            if piece:
                items[-1].append(replace(run, text=piece))
    return [_tidy(item) for item in items if plain(item).strip()]


# -- blocks -------------------------------------------------------------------------------

#: Header cells that name no column ("项目 | 内容", "Item | Detail"): the table is a list of
#: label / value pairs, laid out without a header row.
GENERIC_HEADERS = frozenset(
    "项目 内容 名称 信息 类别 类型 详情 说明 字段 值 描述 备注 item items detail details field "
    "fields value values key info information category description name attribute".split()
)


def _phones(text: str, language: str) -> dict[str, str]:
    """The phone numbers of ``text`` as written → their ``tel:`` address (E.164 when
    libphonenumber can read the number, else its digits)."""
    if not has_phone_candidate(text):
        return {}
    regions = guess_regions(text, language)
    found = {}
    for raw in find_phones(text, regions):
        target = "tel:" + re.sub(r"[^\d+]", "", raw)
        try:
            # lazy: phonenumbers' metadata loads only when a phone number is formatted
            import phonenumbers

            number = phonenumbers.parse(raw, regions[0])
            target = "tel:" + phonenumbers.format_number(
                number, phonenumbers.PhoneNumberFormat.E164
            )
        except Exception:  # NumberParseException: keep the digits as written
            pass
        found[raw] = target
    return found


def _is_date_line(text: str) -> bool:
    """A short line that is an entry's dates (and perhaps a place): "Jan 2022 – Present"."""
    text = text.strip()
    if not text or len(text) > 60:
        return False
    if find_ranges(text):
        return True
    dates = find_dates(text)
    return bool(dates) and dates[0].start <= 2 and len(text) <= 30


_TRAILING_RANGE_RE = re.compile(r"\s*[（(]([^（）()]+)[)）]\s*$")


def _split_title_dates(title: Line) -> tuple[Line, Line]:
    """ "库存中心重构（2022.03 - 2022.12）" → the title and its dates, when the title ends
    with a parenthesised date range."""
    if not title or title[-1].href or title[-1].code:
        return title, []
    last = title[-1]
    match = _TRAILING_RANGE_RE.search(last.text)
    if not match or not find_ranges(match.group(1)) or not last.text[: match.start()].strip():
        return title, []
    head = [*title[:-1], replace(last, text=last.text[: match.start()].rstrip())]
    return head, [Run(match.group(1).strip())]


def _whole_bold(line: Line) -> bool:
    return bool(line) and all(r.bold for r in line if r.text.strip())


class _Reader:
    def __init__(self, markdown: str) -> None:
        self.doc = ResumeDocument.from_text(markdown)
        self.headings = {s.heading_line: s for s in self.doc.sections if s.heading_line}
        self.tops = {s.id for s in top_sections(self.doc)}
        self.entries = {e.line: e for e in self.doc.entries if e.heading and not e.row}
        self.blocks: list[Block] = []
        self.in_body = False  # past the first section heading
        self.contact_section = False  # in a section of contact details (基本信息)
        self.kind = "other"  # the kind of the section being read
        self.phones = _phones(self.doc.body, self.doc.language)

    # a line at 1-based ``number`` of a paragraph (or a heading's text)
    def line(self, number: int, runs: Line) -> None:
        section = self.headings.get(number)
        if section is not None and number == self.doc.title_line:
            self.blocks.append(Name(_unmarked(runs)))
            return
        entry = self.entries.get(number)
        if entry is None and section is not None and self.is_section(section):
            self.blocks.append(Heading(_unmarked(runs)))
            self.in_body = True
            self.contact_section = section.kind == "contact"
            self.kind = section.kind
            return
        if entry is not None or self.is_subheading(section, runs):
            title, dates = _split_title_dates(runs if section else _unmarked(runs))
            level = section.level if section else 3
            self.blocks.append(Subheading(title, dates, level, self.place(title, entry), entry))
            return
        text = plain(runs)
        last = self.blocks[-1] if self.blocks else None
        if isinstance(last, Subheading) and not last.dates and _is_date_line(text):
            last.dates = runs
            return
        if not self.in_body and not any(isinstance(b, Heading) for b in self.blocks):
            self.header(runs)
            return
        if self.contact_section:  # 基本信息, Contact: its lines link like the header's
            runs = autolink(runs, web=True, phones=self.phones)
        else:
            runs = autolink(runs, web=False)
        if isinstance(last, Paragraph) and self._continues:
            last.lines.append(runs)
        else:
            self.blocks.append(Paragraph([runs]))
        self._continues = True

    _continues = False

    def is_section(self, section: Section) -> bool:
        return section.id in self.tops or section.level <= 2

    def is_subheading(self, section: Section | None, runs: Line) -> bool:
        """A sub-heading (a skills group, "#### Highlights" in an entry), or a bold line in
        a section that lists no entries; in a section of entries, the entries say which
        lines are their titles."""
        if section is not None:
            return True
        return self.in_body and self.kind not in ENTRY_KINDS and _whole_bold(runs)

    def place(self, title: Line, entry: Entry | None) -> Line:
        """The place ``title`` ends with, when its entry names one (in a run of its own
        text: never part of a link or code)."""
        if entry is None or not title or title[-1].href or title[-1].code:
            return []
        place = entry.place(self.doc.language)
        if not place or not title[-1].text.endswith(PLACE_JOIN + place):
            return []
        return [Run(place)]

    def header(self, runs: Line) -> None:
        linked = autolink(runs, web=True, phones=self.phones)
        contact = any(r.href for r in linked)
        items = split_items(linked) if contact or _SEPARATOR_RE.search(plain(runs)) else [linked]
        self.blocks.append(HeaderLine(items, contact))

    def paragraph(self, first_line: int, children: Sequence[Token]) -> None:
        self._continues = False
        for offset, runs in enumerate(inline_runs(children)):
            if runs:
                self.line(first_line + offset, runs)
        self._continues = False


def _unmarked(runs: Line) -> Line:
    """A heading's runs without bold (the heading style is bold already)."""
    return _tidy([replace(r, bold=False) for r in runs])


def read_layout(markdown: str) -> Layout:
    """The blocks of resume ``markdown`` and its metadata (name, language, keywords)."""
    from markdown_it import MarkdownIt  # lazy, like every exporter's heavy import

    # lazy: markdown-it's plugins load only when a layout is read
    from mdit_py_plugins.front_matter import front_matter_plugin

    parser = (
        MarkdownIt("commonmark", {"html": True})
        .enable(["table", "strikethrough"])
        .use(front_matter_plugin)
    )
    tokens = parser.parse(markdown)
    reader = _Reader(markdown)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        kind = tok.type
        if kind in ("heading_open", "paragraph_open") and tok.map:
            inline = tokens[i + 1]
            if kind == "heading_open":
                runs = [r for line in inline_runs(inline.children or []) for r in line]
                reader.line(tok.map[0] + 1, _tidy(runs))
            else:
                reader.paragraph(tok.map[0] + 1, inline.children or [])
            i += 3
            continue
        if kind in ("bullet_list_open", "ordered_list_open"):
            i = _read_list(tokens, i, reader)
            continue
        if kind == "table_open":
            i = _read_table(tokens, i, reader)
            continue
        if kind in ("fence", "code_block"):
            lines = [[Run(ln, code=True)] for ln in tok.content.rstrip("\n").split("\n")]
            reader.blocks.append(Paragraph(lines))
        elif kind == "html_block" and tok.map:
            text = HTML_TAG_RE.sub("", tok.content)
            for offset, raw in enumerate(text.splitlines()):
                if raw.strip():
                    reader.line(tok.map[0] + 1 + offset, [Run(raw.strip())])
        i += 1
    doc = reader.doc
    name = doc.basics.name or next(
        (plain(b.runs) for b in reader.blocks if isinstance(b, Name)), ""
    )
    # The headline: a line right under the name that is not contact details
    # ("Data Analyst | Austin, TX" → "Data Analyst").
    first = next((i for i, b in enumerate(reader.blocks) if isinstance(b, Name)), -1)
    after = reader.blocks[first + 1] if 0 <= first < len(reader.blocks) - 1 else None
    headline = ""
    if isinstance(after, HeaderLine) and not after.contact and after.items:
        headline = plain(after.items[0])
    return Layout(reader.blocks, name, doc.language, headline, _keywords(doc))


def _read_list(tokens: Sequence[Token], start: int, reader: _Reader) -> int:
    """The list opening at ``start`` (nested lists as deeper items); returns the index after it."""
    items: list[Item] = []
    depth = -1
    numbers: list[int | None] = []
    i = start
    pending: Item | None = None
    while i < len(tokens):
        tok = tokens[i]
        kind = tok.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
            first = tok.attrs.get("start", 1) if kind == "ordered_list_open" else None
            numbers.append(int(first) if first is not None else None)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            numbers.pop()
            if depth < 0:
                i += 1
                break
        elif kind == "list_item_open":
            number = numbers[-1]
            if number is not None:
                numbers[-1] = number + 1
            pending = Item([], depth, number)
            items.append(pending)
        elif kind == "inline" and pending is not None:
            lines = [autolink(ln, web=False) for ln in inline_runs(tok.children or [])]
            joined: Line = []
            for line in lines:
                if joined and line:
                    joined.append(Run(" "))
                joined.extend(line)
            if pending.runs and joined:
                pending.runs.append(Run(" "))
            pending.runs.extend(joined)
        elif kind == "list_item_close":
            pending = None
        i += 1
    items = [replace(item, runs=_tidy(item.runs)) for item in items if item.runs]
    if items:
        reader.blocks.append(Bullets(items))
    return i


def _read_table(tokens: Sequence[Token], start: int, reader: _Reader) -> int:
    rows: list[list[Line]] = []
    i = start
    while i < len(tokens) and tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type == "inline" and rows:
            cell = [r for line in inline_runs(tok.children or []) for r in line]
            rows[-1].append(autolink(_tidy(cell), web=True, phones=reader.phones))
        i += 1
    if rows:
        header = [plain(c).strip().casefold() for c in rows[0]]
        pairs = len(header) == 2 and all(h in GENERIC_HEADERS for h in header)
        if pairs:
            reader.blocks.append(Table(rows[1:], header=False, pairs=True))
        else:
            reader.blocks.append(Table(rows))
    return i + 1


# -- metadata -----------------------------------------------------------------------------

_LABEL_RE = re.compile(r"^[^:：]{1,30}[:：]\s*")
_KEYWORD_SEPARATORS = frozenset(",，、;；|｜")


def _keywords(doc: ResumeDocument, limit: int = 40) -> list[str]:
    """Keywords for the file's metadata: the short items of the skills sections."""
    found: list[str] = []
    for section in doc.sections_of_kind("skills"):
        lines = doc.section_text(section).splitlines()[1:]
        for index, line in enumerate(lines):
            if index + 1 < len(lines) and TABLE_RULE_RE.match(lines[index + 1]):
                continue  # a table's header row
            text = plain_inline(re.sub(r"^\s*(?:[-*+]|\d+[.)]|\|)\s*", "", line))
            text = _LABEL_RE.sub("", text)
            for part in _split_outside_brackets(text):
                part = part.strip(" .。|")
                if part and len(part) <= 30 and not set(part) <= set("-:| "):
                    found.append(part)
    return list(dict.fromkeys(found))[:limit]


def _split_outside_brackets(text: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        depth += ch in "(（["
        depth -= ch in ")）]"
        if depth <= 0 and ch in _KEYWORD_SEPARATORS:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts
