"""Chat messages as the agent keeps them (the API's sequence rules, as tests check them, are
in tests/support/wire.py).

The models are immutable so that a message shared by ``Memory`` and ``ChatHistory`` can
never be edited behind the other's back.  ``to_wire``/``from_wire`` convert to and from the
OpenAI chat-completions dicts that litellm speaks; ``from_wire`` ignores keys we do not use
(``refusal``, ``function_call``, provider extras) because providers add them freely.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

Role = Literal["system", "user", "assistant", "tool"]


class ToolCall(BaseModel):
    """One function call requested by the model; ``arguments`` is the raw JSON string."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    name: str
    arguments: str = "{}"

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> ToolCall:
        function = data.get("function") or {}
        arguments = function.get("arguments")
        if arguments is None:
            arguments = "{}"
        elif not isinstance(arguments, str):  # some providers send the parsed object
            arguments = json.dumps(arguments, ensure_ascii=False)
        return cls(
            id=str(data.get("id") or ""), name=str(function.get("name") or ""), arguments=arguments
        )


def _content_text(content: Any) -> str | None:
    """Flatten OpenAI content parts (``[{"type": "text", "text": ...}]``) to plain text."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return str(content)


class Message(BaseModel):
    """One chat message.  Invalid combinations (a user message with tool calls, a tool
    result without the id of the call it answers) are refused at construction."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    role: Role
    content: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    name: str | None = None
    #: the model's own reasoning before this answer (thinking models): kept because
    #: DeepSeek's thinking mode wants it back with a tool-call turn
    reasoning_content: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _empty_tool_calls_are_none(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("tool_calls") == []:
            data = {**data, "tool_calls": None}
        return data

    @model_validator(mode="after")
    def _check_role_fields(self) -> Message:
        if self.role != "assistant" and (
            self.tool_calls is not None or self.reasoning_content is not None
        ):
            raise ValueError("only assistant messages carry tool_calls or reasoning_content")
        if self.role == "tool":
            if not self.tool_call_id:
                raise ValueError("a tool message needs the tool_call_id it answers")
        elif self.tool_call_id is not None:
            raise ValueError("only tool messages carry a tool_call_id")
        if self.role != "assistant" and self.content is None:
            raise ValueError(f"a {self.role} message needs content")
        return self

    # -- factories -------------------------------------------------------------------
    @classmethod
    def system(cls, text: str) -> Message:
        return cls(role="system", content=text)

    @classmethod
    def user(cls, text: str) -> Message:
        return cls(role="user", content=text)

    @classmethod
    def assistant(
        cls,
        text: str | None,
        tool_calls: list[ToolCall] | None = None,
        reasoning: str | None = None,
    ) -> Message:
        return cls(
            role="assistant",
            content=text,
            tool_calls=tool_calls or None,
            reasoning_content=reasoning or None,
        )

    @classmethod
    def tool(cls, content: str, tool_call_id: str, name: str | None = None) -> Message:
        return cls(role="tool", content=content, tool_call_id=tool_call_id, name=name)

    # -- wire format -----------------------------------------------------------------
    def to_wire(self) -> dict[str, Any]:
        """The OpenAI chat dict.  An assistant tool-call message without text sends
        ``content: null`` (accepted by the API; an empty string is refused by some
        providers); a plain assistant message never sends null, which the API rejects.
        ``reasoning_content`` is included when kept; the gateway removes it for the
        providers that do not want it (``cvagent_cli.llm.reasoning``)."""
        wire: dict[str, Any] = {"role": self.role}
        if self.role == "assistant":
            if self.tool_calls:
                wire["content"] = self.content or None
                wire["tool_calls"] = [call.to_wire() for call in self.tool_calls]
            else:
                wire["content"] = self.content if self.content is not None else ""
        else:
            wire["content"] = self.content
        if self.tool_call_id is not None:
            wire["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            wire["name"] = self.name
        if self.reasoning_content is not None:
            wire["reasoning_content"] = self.reasoning_content
        return wire

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Message:
        calls = data.get("tool_calls") or None
        return cls(
            role=data.get("role"),  # type: ignore[arg-type]  # pydantic reports a bad role
            content=_content_text(data.get("content")),
            tool_calls=[ToolCall.from_wire(c) for c in calls] if calls else None,
            tool_call_id=data.get("tool_call_id"),
            name=data.get("name"),
            reasoning_content=data.get("reasoning_content") or None,
        )

    @property
    def tool_call_ids(self) -> list[str]:
        return [call.id for call in self.tool_calls or []]


def messages_to_wire(messages: list[Message]) -> list[dict[str, Any]]:
    return [message.to_wire() for message in messages]
