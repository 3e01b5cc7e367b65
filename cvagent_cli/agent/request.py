"""What one request to the model carries, built by pure functions, ordered for prompt
caches: from the most stable bytes to the least.

1. **System prompt** (with the tool schemas, which litellm sends first): base rules, the
   capability's text and the resume's outline.  These change only when the capability,
   the outline or the job description changes.  Its last part is the summaries of the
   turns that left the history window (they change only when the window moves).
2. **Earlier turns**, each compacted to what the user said and what the assistant
   answered (their tool traffic is dropped whole, never split).  The window moves in
   blocks: turns are appended until they cost more than ``high`` tokens, then it jumps
   forward to the newest turns that fit ``low``.  Between jumps the history only grows at
   its end, so each request starts with the bytes of the previous one.
3. **The current turn**, whole.  Its first (user) message carries this turn's context
   (intent, progress, resume state, the sections the request names, the first next-step
   prompt) in a ``<turn_context>`` block after the user's words: it is the same on every
   step of the turn, and it is dropped when the turn becomes history.  Because it comes
   after the words, the next turn's request still repeats this one up to the end of
   the words (the compacted turn keeps them).
4. **Notes** for this step only (a later next-step prompt, the stuck hint), as a final
   user message after the tool results.

Memory keeps 50 messages; what a request carries is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cvagent_cli.llm.tokens import estimate_tokens

HISTORY_TOKENS = 1100  # the window of earlier turns jumps when it costs more than this …
HISTORY_LOW_SHARE = 4  # … to the newest turns that fit a quarter of it
OLD_ANSWER_CHARS = 700
CONTEXT_OPEN = "<turn_context>"
CONTEXT_CLOSE = "</turn_context>"


@dataclass(frozen=True)
class Window:
    """Which earlier turns a request carries: turns are numbered from the start of the
    session (``done`` have finished; the earlier turns in Memory are the last of them),
    and the window starts at turn number ``first``."""

    first: int = 0
    done: int = 0


def current_turn_index(history: list[dict[str, Any]]) -> int:
    """Index of the last user message (where the current turn starts); 0 if none."""
    for index in range(len(history) - 1, -1, -1):
        if history[index]["role"] == "user":
            return index
    return 0


def compact_turns(messages: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Each earlier turn reduced to the user's words and the assistant's text, oldest first."""
    turns: list[list[dict[str, Any]]] = []
    for message in messages:
        if message["role"] == "user" or not turns:
            turns.append([])
        turns[-1].append(message)
    out = []
    for turn in turns:
        compact = [{"role": "user", "content": m["content"]} for m in turn if m["role"] == "user"]
        said = "\n\n".join(
            m["content"] for m in turn if m["role"] == "assistant" and m.get("content")
        )
        if said:
            if len(said) > OLD_ANSWER_CHARS:
                said = said[:OLD_ANSWER_CHARS] + " …"
            compact.append({"role": "assistant", "content": said})
        out.append(compact)
    return out


def turn_cost(turn: list[dict[str, Any]]) -> int:
    return sum(estimate_tokens(str(m.get("content") or "")) for m in turn)


def choose_window(costs: list[int], window: Window, high: int, low: int) -> int:
    """The number of the first earlier turn to send.  ``costs``: the compacted earlier
    turns in Memory, oldest first (the last ``len(costs)`` of ``window.done`` turns).

    The window keeps its start while what it holds costs at most ``high``; past that it
    jumps to the newest turns that fit ``low``, so the history changes in blocks."""
    base = window.done - len(costs)
    start = min(window.first - base, len(costs))
    # (a window reaching into turns Memory has trimmed would shrink on every turn: jump)
    if start >= 0 and sum(costs[start:]) <= high:
        return base + start
    budget, index = low, len(costs)
    while index > 0 and costs[index - 1] <= budget:
        budget -= costs[index - 1]
        index -= 1
    return base + index


def history_window(history: list[dict[str, Any]], window: Window, high: int) -> int:
    """:func:`choose_window` over the earlier turns of ``history`` (the current turn,
    from the last user message on, is not part of it)."""
    earlier = compact_turns(history[: current_turn_index(history)])
    return choose_window(
        [turn_cost(t) for t in earlier], window, high, max(high // HISTORY_LOW_SHARE, 0)
    )


def with_context(context: str, text: str) -> str:
    """The current user message as sent: their words, then this turn's context block."""
    return f"{text}\n\n{CONTEXT_OPEN}\n{context}\n{CONTEXT_CLOSE}" if context else text


def build_request(
    *,
    system: str,
    history: list[dict[str, Any]],
    window: Window,
    context: str = "",
    notes: list[str] | None = None,
) -> list[dict[str, Any]]:
    """The messages of one request (see the module docstring): ``system``, the earlier
    turns from number ``window.first`` on (compacted), the current turn whole with
    ``context`` in its first message, and ``notes`` last."""
    wire: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    start = current_turn_index(history)
    earlier = compact_turns(history[:start])
    base = window.done - len(earlier)
    for number, turn in enumerate(earlier, start=base):
        if number >= window.first:
            wire += turn
    current = list(history[start:])
    if current and current[0]["role"] == "user":
        current[0] = {**current[0], "content": with_context(context, current[0]["content"])}
    wire += current
    if notes:
        text = "\n\n".join(notes)
        if wire and wire[-1]["role"] == "user":
            wire[-1] = {**wire[-1], "content": f"{wire[-1]['content']}\n\n{text}"}
        else:
            wire.append({"role": "user", "content": text})
    return wire
