"""``analyze --llm``: one streamed review by the user's model on top of the offline
findings (strengths, and the three most valuable rewrites with before/after)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cvagent_cli import languages
from cvagent_cli.analysis.schema import AnalysisReport
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.streaming import ECHOING, REPEATING, ReplyGuard
from cvagent_cli.llm.types import ModelClient, ModelResponse, TextDelta
from cvagent_cli.truth.fencing import UNTRUSTED_NOTE, fence, fence_markers

MAX_RESUME_CHARS = 24_000

REVIEW_PROMPT = """You are an experienced recruiter and resume coach. Review the resume below.
An offline analyzer already produced scores and findings; build on them, don't repeat them all.
Write, in {language}, in Markdown:
1. **Strengths** — 2–4 bullets.
2. **Three most valuable rewrites** — for each: the section, **Before:** (quote the resume exactly), **After:** (your rewrite), and one line on why. Use only facts in the resume; where a metric is missing write a placeholder like [X%] and say the user must fill it in.
3. **One next step** the candidate should take.
Be specific and brief. {untrusted}"""


def review_messages(
    doc: ResumeDocument, report: AnalysisReport, jd_keywords: list[str] | None = None
) -> list[dict[str, Any]]:
    language = languages.get(doc.language).reply_in
    text = doc.text
    if len(text) > MAX_RESUME_CHARS:
        text = (
            text[:MAX_RESUME_CHARS]
            + "\n[… truncated: the resume is much longer than a resume should be]"
        )
    summary = [
        f"Offline score {report.score}/100: "
        + ", ".join(f"{c.category} {c.score}" for c in report.categories)
    ]
    summary += [f"- L{f.line or '-'} {f.rule_id}: {f.message}" for f in report.findings[:15]]
    if report.jd is not None:
        summary.append(
            f"JD keyword coverage {report.jd.coverage:.0f}%; missing: {', '.join(report.jd.missing[:15])}"
        )
    user = "\n".join(summary) + "\n\n" + fence(text, "resume", source=doc.source)
    if jd_keywords:
        user += "\n\nJob description keywords: " + fence(
            ", ".join(jd_keywords), "job_description_keywords"
        )
    return [
        {
            "role": "system",
            "content": REVIEW_PROMPT.format(language=language, untrusted=UNTRUSTED_NOTE),
        },
        {"role": "user", "content": user},
    ]


#: What the user is told when the review was stopped (see ``ReplyGuard``).
STOPPED = {
    REPEATING: "stopped the review: the model kept repeating the same passage",
    ECHOING: "stopped the review: the model began copying the fenced resume back",
}


@dataclass(frozen=True)
class Stopped:
    """The review was cut off here; ``message`` says why."""

    message: str


def stream_review(
    client: ModelClient, doc: ResumeDocument, report: AnalysisReport, jd: Any = None
) -> Iterator[str | Stopped]:
    """Yield the review's text as it streams, then :class:`Stopped` if a loop or a copy
    of the fenced input made the review stop early (the stream is closed then)."""
    keywords = list(getattr(jd, "keywords", []) or []) if jd is not None else None
    guard = ReplyGuard(fence_markers())  # quoting the resume is fine; its fence tag is not
    stream = client.stream(review_messages(doc, report, keywords))
    try:
        for item in stream:
            if isinstance(item, TextDelta):
                show, cut = guard.push(item.text)
                if show:
                    yield show
                if cut is not None:
                    yield Stopped(STOPPED[cut.reason])
                    return
            elif isinstance(item, ModelResponse):
                break
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    rest = guard.rest()
    if rest:
        yield rest
