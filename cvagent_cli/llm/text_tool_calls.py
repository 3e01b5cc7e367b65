"""Tool calls a model wrote as text instead of sending them as tool calls.

Small local models (and servers whose chat template does not parse their tool-call
syntax) answer with the call as text: ``{"name": "read_resume", "parameters": {...}}``,
the same inside a ```json fence, Hermes/Qwen's ``<tool_call>{...}</tool_call>``, or a
list of such objects.  Shown as the answer, that is gibberish to the user and the turn
ends with nothing done.  :func:`parse_text_tool_calls` reads such a reply as the calls it
names — only when the whole reply is calls and every name is a tool that was offered,
so an answer that merely shows some JSON stays an answer.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Collection
from typing import Any

from cvagent_cli.llm.types import ToolCallRequest

_FENCE_RE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```$", re.S)
_TAG_RE = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.S)
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")


def _objects(text: str) -> list[Any] | None:
    """The JSON values the reply consists of, or None when it is anything else."""
    text = text.strip()
    fenced = _FENCE_RE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    tagged = _TAG_RE.findall(text)
    if tagged:
        if _TAG_RE.sub("", text).strip():
            return None  # prose around the tags: an answer, not a call
        chunks = tagged
    else:
        chunks = [text]
    values: list[Any] = []
    for chunk in chunks:
        try:
            value = json.loads(chunk)
        except ValueError:
            return None
        values.extend(value if isinstance(value, list) else [value])
    return values


def _call(value: Any, names: Collection[str]) -> ToolCallRequest | None:
    if not isinstance(value, dict):
        return None
    function = value.get("function")
    if isinstance(function, dict):  # {"type": "function", "function": {...}}
        value = function
    name = value.get("name")
    if not isinstance(name, str) or name not in names:
        return None
    arguments: Any = next((value[k] for k in _ARGUMENT_KEYS if k in value), {})
    if isinstance(arguments, str):
        raw = arguments
    elif isinstance(arguments, dict):
        raw = json.dumps(arguments, ensure_ascii=False)
    else:
        return None
    return ToolCallRequest(id=f"call_{uuid.uuid4().hex[:24]}", name=name, arguments=raw)


def parse_text_tool_calls(text: str, names: Collection[str]) -> list[ToolCallRequest]:
    """The tool calls ``text`` consists of (empty when it is not only calls)."""
    if not names or "{" not in text:
        return []
    values = _objects(text)
    if not values:
        return []
    calls = [_call(value, names) for value in values]
    if any(call is None for call in calls):
        return []
    return [call for call in calls if call is not None]


def offered_names(tools: list[dict[str, Any]] | None) -> list[str]:
    """The function names of an OpenAI ``tools`` list."""
    names = []
    for tool in tools or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if isinstance(name, str):
            names.append(name)
    return names
