"""The process ends once the command is done, whatever threads litellm left behind.

Reproduces a hang seen in 1 of 20 chats stopped with Ctrl-C: an answer stream's daemon
thread was frozen at shutdown while importing a litellm module, and litellm's HTTP
client finalizer imported the same module during the interpreter's teardown, waiting
forever for its lock.  Here a loader holds that lock on purpose."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import importlib.abc
import importlib.util
import os
import sys
import threading
import time

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import litellm  # noqa: F401
from litellm.llms.custom_httpx.http_handler import HTTPHandler

from cvagent_cli.cli.app import main

NAME = "litellm.llms.custom_httpx.aiohttp_transport"


class Slow(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        time.sleep(3600)  # holds NAME's module lock


class Hold(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == NAME:
            return importlib.util.spec_from_loader(name, Slow())
        return None


handler = HTTPHandler()
sys.modules.pop(NAME, None)
sys.meta_path.insert(0, Hold())
threading.Thread(target=lambda: __import__(NAME), daemon=True).start()
time.sleep(0.5)
sys.argv = ["cvagent", "--version"]
main()
"""


@pytest.mark.slow
def test_a_thread_frozen_mid_import_does_not_keep_the_process_alive(tmp_path: Path) -> None:
    script = tmp_path / "frozen_import.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        },
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("cvagent ")
