"""``cvagent chat … --json``: every event as one JSON object per line on stdout, for
scripts and editor integrations.

Each object has ``schema_version`` and ``type``; :data:`EVENT_FIELDS` is the schema (the
fields each type carries, with their JSON types), and the README documents it.  Adding a
field is compatible; renaming or removing one raises ``SCHEMA_VERSION``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import fields, is_dataclass
from typing import IO, Any

from cvagent_cli.agent import events as ev

SCHEMA_VERSION = 1

#: type -> {field: JSON type(s)}; "null" marks an optional value.
EVENT_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "text": {"text": ("string",)},
    # the reply's text events are cut back: the first `kept` characters stay, `removed` go
    "retract": {"kept": ("integer",), "removed": ("integer",)},
    "thinking": {"text": ("string",)},
    "intent": {"intent": ("string",), "source": ("string",), "confidence": ("number",)},
    "tool_call": {"id": ("string",), "name": ("string",), "arguments": ("object",)},
    "tool_result": {
        "id": ("string",),
        "name": ("string",),
        "ok": ("boolean",),
        "summary": ("string",),
        "content": ("string",),
    },
    "proposed_edit": {
        "id": ("string",),
        "tool_call_id": ("string",),
        "reason": ("string", "null"),
        "section": ("string", "null"),
        "diff": ("string",),
        "flags": ("array",),
    },
    "edit_outcome": {
        "edit_id": ("string",),
        "applied": ("boolean",),
        "message": ("string",),
        "diff": ("string",),
        "failed": ("boolean",),
    },
    "capability": {"old": ("string",), "new": ("string",), "reason": ("string", "null")},
    "stage": {"stage": ("string",), "progress": ("string",)},
    "notice": {"text": ("string",), "level": ("string",)},
    "error": {"message": ("string",), "hint": ("string", "null")},
    "usage": {
        "prompt_tokens": ("integer",),
        "completion_tokens": ("integer",),
        "cost_usd": ("number", "null"),
        "session_prompt_tokens": ("integer",),
        "session_completion_tokens": ("integer",),
        "session_cost_usd": ("number", "null"),
        "cached_tokens": ("integer",),
        "session_cached_tokens": ("integer",),
    },
    "resume": {"text": ("string",)},  # last, when the resume came from stdin
    "done": {
        "reason": ("string",),
        "final_text": ("string",),
        "steps": ("integer",),
        "edits_applied": ("integer",),
        "pending_edits": ("array",),
    },
}

_TYPES: dict[type, str] = {
    ev.TextDelta: "text",
    ev.Retract: "retract",
    ev.Thinking: "thinking",
    ev.IntentDetected: "intent",
    ev.ToolCallEvent: "tool_call",
    ev.ToolResultEvent: "tool_result",
    ev.ProposedEdit: "proposed_edit",
    ev.EditOutcome: "edit_outcome",
    ev.CapabilitySwitched: "capability",
    ev.StageChanged: "stage",
    ev.Notice: "notice",
    ev.ErrorEvent: "error",
    ev.UsageEvent: "usage",
    ev.Done: "done",
}


def _flag(flag: Any) -> dict[str, Any]:
    return {"kind": getattr(flag, "kind", "fact"), "message": getattr(flag, "message", str(flag))}


def event_to_json(event: Any) -> dict[str, Any]:
    """The JSON object of one event (only the schema's fields, in its order)."""
    kind = _TYPES[type(event)]
    values = {f.name: getattr(event, f.name) for f in fields(event)} if is_dataclass(event) else {}
    if kind == "proposed_edit":
        values["flags"] = [_flag(f) for f in event.flags]
    if kind == "done":
        values["pending_edits"] = [edit.id for edit in event.pending_edits]
    return {
        "schema_version": SCHEMA_VERSION,
        "type": kind,
        **{name: values[name] for name in EVENT_FIELDS[kind]},
    }


def schema_problems(obj: dict[str, Any]) -> list[str]:
    """Why ``obj`` does not match the schema (empty: it does)."""
    kind = obj.get("type")
    if obj.get("schema_version") != SCHEMA_VERSION or kind not in EVENT_FIELDS:
        return [f"unknown type {kind!r} or schema_version {obj.get('schema_version')!r}"]
    check = {
        "string": lambda v: isinstance(v, str),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    expected = EVENT_FIELDS[kind]
    problems = [f"{kind}: missing {name}" for name in expected if name not in obj]
    problems += [
        f"{kind}.{name}: {obj[name]!r} is not {' or '.join(types)}"
        for name, types in expected.items()
        if name in obj and not any(check[t](obj[name]) for t in types)
    ]
    extra = set(obj) - set(expected) - {"schema_version", "type"}
    problems += [f"{kind}: unexpected field {name}" for name in sorted(extra)]
    return problems


class JsonRenderer:
    """Drop-in for :class:`~cvagent_cli.ui.render.EventRenderer` that writes JSON Lines."""

    def __init__(self, out: IO[str] | None = None) -> None:
        self.out = out or sys.stdout
        self.usage: ev.UsageEvent | None = None

    def render(self, event: Any) -> None:
        if type(event) not in _TYPES:
            return
        if isinstance(event, ev.UsageEvent):
            self.usage = event
        self.out.write(json.dumps(event_to_json(event), ensure_ascii=False) + "\n")
        self.out.flush()

    def finish(self) -> None:
        self.out.flush()

    def notice(self, text: str, level: str = "info") -> None:
        self.render(ev.Notice(text, level))

    def error(self, message: str, hint: str | None = None) -> None:
        self.render(ev.ErrorEvent(message, hint))

    def show_edit(self, edit: ev.ProposedEdit) -> None:
        self.render(edit)

    def write_resume(self, text: str) -> None:
        line = {"schema_version": SCHEMA_VERSION, "type": "resume", "text": text}
        self.out.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.out.flush()
