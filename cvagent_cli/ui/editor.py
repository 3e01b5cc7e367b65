"""The one way cvagent opens the user's text editor: ``click.edit``.

click is the library typer is built on, and its launcher is the one every click/typer
tool uses: ``$VISUAL``, else ``$EDITOR``, else the first of sensible-editor, vim, nano,
vi (notepad on Windows); the command is split like a shell would.  The REPL's ``e``
answer and ``cvagent config edit`` both come through here, so they pick the same editor
and treat "closed without saving" the same way.  (typer 0.29 vendors click and no
longer re-exports ``edit``, hence the direct dependency on click.)
"""

from __future__ import annotations

import os
from pathlib import Path

from cvagent_cli.errors import UsageError

EDITOR_HINT = "set $VISUAL or $EDITOR to an editor you have, e.g. export EDITOR=nano"


class EditorError(UsageError):
    """The editor could not be started, or exited with an error."""


def edit_text(text: str, *, extension: str = ".md") -> str | None:
    """``text`` as the user saved it; None when nothing changed — the editor was closed
    without saving (``:q!``), the text was saved as it was, or the buffer was emptied.

    An emptied buffer cancels rather than clears: nobody means "make my resume empty" by
    deleting everything in a temporary file, and git treats an empty message the same way.
    """
    # click (~50 ms) only when an editor opens: ui.io imports this module before the
    # first prompt is drawn
    import click

    try:
        edited = click.edit(text, extension=extension, require_save=True)
    except click.ClickException as exc:
        raise EditorError(_failure(exc), hint=EDITOR_HINT) from None
    if edited is None or not edited.strip():
        return None
    if not text.endswith("\n") and edited.endswith("\n"):
        edited = edited[:-1]  # click adds a final newline the text did not have
    if edited.rstrip("\n") == text.rstrip("\n"):
        return None
    return edited


def edit_file(path: Path) -> None:
    """Open ``path`` itself in the editor; returns when the editor exits."""
    import click  # only when an editor opens (see edit_text)

    try:
        click.edit(filename=str(path))
    except click.ClickException as exc:
        raise EditorError(
            f"{_failure(exc)}; {path} kept as the editor left it", hint=EDITOR_HINT
        ) from None


def _failure(exc: Exception) -> str:
    """What went wrong, in words: click's "ed: Editing failed: [Errno 2] No such file or
    directory: 'ed'" is the OS error behind it, said once."""
    named = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    editor = f"the editor {named!r}" if named else "an editor (none is set)"
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, FileNotFoundError):
        return f"could not start {editor}: no such program"
    if isinstance(cause, OSError) and cause.strerror:
        return f"could not start {editor}: {cause.strerror.lower()}"
    message = getattr(exc, "format_message", lambda: str(exc))()
    return f"{editor} failed: {message}"
