"""The resume document model: a Markdown file parsed into a tree of sections.

The text is kept verbatim (``render()`` gives back the original bytes); the tree is a
read-only view computed from it (``tree.build_tree``), so editing means "change the text,
parse again".  Line numbers are 1-based everywhere, and lines end at CR, LF or CRLF,
exactly as markdown-it counts them.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cvagent_cli import languages
from cvagent_cli.document.basics import BasicInfo, extract_basic_info
from cvagent_cli.document.entries import Entry, read_entries, top_sections
from cvagent_cli.document.kinds import classify_title, normalize_title
from cvagent_cli.document.lazy import cached_property
from cvagent_cli.document.tree import Block, build_tree, slugify
from cvagent_cli.document.tree import Section as Section  # re-exported
from cvagent_cli.script import HAN_RE, IDEOGRAPH_RE
from cvagent_cli.store.textio import (
    CONTROL_RE,
    DecodedText,
    TextFormat,
    detect_newline,
    read_stdin,
    read_text_file,
    split_lines,
)
from cvagent_cli.wording import plural

_LATIN_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’+#./-]*")


def _span_chars(before: list[int], count: int, start_line: int, end_line: int) -> int:
    """``sum(len(line) for line in lines[start_line - 1 : end_line])`` from the running
    totals ``before`` of ``count`` lines (``slice.indices`` bounds it as the slice would)."""
    start, end, _ = slice(start_line - 1, end_line).indices(count)
    return before[end] - before[start] if end > start else 0


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
        tree = build_tree(text, self.lines)
        self._tree = tree
        self.sections: list[Section] = tree.sections  # in document order
        self.roots: list[Section] = tree.roots
        self.blocks: list[Block] = tree.blocks  # tables, HTML blocks, code fences
        self.html_inline_lines: list[int] = tree.html_inline_lines
        self.front_matter: dict[str, Any] | None = tree.front_matter
        self.front_matter_error: str | None = tree.front_matter_error
        self.front_matter_span: tuple[int, int] | None = tree.front_matter_span
        self.title_line: int | None = tree.title_line  # the heading naming the person
        self._title: str | None = tree.title
        self.name_headings: list[str] = tree.name_headings  # a name that is not the title

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
        """The innermost section containing ``line``."""
        return self._tree.section_at(line)

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
        tests: tuple[Callable[[Section], bool], ...] = (
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

        prefix_then_part: tuple[Callable[[Section], bool], ...] = (
            lambda s: (
                any(n.startswith(q) for n in names(s))
                or bool(norm and normalize_title(s.title).startswith(norm))
            ),
            lambda s: (
                any(q in n for n in names(s)) or bool(norm and norm in normalize_title(s.title))
            ),
        )
        for test in prefix_then_part:
            matches = [s for s in sections if test(s)]
            if matches:  # a section whose parent matches too is part of that parent
                return [s for s in matches if not any(s.id.startswith(o.id + "/") for o in matches)]
        return []

    def loaded_summary(self, name: object) -> str:
        """``loaded cv.md (49 lines, 5 sections)``: the sections counted as import counts
        them (the headings under the name, not their entries)."""
        sections = plural(len(top_sections(self)), "section")
        return f"loaded {name} ({plural(self.line_count, 'line')}, {sections})"

    def suggest_sections(self, query: str, n: int = 3) -> list[str]:
        """Up to ``n`` ids of sections whose id or title is close to ``query``, each once."""
        by_name: dict[str, str] = {}
        for s in self.sections:
            by_name.setdefault(s.id, s.id)
            if s.title:
                by_name.setdefault(s.title, s.id)
        # 0.6: a misspelling ("experiance", "skill") is close; an unrelated word
        # ("nonexistent" is 0.48 like "experience") is not
        close = difflib.get_close_matches(query, list(by_name), n=len(by_name), cutoff=0.6)
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
    def entries(self) -> list[Entry]:
        """Its jobs, schools, projects and volunteer roles, read once (``entries``)."""
        return read_entries(self)

    @cached_property
    def body(self) -> str:
        """The text without its front matter."""
        if self.front_matter_span:
            return "".join(self.lines[self.front_matter_span[1] :])
        return self.text

    @cached_property
    def cjk_chars(self) -> int:
        """CJK characters in the body (each one counts as a word)."""
        return len(IDEOGRAPH_RE.findall(self.body))

    @cached_property
    def word_count(self) -> int:
        """Words, counting each CJK character as one (a common resume-length convention)."""
        return self.cjk_chars + len(_LATIN_WORD_RE.findall(self.body))

    @cached_property
    def language(self) -> str:
        """The code of the language the resume is written in (``languages.detect``): ``zh``
        when most words are Chinese characters, else ``en`` or another registered language."""
        if not self.front_matter_span and not self.cjk_chars:
            han = 0  # the body is the whole text, and it has no CJK character at all
        else:
            han = len(HAN_RE.findall(self.text))
        return languages.detect(self.text, han=han, words=self.word_count).code

    def outline(self) -> list[dict[str, Any]]:
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

    def __repr__(self) -> str:
        return f"ResumeDocument({self.source!r}, {len(self.lines)} lines, {len(self.sections)} sections)"
