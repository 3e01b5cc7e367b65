"""A resume's section tree, built from its block tokens.

``build_tree`` reads the tokens of ``blocks.block_tokens`` in two passes: the first finds
the headings (Markdown ones, and the bold or plain lines people use as headings), the
front matter and the tables, HTML and code blocks; the second, once the headings are a
tree of ``Section``, gives each section the bullets and paragraphs that start in it.
``ResumeDocument`` holds the result; nothing here keeps state between documents.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cvagent_cli import yamlio
from cvagent_cli.document import headings as heading_rules
from cvagent_cli.document import person
from cvagent_cli.document.blocks import TokenLike, block_tokens
from cvagent_cli.document.inline import HTML_TAG_RE, inline_text
from cvagent_cli.document.kinds import (
    ENTRY_SECTION_KINDS,
    TITLE_KINDS,
    classify_title,
    names_an_entry,
    normalize_title,
)
from cvagent_cli.document.title_words import is_document_title

# The first pass: the blocks it records, and how each token changes the nesting depth.
_BLOCK_KINDS = {"table_open": "table", "fence": "code", "code_block": "code"}
_DEPTH_CHANGE = dict.fromkeys(
    ("bullet_list_open", "ordered_list_open", "blockquote_open", "table_open"), 1
) | dict.fromkeys(
    ("bullet_list_close", "ordered_list_close", "blockquote_close", "table_close"), -1
)

_SLUG_RE = re.compile(r"[^\w]+", re.UNICODE)

#: A heading as the first pass finds it: (line, level, title, style); level 0 is a bold
#: or plain line whose level the tree decides.
Heading = tuple[int, int, str, str]


def slugify(title: str) -> str:
    slug = _SLUG_RE.sub("-", title.casefold()).strip("-_")
    return slug[:60].strip("-") or "section"


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


@dataclass
class Tree:
    """What a resume's text parses into (the fields ``ResumeDocument`` exposes)."""

    sections: list[Section] = field(default_factory=list)  # in document order
    roots: list[Section] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # each section's start line, in order
    blocks: list[Block] = field(default_factory=list)
    html_inline_lines: list[int] = field(default_factory=list)
    front_matter: dict[str, Any] | None = None
    front_matter_error: str | None = None
    front_matter_span: tuple[int, int] | None = None
    title: str | None = None  # the heading that names the person, if one does
    title_line: int | None = None
    name_headings: list[str] = field(default_factory=list)  # a name that is not the title

    def section_at(self, line: int) -> Section | None:
        """The innermost section containing ``line`` (binary search: sections are in order)."""
        index = bisect.bisect_right(self.starts, line) - 1
        while index >= 0:
            section = self.sections[index]
            if section.start_line <= line <= section.end_line:
                return section
            index -= 1
        return None


def build_tree(text: str, lines: list[str]) -> Tree:
    """The section tree of ``text``, whose lines (with their endings) are ``lines``."""
    tree = Tree()
    tokens = block_tokens(text)
    unfenced = heading_rules.unfenced(tokens, lines)
    if unfenced is not None:  # a whole resume inside one code fence
        first, last, inner = unfenced
        tokens = block_tokens(inner)
        tree.blocks.append(Block("code", first, last))
    builder = _Builder(tree, lines)
    builder.add_sections(builder.collect(tokens))
    builder.attach_items(tokens)
    return tree


class _Builder:
    def __init__(self, tree: Tree, lines: list[str]) -> None:
        self.tree = tree
        self.lines = lines

    def collect(self, tokens: Sequence[TokenLike]) -> list[Heading]:
        """The headings, in order; records the front matter and the blocks."""
        tree = self.tree
        headings: list[Heading] = []
        depth = 0
        for i, tok in enumerate(tokens):
            kind = tok.type
            if kind == "inline":  # most tokens; they open nothing
                if tok.map and "<" in tok.content and HTML_TAG_RE.search(tok.content):
                    tree.html_inline_lines.append(tok.map[0] + 1)
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
                tree.front_matter_span = (tok.map[0] + 1, tok.map[1])
                try:
                    data = yamlio.safe_load(tok.content)
                    tree.front_matter = data if isinstance(data, dict) else None
                except yamlio.YAMLError as exc:
                    tree.front_matter_error = str(exc).splitlines()[0]
            elif kind == "html_block" and tok.map:
                tree.blocks.append(Block("html", tok.map[0] + 1, tok.map[1]))
                headings.extend(heading_rules.html_headings(tok, at_top=not headings))
            elif kind in _BLOCK_KINDS and tok.map:
                tree.blocks.append(Block(_BLOCK_KINDS[kind], tok.map[0] + 1, tok.map[1]))
            depth += _DEPTH_CHANGE.get(kind, 0)
        return headings

    def add_sections(self, headings: list[Heading]) -> None:
        """The headings as a tree of sections, each with its kind, id and line span."""
        tree, lines = self.tree, self.lines
        last_line = len(lines)
        body_start = tree.front_matter_span[1] + 1 if tree.front_matter_span else 1
        first_heading = headings[0][0] if headings else last_line + 1
        if any(lines[n - 1].strip() for n in range(body_start, first_heading)):
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
            tree.sections.append(pre)
            tree.roots.append(pre)

        title_line = tree.title_line = self._title_line(headings, body_start)
        labels = _repeated_labels(headings)
        stack: list[Section] = []
        used: dict[str | None, set[str]] = {}
        for index, (line, level, title, style) in enumerate(headings):
            kind = classify_title(title)
            label = (
                level == 0 and bool(stack) and stack[-1].level >= 3 and title.casefold() in labels
            )
            if level == 0:  # bold / plain pseudo-heading
                if (kind != "other" and not label) or (
                    not stack or stack[-1].heading_line == title_line
                ):
                    level = 2
                else:
                    level = min(stack[-1].level + 1, 6)
            while stack and (stack[-1].level >= level or stack[-1].heading_line == title_line):
                stack.pop()
            # "## Projects" then "## Project: Chat App" at the same level: the second heading
            # names one project (or job), so it is an entry of the first, not a section.
            root = tree.roots[-1] if tree.roots else None
            if (
                not stack
                and root is not None
                and root.level == level
                and root.kind == kind
                and kind in ENTRY_SECTION_KINDS
                and names_an_entry(title)
            ):
                stack.append(root)
                level = root.level + 1
            parent = stack[-1] if stack else None
            if line == title_line:
                level = 1
                tree.title = title
            kind = self._heading_kind(kind, title, style, parent, line == title_line, title_line)
            if label and parent is not None:
                kind = parent.kind  # its entry's: "Highlights" over a job's bullets
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
            (parent.children if parent else tree.roots).append(section)
            tree.sections.append(section)
            stack.append(section)
            next_line = headings[index + 1][0] if index + 1 < len(headings) else last_line + 1
            section.own_end_line = next_line - 1
        self._close_sections(title_line, last_line)
        tree.starts = [s.start_line for s in tree.sections]

    def _heading_kind(
        self,
        kind: str,
        title: str,
        style: str,
        parent: Section | None,
        is_title: bool,
        title_line: int | None,
    ) -> str:
        """The kind of a section, from ``kind`` (what its title names) and where it stands."""
        if is_title:
            return "contact" if kind == "other" else kind
        if (
            kind == "other"
            and parent is None
            and not any(s.kind not in ("contact", "other") for s in self.tree.sections)
        ):
            # Above every section: "# Resume" then "## Sofia Marchetti" (the name), or a
            # bold subtitle under the name ("**Site Reliability Engineer**").
            if person.clean_name(title):
                self.tree.name_headings.append(title)
                return "contact"
            if style in ("bold", "plain") or title_line is not None:
                return "contact"
        elif parent is not None and parent.kind not in ("contact", "other"):
            # A job or project line ("Acme — Tech Lead") belongs to its parent's kind,
            # whatever words it contains; only an exact section name stands alone.
            if normalize_title(title) not in TITLE_KINDS:
                return parent.kind
        elif kind == "other" and parent is not None and parent.kind != "contact":
            return parent.kind
        return kind

    def _close_sections(self, title_line: int | None, last_line: int) -> None:
        """A section ends where the next heading at its level or above begins (the title
        where the next heading begins).  The sections still open form a stack of strictly
        rising levels, so each heading closes the top ones: linear, not quadratic."""
        still_open: list[Section] = []
        for later in self.tree.sections:
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

    def _title_line(self, headings: list[Heading], body_start: int) -> int | None:
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
        if not (person.clean_name(title) or is_document_title(title)):
            return None
        following = next((h[1] for h in headings[1:] if h[1]), None)
        return line if following is None or level <= following else None

    def _in_html(self, line: int) -> bool:
        return any(
            b.kind == "html" and b.start_line <= line <= b.end_line for b in self.tree.blocks
        )

    def attach_items(self, tokens: Sequence[TokenLike]) -> None:
        """Each list item and paragraph, as a ``Bullet`` of the section it starts in."""
        owners = {s.heading_line: s for s in self.tree.sections}
        owner_of = self.tree.section_at
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


def _repeated_labels(headings: list[heading_rules.Heading]) -> set[str]:
    """Titles of bold or plain title lines written more than once, in a document whose
    sections are headings (two ``##`` or more): a label each entry repeats ("Highlights"
    over every job's bullets, as resume builders and imported PDFs print it), which stays
    inside its entry instead of opening a section."""
    if sum(1 for h in headings if h[1] == 2) < 2:
        return set()
    seen = Counter(title.casefold() for _, level, title, _ in headings if level == 0)
    return {title for title, n in seen.items() if n >= 2}
