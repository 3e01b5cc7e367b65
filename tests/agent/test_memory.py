"""Memory: whole-turn trimming, tool-call pairing, repair of interrupted sequences.

Documented decision for oversized groups: the window always keeps the newest turn's user
message and its newest group (assistant message + all its tool results).  If those two
alone exceed ``max_messages`` the window holds them anyway (one turn, one group) rather
than split the group (unsendable) or drop the request (the model would lose the task).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cvagent_cli.agent.memory import Memory, cleanup_incomplete_sequences
from cvagent_cli.agent.messages import Message, ToolCall
from tests.support.wire import UNANSWERED_ERROR, validate_sequence


def tc(cid: str) -> ToolCall:
    return ToolCall(id=cid, name="read_resume", arguments="{}")


def tool_round(prefix: str, n: int = 1, text: str | None = None) -> list[Message]:
    ids = [f"{prefix}{i}" for i in range(n)]
    return [Message.assistant(text, [tc(i) for i in ids])] + [
        Message.tool(f"result {i}", i, "read_resume") for i in ids
    ]


def add_all(memory: Memory, messages: list[Message]) -> None:
    for message in messages:
        memory.add(message)


def turn(label: str, rounds: int = 0) -> list[Message]:
    messages = [Message.user(f"ask {label}")]
    for r in range(rounds):
        messages += tool_round(f"{label}-{r}-")
    return messages + [Message.assistant(f"answer {label}")]


# -- basic container behaviour -------------------------------------------------------------


def test_messages_is_a_copy_and_len_clear_work():
    memory = Memory()
    add_all(memory, turn("a"))
    copy = memory.messages
    copy.clear()
    assert len(memory) == 2
    memory.clear()
    assert len(memory) == 0 and memory.to_wire() == []


def test_max_messages_must_be_positive():
    with pytest.raises(ValueError):
        Memory(max_messages=0)


def test_system_messages_are_rejected():
    with pytest.raises(ValueError, match="system"):
        Memory().add(Message.system("you are a resume copilot"))


def test_conversation_must_start_with_a_user_message():
    with pytest.raises(ValueError, match="start with a user"):
        Memory().add(Message.assistant("hello"))


def test_tool_result_that_answers_no_pending_call_is_rejected():
    memory = Memory()
    memory.add(Message.user("u"))
    with pytest.raises(ValueError, match="answers no pending"):
        memory.add(Message.tool("r", "ghost"))
    add_all(memory, tool_round("c"))
    with pytest.raises(ValueError):  # already answered
        memory.add(Message.tool("again", "c0"))


def test_turns_split_at_user_messages():
    memory = Memory()
    add_all(memory, turn("a", rounds=1) + turn("b"))
    assert [len(t) for t in memory.turns()] == [4, 2]
    assert all(t[0].role == "user" for t in memory.turns())


# -- pending tool calls ------------------------------------------------------------------


def test_pending_tool_calls_are_allowed_at_the_end_and_reported():
    memory = Memory()
    memory.add(Message.user("u"))
    memory.add(Message.assistant(None, [tc("a"), tc("b")]))
    assert memory.pending_tool_call_ids() == ["a", "b"]
    memory.add(Message.tool("rb", "b"))
    assert memory.pending_tool_call_ids() == ["a"]
    problems = validate_sequence(memory.to_wire())
    assert len(problems) == 1 and UNANSWERED_ERROR in problems[0]
    memory.add(Message.tool("ra", "a"))
    assert memory.pending_tool_call_ids() == []
    assert validate_sequence(memory.to_wire()) == []


def test_adding_a_message_while_calls_are_pending_discards_the_incomplete_round():
    memory = Memory()
    memory.add(Message.user("u"))
    memory.add(Message.assistant("let me look", [tc("a"), tc("b")]))
    memory.add(Message.tool("ra", "a"))
    memory.add(Message.user("never mind"))
    assert [m.role for m in memory.messages] == ["user", "assistant", "user"]
    assert memory.messages[1] == Message.assistant("let me look")
    assert validate_sequence(memory.to_wire()) == []


def test_discard_incomplete_after_interrupt_keeps_text_and_drops_calls():
    memory = Memory()
    add_all(memory, [Message.user("u"), Message.assistant("checking", [tc("a")])])
    memory.discard_incomplete()
    assert memory.messages == [Message.user("u"), Message.assistant("checking")]
    memory.add(Message.assistant(None, [tc("b")]))
    memory.discard_incomplete()
    assert memory.messages == [Message.user("u"), Message.assistant("checking")]


# -- trimming ----------------------------------------------------------------------------


def test_trim_drops_whole_oldest_turns():
    memory = Memory(max_messages=5)
    add_all(memory, turn("a") + turn("b") + turn("c"))
    assert [m.content for m in memory.messages] == ["ask b", "answer b", "ask c", "answer c"]


def test_trim_keeps_tool_call_with_its_result():
    # a naive last-5 window would start at the tool result of turn a
    memory = Memory(max_messages=5)
    add_all(memory, turn("a", rounds=1) + turn("b", rounds=1))
    assert memory.messages[0] == Message.user("ask b")
    assert validate_sequence(memory.to_wire()) == []


def test_single_long_turn_drops_oldest_groups_but_keeps_its_user_message():
    memory = Memory(max_messages=6)
    add_all(memory, turn("a", rounds=4))  # user + 4*(assistant+tool) + answer = 10
    messages = memory.messages
    assert messages[0] == Message.user("ask a")
    assert len(messages) <= 6
    assert [m.tool_call_id for m in messages if m.role == "tool"] == ["a-2-0", "a-3-0"]
    assert validate_sequence(memory.to_wire()) == []


def test_oversized_newest_group_is_kept_whole_beyond_the_limit():
    memory = Memory(max_messages=3)
    add_all(memory, [Message.user("u"), Message.assistant("hi")])
    add_all(memory, tool_round("c", n=3))  # one group of 4 messages
    assert memory.messages == [Message.user("u")] + tool_round("c", n=3)
    assert validate_sequence(memory.to_wire()) == []


def test_pending_group_is_never_trimmed():
    memory = Memory(max_messages=3)
    add_all(memory, turn("a") + [Message.user("b"), Message.assistant(None, [tc("x"), tc("y")])])
    memory.add(Message.tool("rx", "x"))
    assert memory.pending_tool_call_ids() == ["y"]
    assert memory.messages[0] == Message.user("b")


def test_trim_oldest_turn_drops_turn_then_groups_then_reports_nothing_left():
    memory = Memory()
    add_all(memory, turn("a") + turn("b", rounds=1))
    assert memory.trim_oldest_turn() is True
    assert memory.messages[0] == Message.user("ask b") and len(memory) == 4
    assert memory.trim_oldest_turn() is True  # drops the tool round, keeps the answer
    assert memory.messages == [Message.user("ask b"), Message.assistant("answer b")]
    assert memory.trim_oldest_turn() is False
    assert Memory().trim_oldest_turn() is False


# -- cleanup / replace_from --------------------------------------------------------------


def test_cleanup_drops_orphan_tool_messages_and_leading_non_user_messages():
    messages = [
        Message.tool("orphan", "zz"),
        Message.assistant("stray"),
        Message.user("u"),
        Message.tool("orphan2", "yy"),
        Message.assistant("ok"),
    ]
    assert cleanup_incomplete_sequences(messages) == [Message.user("u"), Message.assistant("ok")]


def test_cleanup_drops_tool_call_missing_a_result_together_with_its_results():
    messages = [Message.user("u"), *tool_round("c", n=2)[:-1], Message.assistant("after")]
    assert cleanup_incomplete_sequences(messages) == [Message.user("u"), Message.assistant("after")]


def test_cleanup_keeps_complete_round_and_drops_stray_or_repeated_results():
    round_ = tool_round("c", n=2)
    messages = [
        Message.user("u"),
        round_[0],
        round_[1],
        Message.tool("dup", "c0"),
        Message.tool("x", "other"),
        round_[2],
    ]
    assert cleanup_incomplete_sequences(messages) == [Message.user("u"), *round_]


def test_cleanup_drops_round_with_duplicate_call_ids():
    bad = Message.assistant(None, [tc("a"), tc("a")])
    assert cleanup_incomplete_sequences([Message.user("u"), bad, Message.tool("r", "a")]) == [
        Message.user("u")
    ]


def test_replace_from_drops_system_messages_repairs_and_trims():
    memory = Memory(max_messages=4)
    loaded = [
        Message.system("old prompt"),
        *turn("a"),
        *turn("b", rounds=1),
        Message.assistant(None, [tc("p")]),
    ]
    memory.replace_from(loaded)
    assert memory.messages == turn("b", rounds=1)  # the dangling call went, turn a was trimmed
    assert validate_sequence(memory.to_wire()) == []


# -- property: random conversations stay sendable -----------------------------------------

op = st.one_of(
    st.just(("user",)),
    st.just(("text",)),
    st.tuples(
        st.just("tools"),
        st.integers(1, 3),  # calls
        st.integers(0, 3),  # results delivered before the round ends or is interrupted
        st.booleans(),  # assistant writes text besides the calls
        st.booleans(),  # results arrive in reverse order
        st.sampled_from(["discard", "continue"]),  # after an interruption
    ),
)


def check_window(memory: Memory, reference: Memory, k: int, last_user: str | None) -> None:
    pending = memory.pending_tool_call_ids()
    problems = validate_sequence(memory.to_wire())
    if pending:
        assert len(problems) == 1 and UNANSWERED_ERROR in problems[0]
    else:
        assert problems == []
    messages = memory.messages
    if not messages:
        assert last_user is None
        return
    assert messages[0].role == "user"
    assert [m for m in messages if m.role == "user"][-1].content == last_user
    turns = memory.turns()
    groups = [m for m in turns[0] if m.role == "assistant"]
    assert len(messages) <= k or (len(turns) == 1 and len(groups) == 1)
    # the window is the newest part of the full conversation: whole turns, whole groups
    full = reference.turns()
    n = len(turns)
    assert turns[1:] == full[len(full) - n + 1 :]
    first, original = turns[0], full[-n]
    assert first[0] == original[0] and first[1:] == original[len(original) - len(first) + 1 :]


@settings(max_examples=300, deadline=None)
@given(k=st.integers(3, 12), ops=st.lists(op, max_size=40))
def test_random_conversations_stay_sendable_within_the_limit(k, ops):
    memory, reference = Memory(max_messages=k), Memory(max_messages=10**6)
    counter = 0
    last_user: str | None = None

    def add(message: Message) -> None:
        memory.add(message)
        reference.add(message)

    for operation in ops:
        counter += 1
        if operation[0] != "user" and last_user is None:
            with pytest.raises(ValueError):
                memory.add(Message.assistant("too early"))
            continue
        if operation[0] == "user":
            last_user = f"user {counter}"
            add(Message.user(last_user))
        elif operation[0] == "text":
            add(Message.assistant(f"text {counter}"))
        else:
            _, n, answered, has_text, reverse, after = operation
            ids = [f"call_{counter}_{i}" for i in range(n)]
            add(Message.assistant(f"plan {counter}" if has_text else None, [tc(i) for i in ids]))
            check_window(memory, reference, k, last_user)
            order = list(reversed(ids)) if reverse else ids
            for cid in order[: min(answered, n)]:
                add(Message.tool(f"result {cid}", cid, "read_resume"))
                check_window(memory, reference, k, last_user)
            if answered < n and after == "discard":
                memory.discard_incomplete()
                reference.discard_incomplete()
                assert memory.pending_tool_call_ids() == []
        check_window(memory, reference, k, last_user)
