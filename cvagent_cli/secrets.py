"""What an API key looks like, in one place: ChatHistory and the undo log scrub with it,
the edit guards flag edits that would write one into the resume, and error messages mask
the values of the key variables."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "[REDACTED]"
KEY_VARIABLE_SUFFIXES = ("_API_KEY", "_TOKEN")

SECRET_PATTERNS = [
    re.compile(
        r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_\-]{10,}"
    ),  # OpenAI, Anthropic (sk-ant-…), DeepSeek …
    re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_\-]{20,}"),  # Google / Gemini
    re.compile(r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}"),  # GitHub tokens
]
BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=\-]{8,}")


def env_secret_values(
    environ: Mapping[str, str] | None = None, suffixes: Iterable[str] = KEY_VARIABLE_SUFFIXES
) -> list[str]:
    """Values of key variables (``*_API_KEY``, ``*_TOKEN`` …), longest first, read now."""
    env = os.environ if environ is None else environ
    ends = tuple(suffixes)
    values = {
        value
        for name, value in env.items()
        if name.upper().endswith(ends) and value and len(value) >= 8
    }
    return sorted(values, key=len, reverse=True)


def find_secrets(text: str, environ: Mapping[str, str] | None = None) -> set[str]:
    found = {m.group(0) for pattern in (*SECRET_PATTERNS, BEARER) for m in pattern.finditer(text)}
    return found | {value for value in env_secret_values(environ) if value in text}


#: Wider patterns for error messages only: a provider echoes fragments of a bad key
#: ("sk-abc***xyz"), and URLs carry credentials.  Too eager for a resume's own words
#: ("sk-learn"), so history and undo logs do not use them.
MESSAGE_PATTERNS = [
    (re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_\-\*\.]{3,}"), r"\1-" + REDACTED),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{10,}"), REDACTED),
    (re.compile(r"(?i)\b(bearer)\s+[^\s'\"]+"), r"\1 " + REDACTED),
    (re.compile(r"(?i)([?&](?:api[_-]?)?key=)[^&\s'\"]+"), r"\1" + REDACTED),
    (re.compile(r"(//)[^/@\s]+:[^/@\s]+@"), r"\1" + REDACTED + "@"),
]
MESSAGE_KEY_SUFFIXES = (*KEY_VARIABLE_SUFFIXES, "_SECRET", "_SECRET_KEY")


def scrub_secrets(
    value: Any, environ: Mapping[str, str] | None = None, *, message: bool = False
) -> Any:
    """A copy of ``value`` with API-key-like strings replaced, recursing into dicts/lists.

    ``message=True`` is for error messages shown to the user: it also masks key fragments,
    URL credentials and ``?key=`` parameters, and the values of ``*_SECRET`` variables.
    """
    literals = env_secret_values(
        environ, MESSAGE_KEY_SUFFIXES if message else KEY_VARIABLE_SUFFIXES
    )

    def scrub(item: Any) -> Any:
        if isinstance(item, str):
            for literal in literals:
                item = item.replace(literal, REDACTED)
            for pattern in SECRET_PATTERNS:
                item = pattern.sub(REDACTED, item)
            item = BEARER.sub(lambda m: m.group(1) + REDACTED, item)
            if message:
                for wide, replacement in MESSAGE_PATTERNS:
                    item = wide.sub(replacement, item)
            return item
        if isinstance(item, dict):
            return {key: scrub(val) for key, val in item.items()}
        if isinstance(item, (list, tuple)):
            return [scrub(val) for val in item]
        return item

    return scrub(value)
