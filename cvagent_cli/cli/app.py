"""The typer application: thin commands that parse options and call one core function."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
from typing import Annotated, NoReturn

import typer

# Every command module below loads when cvagent starts (typer registers them all), so a
# command imports what it needs inside its function: `cvagent --version`, `--help` and the
# other commands do not pay for it.
from cvagent_cli import __version__
from cvagent_cli.cli.analyze import analyze_command
from cvagent_cli.cli.chat import chat_command
from cvagent_cli.cli.config import config_app
from cvagent_cli.cli.doctor import doctor_command
from cvagent_cli.cli.export import export_command
from cvagent_cli.cli.help import CvCommand, CvGroup
from cvagent_cli.cli.import_ import import_command
from cvagent_cli.cli.transcripts_command import log_app

#: The README is not on disk after `pip install`: point to what is (the project page, and
#: the CLI's own help and config commands).
PROJECT_URL = "https://github.com/cvagent/cvagent#readme"
EPILOG = (
    "Exit codes: 0 ok · 2 usage or input error · 3 model or configuration error · 130 interrupted. "
    f"Settings: cvagent config show. Docs: {PROJECT_URL}"
)
#: analyze alone has --min-score, so it alone names exit code 1
ANALYZE_EPILOG = EPILOG.replace("0 ok · ", "0 ok · 1 below --min-score · ")

app = typer.Typer(
    cls=CvGroup,
    name="cvagent",
    help="A terminal copilot that makes your Markdown resume better (English and 中文).",
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode="rich",
    epilog=EPILOG,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cvagent {__version__}")
        raise typer.Exit()


def command_words(command: object) -> frozenset[str]:
    """The names of every command and subcommand under ``command`` (a typer group: typer
    vendors its own click, so its groups are known by their ``commands``, not a class)."""
    words: set[str] = set()
    for name, sub in getattr(command, "commands", {}).items():
        words.add(name)
        words |= command_words(sub)
    return frozenset(words)


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool | None,
        typer.Option(
            "--version", "-V", help="Show the version and exit.", callback=_version, is_eager=True
        ),
    ] = None,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help=(
                "Write a debug log to attach to a bug report (also CVAGENT_DEBUG=1): "
                "version, settings, model and tool calls, files written, with API keys "
                "removed, in debug.log in the state directory. The terminal shows "
                "nothing more than the log's path."
            ),
        ),
    ] = False,
) -> None:
    """cvagent: analyze your resume offline, or chat with an agent that edits it with diffs you confirm."""
    # the debug log loads only when cvagent starts a command, not for --help
    from cvagent_cli.debuglog import start

    path = start(verbose, command_words=command_words(ctx.find_root().command))
    if path is not None and verbose:
        typer.echo(f"cvagent: debug log: {path}", err=True)


app.command("analyze", cls=CvCommand, epilog=ANALYZE_EPILOG)(analyze_command)
app.command("chat", cls=CvCommand, epilog=EPILOG)(chat_command)
app.command("doctor", cls=CvCommand, epilog=EPILOG)(doctor_command)
app.command("export", cls=CvCommand, epilog=EPILOG)(export_command)
app.command("import", cls=CvCommand, epilog=EPILOG)(import_command)
app.add_typer(config_app, epilog=EPILOG)
app.add_typer(log_app, epilog=EPILOG)


def main() -> None:
    try:
        app()
    except SystemExit as exc:
        if "litellm" not in sys.modules:
            raise
        end_process(exc.code)


def end_process(code: object) -> NoReturn:
    """Exit without the interpreter's teardown once litellm is loaded.  Its HTTP clients'
    finalizers import modules while the interpreter is shutting down; when a daemon thread
    (an answer stream stopped with Ctrl-C) is frozen holding that module's import lock, the
    process never exits (seen in 1 of 20 interrupted chats).  Everything cvagent keeps is
    written by now (history, undo, transcripts are saved as they happen); exit handlers
    run, logs and standard streams are flushed, then the process ends."""
    if isinstance(code, str):
        print(code, file=sys.stderr)
    status = code if isinstance(code, int) else (0 if code is None else 1)
    try:
        atexit._run_exitfuncs()  # temporary folders, litellm's own flushes
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    finally:
        os._exit(status)
