"""A chat session on one resume: the lock, the workspace, the agent, and what persists
(ChatHistory with the agent's state, the undo log).  The REPL and the one-shot modes
both drive a ``ChatSession``; it never prints.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from cvagent_cli import paths
from cvagent_cli.agent import events as ev
from cvagent_cli.agent.capabilities import CapabilityRegistry
from cvagent_cli.agent.history import ChatHistory
from cvagent_cli.agent.manus import ResumeAgent
from cvagent_cli.agent.memory import Memory
from cvagent_cli.agent.toolcall import Approver
from cvagent_cli.llm.types import ModelClient
from cvagent_cli.resume.document import ResumeDocument
from cvagent_cli.resume.undo import UndoLog
from cvagent_cli.resume.workspace import Workspace
from cvagent_cli.tools.agent_tools import default_tools

MEMORY_MESSAGES = 50
HISTORY_MESSAGES = 30


class ChatSession:
    def __init__(
        self,
        *,
        client: ModelClient,
        doc: ResumeDocument | None = None,
        jd=None,
        capability: str | None = None,
        max_steps: int = 10,
        auto_apply: bool = False,
        read_only: bool = False,
        new: bool = False,
        persist: bool = True,
        registry: CapabilityRegistry | None = None,
        classify_with_model: bool = True,
        lock=None,
        lock_factory=None,
        temperature: float | None = None,
    ) -> None:
        self.warnings: list[str] = []
        self.notices: list[str] = []
        self.lock = lock
        self.lock_factory = lock_factory  # path -> held lock, for resumes opened later
        self.registry = registry or CapabilityRegistry.load()
        self.warnings += list(getattr(self.registry, "warnings", []))
        on_disk = doc is not None and doc.path is not None
        self.persist = persist and on_disk
        undo = (
            UndoLog(paths.session_dir(doc.path) / "undo.json")
            if self.persist and doc is not None and doc.path
            else None
        )
        if undo is not None and undo.warning:
            self.warnings.append(undo.warning)
        self.workspace = Workspace(
            doc, jd=jd, undo=undo, read_only=read_only, write_to_disk=on_disk
        )
        self.warnings += self.workspace.notices
        self.history = (
            ChatHistory.for_resume(doc.path, HISTORY_MESSAGES)
            if self.persist and doc is not None and doc.path
            else None
        )
        self.agent = ResumeAgent(
            registry=self.registry,
            capability=capability or "base",
            classify_with_model=classify_with_model,
            client=client,
            tools=default_tools(),
            workspace=self.workspace,
            memory=Memory(MEMORY_MESSAGES),
            max_steps=max_steps,
            auto_apply=auto_apply,
            temperature=temperature,
            loader=self.open_resume,
        )
        if self.history is not None:
            if new:
                archived = self.history.archive()
                if archived:
                    self.notices.append(
                        f"started a new conversation (the old one is kept in {archived.name})"
                    )
            else:
                self._restore(capability)

    def _restore(self, capability: str | None) -> None:
        assert self.history is not None
        messages, state, warning = self.history.load()
        if warning:
            self.warnings.append(warning)
        if not messages and not state:
            return
        self.agent.memory.replace_from(messages)
        if capability:
            state = {**state, "capability": capability, "stage": None}
        self.agent.restore_state(state)
        stage = f", stage {self.agent.stage.current}" if self.agent.stage is not None else ""
        self.notices.append(
            f"resumed the conversation about {self.workspace.name}: {len(messages)} messages, "
            f"capability {self.agent.capability.name}{stage} (--new to start afresh)"
        )

    # -- turns ------------------------------------------------------------------------
    def ask(self, text: str, approve: Approver | None = None) -> Iterator[ev.Event]:
        notice = self.workspace.refresh_from_disk()
        if notice:
            yield ev.Notice(notice, "warning")
            self.agent.summaries.append(f"note: {notice}")
        try:
            yield from self.agent.run(text, approve)
        finally:
            self.save()

    def open_resume(self, path: Path) -> ResumeDocument:
        """Switch to another resume the user named (/load PATH, or typing its path): check
        it reads, take its lock (refusing if another cvagent holds it), then load it with
        its own conversation and undo log."""
        path = Path(path).expanduser()
        ResumeDocument.from_path(path)  # a bad file fails before any lock changes hands
        current = self.workspace.doc.path if self.workspace.doc is not None else None
        if (
            self.lock_factory is not None
            and not self.workspace.read_only
            and (current is None or current.resolve() != path.resolve())
        ):
            new_lock = self.lock_factory(path)  # LockedError names the other process
            old, self.lock = self.lock, new_lock
            if old is not None:
                old.release()
        return self.load(path)

    def load(self, path: Path) -> ResumeDocument:
        self.save()
        doc = self.workspace.load(
            Path(path).expanduser(),
            UndoLog(paths.session_dir(Path(path).expanduser()) / "undo.json"),
        )
        self.history = ChatHistory.for_resume(doc.path, HISTORY_MESSAGES)  # type: ignore[arg-type]
        self.persist = True
        self.agent.memory.clear()
        self.agent.progress = None
        self._restore(None)
        return doc

    def save(self) -> None:
        if self.history is None:
            return
        warning = self.history.save(self.agent.memory.messages, self.agent.export_state())
        if warning:
            self.warnings.append(warning)

    def clear(self) -> None:
        self.agent.memory.clear()
        self.agent.summaries = []
        self.agent.goal = ""
        self.save()

    def close(self) -> None:
        try:
            self.save()
        finally:
            if self.lock is not None:
                self.lock.release()
