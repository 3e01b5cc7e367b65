"""``cvagent chat``: parse options, then hand over to the chat runner (cli.chat_runner)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cvagent_cli.cli.error_exit import handle_user_errors
from cvagent_cli.cli.options import api_base_option


@handle_user_errors
def chat_command(
    resume: Annotated[
        str | None,
        typer.Argument(
            help="Resume to work on (.md), or - to read it from stdin. Optional: /load one later.",
            show_default=False,
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-M",
            help="Model in litellm form: gpt-4o-mini, anthropic/claude-3-5-sonnet-latest, deepseek/deepseek-chat, ollama_chat/llama3.1 … \\[env: CVAGENT_MODEL]",
        ),
    ] = None,
    api_base: Annotated[
        str | None,
        typer.Option(
            "--api-base",
            help="OpenAI-compatible server URL (Ollama, LM Studio, vLLM, llama.cpp). \\[env: CVAGENT_API_BASE]",
            callback=api_base_option,
        ),
    ] = None,
    capability: Annotated[
        str | None,
        typer.Option(
            "--capability",
            "-c",
            help="Capability pack: base, star, optimizer, tailor, or one of yours.",
        ),
    ] = None,
    jd: Annotated[
        Path | None,
        typer.Option(
            "--jd",
            help="Job description to tailor against: Markdown or text, or a PDF, DOCX or HTML file.",
        ),
    ] = None,
    yes: Annotated[
        bool,
        typer.Option(
            "--yes",
            "-y",
            help="Apply proposed edits without asking — except flagged ones (possibly invented facts, changed contact details, deleted sections), which always need your yes.",
        ),
    ] = False,
    new: Annotated[
        bool,
        typer.Option("--new", help="Start a new conversation (the last three are kept aside)."),
    ] = False,
    message: Annotated[
        list[str] | None,
        typer.Option(
            "--message",
            "-m",
            help="Send this message and exit (repeatable; run in order). The final answer goes to stdout.",
        ),
    ] = None,
    read_only: Annotated[
        bool,
        typer.Option(
            "--read-only",
            help="Open without taking the edit lock; edits are proposed, never written.",
        ),
    ] = False,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="With -m or piped messages: every event (text, tool calls, proposed edits, "
            "outcomes, usage, notices, errors, done) as one JSON object per line on stdout "
            "(schema_version 1).",
        ),
    ] = False,
    max_steps: Annotated[
        int | None,
        typer.Option("--max-steps", min=1, max=50, help="Tool-call steps per turn (default 10)."),
    ] = None,
) -> None:
    """Chat with an agent that reads and edits your resume; every edit is a diff you confirm.

    Examples:

      cvagent chat resume.md
      cvagent chat resume.md -m "make my Acme bullets stronger" --yes
      cvagent chat resume.md --jd job.md -c tailor
      cat resume.md | cvagent chat - -m "shorten the summary" > new.md
      cvagent chat resume.md -m "review my summary" --json
    """
    # the chat's modules load when it runs, not when cvagent starts (see app.py)
    from cvagent_cli.cli.chat_request import ChatRequest
    from cvagent_cli.cli.chat_start import run_chat  # the prompt first

    code = run_chat(
        ChatRequest(
            resume,
            model=model,
            api_base=api_base,
            capability=capability,
            jd=jd,
            yes=yes,
            new=new,
            messages=list(message or []),
            read_only=read_only,
            max_steps=max_steps,
            json_out=json_out,
        )
    )
    if code:
        raise typer.Exit(code)
