"""Per-resume chat history on disk, so ``cvagent chat`` can pick up where it left off.

The file lives in the resume's private session folder (0700) and is itself 0600: it holds
the user's career details.  It is written atomically, so a crash leaves the old or the new
history, never half of one.  Before writing, anything that looks like an API key is
replaced by ``[REDACTED]``: users paste keys into chats, and a history file is exactly the
kind of file that gets copied around or attached to bug reports.

Loading never raises.  A file that cannot be used is moved aside (kept for the user to
inspect, never deleted) and the session starts empty with a warning to show.
"""

from __future__ import annotations

import contextlib
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cvagent_cli.agent.memory import Memory
from cvagent_cli.agent.messages import Message
from cvagent_cli.secrets import REDACTED, scrub_secrets  # noqa: F401 - re-exported for callers
from cvagent_cli.store.statefiles import move_aside, write_private_json

SCHEMA_VERSION = 1
#: ``chat --new`` keeps this many earlier conversations of a resume
KEEP_ARCHIVED = 3


class ChatHistory:
    """The saved conversation (last ``max_messages``) and session state of one resume."""

    def __init__(self, path: Path, max_messages: int = 30, *, resume: Path | None = None) -> None:
        self.path = Path(path)
        self.max_messages = max_messages
        self.resume = Path(resume).expanduser().resolve() if resume is not None else None

    # -- loading ---------------------------------------------------------------------
    def load(self) -> tuple[list[Message], dict[str, Any], str | None]:
        """(messages, state, warning).  Missing file: empty, no warning.  Unusable file:
        moved aside to ``history.json.corrupt-<timestamp>``, empty, with a warning."""
        if not self.path.exists() and not self.path.is_symlink():
            return [], {}, None
        try:
            document = json.loads(self.path.read_bytes().decode("utf-8"))
            messages, state = self._parse(document)
        except (OSError, ValueError, TypeError, AttributeError, RecursionError) as exc:
            return [], {}, self._move_aside(exc)
        memory = Memory(self.max_messages)
        memory.replace_from(messages)
        return memory.messages, state, None

    @staticmethod
    def _parse(document: Any) -> tuple[list[Message], dict[str, Any]]:
        if not isinstance(document, dict):
            raise ValueError("not a JSON object")
        if document.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(f"unsupported schema_version {document.get('schema_version')!r}")
        raw_messages = document.get("messages", [])
        state = document.get("state")
        state = {} if state is None else state
        if not isinstance(raw_messages, list) or not isinstance(state, dict):
            raise ValueError("'messages' must be a list and 'state' an object")
        return [Message.from_wire(item) for item in raw_messages], state

    def _move_aside(self, exc: BaseException) -> str:
        text = str(exc).strip()
        reason = getattr(exc, "strerror", None) or (
            text.splitlines()[0] if text else type(exc).__name__
        )
        try:
            target = move_aside(self.path, "corrupt")
        except OSError as move_error:
            return (
                f"chat history {self.path} could not be read ({reason}) and could not be moved "
                f"aside ({move_error.strerror or move_error}); starting a new conversation"
            )
        return f"chat history {self.path} could not be read ({reason}); moved it to {target.name} and started a new conversation"

    # -- saving ----------------------------------------------------------------------
    def save(self, messages: list[Message], state: dict[str, Any] | None = None) -> str | None:
        """Write the last ``max_messages`` (whole turns, unanswered tool calls dropped) and
        ``state``, secrets scrubbed.  Returns a warning instead of raising if the disk
        refuses: losing the saved chat must not end the session."""
        memory = Memory(self.max_messages)
        memory.replace_from(messages)
        document = {
            "schema_version": SCHEMA_VERSION,
            "resume": str(self.resume) if self.resume is not None else None,
            "updated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "messages": scrub_secrets(memory.to_wire()),
            "state": scrub_secrets(dict(state or {})),
        }
        try:
            write_private_json(self.path, document, indent=2)
        except (OSError, TypeError, ValueError) as exc:
            detail = getattr(exc, "strerror", None) or exc
            return f"could not save chat history to {self.path} ({detail})"
        return None

    def archive(self) -> Path | None:
        """Move the current history aside as ``history.json.bak-<timestamp>`` (``chat
        --new``: start fresh, keep the old conversation).  None if there was none.  Only
        the newest :data:`KEEP_ARCHIVED` are kept: every ``--new`` left one more file."""
        if not self.path.exists():
            return None
        target = move_aside(self.path, "bak")
        # the timestamp is fixed-width, so name order is time order
        archived = sorted(self.path.parent.glob(f"{self.path.name}.bak-*"), key=lambda p: p.name)
        for old in archived[:-KEEP_ARCHIVED]:
            with contextlib.suppress(OSError):  # one left behind is harmless
                old.unlink()
        return target
