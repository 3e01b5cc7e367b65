"""``cvagent doctor`` against the loopback servers: what each check says, and the exit code."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cvagent_cli.cli.app import app
from cvagent_cli.llm.doctor import PING_TOOL, run_checks
from cvagent_cli.settings import Settings
from tests.support.dialects import LlamaCppNoJinja
from tests.support.openai_server import LoopbackServer, Reply

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*")
runner = CliRunner()


def statuses(report) -> dict[str, str]:
    return {c.name: c.status for c in report.checks}


def test_a_ready_model_passes_every_check_with_two_tiny_requests(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-0000000000")
    with LoopbackServer() as srv:
        srv.enqueue(Reply(text="1 2 3 4 5"), Reply(tool_calls=[("ping", {})]))
        report = run_checks(Settings(model="openai/gpt-4o-mini", api_base=srv.url))
    assert set(statuses(report).values()) == {"ok"}, report.checks
    assert len(srv.requests) == 2
    assert all(r["max_tokens"] == 32 for r in srv.requests)
    assert srv.requests[1]["tools"] == [PING_TOOL]
    assert report.usage.prompt_tokens > 0 and not report.failed


def test_a_server_without_tool_calling_fails_with_its_fix_and_exit_3(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-0000000000")
    with LoopbackServer(dialect=LlamaCppNoJinja()) as srv:
        srv.enqueue(Reply(text="1 2 3 4 5"))
        result = runner.invoke(app, ["doctor", "-M", "openai/local", "--api-base", srv.url])
    assert result.exit_code == 3, result.output
    line = next(x for x in result.output.splitlines() if "tool calling" in x)
    assert line.split()[0] == "FAIL"
    assert "restart llama-server with the --jinja flag" in result.output
    assert "unknown (not in litellm's model list)" in result.output


def test_a_model_that_answers_in_words_instead_of_calling_fails_the_tool_check(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-0000000000")
    with LoopbackServer() as srv:
        srv.enqueue(Reply(text="1 2 3 4 5"), Reply(text="Pong! The tool is ready."))
        report = run_checks(Settings(model="openai/gpt-4o-mini", api_base=srv.url))
    tool = next(c for c in report.checks if c.name == "tool calling")
    assert tool.status == "fail" and "answered in words" in tool.detail
    assert "--jinja" in tool.fix


def test_a_missing_key_fails_before_any_request(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    report = run_checks(Settings(model="anthropic/claude-3-5-haiku-latest"))
    assert statuses(report)["API key"] == "fail"
    assert statuses(report)["answer"] == "skip"
    assert report.usage.prompt_tokens == 0


def test_no_model_is_one_line_and_exit_3():
    result = runner.invoke(app, ["doctor"])
    assert result.exit_code == 3
    assert "no model configured" in result.output


def test_the_chat_notes_a_model_litellm_does_not_list_once(monkeypatch, tmp_path):
    from cvagent_cli.llm.doctor import first_use_note
    from cvagent_cli.llm.gateway import LiteLLMGateway

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-1234567890")
    seen = tmp_path / "state" / "models_seen.json"
    unknown = LiteLLMGateway(Settings(model="openai/cvagent-unlisted-model-7"))
    note = first_use_note(unknown, seen)
    assert note is not None and "not in litellm's model list" in note
    assert "`cvagent doctor`" in note
    assert first_use_note(unknown, seen) is None  # said once per model
    listed = LiteLLMGateway(Settings(model="openai/gpt-4o-mini"))
    assert first_use_note(listed, seen) is None  # price and window known: nothing to say
    assert seen.stat().st_mode & 0o777 == 0o600


def test_chat_start_says_it_for_hosted_models_only(monkeypatch, isolated_home):
    from cvagent_cli.cli.chat_runner import first_use_note, make_client

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-1234567890")
    hosted = Settings(model="openai/cvagent-unlisted-model-8")
    assert "first chat with openai/cvagent-unlisted-model-8" in (
        first_use_note(hosted, make_client(hosted)) or ""
    )
    local = Settings(model="openai/cvagent-unlisted-model-9", api_base="http://127.0.0.1:9/v1")
    assert first_use_note(local, make_client(local)) is None
    assert (isolated_home / "state" / "models_seen.json").exists()
