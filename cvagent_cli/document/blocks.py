"""A fast block scanner for plain resume Markdown, with markdown-it as the fallback.

Most resumes are ATX headings, paragraphs, flat bullet or numbered lists and pipe
tables, every line starting at column 0.  For such a text ``scan`` gives the block
tokens ``ResumeDocument`` reads (type, tag, map, content and markup exactly as
markdown-it's block parser sets them), in a fraction of the time markdown-it's rule
chain takes.  Anything else, or anything doubtful, is not guessed at: ``scan`` returns
``None`` and the caller parses with markdown-it.

Only the tokens the document model looks at are produced (``FAST_TYPES``): the closing
tokens of headings, paragraphs and list items, and table rows and cell closings, are
left out.  ``tests/document/test_blocks.py`` checks, on generated Markdown, that the
tokens of those types are the same as markdown-it's whenever ``scan`` answers.

The rules ported here are markdown-it-py's ``rules_block`` (heading, list, paragraph,
table, hr), restricted to lines without leading whitespace and without tabs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from cvagent_cli.store.textio import NEWLINE_RE

try:  # the rules ported here are markdown-it-py 4.3's, and so are these helpers
    from markdown_it.common.utils import mdTrim
    from markdown_it.rules_block.table import MAX_AUTOCOMPLETED_CELLS, escapedSplit, headerLineRe
except ImportError:  # an older markdown-it-py (pyproject allows >= 3.0): its rules differ,
    PORTED = False  # so the scanner steps aside and markdown-it parses everything
else:
    PORTED = True

#: The token types ``scan`` produces; markdown-it's other tokens are not read.
FAST_TYPES = frozenset(
    {
        "front_matter",
        "heading_open",
        "paragraph_open",
        "inline",
        "bullet_list_open",
        "bullet_list_close",
        "ordered_list_open",
        "ordered_list_close",
        "list_item_open",
        "table_open",
        "table_close",
        "th_open",
        "td_open",
    }
)


class TokenLike(Protocol):
    """What the document model reads of a block token: markdown-it's ``Token`` or ours."""

    type: str
    tag: str
    map: list[int] | None
    content: str
    markup: str


class BlockToken:
    """A block token with only the fields of ``markdown_it.token.Token`` that are read
    (a fraction of its construction cost)."""

    __slots__ = ("content", "map", "markup", "nesting", "tag", "type")

    def __init__(
        self,
        type: str,
        tag: str,
        nesting: int,
        map: list[int] | None = None,
        content: str = "",
        markup: str = "",
    ) -> None:
        self.type = type
        self.tag = tag
        self.nesting = nesting
        self.map = map
        self.content = content
        self.markup = markup

    def __repr__(self) -> str:
        return f"BlockToken({self.type!r}, map={self.map!r}, content={self.content!r})"


# Line kinds (_UNDER: a setext underline, "===" or "---")
_BLANK, _TEXT, _HEAD, _BULLET, _ORDERED, _UNDER = range(6)

#: A line starting with one of these is left to markdown-it: fences, block quotes,
#: HTML blocks, link reference definitions, setext underlines, thematic breaks,
#: table alignment rows that start with a colon, and indented or tabbed lines.
_HARD_FIRST = frozenset("`~><[=_: ")
_BLANK_LINE = (_BLANK, 0, "", 0)
_TEXT_LINE = (_TEXT, 0, "", 0)
#: Every first character that can make a line anything but paragraph text.
_SPECIAL_FIRST = _HARD_FIRST | frozenset("#*-+0123456789")
_UNDER_RE = re.compile(r"(=+|-+) *\Z")
_ORDERED_RE = re.compile(r"([0-9]{1,9})([.)])(?: |\Z)")
_DELIMITER_CHARS = frozenset("|-: \t")


class _Fallback(Exception):
    """The text has something the scanner does not handle."""


def _hr(line: str) -> bool:
    marker = line[0]
    if marker not in "*-_":
        return False
    count = 0
    for ch in line:
        if ch == marker:
            count += 1
        elif ch not in " \t":
            return False
    return count >= 3


def _item_content(line: str, after: int) -> int:
    """Where an item's text starts (after 1 to 4 spaces); raises on anything harder."""
    pos = after
    while pos < len(line) and line[pos] == " ":
        pos += 1
    if pos >= len(line) or pos - after > 4 or pos == after:
        raise _Fallback  # an empty item, or indented code inside the item
    if _kind(line[pos:])[0] != _TEXT:
        raise _Fallback  # a heading, a nested list, a quote … inside the item
    return pos


def _kind(line: str) -> tuple[int, int, str, int]:
    """(kind, content start or heading level, marker char, ordered start number)."""
    if not line:
        return _BLANK_LINE
    first = line[0]
    if first not in _SPECIAL_FIRST:
        return _TEXT_LINE  # most lines: a letter, a CJK character, punctuation
    if first == " " and not line.strip(" "):
        return _BLANK_LINE
    if first in "=-" and _UNDER_RE.match(line):
        return _UNDER, 1 if first == "=" else 2, first, 0
    if first in _HARD_FIRST:
        raise _Fallback
    if first == "#":
        level = 1
        while level < len(line) and line[level] == "#" and level <= 6:
            level += 1
        if level > 6 or (level < len(line) and line[level] != " "):
            return _TEXT, 0, "", 0  # "#标题", "#hashtag": paragraph text to CommonMark
        return _HEAD, level, "#", 0
    if first in "*-+":
        if _hr(line):
            raise _Fallback
        if len(line) == 1 or line[1] == " ":
            return _BULLET, _item_content(line, 1), first, 0
        if first == "-":
            raise _Fallback  # "--" (a setext underline), "-x"
        return _TEXT, 0, "", 0  # "**Bold**", "+86 …"
    if "0" <= first <= "9":
        match = _ORDERED_RE.match(line)
        if match:
            return _ORDERED, _item_content(line, match.end(2)), match.group(2), int(match.group(1))
    return _TEXT, 0, "", 0


def _heading_text(line: str, level: int) -> str:
    end = len(line)
    while end > level and line[end - 1] == " ":
        end -= 1
    hashes = end
    while hashes > level and line[hashes - 1] == "#":
        hashes -= 1
    if hashes > level and line[hashes - 1] == " ":
        end = hashes
    return mdTrim(line[level:end])


def _table_columns(header: str, delimiter: str) -> list[str] | None:
    """markdown-it's table test for ``header`` followed by ``delimiter``: the header cells."""
    if len(delimiter) < 2 or delimiter[0] not in "|-:":
        return None
    if delimiter[1] not in "|-: \t" or (delimiter[0] == "-" and delimiter[1] in " \t"):
        return None
    if not _DELIMITER_CHARS.issuperset(delimiter):
        return None
    parts = delimiter.split("|")
    aligns = 0
    for i, part in enumerate(parts):
        t = mdTrim(part)
        if not t:
            if i == 0 or i == len(parts) - 1:
                continue
            return None
        if not headerLineRe.search(t):
            return None
        aligns += 1
    text = mdTrim(header)
    if "|" not in text:
        return None
    columns = escapedSplit(text)
    if columns and columns[0] == "":
        columns.pop(0)
    if columns and columns[-1] == "":
        columns.pop()
    if not columns or len(columns) != aligns:
        return None
    return columns


def _front_matter_end(lines: list[str]) -> int | None:
    """The closing line of the front matter opened by line 0 (mdit_py_plugins' rule)."""
    markers = len(lines[0]) - len(lines[0].lstrip("-"))
    for number in range(1, len(lines)):
        line = lines[number]
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if not indent and line.startswith("...") and not line[3:].strip(" "):
            return number
        if not body or body[0] != "-" or indent >= 4:
            continue
        dashes = len(body) - len(body.lstrip("-"))
        if dashes >= markers and not body[dashes:].strip(" "):
            return number
    return None  # not closed: not front matter


def scan(text: str) -> list[BlockToken] | None:
    """The block tokens of ``text`` (``FAST_TYPES`` only), or ``None``: use markdown-it."""
    if not PORTED or "\r" in text or "\t" in text or "\0" in text:
        return None
    lines = text.split("\n")
    if text.endswith("\n") or not lines[-1].strip(" "):
        lines.pop()  # no line after the last newline; nor a last line of only spaces
    n = len(lines)
    tokens: list[BlockToken] = []
    push = tokens.append
    start = 0
    if text.startswith("---"):
        close = _front_matter_end(lines)
        if close is None:
            return None
        content = "\n".join(lines[1:close])
        push(BlockToken("front_matter", "", 0, map=[0, close + 1], content=content, markup="---"))
        start = close + 1
    try:
        kinds = [_BLANK_LINE] * start + [_kind(line) for line in lines[start:]]
        i = start
        while i < n:
            kind, arg, _, _ = kinds[i]
            if kind == _BLANK:
                i += 1
                continue
            if kind == _UNDER:
                return None  # "===" or "--" opening a block
            columns = _table_at(lines, i)
            if columns is not None:
                i = _table(lines, kinds, i, columns, push)
            elif kind == _HEAD:
                tag = f"h{arg}"
                push(BlockToken("heading_open", tag, 1, map=[i, i + 1], markup="#" * arg))
                content = _heading_text(lines[i], arg)
                push(BlockToken("inline", "", 0, map=[i, i + 1], content=content))
                i += 1
            elif kind == _TEXT:
                i = _paragraph(lines, kinds, i, push)
            else:
                i = _list(lines, kinds, i, push)
    except _Fallback:
        return None
    return tokens


_Kinds = list[tuple[int, int, str, int]]
_Push = Callable[[BlockToken], None]


def _table_at(lines: list[str], i: int) -> list[str] | None:
    """The header cells of a table starting at line ``i``, or ``None``."""
    if i + 1 >= len(lines) or "|" not in lines[i]:
        return None
    second = lines[i + 1]
    if not second or second[0] not in "|-":
        return None
    return _table_columns(lines[i], second)


def _table(lines: list[str], kinds: _Kinds, i: int, columns: list[str], push: _Push) -> int:
    """The tokens of the table starting at line ``i``; the line after it."""
    n = len(lines)
    opened = BlockToken("table_open", "table", 1, map=[i, 0])
    push(opened)
    for cell in columns:
        push(BlockToken("th_open", "th", 1))
        push(BlockToken("inline", "", 0, map=[i, i + 1], content=mdTrim(cell)))
    count = len(columns)
    autocompleted = 0
    row = i + 2
    while row < n:
        if kinds[row][0] == _UNDER:
            raise _Fallback
        if kinds[row][0] in (_HEAD, _BULLET, _ORDERED):
            break
        line = mdTrim(lines[row])
        if not line:
            break
        cells = escapedSplit(line)
        if cells and cells[0] == "":
            cells.pop(0)
        if cells and cells[-1] == "":
            cells.pop()
        autocompleted += count - len(cells)
        if autocompleted > MAX_AUTOCOMPLETED_CELLS:
            break
        for c in range(count):
            push(BlockToken("td_open", "td", 1))
            content = mdTrim(cells[c]) if c < len(cells) and cells[c] else ""
            push(BlockToken("inline", "", 0, map=[row, row + 1], content=content))
        row += 1
    opened.map = [i, row]
    push(BlockToken("table_close", "table", -1))
    return row


def _paragraph(lines: list[str], kinds: _Kinds, i: int, push: _Push) -> int:
    """The tokens of the paragraph (or setext heading) starting at line ``i``; the line
    after it."""
    n = len(lines)
    end = i + 1
    while end < n:
        k, level, underline, num = kinds[end]
        if k == _UNDER:  # a setext heading: the lines above are its title
            tag = f"h{level}"
            push(BlockToken("heading_open", tag, 1, map=[i, end + 1], markup=underline))
            content = mdTrim("\n".join(lines[i:end]))
            push(BlockToken("inline", "", 0, map=[i, end], content=content))
            return end + 1
        if k in (_BLANK, _HEAD, _BULLET) or (k == _ORDERED and num == 1):
            break
        if _table_at(lines, end) is not None:
            break
        end += 1
    span = [i, end]
    push(BlockToken("paragraph_open", "p", 1, map=span))
    push(BlockToken("inline", "", 0, map=list(span), content=mdTrim("\n".join(lines[i:end]))))
    return end


def _list(lines: list[str], kinds: _Kinds, i: int, push: _Push) -> int:
    """The tokens of the list starting at line ``i``: items of the same kind and marker,
    each one paragraph; the line after it."""
    n = len(lines)
    kind0, _, marker0, _ = kinds[i]
    ordered = kind0 == _ORDERED
    name = "ordered_list" if ordered else "bullet_list"
    opened = BlockToken(f"{name}_open", "ol" if ordered else "ul", 1, map=[i, 0], markup=marker0)
    push(opened)
    while True:
        item = BlockToken("list_item_open", "li", 1, map=[i, 0], markup=marker0)
        push(item)
        end = i + 1
        while end < n and kinds[end][0] == _TEXT:
            end += 1  # lazy continuation lines; anything else ends the item
        if end < n and kinds[end][0] == _UNDER:
            raise _Fallback
        first = lines[i][kinds[i][1] :]
        content = mdTrim("\n".join([first, *lines[i + 1 : end]]))
        push(BlockToken("paragraph_open", "p", 1, map=[i, end]))
        push(BlockToken("inline", "", 0, map=[i, end], content=content))
        while end < n and kinds[end][0] == _BLANK:
            end += 1
        item.map = [i, end]
        i = end
        if i >= n or kinds[i][0] != kind0 or kinds[i][2] != marker0:
            break
    opened.map = [opened.map[0], i]  # type: ignore[index]
    push(BlockToken(f"{name}_close", "ol" if ordered else "ul", -1, markup=marker0))
    return i


@functools.lru_cache(maxsize=1)
def markdown_it_parser() -> MarkdownIt:
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
    """The block tokens of ``text``: from ``scan`` when it handles the text (plain resume
    Markdown), else from markdown-it.  The two agree on every token the document model
    reads (``FAST_TYPES``)."""
    tokens = scan(text)
    return tokens if tokens is not None else markdown_it_parser().parse(text)


def front_matter_length(text: str) -> int:
    """How many characters the front matter at the top of ``text`` takes, its closing line
    and that line's newline included (0 when there is none): the parser's rule (markdown-it's
    front-matter plugin), so whoever skips front matter skips what the resume model does."""
    if not text.startswith("---"):
        return 0
    tokens = block_tokens(text)
    if not tokens or tokens[0].type != "front_matter" or not tokens[0].map:
        return 0
    lines = tokens[0].map[1]
    for number, newline in enumerate(NEWLINE_RE.finditer(text), start=1):
        if number == lines:
            return newline.end()
    return len(text)  # closed on the last line, with no newline after it
