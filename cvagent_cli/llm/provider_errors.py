"""Translating litellm failures into user-facing errors, and scrubbing secrets from them.

Every litellm exception becomes a :class:`~cvagent_cli.errors.ModelError` with a one-line
message and a hint, with API keys scrubbed (see :mod:`cvagent_cli.llm.gateway` for what
litellm actually raises).  This module never imports litellm: :func:`translate` is handed
the loaded module by the gateway, which stays the only place that imports it.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from cvagent_cli.errors import ContextWindowError, ModelError
from cvagent_cli.llm.retry import parse_retry_after
from cvagent_cli.secrets import scrub_secrets as _scrub

#: provider -> the environment variable holding its key (for hints after a 401)
PROVIDER_KEY_VARS: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "text-completion-openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "xai": "XAI_API_KEY",
    "cohere": "COHERE_API_KEY",
    "cohere_chat": "COHERE_API_KEY",
    "fireworks_ai": "FIREWORKS_AI_API_KEY",
    "perplexity": "PERPLEXITYAI_API_KEY",
    "azure": "AZURE_API_KEY",
    "dashscope": "DASHSCOPE_API_KEY",
    "moonshot": "MOONSHOT_API_KEY",
    "cerebras": "CEREBRAS_API_KEY",
    "deepinfra": "DEEPINFRA_API_KEY",
    "huggingface": "HF_TOKEN",
}


def key_var(provider: str | None) -> str:
    """The environment variable that holds ``provider``'s API key (for hints after a 401)."""
    if provider and provider in PROVIDER_KEY_VARS:
        return PROVIDER_KEY_VARS[provider]
    return f"{(provider or 'PROVIDER').upper()}_API_KEY"


# ------------------------------------------------------------------ scrubbing


def scrub_secrets(text: str) -> str:
    """Mask anything that looks like a key in an error message (one definition of a secret:
    ``cvagent_cli.secrets``, with its wider message patterns)."""
    return str(_scrub(text, message=True))


_PREFIX_RE = re.compile(r"^\s*(?:litellm\.)?[A-Za-z_]*(?:Error|Exception)\s*(?::|-)\s*")
#: litellm's own words around a provider's message ("Handle with `litellm.X`", Vertex's
#: "Vertex_ai_betaException InternalServerError - INTERNAL - ")
_NOISE_RES = (
    re.compile(r"\s*Handle with `litellm\.\w+`\.?"),
    re.compile(r"^\w+Exception\s+\w+Error\s+-\s+(?:[A-Z_]+\s+-\s+)?"),
)


def _parsed(text: str) -> Any:
    """The JSON object (or Python dict repr, or bytes repr of either) inside ``text``."""
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        return None
    chunk = text[start : end + 1]
    try:
        return json.loads(chunk)
    except ValueError:
        pass
    try:
        return ast.literal_eval(chunk)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None


def _error_object(payload: Any) -> dict[str, Any] | None:
    """The error object of a provider's body: ``{"error": {...}}`` (OpenAI, Anthropic,
    Gemini, vLLM), ``[{"error": {...}}]`` (Gemini), or the body itself."""
    if isinstance(payload, list) and payload:
        payload = payload[0]
    if not isinstance(payload, dict):
        return None
    error = payload.get("error")
    if isinstance(error, dict):
        return error
    if isinstance(error, str):  # Ollama, llama.cpp: {"error": "text"}
        return {"message": error}
    return payload if isinstance(payload.get("message"), str) else None


def _payload_error(exc: BaseException) -> dict[str, Any] | None:
    body = getattr(exc, "body", None)
    found = _error_object(body)
    if found is None:
        found = _error_object(_parsed(str(getattr(exc, "message", None) or exc)))
    return found


def _server_message(exc: BaseException) -> str:
    """The provider's own message, on one line, without litellm's class prefixes and
    whatever body shape it came in (bytes, JSON, nested error objects, a dict repr)."""
    error = _payload_error(exc)
    text = error.get("message") if error else None
    if not isinstance(text, str) or not text.strip():
        text = str(getattr(exc, "message", None) or exc)
    for _ in range(6):
        stripped = _PREFIX_RE.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    for noise in _NOISE_RES:
        text = noise.sub("", text)
    text = text.split("\nReceived Model Group", 1)[0]
    text = " ".join(text.split())
    if len(text) > 300:
        text = text[:297] + "..."
    return scrub_secrets(text)


#: what a provider's error type says about the status, when litellm reports another one
#: (Anthropic's 529 arrives as 500, Gemini's 429 inside a 500 "mid-stream" error)
_KIND_STATUS = {
    "overloaded_error": 529,
    "rate_limit_error": 429,
    "RESOURCE_EXHAUSTED": 429,
    "UNAVAILABLE": 503,
}


def _status_of(exc: BaseException, error: dict[str, Any] | None) -> int | None:
    raw = getattr(exc, "status_code", None)
    status = raw if isinstance(raw, int) else None
    if error:
        kind = error.get("type") or error.get("status")
        if isinstance(kind, str) and kind in _KIND_STATUS:
            return _KIND_STATUS[kind]
        code = error.get("code")
        if isinstance(code, int) and 400 <= code < 600:
            return code
    return status


def _cause_chain(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        chain.append(current)
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return chain


_CONTEXT_HINTS = (
    "maximum context length",
    "context_length_exceeded",
    "context length",
    "context window",
    "too many tokens",
    "exceeds the available context",
)


def _looks_like_context_error(text: str) -> bool:
    lowered = text.lower()
    return any(h in lowered for h in _CONTEXT_HINTS)


# ------------------------------------------------------------------ the table

Condition = Literal[
    "context",
    "api_base",
    "url",
    "tools",
    "no_provider",
    "vllm_tools",
    "jinja",
    "model_tools",
    "stream_line",
    "ended_early",
    "no_body",
    "reasoning_back",
]
Status = Literal["5xx", "429", "529"]


@dataclass(frozen=True)
class ProviderError:
    """One row of the table: which failures it matches and what the user is told.

    A row matches when the exception is an instance of one of ``classes`` (names in
    ``litellm.exceptions``), or has one of ``chain`` in its cause chain (httpx and builtin
    names), or carries an HTTP ``status`` of that family (a row with none of the three
    matches any exception), and then only if its ``when`` condition holds.  The first matching row wins.  ``message`` and ``hint`` are
    ``str.format`` templates over the fields of :class:`Failure`.
    """

    classes: tuple[str, ...]
    message: str
    hint: str | None = None
    retryable: bool = False
    context_window: bool = False  # raised as ContextWindowError (the agent trims and retries)
    chain: frozenset[str] = frozenset()
    status: Status | None = None
    when: Condition | None = None


#: the fields a message or hint may use, for the reference page (built by ``_failure``)
FIELDS: dict[str, str] = {
    "model": "the model name as the user gave it",
    "model_repr": "the same, quoted",
    "msg": "the server's own message, on one line, secrets masked",
    "provider": 'the provider litellm resolved, or "model"',
    "url": "the server URL (--api-base or a local provider's default)",
    "api_base": "the --api-base setting",
    "where": '" at URL" when the URL is known',
    "code": '" (HTTP 503)" when the server sent a status',
    "limit": '" (its limit is N tokens)" when the server said',
    "key_var": "the environment variable of the provider's API key",
    "timeout": "the timeout setting, in seconds",
    "exc_type": "the exception's class name",
}

#: what each ``when`` condition means, for the reference page
CONDITIONS: dict[Condition, str] = {
    "context": "its message speaks of the context length",
    "api_base": "an API base URL is set (a local or self-hosted server)",
    "url": "the server URL is known (--api-base)",
    "tools": 'its message names "tools", not "temperature"',
    "no_provider": 'its message says "LLM Provider NOT provided"',
    "vllm_tools": 'its message says "auto" tool choice requires --enable-auto-tool-choice (vLLM)',
    "jinja": 'its message says "tools param requires --jinja flag" (llama.cpp)',
    "model_tools": 'its message says the model "does not support tools" (Ollama)',
    "stream_line": "litellm could not read a line of the stream: an error the server sent "
    'after its answer began ("Got unexpected response from …")',
    "ended_early": 'its message says "Stream ended before a finish_reason was received"',
    "reasoning_back": "its message says the `reasoning_content` must be passed back (DeepSeek's "
    "thinking mode)",
    "no_body": "it carries no error body from the server (litellm 1.84 reports Ollama's HTTP "
    "errors as connection errors)",
}

#: the messages of servers that cannot call tools (their own words, checked in
#: tests/support/dialects.py and native_servers.py)
_NO_TOOLS_PATTERNS: dict[Condition, re.Pattern[str]] = {
    "vllm_tools": re.compile(r"enable-auto-tool-choice", re.I),
    "jinja": re.compile(r"tools param requires --jinja", re.I),
    "model_tools": re.compile(r"does not support tools", re.I),
    "stream_line": re.compile(r"Got unexpected response from", re.I),
    "ended_early": re.compile(r"Stream ended before a finish_reason", re.I),
    "reasoning_back": re.compile(r"reasoning_content.{0,40}must be passed back", re.I),
}
_CHOOSE_TOOL_MODEL = "cvagent's chat needs a model that calls tools"

_CONTEXT_WINDOW = ProviderError(
    ("ContextWindowExceededError",),
    "the conversation is too long for {model}'s context window{limit}",
    hint="start a new chat or shorten the resume; details: {msg}",
    context_window=True,
)
_SERVER_CLASSES = frozenset(
    {"ServiceUnavailableError", "InternalServerError", "BadGatewayError", "APIConnectionError"}
)
_SERVER_GONE = frozenset(
    {
        "APIConnectionError",
        "RemoteProtocolError",
        "ReadError",
        "ConnectionResetError",
        "ConnectionAbortedError",
        "BrokenPipeError",
    }
)

#: litellm failures -> what the user reads, in the order they are tried
PROVIDER_ERRORS: tuple[ProviderError, ...] = (
    _CONTEXT_WINDOW,
    replace(_CONTEXT_WINDOW, classes=("BadRequestError",), when="context"),
    ProviderError(
        ("AuthenticationError",),
        "authentication failed for {model}",
        hint="the server at {url} rejected the key; set {key_var} to the key it expects",
        when="api_base",
    ),
    ProviderError(
        ("AuthenticationError",),
        "authentication failed for {model}",
        hint="check {key_var}: it is missing, wrong or revoked",
    ),
    ProviderError(
        ("PermissionDeniedError",),
        "access denied to {model}: {msg}",
        hint="your key may not have access to this model",
    ),
    ProviderError(
        ("NotFoundError",),
        "model not found: {model}",
        hint="check the model name; the server said: {msg}",
    ),
    ProviderError(
        (),
        "{model} cannot call tools on this vLLM server",
        hint="start vLLM with --enable-auto-tool-choice --tool-call-parser <the model's "
        "parser, e.g. hermes or llama3_json>, or use another server; " + _CHOOSE_TOOL_MODEL,
        when="vllm_tools",
    ),
    ProviderError(
        (),
        "{model} cannot call tools on this llama.cpp server",
        hint="restart llama-server with the --jinja flag; " + _CHOOSE_TOOL_MODEL,
        when="jinja",
    ),
    ProviderError(
        (),
        "{model} does not support tool calling",
        hint="pick a model with tools (ollama.com/search?c=tools), e.g. "
        "ollama_chat/qwen2.5 or ollama_chat/llama3.1; " + _CHOOSE_TOOL_MODEL,
        when="model_tools",
    ),
    ProviderError(
        ("RateLimitError",),
        "rate limited by the model provider{code}: {msg}",
        hint="wait a minute and ask again, or raise your plan's limits with the provider",
        retryable=True,
    ),
    ProviderError(
        (),
        "rate limited by the model provider{code}: {msg}",
        hint="wait a minute and ask again, or raise your plan's limits with the provider",
        retryable=True,
        status="429",
    ),
    ProviderError(
        (),
        "the model provider is overloaded{code}: {msg}",
        hint="ask again in a minute, or switch to another model with /model",
        retryable=True,
        status="529",
    ),
    ProviderError(
        ("Timeout",),
        "the model did not answer within {timeout} s",
        hint="the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in config.yaml",
        retryable=True,
        chain=frozenset({"ReadTimeout", "APITimeoutError"}),
    ),
    ProviderError(
        (),
        "cannot reach the model server at {url} — is it running?",
        hint="start the server or fix --api-base",
        retryable=True,
        chain=frozenset({"ConnectError", "ConnectionRefusedError", "ConnectTimeout"}),
        when="url",
    ),
    ProviderError(
        (),
        "cannot reach the {provider} API for {model}",
        hint="check your network connection",
        retryable=True,
        chain=frozenset({"ConnectError", "ConnectionRefusedError", "ConnectTimeout"}),
    ),
    ProviderError(
        (),
        "the model's answer stopped early: the connection ended before it was complete",
        hint="ask again; if it keeps happening, check your network or the server's log",
        retryable=True,
        when="ended_early",
    ),
    ProviderError(
        ("APIConnectionError",),
        "the model server closed the connection{where}",
        hint="ask again; if it keeps happening, check that the server is up (its log says "
        "why it hung up) or your network",
        retryable=True,
        chain=_SERVER_GONE,
        when="no_body",
    ),
    ProviderError(
        (),
        "the model server failed while answering: {msg}",
        hint="ask again; if it keeps failing, the server's log says why (often too little "
        "memory for the model)",
        retryable=True,
        when="stream_line",
    ),
    ProviderError(
        ("ServiceUnavailableError", "InternalServerError", "BadGatewayError"),
        "the model server had an error{code}: {msg}",
        hint="ask again in a moment; if it keeps failing, check the provider's status page "
        "or the server's log",
        retryable=True,
        status="5xx",
    ),
    ProviderError(
        ("ContentPolicyViolationError",),
        "the provider refused the request: {msg}",
        hint="its content policy blocked this message",
    ),
    ProviderError(
        ("UnsupportedParamsError",),
        "{model} does not support tool calling",
        hint="cvagent's chat needs a model with tool calling, e.g. "
        "openai/gpt-4o-mini or anthropic/claude-3-5-haiku-latest",
        when="tools",
    ),
    ProviderError(
        ("UnsupportedParamsError",),
        "{model} does not accept a parameter cvagent sent: {msg}",
        hint="if it is temperature, remove it from config.yaml or the command line",
    ),
    ProviderError(
        ("BadRequestError", "UnprocessableEntityError"),
        "litellm does not know which provider serves {model_repr}",
        hint="prefix the model with its provider, e.g. openai/gpt-4o-mini "
        "or ollama_chat/llama3.1, or pass --api-base",
        when="no_provider",
    ),
    ProviderError(
        ("BadRequestError",),
        "the model server rejected the request: {msg}",
        hint="cvagent sends the reasoning back; a conversation saved by an older cvagent "
        "has none: start afresh with /clear or chat --new",
        when="reasoning_back",
    ),
    ProviderError(
        ("BadRequestError", "UnprocessableEntityError"),
        "the model server rejected the request: {msg}",
    ),
)

#: when no row matches
UNEXPECTED = ProviderError((), "unexpected error from litellm ({exc_type}): {msg}")


@dataclass(frozen=True)
class Failure:
    """What the table looks at in one exception, and the fields its templates use."""

    exc: BaseException
    exceptions: Any  # litellm.exceptions
    msg: str
    raw: str  # the exception's whole text (litellm's wrapping included)
    has_body: bool  # a provider's error object was found in it
    status: int | None
    chain_names: frozenset[str]
    fields: dict[str, str]

    def matches(self, row: ProviderError) -> bool:
        status = self.status
        hit = (
            any(isinstance(self.exc, getattr(self.exceptions, name)) for name in row.classes)
            or bool(row.chain & self.chain_names)
            or (row.status == "5xx" and status is not None and status >= 500 and status != 529)
            or (row.status is not None and row.status == str(status))
            or not (row.classes or row.chain or row.status)
        )
        if status is not None and status in (429, 529) and row.status is None and row.classes:
            # litellm's class for it (InternalServerError for Anthropic's 529, a mid-stream
            # error for Gemini's 429) is not what happened: the status rows decide
            hit = hit and not (set(row.classes) & _SERVER_CLASSES)
        return hit and (row.when is None or self.holds(row.when))

    def holds(self, condition: Condition) -> bool:
        if condition == "context":
            return _looks_like_context_error(self.msg)
        if condition == "tools":
            return bool(re.search(r"\btools?\b", self.msg)) and "temperature" not in self.msg
        if condition == "no_provider":
            return "LLM Provider NOT provided" in self.msg
        if condition == "no_body":
            return not self.has_body
        if condition in _NO_TOOLS_PATTERNS:
            return bool(_NO_TOOLS_PATTERNS[condition].search(self.raw))
        return bool(self.fields[condition])  # "api_base", "url": set or not


def translate(
    exc: BaseException,
    litellm: Any,
    *,
    model: str,
    provider: str | None,
    url: str | None,
    api_base: str | None,
    timeout: float,
) -> ModelError:
    """Map one litellm/openai/httpx exception to a user-facing ModelError (see PROVIDER_ERRORS).

    ``litellm`` is the loaded module (only :mod:`cvagent_cli.llm.gateway` imports it);
    ``model`` is the name the user gave, ``url`` the scrubbed server URL, if any.
    """
    if isinstance(exc, ModelError):
        return exc
    failure = _failure(exc, litellm, model, provider, url, api_base, timeout)
    row = next((r for r in PROVIDER_ERRORS if failure.matches(r)), UNEXPECTED)
    cls = ContextWindowError if row.context_window else ModelError
    hint = row.hint.format(**failure.fields) if row.hint else None
    err = cls(
        scrub_secrets(row.message.format(**failure.fields)),
        hint=scrub_secrets(hint) if hint else None,
        retryable=row.retryable,
    )
    err.retry_after = _retry_after_of(exc)
    return err


def _failure(
    exc: BaseException,
    litellm: Any,
    model: str,
    provider: str | None,
    url: str | None,
    api_base: str | None,
    timeout: float,
) -> Failure:
    msg = _server_message(exc)
    error = _payload_error(exc)
    status = _status_of(exc, error)
    limit = re.search(r"maximum context length is (\d+) tokens", msg)
    fields = {
        "model": model,
        "model_repr": repr(model),
        "msg": msg,
        "provider": provider or "model",
        "url": url or "",
        "api_base": api_base or "",
        "where": f" at {url}" if url else "",
        "code": f" (HTTP {status})" if status is not None else "",
        "limit": f" (its limit is {limit.group(1)} tokens)" if limit else "",
        "key_var": key_var(provider),
        "timeout": f"{timeout:g}",
        "exc_type": type(exc).__name__,
    }
    chain_names = frozenset(type(e).__name__ for e in _cause_chain(exc))
    raw = " ".join(str(e) for e in _cause_chain(exc))
    return Failure(
        exc, litellm.exceptions, msg, raw, error is not None, status, chain_names, fields
    )


def _retry_after_of(exc: BaseException) -> float | None:
    for candidate in _cause_chain(exc):
        response = getattr(candidate, "response", None)
        headers = getattr(response, "headers", None) if response is not None else None
        value = parse_retry_after(headers)
        if value is not None:
            return value
        value = parse_retry_after(getattr(candidate, "litellm_response_headers", None))
        if value is not None:
            return value
    return _body_retry_delay(_payload_error(exc))


def _body_retry_delay(error: dict[str, Any] | None) -> float | None:
    """Gemini's ``RetryInfo.retryDelay`` ("30s", "1.5s") among the error's details."""
    for detail in (error or {}).get("details") or []:
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        if isinstance(delay, str) and re.fullmatch(r"\d+(\.\d+)?s", delay.strip()):
            return float(delay.strip()[:-1])
    return None
