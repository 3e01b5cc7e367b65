"""Translating litellm failures into user-facing errors, and scrubbing secrets from them.

Every litellm exception becomes a :class:`~cvagent_cli.errors.ModelError` with a one-line
message and a hint, with API keys scrubbed (see :mod:`cvagent_cli.llm.gateway` for what
litellm actually raises).  This module never imports litellm: :func:`translate` is handed
the loaded module by the gateway, which stays the only place that imports it.
"""

from __future__ import annotations

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


def _server_message(exc: BaseException) -> str:
    """The human part of a litellm error message, on one line, without class prefixes."""
    body = getattr(exc, "body", None)
    text = None
    if isinstance(body, dict):
        error = body.get("error")
        inner: dict[str, Any] = error if isinstance(error, dict) else body
        if isinstance(inner.get("message"), str):
            text = inner["message"]
    if not text:
        text = getattr(exc, "message", None) or str(exc)
    text = str(text)
    for _ in range(6):
        stripped = _PREFIX_RE.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    text = text.split("\nReceived Model Group", 1)[0]
    text = " ".join(text.split())
    if len(text) > 300:
        text = text[:297] + "..."
    return scrub_secrets(text)


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

Condition = Literal["context", "api_base", "url", "tools", "no_provider"]
Status = Literal["5xx", "429"]


@dataclass(frozen=True)
class ProviderError:
    """One row of the table: which failures it matches and what the user is told.

    A row matches when the exception is an instance of one of ``classes`` (names in
    ``litellm.exceptions``), or has one of ``chain`` in its cause chain (httpx and builtin
    names), or carries an HTTP ``status`` of that family, and then only if its ``when``
    condition holds.  The first matching row wins.  ``message`` and ``hint`` are
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
}

_CONTEXT_WINDOW = ProviderError(
    ("ContextWindowExceededError",),
    "the conversation is too long for {model}'s context window{limit}",
    hint="start a new chat or shorten the resume; details: {msg}",
    context_window=True,
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
        ("RateLimitError",),
        "rate limited by the model provider: {msg}",
        hint="wait a moment and try again, or check your plan's limits",
        retryable=True,
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
        ("APIConnectionError",),
        "lost the connection to the model server{where}",
        hint="the server closed the connection; try again",
        retryable=True,
        chain=_SERVER_GONE,
    ),
    ProviderError(
        ("ServiceUnavailableError", "InternalServerError", "BadGatewayError"),
        "the model server had an error{code}: {msg}",
        hint="usually temporary; try again in a moment",
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
        ("BadRequestError", "UnprocessableEntityError"),
        "the model server rejected the request: {msg}",
    ),
    ProviderError((), "rate limited by the model provider: {msg}", retryable=True, status="429"),
)

#: when no row matches
UNEXPECTED = ProviderError((), "unexpected error from litellm ({exc_type}): {msg}")


@dataclass(frozen=True)
class Failure:
    """What the table looks at in one exception, and the fields its templates use."""

    exc: BaseException
    exceptions: Any  # litellm.exceptions
    msg: str
    status: int | None
    chain_names: frozenset[str]
    fields: dict[str, str]

    def matches(self, row: ProviderError) -> bool:
        hit = (
            any(isinstance(self.exc, getattr(self.exceptions, name)) for name in row.classes)
            or bool(row.chain & self.chain_names)
            or (row.status == "5xx" and self.status is not None and self.status >= 500)
            or (row.status == "429" and self.status == 429)
        )
        return hit and (row.when is None or self.holds(row.when))

    def holds(self, condition: Condition) -> bool:
        if condition == "context":
            return _looks_like_context_error(self.msg)
        if condition == "tools":
            return bool(re.search(r"\btools?\b", self.msg)) and "temperature" not in self.msg
        if condition == "no_provider":
            return "LLM Provider NOT provided" in self.msg
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
    raw_status = getattr(exc, "status_code", None)
    status = raw_status if isinstance(raw_status, int) else None
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
    return Failure(exc, litellm.exceptions, msg, status, chain_names, fields)


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
    return None
