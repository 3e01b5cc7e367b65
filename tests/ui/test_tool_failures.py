"""A failed tool call, as the user reads it (issue 34, item 25): what happened in their
words, whole; the instructions written for the model ("include more surrounding text",
"send a JSON object") stay in the tool result the model reads."""

from __future__ import annotations

import json

import pytest

from cvagent_cli.llm.types import ModelResponse, ToolCallRequest
from tests.ui.test_repl_commands import make_repl

MODEL_WORDS = ("old_text", "JSON object", "surrounding text", "read_resume", "Error:", "…")


def call(name: str, arguments: str) -> ModelResponse:
    return ModelResponse("", [ToolCallRequest("call_1", name, arguments)])


def failed_line(resume, reply: ModelResponse) -> tuple[str, list[dict]]:
    """The ✗ line of a turn whose one tool call fails (joined when wrapped at 60 columns),
    and what the model was sent back."""
    repl, out, client = make_repl(resume, ["fix it"], [reply, ModelResponse("Sorry.")])
    repl.console.width = 60
    assert repl.run() == 0
    repl.session.close()
    text = out.getvalue()
    start = text.index("  ✗ ")
    end = text.index("Sorry.")
    return " ".join(text[start:end].split()), client.requests[-1]


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        (
            call("edit_resume", json.dumps({"old_text": "Python", "new_text": "Go"})),
            "✗ edit not proposed: the text to change occurs 5 times in the resume "
            "(lines 8, 16, 27, 37, 52)",
        ),
        (
            call("edit_resume", json.dumps({"old_text": "Fortran 77", "new_text": "Go"})),
            "✗ edit not proposed: the text to change is not in the resume",
        ),
        (
            call("edit_resume", '{"old_text": "Python", "new_text'),
            "✗ the model sent its arguments in broken JSON",
        ),
        (
            call("edit_resume", json.dumps({"new_text": "Go"})),
            "✗ the model's arguments did not fit the tool (old_text)",
        ),
        (
            call("read_resume", json.dumps({"section": "Hobbies"})),
            "✗ the model asked for a section the resume does not have",
        ),
    ],
    ids=["twice", "absent", "broken-json", "missing-field", "no-section"],
)
def test_a_failed_tool_call_is_told_in_the_users_words_and_whole(resume, reply, shown):
    line, sent = failed_line(resume, reply)
    assert line == shown
    # the model still gets its instructions
    tool_message = next(m for m in sent if m["role"] == "tool")
    assert tool_message["content"].startswith("Error: ")


def test_the_model_words_never_reach_the_line(resume):
    reply = call("edit_resume", json.dumps({"old_text": "Python", "new_text": "Go"}))
    line, _ = failed_line(resume, reply)
    # the field name in the arguments line above is the model's; the ✗ line is the user's
    assert not any(word in line for word in MODEL_WORDS), line
