"""What a chat turn leaves in the transcript log (``cvagent log``): collected from the
turn's events as they pass, so the log sees exactly what the user saw."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cvagent_cli.agent import events as ev
from cvagent_cli.store.transcripts import ToolCallRecord, TurnRecord

RESULT_CHARS = 500


@dataclass
class TurnLog:
    user_text: str
    answer: list[str] = field(default_factory=list)
    final_text: str | None = None
    calls: dict[str, ToolCallRecord] = field(default_factory=dict)
    diffs: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cost: float | None = None

    def see(self, event: ev.Event) -> None:
        if isinstance(event, ev.TextDelta):
            self.answer.append(event.text)
        elif isinstance(event, ev.ToolCallEvent):
            arguments: dict[str, Any] | str = event.arguments or event.raw_arguments
            self.calls[event.id] = ToolCallRecord(name=event.name, arguments=arguments)
        elif isinstance(event, ev.ToolResultEvent) and event.id in self.calls:
            call = self.calls[event.id]
            self.calls[event.id] = call.model_copy(
                update={"ok": event.ok, "result": event.content[:RESULT_CHARS]}
            )
        elif isinstance(event, ev.EditOutcome) and event.applied and event.diff:
            self.diffs.append(event.diff)
        elif isinstance(event, ev.UsageEvent):
            self.prompt_tokens += event.prompt_tokens
            self.completion_tokens += event.completion_tokens
            self.cached_tokens += event.cached_tokens
            if event.cost_usd is not None:
                self.cost = (self.cost or 0.0) + event.cost_usd
        elif isinstance(event, ev.Done):
            self.final_text = event.final_text

    def record(
        self, *, session_id: str, resume: str | None, model: str, capability: str
    ) -> TurnRecord:
        answer = self.final_text if self.final_text is not None else "".join(self.answer)
        return TurnRecord(
            session_id=session_id,
            user_text=self.user_text,
            answer_text=answer,
            resume=resume,
            model=model or None,
            capability=capability,
            tool_calls=list(self.calls.values()),
            diffs=self.diffs,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cached_tokens=self.cached_tokens,
            cost=self.cost,
        )
