"""Prompt-cache hints (Anthropic only) and cached-token accounting, through real litellm
and the loopback server, so the request bodies are the ones a provider would get."""

from __future__ import annotations

import pytest

from cvagent_cli.llm.caching import breakpoints, cached_prompt_tokens, with_cache_control
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.llm.types import ModelResponse, Usage
from cvagent_cli.settings import Settings
from tests.support.openai_server import LoopbackServer, Reply

pytestmark = [
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"),
]

MESSAGES = [
    {"role": "system", "content": "rules and resume outline " * 40},
    {"role": "user", "content": "an earlier question"},
    {"role": "assistant", "content": "an earlier answer"},
    {"role": "user", "content": "fix it\n\n<turn_context>\nintent EDIT\n</turn_context>"},
]


@pytest.fixture
def server():
    with LoopbackServer() as srv:
        yield srv


def final(gateway: LiteLLMGateway, messages=MESSAGES) -> ModelResponse:
    events = list(gateway.stream(messages, None))
    assert isinstance(events[-1], ModelResponse)
    return events[-1]


def test_breakpoints_mark_system_history_end_and_the_turn():
    assert breakpoints(MESSAGES) == [0, 2, 3]
    marked = with_cache_control(MESSAGES)
    assert marked[1] is MESSAGES[1]  # unmarked messages are untouched
    assert marked[0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert marked[3]["content"][0]["text"] == MESSAGES[3]["content"]
    tool_turn = [
        *MESSAGES,
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]},
        {"role": "tool", "tool_call_id": "c", "content": "result"},
    ]
    assert breakpoints(tool_turn) == [0, 2, 3]  # never a tool result or an empty message
    assert len(breakpoints([{"role": "user", "content": "hi"}])) == 1


def test_openai_requests_carry_no_cache_hints_and_cached_tokens_are_counted(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-test-key-000000")
    gateway = LiteLLMGateway(Settings(model="openai/gpt-4o-mini", api_base=server.url))
    server.enqueue(Reply(text="fixed", usage=(1000, 10), cached=800))
    response = final(gateway)
    assert "cache_control" not in str(server.requests[-1])  # a strict API rejects it
    assert response.usage.prompt_tokens == 1000 and response.usage.cached_tokens == 800
    uncached = LiteLLMGateway._cost(load(), "openai/gpt-4o-mini", "openai", 1000, 10)
    assert response.usage.cost_usd is not None and uncached is not None
    assert response.usage.cost_usd < uncached  # 800 tokens at the cache price
    assert gateway.session_usage.cached_tokens == 800


def test_anthropic_requests_carry_cache_control_breakpoints(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-loopback-test-000000")
    gateway = LiteLLMGateway(
        Settings(model="anthropic/claude-3-5-haiku-20241022", api_base=server.url)
    )
    server.enqueue(Reply(text="fixed", usage=(1200, 5), cached=1000))
    response = final(gateway)
    (body,) = server.anthropic_requests
    system = body["system"]
    assert system[-1]["cache_control"] == {"type": "ephemeral"}
    marked = [m for m in body["messages"] if "cache_control" in str(m)]
    assert len(marked) == 2  # the end of the history and the current turn
    assert "fix it" in str(body["messages"][-1]) and "cache_control" in str(body["messages"][-1])
    assert response.content == "fixed"
    assert response.usage.cached_tokens == 1000


def test_cached_tokens_are_read_from_either_shape_and_add_up():
    assert cached_prompt_tokens({"prompt_tokens_details": {"cached_tokens": 7}}) == 7
    assert cached_prompt_tokens({"cache_read_input_tokens": 5}) == 5
    assert cached_prompt_tokens({"prompt_tokens": 3}) == 0
    assert cached_prompt_tokens(None) == 0
    total = Usage(100, 5, None, 60) + Usage(50, 5, 0.01, 40)
    assert total.cached_tokens == 100 and total.prompt_tokens == 150


def load():
    from cvagent_cli.llm.loader import load_litellm

    return load_litellm()
