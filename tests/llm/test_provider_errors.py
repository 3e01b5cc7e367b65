"""Every branch of the provider-error table, one exception each: the class, the message, the
hint and ``retryable`` a user meets (through real litellm exception classes, no network).

The expected texts were recorded from the ``isinstance`` chain the table replaced, so a row
that changes a word or moves ahead of another fails here."""

from __future__ import annotations

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
    "unexpected": lambda: RuntimeError("boom with sk-abcdefghijklmnop"),
}

# "<case>/<remote|local>" -> (class, message, hint, retryable, retry_after)
EXPECTED = [
    (
        "context/remote",
        (
            "ContextWindowError",
            "the conversation is too long for gpt-x's context window (its limit is 8192 tokens)",
            "start a new chat or shorten the resume; details: This model's maximum context length is 8192 tokens",
            False,
            None,
        ),
    ),
    (
        "context/local",
        (
            "ContextWindowError",
            "the conversation is too long for gpt-x's context window (its limit is 8192 tokens)",
            "start a new chat or shorten the resume; details: This model's maximum context length is 8192 tokens",
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
            "rate limited by the model provider: slow down",
            "wait a moment and try again, or check your plan's limits",
            True,
            7.0,
        ),
    ),
    (
        "rate_limit/local",
        (
            "ModelError",
            "rate limited by the model provider: slow down",
            "wait a moment and try again, or check your plan's limits",
            True,
            7.0,
        ),
    ),
    (
        "timeout/remote",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in config.yaml",
            True,
            None,
        ),
    ),
    (
        "timeout/local",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in config.yaml",
            True,
            None,
        ),
    ),
    (
        "read_timeout_in_chain/remote",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in config.yaml",
            True,
            None,
        ),
    ),
    (
        "read_timeout_in_chain/local",
        (
            "ModelError",
            "the model did not answer within 30 s",
            "the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in config.yaml",
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
            "lost the connection to the model server",
            "the server closed the connection; try again",
            True,
            None,
        ),
    ),
    (
        "api_connection/local",
        (
            "ModelError",
            "lost the connection to the model server at http://127.0.0.1:9",
            "the server closed the connection; try again",
            True,
            None,
        ),
    ),
    (
        "remote_protocol_in_chain/remote",
        (
            "ModelError",
            "lost the connection to the model server",
            "the server closed the connection; try again",
            True,
            None,
        ),
    ),
    (
        "remote_protocol_in_chain/local",
        (
            "ModelError",
            "lost the connection to the model server at http://127.0.0.1:9",
            "the server closed the connection; try again",
            True,
            None,
        ),
    ),
    (
        "service_unavailable/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 503): overloaded",
            "usually temporary; try again in a moment",
            True,
            None,
        ),
    ),
    (
        "service_unavailable/local",
        (
            "ModelError",
            "the model server had an error (HTTP 503): overloaded",
            "usually temporary; try again in a moment",
            True,
            None,
        ),
    ),
    (
        "internal/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 500): boom",
            "usually temporary; try again in a moment",
            True,
            None,
        ),
    ),
    (
        "internal/local",
        (
            "ModelError",
            "the model server had an error (HTTP 500): boom",
            "usually temporary; try again in a moment",
            True,
            None,
        ),
    ),
    (
        "bad_gateway/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 502): bad gateway",
            "usually temporary; try again in a moment",
            True,
            None,
        ),
    ),
    (
        "bad_gateway/local",
        (
            "ModelError",
            "the model server had an error (HTTP 502): bad gateway",
            "usually temporary; try again in a moment",
            True,
            None,
        ),
    ),
    (
        "api_error_502/remote",
        (
            "ModelError",
            "the model server had an error (HTTP 502): upstream",
            "usually temporary; try again in a moment",
            True,
            None,
        ),
    ),
    (
        "api_error_502/local",
        (
            "ModelError",
            "the model server had an error (HTTP 502): upstream",
            "usually temporary; try again in a moment",
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
            "cvagent's chat needs a model with tool calling, e.g. openai/gpt-4o-mini or anthropic/claude-3-5-haiku-latest",
            False,
            None,
        ),
    ),
    (
        "unsupported_tools/local",
        (
            "ModelError",
            "gpt-x does not support tool calling",
            "cvagent's chat needs a model with tool calling, e.g. openai/gpt-4o-mini or anthropic/claude-3-5-haiku-latest",
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
            "prefix the model with its provider, e.g. openai/gpt-4o-mini or ollama_chat/llama3.1, or pass --api-base",
            False,
            None,
        ),
    ),
    (
        "no_provider/local",
        (
            "ModelError",
            "litellm does not know which provider serves 'gpt-x'",
            "prefix the model with its provider, e.g. openai/gpt-4o-mini or ollama_chat/llama3.1, or pass --api-base",
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
        ("ModelError", "rate limited by the model provider: quota", None, True, None),
    ),
    (
        "api_error_429/local",
        ("ModelError", "rate limited by the model provider: quota", None, True, None),
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
