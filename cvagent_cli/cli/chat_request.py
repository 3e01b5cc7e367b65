"""What ``cvagent chat`` was asked to do, in one value: read by the prompt-first start
(``chat_start.py``) and by the composition root (``chat_runner.prepare_chat``), which
``chat_start`` imports lazily — so the value lives apart from both."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class ChatRequest:
    """What ``cvagent chat`` was asked to do: its argument and options, handed whole from
    the command to the start-up and on to the composition root (``prepare_chat``)."""

    resume: str | None
    model: str | None = None
    api_base: str | None = None
    capability: str | None = None
    jd: Path | None = None
    yes: bool = False
    new: bool = False
    messages: list[str] = field(default_factory=list)
    read_only: bool = False
    max_steps: int | None = None
    json_out: bool = False
