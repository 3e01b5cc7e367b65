"""``cvagent doctor``: is the configured model ready for the chat?  (see llm/doctor.py)"""

from __future__ import annotations

from typing import Annotated

import typer

from cvagent_cli.cli.error_exit import handle_user_errors
from cvagent_cli.cli.options import api_base_option
from cvagent_cli.errors import ExitCode

_MARKS = {"ok": "ok", "warn": "warn", "fail": "FAIL", "skip": "skip"}


@handle_user_errors
def doctor_command(
    model: Annotated[
        str | None,
        typer.Option("--model", "-M", help="The model to check (default: the configured one)."),
    ] = None,
    api_base: Annotated[
        str | None,
        typer.Option(
            "--api-base",
            help="As chat's --api-base: the server to check.",
            callback=api_base_option,
        ),
    ] = None,
) -> None:
    """Check the model once: provider, API key, an answer, tool calling, context window and
    price.  At most two tiny requests; exit 3 when a check fails."""
    # loaded when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.llm.doctor import run_checks
    from cvagent_cli.settings import load_settings

    report = run_checks(load_settings(model=model, api_base=api_base))
    typer.echo(f"cvagent doctor: {report.model}")
    width = max(len(c.name) for c in report.checks)
    for check in report.checks:
        typer.echo(f"  {_MARKS[check.status]:<4}  {check.name:<{width}}  {check.detail}")
        if check.fix:
            typer.echo(f"  {'':<4}  {'':<{width}}  fix: {check.fix}")
    used = report.usage
    cost = "cost unknown" if used.cost_usd is None else f"${used.cost_usd:.6f}"
    typer.echo(f"the checks used {used.prompt_tokens + used.completion_tokens} tokens ({cost})")
    if report.failed:
        raise typer.Exit(int(ExitCode.MODEL))
