"""Chat turns reach the transcript log (``cvagent log``) as the user saw them."""

from __future__ import annotations

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.compose import build_session
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.store.transcripts import TranscriptLog
from tests.support.scripted import ScriptedModel, tool


def apply(edit: ev.ProposedEdit) -> ev.Decision:
    return ev.Decision(ev.Action.APPLY)


def test_every_turn_of_two_sessions_is_logged_with_tools_diffs_and_usage(tmp_path, resume):
    log = TranscriptLog(tmp_path / "log.sqlite3")
    old = "Backend engineer with 10 years"
    model = ScriptedModel(
        tool("edit_resume", old_text=old, new_text="Backend engineer, 10 years", reason="tighter"),
        "Tightened the summary.",
        "Hello again.",
    )
    first = build_session(client=model, doc=ResumeDocument.from_path(resume), transcript=log)
    list(first.ask("tighten my summary", apply))
    first.close()
    second = build_session(client=model, doc=ResumeDocument.from_path(resume), transcript=log)
    list(second.ask("hi", apply))
    second.close()

    sessions = log.sessions()
    assert {s.session_id for s in sessions} == {first.session_id, second.session_id}
    (edit_turn,) = log.turns(session_id=first.session_id)
    assert edit_turn.user_text == "tighten my summary"
    assert edit_turn.answer_text == "Tightened the summary."
    assert [(c.name, c.ok) for c in edit_turn.tool_calls] == [("edit_resume", True)]
    assert edit_turn.tool_calls[0].arguments["old_text"] == old
    assert len(edit_turn.diffs) == 1 and "+Backend engineer, 10 years" in edit_turn.diffs[0]
    assert edit_turn.prompt_tokens > 0 and edit_turn.capability == "base"
    assert edit_turn.model == model.model and edit_turn.resume == str(resume)
    (hello,) = log.turns(session_id=second.session_id)
    assert hello.answer_text == "Hello again." and hello.tool_calls == []


def test_without_a_log_nothing_is_written(tmp_path, resume):
    session = build_session(client=ScriptedModel("Hi."), doc=ResumeDocument.from_path(resume))
    list(session.ask("hi"))
    session.close()
    assert session.transcript is None and not list(tmp_path.glob("**/*.sqlite3"))
