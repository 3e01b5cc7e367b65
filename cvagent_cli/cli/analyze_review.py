"""``analyze --llm``: stream the model's review under the offline report, through the
same renderer as the chat (Markdown committed block by block, no full re-render)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from cvagent_cli.analysis.schema import AnalysisReport
from cvagent_cli.document.document import ResumeDocument


def run_review(
    doc: ResumeDocument,
    report: AnalysisReport,
    jd: Any,
    *,
    model: str | None,
    api_base: str | None,
    console: Console,
) -> None:
    # the model stack loads for --llm only, not when cvagent starts (see app.py)
    from cvagent_cli.agent import events as ev
    from cvagent_cli.llm.gateway import LiteLLMGateway
    from cvagent_cli.llm.review import Stopped, stream_review
    from cvagent_cli.settings import load_settings
    from cvagent_cli.ui.render import EventRenderer

    settings = load_settings(model=model, api_base=api_base)
    client = LiteLLMGateway(settings)  # ConfigError (exit 3) when no model is configured
    console.print(Rule(f"LLM review by {client.model}", align="left"))
    renderer = EventRenderer(console)
    try:
        for piece in stream_review(client, doc, report, jd):
            if isinstance(piece, Stopped):
                renderer.render(ev.Notice(piece.message, "warning"))
            else:
                renderer.render(ev.TextDelta(piece))
    finally:
        renderer.finish()
    usage = client.session_usage  # the client counts every call it makes
    cost = f", ${usage.cost_usd:.4f}" if usage.cost_usd else ""
    console.print(
        Text(
            f"{usage.prompt_tokens} prompt + {usage.completion_tokens} completion tokens{cost}",
            style="muted",
        )
    )
