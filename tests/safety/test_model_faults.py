"""Model and network faults, driven through the strict loopback server.

In-process: a ChatSession over real litellm (``LiteLLMGateway``) with a RetryPolicy whose
``sleep`` only records.  After EVERY fault the session is still usable: Memory is a valid
message sequence, history.json is valid, and the next request is accepted by the strict
server and answered.  A few faults also go through ``cvagent chat -m`` in a subprocess for
the exit code (3) and the message.
"""

from __future__ import annotations

import json
import re
import socket

import pytest

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.compose import build_session
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.paths import session_files
from cvagent_cli.settings import load_settings
from tests.safety.helpers import FAKE_KEY, assert_no_traceback, cli_env, run_cli, write_config
from tests.support.openai_server import (
    LoopbackServer,
    Reply,
    context_window,
    cut_stream,
    delay,
    drop_connection,
    malformed_tool_args,
    status,
    tool_calls,
)
from tests.support.wire import validate_sequence


class Harness:
    """A ChatSession over litellm + loopback, recording the back-off sleeps."""

    def __init__(
        self, url: str, resume, monkeypatch, *, max_retries: int = 2, timeout: float = 30
    ) -> None:
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        self.sleeps: list[float] = []
        policy = RetryPolicy(max_retries=max_retries, sleep=self.sleeps.append, rng=lambda: 0.5)
        settings = load_settings(
            model="openai/test-model", api_base=url, timeout=timeout, max_retries=max_retries
        )
        self.client = LiteLLMGateway(settings, policy=policy)
        self.resume = resume
        self.session = build_session(client=self.client, doc=ResumeDocument.from_path(resume))

    def ask(self, text: str, approve=None) -> list:
        return list(self.session.ask(text, approve))  # never raises: the session survives

    def assert_healthy(self) -> None:
        wire = self.session.agent.memory.to_wire()
        assert validate_sequence(wire) == [], wire
        stored = json.loads(session_files(self.resume).history.read_text(encoding="utf-8"))
        assert validate_sequence(stored["messages"]) == []

    def assert_next_request_succeeds(self, server: LoopbackServer) -> None:
        self.assert_healthy()
        before = len(server.requests)
        server.enqueue(Reply(text="Next answer."))
        events = self.ask("and what about my skills section?")
        done = events[-1]
        assert (
            isinstance(done, ev.Done)
            and done.reason == "text"
            and done.final_text == "Next answer."
        ), events
        assert len(server.requests) == before + 1  # one request, accepted by the strict server
        self.assert_healthy()


def _error(events: list) -> ev.ErrorEvent:
    errors = [e for e in events if isinstance(e, ev.ErrorEvent)]
    assert errors, events
    assert isinstance(events[-1], ev.Done)
    return errors[-1]


def _text(error: ev.ErrorEvent) -> str:
    return f"{error.message} {error.hint or ''}"


# ----------------------------------------------------------------------------- HTTP errors


def test_401_names_the_key_variable_and_session_survives(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    server.enqueue(status(401))
    error = _error(h.ask("shorten my summary"))
    assert "authentication failed" in error.message
    assert "OPENAI_API_KEY" in _text(error)
    assert FAKE_KEY not in _text(error) and FAKE_KEY[-8:] not in _text(error)
    assert h.sleeps == []  # never retried
    h.assert_next_request_succeeds(server)


def test_429_backs_off_honouring_retry_after_then_succeeds(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    server.enqueue(
        status(429, retry_after=2), status(429, retry_after=1), Reply(text="Here you go.")
    )
    events = h.ask("hello there")
    assert events[-1].final_text == "Here you go."
    assert h.sleeps == [2.0, 1.0]
    h.assert_next_request_succeeds(server)


def test_429_that_persists_gives_a_clear_message_after_backing_off(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch, max_retries=2)
    server.enqueue(status(429), status(429), status(429))
    error = _error(h.ask("hello there"))
    assert "rate limited" in error.message and "gave up after 2 retries" in error.message
    assert len(h.sleeps) == 2 and h.sleeps[0] < h.sleeps[1]  # exponential back-off
    h.assert_next_request_succeeds(server)


@pytest.mark.parametrize("code", [500, 503])
def test_5xx_is_retried_then_reported_and_session_survives(code, server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch, max_retries=1)
    server.enqueue(status(code), Reply(text="Recovered."))
    assert h.ask("hello there")[-1].final_text == "Recovered."  # one retry was enough
    server.enqueue(status(code), status(code))
    error = _error(h.ask("hello again"))
    assert f"HTTP {code}" in error.message and "gave up after 1 retry" in error.message
    h.assert_next_request_succeeds(server)


def test_timeout_is_reported_with_the_limit_and_session_survives(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch, max_retries=0, timeout=0.5)
    server.enqueue(delay(5, Reply(text="too late")))
    error = _error(h.ask("hello there"))
    assert "did not answer within 0.5 s" in error.message
    h.client.settings = h.client.settings.model_copy(update={"timeout": 30})  # a busy CI machine
    h.assert_next_request_succeeds(server)


def test_connection_refused_asks_whether_the_server_is_running(resume, monkeypatch):
    with socket.socket() as sock:  # a port nobody listens on (yet)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    h = Harness(url, resume, monkeypatch, max_retries=2)
    error = _error(h.ask("hello there"))
    assert "is it running" in error.message and url in error.message
    assert len(h.sleeps) == 2  # retried, then gave up
    with LoopbackServer(port=port) as late:  # the user starts the server: the next try works
        h.assert_next_request_succeeds(late)


def test_dropped_connection_is_reported_and_session_survives(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch, max_retries=0)
    server.enqueue(drop_connection())
    error = _error(h.ask("hello there"))
    assert "connection" in error.message
    h.assert_next_request_succeeds(server)


# ----------------------------------------------------------------------------- broken answers


def test_stream_cut_mid_answer_is_reported_and_memory_stays_valid(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    server.enqueue(cut_stream(after_chunks=4, text="This answer will be cut off halfway through"))
    events = h.ask("hello there")
    error = _error(events)
    assert "cut off mid-stream" in error.message
    assert any(isinstance(e, ev.TextDelta) for e in events)  # part of it was shown
    assert h.sleeps == []  # text was already shown: not silently retried
    h.assert_next_request_succeeds(server)


def test_stream_cut_before_any_text_is_retried(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    server.enqueue(cut_stream(after_chunks=0), Reply(text="Second try."))
    assert h.ask("hello there")[-1].final_text == "Second try."
    assert len(h.sleeps) == 1
    h.assert_next_request_succeeds(server)


def _tool_results(events: list) -> list[ev.ToolResultEvent]:
    return [e for e in events if isinstance(e, ev.ToolResultEvent)]


def test_malformed_tool_call_json_becomes_an_error_the_model_can_read(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    server.enqueue(malformed_tool_args("read_resume"), Reply(text="Sorry, fixed."))
    events = h.ask("show me my skills section")
    (result,) = _tool_results(events)
    assert not result.ok and "not valid JSON" in result.content
    assert events[-1].final_text == "Sorry, fixed."
    # the follow-up request carried the error as the tool's answer and was accepted
    tool_message = [m for m in server.requests[-1]["messages"] if m["role"] == "tool"][-1]
    assert "not valid JSON" in tool_message["content"]
    h.assert_next_request_succeeds(server)


def test_unknown_tool_name_is_refused_and_nothing_runs(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    before = resume.read_bytes()
    server.enqueue(
        tool_calls(("delete_file", {"path": str(resume)}), ("run_shell", {"cmd": "rm -rf ~"})),
        Reply(text="I cannot do that."),
    )
    events = h.ask("clean up my files")
    results = _tool_results(events)
    assert len(results) == 2 and all(not r.ok and "unknown tool" in r.content for r in results)
    assert resume.read_bytes() == before
    h.assert_next_request_succeeds(server)


@pytest.mark.parametrize(
    "arguments",
    [
        {"old_text": 42, "new_text": "x"},  # wrong type
        {"new_text": "only half an edit"},  # missing field
        {"old_text": "Go", "new_text": "Rust", "path": "/etc/passwd"},  # extra field (a path!)
        ["not", "an", "object"],
    ],
    ids=["wrong_type", "missing_field", "extra_path_field", "not_an_object"],
)
def test_arguments_failing_validation_are_refused(arguments, server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    before = resume.read_bytes()
    server.enqueue(tool_calls(("edit_resume", arguments)), Reply(text="Let me retry."))
    events = h.ask("edit my summary", lambda edit: ev.Decision(ev.Action.APPLY))
    (result,) = _tool_results(events)
    assert not result.ok and (
        "invalid arguments" in result.content or "JSON object" in result.content
    ), result.content
    assert not any(isinstance(e, ev.ProposedEdit) for e in events)
    assert resume.read_bytes() == before
    h.assert_next_request_succeeds(server)


def test_same_tool_call_repeated_forever_is_stopped(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    server.enqueue(*[tool_calls(("read_resume", {"section": "Skills"})) for _ in range(30)])
    events = h.ask("look at my skills section")
    done = events[-1]
    assert done.reason == "stuck" and done.steps < h.session.agent.max_steps, done
    assert any(
        isinstance(e, ev.ErrorEvent) and "repeating the same tool call" in e.message for e in events
    )
    # the hint reached the model once before the stop
    assert any(
        "repeated exactly the same tool call" in json.dumps(body) for body in server.requests
    )
    server.clear()  # drop the unused repeats
    h.assert_next_request_succeeds(server)


def test_context_window_exceeded_drops_the_oldest_turn_and_retries(server, resume, monkeypatch):
    h = Harness(server.url, resume, monkeypatch)
    for i in range(3):
        server.enqueue(Reply(text=f"Answer {i}."))
        h.ask(f"question {i}")
    turns_before = len(h.session.agent.memory.turns())
    server.enqueue(context_window(), Reply(text="Shorter now."))
    events = h.ask("one more question")
    assert events[-1].final_text == "Shorter now."
    assert any(isinstance(e, ev.Notice) and "dropped the oldest turn" in e.text for e in events)
    assert len(h.session.agent.memory.turns()) == turns_before  # one dropped, one added
    h.assert_next_request_succeeds(server)


def test_context_window_exceeded_twice_is_reported_and_session_survives(
    server, resume, monkeypatch
):
    h = Harness(server.url, resume, monkeypatch)
    server.enqueue(Reply(text="First."))
    h.ask("question zero")
    server.enqueue(context_window(), context_window())
    error = _error(h.ask("a very long question"))
    assert "context window" in error.message
    h.assert_next_request_succeeds(server)


# ----------------------------------------------------------------------------- through the CLI


def _plain(stderr: bytes) -> str:
    """stderr with panel borders removed and wrapped lines joined."""
    text = stderr.decode("utf-8", "replace")
    text = re.sub(r"[\u2500-\u257f]", " ", text)
    return " ".join(text.split())


@pytest.mark.slow
def test_cli_401_exits_3_naming_the_key_variable(server, resume, isolated_home):
    server.enqueue(status(401))
    proc = run_cli(["chat", str(resume), "-m", "hello"], cli_env(isolated_home, server.url))
    assert_no_traceback(proc)
    assert proc.returncode == 3
    err = _plain(proc.stderr)
    assert "authentication failed" in err and "OPENAI_API_KEY" in err
    assert FAKE_KEY not in err and FAKE_KEY[-8:] not in err


@pytest.mark.slow
def test_cli_connection_refused_exits_3_asking_if_the_server_at_url_is_running(
    resume, isolated_home
):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    write_config(isolated_home, max_retries=0)
    proc = run_cli(["chat", str(resume), "-m", "hello"], cli_env(isolated_home, url))
    assert_no_traceback(proc)
    assert proc.returncode == 3
    err = _plain(proc.stderr)
    assert f"cannot reach the model server at {url}" in err and "is it running?" in err


@pytest.mark.slow
def test_cli_429_backs_off_then_exits_3_with_a_clear_message(server, resume, isolated_home):
    write_config(isolated_home, max_retries=1)
    server.enqueue(status(429, retry_after=0), status(429, retry_after=0))
    proc = run_cli(["chat", str(resume), "-m", "hello"], cli_env(isolated_home, server.url))
    assert_no_traceback(proc)
    assert proc.returncode == 3
    assert len(server.requests) == 2  # one back-off retry
    err = _plain(proc.stderr)
    assert "rate limited" in err and "gave up after 1 retry" in err


@pytest.mark.slow
def test_cli_timeout_exits_3_and_names_the_limit(server, resume, isolated_home):
    write_config(isolated_home, max_retries=0, timeout=1)
    server.enqueue(delay(8, Reply(text="too late")))
    proc = run_cli(["chat", str(resume), "-m", "hello"], cli_env(isolated_home, server.url))
    assert_no_traceback(proc)
    assert proc.returncode == 3
    assert "did not answer within 1 s" in _plain(proc.stderr)
