"""The workspace: the one resume (and JD) the agent may touch, and the only code that
writes the resume file.

Tools read ``workspace.doc``; edits land only through ``apply``, which checks that the
file on disk is still what the edit was computed from, writes atomically (keeping
encoding, BOM, newlines and permissions) and records an undo entry.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cvagent_cli.analysis.jd import JobDescription
from cvagent_cli.analysis.schema import AnalysisReport
from cvagent_cli.charset import added_forbidden, describe
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.editing import unified_diff
from cvagent_cli.errors import InputError
from cvagent_cli.store.atomic import atomic_write_bytes, is_read_only
from cvagent_cli.store.undo import UndoEntry, UndoLog


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_failure(exc: OSError, path: Path | None) -> str:
    """Why a write of the resume failed, naming the folder when it is the folder that
    refused (a new file is written beside the resume and renamed over it)."""
    why = exc.strerror or str(exc)
    if isinstance(exc, PermissionError) and path is not None:
        folder = path.resolve().parent
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"its folder {folder} is not writable ({why})"
    return why


def _no_undo_log(exc: OSError, outcome: str) -> str:
    """One line for a state directory that refused the undo log.  The resume is left as
    it was: an edit written without its undo entry could not be taken back."""
    why = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return f"cannot save the undo log{where}: {why}; {outcome} — free some space and try again"


@dataclass(frozen=True)
class ApplyResult:
    applied: bool
    message: str
    diff: str = ""
    failed: bool = False  # the disk refused the write (not a decision or a stale edit)


class Workspace:
    def __init__(
        self,
        doc: ResumeDocument | None = None,
        *,
        jd: JobDescription | None = None,
        undo: UndoLog | None = None,
        read_only: bool = False,
        write_to_disk: bool = True,
    ) -> None:
        self.doc = doc
        self.jd = jd
        self.undo = undo or UndoLog(None)
        self.read_only = read_only
        self.write_to_disk = write_to_disk and doc is not None and doc.path is not None
        self.initial_text = doc.text if doc else ""
        self.notices: list[str] = []
        if doc is not None:
            self._reconcile_undo()
            self._notice_read_only_file()
            self._notice_hard_links()
        self.opened_at = time.time()
        self.last_report: AnalysisReport | None = None  # for the prompt's ResumeContext
        self._report_text: str | None = None  # the text it analysed
        self._disk_digest = _digest(doc.render()) if doc else None

    def remember_report(self, report: AnalysisReport) -> None:
        """Keep the latest analysis of the loaded resume for the prompt's ResumeContext."""
        self.last_report = report
        self._report_text = self.doc.text if self.doc else None

    @property
    def report_is_current(self) -> bool:
        """Whether the resume is still the text :attr:`last_report` analysed (its line
        numbers hold only then)."""
        return (
            self.last_report is not None
            and self.doc is not None
            and (self._report_text == self.doc.text)
        )

    # -- loading ------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self.doc is not None

    @property
    def name(self) -> str:
        if self.doc is None:
            return "(no resume)"
        return self.doc.path.name if self.doc.path else "resume.md"

    def load(self, path: Path, undo: UndoLog | None = None) -> ResumeDocument:
        """Load another resume.  Only ever called for a path the user typed."""
        doc = ResumeDocument.from_path(path)
        self.doc = doc
        self.undo = undo or UndoLog(None)
        self.initial_text = doc.text
        self.opened_at = time.time()
        self.last_report = self._report_text = None
        self.write_to_disk = True
        self._disk_digest = _digest(doc.render())
        self._reconcile_undo()
        self._notice_read_only_file()
        self._notice_hard_links()
        return doc

    def _reconcile_undo(self) -> None:
        notice = self.undo.reconcile(self.doc.text) if self.doc is not None else None
        if notice:
            self.notices.append(notice)

    def refresh_from_disk(self) -> str | None:
        """Reload the resume if another program changed it; returns a notice if so."""
        if self.doc is None or self.doc.path is None or not self.write_to_disk:
            return None
        try:
            data = self.doc.path.read_bytes()
        except OSError:
            return None
        if _digest(data) == self._disk_digest:
            return None
        try:
            fresh = ResumeDocument.from_path(self.doc.path)
        except InputError as exc:
            return f"{self.name} changed on disk and cannot be read ({exc.message}); keeping the last good version"
        self.doc = fresh
        self._disk_digest = _digest(data)
        return f"{self.name} changed on disk (edited elsewhere?); reloaded it"

    @property
    def file_read_only(self) -> bool:
        """Whether the resume's file is read-only on disk (``chmod a-w``): its owner does
        not want it changed, so cvagent never replaces it, whatever the session mode."""
        return (
            self.write_to_disk
            and self.doc is not None
            and self.doc.path is not None
            and is_read_only(self.doc.path)
        )

    def _notice_read_only_file(self) -> None:
        if self.file_read_only and not self.read_only:
            assert self.doc is not None
            self.notices.append(
                f"{self.name} is read-only (its file permissions), so it is open read-only: "
                "edits are shown, never written; /analyze, /export and /save PATH work "
                f"(chmod u+w {self.doc.path} to allow edits)"
            )

    def _notice_hard_links(self) -> None:
        """A resume with a second name (a hard link) cannot stay one file: every edit is
        written as a new file and renamed over this name (so a crash leaves the old or the
        new text), which leaves the other name holding the old text; and a chat opened
        through the other name is not locked against this one.  Say so once, at open."""
        if not self.write_to_disk or self.doc is None or self.doc.path is None:
            return
        try:
            links = self.doc.path.stat().st_nlink
        except OSError:
            return
        if links > 1:
            self.notices.append(
                f"{self.name} has {links} names (hard links): an edit here writes a new "
                f"{self.name}, so the other names keep the old text, and a chat opened "
                "through another name is not locked against this one — a symlink keeps one file"
            )

    def write_block(self) -> str | None:
        """Why an edit cannot be written now (read-only session, read-only file, file
        gone), or None.  Checked before the user is asked to confirm an edit, and again
        when it is applied."""
        if self.doc is None:
            return "no resume is loaded"
        if self.read_only:
            return "the resume is open read-only"
        if self.file_read_only:
            return (
                f"{self.name} is read-only on disk (its owner made it so); nothing was "
                "written — make it writable (chmod u+w) or /save PATH writes a copy"
            )
        return self.gone_from_disk()

    def gone_from_disk(self) -> str | None:
        """Why the resume's file cannot take an edit (moved or deleted since it was
        opened), or None.  Writing it anyway would create a new file where the user no
        longer keeps their resume."""
        if self.doc is None or self.doc.path is None or not self.write_to_disk:
            return None
        if self.doc.path.is_file():
            return None
        return (
            f"{self.doc.path} is no longer there (moved or deleted?); nothing was written — "
            "/save PATH writes the resume as cvagent has it"
        )

    # -- editing ------------------------------------------------------------------
    def apply(self, before: str, after: str, reason: str, diff: str | None = None) -> ApplyResult:
        """Write ``after`` if the resume still holds ``before``; ``diff`` is the diff of the
        two when the caller has it already (the proposal's), so it is not computed again."""
        if self.doc is None:
            return ApplyResult(False, "no resume is loaded")
        if after == before:
            return ApplyResult(False, "the text is unchanged; there was nothing to apply")
        blocked = self.write_block()
        if blocked:
            return ApplyResult(False, f"{blocked}; the edit was not applied")
        notice = self.refresh_from_disk()
        refused = added_forbidden(before, after)
        if refused:  # every writer passes here: a pending edit kept from an older version too
            return ApplyResult(
                False,
                "the edit would write characters a resume cannot hold ("
                + ", ".join(describe(ch) for ch in refused[:6])
                + "); the edit was not applied",
            )
        missing = self.doc.format.unencodable(after)
        if missing:
            return ApplyResult(
                False,
                f"{self.name} is saved as {self.doc.format.encoding}, which cannot store "
                f"{' '.join(missing[:8])}; the edit was not applied",
            )
        if self.doc.text != before:
            why = notice or "the resume changed since this edit was proposed"
            return ApplyResult(
                False, f"{why}; the edit was not applied — read the resume again and redo it"
            )
        diff = diff if diff is not None else unified_diff(before, after, self.name)
        try:  # log first: a crash leaves it one step ahead
            entry = self.undo.record(before, after, reason)
        except OSError as exc:  # a full or read-only state directory
            return ApplyResult(False, _no_undo_log(exc, "the edit was not applied"), failed=True)
        try:
            self._write(after)
        except OSError as exc:  # the checks above cannot foresee a full disk
            self.undo.forget_last(entry)
            why = _write_failure(exc, self.doc.path)
            return ApplyResult(
                False, f"cannot write {self.name}: {why}; the edit was not applied", failed=True
            )
        except BaseException:
            self.undo.forget_last(entry)
            raise
        return ApplyResult(True, "applied", diff)

    def _write(self, text: str) -> None:
        assert self.doc is not None
        new_doc = self.doc.with_text(text)
        if self.write_to_disk and self.doc.path is not None:
            data = new_doc.render()
            atomic_write_bytes(self.doc.path, data)
            self._disk_digest = _digest(data)
        self.doc = new_doc

    def undo_last(self) -> ApplyResult:
        return self._step(self.undo.pop_undo, "before", "undid")

    def redo_last(self) -> ApplyResult:
        return self._step(self.undo.pop_redo, "after", "redid")

    def _step(self, pop: Callable[[str], UndoEntry], target: str, verb: str) -> ApplyResult:
        if self.doc is None:
            return ApplyResult(False, "no resume is loaded")
        blocked = self.write_block()
        if blocked:
            return ApplyResult(False, blocked)
        self.refresh_from_disk()
        try:
            entry = pop(self.doc.text)
        except ValueError as exc:
            return ApplyResult(False, str(exc))
        except OSError as exc:
            outcome = "nothing was " + {"undid": "undone", "redid": "redone"}[verb]
            return ApplyResult(False, _no_undo_log(exc, outcome), failed=True)
        current = self.doc.text
        text = getattr(entry, target)
        try:
            self._write(text)
        except OSError as exc:
            self.undo.put_back(entry)
            why = _write_failure(exc, self.doc.path)
            return ApplyResult(False, f"cannot write {self.name}: {why}", failed=True)
        return ApplyResult(True, f"{verb}: {entry.reason}", unified_diff(current, text, self.name))

    def session_edits(self) -> list[UndoEntry]:
        """The edits applied since the resume was opened and still in place (the undo
        log is the one record of applied edits: an undone edit is not listed)."""
        return [e for e in self.undo.done if e.time >= self.opened_at]

    def session_diff(self) -> str:
        return unified_diff(self.initial_text, self.doc.text, self.name) if self.doc else ""
