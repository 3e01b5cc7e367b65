"""Option values checked when they are given, so a typo is a usage error (exit 2) naming the
option, not a failure at the first model call."""

from __future__ import annotations

import typer


def api_base_option(value: str | None) -> str | None:
    """``--api-base``: an http(s) URL with a host (typer callback)."""
    if value is None:
        return None
    from cvagent_cli.settings import API_BASE_EXAMPLE, api_base_problem  # lazy: pydantic

    problem = api_base_problem(value)
    if problem:
        example = "" if problem.endswith("?") else f" (a server URL such as {API_BASE_EXAMPLE})"
        raise typer.BadParameter(problem + example)
    return value.strip()
