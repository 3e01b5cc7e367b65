"""``cvagent chat … --json``: one schema-valid JSON object per event on stdout."""

from __future__ import annotations

import json

import pytest

from cvagent_cli.ui.jsonlines import EVENT_FIELDS, SCHEMA_VERSION, schema_problems
from tests.cli.conftest import SAMPLE, SUMMARY_NEW, SUMMARY_OLD, run_chat
from tests.cli.test_chat_modes import EDIT_REQUEST, script_edit


def events_of(stdout: bytes) -> list[dict]:
    lines = stdout.decode("utf-8").splitlines()
    objects = [json.loads(line) for line in lines]  # every stdout line is JSON
    for obj in objects:
        assert schema_problems(obj) == [], obj
    return objects


@pytest.mark.slow
def test_an_edit_turn_is_a_stream_of_schema_valid_events(server, chat_env, resume):
    script_edit(server)
    proc = run_chat([str(resume), "-m", EDIT_REQUEST, "--yes", "--json"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    events = events_of(proc.stdout)
    kinds = [e["type"] for e in events]
    for kind in ("intent", "tool_call", "tool_result", "proposed_edit", "edit_outcome", "usage"):
        assert kind in kinds, kinds
    assert kinds[-1] == "done" and events[-1]["edits_applied"] == 1
    edit = next(e for e in events if e["type"] == "proposed_edit")
    assert SUMMARY_OLD in edit["diff"] and SUMMARY_NEW in edit["diff"]
    outcome = next(e for e in events if e["type"] == "edit_outcome")
    assert outcome["applied"] is True
    assert all(e["schema_version"] == SCHEMA_VERSION for e in events)
    assert SUMMARY_NEW in resume.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_flagged_edit_carries_its_flags_and_stays_pending(server, chat_env, resume):
    from tests.support.openai_server import Reply, tool_calls

    invented = {"old_text": SUMMARY_OLD, "new_text": SUMMARY_OLD + " Cut costs 73%."}
    server.enqueue(tool_calls(("edit_resume", invented)), Reply(text="Proposed."))
    proc = run_chat([str(resume), "-m", EDIT_REQUEST, "--yes", "--json"], chat_env)
    events = events_of(proc.stdout)
    edit = next(e for e in events if e["type"] == "proposed_edit")
    assert edit["flags"] and any("73%" in f["message"] for f in edit["flags"])
    done = next(e for e in events if e["type"] == "done")
    assert done["pending_edits"] == [edit["id"]] and done["edits_applied"] == 0


@pytest.mark.slow
def test_a_resume_from_stdin_comes_back_as_the_last_event(server, chat_env):
    script_edit(server)
    original = SAMPLE.read_bytes()
    proc = run_chat(["-", "-m", EDIT_REQUEST, "--yes", "--json"], chat_env, stdin=original)
    assert proc.returncode == 0, proc.stderr.decode()
    events = events_of(proc.stdout)
    assert events[-1]["type"] == "resume" and SUMMARY_NEW in events[-1]["text"]


def test_json_needs_messages_to_send(monkeypatch, resume):
    import pytest

    from cvagent_cli.cli import chat_runner
    from cvagent_cli.cli.chat_request import ChatRequest
    from cvagent_cli.errors import UsageError

    monkeypatch.setattr(chat_runner, "_isatty", lambda stream: True)  # a terminal, no -m
    with pytest.raises(UsageError, match="--json is for scripts"):
        chat_runner.run_chat(ChatRequest(str(resume), read_only=True, json_out=True))


def test_every_event_type_is_documented_in_the_reference():
    from tests.conftest import ROOT

    page = (ROOT / "docs/reference/chat-json-events.md").read_text(encoding="utf-8")
    for kind, fields in EVENT_FIELDS.items():
        assert f"| `{kind}` |" in page, kind
        for name in fields:
            assert f"`{name}`" in page, (kind, name)


@pytest.mark.slow
def test_a_loop_cut_after_it_was_streamed_is_retracted_to_the_final_text(server, chat_env, resume):
    from tests.support.openai_server import Reply

    loop = "- Led the migration of the billing service to Kafka, cutting latency by 40%.\n"
    server.enqueue(Reply(text="Try this:\n\n" + loop * 100, chunk_delay=0.001))
    proc = run_chat([str(resume), "-m", "rewrite my first bullet", "--json"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    events = events_of(proc.stdout)
    text = "".join(e["text"] for e in events if e["type"] == "text")
    (retract,) = [e for e in events if e["type"] == "retract"]
    done = events[-1]
    assert len(text) > len(done["final_text"])  # more was streamed than kept …
    assert retract["kept"] + retract["removed"] == len(text)
    assert text[: retract["kept"]] == done["final_text"]  # … and the retract says how much
