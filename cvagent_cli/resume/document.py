"""The resume document model: a Markdown file parsed into a tree of sections.

The text is kept verbatim (``render()`` gives back the original bytes); the tree is a
read-only view computed from it with markdown-it, so editing means "change the text,
parse again".  Line numbers are 1-based everywhere, and lines end at CR, LF or CRLF,
exactly as markdown-it counts them.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from cvagent_cli import yamlio
from cvagent_cli.resume import blocks, person
from cvagent_cli.resume import headings as heading_rules
from cvagent_cli.resume.basics import BasicInfo, extract_basic_info
from cvagent_cli.resume.blocks import TokenLike
from cvagent_cli.resume.inline import (  # plain_inline re-exported: it lived here before
    HTML_TAG_RE,
    inline_text,
    plain_inline,  # noqa: F401
)
from cvagent_cli.resume.kinds import _EXACT, classify_title, normalize_title
from cvagent_cli.resume.lazy import cached_property
from cvagent_cli.resume.textio import (
    CONTROL_RE,
    DecodedText,
    TextFormat,
    detect_newline,
    read_stdin,
    read_text_file,
    split_lines,
)


@functools.lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    """Block-level parsing only: the inline pass costs 60% of markdown-it's time and we
    need just plain text from inline content, which ``plain_inline`` gives for less.
    The parser is built once; it holds no per-document state."""
    return (
        MarkdownIt("commonmark", {"html": True})
        .enable(["table", "strikethrough"])
        .use(front_matter_plugin)
        .disable(["inline", "text_join"])
    )


def block_tokens(text: str) -> Sequence[TokenLike]:
    """The block tokens of ``text``: from the fast scanner when it handles the text (plain
    resume Markdown), else from markdown-it.  The two agree on every token the document
    model reads (``blocks.FAST_TYPES``)."""
    tokens = blocks.scan(text)
    return tokens if tokens is not None else _parser().parse(text)


# _collect: the blocks it records, and how each token changes the nesting depth.
_BLOCK_KINDS = {"table_open": "table", "fence": "code", "code_block": "code"}
_DEPTH_CHANGE = dict.fromkeys(
    ("bullet_list_open", "ordered_list_open", "blockquote_open", "table_open"), 1
) | dict.fromkeys(
    ("bullet_list_close", "ordered_list_close", "blockquote_close", "table_close"), -1
)

_SLUG_RE = re.compile(r"[^\w]+", re.UNICODE)
_TRAILING_COLON_RE = re.compile(r"^\s*[:：]?\s*$")
_CJK_WORD_RE = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_LATIN_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’+#./-]*")
_HAN_RE = re.compile(r"[\u4e00-\u9fff]")


def slugify(title: str) -> str:
    slug = _SLUG_RE.sub("-", title.casefold()).strip("-_")
    return slug[:60].strip("-") or "section"


def _span_chars(before: list[int], count: int, start_line: int, end_line: int) -> int:
    """``sum(len(line) for line in lines[start_line - 1 : end_line])`` from the running
    totals ``before`` of ``count`` lines (``slice.indices`` bounds it as the slice would)."""
    start, end, _ = slice(start_line - 1, end_line).indices(count)
    return before[end] - before[start] if end > start else 0


@dataclass(frozen=True)
class Bullet:
    """A list item (or a paragraph, for prose-style resumes) and where it starts."""

    line: int
    text: str
    depth: int = 0
    end_line: int = 0


@dataclass
class Section:
    id: str
    title: str
    level: int
    kind: str
    heading_line: int  # 0 for the preamble, which has no heading
    start_line: int
    end_line: int  # inclusive, children included
    heading_style: str = "atx"  # atx | setext | bold | plain | none
    own_end_line: int = 0  # last line before the first child heading
    parent_id: str | None = None
    bullets: list[Bullet] = field(default_factory=list)
    paragraphs: list[Bullet] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)

    @property
    def line_count(self) -> int:
        return self.end_line - self.start_line + 1


@dataclass(frozen=True)
class Block:
    """A table, an HTML block, or a code fence, with its line span."""

    kind: str
    start_line: int
    end_line: int


class ResumeDocument:
    """A parsed resume.  Build it with ``from_text``, ``from_path`` or ``from_stdin``."""

    def __init__(
        self,
        text: str,
        fmt: TextFormat | None = None,
        *,
        source: str = "<text>",
        path: Path | None = None,
        control_chars: int = 0,
    ) -> None:
        self.text = text
        self.format = fmt or TextFormat(newline=detect_newline(text))
        self.source = source
        self.path = path
        self.control_chars = control_chars or len(CONTROL_RE.findall(text))
        self.lines: list[str] = split_lines(text)
        self.front_matter: dict | None = None
        self.front_matter_error: str | None = None
        self.front_matter_span: tuple[int, int] | None = None
        self.sections: list[Section] = []
        self.roots: list[Section] = []
        self.blocks: list[Block] = []
        self.html_inline_lines: list[int] = []
        self._title: str | None = None
        self.name_headings: list[str] = []  # a name in a heading that is not the title
        self.title_line: int | None = None
        self._starts: list[int] = []
        self._parse()

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_text(
        cls,
        text: str,
        fmt: TextFormat | None = None,
        *,
        source: str = "<text>",
        path: Path | None = None,
    ) -> ResumeDocument:
        return cls(text, fmt, source=source, path=path)

    @classmethod
    def from_decoded(
        cls, decoded: DecodedText, *, source: str, path: Path | None = None
    ) -> ResumeDocument:
        return cls(
            decoded.text,
            decoded.format,
            source=source,
            path=path,
            control_chars=decoded.control_chars,
        )

    @classmethod
    def from_path(cls, path: Path | str) -> ResumeDocument:
        path = Path(path)
        return cls.from_decoded(read_text_file(path), source=str(path), path=path)

    @classmethod
    def from_stdin(cls) -> ResumeDocument:
        return cls.from_decoded(read_stdin(), source="<stdin>")

    def with_text(self, text: str) -> ResumeDocument:
        """The same file with new text (format, source and path kept)."""
        return ResumeDocument(text, self.format, source=self.source, path=self.path)

    def render(self) -> bytes:
        return self.format.encode(self.text)

    # -- queries ------------------------------------------------------------------
    @property
    def line_count(self) -> int:
        return len(self.lines)

    def line(self, number: int) -> str:
        """Line ``number`` (1-based) without its line ending."""
        return self.lines[number - 1].rstrip("\r\n")

    def span_text(self, start_line: int, end_line: int) -> str:
        return "".join(self.lines[start_line - 1 : end_line])

    def section_text(self, section: Section) -> str:
        return self.span_text(section.start_line, section.end_line)

    def section_at(self, line: int) -> Section | None:
        """The innermost section containing ``line`` (binary search: sections are in order)."""
        index = bisect.bisect_right(self._starts, line) - 1
        while index >= 0:
            section = self.sections[index]
            if section.start_line <= line <= section.end_line:
                return section
            index -= 1
        return None

    def sections_of_kind(self, kind: str) -> list[Section]:
        return [s for s in self.sections if s.kind == kind]

    def has_kind(self, kind: str) -> bool:
        return any(s.kind == kind for s in self.sections)

    def find_section(self, query: str) -> Section | None:
        """A section by id, title or kind; case- and punctuation-insensitive."""
        q = query.strip().strip("#").strip()
        if not q:
            return None
        norm = normalize_title(q)
        tests = (
            lambda s: s.id == q,
            lambda s: s.id.casefold() == q.casefold(),
            lambda s: normalize_title(s.title) == norm,
            lambda s: s.id.rsplit("/", 1)[-1] == slugify(q),
            lambda s: s.kind == norm and s.parent_id is None,
            lambda s: s.kind == classify_title(q) != "other" and s.parent_id is None,
        )
        for test in tests:
            for section in self.sections:
                if section.heading_line and test(section):
                    return section
        if q.casefold() == "preamble":
            return next((s for s in self.sections if s.id == "preamble"), None)
        return None

    def match_sections(self, query: str) -> list[Section]:
        """What a person may mean by ``query`` (``/show educ``): the section
        ``find_section`` finds; else the sections whose id, last id part or title starts
        with it; else those containing it (case-insensitive).  A match inside another match
        (``education/b-s-…`` in ``education``) counts as that one.  One section is a
        unique match, several are ambiguous, none is no match."""
        found = self.find_section(query)
        if found is not None:
            return [found]
        q = query.strip().strip("#").strip().casefold()
        norm = normalize_title(q)
        if not q:
            return []
        sections = [s for s in self.sections if s.heading_line]

        def names(s: Section) -> list[str]:
            return [s.id.casefold(), s.id.rsplit("/", 1)[-1].casefold(), s.title.casefold()]

        for test in (
            lambda s: (
                any(n.startswith(q) for n in names(s))
                or bool(norm and normalize_title(s.title).startswith(norm))
            ),
            lambda s: (
                any(q in n for n in names(s)) or bool(norm and norm in normalize_title(s.title))
            ),
        ):
            matches = [s for s in sections if test(s)]
            if matches:  # a section whose parent matches too is part of that parent
                return [s for s in matches if not any(s.id.startswith(o.id + "/") for o in matches)]
        return []

    def suggest_sections(self, query: str, n: int = 3) -> list[str]:
        """Up to ``n`` ids of sections whose id or title is close to ``query``, each once."""
        by_name: dict[str, str] = {}
        for s in self.sections:
            by_name.setdefault(s.id, s.id)
            if s.title:
                by_name.setdefault(s.title, s.id)
        close = difflib.get_close_matches(query, list(by_name), n=len(by_name), cutoff=0.3)
        return list(dict.fromkeys(by_name[name] for name in close))[:n]

    @cached_property
    def basics(self) -> BasicInfo:
        header = ""
        first = next((s for s in self.sections if s.heading_line), None)
        header_end = first.start_line - 1 if first else len(self.lines)
        title = next(
            (s for s in self.sections if s.heading_line and s.heading_line == self.title_line), None
        )
        if title is not None and title.kind == "contact":
            header_end = title.own_end_line
        header = self.span_text(1, max(0, header_end))
        if self.front_matter_span:
            header = self.span_text(self.front_matter_span[1] + 1, max(0, header_end))
        contact = self.sections_of_kind("contact")
        if contact:
            header += "\n" + "".join(self.section_text(s) for s in contact)
        return extract_basic_info(
            header,
            self.text,
            self.front_matter,
            names=[self._title, *self.name_headings],
            language=self.language,
        )

    @cached_property
    def body(self) -> str:
        """The text without its front matter."""
        if self.front_matter_span:
            return "".join(self.lines[self.front_matter_span[1] :])
        return self.text

    @cached_property
    def cjk_chars(self) -> int:
        """CJK characters in the body (each one counts as a word)."""
        return len(_CJK_WORD_RE.findall(self.body))

    @cached_property
    def word_count(self) -> int:
        """Words, counting each CJK character as one (a common resume-length convention)."""
        return self.cjk_chars + len(_LATIN_WORD_RE.findall(self.body))

    @cached_property
    def language(self) -> str:
        """``zh`` when most words are Chinese characters, else ``en``."""
        if not self.front_matter_span and not self.cjk_chars:
            return "en"  # the body is the whole text, and it has no CJK character at all
        cjk = len(_HAN_RE.findall(self.text))
        return "zh" if cjk and cjk >= self.word_count * 0.3 else "en"

    def outline(self) -> list[dict]:
        """A compact section list (id, title, kind, lines, bullets) for prompts and UIs."""
        # Characters before each line, summed once: nested sections overlap, so summing
        # every section's own lines would read most lines several times.
        before = list(itertools.accumulate(map(len, self.lines), initial=0))
        count = len(self.lines)
        return [
            {
                "id": s.id,
                "title": s.title,
                "kind": s.kind,
                "level": s.level,
                "lines": [s.start_line, s.end_line],
                "bullets": len(s.bullets),
                "chars": _span_chars(before, count, s.start_line, s.end_line),
            }
            for s in self.sections
        ]

    # -- parsing ------------------------------------------------------------------
    def _parse(self) -> None:
        tokens = block_tokens(self.text)
        unfenced = heading_rules.unfenced(tokens, self.lines)
        if unfenced is not None:
            first, last, text = unfenced
            tokens = block_tokens(text)
            self.blocks.append(Block("code", first, last))
        headings = self._collect(tokens)
        self._build_tree(headings)
        self._attach_items(tokens)

    def _collect(self, tokens: Sequence[TokenLike]) -> list[tuple[int, int, str, str]]:
        """Headings as (line, level, title, style); records front matter and blocks."""
        headings: list[tuple[int, int, str, str]] = []
        depth = 0
        for i, tok in enumerate(tokens):
            kind = tok.type
            if kind == "inline":  # most tokens; they open nothing
                if tok.map and "<" in tok.content and HTML_TAG_RE.search(tok.content):
                    self.html_inline_lines.append(tok.map[0] + 1)
                continue
            if kind == "paragraph_open" and tok.map and depth == 0:
                heading = heading_rules.pseudo_heading(tokens[i + 1], tok.map)
                if heading:
                    headings.append((tok.map[0] + 1, heading[2], heading[0], heading[1]))
                else:
                    headings.extend(heading_rules.line_headings(tokens[i + 1], tok.map, depth))
            elif kind == "paragraph_open" and tok.map:
                headings.extend(heading_rules.line_headings(tokens[i + 1], tok.map, depth))
            elif kind == "heading_open" and tok.map:
                title = inline_text(tokens[i + 1])
                style = "setext" if tok.markup in ("=", "-") else "atx"
                headings.append((tok.map[0] + 1, int(tok.tag[1]), title, style))
            elif kind == "front_matter" and tok.map:
                self.front_matter_span = (tok.map[0] + 1, tok.map[1])
                try:
                    data = yamlio.safe_load(tok.content)
                    self.front_matter = data if isinstance(data, dict) else None
                except yamlio.YAMLError as exc:
                    self.front_matter_error = str(exc).splitlines()[0]
            elif kind == "html_block" and tok.map:
                self.blocks.append(Block("html", tok.map[0] + 1, tok.map[1]))
                headings.extend(heading_rules.html_headings(tok, at_top=not headings))
            elif kind in _BLOCK_KINDS and tok.map:
                self.blocks.append(Block(_BLOCK_KINDS[kind], tok.map[0] + 1, tok.map[1]))
            depth += _DEPTH_CHANGE.get(kind, 0)
        return headings

    def _build_tree(self, headings: list[tuple[int, int, str, str]]) -> None:
        last_line = len(self.lines)
        body_start = self.front_matter_span[1] + 1 if self.front_matter_span else 1
        first_heading = headings[0][0] if headings else last_line + 1
        if any(self.lines[n - 1].strip() for n in range(body_start, first_heading)):
            pre = Section(
                id="preamble",
                title="",
                level=0,
                kind="contact",
                heading_line=0,
                start_line=body_start,
                end_line=first_heading - 1,
                heading_style="none",
                own_end_line=first_heading - 1,
            )
            self.sections.append(pre)
            self.roots.append(pre)

        title_line = self.title_line = self._title_line(headings, body_start)
        stack: list[Section] = []
        used: dict[str | None, set[str]] = {}
        for index, (line, level, title, style) in enumerate(headings):
            kind = classify_title(title)
            if level == 0:  # bold / plain pseudo-heading
                if kind != "other" or not stack or stack[-1].heading_line == title_line:
                    level = 2
                else:
                    level = min(stack[-1].level + 1, 6)
            while stack and (stack[-1].level >= level or stack[-1].heading_line == title_line):
                stack.pop()
            parent = stack[-1] if stack else None
            if line == title_line:
                level = 1
                self._title = title
                if kind == "other":
                    kind = "contact"
            elif (
                kind == "other"
                and parent is None
                and not any(s.kind not in ("contact", "other") for s in self.sections)
            ):
                # Above every section: "# Resume" then "## Sofia Marchetti" (the name), or a
                # bold subtitle under the name ("**Site Reliability Engineer**").
                if person.clean_name(title):
                    kind = "contact"
                    self.name_headings.append(title)
                elif style in ("bold", "plain") or title_line is not None:
                    kind = "contact"
            elif parent is not None and parent.kind not in ("contact", "other"):
                # A job or project line ("Acme — Tech Lead") belongs to its parent's kind,
                # whatever words it contains; only an exact section name stands alone.
                if normalize_title(title) not in _EXACT:
                    kind = parent.kind
            elif kind == "other" and parent is not None and parent.kind != "contact":
                kind = parent.kind
            siblings = used.setdefault(parent.id if parent else None, set())
            slug = base = slugify(title)
            n = 2
            while slug in siblings:
                slug, n = f"{base}-{n}", n + 1
            siblings.add(slug)
            section = Section(
                id=f"{parent.id}/{slug}" if parent else slug,
                title=title,
                level=level,
                kind=kind,
                heading_line=line,
                start_line=line,
                end_line=last_line,
                heading_style=style,
                own_end_line=last_line,
                parent_id=parent.id if parent else None,
            )
            (parent.children if parent else self.roots).append(section)
            self.sections.append(section)
            stack.append(section)
            next_line = headings[index + 1][0] if index + 1 < len(headings) else last_line + 1
            section.own_end_line = next_line - 1
        # A section ends where the next heading at its level or above begins (the title
        # where the next heading begins).  The sections still open form a stack of strictly
        # rising levels, so each heading closes the top ones: linear, not quadratic.
        still_open: list[Section] = []
        for later in self.sections:
            if not later.heading_line:
                continue  # the preamble: it ends where the first heading begins
            while still_open and (
                still_open[-1].level >= later.level or still_open[-1].heading_line == title_line
            ):
                done = still_open.pop()
                done.end_line = max(later.start_line - 1, done.start_line)
            still_open.append(later)
        for section in still_open:
            section.end_line = max(last_line, section.start_line)

    def _title_line(self, headings: list[tuple[int, int, str, str]], body_start: int) -> int | None:
        """The heading that is the document's title (the person's name), if any: a lone
        h1 first, or a bold line at the very top that is not a section name."""
        if not headings:
            return None
        line, level, title, style = headings[0]
        if level == 1 and sum(1 for h in headings if h[1] == 1) == 1:
            return line
        at_top = not any(
            self.lines[n - 1].strip() and not self._in_html(n) for n in range(body_start, line)
        )
        if not at_top or classify_title(title) != "other":
            return None
        if level == 0:
            return line if style == "bold" else None
        # "## <p align=center>Name</p>", "### NAME | COUNTRY | CITY", "# 简历": the first
        # heading, at the top, naming no section, and not above the next heading's level.
        if not (person.clean_name(title) or person.is_generic_title(title)):
            return None
        following = next((h[1] for h in headings[1:] if h[1]), None)
        return line if following is None or level <= following else None

    def _in_html(self, line: int) -> bool:
        return any(b.kind == "html" and b.start_line <= line <= b.end_line for b in self.blocks)

    def _attach_items(self, tokens: Sequence[TokenLike]) -> None:
        owners = {s.heading_line: s for s in self.sections}
        self._starts = [s.start_line for s in self.sections]
        owner_of = self.section_at

        depth = -1
        pending_item: int | None = None
        item_end = 0
        for i, tok in enumerate(tokens):
            kind = tok.type
            if kind == "inline" and tok.map and tokens[i - 1].type == "paragraph_open":
                line = tok.map[0] + 1
                if line in owners:
                    continue  # a bold pseudo-heading
                section = owner_of(line)
                if section is None:
                    continue
                text = inline_text(tok)
                if pending_item is not None and line == pending_item:
                    section.bullets.append(Bullet(line, text, max(depth, 0), item_end))
                    pending_item = None
                elif depth < 0 and text:
                    section.paragraphs.append(Bullet(line, text, 0, tok.map[1]))
            elif kind in ("bullet_list_open", "ordered_list_open"):
                depth += 1
            elif kind in ("bullet_list_close", "ordered_list_close"):
                depth -= 1
            elif kind == "list_item_open" and tok.map:
                pending_item, item_end = tok.map[0] + 1, tok.map[1]
            elif kind == "heading_open":
                pending_item = None

    def __repr__(self) -> str:
        return f"ResumeDocument({self.source!r}, {len(self.lines)} lines, {len(self.sections)} sections)"
