"""The REPL driven with scripted input and a StringIO output: no terminal, no network.

The model is faked at the gateway seam (a ModelClient that replays ModelResponses), so
these tests exercise the real ChatSession, agent, tools, undo log and file writes.
"""

from __future__ import annotations

import io
import json
import shutil
import stat
from pathlib import Path

import pytest
from rich.console import Console

from cvagent_cli.agent.compose import build_session
from cvagent_cli.cli.chat_runner import NoModelClient
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.types import ModelResponse, TextDelta, ToolCallRequest, Usage
from cvagent_cli.ui.io import ChatIO, locate_replacement, make_completer
from cvagent_cli.ui.repl import Repl, is_command

SAMPLE = Path(__file__).resolve().parents[2] / "sample_resumes" / "en_senior_backend.md"
OLD = "Comfortable owning a service from design doc to on-call rotation."
NEW = "Owns services end to end, from design doc to on-call rotation."


class ScriptedClient:
    """A ModelClient that answers from a list (then "OK") and records every request."""

    def __init__(self, replies=(), model: str = "fake/test-model") -> None:
        self.model = model
        self.replies = list(replies)
        self.requests: list[list[dict]] = []
        self.session_usage = Usage()

    def stream(self, messages, tools=None, **kwargs):
        self.requests.append(messages)
        reply = self.replies.pop(0) if self.replies else ModelResponse("OK")
        if reply.content:
            yield TextDelta(reply.content)
        yield reply

    def count_tokens(self, messages, tools=None) -> int:
        return len(json.dumps(messages) + json.dumps(tools or [])) // 4


def edit_reply(old: str = OLD, new: str = NEW, reason: str = "stronger verb") -> ModelResponse:
    args = json.dumps({"old_text": old, "new_text": new, "reason": reason})
    return ModelResponse("", [ToolCallRequest("call_edit_1", "edit_resume", args)])


class FakeModels:
    """``/model NAME`` switches to a scripted client of that name."""

    def choose(self, name, api_base=None):
        return ScriptedClient(model=name), api_base or "https://fake.example/v1 (fake's default)"


@pytest.fixture
def resume(tmp_path) -> Path:
    target = tmp_path / "resume.md"
    shutil.copyfile(SAMPLE, target)
    return target


def make_repl(resume: Path | None, lines: list[str], replies=(), client=None, **session_kw):
    doc = ResumeDocument.from_path(resume) if resume is not None else None
    client = client or ScriptedClient(replies)
    session_kw.setdefault("models", FakeModels())
    session = build_session(client=client, doc=doc, **session_kw)
    out = io.StringIO()
    console = Console(file=out, color_system=None, width=120, force_terminal=False)
    repl = Repl(session, ChatIO(input=lines, output=console))
    return repl, out, client


def run(resume, lines, replies=(), **kw) -> tuple[Repl, str, ScriptedClient]:
    repl, out, client = make_repl(resume, lines, replies, **kw)
    assert repl.run() == 0
    repl.session.close()
    return repl, out.getvalue(), client


# -- /show ------------------------------------------------------------------------------------
def test_show_prints_the_resume_with_line_numbers(resume):
    _, out, _ = run(resume, ["/show"])
    assert "   1 │ # Daniel R. Okafor" in out
    assert "   6 │ ## Summary" in out


def test_show_one_section_by_title_or_id(resume):
    _, out, _ = run(resume, ["/show skills"])
    assert "## Skills" in out
    assert "## Summary" not in out and "# Daniel R. Okafor" not in out


def test_show_unknown_section_suggests(resume):
    _, out, _ = run(resume, ["/show Skils"])
    assert "no section 'Skils'" in out
    assert "skills" in out


def test_show_suggests_only_names_that_are_close(resume):
    _, out, _ = run(resume, ["/show nonexistent"])
    assert "no section 'nonexistent'" in out and "did you mean" not in out
    _, out, _ = run(resume, ["/show experiance"])
    assert "did you mean experience" in out


def test_show_without_a_resume_says_how_to_load_one():
    _, out, _ = run(None, ["/show"])
    assert "no resume is loaded" in out and "/load PATH" in out


# -- a turn with a confirmed edit, then /diff, /undo, /redo ----------------------------------------
def test_accepting_an_edit_then_undo_and_redo_restore_file_bytes(resume):
    original = resume.read_bytes()
    _repl, out, client = run(
        resume,
        ["rewrite the summary section", "y", "/diff", "/diff last", "/undo", "/redo", "/undo"],
        [edit_reply(), ModelResponse("Done: a stronger last sentence.")],
    )
    assert "✎ proposed edit: stronger verb" in out
    assert "Apply? [y]es/[n]o/[a]lways/[e]dit y" in out
    assert "✓ applied" in out
    assert "Done: a stronger last sentence." in out
    assert out.count(NEW) >= 3  # the proposal, /diff and /diff last
    assert "last edit: stronger verb" in out
    assert "undid: stronger verb" in out and "redid: stronger verb" in out
    assert resume.read_bytes() == original  # the final /undo
    # the tool result told the model it was applied
    tool_messages = [m for m in client.requests[1] if m["role"] == "tool"]
    assert tool_messages and tool_messages[0]["content"].startswith("Applied.")


def test_undo_of_more_edits_than_there_are_says_so_once(resume):
    """Issue 34, item 26: "nothing to undo" came after the undo it had just done, then
    "undid 1 of the 5"."""
    original = resume.read_bytes()
    _, out, _ = run(
        resume,
        ["rewrite the summary section", "y", "/undo 5"],
        [edit_reply(), ModelResponse("Done.")],
    )
    after = out[out.index("undid: stronger verb") :]
    assert "undid 1 of the 5 asked: nothing to undo" in after
    assert after.count("nothing to undo") == 1, after
    assert resume.read_bytes() == original


def test_undo_and_redo_several_levels(resume):
    original = resume.read_bytes()
    second_old = "Backend engineer with 10 years"
    second_new = "Backend engineer with ten years"
    _repl, out, _ = run(
        resume,
        ["rewrite the summary section", "y", "shorten the summary", "y", "/undo 2"],
        [
            edit_reply(),
            ModelResponse("one"),
            edit_reply(second_old, second_new, "spell out"),
            ModelResponse("two"),
        ],
    )
    assert out.count("✓ applied") == 2
    assert resume.read_bytes() == original
    _repl2, out2, _ = run(resume, ["/redo 2"])
    assert "redid: stronger verb" in out2 and "redid: spell out" in out2
    text = resume.read_text(encoding="utf-8")
    assert NEW in text and second_new in text


def test_undo_works_in_a_later_session(resume):
    original = resume.read_bytes()
    run(resume, ["rewrite the summary section", "y"], [edit_reply(), ModelResponse("done")])
    assert resume.read_bytes() != original
    _, out, _ = run(resume, ["/undo"])
    assert "undid" in out
    assert resume.read_bytes() == original


def test_rejecting_an_edit_with_a_reason_tells_the_model(resume):
    original = resume.read_bytes()
    _, out, client = run(
        resume,
        ["rewrite the summary section", "n keep my wording"],
        [edit_reply(), ModelResponse("Understood.")],
    )
    assert resume.read_bytes() == original
    assert "✗ rejected" in out
    tool = next(m for m in client.requests[1] if m["role"] == "tool")
    assert "rejected" in tool["content"] and "keep my wording" in tool["content"]


def test_edit_answer_applies_the_users_text(resume):
    mine = "Owns services from the design doc to the pager."
    _, out, _ = run(
        resume, ["rewrite the summary section", "x", "e", mine], [edit_reply(), ModelResponse("ok")]
    )
    assert "answer y (apply)" in out  # the unknown answer 'x' got the help line
    text = resume.read_text(encoding="utf-8")
    assert mine in text and OLD not in text and NEW not in text


def test_always_applies_later_edits_without_asking(resume):
    second = edit_reply(
        "Backend engineer with 10 years", "Backend engineer with ten years", "spell out"
    )
    _, out, _ = run(
        resume,
        ["rewrite the summary section", "a", "shorten the summary"],
        [edit_reply(), ModelResponse("one"), second, ModelResponse("two")],
    )
    assert out.count("Apply?") == 1
    assert "Backend engineer with ten years" in resume.read_text(encoding="utf-8")


def test_diff_with_no_changes(resume):
    _, out, _ = run(resume, ["/diff", "/diff last", "/undo"])
    assert "no changes since the session started" in out
    assert "no edit to show" in out
    assert "nothing to undo" in out


# -- command resolution ----------------------------------------------------------------------------
def test_unknown_and_ambiguous_commands_list_close_matches(resume):
    _, out, client = run(resume, ["/undoo", "/frobnicate", "/c", "/ca", "/nonsense", "/hlep"])
    assert "unknown command /undoo; did you mean /undo" in out
    assert "unknown command /hlep; did you mean /help" in out
    assert "unknown command /nonsense (/help lists them)" in out  # not "/tokens"
    assert "unknown command /frobnicate" in out and "/help" in out
    assert "ambiguous command /c: /capability, /clear" in out
    assert "tailor" in out  # /ca → /capability lists the packs
    assert client.requests == []  # nothing went to the model


def test_help_lists_every_command(resume):
    _repl, out, _ = run(resume, ["/help"])
    for name in (
        "help",
        "show",
        "diff",
        "undo",
        "redo",
        "analyze",
        "jd",
        "capability",
        "model",
        "tokens",
        "history",
        "clear",
        "save",
        "load",
        "exit",
        "quit",
    ):
        assert f"/{name}" in out
    assert "Esc+Enter" in out


def test_exit_stops_reading_input(resume):
    _, out, _ = run(resume, ["/exit", "/show"])
    assert "# Daniel R. Okafor" not in out


def test_an_absolute_path_is_a_message_not_a_command(tmp_path):
    assert is_command("/help") and is_command("/show skills")
    assert not is_command("/home/someone/resume.md")
    assert not is_command(f"{tmp_path} please")


# -- /capability, /model, /tokens, /history, /clear ----------------------------------------------------
def test_capability_switching(resume):
    repl, out, _ = run(resume, ["/capability star", "/capability nosuch"])
    assert repl.session.agent.capability.name == "star"
    assert "capability: base → star" in out
    assert "stage DISCOVERY" in out
    assert "unknown capability pack 'nosuch'" in out


def test_model_switch(resume):
    repl, out, _ = run(resume, ["/model", "/model openai/other"])
    assert "model: fake/test-model" in out
    assert repl.session.agent.client.model == "openai/other"
    # one line says which endpoint the new model uses
    assert "model: openai/other · endpoint: https://fake.example/v1 (fake's default)" in out


def test_model_switch_with_an_explicit_api_base(resume):
    repl, out, _ = run(
        resume,
        [
            "/model deepseek/deepseek-chat --api-base http://127.0.0.1:9/v1",
            "/model openai/x --api-base=default",
        ],
    )
    assert "model: deepseek/deepseek-chat · endpoint: http://127.0.0.1:9/v1" in out
    assert "model: openai/x · endpoint: default" in out
    assert repl.session.agent.client.model == "openai/x"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/model openai/x --api-base", "--api-base needs a URL"),
        ("/model --api-base http://h/v1", "which model?"),
        ("/model a b", "unexpected 'b'"),
        ("/model a --temperature 1", "unexpected '--temperature'"),
        ("/model a --api-base notaurl", "does not start with http:// or https://"),
        ("/model a --api-base localhost:8080", "did you mean http://localhost:8080?"),
        ("/model a --api-base http://h:99999/v1", "port out of range"),
        ("/model a --api-base=https://:8080", "no host name"),
    ],
)
def test_model_switch_usage_errors_keep_the_model(resume, line, message):
    repl, out, _ = run(resume, [line])
    assert message in out and "/model NAME --api-base URL" in out
    assert repl.session.agent.client.model == "fake/test-model"


def test_tokens_lists_the_parts_of_the_next_request(resume):
    _, out, _ = run(
        resume, ["hello", "/tokens"], [ModelResponse("Hi! How can I help with your resume?")]
    )
    assert "system prompt:" in out
    # what the next request really sends: the earlier turn compacted, plus the new message
    assert "earlier turns: 2 messages, compacted" in out
    assert "this turn: its context and your message" in out
    assert "tool schemas:" in out and "tools" in out
    assert "total" in out and "stable start" in out


def test_tokens_without_a_model_estimates(resume):
    _, out, _ = run(resume, ["/tokens"], client=NoModelClient())
    assert "system prompt:" in out and "estimated" in out


def test_history_reads_like_the_log_no_fences_no_model_instructions(resume):
    """Issue 34, item 19: /history showed <untrusted kind="resume" …> and "old_text"."""
    read = ModelResponse("", [ToolCallRequest("c1", "read_resume", '{"section": "Summary"}')])
    twice = json.dumps({"old_text": "Python", "new_text": "Go"})
    edit = ModelResponse("", [ToolCallRequest("c2", "edit_resume", twice)])
    _, out, _ = run(resume, ["rewrite the summary", "/history"], [read, edit, ModelResponse("Ok.")])
    shown = out[out.rindex("     user ") :]
    assert "<untrusted" not in shown and "old_text" not in shown, shown
    assert "read_resume: done" in shown and "edit_resume: failed" in shown


def test_history_and_clear(resume):
    original = resume.read_bytes()
    repl, out, _ = run(
        resume, ["hello", "/history", "/clear", "/history"], [ModelResponse("Hi there.")]
    )
    assert "     user hello" in out
    assert "assistant Hi there." in out
    assert "conversation cleared" in out
    assert "the conversation is empty" in out
    assert repl.session.agent.memory.messages == []
    assert resume.read_bytes() == original


def test_no_model_configured_commands_work_messages_explain(resume):
    _, out, _ = run(
        resume, ["/show summary", "rewrite the summary section"], client=NoModelClient()
    )
    assert "## Summary" in out
    assert "no model configured" in out
    assert "-M/--model" in out  # -m is the message
    assert "CVAGENT_MODEL" in out and "--model" in out
    flat = " ".join(out.split())
    assert "type /model NAME" in flat  # and every way to set it (issue 34, item 20)
    assert "CVAGENT_MODEL, or add 'model: NAME' to config.yaml (cvagent config edit)" in flat


# -- /save, /load, /jd, /analyze ------------------------------------------------------------------------
def test_save_path_writes_the_current_resume(resume, tmp_path):
    target = tmp_path / "copy.md"
    _, out, _ = run(resume, [f"/save {target}", "/save"])
    assert target.read_bytes() == resume.read_bytes()
    assert "conversation saved" in out


def test_save_asks_before_overwriting(resume, tmp_path):
    target = tmp_path / "exists.md"
    target.write_text("keep me", encoding="utf-8")
    _, out, _ = run(resume, [f"/save {target}", "n"])
    assert target.read_text(encoding="utf-8") == "keep me"
    assert "not saved" in out


def test_load_switches_resume(resume, tmp_path):
    other = tmp_path / "other.md"
    shutil.copyfile(SAMPLE.with_name("en_new_grad.md"), other)
    repl, out, _ = run(resume, [f"/load {other}", "/load missing-file.md"])
    assert repl.session.workspace.doc.path == other
    assert f"loaded {other}" in out
    assert "no such file" in out


def test_load_of_a_pdf_says_import_first_and_counts_sections_as_import_does(resume, tmp_path):
    from cvagent_cli.formats.exporter import export_file

    pdf = tmp_path / "cv.pdf"
    export_file(SAMPLE.with_name("en_mid_data_analyst.md"), pdf)
    _, out, _ = run(resume, [f"/load {pdf}"])
    imported, loaded = out.index("imported cv.pdf"), out.index(f"loaded {tmp_path / 'cv.md'}")
    assert imported < loaded
    sections = out[imported:].split(" sections", 1)[0].rsplit(" ", 1)[-1]
    assert f"{sections} sections)" in out[loaded:]  # the same count in both lines


def test_analyze_and_jd(resume):
    jd = SAMPLE.parent / "jobs" / "en_backend.md"
    repl, out, _ = run(resume, [f"/jd {jd}", "/analyze"])
    assert "loaded the job description" in out
    assert "Score" in out and "keyword coverage" in out
    assert repl.session.workspace.last_report is not None


# -- completion and small helpers ---------------------------------------------------------------------
def test_tab_completion_of_commands_sections_and_capabilities(resume):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    repl, _, _ = make_repl(resume, [])
    completer = make_completer(repl)

    def complete(text: str) -> list[str]:
        return [
            c.text
            for c in completer.get_completions(
                Document(text), CompleteEvent(completion_requested=True)
            )
        ]

    assert complete("/ca") == ["/capability"]
    assert set(complete("/h")) == {"/help", "/history"}
    assert "Skills" in complete("/show Sk") and "skills" in complete("/show sk")
    assert complete("/capability t") == ["tailor"]
    assert complete("/diff l") == ["last"]
    assert complete("hello") == []


def test_locate_replacement_finds_the_right_occurrence():
    from cvagent_cli.agent.events import ProposedEdit

    before = "a x b x c"
    after = "a x b y c"
    e = ProposedEdit("1", "c", None, before, after, "", (), (("x", "y"),))
    assert locate_replacement(e) == (6, 7, "y")
    batch = ProposedEdit("1", "c", None, before, after, "", (), (("x", "y"), ("a", "b")))
    assert locate_replacement(batch) is None


# -- confirmations, the toolbar, files changed elsewhere ---------------------------------------------
INVENTED = "Cut on-call pages by 73% while owning services end to end."


def test_flagged_edit_is_asked_even_with_yes(resume):
    repl, out, _ = make_repl(
        resume,
        ["rewrite the summary section", "n"],
        [edit_reply(new=INVENTED), ModelResponse("ok")],
        auto_apply=True,
    )
    repl.io.yes = True
    repl.run()
    repl.session.close()
    text = out.getvalue()
    assert "possibly invented" in text and "73%" in text
    assert "Apply?" in text
    assert INVENTED not in resume.read_text(encoding="utf-8")


def test_non_interactive_confirmation_never_waits():
    from cvagent_cli.agent.events import Action, ProposedEdit
    from cvagent_cli.agent.toolcall_agent import automatic_decision

    plain = ProposedEdit("1", "c", None, "a", "b", "", (), (("a", "b"),))
    flagged = ProposedEdit("1", "c", None, "a", "b", "", ("73% appears nowhere",), (("a", "b"),))
    quiet = io.StringIO()
    # --yes: the agent's one approval rule applies a plain edit and never a flagged one
    assert automatic_decision(plain, auto_apply=True).action is Action.APPLY
    assert automatic_decision(flagged, auto_apply=True) is None
    assert automatic_decision(plain, auto_apply=False) is None
    # without a person, whatever is left to ask is deferred, never waited for
    assert ChatIO(output=quiet, interactive=False).confirm_edit(flagged).action is Action.DEFER
    assert ChatIO(output=quiet, interactive=False).confirm_edit(plain).action is Action.DEFER
    assert quiet.getvalue() == ""


def test_toolbar_shows_file_model_capability_and_usage(resume):
    repl, _, _ = make_repl(resume, [])
    repl.session.agent.set_capability("star")
    from cvagent_cli.llm.types import Usage

    repl.session.client.session_usage = Usage(1200, 34, 0.0021)
    bar = repl.toolbar()
    assert "resume.md" in bar and "fake/test-model" in bar
    assert "star" in bar and "DISCOVERY" in bar
    assert "1,234 tokens" in bar and "$0.0021" in bar
    repl.session.close()


def test_a_resume_edited_elsewhere_is_reloaded_and_noticed(resume):
    repl, out, _client = make_repl(resume, ["hello"], [ModelResponse("Hi.")])
    resume.write_text(
        resume.read_text(encoding="utf-8") + "\n## Hobbies\n\nChess\n", encoding="utf-8"
    )
    repl.run()
    repl.session.close()
    assert "changed on disk" in out.getvalue()
    assert "Chess" in repl.session.workspace.doc.text


def test_interrupting_a_turn_keeps_memory_valid(resume):
    """Ctrl-C inside the stream: the generator is closed, the next request is valid."""
    from cvagent_cli.ui.render import run_turn

    class Interrupting(ScriptedClient):
        def stream(self, messages, tools=None, **kwargs):
            self.requests.append(messages)
            if len(self.requests) == 1:
                yield TextDelta("partial ")
                raise KeyboardInterrupt
            yield from super().stream(messages, tools, **kwargs)

    client = Interrupting([ModelResponse("", [ToolCallRequest("c1", "read_resume", "{}")])])
    repl, out, _ = make_repl(resume, [], client=client)
    result = run_turn(
        repl.session, "rewrite the summary section", repl.renderer, repl.io.confirm_edit
    )
    assert result.interrupted and "stopped (Ctrl-C)" in out.getvalue()
    assert "partial" in out.getvalue()
    result = run_turn(repl.session, "shorten the summary", repl.renderer, repl.io.confirm_edit)
    assert result.done is not None and result.done.reason == "text"
    from tests.support.openai_server import validate_messages

    for request in client.requests:
        validate_messages(request)  # what the real API would accept
    repl.session.close()


def test_typing_a_path_loads_that_resume_with_its_own_lock_and_history(resume, tmp_path):
    other = tmp_path / "other.md"
    shutil.copyfile(SAMPLE.with_name("en_new_grad.md"), other)
    locks = []

    class FakeLock:
        def __init__(self, path):
            self.path, self.released = path, False
            locks.append(self)

        def release(self):
            self.released = True

    first = FakeLock(resume)
    repl, out, client = make_repl(resume, [f"load {other}", str(other)], lock=first)
    repl.session.locks = FakeLock
    repl.run()
    assert repl.session.workspace.doc.path == other
    assert client.requests == []  # loaded directly, no model round trip
    assert "loaded" in out.getvalue()
    assert [lock.path for lock in locks] == [resume, other]
    assert first.released and repl.session.lock is locks[-1]
    assert repl.session.history.path.parent.name.startswith("other-")
    repl.session.close()
    assert locks[-1].released


def test_a_lone_slash_lists_commands_and_never_reaches_the_model(resume):
    _, out, client = run(resume, ["/"])
    assert client.requests == [] and "/capability" in out


@pytest.mark.parametrize("quote", ["'{}'", '"{}"', "escaped"])
def test_load_takes_quoted_and_escaped_paths(resume, quote):
    other = resume.with_name("my resume.md")
    other.write_text("# Zoë Martin\n\n## Skills\n\n- Go\n", encoding="utf-8")
    typed = str(other).replace(" ", "\\ ") if quote == "escaped" else quote.format(other)
    repl, out, _ = run(resume, [f"/load {typed}"])
    assert repl.session.workspace.doc.path == other, out


def test_chinese_answers_apply_or_reject_an_edit():
    from cvagent_cli.agent.events import Action, ProposedEdit

    edit = ProposedEdit("1", "c", None, "a", "b", "", (), (("a", "b"),))
    quiet = io.StringIO()
    assert ChatIO(input=["是"], output=quiet).confirm_edit(edit).action is Action.APPLY
    assert ChatIO(input=["不"], output=quiet).confirm_edit(edit).action is Action.REJECT


def test_an_empty_answer_is_said_out_loud(resume):
    _, out, _ = run(resume, ["hello"], [ModelResponse("")])
    assert "empty answer" in out


def test_save_to_a_bad_place_is_one_line_and_the_session_goes_on(resume, tmp_path):
    folder = tmp_path / "somefolder"
    folder.mkdir()
    inside_a_file = f"{resume}/x.md"
    _, out, _ = run(
        resume,
        [
            f"/save {tmp_path}/nonexistent/dir/x.md",
            f"/save {folder}",
            f"/save {inside_a_file}",
            "/help",
        ],
    )
    assert "does not exist" in out and "is a folder" in out
    assert out.count("error") >= 3 and "/capability" in out  # still running after the errors


def test_hints_name_what_exists_where_they_are_shown(resume):
    from cvagent_cli.store.textio import convert_hint

    assert "cvagent import cv.pdf" in convert_hint("a PDF file", "cv.pdf")  # it exists now
    assert "pandoc" not in convert_hint("a ZIP archive (a DOCX, ODT or Pages file is one)")
    jd = SAMPLE.parent / "jobs" / "en_backend.md"
    _, out, _ = run(resume, ["/capability tailor", f"/jd {jd}", "/analyze"])
    assert "/capability tailor" not in out.split("loaded the job description")[1]
    assert "--json for all" not in out and "--all" not in out  # CLI options mean nothing here


# -- wording: counts, capability switches, notes to the model -------------------------------------
def test_counts_use_the_singular_for_one(resume, tmp_path):
    one = tmp_path / "one.md"
    one.write_text("## Skills\n", encoding="utf-8")
    _, out, _ = run(resume, [f"/load {one}"])
    assert f"loaded {one} (1 line, 1 section)" in out


def test_switching_to_the_active_capability_says_so(resume):
    repl, out, _ = run(resume, ["/capability star", "/capability star"])
    assert "capability: base → star" in out
    assert "capability star is already active" in out
    assert "star → star" not in out
    assert repl.session.agent.capability.name == "star"


def test_a_model_switch_to_the_active_capability_shows_no_arrow():
    from cvagent_cli.agent import events as ev
    from cvagent_cli.ui.render import EventRenderer

    out = io.StringIO()
    renderer = EventRenderer(Console(file=out, color_system=None, width=120))
    renderer.render(ev.CapabilitySwitched("star", "star", "requested by the model"))
    assert out.getvalue().strip() == "capability: star is already active (requested by the model)"


@pytest.mark.parametrize("answer", ["n keep my wording", "n keep my wording."])
def test_a_rejection_note_is_one_sentence_to_the_model(resume, answer):
    _, _, client = run(
        resume, ["rewrite the summary section", answer], [edit_reply(), ModelResponse("ok")]
    )
    tool = next(m for m in client.requests[1] if m["role"] == "tool")
    assert "Their note: keep my wording. Do not apply it again" in tool["content"]
    assert ".." not in tool["content"]


def test_no_resumed_conversation_when_only_settings_were_saved(resume):
    first = build_session(client=ScriptedClient(), doc=ResumeDocument.from_path(resume))
    first.set_capability("star")
    first.save()
    first.close()
    second = build_session(client=ScriptedClient(), doc=ResumeDocument.from_path(resume))
    notices = [n.text for n in second.take_notices()]
    second.close()
    assert second.agent.capability.name == "star"
    assert not any("resumed" in n for n in notices), notices
    assert any("kept from the last session on resume.md: capability star" in n for n in notices)


# -- /show by prefix or part of a name; folders complete with their slash ---------------------------
ZH_SAMPLE = SAMPLE.parent / "zh_weak_operations.md"


def test_show_takes_a_prefix_of_a_section_id_or_title(resume):
    _, out, _ = run(resume, ["/show educ"])
    assert "## Education" in out and "University of Washington" in out
    assert "no section" not in out and "## Skills" not in out


def test_show_takes_a_unique_part_of_a_chinese_title(tmp_path):
    resume = tmp_path / "简历.md"
    shutil.copyfile(ZH_SAMPLE, resume)
    _, out, _ = run(resume, ["/show 成都某电商"])
    assert "成都某电商公司" in out and "no section" not in out
    assert "成都某文化传媒公司" not in out  # the next job is not part of it


def test_show_lists_the_sections_an_ambiguous_name_matches(tmp_path):
    resume = tmp_path / "简历.md"
    shutil.copyfile(ZH_SAMPLE, resume)
    _, out, _ = run(resume, ["/show 成都"])
    assert "'成都' matches 3 sections: 工作经历/成都某电商公司-运营助理" in out
    assert "## 工作经历" not in out  # nothing was shown


def test_show_suggests_each_section_once(resume):
    _, out, _ = run(resume, ["/show Educaton"])
    assert "no section 'Educaton'" in out
    hint = out[out.index("did you mean") :].split("?")[0]
    assert hint.count("education") == 1 and "Education" not in hint


def test_tab_completion_of_a_folder_adds_its_slash(resume, tmp_path, monkeypatch):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs.md").write_text("# a job\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    repl, _, _ = make_repl(resume, [])
    completer = make_completer(repl)
    found = completer.get_completions(Document("/jd jo"), CompleteEvent(completion_requested=True))
    assert sorted(c.text for c in found) == ["bs.md", "bs/"]


def test_tab_completion_of_show_offers_names_containing_the_text(tmp_path):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    resume = tmp_path / "简历.md"
    shutil.copyfile(ZH_SAMPLE, resume)
    repl, _, _ = make_repl(resume, [])
    found = make_completer(repl).get_completions(
        Document("/show 电商"), CompleteEvent(completion_requested=True)
    )
    assert "成都某电商公司 运营助理" in [c.text for c in found]


def test_export_writes_html_to_a_quoted_path_with_a_template(resume, tmp_path):
    target = tmp_path / "my cv.html"
    _, out, _ = run(resume, [f'/export "{target}" --template compact'])
    assert "exported the resume to" in out and "compact template" in out
    html = target.read_text(encoding="utf-8")
    assert "Daniel R. Okafor" in html


def test_export_writes_json_resume_and_rendercv_yaml(resume, tmp_path):
    import json

    _, out, _ = run(resume, [f"/export {tmp_path / 'cv.json'}", f"/export {tmp_path / 'cv.yaml'}"])
    assert f"exported the resume to {tmp_path / 'cv.json'}" in out
    assert (
        json.loads((tmp_path / "cv.json").read_text("utf-8"))["basics"]["name"]
        == "Daniel R. Okafor"
    )
    written = (tmp_path / "cv.yaml").read_text("utf-8")
    assert written.startswith("cv:\n  name: Daniel R. Okafor\n")
    # +1 555 is no valid number for rendercv's phone field: a custom connection holds it
    assert "- placeholder: +1 555-123-4567\n" in written and "not in cv.yaml" not in out


def test_export_with_an_unknown_template_is_one_line(resume, tmp_path):
    _, out, _ = run(resume, [f"/export {tmp_path / 'cv.html'} --template fancy"])
    assert "fancy" in out and "Traceback" not in out
    assert not (tmp_path / "cv.html").exists()


def test_export_to_a_bad_place_is_one_line_and_the_session_goes_on(resume, tmp_path):
    """A missing folder, or a folder named like the output, is an error line before any
    question; the REPL goes on."""
    folder = tmp_path / "sub.pdf"
    folder.mkdir()
    _, out, client = run(
        resume,
        [
            f"/export {tmp_path}/no/such/dir/x.pdf",
            f"/export {folder}",
            "/save " + str(folder),
            "/help",
        ],
    )
    assert "does not exist" in out and out.count("is a folder") == 2
    assert "overwrite" not in out  # never asked: the answer could not be acted on
    assert "Traceback" not in out and "/capability" in out
    assert client.requests == [] and list(folder.iterdir()) == []


def test_export_over_an_existing_file_asks_and_a_read_only_one_is_refused(resume, tmp_path):
    target = tmp_path / "cv.html"
    target.write_text("old", encoding="utf-8")
    _, out, _ = run(resume, [f"/export {target}", "n"])
    assert "overwrite it?" in out and "not exported" in out
    assert target.read_text(encoding="utf-8") == "old"
    _, out, _ = run(resume, [f"/export {target}", "y"])
    assert "exported the resume" in out and "Daniel R. Okafor" in target.read_text("utf-8")
    target.chmod(0o444)
    _, out, _ = run(resume, [f"/export {target}", f"/save {target}"])
    assert out.count("read-only") == 2 and "overwrite it?" not in out
    assert "Daniel R. Okafor" in target.read_text(encoding="utf-8")


def test_slash_options_are_read_as_a_shell_would():
    from cvagent_cli.errors import UsageError
    from cvagent_cli.ui.command_line import split_options

    needs = {"--template": "a name"}
    alias = {"-t": "--template"}
    assert split_options("/x", "my\\ cv.pdf -t compact", needs, alias) == (
        ["my cv.pdf"],
        {"--template": "compact"},
    )
    assert split_options("/x", "--template=compact 'a b.docx'", needs) == (
        ["a b.docx"],
        {"--template": "compact"},
    )
    # an apostrophe in a name is no quote
    assert split_options("/x", "O'Brien.pdf", needs) == (["O'Brien.pdf"], {})
    for missing in ("cv.pdf --template", "cv.pdf --template="):
        with pytest.raises(UsageError, match="--template needs a name"):
            split_options("/x", missing, needs)


def test_export_takes_the_short_template_option_after_an_unquoted_name(resume, tmp_path):
    _, out, _ = run(resume, [f"/export -t compact {tmp_path / 'cv.html'}"])
    assert "compact template" in out and (tmp_path / "cv.html").exists()


# -- a resume its owner made read-only, or deleted mid-chat ----------------------------------
def test_a_read_only_resume_is_said_at_start_and_never_replaced(resume, tmp_path):
    original = resume.read_bytes()
    resume.chmod(0o444)
    target = tmp_path / "cv.html"
    repl, out, client = make_repl(
        resume,
        ["rewrite the summary section", "/undo", "/analyze", f"/export {target}"],
        [edit_reply(), ModelResponse("Understood.")],
    )
    notices = [n.text for n in repl.session.take_notices()]
    assert any("is read-only (its file permissions)" in n for n in notices), notices
    repl.run()
    repl.session.close()
    out = out.getvalue()
    assert "✎ proposed edit: stronger verb" in out  # the edit is still shown …
    assert "Apply?" not in out  # … but never offered
    assert "read-only on disk" in out
    assert "Score" in out and target.exists()  # analysis and export still work
    assert resume.read_bytes() == original
    assert stat.S_IMODE(resume.stat().st_mode) == 0o444
    tool = next(m for m in client.requests[1] if m["role"] == "tool")["content"]
    assert tool.startswith("Not applied:") and "read-only" in tool
    assert "(read-only)" in repl.toolbar()


def test_a_resume_made_read_only_mid_session_is_not_replaced(resume):
    original = resume.read_bytes()
    repl, out, _ = make_repl(resume, ["rewrite the summary section", "y"], [edit_reply()])
    resume.chmod(0o444)  # after start: the check is made again before each write
    repl.run()
    repl.session.close()
    assert "Apply?" not in out.getvalue() and resume.read_bytes() == original
    assert repl.session.workspace.undo.done == []  # nothing recorded for an edit not made


def test_a_resume_deleted_mid_chat_is_noticed_before_the_question(resume):
    repl, out, _ = make_repl(resume, ["rewrite the summary section", "y"], [edit_reply()])
    resume.unlink()
    repl.run()
    repl.session.close()
    text = out.getvalue()
    assert "no longer there" in text and "Apply?" not in text
    assert not resume.exists()  # never re-created where the user no longer keeps it


# -- bad arguments to slash commands -----------------------------------------------------------
@pytest.mark.parametrize(
    "line, usage",
    [
        ("/undo abc", "/undo [N]"),
        ("/undo -1", "/undo [N]"),
        ("/undo 0", "/undo [N]"),
        ("/undo ２", "/undo [N]"),  # a full-width digit is not a count either
        ("/redo 0", "/redo [N]"),
        ("/redo x", "/redo [N]"),
        ("/diff foo", "/diff [last]"),
        ("/diff lastly", "/diff [last]"),
        ("/clear now", "/clear"),
        ("/analyze everything", "/analyze"),
    ],
)
def test_a_bad_argument_prints_the_usage_and_changes_nothing(resume, line, usage):
    # one applied edit, one undone: both /undo and /redo would have something to do
    lines = ["rewrite the summary section", "y", "rewrite it again", "y", "/undo", line]
    second = edit_reply(NEW, NEW.replace("Owns", "Runs"), "another verb")
    repl, out, _ = run(resume, lines, [edit_reply(), ModelResponse("Done."), second])
    after_undo = out.rsplit("undid: another verb", 1)[1]
    assert f"usage: {usage}" in after_undo and "unexpected" in after_undo
    assert "undid" not in after_undo and "redid" not in after_undo
    assert "Score" not in after_undo and "conversation cleared" not in after_undo
    assert NEW in resume.read_text(encoding="utf-8")  # the state the /undo left
    assert [e.reason for e in repl.session.workspace.undo.done] == ["stronger verb"]
    assert [e.reason for e in repl.session.workspace.undo.undone] == ["another verb"]


def test_good_counts_still_step(resume):
    second = edit_reply(NEW, NEW.replace("Owns", "Runs"), "another verb")
    lines = ["rewrite the summary section", "y", "rewrite it again", "y", "/undo 2", "/redo 1"]
    lines.append("/diff LAST")
    _, out, _ = run(resume, lines, [edit_reply(), ModelResponse("Done."), second])
    assert "undid: another verb" in out and "undid: stronger verb" in out
    assert "redid: stronger verb" in out and "last edit: stronger verb" in out


def test_a_retry_at_once_is_not_announced_as_in_0_s(resume):
    """A retry the gateway makes at once is not announced as "retrying in 0 s"."""
    from cvagent_cli.llm.types import Retrying

    class RetryingClient(ScriptedClient):
        def stream(self, messages, tools=None, **kwargs):
            yield Retrying("the server dropped the connection", 0.0, 1)
            yield from super().stream(messages, tools, **kwargs)

    _, out, _ = run(resume, ["hello"], client=RetryingClient([ModelResponse("Hi.")]))
    assert "the server dropped the connection; retrying now" in out and "0 s" not in out


def test_export_embeds_the_source_unless_no_source(resume, tmp_path):
    with_source, without = tmp_path / "a.docx", tmp_path / "b.docx"
    _, out, _ = run(resume, [f"/export {with_source}", f"/export --no-source {without}"])
    assert f"exported the resume to {without}" in out
    assert b"urn:cvagent:resume-source" in _parts(with_source)
    assert b"urn:cvagent:resume-source" not in _parts(without)


def _parts(docx: Path) -> bytes:
    import zipfile

    with zipfile.ZipFile(docx) as package:
        return b"".join(package.read(name) for name in package.namelist())


def test_export_takes_a_paper_and_refuses_an_unknown_one(resume, tmp_path):
    import pdfplumber

    target = tmp_path / "cv.pdf"
    _, out, _ = run(resume, [f"/export {target} --paper a4"])
    assert "exported the resume to" in out
    with pdfplumber.open(target) as pdf:
        assert round(float(pdf.pages[0].height)) == 842  # A4, though the resume is American
    _, out, _ = run(resume, [f"/export {tmp_path / 'x.pdf'} --paper a5"])
    assert "unknown paper 'a5'" in out and "Traceback" not in out
    assert not (tmp_path / "x.pdf").exists()


def test_export_uses_the_paper_setting(resume, tmp_path):
    import pdfplumber

    target = tmp_path / "cv.pdf"
    run(resume, [f"/export {target}"], paper="a4")
    with pdfplumber.open(target) as pdf:
        assert round(float(pdf.pages[0].height)) == 842


def test_export_takes_dates_and_the_dates_setting(resume, tmp_path):
    """/export --dates inline sets each entry's dates right after its title (one extracted
    line "title · dates"); the ``dates`` setting makes it the default; an unknown value is
    one line of error."""
    from tests.support.pdf_measures import dated_entries, pdfminer_text

    entry = dated_entries(resume.read_text(encoding="utf-8"))[0]
    inline = f"{entry.title} · {entry.dates}"
    run(resume, [f"/export {tmp_path / 'right.pdf'}"])
    assert inline not in pdfminer_text((tmp_path / "right.pdf").read_bytes())
    _, out, _ = run(resume, [f"/export {tmp_path / 'a.pdf'} --dates inline"])
    assert "exported the resume to" in out
    assert inline in pdfminer_text((tmp_path / "a.pdf").read_bytes())
    run(resume, [f"/export {tmp_path / 'b.pdf'}"], dates="inline")
    assert inline in pdfminer_text((tmp_path / "b.pdf").read_bytes())
    _, out, _ = run(resume, [f"/export {tmp_path / 'x.pdf'} --dates left"])
    assert "unknown dates 'left'" in out and "Traceback" not in out
    assert not (tmp_path / "x.pdf").exists()
