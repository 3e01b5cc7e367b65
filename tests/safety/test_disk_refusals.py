"""When the disk says no: a full state directory, a folder that refuses the write, and
special files where an output should go.

The resume is never half-written and the session goes on; a ``--yes`` run whose approved
edit could not be written exits 2; only a regular file is ever replaced.
"""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest
from rich.console import Console

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.compose import build_session
from cvagent_cli.cli.chat_runner import run_messages
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.store import undo as undo_module
from cvagent_cli.store.atomic import atomic_write_bytes, check_output_path
from cvagent_cli.ui.io import ChatIO
from cvagent_cli.ui.repl import Repl
from cvagent_cli.workspace import Workspace
from tests.support.scripted import ScriptedModel, tool


def _full_disk(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device", "/state/sessions/r/undo.json")


def _apply(_edit):
    return ev.Decision(ev.Action.APPLY)


def _first_bullet(path: Path) -> str:
    return next(ln[2:] for ln in path.read_text(encoding="utf-8").splitlines() if ln[:2] == "- ")


def test_a_full_state_directory_leaves_the_edit_unapplied_and_the_session_going(
    resume, monkeypatch
):
    original = resume.read_bytes()
    bullet = _first_bullet(resume)
    model = ScriptedModel(
        tool("edit_resume", old_text=bullet, new_text=bullet + " daily", reason="r"),
        "I tried.",
        "Still here.",
    )
    session = build_session(client=model, doc=ResumeDocument.from_path(resume))
    monkeypatch.setattr(undo_module, "write_private_json", _full_disk)
    events = list(session.ask("make it stronger", _apply))
    outcome = next(e for e in events if isinstance(e, ev.EditOutcome))
    assert not outcome.applied and outcome.failed
    assert outcome.message.startswith("cannot save the undo log")
    assert "No space left on device; the edit was not applied" in outcome.message
    assert resume.read_bytes() == original
    assert session.workspace.undo.done == []  # the log in memory is as it was
    later = list(session.ask("are you there?", _apply))  # the session goes on
    assert later[-1].final_text == "Still here."
    session.close()


def test_undo_and_redo_with_a_full_state_directory_change_nothing(resume, monkeypatch):
    workspace = Workspace(ResumeDocument.from_path(resume), undo=undo_module.UndoLog(None))
    workspace.undo.path = resume.parent / "undo.json"
    before = workspace.doc.text  # type: ignore[union-attr]
    assert workspace.apply(before, before + "- new line\n", "add").applied
    edited = resume.read_bytes()
    monkeypatch.setattr(undo_module, "write_private_json", _full_disk)
    result = workspace.undo_last()
    assert not result.applied and result.failed
    assert "nothing was undone" in result.message
    assert resume.read_bytes() == edited
    assert len(workspace.undo.done) == 1 and workspace.undo.undone == []


def test_a_yes_run_whose_approved_edit_cannot_be_written_exits_2(resume, monkeypatch):
    bullet = _first_bullet(resume)
    model = ScriptedModel(
        tool("edit_resume", old_text=bullet, new_text=bullet + " daily", reason="r"), "Done."
    )
    session = build_session(client=model, doc=ResumeDocument.from_path(resume), auto_apply=True)
    out = io.StringIO()
    repl = Repl(session, ChatIO(input=[], output=Console(file=out, width=120)))
    monkeypatch.setattr("cvagent_cli.workspace.atomic_write_bytes", _full_disk)
    code = run_messages(repl, ["make it stronger"], answers_to_stdout=False)
    session.close()
    assert code == 2
    assert "No space left on device; the edit was not applied" in out.getvalue()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_read_only_folder_is_named_as_the_folder(resume):
    workspace = Workspace(ResumeDocument.from_path(resume))
    before = workspace.doc.text  # type: ignore[union-attr]
    resume.parent.chmod(0o555)
    try:
        result = workspace.apply(before, before + "- new\n", "add")
    finally:
        resume.parent.chmod(0o755)
    assert not result.applied and f"its folder {resume.parent} is not writable" in result.message


def test_a_write_refused_by_permission_names_the_folder_when_it_is_the_folder(resume, monkeypatch):
    """The same message as a non-root user gets, whoever runs the suite."""

    def refused(*_args, **_kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(resume.parent / ".tmp"))

    monkeypatch.setattr("cvagent_cli.workspace.atomic_write_bytes", refused)
    real_access = os.access
    monkeypatch.setattr(  # a folder without write permission for this user
        os, "access", lambda path, mode: not Path(path).is_dir() and real_access(path, mode)
    )
    workspace = Workspace(ResumeDocument.from_path(resume))
    before = workspace.doc.text  # type: ignore[union-attr]
    result = workspace.apply(before, before + "- new\n", "add")
    assert result.failed
    assert result.message == (
        f"cannot write resume.md: its folder {resume.parent.resolve()} is not writable "
        "(Permission denied); the edit was not applied"
    )


def _special(tmp_path: Path, kind: str) -> Path:
    target = tmp_path / "out.json"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink to a fifo":
        os.mkfifo(tmp_path / "pipe")
        target.symlink_to(tmp_path / "pipe")
    elif kind == "symlink to a device":
        target.symlink_to("/dev/null")
    elif kind == "symlink loop":
        (tmp_path / "other.json").symlink_to(target)
        target.symlink_to(tmp_path / "other.json")
    return target


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("fifo", "a named pipe (FIFO)"),
        ("symlink to a fifo", "a named pipe (FIFO)"),
        ("symlink to a device", "a device"),
        ("symlink loop", "a symlink loop"),
    ],
)
def test_only_a_regular_file_is_ever_replaced(tmp_path, kind, said):
    target = _special(tmp_path, kind)
    for overwrite in (False, True):
        with pytest.raises(InputError) as caught:
            check_output_path(target, overwrite=overwrite)
        assert caught.value.message == f"{target} is {said}; cvagent only replaces regular files"
    with pytest.raises(OSError):  # the last line of defence, for any writer
        atomic_write_bytes(target, b"{}")
    assert not target.is_file() or target.resolve() == Path("/dev/null")


def test_a_resume_with_a_second_hard_link_says_what_an_edit_does_to_it(resume):
    os.link(resume, resume.parent / "copy.md")
    workspace = Workspace(ResumeDocument.from_path(resume))
    assert any("has 2 names (hard links)" in n for n in workspace.notices)
    single = resume.parent / "single.md"
    single.write_bytes(resume.read_bytes())
    assert not any("hard links" in n for n in Workspace(ResumeDocument.from_path(single)).notices)
