"""One writer per resume: an advisory lock held while a cvagent session may edit it.

The lock is a separate file — never the resume itself, which is replaced atomically on every
write (a lock on the old inode would guard nothing).  It lives in the resume's folder of the
state dir, with its chat history and undo log (``paths.session_files(resume).lock``), so
nothing is left next to the resume; an explicit ``lock_dir`` holds ``<resume key>.lock``.
The resume key comes from the resolved absolute path, so two paths to one file share a lock.

The lock itself is a ``filelock.FileLock`` (``flock``/``LockFileEx``) taken without waiting.
Next to it, an info file (JSON, written atomically) names the holder — pid, host, start
time, command line — so a refused second process can say who holds it::

    resume.md is being edited by another cvagent (pid 4242, started 10:31); close that one first

Stale locks.  The OS drops an ``flock`` when its process dies, so a crashed holder never
blocks anyone: the next process gets the lock, finds the dead holder's info file and takes
it over (``took_over_stale``).  While we hold the OS lock the info file cannot belong to a
live process on this host, so it is overwritten even when its pid has been reused.  An info
file written on *another host* (a state dir on a shared home folder, where the OS lock may
not reach across machines) is respected: that holder cannot be checked, so the lock is
refused with a hint to delete the info file if nothing runs there.

Earlier versions.  cvagent up to 0.1 kept ``.<resume name>.cvagent.lock`` (and ``….info``)
next to the resume.  When such a lock is held, an older cvagent is editing the resume and
the lock is refused; when it is free, both files are removed (``removed_legacy``).

Filesystems without locking.  When taking the OS lock fails with an ``OSError`` that means
"locking is not supported here" (``ENOSYS``, ``ENOLCK``, ``EOPNOTSUPP``, ``EINVAL``), the lock
degrades to the info file alone (``degraded``): a holder whose pid is alive refuses, a dead
one is taken over, and a new info file is created exclusively (``os.link``) so two starters
cannot both win.  This is weaker than the OS lock (a holder that is paused, or on another
host, is indistinguishable from a live one), which is why it is only the fallback.

The info file is removed on release; the ``.lock`` file stays (the filelock convention:
unlinking a lock file others may have open breaks mutual exclusion), in the state dir.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import os
import shlex
import socket
import sys
import tempfile
import uuid
from pathlib import Path
from types import TracebackType
from typing import Any

from filelock import FileLock, Timeout

from cvagent_cli import paths
from cvagent_cli.errors import InputError, LockedError

__all__ = ["ResumeLock", "default_lock_path", "legacy_lock_paths"]

LEGACY_SUFFIX = ".cvagent.lock"  # next to the resume, before 0.2
_UNSUPPORTED_ERRNOS = {
    code
    for code in (
        errno.ENOSYS,
        errno.ENOLCK,
        errno.EINVAL,
        getattr(errno, "EOPNOTSUPP", None),
        getattr(errno, "ENOTSUP", None),
    )
    if code is not None
}


def legacy_lock_paths(resume_path: Path) -> tuple[Path, Path]:
    """The lock and info files earlier versions left next to the resume."""
    resume = Path(resume_path).expanduser().resolve()
    lock = resume.parent / f".{resume.name}{LEGACY_SUFFIX}"
    return lock, lock.with_suffix(".info")


def default_lock_path(resume_path: Path, *, lock_dir: Path | None = None) -> Path:
    """Where the lock for ``resume_path`` lives (see the module docstring)."""
    resume = Path(resume_path).expanduser().resolve()
    if lock_dir is not None:
        return Path(lock_dir).expanduser() / f"{paths.resume_key(resume)}.lock"
    return paths.session_files(resume, create=False).lock


def _new_filelock(path: Path) -> Any:
    """A non-blocking ``FileLock`` that raises instead of silently falling back to a soft lock."""
    try:
        return FileLock(
            str(path), timeout=0, mode=0o600, thread_local=False, fallback_to_soft=False
        )
    except (
        TypeError
    ):  # filelock < 3.20 has no fallback_to_soft (and raises NotImplementedError instead)
        return FileLock(str(path), timeout=0, mode=0o600, thread_local=False)


def _pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this host (unknown counts as alive)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if (
        sys.platform == "win32"
    ):  # pragma: no cover - os.kill(pid, 0) would terminate the process there
        import ctypes  # Windows only: ctypes.windll exists there alone

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]  # exists on Windows only
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return ctypes.get_last_error() == 5  # ERROR_ACCESS_DENIED: exists, not ours
        try:
            code = ctypes.c_ulong()
            kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
            return code.value == 259  # STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    except OSError:
        return True
    return True


def _write_json_atomic(path: Path, data: dict[str, Any]) -> Path:
    """Write ``data`` to a temp file in ``path``'s folder, fsync'd; return the temp path."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=2)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


class ResumeLock:
    """An exclusive, non-blocking lock on one resume for one cvagent process.

    ``acquire()`` raises :class:`LockedError` naming the holder when another cvagent (another
    process, or another ``ResumeLock`` in this one) has it.  Usable as a context manager.
    After ``acquire()``, ``took_over_stale`` says whether a dead holder's info was replaced
    and ``degraded`` whether the filesystem could not lock and only the info file is used.
    """

    def __init__(self, resume_path: Path, *, lock_dir: Path | None = None) -> None:
        self.resume_path = Path(resume_path).expanduser()
        self._lock_dir = lock_dir
        self.lock_path = default_lock_path(self.resume_path, lock_dir=lock_dir)
        self.info_path = (
            paths.session_files(self.resume_path, create=False).lock_info
            if lock_dir is None
            else self.lock_path.with_suffix(".info")
        )
        self.took_over_stale = False
        self.removed_legacy = False
        self.degraded = False
        self._token = uuid.uuid4().hex
        self._filelock: Any = None
        self._held = False

    # -- public API -----------------------------------------------------------------------

    @property
    def is_held(self) -> bool:
        return self._held

    def holder(self) -> dict[str, Any] | None:
        """The holder's info (pid, hostname, started, command, …) or None when there is none."""
        return _read_info(self.info_path)

    def acquire(self) -> ResumeLock:
        """Take the lock or raise :class:`LockedError`; a no-op when this instance holds it."""
        if self._held:
            return self
        self.took_over_stale = False
        self.degraded = False
        self.removed_legacy = False
        try:
            if self._lock_dir is None:
                paths.session_dir(self.resume_path, create=True)  # 0700, like the history
            else:
                self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._cannot_lock(exc) from exc
        flock = _new_filelock(self.lock_path)
        try:
            flock.acquire(timeout=0)
        except Timeout:
            raise self._locked(self.holder()) from None
        except NotImplementedError:  # older filelock's "this filesystem has no flock"
            return self._acquire_degraded()
        except OSError as exc:
            if exc.errno in _UNSUPPORTED_ERRNOS:
                return self._acquire_degraded()
            raise self._cannot_lock(exc) from exc
        try:
            previous = self.holder()
            if previous is not None and previous.get("token") != self._token:
                if not self._same_host(previous):
                    raise self._locked(previous, foreign=True)
                self.took_over_stale = True  # we hold the OS lock: its holder is gone
            self._write_info(exclusive=False)
            self._clear_legacy_lock()
        except BaseException:
            if (self.holder() or {}).get("token") == self._token:  # ours, not a refused holder's
                with contextlib.suppress(OSError):
                    self.info_path.unlink()
            flock.release()
            raise
        self._filelock = flock
        self._held = True
        return self

    def release(self) -> None:
        """Give the lock up and remove the info file (the ``.lock`` file stays)."""
        if not self._held:
            return
        try:
            current = self.holder()
            if current is None or current.get("token") == self._token:
                with contextlib.suppress(FileNotFoundError):
                    self.info_path.unlink()
        finally:
            self._held = False
            flock, self._filelock = self._filelock, None
            if flock is not None:
                flock.release()

    def __enter__(self) -> ResumeLock:
        return self.acquire()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    def __repr__(self) -> str:
        state = "held" if self._held else "free"
        return f"ResumeLock({str(self.resume_path)!r}, lock={str(self.lock_path)!r}, {state})"

    # -- internals ------------------------------------------------------------------------

    def _clear_legacy_lock(self) -> None:
        """An earlier version's lock next to the resume: refuse while an older cvagent holds
        it, remove it (and its info file) when it is free.  Best effort otherwise: a folder
        we cannot write to, or a filesystem without locking, leaves it where it is."""
        legacy, legacy_info = legacy_lock_paths(self.resume_path)
        if not legacy.exists():
            return
        old = _new_filelock(legacy)
        try:
            old.acquire(timeout=0)
        except Timeout:
            raise self._locked(_read_info(legacy_info)) from None
        except (OSError, NotImplementedError):
            return
        try:
            for path in (legacy_info, legacy):
                with contextlib.suppress(OSError):
                    path.unlink()
            self.removed_legacy = not legacy.exists()
        finally:
            old.release()

    def _acquire_degraded(self) -> ResumeLock:
        """Info-file-only locking for filesystems where the OS lock is unavailable."""
        self.degraded = True
        for _ in range(3):
            previous = self.holder()
            if previous is not None and previous.get("token") != self._token:
                if self._alive(previous):
                    raise self._locked(previous, foreign=True)
                self.took_over_stale = True
                self._write_info(exclusive=False)
            elif not self._write_info(exclusive=True):
                continue  # someone created it between our read and our write: look again
            if (self.holder() or {}).get("token") == self._token:
                self._held = True
                return self
        raise self._locked(self.holder(), foreign=True)

    def _info(self) -> dict[str, Any]:
        try:
            command = shlex.join(sys.argv)
        except TypeError:  # pragma: no cover - argv with non-strings
            command = " ".join(map(str, sys.argv))
        return {
            "pid": os.getpid(),
            "hostname": socket.gethostname(),
            "started": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": command,
            "resume": str(self.resume_path.resolve()),
            "token": self._token,
        }

    def _write_info(self, *, exclusive: bool) -> bool:
        """Write our info file atomically; with ``exclusive`` only if none exists (False then)."""
        try:
            tmp = _write_json_atomic(self.info_path, self._info())
        except OSError as exc:
            raise self._cannot_lock(exc) from exc
        try:
            if exclusive:
                try:
                    os.link(tmp, self.info_path)
                    return True
                except FileExistsError:
                    return False
                except OSError:  # no hard links here: best effort
                    if self.info_path.exists():
                        return False
            os.replace(tmp, self.info_path)
            return True
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)

    @staticmethod
    def _same_host(info: dict[str, Any]) -> bool:
        host = info.get("hostname")
        return not host or host == socket.gethostname()

    def _alive(self, info: dict[str, Any]) -> bool:
        if not self._same_host(info):
            return True  # cannot check a process on another machine
        try:
            pid = int(info.get("pid", 0))
        except (TypeError, ValueError):
            return False
        return _pid_alive(pid)

    def _locked(self, info: dict[str, Any] | None, *, foreign: bool = False) -> LockedError:
        name = self.resume_path.name
        details = []
        if info:
            pid = info.get("pid")
            host = info.get("hostname")
            who = f"pid {pid}" if pid is not None else "unknown pid"
            if host and host != socket.gethostname():
                who += f" on {host}"
            details.append(who)
            started = _format_started(info.get("started"))
            if started:
                details.append(f"started {started}")
        what = f" ({', '.join(details)})" if details else ""
        message = f"{name} is being edited by another cvagent{what}; close that one first"
        hint = (
            f"if no cvagent is running there, delete {self.info_path}"
            if foreign
            else "to read it meanwhile without editing: cvagent chat --read-only FILE"
        )
        return LockedError(message, hint=hint)

    def _cannot_lock(self, exc: OSError) -> InputError:
        reason = exc.strerror or str(exc)
        return InputError(
            f"cannot lock {self.resume_path.name} for editing ({reason}: {self.lock_path})",
            hint="cvagent chat --read-only FILE opens it without the lock",
        )


def _read_info(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _format_started(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        return value
    now = dt.datetime.now(when.tzinfo) if when.tzinfo else dt.datetime.now()
    if when.date() == now.date():
        return when.strftime("%H:%M")
    return when.strftime("%Y-%m-%d %H:%M")
