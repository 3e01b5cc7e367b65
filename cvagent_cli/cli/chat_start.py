"""``cvagent chat RESUME`` on a terminal draws its prompt first.

Importing the agent stack (session, agent, tools, analyzer, pydantic models) and loading
the resume and its history takes several times longer than drawing a prompt, and the
user needs none of it to start typing.  So the banner and the ``> `` prompt come first,
with only prompt-toolkit loaded; once the prompt is on the screen, one background thread
builds the chat (``chat_runner.prepare_chat``, which prints nothing) and then imports
litellm.  The first line typed waits for the build if it has not finished.

Imports stay thread-safe: the agent stack is imported by that one thread only, and the
main thread touches none of it until it has waited for the build (``Background.result``).
A build that fails (the resume is locked, the config is invalid) ends the prompt at once
and is reported like any start-up error.

Every other way of running a chat (``-m``, piped messages, a resume on stdin, ``--json``,
a PDF or DOCX to import first) goes straight to ``chat_runner.run_chat``.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cvagent_cli import paths
from cvagent_cli.cli.chat_request import ChatRequest
from cvagent_cli.errors import CvAgentError
from cvagent_cli.formats.file_types import document_format
from cvagent_cli.ui.banner import BANNER, print_items
from cvagent_cli.ui.io import ChatIO, make_completer


class Background:
    """One function run in one thread; :meth:`result` waits for it and returns its value
    or raises its exception.  ``on_error`` is called in the thread when it fails."""

    def __init__(self, work: Callable[[], Any], on_error: Callable[[BaseException], None]) -> None:
        self._work = work
        self._on_error = on_error
        self._done = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    @property
    def ready(self) -> bool:
        return self._done.is_set() and self._error is None

    def start(self, then: Callable[[Any], None] | None = None) -> None:
        def run() -> None:
            try:
                self._value = self._work()
            except BaseException as exc:  # handed to the main thread by result()
                self._error = exc
                self._done.set()
                self._on_error(exc)
                return
            self._done.set()
            if then is not None:
                then(self._value)  # more background work, after the result is out

        if self._thread is None:
            self._thread = threading.Thread(target=run, name="cvagent-start", daemon=True)
            self._thread.start()

    def result(self) -> Any:
        self.start()  # nothing drew the prompt (Ctrl-D at once): build now
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._value

    @property
    def value(self) -> Any:
        return self._value if self.ready else None


def prompt_first(resume: str | None, *, messages: list[str], json_out: bool) -> bool:
    """True for the plain interactive case: a Markdown or text resume file, typed on a
    terminal, with no edits kept from a run without a person to offer.  A missing or unreadable file takes the ordinary path, which reports it
    before any prompt."""
    if not resume or resume == "-" or messages or json_out:
        return False
    try:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            return False
    except (AttributeError, ValueError):
        return False
    path = Path(resume).expanduser()
    try:  # a PDF, DOCX or HTML resume is imported first, which says what it did
        if not path.is_file() or document_format(path) is not None:
            return False
        # edits a `-m` run kept are offered before anything is typed: a line typed at a
        # prompt drawn first would wait behind their questions
        return not paths.session_files(path, create=False).pending_edits.exists()
    except (OSError, CvAgentError):
        return False


def run_chat(request: ChatRequest) -> int:
    if not prompt_first(request.resume, messages=request.messages, json_out=request.json_out):
        # the agent stack (see the module docstring)
        from cvagent_cli.cli.chat_runner import run_chat as run_now

        return run_now(request)
    return run_prompt_first(request)


def run_prompt_first(request: ChatRequest) -> int:
    resume = request.resume
    assert resume is not None  # prompt_first is never true without a resume path
    path = Path(resume).expanduser()
    io = ChatIO(history_file=paths.input_history_file(path))
    name = path.name

    def build() -> Any:
        # the agent stack, imported in the build thread once the prompt is drawn
        from cvagent_cli.cli.chat_runner import prepare_chat

        return prepare_chat(request, io=io)

    def stop_prompt(exc: BaseException) -> None:
        """The build failed: end the prompt now, so the error shows without a keypress."""
        session = io.prompt_session_if_any()
        app = getattr(session, "app", None)
        if app is not None and app.is_running:

            def end() -> None:
                with contextlib.suppress(Exception):  # the user pressed Enter meanwhile
                    app.exit(exception=_BuildFailed())

            with contextlib.suppress(RuntimeError):  # the prompt ended meanwhile
                app.loop.call_soon_threadsafe(end)

    def then_import_litellm(chat: Any) -> None:
        # in the build thread, which imported the agent stack (see the module docstring)
        from cvagent_cli.cli.chat_runner import preload

        app = getattr(io.prompt_session_if_any(), "app", None)
        if app is not None and app.is_running:

            def show() -> None:  # above the prompt, which is redrawn after them
                # prompt-toolkit (~170 ms) loads for a terminal prompt only, not for -m runs
                from prompt_toolkit.application import run_in_terminal

                run_in_terminal(chat.show_notices)

            # the prompt may end meanwhile (its loop closes): then run() shows them
            with contextlib.suppress(RuntimeError):
                app.loop.call_soon_threadsafe(show)
        with contextlib.suppress(RuntimeError):
            io.invalidate()  # the real toolbar, now that there is a session
        preload(chat.client)

    background = Background(build, stop_prompt)

    def toolbar() -> str:
        chat = background.value
        return chat.repl.toolbar() if chat is not None else f" {name} · starting… "

    def completer() -> Any:
        chat = background.value
        if chat is None:
            return None
        if getattr(chat, "_completer", None) is None:
            chat._completer = make_completer(chat.repl)
        return chat._completer

    # prompt-toolkit (~170 ms) loads for a terminal prompt only, not for -m runs
    from prompt_toolkit.completion import DynamicCompleter

    io.toolbar = toolbar
    io.completer = DynamicCompleter(completer)
    io.after_first_render = lambda: background.start(then_import_litellm)
    print_items(io.console, BANNER)

    outcome: dict[str, Any] = {}
    try:
        outcome["line"] = io.prompt("> ")
    except (EOFError, KeyboardInterrupt) as exc:
        outcome["raise"] = exc
    except _BuildFailed:
        pass
    chat = background.result()  # the build's own error, if it failed

    def first() -> str:
        if "raise" in outcome:
            raise outcome["raise"]
        return str(outcome["line"])

    return int(chat.run(first))


class _BuildFailed(Exception):
    """Ends the first prompt when the build failed (``Background.result`` raises why)."""
