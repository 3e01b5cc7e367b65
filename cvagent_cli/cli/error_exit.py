"""Turning user errors into one clear line and a documented exit code (rendercv's
``handle_user_errors``); real bugs keep their traceback."""

from __future__ import annotations

import contextlib
import functools
import logging
import sys
from collections.abc import Callable, Iterator
from typing import Any, ParamSpec, TypeVar

import typer

from cvagent_cli.errors import CvAgentError, ExitCode, UsageError
from cvagent_cli.validation import expected_words

_log = logging.getLogger(__name__)

#: click's own error class; typer 0.29 vendors click, so it is found from typer's export
#: rather than imported from click (which may be another copy)
ClickError: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)

P = ParamSpec("P")
R = TypeVar("R")


def report_error(error: CvAgentError) -> None:
    # every command imports this module at start-up; rich (~70 ms) loads for an error only
    from cvagent_cli.ui.console import error_line, make_console
    from cvagent_cli.ui.wrap import print_wrapped

    console = make_console(stderr=True)
    # one line in a pipe; wrapped between words on a terminal
    print_wrapped(console, error_line(error.message, error.hint))


def handle_user_errors(func: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except CvAgentError as exc:
            _log.debug("exit %d: %s", int(exc.exit_code), exc, exc_info=True)
            report_error(exc)
            raise typer.Exit(int(exc.exit_code)) from None
        except KeyboardInterrupt:
            _log.debug("interrupted (Ctrl-C)")
            print("\ninterrupted", file=sys.stderr)
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
        except BrokenPipeError:  # `cvagent analyze … | head`
            sys.stderr.close()
            raise typer.Exit(0) from None
        except Exception:
            _log.debug("a bug: unexpected error", exc_info=True)  # the traceback follows
            raise

    return wrapper


@contextlib.contextmanager
def one_line_usage_errors() -> Iterator[None]:
    """A bad option or argument (click's usage errors, which typer draws as a boxed panel
    with the usage above it) reported like every other error: one line, the usage as
    its hint, exit code 2."""
    try:
        yield
    except ClickError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # `cvagent` alone: the help, shown
            raise
        _log.debug("usage error: %s", exc)
        report_error(usage_error(exc))
        raise typer.Exit(int(getattr(exc, "exit_code", ExitCode.USAGE))) from None


def usage_error(exc: Exception) -> UsageError:
    """click's usage error in cvagent's words, with the usage line (or the commands) as
    the hint; pydantic's wording (typer validates option values with it) is rewritten."""
    ctx: Any = getattr(exc, "ctx", None)
    message = _plain(exc)
    if ctx is None:
        return UsageError(message)
    path = ctx.command_path
    commands = getattr(ctx.command, "list_commands", None)
    if commands is not None and message.startswith("no such command"):
        names = ", ".join(commands(ctx))
        return UsageError(message, hint=f"commands: {names} (`{path} -h` for more)")
    usage = ctx.get_usage().removeprefix("Usage: ").strip()
    return UsageError(message, hint=f"usage: {' '.join(usage.split())} (`{path} -h` for more)")


def _plain(exc: Exception) -> str:
    cause = exc.__cause__
    errors = getattr(cause, "errors", None)
    param = getattr(exc, "param", None)
    if callable(errors) and param is not None:  # a pydantic ValidationError
        first = errors()[0]
        opts = getattr(param, "opts", None)
        where = f"'{max(opts, key=len)}'" if opts else f"'{param.name}'"
        if first.get("type") == "value_error":  # a validator's own words name the value
            return f"invalid value for {where}: {expected_words(first).removesuffix('.')}"
        return f"invalid value for {where}: expected {expected_words(first)}, got {first.get('input')!r}"
    text = str(getattr(exc, "format_message", lambda: str(exc))()).strip()
    text = text[:1].lower() + text[1:]
    return text.removesuffix(".")
