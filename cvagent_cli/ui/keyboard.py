"""The terminal's own echo of keys, switched off while an answer streams.

While prompt-toolkit waits for input it owns the keyboard; while an answer streams,
nobody does, and the terminal echoes whatever is typed — letters, and ``^C`` for Ctrl-C —
in the middle of rich's live display.  Live redraws by moving the cursor up as many
rows as it drew, so one echoed key that wraps a row leaves a line drawn twice.  With
echo off (and the line discipline otherwise untouched: Ctrl-C still interrupts, typed
text waits in the terminal for the next prompt) the display stays exact.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import IO, Any


def _terminal_fd(stream: IO[Any] | None) -> int | None:
    if sys.platform == "win32" or stream is None:
        return None
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return fd if os.isatty(fd) else None


@contextlib.contextmanager
def echo(stream: IO[Any] | None, on: bool) -> Iterator[None]:
    """Within the block, the terminal behind ``stream`` echoes typed keys (``on``) or
    not; as it was afterwards.  Nothing happens when ``stream`` is not a terminal."""
    fd = _terminal_fd(stream)
    if fd is None:
        yield
        return
    import termios  # POSIX only: no such module on Windows, where fd is None

    try:
        before = termios.tcgetattr(fd)
    except termios.error:
        yield
        return
    during = list(before)
    during[3] = before[3] | termios.ECHO if on else before[3] & ~termios.ECHO
    if during[3] == before[3]:
        yield
        return
    termios.tcsetattr(fd, termios.TCSANOW, during)
    try:
        yield
    finally:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, before)
