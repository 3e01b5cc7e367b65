"""Rendering the agent's events with rich.

The agent core never prints; this module turns its typed events into terminal output:
streamed Markdown, compact tool lines, numbered diffs, and one clear panel per error.

Why streaming is done this way: re-rendering the whole answer on every delta flickers and,
once the answer is taller than the screen, repaints garbage.  So completed paragraphs are
printed once as Markdown, and only the unfinished tail lives in a ``rich.live.Live``
(transient, so committing it leaves no duplicate).  On a non-terminal (pipes, files,
tests, ``NO_COLOR``) there is no Live at all: the raw text is written as it arrives.
"""

from __future__ import annotations

import contextlib
import difflib
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rich.cells import cell_len
from rich.console import Console
from rich.control import Control
from rich.live import Live
from rich.panel import Panel
from rich.segment import ControlType
from rich.text import Text

from cvagent_cli.agent import events as ev
from cvagent_cli.ui.console import clean, error_line
from cvagent_cli.ui.keyboard import echo
from cvagent_cli.ui.waiting import Waiting
from cvagent_cli.ui.wrap import Wrapped, print_wrapped, with_gutter
from cvagent_cli.wording import plural

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.markdown import Markdown

    from cvagent_cli.agent.session import ChatSession
    from cvagent_cli.agent.toolcall_agent import Approver

HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
_FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)")
_HIDDEN_ARGS = {"old_text", "new_text"}  # shown in the diff, not in the tool line
_REFRESH_SECONDS = 1 / 15  # Live repaint budget: smooth, but no repaint per token

# Literal styles, not theme names: the renderer must also work on a plain Console (tests,
# callers without cvagent's theme), where an unknown theme name would raise.
INFO, WARN, MUTED, GOOD, ADD, DEL, HUNK = "cyan", "yellow", "dim", "green", "green", "red", "cyan"


# -- pure helpers (unit-tested directly) -----------------------------------------------------
# Truthfulness flags (number, date, organization, title …) are "possibly invented";
# the guards' kinds say what else made the edit need a human yes.
FLAG_LABELS = {
    "contact": "contact details",
    "deletion": "deletes content",
    "injection": "suspicious file",
    "secret": "secret",
}


def _markdown(text: str) -> Markdown:
    # rich.markdown (and pygments behind it) is imported on the first answer, not at start-up.
    from rich.markdown import Markdown

    return Markdown(text)


def diff_rows(diff: str) -> list[tuple[str, Text]]:
    """(gutter, line) pairs for a unified diff: old/new line numbers from its ``@@``
    headers, so every line carries the number it has (or had) in the user's file.

    ``---``/``+++`` headers are dropped as noise.  When a run of removed lines is followed
    by as many added ones, the words that changed are emphasised: in a 300-character
    summary line, the three changed words are what the user has to judge.
    """
    parsed: list[tuple[str, str, str]] = []  # (gutter, mark, body)
    old = new = 0
    for line in diff.splitlines():
        if line.startswith(("--- ", "+++ ")):
            continue
        match = HUNK_RE.match(line)
        if match:
            old, new = int(match.group(1)), int(match.group(3))
            parsed.append(("", "@", clean(line)))
            continue
        mark, body = (line[:1], clean(line[1:])) if line else (" ", "")
        if mark == "-":
            parsed.append((f"{old:>5}      ", "-", body))
            old += 1
        elif mark == "+":
            parsed.append((f"      {new:>5}", "+", body))
            new += 1
        elif mark == "\\":  # "\ No newline at end of file"
            parsed.append((" " * 11, "\\", clean(line)))
        else:
            parsed.append((f"{old:>5} {new:>5}", " ", body))
            old += 1
            new += 1
    rows = []
    for gutter, mark, body in parsed:
        if mark == "@":
            rows.append((gutter, Text(body, style=HUNK)))
        else:
            style = {"-": DEL, "+": ADD, "\\": MUTED}.get(mark, "")
            rows.append((gutter, Text(f"{mark}{body}" if mark != "\\" else body, style=style)))
    _emphasise(parsed, rows)
    return rows


def _emphasise(parsed: list[tuple[str, str, str]], rows: list[tuple[str, Text]]) -> None:
    i = 0
    while i < len(parsed):
        if parsed[i][1] != "-":
            i += 1
            continue
        j = i
        while j < len(parsed) and parsed[j][1] == "-":
            j += 1
        k = j
        while k < len(parsed) and parsed[k][1] == "+":
            k += 1
        if k - j == j - i:
            for offset in range(j - i):
                _mark_changed_words(
                    parsed[i + offset][2],
                    parsed[j + offset][2],
                    rows[i + offset][1],
                    rows[j + offset][1],
                )
        i = k if k > i else i + 1


def _mark_changed_words(before: str, after: str, old_text: Text, new_text: Text) -> None:
    a, b = re.findall(r"\s+|\w+|[^\w\s]", before), re.findall(r"\s+|\w+|[^\w\s]", after)
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    if matcher.ratio() < 0.3:
        return  # a rewrite, not a tweak: emphasising everything says nothing
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = len("".join(a[:a1])) + 1, len("".join(a[:a2])) + 1
        if end > start:
            old_text.stylize("bold underline", start, end)
        start, end = len("".join(b[:b1])) + 1, len("".join(b[:b2])) + 1
        if end > start:
            new_text.stylize("bold underline", start, end)


def numbered_diff(diff: str) -> Text:
    """The numbered diff as one Text (plain output, tests)."""
    out = Text()
    for gutter, line in diff_rows(diff):
        if gutter:
            out.append(f"{gutter} │ ", style=MUTED)
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


def print_diff(console: Console, diff: str) -> None:
    """On a terminal, a two-column grid so wrapped lines stay right of the numbers; in
    plain output one line per diff line (soft wrap), as a pipe or a log wants it."""
    if not console.is_terminal:
        console.print(numbered_diff(diff), soft_wrap=True)
        return
    rows = (
        (Text(f"{gutter} │ " if gutter else " " * 14, style=MUTED), line)
        for gutter, line in diff_rows(diff)
    )
    console.print(with_gutter(rows, console.width), soft_wrap=True)  # CJK lines wrap too


def error_panel(message: str, hint: str | None = None, title: str = "error") -> Panel:
    """One error, one panel: what happened, then how to fix it."""
    body = Text(clean(message), style="bold")
    if hint:
        body.append("\nhow to fix: ", style=MUTED)
        body.append(clean(hint))
    return Panel(Wrapped(body), title=title, title_align="left", border_style="red", expand=False)


def describe_arguments(arguments: dict[str, Any], limit: int = 48) -> str:
    """Key arguments of a tool call on one line (long texts shortened, edit texts counted)."""
    parts = []
    for key, value in arguments.items():
        if key in _HIDDEN_ARGS:
            continue
        if key == "edits" and isinstance(value, list):
            parts.append(plural(len(value), "edit"))
            continue
        if value is None:
            continue
        shown = clean(" ".join(str(value).split()))
        if len(shown) > limit:
            shown = shown[: limit - 1] + "…"
        parts.append(f"{key}={shown!r}" if isinstance(value, str) else f"{key}={shown}")
    return ", ".join(parts)


def stable_boundary(text: str) -> int:
    """Where the finished part of streamed Markdown ends: after the last blank line that
    is outside a code fence.  Everything before it will not change any more."""
    boundary = 0
    in_fence = False
    offset = 0
    for line in text.splitlines(keepends=True):
        offset += len(line)
        if not line.endswith("\n"):
            break  # the last, unfinished line
        if _FENCE_RE.match(line):
            in_fence = not in_fence
            if not in_fence:
                boundary = offset  # a closed code block is finished
            continue
        if not in_fence and not line.strip():
            boundary = offset
    return boundary


# -- the renderer ---------------------------------------------------------------------------
def last_screenful(text: str, width: int, height: int) -> str:
    """The end of ``text`` that fits ``height - 2`` rows of ``width`` columns."""
    budget = max(height - 2, 3)
    lines = text.split("\n")
    kept: list[str] = []
    for line in reversed(lines):
        rows = max(1, -(-cell_len(line) // max(width, 1)))
        if rows > budget:
            if not kept:  # one paragraph longer than the screen: its end
                kept.append(line[-(budget * max(width, 1) // 2) :])
            return "\n".join(reversed(kept))
        budget -= rows
        kept.append(line)
    return text


class Renderer(Protocol):
    """What the REPL and a turn need from a renderer: :class:`EventRenderer` for people,
    ``ui.jsonlines.JsonRenderer`` for ``--json``."""

    def render(self, event: ev.Event) -> None: ...
    def finish(self) -> None: ...
    def notice(self, text: str, level: str = "info") -> None: ...
    def error(self, message: str, hint: str | None = None) -> None: ...
    def show_edit(self, edit: ev.ProposedEdit) -> None: ...


class EventRenderer:
    """Renders one event at a time; ``finish()`` closes any open stream.

    ``show_text=False`` is for ``-m`` mode, where the final answer is written to stdout by
    the caller and the console (stderr) only carries progress, tool lines and diffs.
    """

    def __init__(
        self, console: Console, *, show_text: bool = True, live: bool | None = None
    ) -> None:
        self.console = console
        self.show_text = show_text
        self.fancy = console.is_terminal if live is None else live
        self.usage: ev.UsageEvent | None = None
        self._kind = ""  # "text" | "thinking" | "" — what the open stream holds
        self._buffer = ""  # uncommitted text of the open stream
        self._live: Live | None = None
        self._painted = 0.0
        self._wrote_raw = False  # plain mode: the open stream has printed something
        self._rows = 0  # terminal rows this reply's finished paragraphs took (for a retract)
        self._edit_calls: set[str] = set()  # tool calls whose outcome the edit lines showed

    # -- streams -----------------------------------------------------------------------
    def _stream(self, kind: str, delta: str) -> None:
        delta = clean(delta.replace("\r", ""))  # a bare CR would overwrite the line
        if self._kind != kind:
            self.finish()
            self._kind, self._rows = kind, 0
            if kind == "thinking" and not self.fancy:
                self.console.print(Text("thinking: ", style=MUTED), end="")
        self._buffer += delta
        if not self.fancy:
            # plain output: no cursor tricks, each piece written once as it arrives
            self.console.print(
                Text(delta, style=MUTED if kind == "thinking" else ""), end="", soft_wrap=True
            )
            self._wrote_raw = True
            self._buffer = ""
            return
        if kind == "text":
            cut = stable_boundary(self._buffer)
            if cut:
                head, self._buffer = self._buffer[:cut], self._buffer[cut:]
                self._stop_live()
                if head.strip():
                    self._commit(_markdown(head))
        self._paint()

    def _commit(self, renderable: RenderableType) -> None:
        """Print a finished piece of the reply for good, counting the rows it takes."""
        self._rows += len(self.console.render_lines(renderable, pad=False, new_lines=True))
        self.console.print(renderable)

    def _renderable(self) -> Text | Markdown:
        # Only the last screenful is live: lines that scroll off cannot be erased, and the
        # whole tail is printed once when the stream closes (no doubled text).
        text = last_screenful(self._buffer, self.console.width, self.console.height)
        if self._kind == "thinking":
            return Text(text, style=f"{MUTED} italic")
        return _markdown(text)

    def _paint(self, force: bool = False) -> None:
        if not self._buffer:
            return
        now = time.monotonic()
        if self._live is None:
            self._live = Live(
                self._renderable(),
                console=self.console,
                auto_refresh=False,
                transient=True,
                vertical_overflow="visible",
            )
            self._live.start()
            self._painted = now
            return
        if force or now - self._painted >= _REFRESH_SECONDS:
            self._live.update(self._renderable(), refresh=True)
            self._painted = now

    def _stop_live(self) -> None:
        if self._live is not None:
            live, self._live = self._live, None
            live.stop()  # transient: the tail is erased, then printed for good

    def finish(self) -> None:
        """Close the open stream: commit the tail (Markdown on a terminal)."""
        if self.fancy:
            self._stop_live()
            if self._buffer.strip():
                if self._kind == "thinking":
                    self.console.print(Text(self._buffer.strip(), style=f"{MUTED} italic"))
                else:
                    self._commit(_markdown(self._buffer))
        elif self._wrote_raw:
            self.console.print()
        self._buffer, self._kind, self._wrote_raw = "", "", False

    def retract(self, event: ev.Retract) -> None:
        """The reply was cut after some of it was shown: on a terminal, erase what this
        reply printed (while it is still on the screen) and draw the kept answer; in
        plain output, where nothing can be erased, say how much is taken back."""
        if not self.show_text:
            return  # -m: the caller prints the final (kept) answer itself
        if not self.fancy:
            if self._wrote_raw:
                self.console.print()
            self._buffer, self._kind, self._wrote_raw = "", "", False
            print_wrapped(
                self.console,
                Text(
                    f"↺ the last {plural(event.removed, 'character')} above are taken back",
                    style=MUTED,
                ),
                indent=2,
            )
            return
        self._stop_live()  # transient: the unfinished tail is erased
        rows = self._rows if self._kind == "text" else 0
        if 0 < rows < self.console.height:
            self.console.control(
                Control(
                    ControlType.CARRIAGE_RETURN,
                    (ControlType.ERASE_IN_LINE, 2),
                    *((ControlType.CURSOR_UP, 1), (ControlType.ERASE_IN_LINE, 2)) * rows,
                )
            )
        elif rows:  # scrolled away: it cannot be erased, so the kept answer comes again
            print_wrapped(self.console, Text("↺ the answer, as kept:", style=MUTED), indent=2)
        self._buffer, self._kind, self._rows = "", "", 0
        if event.text.strip():
            self.console.print(_markdown(clean(event.text)))

    # -- events --------------------------------------------------------------------------
    def render(self, event: ev.Event) -> None:
        if isinstance(event, ev.TextDelta):
            if self.show_text:
                self._stream("text", event.text)
            return
        if isinstance(event, ev.Retract):
            self.retract(event)
            return
        if isinstance(event, ev.Thinking):
            if self.show_text:
                self._stream("thinking", event.text)
            return
        if isinstance(event, ev.UsageEvent):
            self.usage = event  # the toolbar shows it; no line of its own
            return
        if isinstance(event, ev.IntentDetected):
            return  # internal routing; not worth a line
        self.finish()
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            handler(event)

    def _on_ToolCallEvent(self, event: ev.ToolCallEvent) -> None:
        args = describe_arguments(event.arguments)
        print_wrapped(
            self.console,
            Text.assemble(("→ ", INFO), (event.name, f"bold {INFO}"), (f"({args})", INFO)),
            indent=2,
        )

    def _on_ToolResultEvent(self, event: ev.ToolResultEvent) -> None:
        if event.id in self._edit_calls:
            return  # "applied" / "rejected" was already said by the EditOutcome line
        # the summary is written for the user, whole; the content is the model's (what to
        # do next, in its terms) and is not shown
        summary = clean(event.summary or ("ok" if event.ok else "failed"))
        if event.ok:
            print_wrapped(self.console, Text(f"  ✓ {summary}", style=MUTED), indent=4)
            return
        print_wrapped(self.console, Text(f"  ✗ {summary}", style=WARN), indent=4)

    def _on_ProposedEdit(self, event: ev.ProposedEdit) -> None:
        self.show_edit(event)

    def show_edit(self, edit: ev.ProposedEdit) -> None:
        self._edit_calls.add(edit.tool_call_id)
        title = Text("✎ proposed edit", style="bold")
        if edit.section:
            title.append(f" in {clean(edit.section)}", style="bold")
        if edit.reason:
            title.append(f": {clean(edit.reason)}")
        print_wrapped(self.console, title, indent=2)
        print_diff(self.console, edit.diff)
        for flag in edit.flags:
            message = getattr(flag, "message", None) or str(flag)
            label = FLAG_LABELS.get(getattr(flag, "kind", ""), "possibly invented")
            print_wrapped(self.console, Text(f"⚠ {label}: {clean(message)}", style=WARN), indent=2)

    def _on_EditOutcome(self, event: ev.EditOutcome) -> None:
        if event.applied:
            self.console.print(Text("✓ applied to the resume", style=GOOD))
        elif event.message == "rejected":
            self.console.print(Text("✗ rejected; the model is told", style=WARN))
        else:
            print_wrapped(self.console, Text(f"• {clean(event.message)}", style=WARN), indent=2)

    def _on_CapabilitySwitched(self, event: ev.CapabilitySwitched) -> None:
        why = f" ({clean(event.reason)})" if event.reason else ""
        change = (
            f"{event.new} is already active"
            if event.old == event.new
            else f"{event.old} → {event.new}"
        )
        print_wrapped(self.console, Text(f"capability: {change}{why}", style=INFO))

    def _on_StageChanged(self, event: ev.StageChanged) -> None:
        parts = [p for p in (event.stage and f"stage {event.stage}", event.progress) if p]
        print_wrapped(
            self.console, Text(clean("· " + " · ".join(dict.fromkeys(parts))), style=INFO), indent=2
        )

    def _on_Notice(self, event: ev.Notice) -> None:
        self.notice(event.text, event.level)

    def _on_ErrorEvent(self, event: ev.ErrorEvent) -> None:
        self.error(event.message, event.hint)

    # -- used by the REPL as well ----------------------------------------------------------
    def notice(self, text: str, level: str = "info") -> None:
        self.finish()
        mark, style = ("! ", WARN) if level == "warning" else ("· ", INFO)
        print_wrapped(self.console, Text(mark + clean(text), style=style), indent=2)

    def error(self, message: str, hint: str | None = None) -> None:
        """A panel in a chat on a terminal; in a pipe or a log, the one line every other
        error is (``cvagent: error: …``), which ``grep`` and scripts can read."""
        self.finish()
        if self.console.is_terminal:
            self.console.print(error_panel(message, hint))
        else:
            print_wrapped(self.console, error_line(message, hint))


# -- driving one turn -----------------------------------------------------------------------
@dataclass
class TurnResult:
    done: ev.Done | None = None
    errors: list[ev.ErrorEvent] = field(default_factory=list)
    interrupted: bool = False
    write_failed: bool = False  # an approved edit the disk refused (exit 2 for a script)

    @property
    def failed(self) -> bool:
        """An error panel was shown: the model failed, or was stopped for repeating the
        same tool call ("stuck"); a script must not read that as success (exit 3)."""
        return self.done is None or self.done.reason in ("error", "stuck")


#: events after which nothing waits for the model: a reply streaming, a tool running
_NOT_WAITING = (ev.TextDelta, ev.Thinking, ev.Retract, ev.ToolCallEvent)


def run_turn(
    session: ChatSession, text: str, renderer: Renderer, approve: Approver | None
) -> TurnResult:
    """One user message through the agent, rendered; Ctrl-C stops it cleanly."""
    result = TurnResult()
    console = getattr(renderer, "console", None)
    # a spinner while the model thinks, on a terminal; stopped before anything prints,
    # the Apply? question included
    waiting = (
        Waiting(renderer.console)
        if isinstance(renderer, EventRenderer) and renderer.fancy
        else None
    )

    def asked(edit: ev.ProposedEdit) -> ev.Decision:
        if waiting is not None:
            waiting.stop()
        assert approve is not None
        return approve(edit)

    events = session.ask(text, asked if approve is not None else None)
    try:
        # keys typed meanwhile (and Ctrl-C's "^C") would be echoed into the live display
        with echo(console.file if console is not None else None, on=False):
            if waiting is not None:
                waiting.start()
            for event in events:
                if waiting is not None:
                    waiting.stop()
                renderer.render(event)
                if isinstance(event, ev.Done):
                    result.done = event
                elif isinstance(event, ev.ErrorEvent):
                    result.errors.append(event)
                elif waiting is not None and not isinstance(event, _NOT_WAITING):
                    waiting.start()  # the model is called (again, after a tool or a retry)
                if isinstance(event, ev.EditOutcome) and event.failed:
                    result.write_failed = True
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        if waiting is not None:
            waiting.stop()
        renderer.finish()  # stop any Live before anything else prints
        with contextlib.suppress(KeyboardInterrupt):
            events.close()  # GeneratorExit inside the agent: Memory repaired, history saved
    if result.interrupted:
        renderer.notice(
            "stopped (Ctrl-C): the unfinished answer is not kept in the conversation; "
            "ask again to continue",
            "warning",
        )
    return result
