"""A scripted ModelClient for unit tests (simonw/llm's MockModel.enqueue idea).

It validates every request exactly like the strict loopback server would, so a test
fails if the agent ever sends an invalid message sequence.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

from cvagent_cli.agent.intent import CLASSIFIER_PROMPT
from cvagent_cli.errors import ModelError
from cvagent_cli.llm.types import ModelResponse, TextDelta, ToolCallRequest, Usage
from tests.support.wire import validate_sequence


@dataclass
class Call:
    name: str
    arguments: dict | str


@dataclass
class Reply:
    text: str = ""
    calls: list[Call] = field(default_factory=list)
    error: Exception | None = None
    finish_reason: str | None = None


def tool(tool_name: str, /, **arguments) -> Reply:
    return Reply(calls=[Call(tool_name, arguments)])


class ScriptedModel:
    """Replies from a script.  The intent classifier's requests (recognised by their system
    prompt) are answered with ``intent_label`` and kept apart in ``classifier_requests``, so
    a session runs with the production default (classifier on) without scripting them."""

    model = "scripted/test"

    def __init__(self, *replies: Reply | str, intent_label: str = "UNKNOWN") -> None:
        self.replies: list[Reply] = [Reply(text=r) if isinstance(r, str) else r for r in replies]
        self.requests: list[dict] = []
        self.classifier_requests: list[list[dict]] = []
        self.intent_label = intent_label
        self.default = "OK."
        self.session_usage = Usage()
        self._counter = 0

    def enqueue(self, *replies: Reply | str) -> ScriptedModel:
        self.replies += [Reply(text=r) if isinstance(r, str) else r for r in replies]
        return self

    def stream(
        self,
        messages: list[dict],
        tools: list[dict] | None = None,
        *,
        temperature: float | None = None,
        retry: bool = True,
        deadline: float | None = None,
    ) -> Iterator:
        if messages and str(messages[0].get("content", "")).startswith(CLASSIFIER_PROMPT[:40]):
            self.classifier_requests.append(messages)
            usage = Usage(sum(len(str(m.get("content"))) for m in messages) // 4, 1, None)
            self.session_usage = self.session_usage + usage
            yield ModelResponse(content=self.intent_label, usage=usage, model=self.model)
            return
        problems = validate_sequence([m for m in messages if m["role"] != "system"])
        self.requests.append({"messages": json.loads(json.dumps(messages)), "tools": tools})
        if problems:
            raise ModelError("400 from scripted model: " + "; ".join(problems))
        reply = self.replies.pop(0) if self.replies else Reply(text=self.default)
        if reply.error is not None:
            raise reply.error
        prompt = sum(len(str(m.get("content") or "")) for m in messages) // 4
        sent = 0
        try:
            for sent in range(7, len(reply.text) + 7, 7):
                yield TextDelta(reply.text[sent - 7 : sent])
        except GeneratorExit:  # the caller stopped reading: bill what was sent, as providers do
            self.session_usage = self.session_usage + Usage(prompt, min(sent, len(reply.text)) // 4)
            raise
        calls = []
        for call in reply.calls:
            self._counter += 1
            args = (
                call.arguments
                if isinstance(call.arguments, str)
                else json.dumps(call.arguments, ensure_ascii=False)
            )
            calls.append(
                ToolCallRequest(id=f"call_{self._counter}", name=call.name, arguments=args)
            )
        usage = Usage(prompt, len(reply.text) // 4, None)
        self.session_usage = self.session_usage + usage
        yield ModelResponse(
            content=reply.text,
            tool_calls=calls,
            usage=usage,
            finish_reason=reply.finish_reason,
            model=self.model,
        )

    def count_tokens(self, messages: list[dict], tools: list[dict] | None = None) -> int:
        return (
            sum(len(str(m.get("content") or "")) for m in messages) // 4
            + len(json.dumps(tools or [])) // 4
        )
