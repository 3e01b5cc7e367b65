"""What every producer shares: the tools' paths, running a tool, the producer registry."""

from __future__ import annotations

import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

from people import Person

TOOLS = {
    "rendercv": "/work/wt/h22a-tools/venv/bin/rendercv",
    "npm": "/work/wt/h22a-tools/npm",
    # checkouts of the templates' repositories, one folder per template (their fonts)
    "template_repos": "/tmp/tpl-repos",
}


def seed_of(text: str) -> int:
    return zlib.crc32(text.encode())


def run(cmd: list[str], cwd: Path, timeout: int = 180) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"{cmd[0]} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


# A producer makes one document of ``person`` in ``out`` named ``stem``: it returns the
# files it wrote (the document first, then its sources) and the labels' skip set and note.
Producer = Callable[[Person, Path, str, str], tuple[list[Path], set[str], str]]
PRODUCERS: dict[str, tuple[str, Producer, list[tuple[str, dict]]]] = {}


def producer(family: str, name: str, plan: list[tuple[str, dict]]):
    """Register a producer: ``plan`` is one (language, person options) per document."""

    def wrap(fn: Producer) -> Producer:
        PRODUCERS[name] = (family, fn, plan)
        return fn

    return wrap
