"""ChatSession end to end: through real litellm to the strict loopback server."""

from __future__ import annotations

import json

import pytest

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.compose import build_session
from cvagent_cli.agent.history import ChatHistory
from cvagent_cli.agent.request import current_turn_index
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.paths import session_files
from cvagent_cli.settings import load_settings
from tests.support.openai_server import Reply
from tests.support.wire import user_words, validate_sequence


def gateway(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-1234567890")
    return LiteLLMGateway(load_settings(model="openai/test-model", api_base=server.url))


def apply(edit):
    return ev.Decision(ev.Action.APPLY)


def test_thirty_turn_session_keeps_every_request_valid_and_bounded(server, resume, monkeypatch):
    client = gateway(server, monkeypatch)
    session = build_session(client=client, doc=ResumeDocument.from_path(resume))
    original = resume.read_text(encoding="utf-8")
    first_bullet = next(line for line in original.splitlines() if line.startswith("- "))
    for turn in range(30):
        if turn % 3 == 0:
            server.enqueue(Reply(tool_calls=[("read_resume", {"section": "experience"})]))
        if turn == 4:
            server.enqueue(
                Reply(
                    tool_calls=[
                        (
                            "edit_resume",
                            {
                                "old_text": first_bullet,
                                "new_text": first_bullet + " (edited)",
                                "reason": "test",
                            },
                        )
                    ]
                )
            )
        if turn % 5 == 0:
            server.enqueue(
                Reply(tool_calls=[("analyze_resume", {}), ("read_resume", {"section": "skills"})])
            )
        server.enqueue(Reply(text=f"Answer {turn}."))
        events = list(session.ask(f"Question {turn} about my Experience section", apply))
        assert events[-1].final_text == f"Answer {turn}.", events
        assert len(session.agent.memory) <= 50
        assert validate_sequence(session.agent.memory.to_wire()) == []
    assert "(edited)" in resume.read_text(encoding="utf-8")
    for body in server.requests:
        wire = body["messages"]
        assert wire[0]["role"] == "system"
        system = wire[0]["content"]
        assert "## Resume context" in system and "<untrusted" in system
        # The request named the Experience section, so its full text went with the turn.
        current = wire[current_turn_index(wire)]
        assert "Sections relevant to this request" in current["content"]
        assert user_words(current["content"]).endswith("about my Experience section")
    stored = json.loads(session_files(resume).history.read_text(encoding="utf-8"))
    assert len(stored["messages"]) <= 30
    assert validate_sequence(stored["messages"]) == []
    assert stored["state"]["summaries"]
    # Token accounting reached the session.
    assert session.client.session_usage.prompt_tokens > 0


def test_reopening_restores_history_capability_and_summaries(server, resume, monkeypatch):
    client = gateway(server, monkeypatch)
    first = build_session(
        client=client,
        doc=ResumeDocument.from_path(resume),
        capability="star",
    )
    server.enqueue(Reply(text="What was the scale of the billing system?"))
    list(first.ask("help me tell the payments story"))
    first.close()
    second = build_session(client=client, doc=ResumeDocument.from_path(resume))
    assert second.agent.capability.name == "star"
    assert any("resumed" in n.text for n in second.take_notices())
    assert [m.role for m in second.agent.memory.messages] == ["user", "assistant"]
    assert second.agent.summaries
    third = build_session(client=client, doc=ResumeDocument.from_path(resume), new=True)
    assert len(third.agent.memory) == 0 and any(
        "new conversation" in n.text for n in third.take_notices()
    )


def test_corrupt_history_is_moved_aside_with_a_warning(server, resume, monkeypatch):
    path = session_files(resume).history
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    session = build_session(
        client=gateway(server, monkeypatch),
        doc=ResumeDocument.from_path(resume),
    )
    assert [n for n in session.take_notices() if n.level == "warning"] and len(
        session.agent.memory
    ) == 0


def test_resume_changed_on_disk_is_reloaded_and_a_stale_edit_not_applied(
    server, resume, monkeypatch
):
    session = build_session(
        client=gateway(server, monkeypatch),
        doc=ResumeDocument.from_path(resume),
    )
    text = resume.read_text(encoding="utf-8")
    bullet = next(line for line in text.splitlines() if line.startswith("- "))
    resume.write_text(text.replace(bullet, bullet + " [edited in vim]"), encoding="utf-8")
    server.enqueue(
        Reply(
            tool_calls=[("edit_resume", {"old_text": bullet + "\n", "new_text": "- replaced\n"})]
        ),
        Reply(text="ok"),
    )
    events = list(session.ask("edit the first bullet", apply))
    assert any(isinstance(e, ev.Notice) and "changed on disk" in e.text for e in events)
    assert "[edited in vim]" in resume.read_text(encoding="utf-8")
    assert "- replaced" not in resume.read_text(encoding="utf-8")


def test_api_key_never_reaches_history(server, resume, monkeypatch):
    client = gateway(server, monkeypatch)
    session = build_session(client=client, doc=ResumeDocument.from_path(resume))
    server.enqueue(Reply(text="Noted."))
    list(session.ask("my key is sk-test-not-a-real-key-1234567890, keep it safe"))
    stored = session_files(resume).history.read_text(encoding="utf-8")
    assert "sk-test-not-a-real-key" not in stored and "[REDACTED]" in stored


def test_typing_another_resume_path_switches_lock_history_and_undo_log(
    server, resume, tmp_path, monkeypatch
):
    from cvagent_cli.store.lock import ResumeLock

    other = tmp_path / "other.md"
    other.write_text(resume.read_text(encoding="utf-8").replace("Daniel", "Dana"), encoding="utf-8")

    def take(path):
        return ResumeLock(path).acquire()

    first = take(resume)
    session = build_session(
        client=gateway(server, monkeypatch),
        doc=ResumeDocument.from_path(resume),
        lock=first,
        locks=take,
    )
    list(session.ask(f"load {other}"))
    assert session.workspace.doc.path == other and server.requests == []
    assert session.history.path.parent.name.startswith("other-")
    assert session.workspace.undo.path.parent == session.history.path.parent
    assert not first.is_held and session.lock.is_held
    with pytest.raises(Exception, match="being edited by another cvagent"):
        take(other)
    session.close()


def test_a_failed_turn_leaves_no_unanswered_message_behind(resume):
    from cvagent_cli.errors import ModelError
    from tests.support.scripted import Reply, ScriptedModel

    session = build_session(
        client=ScriptedModel(Reply(error=ModelError("the model server is unreachable"))),
        doc=ResumeDocument.from_path(resume),
    )
    events = list(session.ask("hi there, can you help"))
    assert events[-1].reason == "error"
    session.close()
    messages, _, _ = ChatHistory(session_files(resume).history, resume=resume).load()
    assert messages == []  # the next start does not resume an unanswered "hi"


def test_a_loaded_job_description_comes_back_with_the_session(resume, tmp_path):
    from tests.conftest import SAMPLES
    from tests.support.scripted import ScriptedModel

    jd = tmp_path / "job.md"
    jd.write_bytes((SAMPLES / "jobs" / "en_backend.md").read_bytes())
    first = build_session(client=ScriptedModel("Hi."), doc=ResumeDocument.from_path(resume))
    first.set_jd(jd)
    list(first.ask("hello"))
    first.close()
    second = build_session(client=ScriptedModel(), doc=ResumeDocument.from_path(resume))
    assert second.workspace.jd is not None and second.workspace.jd.source == str(jd.resolve())
    assert any("job description restored" in n.text for n in second.take_notices())
    second.close()
    jd.unlink()
    third = build_session(client=ScriptedModel(), doc=ResumeDocument.from_path(resume))
    assert third.workspace.jd is None
    assert any(
        "job description of the last session is gone" in n.text for n in third.take_notices()
    )


# -- the session built from fakes: what it is given, it uses ------------------------------------
class FakeLock:
    def __init__(self, path):
        self.path, self.released = path, False

    def release(self):
        self.released = True


class FakeModels:
    def __init__(self):
        from tests.support.scripted import ScriptedModel

        self.made = ScriptedModel()

    def choose(self, name, api_base=None):
        self.made.model = name
        return self.made, api_base or "the provider's default"


def test_the_session_uses_the_collaborators_it_is_given(resume):
    from tests.support.scripted import ScriptedModel

    client, lock = ScriptedModel(), FakeLock(resume)
    session = build_session(client=client, doc=ResumeDocument.from_path(resume), lock=lock)
    assert session.client is client and session.agent.workspace is session.workspace
    assert session.history.path.parent == session.workspace.undo.path.parent
    session.close()
    assert lock.released


def test_model_switch_goes_through_the_models_it_was_given_and_keeps_the_usage(resume):
    from cvagent_cli.errors import CvAgentError
    from cvagent_cli.llm.types import Usage
    from tests.support.scripted import ScriptedModel

    client = ScriptedModel()
    client.session_usage = Usage(prompt_tokens=120)
    alone = build_session(client=client, doc=ResumeDocument.from_path(resume), persist=False)
    with pytest.raises(CvAgentError, match="not available"):
        alone.switch_model("other/model")
    models = FakeModels()
    session = build_session(client=client, doc=ResumeDocument.from_path(resume), models=models)
    assert session.switch_model("other/model", "http://x") == "http://x"
    assert session.client is models.made and session.client.model == "other/model"
    assert session.client.session_usage.prompt_tokens == 120
    session.close()


def test_export_defaults_to_a_pdf_beside_the_resume(resume, tmp_path):
    from tests.support.scripted import ScriptedModel

    session = build_session(client=ScriptedModel(), doc=ResumeDocument.from_path(resume))
    assert session.export_target() == resume.with_suffix(".pdf")
    assert session.export_target(tmp_path / "cv.json") == tmp_path / "cv.json"
    piped = build_session(
        client=ScriptedModel(), doc=ResumeDocument.from_text("# Ann Lee\n", source="<stdin>")
    )
    assert piped.export_target().name == "resume.pdf"
    assert "nothing to save" in piped.save_conversation()
    session.close()


def test_a_copy_of_the_resume_is_never_written_over_the_resume_itself(resume, tmp_path):
    from tests.support.scripted import ScriptedModel

    session = build_session(client=ScriptedModel(), doc=ResumeDocument.from_path(resume))
    assert session.copy_target(resume) is None
    target = tmp_path / "copy.md"
    assert session.copy_target(target) == target
    assert session.write_copy(target) == f"wrote the resume to {target}"
    assert target.read_bytes() == resume.read_bytes()
    assert session.save_conversation() == f"conversation saved to {session.history.path}"
    session.close()
