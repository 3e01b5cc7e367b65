"""The persisted undo log: every applied edit, so /undo works across sessions.

Each entry holds the whole text before and after (resumes are small); an undo only
applies when the file still holds the entry's "after" text, so an edit made in another
editor is never overwritten blindly.
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

from cvagent_cli.secrets import scrub_secrets
from cvagent_cli.store.statefiles import move_aside, write_private_json

MAX_ENTRIES = 50
MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class UndoEntry:
    id: str
    time: float
    reason: str
    before: str
    after: str


class UndoLog:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.done: list[UndoEntry] = []
        self.undone: list[UndoEntry] = []
        self.warning: str | None = None
        if path is not None:
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        if not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.done = [UndoEntry(**e) for e in data["done"]]
            self.undone = [UndoEntry(**e) for e in data.get("undone", [])]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            try:
                where = f"moved aside to {move_aside(self.path, 'corrupt').name}"
            except OSError:
                where = "it could not be moved aside"
            self.warning = f"the undo log was unreadable ({type(exc).__name__}); {where}"
            self.done, self.undone = [], []

    def _save(self) -> None:
        if self.path is None:
            return
        while len(self.done) > MAX_ENTRIES or (
            len(self.done) > 1 and sum(len(e.before) + len(e.after) for e in self.done) > MAX_BYTES
        ):
            self.done.pop(0)
        data = {
            "schema_version": 1,
            "done": [asdict(e) for e in self.done],
            "undone": [asdict(e) for e in self.undone[-MAX_ENTRIES:]],
        }
        write_private_json(self.path, data)

    def _save_or_revert(self, done: list[UndoEntry], undone: list[UndoEntry]) -> None:
        """Save; if the disk refuses (full, read-only, gone), put the lists back as they
        were (``done``, ``undone``) and raise the ``OSError``: the caller then leaves the
        resume alone, so the log and the file never disagree."""
        try:
            self._save()
        except OSError:
            self.done, self.undone = done, undone
            raise

    def _save_quietly(self) -> None:
        """Save where a failure changes nothing for the user: the log on disk is then one
        step ahead of the file, which ``reconcile`` puts right at the next start."""
        with contextlib.suppress(OSError):
            self._save()

    def record(self, before: str, after: str, reason: str) -> UndoEntry:
        """Persist the entry *before* the resume is written (see ``reconcile``).  Raises
        ``OSError`` (the log unchanged) when the state directory cannot take it."""
        entry = UndoEntry(
            uuid.uuid4().hex[:8], time.time(), scrub_secrets(reason or "edit"), before, after
        )
        saved = list(self.done), list(self.undone)
        self.done.append(entry)
        self.undone.clear()
        self._save_or_revert(*saved)
        return entry

    def forget_last(self, entry: UndoEntry) -> None:
        """The write this entry was recorded for failed: drop it again."""
        if self.done and self.done[-1].id == entry.id:
            self.done.pop()
            self._save_quietly()

    def put_back(self, entry: UndoEntry) -> None:
        """The write of an undo or redo of ``entry`` failed: move it back where it was."""
        if self.undone and self.undone[-1].id == entry.id:
            self.done.append(self.undone.pop())
        elif self.done and self.done[-1].id == entry.id:
            self.undone.append(self.done.pop())
        self._save_quietly()

    def reconcile(self, current: str) -> str | None:
        """Bring the log in step with the file after a crash between the two writes.

        The log is always written first, so after a kill the file may lag one step
        behind: an applied edit (or a redo) that never reached the file goes back to the
        redo list, and an undo that never reached the file goes back to the undo list.
        """
        if self.done and self.done[-1].after == current:
            return None
        if self.done and self.done[-1].before == current:
            self.undone.append(self.done.pop())
            self._save_quietly()
            return "the last edit never reached the file (interrupted?); it is available with /redo"
        if self.undone and self.undone[-1].after == current:
            self.done.append(self.undone.pop())
            self._save_quietly()
            return "an interrupted /undo was rolled back; the undo history matches the file again"
        return None

    def pop_undo(self, current: str) -> UndoEntry:
        """The entry to undo; raises ValueError when the file no longer matches it."""
        if not self.done:
            raise ValueError("nothing to undo")
        entry = self.done[-1]
        if entry.after != current:
            raise ValueError(
                "the resume changed since the last edit (edited elsewhere?); not undoing over it"
            )
        saved = list(self.done), list(self.undone)
        self.done.pop()
        self.undone.append(entry)
        self._save_or_revert(*saved)
        return entry

    def pop_redo(self, current: str) -> UndoEntry:
        if not self.undone:
            raise ValueError("nothing to redo")
        entry = self.undone[-1]
        if entry.before != current:
            raise ValueError("the resume changed since the undo; not redoing over it")
        saved = list(self.done), list(self.undone)
        self.undone.pop()
        self.done.append(entry)
        self._save_or_revert(*saved)
        return entry
