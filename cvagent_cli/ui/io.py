"""ChatIO: the one object that owns the prompt session and the consoles (aider's io.py).

Everything the chat asks or prints goes through here, so tests can inject both sides:
``input=`` is either a list of lines (scripted: no terminal needed), a prompt-toolkit
``Input`` (a pipe in tests, ``/dev/tty`` when the resume came from stdin), or ``None``
for the real terminal; ``output=`` is any text stream or a ready rich ``Console``.

Confirmations never block a non-interactive run: without a human to ask, an edit is
applied only with ``--yes`` and never when it is flagged as possibly invented.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from rich.console import Console
from rich.text import Text

from cvagent_cli.secrets import scrub_secrets
from cvagent_cli.ui.console import THEME, make_console
from cvagent_cli.ui.editor import EditorError, edit_text
from cvagent_cli.ui.keyboard import echo

if TYPE_CHECKING:  # imported where used: the prompt is drawn before the agent stack loads
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer
    from prompt_toolkit.history import FileHistory
    from prompt_toolkit.input import Input
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.output import Output

    from cvagent_cli.agent.events import Decision, ProposedEdit

CONFIRM_QUESTION = "Apply? [y]es/[n]o/[a]lways/[e]dit "
#: answers people type, in English and Chinese (是/好/对 yes, 否/不/不要 no)
YES = ("y", "yes", "是", "好", "对", "是的", "好的")
NO = ("n", "no", "否", "不", "不要", "不用")
CONFIRM_HELP = "answer y (apply), n (reject; 'n REASON' tells the model why), a (apply this and later edits) or e (edit it first)"


def _key_bindings() -> KeyBindings:
    """Enter submits; Esc+Enter (what Alt+Enter sends) inserts a newline.  Pasted text
    (bracketed paste) keeps its newlines through prompt-toolkit's own binding."""
    # prompt-toolkit (~170 ms) loads for a terminal prompt only, not for -m or --json runs
    from prompt_toolkit.key_binding import KeyBindings

    kb = KeyBindings()

    @kb.add("escape", "enter")
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    return kb


class ChatIO:
    def __init__(
        self,
        *,
        input: list[str] | tuple[str, ...] | Input | None = None,
        output: TextIO | Console | None = None,
        pt_output: Output | None = None,
        interactive: bool = True,
        history_file: Path | None = None,
    ) -> None:
        self.interactive = interactive
        self.history_file = history_file
        if isinstance(output, Console):
            self.console = output
            self.console.push_theme(THEME)  # render_report and friends use cvagent's style names
        else:
            self.console = make_console(output or sys.stdout)
        self._script: list[str] | None = None
        self._pt_input: Input | None = None
        if isinstance(input, (list, tuple)):
            self._script = list(input)  # scripted answers, consumed in order
        else:
            self._pt_input = input
        self._pt_output = pt_output
        self.completer: Completer | None = None
        # what prompt-toolkit's bottom_toolbar takes: a callable returning formatted text
        self.toolbar: Callable[[], Any] | None = None
        # Run once the first prompt is on the screen (the background litellm import):
        # started earlier, that import competes for the GIL and delays the prompt itself.
        self.after_first_render: Callable[[], None] | None = None
        self._session: PromptSession[str] | None = None
        self._ask_session: PromptSession[str] | None = None

    @property
    def scripted(self) -> bool:
        return self._script is not None

    # -- prompt-toolkit sessions (created lazily: nothing to set up in -m mode) ------------
    def _prompt_session(self) -> PromptSession[str]:
        if self._session is None:
            # prompt-toolkit (~170 ms) loads for a terminal prompt only, not for -m or --json runs
            from prompt_toolkit import PromptSession
            from prompt_toolkit.history import InMemoryHistory

            history: InMemoryHistory | FileHistory = InMemoryHistory()
            if self.history_file is not None:
                try:
                    self.history_file.parent.mkdir(parents=True, exist_ok=True)
                    self.history_file.touch(mode=0o600, exist_ok=True)
                    os.chmod(self.history_file, 0o600)
                    history = _scrubbed_history(self.history_file)
                except OSError:
                    pass  # an unwritable state dir costs the history, not the session
            self._session = PromptSession[str](
                history=history,
                completer=self.completer,
                complete_while_typing=False,
                bottom_toolbar=self.toolbar,
                key_bindings=_key_bindings(),
                input=self._pt_input,
                output=self._pt_output,
                enable_suspend=True,
            )
        return self._session

    def _question_session(self) -> PromptSession[str]:
        if self._ask_session is None:
            from prompt_toolkit import PromptSession  # lazy: see _prompt_session

            # a separate session so y/n answers do not pollute the input history
            self._ask_session = PromptSession[str](
                key_bindings=_key_bindings(), input=self._pt_input, output=self._pt_output
            )
        return self._ask_session

    # -- input ------------------------------------------------------------------------------
    def _next_scripted(self, shown: str) -> str:
        assert self._script is not None
        if not self._script:
            raise EOFError
        line = self._script.pop(0)
        self.console.print(
            Text(shown + line, style="bold"), soft_wrap=True
        )  # echo, like a transcript
        return line

    def prompt(self, message: str = "> ") -> str:
        """One user input; raises EOFError (Ctrl-D) or KeyboardInterrupt (Ctrl-C)."""
        if self.scripted:
            return self._next_scripted(message)
        session = self._prompt_session()
        if self.after_first_render is not None:
            callback, self.after_first_render = self.after_first_render, None

            def once(_app: object) -> None:
                session.app.after_render -= once
                callback()

            session.app.after_render += once
        return _guarded_prompt(session, message)

    def prompt_session_if_any(self) -> PromptSession[str] | None:
        """The input's prompt-toolkit session, if one was made (to stop or redraw it)."""
        return self._session

    def invalidate(self) -> None:
        """Redraw the prompt (safe from another thread): its toolbar has news."""
        app = getattr(self._session, "app", None)
        if app is not None and app.is_running:
            app.invalidate()

    def typed_text(self) -> str:
        """What is typed at the prompt right now (after a Ctrl-C, to tell clear from exit)."""
        session = self._session
        return session.default_buffer.text if session is not None else ""

    def ask(self, question: str, default: str = "") -> str:
        if self.scripted:
            return self._next_scripted(question)
        return _guarded_prompt(self._question_session(), question, default=default)

    def confirm(self, question: str, *, unattended: bool = False) -> bool:
        """A yes/no question; without a human the answer is ``unattended`` (``--yes``)."""
        if not self.interactive:
            return unattended
        while True:
            try:
                answer = self.ask(f"{question} [y/n] ").strip().lower()
            except EOFError:
                return False
            if answer in YES:
                return True
            if answer in NO:
                return False

    # -- the edit confirmation ------------------------------------------------------------------
    def confirm_edit(self, edit: ProposedEdit) -> Decision:
        """The approver for ``session.ask``, asked only when the agent's approval rule
        (``automatic_decision``) leaves it to a person; the diff has been rendered already.

        ``e`` never applies a flagged edit by itself: the user's version is shown and the
        question asked again, so invented numbers land only after an explicit yes.  An
        editor left without a change (or emptied) cancels and asks again.
        """
        # the agent stack loads after the first prompt is drawn (cli/chat_start.py), and
        # chat_start imports this module to draw it
        from cvagent_cli.agent.events import Action, Decision

        flagged = bool(edit.flags)
        if not self.interactive:
            return Decision(Action.DEFER)  # reported as proposed, not applied
        if flagged:
            self.console.print(
                Text(
                    "This edit is flagged (⚠ above): apply it only if you are sure it is right.",
                    style="yellow",
                )
            )
        mine: str | None = None  # the user's version of a flagged edit, awaiting a yes
        while True:
            try:
                answer = self.ask(CONFIRM_QUESTION)
            except EOFError:
                return Decision(Action.REJECT, note="the user closed the input without answering")
            word, _, note = answer.strip().partition(" ")
            key = word.lower()
            if key in YES:
                return Decision(Action.APPLY, new_text=mine)
            if key in NO:
                return Decision(Action.REJECT, note=note.strip() or None)
            if key in ("a", "always"):
                return Decision(Action.ALWAYS, new_text=mine)
            if key in ("e", "edit"):
                current = edit if mine is None else _with_after(edit, mine)
                try:
                    new_text = self.edit_proposal(current)
                except EditorError as exc:  # said once; the editor never opened
                    self.console.print(Text(f"{exc.message} ({exc.hint})", style="yellow"))
                    continue
                if new_text is None:
                    self.console.print(
                        Text("nothing changed in the editor: the edit is not applied", style="dim")
                    )
                    continue
                if not flagged:
                    return Decision(Action.APPLY, new_text=new_text)
                mine = new_text
                self._show_own_version(edit.before, mine)
                continue
            self.console.print(Text(CONFIRM_HELP, style="dim"))

    def _show_own_version(self, before: str, after: str) -> None:
        # the document model and the renderer load after the first prompt (see confirm_edit)
        from cvagent_cli.document.editing import unified_diff
        from cvagent_cli.ui.render import print_diff

        self.console.print(Text("your version:", style="bold"))
        print_diff(self.console, unified_diff(before, after))
        self.console.print(
            Text("It was flagged: answer y to apply your version, n to drop it.", style="yellow")
        )

    def edit_proposal(self, edit: ProposedEdit) -> str | None:
        """[e]dit: change the proposed text, return the whole new resume text; None when
        nothing changed (cancelled, left as proposed, or emptied).

        A single replacement is edited inline, prefilled with the model's text; anything
        else (a batch, or text whose position cannot be pinned down) goes to the editor.
        """
        span = locate_replacement(edit)
        if span is not None:
            start, end, new = span
            try:
                edited = self.ask(
                    "Edit the new text (Esc+Enter adds a line, Ctrl-C cancels):\n",
                    default=new,
                )
            except (EOFError, KeyboardInterrupt):
                return None
            if not edited.strip() or edited == new:
                return None
            return edit.before[:start] + edited + edit.before[end:]
        return self.external_edit(edit.after)

    def external_edit(self, text: str) -> str | None:
        """The text in the user's editor (the one launcher, ``ui.editor``); None when the
        editor was left without a change or emptied; ``EditorError`` when it could not
        be started."""
        with echo(self.console.file, on=True):  # a turn switched it off (ui.keyboard)
            return edit_text(text)  # EditorError: confirm_edit says so and asks again


def _with_after(edit: ProposedEdit, after: str) -> ProposedEdit:
    """The proposal as the user last left it (edited again from there, in the editor)."""
    return replace(edit, after=after, replacements=())


def _scrubbed_history(path: Path) -> FileHistory:
    """prompt-toolkit's FileHistory, but what reaches the disk has API keys removed: a key
    pasted at the prompt stays recallable (in memory) for this session, never persisted."""
    from prompt_toolkit.history import FileHistory  # lazy: see _prompt_session

    class ScrubbedFileHistory(FileHistory):
        def store_string(self, string: str) -> None:
            super().store_string(scrub_secrets(string))

    return ScrubbedFileHistory(str(path))


def _guarded_prompt(session: PromptSession[str], message: str, **kwargs: Any) -> str:
    """``session.prompt`` without losing, or crashing on, an early Ctrl-C.

    While it runs, prompt-toolkit reads Ctrl-C as a key and raises KeyboardInterrupt
    itself.  A SIGINT in the instant before it takes over would interrupt its event-loop
    set-up and leave a half-built loop that spews tracebacks at exit; so until then the
    signal is only noted, and turned into the same KeyboardInterrupt once it runs.
    """
    if threading.current_thread() is not threading.main_thread():
        return session.prompt(message, **kwargs)
    noted: list[bool] = []

    def pre_run() -> None:
        if noted:
            session.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, lambda *_: noted.append(True))
    try:
        return session.prompt(message, pre_run=pre_run, **kwargs)
    finally:
        signal.signal(signal.SIGINT, previous)


def locate_replacement(edit: ProposedEdit) -> tuple[int, int, str] | None:
    """(start, end, new_text) such that ``after == before[:start] + new_text + before[end:]``,
    for an edit made of exactly one replacement; None when it cannot be pinned down."""
    if len(edit.replacements) != 1:
        return None
    old, new = edit.replacements[0]
    start = edit.before.find(old)
    while start != -1 and old:
        end = start + len(old)
        if edit.before[:start] + new + edit.before[end:] == edit.after:
            return start, end, new
        start = edit.before.find(old, start + 1)
    return None


def open_tty() -> tuple[Input, Output, TextIO]:
    """prompt-toolkit input/output on /dev/tty (stdin carries the resume); OSError if
    there is no terminal to talk to."""
    # prompt-toolkit (~170 ms) loads for a terminal prompt only, not for -m or --json runs
    from prompt_toolkit.input import create_input
    from prompt_toolkit.output import create_output

    tty_in = open("/dev/tty", encoding="utf-8")  # noqa: SIM115 - lives as long as the REPL
    tty_out = open("/dev/tty", "w", encoding="utf-8")  # noqa: SIM115 - the caller closes it
    return create_input(stdin=tty_in), create_output(stdout=tty_out), tty_out


class CommandTable(Protocol):
    """What completion asks of the REPL (``ui/repl.py``'s ``Repl``), named here so that
    this module, which the REPL imports, does not import it back."""

    def command_names(self) -> list[str]: ...

    def resolve(self, word: str) -> tuple[str | None, str | None]: ...

    def argument_choices(self, name: str | None) -> list[str]: ...


def make_completer(repl: CommandTable) -> Completer:
    """Tab completion: command names, then section ids/titles (/show), capability names
    (/capability), 'last' (/diff) and paths (/load, /jd, /save, /export); a folder
    completes with its trailing ``/``.  Built lazily so that
    ``-m`` runs never import prompt-toolkit."""
    # lazy: see the docstring
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
    from prompt_toolkit.document import Document

    paths = PathCompleter(expanduser=True)

    class SlashCompleter(Completer):
        def get_completions(
            self, document: Document, complete_event: CompleteEvent
        ) -> Iterator[Completion]:
            text = document.text_before_cursor
            if not text.startswith("/"):
                return
            if " " not in text:
                for command in repl.command_names():
                    if command.startswith(text[1:].lower()):
                        yield Completion("/" + command, start_position=-len(text))
                return
            word, _, arg = text[1:].partition(" ")
            name, _ = repl.resolve(word)
            if name in ("load", "jd", "save", "export"):
                for completion in paths.get_completions(Document(arg), complete_event):
                    if completion.display_text.endswith("/"):  # a folder: go on into it
                        completion = Completion(
                            completion.text + "/",
                            start_position=completion.start_position,
                            display=completion.display,
                        )
                    yield completion
                return
            choices = repl.argument_choices(name)
            key = arg.casefold()
            starting = [c for c in choices if c.casefold().startswith(key)]
            # then names that contain what was typed: /show 电商 finds 成都某电商公司
            inside = [c for c in choices if key in c.casefold() and c not in starting]
            for candidate in starting + (inside if name == "show" else []):
                yield Completion(candidate, start_position=-len(arg))

    return SlashCompleter()
