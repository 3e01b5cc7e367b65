"""The guard against a litellm upgrade that breaks tool calling.

litellm 1.92.0-1.92.2 broke every ``completion(..., tools=...)`` with "No module named
'fastapi'" and 1.106.0-1.108.3 with "No module named 'mcp'": the SDK path reached for
optional proxy/MCP packages.  ``mock_response`` cannot stream tool calls, so these tests
send real streamed requests through real litellm to the strict loopback server (which
also answers 400 to any top-level parameter the real API does not know).  If one fails
after an upgrade, the upgrade is what broke, not the test.  CI runs this module against
the lowest litellm of the range in pyproject.toml and the newest that installs there.
"""

from __future__ import annotations

import json

import pytest

from cvagent_cli.errors import ModelError
from cvagent_cli.llm.gateway import DUMMY_API_KEY, LiteLLMGateway, load_litellm
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.llm.types import ModelResponse, TextDelta, ThinkingDelta
from cvagent_cli.settings import Settings
from tests.support.openai_server import (
    ORPHAN_TOOL_MESSAGE,
    LoopbackServer,
    Reply,
    tool_calls,
)


@pytest.fixture
def loopback_server():
    """A fresh scripted server per test (queues and request logs never leak)."""
    with LoopbackServer() as srv:
        yield srv


# litellm's own pydantic noise (its logging thread and delta handling), not ours
pytestmark = [
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"),
]

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_resume",
            "description": "Read one section of the resume.",
            "parameters": {
                "type": "object",
                "properties": {"section": {"type": "string"}},
                "required": ["section"],
            },
        },
    }
]
ARGS = {"section": "Work Experience", "include_bullets": True, "note": "naïve — ünïcode"}


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def gateway(loopback_server: LoopbackServer, sleeps, monkeypatch) -> LiteLLMGateway:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-test-key-000000")
    return LiteLLMGateway(
        Settings(model="openai/gpt-4o-mini", api_base=loopback_server.url, timeout=10),
        RetryPolicy(max_retries=3, sleep=sleeps.append, rng=lambda: 0.5),
    )


def run(gateway: LiteLLMGateway, messages, tools=None, **kw):
    events = list(gateway.stream(messages, tools, **kw))
    final = events[-1]
    assert isinstance(final, ModelResponse)
    assert not any(isinstance(e, ModelResponse) for e in events[:-1])
    return events[:-1], final


def litellm_requirement() -> str:
    """The litellm requirement exactly as pyproject.toml declares it."""
    import re
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    # a plain search: tomllib is 3.11+ and the project supports 3.10
    (req,) = re.findall(r'^\s*"(litellm[<>=!~ ].*?)",', pyproject.read_text("utf-8"), re.M)
    return req


def test_installed_litellm_is_inside_the_declared_range():
    """Everything below ran against the installed litellm: it must be one the range allows
    (CI installs the lowest of the range for a second run of this module)."""
    from importlib.metadata import version

    from packaging.requirements import Requirement

    req = Requirement(litellm_requirement())
    installed = version("litellm")
    assert req.specifier.contains(installed, prereleases=True), (
        f"litellm {installed} is outside {req}: re-run this module before changing the range"
    )


@pytest.mark.parametrize(
    "known_broken",
    [
        "1.80.17",  # the old pin: behind the proxy advisories fixed in 1.84.0
        "1.82.7",  # 1.82.7/1.82.8: the malicious uploads (deleted from PyPI)
        "1.82.8",
        "1.92.0",  # 1.92.0-1.92.2: every tools= call fails with "No module named 'fastapi'"
        "1.92.1",
        "1.92.2",
        "1.106.0",  # 1.106.0-1.108.3: the same with 'mcp' (fixed upstream in 1.108.4)
        "1.106.2",
        "1.106.10",
        "1.108.0",
        "1.108.3",
    ],
)
def test_declared_range_excludes_the_known_broken_releases(known_broken):
    """The gateway's ``_skip_mcp_handler`` gets round the 'fastapi'/'mcp' breakages too
    (see the guard test below), but a private kwarg is no reason to allow them."""
    from packaging.requirements import Requirement

    spec = Requirement(litellm_requirement()).specifier
    assert not spec.contains(known_broken)
    assert spec.contains("1.108.4") and spec.contains("1.105.3")  # their neighbours stay
    assert spec.contains("1.110.2")  # the newest release tested (2026-11-25)


def test_raw_litellm_streams_tool_calls(loopback_server):
    """litellm itself, without our gateway: tools in, fragments out."""
    litellm = load_litellm()
    loopback_server.enqueue(tool_calls(("read_resume", ARGS)))
    stream = litellm.completion(
        model="openai/gpt-4o-mini",
        api_base=loopback_server.url,
        api_key="sk-test-000000",
        messages=[{"role": "user", "content": "read it"}],
        tools=TOOLS,
        stream=True,
        num_retries=0,
        # deliberately without the gateway's _skip_mcp_handler: every release the range
        # allows must stream tool calls on litellm's plain path
    )
    pieces: dict[int, str] = {}
    names = set()
    for chunk in stream:
        for tc in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
            pieces[tc.index] = pieces.get(tc.index, "") + (tc.function.arguments or "")
            if tc.function.name:
                names.add(tc.function.name)
    assert names == {"read_resume"}
    assert json.loads(pieces[0]) == ARGS
    assert loopback_server.requests[0]["tools"] == TOOLS


def test_streamed_tool_call_is_assembled_from_fragments(gateway, loopback_server):
    loopback_server.enqueue(
        tool_calls(
            ("read_resume", ARGS),
            ("read_resume", {"section": "Skills"}),
            content="Let me read that.",
        )
    )
    deltas, final = run(gateway, [{"role": "user", "content": "improve my resume"}], TOOLS)
    assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == "Let me read that."
    assert final.content == "Let me read that."
    assert [c.name for c in final.tool_calls] == ["read_resume", "read_resume"]
    assert json.loads(final.tool_calls[0].arguments) == ARGS
    assert json.loads(final.tool_calls[1].arguments) == {"section": "Skills"}
    assert len({c.id for c in final.tool_calls}) == 2
    assert final.finish_reason == "tool_calls"
    sent = loopback_server.requests[0]
    assert sent["tools"] == TOOLS and sent["stream"] is True
    assert sent["stream_options"] == {"include_usage": True}


def test_streamed_text_with_usage(gateway, loopback_server):
    loopback_server.enqueue(Reply(text="Your summary is strong; quantify the impact."))
    deltas, final = run(gateway, [{"role": "user", "content": "review"}])
    assert len(deltas) > 1 and all(isinstance(d, TextDelta) for d in deltas)
    assert final.content == "Your summary is strong; quantify the impact."
    assert final.tool_calls == [] and final.finish_reason == "stop"
    assert final.usage.prompt_tokens > 0 and final.usage.completion_tokens > 0
    assert gateway.last_usage == final.usage


def test_reasoning_content_becomes_thinking_deltas(gateway, loopback_server):
    loopback_server.enqueue(Reply(text="Answer.", reasoning="The user wants brevity."))
    deltas, final = run(gateway, [{"role": "user", "content": "q"}])
    assert (
        "".join(d.text for d in deltas if isinstance(d, ThinkingDelta)) == "The user wants brevity."
    )
    assert final.content == "Answer."  # thinking never leaks into the answer


def test_tool_result_round_trip_is_accepted_by_the_strict_server(gateway, loopback_server):
    loopback_server.enqueue(tool_calls(("read_resume", {"section": "Skills"})), "Done.")
    messages = [{"role": "user", "content": "check skills"}]
    _, first = run(gateway, messages, TOOLS)
    call = first.tool_calls[0]
    messages += [
        {
            "role": "assistant",
            "content": first.content or None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call.id, "content": "Python, SQL"},
    ]
    _, second = run(gateway, messages, TOOLS)
    assert second.content == "Done."
    sent = loopback_server.requests[1]["messages"]
    assert sent[1]["tool_calls"][0]["id"] == call.id and sent[2]["tool_call_id"] == call.id
    assert (
        gateway.session_usage.prompt_tokens
        == first.usage.prompt_tokens + second.usage.prompt_tokens
    )


def test_orphan_tool_message_is_rejected_and_not_retried(gateway, loopback_server, sleeps):
    with pytest.raises(ModelError) as info:
        run(
            gateway,
            [
                {"role": "user", "content": "hi"},
                {"role": "tool", "tool_call_id": "call_x", "content": "stray"},
            ],
            TOOLS,
        )
    assert not info.value.retryable
    assert ORPHAN_TOOL_MESSAGE in info.value.message
    assert len(loopback_server.requests) == 1 and sleeps == []


def test_bare_model_with_api_base_goes_to_openai_compatible_server(loopback_server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    gw = LiteLLMGateway(Settings(model="llama3.1:8b", api_base=loopback_server.url))
    _, final = run(gw, [{"role": "user", "content": "hi"}], temperature=0.3)
    assert final.content == "OK" and final.model == "llama3.1:8b"
    assert final.usage.cost_usd is None  # not in litellm's price list
    assert loopback_server.requests[0]["model"] == "llama3.1:8b"
    assert loopback_server.requests[0]["temperature"] == 0.3
    assert loopback_server.request_headers[0]["authorization"] == f"Bearer {DUMMY_API_KEY}"


def test_settings_temperature_is_sent_and_call_argument_wins(loopback_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-test-key-000000")
    gw = LiteLLMGateway(Settings(model="my-model", api_base=loopback_server.url, temperature=0.7))
    run(gw, [{"role": "user", "content": "a"}])
    run(gw, [{"role": "user", "content": "b"}], temperature=0.1)
    assert [r["temperature"] for r in loopback_server.requests] == [0.7, 0.1]
    # a real OPENAI_API_KEY is what litellm sends, also to a custom api_base
    assert (
        loopback_server.request_headers[0]["authorization"] == "Bearer sk-loopback-test-key-000000"
    )


FRESH_PROCESS_SCRIPT = r"""
import json, os, socket, sys
attempts = []
real_getaddrinfo = socket.getaddrinfo

def guarded(host, *args, **kwargs):
    if host not in ("127.0.0.1", "localhost", "::1"):
        attempts.append(host)
        raise OSError("network disabled in this test: " + str(host))
    return real_getaddrinfo(host, *args, **kwargs)

socket.getaddrinfo = guarded
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.settings import Settings
from tests.support.openai_server import LoopbackServer, tool_calls

tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object",
         "properties": {}}}}]
with LoopbackServer() as srv:
    srv.enqueue(tool_calls(("f", {"a": 1})))
    gw = LiteLLMGateway(Settings(model="deepseek/deepseek-chat", api_base=srv.url))
    final = list(gw.stream([{"role": "user", "content": "hi"}], tools))[-1]
    llama = LiteLLMGateway(Settings(model="groq/llama-3.3-70b-versatile"))
    counted = llama.count_tokens([{"role": "user", "content": "hello there"}])
print(json.dumps({"attempts": attempts, "args": final.tool_calls[0].arguments,
                  "counted": counted}))
"""


@pytest.mark.slow
def test_fresh_process_makes_no_network_attempts(tmp_path):
    """Order-dependent litellm traps only show in a fresh process: the deepseek provider
    loading tiktoken's cl100k_base before litellm points TIKTOKEN_CACHE_DIR at its bundled
    copy, and token_counter fetching a Hugging Face tokenizer for llama-3 names."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TIKTOKEN_CACHE_DIR", "CUSTOM_TIKTOKEN_CACHE_DIR", "HF_HUB_OFFLINE")
    }
    env.update(
        PYTHONPATH=str(root),
        DEEPSEEK_API_KEY="sk-deepseek-test-000000",
        HOME=str(tmp_path),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        PYTHONWARNINGS="ignore",
    )
    proc = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS_SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["attempts"] == []
    assert json.loads(result["args"]) == {"a": 1} and result["counted"] > 0
    assert "Retrying" not in proc.stderr and "huggingface" not in proc.stderr


BLOCKED_MODULES = (
    # litellm's optional proxy / MCP dependencies (its [proxy] extra and friends): a plain
    # SDK call must never need them.  None in sys.modules makes ``import`` fail at once,
    # even where the package happens to be installed.  (litellm's own litellm.proxy.*
    # modules ship in its wheel and some are imported by ``import litellm`` itself.)
    "mcp",
    "fastapi",
    "starlette",
    "uvicorn",
    "gunicorn",
    "apscheduler",
    "prisma",
    "litellm_enterprise",
    "litellm_proxy_extras",
)

BLOCKED_IMPORTS_SCRIPT = r"""
import json, sys
blocked = json.loads(sys.argv[1])
for name in blocked:
    sys.modules[name] = None
for name in blocked:  # the block itself works, or this test proves nothing
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise SystemExit("blocking " + name + " did not work")

from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.settings import Settings
from tests.support.openai_server import LoopbackServer, tool_calls

tools = [{"type": "function", "function": {"name": "read_resume", "parameters": {
    "type": "object", "properties": {"section": {"type": "string"}}}}}]
with LoopbackServer() as srv:
    srv.enqueue(tool_calls(("read_resume", {"section": "Skills"}), content="Reading."))
    gw = LiteLLMGateway(Settings(model="openai/gpt-4o-mini", api_base=srv.url, max_retries=0))
    events = list(gw.stream([{"role": "user", "content": "check my skills"}], tools))
    final = events[-1]
    # litellm's plain path too, without the gateway's _skip_mcp_handler
    import litellm
    srv.enqueue(tool_calls(("read_resume", {"section": "Education"})))
    raw = ""
    for chunk in litellm.completion(model="openai/gpt-4o-mini", api_base=srv.url,
                                    messages=[{"role": "user", "content": "and education"}],
                                    tools=tools, stream=True, num_retries=0):
        for tc in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
            raw += tc.function.arguments or ""
    print(json.dumps({
        "calls": [[c.name, c.arguments] for c in final.tool_calls],
        "content": final.content,
        "raw_args": raw,
        "body_keys": sorted(srv.requests[0]),
        "requests": len(srv.requests),
        "still_blocked": [n for n in blocked if sys.modules.get(n, 0) is None],
    }))
"""


@pytest.mark.slow
def test_streamed_tool_call_works_without_litellms_proxy_and_mcp_modules(tmp_path):
    """The guard for the 1.92 ('fastapi') and 1.106 ('mcp') breakages, in a fresh process
    so that nothing imported by earlier tests hides the failure: through the gateway and
    through litellm's plain path (no ``_skip_mcp_handler``), which every release the
    range allows must pass."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(root),
        OPENAI_API_KEY="sk-loopback-test-key-000000",
        HOME=str(tmp_path),
        PYTHONWARNINGS="ignore",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
    )
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED_IMPORTS_SCRIPT, json.dumps(BLOCKED_MODULES)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["calls"] == [["read_resume", '{"section": "Skills"}']]
    assert result["content"] == "Reading."
    assert json.loads(result["raw_args"]) == {"section": "Education"}
    assert result["requests"] == 2  # the strict server accepted both requests at once
    # the body holds only what the real API knows (no leaked _skip_mcp_handler)
    assert "_skip_mcp_handler" not in result["body_keys"]
    assert {"model", "messages", "tools", "stream"} <= set(result["body_keys"])
    assert result["still_blocked"] == list(BLOCKED_MODULES)
