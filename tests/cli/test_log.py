"""``cvagent log``: sessions recorded by two chat sessions, listed, filtered, searched,
as JSON Lines, and switched off and on."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cvagent_cli.cli.app import app
from cvagent_cli.settings import config_path, load_settings
from cvagent_cli.store.transcripts import ToolCallRecord, TranscriptLog, TurnRecord

runner = CliRunner()
NOW = datetime.now(timezone.utc)


def cvagent(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), env=env)


@pytest.fixture
def logged(resume: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Two sessions on two resumes, recorded by two separate TranscriptLog instances."""
    other = tmp_path / "other.md"
    other.write_text("# Bo\n")
    first = TranscriptLog()
    first.record_turn(
        TurnRecord(
            session_id="20261120-090000-aaaaaa",
            time=NOW - timedelta(hours=2),
            resume=str(resume),
            model="openai/gpt-4o-mini",
            capability="optimizer",
            user_text="make my Acme bullets stronger",
            answer_text="I rewrote two bullets.",
            tool_calls=[ToolCallRecord(name="edit_resume", arguments={"n": 2}, result="applied")],
            diffs=["--- resume.md\n+++ resume.md\n-Did stuff\n+Cut p99 latency by 40%\n"],
            prompt_tokens=1200,
            completion_tokens=80,
            cached_tokens=900,
            cost=0.0004,
        )
    )
    first.record_turn(
        TurnRecord(
            session_id="20261120-090000-aaaaaa",
            time=NOW - timedelta(hours=2, minutes=-1),
            resume=str(resume),
            user_text="thanks",
            answer_text="You're welcome.",
        )
    )
    second = TranscriptLog()
    second.record_turn(
        TurnRecord(
            session_id="20261120-110000-bbbbbb",
            time=NOW - timedelta(minutes=5),
            resume=str(other),
            model="deepseek/deepseek-chat",
            user_text="shorten the summary",
            answer_text="Done: 3 lines instead of 5.",
        )
    )
    return resume, other


def test_log_lists_recent_sessions_newest_first(logged):
    result = cvagent("log")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.index("20261120-110000-bbbbbb") < out.index("20261120-090000-aaaaaa")
    assert "2 turns  openai/gpt-4o-mini" in out
    assert "> make my Acme bullets stronger" in out
    assert "1280" not in out and "1200 prompt + 80 completion tokens · $0.0004" in out


def test_n_limits_the_sessions(logged):
    out = cvagent("log", "-n", "1").stdout
    assert "bbbbbb" in out and "aaaaaa" not in out


def test_resume_filter_keeps_that_resumes_sessions(logged):
    resume, _ = logged
    out = cvagent("log", "--resume", str(resume)).stdout
    assert "aaaaaa" in out and "bbbbbb" not in out


def test_query_shows_matching_turns_with_tools_and_diffs(logged):
    out = cvagent("log", "-q", "p99").stdout
    assert "> make my Acme bullets stronger" in out
    assert "tool edit_resume" in out and "→ ok: applied" in out
    assert "+Cut p99 latency by 40%" in out
    assert "1200 prompt (900 cached) + 80 completion tokens" in out
    assert "shorten the summary" not in out and "thanks" not in out


def test_session_shows_every_turn_in_order(logged):
    out = cvagent("log", "--session", "20261120-0900").stdout
    assert out.index("make my Acme") < out.index("> thanks")
    assert "shorten" not in out


def test_json_lines_follow_the_models(logged):
    lines = cvagent("log", "--json").stdout.splitlines()
    sessions = [json.loads(line) for line in lines]
    assert [s["session_id"][-6:] for s in sessions] == ["bbbbbb", "aaaaaa"]
    assert all(s["schema_version"] == 1 and s["type"] == "session" for s in sessions)
    turns = [
        json.loads(line) for line in cvagent("log", "-q", "Acme", "--json").stdout.splitlines()
    ]
    assert len(turns) == 1 and turns[0]["type"] == "turn"
    TurnRecord.model_validate(
        {k: v for k, v in turns[0].items() if k not in ("type", "schema_version")}
    )


def test_empty_log_says_so():
    result = cvagent("log")
    assert result.exit_code == 0 and result.stdout.strip() == "no chat sessions logged yet"
    assert cvagent("log", "-q", "x").stdout.strip() == 'no turns match "x"'


def test_a_filter_that_finds_nothing_says_which(logged):
    """Not "no matching turns logged yet" when turns are logged."""
    out = cvagent("log", "-s", "zzz").stdout.strip()
    assert 'no turns match session "zzz"' in out and "yet" not in out
    assert cvagent("log", "-q", "zzz").stdout.strip() == 'no turns match "zzz"'


def test_sessions_are_listed_in_the_order_of_the_start_times_shown(resume):
    """A long session started first but still going is listed after one started later."""
    log = TranscriptLog()
    log.record_turn(TurnRecord(session_id="early", time=NOW - timedelta(hours=3), user_text="a"))
    log.record_turn(TurnRecord(session_id="late", time=NOW - timedelta(hours=2), user_text="b"))
    log.record_turn(TurnRecord(session_id="early", time=NOW - timedelta(hours=1), user_text="c"))
    out = cvagent("log").stdout
    assert out.index("late") < out.index("early")
    starts = [line[:16] for line in out.splitlines() if line[:2] == "20"]
    assert starts == sorted(starts, reverse=True)


def test_log_shows_tool_results_without_the_fence_tags(resume):
    """The model's data fences (`<untrusted kind="resume_diff" …>`) are not for people."""
    from cvagent_cli.truth.fencing import fence

    result = "Applied. The resume now has this change:\n" + fence("-old\n+new", "resume_diff")
    log = TranscriptLog()
    log.record_turn(
        TurnRecord(
            session_id="s",
            user_text="tighten it",
            tool_calls=[ToolCallRecord(name="edit_resume", result=result)],
        )
    )
    for args in (["log", "-q", "tighten"], ["log", "-q", "tighten", "--json"]):
        out = cvagent(*args).stdout
        assert "untrusted" not in out and "Applied." in out and "+new" in out


def test_off_and_on_write_the_config_key_and_keep_comments():
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text("# my model\nmodel: openai/gpt-4o-mini\n")
    result = cvagent("log", "off")
    assert result.exit_code == 0
    assert (
        config_path().read_text() == "# my model\nmodel: openai/gpt-4o-mini\ntranscripts: false\n"
    )
    assert load_settings().transcripts is False
    assert TranscriptLog.from_settings(load_settings()) is None
    assert "transcripts are off" in cvagent("log").stderr
    assert "transcripts off:" in cvagent("log", "status").stdout
    cvagent("log", "on")
    assert config_path().read_text() == "# my model\nmodel: openai/gpt-4o-mini\ntranscripts: true\n"
    assert load_settings().transcripts is True


def test_off_warns_when_the_environment_overrides_it():
    result = cvagent("log", "off", env={"CVAGENT_TRANSCRIPTS": "1"})
    assert result.exit_code == 0
    assert "CVAGENT_TRANSCRIPTS=1 overrides the file" in result.stderr


def test_off_refuses_to_touch_an_invalid_config_file():
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text("timeout: soon\n")
    result = cvagent("log", "off")
    assert result.exit_code == 3
    assert f"'timeout' in {config_path()} must be a number" in result.stderr
    assert config_path().read_text() == "timeout: soon\n"


def test_a_value_that_would_break_the_file_is_not_written():
    from cvagent_cli.cli.configfile import set_config_value
    from cvagent_cli.errors import ConfigError

    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text("model: m\n")
    with pytest.raises(ConfigError, match=str(config_path())):
        set_config_value("transcript_days", "zero")
    assert config_path().read_text() == "model: m\n"


def test_off_uncomments_the_templates_line_in_place(tmp_path):
    from cvagent_cli.cli.configfile import config_template, ensure_config_file

    ensure_config_file()
    cvagent("log", "off")
    text = config_path().read_text()
    assert text == config_template().replace("# transcripts: true", "transcripts: false")
