"""3. Prompt tokens per request: cvagent against a naive agent, same 30-turn script.

Both runs are real ``ChatSession``s talking through ``LiteLLMGateway`` (litellm, HTTP,
streaming) to the loopback :class:`script.ScriptServer`, which gives both exactly the
same answers.  The tokens are counted on the request bodies the server received
(messages and tool schemas), with tiktoken's cl100k_base.

The naive baseline is the same agent with its request builder replaced: the base
system prompt plus the *whole* resume on every call, then the whole 50-message memory
with every tool output in full (no outline, no section selection, no trimming).

Also checked on cvagent's requests: none exceeds a 128k context window, and every
request of a turn whose message names a part of the resume (labelled by hand in the
script: a section, e.g. "improve my Experience bullets", or a role, e.g. "the Bluefin
Analytics bullets") carries that part's full text as the turn found it (an edit made
within the turn follows as the diff in the edit's tool result).  Sections sent that the
message does not name are counted too ("extra"): relevance cuts both ways.
"""

from __future__ import annotations

import json
import re
import statistics
import types
from typing import Any

from common import CONTEXT_WINDOW, Context, Figure, Sandbox, Stat, Tokenizer, ratio, request_text
from script import BY_TEXT, TURNS, ScriptServer, locate

TARGET_RATIO = 0.40
TARGET_PREFIX_SHARE = 0.85  # of all request tokens over the session, cvagent
TARGET_CACHED_COST = 0.25  # cvagent's input cost at a 10% cache price, over the naive agent's


def serialized(body: dict) -> str:
    """A request as a prompt cache sees it: tool schemas, then the messages in order."""
    return json.dumps(body.get("tools") or [], ensure_ascii=False) + "".join(
        json.dumps(m, ensure_ascii=False) for m in body["messages"]
    )


def prefix_tokens(tok: Tokenizer, bodies: list[dict]) -> list[int]:
    """For each request, the tokens of its longest prefix repeated from the previous one
    (what an automatic prefix cache can reuse; the first request reuses nothing)."""
    out, previous = [], ""
    for body in bodies:
        text = serialized(body)
        common = 0
        limit = min(len(text), len(previous))
        while common < limit and text[common] == previous[common]:
            common += 1
        out.append(tok.count_text(text[:common]) if common else 0)
        previous = text
    return out


def cached_cost(tokens: list[int], cached: list[int], price: float) -> float:
    """Input cost in units of one uncached token: cached tokens at ``price``."""
    return sum(t - min(c, t) + price * min(c, t) for t, c in zip(tokens, cached, strict=True))


class RecordingClient:
    """Wraps the gateway: notes, per request, the turn and the parts of the resume the
    turn names (by the script's labels), with their text as it was when the turn started
    (an edit within the turn reaches the model as the diff in its tool result, not as the
    whole section again)."""

    def __init__(self, inner: Any, session_ref: list) -> None:
        self.inner = inner
        self.session_ref = session_ref
        self.calls: list[dict] = []
        self.turn_text = ""

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def session_usage(self):
        return self.inner.session_usage

    def count_tokens(self, messages, tools=None) -> int:
        return self.inner.count_tokens(messages, tools)

    def stream(self, messages, tools=None, **kwargs):
        from cvagent_cli.truth.fencing import defuse

        doc = self.session_ref[0].workspace.doc
        if self.calls and self.calls[-1]["turn"] == self.turn_text:
            named = self.calls[-1]["named_sections"]  # a later step of the same turn
        else:
            named = {}
            for section_id in BY_TEXT[self.turn_text].names:
                section = doc.find_section(section_id)
                if section is None:
                    raise RuntimeError(f"the script names {section_id!r}, which the resume lacks")
                named[section_id] = defuse(doc.section_text(section))
        self.calls.append({"turn": self.turn_text, "named_sections": named})
        return self.inner.stream(messages, tools, **kwargs)


def sent_sections(messages: list[dict]) -> set[str]:
    """The ids of the sections a request's turn context carries in full."""
    from cvagent_cli.agent.request import CONTEXT_OPEN

    found: set[str] = set()
    for m in messages:
        content = m.get("content")
        if m.get("role") == "user" and isinstance(content, str) and CONTEXT_OPEN in content:
            found.update(
                re.findall(r'<untrusted kind="resume" id="[^"]*" section="([^"]+)">', content)
            )
    return found


def naive_request_messages(agent, turn=None, history=None) -> list[dict]:
    """The naive agent: base prompt + the full resume + the full memory, every call."""
    from cvagent_cli.agent.prompts import BASE_PROMPT
    from cvagent_cli.truth.fencing import UNTRUSTED_NOTE, fence

    doc = agent.workspace.doc
    system = (
        BASE_PROMPT.format(untrusted=UNTRUSTED_NOTE)
        + "\n\n## The resume\n"
        + fence(doc.text, "resume")
    )
    return [{"role": "system", "content": system}] + agent.memory.to_wire()


def run_session(srv: ScriptServer, resume, turns, *, naive: bool, log) -> dict:
    from cvagent_cli.agent import events as ev
    from cvagent_cli.agent.compose import build_session
    from cvagent_cli.document.document import ResumeDocument
    from cvagent_cli.llm.gateway import LiteLLMGateway
    from cvagent_cli.settings import load_settings

    first = len(srv.requests)
    gateway = LiteLLMGateway(load_settings(model="openai/test", api_base=srv.url))
    ref: list = []
    client = RecordingClient(gateway, ref)
    session = build_session(
        client=client, doc=ResumeDocument.from_path(resume), classify_with_model=False
    )
    ref.append(session)
    if naive:
        session.agent.request_messages = types.MethodType(naive_request_messages, session.agent)
        # its requests carry no turn context, so read_resume must return the text itself
        session.agent._shown_sections = dict
    approve = lambda edit: ev.Decision(ev.Action.APPLY)  # noqa: E731 - the user accepts every edit
    applied = 0
    errors = []
    for turn in turns:
        client.turn_text = turn.text
        for event in session.ask(turn.text, approve):
            if isinstance(event, ev.ErrorEvent):
                errors.append(f"{turn.text!r}: {event.message}")
            elif isinstance(event, ev.Done):
                applied += event.edits_applied
    session.close()
    bodies = srv.requests[first:]
    if errors:
        raise RuntimeError(
            ("naive" if naive else "cvagent") + " run failed: " + "; ".join(errors[:3])
        )
    if len(bodies) != len(client.calls):
        raise RuntimeError(
            f"{len(bodies)} requests reached the server but {len(client.calls)} were made"
        )
    log(
        f"  {'naive' if naive else 'cvagent'}: {len(turns)} turns, {len(bodies)} requests, {applied} edits applied, "
        f"{len(session.agent.memory)} messages in memory at the end"
    )
    return {"bodies": bodies, "calls": client.calls, "edits_applied": applied}


def run(ctx: Context) -> list[Figure]:
    tok = Tokenizer()
    turns = TURNS if not ctx.quick else TURNS[:6]  # quick: a smoke check, not the figure
    with Sandbox() as sb, ScriptServer() as srv:
        old = sb.apply_to_process()
        try:
            cv = run_session(srv, sb.resume("tokens-cvagent.md"), turns, naive=False, log=ctx.log)
            nv = run_session(srv, sb.resume("tokens-naive.md"), turns, naive=True, log=ctx.log)
        finally:
            sb.restore_process(old)
        unmatched = srv.unmatched

    def count(body: dict) -> int:
        return tok.count_request(body["messages"], body.get("tools"))

    cv_tokens = [count(b) for b in cv["bodies"]]
    nv_tokens = [count(b) for b in nv["bodies"]]
    same_flow = [
        locate(a["messages"])[0] is locate(b["messages"])[0]
        and locate(a["messages"])[1] == locate(b["messages"])[1]
        for a, b in zip(cv["bodies"], nv["bodies"], strict=False)
    ]
    if len(cv_tokens) != len(nv_tokens) or not all(same_flow):
        raise RuntimeError(
            "the cvagent and naive runs did not follow the same script "
            f"({len(cv_tokens)} vs {len(nv_tokens)} requests)"
        )
    ratios = [c / n for c, n in zip(cv_tokens, nv_tokens, strict=False)]

    def parts(body: dict) -> dict[str, int]:
        system = sum(
            tok.count_request([m]) - 6 for m in body["messages"] if m.get("role") == "system"
        )
        tools = (
            tok.count_text(json.dumps(body.get("tools"), ensure_ascii=False))
            if body.get("tools")
            else 0
        )
        return {"system": system, "tools": tools, "conversation": count(body) - system - tools}

    def median_parts(bodies: list[dict]) -> dict[str, float]:
        rows = [parts(b) for b in bodies]
        return {
            k: statistics.median(r[k] for r in rows) for k in ("system", "conversation", "tools")
        }

    breakdown = {"cvagent": median_parts(cv["bodies"]), "naive": median_parts(nv["bodies"])}

    # section check: every request of a turn naming a section carries its full text
    checked, missing = 0, []
    for call, body in zip(cv["calls"], cv["bodies"], strict=False):
        if not call["named_sections"]:
            continue
        text = request_text(body["messages"])
        for section_id, section_text in call["named_sections"].items():
            checked += 1
            if section_text not in text:
                missing.append(f"{section_id} in turn {call['turn']!r}")
    turns_naming = len({c["turn"] for c in cv["calls"] if c["named_sections"]})
    extra = sorted(
        {
            f"{section_id} in turn {call['turn']!r}"
            for call, body in zip(cv["calls"], cv["bodies"], strict=False)
            for section_id in sent_sections(body["messages"])
            if not any(
                section_id == n or section_id.startswith(n + "/") for n in call["named_sections"]
            )
        }
    )

    per_turn: list[dict] = []
    for call, c, n in zip(cv["calls"], cv_tokens, nv_tokens, strict=False):
        if per_turn and per_turn[-1]["turn"] == call["turn"]:
            per_turn[-1]["requests"].append([c, n])
        else:
            per_turn.append({"turn": call["turn"], "requests": [[c, n]]})
    ctx.details["tokens"] = {
        "tokenizer": tok.label,
        "turns": len(turns),
        "requests": len(cv_tokens),
        "cvagent_tokens": cv_tokens,
        "naive_tokens": nv_tokens,
        "ratios": [round(r, 4) for r in ratios],
        "per_turn": per_turn,
        "totals": {"cvagent": sum(cv_tokens), "naive": sum(nv_tokens)},
        "median_breakdown": breakdown,
        "per_request_parts": {
            "cvagent": [parts(b) for b in cv["bodies"]],
            "naive": [parts(b) for b in nv["bodies"]],
        },
        "edits_applied": {"cvagent": cv["edits_applied"], "naive": nv["edits_applied"]},
        "section_check": {
            "checked": checked,
            "missing": missing,
            "turns_naming_a_section": turns_naming,
            "extra": extra,
        },
        "unmatched_requests": unmatched,
        "context_window": CONTEXT_WINDOW,
    }
    ctx.log(
        f"  tokens ({tok.label}): cvagent median {statistics.median(cv_tokens):,.0f}, "
        f"naive median {statistics.median(nv_tokens):,.0f}, median ratio {statistics.median(ratios):.3f}"
    )

    cv_serial = [tok.count_text(serialized(b)) for b in cv["bodies"]]
    nv_serial = [tok.count_text(serialized(b)) for b in nv["bodies"]]
    cv_prefix, nv_prefix = prefix_tokens(tok, cv["bodies"]), prefix_tokens(tok, nv["bodies"])
    shares = [p / t for p, t in zip(cv_prefix, cv_serial, strict=True) if t]
    session_share = sum(cv_prefix) / sum(cv_serial)
    naive_share = sum(nv_prefix) / sum(nv_serial)
    costs = {
        price: (
            cached_cost(cv_serial, cv_prefix, price),
            cached_cost(nv_serial, nv_prefix, price),
            float(sum(nv_serial)),
        )
        for price in (0.5, 0.1)
    }
    ctx.details["tokens"]["cache"] = {
        "prefix_share_per_request": [round(x, 4) for x in shares],
        "session_prefix_share": round(session_share, 4),
        "naive_session_prefix_share": round(naive_share, 4),
        "cost_units": {str(k): v for k, v in costs.items()},
    }
    cv_stat, nv_stat = Stat.of(cv_tokens), Stat.of(nv_tokens)
    median_ratio = statistics.median(ratios)
    worst = max(max(cv_tokens), max(nv_tokens))
    section_ok = not missing and checked > 0
    label = "" if tok.real else " (APPROXIMATE: chars/4)"
    return [
        Figure(
            "tokens_cvagent",
            f"prompt tokens/request: cvagent{label}",
            "tokens",
            cv_stat,
            "naive (median)",
            nv_stat.median,
            median_ratio,
            target=f"median ratio ≤ {TARGET_RATIO:.2f}",
            met=None if ctx.quick else median_ratio <= TARGET_RATIO,
            note=f"ratio = median over the {len(ratios)} requests of cvagent/naive; {tok.label}",
        ),
        Figure(
            "tokens_naive",
            f"prompt tokens/request: naive baseline{label}",
            "tokens",
            nv_stat,
            note="base prompt + full resume + full 50-message memory, full tool outputs",
        ),
        *[
            Figure(
                f"tokens_part_{part}",
                f"  part of the median request: {part}",
                "tokens",
                Stat.of([breakdown["cvagent"][part]]),
                "naive",
                breakdown["naive"][part],
                ratio(breakdown["cvagent"][part], breakdown["naive"][part]),
                note="medians over requests, per part",
            )
            for part in ("system", "conversation", "tools")
        ],
        Figure(
            "tokens_total",
            f"prompt tokens, whole {len(turns)}-turn session: cvagent",
            "tokens",
            Stat.of([sum(cv_tokens)]),
            "naive",
            float(sum(nv_tokens)),
            sum(cv_tokens) / sum(nv_tokens),
        ),
        Figure(
            "cache_prefix_share",
            "cache: request repeating the previous one's prefix",
            "share",
            Stat.of(shares),
            "whole session",
            session_share,
            session_share,
            target=f"session ≥ {TARGET_PREFIX_SHARE:.2f}",
            met=None if ctx.quick else session_share >= TARGET_PREFIX_SHARE,
            value_text=f"median {statistics.median(shares):.2f}",
            note=f"naive agent: {naive_share:.2f} of its (larger) requests",
        ),
        *[
            Figure(
                f"cache_cost_{int(price * 100)}",
                f"cache: session input cost, cache price {int(price * 100)}%",
                "cost",
                Stat.of([costs[price][0]]),
                "naive, same cache price",
                costs[price][1],
                costs[price][0] / costs[price][1],
                target=f"≤ {TARGET_CACHED_COST:.2f} × naive" if price == 0.1 else "",
                met=(None if ctx.quick else costs[price][0] / costs[price][1] <= TARGET_CACHED_COST)
                if price == 0.1
                else None,
                value_text=f"{costs[price][0]:,.0f} tok-equiv",
                note=f"vs naive without a cache: {costs[price][0] / costs[price][2]:.3f}",
            )
            for price in (0.5, 0.1)
        ],
        Figure(
            "tokens_max",
            "largest request (either run) vs 128k window",
            "tokens",
            Stat.of([worst]),
            "context window",
            float(CONTEXT_WINDOW),
            worst / CONTEXT_WINDOW,
            target="≤ 1 × window",
            met=worst <= CONTEXT_WINDOW,
            note=f"cvagent max {max(cv_tokens):,}, naive max {max(nv_tokens):,}",
        ),
        Figure(
            "tokens_sections",
            "named sections sent in full",
            "bool",
            None,
            target="all",
            met=section_ok,
            value_text=f"{'pass' if section_ok else 'FAIL'} {checked - len(missing)}/{checked}",
            note=f"{turns_naming} turns name a part; "
            + ("; ".join(missing[:5]) if missing else "none missing")
            + f"; {len(extra)} sent unnamed"
            + (f" ({'; '.join(extra[:3])})" if extra else ""),
        ),
    ]
