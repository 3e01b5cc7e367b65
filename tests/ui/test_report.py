"""The analyze report on a narrow terminal and into a pipe."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.ui.console import THEME, TrimmedLines, make_console
from cvagent_cli.ui.report import render_report
from tests.conftest import SAMPLES

WEAK = SAMPLES / "en_weak_generalist.md"


def report():
    return analyze(ResumeDocument.from_path(WEAK))


def terminal(width: int) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system=None, width=width, theme=THEME)
    return console, out


def test_a_narrow_terminal_puts_the_explanations_under_the_table():
    console, out = terminal(60)
    r = report()
    render_report(console, r)
    lines = out.getvalue().splitlines()
    header = next(line for line in lines if line.startswith("Category"))
    assert "How" not in header  # a 17-cell column wrapped every two words
    assert all(cell_len(line) <= 60 for line in lines)
    impact = next(line for line in lines if line.startswith("  impact:"))
    assert "0 of 18 bullets carry a metric" in impact  # read as a line, not a sliver
    assert len(impact.split(": ", 1)[1]) > 30


@pytest.mark.parametrize("width", [80, 100])
def test_a_wide_terminal_keeps_the_how_column(width):
    console, out = terminal(width)
    render_report(console, report())
    text = out.getvalue()
    assert any(line.startswith("Category") and "How" in line for line in text.splitlines())
    assert "  impact:" not in text


def test_piped_output_has_no_trailing_spaces():
    out = io.StringIO()  # not a terminal: plain output
    console = make_console(out)
    render_report(console, report(), explain=True)
    console.file.flush()
    lines = out.getvalue().splitlines()
    assert lines and [line for line in lines if line != line.rstrip()] == []
    assert any("How" in line for line in lines)


def test_trimmed_lines_keep_an_open_line_as_it_is():
    out = io.StringIO()
    stream = TrimmedLines(out)
    stream.write("a   \nb  ")
    assert out.getvalue() == "a\n"
    stream.write("c  \n")
    stream.write("overwrite it? ")
    stream.flush()
    assert out.getvalue() == "a\nb  c\noverwrite it? "
