"""Message models, wire conversion, and the API's sequence rules."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cvagent_cli.agent.messages import Message, ToolCall, messages_to_wire
from tests.support.wire import ORPHAN_TOOL_ERROR, validate_sequence


def call(cid: str, name: str = "read_resume") -> ToolCall:
    return ToolCall(id=cid, name=name, arguments='{"section": "Skills"}')


def wire_call(cid: str) -> dict:
    return call(cid).to_wire()


# -- ToolCall / Message ------------------------------------------------------------------


def test_tool_call_wire_roundtrip_keeps_raw_arguments_string():
    tc = ToolCall(id="call_1", name="edit", arguments='{"a": 1}')
    wire = tc.to_wire()
    assert wire == {
        "id": "call_1",
        "type": "function",
        "function": {"name": "edit", "arguments": '{"a": 1}'},
    }
    assert ToolCall.from_wire(wire) == tc


def test_tool_call_from_wire_serialises_parsed_arguments_and_defaults_missing_ones():
    assert (
        ToolCall.from_wire({"id": "c", "function": {"name": "f", "arguments": {"a": 1}}}).arguments
        == '{"a": 1}'
    )
    assert ToolCall.from_wire({"id": "c", "function": {"name": "f"}}).arguments == "{}"


def test_factories_build_each_role():
    assert Message.system("s").to_wire() == {"role": "system", "content": "s"}
    assert Message.user("hi").to_wire() == {"role": "user", "content": "hi"}
    assert Message.assistant("ok").to_wire() == {"role": "assistant", "content": "ok"}
    assert Message.tool("result", "call_1", "read_resume").to_wire() == {
        "role": "tool",
        "content": "result",
        "tool_call_id": "call_1",
        "name": "read_resume",
    }


def test_assistant_tool_call_without_text_sends_null_content():
    wire = Message.assistant(None, [call("call_1")]).to_wire()
    assert wire["content"] is None
    assert wire["tool_calls"] == [wire_call("call_1")]
    assert Message.assistant("", [call("call_1")]).to_wire()["content"] is None


def test_plain_assistant_without_text_never_sends_null():
    assert Message.assistant(None).to_wire() == {"role": "assistant", "content": ""}


def test_to_wire_omits_none_fields():
    assert set(Message.tool("r", "call_1").to_wire()) == {"role", "content", "tool_call_id"}
    assert set(Message.user("u").to_wire()) == {"role", "content"}


def test_message_is_frozen_and_forbids_extra_fields():
    message = Message.user("hi")
    with pytest.raises(ValidationError):
        message.content = "changed"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Message(role="user", content="x", refusal=None)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"role": "user", "content": None},
        {"role": "user", "content": "x", "tool_calls": [call("c")]},
        {"role": "tool", "content": "x"},
        {"role": "assistant", "content": "x", "tool_call_id": "c"},
        {"role": "narrator", "content": "x"},
    ],
)
def test_invalid_role_field_combinations_are_refused(kwargs):
    with pytest.raises(ValidationError):
        Message(**kwargs)


def test_from_wire_ignores_provider_extras():
    data = {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "function_call": None,
        "audio": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "f", "arguments": "{}"},
                "index": 0,
            }
        ],
    }
    message = Message.from_wire(data)
    assert message.tool_call_ids == ["call_1"]
    assert message.content is None


def test_from_wire_flattens_content_parts_and_treats_empty_tool_calls_as_none():
    message = Message.from_wire(
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            "tool_calls": [],
        }
    )
    assert message.content == "ab"
    assert message.tool_calls is None


def test_wire_roundtrip_preserves_messages():
    messages = [
        Message.user("u"),
        Message.assistant("thinking", [call("c1"), call("c2")]),
        Message.tool("r1", "c1", "read_resume"),
        Message.tool("r2", "c2"),
        Message.assistant("done"),
    ]
    wire = messages_to_wire(messages)
    assert [Message.from_wire(w) for w in wire] == messages
    assert validate_sequence(wire) == []


# -- validate_sequence -------------------------------------------------------------------


def test_valid_sequence_has_no_problems():
    wire = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "u"},
        {"role": "assistant", "content": None, "tool_calls": [wire_call("a"), wire_call("b")]},
        {"role": "tool", "tool_call_id": "b", "content": "rb"},
        {"role": "tool", "tool_call_id": "a", "content": "ra"},
        {"role": "assistant", "content": "done"},
    ]
    assert validate_sequence(wire) == []


def test_tool_message_without_preceding_call_is_rejected_with_openai_wording():
    problems = validate_sequence(
        [{"role": "user", "content": "u"}, {"role": "tool", "tool_call_id": "x", "content": "r"}]
    )
    assert len(problems) == 1
    assert ORPHAN_TOOL_ERROR in problems[0]


def test_tool_message_after_an_intervening_message_is_orphan():
    wire = [
        {"role": "user", "content": "u"},
        {"role": "assistant", "content": None, "tool_calls": [wire_call("a")]},
        {"role": "user", "content": "interrupt"},
        {"role": "tool", "tool_call_id": "a", "content": "late"},
    ]
    problems = validate_sequence(wire)
    assert any("did not have response messages: a" in p for p in problems)
    assert any(ORPHAN_TOOL_ERROR in p for p in problems)


def test_tool_message_answering_a_different_call_is_rejected():
    wire = [
        {"role": "user", "content": "u"},
        {"role": "assistant", "content": None, "tool_calls": [wire_call("a")]},
        {"role": "tool", "tool_call_id": "zzz", "content": "r"},
    ]
    assert any(ORPHAN_TOOL_ERROR in p for p in validate_sequence(wire))


def test_unanswered_tool_call_at_end_of_list_is_invalid():
    wire = [
        {"role": "user", "content": "u"},
        {"role": "assistant", "content": None, "tool_calls": [wire_call("a"), wire_call("b")]},
        {"role": "tool", "tool_call_id": "a", "content": "r"},
    ]
    problems = validate_sequence(wire)
    assert problems == [
        "messages[1]: An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages: b"
    ]


def test_duplicate_ids_in_one_assistant_message_and_double_answers_are_invalid():
    wire = [
        {"role": "user", "content": "u"},
        {"role": "assistant", "content": None, "tool_calls": [wire_call("a"), wire_call("a")]},
        {"role": "tool", "tool_call_id": "a", "content": "r"},
        {"role": "tool", "tool_call_id": "a", "content": "r"},
    ]
    problems = validate_sequence(wire)
    assert any("duplicate id 'a'" in p for p in problems)
    assert any("answered more than once" in p for p in problems)


def test_reusing_an_id_in_a_later_round_is_accepted():
    round_ = [
        {"role": "assistant", "content": None, "tool_calls": [wire_call("call_0")]},
        {"role": "tool", "tool_call_id": "call_0", "content": "r"},
    ]
    assert (
        validate_sequence(
            [{"role": "user", "content": "u"}, *round_, {"role": "user", "content": "v"}, *round_]
        )
        == []
    )


def test_missing_ids_and_unknown_roles_are_reported():
    no_id = {"type": "function", "function": {"name": "f", "arguments": "{}"}}
    problems = validate_sequence(
        [
            {"role": "user", "content": "u"},
            {"role": "assistant", "content": None, "tool_calls": [no_id]},
            {"role": "tool", "content": "r"},
            {"role": "function", "content": "x"},
            {"role": ["weird"], "content": "x"},
            "not a dict",
        ]
    )
    assert any("tool_calls[0]: missing 'id'" in p for p in problems)
    assert any("missing 'tool_call_id'" in p for p in problems)
    assert any("unknown role 'function'" in p for p in problems)
    assert any("not an object" in p for p in problems)


def test_null_content_is_only_allowed_beside_tool_calls():
    assert validate_sequence([{"role": "user", "content": None}])
    assert validate_sequence(
        [{"role": "user", "content": "u"}, {"role": "assistant", "content": None}]
    )
    assert validate_sequence(
        [{"role": "user", "content": "u"}, {"role": "assistant", "content": None, "tool_calls": []}]
    )


def test_malformed_tool_call_shape_is_reported():
    bad = {"id": "a", "type": "custom", "function": {"name": "f", "arguments": {"x": 1}}}
    problems = validate_sequence(
        [
            {"role": "user", "content": "u"},
            {"role": "assistant", "content": None, "tool_calls": [bad]},
            {"role": "tool", "tool_call_id": "a", "content": "r"},
        ]
    )
    assert any("'type' must be 'function'" in p for p in problems)
    assert any("string 'name' and 'arguments'" in p for p in problems)


def test_validate_sequence_agrees_with_the_loopback_server():
    server = pytest.importorskip("tests.support.openai_server")
    if not hasattr(server, "validate_messages") or not hasattr(server, "RequestInvalid"):
        pytest.skip("loopback server has no validate_messages")
    user = {"role": "user", "content": "u"}
    calls = {"role": "assistant", "content": None, "tool_calls": [wire_call("a"), wire_call("b")]}
    ra, rb = ({"role": "tool", "tool_call_id": i, "content": "r"} for i in "ab")
    samples = [
        [user],
        [user, calls, ra, rb],
        [user, calls, rb, ra, {"role": "assistant", "content": "done"}],
        [user, calls, ra],
        [user, calls, ra, user, rb],
        [user, ra],
        [user, calls, ra, rb, rb],
        [user, {"role": "assistant", "content": None}],
        [user, {"role": "narrator", "content": "x"}],
    ]
    for sample in samples:
        try:
            server.validate_messages(sample)
            accepted = True
        except server.RequestInvalid:
            accepted = False
        assert (validate_sequence(sample) == []) == accepted, sample
