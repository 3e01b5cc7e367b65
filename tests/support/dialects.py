"""OpenAI-compatible servers that are not OpenAI: what each adds to the API's rules.

Give one to :class:`tests.support.openai_server.LoopbackServer` (``dialect=``).  Each rule
and each error text is the server's own, from its documentation or source:

* :class:`DeepSeek` — https://api-docs.deepseek.com/guides/thinking_mode: in thinking
  mode (``deepseek-reasoner``, or ``thinking: {"type": "enabled"}``) every answer starts
  with ``reasoning_content``, and an assistant message with ``tool_calls`` sent back
  without its ``reasoning_content`` is answered 400.  The API accepts the key on
  assistant messages (OpenAI's refuses it).
* :class:`VLLMNoAutoTools` — vLLM started without ``--enable-auto-tool-choice``
  answers a request with ``tools`` (tool_choice auto) 400 (vllm/entrypoints/openai).
* :class:`LlamaCppNoJinja` — llama-server started without ``--jinja`` answers a request
  with ``tools`` 500 "tools param requires --jinja flag" (tools/server/utils.hpp).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.support.openai_server import Dialect, Reply

THINKING_REQUIRED = "The `reasoning_content` in the thinking mode must be passed back to the API."
VLLM_AUTO_TOOLS = (
    '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
)
LLAMACPP_JINJA = "tools param requires --jinja flag"

DEFAULT_REASONING = "The user wants the experience section; I should read it first."


@dataclass(frozen=True)
class DeepSeek(Dialect):
    name: str = "deepseek"
    extra_params: frozenset[str] = frozenset({"thinking"})
    extra_message_keys: frozenset[str] = frozenset({"reasoning_content", "prefix"})
    reasoning: str = DEFAULT_REASONING

    @staticmethod
    def thinking(body: dict) -> bool:
        enabled = (body.get("thinking") or {}).get("type") == "enabled"
        return enabled or body.get("model") == "deepseek-reasoner"

    def check(self, body: dict) -> Reply | None:
        if not self.thinking(body):
            return None
        for message in body["messages"]:
            if message.get("role") != "assistant" or not message.get("tool_calls"):
                continue
            if not message.get("reasoning_content"):
                return Reply(status=400, error_message=THINKING_REQUIRED)
        return None

    def shape(self, reply: Reply, body: dict) -> Reply:
        if self.thinking(body) and reply.reasoning is None and reply.status is None:
            return reply.replace(reasoning=self.reasoning)
        return reply


@dataclass(frozen=True)
class VLLMNoAutoTools(Dialect):
    name: str = "vllm"

    def check(self, body: dict) -> Reply | None:
        if body.get("tools") and body.get("tool_choice", "auto") == "auto":
            return Reply(status=400, error_message=VLLM_AUTO_TOOLS, error_type="BadRequestError")
        return None


@dataclass(frozen=True)
class LlamaCppNoJinja(Dialect):
    name: str = "llama.cpp"
    refused: list[dict] = field(default_factory=list)  # requests answered 500

    def check(self, body: dict) -> Reply | None:
        if body.get("tools"):
            self.refused.append(body)
            return Reply(status=500, error_message=LLAMACPP_JINJA, error_type="server_error")
        return None
