"""Private JSON state files (chat history, undo log): written atomically with mode 0600,
and moved aside — never deleted, never overwritten — when they cannot be read."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cvagent_cli import paths
from cvagent_cli.store.atomic import atomic_write_bytes


def write_private_json(path: Path, document: Any, *, indent: int | None = None) -> None:
    """Write ``document`` as UTF-8 JSON, atomically, 0600, in a 0700 folder."""
    data = json.dumps(document, ensure_ascii=False, indent=indent).encode("utf-8")
    paths.ensure_private_dir(path.parent)
    atomic_write_bytes(path, data + (b"\n" if indent is not None else b""), mode=0o600)


def timestamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


def free_path(base: str, folder: Path) -> Path:
    """``folder/base``, or ``base-2``, ``base-3`` … if taken: moving aside never overwrites."""
    candidate = folder / base
    counter = 2
    while candidate.exists():
        candidate = folder / f"{base}-{counter}"
        counter += 1
    return candidate


def move_aside(path: Path, label: str) -> Path:
    """Rename ``path`` to ``<name>.<label>-<timestamp>`` beside it; raises OSError."""
    target = free_path(f"{path.name}.{label}-{timestamp()}", path.parent)
    os.replace(path, target)
    return target
