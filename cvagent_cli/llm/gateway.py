"""The one place that talks to litellm.

Why this module is shaped the way it is:

* ``import litellm`` costs 2-3 s and ~150 MB, so it happens lazily, at most once,
  optionally in a background thread so the REPL prompt appears at once
  (:mod:`cvagent_cli.llm.loader`).
* litellm's own retries (``num_retries``) need tenacity and retry auth and context-window
  errors with no delay, and the OpenAI SDK underneath retries twice by default.  Both are
  switched off (``num_retries=0``) and :class:`~cvagent_cli.llm.retry.RetryPolicy` is used
  instead, and only while nothing has been yielded to the caller.
* Every litellm exception becomes a :class:`~cvagent_cli.errors.ModelError` with a
  one-line message and a hint, with API keys scrubbed.  A refused or dropped connection
  arrives as ``InternalServerError`` ("Connection error.") whose cause is
  ``openai.APIConnectionError``, so the cause chain is inspected; a stream that breaks
  mid-body arrives as ``APIConnectionError`` (seen first on litellm 1.80; CI checks it on
  the lowest and the installed release of the allowed range, ``tests/llm/test_gateway.py``).
* ``--api-base`` with a bare model name means "an OpenAI-compatible server": the model
  becomes ``openai/<model>`` and, when ``OPENAI_API_KEY`` is unset, the dummy key
  ``sk-no-key-required`` is sent (local servers ignore it; the OpenAI SDK refuses to run
  without some key).  Names with a litellm provider prefix (``ollama_chat/llama3.1``,
  ``anthropic/...``) are left alone.
* ``drop_params=False``: with it on, litellm silently strips ``tools`` for models such as
  o1-mini; an explicit "does not support tool calling" error is better.
* Streams are read through :func:`~cvagent_cli.llm.streaming.guarded`: ``timeout`` is how
  long the model may stay silent (litellm's own timeout never fires while chunks keep
  coming), and the turn's deadline ends a stream that would go on for ever; every request
  carries ``max_tokens``.
* A reply that is nothing but tool calls written as text (``{"name": ..., "parameters":
  ...}``, ``<tool_call>``) is read as those calls when their names were offered
  (:mod:`cvagent_cli.llm.text_tool_calls`): small local models do this.
* Offline traps fixed in :func:`~cvagent_cli.llm.loader.load_litellm`: the deepseek
  and mistral providers load tiktoken before litellm points ``TIKTOKEN_CACHE_DIR`` at its
  bundled files (so tiktoken would download cl100k_base), and ``token_counter`` downloads
  Hugging Face tokenizers for llama names.  ``tests/llm/test_litellm_loopback.py`` checks
  both in a fresh process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from cvagent_cli.errors import ConfigError, ModelError
from cvagent_cli.llm.caching import cached_prompt_tokens, wants_cache_control, with_cache_control
from cvagent_cli.llm.loader import litellm_loaded as litellm_loaded
from cvagent_cli.llm.loader import load_litellm
from cvagent_cli.llm.loader import preload_in_background as preload_in_background
from cvagent_cli.llm.provider_errors import (  # noqa: F401 - re-exported: callers import them from here
    PROVIDER_KEY_VARS,
    key_var,
    scrub_secrets,
    translate,
)
from cvagent_cli.llm.reasoning import for_provider
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.llm.streaming import StreamOverdue, StreamStalled, guarded
from cvagent_cli.llm.text_tool_calls import offered_names, parse_text_tool_calls
from cvagent_cli.llm.tokens import estimate_request_tokens, estimate_tokens
from cvagent_cli.llm.tool_call_chunks import ToolCallAssembler, field_of
from cvagent_cli.llm.types import (
    ModelResponse,
    Retrying,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallRequest,
    Usage,
)
from cvagent_cli.settings import Settings

_log = logging.getLogger(__name__)

DUMMY_API_KEY = "sk-no-key-required"

#: providers that authenticate from ambient credentials (profiles, ADC), not one env var
_AMBIENT_CREDENTIALS = {
    "bedrock",
    "bedrock_converse",
    "sagemaker",
    "sagemaker_chat",
    "vertex_ai",
    "vertex_ai_beta",
    "vertex_ai_anthropic",
}
#: local providers: no price list, and litellm's price lookup would query the server
_LOCAL_PROVIDERS = {
    "ollama",
    "ollama_chat",
    "lm_studio",
    "hosted_vllm",
    "vllm",
    "llamafile",
    "xinference",
}
_DEFAULT_LOCAL_BASES = {"ollama": "http://localhost:11434", "ollama_chat": "http://localhost:11434"}

# ------------------------------------------------------------------ the gateway


class LiteLLMGateway:
    """A :class:`~cvagent_cli.llm.types.ModelClient` backed by litellm.

    ``last_usage`` is the usage of the latest successful call; ``session_usage`` sums all
    of them.  Never prints.
    """

    def __init__(self, settings: Settings, policy: RetryPolicy | None = None) -> None:
        if not settings.model:
            raise ConfigError(
                "no model configured",
                hint="pass -M/--model (e.g. -M openai/gpt-4o-mini or -M ollama_chat/llama3.1), set "
                "CVAGENT_MODEL, or add 'model: ...' to config.yaml",
            )
        self.settings = settings
        self.model: str = settings.model
        self.policy = (
            policy if policy is not None else RetryPolicy(max_retries=settings.max_retries)
        )
        self.last_usage: Usage | None = None
        self.session_usage: Usage = Usage()
        self._resolved: tuple[str, str | None] | None = None

    # -- public API
    @staticmethod
    def preload_in_background() -> threading.Thread:
        """Same as the module-level :func:`preload_in_background`."""
        return preload_in_background()

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        temperature: float | None = None,
        retry: bool = True,
        deadline: float | None = None,
    ) -> Iterator[StreamEvent]:
        """Stream one answer; see :class:`~cvagent_cli.llm.types.ModelClient`.

        Retryable failures are retried (with backoff, each announced by a ``Retrying``
        event) only while nothing has been yielded; a break after that raises a
        non-retryable "cut off mid-stream" error.  ``retry=False`` makes one attempt.
        """
        litellm = load_litellm()
        model, provider = self._resolve(litellm)
        self._check_environment(litellm, model, provider)
        attempt = 0
        while True:
            state = {"yielded": False}
            started = time.monotonic()
            try:
                yield from self._attempt(
                    litellm, model, provider, messages, tools, temperature, state, deadline
                )
                return
            except ModelError as err:
                _log.debug(
                    "model call failed: %s, attempt %d, after %.2f s: %s%s",
                    model,
                    attempt + 1,
                    time.monotonic() - started,
                    err.message,
                    f" ({err.hint})" if err.hint else "",
                )
                if self.policy.too_long(err.retry_after) and not state["yielded"]:
                    raise self._asked_too_long(err) from err
                if not retry or state["yielded"] or not self.policy.should_retry(err, attempt):
                    if attempt and err.retryable and not state["yielded"]:
                        raise self._gave_up(err, attempt) from err
                    raise
                wait = self.policy.delay(attempt, err.retry_after)
                if deadline is not None and time.monotonic() + wait >= deadline:
                    raise self._gave_up(err, attempt) if attempt else err from err
                attempt += 1
                yield Retrying(err.message, wait, attempt)
                self.policy.sleep(wait)

    def preflight(self) -> tuple[str, str | None]:
        """(the model name litellm is given, its provider), after the checks every call
        makes before a request: a provider litellm knows, and its key variable set."""
        litellm = load_litellm()
        model, provider = self._resolve(litellm)
        self._check_environment(litellm, model, provider)
        return model, provider

    def count_tokens(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> int:
        """litellm's tokenizer count, or the tokenizer-free estimate if that fails."""
        try:
            litellm = load_litellm()
            model, _ = self._resolve(litellm)
            kwargs: dict[str, Any] = {"model": model, "messages": messages}
            if tools:
                kwargs["tools"] = tools
            return int(litellm.token_counter(**kwargs))
        except Exception:  # any tokenizer trouble: the estimate is good enough for a count
            return estimate_request_tokens(messages, tools)

    # -- internals
    def _resolve(self, litellm: Any) -> tuple[str, str | None]:
        if self._resolved is None:
            model = self.model
            if self.settings.api_base:
                prefix = model.split("/", 1)[0] if "/" in model else None
                providers = {str(getattr(p, "value", p)) for p in litellm.provider_list}
                if prefix not in providers:
                    model = f"openai/{model}"
            try:
                provider = litellm.get_llm_provider(model)[1]
            except Exception:
                provider = None
            self._resolved = (model, provider)
        return self._resolved

    def _check_environment(self, litellm: Any, model: str, provider: str | None) -> None:
        """Fail before any request when the provider's key variable is missing."""
        if provider is None:
            raise ModelError(
                f"litellm does not know which provider serves {self.model!r}",
                hint="prefix the model with its provider (openai/gpt-4o-mini, "
                "anthropic/claude-3-5-haiku-latest, ollama_chat/llama3.1) or pass --api-base "
                "for an OpenAI-compatible server",
            )
        if self.settings.api_base or provider in _AMBIENT_CREDENTIALS:
            return
        try:
            missing = list(litellm.validate_environment(model=model).get("missing_keys") or [])
        except Exception:
            return
        secret = [k for k in missing if any(w in k.upper() for w in ("KEY", "TOKEN", "SECRET"))]
        if not secret:
            return  # e.g. OLLAMA_API_BASE: litellm has a default for it
        var = PROVIDER_KEY_VARS.get(provider) if provider else None
        names = var if var is not None and var in secret else " or ".join(secret)
        raise ModelError(
            f"no API key for {self.model}: {names} is not set",
            hint=f"export {names.split(' or ')[0]}=...; cvagent never stores keys in its "
            "config file",
        )

    def _call_kwargs(
        self,
        model: str,
        provider: str | None,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        temperature: float | None,
    ) -> dict[str, Any]:
        messages = for_provider(messages, provider, model)
        if wants_cache_control(provider):
            messages = with_cache_control(messages)
        kwargs: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
            "timeout": self.settings.timeout,
            "num_retries": 0,  # ours, not litellm's (see module docstring)
            # never drop silently: with drop_params litellm removes ``tools`` for models
            # like o1-mini and the agent would wait for tool calls that never come
            "drop_params": False,
        }
        if tools:
            kwargs["tools"] = tools
            # plain function tools never need litellm's MCP gateway, whose check imports
            # optional packages ('fastapi' in 1.92.0-1.92.2, 'mcp' in 1.106.0-1.108.3:
            # excluded in pyproject.toml, this is the second line of defence).  litellm
            # pops the kwarg: it never reaches the request body.
            kwargs["_skip_mcp_handler"] = True
        if self.settings.max_tokens:
            kwargs["max_tokens"] = self.settings.max_tokens
        temp = temperature if temperature is not None else self.settings.temperature
        if temp is not None:
            kwargs["temperature"] = temp
        if self.settings.api_base:
            kwargs["api_base"] = self.settings.api_base
            if provider == "openai" and not os.environ.get("OPENAI_API_KEY"):
                kwargs["api_key"] = DUMMY_API_KEY
        return kwargs

    def _attempt(
        self,
        litellm: Any,
        model: str,
        provider: str | None,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        temperature: float | None,
        state: dict[str, bool],
        deadline: float | None = None,
    ) -> Iterator[StreamEvent]:
        kwargs = self._call_kwargs(model, provider, messages, tools, temperature)
        started = time.monotonic()
        try:
            response = litellm.completion(**kwargs)
        except Exception as exc:
            raise self._translate(exc, litellm) from exc

        content: list[str] = []
        reasoning: list[str] = []
        calls = ToolCallAssembler()
        usage_obj: Any = None
        finish_reason: str | None = None
        try:
            for chunk in guarded(response, idle=self.settings.timeout, deadline=deadline):
                chunk_usage = getattr(chunk, "usage", None)
                if chunk_usage is not None:
                    usage_obj = chunk_usage
                choices = getattr(chunk, "choices", None) or []
                if not choices:
                    continue
                choice = choices[0]
                if getattr(choice, "finish_reason", None):
                    finish_reason = choice.finish_reason
                delta = getattr(choice, "delta", None)
                if delta is None:
                    continue
                thinking = field_of(delta, "reasoning_content")
                if thinking:
                    reasoning.append(thinking)
                    state["yielded"] = True
                    yield ThinkingDelta(thinking)
                text = field_of(delta, "content")
                if text:
                    content.append(text)
                    state["yielded"] = True
                    yield TextDelta(text)
                fragments = field_of(delta, "tool_calls")
                if fragments:
                    calls.add(fragments)
            _check_finished(response)
        except (GeneratorExit, KeyboardInterrupt):
            # The caller stopped reading (a loop or an echo cut off), or Ctrl-C came while
            # waiting for a chunk: the provider still bills the prompt and what it sent, so
            # they are counted (estimated).
            text = "".join(content)
            self._record(self._usage(litellm, model, provider, messages, tools, None, text, []))
            _log.debug(
                "model call stopped by the caller: %s after %.2f s",
                model,
                time.monotonic() - started,
            )
            raise
        except StreamOverdue:
            raise ModelError(
                f"the turn ran out of time (turn_timeout {self.settings.turn_timeout:g} s)",
                hint="ask again, or raise turn_timeout (CVAGENT_TURN_TIMEOUT)",
                retryable=False,
            ) from None
        except StreamStalled as exc:
            raise ModelError(
                f"the model sent nothing for {exc.idle:g} s"
                + (" in the middle of its answer" if state["yielded"] else ""),
                hint="the server may be overloaded; ask again, or raise timeout (CVAGENT_TIMEOUT)",
                retryable=not state["yielded"],
            ) from None
        except Exception as exc:
            err = self._translate(exc, litellm)
            if state["yielded"]:
                said = err.message  # "the model's answer stopped early: ..." says it all
                raise ModelError(
                    said
                    if said.startswith("the model's answer")
                    else f"the model's answer was cut off mid-stream: {said}",
                    hint="ask again to get a complete answer",
                    retryable=False,
                ) from exc
            raise err from exc
        finally:
            _close_quietly(response)

        text = "".join(content)
        tool_calls = calls.result()
        usage = self._record(
            self._usage(litellm, model, provider, messages, tools, usage_obj, text, tool_calls)
        )
        text, tool_calls, finish_reason = _text_calls(text, tool_calls, tools, finish_reason)
        _log_call(model, provider, messages, tools, started, usage, finish_reason, len(tool_calls))
        yield ModelResponse(
            content=text,
            tool_calls=tool_calls,
            usage=usage,
            finish_reason=finish_reason,
            model=self.model,
            reasoning="".join(reasoning),
        )

    def _record(self, usage: Usage) -> Usage:
        """``usage`` as the latest call's, added to the session's."""
        self.last_usage = usage
        self.session_usage = self.session_usage + usage
        return usage

    def _usage(
        self,
        litellm: Any,
        model: str,
        provider: str | None,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        usage_obj: Any,
        text: str,
        tool_calls: list[ToolCallRequest],
    ) -> Usage:
        prompt = field_of(usage_obj, "prompt_tokens")
        completion = field_of(usage_obj, "completion_tokens")
        cached = cached_prompt_tokens(usage_obj)
        if not isinstance(prompt, int) or not prompt:
            prompt = self.count_tokens(messages, tools)
        if not isinstance(completion, int):
            produced = text + "".join(c.name + c.arguments for c in tool_calls)
            try:
                completion = int(litellm.token_counter(model=model, text=produced))
            except Exception:
                completion = estimate_tokens(produced)
        cached = min(cached, prompt)
        cost = self._cost(litellm, model, provider, prompt, completion, cached)
        return Usage(prompt, completion, cost, cached)

    @staticmethod
    def _cost(
        litellm: Any,
        model: str,
        provider: str | None,
        prompt: int,
        completion: int,
        cached: int = 0,
    ) -> float | None:
        """Price from litellm's bundled table, cached prompt tokens at the model's cache
        price (its input price when the table has none); ``None`` for unknown or local
        models."""
        if provider in _LOCAL_PROVIDERS:
            return None  # and litellm would query the local server for model info
        bare = model.split("/", 1)[1] if "/" in model else model
        table = getattr(litellm, "model_cost", {}) or {}
        if model not in table and bare not in table:
            return None
        try:
            prompt_cost, completion_cost = litellm.cost_per_token(
                model=model, prompt_tokens=prompt - cached, completion_tokens=completion
            )
            cost = float(prompt_cost) + float(completion_cost)
            if cached:
                info = table.get(model) or table.get(bare) or {}
                rate = info.get("cache_read_input_token_cost")
                if rate is None:
                    rate = info.get("input_cost_per_token") or 0.0
                cost += cached * float(rate)
            return cost
        except Exception:
            return None

    def _server_url(self, provider: str | None) -> str | None:
        base = self.settings.api_base or _DEFAULT_LOCAL_BASES.get(provider or "")
        return scrub_secrets(base) if base else None

    def _asked_too_long(self, err: ModelError) -> ModelError:
        """The server asked for a longer wait than cvagent makes: say how long, no retry."""
        new = type(err)(
            f"{err.message} (the server asks to wait {err.retry_after:g} s; cvagent waits at "
            f"most {self.policy.max_wait:g} s)",
            hint=f"ask again in {err.retry_after:g} s",
            retryable=False,
        )
        new.retry_after = err.retry_after
        return new

    def _gave_up(self, err: ModelError, retries: int) -> ModelError:
        word = "retry" if retries == 1 else "retries"
        new = type(err)(
            f"{err.message} (gave up after {retries} {word})",
            hint=err.hint,
            retryable=err.retryable,
        )
        if hasattr(err, "retry_after"):
            new.retry_after = err.retry_after
        return new

    def _translate(self, exc: BaseException, litellm: Any) -> ModelError:
        """Map one litellm/openai/httpx exception to a user-facing ModelError."""
        if isinstance(exc, ModelError):
            return exc
        _, provider = self._resolved or (self.model, None)
        return translate(
            exc,
            litellm,
            model=self.model,
            provider=provider,
            url=self._server_url(provider),
            api_base=self.settings.api_base,
            timeout=self.settings.timeout,
        )


def _text_calls(
    text: str,
    tool_calls: list[ToolCallRequest],
    tools: list[dict[str, Any]] | None,
    finish_reason: str | None,
) -> tuple[str, list[ToolCallRequest], str | None]:
    """A reply that is only tool calls written as text (small local models) becomes
    those calls, with no text (the agent takes back what it showed)."""
    if tool_calls or not tools:
        return text, tool_calls, finish_reason
    found = parse_text_tool_calls(text, offered_names(tools))
    return ("", found, "tool_calls") if found else (text, tool_calls, finish_reason)


def _check_finished(response: Any) -> None:
    if ended_without_finish(response):
        raise ModelError(
            "the model's answer stopped early: the stream ended without its finish reason",
            hint="ask again; if it keeps happening, check your network or the server's log",
            retryable=True,
        )


def ended_without_finish(response: Any) -> bool:
    """True when litellm read a stream to its end and no chunk carried a finish reason.

    litellm then fills in ``stop`` itself for some providers, and a cut answer looked
    whole.  Recent releases raise "Stream ended before a finish_reason" for OpenAI,
    Anthropic and Ollama streams but not for DeepSeek; their stream wrapper records
    whether an OpenAI-format chunk had one (``received_any_finish_reason``).  Older ones
    (1.84) raise for none, and leave ``received_finish_reason`` and
    ``intermittent_finish_reason`` both unset when no chunk had one.  A wrapper without
    these attributes is not second-guessed; ``tests/llm/test_providers.py`` pins the
    behaviour per provider (Gemini's parser marks every chunk ``stop``: not detectable,
    a known limit in the user guide).
    """
    if hasattr(response, "uses_openai_chat_stream"):
        if not response.uses_openai_chat_stream:
            return False
        return getattr(response, "received_any_finish_reason", True) is False
    if not hasattr(response, "received_finish_reason"):
        return False
    received = response.received_finish_reason
    return received is None and getattr(response, "intermittent_finish_reason", "") is None


def _close_quietly(response: Any) -> None:
    """Release the HTTP connection of an abandoned or finished stream."""
    for target in (getattr(response, "completion_stream", None), response):
        close = getattr(target, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):
                close()
            return


def _log_call(
    model: str,
    provider: str | None,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    started: float,
    usage: Usage,
    finish_reason: str | None,
    tool_calls: int,
) -> None:
    """One debug-log line for a finished model call (``--verbose`` / ``CVAGENT_DEBUG``)."""
    _log.debug(
        "model call: %s (provider %s), %d messages, %d tools offered: %.2f s, "
        "%d prompt tokens (%d cached), %d completion tokens, cost %s, "
        "finish %s, %d tool calls",
        model,
        provider or "-",
        len(messages),
        len(tools or []),
        time.monotonic() - started,
        usage.prompt_tokens,
        usage.cached_tokens,
        usage.completion_tokens,
        "unknown" if usage.cost_usd is None else f"${usage.cost_usd:.6f}",
        finish_reason or "-",
        tool_calls,
    )
