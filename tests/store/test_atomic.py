"""Atomic writes and the checks on every file cvagent writes for the user."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from cvagent_cli.errors import InputError
from cvagent_cli.store.atomic import (
    atomic_write_bytes,
    check_output_path,
    is_read_only,
    write_output,
)
from cvagent_cli.store.textio import read_text_file


def test_atomic_write_keeps_permissions_and_leaves_no_temp_files(tmp_path):
    path = tmp_path / "cv.md"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["cv.md"]


def test_atomic_write_through_a_symlink_keeps_the_link(tmp_path):
    target = tmp_path / "real.md"
    target.write_bytes(b"old")
    link = tmp_path / "cv.md"
    link.symlink_to(target)
    atomic_write_bytes(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "cv.md"
    path.write_bytes(b"old")

    def boom(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["cv.md"]


def test_output_checks_refuse_what_cannot_be_written(tmp_path):

    folder = tmp_path / "sub.pdf"
    folder.mkdir()
    a_file = tmp_path / "r.md"
    a_file.write_text("# Ann\n", encoding="utf-8")
    cases = [
        (tmp_path / "no" / "such" / "x.pdf", True, "does not exist"),
        (folder, True, "is a folder"),
        (a_file / "x.pdf", True, "is a file, not a folder"),
        (a_file, False, "already exists"),
    ]
    for target, overwrite, words in cases:
        with pytest.raises(InputError, match=words):
            check_output_path(target, overwrite=overwrite)
    assert check_output_path(a_file, overwrite=True) == a_file
    assert check_output_path(tmp_path / "new.pdf", overwrite=False) == tmp_path / "new.pdf"


def test_a_read_only_output_is_never_replaced(tmp_path):

    path = tmp_path / "cv.pdf"
    path.write_bytes(b"keep")
    os.chmod(path, 0o444)
    assert is_read_only(path)  # by its mode bits, so also when the tests run as root
    with pytest.raises(InputError, match="read-only"):
        check_output_path(path, overwrite=True)
    assert path.read_bytes() == b"keep"


def test_write_output_turns_an_os_error_into_one_line(tmp_path, monkeypatch):

    path = tmp_path / "cv.html"
    path.write_bytes(b"old")

    def boom(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(InputError, match=r"cannot write .*No space left"):
        write_output(path, b"new")
    assert path.read_bytes() == b"old"


def test_atomic_write_never_replaces_a_read_only_file(tmp_path):
    """A rename replaces a 0444 file as easily as any other (and root may write anything):
    the write path refuses it as opening it for writing would."""
    path = tmp_path / "cv.md"
    path.write_bytes(b"old")
    os.chmod(path, 0o444)
    with pytest.raises(PermissionError):
        atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"old"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["cv.md"]


def test_a_new_file_gets_the_mode_open_would_give_it(tmp_path):
    """Not mkstemp's 0600: an exported PDF is for sharing; private state files pass mode=0o600 themselves."""
    old = os.umask(0o022)
    try:
        atomic_write_bytes(tmp_path / "cv.pdf", b"%PDF")
        atomic_write_bytes(tmp_path / "state.json", b"{}", mode=0o600)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "cv.pdf").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "state.json").stat().st_mode) == 0o600


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_a_looping_or_dangling_link_is_named_as_one(tmp_path):
    """Not "no such file" for a path that is there but loops."""
    (tmp_path / "a.md").symlink_to(tmp_path / "b.md")
    (tmp_path / "b.md").symlink_to(tmp_path / "a.md")
    (tmp_path / "gone.md").symlink_to(tmp_path / "nowhere.md")
    with pytest.raises(InputError, match="a symbolic link that loops"):
        read_text_file(tmp_path / "a.md")
    with pytest.raises(InputError, match=r"a symbolic link to .*nowhere\.md, which does not exist"):
        read_text_file(tmp_path / "gone.md")
    with pytest.raises(InputError, match="no such file"):
        read_text_file(tmp_path / "missing.md")
