"""How this copy of cvagent was installed, so that a hint to add an extra gives the command
that works for it: ``pip install 'cvagent[documents]'`` fails while the package is not on
the index, and for a checkout, a pipx or a uv tool install another command is right."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

DIST = "cvagent"


@dataclass(frozen=True)
class Origin:
    """Where the installed distribution came from (PEP 610 ``direct_url.json``)."""

    folder: Path | None = None  # a checkout: ``pip install .`` / ``pip install -e .``
    editable: bool = False
    archive: str | None = None  # a wheel or sdist file or URL
    # neither: from an index


def origin() -> Origin:
    try:
        text = metadata.distribution(DIST).read_text("direct_url.json")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return Origin(folder=Path(__file__).resolve().parents[1])
    try:
        data = json.loads(text or "null")
    except ValueError:
        return Origin()
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        return Origin()
    url = data["url"]
    if "dir_info" in data and url.startswith("file:"):
        folder = Path(unquote(urlsplit(url).path))
        return Origin(folder=folder, editable=bool(data["dir_info"].get("editable")))
    if "archive_info" in data:
        return Origin(archive=url)
    return Origin()


def tool_manager(prefix: Path | None = None) -> str | None:
    """``pipx`` or ``uv`` when this Python is a tool environment of one of them (each
    leaves its own file at the environment's root), else None."""
    root = Path(sys.prefix if prefix is None else prefix)
    if (root / "pipx_metadata.json").is_file():
        return "pipx"
    if (root / "uv-receipt.toml").is_file():
        return "uv"
    return None


def extra_install_command(
    extra: str, where: Origin | None = None, *, prefix: Path | None = None
) -> str:
    """The command that adds ``extra`` to this installation of cvagent."""
    where = origin() if where is None else where
    manager = tool_manager(prefix)
    if where.folder is not None:
        spec = f"{where.folder}[{extra}]"
    elif where.archive is not None:
        spec = f"{DIST}[{extra}] @ {where.archive}"
    else:
        spec = f"{DIST}[{extra}]"
    quoted = shlex.quote(spec)
    if manager == "pipx":
        return f"pipx install --force {quoted}"
    if manager == "uv":
        return f"uv tool install --force {quoted}"
    return f"{_pip()} install {'-e ' if where.editable else ''}{quoted}"


def _pip() -> str:
    """``pip`` when the one on PATH belongs to this Python, else ``<this python> -m pip``."""
    found = shutil.which("pip")
    if found and Path(found).parent == Path(sys.executable).parent:
        return "pip"
    return f"{shlex.quote(sys.executable)} -m pip"


def documents_hint() -> str:
    return extra_install_command("documents")
