"""A model may not write a character a resume cannot hold, and the ones nobody can see are
shown in diffs.

A ``new_text`` with ESC sequences, a right-to-left override, a zero-width space, BEL or NUL
used to be applied (with --yes, or after a yes to a diff that hid them); resume.md then
read as a binary file, so ``analyze`` and ``chat`` refused it and ``/undo`` could not
reach the edit.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.compose import build_session
from cvagent_cli.charset import added_forbidden, forbidden_in_resume, show_invisible
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.editing import unified_diff
from cvagent_cli.ui.console import clean
from cvagent_cli.ui.render import EventRenderer
from cvagent_cli.workspace import Workspace
from tests.support.scripted import ScriptedModel, tool

HOSTILE = {
    "escape sequence": "Led \x1b[2Jthe team",
    "right-to-left override": "Led the team \u202egnissecorp",
    "zero-width space": "Led the\u200b team",
    "bell": "Led the team\x07",
    "nul": "Led the\x00 team",
    "C1 control": "Led the\x9b team",
    "bidi isolate": "Led \u2067the\u2069 team",
    "tag characters": "Led the team\U000e0069\U000e0067\U000e006e",
}


def _apply(_edit):
    return ev.Decision(ev.Action.APPLY)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_model_edit_with_a_hostile_character_is_refused_and_the_resume_stays_readable(
    resume, kind
):
    original = resume.read_bytes()
    bullet = next(
        line[2:] for line in resume.read_text(encoding="utf-8").splitlines() if line[:2] == "- "
    )
    model = ScriptedModel(
        tool("edit_resume", old_text=bullet, new_text=HOSTILE[kind], reason="stronger"),
        "Done.",
    )
    session = build_session(client=model, doc=ResumeDocument.from_path(resume))
    events = list(session.ask("make my first bullet stronger", _apply))
    session.close()
    assert resume.read_bytes() == original
    ResumeDocument.from_path(resume)  # still text: analyze, chat and /undo can read it
    results = [e for e in events if isinstance(e, ev.ToolResultEvent)]
    assert results and not results[0].ok
    assert "cannot hold" in results[0].content
    assert not any(isinstance(e, ev.ProposedEdit) for e in events)


def test_every_writer_is_held_to_the_same_rule(resume):
    """A pending edit kept from an older version reaches ``Workspace.apply`` directly."""
    workspace = Workspace(ResumeDocument.from_path(resume))
    before = workspace.doc.text  # type: ignore[union-attr]
    result = workspace.apply(before, before + "\u202eevil\n", "kept edit")
    assert not result.applied and "U+202E RIGHT-TO-LEFT OVERRIDE" in result.message
    assert resume.read_text(encoding="utf-8") == before
    assert workspace.undo.done == []


def test_characters_the_file_already_held_do_not_block_other_edits():
    before = "Name\u200b\n- old bullet\n"
    assert added_forbidden(before, before.replace("old", "new")) == []
    assert added_forbidden(before, before + "\u200b") == ["\u200b"]


@pytest.mark.parametrize(
    "text",
    [
        "Built 👩‍💻 tools",  # zero-width joiner inside an emoji sequence
        "Hiking 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # flag of Scotland
        "Tabs\tand\r\nnewlines",
        "中文简历：负责后端开发",
        "Café ﬁne Ω",
    ],
)
def test_ordinary_resume_text_is_allowed(text):
    assert forbidden_in_resume(text) == []


def test_a_diff_shows_invisible_and_bidi_characters_instead_of_obeying_them():
    before = "- Led the team\n"
    after = "- Led the team \u202egnissecorp\u200b\n"
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=120)
    renderer = EventRenderer(console, live=False)
    renderer.render(
        ev.ProposedEdit("e1", "c1", "why", before, after, unified_diff(before, after), ())
    )
    renderer.finish()
    printed = buffer.getvalue()
    assert "\u202e" not in printed and "\u200b" not in printed
    assert "⟨U+202E⟩" in printed and "⟨U+200B⟩" in printed
    assert clean("Built 👩‍💻 tools") == "Built 👩‍💻 tools"
    assert show_invisible("a\u2066b") == "a⟨U+2066⟩b"
