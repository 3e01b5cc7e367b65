"""What the screen shows, read through a terminal emulator (pyte) at 80 columns: the REPL
in a pseudo-terminal against the loopback server, with the keys a user presses while an
answer streams.

The raw bytes say little (rich's live display moves the cursor and rewrites rows); the
emulated screen is what a person reads, so duplicated or stale rows show up there.
"""

from __future__ import annotations

import sys

import pytest

from tests.cli.conftest import ROOT
from tests.support.openai_server import Reply, delay

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty"),
]

COLUMNS, LINES = 80, 40
PROMPT = r"\x1b\[0m>"
TIMEOUT = 120


class Screen:
    """A pyte screen fed with everything the child writes (pexpect's logfile_read)."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.stream = pyte.Stream(self.screen)

    def write(self, data: str) -> None:
        self.stream.feed(data)

    def flush(self) -> None:
        pass

    def rows(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.rows())


@pytest.fixture
def chat(chat_env):
    children = []

    def start(resume):
        env = dict(
            chat_env,
            TERM="xterm-256color",
            PROMPT_TOOLKIT_NO_CPR="1",
            COLUMNS=str(COLUMNS),
            LINES=str(LINES),
        )
        env.pop("NO_COLOR", None)
        child = pexpect.spawn(
            sys.executable,
            ["-m", "cvagent_cli", "chat", str(resume)],
            env=env,
            cwd=str(ROOT),
            dimensions=(LINES, COLUMNS),
            encoding="utf-8",
            timeout=TIMEOUT,
        )
        screen = Screen()
        child.logfile_read = screen
        children.append(child)
        child.expect(PROMPT)
        return child, screen

    yield start
    for child in children:
        if child.isalive():
            child.terminate(force=True)


LOOP = "- Led the migration of the billing service to Kafka, cutting p99 latency by 40%.\n\n"


def test_a_loop_cut_after_it_was_shown_is_redrawn_as_kept(server, chat, resume):
    server.enqueue(Reply(text="Try this:\n\n" + LOOP * 40, chunk_delay=0.01))
    child, screen = chat(resume)
    child.send("rewrite my first bullet\r")
    child.expect("kept repeating the same passage")
    child.expect(PROMPT)
    shown = screen.text()
    assert shown.count("Led the migration") == 1, shown  # the copies shown meanwhile are gone
    assert "Try this:" in shown
    child.sendcontrol("d")
    child.expect(pexpect.EOF)


LONG = (
    "A strong summary names your role, your years of experience and the one result you are "
    "proudest of, in two or three lines that a recruiter reads in five seconds. "
)


def test_ctrl_c_mid_answer_leaves_each_line_once_and_no_caret_c(server, chat, resume):
    server.enqueue(Reply(text=LONG + "Then it keeps going " * 200, chunk_delay=0.05))
    child, screen = chat(resume)
    child.send("how should my summary read?\r")
    child.expect("keeps going")
    child.sendintr()
    child.expect("not kept in the conversation")
    child.expect(PROMPT)
    rows = screen.rows()
    assert "^C" not in screen.text()
    first = next(r for r in rows if r.startswith("A strong summary"))
    assert rows.count(first) == 1, screen.text()  # the first wrapped line is not drawn twice
    child.sendcontrol("d")
    child.expect(pexpect.EOF)


def test_keys_typed_while_an_answer_streams_do_not_garble_it(server, chat, resume):
    paragraphs = "".join(
        f"Point {i}: keep each bullet to one line of impact.\n\n" for i in range(12)
    )
    server.enqueue(Reply(text=LONG + "\n\n" + paragraphs, chunk_delay=0.03))
    child, screen = chat(resume)
    child.send("how should my summary read?\r")
    child.expect("Point 1:")
    for keys in ("abc", "hello world", "xyz"):
        child.send(keys)
        child.expect("Point")
    child.expect(PROMPT)
    child.expect("xyz")  # what was typed waits at the prompt
    rows = [r for r in screen.rows() if r]
    for i in range(12):
        assert sum(r.startswith(f"Point {i}:") for r in rows) == 1, screen.text()
    assert sum(r.startswith("A strong summary") for r in rows) == 1, screen.text()
    assert not [r for r in rows if "hello world" in r and not r.startswith(">")], screen.text()
    assert rows[-1].startswith("> abchello worldxyz")
    child.sendintr()  # clears it
    child.sendcontrol("d")
    child.expect(pexpect.EOF)


def test_a_slow_model_shows_a_spinner_with_the_seconds_then_only_the_answer(server, chat, resume):
    """Issue 34, item 14: 20 s and more with only the question on screen."""
    server.enqueue(delay(6, Reply(text="Here is my answer.")))
    child, screen = chat(resume)
    child.send("hello there\r")
    child.expect(r"waiting for the model… [2-9] s · Ctrl-C stops")
    shown = screen.rows()
    row = next(r for r in shown if "waiting for the model" in r)
    assert row[0] in "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", row  # the spinner, at the start of its own row
    child.expect("Here is my answer.")
    child.expect(PROMPT)
    assert "waiting for the model" not in screen.text()  # erased when the answer came
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
