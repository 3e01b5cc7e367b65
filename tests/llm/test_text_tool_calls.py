"""Tool calls written as text are read as calls only when the reply is nothing else."""

from __future__ import annotations

import json

import pytest

from cvagent_cli.llm.text_tool_calls import offered_names, parse_text_tool_calls

NAMES = ["read_resume", "edit_resume"]
ARGS = {"section": "Work Experience"}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"name": "read_resume", "parameters": ARGS}),
        json.dumps({"name": "read_resume", "arguments": ARGS}),
        json.dumps({"name": "read_resume", "arguments": json.dumps(ARGS)}),
        "```json\n" + json.dumps({"name": "read_resume", "parameters": ARGS}) + "\n```",
        "<tool_call>\n" + json.dumps({"name": "read_resume", "arguments": ARGS}) + "\n</tool_call>",
        json.dumps({"type": "function", "function": {"name": "read_resume", "arguments": ARGS}}),
        "  " + json.dumps([{"name": "read_resume", "parameters": ARGS}]) + "\n",
    ],
    ids=["parameters", "arguments", "string-args", "fence", "hermes-tag", "openai-shape", "list"],
)
def test_a_reply_that_is_only_a_call_is_read_as_that_call(text):
    (call,) = parse_text_tool_calls(text, NAMES)
    assert call.name == "read_resume" and json.loads(call.arguments) == ARGS
    assert call.id.startswith("call_")


def test_several_calls_keep_their_order():
    text = "\n".join(
        f"<tool_call>{json.dumps({'name': n, 'arguments': {}})}</tool_call>" for n in NAMES
    )
    assert [c.name for c in parse_text_tool_calls(text, NAMES)] == NAMES


@pytest.mark.parametrize(
    "text",
    [
        "Here is the JSON you asked for: " + json.dumps({"name": "read_resume"}),
        json.dumps({"name": "delete_everything", "parameters": {}}),  # not offered
        json.dumps({"name": "Ada Lovelace", "email": "ada@example.com"}),  # resume data
        json.dumps({"name": "read_resume", "parameters": ["not", "an", "object"]}),
        "<tool_call>{broken json</tool_call>",
        "I will read the resume first.",
        "",
    ],
)
def test_anything_else_stays_an_answer(text):
    assert parse_text_tool_calls(text, NAMES) == []


def test_nothing_is_read_when_no_tools_were_offered():
    assert parse_text_tool_calls(json.dumps({"name": "read_resume"}), []) == []
    assert offered_names(None) == []
    assert offered_names([{"type": "function", "function": {"name": "x"}}]) == ["x"]
