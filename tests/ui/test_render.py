"""Agent events → terminal text, without a terminal: rich Consoles writing to StringIO."""

from __future__ import annotations

import io
from dataclasses import dataclass

from rich.console import Console

from cvagent_cli.agent import events as ev
from cvagent_cli.document.editing import unified_diff
from cvagent_cli.ui.console import make_console
from cvagent_cli.ui.render import (
    EventRenderer,
    clean,
    describe_arguments,
    diff_rows,
    error_panel,
    numbered_diff,
    print_diff,
    stable_boundary,
)


def plain_console(width: int = 100) -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, color_system=None, width=width, force_terminal=False), buffer


def render(*events, show_text: bool = True) -> str:
    console, buffer = plain_console()
    renderer = EventRenderer(console, show_text=show_text)
    for event in events:
        renderer.render(event)
    renderer.finish()
    return buffer.getvalue()


@dataclass(frozen=True)
class Flag:
    message: str


BEFORE = "".join(f"line {n}\n" for n in range(1, 21))
AFTER = BEFORE.replace("line 10\n", "line ten, rewritten\n")


def edit(flags=()) -> ev.ProposedEdit:
    return ev.ProposedEdit(
        id="e1",
        tool_call_id="call_1",
        reason="clearer wording",
        before=BEFORE,
        after=AFTER,
        diff=unified_diff(BEFORE, AFTER, "resume.md"),
        flags=tuple(flags),
        replacements=(("line 10", "line ten, rewritten"),),
    )


# -- diffs -------------------------------------------------------------------------------
def test_numbered_diff_takes_line_numbers_from_the_hunk_header():
    text = numbered_diff(unified_diff(BEFORE, AFTER, "resume.md")).plain
    lines = text.splitlines()
    assert lines[0].startswith("@@ -8,5 +8,5 @@")
    assert "    8     8 │  line 8" in lines
    assert "   10       │ -line 10" in lines
    assert "         10 │ +line ten, rewritten" in lines
    assert "   12    12 │  line 12" in lines
    assert not any(line.startswith(("---", "+++")) for line in lines)


def test_numbered_diff_counts_lines_after_an_insertion():
    after = BEFORE.replace("line 3\n", "line 3\nnew a\nnew b\n")
    lines = numbered_diff(unified_diff(BEFORE, after)).plain.splitlines()
    assert "          4 │ +new a" in lines
    assert "          5 │ +new b" in lines
    assert "    4     6 │  line 4" in lines


def test_numbered_diff_of_several_hunks_restarts_numbers_per_hunk():
    after = BEFORE.replace("line 2\n", "line two\n").replace("line 18\n", "line eighteen\n")
    lines = numbered_diff(unified_diff(BEFORE, after)).plain.splitlines()
    assert sum(line.startswith("@@") for line in lines) == 2
    assert "   18       │ -line 18" in lines
    assert "         18 │ +line eighteen" in lines


def test_changed_words_are_emphasised_on_a_terminal():
    rows = diff_rows(unified_diff("Led a team of engineers.\n", "Led a team of 6 engineers.\n"))
    added = next(text for _, text in rows if text.plain.startswith("+Led"))
    emphasised = {
        added.plain[span.start : span.end]
        for span in added.spans
        if "bold" in str(span.style) and "underline" in str(span.style)
    }
    # the inserted "6 " is marked; the words that stayed are not
    assert emphasised and all("6" in part for part in emphasised)
    assert not any("Led" in part or "engineers" in part for part in emphasised)


def test_long_diff_lines_are_not_hard_wrapped_in_plain_output():
    long_line = "word " * 60
    console, buffer = plain_console(width=60)
    print_diff(console, unified_diff(long_line + "\n", long_line + "extra\n"))
    lines = buffer.getvalue().splitlines()
    assert any(line.endswith("extra") and "+" in line for line in lines)
    assert len(lines) == 3  # hunk header, one removed line, one added line


# -- events --------------------------------------------------------------------------------
def test_streamed_text_is_written_once_in_plain_output():
    out = render(
        ev.TextDelta("Hello "), ev.TextDelta("there.\n\nSecond "), ev.TextDelta("paragraph.")
    )
    assert out == "Hello there.\n\nSecond paragraph.\n"


def test_text_is_hidden_when_the_answer_goes_elsewhere():
    out = render(
        ev.TextDelta("final answer"),
        ev.ToolCallEvent("c1", "read_resume", {}, "{}"),
        show_text=False,
    )
    assert "final answer" not in out
    assert "read_resume" in out


def test_tool_call_and_result_are_compact_lines():
    out = render(
        ev.ToolCallEvent("c1", "read_resume", {"section": "Skills"}, '{"section": "Skills"}'),
        ev.ToolResultEvent("c1", "read_resume", True, "section skills (lines 30-35)", "…"),
        ev.ToolCallEvent("c2", "analyze_resume", {}, "{}"),
        ev.ToolResultEvent(
            "c2",
            "analyze_resume",
            False,
            "the model asked for a section the resume does not have",
            "Error: no section 'Skils'. Did you mean: skills?\nmore",
        ),
    )
    assert out.splitlines() == [  # the summary is the user's; the content is the model's
        "→ read_resume(section='Skills')",
        "  ✓ section skills (lines 30-35)",
        "→ analyze_resume()",
        "  ✗ the model asked for a section the resume does not have",
    ]


def test_edit_arguments_show_the_reason_not_the_texts():
    shown = describe_arguments(
        {"old_text": "x" * 500, "new_text": "y" * 500, "section": "summary", "reason": "r" * 80}
    )
    assert "old_text" not in shown and "new_text" not in shown
    assert "section='summary'" in shown
    assert "…" in shown and len(shown) < 100
    assert describe_arguments({"edits": [{}, {}, {}]}) == "3 edits"


def test_proposed_edit_shows_reason_diff_and_outcome():
    out = render(
        ev.ToolCallEvent("call_1", "edit_resume", {"reason": "clearer wording"}, "{}"),
        edit(),
        ev.EditOutcome("e1", True, "applied", ""),
        ev.ToolResultEvent(
            "call_1", "edit_resume", True, "Applied. The resume now has this change:", "…"
        ),
    )
    assert "✎ proposed edit: clearer wording" in out
    assert "   10       │ -line 10" in out
    assert "✓ applied" in out
    assert "Applied. The resume" not in out  # the outcome line already said it


def test_flags_are_shown_as_possibly_invented():
    out = render(
        edit([Flag("40% appears nowhere in your resume or messages — is it true?")]),
        ev.EditOutcome("e1", False, "needs confirmation"),
    )
    assert (
        "⚠ possibly invented: 40% appears nowhere in your resume or messages — is it true?" in out
    )
    assert "• needs confirmation" in out


def test_rejected_and_deferred_outcomes():
    assert "✗ rejected" in render(ev.EditOutcome("e1", False, "rejected"))
    assert "• proposed, not applied" in render(ev.EditOutcome("e1", False, "proposed, not applied"))


UNREACHABLE = ev.ErrorEvent(
    "cannot reach the model server at http://127.0.0.1:9/v1 — is it running?",
    hint="check --api-base",
)


def test_error_on_a_terminal_is_one_panel_with_the_fix():
    buffer = io.StringIO()
    console = Console(file=buffer, color_system=None, width=100, force_terminal=True)
    renderer = EventRenderer(console, live=False)
    renderer.render(UNREACHABLE)
    out = buffer.getvalue()
    assert "error" in out.splitlines()[0]
    assert "is it running?" in out
    assert "how to fix: check --api-base" in out
    assert out.count("╭") == 1


def test_error_in_a_pipe_is_the_one_line_every_error_is():
    """Issue 34, item 20: a `chat -m … 2>log` error was a boxed panel in the log."""
    out = render(UNREACHABLE)
    assert out.splitlines() == [
        "cvagent: error: cannot reach the model server at http://127.0.0.1:9/v1 — is it running?",
        "  hint: check --api-base",
    ]


def test_error_panel_without_hint():
    console, buffer = plain_console()
    console.print(error_panel("no model configured"))
    assert "no model configured" in buffer.getvalue() and "how to fix" not in buffer.getvalue()


def test_notices_capabilities_and_stages():
    out = render(
        ev.Notice("resume.md changed on disk (edited elsewhere?); reloaded it", "warning"),
        ev.Notice("resumed the conversation"),
        ev.CapabilitySwitched("base", "tailor", "the request matches this pack"),
        ev.StageChanged("DRAFTING", "stage DRAFTING"),
        ev.UsageEvent(10, 5, None, 10, 5, None),
        ev.IntentDetected("EDIT", "heuristic", 0.9),
        ev.Done("text", "done"),
    )
    lines = out.splitlines()
    assert lines == [
        "! resume.md changed on disk (edited elsewhere?); reloaded it",
        "· resumed the conversation",
        "capability: base → tailor (the request matches this pack)",
        "· stage DRAFTING",
    ]


def test_usage_is_remembered_for_the_toolbar():
    console, _ = plain_console()
    renderer = EventRenderer(console)
    renderer.render(ev.UsageEvent(100, 20, 0.01, 300, 40, 0.03))
    assert renderer.usage.session_prompt_tokens == 300


def test_thinking_is_dimmed_and_separate_from_the_answer():
    out = render(ev.Thinking("let me check"), ev.TextDelta("Answer."))
    assert out.splitlines() == ["thinking: let me check", "Answer."]


# -- terminal streaming ---------------------------------------------------------------------
def test_stable_boundary_ignores_blank_lines_inside_code_fences():
    assert stable_boundary("para one\n\npara two") == len("para one\n\n")
    text = "intro\n\n```\ncode\n\nmore code\n"
    assert stable_boundary(text) == len("intro\n\n")
    closed = "```\ncode\n\nx\n```\n"
    assert stable_boundary(closed) == len(closed)
    assert stable_boundary("no newline yet") == 0


def test_markdown_stream_on_a_terminal_commits_every_paragraph_once():
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system=None, width=80)
    renderer = EventRenderer(console)
    for piece in ["# Title\n\nFirst ", "paragraph.\n\n- a\n", "- b\n\nlast", " words"]:
        renderer.render(ev.TextDelta(piece))
    renderer.finish()
    out = buffer.getvalue()
    for words in ("Title", "First paragraph.", "last words"):
        assert words in out
    assert "# Title" not in out  # rendered as Markdown, not echoed raw


# -- NO_COLOR and pipes ------------------------------------------------------------------------
def test_no_ansi_when_no_color_is_set(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")

    class FakeTTY(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = FakeTTY()
    renderer = EventRenderer(make_console(stream))
    renderer.render(edit([Flag("10 people appears nowhere")]))
    renderer.render(ev.ErrorEvent("boom", hint="fix it"))
    renderer.render(ev.TextDelta("**bold** answer"))
    renderer.finish()
    assert "\x1b" not in stream.getvalue()
    assert "possibly invented" in stream.getvalue()


def test_no_ansi_when_the_stream_is_not_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    stream = io.StringIO()
    renderer = EventRenderer(make_console(stream))
    renderer.render(edit())
    renderer.render(ev.Notice("hello", "warning"))
    assert "\x1b" not in stream.getvalue()


def test_control_characters_from_a_resume_never_reach_the_terminal():
    hostile = "Backend\x1b[2J\x1b]0;owned\x07 engineer\r"
    before = f"{hostile}\nsecond line\n"
    after = "Backend engineer\nsecond line\n"
    e = ev.ProposedEdit(
        "e1",
        "c1",
        "reason \x1b[31m",
        before,
        after,
        unified_diff(before, after),
        (Flag("x\x1b[0m"),),
    )
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=120)
    renderer = EventRenderer(console, live=False)
    for event in (
        e,
        ev.TextDelta("answer \x1b[2J done"),
        ev.Notice("n\x1b[1m"),
        ev.ErrorEvent("e\x1b[1m", hint="h\x9b2J"),
        ev.ToolCallEvent("c", "read_resume", {"section": "\x1b[2J"}, "{}"),
    ):
        renderer.render(event)
    renderer.finish()
    printed = buffer.getvalue()
    # rich's own styling codes are fine; what must not appear is the resume's ESC [ 2 J
    assert (
        "\x1b[2J" not in printed
        and "\x1b]0;" not in printed
        and "\x07" not in printed
        and "\x9b" not in printed
    )
    assert "␛[2J" in printed
    assert clean("tab\tand\nnewline") == "tab\tand\nnewline"
    assert clean("bell\x07") == "bell␇"


def test_guard_flags_are_labelled_by_what_they_protect():
    from io import StringIO

    from rich.console import Console

    from cvagent_cli.agent import events as ev
    from cvagent_cli.truth.guards import EditFlag
    from cvagent_cli.ui.render import EventRenderer

    stream = StringIO()
    renderer = EventRenderer(Console(file=stream, color_system=None, width=120))
    flag = EditFlag("contact", "email", "this edit changes your email (a@x.example → b@y.example)")
    renderer.render(
        ev.ProposedEdit(
            id="e1",
            tool_call_id="c1",
            reason="r",
            before="a\n",
            after="b\n",
            diff="@@ -1 +1 @@\n-a\n+b",
            flags=(flag,),
        )
    )
    assert "⚠ contact details: this edit changes your email" in stream.getvalue()


def test_edit_counts_in_tool_lines_use_the_singular_for_one():
    assert describe_arguments({"edits": [{"old_text": "a", "new_text": "b"}]}) == "1 edit"
    assert describe_arguments({"edits": [{}, {}]}) == "2 edits"


def test_the_live_tail_never_grows_past_the_screen():
    """Lines that scrolled off cannot be erased by a transient Live: a long unfinished
    paragraph would be printed twice."""
    from cvagent_cli.ui.render import last_screenful

    paragraph = "word " * 3000  # one paragraph, no line breaks: never committed early
    tail = last_screenful(paragraph, 80, 24)
    assert paragraph.endswith(tail) and len(tail) <= 22 * 80
    lines = "\n".join(f"line {i}" for i in range(100))
    assert last_screenful(lines, 80, 10).splitlines() == [f"line {i}" for i in range(92, 100)]
    assert last_screenful("short", 80, 24) == "short"
