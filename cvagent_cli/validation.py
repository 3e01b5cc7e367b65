"""Pydantic validation errors in plain words: one reading of an error's kind, shared by
the config file, capability packs and tool arguments (each phrases its own sentence)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_KIND_WORDS = {
    "string_type": "text",
    "float_type": "a number",
    "float_parsing": "a number",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "string_too_short": "a non-empty text",
}
_BOUNDS = {
    "greater_than": ("gt", "greater than {}"),
    "greater_than_equal": ("ge", "at least {}"),
    "less_than_equal": ("le", "at most {}"),
    "less_than": ("lt", "less than {}"),
}


def location(error: Mapping[str, Any], default: str = "value") -> str:
    """``tool_policy.whitelist.0`` style path of the failing field."""
    return ".".join(str(p) for p in error.get("loc", ())) or default


def expected_words(error: Mapping[str, Any]) -> str:
    """What the field needed, e.g. "a whole number", "at most 2", "one of 'a', 'b'"."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind in _KIND_WORDS:
        return _KIND_WORDS[kind]
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        return words.format(ctx.get(key))
    if kind == "literal_error" and ctx.get("expected"):
        return f"one of {ctx['expected']}"
    if kind == "value_error":  # a validator's own words
        return str(error.get("msg", "valid")).removeprefix("Value error, ")
    if kind == "missing":
        return "present (it is required)"
    if kind.endswith(("_type", "_parsing")):
        return kind.replace("_parsing", "").replace("_type", "").replace("_", " ")
    message = str(error.get("msg", "valid"))
    return message[:1].lower() + message[1:]
