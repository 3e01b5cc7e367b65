"""Writing the user's files so that a crash or a bad path never loses one.

Writes are atomic: a temporary file in the same folder, fsync, ``os.replace``, fsync of the
folder; the permission bits of the file replaced are kept, and a read-only file, a folder,
a FIFO or a device is never replaced.  Every file cvagent writes for the user is checked
with :func:`check_output_path` before any work is done and written with
:func:`write_output`.  Reading and decoding are ``store/textio.py``'s.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import tempfile
from pathlib import Path

from cvagent_cli.errors import InputError
from cvagent_cli.store.textio import TextFormat

_log = logging.getLogger(__name__)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def new_file_mode(like: Path | None = None) -> int:
    """The permission bits of a new file: those of ``like`` (the file it is made from),
    owner-writable; else 0o666 under the process's umask (0o644 under the usual 022)."""
    if like is not None:
        try:
            return stat.S_IMODE(like.stat().st_mode) | stat.S_IWUSR
        except OSError:
            pass
    umask = os.umask(0o022)  # reading the umask means setting it: put it straight back
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write_bytes(
    path: Path, data: bytes, *, mode: int | None = None, new_mode: int | None = None
) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new bytes.

    The existing file's permission bits are kept unless ``mode`` is given; a new file gets
    ``new_mode``, else ``new_file_mode()`` (never the 0600 of the temporary file it is
    written as); symlinks are followed so the link itself survives.  A file without its
    owner's write bit is never replaced (``PermissionError``), even though a rename could.
    """
    path = Path(path)
    if path.is_symlink():
        try:
            path = path.resolve()
        except RuntimeError:  # a symlink loop (Python < 3.13; later ones raise OSError)
            raise OSError(errno.ELOOP, "it is a symlink loop", str(path)) from None
    folder = path.parent
    try:
        st = path.stat()
        existing: int | None = stat.S_IMODE(st.st_mode)
    except FileNotFoundError:
        existing = None
    else:
        if not stat.S_ISREG(st.st_mode):  # a FIFO, a device, a socket: never replaced
            raise OSError(errno.EPERM, f"it is {special_file_kind(path)}, not a file", str(path))
    if existing is not None and not existing & stat.S_IWUSR:
        # a rename replaces a read-only file as easily as any other (and root may write
        # anything): refuse it here as opening it for writing would
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    if mode is None:
        mode = (
            existing
            if existing is not None
            else (new_mode if new_mode is not None else new_file_mode())
        )
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(folder)
    _log.debug("wrote %s (%d bytes)", path, len(data))


def atomic_write_text(
    path: Path,
    text: str,
    fmt: TextFormat | None = None,
    *,
    mode: int | None = None,
    new_mode: int | None = None,
) -> None:
    atomic_write_bytes(path, (fmt or TextFormat()).encode(text), mode=mode, new_mode=new_mode)


OVERWRITE_HINT = "pass --force to overwrite it"


def is_read_only(path: Path) -> bool:
    """Whether the owner made ``path`` read-only (no owner write bit, as ``chmod a-w``
    leaves it), or this user may not write it.  The mode bits are read too because
    ``os.access`` says yes to root for any file."""
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return False
    return not mode & stat.S_IWUSR or not os.access(path, os.W_OK)


def special_file_kind(path: Path) -> str | None:
    """What ``path`` is when it is neither a regular file (through any symlinks) nor
    missing: ``"a named pipe (FIFO)"``, ``"a device"``, ``"a symlink loop"`` …; else None.
    Only a regular file is ever replaced: writing "over" a FIFO would block or feed
    another program, and over a device (``/dev/full``, a disk) would be worse."""
    try:
        mode = Path(path).stat().st_mode
    except FileNotFoundError:
        return None
    except (OSError, RuntimeError) as exc:
        if isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP:
            return "a symlink loop"
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_output_path(target: Path, *, overwrite: bool, exists_hint: str = OVERWRITE_HINT) -> Path:
    """Refuse, with one clear ``InputError``, a file the user named that cvagent cannot or
    must not write: a folder, a path in a folder that does not exist, an existing file
    unless ``overwrite``, a file its owner made read-only, and never, even with
    ``overwrite``, anything but a regular file (a FIFO, a device, a symlink loop).  Every file cvagent writes for
    the user (``import -o``, ``export -o``, ``/save``, ``/export``) is checked here before
    any work is done, and written with :func:`write_output`."""
    target = Path(target)
    if target.is_dir():
        raise InputError(f"{target} is a folder", hint="name the file to write inside it")
    kind = special_file_kind(target)
    if kind is not None:  # with or without --force
        raise InputError(
            f"{target} is {kind}; cvagent only replaces regular files",
            hint="choose another file name",
        )
    folder = target.parent
    if not folder.is_dir():
        what = (
            f"{folder} is a file, not a folder"
            if folder.exists()
            else f"the folder {folder} does not exist"
        )
        raise InputError(f"cannot write {target}: {what}")
    if target.exists():
        if not overwrite:
            raise InputError(f"{target} already exists", hint=exists_hint)
        if is_read_only(target):
            raise InputError(
                f"{target} is read-only; cvagent does not replace it",
                hint="choose another name, or make it writable first (chmod u+w)",
            )
    return target


def write_output(target: Path, data: bytes, *, new_mode: int | None = None) -> Path:
    """Write a checked output atomically; a failure the checks could not foresee (no
    permission on the folder, a full disk, the folder removed meanwhile) is an
    ``InputError``, never a traceback, and leaves any old file as it was."""
    try:
        atomic_write_bytes(target, data, new_mode=new_mode)
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
