"""Wrapping for the terminal: at spaces, or between two CJK characters — never inside a
word, never past the right edge — measured in display cells (``rich.cells.cell_len``: a CJK
character takes two), with hanging indents so a wrapped line stays right of its mark.

rich wraps at whitespace only, so a Chinese sentence is one "word" to it: after a short
prefix such as ``→ `` or a diff's ``-`` it is moved whole to the next line, leaving the
prefix alone.  Here each CJK character is a word of its own (opening punctuation sticks to
the character after it, closing punctuation to the one before).

On a terminal, ``print_wrapped`` wraps; into a pipe or a file every line stays one line
(``soft_wrap``), as a log or ``grep`` wants it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cvagent_cli.script import TERMINAL_WIDE

_CJK = TERMINAL_WIDE
_OPEN = "（【《〈「『“‘〔［｛"
_CLOSE = "，。、；：！？）】》〉」』”’〕］｝…—·"
_TOKEN = re.compile(
    rf"\s*(?:[{_OPEN}]*[{_CJK}][{_CLOSE}]*|[^\s{_CJK}]+[{_CLOSE}]*)\s*|\s+",
)


def tokens(text: str) -> Iterator[tuple[int, str]]:
    """(offset, word with its trailing spaces); a CJK character is a word of its own."""
    for match in _TOKEN.finditer(text):
        yield match.start(), match.group()


def breaks(text: str, width: int) -> list[int]:
    """Offsets in ``text`` (one line) where to break it so that no piece is wider than
    ``width`` cells; a word wider than a whole line is folded."""
    width = max(1, width)
    if len(text) <= width // 2 or cell_len(text) <= width:
        return []  # most lines: nothing to do
    cuts: list[int] = []
    used = 0
    for start, word in tokens(text):
        need = cell_len(word.rstrip())
        if used + need <= width:
            used += cell_len(word)
            continue
        if start and used:
            cuts.append(start)
            used = 0
        if need <= width:
            used = cell_len(word)
            continue
        offset = start
        pieces = chop_cells(word.rstrip(), width)
        for piece in pieces[:-1]:
            offset += len(piece)
            cuts.append(offset)
        used = cell_len(pieces[-1]) if pieces else 0
    return cuts


def _widest_word(text: str) -> int:
    return max((cell_len(word.strip()) for _, word in tokens(text)), default=0)


class Wrapped:
    """A ``Text`` that wraps as described above when rendered, in whatever width it gets
    (a table cell, a panel, the whole console).  Its minimum width is its widest word, so
    tables can narrow a column of Chinese text instead of squeezing the others."""

    def __init__(self, text: Text | str) -> None:
        self.text = Text(text) if isinstance(text, str) else text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        lines = self.text.plain.split("\n")
        widest = max((cell_len(line.rstrip()) for line in lines), default=0)
        smallest = max((_widest_word(line) for line in lines), default=0)
        return Measurement(min(smallest, widest), widest).clamp(max_width=options.max_width)

    def lines(self, width: int) -> list[Text]:
        out: list[Text] = []
        for line in self.text.split("\n", allow_blank=True):
            for piece in line.divide(breaks(line.plain, width)):
                piece.rstrip()
                out.append(piece)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        joined = Text("\n").join(self.lines(options.max_width))
        joined.no_wrap = True
        joined.overflow = "crop"
        yield joined


def with_gutter(rows: Iterable[tuple[Text, Text]], width: int) -> Text:
    """Numbered lines (``/show``, diffs) as one Text: each row's gutter, then its text
    wrapped to the rest of the width, the wrapped lines indented under the text.  One Text
    rather than a table, so that a 20,000-line resume prints in a moment; it is wrapped
    already, so print it with ``soft_wrap=True`` (rich then leaves its lines alone)."""
    out = Text()
    for gutter, body in rows:
        indent = cell_len(gutter.plain)
        for i, piece in enumerate(Wrapped(body).lines(max(8, width - indent)) or [Text()]):
            out.append_text(gutter if i == 0 else Text(" " * indent))
            out.append_text(piece)
            out.append("\n")
    out.rstrip()
    return out


def hanging(mark: Text | str, body: Text | str, *, style: str = "") -> Table:
    """``mark`` then ``body``, the body's wrapped lines indented under its first line."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Text(mark, style=style) if isinstance(mark, str) else mark, Wrapped(body))
    return grid


def print_wrapped(console: Console, text: Text, *, indent: int = 0) -> None:
    """One line of output: wrapped on a terminal, after the first ``indent`` cells (a mark
    such as ``"! "``, which the wrapped lines stay right of); one line in a pipe."""
    if not console.is_terminal:
        console.print(text, soft_wrap=True)
        return
    plain = text.plain
    cut = 0
    while cut < len(plain) and cell_len(plain[:cut]) < indent:
        cut += 1
    if cut and "\n" not in plain[:cut]:
        mark, body = text[:cut], text[cut:]
        console.print(hanging(mark, body))
        return
    console.print(Wrapped(text))


def pack(items: Iterable[str], width: int, sep: str = " · ") -> list[str]:
    """``items`` joined with ``sep`` into lines no wider than ``width`` cells, breaking only
    between items (an item wider than a line gets a line of its own)."""
    lines: list[str] = []
    current = ""
    for item in items:
        candidate = f"{current}{sep}{item}" if current else item
        if current and cell_len(candidate) > width:
            lines.append(current)
            current = item
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines
