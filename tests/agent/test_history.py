"""ChatHistory: per-resume persistence, corruption handling, secret scrubbing, archive."""

from __future__ import annotations

import json
import stat
import tempfile
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cvagent_cli.agent.history import REDACTED, ChatHistory, scrub_secrets
from cvagent_cli.agent.memory import Memory
from cvagent_cli.agent.messages import Message, ToolCall
from cvagent_cli.paths import session_dir, session_files
from tests.support.wire import validate_sequence

OPENAI_KEY = "sk-proj-abc123DEF456ghi789JKL012mno345"


def tool_round(cid: str, arguments: str = "{}") -> list[Message]:
    return [
        Message.assistant(None, [ToolCall(id=cid, name="read_resume", arguments=arguments)]),
        Message.tool("r", cid, "read_resume"),
    ]


def conversation(turns: int) -> list[Message]:
    messages: list[Message] = []
    for i in range(turns):
        messages += [
            Message.user(f"ask {i}"),
            *tool_round(f"call_{i}"),
            Message.assistant(f"answer {i}"),
        ]
    return messages


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("CVAGENT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def resume_history(resume: Path) -> ChatHistory:
    """The history of ``resume`` as the chat session opens it."""
    return ChatHistory(session_files(resume).history, resume=resume)


@pytest.fixture
def resume(tmp_path):
    path = tmp_path / "resume.md"
    path.write_text("# Jane Doe\n", encoding="utf-8")
    return path


def test_history_lives_in_the_private_session_folder(home, resume):
    history = resume_history(resume)
    assert history.path == session_dir(resume) / "history.json"
    assert home in history.path.parents
    assert history.max_messages == 30


def test_missing_file_loads_empty_without_warning(tmp_path):
    assert ChatHistory(tmp_path / "history.json").load() == ([], {}, None)


def test_save_then_load_roundtrips_messages_and_state(home, resume):
    history = resume_history(resume)
    messages = conversation(2)
    state = {"capability": "polish", "stage": "review", "progress": [1, 2], "goal": None}
    assert history.save(messages, state) is None
    assert history.load() == (messages, state, None)


def test_file_format_has_schema_resume_timestamp_messages_and_state(home, resume):
    history = resume_history(resume)
    history.save(conversation(1), {"stage": "intro"})
    document = json.loads(history.path.read_text(encoding="utf-8"))
    assert document["schema_version"] == 1
    assert document["resume"] == str(resume.resolve())
    assert datetime.fromisoformat(document["updated"]).tzinfo is not None
    assert document["messages"][0] == {"role": "user", "content": "ask 0"}
    assert document["state"] == {"stage": "intro"}


def test_history_file_is_0600_and_its_folder_0700(home, resume):
    history = resume_history(resume)
    history.save(conversation(1), {})
    assert stat.S_IMODE(history.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(history.path.parent.stat().st_mode) == 0o700


def test_save_creates_a_private_folder_for_a_plain_path(tmp_path):
    history = ChatHistory(tmp_path / "new" / "history.json")
    assert history.save(conversation(1), {}) is None
    assert stat.S_IMODE(history.path.parent.stat().st_mode) == 0o700


def test_save_keeps_last_30_messages_in_whole_turns(tmp_path):
    history = ChatHistory(tmp_path / "history.json")
    history.save(conversation(12), {})  # 12 turns x 4 messages = 48
    messages, _, warning = history.load()
    assert warning is None
    assert len(messages) == 28  # 7 whole turns; an 8th would make 32
    assert messages[0] == Message.user("ask 5")
    assert validate_sequence([m.to_wire() for m in messages]) == []


def test_save_drops_unanswered_tool_calls(tmp_path):
    history = ChatHistory(tmp_path / "history.json")
    interrupted = [
        Message.user("u"),
        Message.assistant("looking", [ToolCall(id="c", name="f", arguments="{}")]),
    ]
    history.save(interrupted, {})
    assert history.load()[0] == [Message.user("u"), Message.assistant("looking")]


def test_save_returns_a_warning_instead_of_raising_when_the_disk_refuses(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    warning = ChatHistory(blocker / "history.json").save(conversation(1), {})
    assert warning is not None and "could not save" in warning


# -- corrupt files -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe\x00garbage",
        b"[]",
        json.dumps({"schema_version": 99, "messages": [], "state": {}}).encode(),
        json.dumps({"schema_version": 1, "messages": {}, "state": {}}).encode(),
        json.dumps({"schema_version": 1, "messages": [], "state": []}).encode(),
        json.dumps(
            {"schema_version": 1, "messages": [{"role": "narrator", "content": "x"}]}
        ).encode(),
        json.dumps({"schema_version": 1, "messages": ["text"]}).encode(),
    ],
)
def test_corrupt_file_is_moved_aside_with_a_warning(tmp_path, content):
    path = tmp_path / "history.json"
    path.write_bytes(content)
    messages, state, warning = ChatHistory(path).load()
    assert (messages, state) == ([], {})
    assert warning and "history.json.corrupt-" in warning
    assert not path.exists()
    [moved] = tmp_path.glob("history.json.corrupt-*")
    assert moved.read_bytes() == content
    assert ChatHistory(path).load() == ([], {}, None)


def test_unreadable_history_is_moved_aside_not_raised(tmp_path):
    path = tmp_path / "history.json"
    path.mkdir()  # reading a folder fails with an OSError
    messages, _, warning = ChatHistory(path).load()
    assert messages == [] and warning
    assert list(tmp_path.glob("history.json.corrupt-*"))


def test_loaded_history_is_repaired(tmp_path):
    path = tmp_path / "history.json"
    wire = [
        {"role": "tool", "tool_call_id": "x", "content": "orphan"},
        {"role": "user", "content": "u"},
        {"role": "assistant", "content": "a", "refusal": None},
    ]
    path.write_text(json.dumps({"schema_version": 1, "messages": wire, "state": {}}))
    assert ChatHistory(path).load() == ([Message.user("u"), Message.assistant("a")], {}, None)


# -- secret scrubbing --------------------------------------------------------------------


def test_api_keys_are_scrubbed_from_messages_and_state(tmp_path):
    history = ChatHistory(tmp_path / "history.json")
    messages = [
        Message.user(f"my key is {OPENAI_KEY}, use it"),
        *tool_round("c", arguments=json.dumps({"text": f"key={OPENAI_KEY}"})),
        Message.assistant("noted"),
    ]
    history.save(messages, {"goal": f"hide {OPENAI_KEY}", "notes": [{"deep": OPENAI_KEY}]})
    raw = history.path.read_text(encoding="utf-8")
    assert "abc123DEF456" not in raw
    loaded, state, _ = history.load()
    assert loaded[0].content == f"my key is {REDACTED}, use it"
    assert json.loads(loaded[1].tool_calls[0].arguments) == {"text": f"key={REDACTED}"}
    assert state == {"goal": f"hide {REDACTED}", "notes": [{"deep": REDACTED}]}


@pytest.mark.parametrize(
    "secret",
    [
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        "sk-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH",
        "AIzaSyA1234567890abcdefghijklmnopqrstuv",
        "ghp_0123456789abcdefghijABCDEFGHIJ",
    ],
)
def test_known_key_shapes_are_redacted(secret):
    assert scrub_secrets(f"x {secret} y", environ={}) == f"x {REDACTED} y"


def test_bearer_tokens_are_redacted():
    assert (
        scrub_secrets("Authorization: Bearer abc.def-123_XYZ", environ={})
        == f"Authorization: Bearer {REDACTED}"
    )


def test_env_var_secret_values_are_redacted(tmp_path, monkeypatch):
    monkeypatch.setenv("ACME_API_KEY", "plainvalue42")
    monkeypatch.setenv("GITLAB_TOKEN", "glpat-xyzxyzxyz")
    monkeypatch.setenv("SHORT_TOKEN", "abc")  # too short to redact safely
    history = ChatHistory(tmp_path / "history.json")
    history.save([Message.user("plainvalue42 glpat-xyzxyzxyz abc")], {"k": "plainvalue42"})
    messages, state, _ = history.load()
    assert messages[0].content == f"{REDACTED} {REDACTED} abc"
    assert state == {"k": REDACTED}


def test_ordinary_resume_text_is_not_redacted():
    text = "Led a task-force of 12; desk-side support; skills: scikit-learn, Bearer of good news"
    assert scrub_secrets({"a": [text], "n": 3, "b": None}, environ={}) == {
        "a": [text],
        "n": 3,
        "b": None,
    }


# -- archive -----------------------------------------------------------------------------


def test_archive_moves_history_aside_and_starts_fresh(home, resume):
    history = resume_history(resume)
    assert history.archive() is None
    history.save(conversation(1), {"stage": "x"})
    original = history.path.read_bytes()
    archived = history.archive()
    assert archived is not None and archived.name.startswith("history.json.bak-")
    assert archived.read_bytes() == original
    assert not history.path.exists()
    assert history.load() == ([], {}, None)
    history.save(conversation(1), {})
    second = history.archive()
    assert second is not None and second != archived and archived.exists()


def test_only_the_last_three_archives_are_kept(home, resume):
    """`--new` leaves no history.json.bak-* behind (each one used to leave one more)."""
    history = resume_history(resume)
    kept = []
    for n in range(5):
        history.save(conversation(1), {"n": n})
        kept.append(history.archive())
    left = sorted(history.path.parent.glob("history.json.bak-*"))
    assert left == sorted(kept[-3:])  # the newest three, the one just archived among them
    assert [json.loads(p.read_text(encoding="utf-8"))["state"]["n"] for p in left] == [2, 3, 4]


# -- property: save -> load stays sendable -------------------------------------------------

op = st.one_of(
    st.just("user"),
    st.just("text"),
    st.tuples(st.integers(1, 3), st.integers(0, 3)),  # tool round: calls, results delivered
)


@settings(max_examples=100, deadline=None)
@given(ops=st.lists(op, min_size=1, max_size=60))
def test_save_load_roundtrip_is_sendable_and_within_30(ops):
    memory = Memory(max_messages=10**6)
    memory.add(Message.user("start"))
    for n, operation in enumerate(ops):
        if operation == "user":
            memory.add(Message.user(f"u{n}"))
        elif operation == "text":
            memory.add(Message.assistant(f"a{n}"))
        else:
            calls, results = operation
            ids = [f"c{n}_{i}" for i in range(calls)]
            memory.add(
                Message.assistant(None, [ToolCall(id=i, name="f", arguments="{}") for i in ids])
            )
            for cid in ids[:results]:
                memory.add(Message.tool("r", cid, "f"))
    with tempfile.TemporaryDirectory() as folder:
        history = ChatHistory(Path(folder) / "history.json")
        assert history.save(memory.messages, {"n": len(ops)}) is None
        loaded, state, warning = history.load()
    expected = Memory(max_messages=30)
    expected.replace_from(memory.messages)
    assert warning is None and state == {"n": len(ops)}
    assert loaded == expected.messages
    assert loaded and loaded[0].role == "user"
    assert validate_sequence([m.to_wire() for m in loaded]) == []
    turns = expected.turns()
    assert len(loaded) <= 30 or (
        len(turns) == 1 and sum(m.role == "assistant" for m in turns[0]) == 1
    )
