"""Every branch of the provider-error table, one exception each: the class, the message, the
hint and ``retryable`` a user meets (through real litellm exception classes, no network).

The expected texts were recorded from the ``isinstance`` chain the table replaced, so a row
that changes a word or moves ahead of another fails here."""

from __future__ import annotations

import json
import string

import httpx
import pytest

from cvagent_cli.llm.gateway import load_litellm
from cvagent_cli.llm.provider_errors import (
    CONDITIONS,
    FIELDS,
    PROVIDER_ERRORS,
    UNEXPECTED,
    Failure,
    ProviderError,
    _failure,
    translate,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*")

litellm = load_litellm()
ex = litellm.exceptions
REQ = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
M, P = "gpt-x", "openai"


def resp(code: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(code, request=REQ, headers=headers or {})


def chained(outer: BaseException, inner: BaseException) -> BaseException:
    try:
        try:
            raise inner
        except BaseException as e:
            raise outer from e
    except BaseException as e:
        return e


def body_bytes(body: dict) -> bytes:
    return json.dumps(body).encode()


ANTHROPIC_529 = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
GEMINI_429 = {
    "error": {
        "code": 429,
        "message": "Resource has been exhausted",
        "status": "RESOURCE_EXHAUSTED",
        "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "30s"}],
    }
}
VLLM_400 = {
    "error": {
        "message": '"auto" tool choice requires --enable-auto-tool-choice and '
        "--tool-call-parser to be set",
        "type": "BadRequestError",
        "param": None,
        "code": 400,
    }
}
LLAMACPP_500 = {
    "error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}
}

CASES = {  # name -> a factory of the exception
    "context": lambda: ex.ContextWindowExceededError(
        "This model's maximum context length is 8192 tokens", M, P
    ),
    "context_in_bad_request": lambda: ex.BadRequestError(
        "context_length_exceeded: too many tokens", M, P
    ),
    "auth": lambda: ex.AuthenticationError(
        "Incorrect API key provided: sk-abcdefghijklmnopqrstuv", P, M
    ),
    "permission": lambda: ex.PermissionDeniedError(
        "no access to this model", P, M, response=resp(403)
    ),
    "not_found": lambda: ex.NotFoundError("The model gpt-x does not exist", M, P),
    "rate_limit": lambda: ex.RateLimitError(
        "slow down", P, M, response=resp(429, {"retry-after": "7"})
    ),
    "timeout": lambda: ex.Timeout("Request timed out", M, P),
    "read_timeout_in_chain": lambda: chained(
        RuntimeError("wrapper"), httpx.ReadTimeout("read timed out")
    ),
    "connect_error": lambda: chained(
        ex.APIConnectionError("Connection error", P, M), httpx.ConnectError("refused")
    ),
    "api_connection": lambda: ex.APIConnectionError("Server disconnected", P, M),
    "remote_protocol_in_chain": lambda: chained(
        RuntimeError("wrapper"), httpx.RemoteProtocolError("peer closed")
    ),
    "service_unavailable": lambda: ex.ServiceUnavailableError(
        "overloaded", P, M, response=resp(503)
    ),
    "internal": lambda: ex.InternalServerError("boom", P, M, response=resp(500)),
    "bad_gateway": lambda: ex.BadGatewayError("bad gateway", P, M, response=resp(502)),
    "api_error_502": lambda: ex.APIError(502, "upstream", P, M),
    "content_policy": lambda: ex.ContentPolicyViolationError("flagged by the safety system", M, P),
    "unsupported_tools": lambda: ex.UnsupportedParamsError(
        "tools is not supported by this model", P, M
    ),
    "unsupported_temperature": lambda: ex.UnsupportedParamsError(
        "temperature is not supported", P, M
    ),
    "unsupported_tools_and_temperature": lambda: ex.UnsupportedParamsError(
        "tools and temperature are not supported", P, M
    ),
    "no_provider": lambda: ex.BadRequestError(
        "LLM Provider NOT provided. Pass in the LLM provider you are trying to call", M, P
    ),
    "bad_request": lambda: ex.BadRequestError("messages: field required", M, P),
    "unprocessable": lambda: ex.UnprocessableEntityError("bad schema", M, P, response=resp(422)),
    "api_error_429": lambda: ex.APIError(429, "quota", P, M),
    # the shapes litellm 1.110.2 raised against tests/support/native_servers.py and dialects.py
    "anthropic_529_as_500": lambda: ex.InternalServerError(
        f"AnthropicException - {body_bytes(ANTHROPIC_529)!r}", P, M, response=resp(500)
    ),
    "gemini_429_mid_stream": lambda: ex.MidStreamFallbackError(
        f"litellm.RateLimitError: {body_bytes(GEMINI_429)!r}", M, P
    ),
    "ollama_error_line": lambda: ex.BadRequestError(
        "Ollama_chatException - 'message', Got unexpected response from Ollama: "
        "{'error': 'llama runner process has terminated'}",
        M,
        P,
    ),
    "ended_early": lambda: ex.InternalServerError(
        "AnthropicException - Stream ended before a finish_reason was received", P, M
    ),
    "vllm_no_auto_tools": lambda: ex.BadRequestError(
        f"OpenAIException - {json.dumps(VLLM_400)}", M, P
    ),
    "llamacpp_no_jinja": lambda: ex.InternalServerError(
        f"OpenAIException - {json.dumps(LLAMACPP_500)}", P, M, response=resp(500)
    ),
    "ollama_model_without_tools": lambda: ex.BadRequestError(
        'Ollama_chatException - {"error":"registry.ollama.ai/library/gemma:2b does not '
        'support tools"}',
        M,
        P,
    ),
    "deepseek_reasoning_missing": lambda: ex.BadRequestError(
        "DeepseekException - The `reasoning_content` in the thinking mode must be passed back "
        "to the API.",
        M,
        P,
    ),
    "unexpected": lambda: RuntimeError("boom with sk-abcdefghijklmnop"),
}

# "<case>/<remote|local>" -> (class, message, hint, retryable, retry_after)
EXPECTED = [
    (
        "context/remote",
        (
            "ContextWindowError",
            "the conversation is too long for gpt-x's context window (its limit is 8192 tokens)",
            "start a new chat or shorten the resume; details: This model's maximum context length is 8192 "
            "tokens",
            False,
            None,
        ),
    ),
    (
        "context/local",
        (
            "ContextWindowError",
            "the conversation is too long for gpt-x's context window (its limit is 8192 tokens)",
            "start a new chat or shorten the resume; details: This model's maximum context length is 8192 "
            "tokens",
            False,
            None,
        ),
    ),
    (
        "context_in_bad_request/remote",
        (
            "ContextWindowError",
            "the conversation is too long for gpt-x's context window",
            "start a new chat or shorten the resume; details: context_length_exceeded: too many tokens",
            False,
            None,
        ),
    ),
    (
        "context_in_bad_request/local",
        (
            "ContextWindowError",
            "the conversation is too long for gpt-x's context window",
            "start a new chat or shorten the resume; details: context_length_exceeded: too many tokens",
            False,
            None,
        ),
    ),
    (
        "auth/remote",
        (
            "ModelError",
            "authentication failed for gpt-x",
            "check OPENAI_API_KEY: it is missing, wrong or revoked",
            False,
            None,
        ),
    ),
    (
        "auth/local",
        (
            "ModelError",
            "authentication failed for gpt-x",
            "the server at http://127.0.0.1:9 rejected the key; set PROVIDER_API_KEY to the key it expects",
            False,
            None,
        ),
    ),
    (
        "permission/remote",
        (
            "ModelError",
            "access denied to gpt-x: no access to this model",
            "your key may not have access to this model",
            False,
            None,
        ),
    ),
    (
        "permission/local",
        (
            "ModelError",
            "access denied to gpt-x: no access to this model",
            "your key may not have access to this model",
            False,
            None,
        ),
    ),
    (
        "not_found/remote",
        (
            "ModelError",
            "model not found: gpt-x",
            "check the model name; the server said: The model gpt-x does not exist",
            False,
            None,
        ),
    ),
    (
        "not_found/local",
        (
            "ModelError",
            "model not found: gpt-x",
            "check the model name; the server said: The model gpt-x does not exist",
            False,
            None,
        ),
    ),
    (
        "rate_limit/remote",
        (
            "ModelError",
            "rate limited by the model provider (HTTP 429): slow down",
            "wait a minute and ask again, or raise your plan's limits with the provider",
            True,
            7.0,
        ),
    ),
    (
        "rate_limit/local",
        (
            "ModelError",
            "rate limited by the model provider (HTTP 429): slow down",
            "wait a minute and ask again, or raise your plan's limits with the provider",
            True,
            7.0,
        ),
    ),
    (
        "timeout/remote",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in "
            "config.yaml",
            True,
            None,
        ),
    ),
    (
        "timeout/local",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in "
            "config.yaml",
            True,
            None,
        ),
    ),
    (
        "read_timeout_in_chain/remote",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in "
            "config.yaml",
            True,
            None,
        ),
    ),
    (
        "read_timeout_in_chain/local",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in "
            "config.yaml",
            True,
            None,
        ),
    ),
    (
        "connect_error/remote",
        (
            "ModelError",
            "cannot reach the openai API for gpt-x",
            "check your network connection",
            True,
            None,
        ),
    ),
    (
        "connect_error/local",
        (
            "ModelError",
            "cannot reach the model server at http://127.0.0.1:9 — is it running?",
            "start the server or fix --api-base",
            True,
            None,
        ),
    ),
    (
        "api_connection/remote",
        (
            "ModelError",
            "the model server closed the connection",
            "ask again; if it keeps happening, check that the server is up (its log says why it hung up) or "
            "your network",
            True,
            None,
        ),
    ),
    (
        "api_connection/local",
        (
            "ModelError",
            "the model server closed the connection at http://127.0.0.1:9",
            "ask again; if it keeps happening, check that the server is up (its log says why it hung up) or "
            "your network",
            True,
            None,
        ),
    ),
    (
        "remote_protocol_in_chain/remote",
        (
            "ModelError",
            "the model server closed the connection",
            "ask again; if it keeps happening, check that the server is up (its log says why it hung up) or "
            "your network",
            True,
            None,
        ),
    ),
    (
        "remote_protocol_in_chain/local",
        (
            "ModelError",
            "the model server closed the connection at http://127.0.0.1:9",
            "ask again; if it keeps happening, check that the server is up (its log says why it hung up) or "
            "your network",
            True,
            None,
        ),
    ),
    (
        "service_unavailable/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 503): overloaded",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "service_unavailable/local",
        (
            "ModelError",
            "the model server had an error (HTTP 503): overloaded",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "internal/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 500): boom",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "internal/local",
        (
            "ModelError",
            "the model server had an error (HTTP 500): boom",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "bad_gateway/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 502): bad gateway",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "bad_gateway/local",
        (
            "ModelError",
            "the model server had an error (HTTP 502): bad gateway",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "api_error_502/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 502): upstream",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "api_error_502/local",
        (
            "ModelError",
            "the model server had an error (HTTP 502): upstream",
            "ask again in a moment; if it keeps failing, check the provider's status page or the server's "
            "log",
            True,
            None,
        ),
    ),
    (
        "content_policy/remote",
        (
            "ModelError",
            "the provider refused the request: flagged by the safety system",
            "its content policy blocked this message",
            False,
            None,
        ),
    ),
    (
        "content_policy/local",
        (
            "ModelError",
            "the provider refused the request: flagged by the safety system",
            "its content policy blocked this message",
            False,
            None,
        ),
    ),
    (
        "unsupported_tools/remote",
        (
            "ModelError",
            "gpt-x does not support tool calling",
            "cvagent's chat needs a model with tool calling, e.g. openai/gpt-4o-mini or "
            "anthropic/claude-3-5-haiku-latest",
            False,
            None,
        ),
    ),
    (
        "unsupported_tools/local",
        (
            "ModelError",
            "gpt-x does not support tool calling",
            "cvagent's chat needs a model with tool calling, e.g. openai/gpt-4o-mini or "
            "anthropic/claude-3-5-haiku-latest",
            False,
            None,
        ),
    ),
    (
        "unsupported_temperature/remote",
        (
            "ModelError",
            "gpt-x does not accept a parameter cvagent sent: temperature is not supported",
            "if it is temperature, remove it from config.yaml or the command line",
            False,
            None,
        ),
    ),
    (
        "unsupported_temperature/local",
        (
            "ModelError",
            "gpt-x does not accept a parameter cvagent sent: temperature is not supported",
            "if it is temperature, remove it from config.yaml or the command line",
            False,
            None,
        ),
    ),
    (
        "unsupported_tools_and_temperature/remote",
        (
            "ModelError",
            "gpt-x does not accept a parameter cvagent sent: tools and temperature are not supported",
            "if it is temperature, remove it from config.yaml or the command line",
            False,
            None,
        ),
    ),
    (
        "unsupported_tools_and_temperature/local",
        (
            "ModelError",
            "gpt-x does not accept a parameter cvagent sent: tools and temperature are not supported",
            "if it is temperature, remove it from config.yaml or the command line",
            False,
            None,
        ),
    ),
    (
        "no_provider/remote",
        (
            "ModelError",
            "litellm does not know which provider serves 'gpt-x'",
            "prefix the model with its provider, e.g. openai/gpt-4o-mini or ollama_chat/llama3.1, or pass "
            "--api-base",
            False,
            None,
        ),
    ),
    (
        "no_provider/local",
        (
            "ModelError",
            "litellm does not know which provider serves 'gpt-x'",
            "prefix the model with its provider, e.g. openai/gpt-4o-mini or ollama_chat/llama3.1, or pass "
            "--api-base",
            False,
            None,
        ),
    ),
    (
        "bad_request/remote",
        (
            "ModelError",
            "the model server rejected the request: messages: field required",
            None,
            False,
            None,
        ),
    ),
    (
        "bad_request/local",
        (
            "ModelError",
            "the model server rejected the request: messages: field required",
            None,
            False,
            None,
        ),
    ),
    (
        "unprocessable/remote",
        ("ModelError", "the model server rejected the request: bad schema", None, False, None),
    ),
    (
        "unprocessable/local",
        ("ModelError", "the model server rejected the request: bad schema", None, False, None),
    ),
    (
        "api_error_429/remote",
        (
            "ModelError",
            "rate limited by the model provider (HTTP 429): quota",
            "wait a minute and ask again, or raise your plan's limits with the provider",
            True,
            None,
        ),
    ),
    (
        "api_error_429/local",
        (
            "ModelError",
            "rate limited by the model provider (HTTP 429): quota",
            "wait a minute and ask again, or raise your plan's limits with the provider",
            True,
            None,
        ),
    ),
    (
        "anthropic_529_as_500/remote",
        (
            "ModelError",
            "the model provider is overloaded (HTTP 529): Overloaded",
            "ask again in a minute, or switch to another model with /model",
            True,
            None,
        ),
    ),
    (
        "anthropic_529_as_500/local",
        (
            "ModelError",
            "the model provider is overloaded (HTTP 529): Overloaded",
            "ask again in a minute, or switch to another model with /model",
            True,
            None,
        ),
    ),
    (
        "gemini_429_mid_stream/remote",
        (
            "ModelError",
            "rate limited by the model provider (HTTP 429): Resource has been exhausted",
            "wait a minute and ask again, or raise your plan's limits with the provider",
            True,
            30.0,
        ),
    ),
    (
        "gemini_429_mid_stream/local",
        (
            "ModelError",
            "rate limited by the model provider (HTTP 429): Resource has been exhausted",
            "wait a minute and ask again, or raise your plan's limits with the provider",
            True,
            30.0,
        ),
    ),
    (
        "ollama_error_line/remote",
        (
            "ModelError",
            "the model server failed while answering: llama runner process has terminated",
            "ask again; if it keeps failing, the server's log says why (often too little memory for the "
            "model)",
            True,
            None,
        ),
    ),
    (
        "ollama_error_line/local",
        (
            "ModelError",
            "the model server failed while answering: llama runner process has terminated",
            "ask again; if it keeps failing, the server's log says why (often too little memory for the "
            "model)",
            True,
            None,
        ),
    ),
    (
        "ended_early/remote",
        (
            "ModelError",
            "the model's answer stopped early: the connection ended before it was complete",
            "ask again; if it keeps happening, check your network or the server's log",
            True,
            None,
        ),
    ),
    (
        "ended_early/local",
        (
            "ModelError",
            "the model's answer stopped early: the connection ended before it was complete",
            "ask again; if it keeps happening, check your network or the server's log",
            True,
            None,
        ),
    ),
    (
        "vllm_no_auto_tools/remote",
        (
            "ModelError",
            "gpt-x cannot call tools on this vLLM server",
            "start vLLM with --enable-auto-tool-choice --tool-call-parser <the model's parser, e.g. hermes "
            "or llama3_json>, or use another server; cvagent's chat needs a model that calls tools",
            False,
            None,
        ),
    ),
    (
        "vllm_no_auto_tools/local",
        (
            "ModelError",
            "gpt-x cannot call tools on this vLLM server",
            "start vLLM with --enable-auto-tool-choice --tool-call-parser <the model's parser, e.g. hermes "
            "or llama3_json>, or use another server; cvagent's chat needs a model that calls tools",
            False,
            None,
        ),
    ),
    (
        "llamacpp_no_jinja/remote",
        (
            "ModelError",
            "gpt-x cannot call tools on this llama.cpp server",
            "restart llama-server with the --jinja flag; cvagent's chat needs a model that calls tools",
            False,
            None,
        ),
    ),
    (
        "llamacpp_no_jinja/local",
        (
            "ModelError",
            "gpt-x cannot call tools on this llama.cpp server",
            "restart llama-server with the --jinja flag; cvagent's chat needs a model that calls tools",
            False,
            None,
        ),
    ),
    (
        "ollama_model_without_tools/remote",
        (
            "ModelError",
            "gpt-x does not support tool calling",
            "pick a model with tools (ollama.com/search?c=tools), e.g. ollama_chat/qwen2.5 or "
            "ollama_chat/llama3.1; cvagent's chat needs a model that calls tools",
            False,
            None,
        ),
    ),
    (
        "ollama_model_without_tools/local",
        (
            "ModelError",
            "gpt-x does not support tool calling",
            "pick a model with tools (ollama.com/search?c=tools), e.g. ollama_chat/qwen2.5 or "
            "ollama_chat/llama3.1; cvagent's chat needs a model that calls tools",
            False,
            None,
        ),
    ),
    (
        "deepseek_reasoning_missing/remote",
        (
            "ModelError",
            "the model server rejected the request: The `reasoning_content` in the thinking mode must be "
            "passed back to the API.",
            "cvagent sends the reasoning back; a conversation saved by an older cvagent has none: start "
            "afresh with /clear or chat --new",
            False,
            None,
        ),
    ),
    (
        "deepseek_reasoning_missing/local",
        (
            "ModelError",
            "the model server rejected the request: The `reasoning_content` in the thinking mode must be "
            "passed back to the API.",
            "cvagent sends the reasoning back; a conversation saved by an older cvagent has none: start "
            "afresh with /clear or chat --new",
            False,
            None,
        ),
    ),
    (
        "unexpected/remote",
        (
            "ModelError",
            "unexpected error from litellm (RuntimeError): boom with [REDACTED]",
            None,
            False,
            None,
        ),
    ),
    (
        "unexpected/local",
        (
            "ModelError",
            "unexpected error from litellm (RuntimeError): boom with [REDACTED]",
            None,
            False,
            None,
        ),
    ),
]


@pytest.mark.parametrize(("case", "expected"), EXPECTED, ids=[c for c, _ in EXPECTED])
def test_each_failure_reads_as_before(case, expected):
    name, where = case.split("/")
    opts = {"model": M, "provider": P, "url": None, "api_base": None, "timeout": 30.0}
    if where == "local":
        opts.update(url="http://127.0.0.1:9", api_base="http://127.0.0.1:9/v1", provider=None)
    err = translate(CASES[name](), litellm, **opts)
    assert (type(err).__name__, err.message, err.hint, err.retryable, err.retry_after) == expected


def test_every_case_is_checked_both_ways():
    assert {c.split("/")[0] for c, _ in EXPECTED} == set(CASES)


def test_every_row_names_real_litellm_exceptions_and_known_conditions():
    for row in (*PROVIDER_ERRORS, UNEXPECTED):
        for name in row.classes:
            assert isinstance(getattr(ex, name), type), name
        assert row.when is None or row.when in CONDITIONS


def test_every_row_is_reached_by_some_case(monkeypatch):
    """A row no exception reaches is dead text in the table (and in the reference page)."""
    reached: set[int] = set()
    original = Failure.matches

    def spy(self: Failure, row: ProviderError) -> bool:
        hit = original(self, row)
        if hit:
            reached.add(id(row))
        return hit

    monkeypatch.setattr(Failure, "matches", spy)
    for make in CASES.values():
        for url in (None, "http://127.0.0.1:9"):
            translate(make(), litellm, model=M, provider=P, url=url, api_base=url, timeout=1)
    assert all(id(row) in reached for row in PROVIDER_ERRORS)


def test_every_template_field_is_one_the_failure_fills_and_the_reference_explains():
    failure = _failure(RuntimeError("x"), litellm, "m", None, None, None, 1.0)
    assert set(failure.fields) == set(FIELDS)
    for row in (*PROVIDER_ERRORS, UNEXPECTED):
        for template in (row.message, row.hint or ""):
            assert {n for _, n, _, _ in string.Formatter().parse(template) if n} <= set(FIELDS)
