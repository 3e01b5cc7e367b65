"""The fast loop stays fast: a test that starts a process must be marked ``slow``.

``pytest -m "not slow"`` is the developer's one-minute loop, and what makes a test slow
here is almost always a new process (the CLI run as a program, a pseudo-terminal, a
worker pool, an external tool such as pdftotext).  While a test without the marker runs,
starting one fails the test with the fix in the message, so the marker cannot drift.
"""

from __future__ import annotations

import multiprocessing.util
import os
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

MESSAGE = (
    "this test starts a process ({what}); mark it @pytest.mark.slow so that "
    '`pytest -m "not slow"` stays the fast loop'
)


class StartsAProcess(AssertionError):
    pass


@pytest.fixture(autouse=True)
def _refuse_processes_unless_slow(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    if request.node.get_closest_marker("slow") is not None:
        yield
        return

    def refuse(what: str) -> Any:
        def stop(*args: Any, **kwargs: Any) -> Any:
            raise StartsAProcess(MESSAGE.format(what=what))

        return stop

    monkeypatch.setattr(subprocess.Popen, "_execute_child", refuse("subprocess"))
    for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse(f"os.{name}"))
    # multiprocessing's spawn and forkserver start methods exec without Popen or os.fork
    monkeypatch.setattr(multiprocessing.util, "spawnv_passfds", refuse("a worker process"))
    yield
