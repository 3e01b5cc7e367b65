"""``cvagent log``: read back past chat turns; ``log on`` / ``log off`` switch logging."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cvagent_cli.cli.error_exit import handle_user_errors
from cvagent_cli.cli.help import CvCommand, CvGroup
from cvagent_cli.wording import plural

log_app = typer.Typer(
    cls=CvGroup,
    name="log",  # the help is log_command's docstring, examples included
    invoke_without_command=True,
)


@log_app.callback()
@handle_user_errors
def log_command(
    ctx: typer.Context,
    count: Annotated[
        int | None,
        typer.Option(
            "-n", "--count", min=1, help="How many sessions (default 10) or turns (default 20)."
        ),
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", "-r", help="Only the turns about this resume file.")
    ] = None,
    query: Annotated[
        str | None,
        typer.Option(
            "--query", "-q", help="Show turns whose text, answer, tool calls or diffs hold this."
        ),
    ] = None,
    session: Annotated[
        str | None,
        typer.Option("--session", "-s", help="Show every turn of this session (id or prefix)."),
    ] = None,
    json_out: Annotated[
        bool,
        typer.Option("--json", help="JSON Lines: one session or turn per line (schema_version 1)."),
    ] = False,
) -> None:
    """List, show and search past chat turns (kept 90 days / 50 MB by default).

    Examples:

      cvagent log                      (the 10 most recent sessions)
      cvagent log -n 3 --resume cv.md
      cvagent log -q "Acme"            (turns that mention Acme)
      cvagent log -s 20261123-0620     (every turn of one session)
      cvagent log off                  (stop logging; cvagent log on to resume)
    """
    if ctx.invoked_subcommand:
        return
    # loaded when the command runs, not when cvagent starts (see app.py)
    import json

    from cvagent_cli.cli.transcripts_format import (
        format_session,
        format_turn,
        nothing_found,
        readable,
    )
    from cvagent_cli.settings import load_settings
    from cvagent_cli.store.transcripts import (
        SCHEMA_VERSION,
        SessionSummary,
        TranscriptLog,
        TurnRecord,
    )

    settings = load_settings()
    log = TranscriptLog(
        retention_days=settings.transcript_days,
        max_bytes=int(settings.transcript_max_mb * 1024 * 1024),
    )
    if not settings.transcripts:
        print("cvagent: transcripts are off (cvagent log on to resume)", file=sys.stderr)
    items: list[tuple[str, TurnRecord | SessionSummary]]
    if query or session:
        turns = log.turns(
            session_id=session,
            resume=resume,
            query=query,
            limit=count or (None if session else 20),
        )
        items = [("turn", readable(t)) for t in turns]
    else:
        items = [("session", s) for s in log.sessions(limit=count or 10, resume=resume)]
    if json_out:
        for kind, item in items:
            data = {"schema_version": SCHEMA_VERSION, "type": kind, **item.model_dump(mode="json")}
            sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    if not items:
        typer.echo(nothing_found(query=query, session=session, resume=resume))
        return
    for _, item in items:
        typer.echo(format_turn(item) if isinstance(item, TurnRecord) else format_session(item))


def _switch(on: bool) -> None:
    # loaded when the command runs, not when cvagent starts (see app.py)
    import os

    from cvagent_cli.cli.configfile import set_config_value
    from cvagent_cli.settings import env_var

    path = set_config_value("transcripts", "true" if on else "false")
    typer.echo(f"transcripts {'on' if on else 'off'} (transcripts: {str(on).lower()} in {path})")
    var = env_var("transcripts")
    if os.environ.get(var, "").strip():
        print(f"cvagent: note: {var}={os.environ[var]} overrides the file", file=sys.stderr)


@log_app.command("on", cls=CvCommand)
@handle_user_errors
def on_command() -> None:
    """Log every chat turn (the default)."""
    _switch(True)


@log_app.command("off", cls=CvCommand)
@handle_user_errors
def off_command() -> None:
    """Stop logging chat turns (what is logged stays until pruned)."""
    _switch(False)


@log_app.command("status", cls=CvCommand)
@handle_user_errors
def status_command() -> None:
    """Say whether logging is on, where the log is and how big it is."""
    # loaded when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.settings import load_settings
    from cvagent_cli.store.transcripts import transcript_path

    settings = load_settings()
    path = transcript_path()
    size = f"{path.stat().st_size / 1024:.0f} KB" if path.exists() else "not created yet"
    typer.echo(
        f"transcripts {'on' if settings.transcripts else 'off'}: {path} ({size}); "
        f"kept {plural(settings.transcript_days, 'day')}, at most {settings.transcript_max_mb:g} MB"
    )
