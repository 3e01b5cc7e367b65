"""Chat messages as the agent keeps them, and the rules the chat API enforces on them.

The models are immutable so that a message shared by ``Memory`` and ``ChatHistory`` can
never be edited behind the other's back.  ``to_wire``/``from_wire`` convert to and from the
OpenAI chat-completions dicts that litellm speaks; ``from_wire`` ignores keys we do not use
(``refusal``, ``function_call``, provider extras) because providers add them freely.

``validate_sequence`` is deliberately dependency-free (dicts in, strings out): the test
loopback server uses it to reject requests the way the real API does, so the agent's
memory rules are checked against the same function the server applies.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

Role = Literal["system", "user", "assistant", "tool"]

#: Roles the chat API knows.  ``developer`` is OpenAI's newer name for ``system``.
KNOWN_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})

#: OpenAI's own wording (typo included) for a tool result that answers no call.
ORPHAN_TOOL_ERROR = (
    "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"
)
UNANSWERED_ERROR = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to "
    "each 'tool_call_id'. The following tool_call_ids did not have response messages"
)


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

    @model_validator(mode="before")
    @classmethod
    def _empty_tool_calls_are_none(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("tool_calls") == []:
            data = {**data, "tool_calls": None}
        return data

    @model_validator(mode="after")
    def _check_role_fields(self) -> Message:
        if self.tool_calls is not None and self.role != "assistant":
            raise ValueError("only assistant messages carry tool_calls")
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
    def assistant(cls, text: str | None, tool_calls: list[ToolCall] | None = None) -> Message:
        return cls(role="assistant", content=text, tool_calls=tool_calls or None)

    @classmethod
    def tool(cls, content: str, tool_call_id: str, name: str | None = None) -> Message:
        return cls(role="tool", content=content, tool_call_id=tool_call_id, name=name)

    # -- wire format -----------------------------------------------------------------
    def to_wire(self) -> dict[str, Any]:
        """The OpenAI chat dict.  An assistant tool-call message without text sends
        ``content: null`` (accepted by the API; an empty string is refused by some
        providers); a plain assistant message never sends null, which the API rejects."""
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
        )

    @property
    def tool_call_ids(self) -> list[str]:
        return [call.id for call in self.tool_calls or []]


def messages_to_wire(messages: list[Message]) -> list[dict[str, Any]]:
    return [message.to_wire() for message in messages]


def _content_problems(message: dict[str, Any], index: int, *, allow_null: bool) -> list[str]:
    content = message.get("content")
    if content is None:
        return (
            []
            if allow_null
            else [f"messages[{index}]: a {message.get('role')} message needs 'content'"]
        )
    if isinstance(content, str) or (
        isinstance(content, list) and all(isinstance(p, dict) and "type" in p for p in content)
    ):
        return []
    return [f"messages[{index}]: 'content' must be a string or an array of typed parts"]


def validate_sequence(wire_messages: list[dict[str, Any]]) -> list[str]:
    """Every reason the chat API would refuse this message list; empty means valid.

    Tool results must directly follow (only other tool results in between) the assistant
    message whose tool call they answer, and every tool call must be answered before the
    next non-tool message *or the end of the list*: a list ending in an unanswered call
    cannot be sent.  Duplicate ids are checked within one assistant message (and a call
    answered twice); reusing an id in a later, separate round is accepted, as the API does.
    Content must be a string or typed parts, and may be null only beside tool calls.
    """
    problems: list[str] = []
    open_index: int | None = None
    answered: dict[str, bool] = {}

    def close() -> None:
        missing = [cid for cid, done in answered.items() if not done]
        if open_index is not None and missing:
            problems.append(f"messages[{open_index}]: {UNANSWERED_ERROR}: {', '.join(missing)}")

    for index, message in enumerate(wire_messages):
        if not isinstance(message, dict):
            problems.append(f"messages[{index}]: not an object")
            continue
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if not call_id or not isinstance(call_id, str):
                problems.append(f"messages[{index}]: a tool message is missing 'tool_call_id'")
            elif call_id not in answered:
                problems.append(
                    f"messages[{index}]: {ORPHAN_TOOL_ERROR} (tool_call_id {call_id!r})"
                )
            elif answered[call_id]:
                problems.append(
                    f"messages[{index}]: tool_call_id {call_id!r} is answered more than once"
                )
            else:
                answered[call_id] = True
            problems.extend(_content_problems(message, index, allow_null=False))
            continue
        close()
        open_index, answered = None, {}
        if not isinstance(role, str) or role not in KNOWN_ROLES:
            problems.append(f"messages[{index}]: unknown role {role!r}")
            continue
        calls = message.get("tool_calls") if role == "assistant" else None
        if calls is not None and (not isinstance(calls, list) or not calls):
            problems.append(f"messages[{index}]: 'tool_calls' must be a non-empty array")
        elif calls:
            open_index = index
            for position, call in enumerate(calls):
                where = f"messages[{index}].tool_calls[{position}]"
                call_id = call.get("id") if isinstance(call, dict) else None
                function = call.get("function") if isinstance(call, dict) else None
                if not call_id or not isinstance(call_id, str):
                    problems.append(f"{where}: missing 'id'")
                elif call_id in answered:
                    problems.append(f"{where}: duplicate id {call_id!r}")
                else:
                    answered[call_id] = False
                if not isinstance(call, dict) or call.get("type") != "function":
                    problems.append(f"{where}: 'type' must be 'function'")
                if not isinstance(function, dict) or not all(
                    isinstance(function.get(key), str) for key in ("name", "arguments")
                ):
                    problems.append(f"{where}: 'function' needs string 'name' and 'arguments'")
        problems.extend(_content_problems(message, index, allow_null=bool(calls)))
    close()
    return problems
