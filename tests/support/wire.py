"""The rules the chat API enforces on a message list, as the tests check them.

``validate_sequence`` is deliberately dependency-free (dicts in, strings out): the scripted
model and the tests use it to reject requests the way the real API does, so the agent's
memory rules are checked against the same function everywhere.  ``user_words`` undoes
:func:`cvagent_cli.agent.request.with_context` so a test can read what the user typed.
"""

from __future__ import annotations

from typing import Any

from cvagent_cli.agent.request import CONTEXT_CLOSE, CONTEXT_OPEN

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


def user_words(content: str) -> str:
    """The user's own words of a message built by ``with_context``."""
    marker = f"\n\n{CONTEXT_OPEN}\n"
    if marker in content and f"\n{CONTEXT_CLOSE}" in content:
        return content.split(marker, 1)[0]
    return content


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
