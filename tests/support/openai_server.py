"""A scripted, strict, loopback OpenAI-compatible chat server for tests and benchmarks.

Why it exists: litellm's ``mock_response`` cannot stream tool calls, and the bugs that
matter (tool-call fragments split across chunks, a tool message that answers nothing, a
stream cut in half, a 429 with ``Retry-After``) only show up over real HTTP.  This server
speaks enough of ``POST /v1/chat/completions`` for litellm's ``openai/`` provider (and
any OpenAI SDK) to talk to it, and it *validates every request the way the real API
does*, so a test that passes here does not send something OpenAI would reject.

It is stdlib only and never touches the network beyond 127.0.0.1.

In-process use::

    from tests.support.openai_server import LoopbackServer, Reply, status

    with LoopbackServer() as srv:
        srv.enqueue(Reply(tool_calls=[("read_resume", {"section": "Skills"})]))
        srv.enqueue(status(429, retry_after=1))
        srv.enqueue(Reply(text="Done."))
        ...  # point the client at srv.url (http://127.0.0.1:PORT/v1)
        assert srv.requests[0]["tools"][0]["function"]["name"] == "read_resume"

When the queue is empty the server answers ``Reply(text=default_text)`` ("OK").  A
request that fails validation gets HTTP 400 and does NOT consume a queued reply.

Out of process (pexpect tests, benchmarks)::

    python -m tests.support.openai_server --port 0 --script replies.json \
        [--requests-log requests.jsonl] [--echo]

It prints ``listening on http://127.0.0.1:PORT/v1`` on the first stdout line.  The script
is a JSON list of reply objects using the field names of :class:`Reply`, e.g.
``[{"text": "hi"}, {"tool_calls": [{"name": "f", "arguments": {"a": 1}}]},
{"status": 429, "retry_after": 1}, {"cut_after_chunks": 3, "text": "partial answer"}]``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import re
import socket
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ORPHAN_TOOL_MESSAGE = (
    "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
)
CONTEXT_WINDOW_MESSAGE = (
    "This model's maximum context length is 8192 tokens. However, your messages resulted "
    "in 9000 tokens. Please reduce the length of the messages."
)
VALID_ROLES = ("system", "developer", "user", "assistant", "tool")
#: the keys OpenAI's API reference lists for a message (any role); the API refuses others
MESSAGE_KEYS = frozenset(
    {"role", "content", "name", "tool_calls", "tool_call_id", "refusal", "audio", "function_call"}
)
TOOL_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")

TEXT_DELTA_CHARS = 4
ARGS_FRAGMENT_CHARS = 7


# --------------------------------------------------------------------------- replies


@dataclass
class Reply:
    """One scripted answer.  Combine fields freely (e.g. text + tool calls + delay).

    ``tool_calls`` is a list of ``(name, arguments)``; ``arguments`` is a dict (sent as
    JSON) or a raw string (sent verbatim, which is how malformed arguments are scripted).
    Fault fields: ``status`` answers with that HTTP error instead; ``delay`` waits before
    answering (timeouts); ``chunk_delay`` waits between stream chunks (slow streams,
    Ctrl-C); ``cut_after_chunks`` closes the connection after that many SSE chunks;
    ``drop_connection`` closes the socket without answering at all.
    """

    text: str | None = None
    tool_calls: list[tuple[str, dict | str]] | None = None
    reasoning: str | None = None
    status: int | None = None
    error_message: str | None = None
    error_type: str | None = None
    error_code: str | None = None
    retry_after: float | None = None
    delay: float = 0.0
    chunk_delay: float = 0.0
    cut_after_chunks: int | None = None
    drop_connection: bool = False
    finish_reason: str | None = None
    usage: tuple[int, int] | None = None  # (prompt, completion) override
    cached: int = 0  # prompt tokens reported as read from the prompt cache
    stream_error: str | None = None  # an error sent inside the stream, after the 200
    no_finish: bool = False  # the stream ends cleanly but without a finish reason

    def replace(self, **changes: Any) -> Reply:
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(cls, data: dict) -> Reply:
        """Build a reply from a script entry (see the module docstring)."""
        data = dict(data)
        if data.pop("malformed_tool_args", False):
            return malformed_tool_args().replace(**data)
        if data.pop("context_window", False):
            return context_window().replace(**data)
        calls = data.pop("tool_calls", None)
        if calls is not None:
            data["tool_calls"] = [
                (c["name"], c.get("arguments", {})) if isinstance(c, dict) else tuple(c)
                for c in calls
            ]
        if isinstance(data.get("usage"), list):
            data["usage"] = tuple(data["usage"])
        return cls(**data)


def text(content: str, **kw: Any) -> Reply:
    return Reply(text=content, **kw)


def tool_calls(*calls: tuple[str, dict | str], content: str | None = None, **kw: Any) -> Reply:
    return Reply(text=content, tool_calls=list(calls), **kw)


_STATUS_DEFAULTS: dict[int, tuple[str, str, str | None]] = {
    400: ("Bad request.", "invalid_request_error", None),
    401: (
        "Incorrect API key provided: {key}. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        "invalid_api_key",
    ),
    403: ("You are not allowed to sample from this model", "invalid_request_error", None),
    404: (
        "The model `{model}` does not exist or you do not have access to it.",
        "invalid_request_error",
        "model_not_found",
    ),
    429: (
        "Rate limit reached for requests. Please try again later.",
        "requests",
        "rate_limit_exceeded",
    ),
    500: (
        "The server had an error while processing your request. Sorry about that!",
        "server_error",
        None,
    ),
    502: ("Bad gateway.", "server_error", None),
    503: ("The engine is currently overloaded, please try again later.", "server_error", None),
}


def status(code: int, retry_after: float | None = None, message: str | None = None) -> Reply:
    """An HTTP error answer (401, 429, 500, 503 …) with an OpenAI-style error body."""
    return Reply(status=code, retry_after=retry_after, error_message=message)


def delay(seconds: float, then: Reply | None = None) -> Reply:
    """Wait ``seconds`` before answering ``then`` (default: the default text)."""
    return (then or Reply()).replace(delay=seconds)


def cut_stream(after_chunks: int = 0, text: str = "This answer will be cut off halfway") -> Reply:
    """Stream ``after_chunks`` SSE chunks, then close the connection mid-body."""
    return Reply(text=text, cut_after_chunks=after_chunks)


def malformed_tool_args(name: str = "read_resume") -> Reply:
    """A tool call whose ``arguments`` are not valid JSON (models do this)."""
    return Reply(tool_calls=[(name, '{"section": "Skills", ')])


def context_window() -> Reply:
    """The 400 OpenAI sends when the prompt is too long."""
    return Reply(
        status=400, error_message=CONTEXT_WINDOW_MESSAGE, error_code="context_length_exceeded"
    )


def drop_connection() -> Reply:
    """Close the socket without sending any response."""
    return Reply(drop_connection=True)


# ----------------------------------------------------------------------- validation


#: every top-level parameter of ``POST /v1/chat/completions`` in OpenAI's API reference;
#: anything else is answered with 400 "Unrecognized request argument supplied", as the
#: real API does (so a client option that leaks into the request body, such as a
#: litellm-private kwarg, fails here instead of in front of a user)
KNOWN_PARAMETERS = frozenset(
    {
        "audio",
        "frequency_penalty",
        "function_call",
        "functions",
        "logit_bias",
        "logprobs",
        "max_completion_tokens",
        "max_tokens",
        "messages",
        "metadata",
        "modalities",
        "model",
        "n",
        "parallel_tool_calls",
        "prediction",
        "presence_penalty",
        "prompt_cache_key",
        "prompt_cache_retention",
        "reasoning_effort",
        "response_format",
        "safety_identifier",
        "seed",
        "service_tier",
        "stop",
        "store",
        "stream",
        "stream_options",
        "temperature",
        "tool_choice",
        "tools",
        "top_logprobs",
        "top_p",
        "user",
        "verbosity",
        "web_search_options",
    }
)


@dataclass(frozen=True)
class Dialect:
    """What an OpenAI-compatible server adds to the OpenAI API's rules (the API itself:
    nothing).  ``check`` may answer a valid request with an error reply of the server's
    own (``tests/support/dialects.py`` holds DeepSeek, vLLM and llama.cpp); ``shape``
    adjusts a scripted reply the way the server would send it."""

    name: str = "openai"
    extra_params: frozenset[str] = frozenset()
    extra_message_keys: frozenset[str] = frozenset()

    def check(self, body: dict) -> Reply | None:
        return None

    def shape(self, reply: Reply, body: dict) -> Reply:
        return reply


class RequestInvalid(Exception):
    def __init__(self, message: str, param: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.param = param
        self.code = code


def _check_content(msg: dict, where: str, *, allow_null: bool) -> None:
    content = msg.get("content")
    if content is None:
        if allow_null:
            return
        raise RequestInvalid(
            f"Invalid value for '{where}.content': expected a string, got null.",
            param=f"{where}.content",
        )
    if isinstance(content, str):
        return
    if isinstance(content, list):
        for j, part in enumerate(content):
            if not isinstance(part, dict) or "type" not in part:
                raise RequestInvalid(
                    f"Invalid type for '{where}.content[{j}]': expected an object with 'type'.",
                    param=f"{where}.content[{j}]",
                )
        return
    raise RequestInvalid(
        f"Invalid type for '{where}.content': expected one of a string or array of "
        f"objects, but got {type(content).__name__} instead.",
        param=f"{where}.content",
    )


def validate_tools(tools: Any) -> None:
    """The shape OpenAI requires of ``tools``."""
    if not isinstance(tools, list):
        raise RequestInvalid("Invalid type for 'tools': expected an array.", param="tools")
    if not tools:
        raise RequestInvalid(
            "Invalid 'tools': empty array. Expected an array with minimum length 1, but got "
            "an empty array instead.",
            param="tools",
            code="empty_array",
        )
    seen: set[str] = set()
    for i, tool in enumerate(tools):
        where = f"tools[{i}]"
        if not isinstance(tool, dict):
            raise RequestInvalid(f"Invalid type for '{where}': expected an object.", param=where)
        if tool.get("type") != "function":
            raise RequestInvalid(
                f"Invalid value for '{where}.type': expected 'function', got {tool.get('type')!r}.",
                param=f"{where}.type",
            )
        fn = tool.get("function")
        if not isinstance(fn, dict):
            raise RequestInvalid(
                f"Missing required parameter: '{where}.function'.", param=f"{where}.function"
            )
        name = fn.get("name")
        if not isinstance(name, str) or not TOOL_NAME_RE.match(name):
            raise RequestInvalid(
                f"Invalid '{where}.function.name': string does not match pattern. Expected "
                "a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                param=f"{where}.function.name",
            )
        if name in seen:
            raise RequestInvalid(f"Duplicate tool name '{name}' in 'tools'.", param=where)
        seen.add(name)
        if "description" in fn and not isinstance(fn["description"], str):
            raise RequestInvalid(
                f"Invalid type for '{where}.function.description'.",
                param=f"{where}.function.description",
            )
        params = fn.get("parameters")
        if params is not None:
            if not isinstance(params, dict) or params.get("type") != "object":
                raise RequestInvalid(
                    f"Invalid schema for function '{name}': schema must be a JSON Schema of "
                    "'type: \"object\"'.",
                    param=f"{where}.function.parameters",
                )
            props = params.get("properties", {})
            if not isinstance(props, dict):
                raise RequestInvalid(
                    f"Invalid schema for function '{name}': 'properties' must be an object.",
                    param=f"{where}.function.parameters",
                )


def validate_messages(messages: Any, extra_keys: frozenset[str] = frozenset()) -> None:
    """Role and tool-call pairing rules as enforced by the OpenAI chat API.  A message key
    outside :data:`MESSAGE_KEYS` (and a dialect's ``extra_keys``) is refused."""
    if not isinstance(messages, list):
        raise RequestInvalid("Invalid type for 'messages': expected an array.", param="messages")
    if not messages:
        raise RequestInvalid(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but "
            "got an empty array instead.",
            param="messages",
            code="empty_array",
        )
    pending: list[str] = []  # tool_call ids of the last assistant message, unanswered
    in_tool_block = False
    for i, msg in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(msg, dict):
            raise RequestInvalid(f"Invalid type for '{where}': expected an object.", param=where)
        role = msg.get("role")
        unknown = sorted(set(msg) - MESSAGE_KEYS - extra_keys)
        if unknown:
            raise RequestInvalid(
                f"Additional properties are not allowed ('{unknown[0]}' was unexpected) - "
                f"'messages.{i}'",
                param=f"messages.[{i}]",
            )
        if role not in VALID_ROLES:
            raise RequestInvalid(
                f"Invalid value: '{role}'. Supported values are: 'system', 'assistant', "
                "'user', 'function', 'tool', and 'developer'.",
                param=f"{where}.role",
            )
        if role == "tool":
            if not in_tool_block:
                raise RequestInvalid(ORPHAN_TOOL_MESSAGE, param=f"messages.[{i}].role")
            call_id = msg.get("tool_call_id")
            if not isinstance(call_id, str) or not call_id:
                raise RequestInvalid(
                    f"Missing required parameter: '{where}.tool_call_id'.",
                    param=f"{where}.tool_call_id",
                )
            if call_id not in pending:
                raise RequestInvalid(
                    f"Invalid parameter: '{where}.tool_call_id' {call_id!r} does not answer any "
                    "tool call of the preceding assistant message.",
                    param=f"{where}.tool_call_id",
                )
            pending.remove(call_id)
            _check_content(msg, where, allow_null=False)
            continue
        # any non-tool message closes the tool block: every call must have been answered
        if pending:
            raise RequestInvalid(
                "An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                f"response messages: {', '.join(pending)}",
                param=f"messages.[{i}].role",
            )
        in_tool_block = False
        if role == "assistant":
            calls = msg.get("tool_calls")
            if calls is not None:
                if not isinstance(calls, list) or not calls:
                    raise RequestInvalid(
                        f"Invalid '{where}.tool_calls': empty array. Expected an array with "
                        "minimum length 1.",
                        param=f"{where}.tool_calls",
                    )
                for j, call in enumerate(calls):
                    cw = f"{where}.tool_calls[{j}]"
                    if not isinstance(call, dict) or not isinstance(call.get("id"), str):
                        raise RequestInvalid(
                            f"Missing required parameter: '{cw}.id'.", param=f"{cw}.id"
                        )
                    if call.get("type") != "function":
                        raise RequestInvalid(
                            f"Missing required parameter: '{cw}.type'.", param=f"{cw}.type"
                        )
                    fn = call.get("function")
                    if (
                        not isinstance(fn, dict)
                        or not isinstance(fn.get("name"), str)
                        or not isinstance(fn.get("arguments"), str)
                    ):
                        raise RequestInvalid(
                            f"Missing required parameter: '{cw}.function' (name and arguments "
                            "string).",
                            param=f"{cw}.function",
                        )
                    pending.append(call["id"])
                in_tool_block = True
                _check_content(msg, where, allow_null=True)
            else:
                _check_content(msg, where, allow_null=False)
        else:
            _check_content(msg, where, allow_null=False)
    if pending:
        raise RequestInvalid(
            "An assistant message with 'tool_calls' must be followed by tool messages "
            "responding to each 'tool_call_id'. The following tool_call_ids did not have "
            f"response messages: {', '.join(pending)}",
            param="messages",
        )


def validate_request(body: Any, dialect: Dialect | None = None) -> None:
    """Raise :class:`RequestInvalid` for anything the real API would answer with a 400
    (and, with a ``dialect``, what that OpenAI-compatible server refuses besides)."""
    dialect = dialect or Dialect()
    if not isinstance(body, dict):
        raise RequestInvalid("We could not parse the JSON body of your request.")
    unknown = sorted(set(body) - KNOWN_PARAMETERS - dialect.extra_params)
    if unknown:
        raise RequestInvalid(f"Unrecognized request argument supplied: {unknown[0]}")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise RequestInvalid("you must provide a model parameter", param="model")
    if "messages" not in body:
        raise RequestInvalid("Missing required parameter: 'messages'.", param="messages")
    validate_messages(body["messages"], dialect.extra_message_keys)
    if "tools" in body and body["tools"] is not None:
        validate_tools(body["tools"])
    if body.get("stream_options") is not None and not body.get("stream"):
        raise RequestInvalid(
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
            param="stream_options",
        )
    temp = body.get("temperature")
    if temp is not None and (not isinstance(temp, (int, float)) or not 0 <= temp <= 2):
        raise RequestInvalid(
            f"Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but "
            f"got {temp} instead.",
            param="temperature",
        )


# ------------------------------------------------------------------------- rendering


def _rough_tokens(obj: Any) -> int:
    return max(1, len(json.dumps(obj, ensure_ascii=False)) // 4)


def _split(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _tool_call_list(reply: Reply) -> list[tuple[str, str, str]]:
    out = []
    for name, args in reply.tool_calls or []:
        raw = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        out.append((f"call_{uuid.uuid4().hex[:24]}", name, raw))
    return out


def _usage(reply: Reply, body: dict) -> dict:
    if reply.usage is not None:
        prompt, completion = reply.usage
    else:
        prompt = _rough_tokens({"m": body.get("messages"), "t": body.get("tools")})
        produced = (
            (reply.text or "")
            + (reply.reasoning or "")
            + "".join(
                n + (a if isinstance(a, str) else json.dumps(a)) for n, a in reply.tool_calls or []
            )
        )
        completion = max(1, len(produced) // 4)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        **({"prompt_tokens_details": {"cached_tokens": reply.cached}} if reply.cached else {}),
    }


def _finish_reason(reply: Reply) -> str:
    return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def render_completion(reply: Reply, body: dict) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    calls = _tool_call_list(reply)
    if calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
            for cid, name, args in calls
        ]
    elif message["content"] is None:
        message["content"] = ""
    if reply.reasoning:
        message["reasoning_content"] = reply.reasoning
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "loopback"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": _finish_reason(reply),
            }
        ],
        "usage": _usage(reply, body),
    }


def render_chunks(reply: Reply, body: dict) -> Iterator[dict]:
    """The SSE chunk objects OpenAI would stream for ``reply`` (without ``[DONE]``)."""
    cid = f"chatcmpl-{uuid.uuid4().hex[:24]}"
    created = int(time.time())
    model = body.get("model", "loopback")

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": "fp_loopback",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }

    yield chunk({"role": "assistant", "content": ""})
    for piece in _split(reply.reasoning, TEXT_DELTA_CHARS) if reply.reasoning else []:
        yield chunk({"reasoning_content": piece})
    for piece in _split(reply.text, TEXT_DELTA_CHARS) if reply.text else []:
        yield chunk({"content": piece})
    if reply.stream_error is not None:  # what vLLM sends when generation fails mid-stream
        yield {"error": {"message": reply.stream_error, "type": "InternalServerError", "code": 500}}
        return
    for index, (call_id, name, args) in enumerate(_tool_call_list(reply)):
        # like OpenAI: id, type and name only in the first fragment, arguments after
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": ""},
                    }
                ]
            }
        )
        for piece in _split(args, ARGS_FRAGMENT_CHARS) if args else []:
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, None if reply.no_finish else _finish_reason(reply))
    if (body.get("stream_options") or {}).get("include_usage"):
        yield {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": "fp_loopback",
            "choices": [],
            "usage": _usage(reply, body),
        }


def error_body(
    message: str,
    type_: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
) -> dict:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


# --------------------------------------------------------------------------- server


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the stdlib's per-request stderr lines."""

    def setup(self) -> None:
        super().setup()
        self.server.owner._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._track(self.connection, add=False)

    # -- helpers
    def _send_json(self, code: int, payload: dict, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _abort(self) -> None:
        """Close the TCP connection at once, mid-whatever."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.wfile.flush()
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    # -- routes
    def do_GET(self) -> None:
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self._send_json(
                200,
                {
                    "object": "list",
                    "data": [{"id": "loopback", "object": "model", "owned_by": "cvagent-tests"}],
                },
            )
        else:
            self._send_json(404, error_body(f"Invalid URL (GET {self.path})"))

    def do_POST(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0].rstrip("/")
        if path.endswith("/v1/messages"):  # litellm appends it to any api_base
            self._anthropic(raw)
            return
        if path not in ("/v1/chat/completions", "/chat/completions"):
            self._send_json(404, error_body(f"Invalid URL (POST {self.path})"))
            return
        try:
            body = json.loads(raw.decode("utf-8") or "null")
        except (UnicodeDecodeError, json.JSONDecodeError):
            body = raw.decode("utf-8", "replace")
        owner._record(body, {k.lower(): v for k, v in self.headers.items()})
        try:
            validate_request(body, owner.dialect)
        except RequestInvalid as exc:
            self._send_json(400, error_body(exc.message, param=exc.param, code=exc.code))
            return
        refusal = owner.dialect.check(body)
        reply = refusal or owner.dialect.shape(owner._next_reply(body), body)
        if reply.delay and owner._stopping.wait(reply.delay):
            self._abort()
            return
        if reply.drop_connection:
            self._abort()
            return
        if reply.status is not None:
            self._send_error_reply(reply, body)
            return
        if body.get("stream"):
            self._stream(reply, body)
        else:
            self._send_json(200, render_completion(reply, body))

    def _anthropic(self, raw: bytes) -> None:
        """Just enough of Anthropic's streamed Messages API for litellm's ``anthropic/``
        provider: text replies, usage with ``cache_read_input_tokens``.  Bodies are kept
        in ``owner.anthropic_requests`` (they show the ``cache_control`` breakpoints)."""
        owner = self.server.owner
        body = json.loads(raw.decode("utf-8") or "null")
        with owner._lock:
            owner.anthropic_requests.append(body)
        reply = owner._next_reply({"messages": []})
        text = reply.text or ""
        prompt = reply.usage[0] if reply.usage else _rough_tokens(body)
        usage = {
            "input_tokens": prompt - reply.cached,
            "output_tokens": 1,
            "cache_read_input_tokens": reply.cached,
            "cache_creation_input_tokens": 0,
        }
        events = [
            ("message_start", {"type": "message_start", "message": {
                "id": "msg_loopback", "type": "message", "role": "assistant",
                "model": body.get("model"), "content": [], "stop_reason": None,
                "stop_sequence": None, "usage": usage}}),
            ("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": {"type": "text", "text": ""}}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": text}}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                               "usage": {"output_tokens": max(1, len(text) // 4)}}),
            ("message_stop", {"type": "message_stop"}),
        ]  # fmt: skip
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for name, data in events:
            self._write_chunk(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        self._write_chunk(b"")

    def _send_error_reply(self, reply: Reply, body: dict) -> None:
        code = reply.status or 500
        message, type_, err_code = _STATUS_DEFAULTS.get(code, ("Error.", "server_error", None))
        if reply.error_message is not None:
            message = reply.error_message
        auth = self.headers.get("Authorization", "")
        key = auth.split(" ", 1)[1] if " " in auth else "<none>"
        masked = key[:6] + "*" * 8 + key[-4:] if len(key) > 10 else key
        message = message.replace("{key}", masked).replace("{model}", str(body.get("model")))
        headers = {}
        if reply.retry_after is not None:
            ra = reply.retry_after
            headers["Retry-After"] = str(int(ra) if float(ra).is_integer() else ra)
        self._send_json(
            code,
            error_body(message, reply.error_type or type_, code=reply.error_code or err_code),
            headers,
        )

    def _stream(self, reply: Reply, body: dict) -> None:
        owner = self.server.owner
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        try:
            for sent, chunk in enumerate(render_chunks(reply, body)):
                if reply.cut_after_chunks is not None and sent >= reply.cut_after_chunks:
                    self._abort()
                    return
                if sent and reply.chunk_delay and owner._stopping.wait(reply.chunk_delay):
                    self._abort()
                    return
                self._write_chunk(b"data: " + json.dumps(chunk).encode("utf-8") + b"\n\n")
            if reply.cut_after_chunks is not None:
                self._abort()
                return
            self._write_chunk(b"data: [DONE]\n\n")
            self._write_chunk(b"")  # terminating zero-length chunk
        except (BrokenPipeError, ConnectionResetError):
            # the client went away (Ctrl-C, timeout): nothing to answer any more
            self.close_connection = True


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: LoopbackServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up (resets, timeouts, Ctrl-C) are normal here: keep quiet.
        Anything else is a bug in this server: record it for ``srv.errors``."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError, OSError)):
            return
        with self.owner._lock:
            self.owner.errors.append(exc)
        super().handle_error(request, client_address)


CLASSIFIER_PREFIX = "You label the intent of the user's latest message"


class LoopbackServer:
    """A threaded OpenAI-compatible server on 127.0.0.1 (see the module docstring).

    ``handler`` is the request handler class: the native-protocol servers of
    ``tests/support/native_servers.py`` reuse the queue, the log and the shutdown here.

    ``port=0`` picks a free port.  Thread-safe: tests may enqueue while a client is
    talking to it.  ``close()`` returns promptly even while a handler is sleeping in a
    ``delay``/``chunk_delay`` or a client holds a keep-alive connection open.
    """

    def __init__(
        self,
        port: int = 0,
        *,
        default_text: str = "OK",
        echo: bool = False,
        requests_log: str | None = None,
        dialect: Dialect | None = None,
    ) -> None:
        self.default_text = default_text
        self.dialect = dialect or Dialect()
        self.echo = echo
        #: cvagent's intent classifier asks for one label word before a turn; it is
        #: answered with this (None: from the queue like any request) so scripts need
        #: not know which messages the heuristics already classify
        self.intent_label: str | None = "UNKNOWN"
        self.classifier_requests: list[Any] = []
        self.requests: list[Any] = []
        self.anthropic_requests: list[Any] = []  # POST /v1/messages bodies
        #: headers of each request, names lower-cased (httpx sends them lower-case)
        self.request_headers: list[dict[str, str]] = []
        #: unexpected exceptions inside handlers (a test may assert it stays empty)
        self.errors: list[BaseException | None] = []
        self._requests_log = requests_log
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._httpd = _HTTPServer(("127.0.0.1", port), self.handler)
        self._httpd.owner = self
        self.port: int = self._httpd.server_address[1]
        self._thread: threading.Thread | None = None

    handler: type[BaseHTTPRequestHandler] = _Handler

    # -- lifecycle
    @property
    def url(self) -> str:
        """Base URL to give clients as ``api_base`` (ends in ``/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> LoopbackServer:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.05},
                name=f"loopback-openai-{self.port}",
                daemon=True,
            )
            self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        with self._lock:
            conns = list(self._connections)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._httpd.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- scripting
    def enqueue(self, *replies: Reply | str) -> LoopbackServer:
        """Queue replies in order; a plain string is a text reply."""
        with self._lock:
            for reply in replies:
                self._queue.append(Reply(text=reply) if isinstance(reply, str) else reply)
        return self

    @property
    def pending(self) -> int:
        """How many queued replies have not been used yet."""
        with self._lock:
            return len(self._queue)

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()
            self.request_headers.clear()

    @property
    def last_request(self) -> Any:
        with self._lock:
            return self.requests[-1] if self.requests else None

    # -- handler side
    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            (self._connections.add if add else self._connections.discard)(conn)

    def _is_classifier(self, body: Any) -> bool:
        messages = body.get("messages") if isinstance(body, dict) else None
        first = messages[0] if isinstance(messages, list) and messages else {}
        return (
            self.intent_label is not None
            and isinstance(first, dict)
            and str(first.get("content", "")).startswith(CLASSIFIER_PREFIX)
        )

    def _record(self, body: Any, headers: dict[str, str]) -> None:
        with self._lock:
            if self._is_classifier(body):  # kept apart: tests count the agent's own requests
                self.classifier_requests.append(body)
                return
            self.requests.append(body)
            self.request_headers.append(headers)
            if self._requests_log:
                with open(self._requests_log, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(body, ensure_ascii=False) + "\n")

    def _next_reply(self, body: dict) -> Reply:
        if self._is_classifier(body):
            return Reply(text=self.intent_label or "")
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.echo:
            last_user = next(
                (m.get("content") for m in reversed(body["messages"]) if m.get("role") == "user"),
                "",
            )
            if not isinstance(last_user, str):
                last_user = json.dumps(last_user)
            else:  # without the turn context cvagent puts after the user's words
                from tests.support.wire import user_words

                last_user = user_words(last_user)
            return Reply(text=f"echo: {last_user}")
        return Reply(text=self.default_text)


try:  # a ready-made fixture: ``pytest_plugins = ["tests.support.openai_server"]`` in a conftest
    import pytest

    @pytest.fixture
    def loopback_server() -> Iterator[LoopbackServer]:
        with LoopbackServer() as srv:
            yield srv
except ImportError:  # pragma: no cover - benchmarks may run without pytest
    pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.support.openai_server",
        description="Scripted loopback OpenAI-compatible server for tests and benchmarks.",
    )
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--script", help="JSON file: a list of replies, served in order")
    parser.add_argument("--default-text", default="OK", help="answer once the script is used up")
    parser.add_argument(
        "--echo",
        action="store_true",
        help="once the script is used up, answer 'echo: <last user message>'",
    )
    parser.add_argument("--requests-log", help="append every request body to this JSONL file")
    args = parser.parse_args(argv)

    srv = LoopbackServer(
        args.port, default_text=args.default_text, echo=args.echo, requests_log=args.requests_log
    )
    if args.script:
        with open(args.script, encoding="utf-8") as fh:
            script = json.load(fh)
        if not isinstance(script, list):
            parser.error("--script must hold a JSON list of replies")
        srv.enqueue(
            *(Reply.from_dict(item) if isinstance(item, dict) else str(item) for item in script)
        )
    srv.start()
    sys.stdout.write(f"listening on {srv.url}\n")
    sys.stdout.flush()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        srv.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
