"""The consoles: one for results (stdout), one for messages and errors (stderr).

Colour and other ANSI codes only when the stream is a terminal and ``NO_COLOR`` is unset;
otherwise plain text that pipes and files can take.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from typing import Any, TextIO, cast

from rich.console import Console
from rich.text import Text
from rich.theme import Theme

from cvagent_cli.charset import show_invisible

THEME = Theme(
    {
        "error": "bold red",
        "warning": "yellow",
        "info": "cyan",
        "muted": "dim",
        "good": "green",
        "score.high": "bold green",
        "score.mid": "bold yellow",
        "score.low": "bold red",
        "diff.add": "green",
        "diff.del": "red",
        "diff.hunk": "cyan",
    }
)


def plain_output(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return True
    if os.environ.get("FORCE_COLOR"):
        return False
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):
        return True


class CvConsole(Console):
    def on_broken_pipe(self) -> None:
        """``cvagent analyze … | head -1``: the reader closed the pipe because it has what it
        wanted.  Exit quietly with 0 (rich exits 1, which reads as "below --min-score");
        what is still to be written goes to /dev/null so the exit flush cannot fail."""
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        # a StringIO (in tests) has no descriptor: nothing to flush into a pipe then
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.dup2(devnull, self.file.fileno())
        raise SystemExit(0)


class TrimmedLines:
    """A text stream that drops the spaces rich pads a line with (table cells, panels)
    before each newline: what goes into a pipe or a file has no trailing spaces, so
    ``diff`` and ``grep 'x$'`` see the text.  A line still open is written as it is when
    flushed (a question waiting for its answer)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._open = ""

    def write(self, text: str) -> int:
        head, newline, tail = (self._open + text).rpartition("\n")
        if newline:
            self._stream.write("\n".join(line.rstrip(" ") for line in head.split("\n")) + "\n")
        self._open = tail
        return len(text)

    def flush(self) -> None:
        if self._open:
            self._stream.write(self._open)
            self._open = ""
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding … of the real stream
        return getattr(self._stream, name)


def make_console(
    stream: TextIO | None = None, *, stderr: bool = False, width: int | None = None
) -> Console:
    stream = stream or (sys.stderr if stderr else sys.stdout)
    plain = plain_output(stream)
    return CvConsole(
        file=cast(TextIO, TrimmedLines(stream)) if plain else stream,
        theme=THEME,
        color_system=None if plain else "auto",
        force_terminal=False if plain else None,
        highlight=False,
        emoji=False,
        width=width or (plain_width(stream) if plain else None),
        soft_wrap=False,
    )


def plain_width(stream: TextIO) -> int | None:
    """The width of plain output: ``COLUMNS`` when set; on a terminal (``NO_COLOR``) its
    own width; into a pipe read on a terminal (``| tail``, where stderr is still the
    terminal) that terminal's width; else 100, as for a file."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    for candidate in (stream, sys.stderr, sys.stdin):
        try:
            if candidate is not None and candidate.isatty():
                return (
                    None
                    if candidate is stream
                    else os.get_terminal_size(candidate.fileno()).columns
                )
        except (AttributeError, ValueError, OSError):
            continue
    return 100


def error_line(message: str, hint: str | None = None, *, program: str = "cvagent") -> Text:
    """The one way an error is written outside a chat on a terminal: ``cvagent: error:``
    and what happened, then the hint on a line of its own."""
    line = Text.assemble((f"{program}: error: ", "error"), clean(message))
    if hint:
        line.append(f"\n  hint: {clean(hint)}", style="muted")
    return line


def score_style(score: int) -> str:
    return "score.high" if score >= 80 else "score.mid" if score >= 60 else "score.low"


_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Text from a resume, a job description or a model, safe for a terminal.

    Control characters (ESC above all) are shown as visible symbols, never sent raw: a
    resume line with ``ESC[2J`` or an OSC title sequence must not clear the screen or
    retitle the window when it appears in a diff.  Bidirectional overrides, zero-width
    spaces and the other invisible characters are written as ``⟨U+202E⟩``, so a diff shows
    what an edit really changes and a right-to-left override cannot reorder the line.
    Newlines and tabs are kept.
    """
    return show_invisible(_CONTROL_RE.sub(_visible, text))


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␛ ␍ … (Unicode control pictures)
    return "\u2421" if code == 0x7F else f"\\x{code:02x}"
