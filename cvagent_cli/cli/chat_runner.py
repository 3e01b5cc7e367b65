"""``cvagent chat``: start-up and the three ways a conversation can arrive.

* the REPL, on the terminal (or on ``/dev/tty`` when the resume itself came from stdin);
* ``-m`` messages (repeatable), run in order: final answers to stdout, everything else
  (progress, tool lines, diffs) to stderr;
* batch: RESUME is a path and stdin is piped, so each non-empty stdin line is a message.

Start-up (``prepare_chat``, in named steps) is the outer composition root: settings, the
resume, its lock and the model client here; the session's own graph (registry, stores,
workspace, tools, agent) in ``agent.compose.build_session``; then the terminal pieces
(ChatIO, renderer, Repl) around the session.

Start-up never imports litellm: the model gateway is created lazily and litellm is
imported in a background thread while the user reads the banner and types.  This module
itself is imported only to run a chat (by ``chat_start``: in that background thread when
the prompt is drawn first), so it imports the chat's modules at its top, all but the agent
stack, which waits until the quick start-up checks have passed (``open_session``).

Non-interactive runs never wait for a keypress: edits apply only with ``--yes`` (never
flagged ones).  A resume read from stdin is never written anywhere; its final text goes
to stdout instead.  Exit codes: 0 ok, 2 usage/input, 3 model/configuration, 130 Ctrl-C.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cvagent_cli import paths
from cvagent_cli.agent.capabilities import DEFAULT_CAPABILITY
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import ConfigError, ExitCode, ModelError, UsageError
from cvagent_cli.formats.opening import editable_markdown, read_job_description
from cvagent_cli.llm.endpoints import choose_endpoint
from cvagent_cli.llm.loader import load_litellm, preload_in_background
from cvagent_cli.llm.tokens import estimate_request_tokens
from cvagent_cli.llm.types import ModelClient, StreamEvent, Usage
from cvagent_cli.settings import Settings, load_settings
from cvagent_cli.store.textio import read_stdin
from cvagent_cli.ui.command_line import is_command
from cvagent_cli.ui.console import clean, make_console
from cvagent_cli.ui.io import ChatIO, open_tty
from cvagent_cli.ui.jsonlines import JsonRenderer
from cvagent_cli.ui.render import EventRenderer, Renderer
from cvagent_cli.ui.repl import NO_MODEL_HINT, NO_MODEL_HINT_IN_CHAT, Repl
from cvagent_cli.wording import plural

if TYPE_CHECKING:
    from cvagent_cli.agent.session import ChatSession
    from cvagent_cli.cli.chat_request import ChatRequest
    from cvagent_cli.store.lock import ResumeLock


class NoModelClient:
    """Stands in for the gateway when no model is configured, so the REPL still starts
    and slash commands work; sending a message is refused before it gets here."""

    model = ""

    def __init__(self) -> None:
        self.session_usage = Usage()

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        temperature: float | None = None,
        retry: bool = True,
        deadline: float | None = None,
    ) -> Iterator[StreamEvent]:
        raise ModelError("no model configured", hint=NO_MODEL_HINT_IN_CHAT)
        yield  # pragma: no cover - makes this a generator like the real one

    def count_tokens(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> int:
        return estimate_request_tokens(messages, tools)


def make_client(settings: Settings) -> ModelClient:
    if not settings.model:
        return NoModelClient()
    from cvagent_cli.llm.gateway import LiteLLMGateway  # the module itself never imports litellm

    return LiteLLMGateway(settings)


def first_use_note(settings: Settings, client: ModelClient) -> str | None:
    """The cheap part of ``cvagent doctor`` the first time a chat meets a hosted model: a
    name litellm does not list (a typo, or a model newer than this litellm) gets its
    context window and price unknown, silently otherwise.  A model behind ``--api-base``
    (a local or private server) is never in that list, so it is not said for those."""
    from cvagent_cli.llm.gateway import LiteLLMGateway  # the module itself never imports litellm

    if settings.api_base or not isinstance(client, LiteLLMGateway):
        return None
    # doctor loads litellm's model list: the chat needs litellm for its first call anyway
    from cvagent_cli.llm import doctor
    from cvagent_cli.paths import state_dir

    return doctor.first_use_note(client, state_dir() / doctor.SEEN_FILE)


def known_providers(model: str) -> set[str] | None:
    """litellm's provider names, to tell ``deepseek/x`` (a provider) from ``meta-llama/x``
    (a model name on an OpenAI-compatible server).  Only a prefixed name needs them; the
    import is usually done already (preloaded in the background), and the new model needs
    litellm anyway.  None if it cannot be loaded: then every prefix counts as a provider."""
    if "/" not in model:
        return None
    try:
        return {str(getattr(p, "value", p)) for p in load_litellm().provider_list}
    except Exception:  # a broken installation is reported by the first request
        return None


def preload(client: ModelClient) -> None:
    if getattr(client, "model", None):
        preload_in_background()


def acquire_lock(path: Path) -> ResumeLock:
    """Take the one-writer lock of ``path``; LockedError names the other process."""
    # filelock (~20 ms) loads when a lock is taken, after the quick start-up checks
    from cvagent_cli.store.lock import ResumeLock

    lock = ResumeLock(path)
    lock.acquire()
    return lock


class ModelChooser:
    """``/model NAME [--api-base URL]``: the client for another model and where it sends
    requests, from the settings the chat started with and the model now in use."""

    def __init__(self, settings: Settings) -> None:
        self.configured = settings
        self.current = settings

    def choose(self, name: str, api_base: str | None = None) -> tuple[ModelClient, str]:
        now = self.current
        choice = choose_endpoint(
            name,
            current_model=now.model,
            current_base=now.api_base,
            configured_model=self.configured.model,
            configured_base=self.configured.api_base,
            explicit_base=api_base,
            providers=known_providers(name),
            environ=os.environ,
        )
        new_settings = now.model_copy(update={"model": name, "api_base": choice.api_base})
        client = make_client(new_settings)
        self.current = new_settings
        preload(client)
        return client, choice.where


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream and stream.isatty())
    except (AttributeError, ValueError):
        return False


def _stdin_lines() -> Iterator[str]:
    for line in sys.stdin:  # lazily: `producer | cvagent chat resume.md` streams
        if line.strip():
            yield line.rstrip("\r\n")


def run_chat(request: ChatRequest) -> int:
    return prepare_chat(request).run()


@dataclass
class PreparedChat:
    """Everything a chat needs, built (``prepare_chat``) before it runs."""

    session: ChatSession
    repl: Repl
    io: ChatIO
    renderer: Renderer
    client: ModelClient
    doc: ResumeDocument | None
    interactive: bool
    from_stdin: bool
    read_only: bool
    json_out: bool
    messages: list[str]
    tty: Any = None

    notices_shown: bool = False

    def run(self, first: Callable[[], str] | None = None) -> int:
        """Run the chat; ``first`` reads the REPL's first line (see ``cli/chat_start.py``)."""
        return _run_prepared(self, first)

    def show_notices(self) -> None:
        """What start-up has to say (history resumed, read-only …), once."""
        if self.notices_shown:
            return
        self.notices_shown = True
        for notice in self.session.take_notices():
            self.renderer.render(notice)
        if self.read_only:
            self.renderer.notice("read-only: edits are proposed, never written", "warning")


def prepare_chat(request: ChatRequest, io: ChatIO | None = None) -> PreparedChat:
    """Settings, the resume, its lock, the session and the REPL; nothing is printed, so
    this can run while a prompt is on the screen (``io``: the REPL's, already drawn)."""
    settings = load_settings(model=request.model, api_base=request.api_base)
    mode = ChatMode.of(request.resume, messages=request.messages, json_out=request.json_out)
    err = make_console(stderr=True)
    doc = read_resume(request.resume, mode, read_only=request.read_only, err=err)
    if not mode.interactive and not settings.model:
        raise ConfigError("no model configured", hint=NO_MODEL_HINT)
    tty = open_terminal() if mode.interactive and mode.from_stdin else None
    session = open_session(
        settings,
        doc,
        jd=request.jd,
        capability=request.capability,
        max_steps=request.max_steps,
        yes=request.yes,
        new=request.new,
        read_only=request.read_only,
    )
    note = first_use_note(settings, session.client)
    if note:
        session.inform(note)
    if mode.interactive:
        io = terminal_io(doc, tty, io)
        renderer: Renderer = EventRenderer(io.console)
    else:
        io = ChatIO(output=err, interactive=False)
        # -m on a file: answers go to stdout, so the stream is not shown twice on stderr;
        # --json: every event goes to stdout as a JSON line instead
        renderer = (
            JsonRenderer() if request.json_out else EventRenderer(err, show_text=mode.from_stdin)
        )
    repl = Repl(session, io, renderer=renderer, read_only=request.read_only)
    return PreparedChat(
        session,
        repl,
        io,
        renderer,
        session.client,
        doc,
        mode.interactive,
        mode.from_stdin,
        request.read_only,
        request.json_out,
        request.messages,
        tty,
    )


@dataclass(frozen=True)
class ChatMode:
    """Where the resume and the messages come from (see the module docstring)."""

    from_stdin: bool  # the resume is read from standard input
    interactive: bool  # the REPL: no -m messages, no piped ones

    @classmethod
    def of(cls, resume: str | None, *, messages: list[str], json_out: bool) -> ChatMode:
        stdin_tty = _isatty(sys.stdin)
        from_stdin = resume == "-" or (resume is None and not stdin_tty)
        batch = bool(resume) and not from_stdin and not stdin_tty and not messages
        interactive = not messages and not batch
        if json_out and interactive:
            raise UsageError(
                "--json is for scripts: it needs messages to send",
                hint='pass them with -m "…" (repeatable), or pipe them one per line',
            )
        return cls(from_stdin, interactive)


def read_resume(
    resume: str | None, mode: ChatMode, *, read_only: bool, err: Any
) -> ResumeDocument | None:
    """The resume to work on (None: none yet); a PDF or DOCX is imported to Markdown first."""
    if mode.from_stdin:
        if _isatty(sys.stdin):
            err.print("reading the resume from standard input (end it with Ctrl-D)…", style="dim")
        return ResumeDocument.from_decoded(read_stdin(), source="<stdin>")
    if not resume:
        return None
    from cvagent_cli.ui.progress import OCR_PROGRESS, page_progress  # rich.progress: when needed

    with page_progress(OCR_PROGRESS) as progress:  # a scanned PDF: a bar per page OCR reads
        path, imported = editable_markdown(
            Path(resume).expanduser(), read_only=read_only, progress=progress
        )
    if imported:
        err.print(f"cvagent: {imported}")
    return ResumeDocument.from_path(path)


def open_terminal() -> Any:
    """The terminal to type in when stdin holds the resume."""
    try:
        return open_tty()
    except OSError:
        raise UsageError(
            "the resume came from standard input and there is no terminal to type messages in",
            hint='pass messages with -m "…" (e.g. cat resume.md | cvagent chat - -m "shorten the summary" --yes)',
        ) from None


def open_session(
    settings: Settings,
    doc: Any,
    *,
    jd: Path | None,
    capability: str | None,
    max_steps: int | None,
    yes: bool,
    new: bool,
    read_only: bool,
) -> Any:
    """The session (``agent.compose.build_session``) with the resume's lock held, the job
    description read and the model client made; the lock is released if any of it fails."""
    lock = (
        acquire_lock(doc.path)
        if doc is not None and doc.path is not None and not read_only
        else None
    )
    try:
        # the agent stack (~150 ms: session, tools, analyzer, the transcript database)
        # loads after the quick checks, so that a missing model or a locked resume is
        # said at once
        from cvagent_cli.agent.compose import build_session
        from cvagent_cli.store.transcripts import TranscriptLog

        job = None
        if jd is not None:
            job = read_job_description(Path(jd).expanduser())
        pack = capability or (
            settings.capability if settings.capability != DEFAULT_CAPABILITY else None
        )
        return build_session(
            client=make_client(settings),
            doc=doc,
            jd=job,
            lock=lock,
            locks=None if read_only else acquire_lock,
            models=ModelChooser(settings),
            transcript=TranscriptLog.from_settings(settings),
            capability=pack,
            max_steps=max_steps or settings.max_steps,
            auto_apply=yes,
            read_only=read_only,
            new=new,
            persist=not read_only,
            temperature=settings.temperature,
            turn_timeout=settings.turn_timeout,
            paper=settings.paper,
            dates=settings.dates,
        )
    except BaseException:
        if lock is not None:
            lock.release()
        raise


def terminal_io(doc: Any, tty: Any, io: ChatIO | None) -> ChatIO:
    """The REPL's input and output: ``io`` when the prompt is drawn already, the terminal
    when stdin holds the resume, else stdin and stdout; input history kept per resume."""
    history = paths.input_history_file(doc.path if doc is not None else None)
    if tty is not None:
        pt_input, pt_output, tty_out = tty
        return ChatIO(input=pt_input, pt_output=pt_output, output=tty_out, history_file=history)
    return io if io is not None else ChatIO(history_file=history)


def _run_prepared(chat: PreparedChat, first: Callable[[], str] | None) -> int:
    session, repl, io, client = chat.session, chat.repl, chat.io, chat.client
    interactive, tty, doc = chat.interactive, chat.tty, chat.doc
    messages, from_stdin, json_out = chat.messages, chat.from_stdin, chat.json_out
    chat.show_notices()
    try:
        if interactive:
            if first is None:
                io.after_first_render = lambda: preload(client)
            code = repl.run(first)
        else:
            preload(client)
            code = run_messages(
                repl,
                messages or _stdin_lines(),
                answers_to_stdout=not from_stdin and not json_out,
            )
    finally:
        session.close()  # saves the history and releases the lock, whatever happened
        if tty is not None:
            tty[2].close()
    if from_stdin and doc is not None:  # read from stdin: there is a document
        emit_stdin_resume(session, doc, as_json=json_out)
    return code


def run_messages(repl: Repl, messages: Iterable[str], *, answers_to_stdout: bool) -> int:
    """-m and batch: one message after another; stop at the first model error (exit 3).
    An approved edit the disk refused (full, no permission) lets the run go on and makes
    it exit 2, so a script never reads a lost edit as success."""
    pending = 0
    write_failed = False
    for raw in messages:
        text = raw.strip()
        if not text:
            continue
        if is_command(text):
            if not repl.run_command(text):
                break
            continue
        result = repl.send(raw)
        if result is None:
            return int(ExitCode.MODEL)
        if result.interrupted:
            return int(ExitCode.INTERRUPTED)
        write_failed = write_failed or result.write_failed
        done = result.done
        if done is not None:
            pending += len(done.pending_edits)
            if answers_to_stdout and done.final_text:
                answer = (
                    clean(done.final_text) if _isatty(sys.stdout) else done.final_text
                )  # raw into pipes
                sys.stdout.write(answer.rstrip("\n") + "\n")
                sys.stdout.flush()
        if result.failed:
            return int(ExitCode.MODEL)
    if pending:
        why = (
            "run again with --yes, or confirm them in `cvagent chat`, which offers them next"
            if not repl.session.auto_apply
            else "they need your confirmation in `cvagent chat`, which offers them next"
        )
        repl.renderer.notice(f"{plural(pending, 'edit')} proposed, not applied: {why}", "warning")
    return int(ExitCode.USAGE) if write_failed else 0


def emit_stdin_resume(
    session: ChatSession, original: ResumeDocument, *, as_json: bool = False
) -> None:
    """The final text of a resume read from stdin goes to stdout (and nothing else does).

    Into a pipe or file it is always written, so ``… | cvagent chat - -m … > new.md``
    never leaves an empty file; on a terminal only when an edit changed it.  With
    ``--json`` it is the last line, a ``resume`` event.
    """
    doc = session.workspace.doc
    if doc is None or doc.path is not None:
        return  # the user /load-ed a file; that one was edited in place
    if as_json:
        JsonRenderer().write_resume(doc.text)
        return
    if doc.text == original.text and _isatty(sys.stdout):
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(doc.render())
    sys.stdout.buffer.flush()
