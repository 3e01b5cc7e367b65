"""The page progress bar (ui/progress.py): drawn on a terminal, silent elsewhere."""

from __future__ import annotations

import io

from rich.console import Console

from cvagent_cli.ui.progress import page_progress


def test_a_terminal_sees_the_pages_counted_and_the_bar_gone_at_the_end() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system=None)
    with page_progress("reading the scanned pages (OCR)", console) as update:
        update(0, 3)
        update(1, 3)
        shown = out.getvalue()
        update(3, 3)
    assert "reading the scanned pages (OCR)" in shown
    assert "1/3 pages" in shown
    assert "3/3 pages" in out.getvalue()


def test_a_pipe_gets_no_bar() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    with page_progress("reading the scanned pages (OCR)", console) as update:
        update(0, 2)
        update(2, 2)
    assert out.getvalue() == ""
