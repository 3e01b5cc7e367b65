"""The think()/act() loop, driven by a scripted model that validates every request."""

from __future__ import annotations

import shutil

import pytest

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.memory import Memory
from cvagent_cli.agent.registry import CapabilityRegistry
from cvagent_cli.agent.resume_agent import ResumeAgent
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import ContextWindowError, ModelError
from cvagent_cli.store.undo import UndoLog
from cvagent_cli.tools.agent_tools import default_tools
from cvagent_cli.workspace import Workspace
from tests.conftest import SAMPLES
from tests.support.scripted import Call, Reply, ScriptedModel, tool
from tests.support.wire import user_words, validate_sequence

RESUME = """# Ann Lee
ann@example.com | +1 555-123-4567 | github.com/annlee

## Experience
### Acme Corp — Backend Engineer
- Helped with the billing service
- Worked on the API

## Education
- BSc Computer Science, 2018
"""


@pytest.fixture
def resume(tmp_path):
    path = tmp_path / "resume.md"
    path.write_text(RESUME, encoding="utf-8")
    return path


def make_agent(resume, model, *, capability="base", auto_apply=False, max_steps=10, memory=None):
    doc = ResumeDocument.from_path(resume)
    workspace = Workspace(doc, undo=UndoLog(resume.parent / "undo.json"))
    return ResumeAgent(
        registry=CapabilityRegistry.load(),
        capability=capability,
        client=model,
        tools=default_tools(),
        workspace=workspace,
        memory=memory or Memory(50),
        max_steps=max_steps,
        auto_apply=auto_apply,
    )


def run(agent, text, approve=None):
    return list(agent.run(text, approve))


def apply_all(edit):
    return ev.Decision(ev.Action.APPLY)


def assert_all_requests_valid(model):
    for request in model.requests:
        assert validate_sequence([m for m in request["messages"] if m["role"] != "system"]) == []


def test_text_only_answer_ends_the_turn(resume):
    model = ScriptedModel("Hello! How can I help with your resume?")
    agent = make_agent(resume, model)
    events = run(agent, "hi")
    done = events[-1]
    assert isinstance(done, ev.Done) and done.reason == "text" and done.steps == 1
    assert "".join(e.text for e in events if isinstance(e, ev.TextDelta)) == done.final_text
    assert [m.role for m in agent.memory.messages] == ["user", "assistant"]


def test_read_then_edit_applies_atomically_and_records_undo(resume):
    model = ScriptedModel(
        tool("read_resume", section="experience/acme-corp-backend-engineer"),
        tool(
            "edit_resume",
            old_text="- Worked on the API",
            new_text="- Built the public API",
            reason="stronger verb",
        ),
        "Done: the API bullet now starts with a strong verb.",
    )
    agent = make_agent(resume, model)
    events = run(agent, "make the API bullet stronger", apply_all)
    assert "- Built the public API\n" in resume.read_text(encoding="utf-8")
    outcome = next(e for e in events if isinstance(e, ev.EditOutcome))
    assert outcome.applied and "+- Built the public API" in outcome.diff
    tool_messages = [m for m in agent.memory.messages if m.role == "tool"]
    assert tool_messages[0].content.startswith("<untrusted")
    assert tool_messages[1].content.startswith("Applied.")
    # the model is told the hunk with one line around it, without the file header
    told = tool_messages[1].content
    assert "-- Worked on the API\n+- Built the public API\n" in told
    assert "--- a/" not in told and "@@ -6,3 +6,3 @@" in told
    assert "Helped with the billing service" in told and "### Acme Corp" not in told
    assert agent.workspace.undo.done[-1].before == RESUME
    assert_all_requests_valid(model)
    undo = agent.workspace.undo_last()
    assert undo.applied and resume.read_text(encoding="utf-8") == RESUME


def test_rejected_edit_is_reported_to_the_model_and_file_untouched(resume):
    model = ScriptedModel(
        tool("edit_resume", old_text="- Worked on the API", new_text="- Built the API"),
        "OK, what would you prefer?",
    )
    agent = make_agent(resume, model)
    run(agent, "fix the API bullet", lambda e: ev.Decision(ev.Action.REJECT, note="keep it"))
    assert resume.read_text(encoding="utf-8") == RESUME
    assert "rejected this edit. Their note: keep it" in agent.memory.messages[2].content


def test_without_an_approver_edits_are_only_proposed(resume):
    model = ScriptedModel(
        tool("edit_resume", old_text="- Worked on the API", new_text="- Built the API"), "Proposed."
    )
    agent = make_agent(resume, model)
    done = run(agent, "fix the API bullet")[-1]
    assert resume.read_text(encoding="utf-8") == RESUME
    assert len(done.pending_edits) == 1 and done.edits_applied == 0


def test_flagged_edit_is_never_applied_automatically(resume):
    model = ScriptedModel(
        tool(
            "edit_resume",
            old_text="- Worked on the API",
            new_text="- Built the API, cutting latency by 40%",
        ),
        "Proposed.",
    )
    agent = make_agent(resume, model, auto_apply=True)
    asked = []
    done = run(
        agent, "fix the API bullet", lambda e: asked.append(e) or ev.Decision(ev.Action.DEFER)
    )[-1]
    assert resume.read_text(encoding="utf-8") == RESUME
    assert asked and asked[0].flags and "40%" in asked[0].flags[0].message
    assert "needs the user's confirmation" in agent.memory.messages[2].content
    assert done.pending_edits


@pytest.mark.parametrize(
    "reply, expected",
    [
        (Reply(calls=[Call("edit_resume", '{"old_text": "x", ')]), "not valid JSON"),
        (Reply(calls=[Call("delete_everything", {})]), "unknown tool 'delete_everything'"),
        (Reply(calls=[Call("edit_resume", {"old_text": 3})]), "old_text: expected text, got 3"),
        (Reply(calls=[Call("read_resume", {"section": "nope"})]), "no section 'nope'"),
        (
            Reply(calls=[Call("read_resume", {"path": "/etc/passwd"})]),
            "path: no such parameter",
        ),
    ],
)
def test_model_mistakes_become_tool_results_and_the_loop_continues(resume, reply, expected):
    model = ScriptedModel(reply, "Sorry, let me answer directly.")
    agent = make_agent(resume, model)
    events = run(agent, "help")
    result = next(e for e in events if isinstance(e, ev.ToolResultEvent))
    assert not result.ok and expected in result.content
    assert events[-1].reason == "text"
    assert_all_requests_valid(model)


def test_tool_outside_the_capability_policy_is_refused_at_execution(resume):
    model = ScriptedModel(
        tool(
            "batch_edit_resume", edits=[{"old_text": "- Worked on the API", "new_text": "- Built"}]
        ),
        "ok",
    )
    agent = make_agent(resume, model, capability="star")
    events = run(agent, "rewrite everything")
    result = next(e for e in events if isinstance(e, ev.ToolResultEvent))
    assert "not allowed" in result.content
    assert "batch_edit_resume" not in [t["function"]["name"] for t in model.requests[0]["tools"]]
    assert resume.read_text(encoding="utf-8") == RESUME


def test_a_tool_exception_is_a_tool_result(resume, monkeypatch):
    from cvagent_cli.tools import resume_tools

    def boom(self, args, ctx):
        raise RuntimeError("kaput")

    monkeypatch.setattr(resume_tools.ReadResume, "run", boom)
    model = ScriptedModel(tool("read_resume"), "I could not read it.")
    events = run(make_agent(resume, model), "read it")
    assert (
        "RuntimeError: kaput"
        in next(e for e in events if isinstance(e, ev.ToolResultEvent)).content
    )


def test_terminate_ends_the_turn(resume):
    model = ScriptedModel(tool("terminate", status="success"))
    done = run(make_agent(resume, model), "that's all")[-1]
    assert done.reason == "terminate" and len(model.requests) == 1


def test_max_steps_stops_the_turn_with_a_notice(resume):
    model = ScriptedModel(
        *[
            tool("read_resume", section=s)
            for s in ["experience", "education", "experience", "education"]
        ]
    )
    events = run(make_agent(resume, model, max_steps=3), "loop")
    assert events[-1].reason == "max_steps" and len(model.requests) == 3
    assert any(isinstance(e, ev.Notice) and "max_steps" in e.text for e in events)


def test_repeated_identical_tool_calls_get_a_hint_then_a_stop(resume):
    model = ScriptedModel(*[tool("read_resume", section="experience")] * 5)
    agent = make_agent(resume, model)
    events = run(agent, "read")
    assert events[-1].reason == "stuck"
    assert any(isinstance(e, ev.ErrorEvent) and "repeating" in e.message for e in events)
    assert "repeated exactly the same tool call" in model.requests[2]["messages"][-1]["content"]
    assert validate_sequence(agent.memory.to_wire()) == []


def test_cancelling_mid_stream_leaves_memory_valid(resume):
    model = ScriptedModel(
        Reply(text="A long answer that is being streamed", calls=[Call("read_resume", {})]),
        "Next answer.",
    )
    agent = make_agent(resume, model)
    stream = agent.run("tell me")
    for event in stream:
        if isinstance(event, ev.TextDelta):
            break
    stream.close()  # what the REPL does on Ctrl-C
    assert validate_sequence(agent.memory.to_wire()) == []
    run(agent, "again")
    assert_all_requests_valid(model)


def test_cancelling_between_tool_calls_discards_the_half_answered_call(resume):
    model = ScriptedModel(
        Reply(calls=[Call("read_resume", {}), Call("analyze_resume", {})]), "fine"
    )
    agent = make_agent(resume, model)
    stream = agent.run("read and analyze")
    for event in stream:
        if isinstance(event, ev.ToolResultEvent):
            break
    stream.close()
    assert agent.memory.pending_tool_call_ids() == []
    assert validate_sequence(agent.memory.to_wire()) == []
    run(agent, "again")
    assert_all_requests_valid(model)


def test_model_error_is_an_event_and_the_next_request_is_valid(resume):
    model = ScriptedModel(
        Reply(error=ModelError("server said 503", hint="try later")), "Back again."
    )
    agent = make_agent(resume, model)
    events = run(agent, "hello?")
    assert any(isinstance(e, ev.ErrorEvent) and "503" in e.message for e in events)
    assert events[-1].reason == "error"
    assert run(agent, "hello again")[-1].final_text == "Back again."
    assert_all_requests_valid(model)


def test_context_window_error_trims_the_oldest_turn_and_retries_once(resume):
    model = ScriptedModel("one", "two", Reply(error=ContextWindowError("too long")), "three")
    agent = make_agent(resume, model)
    run(agent, "first")
    run(agent, "second")
    events = run(agent, "third")
    assert any(isinstance(e, ev.Notice) and "oldest turn" in e.text for e in events)
    assert events[-1].final_text == "three"
    assert "first" not in [m["content"] for m in model.requests[-1]["messages"]]


def test_use_capability_rebuilds_prompt_and_tools_in_the_same_turn(resume):
    model = ScriptedModel(
        tool("use_capability", name="star", reason="story"),
        "Let's start: what did the billing service do?",
    )
    agent = make_agent(resume, model)
    events = run(agent, "help me tell the billing story")
    assert any(isinstance(e, ev.CapabilitySwitched) and e.new == "star" for e in events)
    second = model.requests[1]
    assert "Capability: star" in second["messages"][0]["content"]
    assert "batch_edit_resume" not in [t["function"]["name"] for t in second["tools"]]


def test_star_stage_moves_through_update_progress_and_persists(resume):
    model = ScriptedModel(tool("update_progress", stage="DRAFTING"), "Draft: …")
    agent = make_agent(resume, model, capability="star")
    events = run(agent, "here are my numbers")
    assert any(isinstance(e, ev.StageChanged) and e.stage == "DRAFTING" for e in events)
    state = agent.export_state()
    fresh = make_agent(resume, ScriptedModel())
    fresh.restore_state(state)
    assert fresh.capability.name == "star" and fresh.stage.current == "DRAFTING"


def test_untrusted_text_is_fenced_in_the_turn_context(resume):
    model = ScriptedModel("ok")
    run(make_agent(resume, model), "improve the Experience section")
    system, *_, request = model.requests[0]["messages"]
    assert "experience/acme-corp-backend-engineer" in system["content"]  # the outline
    words, context = request["content"].split("\n\n<turn_context>\n")
    assert words == "improve the Experience section"
    assert '<untrusted kind="resume"' in context and "Helped with the billing service" in context


def test_load_resume_intent_loads_without_a_model_call(resume, tmp_path):
    other = tmp_path / "other.md"
    shutil.copy(SAMPLES / "en_new_grad.md", other)
    model = ScriptedModel()
    agent = make_agent(resume, model)
    events = run(agent, f"load {other}")
    assert model.requests == [] and agent.workspace.doc.path == other
    assert any(isinstance(e, ev.Notice) and "loaded" in e.text for e in events)


def test_earlier_turns_are_sent_compacted_without_their_tool_traffic(resume):
    model = ScriptedModel(tool("read_resume"), "read it", "second answer")
    agent = make_agent(resume, model)
    run(agent, "read my resume")
    run(agent, "thanks, and now?")
    last = model.requests[-1]["messages"]
    assert [m["role"] for m in last] == ["system", "user", "assistant", "user"]
    assert last[1]["content"] == "read my resume" and last[2]["content"] == "read it"
    assert len(agent.memory) == 6  # Memory itself keeps everything


def test_history_budget_keeps_the_newest_turns_and_the_current_one_whole(resume):
    model = ScriptedModel(*[f"answer {i} " + "x" * 400 for i in range(12)])
    agent = make_agent(resume, model)
    agent.history_tokens = 400
    for i in range(12):
        run(agent, f"question {i}")
    last = model.requests[-1]["messages"]
    users = [user_words(m["content"]) for m in last if m["role"] == "user"]
    assert users[-1] == "question 11" and "question 10" in users and "question 0" not in users
    assert validate_sequence(last[1:]) == []


def test_an_edit_a_windows_1252_file_cannot_store_is_refused_not_crashed(tmp_path):
    path = tmp_path / "cv.md"
    path.write_bytes("# Zoë Martin\n\n## Summary\n\n- Café owner \u2013 5 years\n".encode("cp1252"))
    model = ScriptedModel(
        tool("edit_resume", old_text="Café owner", new_text="Café owner 咖啡"), "Sorry."
    )
    agent = make_agent(path, model, auto_apply=True)
    events = run(agent, "add the Chinese name of my café")
    (result,) = [e for e in events if isinstance(e, ev.ToolResultEvent)]
    assert not result.ok and "cannot store 咖 啡" in result.content
    assert path.read_bytes().decode("cp1252").startswith("# Zoë Martin")
    workspace = agent.workspace
    outcome = workspace.apply(workspace.doc.text, workspace.doc.text + "中\n", "user typed it")
    assert not outcome.applied and "cp1252, which cannot store 中" in outcome.message


LOOP = "Led the migration of the billing service to Kafka, cutting latency by 40%. "


def test_a_reply_stuck_in_a_loop_is_stopped_kept_once_and_the_model_told(resume):
    model = ScriptedModel("Here is a stronger bullet:\n\n" + LOOP * 50, "Short answer.")
    agent = make_agent(resume, model)
    events = run(agent, "rewrite my first bullet")
    shown = "".join(e.text for e in events if isinstance(e, ev.TextDelta))
    assert len(shown) < len(LOOP) * 5  # stopped while streaming, not after 50 copies
    assert len([e for e in events if isinstance(e, ev.Notice) and "repeating" in e.text]) == 1
    done = events[-1]
    assert done.final_text == "Here is a stronger bullet:\n\n" + LOOP.rstrip()
    assert agent.memory.messages[-1].content == done.final_text
    run(agent, "and now?")
    assert "started repeating" in model.requests[-1]["messages"][-1]["content"]


@pytest.mark.parametrize(
    "echo",
    [
        "<turn_context>\n## Task context\ncurrent request intent: EDIT\n",
        "&lt;turn_context&gt;\n## Task context\n",  # a server template escaped the prompt
        '### Summary\n<untrusted kind="resume" section="summary">\nData analyst',
    ],
)
def test_a_reply_that_copies_its_prompt_is_cut_where_the_copy_begins(resume, echo):
    answer = "To make your summary stronger, add one measurable result.\n\n"
    model = ScriptedModel(answer + echo + "more of the prompt " * 40, "Short answer.")
    agent = make_agent(resume, model)
    events = run(agent, "make my summary stronger")
    shown = "".join(e.text for e in events if isinstance(e, ev.TextDelta))
    kept = answer.rstrip() if "untrusted" not in echo else (answer + "### Summary").rstrip()
    assert shown.rstrip() == kept  # not one character of the copy reached the screen
    notices = [e.text for e in events if isinstance(e, ev.Notice)]
    assert len([n for n in notices if "copying cvagent's instructions" in n]) == 1
    assert events[-1].final_text == kept
    assert agent.memory.messages[-1].content == kept
    (usage,) = [e for e in events if isinstance(e, ev.UsageEvent)]  # the stopped call is billed
    assert usage.prompt_tokens > 0 and usage.session_prompt_tokens >= usage.prompt_tokens
    assert not [n for n in notices if "empty answer" in n]
    run(agent, "and now?")
    assert "began copying the turn context" in model.requests[-1]["messages"][-1]["content"]


def test_a_reply_that_is_only_a_copy_of_its_prompt_says_so_once(resume):
    model = ScriptedModel("<turn_context>\n## Task context\n" * 30)
    events = run(make_agent(resume, model), "make my summary stronger")
    assert not [e for e in events if isinstance(e, ev.TextDelta)]
    notices = [e.text for e in events if isinstance(e, ev.Notice)]
    assert notices == [
        "stopped the answer: the model began copying cvagent's instructions back "
        "(before it said anything)"
    ]


def test_an_answer_cut_by_the_output_cap_says_so(resume):
    model = ScriptedModel(Reply(text="A long answer that", finish_reason="length"))
    events = run(make_agent(resume, model), "explain everything")
    assert any(isinstance(e, ev.Notice) and "max_tokens" in e.text for e in events)


def test_a_turn_past_its_time_budget_stops_between_steps(resume, monkeypatch):
    import cvagent_cli.agent.toolcall_agent as toolcall

    now = [0.0]
    monkeypatch.setattr(toolcall.time, "monotonic", lambda: now[0])
    model = ScriptedModel(tool("read_resume"), "never reached")
    stream = model.stream

    def slow_stream(*args, **kwargs):
        yield from stream(*args, **kwargs)
        now[0] += 1000  # the first step took 1000 s

    model.stream = slow_stream
    agent = make_agent(resume, model)
    agent.turn_timeout = 60
    events = run(agent, "read my resume")
    assert len(model.requests) == 1
    assert any(isinstance(e, ev.Notice) and "turn_timeout" in e.text for e in events)
    assert events[-1].reason == "timeout"
    assert validate_sequence(agent.memory.to_wire()) == []


def test_an_edit_turned_back_to_the_original_text_is_no_edit(resume):
    model = ScriptedModel(
        tool("edit_resume", old_text="Worked on the API", new_text="Built the public API"),
        "Done.",
    )
    agent = make_agent(resume, model)
    original = resume.read_text(encoding="utf-8")
    events = run(agent, "improve the API bullet", lambda e: ev.Decision(ev.Action.APPLY, e.before))
    (outcome,) = [e for e in events if isinstance(e, ev.EditOutcome)]
    assert not outcome.applied and "unchanged" in outcome.message
    assert resume.read_text(encoding="utf-8") == original
    assert agent.workspace.session_edits() == [] and events[-1].edits_applied == 0
    told = [m for m in model.requests[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "back to the original text" in told


@pytest.mark.parametrize("how", ["deleted", "moved"])
def test_a_resume_moved_or_deleted_while_an_edit_waits_is_not_recreated(resume, how):
    def approve_after_the_file_went(edit):
        if how == "deleted":
            resume.unlink()
        else:
            resume.rename(resume.with_name("moved.md"))
        return ev.Decision(ev.Action.APPLY)

    model = ScriptedModel(
        tool("edit_resume", old_text="Worked on the API", new_text="Built the public API"),
        "Done.",
    )
    agent = make_agent(resume, model)
    events = run(agent, "improve the API bullet", approve_after_the_file_went)
    (outcome,) = [e for e in events if isinstance(e, ev.EditOutcome)]
    assert not outcome.applied and "no longer there" in outcome.message
    assert "/save PATH" in outcome.message
    assert not resume.exists()  # no new file where the resume used to be
    assert agent.workspace.undo_last().applied is False
