"""Joining streamed tool-call fragments into whole :class:`~cvagent_cli.llm.types.ToolCallRequest`."""

from __future__ import annotations

import uuid
from typing import Any

from cvagent_cli.llm.types import ToolCallRequest


class ToolCallAssembler:
    """Joins streamed tool-call fragments into whole calls.

    OpenAI sends ``id``/``name`` only in a call's first fragment and the ``arguments``
    string in later pieces, all keyed by ``index``.  Some servers omit ``index`` or reuse
    index 0 for several calls with different ids; both are handled.
    """

    def __init__(self) -> None:
        self._calls: list[dict[str, Any]] = []
        self._by_index: dict[Any, dict[str, Any]] = {}

    def add(self, fragments: Any) -> None:
        for frag in fragments or []:
            index = field_of(frag, "index")
            call_id = field_of(frag, "id")
            fn = field_of(frag, "function")
            name = field_of(fn, "name") if fn is not None else None
            args = field_of(fn, "arguments") if fn is not None else None
            slot = self._by_index.get(index) if index is not None else None
            if index is None and slot is None and self._calls and not call_id:
                slot = self._calls[-1]
            if slot is not None and call_id and slot["id"] and slot["id"] != call_id:
                slot = None  # a new call reusing the index
            if slot is None:
                slot = {"id": call_id or "", "name": "", "arguments": []}
                self._calls.append(slot)
                self._by_index[index if index is not None else ("pos", len(self._calls))] = slot
            if call_id and not slot["id"]:
                slot["id"] = call_id
            if name:
                slot["name"] = slot["name"] or name
            if args:
                slot["arguments"].append(args)

    def __bool__(self) -> bool:
        return bool(self._calls)

    def result(self) -> list[ToolCallRequest]:
        out = []
        for slot in self._calls:
            raw = "".join(slot["arguments"])
            args = raw if raw.strip() else "{}"  # no-argument calls: what OpenAI sends
            out.append(
                ToolCallRequest(
                    id=slot["id"] or f"call_{uuid.uuid4().hex[:24]}",
                    name=slot["name"],
                    arguments=args,
                )
            )
        return out


def field_of(obj: Any, key: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)
