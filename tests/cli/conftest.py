"""Fixtures for running ``cvagent chat`` as a real subprocess against the loopback
OpenAI-compatible server (never the network)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_resumes" / "en_senior_backend.md"
SUMMARY_OLD = "Comfortable owning a service from design doc to on-call rotation."
SUMMARY_NEW = "Owns services end to end, from design doc to on-call rotation."
TIMEOUT = 180  # shared, busy machines: generous, and never asserted as a duration


@pytest.fixture
def chat_env(server, isolated_home) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        CVAGENT_HOME=str(isolated_home),
        CVAGENT_MODEL="openai/test-model",
        CVAGENT_API_BASE=server.url,
        OPENAI_API_KEY="sk-test",
        NO_COLOR="1",
        PYTHONIOENCODING="utf-8",
    )
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def run_chat(
    args: list[str], env: dict[str, str], *, stdin: bytes | None = b"", **kw
) -> subprocess.CompletedProcess:
    """``cvagent chat ARGS`` in a subprocess; stdin is a pipe (empty unless given)."""
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "chat", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=TIMEOUT,
        cwd=kw.pop("cwd", ROOT),
        **kw,
    )
