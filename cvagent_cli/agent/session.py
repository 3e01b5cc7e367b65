"""A chat session on one resume: the lock, the workspace, the agent, and what persists
beside the resume (``ResumeStores``: ChatHistory with the agent's state, the undo log, the
edits kept for later).

The session builds none of them: ``agent.compose.build_session`` is the composition root
and hands them in.  The REPL and the one-shot modes drive a ``ChatSession`` through its
operations (``ask``, ``undo``, ``set_jd``, ``switch_model``, ``open_resume``, ``export``
…); it never prints, and what it has to say outside a turn waits in ``take_notices()`` as
events.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from cvagent_cli import paths
from cvagent_cli.agent import events as ev
from cvagent_cli.agent.capabilities import Capability
from cvagent_cli.agent.history import ChatHistory
from cvagent_cli.agent.messages import Message
from cvagent_cli.agent.pending import Offer, PendingEdits, rebase
from cvagent_cli.agent.resume_agent import ResumeAgent
from cvagent_cli.agent.toolcall_agent import Approver
from cvagent_cli.agent.turn_transcript import TurnLog
from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.editing import EditError
from cvagent_cli.errors import CvAgentError
from cvagent_cli.formats.exporter import check_target, export_text
from cvagent_cli.formats.opening import editable_markdown, read_job_description
from cvagent_cli.formats.writing.options import DEFAULT_OPTIONS, WriteOptions
from cvagent_cli.llm.types import ModelClient
from cvagent_cli.store.atomic import check_output_path, new_file_mode, write_output
from cvagent_cli.store.transcripts import TranscriptError, TranscriptLog, new_session_id
from cvagent_cli.store.undo import UndoLog
from cvagent_cli.wording import plural

HISTORY_MESSAGES = 30


class Lock(Protocol):
    def release(self) -> None: ...


class ModelChooser(Protocol):
    """Makes the client for ``/model NAME [--api-base URL]`` (the CLI's, which knows the
    settings): the new client and where it sends requests."""

    def choose(self, name: str, api_base: str | None = None) -> tuple[ModelClient, str]: ...


@dataclass
class ResumeStores:
    """What persists beside one resume in the state directory: the conversation (with the
    agent's state), the undo log, and the edits a run without a person kept for later."""

    history: ChatHistory
    undo: UndoLog
    pending: PendingEdits

    @classmethod
    def beside(cls, resume: Path) -> ResumeStores:
        """The stores of ``resume``, for the first resume and every one opened later."""
        files = paths.session_files(resume)
        return cls(
            history=ChatHistory(files.history, HISTORY_MESSAGES, resume=resume),
            undo=UndoLog(files.undo),
            pending=PendingEdits(files.pending_edits),
        )


@dataclass(frozen=True)
class StepResult:
    """What ``undo``/``redo`` did: each step's message and diff, and the count asked."""

    steps: list[tuple[str, str]]  # (message, diff) of each step that happened
    asked: int
    problem: str | None = None  # why it stopped early (nothing left, changed elsewhere)


class ChatSession:
    """Operations on a chat, over collaborators built elsewhere (``agent.compose``)."""

    def __init__(
        self,
        *,
        agent: ResumeAgent,
        stores: ResumeStores | None = None,
        lock: Lock | None = None,
        locks: Callable[[Path], Lock] | None = None,
        models: ModelChooser | None = None,
        transcript: TranscriptLog | None = None,
        paper: str | None = None,
        dates: str = "right",
    ) -> None:
        self._notices: list[ev.Notice] = []
        self.paper = paper  # the ``paper`` setting; None: each export chooses from the resume
        self.dates = dates  # the ``dates`` setting: /export's default (``WriteOptions.dates``)
        self.agent = agent
        self.workspace = agent.workspace
        self.registry = agent.registry
        self.transcript = transcript  # cvagent log: every turn appended, None when off
        self.session_id = new_session_id()
        self.lock = lock
        self.locks = locks  # path -> held lock, for resumes opened later
        self.models = models
        self.deferred: list[ev.ProposedEdit] = []  # proposed, waiting for a person
        self.stores = stores
        for text in self.registry.warnings:
            self._warn(text)
        if stores is not None and stores.undo.warning:
            self._warn(stores.undo.warning)
        for text in self.workspace.notices:
            self._warn(text)

    @property
    def history(self) -> ChatHistory | None:
        return self.stores.history if self.stores is not None else None

    @property
    def pending(self) -> PendingEdits | None:
        return self.stores.pending if self.stores is not None else None

    def start(self, *, new: bool = False, capability: str | None = None) -> None:
        """Pick up the saved conversation (or, with ``new``, put it aside)."""
        if self.history is None:
            return
        if not new:
            self._restore(capability)
            return
        archived = self.history.archive()
        if archived:
            self._inform(f"started a new conversation (the old one is kept in {archived.name})")

    # -- notices ----------------------------------------------------------------------
    def inform(self, text: str) -> None:
        """A line for the user outside a turn (shown with the start-up notices)."""
        self._inform(text)

    def _inform(self, text: str) -> None:
        self._notices.append(ev.Notice(text))

    def _warn(self, text: str) -> None:
        self._notices.append(ev.Notice(text, "warning"))

    def take_notices(self) -> list[ev.Notice]:
        """What the session has to say outside a turn (start-up, loading, saving)."""
        notices, self._notices = self._notices, []
        return notices

    # -- state ------------------------------------------------------------------------
    @property
    def auto_apply(self) -> bool:
        """``--yes`` (or "always" answered once): the agent holds the one copy."""
        return self.agent.auto_apply

    @property
    def client(self) -> ModelClient:
        return self.agent.client

    @property
    def capability(self) -> Capability:
        return self.agent.capability

    @property
    def messages(self) -> list[Message]:
        """The conversation the model remembers (what is saved for next time)."""
        return self.agent.memory.messages

    def progress_line(self) -> str:
        return self.agent.progress_line()

    def _restore(self, capability: str | None) -> None:
        assert self.history is not None
        messages, state, warning = self.history.load()
        if warning:
            self._warn(warning)
        if not messages and not state:
            return
        self.agent.memory.replace_from(messages)
        if capability:
            state = {**state, "capability": capability, "stage": None}
        self.agent.restore_state(state)
        self._restore_jd(state.get("jd"))
        stage = f", stage {self.agent.stage.current}" if self.agent.stage is not None else ""
        kept = f"capability {self.agent.capability.name}{stage} (--new to start afresh)"
        if not messages:  # only settings were saved: there is no conversation to resume
            self._inform(f"kept from the last session on {self.workspace.name}: {kept}")
            return
        self._inform(
            f"resumed the conversation about {self.workspace.name}: "
            f"{plural(len(messages), 'message')}, {kept}"
        )

    def _restore_jd(self, path: object) -> None:
        if not isinstance(path, str) or self.workspace.jd is not None:
            return  # a --jd given now wins over the saved one
        try:
            self.set_jd(Path(path))
        except CvAgentError as exc:
            self._warn(f"the job description of the last session is gone ({exc.message})")
            return
        self._inform(f"job description restored: {path}")

    # -- turns ------------------------------------------------------------------------
    def ask(self, text: str, approve: Approver | None = None) -> Generator[ev.Event, None, None]:
        notice = self.workspace.refresh_from_disk()
        if notice:
            yield ev.Notice(notice, "warning")
            self.agent.note(notice)
        log = TurnLog(text) if self.transcript is not None else None
        try:
            for event in self.agent.run(text, approve):
                if log is not None:
                    log.see(event)
                if isinstance(event, ev.Done):
                    self.deferred += event.pending_edits
                yield event
        finally:
            self.save()
            if log is not None:
                self._record(log)

    def _record(self, log: TurnLog) -> None:
        assert self.transcript is not None
        doc = self.workspace.doc
        try:
            self.transcript.record_turn(
                log.record(
                    session_id=self.session_id,
                    resume=str(doc.path) if doc is not None and doc.path else None,
                    model=getattr(self.client, "model", ""),
                    capability=self.agent.capability.name,
                )
            )
        except TranscriptError as exc:  # a log that cannot be written never ends the chat
            self._warn(f"{exc.message}; this turn is not in `cvagent log`")

    def request_preview(self, text: str = "") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The messages and tool schemas the next request would send (for /tokens)."""
        return self.agent.preview_request(text)

    # -- operations the REPL offers ----------------------------------------------------
    def undo(self, count: int = 1) -> StepResult:
        return self._steps(count, undo=True)

    def redo(self, count: int = 1) -> StepResult:
        return self._steps(count, undo=False)

    def _steps(self, count: int, *, undo: bool) -> StepResult:
        done: list[tuple[str, str]] = []
        problem = None
        for _ in range(max(1, count)):
            result = self.workspace.undo_last() if undo else self.workspace.redo_last()
            if not result.applied:
                problem = result.message
                break
            done.append((result.message, result.diff))
        if done:
            # the model believes its edits are as it left them: tell it the resulting state
            verb = "undo" if undo else "redo"
            state = "; ".join(e.reason for e in self.workspace.session_edits()) or "none"
            self.agent.note(
                f"the user ran /{verb} {plural(len(done), 'time')} ({', '.join(m for m, _ in done)}); "
                f"edits of this session now in place: {state}"
            )
            self.save()
        return StepResult(done, max(1, count), problem)

    def set_jd(self, path: Path) -> Any:
        job = read_job_description(Path(path).expanduser())
        self.workspace.jd = job
        return job

    def analyze(self) -> Any:
        doc = self.workspace.doc
        if doc is None:
            raise CvAgentError("no resume is loaded", hint="/load PATH, or type its path")
        report = analyze(doc, self.workspace.jd)
        self.workspace.remember_report(report)
        return report

    def set_capability(self, name: str) -> tuple[str, str]:
        return self.agent.set_capability(name)

    def switch_model(self, name: str, api_base: str | None = None) -> str:
        """/model NAME: use another model from the next request on (the session's usage
        carries over); returns where its requests go."""
        if self.models is None:
            raise CvAgentError("switching models is not available here")
        client, where = self.models.choose(name, api_base)
        client.session_usage = self.agent.client.session_usage
        self.agent.client = client
        return where

    def open_resume(self, path: Path) -> ResumeDocument:
        """Switch to another resume the user named (/load PATH, or typing its path): check
        it reads, take its lock (refusing if another cvagent holds it), then load it with
        its own conversation and undo log."""
        path, imported = editable_markdown(
            Path(path).expanduser(), read_only=self.workspace.read_only
        )
        if imported:
            self._inform(imported)
        ResumeDocument.from_path(path)  # a bad file fails before any lock changes hands
        current = self.workspace.doc.path if self.workspace.doc is not None else None
        if (
            self.locks is not None
            and not self.workspace.read_only
            and (current is None or current.resolve() != path.resolve())
        ):
            new_lock = self.locks(path)  # LockedError names the other process
            old, self.lock = self.lock, new_lock
            if old is not None:
                old.release()
        return self.load(path)

    def load(self, path: Path) -> ResumeDocument:
        self._keep_deferred()
        self.save()
        path = Path(path).expanduser()
        self.stores = ResumeStores.beside(path)
        doc = self.workspace.load(path, self.stores.undo)
        for text in self.workspace.notices:
            self._warn(text)
        self.workspace.notices.clear()
        self.agent.memory.clear()
        self.agent.progress = None
        self._restore(None)
        return doc

    def save(self) -> None:
        if self.history is None:
            return
        state = self.agent.export_state()
        jd = self.workspace.jd
        if jd is not None and not str(jd.source).startswith("<"):  # a file, not pasted text
            state["jd"] = str(Path(jd.source).expanduser().resolve())
        warning = self.history.save(self.agent.memory.messages, state)
        if warning:
            self._warn(warning)

    # -- the resume written elsewhere (/save PATH, /export) ------------------------------
    def save_conversation(self) -> str:
        """/save: the conversation saved now; says where."""
        self.save()
        if self.history is None:
            return "conversation saved (nothing to save for a resume read from stdin; /save PATH writes it)"
        return f"conversation saved to {self.history.path}"

    def _need_doc(self) -> ResumeDocument:
        if self.workspace.doc is None:
            raise CvAgentError(
                "no resume is loaded", hint="/load PATH, or type the path of your resume"
            )
        return self.workspace.doc

    def copy_target(self, target: Path) -> Path | None:
        """Where /save PATH writes the resume's text: None when PATH is the resume itself
        (written as edits apply); a folder, a missing folder or a read-only file raises."""
        doc = self._need_doc()
        if doc.path is not None and target.exists() and target.resolve() == doc.path.resolve():
            return None
        check_output_path(target, overwrite=True)
        return target

    def write_copy(self, target: Path) -> str:
        doc = self._need_doc()
        write_output(target, doc.render(), new_mode=new_file_mode(doc.path))
        return f"wrote the resume to {target}"

    def export_target(self, target: Path | None = None) -> Path:
        """Where /export writes: ``target``, by default the resume's own name as a PDF
        (``resume.pdf`` for one read from stdin). A wrong extension or a place that cannot
        be written raises, before anyone is asked about overwriting."""
        doc = self._need_doc()
        if target is None:
            target = doc.path.with_suffix(".pdf") if doc.path is not None else Path("resume.pdf")
        return check_target(target, force=True)

    def export(
        self, target: Path, template: str = "classic", options: WriteOptions = DEFAULT_OPTIONS
    ) -> str:
        """Write the resume to ``target`` (.pdf/.docx/.html in ``template``, a PDF on
        ``options.paper``, else the ``paper`` setting, else the resume's country's; .json JSON
        Resume or .yaml rendercv, which take no template). What was left out waits in
        ``take_notices()``; returns the closing line."""
        doc = self._need_doc()
        exported = export_text(
            doc.text,
            target,
            template=template,
            force=True,
            new_mode=new_file_mode(doc.path),
            options=replace(options, paper=options.paper or self.paper),
        )
        for item in exported.left_out:
            self._inform(f"not in {target.name}: {item}")
        for message in exported.warnings:
            self._inform(message)
        if exported.template is None:
            return f"exported the resume to {target}"
        return f"exported the resume to {target} ({template} template)"

    def clear(self) -> None:
        self.agent.memory.clear()
        self.agent.summaries = {}
        self.agent.goal = ""
        self.save()

    # -- edits a run without a person proposed ------------------------------------------
    def take_pending(self) -> Offer:
        """The edits the last non-interactive run proposed (see ``agent.pending``)."""
        if self.pending is None:
            return Offer()
        return self.pending.take(self.workspace.doc, self.workspace.name)

    def rebase_pending(self, edit: ev.ProposedEdit) -> ev.ProposedEdit | None:
        """``edit`` against the resume as it is now; None (and a notice) if it no longer fits."""
        doc = self.workspace.doc
        if doc is None:
            return None
        try:
            return rebase(edit, doc, self.workspace.name)
        except EditError as exc:
            self._warn(f"skipped a kept edit ({edit.reason or 'edit'}): {exc.for_user}")
            return None

    def decide_pending(self, edit: ev.ProposedEdit, decision: ev.Decision) -> ev.EditOutcome:
        """Apply (or not) a kept edit the user was asked about; the model is told."""
        if decision.action not in (ev.Action.APPLY, ev.Action.ALWAYS):
            return ev.EditOutcome(edit.id, False, "rejected")
        if decision.action is ev.Action.ALWAYS:
            self.agent.auto_apply = True
        after = edit.after if decision.new_text is None else decision.new_text
        if not after.strip() or after == edit.before:
            return ev.EditOutcome(edit.id, False, "unchanged: the text is as it was")
        result = self.workspace.apply(edit.before, after, edit.reason or "edit")
        if result.applied:
            self.agent.note(
                f"the user applied an edit you proposed in an earlier run ({edit.reason or 'edit'})"
            )
        return ev.EditOutcome(
            edit.id, result.applied, result.message, result.diff, failed=result.failed
        )

    def _keep_deferred(self) -> None:
        """Edits proposed with nobody to ask wait for the next ``cvagent chat``."""
        if self.pending is not None and self.deferred and self.workspace.doc is not None:
            try:
                self.pending.save(self.deferred, self.workspace.doc.text)
            except OSError as exc:
                self._warn(f"could not keep the proposed edits for later: {exc}")
        self.deferred = []

    def close(self) -> None:
        try:
            self._keep_deferred()
            self.save()
        finally:
            if self.lock is not None:
                self.lock.release()
