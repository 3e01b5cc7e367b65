"""The ``e`` answer and the editor: leaving the editor without a change,
or emptying it, never applies anything; a flagged edit needs an explicit yes by every path.

The editor is a small Python script given as $EDITOR, run through the real launcher
(``click.edit``), so the only fake is the person at the keyboard.
"""

from __future__ import annotations

import json
import sys

import pytest

from cvagent_cli.llm.types import ModelResponse, ToolCallRequest
from cvagent_cli.ui.editor import EditorError, edit_file, edit_text
from tests.ui.test_repl_commands import make_repl

OLD_1 = "Mentored 9 engineers; 4 were promoted to senior and 1 to staff within 3 years."
NEW_1 = "Mentored engineers, several of whom were promoted."
OLD_2 = "Wrote load-testing harnesses in Go that caught 12 capacity regressions before release."
INVENTED = "Answered 85 customer calls a day with 97% satisfaction."
NEW_2 = "Wrote load-testing harnesses in Go that caught capacity regressions before release."


@pytest.fixture
def editor(tmp_path, monkeypatch):
    """Set $EDITOR to a script that does one thing to the file: ``keep`` (closes without
    saving, like ``:q!``), ``touch`` (saves it unchanged), ``empty``, ``fail`` (exit 1),
    or ``replace OLD NEW``."""
    script = tmp_path / "fake_editor.py"
    script.write_text(
        "import os, sys, pathlib\n"
        "mode, path = sys.argv[1], pathlib.Path(sys.argv[-1])\n"
        "if mode == 'touch': os.utime(path)\n"
        "if mode == 'empty': path.write_text('')\n"
        "if mode == 'fail': sys.exit(1)\n"
        "if mode == 'replace':\n"
        "    path.write_text(path.read_text().replace(sys.argv[2], sys.argv[3]))\n",
        encoding="utf-8",
    )

    def use(*args: str) -> None:
        quoted = " ".join(json.dumps(a) for a in args)
        monkeypatch.setenv("EDITOR", f"{sys.executable} {script} {quoted}")

    return use


def batch_reply(*pairs: tuple[str, str]) -> ModelResponse:
    args = json.dumps(
        {"edits": [{"old_text": o, "new_text": n} for o, n in pairs], "reason": "tighten"}
    )
    return ModelResponse("", [ToolCallRequest("call_batch", "batch_edit_resume", args)])


def chat(resume, answers, reply):
    repl, out, _ = make_repl(resume, ["tighten my experience bullets", *answers], [reply])
    repl.session.set_capability("optimizer")  # the pack that enables batch_edit_resume
    assert repl.run() == 0
    repl.session.close()
    return out.getvalue()


# -- the launcher ------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["keep", "touch", "empty"])
def test_an_editor_left_without_a_change_returns_nothing(editor, mode):
    editor(mode)
    assert edit_text("# Ana\n\nText.\n") is None


@pytest.mark.slow
def test_an_edited_text_comes_back_with_its_own_ending(editor):
    editor("replace", "Text", "Prose")
    assert edit_text("# Ana\n\nText.\n") == "# Ana\n\nProse.\n"
    assert edit_text("# Ana\n\nText.") == "# Ana\n\nProse."  # no newline added


@pytest.mark.slow
def test_a_failing_editor_is_one_clear_error(editor, tmp_path):
    editor("fail")
    with pytest.raises(EditorError, match=r"the editor .* failed"):
        edit_text("x\n")
    with pytest.raises(EditorError, match=r"the editor .* failed"):
        edit_file(tmp_path / "config.yaml")


# -- the Apply prompt -------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["keep", "touch", "empty"])
def test_leaving_the_editor_unchanged_goes_back_to_the_apply_prompt(resume, editor, mode):
    editor(mode)
    original = resume.read_bytes()
    out = chat(resume, ["e", "n"], batch_reply((OLD_1, NEW_1), (OLD_2, NEW_2)))
    assert resume.read_bytes() == original
    assert "applied to the resume" not in out
    assert "nothing changed in the editor" in out
    assert out.count("Apply?") == 2  # asked again after the editor, answered n


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["keep", "touch", "empty"])
def test_an_invented_batch_is_not_written_by_leaving_the_editor(resume, editor, mode):
    editor(mode)
    original = resume.read_bytes()
    out = chat(resume, ["e"], batch_reply((OLD_1, NEW_1), (OLD_2, INVENTED)))
    assert "possibly invented" in out
    assert resume.read_bytes() == original  # the input ended: rejected, never applied
    assert "applied to the resume" not in out


@pytest.mark.slow
def test_a_flagged_edit_changed_in_the_editor_still_needs_a_yes(resume, editor):
    editor("replace", "with 97% satisfaction", "politely")
    original = resume.read_bytes()
    out = chat(resume, ["e", "n"], batch_reply((OLD_1, NEW_1), (OLD_2, INVENTED)))
    assert "your version:" in out and "Answered 85 customer calls a day politely." in out
    assert resume.read_bytes() == original
    assert "applied to the resume" not in out


@pytest.mark.slow
def test_a_yes_applies_the_users_version_of_a_flagged_edit(resume, editor):
    editor("replace", "with 97% satisfaction", "politely")
    out = chat(resume, ["e", "y"], batch_reply((OLD_1, NEW_1), (OLD_2, INVENTED)))
    text = resume.read_text(encoding="utf-8")
    assert "applied to the resume" in out
    assert "Answered 85 customer calls a day politely." in text and "97% satisfaction" not in text


@pytest.mark.slow
def test_an_unflagged_batch_edited_in_the_editor_is_applied(resume, editor):
    editor("replace", "several of whom", "many of whom")
    out = chat(resume, ["e"], batch_reply((OLD_1, NEW_1), (OLD_2, NEW_2)))
    assert "applied to the resume" in out
    assert "Mentored engineers, many of whom were promoted." in resume.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_failing_editor_is_said_and_nothing_applied(resume, editor):
    editor("fail")
    original = resume.read_bytes()
    out = chat(resume, ["e", "n"], batch_reply((OLD_1, NEW_1), (OLD_2, NEW_2)))
    assert "the editor" in out and "failed" in out
    assert resume.read_bytes() == original


@pytest.mark.slow
def test_a_missing_editor_is_said_once_in_words(resume, monkeypatch):
    """Issue 34, item 26: an errno, then "nothing changed in the editor"."""
    monkeypatch.setenv("EDITOR", "/nonexistent/editor")
    original = resume.read_bytes()
    out = chat(resume, ["e", "n"], batch_reply((OLD_1, NEW_1), (OLD_2, NEW_2)))
    flat = " ".join(out.split())
    assert "could not start the editor '/nonexistent/editor': no such program" in flat
    assert "Errno" not in out and "nothing changed in the editor" not in out
    assert resume.read_bytes() == original


@pytest.mark.parametrize(
    "typed", ["", "Owns services end to end, from design doc to on-call rotation."]
)
def test_an_inline_edit_left_as_proposed_or_emptied_applies_nothing(resume, typed):
    from tests.ui.test_repl_commands import edit_reply

    original = resume.read_bytes()
    repl, out, _ = make_repl(
        resume, ["rewrite the summary section", "e", typed, "n"], [edit_reply()]
    )
    assert repl.run() == 0
    repl.session.close()
    assert resume.read_bytes() == original
    assert "nothing changed in the editor" in out.getvalue()


def test_the_agent_never_reads_an_emptied_text_as_the_proposal(resume):
    """Defence in depth: a Decision carrying an empty text is no edit, whatever the UI."""
    from cvagent_cli.agent.events import Action, Decision, EditOutcome

    original = resume.read_bytes()
    repl, _, _ = make_repl(resume, [], [batch_reply((OLD_1, NEW_1), (OLD_2, NEW_2))])
    repl.session.set_capability("optimizer")
    events = list(
        repl.session.ask("tighten my bullets", lambda edit: Decision(Action.APPLY, new_text=""))
    )
    repl.session.close()
    outcome = next(e for e in events if isinstance(e, EditOutcome))
    assert not outcome.applied
    assert resume.read_bytes() == original
