"""A progress bar for work that goes page by page (OCR of a scanned PDF), on stderr.

The reader only calls ``update(pages done, pages to read)``; this draws it.  Nothing is
drawn when stderr is not a terminal (a pipe, CI): the import's own warning says that OCR
read the text.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cvagent_cli.ui.console import make_console, plain_output

#: What the bar says while OCR reads a scanned PDF (import, analyze and chat).
OCR_PROGRESS = "reading the scanned pages (OCR)"


@contextmanager
def page_progress(
    label: str, console: Console | None = None
) -> Iterator[Callable[[int, int], None]]:
    """An ``update(done, total)`` that shows a bar the first time it is called, and the
    bar gone when the block ends.  Without ``console``: on stderr when it is a terminal
    (with NO_COLOR too: a bar without colours)."""
    if console is None:
        console = make_console(stderr=True)
        if sys.stderr.isatty():
            console = Console(
                file=sys.stderr, force_terminal=True, no_color=plain_output(sys.stderr)
            )
    bar: Progress | None = None
    task = None

    def update(done: int, total: int) -> None:
        nonlocal bar, task
        if not console.is_terminal:
            return
        if bar is None:
            bar = Progress(
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("pages"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
            bar.start()
            task = bar.add_task(label, total=total)
        if task is not None:
            bar.update(task, completed=done, total=total)
            bar.refresh()
        if done >= total:  # gone before what follows is printed (a report on stdout)
            bar.stop()
            bar = None

    try:
        yield update
    finally:
        if bar is not None:
            bar.stop()
