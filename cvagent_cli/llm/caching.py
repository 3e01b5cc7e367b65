"""Prompt-cache hints and cached-token accounting.

OpenAI and DeepSeek cache a repeated prompt prefix on their own (cvagent orders each
request so that it starts with the previous one's bytes, see ``agent/request.py``);
local llama.cpp / vLLM servers reuse the KV cache of an unchanged prefix the same way.
Anthropic caches only up to ``cache_control`` breakpoints that the request marks, so for
its models the messages get at most four: the system prompt (with the tool schemas
before it), the last earlier-history message, the current turn's first message and the
last message.  Other providers never see the field (strict OpenAI-compatible servers
reject unknown fields).
"""

from __future__ import annotations

from typing import Any

from cvagent_cli.llm.tool_call_chunks import field_of

#: providers (as litellm names them) that take ``cache_control`` breakpoints
CACHE_CONTROL_PROVIDERS = frozenset({"anthropic"})
EPHEMERAL = {"type": "ephemeral"}
MAX_BREAKPOINTS = 4


def wants_cache_control(provider: str | None) -> bool:
    return provider in CACHE_CONTROL_PROVIDERS


def breakpoints(messages: list[dict[str, Any]]) -> list[int]:
    """Indexes of the messages to mark, oldest first (see the module docstring)."""
    marks: list[int] = []

    def add(index: int) -> None:
        if 0 <= index < len(messages) and index not in marks and _markable(messages[index]):
            marks.append(index)

    if messages and messages[0].get("role") == "system":
        add(0)
    current = max(
        (i for i, m in enumerate(messages) if m.get("role") == "user"), default=len(messages)
    )
    add(current - 1)
    add(current)
    add(len(messages) - 1)
    return sorted(marks)[:MAX_BREAKPOINTS]


def with_cache_control(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of ``messages`` with ``cache_control`` on the :func:`breakpoints`; the
    others are the very same dicts."""
    out = list(messages)
    for index in breakpoints(messages):
        message = messages[index]
        content = message["content"]
        if isinstance(content, str):
            blocks = [{"type": "text", "text": content, "cache_control": EPHEMERAL}]
        else:
            blocks = [dict(b) for b in content]
            blocks[-1]["cache_control"] = EPHEMERAL
        out[index] = {**message, "content": blocks}
    return out


def _markable(message: dict[str, Any]) -> bool:
    content = message.get("content")
    if message.get("role") == "tool":
        return False  # litellm does not carry cache_control into every tool_result shape
    if isinstance(content, str):
        return bool(content)
    return isinstance(content, list) and bool(content) and isinstance(content[-1], dict)


def cached_prompt_tokens(usage: Any) -> int:
    """Prompt tokens read from the provider's cache, as litellm reports them:
    ``prompt_tokens_details.cached_tokens`` (OpenAI, DeepSeek, and Anthropic through
    litellm) or Anthropic's own ``cache_read_input_tokens``."""
    details = field_of(usage, "prompt_tokens_details")
    for value in (field_of(details, "cached_tokens"), field_of(usage, "cache_read_input_tokens")):
        if isinstance(value, int) and value > 0:
            return value
    return 0
