"""Where cvagent keeps its configuration and state.

``CVAGENT_HOME`` relocates everything (tests point it at a tmp dir); otherwise the
platform's user config and state dirs are used (platformdirs).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "cvagent"


def _home() -> Path | None:
    value = os.environ.get("CVAGENT_HOME")
    return Path(value).expanduser() if value else None


def config_dir() -> Path:
    home = _home()
    if home is not None:
        return home / "config"
    import platformdirs  # lazy: ~30 ms, and not needed when CVAGENT_HOME says where

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def state_dir(create: bool = False) -> Path:
    home = _home()
    if home is not None:
        path = home / "state"
    else:
        import platformdirs  # lazy: see config_dir

        path = Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))
    if create:
        ensure_private_dir(path)
    return path


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) and make it readable by the owner only (0700)."""
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # e.g. a filesystem without permissions
        os.chmod(path, 0o700)
    return path


def resume_key(resume_path: Path) -> str:
    """A stable file-name-safe key for a resume, from its absolute path."""
    absolute = str(Path(resume_path).expanduser().resolve())
    digest = hashlib.sha256(absolute.encode("utf-8")).hexdigest()[:16]
    stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in Path(absolute).stem)[:40]
    return f"{stem}-{digest}"


def session_dir(resume_path: Path, create: bool = True) -> Path:
    """The folder holding one resume's chat history, undo log and input history."""
    path = state_dir(create=create) / "sessions" / resume_key(resume_path)
    if create:
        ensure_private_dir(path.parent)
        ensure_private_dir(path)
    return path


@dataclass(frozen=True)
class SessionFiles:
    """One resume's files in the state dir: the layout is decided here and nowhere else."""

    folder: Path

    @property
    def history(self) -> Path:
        return self.folder / "history.json"

    @property
    def undo(self) -> Path:
        return self.folder / "undo.json"

    @property
    def pending_edits(self) -> Path:
        """Edits a run without a person proposed, for the next ``cvagent chat`` to offer."""
        return self.folder / "pending_edits.json"

    @property
    def input_history(self) -> Path:
        return self.folder / "input_history"

    @property
    def lock(self) -> Path:
        """The one-writer lock (``filelock``); the resume itself is never locked."""
        return self.folder / "resume.lock"

    @property
    def lock_info(self) -> Path:
        """Who holds the lock (pid, host, start time), for a refused second process."""
        return self.folder / "resume.lock.info"


def session_files(resume_path: Path, create: bool = True) -> SessionFiles:
    return SessionFiles(session_dir(resume_path, create=create))


def input_history_file(resume_path: Path | None) -> Path:
    """The REPL's input history: per resume, or shared when no resume file is open."""
    if resume_path is None:
        return state_dir(create=True) / "input_history"
    return session_files(resume_path).input_history
