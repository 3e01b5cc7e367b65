"""Requests are ordered for prompt caches: each request starts with the bytes of the one
before it, except where new content must go (see cvagent_cli/agent/request.py)."""

from __future__ import annotations

import json

from cvagent_cli.agent.request import (
    Window,
    build_request,
    choose_window,
    current_turn_index,
    with_context,
)
from tests.agent.test_toolcall import make_agent, resume, run  # noqa: F401 - fixture
from tests.support.scripted import ScriptedModel, tool
from tests.support.wire import user_words


def serialized(messages: list[dict]) -> list[str]:
    return [json.dumps(m, ensure_ascii=False, sort_keys=True) for m in messages]


def test_consecutive_requests_share_their_whole_stable_prefix(resume):  # noqa: F811
    model = ScriptedModel(
        "Hello! What should we work on?",
        tool("read_resume", section="education"),
        "Education reads fine.",
        tool("analyze_resume"),
        "Score noted.",
    )
    agent = make_agent(resume, model)
    run(agent, "hi")
    run(agent, "is my education complete?")
    run(agent, "how does my resume score?")
    first, step1, step2, third, _ = (serialized(r["messages"]) for r in model.requests)
    # within a turn: the next step only appends (the tool call and its result)
    assert step2[: len(step1)] == step1
    # across turns: the system prompt and every earlier turn are byte-identical; only the
    # previous turn (now compacted) and the new turn's message follow
    for before, after in ((first, step1), (step2, third)):
        stable = current_turn_index(json.loads(f"[{','.join(before)}]"))
        assert after[:stable] == before[:stable]
    assert len(third) == len(first) + 4  # two compacted turns, each user + assistant


def test_the_turn_context_is_built_once_per_turn_and_left_out_of_the_history(resume):  # noqa: F811
    model = ScriptedModel(tool("analyze_resume"), "Your score is shown above.", "Thanks!")
    agent = make_agent(resume, model)
    run(agent, "analyze my Experience section")
    run(agent, "go on")
    step1, step2, later = (r["messages"] for r in model.requests)
    # the analysis changed the resume's state, but the turn's first message did not change
    assert step1[1] == step2[1] and "<turn_context>" in step1[1]["content"]
    assert "Helped with the billing service" in step1[1]["content"]  # the named section
    assert later[1] == {"role": "user", "content": "analyze my Experience section"}
    assert "last analysis:" in later[-1]["content"]  # the new turn sees the new state


def test_notes_reach_the_model_once_in_the_next_turn(resume):  # noqa: F811
    model = ScriptedModel("ok", "ok")
    agent = make_agent(resume, model)
    agent.note("the user ran /undo 1 time(s)")
    run(agent, "what changed?")
    run(agent, "and now?")
    assert "/undo" in model.requests[0]["messages"][-1]["content"]
    assert all("/undo" not in m["content"] for m in model.requests[1]["messages"])
    assert agent.notes == []


def test_read_resume_points_to_the_context_instead_of_repeating_it(resume):  # noqa: F811
    model = ScriptedModel(
        tool("read_resume", section="experience"),
        tool("read_resume", section="education"),
        "done",
    )
    agent = make_agent(resume, model)
    run(agent, "improve the Experience section")
    results = [m for m in model.requests[-1]["messages"] if m["role"] == "tool"]
    assert "already in this turn's context" in results[0]["content"]
    assert "BSc Computer Science" in results[1]["content"]  # not in the context: read


def test_summaries_and_history_change_only_when_the_window_jumps(resume):  # noqa: F811
    answers = [f"answer {i} " + "word " * 60 for i in range(10)]
    model = ScriptedModel(*answers)
    agent = make_agent(resume, model)
    agent.history_tokens = 300
    systems, firsts = [], []
    for i in range(10):
        run(agent, f"question {i}")
        messages = model.requests[-1]["messages"]
        systems.append(messages[0]["content"])
        firsts.append(messages[1]["content"])
    changes = [i for i in range(1, 10) if systems[i] != systems[i - 1]]
    assert changes, "the window never moved"
    assert all(firsts[i] != firsts[i - 1] for i in changes)  # a jump moves both together
    assert len(changes) <= 5  # in blocks, not on every turn
    assert "## Earlier turns (summaries)" in systems[-1]
    assert agent.summaries[0].startswith("question 0")


def test_choose_window_keeps_its_start_until_high_then_jumps_to_low():
    assert choose_window([100, 100, 100], Window(first=0, done=3), high=300, low=150) == 0
    assert choose_window([100, 100, 100, 100], Window(0, 4), high=300, low=150) == 3
    # turns are numbered across the session: Memory holds the last 4 of 10
    assert choose_window([100, 100, 100, 100], Window(7, 10), high=300, low=150) == 7
    # a window reaching into turns Memory no longer holds jumps instead of shrinking
    assert choose_window([100, 100], Window(5, 10), high=300, low=150) == 9
    # a turn larger than ``low`` is left to its summary
    assert choose_window([100, 900], Window(0, 2), high=300, low=150) == 2


def test_build_request_places_context_and_keeps_user_words_recoverable():
    history = [
        {"role": "user", "content": "one"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]},
        {"role": "tool", "tool_call_id": "c", "content": "r"},
        {"role": "assistant", "content": "first answer"},
        {"role": "user", "content": "two"},
    ]
    wire = build_request(system="S", history=history, window=Window(0, 1), context="C", notes=["N"])
    assert [m["role"] for m in wire] == ["system", "user", "assistant", "user"]
    assert wire[1]["content"] == "one" and wire[2]["content"] == "first answer"
    assert wire[3]["content"] == with_context("C", "two") + "\n\nN"
    assert user_words(with_context("C", "two")) == "two"
    assert user_words("<turn_context> typed by the user") == "<turn_context> typed by the user"


def test_the_next_request_repeats_the_turn_up_to_the_end_of_the_words():
    """The context block follows the words, so compacting the finished turn (which drops
    the block) leaves the next request repeating the last one through the words."""
    history = [{"role": "user", "content": "shorten my summary please"}]
    first = build_request(system="S", history=history, window=Window(0, 0), context="C")
    history += [{"role": "assistant", "content": "done"}, {"role": "user", "content": "next"}]
    second = build_request(system="S", history=history, window=Window(0, 1), context="D")
    sent, kept = json.dumps(first[1]), json.dumps(second[1])
    assert sent.startswith(kept[: kept.rindex('"')])  # all of the words, unquoted


def test_the_turn_context_states_progress_briefly(resume):  # noqa: F811
    model = ScriptedModel(
        tool(
            "edit_resume",
            old_text="Helped with the billing service",
            new_text="Built billing",
            reason="verb first",
        ),
        tool(
            "edit_resume",
            old_text="Worked on the API",
            new_text="Shipped the API",
            reason="outcome",
        ),
        tool(
            "edit_resume",
            old_text="BSc Computer Science",
            new_text="B.Sc. Computer Science",
            reason="style",
        ),
        "Three edits applied.",
        "ok",
    )
    agent = make_agent(resume, model, auto_apply=True)
    run(agent, "fix it all")
    run(agent, "blah")  # the classifier has no intent for this
    context = model.requests[-1]["messages"][-1]["content"]
    # the count and the latest two reasons, not the whole list on every turn
    assert "edits applied this session (still in place): 3, latest: outcome; style" in context
    assert "verb first" not in context
    assert "intent: UNKNOWN" not in context  # an intent that says nothing is not sent


def test_summaries_keep_their_turn_numbers_across_a_save(resume):  # noqa: F811
    agent = make_agent(resume, ScriptedModel())
    agent.restore_state({"summaries": ["older", "newer"], "turns_done": 5})  # the old format
    assert agent.summaries == {3: "older", 4: "newer"}
    assert agent._summaries_before(4) == ["older"] and agent._summaries_before(9) == [
        "older",
        "newer",
    ]
    again = make_agent(resume, ScriptedModel())
    again.restore_state(agent.export_state())
    assert again.summaries == agent.summaries and again.turns_done == 5
