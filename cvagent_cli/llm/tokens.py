"""One tokenizer-free token estimate, for when no tokenizer is at hand (no model
configured, a local model litellm does not know, the agent's history budget)."""

from __future__ import annotations

import json
import re
from typing import Any

from cvagent_cli.script import CJK_BMP, FULLWIDTH

_CJK_RE = re.compile(f"[{CJK_BMP}{FULLWIDTH}]")


def estimate_tokens(text: str) -> int:
    """~4 Latin characters per token, ~1 per CJK character."""
    cjk = len(_CJK_RE.findall(text))
    return (len(text) - cjk) // 4 + cjk + 1


def estimate_request_tokens(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
) -> int:
    """The estimate for a whole request as it goes over the wire (JSON)."""
    text = json.dumps(messages, ensure_ascii=False, default=str)
    if tools:
        text += json.dumps(tools, ensure_ascii=False, default=str)
    return estimate_tokens(text)
