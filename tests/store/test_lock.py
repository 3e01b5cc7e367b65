"""One writer per resume: ResumeLock."""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cvagent_cli import paths
from cvagent_cli.errors import LockedError
from cvagent_cli.store import lock as lock_module
from cvagent_cli.store.lock import ResumeLock

HOLDER_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from cvagent_cli.store.lock import ResumeLock

    lock = ResumeLock(Path(sys.argv[1])).acquire()
    print("locked", flush=True)
    time.sleep(120)
    """
)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("CVAGENT_HOME", str(home))
    return home


@pytest.fixture
def resume(tmp_path: Path) -> Path:
    folder = tmp_path / "cv"
    folder.mkdir()
    path = folder / "resume.md"
    path.write_text("# Jane Doe\n", encoding="utf-8")
    return path


def wait_for(predicate, timeout: float = 30.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def holder_process(resume: Path) -> Iterator[subprocess.Popen[str]]:
    """A second process that takes the lock on ``resume`` and keeps it."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER_SCRIPT, str(resume)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    probe = ResumeLock(resume)

    def ready() -> bool:
        if proc.poll() is not None:
            raise AssertionError(
                f"holder exited early: {proc.stderr.read() if proc.stderr else ''}"
            )
        info = probe.holder()
        return bool(info and info.get("pid") == proc.pid)

    try:
        wait_for(ready, what="the holder process to take the lock")
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(timeout=30)
    return proc.pid


def test_lock_and_info_live_in_the_state_dir_never_next_to_the_resume(resume: Path) -> None:
    lock = ResumeLock(resume)
    files = paths.session_files(resume, create=False)
    assert lock.lock_path == files.lock
    assert lock.info_path == files.lock_info
    with lock:
        assert lock.is_held and lock.info_path.exists()
        assert sorted(p.name for p in resume.parent.iterdir()) == ["resume.md"]
        assert resume.read_text(encoding="utf-8") == "# Jane Doe\n"
        assert (files.folder.stat().st_mode & 0o777) == 0o700 or sys.platform == "win32"
    assert sorted(p.name for p in resume.parent.iterdir()) == ["resume.md"]


def test_holder_info_is_written_and_removed_on_release(resume: Path) -> None:
    lock = ResumeLock(resume)
    assert lock.holder() is None
    lock.acquire()
    info = lock.holder()
    assert info is not None
    assert info["pid"] == os.getpid()
    assert info["hostname"] == socket.gethostname()
    assert "T" in info["started"] and info["command"]
    assert not lock.took_over_stale and not lock.degraded
    lock.release()
    assert lock.holder() is None
    assert not lock.info_path.exists()
    assert lock.lock_path.exists()  # the .lock file stays (filelock convention)
    lock.release()  # idempotent


def test_second_lock_in_the_same_process_is_refused(resume: Path) -> None:
    with ResumeLock(resume):
        other = ResumeLock(resume)
        with pytest.raises(LockedError) as info:
            other.acquire()
        message = info.value.message
        assert message.startswith("resume.md is being edited by another cvagent (pid ")
        assert f"pid {os.getpid()}," in message
        assert "started " in message and message.endswith("; close that one first")
        assert not other.is_held
    # once released, the other instance gets it
    with ResumeLock(resume) as again:
        assert again.is_held and not again.took_over_stale


def test_same_instance_acquire_is_idempotent(resume: Path) -> None:
    lock = ResumeLock(resume)
    assert lock.acquire() is lock
    assert lock.acquire() is lock
    lock.release()
    assert not lock.is_held


@pytest.mark.slow
def test_lock_held_by_another_process_is_refused(
    resume: Path, holder_process: subprocess.Popen[str]
) -> None:
    lock = ResumeLock(resume)
    with pytest.raises(LockedError) as info:
        lock.acquire()
    assert f"(pid {holder_process.pid}, started " in info.value.message
    assert lock.holder()["pid"] == holder_process.pid  # type: ignore[index]
    assert not lock.is_held


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_lock_of_a_killed_holder_is_taken_over(
    resume: Path, holder_process: subprocess.Popen[str]
) -> None:
    with pytest.raises(LockedError):
        ResumeLock(resume).acquire()
    os.kill(holder_process.pid, signal.SIGKILL)
    holder_process.wait(timeout=30)
    lock = ResumeLock(resume)
    assert lock.holder()["pid"] == holder_process.pid  # type: ignore[index]  # its info file was left behind
    lock.acquire()
    try:
        assert lock.took_over_stale
        assert lock.holder()["pid"] == os.getpid()  # type: ignore[index]
    finally:
        lock.release()


@pytest.mark.slow
def test_stale_info_file_naming_a_dead_pid_is_taken_over(resume: Path) -> None:
    lock = ResumeLock(resume)
    pid = dead_pid()
    stale = {
        "pid": pid,
        "hostname": socket.gethostname(),
        "started": "2020-01-01T10:31:00+00:00",
        "command": "cvagent chat",
    }
    lock.info_path.parent.mkdir(parents=True, exist_ok=True)
    lock.info_path.write_text(json.dumps(stale), encoding="utf-8")
    assert lock.holder()["pid"] == pid  # type: ignore[index]
    with lock:
        assert lock.took_over_stale
        info = lock.holder()
        assert info is not None and info["pid"] == os.getpid() and info["command"] != "cvagent chat"


def test_info_file_from_another_host_is_respected(resume: Path) -> None:
    lock = ResumeLock(resume)
    foreign = {
        "pid": 4242,
        "hostname": "some-other-laptop",
        "started": dt_today_at(10, 31),
        "command": "cvagent chat",
    }
    lock.info_path.parent.mkdir(parents=True, exist_ok=True)
    lock.info_path.write_text(json.dumps(foreign), encoding="utf-8")
    with pytest.raises(LockedError) as info:
        lock.acquire()
    assert info.value.message == (
        "resume.md is being edited by another cvagent (pid 4242 on some-other-laptop, started 10:31); close that one first"
    )
    assert str(lock.info_path) in (info.value.hint or "")
    assert not lock.is_held
    # the OS lock was given back: after the info file is deleted, the lock is free
    lock.info_path.unlink()
    with ResumeLock(resume) as again:
        assert again.is_held


def dt_today_at(hour: int, minute: int) -> str:
    import datetime as dt

    return (
        dt.datetime.now()
        .astimezone()
        .replace(hour=hour, minute=minute, second=0, microsecond=0)
        .isoformat()
    )


def test_message_without_info_file_still_explains(
    resume: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ResumeLock(resume) as first:
        first.info_path.unlink()
        with pytest.raises(LockedError) as info:
            ResumeLock(resume).acquire()
    assert (
        info.value.message == "resume.md is being edited by another cvagent; close that one first"
    )


# --- where the lock lives ----------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_read_only_resume_folder_is_locked_all_the_same(resume: Path) -> None:
    folder = resume.parent
    folder.chmod(0o555)
    try:
        with ResumeLock(resume) as lock:
            assert lock.is_held
            with pytest.raises(LockedError):
                ResumeLock(resume).acquire()
    finally:
        folder.chmod(0o755)
    assert sorted(p.name for p in folder.iterdir()) == ["resume.md"]


# --- locks that earlier versions left next to the resume ---------------------------------------


def legacy_files(resume: Path) -> tuple[Path, Path]:
    lock = resume.parent / ".resume.md.cvagent.lock"
    info = resume.parent / ".resume.md.cvagent.info"
    lock.write_text("", encoding="utf-8")
    info.write_text(json.dumps({"pid": dead_pid(), "hostname": socket.gethostname()}))
    return lock, info


@pytest.mark.slow
def test_a_free_lock_left_by_an_earlier_version_is_removed(resume: Path) -> None:
    lock_file, info_file = legacy_files(resume)
    with ResumeLock(resume) as lock:
        assert lock.removed_legacy
        assert not lock_file.exists() and not info_file.exists()
    assert sorted(p.name for p in resume.parent.iterdir()) == ["resume.md"]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_lock_held_by_an_earlier_version_is_respected(resume: Path) -> None:
    import fcntl

    lock_file, info_file = legacy_files(resume)
    info_file.write_text(json.dumps({"pid": 4242, "started": dt_today_at(9, 5)}))
    with open(lock_file, "a") as held:  # an older cvagent editing this resume
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        lock = ResumeLock(resume)
        with pytest.raises(LockedError) as info:
            lock.acquire()
        assert "(pid 4242, started 09:05)" in info.value.message
        assert not lock.is_held and lock_file.exists() and info_file.exists()
        assert not lock.info_path.exists()  # nothing of ours is left claiming the resume
    with ResumeLock(resume) as again:  # the old one has exited
        assert again.removed_legacy and not lock_file.exists()


def test_explicit_lock_dir(resume: Path, tmp_path: Path) -> None:
    lock_dir = tmp_path / "locks" / "nested"
    with ResumeLock(resume, lock_dir=lock_dir) as lock:
        assert lock.lock_path == lock_dir / f"{paths.resume_key(resume)}.lock"
        assert lock.info_path.exists()


def test_two_paths_to_the_same_resume_share_the_lock(
    resume: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(resume.parent)
    with ResumeLock(Path("resume.md")), pytest.raises(LockedError):
        ResumeLock(resume).acquire()


# --- filesystems without locking: the info file alone ----------------------------------------


class _NoLocking:
    def __init__(self, path: Path) -> None:
        self.path = path

    def acquire(self, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSYS, "Function not implemented")

    def release(self) -> None:  # pragma: no cover - never acquired
        raise AssertionError("released a lock that was never taken")


@pytest.fixture
def no_locking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lock_module, "_new_filelock", _NoLocking)


@pytest.mark.usefixtures("no_locking")
def test_degraded_lock_refuses_a_live_holder(resume: Path) -> None:
    with ResumeLock(resume) as first:
        assert first.degraded and first.is_held
        with pytest.raises(LockedError) as info:
            ResumeLock(resume).acquire()
        assert f"pid {os.getpid()}," in info.value.message
        assert str(first.info_path) in (info.value.hint or "")
    assert not first.info_path.exists()
    with ResumeLock(resume) as again:
        assert again.degraded and not again.took_over_stale


@pytest.mark.slow
@pytest.mark.usefixtures("no_locking")
def test_degraded_lock_refuses_a_live_holder_process(resume: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        lock = ResumeLock(resume)
        live = {
            "pid": proc.pid,
            "hostname": socket.gethostname(),
            "started": dt_today_at(10, 31),
            "command": "cvagent chat",
        }
        lock.info_path.parent.mkdir(parents=True, exist_ok=True)
        lock.info_path.write_text(json.dumps(live), encoding="utf-8")
        with pytest.raises(LockedError) as info:
            lock.acquire()
        assert info.value.message.startswith(
            f"resume.md is being edited by another cvagent (pid {proc.pid}, started 10:31)"
        )
    finally:
        proc.kill()
        proc.wait(timeout=30)
    # now that the process is gone, its info file is stale
    with ResumeLock(resume) as lock:
        assert lock.took_over_stale and lock.holder()["pid"] == os.getpid()  # type: ignore[index]


@pytest.mark.slow
@pytest.mark.usefixtures("no_locking")
def test_degraded_lock_takes_over_a_dead_holder(resume: Path) -> None:
    lock = ResumeLock(resume)
    lock.info_path.parent.mkdir(parents=True, exist_ok=True)
    lock.info_path.write_text(
        json.dumps({"pid": dead_pid(), "hostname": socket.gethostname()}), encoding="utf-8"
    )
    lock.acquire()
    try:
        assert lock.degraded and lock.took_over_stale
        assert lock.holder()["pid"] == os.getpid()  # type: ignore[index]
    finally:
        lock.release()
    assert not lock.info_path.exists()


def test_other_lock_errors_are_reported_as_input_errors(
    resume: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cvagent_cli.errors import InputError

    class _Denied(_NoLocking):
        def acquire(self, *args: object, **kwargs: object) -> None:
            raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(lock_module, "_new_filelock", _Denied)
    with pytest.raises(InputError) as info:
        ResumeLock(resume).acquire()
    assert not isinstance(info.value, LockedError)
    assert "--read-only" in str(info.value)
