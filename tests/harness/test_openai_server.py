"""The loopback server is the referee of many tests, so it is tested on its own, over
plain stdlib HTTP (no litellm): scripted replies, SSE framing, fragmenting, strict
validation, faults, prompt shutdown, and the ``python -m`` entry point."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.openai_server import (
    ARGS_FRAGMENT_CHARS,
    ORPHAN_TOOL_MESSAGE,
    LoopbackServer,
    Reply,
    context_window,
    cut_stream,
    delay,
    drop_connection,
    malformed_tool_args,
    render_chunks,
    status,
    tool_calls,
)


@pytest.fixture
def loopback_server():
    """A fresh scripted server per test (queues and request logs never leak)."""
    with LoopbackServer() as srv:
        yield srv


REPO_ROOT = Path(__file__).resolve().parents[2]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_resume",
            "description": "Read a section",
            "parameters": {"type": "object", "properties": {"section": {"type": "string"}}},
        },
    }
]
USER = [{"role": "user", "content": "hi"}]


def post(srv: LoopbackServer, body: dict | str, path: str = "/v1/chat/completions"):
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    data = body if isinstance(body, str) else json.dumps(body)
    conn.request(
        "POST",
        path,
        body=data,
        headers={
            "Content-Type": "application/json",
            "Authorization": "Bearer sk-test-abcdef123456",
        },
    )
    return conn, conn.getresponse()


def call(srv: LoopbackServer, **body):
    body.setdefault("model", "gpt-test")
    body.setdefault("messages", USER)
    conn, resp = post(srv, body)
    raw = resp.read()
    conn.close()
    return resp.status, resp, raw


def sse_chunks(raw: bytes) -> list:
    events = [e for e in raw.decode().split("\n\n") if e.strip()]
    assert all(e.startswith("data: ") for e in events)
    assert events[-1] == "data: [DONE]"
    return [json.loads(e[len("data: ") :]) for e in events[:-1]]


def join_text(chunks: list) -> str:
    return "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])


# ------------------------------------------------------------------ replies


def test_default_reply_when_queue_empty(loopback_server):
    code, _, raw = call(loopback_server)
    assert code == 200
    body = json.loads(raw)
    assert body["choices"][0]["message"]["content"] == "OK"
    assert body["choices"][0]["finish_reason"] == "stop"
    assert body["usage"]["prompt_tokens"] > 0


def test_replies_are_served_in_order_and_plain_strings_are_text(loopback_server):
    loopback_server.enqueue("first", Reply(text="second"))
    assert loopback_server.pending == 2
    answers = [
        json.loads(call(loopback_server)[2])["choices"][0]["message"]["content"] for _ in range(3)
    ]
    assert answers == ["first", "second", "OK"]
    assert loopback_server.pending == 0


def test_also_serves_chat_completions_without_v1(loopback_server):
    conn, resp = post(loopback_server, {"model": "m", "messages": USER}, "/chat/completions")
    assert resp.status == 200
    conn.close()


def test_streamed_text_is_split_into_small_deltas_and_ends_with_done(loopback_server):
    loopback_server.enqueue(Reply(text="Hello, streaming world!"))
    code, resp, raw = call(loopback_server, stream=True)
    assert code == 200
    assert resp.headers["Content-Type"].startswith("text/event-stream")
    chunks = sse_chunks(raw)
    assert join_text(chunks) == "Hello, streaming world!"
    assert sum(1 for c in chunks if c["choices"] and c["choices"][0]["delta"].get("content")) > 3
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert all("usage" not in c for c in chunks)  # not asked for


def test_usage_chunk_only_with_include_usage(loopback_server):
    loopback_server.enqueue(Reply(text="abc"))
    chunks = sse_chunks(
        call(loopback_server, stream=True, stream_options={"include_usage": True})[2]
    )
    assert chunks[-1]["choices"] == []
    usage = chunks[-1]["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] >= 1
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_streamed_tool_call_fragments_like_openai(loopback_server):
    args = {"section": "Skills", "text": "Python, SQL and a long list of other things"}
    loopback_server.enqueue(tool_calls(("read_resume", args), ("read_resume", {"section": "B"})))
    chunks = sse_chunks(call(loopback_server, stream=True, tools=TOOLS)[2])
    frags = [
        tc for c in chunks if c["choices"] for tc in c["choices"][0]["delta"].get("tool_calls", [])
    ]
    by_index: dict[int, list] = {}
    for frag in frags:
        by_index.setdefault(frag["index"], []).append(frag)
    assert sorted(by_index) == [0, 1]
    first, *rest = by_index[0]
    assert first["id"].startswith("call_") and first["function"]["name"] == "read_resume"
    assert rest and all("id" not in f and "name" not in f["function"] for f in rest)
    assert all(len(f["function"]["arguments"]) <= ARGS_FRAGMENT_CHARS for f in rest)
    joined = "".join(f["function"]["arguments"] for f in by_index[0])
    assert json.loads(joined) == args
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"


def test_non_streamed_tool_call(loopback_server):
    loopback_server.enqueue(tool_calls(("read_resume", {"section": "A"}), content="Looking"))
    msg = json.loads(call(loopback_server, tools=TOOLS)[2])["choices"][0]["message"]
    assert msg["content"] == "Looking"
    assert json.loads(msg["tool_calls"][0]["function"]["arguments"]) == {"section": "A"}


def test_reasoning_content_is_streamed_before_text(loopback_server):
    loopback_server.enqueue(Reply(text="answer", reasoning="let me think"))
    chunks = sse_chunks(call(loopback_server, stream=True)[2])
    thinking = "".join(c["choices"][0]["delta"].get("reasoning_content") or "" for c in chunks)
    assert thinking == "let me think" and join_text(chunks) == "answer"


def test_malformed_tool_args_are_sent_verbatim(loopback_server):
    loopback_server.enqueue(malformed_tool_args("read_resume"))
    msg = json.loads(call(loopback_server, tools=TOOLS)[2])["choices"][0]["message"]
    with pytest.raises(json.JSONDecodeError):
        json.loads(msg["tool_calls"][0]["function"]["arguments"])


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(min_size=1, max_size=200),
    args=st.dictionaries(st.text(max_size=10), st.text(max_size=30), max_size=5),
)
def test_chunks_reassemble_to_the_scripted_reply(text, args):
    chunks = list(
        render_chunks(
            Reply(text=text, tool_calls=[("f", args)]),
            {"model": "m", "stream_options": {"include_usage": True}},
        )
    )
    assert join_text(chunks) == text
    joined = "".join(
        tc["function"]["arguments"]
        for c in chunks
        if c["choices"]
        for tc in c["choices"][0]["delta"].get("tool_calls", [])
    )
    assert json.loads(joined) == args


# ------------------------------------------------------------------ validation


def assert_rejected(srv, expected: str, **body) -> dict:
    code, _, raw = call(srv, **body)
    assert code == 400, raw
    err = json.loads(raw)["error"]
    assert err["type"] == "invalid_request_error"
    assert expected in err["message"]
    return err


def test_orphan_tool_message_is_rejected_with_openais_message(loopback_server):
    err = assert_rejected(
        loopback_server,
        ORPHAN_TOOL_MESSAGE,
        messages=[
            {"role": "user", "content": "hi"},
            {"role": "tool", "tool_call_id": "call_1", "content": "result"},
        ],
    )
    assert err["message"] == ORPHAN_TOOL_MESSAGE


def test_tool_message_after_plain_assistant_is_an_orphan(loopback_server):
    assert_rejected(
        loopback_server,
        ORPHAN_TOOL_MESSAGE,
        messages=[
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello"},
            {"role": "tool", "tool_call_id": "call_1", "content": "result"},
        ],
    )


ASSISTANT_CALLS = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {
            "id": "call_a",
            "type": "function",
            "function": {"name": "read_resume", "arguments": "{}"},
        },
        {
            "id": "call_b",
            "type": "function",
            "function": {"name": "read_resume", "arguments": "{}"},
        },
    ],
}


def test_every_tool_call_must_be_answered_before_the_next_message(loopback_server):
    err = assert_rejected(
        loopback_server,
        "did not have response messages: call_b",
        messages=[
            {"role": "user", "content": "hi"},
            ASSISTANT_CALLS,
            {"role": "tool", "tool_call_id": "call_a", "content": "A"},
            {"role": "user", "content": "and?"},
        ],
    )
    assert "tool_call_id" in err["message"]


def test_unanswered_tool_calls_at_the_end_are_rejected(loopback_server):
    assert_rejected(
        loopback_server,
        "call_a, call_b",
        messages=[{"role": "user", "content": "hi"}, ASSISTANT_CALLS],
    )


def test_tool_answer_with_unknown_id_is_rejected(loopback_server):
    assert_rejected(
        loopback_server,
        "call_zzz",
        messages=[
            {"role": "user", "content": "hi"},
            ASSISTANT_CALLS,
            {"role": "tool", "tool_call_id": "call_zzz", "content": "A"},
        ],
    )


def test_unknown_top_level_parameter_is_rejected_like_the_real_api(loopback_server):
    """A client-side option that leaks into the body (e.g. litellm's private
    ``_skip_mcp_handler``) is a 400 from OpenAI, so it is one here too."""
    loopback_server.enqueue("queued")
    code, _, raw = call(loopback_server, stream=True, _skip_mcp_handler=True)
    assert code == 400
    err = json.loads(raw)["error"]
    assert err["message"] == "Unrecognized request argument supplied: _skip_mcp_handler"
    assert err["type"] == "invalid_request_error"
    assert loopback_server.pending == 1  # a rejected request consumes no reply
    code, _, raw = call(loopback_server, max_tokens=50, seed=1, user="u1", top_p=0.5)
    assert code == 200 and json.loads(raw)["choices"][0]["message"]["content"] == "queued"


def test_complete_tool_round_trip_is_accepted(loopback_server):
    code, _, raw = call(
        loopback_server,
        tools=TOOLS,
        messages=[
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "hi"},
            ASSISTANT_CALLS,
            {"role": "tool", "tool_call_id": "call_b", "content": "B"},
            {"role": "tool", "tool_call_id": "call_a", "content": "A"},
            {"role": "assistant", "content": "done"},
            {"role": "user", "content": "thanks"},
        ],
    )
    assert code == 200, raw


@pytest.mark.parametrize(
    "messages, expected",
    [
        ([], "empty array"),
        ([{"role": "robot", "content": "x"}], "Invalid value: 'robot'"),
        ([{"role": "user"}], "expected a string, got null"),
        ([{"role": "user", "content": 5}], "Invalid type"),
        ([{"role": "assistant", "content": None}], "expected a string, got null"),
        ("hello", "expected an array"),
    ],
)
def test_malformed_messages_are_rejected(loopback_server, messages, expected):
    assert_rejected(loopback_server, expected, messages=messages)


@pytest.mark.parametrize(
    "tools, expected",
    [
        ([], "empty array"),
        ([{"type": "tool", "function": {"name": "f"}}], "expected 'function'"),
        ([{"type": "function"}], "function'"),
        ([{"type": "function", "function": {"name": "has space"}}], "does not match pattern"),
        (
            [{"type": "function", "function": {"name": "f", "parameters": {"type": "array"}}}],
            'type: "object"',
        ),
        (
            [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}] * 2,
            "Duplicate",
        ),
    ],
)
def test_malformed_tools_are_rejected(loopback_server, tools, expected):
    assert_rejected(loopback_server, expected, tools=tools)


def test_other_request_errors(loopback_server):
    assert_rejected(
        loopback_server,
        "only allowed when 'stream' is enabled",
        stream_options={"include_usage": True},
    )
    assert_rejected(loopback_server, "temperature", temperature=3)
    conn, resp = post(loopback_server, {"messages": USER})
    assert resp.status == 400 and b"model parameter" in resp.read()
    conn.close()
    conn, resp = post(loopback_server, "{not json")
    assert resp.status == 400
    conn.close()


def test_a_rejected_request_keeps_the_queued_reply(loopback_server):
    loopback_server.enqueue("kept")
    assert_rejected(
        loopback_server,
        ORPHAN_TOOL_MESSAGE,
        messages=[{"role": "tool", "tool_call_id": "x", "content": "r"}],
    )
    assert loopback_server.pending == 1
    assert json.loads(call(loopback_server)[2])["choices"][0]["message"]["content"] == "kept"
    assert len(loopback_server.requests) == 2  # both recorded, valid or not


# ------------------------------------------------------------------ faults


def test_status_fault_has_openai_error_body_and_retry_after(loopback_server):
    loopback_server.enqueue(status(429, retry_after=3))
    code, resp, raw = call(loopback_server)
    assert code == 429 and resp.headers["Retry-After"] == "3"
    err = json.loads(raw)["error"]
    assert err["code"] == "rate_limit_exceeded" and err["message"]


def test_401_masks_the_key_like_openai(loopback_server):
    loopback_server.enqueue(status(401))
    code, _, raw = call(loopback_server)
    message = json.loads(raw)["error"]["message"]
    assert code == 401 and "Incorrect API key provided" in message
    assert "sk-test-abcdef123456" not in message and "3456" in message


def test_context_window_fault(loopback_server):
    loopback_server.enqueue(context_window())
    code, _, raw = call(loopback_server)
    err = json.loads(raw)["error"]
    assert code == 400 and "maximum context length is 8192 tokens" in err["message"]
    assert err["code"] == "context_length_exceeded"


def test_cut_stream_closes_mid_body(loopback_server):
    loopback_server.enqueue(cut_stream(after_chunks=3, text="a fairly long answer here"))
    conn, resp = post(loopback_server, {"model": "m", "messages": USER, "stream": True})
    assert resp.status == 200
    with pytest.raises(http.client.IncompleteRead) as info:
        resp.read()
    assert b"data: " in info.value.partial and b"[DONE]" not in info.value.partial
    conn.close()


def test_drop_connection_sends_nothing(loopback_server):
    loopback_server.enqueue(drop_connection())
    conn = http.client.HTTPConnection("127.0.0.1", loopback_server.port, timeout=10)
    conn.request("POST", "/v1/chat/completions", body=json.dumps({"model": "m", "messages": USER}))
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
        conn.getresponse()
    conn.close()


def test_close_is_prompt_while_a_reply_is_delayed():
    srv = LoopbackServer().start()
    srv.enqueue(delay(600))
    errors: list[BaseException] = []

    def client() -> None:
        try:
            call(srv)
        except Exception as exc:
            errors.append(exc)

    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    while not srv.requests:  # the request reached the handler, which now waits
        threading.Event().wait(0.01)
    closer = threading.Thread(target=srv.close, daemon=True)
    closer.start()
    closer.join(timeout=30)  # a hang guard, not a timing assertion
    thread.join(timeout=30)
    assert not closer.is_alive() and not thread.is_alive()


def test_concurrent_clients_each_get_one_reply(loopback_server):
    loopback_server.enqueue(*[f"r{i}" for i in range(8)])
    answers: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        text = json.loads(call(loopback_server)[2])["choices"][0]["message"]["content"]
        with lock:
            answers.append(text)

    threads = [threading.Thread(target=client) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(answers) == sorted(f"r{i}" for i in range(8))
    assert len(loopback_server.requests) == 8


def test_requests_and_headers_are_recorded(loopback_server):
    call(loopback_server, tools=TOOLS, temperature=0.2)
    body = loopback_server.last_request
    assert body["tools"] == TOOLS and body["temperature"] == 0.2
    assert loopback_server.request_headers[-1]["authorization"].startswith("Bearer ")
    loopback_server.clear()
    assert loopback_server.requests == [] and loopback_server.pending == 0


def test_reply_from_script_entries():
    assert Reply.from_dict({"text": "hi"}) == Reply(text="hi")
    r = Reply.from_dict({"tool_calls": [{"name": "f", "arguments": {"a": 1}}], "delay": 0.5})
    assert r.tool_calls == [("f", {"a": 1})] and r.delay == 0.5
    assert Reply.from_dict({"status": 429, "retry_after": 1}).retry_after == 1
    assert Reply.from_dict({"context_window": True}).status == 400
    assert isinstance(Reply.from_dict({"malformed_tool_args": True}).tool_calls[0][1], str)
    assert Reply.from_dict({"drop_connection": True}).drop_connection


# ------------------------------------------------------------------ entry point


@pytest.mark.slow
def test_module_entry_point_serves_a_script(tmp_path):
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"text": "scripted"}, {"status": 503}]))
    log = tmp_path / "requests.jsonl"
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.support.openai_server",
            "--port",
            "0",
            "--script",
            str(script),
            "--requests-log",
            str(log),
            "--echo",
        ],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on http://127.0.0.1:")
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        srv = LoopbackServer.__new__(LoopbackServer)  # only .port is used by call()
        srv.port = port
        code, _, raw = call(srv)
        assert code == 200 and json.loads(raw)["choices"][0]["message"]["content"] == "scripted"
        assert call(srv)[0] == 503
        code, _, raw = call(srv, messages=[{"role": "user", "content": "ping"}])
        assert json.loads(raw)["choices"][0]["message"]["content"] == "echo: ping"
        logged = [json.loads(x) for x in log.read_text().splitlines()]
        assert len(logged) == 3 and logged[2]["messages"][0]["content"] == "ping"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stdout.close()
