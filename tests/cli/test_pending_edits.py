"""Edits a run without a person proposed are offered by the next ``cvagent chat``:
kept with the resume's hash, dropped with a notice when the resume
changed underneath."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest
from rich.console import Console

from cvagent_cli.agent.compose import build_session
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.paths import session_files
from cvagent_cli.ui.io import ChatIO
from cvagent_cli.ui.repl import Repl
from tests.cli.conftest import ROOT, SUMMARY_NEW, SUMMARY_OLD, run_chat
from tests.cli.test_chat_modes import EDIT_REQUEST, script_edit
from tests.support.openai_server import Reply, tool_calls
from tests.ui.test_repl_commands import ScriptedClient


def chat_later(resume, answers: list[str]) -> str:
    """The next interactive `cvagent chat` on ``resume``, answering with ``answers``."""
    session = build_session(client=ScriptedClient(), doc=ResumeDocument.from_path(resume))
    out = io.StringIO()
    repl = Repl(session, ChatIO(input=answers, output=Console(file=out, width=120)))
    assert repl.run() == 0
    session.close()
    return out.getvalue()


@pytest.mark.slow
def test_an_edit_proposed_by_a_message_run_is_offered_by_the_next_chat(server, chat_env, resume):
    script_edit(server)
    proc = run_chat([str(resume), "-m", EDIT_REQUEST], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert "confirm them in `cvagent chat`" in proc.stderr.decode()
    assert SUMMARY_OLD in resume.read_text(encoding="utf-8")  # nothing applied yet

    out = chat_later(resume, ["y"])
    assert "1 edit proposed in the last run, not applied yet" in out
    assert "proposed edit: stronger verb" in out and "applied to the resume" in out
    assert SUMMARY_NEW in resume.read_text(encoding="utf-8")
    again = chat_later(resume, [])  # offered once: the file was consumed
    assert "proposed in the last run" not in again


@pytest.mark.slow
def test_a_flagged_edit_kept_from_a_yes_run_still_needs_a_yes(server, chat_env, resume):
    invented = {"old_text": SUMMARY_OLD, "new_text": SUMMARY_OLD + " Cut costs 73%."}
    server.enqueue(tool_calls(("edit_resume", invented)), Reply(text="Proposed."))
    proc = run_chat([str(resume), "-m", EDIT_REQUEST, "--yes"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    original = resume.read_bytes()
    out = chat_later(resume, ["n"])
    assert "73%" in out and "possibly invented" in out and "rejected" in out
    assert resume.read_bytes() == original


def keep_one_edit(resume) -> None:
    """A run without a person: the model proposes one edit, nobody confirms it."""
    from tests.ui.test_repl_commands import edit_reply

    session = build_session(
        client=ScriptedClient([edit_reply(SUMMARY_OLD, SUMMARY_NEW)]),
        doc=ResumeDocument.from_path(resume),
    )
    list(session.ask("rewrite the summary section"))  # no approver: deferred
    session.close()
    assert session_files(resume).pending_edits.exists()


def test_kept_edits_are_dropped_with_a_notice_when_the_resume_changed(resume):
    keep_one_edit(resume)
    resume.write_text(resume.read_text(encoding="utf-8") + "\n## Hobbies\n\nChess\n", "utf-8")
    changed = resume.read_bytes()
    out = chat_later(resume, ["y"])
    assert "dropped 1 edit proposed in the last run: resume.md changed since" in out
    assert "proposed edit" not in out
    assert resume.read_bytes() == changed
    assert not session_files(resume).pending_edits.exists()


def test_kept_edits_carry_the_resume_hash_and_the_exact_replacements(resume):
    keep_one_edit(resume)
    kept = json.loads(session_files(resume).pending_edits.read_text(encoding="utf-8"))
    import hashlib

    text = resume.read_bytes().decode("utf-8")
    assert kept["resume_sha256"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert kept["edits"][0]["replacements"] == [[SUMMARY_OLD, SUMMARY_NEW]]


def test_rejecting_a_kept_edit_leaves_the_resume_and_forgets_it(resume):
    keep_one_edit(resume)
    original = resume.read_bytes()
    out = chat_later(resume, ["n"])
    assert "rejected" in out and resume.read_bytes() == original
    assert "proposed in the last run" not in chat_later(resume, [])


PROMPT = r"\x1b\[0m>"  # how prompt-toolkit draws the "> " prompt


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_kept_edits_are_offered_before_the_first_prompt(chat_env, resume, tmp_path):
    """The question comes first, so the first line typed is a line for
    the chat, not an answer to a question it was typed before."""
    pexpect = pytest.importorskip("pexpect")
    keep_one_edit(resume)
    env = dict(chat_env, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="80")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cvagent_cli", "chat", str(resume)],
        env=env,
        cwd=str(ROOT),
        dimensions=(30, 80),
        encoding="utf-8",
        timeout=120,
    )
    child.logfile_read = open(tmp_path / "pty.log", "w", encoding="utf-8")  # noqa: SIM115
    try:
        # before any prompt: a prompt drawn first shows "> " and waits for a line
        found = child.expect([r"Apply\? \[y\]es", PROMPT])
        assert found == 0, "a prompt was drawn before the kept edit was offered"
        child.sendline("y")
        child.expect("applied to the resume")
        child.expect(PROMPT)
        child.sendline("/diff")  # the first line typed is a command, and runs
        child.expect(re.escape(SUMMARY_NEW[:30]))
        child.expect(PROMPT)
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.terminate(force=True)
        child.logfile_read.close()
    assert SUMMARY_NEW in resume.read_text(encoding="utf-8")
