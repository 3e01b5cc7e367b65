"""Nothing wraps inside a word or runs past the right edge, at 100, 80 and 60 columns:
notices, the REPL banner, /show, diffs with Chinese lines, the analyze report and its
batch table.  Rendered in-process on a terminal-like Console of a known width."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.analysis.schema import CATEGORIES, AnalysisReport
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.editing import unified_diff
from cvagent_cli.ui.console import THEME
from cvagent_cli.ui.render import EventRenderer, print_diff
from cvagent_cli.ui.report import render_batch_summary, render_report
from cvagent_cli.ui.wrap import breaks, pack, print_wrapped

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_resumes"
WIDTHS = [100, 80, 60]


def terminal(width: int) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return (
        Console(file=out, width=width, force_terminal=True, color_system=None, theme=THEME),
        out,
    )


def lines_of(out: io.StringIO) -> list[str]:
    return [line.rstrip() for line in out.getvalue().splitlines()]


def assert_fits(lines: list[str], width: int) -> None:
    wide = [line for line in lines if cell_len(line) > width]
    assert wide == [], f"wider than {width}: {wide}"


def assert_words_whole(text: str, lines: list[str], width: int) -> None:
    """Every word of ``text`` that fits on a line appears whole on one line."""
    for word in text.split():
        if cell_len(word) < width - 8:
            assert any(word in line for line in lines), f"{word!r} was cut: {lines}"


# -- the pieces ---------------------------------------------------------------------------------
def test_breaks_measure_display_cells_and_split_between_cjk_characters():
    text = "负责店铺日常运营工作，包括商品上下架"
    cuts = breaks(text, 10)
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    assert all(cell_len(p) <= 10 for p in pieces)
    assert "".join(pieces) == text
    assert not any(p.startswith("，") for p in pieces)  # no line starts with a comma


def test_breaks_keep_words_and_fold_only_what_cannot_fit():
    assert breaks("alpha beta gamma", 11) == [11]
    assert breaks("x" * 25, 10) == [10, 20]


def test_pack_breaks_between_items_only():
    assert pack(["Enter sends", "Tab completes", "Ctrl-D exits"], 30) == [
        "Enter sends · Tab completes",
        "Ctrl-D exits",
    ]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_warning_wraps_between_words_under_its_mark(width):
    console, out = terminal(width)
    text = (
        "the conversation about resume.md could not be restored: history.json was unreadable "
        "and has been moved aside as history.json.corrupt-20260101 so that nothing is lost"
    )
    EventRenderer(console).notice(text, "warning")
    lines = lines_of(out)
    assert len(lines) > 1 and lines[0].startswith("! the conversation")
    assert all(line.startswith("  ") for line in lines[1:])  # hanging indent
    assert_fits(lines, width)
    assert_words_whole(text, lines, width)


def test_plain_output_keeps_a_warning_on_one_line():
    out = io.StringIO()
    console = Console(file=out, width=40, force_terminal=False, color_system=None)
    print_wrapped(console, Text("! " + "word " * 30), indent=2)
    assert len(out.getvalue().splitlines()) == 1


@pytest.mark.parametrize("width", WIDTHS)
def test_a_chinese_diff_line_never_leaves_its_mark_alone(width):
    before = "## 工作经历\n\n- 负责店铺日常运营工作。\n"
    line = (
        "- 负责商品上下架，还有商品详情页的文案修改，以及配合设计同事做活动图片，"
        "另外还要每天看后台数据，遇到问题及时和主管沟通，有时候也要帮忙回复客户的咨询。"
    )
    after = before.replace("- 负责店铺日常运营工作。", line)
    console, out = terminal(width)
    print_diff(console, unified_diff(before, after, "简历.md"))
    lines = lines_of(out)
    assert_fits(lines, width)
    bodies = [line.split("│", 1)[1].strip() for line in lines if "│" in line]
    assert not any(body in {"-", "+", "--", "+-"} for body in bodies), lines
    assert any(body.startswith("+- 负责商品上下架") for body in bodies), lines


# -- the REPL -------------------------------------------------------------------------------------
def repl_on_a_terminal(resume: Path, lines: list[str], width: int):
    from cvagent_cli.agent.compose import build_session
    from cvagent_cli.cli.chat_runner import NoModelClient
    from cvagent_cli.document.document import ResumeDocument
    from cvagent_cli.ui.io import ChatIO
    from cvagent_cli.ui.repl import Repl

    console, out = terminal(width)
    session = build_session(client=NoModelClient(), doc=ResumeDocument.from_path(resume))
    repl = Repl(session, ChatIO(input=lines, output=console))
    assert repl.run() == 0
    session.close()
    return lines_of(out)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_banner_breaks_between_keys_never_inside_one(tmp_path, width):
    resume = tmp_path / "resume.md"
    shutil.copyfile(SAMPLES / "en_senior_backend.md", resume)
    lines = repl_on_a_terminal(resume, ["/help"], width)
    assert lines[0].startswith("cvagent chat · /help for commands")
    assert_fits(lines, width)
    for key in ("Ctrl-D exits", "Esc+Enter new line", "Ctrl-R searches history"):
        assert sum(key in line for line in lines) == 2, (key, lines)  # banner and /help


@pytest.mark.parametrize("width", WIDTHS)
def test_show_wraps_long_lines_right_of_the_line_numbers(tmp_path, width):
    resume = tmp_path / "简历.md"
    shutil.copyfile(SAMPLES / "zh_weak_operations.md", resume)
    lines = repl_on_a_terminal(resume, ["/show 成都某电商"], width)
    shown = [line for line in lines if not line.startswith(("cvagent chat", "> ", "Tab", "Ctrl"))]
    shown = [line for line in shown if not re.fullmatch(r"[A-Za-z·\-+ ]*", line)]
    assert_fits(lines, width)
    numbered = [line for line in shown if re.match(r"^\s+\d+ │", line)]
    continued = [line for line in shown if line not in numbered]
    assert continued, "the long line 20 should wrap"
    assert all(line.startswith(" " * 7) for line in continued), continued  # not column 0


# -- analyze ---------------------------------------------------------------------------------------
def analyze_file(path: Path) -> AnalysisReport:
    return analyze(ResumeDocument.from_path(path))


def shown_numbers(report: AnalysisReport) -> list[int]:
    """What the batch table shows for a resume, as the analyzer computes it: the score,
    each category's score, the number of findings."""
    return [report.score, *(report.category(c).score for c in CATEGORIES), len(report.findings)]


def weak_numbers(reports: list[AnalysisReport]) -> list[int]:
    return shown_numbers(next(r for r in reports if r.source.endswith("en_weak_generalist.md")))


@pytest.fixture(scope="module")
def sample_reports():
    return [analyze_file(path) for path in sorted(SAMPLES.glob("*.md"))]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("plain", [False, True])
def test_the_batch_table_never_cuts_a_header_or_a_score(sample_reports, width, plain):
    out = io.StringIO()
    console = Console(
        file=out, width=width, force_terminal=not plain, color_system=None, theme=THEME
    )
    render_batch_summary(console, sample_reports, [])
    text = out.getvalue()
    lines = lines_of(out)
    assert "…" not in text, text
    assert_fits(lines, width)
    for report in sample_reports:
        assert Path(report.source).name in text
        assert report.basics.name in text
    # every number of a resume is shown with it (in its row, or the lines of its block)
    at = next(i for i, line in enumerate(lines) if "en_weak_generalist.md" in line)
    numbers = [int(n) for n in re.findall(r"\b\d+\b", " ".join(lines[at : at + 3]))]
    wanted = iter(numbers)
    assert all(n in wanted for n in weak_numbers(sample_reports)), numbers


def test_the_batch_table_keeps_one_row_per_resume_at_100_columns(sample_reports):
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, theme=THEME)
    render_batch_summary(console, sample_reports, [])
    lines = lines_of(out)
    assert any(re.match(r"^ ?File +Name +Score", line) for line in lines), lines
    weak = next(line for line in lines if "en_weak_generalist.md" in line)
    assert "Jessica M. Turner" in weak
    assert weak.split()[-7:] == [str(n) for n in weak_numbers(sample_reports)], weak


@pytest.mark.parametrize("width", [100, 40])  # the table, and the blocks of a narrow screen
def test_the_batch_names_files_with_the_folders_that_tell_them_apart(sample_reports, width):
    """A/resume.md, b/resume.md and resume.md were three resume.md rows."""
    sources = ["a/resume.md", "b/resume.md", "resume.md"]
    reports = [
        r.model_copy(update={"source": s}) for r, s in zip(sample_reports, sources, strict=False)
    ]
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, theme=THEME)
    render_batch_summary(console, reports, [("c/resume.md", "cannot read it")])
    text = out.getvalue()
    for label in ("a/resume.md", "b/resume.md", "c/resume.md"):
        assert label in text
    assert len(re.findall(r"(?<![/\w])resume\.md", text)) == 1, text


def test_file_labels_take_only_the_folders_they_need() -> None:
    from cvagent_cli.ui.report import file_labels

    assert file_labels(["x/a/resume.md", "y/a/resume.md", "x/b/cv.md", "cv.md"]) == {
        "x/a/resume.md": "x/a/resume.md",
        "y/a/resume.md": "y/a/resume.md",
        "x/b/cv.md": "b/cv.md",
        "cv.md": "cv.md",
    }


@pytest.mark.parametrize("width", WIDTHS)
def test_the_report_fits_and_keeps_its_numbers_whole(width, monkeypatch):
    monkeypatch.chdir(ROOT)
    console, out = terminal(width)
    report = analyze_file(Path("sample_resumes/zh_weak_operations.md"))
    render_report(console, report, max_findings=10)
    lines = lines_of(out)
    assert_fits(lines, width)
    text = "\n".join(lines)
    assert "16 bullets" in text and "10 sections" in text
    assert not any(line.strip() == "→" for line in lines), lines  # the arrow keeps its text
    assert "sample_resumes/zh_weak_operations.md" in text  # the source is never cut


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("columns", "stderr_tty", "width"),
    [("60", False, 60), ("", False, 100), ("", True, 72), ("junk", False, 100)],
)
def test_piped_output_takes_columns_or_the_terminal_it_is_read_on(
    monkeypatch, columns, stderr_tty, width
):
    """Piped output was 100 columns whatever COLUMNS said, so `| tail` on
    a 60-column terminal wrapped mid-word."""
    import os
    import sys

    from cvagent_cli.ui.console import make_console

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setattr(sys, "stderr", _Stream(stderr_tty))
    monkeypatch.setattr(sys, "stdin", _Stream(False))
    sys.stderr.fileno = lambda: 2  # type: ignore[method-assign]
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((72, 24)))
    assert make_console(_Stream(False)).width == width
