"""Typed events: everything the agent core says, for the UI to render (the
MessageBuilder: thinking, tool_call, tool_result, content, error, done).

The core never prints.  A UI iterates ``agent.run(...)`` and renders each event; tests
assert on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from cvagent_cli.tools.base import ProposedEdit  # a tool proposes it; the agent emits it
from cvagent_cli.wording import sentence

__all__ = ["ProposedEdit"]  # re-exported: the UI renders it as an event


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class Retract:
    """Take back text already streamed: the reply was cut (a loop noticed after its
    copies were shown, a recital of the instructions, an answer with nothing in it).
    Of the ``TextDelta`` text of the current reply, the first ``kept`` characters stay
    and the last ``removed`` go; ``text`` is what stays."""

    kept: int
    removed: int
    text: str


@dataclass(frozen=True)
class Thinking:
    text: str


@dataclass(frozen=True)
class IntentDetected:
    intent: str
    source: str
    confidence: float


@dataclass(frozen=True)
class ToolCallEvent:
    id: str
    name: str
    arguments: dict[str, Any]
    raw_arguments: str


@dataclass(frozen=True)
class ToolResultEvent:
    id: str
    name: str
    ok: bool
    summary: str
    content: str


class Action(str, Enum):
    APPLY = "apply"
    REJECT = "reject"
    ALWAYS = "always"  # apply, and apply later unflagged edits without asking
    DEFER = "defer"  # non-interactive without --yes: reported as proposed, not applied


@dataclass(frozen=True)
class Decision:
    action: Action
    new_text: str | None = None  # the whole resume text, when the user edited the proposal
    note: str | None = None  # why, in the user's words; kept as one sentence (see below)

    def __post_init__(self) -> None:
        # The note is quoted to the model between two sentences of ours ("… Their note:
        # NOTE Do not apply it again …"): it must end with exactly one full stop.
        if self.note is not None:
            object.__setattr__(self, "note", sentence(self.note) or None)


@dataclass(frozen=True)
class EditOutcome:
    edit_id: str
    applied: bool
    message: str
    diff: str = ""
    #: approved, but the disk refused it (full, no permission, the undo log unsaved): a
    #: script's ``--yes`` run exits 2 on it
    failed: bool = False


@dataclass(frozen=True)
class CapabilitySwitched:
    old: str
    new: str
    reason: str | None = None


@dataclass(frozen=True)
class StageChanged:
    stage: str
    progress: str = ""


@dataclass(frozen=True)
class Notice:
    """A one-line status for the user (resume reloaded from disk, history trimmed…)."""

    text: str
    level: str = "info"  # info | warning


@dataclass(frozen=True)
class ErrorEvent:
    message: str
    hint: str | None = None
    recoverable: bool = True


@dataclass(frozen=True)
class UsageEvent:
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    session_prompt_tokens: int
    session_completion_tokens: int
    session_cost_usd: float | None
    cached_tokens: int = 0  # of prompt_tokens, read from the provider's prompt cache
    session_cached_tokens: int = 0


@dataclass(frozen=True)
class Done:
    """The turn ended; ``reason`` is text | terminate | max_steps | stuck | error | loaded."""

    reason: str
    final_text: str = ""
    steps: int = 0
    edits_applied: int = 0
    pending_edits: list[ProposedEdit] = field(default_factory=list)


Event = (
    TextDelta
    | Retract
    | Thinking
    | IntentDetected
    | ToolCallEvent
    | ToolResultEvent
    | ProposedEdit
    | EditOutcome
    | CapabilitySwitched
    | StageChanged
    | Notice
    | ErrorEvent
    | UsageEvent
    | Done
)
