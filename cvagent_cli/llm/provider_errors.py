"""Translating litellm failures into user-facing errors, and scrubbing secrets from them.

Every litellm exception becomes a :class:`~cvagent_cli.errors.ModelError` with a one-line
message and a hint, with API keys scrubbed (see :mod:`cvagent_cli.llm.gateway` for what
litellm actually raises).  This module never imports litellm: :func:`translate` is handed
the loaded module by the gateway, which stays the only place that imports it.
"""

from __future__ import annotations

import re
from typing import Any

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


# ------------------------------------------------------------------ translation


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
    """Map one litellm/openai/httpx exception to a user-facing ModelError.

    ``litellm`` is the loaded module (only :mod:`cvagent_cli.llm.gateway` imports it);
    ``model`` is the name the user gave, ``url`` the scrubbed server URL, if any.
    """
    if isinstance(exc, ModelError):
        return exc
    ex = litellm.exceptions
    msg = _server_message(exc)
    status = getattr(exc, "status_code", None)
    chain_names = {type(e).__name__ for e in _cause_chain(exc)}

    def make(
        cls: type[ModelError], message: str, hint: str | None = None, retryable: bool = False
    ) -> ModelError:
        err = cls(
            scrub_secrets(message), hint=scrub_secrets(hint) if hint else None, retryable=retryable
        )
        err.retry_after = _retry_after_of(exc)
        return err

    if isinstance(exc, ex.ContextWindowExceededError) or (
        isinstance(exc, ex.BadRequestError) and _looks_like_context_error(msg)
    ):
        limit = re.search(r"maximum context length is (\d+) tokens", msg)
        detail = f" (its limit is {limit.group(1)} tokens)" if limit else ""
        return make(
            ContextWindowError,
            f"the conversation is too long for {model}'s context window{detail}",
            hint="start a new chat or shorten the resume; details: " + msg,
        )
    if isinstance(exc, ex.AuthenticationError):
        var = key_var(provider)
        if api_base:
            hint = f"the server at {url} rejected the key; set {var} to the key it expects"
        else:
            hint = f"check {var}: it is missing, wrong or revoked"
        return make(ModelError, f"authentication failed for {model}", hint=hint)
    if isinstance(exc, ex.PermissionDeniedError):
        return make(
            ModelError,
            f"access denied to {model}: {msg}",
            hint="your key may not have access to this model",
        )
    if isinstance(exc, ex.NotFoundError):
        return make(
            ModelError,
            f"model not found: {model}",
            hint=f"check the model name; the server said: {msg}",
        )
    if isinstance(exc, ex.RateLimitError):
        return make(
            ModelError,
            f"rate limited by the model provider: {msg}",
            hint="wait a moment and try again, or check your plan's limits",
            retryable=True,
        )
    if (
        isinstance(exc, ex.Timeout)
        or "ReadTimeout" in chain_names
        or "APITimeoutError" in chain_names
    ):
        return make(
            ModelError,
            f"the model did not answer within {timeout:g} s",
            hint="the server may be busy; raise the limit (seconds) with CVAGENT_TIMEOUT or timeout: in config.yaml",
            retryable=True,
        )
    if chain_names & {"ConnectError", "ConnectionRefusedError", "ConnectTimeout"}:
        if url:
            return make(
                ModelError,
                f"cannot reach the model server at {url} — is it running?",
                hint="start the server or fix --api-base",
                retryable=True,
            )
        return make(
            ModelError,
            f"cannot reach the {provider or 'model'} API for {model}",
            hint="check your network connection",
            retryable=True,
        )
    if isinstance(exc, ex.APIConnectionError) or chain_names & {
        "APIConnectionError",
        "RemoteProtocolError",
        "ReadError",
        "ConnectionResetError",
        "ConnectionAbortedError",
        "BrokenPipeError",
    }:
        where = f" at {url}" if url else ""
        return make(
            ModelError,
            f"lost the connection to the model server{where}",
            hint="the server closed the connection; try again",
            retryable=True,
        )
    if isinstance(
        exc, (ex.ServiceUnavailableError, ex.InternalServerError, ex.BadGatewayError)
    ) or (isinstance(status, int) and status >= 500):
        code = f" (HTTP {status})" if isinstance(status, int) else ""
        return make(
            ModelError,
            f"the model server had an error{code}: {msg}",
            hint="usually temporary; try again in a moment",
            retryable=True,
        )
    if isinstance(exc, ex.ContentPolicyViolationError):
        return make(
            ModelError,
            f"the provider refused the request: {msg}",
            hint="its content policy blocked this message",
        )
    if isinstance(exc, ex.UnsupportedParamsError):
        if re.search(r"\btools?\b", msg) and "temperature" not in msg:
            return make(
                ModelError,
                f"{model} does not support tool calling",
                hint="cvagent's chat needs a model with tool calling, e.g. "
                "openai/gpt-4o-mini or anthropic/claude-3-5-haiku-latest",
            )
        return make(
            ModelError,
            f"{model} does not accept a parameter cvagent sent: {msg}",
            hint="if it is temperature, remove it from config.yaml or the command line",
        )
    if isinstance(exc, (ex.BadRequestError, ex.UnprocessableEntityError)):
        if "LLM Provider NOT provided" in msg:
            return make(
                ModelError,
                f"litellm does not know which provider serves {model!r}",
                hint="prefix the model with its provider, e.g. openai/gpt-4o-mini "
                "or ollama_chat/llama3.1, or pass --api-base",
            )
        return make(ModelError, f"the model server rejected the request: {msg}")
    if isinstance(status, int) and status == 429:
        return make(ModelError, f"rate limited by the model provider: {msg}", retryable=True)
    return make(ModelError, f"unexpected error from litellm ({type(exc).__name__}): {msg}")


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
