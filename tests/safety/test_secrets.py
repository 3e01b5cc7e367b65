"""Secrets: API keys never reach the state files, the terminal or an error message, and
the state files are private (files 0600, folders 0700)."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

import pytest
from rich.console import Console

from cvagent_cli import paths
from cvagent_cli.agent import events as ev
from cvagent_cli.agent.compose import build_session
from cvagent_cli.agent.session import ChatSession
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.settings import load_settings
from cvagent_cli.ui.io import ChatIO
from tests.safety.helpers import FAKE_KEY, assert_no_traceback, cli_env, run_cli
from tests.support.openai_server import Reply, status, tool_calls
from tests.support.scripted import Reply as Scripted
from tests.support.scripted import ScriptedModel, tool

OTHER_KEY = "sk-proj-Q7w8E9r0T1y2U3i4O5p6A7s8D9f0"  # pasted by the user, not in the environment
BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJlLXNhZmV0eQ"
SECRETS = [FAKE_KEY, OTHER_KEY, BEARER]


def _fragments(secret: str) -> list[str]:
    """The secret and its distinctive tail (a masked echo like 'sk-tes****fXYZ' keeps the end)."""
    return [secret, secret[-10:]]


def _assert_no_secret(text: str, where: str) -> None:
    for secret in SECRETS:
        for fragment in _fragments(secret):
            assert fragment not in text, f"{where} contains {fragment!r}"


def _assert_private(home: Path) -> list[Path]:
    """Every file under the state dir is 0600 and every folder 0700; returns the files."""
    state = paths.state_dir()
    assert state.is_dir()
    files = []
    for folder, _dirs, names in os.walk(state):
        mode = stat.S_IMODE(os.stat(folder).st_mode)
        assert mode == 0o700, f"{folder} is {oct(mode)}"
        for name in names:
            path = Path(folder) / name
            mode = stat.S_IMODE(os.stat(path).st_mode)
            assert mode == 0o600, f"{path} is {oct(mode)}"
            files.append(path)
    return files


def _session(server, resume, monkeypatch, **kw) -> ChatSession:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    settings = load_settings(model="openai/test-model", api_base=server.url, max_retries=0)
    client = LiteLLMGateway(settings, policy=RetryPolicy(max_retries=0, sleep=lambda s: None))
    return build_session(client=client, doc=ResumeDocument.from_path(resume), **kw)


def test_keys_pasted_in_messages_or_echoed_by_the_model_never_reach_history_or_undo_log(
    server, resume, monkeypatch, isolated_home
):
    session = _session(server, resume, monkeypatch, auto_apply=True)
    bullet = next(
        line for line in resume.read_text(encoding="utf-8").splitlines() if line.startswith("- ")
    )
    server.enqueue(Reply(text=f"Noted your key {OTHER_KEY}; do not paste {FAKE_KEY} in chats."))
    list(session.ask(f"my OpenAI key is {FAKE_KEY} and my old one is {OTHER_KEY}"))
    server.enqueue(
        tool_calls(
            (
                "edit_resume",
                {
                    "old_text": bullet,
                    "new_text": bullet + " together with the team",
                    "reason": "as asked",
                },
            )
        ),
        Reply(text="Applied."),
    )
    list(
        session.ask(
            f"curl -H 'Authorization: Bearer {BEARER}' failed; anyway, polish my first bullet"
        )
    )
    session.close()
    assert "together with the team" in resume.read_text(
        encoding="utf-8"
    )  # the undo log has an entry
    # the model did get the messages (keys included) — they are not stored anywhere
    files = _assert_private(isolated_home)
    names = {p.name for p in files}
    assert {"history.json", "undo.json"} <= names, names
    for path in files:
        _assert_no_secret(path.read_text(encoding="utf-8", errors="replace"), str(path))
    stored = json.loads(paths.session_files(resume).history.read_text(encoding="utf-8"))
    assert "[REDACTED]" in json.dumps(stored, ensure_ascii=False)


@pytest.mark.parametrize(
    "reply",
    [
        status(401),  # the server echoes a masked key, as OpenAI does
        status(500, message=f"upstream rejected the request: Authorization: Bearer {BEARER}"),
        status(503, message=f"proxy error for key {FAKE_KEY} (x-api-key={OTHER_KEY})"),
        status(400, message=f"Invalid 'messages': invalid api_key {FAKE_KEY}"),
    ],
    ids=["401_masked_key", "500_bearer_header", "503_raw_keys", "400_raw_key"],
)
def test_error_messages_never_contain_keys_or_bearer_tokens(
    reply, server, resume, monkeypatch, isolated_home
):
    session = _session(server, resume, monkeypatch)
    server.enqueue(reply)
    events = list(session.ask("hello"))
    errors = [e for e in events if isinstance(e, ev.ErrorEvent)]
    assert errors
    for error in errors:
        _assert_no_secret(f"{error.message} {error.hint}", "the error message")
    session.close()
    for path in _assert_private(isolated_home):
        _assert_no_secret(path.read_text(encoding="utf-8", errors="replace"), str(path))


@pytest.mark.slow
def test_cli_401_prints_no_key_and_keeps_state_private(server, resume, isolated_home):
    server.enqueue(status(401), status(401))  # the intent classifier may ask the model first
    proc = run_cli(
        ["chat", str(resume), "-m", f"my key is {OTHER_KEY}, why does it fail?"],
        cli_env(isolated_home, server.url),
    )
    assert_no_traceback(proc)
    assert proc.returncode == 3
    for stream in (proc.stdout, proc.stderr):
        _assert_no_secret(stream.decode("utf-8", "replace"), "the CLI output")
    assert "OPENAI_API_KEY" in proc.stderr.decode()
    # the request did carry the key to the server (so the check above is meaningful)
    assert server.request_headers[0].get("authorization") == f"Bearer {FAKE_KEY}"
    files = _assert_private(isolated_home)
    assert any(p.name == "history.json" for p in files)
    for path in files:
        _assert_no_secret(path.read_text(encoding="utf-8", errors="replace"), str(path))
    for path in resume.parent.iterdir():  # anything else next to the resume
        if path != resume and path.is_file():
            _assert_no_secret(path.read_text(encoding="utf-8", errors="replace"), str(path))


def test_repl_input_history_never_stores_a_pasted_key(tmp_path, monkeypatch):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    history = paths.session_dir(tmp_path / "resume.md") / "input_history"
    with create_pipe_input() as pipe:
        chat_io = ChatIO(input=pipe, pt_output=DummyOutput(), history_file=history)
        pipe.send_text(f"my key is {FAKE_KEY} and {OTHER_KEY}\r")
        assert chat_io.prompt("> ").startswith("my key is")
    assert stat.S_IMODE(os.stat(history).st_mode) == 0o600
    _assert_no_secret(history.read_text(encoding="utf-8"), "input_history")


def test_undo_log_never_stores_a_key_echoed_into_an_edit_reason(resume, isolated_home, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    bullet = next(
        line for line in resume.read_text(encoding="utf-8").splitlines() if line.startswith("- ")
    )
    reason = f"as asked after 'Authorization: Bearer {BEARER}' and {OTHER_KEY} failed"
    model = ScriptedModel(
        tool(
            "edit_resume",
            old_text=bullet,
            new_text=bullet + " together with the team",
            reason=reason,
        ),
        Scripted(text="Done."),
    )
    session = build_session(
        client=model,
        doc=ResumeDocument.from_path(resume),
        auto_apply=True,
    )
    list(session.ask("polish my first bullet", lambda edit: ev.Decision(ev.Action.APPLY)))
    session.close()
    assert "together with the team" in resume.read_text(encoding="utf-8")
    for path in _assert_private(isolated_home):
        _assert_no_secret(path.read_text(encoding="utf-8", errors="replace"), str(path))


def test_an_edit_that_would_write_a_key_into_the_resume_is_never_auto_applied(
    resume, isolated_home, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    before = resume.read_bytes()
    line = "- **Languages:** Go, Python, C++, SQL, Bash"
    model = ScriptedModel(
        tool(
            "edit_resume",
            old_text=line,
            new_text=f"{line}\n- API key: {FAKE_KEY}",
            reason="as requested",
        ),
        Scripted(text="Done."),
    )
    session = build_session(
        client=model,
        doc=ResumeDocument.from_path(resume),
        auto_apply=True,
    )
    chat_io = ChatIO(output=Console(file=io.StringIO()), interactive=False)
    list(session.ask(f"here is my key {FAKE_KEY}, add it under Skills", chat_io.confirm_edit))
    session.close()
    assert resume.read_bytes() == before
    for path in _assert_private(isolated_home):
        _assert_no_secret(path.read_text(encoding="utf-8", errors="replace"), str(path))
