"""A model that never stops: idle timeout, deadline, output cap and repetition guard."""

from __future__ import annotations

import threading
import time

import pytest

from cvagent_cli.errors import ModelError
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.llm.streaming import (
    EchoGuard,
    RepetitionGuard,
    StreamOverdue,
    StreamStalled,
    guarded,
)
from cvagent_cli.llm.types import ModelResponse, TextDelta
from cvagent_cli.settings import Settings
from tests.support.openai_server import LoopbackServer, Reply

pytestmark = [
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"),
]

LOOP = "Led the migration of the billing service to Kafka, cutting latency by 40%. "


def feed_by_chars(guard: RepetitionGuard, text: str) -> int | None:
    for end in range(1, len(text) + 1):
        if guard.feed(text[:end]):
            return end
    return None


def test_a_looping_reply_is_caught_after_three_copies_and_cut_to_the_first():
    intro = "Here is a stronger version of the bullet.\n\n"
    guard = RepetitionGuard()
    caught = feed_by_chars(guard, intro + LOOP * 20)
    assert caught is not None and caught <= len(intro) + 3 * len(LOOP) + guard.every
    assert (intro + LOOP * 20)[: guard.keep] == intro + LOOP.rstrip()


@pytest.mark.parametrize(
    "text",
    [
        "| skill | years |\n|---|---|\n" + "".join(f"| tool {i} | {i % 9} |\n" for i in range(300)),
        "-" * 3000,
        "\n".join(f"- Built service {i} with a {i * 3}% faster build" for i in range(120)),
        "简历中的每一条经历都应该有可量化的结果。" * 2 + "请把第二条改写得更具体。",
    ],
)
def test_ordinary_long_answers_are_not_called_loops(text):
    assert feed_by_chars(RepetitionGuard(), text) is None


def test_a_chinese_loop_is_caught():
    loop = "负责订单系统的重构，将接口延迟降低了百分之四十，并带领三人小组完成迁移。"
    assert feed_by_chars(RepetitionGuard(), "好的：\n" + loop * 10) is not None


MARKERS = ("<turn_context>", "&lt;turn_context&gt;", "## Task context")


def stream_through(guard: EchoGuard, text: str, step: int) -> tuple[str, int]:
    """What a stream of ``text`` in pieces of ``step`` characters shows, and where the
    guard found a marker (-1: nowhere)."""
    shown = ""
    for end in range(step, len(text) + step, step):
        so_far = text[:end]
        at = guard.feed(so_far)
        if at != -1:
            return shown, at
        shown = so_far[: guard.shown(so_far)]
    return text, -1


@pytest.mark.parametrize("step", [1, 3, 7, 50])
@pytest.mark.parametrize(
    "echo",
    [
        "<turn_context>\n## Task context\ncurrent request intent: EDIT",
        "&lt;turn_context&gt;\n## Task context",
        "## Task context\nresume now: 48 lines",
    ],
)
def test_an_echo_of_the_prompt_is_found_where_it_begins_and_never_shown(echo, step):
    answer = "To make your summary stronger, add one measurable result.\n\n"
    shown, at = stream_through(EchoGuard(MARKERS), answer + echo + "\nmore echo", step)
    assert at == len(answer)
    assert answer.startswith(shown)  # no part of a marker reached the screen
    assert len(shown) >= len(answer) - max(len(m) for m in MARKERS)


@pytest.mark.parametrize(
    "text",
    [
        "Use <b>bold</b> sparingly; ## is a heading mark, and a task context is fine.",
        "Wrap it as <turn> or &lt;b&gt; — neither is the context tag.",
        "简历里的 ## 标题 应该简短。",
    ],
)
def test_answers_without_a_marker_are_shown_whole(text):
    for step in (1, 4, 100):
        assert stream_through(EchoGuard(MARKERS), text, step) == (text, -1)


def test_a_tail_that_may_start_a_marker_is_held_back_until_it_cannot():
    guard = EchoGuard(MARKERS)
    assert guard.shown("Keep it short <turn") == len("Keep it short ")
    assert guard.shown("Keep it short <turn>") == len("Keep it short <turn>")
    assert guard.shown("## Task") == 0


def slow(items, pause):
    for item in items:
        time.sleep(pause)
        yield item


def test_guarded_raises_when_the_stream_goes_quiet_and_when_time_is_up():
    assert list(guarded(iter([1, 2, 3]), idle=1)) == [1, 2, 3]
    with pytest.raises(StreamStalled):
        list(guarded(slow([1, 2], 2.0), idle=0.2))
    endless = slow(iter(int, 1), 0.01)  # a chunk every 10 ms, forever
    start = time.monotonic()
    with pytest.raises(StreamOverdue):
        for _ in guarded(endless, idle=5, deadline=time.monotonic() + 0.3):
            pass
    assert time.monotonic() - start < 3


def test_guarded_passes_on_the_stream_s_own_error():
    def broken():
        yield 1
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        list(guarded(broken(), idle=1))


@pytest.fixture
def server():
    with LoopbackServer() as srv:
        yield srv


def gateway(server, monkeypatch, **settings) -> LiteLLMGateway:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-test-key-000000")
    return LiteLLMGateway(
        Settings(model="openai/gpt-4o-mini", api_base=server.url, **settings),
        RetryPolicy(max_retries=0),
    )


def test_requests_carry_the_output_cap(server, monkeypatch):
    server.enqueue(Reply(text="ok"))
    list(gateway(server, monkeypatch, max_tokens=777).stream([{"role": "user", "content": "x"}]))
    assert server.requests[-1]["max_tokens"] == 777


def test_a_stream_that_stalls_mid_answer_ends_with_a_clear_error(server, monkeypatch):
    server.enqueue(Reply(text="First words. " + "then silence " * 5, chunk_delay=3.0))
    gw = gateway(server, monkeypatch, timeout=0.5)
    seen: list = []
    with pytest.raises(ModelError, match=r"sent nothing for 0\.5 s"):
        seen.extend(gw.stream([{"role": "user", "content": "x"}]))
    assert not any(isinstance(e, ModelResponse) for e in seen)


def test_a_stream_that_never_ends_stops_at_the_deadline(server, monkeypatch):
    server.enqueue(Reply(text="word " * 400, chunk_delay=0.05))
    gw = gateway(server, monkeypatch, timeout=5)
    start = time.monotonic()
    with pytest.raises(ModelError, match="ran out of time"):
        for item in gw.stream([{"role": "user", "content": "x"}], deadline=time.monotonic() + 0.6):
            assert isinstance(item, TextDelta)
    assert time.monotonic() - start < 5
    assert threading.active_count() < 50  # the reader threads end with their streams
