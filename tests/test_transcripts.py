"""The transcript log: turns from several sessions recorded, listed, searched, scrubbed,
kept private and pruned."""

from __future__ import annotations

import sqlite3
import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from cvagent_cli.settings import Settings
from cvagent_cli.store.transcripts import (
    ToolCallRecord,
    TranscriptError,
    TranscriptLog,
    TurnRecord,
    new_session_id,
    transcript_path,
)

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)


def turn(session: str, text: str, minutes: int = 0, **kw) -> TurnRecord:
    return TurnRecord(
        session_id=session,
        user_text=text,
        answer_text=kw.pop("answer", f"answer to {text}"),
        time=T0 + timedelta(minutes=minutes),
        **kw,
    )


@pytest.fixture
def log() -> TranscriptLog:
    return TranscriptLog(clock=lambda: T0 + timedelta(days=1))


def test_two_sessions_are_listed_newest_first_and_searched(resume: Path):
    clock = lambda: T0 + timedelta(days=1)  # noqa: E731
    first = TranscriptLog(clock=clock)
    first.record_turn(
        turn(
            "s1",
            "make my Acme bullets stronger",
            resume=str(resume),
            model="openai/gpt-4o-mini",
            capability="optimizer",
            tool_calls=[
                ToolCallRecord(name="edit_resume", arguments={"section": "Acme"}, result="applied")
            ],
            diffs=["-Did stuff\n+Cut p99 latency by 40%\n"],
            prompt_tokens=1200,
            completion_tokens=80,
            cached_tokens=900,
            cost=0.0004,
        )
    )
    first.record_turn(turn("s1", "now the summary", 1, resume=str(resume), prompt_tokens=300))
    second = TranscriptLog(clock=clock)  # a later chat session: a new instance, same file
    second.record_turn(turn("s2", "tailor it to the job", 60, model="deepseek/deepseek-chat"))

    sessions = TranscriptLog().sessions()
    assert [s.session_id for s in sessions] == ["s2", "s1"]
    s1 = sessions[1]
    assert (s1.turns, s1.prompt_tokens, s1.completion_tokens) == (2, 1500, 80)
    assert s1.first_user_text == "make my Acme bullets stronger"
    assert s1.resume == str(resume.resolve()) and s1.capability == "optimizer"
    assert (s1.started, s1.ended) == (T0, T0 + timedelta(minutes=1))

    assert [s.session_id for s in second.sessions(limit=1)] == ["s2"]
    assert [s.session_id for s in second.sessions(resume=resume)] == ["s1"]
    found = second.turns(query="p99 LATENCY")  # found in a diff, case-insensitively
    assert [t.user_text for t in found] == ["make my Acme bullets stronger"]
    assert found[0].tool_calls[0] == ToolCallRecord(
        name="edit_resume", arguments={"section": "Acme"}, result="applied"
    )
    assert found[0].cost == 0.0004 and found[0].cached_tokens == 900


def test_turns_of_a_session_are_in_order_and_limit_keeps_the_latest(log):
    for i in range(4):
        log.record_turn(turn("s1", f"message {i}", i))
    assert [t.user_text for t in log.turns(session_id="s1")] == [f"message {i}" for i in range(4)]
    assert [t.user_text for t in log.turns(limit=2)] == ["message 2", "message 3"]


def test_search_treats_percent_and_underscore_literally(log):
    log.record_turn(turn("s1", "grew revenue 40%"))
    log.record_turn(turn("s2", "grew revenue 400"))
    assert [t.session_id for t in log.turns(query="40%")] == ["s1"]
    assert log.turns(query="max_steps") == []


def test_secrets_are_scrubbed_before_they_reach_the_file(log, monkeypatch):
    monkeypatch.setenv("MY_API_KEY", "literal-secret-value-123")
    log.record_turn(
        turn(
            "s1",
            "my key is sk-abcdefghijklmnop1234 and literal-secret-value-123",
            tool_calls=[ToolCallRecord(name="x", arguments={"k": "sk-abcdefghijklmnop1234"})],
        )
    )
    raw = log.path.read_bytes()
    assert b"sk-abcdefghijklmnop1234" not in raw and b"literal-secret-value-123" not in raw
    assert "[REDACTED]" in log.turns()[0].user_text


def test_the_log_file_is_private_and_in_the_state_dir(log, isolated_home):
    log.record_turn(turn("s1", "hello"))
    assert log.path == transcript_path() == isolated_home / "state" / "transcripts.sqlite3"
    assert stat.S_IMODE(log.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.path.parent.stat().st_mode) == 0o700


def test_old_turns_are_pruned_on_write():
    log = TranscriptLog(retention_days=30, clock=lambda: T0 + timedelta(days=45))
    log.record_turn(turn("old", "from forty-five days ago"))
    log.record_turn(turn("new", "today", 45 * 24 * 60))
    assert [s.session_id for s in log.sessions()] == ["new"]


def test_the_file_is_kept_under_its_size_cap(log):
    capped = TranscriptLog(max_bytes=64 * 1024, clock=log.clock)
    big = "x" * 4000
    for i in range(60):
        capped.record_turn(turn(f"s{i:02d}", f"turn {i} {big}", i))
    assert capped.path.stat().st_size <= 64 * 1024
    kept = [s.session_id for s in capped.sessions(limit=100)]
    assert kept[0] == "s59" and "s00" not in kept  # the oldest went first


def test_long_tool_results_are_shortened(log):
    log.record_turn(turn("s1", "read", tool_calls=[ToolCallRecord(name="r", result="y" * 5000)]))
    assert len(log.turns()[0].tool_calls[0].result) == 500


def test_reading_a_missing_log_is_empty_not_an_error(log):
    assert log.sessions() == [] and log.turns(query="x") == []
    assert not log.path.exists()


def test_a_corrupt_log_is_a_user_error_naming_the_file(log):
    log.path.parent.mkdir(parents=True, exist_ok=True)
    log.path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(TranscriptError) as info:
        log.sessions()
    assert str(log.path) in info.value.message
    with pytest.raises(TranscriptError):
        log.record_turn(turn("s1", "hi"))


def test_from_settings_respects_the_switch_and_the_limits():
    assert TranscriptLog.from_settings(Settings(transcripts=False)) is None
    log = TranscriptLog.from_settings(Settings(transcript_days=7, transcript_max_mb=1))
    assert log is not None and (log.retention_days, log.max_bytes) == (7, 1024 * 1024)


def test_session_ids_sort_by_time_and_are_unique():
    a, b = new_session_id(T0), new_session_id(T0 + timedelta(seconds=1))
    assert a.startswith("20261120-090000-") and a < b
    assert new_session_id(T0) != new_session_id(T0)


def test_schema_version_is_stored(log):
    log.record_turn(turn("s1", "hi"))
    with sqlite3.connect(log.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_an_unwritable_state_dir_is_a_user_error(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the state folder should be")
    log = TranscriptLog(blocker / "transcripts.sqlite3")
    with pytest.raises(TranscriptError, match="cannot be used"):
        log.record_turn(turn("s1", "hi"))
