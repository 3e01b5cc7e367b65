"""Which providers get the model's own reasoning back in later requests.

A thinking model streams its reasoning as ``reasoning_content``; the agent keeps it with
the assistant message it belongs to (``Message.reasoning_content``).  Providers disagree
about getting it back:

* DeepSeek's thinking mode (``deepseek-reasoner``, ``deepseek-chat`` with thinking on)
  answers 400 "The reasoning_content in the thinking mode must be passed back to the
  API" when an assistant tool-call message comes back without it
  (https://api-docs.deepseek.com/guides/thinking_mode).  Moonshot's Kimi thinking models
  have the same rule.
* OpenAI refuses a message key it does not know, and the other providers litellm
  translates (Anthropic, Gemini, Ollama) have their own signed thinking blocks, which a
  plain text cannot stand for.

So the key is sent to the providers in :data:`REASONING_BACK` (or a model of theirs
behind an OpenAI-compatible ``--api-base``, recognised by name) and removed for all
others.  Pure functions: no litellm here.
"""

from __future__ import annotations

from typing import Any

REASONING_KEY = "reasoning_content"

#: litellm providers whose thinking mode wants the reasoning sent back
REASONING_BACK = frozenset({"deepseek", "moonshot"})
#: model-name parts of the same models served under another provider name
#: (``openai/deepseek-reasoner`` with ``--api-base https://api.deepseek.com``)
_MODEL_FAMILIES = ("deepseek", "kimi")


def wants_reasoning_back(provider: str | None, model: str) -> bool:
    if provider in REASONING_BACK:
        return True
    name = model.lower()
    return provider in ("openai", "hosted_vllm", None) and any(f in name for f in _MODEL_FAMILIES)


def for_provider(
    messages: list[dict[str, Any]], provider: str | None, model: str
) -> list[dict[str, Any]]:
    """``messages`` with ``reasoning_content`` kept where the provider wants it and
    removed everywhere else (the list and its dicts are copied only when changed)."""
    if wants_reasoning_back(provider, model):
        return messages
    if not any(REASONING_KEY in m for m in messages):
        return messages
    return [{k: v for k, v in m.items() if k != REASONING_KEY} for m in messages]
