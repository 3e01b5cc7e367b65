"""The real REPL in a pseudo-terminal (pexpect) against the loopback server running in
this process: type → diff → confirm → file changed; /undo; Ctrl-C mid-stream; Ctrl-D.

prompt-toolkit needs a capable terminal: xterm-256color, 40x120.  It asks the terminal
for the cursor position (CPR), which pexpect does not answer, so that is switched off
with PROMPT_TOOLKIT_NO_CPR (the only visible difference: no bottom toolbar).
"""

from __future__ import annotations

import json
import sys

import pytest

from cvagent_cli.paths import session_dir
from tests.cli.conftest import ROOT, SUMMARY_NEW, SUMMARY_OLD
from tests.support.openai_server import Reply, tool_calls
from tests.support.wire import user_words

pexpect = pytest.importorskip("pexpect")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty"),
]

PROMPT = r"\x1b\[0m>"  # how prompt-toolkit draws the "> " prompt
TIMEOUT = 120  # shared machines; never asserted as a duration
EDIT = {"old_text": SUMMARY_OLD, "new_text": SUMMARY_NEW, "reason": "stronger verb"}


@pytest.fixture
def spawn(chat_env, tmp_path):
    children = []

    def start(*args: str):
        env = dict(
            chat_env, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="120", LINES="40"
        )
        env.pop("NO_COLOR", None)  # the real thing: colours, Live streaming
        child = pexpect.spawn(
            sys.executable,
            ["-m", "cvagent_cli", "chat", *args],
            env=env,
            cwd=str(ROOT),
            dimensions=(40, 120),
            encoding="utf-8",
            timeout=TIMEOUT,
        )
        child.logfile_read = open(tmp_path / f"pty-{len(children)}.log", "w", encoding="utf-8")  # noqa: SIM115
        children.append(child)
        child.expect(PROMPT)
        return child

    yield start
    for child in children:
        if child.isalive():
            child.terminate(force=True)
        child.logfile_read.close()


def exit_with_ctrl_d(child) -> None:
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_confirmed_edit_changes_the_file_and_undo_restores_it(server, spawn, resume):
    original = resume.read_bytes()
    server.enqueue(
        tool_calls(("edit_resume", EDIT)),
        Reply(text="Done: a **stronger** summary.\n\nAnything else?"),
    )
    child = spawn(str(resume))
    child.send("rewrite the summary section\r")
    child.expect("proposed edit: stronger verb")
    child.expect(r"Apply\? \[y\]es/\[n\]o/\[a\]lways/\[e\]dit")
    assert resume.read_bytes() == original  # nothing lands before the answer
    child.send("y\r")
    child.expect("applied to the resume")
    child.expect("Anything else")
    child.expect(PROMPT)
    assert SUMMARY_NEW in resume.read_text(encoding="utf-8")

    child.send("/undo\r")
    child.expect("undid: stronger verb")
    child.expect(PROMPT)
    assert resume.read_bytes() == original
    exit_with_ctrl_d(child)


def test_ctrl_c_during_a_slow_stream_returns_to_the_prompt(server, spawn, resume):
    server.enqueue(
        Reply(text="First words of a long answer " + "that keeps going " * 60, chunk_delay=0.1),
        Reply(text="Second answer, complete."),
    )
    child = spawn(str(resume))
    child.send("rewrite the summary section\r")
    child.expect("keeps going")  # streaming has started
    child.sendintr()
    child.expect("stopped")
    child.expect("not kept in the conversation")  # true: Memory drops the partial answer
    child.expect(PROMPT)
    child.send("shorten the summary\r")
    child.expect("Second answer, complete.")  # the server's strict validation accepted it
    child.expect(PROMPT)
    last = server.requests[-1]["messages"]
    assert last[-1]["role"] == "user"
    assert user_words(last[-1]["content"]) == "shorten the summary"
    # then Ctrl-C twice on an empty prompt exits, saving the history
    child.sendintr()
    child.expect("again")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = json.loads(
        (session_dir(resume, create=False) / "history.json").read_text(encoding="utf-8")
    )
    assert saved["messages"][-1] == {"role": "assistant", "content": "Second answer, complete."}


def test_ctrl_d_exits_and_saves_history(server, spawn, resume):
    server.enqueue(Reply(text="Hi! What should we work on?"))
    child = spawn(str(resume))
    child.send("hello\r")
    child.expect("What should we work on")
    child.expect(PROMPT)
    exit_with_ctrl_d(child)
    folder = session_dir(resume, create=False)
    saved = json.loads((folder / "history.json").read_text(encoding="utf-8"))
    assert [m["role"] for m in saved["messages"]] == ["user", "assistant"]
    assert "hello" in (folder / "input_history").read_text(encoding="utf-8")

    # the next session resumes it
    child = spawn(str(resume))
    child.expect("resumed the conversation")  # printed above the prompt once it is loaded
    child.expect(PROMPT)
    exit_with_ctrl_d(child)


def test_multiline_input_and_bracketed_paste_are_one_message(server, spawn, resume):
    server.echo = True  # answers "echo: <last user message>" (intent classifier calls included)
    child = spawn(str(resume))
    child.send("first line\x1b\rsecond line\r")  # Esc+Enter inserts a newline
    child.expect("echo: first line")
    child.expect(PROMPT)
    child.send("\x1b[200~pasted one\npasted two\x1b[201~")
    child.send("\r")
    child.expect("echo: pasted one")
    child.expect(PROMPT)
    users = [user_words(r["messages"][-1]["content"]) for r in server.requests if r.get("tools")]
    assert users == ["first line\nsecond line", "pasted one\npasted two"]
    exit_with_ctrl_d(child)


def test_slash_commands_work_without_a_model(spawn, chat_env, resume):
    chat_env.pop("CVAGENT_MODEL")
    child = spawn(str(resume))
    child.send("/show summary\r")
    child.expect("## Summary")
    child.expect(PROMPT)
    child.send("rewrite the summary section\r")
    child.expect("no model configured")
    child.expect("CVAGENT_MODEL")
    child.expect(PROMPT)
    child.send("/ca\t")  # tab completion
    child.expect("/capability")
    child.send(" star\r")
    child.expect("capability: base → star")
    child.expect(PROMPT)
    exit_with_ctrl_d(child)


def test_resume_piped_on_stdin_is_edited_on_the_terminal_and_printed(server, chat_env, tmp_path):
    """`cat resume.md | cvagent chat`: stdin is the resume, the conversation happens on
    /dev/tty, and the edited resume goes to stdout (here a file), never back to disk."""
    from tests.cli.conftest import SAMPLE

    out_file = tmp_path / "new.md"
    server.enqueue(tool_calls(("edit_resume", EDIT)), Reply(text="Done."))
    env = dict(chat_env, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")
    env.pop("NO_COLOR", None)
    command = f"cat '{SAMPLE}' | '{sys.executable}' -m cvagent_cli chat > '{out_file}'"
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", command],
        env=env,
        cwd=str(ROOT),
        dimensions=(40, 120),
        encoding="utf-8",
        timeout=TIMEOUT,
    )
    try:
        child.expect(PROMPT)
        child.send("rewrite the summary section\r")
        child.expect(r"Apply\?")
        child.send("y\r")
        child.expect("Done.")
        child.expect(PROMPT)
        exit_with_ctrl_d(child)
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert out_file.read_bytes() == SAMPLE.read_bytes().replace(
        SUMMARY_OLD.encode(), SUMMARY_NEW.encode()
    )
    assert SUMMARY_OLD in SAMPLE.read_text(encoding="utf-8")  # the sample itself untouched


LOOP = "Led the migration of the billing service to Kafka, cutting latency by 40%. "


def test_a_hostile_session_end_to_end(server, spawn, resume, tmp_path):
    """A hostile new user's first session in one sitting: every step gets one
    line and the prompt back, the resume is only changed by what was accepted, and the
    session ends normally."""
    original = resume.read_text(encoding="utf-8")
    folder = tmp_path / "somefolder"
    folder.mkdir()
    server.enqueue(
        Reply(text="Try this:\n\n" + LOOP * 200, chunk_delay=0.001),  # a looping model
        tool_calls(("edit_resume", EDIT)),
        Reply(text="Kept as it was."),
    )
    child = spawn(str(resume))
    steps = [
        ("/", "commands"),  # a lone slash is a command, never sent to the model
        ("/save /nonexistent/dir/x.md", "does not exist"),
        (f"/save {folder}", "is a folder"),
        ('/load "no such file.md"', "no such file"),
        ("/show educ", "Education"),
        ("/capability base", "already active"),
        ("/undo", "nothing to undo"),
        ("/redo 5", "nothing to redo"),
        ("/model", "model"),
        ("rewrite my summary", "repeating the same passage"),
    ]
    for typed, expected in steps:
        child.send(typed + "\r")
        child.expect(expected)
        child.expect(PROMPT)
    # a proposed edit the user refuses leaves the file alone
    child.send("tighten the summary\r")
    child.expect(r"Apply\? \[y\]es")
    child.send("n\r")
    child.expect("Kept as it was")
    child.expect(PROMPT)
    exit_with_ctrl_d(child)
    log = (tmp_path / "pty-0.log").read_text(encoding="utf-8")
    assert "Traceback" not in log
    assert resume.read_text(encoding="utf-8") == original
    assert list(resume.parent.glob(".*cvagent*")) == []  # nothing left next to the resume
    assert len([r for r in server.requests if r.get("tools")]) == 3  # slash commands never reach it


def test_a_second_hostile_session_end_to_end(server, spawn, resume, tmp_path):
    """In a real terminal: bad export targets, bad
    arguments and a bad server URL are one line each and the prompt comes back; a resume
    made read-only is said at start and never written."""
    folder = tmp_path / "sub.pdf"
    folder.mkdir()
    again = {"old_text": SUMMARY_NEW, "new_text": SUMMARY_OLD, "reason": "put it back"}
    server.enqueue(
        tool_calls(("edit_resume", EDIT)),
        Reply(text="Done."),
        tool_calls(("edit_resume", again)),
        Reply(text="Left as it is."),
    )
    child = spawn(str(resume))
    child.send("rewrite the summary section\r")
    child.expect(r"Apply\? \[y\]es")
    child.send("y\r")
    child.expect("Done.")
    child.expect(PROMPT)
    edited = resume.read_bytes()
    steps = [
        ("/export /no/such/dir/x.pdf", "does not exist"),  # item 1
        (f"/export {folder}", "is a folder"),  # item 2: refused before any question
        ("/undo abc", r"usage: /undo \[N\]"),  # item 5
        ("/undo -1", r"usage: /undo \[N\]"),
        ("/redo 0", r"usage: /redo \[N\]"),
        ("/diff foo", r"usage: /diff \[last\]"),
        ("/model openai/x --api-base notaurl", "does not start with http"),  # item 6
        ("/model", "openai/test-model"),  # … and the model is the one it was
    ]
    for typed, expected in steps:
        child.send(typed + "\r")
        child.expect(expected)
        child.expect(PROMPT)
    exit_with_ctrl_d(child)
    assert resume.read_bytes() == edited  # no argument above undid or redid anything
    assert list(folder.iterdir()) == [] and folder.is_dir()

    resume.chmod(0o444)  # item 4
    child = spawn(str(resume))
    # the prompt is drawn first; start-up notices come above it once the chat is built
    child.expect("is read-only \\(its file permissions\\)")
    child.send("rewrite the summary section\r")
    child.expect("proposed edit")
    child.expect("read-only on disk")
    child.expect("Left as it is.")
    child.expect(PROMPT)
    child.send("/undo\r")
    child.expect("read-only on disk")
    child.expect(PROMPT)
    exit_with_ctrl_d(child)
    assert resume.read_bytes() == edited
    first, second = (tmp_path / f"pty-{n}.log" for n in (0, 1))
    assert "Traceback" not in first.read_text(encoding="utf-8")
    second_log = second.read_text(encoding="utf-8")
    assert "Traceback" not in second_log and "Apply?" not in second_log  # never offered
