"""``analyze --llm``: stream the model's review under the offline report, through the
same renderer as the chat (Markdown committed block by block, no full re-render), or,
with ``--json``, hold it in the report's ``review`` field.  ``analyze`` imports this module
for ``--llm`` only, so what the review needs is imported here at the top."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from cvagent_cli.agent import events as ev
from cvagent_cli.analysis.schema import AnalysisReport, LLMReview
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.llm.review import Stopped, stream_review
from cvagent_cli.settings import load_settings
from cvagent_cli.ui.render import EventRenderer


def review_client(model: str | None, api_base: str | None) -> LiteLLMGateway:
    """The model client for the review, made before any resume is analyzed: without a
    model the run stops at once (ConfigError, exit 3), not after printing every report."""
    return LiteLLMGateway(load_settings(model=model, api_base=api_base))


def run_review(
    client: LiteLLMGateway,
    doc: ResumeDocument,
    report: AnalysisReport,
    jd: Any,
    *,
    console: Console,
) -> None:
    before = client.session_usage
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
    prompt = client.session_usage.prompt_tokens - before.prompt_tokens
    completion = client.session_usage.completion_tokens - before.completion_tokens
    cost = _cost(client, before)
    shown = f", ${cost:.4f}" if cost else ""
    console.print(Text(f"{prompt} prompt + {completion} completion tokens{shown}", style="muted"))


def collect_review(
    client: LiteLLMGateway, doc: ResumeDocument, report: AnalysisReport, jd: Any
) -> AnalysisReport:
    """``report`` with the model's review in its ``review`` field (``--llm --json``)."""
    before = client.session_usage
    text: list[str] = []
    stopped: str | None = None
    for piece in stream_review(client, doc, report, jd):
        if isinstance(piece, Stopped):
            stopped = piece.message
        else:
            text.append(piece)
    review = LLMReview(
        model=client.model,
        text="".join(text),
        stopped=stopped,
        prompt_tokens=client.session_usage.prompt_tokens - before.prompt_tokens,
        completion_tokens=client.session_usage.completion_tokens - before.completion_tokens,
        cost_usd=_cost(client, before),
    )
    return report.model_copy(update={"review": review})


def _cost(client: LiteLLMGateway, before: Any) -> float | None:
    """The cost of the calls since ``before`` (None when the price is unknown)."""
    now = client.session_usage.cost_usd
    return None if now is None else now - (before.cost_usd or 0.0)
