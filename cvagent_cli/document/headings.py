"""Section headings CommonMark does not see but resume writers mean.

markdown-it finds ``#`` and setext headings; real resumes also write ``#标题`` without the
space, a bold or plain section name on a line of its own (sometimes glued to the end of the
line above), ``<h3>`` HTML blocks, and whole resumes inside a code fence.  Each function
returns headings as (line, level, title, style); level 0 means "guess from the context".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cvagent_cli.document.inline import inline_text, plain_inline
from cvagent_cli.document.kinds import classify_title, is_standalone_title

if TYPE_CHECKING:
    from cvagent_cli.document.blocks import TokenLike

Heading = tuple[int, int, str, str]  # (line, level, title, style)

_BOLD_LINE_RE = re.compile(r"^(\*\*|__)(?P<title>(?:(?!\1).)+?)\1\s*[:：]?\s*$")
# "#自我评价", "###职位描述": CommonMark wants a space after the #s; people often omit it.
# "#." (a pandoc numbered list) and "#1" are not headings.
_TIGHT_ATX_RE = re.compile(r"^(#{1,6})([^\s#.\d][^\n]{0,40})$")
# "… last line of a paragraph.**Skills**": a bold section title glued to the end of a line.
_GLUED_BOLD_RE = re.compile(r"^(?:.*?\S)?\s*(\*\*|__)(?P<title>[^*_]{1,30})\1\s*[:：]?\s*$")
_HTML_HEADING_RE = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1\s*>", re.IGNORECASE | re.DOTALL)
_FENCE_LINE_RE = re.compile(r"^\s*(?:`{3,}|~{3,})")


def is_plain_title(title: str) -> bool:
    """A line that is exactly a known section name, not written in lower case."""
    return len(title) <= 30 and is_standalone_title(title) and not title.islower()


def unfenced(tokens: Sequence[TokenLike], lines: list[str]) -> tuple[int, int, str] | None:
    """A resume written entirely inside one code fence (to keep its layout) is read as the
    Markdown inside it: the text with the two fence lines blanked, so line numbers stay the
    same.  Returns (first line, last line, text), or ``None`` when the fence is a code
    sample inside a resume."""
    fences = [t for t in tokens if t.type == "fence" and t.map]
    if len(fences) != 1 or any(t.type == "heading_open" for t in tokens):
        return None
    start, end = fences[0].map  # type: ignore[misc]
    filled = sum(1 for line in lines if line.strip())
    inside = sum(1 for line in lines[start:end] if line.strip())
    if inside < 0.8 * filled or inside < 6:
        return None
    copy = list(lines)
    for n in (start, end - 1):
        if _FENCE_LINE_RE.match(copy[n]):
            copy[n] = copy[n][len(copy[n].rstrip("\r\n")) :]  # keep only the line ending
    return start + 1, end, "".join(copy)


def pseudo_heading(inline: TokenLike, span: list[int]) -> tuple[str, str, int] | None:
    """A one-line paragraph that is only bold text, exactly a known section title, or a
    heading written without the space after its #s: (title, style, level; 0 = guess)."""
    if span[1] - span[0] != 1:
        return None
    source = inline.content.strip()
    tight = _TIGHT_ATX_RE.match(source)
    if tight:
        title = plain_inline(tight.group(2)).strip()
        return (title, "atx", len(tight.group(1))) if title else None
    bold = _BOLD_LINE_RE.match(source)
    if bold:
        title = plain_inline(bold.group("title")).rstrip(":：").strip()
        return (title, "bold", 0) if 0 < len(title) <= 60 else None
    title = inline_text(inline).rstrip(":：").strip()
    if is_plain_title(title):
        return title, "plain", 0
    return None


def line_headings(inline: TokenLike, span: list[int], depth: int) -> list[Heading]:
    """Section titles on a line of their own *inside* a paragraph (no blank line around
    them): ``EXPERIENCE`` in a plain-text resume, ``#工作经历``, or a bold title glued to
    the end of the line above.  Only known section names count here, so a bold phrase in
    the middle of a job description stays text."""
    found: list[Heading] = []
    if depth and "**" not in inline.content and "__" not in inline.content:
        return found  # in a list only a glued bold title counts, and there is no bold here
    lines = inline.content.split("\n")
    if len(lines) < 2 and depth == 0:
        return found
    for offset, source in enumerate(lines):
        source = source.strip()
        line = span[0] + 1 + offset
        tight = _TIGHT_ATX_RE.match(source) if depth == 0 else None
        if tight:
            found.append((line, len(tight.group(1)), plain_inline(tight.group(2)), "atx"))
            continue
        # The pattern backtracks over the whole line; most lines have no bold to find.
        glued = _GLUED_BOLD_RE.match(source) if "**" in source or "__" in source else None
        if glued:
            title = plain_inline(glued.group("title")).rstrip(":：").strip()
            if is_standalone_title(title):
                found.append((line, 0, title, "bold"))
            continue
        if depth:
            continue
        title = plain_inline(source).rstrip(":：").strip()
        if is_plain_title(title):
            found.append((line, 0, title, "plain"))
    return found


def html_headings(tok: TokenLike, *, at_top: bool) -> list[Heading]:
    """``<h3>Experience</h3>`` blocks: section headings when they name a section; the
    first one at the very top is the title (the name banner)."""
    found: list[Heading] = []
    assert tok.map is not None
    for offset, source in enumerate(tok.content.split("\n")):
        for match in _HTML_HEADING_RE.finditer(source):
            title = plain_inline(match.group(2)).strip()
            top = at_top and not found
            if title and (top or classify_title(title) != "other"):
                found.append((tok.map[0] + 1 + offset, int(match.group(1)), title, "html"))
    return found
