"""The vocabulary between the agent and any model backend.

The agent depends only on :class:`ModelClient` and these small value types, never on
litellm: importing litellm costs seconds and ~150 MB, and tests drive the agent with
scripted fakes that yield the same types.  Nothing here imports litellm.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class TextDelta:
    """A piece of the visible answer, in arrival order."""

    text: str


@dataclass(frozen=True)
class ThinkingDelta:
    """A piece of ``reasoning_content`` (deepseek-reasoner and similar): shown dimmed and
    never part of :attr:`ModelResponse.content`.  The whole of it comes back as
    :attr:`ModelResponse.reasoning`; the agent keeps it with its assistant turn because
    DeepSeek's thinking mode refuses a tool-call turn sent back without it (the gateway
    sends it only to the providers that want it, see ``llm/reasoning.py``)."""

    text: str


@dataclass(frozen=True)
class ToolCallRequest:
    """One fully assembled tool call.

    ``arguments`` stays the raw JSON string the model produced: models do emit invalid
    JSON, and the agent must be able to answer that with a tool error instead of the
    gateway crashing while parsing.
    """

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Usage:
    """Token counts and cost of one call (or, summed with ``+``, of a session).

    ``cost_usd`` is ``None`` when the price is unknown (local and unlisted models).
    Adding keeps the known part: ``None + None`` is ``None``, ``None + x`` is ``x``.
    ``cached_tokens`` is the part of ``prompt_tokens`` the provider read from its prompt
    cache (billed at its cache price, which ``cost_usd`` already applies).
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    cached_tokens: int = 0  # of prompt_tokens, read from the provider's prompt cache

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        if self.cost_usd is None and other.cost_usd is None:
            cost = None
        else:
            cost = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            cost,
            self.cached_tokens + other.cached_tokens,
        )

    def __sub__(self, other: Usage) -> Usage:
        """What a running total added since it was ``other``."""
        if not isinstance(other, Usage):
            return NotImplemented
        if self.cost_usd is None and other.cost_usd is None:
            cost = None
        else:
            cost = (self.cost_usd or 0.0) - (other.cost_usd or 0.0)
        return Usage(
            self.prompt_tokens - other.prompt_tokens,
            self.completion_tokens - other.completion_tokens,
            cost,
            self.cached_tokens - other.cached_tokens,
        )


@dataclass(frozen=True)
class ModelResponse:
    """The end of one streamed answer: full text, assembled tool calls, usage."""

    content: str
    tool_calls: list[ToolCallRequest] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    model: str = ""
    reasoning: str = ""  # the ThinkingDelta texts joined


@dataclass(frozen=True)
class Retrying:
    """The call failed with a retryable error and is tried again after ``delay`` seconds
    (``attempt`` counts the retries); nothing was streamed yet."""

    message: str
    delay: float
    attempt: int


StreamEvent = TextDelta | ThinkingDelta | Retrying | ModelResponse


@runtime_checkable
class ModelClient(Protocol):
    """What the agent needs from a model: stream an answer, count tokens, and own the
    session's usage (the one place tokens and cost are added up).

    ``stream`` yields :class:`TextDelta`/:class:`ThinkingDelta` as they arrive (and
    :class:`Retrying` before a retry) and ends with exactly one :class:`ModelResponse`.
    ``retry=False`` asks for a single attempt (the intent classifier: it is not worth a
    backoff).  ``deadline`` (a ``time.monotonic()`` value) ends the answer, retries
    included, with a ``ModelError`` once it passes.  Failures are raised as
    ``cvagent_cli.errors.ModelError`` (``ContextWindowError`` when the prompt is too
    long); a ``ModelError`` raised after deltas were yielded means the partial answer
    must be discarded.  A stream the caller closes early (it stopped reading) still adds
    its usage to ``session_usage``: the provider bills the prompt and what it sent.
    """

    model: str
    session_usage: Usage

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        temperature: float | None = None,
        retry: bool = True,
        deadline: float | None = None,
    ) -> Iterator[StreamEvent]: ...

    def count_tokens(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> int: ...
