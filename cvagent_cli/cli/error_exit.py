"""Turning user errors into one clear line and a documented exit code (rendercv's
``handle_user_errors``); real bugs keep their traceback."""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from cvagent_cli.errors import CvAgentError, ExitCode

_log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


def report_error(error: CvAgentError) -> None:
    # rich loads only when there is an error to show
    from rich.text import Text

    from cvagent_cli.ui.console import make_console
    from cvagent_cli.ui.wrap import print_wrapped

    console = make_console(stderr=True)
    line = Text.assemble(("cvagent: error: ", "error"), error.message)
    if error.hint:
        line.append(f"\n  hint: {error.hint}", style="muted")
    print_wrapped(console, line)  # one line in a pipe; wrapped between words on a terminal


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
