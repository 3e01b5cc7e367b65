"""The composition root of a chat session: the one place its object graph is built.

``build_session`` makes the capability registry, the stores kept beside the resume
(``ResumeStores``: conversation, undo log, edits kept for later), the workspace, the tools
and the ``ResumeAgent``, and hands them to a ``ChatSession``, which only uses them.
Opening another resume (``/load``, or typing its path) takes that resume's stores from the
same ``ResumeStores.beside``.

The CLI start-up (``cli/chat_runner.py``) is the outer root: it reads the settings and the
resume, takes the resume's lock, picks the model client, calls ``build_session`` and wires
the terminal pieces (ChatIO, renderer, Repl) around the session.  Tests and benchmarks
build the same graph with fakes: a scripted client, a fake lock, no transcript.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cvagent_cli.agent.capabilities import DEFAULT_CAPABILITY
from cvagent_cli.agent.memory import Memory
from cvagent_cli.agent.registry import CapabilityRegistry
from cvagent_cli.agent.resume_agent import ResumeAgent
from cvagent_cli.agent.session import ChatSession, Lock, ModelChooser, ResumeStores
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.types import ModelClient
from cvagent_cli.store.transcripts import TranscriptLog
from cvagent_cli.tools.agent_tools import default_tools
from cvagent_cli.workspace import Workspace

MEMORY_MESSAGES = 50


@dataclass(frozen=True)
class SessionOptions:
    """What the user chose for this chat (flags and settings)."""

    capability: str | None = None  # a pack named now; None: the saved one, or base
    max_steps: int = 10
    auto_apply: bool = False  # --yes
    read_only: bool = False
    new: bool = False  # --new: put the saved conversation aside
    persist: bool = True  # keep the conversation and undo log beside the resume
    classify_with_model: bool = True
    temperature: float | None = None
    turn_timeout: float | None = None
    paper: str | None = None  # the ``paper`` setting: /export's default paper
    dates: str = "right"  # the ``dates`` setting: where /export puts an entry's dates


def build_session(
    *,
    client: ModelClient,
    doc: ResumeDocument | None = None,
    jd: Any = None,
    registry: CapabilityRegistry | None = None,
    lock: Lock | None = None,
    locks: Callable[[Path], Lock] | None = None,
    models: ModelChooser | None = None,
    transcript: TranscriptLog | None = None,
    **choices: Any,
) -> ChatSession:
    """A chat session on ``doc`` (None: no resume yet), talking to ``client``.

    ``lock`` is the resume's lock, already held; ``locks`` takes the lock of a resume
    opened later; ``models`` makes the client for ``/model NAME``; ``choices`` are the
    fields of ``SessionOptions``.
    """
    options = SessionOptions(**choices)
    registry = registry or CapabilityRegistry.load()
    persist = options.persist and doc is not None and doc.path is not None
    stores = ResumeStores.beside(doc.path) if persist and doc and doc.path else None
    workspace = Workspace(
        doc,
        jd=jd,
        undo=stores.undo if stores is not None else None,
        read_only=options.read_only,
        write_to_disk=doc is not None and doc.path is not None,
    )
    agent = ResumeAgent(
        registry=registry,
        capability=options.capability or DEFAULT_CAPABILITY,
        classify_with_model=options.classify_with_model,
        client=client,
        tools=default_tools(),
        workspace=workspace,
        memory=Memory(MEMORY_MESSAGES),
        max_steps=options.max_steps,
        auto_apply=options.auto_apply,
        temperature=options.temperature,
        turn_timeout=options.turn_timeout,
    )
    session = ChatSession(
        agent=agent,
        stores=stores,
        lock=lock,
        locks=locks,
        models=models,
        transcript=transcript,
        paper=options.paper,
        dates=options.dates,
    )
    # typing a path loads it directly: through the session, which moves lock, history, undo
    agent.loader = session.open_resume
    session.start(new=options.new, capability=options.capability)
    return session
