"""Plain-text rendering of logged sessions and turns for ``cvagent log`` (pipes well)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from cvagent_cli.store.transcripts import SessionSummary, TurnRecord
from cvagent_cli.truth.fencing import unfence
from cvagent_cli.wording import plural


def _local(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _short_path(resume: str | None) -> str:
    if not resume:
        return "(no resume)"
    home = str(Path.home())
    return "~" + resume[len(home) :] if resume.startswith(home + "/") else resume


def _one_line(text: str, width: int = 72) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _usage(prompt: int, completion: int, cost: float | None, cached: int = 0) -> str:
    text = f"{prompt} prompt"
    if cached:
        text += f" ({cached} cached)"
    text += f" + {completion} completion tokens"
    if cost:
        text += f" · ${cost:.4f}"
    return text


def format_session(s: SessionSummary) -> str:
    turns = plural(s.turns, "turn")
    head = f"{_local(s.started)}  {s.session_id}  {turns}  {s.model or '(no model)'}"
    return (
        f"{head}\n  {_short_path(s.resume)}\n  > {_one_line(s.first_user_text)}\n"
        f"  {_usage(s.prompt_tokens, s.completion_tokens, s.cost)}\n"
    )


def readable(t: TurnRecord) -> TurnRecord:
    """The turn as a person reads it: tool results without the fence tags that mark
    resume text as data for the model (``<untrusted kind="resume_diff" …>``)."""
    calls = [c.model_copy(update={"result": unfence(c.result)}) for c in t.tool_calls]
    return t.model_copy(update={"tool_calls": calls})


def format_turn(t: TurnRecord) -> str:
    meta = " · ".join(x for x in (t.model, t.capability) if x)
    lines = [
        f"## {_local(t.time)}  session {t.session_id}  {_short_path(t.resume)}"
        + (f"  ({meta})" if meta else ""),
        "",
        *(f"> {line}" for line in t.user_text.splitlines()),
        "",
        t.answer_text,
    ]
    for call in t.tool_calls:
        args = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
        outcome = "ok" if call.ok else "error"
        lines.append(
            f"  tool {call.name} {_one_line(args, 60)} → {outcome}: {_one_line(call.result)}"
        )
    for diff in t.diffs:
        lines += ["", diff.rstrip("\n")]
    lines += ["", _usage(t.prompt_tokens, t.completion_tokens, t.cost, t.cached_tokens), ""]
    return "\n".join(lines)


def nothing_found(
    *, query: str | None = None, session: str | None = None, resume: Path | None = None
) -> str:
    """What an empty ``cvagent log`` says: which filter found nothing, not "yet"."""
    if session and query:
        return f'no turns of session "{session}" match "{query}"'
    if session:
        return f'no turns match session "{session}" (cvagent log lists the sessions)'
    if query:
        where = f" about {resume}" if resume else ""
        return f'no turns{where} match "{query}"'
    if resume:
        return f"no chat sessions logged about {resume}"
    return "no chat sessions logged yet"
