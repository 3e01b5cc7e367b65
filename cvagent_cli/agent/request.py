"""What one request to the model carries, built by a pure function.

Memory keeps 50 messages, but a request carries only as many earlier turns as fit a token
budget (token-aware history), each compacted to what the user said and what the
assistant answered; their tool traffic is dropped whole, never split, and older turns live
on in the turn summaries of the system prompt.  The current turn always goes whole.
"""

from __future__ import annotations

from typing import Any

from cvagent_cli.llm.tokens import estimate_tokens

HISTORY_TOKENS = 600  # earlier turns sent per request
OLD_ANSWER_CHARS = 700


def current_turn_index(history: list[dict[str, Any]]) -> int:
    """Index of the last user message (where the current turn starts); 0 if none."""
    for index in range(len(history) - 1, -1, -1):
        if history[index]["role"] == "user":
            return index
    return 0


def compact_history(
    messages: list[dict[str, Any]], budget: int
) -> tuple[list[dict[str, Any]], int]:
    """Earlier turns, newest first while they fit ``budget`` tokens, each reduced to the
    user's words and the assistant's text; returns them and how many turns they are."""
    turns: list[list[dict[str, Any]]] = []
    for message in messages:
        if message["role"] == "user" or not turns:
            turns.append([])
        turns[-1].append(message)
    kept: list[dict[str, Any]] = []
    count = 0
    for turn in reversed(turns):
        compact = [m for m in turn if m["role"] == "user"]
        said = "\n\n".join(
            m["content"] for m in turn if m["role"] == "assistant" and m.get("content")
        )
        if said:
            if len(said) > OLD_ANSWER_CHARS:
                said = said[:OLD_ANSWER_CHARS] + " …"
            compact.append({"role": "assistant", "content": said})
        cost = sum(estimate_tokens(str(m.get("content") or "")) for m in compact)
        if cost > budget:
            break
        budget -= cost
        kept[:0] = compact
        count += 1
    return kept, count


def build_request(
    *, system: str, history: list[dict[str, Any]], history_tokens: int, notes: list[str]
) -> list[dict[str, Any]]:
    """The messages of one request: the system prompt, the earlier turns that fit
    ``history_tokens`` (compacted), the current turn whole, and ``notes`` (next-step
    prompt, strategy hints) where the model reads them last."""
    wire: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    start = current_turn_index(history)
    wire += compact_history(history[:start], history_tokens)[0]
    wire += history[start:]
    if notes:
        text = "\n\n".join(notes)
        if history and history[-1]["role"] != "user":
            wire.append({"role": "user", "content": text})
        elif wire and wire[0]["role"] == "system":
            wire[0] = {"role": "system", "content": f"{wire[0]['content']}\n\n## Next step\n{text}"}
    return wire
