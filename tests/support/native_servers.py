"""Loopback servers that speak three providers' own wire protocols, strictly.

litellm translates cvagent's OpenAI-shaped requests into each provider's protocol; these
servers check the translated request the way the real service does (rules and error
texts from each provider's public API reference) and stream scripted replies in the
provider's own format, with its own faults.  They reuse the queue, request log and
prompt shutdown of :class:`tests.support.openai_server.LoopbackServer` and its
:class:`~tests.support.openai_server.Reply` scripts; ``srv.requests`` holds the native
bodies.

* :class:`AnthropicServer` — ``POST /v1/messages``
  (https://docs.anthropic.com/en/api/messages, /en/api/messages-streaming,
  /en/api/errors): SSE events, ``input_json_delta`` tool calls, 429 with
  ``retry-after``, 529 ``overloaded_error``, ``event: error`` inside a stream.
* :class:`OllamaServer` — ``POST /api/chat`` (ollama docs/api.md): NDJSON lines, whole
  tool calls with object arguments, ``{"error": …}`` lines inside a stream, models
  without tool support (``no_tools``).
* :class:`GeminiServer` — ``models/{model}:streamGenerateContent?alt=sse``
  (https://ai.google.dev/api/generate-content): ``functionCall`` parts, 429
  ``RESOURCE_EXHAUSTED`` with a ``RetryInfo.retryDelay`` in the body.

``Reply.no_finish`` ends a stream cleanly without its finish reason / stop event;
``Reply.stream_error`` sends the provider's in-stream error after the text.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from tests.support.openai_server import CLASSIFIER_PREFIX, LoopbackServer, Reply, _Handler

# ------------------------------------------------------------------------ shared


class NativeInvalid(Exception):
    """A request the real service answers with ``status`` and this message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class _NativeHandler(_Handler):
    """Body parsing, recording and faults common to the three protocols."""

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw.decode("utf-8") or "null")
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None

    def _faulted(self, reply: Reply) -> bool:
        """Delay, drop, or an HTTP error status: True when the reply was handled here."""
        owner = self.server.owner
        if reply.delay and owner._stopping.wait(reply.delay):
            self._abort()
            return True
        if reply.drop_connection:
            self._abort()
            return True
        if reply.status is not None:
            self._send_json(reply.status, owner.error_payload(reply), owner.error_headers(reply))
            return True
        return False

    def _open_stream(self, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

    def _send_pieces(self, reply: Reply, pieces: list[bytes]) -> None:
        owner = self.server.owner
        try:
            for sent, piece in enumerate(pieces):
                if reply.cut_after_chunks is not None and sent >= reply.cut_after_chunks:
                    self._abort()
                    return
                if sent and reply.chunk_delay and owner._stopping.wait(reply.chunk_delay):
                    self._abort()
                    return
                self._write_chunk(piece)
            self._write_chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _serve(self, body: Any) -> Reply | None:
        """Validate and record ``body``; the reply to stream, or None when answered."""
        owner = self.server.owner
        try:
            owner.validate(body, self)
        except NativeInvalid as exc:
            owner._record(body, {k.lower(): v for k, v in self.headers.items()})
            self._send_json(exc.status, owner.invalid_payload(exc.message))
            return None
        owner._record(body, {k.lower(): v for k, v in self.headers.items()})
        reply = owner._next_reply(body)
        return None if self._faulted(reply) else reply


def _args(arguments: dict | str) -> dict:
    return arguments if isinstance(arguments, dict) else {"raw": arguments}


class NativeServer(LoopbackServer):
    """A LoopbackServer whose subclasses check and answer a native protocol."""

    def validate(self, body: Any, handler: _NativeHandler) -> None:
        raise NotImplementedError

    def invalid_payload(self, message: str) -> dict:
        raise NotImplementedError

    def error_payload(self, reply: Reply) -> dict:
        raise NotImplementedError

    def system_text(self, body: Any) -> str:
        raise NotImplementedError

    def error_headers(self, reply: Reply) -> dict[str, str]:
        return {} if reply.retry_after is None else {"retry-after": f"{reply.retry_after:g}"}

    def _is_classifier(self, body: Any) -> bool:
        return (
            self.intent_label is not None
            and isinstance(body, dict)
            and self.system_text(body).startswith(CLASSIFIER_PREFIX)
        )

    def _next_reply(self, body: Any) -> Reply:
        if self._is_classifier(body):
            return Reply(text=self.intent_label or "")
        with self._lock:
            return self._queue.popleft() if self._queue else Reply(text=self.default_text)


# --------------------------------------------------------------------- Anthropic

ANTHROPIC_PARAMS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "system",
        "tools",
        "tool_choice",
        "stream",
        "temperature",
        "top_p",
        "top_k",
        "stop_sequences",
        "metadata",
        "thinking",
        "service_tier",
    }
)
ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
ANTHROPIC_MESSAGES = {
    429: "Number of request tokens has exceeded your per-minute rate limit",
    500: "Internal server error",
    529: "Overloaded",
}


def _blocks(content: Any, where: str) -> list[dict]:
    if isinstance(content, str):
        if not content:
            raise NativeInvalid(f"{where}: text content blocks must be non-empty")
        return [{"type": "text", "text": content}]
    if not isinstance(content, list) or not content:
        raise NativeInvalid(f"{where}: content must be a non-empty string or list of blocks")
    for i, block in enumerate(content):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind not in ("text", "image", "tool_use", "tool_result", "thinking", "document"):
            raise NativeInvalid(f"{where}.content.{i}: unknown content block type {kind!r}")
        if kind == "text" and not block.get("text"):
            raise NativeInvalid(f"{where}.content.{i}: text content blocks must be non-empty")
        if kind == "tool_use" and not isinstance(block.get("input"), dict):
            raise NativeInvalid(f"{where}.content.{i}.input: Input should be a valid dictionary")
    return content


class _AnthropicHandler(_NativeHandler):
    def do_POST(self) -> None:
        if not self.path.split("?", 1)[0].rstrip("/").endswith("/v1/messages"):
            self._send_json(404, {"type": "error", "error": {"type": "not_found_error",
                                                             "message": "Not found"}})  # fmt: skip
            return
        body = self._body()
        reply = self._serve(body)
        if reply is None:
            return
        self._open_stream("text/event-stream; charset=utf-8")
        self._send_pieces(reply, [sse(n, d) for n, d in anthropic_events(reply, body)])


def sse(event: str | None, data: dict) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def anthropic_events(reply: Reply, body: dict) -> list[tuple[str, dict]]:
    prompt = reply.usage[0] if reply.usage else max(1, len(json.dumps(body)) // 4)
    usage = {"input_tokens": prompt, "output_tokens": 1, "cache_read_input_tokens": reply.cached,
             "cache_creation_input_tokens": 0}  # fmt: skip
    message = {"id": f"msg_{uuid.uuid4().hex[:20]}", "type": "message", "role": "assistant",
               "model": body.get("model"), "content": [], "stop_reason": None,
               "stop_sequence": None, "usage": usage}  # fmt: skip
    events: list[tuple[str, dict]] = [
        ("message_start", {"type": "message_start", "message": message})
    ]
    index = 0
    if reply.text:
        events.append(("content_block_start", {"type": "content_block_start", "index": 0,
                                               "content_block": {"type": "text", "text": ""}}))  # fmt: skip
        for i in range(0, len(reply.text), 5):
            delta = {"type": "text_delta", "text": reply.text[i : i + 5]}
            events.append(("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}))  # fmt: skip
        events.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
        index = 1
    if reply.stream_error is not None:
        error = {
            "type": "error",
            "error": {"type": "overloaded_error", "message": reply.stream_error},
        }
        return [*events, ("error", error)]
    for name, arguments in reply.tool_calls or []:
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
        block = {
            "type": "tool_use",
            "id": f"toolu_{uuid.uuid4().hex[:20]}",
            "name": name,
            "input": {},
        }
        events.append(("content_block_start", {"type": "content_block_start", "index": index, "content_block": block}))  # fmt: skip
        for i in range(0, len(raw), 6):
            delta = {"type": "input_json_delta", "partial_json": raw[i : i + 6]}
            events.append(("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}))  # fmt: skip
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        index += 1
    if reply.no_finish:
        return events
    stop = "tool_use" if reply.tool_calls else (reply.finish_reason or "end_turn")
    produced = len(reply.text or "") + len(json.dumps(reply.tool_calls or []))
    out = reply.usage[1] if reply.usage else max(1, produced // 4)
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop,
                   "stop_sequence": None}, "usage": {"output_tokens": out}}))  # fmt: skip
    events.append(("message_stop", {"type": "message_stop"}))
    return events


class AnthropicServer(NativeServer):
    """Anthropic's Messages API; ``api_base`` is :attr:`url` (litellm adds /v1/messages)."""

    handler = _AnthropicHandler

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def system_text(self, body: Any) -> str:
        system = body.get("system")
        if isinstance(system, list):
            return "".join(b.get("text", "") for b in system if isinstance(b, dict))
        return str(system or "")

    def invalid_payload(self, message: str) -> dict:
        return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}

    def error_payload(self, reply: Reply) -> dict:
        code = reply.status or 500
        message = reply.error_message or ANTHROPIC_MESSAGES.get(code, "Error")
        kind = reply.error_type or ANTHROPIC_ERROR_TYPES.get(code, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}

    def validate(self, body: Any, handler: _NativeHandler) -> None:
        if not handler.headers.get("x-api-key"):
            raise NativeInvalid("x-api-key header is required", 401)
        if not handler.headers.get("anthropic-version"):
            raise NativeInvalid("anthropic-version: header is required")
        if not isinstance(body, dict):
            raise NativeInvalid("There was an error parsing the body")
        for key in sorted(set(body) - ANTHROPIC_PARAMS):
            raise NativeInvalid(f"{key}: Extra inputs are not permitted")
        if not isinstance(body.get("max_tokens"), int):
            raise NativeInvalid("max_tokens: Field required")
        temperature = body.get("temperature")
        if temperature is not None and not 0 <= temperature <= 1:
            raise NativeInvalid("temperature: Input should be less than or equal to 1")
        for i, tool in enumerate(body.get("tools") or []):
            schema = tool.get("input_schema") if isinstance(tool, dict) else None
            if not isinstance(schema, dict) or schema.get("type") != "object":
                raise NativeInvalid(f"tools.{i}.custom.input_schema: Field required")
        self._validate_messages(body.get("messages"))

    @staticmethod
    def _validate_messages(messages: Any) -> None:
        if not isinstance(messages, list) or not messages:
            raise NativeInvalid("messages: Field required")
        open_uses: list[str] = []
        for i, message in enumerate(messages):
            role = message.get("role") if isinstance(message, dict) else None
            if role not in ("user", "assistant"):
                raise NativeInvalid(f"messages.{i}.role: Input should be 'user' or 'assistant'")
            if i == 0 and role != "user":
                raise NativeInvalid('messages: first message must use the "user" role')
            blocks = _blocks(message.get("content"), f"messages.{i}")
            results = [b["tool_use_id"] for b in blocks if b.get("type") == "tool_result"]
            stray = [r for r in results if r not in open_uses]
            if stray:
                raise NativeInvalid(
                    f"messages.{i}.content.0: unexpected `tool_use_id` found in `tool_result` "
                    f"blocks: {stray[0]}. Each `tool_result` block must have a corresponding "
                    "`tool_use` block in the previous message."
                )
            missing = [u for u in open_uses if u not in results]
            if missing:
                raise NativeInvalid(
                    f"messages.{i}: `tool_use` ids were found without `tool_result` blocks "
                    f"immediately after: {missing[0]}. Each `tool_use` block must have a "
                    "corresponding `tool_result` block in the next message."
                )
            open_uses = [b["id"] for b in blocks if b.get("type") == "tool_use"]
        if open_uses:
            raise NativeInvalid(
                f"messages.{len(messages) - 1}: `tool_use` ids were found without `tool_result` "
                f"blocks immediately after: {open_uses[0]}."
            )


# ------------------------------------------------------------------------ Ollama

OLLAMA_ROLES = ("system", "user", "assistant", "tool")


class _OllamaHandler(_NativeHandler):
    def do_POST(self) -> None:
        if self.path.split("?", 1)[0].rstrip("/") != "/api/chat":
            self._send_json(404, {"error": "404 page not found"})
            return
        reply = self._serve(self._body())
        if reply is None:
            return
        self._open_stream("application/x-ndjson")
        lines = [json.dumps(obj).encode() + b"\n" for obj in ollama_lines(reply)]
        self._send_pieces(reply, lines)


def ollama_lines(reply: Reply) -> list[dict]:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())
    head = {"model": "loopback", "created_at": stamp}
    lines = [
        {**head, "message": {"role": "assistant", "content": reply.text[i : i + 4]}, "done": False}
        for i in range(0, len(reply.text or ""), 4)
    ]
    if reply.stream_error is not None:
        return [*lines, {"error": reply.stream_error}]
    if reply.tool_calls:
        calls = [{"function": {"name": n, "arguments": _args(a)}} for n, a in reply.tool_calls]
        message = {"role": "assistant", "content": "", "tool_calls": calls}
        lines.append({**head, "message": message, "done": False})
    if reply.no_finish:
        return lines
    prompt, completion = reply.usage or (50, max(1, len(reply.text or "") // 4))
    lines.append({**head, "message": {"role": "assistant", "content": ""}, "done": True,
                  "done_reason": reply.finish_reason or "stop", "total_duration": 1000,
                  "prompt_eval_count": prompt, "eval_count": completion})  # fmt: skip
    return lines


class OllamaServer(NativeServer):
    """Ollama's native ``/api/chat``; models named in ``no_tools`` refuse tools, as a model
    whose template has no tool support does."""

    handler = _OllamaHandler

    def __init__(self, *args: Any, no_tools: tuple[str, ...] = (), **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.no_tools = no_tools

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def system_text(self, body: Any) -> str:
        messages = body.get("messages") or [{}]
        first = messages[0] if isinstance(messages[0], dict) else {}
        return str(first.get("content") or "") if first.get("role") == "system" else ""

    def invalid_payload(self, message: str) -> dict:
        return {"error": message}

    def error_payload(self, reply: Reply) -> dict:
        return {"error": reply.error_message or "an error was encountered while running the model"}

    def validate(self, body: Any, handler: _NativeHandler) -> None:
        if not isinstance(body, dict):
            raise NativeInvalid("invalid character looking for beginning of value")
        model = body.get("model")
        if not model:
            raise NativeInvalid("model is required")
        if body.get("tools") and model in self.no_tools:
            raise NativeInvalid(f"registry.ollama.ai/library/{model} does not support tools")
        for i, message in enumerate(body.get("messages") or []):
            if message.get("role") not in OLLAMA_ROLES:
                raise NativeInvalid(f"invalid role: {message.get('role')}")
            if not isinstance(message.get("content", ""), str):
                raise NativeInvalid(
                    "json: cannot unmarshal array into Go struct field Message.messages.content "
                    "of type string"
                )
            for call in message.get("tool_calls") or []:
                if not isinstance((call.get("function") or {}).get("arguments"), dict):
                    raise NativeInvalid(
                        "json: cannot unmarshal string into Go struct field "
                        "ToolCallFunction.messages.tool_calls.function.arguments of type "
                        "api.ToolCallFunctionArguments"
                    )
            if i == 0 and message.get("role") == "tool":
                raise NativeInvalid("a tool message needs the assistant message before it")


# ------------------------------------------------------------------------ Gemini


class _GeminiHandler(_NativeHandler):
    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        if ":streamGenerateContent" not in path or "/v1beta/models/" not in path:
            self._send_json(404, {"error": {"code": 404, "message": f"Not found: {path}",
                                            "status": "NOT_FOUND"}})  # fmt: skip
            return
        reply = self._serve(self._body())
        if reply is None:
            return
        self._open_stream("text/event-stream")
        self._send_pieces(reply, [sse(None, chunk) for chunk in gemini_chunks(reply)])


def gemini_chunks(reply: Reply) -> list[dict]:
    prompt, completion = reply.usage or (50, max(1, len(reply.text or "") // 4))
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": completion,
             "totalTokenCount": prompt + completion}  # fmt: skip
    parts: list[list[dict]] = [
        [{"text": reply.text[i : i + 6]}] for i in range(0, len(reply.text or ""), 6)
    ]
    calls = [{"functionCall": {"name": n, "args": _args(a)}, "thoughtSignature": "c2lnbmVk"}
             for n, a in reply.tool_calls or []]  # fmt: skip
    if calls:
        parts.append(calls)
    chunks = [
        {"candidates": [{"content": {"role": "model", "parts": p}, "index": 0}],
         "usageMetadata": usage, "modelVersion": "loopback"}
        for p in parts or [[{"text": ""}]]
    ]  # fmt: skip
    if reply.stream_error is not None:
        return [
            *chunks,
            {"error": {"code": 500, "message": reply.stream_error, "status": "INTERNAL"}},
        ]
    if not reply.no_finish:
        chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    return chunks


class GeminiServer(NativeServer):
    """Gemini's ``streamGenerateContent``; ``api_base`` is :attr:`url` (ends in /v1beta)."""

    handler = _GeminiHandler

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1beta"

    def system_text(self, body: Any) -> str:
        system = body.get("system_instruction") or body.get("systemInstruction") or {}
        return "".join(p.get("text", "") for p in system.get("parts") or [])

    def invalid_payload(self, message: str) -> dict:
        return {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}

    def error_payload(self, reply: Reply) -> dict:
        code = reply.status or 500
        status = {429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}.get(code, "INTERNAL")
        error: dict[str, Any] = {
            "code": code,
            "message": reply.error_message or "Error",
            "status": status,
        }
        if reply.retry_after is not None and code == 429:
            info = {"@type": "type.googleapis.com/google.rpc.RetryInfo",
                    "retryDelay": f"{reply.retry_after:g}s"}  # fmt: skip
            error["details"] = [info]
        return {"error": error}

    def error_headers(self, reply: Reply) -> dict[str, str]:
        return {}  # Gemini says how long to wait in the body (RetryInfo), not in a header

    def validate(self, body: Any, handler: _NativeHandler) -> None:
        if "key=" not in handler.path and not handler.headers.get("x-goog-api-key"):
            raise NativeInvalid("Method doesn't allow unregistered callers", 403)
        if not isinstance(body, dict) or not body.get("contents"):
            raise NativeInvalid("* GenerateContentRequest.contents: contents is not specified")
        calls = 0
        for i, content in enumerate(body["contents"]):
            if content.get("role") not in ("user", "model"):
                raise NativeInvalid(f"Please use a valid role: user, model. (contents[{i}])")
            parts = content.get("parts") or []
            if not parts:
                raise NativeInvalid(f"* GenerateContentRequest.contents[{i}].parts: contents.parts must not be empty.")  # fmt: skip
            answers = sum(1 for p in parts if "functionResponse" in p)
            if answers != calls:
                raise NativeInvalid(
                    "Please ensure that the number of function response parts is equal to the "
                    "number of function call parts of the function call turn."
                )
            calls = sum(1 for p in parts if "functionCall" in p)
