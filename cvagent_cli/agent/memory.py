"""The agent's runtime conversation window (OpenManus ``Memory``), kept always sendable.

A plain "keep the last N messages" window breaks the chat API: cutting between an
assistant tool-call message and its results leaves an orphan tool message, and the next
request fails with HTTP 400.  So trimming works on whole units:

* a *turn* starts at a ``user`` message and runs to the next one;
* inside a turn, a *group* is one assistant message plus all of its tool results.

Over the limit, whole oldest turns go first.  If the newest turn alone is still too
long, its oldest groups go, but never its opening user message (the request being worked
on, and the message Anthropic/Gemini require first) nor its newest group (it may still be
waiting for tool results).  The limit is therefore soft in one case: a window holding just
that user message and one oversized group can exceed ``max_messages``; splitting the group
would make it unsendable, and dropping the request would make the model lose the task.

System messages are refused: the agent rebuilds its system prompt on every call.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cvagent_cli.agent.messages import Message, messages_to_wire


def _split_turns(messages: list[Message]) -> list[list[Message]]:
    turns: list[list[Message]] = []
    for message in messages:
        if message.role == "user" or not turns:
            turns.append([])
        turns[-1].append(message)
    return turns


def _split_groups(turn: list[Message]) -> tuple[list[Message], list[list[Message]]]:
    """(the opening user message(s), the assistant groups that follow)."""
    head: list[Message] = []
    groups: list[list[Message]] = []
    for message in turn:
        if message.role == "assistant":
            groups.append([message])
        elif groups:
            groups[-1].append(message)
        else:
            head.append(message)
    return head, groups


def cleanup_incomplete_sequences(messages: Iterable[Message]) -> list[Message]:
    """Repair a loaded or interrupted sequence so the chat API accepts it.

    Drops tool results that answer no call of the assistant message right before them,
    and assistant tool-call messages missing any result (their text, if any, survives as
    a plain assistant message: the user saw it).  Leading non-user messages are dropped so
    the window starts at a user message.
    """
    items = list(messages)
    out: list[Message] = []
    index = 0
    while index < len(items):
        message = items[index]
        index += 1
        if message.role == "tool":  # not consumed by an assistant group below: orphan
            continue
        if message.role != "assistant" or not message.tool_calls:
            out.append(message)
            continue
        ids = message.tool_call_ids
        results: dict[str, Message] = {}
        while index < len(items) and items[index].role == "tool":
            result = items[index]
            index += 1
            if result.tool_call_id in ids and result.tool_call_id not in results:
                results[result.tool_call_id] = result
        ids_ok = all(ids) and len(set(ids)) == len(ids)
        if ids_ok and set(results) == set(ids):
            out.append(message)
            out.extend(results.values())
        elif message.content and message.content.strip():
            out.append(Message(role="assistant", content=message.content, name=message.name))
    while out and out[0].role != "user":
        out.pop(0)
    return out


class Memory:
    """The last ``max_messages`` messages, trimmed by whole turns and groups."""

    def __init__(self, max_messages: int = 50) -> None:
        if max_messages < 1:
            raise ValueError("max_messages must be at least 1")
        self.max_messages = max_messages
        self._messages: list[Message] = []

    @property
    def messages(self) -> list[Message]:
        return list(self._messages)

    def __len__(self) -> int:
        return len(self._messages)

    def to_wire(self) -> list[dict[str, Any]]:
        return messages_to_wire(self._messages)

    def clear(self) -> None:
        self._messages = []

    def turns(self) -> list[list[Message]]:
        return _split_turns(self._messages)

    def pending_tool_call_ids(self) -> list[str]:
        """Ids of the newest assistant message's tool calls that have no result yet."""
        for position in range(len(self._messages) - 1, -1, -1):
            message = self._messages[position]
            if message.role == "tool":
                continue
            if message.role != "assistant" or not message.tool_calls:
                return []
            answered = {m.tool_call_id for m in self._messages[position + 1 :]}
            return [cid for cid in message.tool_call_ids if cid not in answered]
        return []

    def add(self, message: Message) -> None:
        """Append one message, keeping the window sendable.

        Raises ``ValueError`` for a system message, a first message that is not from the
        user, and a tool result that answers no pending call (each is a bug in the caller
        and would be a 400 from the API).  A user or assistant message arriving while tool
        calls are still unanswered means the round was abandoned: the incomplete round is
        discarded first, exactly as ``discard_incomplete`` would.
        """
        if message.role == "system":
            raise ValueError(
                "system messages are not stored in Memory; the agent adds its prompt per call"
            )
        pending = self.pending_tool_call_ids()
        if message.role == "tool":
            if message.tool_call_id not in pending:
                raise ValueError(
                    f"tool result {message.tool_call_id!r} answers no pending tool call"
                )
        else:
            if pending:
                self.discard_incomplete()
            if not self._messages and message.role != "user":
                raise ValueError("the conversation must start with a user message")
        self._messages.append(message)
        self._trim()

    def discard_incomplete(self) -> None:
        """Drop unanswered tool calls and orphan results in place (after Ctrl-C)."""
        self._messages = cleanup_incomplete_sequences(self._messages)

    def drop_unanswered(self, message: Message) -> bool:
        """Remove ``message`` if it is last with nothing after it: a request whose call
        failed is not part of the conversation (resuming it later would show it)."""
        if self._messages and self._messages[-1] is message:
            self._messages.pop()
            return True
        return False

    def replace_from(self, messages: Iterable[Message]) -> None:
        """Load a saved conversation: system messages dropped, repaired, then trimmed."""
        kept = [m for m in messages if m.role != "system"]
        self._messages = cleanup_incomplete_sequences(kept)
        self._trim()

    def trim_oldest_turn(self) -> bool:
        """Drop the oldest turn (or, with one turn left, its oldest group).

        Used when the API reports the context window was exceeded.  Returns False when
        only the current request and its newest group remain: nothing more can go.
        """
        turns = self.turns()
        if len(turns) > 1:
            del self._messages[: len(turns[0])]
            return True
        if turns:
            head, groups = _split_groups(turns[0])
            if len(groups) > 1:
                start = len(head)
                del self._messages[start : start + len(groups[0])]
                return True
        return False

    def _trim(self) -> None:
        while len(self._messages) > self.max_messages and self.trim_oldest_turn():
            pass
