"""``cvagent doctor``: check the configured model once, quickly and cheaply.

The checks, in order, each a :class:`Check` with a fix when it is not ``ok``:

1. **provider** — litellm knows which provider serves the model name;
2. **API key** — the provider's key variable is set (no request is made without it);
3. **answer** — one streamed request of a few tokens ("count from 1 to 5") gets an answer,
   and in more than one piece (a server that does not stream is slow to show anything);
4. **tool calling** — one request offering a single no-argument tool gets a call to it
   (a call written as text counts, as in the chat);
5. **context window** and **price** — what litellm's bundled model list says (a model
   missing there has its system prompt folded into the first user turn by some
   providers, and its cost is shown as unknown).

At most two requests of ``max_tokens`` 32 are made, without retries; their usage is
reported.  Nothing here prints: the command renders the checks.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cvagent_cli.errors import ModelError
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.llm.loader import load_litellm
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.llm.types import ModelResponse, TextDelta, Usage
from cvagent_cli.settings import Settings
from cvagent_cli.store.statefiles import write_private_json

Status = Literal["ok", "warn", "fail", "skip"]

#: the one tool offered in the tool-calling check
PING_TOOL = {
    "type": "function",
    "function": {
        "name": "ping",
        "description": "Answer a health check. Call it when asked to.",
        "parameters": {"type": "object", "properties": {}},
    },
}
CHECK_TOKENS = 32
#: Providers that serve a model from the user's own machine: never in litellm's price list.
LOCAL_PROVIDERS = ("ollama", "ollama_chat", "hosted_vllm", "lm_studio", "llamafile")
CHECK_TIMEOUT = 30.0
_NEEDS_TOOLS = (
    "cvagent's chat needs a model that calls tools: e.g. openai/gpt-4o-mini, "
    "anthropic/claude-3-5-haiku-latest, ollama_chat/qwen2.5"
)


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class Report:
    model: str
    checks: list[Check]
    usage: Usage

    @property
    def failed(self) -> bool:
        return any(c.status == "fail" for c in self.checks)


def run_checks(settings: Settings, clock: Callable[[], float] = time.monotonic) -> Report:
    """Run the checks for ``settings.model`` (a ``ConfigError`` when none is set)."""
    cheap = settings.model_copy(
        update={
            "max_tokens": CHECK_TOKENS,
            "timeout": min(settings.timeout, CHECK_TIMEOUT),
            "temperature": None,
        }
    )
    gateway = LiteLLMGateway(cheap, RetryPolicy(max_retries=0))
    litellm = load_litellm()
    checks: list[Check] = []
    try:
        model, provider = gateway.preflight()
    except ModelError as err:
        name = "provider" if "which provider" in err.message else "API key"
        checks.append(Check(name, "fail", err.message, err.hint or ""))
        return Report(settings.model or "", _with_skips(checks), gateway.session_usage)
    checks.append(Check("provider", "ok", f"{provider} ({model})"))
    checks.append(Check("API key", "ok", _key_detail(settings, provider)))
    answered = _answer_check(gateway, clock)
    checks.append(answered)
    if answered.status == "fail":
        checks.append(Check("tool calling", "skip", "no answer to check"))
    else:
        checks.append(_tool_check(gateway))
    checks.extend(_model_list_checks(litellm, model, provider))
    return Report(settings.model or "", checks, gateway.session_usage)


def _with_skips(checks: list[Check]) -> list[Check]:
    done = {c.name for c in checks}
    names = ["provider", "API key", "answer", "tool calling"]
    return checks + [Check(n, "skip", "not checked") for n in names if n not in done]


def _key_detail(settings: Settings, provider: str | None) -> str:
    if settings.api_base:
        return f"not needed for {settings.api_base}"
    return "set" if provider else "not needed"


def _answer_check(gateway: LiteLLMGateway, clock: Callable[[], float]) -> Check:
    started = clock()
    pieces = 0
    try:
        for event in gateway.stream(
            [{"role": "user", "content": "Count from 1 to 5, digits separated by spaces."}],
            retry=False,
        ):
            if isinstance(event, TextDelta):
                pieces += 1
            elif isinstance(event, ModelResponse) and not event.content.strip():
                return Check(
                    "answer", "warn", "the model answered with nothing", "try another model"
                )
    except ModelError as err:
        return Check("answer", "fail", err.message, err.hint or "")
    took = f"answered in {clock() - started:.1f} s"
    if pieces <= 1:
        return Check(
            "answer",
            "warn",
            f"{took}, in one piece (not streamed)",
            "answers appear only when complete; a server that streams shows them sooner",
        )
    return Check("answer", "ok", f"{took}, streamed in {pieces} pieces")


def _tool_check(gateway: LiteLLMGateway) -> Check:
    request = [{"role": "user", "content": "Call the ping tool now. Do not write anything."}]
    try:
        response = next(
            e for e in gateway.stream(request, [PING_TOOL], retry=False)
            if isinstance(e, ModelResponse)
        )  # fmt: skip
    except ModelError as err:
        return Check("tool calling", "fail", err.message, err.hint or _NEEDS_TOOLS)
    if any(call.name == "ping" for call in response.tool_calls):
        return Check("tool calling", "ok", "called the offered tool")
    return Check(
        "tool calling",
        "fail",
        "answered in words instead of calling the offered tool",
        "the model or its server may not support tool calling (llama.cpp: --jinja; vLLM: "
        "--enable-auto-tool-choice); " + _NEEDS_TOOLS,
    )


def _model_list_checks(litellm: Any, model: str, provider: str | None) -> list[Check]:
    info = _model_info(litellm, model)
    if info is None:
        local = provider in LOCAL_PROVIDERS
        note = (
            "a local model: not in litellm's model list" if local else "not in litellm's model list"
        )
        fix = (
            "" if local else "check the model name; a listed name gets its price and context window"
        )
        return [
            Check("context window", "warn", f"unknown ({note})", fix),
            Check("price", "warn", "unknown: costs are shown as unknown", fix),
        ]
    window = info.get("max_input_tokens") or info.get("max_tokens")
    checks = [
        Check("context window", "ok", f"{int(window):,} tokens")
        if isinstance(window, int)
        else Check("context window", "warn", "not in litellm's model list")
    ]
    prompt, completion = info.get("input_cost_per_token"), info.get("output_cost_per_token")
    if isinstance(prompt, (int, float)) and isinstance(completion, (int, float)):
        per_million = f"${prompt * 1e6:.2f} / ${completion * 1e6:.2f} per million tokens in / out"
        checks.append(Check("price", "ok", per_million))
    else:
        checks.append(Check("price", "warn", "unknown: costs are shown as unknown"))
    return checks


def _model_info(litellm: Any, model: str) -> dict[str, Any] | None:
    """The model's entry in litellm's bundled list (never a request to a server)."""
    table = getattr(litellm, "model_cost", {}) or {}
    bare = model.split("/", 1)[1] if "/" in model else model
    entry = table.get(model) or table.get(bare)
    return dict(entry) if isinstance(entry, dict) else None


#: The models a chat has already met (a JSON list in the state dir): the first-use note
#: is said once per model, not at every start.
SEEN_FILE = "models_seen.json"
MAX_SEEN = 100  # the oldest are forgotten (said again if ever met again)


def first_use_note(gateway: LiteLLMGateway, seen_path: Path | None) -> str | None:
    """The cheap part of the checks (no request: what litellm's model list says), for the
    chat's first use of a model; None when the model was met before or is well known.

    The provider and key checks are the chat's own (its first call makes them and says
    what is wrong); a failure here is never the chat's failure."""
    model = gateway.model
    if not model or seen_path is None or model in _read_seen(seen_path):
        return None
    _remember(seen_path, model)
    try:
        resolved, provider = gateway.preflight()
    except ModelError:
        return None
    checks = _model_list_checks(load_litellm(), resolved, provider)
    if all(c.status == "ok" for c in checks):
        return None
    what = "a local model" if provider in LOCAL_PROVIDERS else "not in litellm's model list"
    return (
        f"first chat with {model} ({what}): its context window and price are unknown, so "
        "costs show as unknown — `cvagent doctor` checks that it answers, streams and calls tools"
    )


def _read_seen(path: Path) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [m for m in data if isinstance(m, str)] if isinstance(data, list) else []


def _remember(path: Path, model: str) -> None:
    models = [m for m in _read_seen(path) if m != model][-(MAX_SEEN - 1) :] + [model]
    with contextlib.suppress(OSError):  # a full disk costs the memory, not the chat
        path.parent.mkdir(parents=True, exist_ok=True)
        write_private_json(path, models)
