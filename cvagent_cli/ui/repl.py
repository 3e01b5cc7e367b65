"""The ``cvagent chat`` REPL: a prompt loop, slash commands (aider-style ``cmd_<name>``
methods whose docstring is the help), and turns driven through ``ChatSession.ask``.

Slash commands never reach the model.  A turn's events are rendered as they arrive;
Ctrl-C stops the turn, closes the agent's generator (which repairs Memory) and returns
to the prompt with everything already shown kept.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.request import current_turn_index
from cvagent_cli.document.editing import unified_diff
from cvagent_cli.errors import CvAgentError, UsageError
from cvagent_cli.formats.writing.options import DATES, PAPERS, WriteOptions
from cvagent_cli.llm.tokens import estimate_request_tokens
from cvagent_cli.truth.fencing import unfence
from cvagent_cli.ui.banner import BANNER, KEYS, print_items
from cvagent_cli.ui.command_line import is_command, parse_model_args, path_argument, split_options
from cvagent_cli.ui.console import clean
from cvagent_cli.ui.io import ChatIO, make_completer
from cvagent_cli.ui.pending import offer_pending_edits
from cvagent_cli.ui.render import EventRenderer, Renderer, TurnResult, print_diff, run_turn
from cvagent_cli.ui.wrap import print_wrapped, with_gutter
from cvagent_cli.wording import plural

if TYPE_CHECKING:
    from rich.console import Console

    from cvagent_cli.agent.session import ChatSession
    from cvagent_cli.document.document import ResumeDocument
    from cvagent_cli.workspace import Workspace

#: where a model can be named, before a chat (`cvagent chat -m`) and in one (`/model`)
NO_MODEL_HINT = (
    "pass -M/--model (e.g. -M openai/gpt-4o-mini or -M ollama_chat/llama3.1), set "
    "CVAGENT_MODEL, or add 'model: NAME' to config.yaml (cvagent config edit)"
)
NO_MODEL_HINT_IN_CHAT = f"type /model NAME now; for the next chats, {NO_MODEL_HINT}"
#: Commands that take no argument: anything typed after them is a mistake, not ignored.
NO_ARGUMENTS = frozenset({"analyze", "history", "clear", "exit", "quit"})


class Repl:
    def __init__(
        self,
        session: ChatSession,
        io: ChatIO,
        *,
        renderer: Renderer | None = None,
        read_only: bool = False,
    ) -> None:
        self.session = session
        self.io = io
        self.renderer: Renderer = renderer or EventRenderer(io.console)
        self.read_only = read_only

    @property
    def console(self) -> Console:
        return self.io.console

    @property
    def ws(self) -> Workspace:
        return self.session.workspace

    # -- the loop ------------------------------------------------------------------------
    def run(self, first: Callable[[], str] | None = None) -> int:
        """The loop; ``first`` reads the first line when the prompt was drawn before the
        session existed (``cli/chat_start.py``), and then the banner is out already."""
        self.io.completer = make_completer(self)
        self.io.toolbar = self.toolbar
        if first is None:
            self._print_items(BANNER)
        offer_pending_edits(self.session, self.io, self.renderer)  # from a run without a person
        armed = False  # one Ctrl-C on an empty prompt arms, the second exits
        while True:
            try:
                read, first = first or (lambda: self.io.prompt("> ")), None
                line: str | None = read()
            except EOFError:
                break
            except KeyboardInterrupt:
                line = None
            # a second Ctrl-C can land while the notice prints or a command runs, outside
            # the prompt: it must count as that second Ctrl-C, not crash the REPL
            try:
                if line is None:
                    if self._interrupted_text().strip():
                        armed = False  # Ctrl-C with text typed just clears the line
                        continue
                    if armed:
                        break
                    armed = True
                    self.renderer.notice("press Ctrl-C again or Ctrl-D to exit")
                    continue
                armed = False
                if not self.handle(line):
                    break
            except KeyboardInterrupt:
                if line is None:
                    break
                self.renderer.notice("stopped (Ctrl-C)", "warning")
        return 0

    def _interrupted_text(self) -> str:
        return self.io.typed_text()

    def handle(self, line: str) -> bool:
        """One input line; False means exit."""
        text = line.strip()
        if not text:
            return True
        if is_command(text):
            return self.run_command(text)
        self.send(line)
        return True

    def send(self, text: str) -> TurnResult | None:
        if not getattr(self.session.client, "model", None):
            self.renderer.error("no model configured", NO_MODEL_HINT_IN_CHAT)
            return None
        result = run_turn(self.session, text, self.renderer, self.io.confirm_edit)
        self._print_notices()
        return result

    def _print_notices(self) -> None:
        for notice in self.session.take_notices():
            self.renderer.render(notice)

    # -- commands --------------------------------------------------------------------------
    def command_names(self) -> list[str]:
        return sorted(name[4:] for name in dir(type(self)) if name.startswith("cmd_"))

    def resolve(self, word: str) -> tuple[str | None, str | None]:
        """A command name from what was typed (unique prefixes allowed), or an error."""
        names = self.command_names()
        key = word.lower()
        if key in names:
            return key, None
        matches = [n for n in names if n.startswith(key)]
        if len(matches) == 1:
            return matches[0], None
        if matches:
            return None, f"ambiguous command /{word}: " + ", ".join("/" + m for m in matches)
        # 0.7: a typo ("hlep", "modle" score 0.75 and more), not any word ("nonsense" and
        # "tokens" share four letters: 0.57)
        close = difflib.get_close_matches(key, names, n=3, cutoff=0.7)
        hint = f"; did you mean {' or '.join('/' + c for c in close)}?" if close else ""
        return None, f"unknown command /{word}{hint} (/help lists them)"

    def run_command(self, text: str) -> bool:
        word, _, arg = text[1:].partition(" ")
        if not word:
            self.cmd_help("")
            return True
        name, error = self.resolve(word)
        if error:
            self.renderer.notice(error, "warning")
            return True
        arg = arg.strip()
        try:
            if arg and name in NO_ARGUMENTS:
                raise self.usage_error(name, arg)
            return getattr(self, f"cmd_{name}")(arg) is not False
        except CvAgentError as exc:
            self.renderer.error(exc.message, exc.hint)
            return True

    def usage(self, name: str) -> str:
        """A command's usage, from its docstring: ``/undo [N]``."""
        doc = (getattr(self, f"cmd_{name}").__doc__ or "").strip()
        return doc.partition(" — ")[0] if doc.startswith("/") else f"/{name}"

    def usage_error(self, name: str, arg: str) -> UsageError:
        """A bad argument: it names what was typed and gives the usage line; the command
        does nothing."""
        return UsageError(f"/{name}: unexpected {arg!r}", hint=f"usage: {self.usage(name)}")

    def argument_choices(self, name: str | None) -> list[str]:
        if name == "show" and self.ws.doc is not None:
            return list(
                dict.fromkeys(
                    [s.id for s in self.ws.doc.sections]
                    + [s.title for s in self.ws.doc.sections if s.title]
                )
            )
        if name == "capability":
            return self.session.registry.names()
        if name == "diff":
            return ["last"]
        return []

    def toolbar(self) -> str:
        name = self.ws.name + (
            " (read-only)" if self.ws.read_only or self.ws.file_read_only else ""
        )
        capability = self.session.capability.name
        progress = self.session.progress_line()
        usage = self.session.client.session_usage
        tokens = plural(usage.prompt_tokens + usage.completion_tokens, "token", thousands=True)
        if usage.cached_tokens:
            tokens += f" ({usage.cached_tokens:,} cached)"
        cost = f" ${usage.cost_usd:.4f}" if usage.cost_usd else ""
        model = getattr(self.session.client, "model", None) or "no model"
        return f" {name} · {model} · {capability}{' · ' + progress if progress else ''} · {tokens}{cost} "

    def _need_doc(self) -> ResumeDocument:
        if self.ws.doc is None:
            raise CvAgentError(
                "no resume is loaded", hint="/load PATH, or type the path of your resume"
            )
        return self.ws.doc

    def cmd_help(self, arg: str) -> None:
        """Show the commands."""
        table = Table(box=None, show_header=False, pad_edge=False)
        for name in self.command_names():
            doc = (getattr(self, f"cmd_{name}").__doc__ or "").strip().splitlines()[0]
            usage, _, text = doc.partition(" — ") if doc.startswith("/") else (f"/{name}", "", doc)
            table.add_row(
                Text(usage, style="bold"), Text(text[:1].upper() + text[1:])
            )  # Text: "[last]" is not markup
        self.console.print(table)
        self._print_items(KEYS)

    def _print_items(self, items: tuple[str, ...]) -> None:
        print_items(self.console, items)

    def cmd_show(self, arg: str) -> None:
        """/show [SECTION] — print the resume (or one section: id, title, or a unique part of one) with line numbers."""
        doc = self._need_doc()
        start, end = 1, doc.line_count
        if arg:
            matches = doc.match_sections(arg)
            if len(matches) > 1:
                raise CvAgentError(
                    f"{arg!r} matches {plural(len(matches), 'section')}: "
                    f"{', '.join(s.id for s in matches)}",
                    hint="type more of the name (Tab completes it)",
                )
            if not matches:
                near = doc.suggest_sections(arg)
                hint = f"did you mean {', '.join(near)}? " if near else ""
                raise CvAgentError(
                    f"no section {arg!r}",
                    hint=f"{hint}sections: {', '.join(s.id for s in doc.sections)}",
                )
            start, end = matches[0].start_line, matches[0].end_line
        if self.console.is_terminal:  # long lines wrap right of the numbers
            rows = (
                (Text(f"{number:>4} │ ", style="dim"), Text(clean(doc.line(number))))
                for number in range(start, end + 1)
            )
            self.console.print(with_gutter(rows, self.console.width), soft_wrap=True)
            return
        out = Text()
        for number in range(start, end + 1):
            out.append(f"{number:>4} │ ", style="dim")
            out.append(clean(doc.line(number)) + "\n")
        self.console.print(out, soft_wrap=True, end="")

    def cmd_diff(self, arg: str) -> None:
        """/diff [last] — what changed since the session started (or the last edit only)."""
        if arg and arg.lower() != "last":
            raise self.usage_error("diff", arg)
        self._need_doc()
        if arg:
            if not self.ws.undo.done:
                self.renderer.notice("no edit to show")
                return
            entry = self.ws.undo.done[-1]
            self.console.print(Text(f"last edit: {clean(entry.reason)}", style="bold"))
            print_diff(self.console, unified_diff(entry.before, entry.after, self.ws.name))
            return
        diff = self.ws.session_diff()
        if not diff:
            self.renderer.notice("no changes since the session started")
            return
        print_diff(self.console, diff)

    def _step(self, arg: str, undo: bool) -> None:
        name = "undo" if undo else "redo"
        if arg and not (arg.isascii() and arg.isdigit() and int(arg) > 0):
            raise self.usage_error(name, arg)  # "abc", "0", "-1": never one step by default
        self._need_doc()
        count = int(arg) if arg else 1
        result = self.session.undo(count) if undo else self.session.redo(count)
        for message, diff in result.steps:
            self.renderer.notice(message)
            print_diff(self.console, diff)
        if result.steps and len(result.steps) < result.asked:  # one line says why it stopped
            verb = "undid" if undo else "redid"
            why = f": {result.problem}" if result.problem else ""
            self.renderer.notice(f"{verb} {len(result.steps)} of the {result.asked} asked{why}")
        elif result.problem:
            self.renderer.notice(result.problem, "warning")

    def cmd_undo(self, arg: str) -> None:
        """/undo [N] — revert the last applied edit (N times); works across sessions."""
        self._step(arg, undo=True)

    def cmd_redo(self, arg: str) -> None:
        """/redo [N] — re-apply an undone edit."""
        self._step(arg, undo=False)

    def cmd_analyze(self, arg: str) -> None:
        """Run the offline analyzer on the resume (scores, findings, JD coverage)."""
        # the report views and the scoring rules (~50 ms) load with the agent stack, after
        # the chat's quick start-up checks (cli/chat_runner.py), not with this module
        from cvagent_cli.ui.report import render_report

        render_report(self.console, self.session.analyze(), max_findings=25, more_hint=None)

    def cmd_jd(self, arg: str) -> None:
        """/jd FILE — load a job description to tailor against."""
        if not arg:
            current = getattr(self.ws.jd, "source", None) if self.ws.jd is not None else None
            self.renderer.notice(
                f"job description: {current}"
                if current
                else "no job description loaded; /jd FILE loads one"
            )
            return
        self.session.set_jd(path_argument(arg))
        tip = "try 'tailor my resume to this job'"
        if not self.session.capability.intents:  # not in a tailoring pack yet
            tailoring = self.session.registry.for_intent("TAILOR")
            tip += f" or /capability {tailoring}" if tailoring else ""
        self.renderer.notice(f"loaded the job description {arg}; {tip}")

    def cmd_capability(self, arg: str) -> None:
        """/capability [NAME] — list capability packs, or switch to one."""
        if not arg:
            table = Table(box=None, show_header=False, pad_edge=False)
            for cap in self.session.registry:
                mark = "●" if cap.name == self.session.capability.name else " "
                table.add_row(mark, Text(cap.name, style="bold"), Text(clean(cap.description)))
            self.console.print(table)
            return
        wanted = self.session.registry.get(arg).name  # an unknown name raises, with a hint
        if wanted == self.session.capability.name:  # switching would only reset its progress
            self.renderer.notice(f"capability {wanted} is already active")
            return
        old, new = self.session.set_capability(wanted)
        self.renderer.render(ev.CapabilitySwitched(old, new, "/capability"))
        progress = self.session.progress_line()
        if progress:
            self.renderer.notice(progress)

    def cmd_model(self, arg: str) -> None:
        """/model [NAME [--api-base URL|default]] — show the model, or switch (litellm name)."""
        if not arg:
            client = self.session.client
            base = getattr(getattr(client, "settings", None), "api_base", None)
            name = getattr(client, "model", None) or "none configured"
            self.renderer.notice(f"model: {name}" + (f" · endpoint: {base}" if base else ""))
            return
        name, api_base = parse_model_args(arg)
        where = self.session.switch_model(name, api_base)
        self.renderer.notice(f"model: {name} · endpoint: {where}")

    def cmd_tokens(self, arg: str) -> None:
        """What the next request would send, by part, in tokens (built as the agent builds it)."""
        messages, tools = self.session.request_preview(arg or "…")
        client = self.session.client

        def count(wire: list[dict[str, Any]], schemas: list[dict[str, Any]] | None = None) -> int:
            if getattr(client, "model", None):
                return int(client.count_tokens(wire, schemas))
            return estimate_request_tokens(wire, schemas)

        table = Table(box=None, pad_edge=False)
        table.add_column("part")
        table.add_column("tokens", justify="right")
        system = messages[:1] if messages and messages[0]["role"] == "system" else []
        current = current_turn_index(messages)
        earlier, turn = messages[len(system) : current], messages[current:]
        rows = [
            ("tool schemas", plural(len(tools), "tool"), count([], tools) if tools else 0),
            ("system prompt", "rules, pack, resume outline, summaries", count(system)),
            ("earlier turns", f"{plural(len(earlier), 'message')}, compacted", count(earlier)),
            ("this turn", "its context and your message", count(turn)),
        ]
        for part, what, n in rows:
            if part == "earlier turns" and not earlier:
                continue
            table.add_row(f"{part}: {what}", f"{n:,}")
        total = sum(n for *_, n in rows)
        table.add_row(Text("total", style="bold"), Text(f"{total:,}", style="bold"))
        self.console.print(table)
        stable = total - rows[-1][2]
        self.console.print(
            Text(
                f"{stable:,} of them ({stable / max(total, 1):.0%}) are the request's stable "
                "start, which a provider's prompt cache can reuse at its cache price",
                style="dim",
            )
        )
        usage = client.session_usage
        if usage.prompt_tokens:
            share = usage.cached_tokens / usage.prompt_tokens
            cost = f", ${usage.cost_usd:.4f}" if usage.cost_usd is not None else ""
            self.console.print(
                Text(
                    f"this session: {usage.prompt_tokens:,} prompt tokens, "
                    f"{usage.cached_tokens:,} read from the provider's cache ({share:.0%}), "
                    f"{usage.completion_tokens:,} completion tokens{cost}",
                    style="dim",
                )
            )
        if not getattr(client, "model", None):
            self.console.print(Text("(estimated: no model configured)", style="dim"))

    def cmd_history(self, arg: str) -> None:
        """The conversation the model remembers (what is saved for next time)."""
        messages = self.session.messages
        if not messages:
            self.renderer.notice("the conversation is empty")
            return
        for message in messages:
            # as a person reads it: no fence tags, no tool result written for the model
            content = " ".join(unfence(message.content or "").split())
            if message.role == "tool":
                failed = (message.content or "").startswith("Error:")
                content = f"{message.name or 'tool'}: {'failed' if failed else 'done'}"
            if message.tool_calls:
                content = (
                    (content + " " if content else "")
                    + "→ "
                    + ", ".join(c.name for c in message.tool_calls)
                )
            if len(content) > 110:  # cut between words
                content = content[:110].rsplit(" ", 1)[0] + " …"
            print_wrapped(
                self.console,
                Text.assemble((f"{message.role:>9} ", "bold"), clean(content)),
                indent=10,
            )
        history = getattr(self.session, "history", None)
        if history is not None:
            print_wrapped(self.console, Text(f"saved in {history.path}", style="dim"))

    def cmd_clear(self, arg: str) -> None:
        """Forget the conversation (the resume and its undo log are kept)."""
        self.session.clear()
        self.renderer.notice("conversation cleared; the resume is unchanged")

    def cmd_save(self, arg: str) -> None:
        """/save [PATH] — save the conversation now; with PATH, also write the current resume text there."""
        saved = self.session.save_conversation()
        if not arg:
            self.renderer.notice(saved)
            return
        self._need_doc()
        target = path_argument(arg)
        if self.session.copy_target(target) is None:
            self.renderer.notice(
                f"{target} is the resume itself; edits are written to it as they are applied"
            )
        elif self._may_write(target):
            self.renderer.notice(self.session.write_copy(target))
        else:
            self.renderer.notice("not saved")

    def _may_write(self, target: Path) -> bool:
        """An existing file is overwritten only after the user's yes."""
        return not target.exists() or self.io.confirm(
            f"{target} exists; overwrite it?", unattended=self.session.auto_apply
        )

    def cmd_export(self, arg: str) -> None:
        """/export [PATH] [--template classic|compact|modern] [--paper a4|letter] [--dates right|inline] [--no-source] — write the current resume as .pdf, .docx or .html, or .json (JSON Resume) / .yaml (rendercv) (default: resume.pdf; paper: the paper setting, else the resume's country's; dates: the dates setting, else right-aligned, inline right after each title, which every PDF text reader reads with it); a PDF or DOCX carries its Markdown inside unless --no-source."""
        self._need_doc()
        words, options = split_options(
            "/export",
            arg,
            {
                "--template": "a name (classic, compact, modern)",
                "--paper": "a4 or letter",
                "--dates": "right or inline",
            },
            {"-t": "--template"},
        )
        template = options.get("--template", "classic")
        embed = "--no-source" not in words
        words = [w for w in words if w != "--no-source"]
        paper = options.get("--paper")
        if paper is not None and paper not in PAPERS:
            raise UsageError(f"unknown paper '{paper}'", hint="/export --paper a4 or letter")
        dates = options.get("--dates", self.session.dates)
        if dates not in DATES:
            raise UsageError(f"unknown dates '{dates}'", hint="/export --dates right or inline")
        target = self.session.export_target(Path(" ".join(words)).expanduser() if words else None)
        if not self._may_write(target):
            self.renderer.notice("not exported")
            return
        try:
            done = self.session.export(target, template, WriteOptions(paper, embed, dates))
        finally:
            self._print_notices()  # what the export left out, even when it then failed
        self.renderer.notice(done)

    def cmd_load(self, arg: str) -> None:
        """/load PATH — open another resume (its own conversation and undo log)."""
        if not arg:
            raise CvAgentError("which resume?", hint="/load PATH")
        path = path_argument(arg)
        doc = self.session.open_resume(path)
        self._print_notices()  # "imported cv.pdf …" says where the Markdown came from first
        self.renderer.notice(doc.loaded_summary(doc.path or path))

    def cmd_exit(self, arg: str) -> bool:
        """Leave (the conversation is saved)."""
        return False

    def cmd_quit(self, arg: str) -> bool:
        """Same as /exit."""
        return False
