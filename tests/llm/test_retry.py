"""The retry policy: what is retried, how long it waits, and that tests never sleep."""

from __future__ import annotations

from datetime import datetime, timezone
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cvagent_cli.errors import ContextWindowError, ModelError
from cvagent_cli.llm.retry import RetryPolicy, parse_retry_after


def no_sleep(seconds: float) -> None:
    raise AssertionError("slept for real")


def test_backoff_doubles_and_is_capped():
    policy = RetryPolicy(max_retries=6, jitter=0.0, sleep=no_sleep)
    assert [policy.delay(n) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]


def test_jitter_bounds():
    low = RetryPolicy(rng=lambda: 0.0)
    high = RetryPolicy(rng=lambda: 0.999999)
    assert low.delay(1) == pytest.approx(0.75)
    assert high.delay(1) == pytest.approx(1.25, rel=1e-4)
    assert high.delay(10) <= high.max_delay


@given(
    attempt=st.integers(0, 50),
    r=st.floats(0, 1, exclude_max=True),
    retry_after=st.one_of(st.none(), st.floats(0, 1e6)),
)
def test_delay_is_always_within_bounds(attempt, r, retry_after):
    policy = RetryPolicy(rng=lambda: r)
    bound = policy.max_delay if retry_after is None else policy.max_wait
    assert 0.0 <= policy.delay(attempt, retry_after) <= bound


def test_retry_after_wins_up_to_max_wait_and_a_longer_wait_is_not_made():
    policy = RetryPolicy(rng=lambda: 0.0)
    assert policy.delay(0, retry_after=3) == 3.0
    assert policy.delay(0, retry_after=30) == 30.0  # Gemini asks for 30 s: the backoff cap was 8
    assert not policy.too_long(60.0) and policy.too_long(120.0)


def test_what_is_retried():
    policy = RetryPolicy(max_retries=2)
    assert policy.should_retry(ModelError("rate limited", retryable=True))
    assert not policy.should_retry(ModelError("auth failed"))
    assert not policy.should_retry(ContextWindowError("too long"))
    assert not policy.should_retry(ValueError("bug"))
    assert not policy.should_retry(KeyboardInterrupt())
    assert policy.should_retry(ModelError("x", retryable=True), attempt=1)
    assert not policy.should_retry(ModelError("x", retryable=True), attempt=2)


@pytest.mark.parametrize(
    "headers, expected",
    [
        ({"retry-after": "3"}, 3.0),
        ({"Retry-After": "1.5"}, 1.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "soon"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_parse_retry_after(headers, expected):
    assert parse_retry_after(headers) == expected


def test_parse_retry_after_http_date():
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    header = format_datetime(datetime(2025, 1, 1, 12, 0, 7, tzinfo=timezone.utc), usegmt=True)
    assert parse_retry_after({"retry-after": header}, now=now.timestamp()) == pytest.approx(7)
