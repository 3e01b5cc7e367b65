"""Printing the ``analyze --llm`` review."""

from __future__ import annotations

from rich.console import Console
from rich.markdown import Markdown
from rich.rule import Rule


def run_review(
    doc, report, jd, *, model: str | None, api_base: str | None, console: Console
) -> None:
    from cvagent_cli.llm.gateway import LiteLLMGateway
    from cvagent_cli.llm.review import stream_review
    from cvagent_cli.settings import load_settings

    settings = load_settings(model=model, api_base=api_base)
    client = LiteLLMGateway(settings)  # ConfigError (exit 3) when no model is configured
    console.print(Rule(f"LLM review by {client.model}", align="left"))
    if console.is_terminal:
        from rich.live import Live

        text = ""
        with Live(
            Markdown(text), console=console, refresh_per_second=8, vertical_overflow="visible"
        ) as live:
            for piece in stream_review(client, doc, report, jd):
                text += piece
                live.update(Markdown(text))
    else:
        console.print(Markdown("".join(stream_review(client, doc, report, jd))))
    usage = client.session_usage
    cost = f", ${usage.cost_usd:.4f}" if usage.cost_usd else ""
    console.print(
        f"[muted]{usage.prompt_tokens} prompt + {usage.completion_tokens} completion tokens{cost}[/muted]"
    )
