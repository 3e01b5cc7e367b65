"""Every failure a user can meet, through real litellm and real HTTP, must come out as the
right ``ModelError``: right class, right ``retryable``, a one-line message that says what
to do, no API key in it, and retries only where a retry is safe."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cvagent_cli.errors import ConfigError, ContextWindowError, ModelError
from cvagent_cli.llm import gateway as gateway_module
from cvagent_cli.llm.gateway import (
    LiteLLMGateway,
    ToolCallAssembler,
    load_litellm,
    preload_in_background,
    scrub_secrets,
)
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.llm.types import ModelClient, ModelResponse, Retrying, TextDelta, Usage
from cvagent_cli.settings import Settings
from tests.support.openai_server import (
    LoopbackServer,
    Reply,
    context_window,
    cut_stream,
    delay,
    drop_connection,
    malformed_tool_args,
    status,
)


@pytest.fixture
def loopback_server():
    """A fresh scripted server per test (queues and request logs never leak)."""
    with LoopbackServer() as srv:
        yield srv


pytestmark = [
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"),
]

FAKE_KEY = "sk-fake-test-key-1234567890abcdef"
USER = [{"role": "user", "content": "Please review my resume."}]
REPO_ROOT = Path(__file__).resolve().parents[2]


class FakeSleep:
    """Records the delays the policy asked for instead of sleeping."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
def sleep() -> FakeSleep:
    return FakeSleep()


@pytest.fixture
def make_gateway(loopback_server: LoopbackServer, sleep: FakeSleep, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)

    def make(model: str = "openai/gpt-4o-mini", retries: int = 3, **settings) -> LiteLLMGateway:
        settings.setdefault("api_base", loopback_server.url)
        settings.setdefault("timeout", 10)
        return LiteLLMGateway(
            Settings(model=model, **settings),
            RetryPolicy(max_retries=retries, sleep=sleep, rng=lambda: 0.5),
        )

    return make


def consume(gw: LiteLLMGateway, messages=USER, tools=None):
    seen: list = []
    try:
        seen.extend(gw.stream(messages, tools))
    except ModelError as err:
        return seen, err
    return seen, None


def error_of(gw: LiteLLMGateway) -> ModelError:
    _, err = consume(gw)
    assert err is not None, "expected a ModelError"
    assert "\n" not in err.message
    assert FAKE_KEY not in str(err) and FAKE_KEY[:12] not in str(err)
    return err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ the happy path


def test_gateway_is_a_model_client(make_gateway):
    gw = make_gateway()
    assert isinstance(gw, ModelClient) and gw.model == "openai/gpt-4o-mini"


def test_answer_ends_with_exactly_one_model_response(make_gateway, loopback_server):
    loopback_server.enqueue(Reply(text="Quantify your achievements."))
    events, err = consume(make_gateway())
    assert err is None
    assert all(isinstance(e, TextDelta) for e in events[:-1])
    final = events[-1]
    assert isinstance(final, ModelResponse) and final.content == "Quantify your achievements."
    assert final.model == "openai/gpt-4o-mini"


def test_known_model_has_a_cost_and_usage_adds_up(make_gateway, loopback_server):
    gw = make_gateway()
    loopback_server.enqueue(Reply(text="one", usage=(1000, 100)), Reply(text="two", usage=(10, 5)))
    consume(gw)
    first = gw.last_usage
    assert first == Usage(1000, 100, first.cost_usd)
    assert first.cost_usd is not None and first.cost_usd > 0
    consume(gw)
    assert gw.session_usage.prompt_tokens == 1010 and gw.session_usage.completion_tokens == 105
    assert gw.session_usage.cost_usd == pytest.approx(first.cost_usd + gw.last_usage.cost_usd)


def test_unknown_model_cost_is_none(make_gateway, loopback_server):
    gw = make_gateway(model="openai/my-private-finetune-v3")
    events, err = consume(gw)
    assert err is None and events[-1].usage.cost_usd is None
    assert events[-1].usage.prompt_tokens > 0


def test_malformed_tool_arguments_are_passed_through_raw(make_gateway, loopback_server):
    loopback_server.enqueue(malformed_tool_args("read_resume"))
    tools = [
        {
            "type": "function",
            "function": {"name": "read_resume", "parameters": {"type": "object", "properties": {}}},
        }
    ]
    events, err = consume(make_gateway(), tools=tools)
    assert err is None
    call = events[-1].tool_calls[0]
    assert call.name == "read_resume" and call.arguments == '{"section": "Skills", '


def test_abandoning_the_stream_releases_the_connection(make_gateway, loopback_server):
    gw = make_gateway()
    loopback_server.enqueue(Reply(text="a long answer " * 20), Reply(text="next"))
    stream = gw.stream(USER)
    assert isinstance(next(stream), TextDelta)
    stream.close()  # what the agent does on Ctrl-C
    events, err = consume(gw)
    assert err is None and events[-1].content == "next"


def test_a_stream_closed_early_still_counts_what_the_provider_bills(make_gateway, loopback_server):
    gw = make_gateway()
    loopback_server.enqueue(Reply(text="a long answer " * 20))
    stream = gw.stream(USER)
    shown = "".join(next(stream).text for _ in range(3))
    stream.close()  # a loop or an echo was cut off: the rest is never read
    counted = gw.session_usage
    assert counted == gw.last_usage and counted.prompt_tokens > 0  # the prompt was sent whole
    assert 0 < counted.completion_tokens <= len(shown) // 2  # what arrived, not the whole answer
    assert counted.cost_usd is not None and counted.cost_usd > 0


# ------------------------------------------------------------------ faults


def test_401_names_the_key_variable_and_is_not_retried(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(status(401))
    err = error_of(make_gateway())
    assert type(err) is ModelError and not err.retryable
    assert err.message == "authentication failed for openai/gpt-4o-mini"
    assert "OPENAI_API_KEY" in err.hint
    assert len(loopback_server.requests) == 1 and sleep.calls == []


def test_429_is_retried_honouring_retry_after(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(status(429, retry_after=2), status(429), Reply(text="finally"))
    events, err = consume(make_gateway())
    assert err is None and events[-1].content == "finally"
    assert sleep.calls == [2.0, 1.0]  # Retry-After, then backoff 0.5*2**1 (rng 0.5 = no jitter)
    assert len(loopback_server.requests) == 3


def test_each_retry_is_announced_in_the_stream(make_gateway, loopback_server, sleep):
    gw = make_gateway()
    loopback_server.enqueue(status(429, retry_after=1), status(503), "ok")
    events, err = consume(gw)
    seen = [
        (e.message.split(":")[0], e.delay, e.attempt) for e in events if isinstance(e, Retrying)
    ]
    assert err is None
    assert seen == [
        ("rate limited by the model provider (HTTP 429)", 1.0, 1),
        ("the model server had an error (HTTP 503)", 1.0, 2),
    ]
    assert sleep.calls == [1.0, 1.0]


def test_429_exhausted_gives_a_clear_message(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(*[status(429)] * 3)
    err = error_of(make_gateway(retries=2))
    assert err.retryable
    assert err.message.startswith("rate limited by the model provider")
    assert err.message.endswith("(gave up after 2 retries)")
    assert len(loopback_server.requests) == 3 and len(sleep.calls) == 2


def test_a_wait_longer_than_max_wait_is_not_made_and_says_how_long(
    make_gateway, loopback_server, sleep
):
    loopback_server.enqueue(status(429, retry_after=600))
    err = error_of(make_gateway())
    assert sleep.calls == [] and not err.retryable
    assert err.message.endswith("(the server asks to wait 600 s; cvagent waits at most 60 s)")
    assert err.hint == "ask again in 600 s"


def test_a_wait_the_server_asks_for_is_made_beyond_the_backoff_cap(
    make_gateway, loopback_server, sleep
):
    loopback_server.enqueue(status(429, retry_after=30), Reply(text="back"))
    _events, err = consume(make_gateway())
    assert err is None and sleep.calls == [30.0]


@pytest.mark.parametrize("code", [500, 503])
def test_server_errors_are_retried(make_gateway, loopback_server, sleep, code):
    loopback_server.enqueue(status(code), Reply(text="recovered"))
    events, err = consume(make_gateway())
    assert err is None and events[-1].content == "recovered"
    assert len(sleep.calls) == 1


@pytest.mark.parametrize("code", [500, 503])
def test_server_errors_exhausted(make_gateway, loopback_server, code):
    loopback_server.enqueue(status(code))
    err = error_of(make_gateway(retries=0))
    assert err.retryable and f"HTTP {code}" in err.message


def test_timeout_is_retryable(make_gateway, loopback_server):
    loopback_server.enqueue(delay(30))
    err = error_of(make_gateway(retries=0, timeout=0.3))
    assert err.retryable
    assert err.message == "the model did not answer within 0.3 s"
    assert "CVAGENT_TIMEOUT" in err.hint and "--timeout" not in err.hint  # no such flag


def test_timeout_then_success(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(delay(30), Reply(text="on time"))
    events, err = consume(make_gateway(timeout=0.3))
    assert err is None and events[-1].content == "on time" and len(sleep.calls) == 1


def test_connection_refused_says_is_it_running(make_gateway, sleep):
    url = f"http://127.0.0.1:{free_port()}/v1"
    err = error_of(make_gateway(api_base=url, retries=2))
    assert err.retryable
    assert err.message.startswith(f"cannot reach the model server at {url} — is it running?")
    assert len(sleep.calls) == 2


def test_dropped_connection_is_retried(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(drop_connection(), Reply(text="back"))
    events, err = consume(make_gateway())
    assert err is None and events[-1].content == "back" and len(sleep.calls) == 1


def test_stream_cut_after_text_is_not_retried(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(cut_stream(after_chunks=3, text="Your resume is great but"))
    events, err = consume(make_gateway())
    assert events and all(isinstance(e, TextDelta) for e in events)  # partial text was shown
    assert err is not None and not err.retryable
    assert err.message.startswith("the model's answer was cut off mid-stream: ")
    assert err.hint == "ask again to get a complete answer"
    assert len(loopback_server.requests) == 1 and sleep.calls == []


def test_stream_cut_before_any_chunk_is_retried(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(cut_stream(after_chunks=0), Reply(text="whole answer"))
    events, err = consume(make_gateway())
    assert err is None
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "whole answer"
    assert len(loopback_server.requests) == 2 and len(sleep.calls) == 1


def test_context_window_error(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(context_window())
    err = error_of(make_gateway())
    assert isinstance(err, ContextWindowError) and not err.retryable
    assert "8192 tokens" in err.message
    assert len(loopback_server.requests) == 1 and sleep.calls == []


def test_bad_request_carries_the_servers_message(make_gateway, loopback_server, sleep):
    loopback_server.enqueue(status(400, message="Invalid 'messages[0].name': too long."))
    err = error_of(make_gateway())
    assert not err.retryable and sleep.calls == []
    assert err.message == (
        "the model server rejected the request: Invalid 'messages[0].name': too long."
    )


def test_404_is_model_not_found(make_gateway, loopback_server):
    loopback_server.enqueue(status(404))
    err = error_of(make_gateway())
    assert err.message == "model not found: openai/gpt-4o-mini" and not err.retryable


def test_retry_false_makes_a_single_attempt(make_gateway, loopback_server, sleep):
    gw = make_gateway()
    loopback_server.enqueue(status(429, retry_after=1), "ok")
    with pytest.raises(ModelError, match="rate limited"):
        list(gw.stream(USER, retry=False))
    assert sleep.calls == [] and len(loopback_server.requests) == 1


def test_key_in_a_server_message_is_scrubbed(make_gateway, loopback_server):
    loopback_server.enqueue(status(400, message=f"bad key {FAKE_KEY} and sk-other-secret-999"))
    err = error_of(make_gateway())
    assert "sk-other-secret-999" not in str(err) and "[REDACTED]" in err.message


def test_model_without_tool_calling_is_reported_not_silently_stripped(
    make_gateway, loopback_server
):
    tools = [
        {
            "type": "function",
            "function": {"name": "f", "parameters": {"type": "object", "properties": {}}},
        }
    ]
    # a model litellm's table lists without tool support (o1-mini was, until 1.84 dropped it)
    model = "openai/gpt-5-search-api"
    _, err = consume(make_gateway(model=model), tools=tools)
    assert err is not None and err.message == f"{model} does not support tool calling"
    assert not err.retryable and loopback_server.requests == []


def test_unsupported_temperature_is_reported(make_gateway, loopback_server):
    err = error_of(make_gateway(model="openai/gpt-5-mini", temperature=0.3))
    assert "temperature" in err.message and "temperature" in err.hint
    assert loopback_server.requests == []


def test_usage_is_estimated_when_the_server_sends_none(make_gateway):
    gw = make_gateway()
    litellm = load_litellm()
    usage = gw._usage(
        litellm, "openai/gpt-4o-mini", "openai", USER, None, None, "a short answer", []
    )
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0


# ------------------------------------------------------------------ before any request


@pytest.mark.parametrize(
    "model, var",
    [
        ("openai/gpt-4o-mini", "OPENAI_API_KEY"),
        ("gpt-4o-mini", "OPENAI_API_KEY"),
        ("anthropic/claude-3-5-sonnet-20241022", "ANTHROPIC_API_KEY"),
        ("deepseek/deepseek-chat", "DEEPSEEK_API_KEY"),
    ],
)
def test_missing_key_is_reported_before_any_request(monkeypatch, model, var):
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DEEPSEEK_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    litellm = load_litellm()

    def no_network(**kwargs):
        raise AssertionError("a request was attempted")

    monkeypatch.setattr(litellm, "completion", no_network)
    with pytest.raises(ModelError) as info:
        list(LiteLLMGateway(Settings(model=model)).stream(USER))
    assert var in info.value.message and not info.value.retryable


def test_local_providers_need_no_key(monkeypatch):
    monkeypatch.delenv("OLLAMA_API_BASE", raising=False)
    litellm = load_litellm()
    gw = LiteLLMGateway(Settings(model="ollama_chat/llama3.1"))
    model, provider = gw._resolve(litellm)
    gw._check_environment(litellm, model, provider)  # no ModelError
    assert gw._cost(litellm, model, provider, 100, 10) is None


def test_unknown_provider_is_reported(monkeypatch):
    with pytest.raises(ModelError) as info:
        list(LiteLLMGateway(Settings(model="llama3.1")).stream(USER))
    assert "provider" in info.value.message and "ollama_chat/" in info.value.hint


def test_no_model_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        LiteLLMGateway(Settings())
    assert "--model" in info.value.hint


@pytest.mark.parametrize(
    "model, expected",
    [
        ("llama3.1:8b", "openai/llama3.1:8b"),
        ("meta-llama/Llama-3.1-8B-Instruct", "openai/meta-llama/Llama-3.1-8B-Instruct"),
        ("openai/gpt-4o-mini", "openai/gpt-4o-mini"),
        ("ollama_chat/llama3.1", "ollama_chat/llama3.1"),
        ("anthropic/claude-3-5-haiku-latest", "anthropic/claude-3-5-haiku-latest"),
    ],
)
def test_model_resolution_with_api_base(model, expected, monkeypatch):
    """The model name litellm is called with: ``openai/`` is added to a bare name."""
    sent: list[str] = []

    def completion(**kwargs):
        sent.append(kwargs["model"])
        raise RuntimeError("recorded")

    monkeypatch.setattr(load_litellm(), "completion", completion)
    gw = LiteLLMGateway(Settings(model=model, api_base="http://127.0.0.1:9/v1"))
    with pytest.raises(ModelError):
        list(gw.stream(USER, retry=False))
    assert sent == [expected]


def test_unexpected_exceptions_keep_their_class_name():
    gw = LiteLLMGateway(Settings(model="openai/gpt-4o-mini"))
    err = gw._translate(RuntimeError("boom with sk-abcdefghijklmnop"), load_litellm())
    assert err.message == "unexpected error from litellm (RuntimeError): boom with [REDACTED]"
    assert not err.retryable


# ------------------------------------------------------------------ pieces


def test_count_tokens_and_its_fallback(monkeypatch):
    gw = LiteLLMGateway(Settings(model="openai/gpt-4o-mini"))
    messages = [{"role": "user", "content": "word " * 200}]
    counted = gw.count_tokens(messages)
    assert 150 <= counted <= 260
    litellm = load_litellm()

    def broken(**kwargs):
        raise ValueError("tokenizer unavailable")

    monkeypatch.setattr(litellm, "token_counter", broken)
    from cvagent_cli.llm.tokens import estimate_request_tokens

    assert gw.count_tokens(messages) == estimate_request_tokens(messages) > 200


@pytest.mark.parametrize(
    "text, leaked",
    [
        ("key sk-proj-AbC123_xyz-789 rejected", "sk-proj-AbC123_xyz-789"),
        ("Incorrect API key provided: sk-fak********7890.", "7890"),
        ("Authorization: Bearer abc.def.ghi", "abc.def.ghi"),
        ("https://x.googleapis.com/v1?key=AIzaSyA1234567890abcdef&alt=sse", "AIzaSyA1234567890"),
        ("http://user:hunter2@host:8000/v1", "hunter2"),
    ],
)
def test_scrub_secrets(text, leaked):
    assert leaked not in scrub_secrets(text)


def test_scrub_secrets_removes_env_key_values(monkeypatch):
    monkeypatch.setenv("SOMEPROVIDER_API_KEY", "plainvalue-without-prefix")
    assert "plainvalue" not in scrub_secrets("got plainvalue-without-prefix back")


def test_tool_call_assembler_handles_odd_servers():
    asm = ToolCallAssembler()
    asm.add([{"index": 0, "id": "a", "function": {"name": "f", "arguments": '{"x"'}}])
    asm.add([{"index": 0, "function": {"arguments": ": 1}"}}])
    asm.add([{"index": 0, "id": "b", "function": {"name": "g", "arguments": "{}"}}])  # reused
    asm.add([{"index": None, "id": "c", "function": {"name": "h", "arguments": ""}}])
    calls = asm.result()
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("a", "f", '{"x": 1}'),
        ("b", "g", "{}"),
        ("c", "h", "{}"),
    ]


def test_preload_in_background_then_first_call_reuses_it():
    thread = preload_in_background()
    assert thread.daemon
    module = load_litellm()  # waits for the background import if it is still running
    thread.join(timeout=60)
    assert gateway_module.litellm_loaded() and load_litellm() is module
    assert module.suppress_debug_info is True


@pytest.mark.slow
def test_importing_cvagent_llm_does_not_import_litellm():
    code = (
        "import sys, cvagent_cli.llm.gateway, cvagent_cli.llm.types, "
        "cvagent_cli.llm.retry, cvagent_cli.settings; "
        "assert 'litellm' not in sys.modules, 'litellm imported eagerly'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True, timeout=60)
