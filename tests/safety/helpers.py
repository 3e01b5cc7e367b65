"""Shared helpers of the safety tests: running the real CLI in a subprocess against the
loopback server, and looking at what it left behind."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

TIMEOUT = 300  # busy CI machines: generous, and never asserted as a duration
FAKE_KEY = "sk-test-SAFETY-0123456789abcdefXYZ"


def cli_env(
    home: Path, server_url: str | None = None, *, key: str = FAKE_KEY, **extra: str
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(CVAGENT_HOME=str(home), NO_COLOR="1", PYTHONIOENCODING="utf-8", OPENAI_API_KEY=key)
    env.pop("FORCE_COLOR", None)
    if server_url is not None:
        env.update(CVAGENT_MODEL="openai/test-model", CVAGENT_API_BASE=server_url)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.update(extra)
    return env


def write_config(home: Path, **settings: object) -> None:
    """config.yaml in CVAGENT_HOME (e.g. max_retries: 0 so a refused connection fails fast)."""
    folder = home / "config"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(
        "".join(f"{k}: {v}\n" for k, v in settings.items()), encoding="utf-8"
    )


def run_cli(
    args: list[str], env: dict[str, str], *, stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess:
    """``python -m cvagent_cli ARGS``; stdin is an (empty) pipe so nothing waits for a human."""
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=TIMEOUT,
        cwd=cwd or ROOT,
    )


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def listing(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def new_files(folder: Path, before: set[str]) -> set[str]:
    """Files that appeared in ``folder`` (the lock lives in the state dir, not here)."""
    return listing(folder) - before


def error_lines(stderr: bytes) -> list[str]:
    return [line for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]


def assert_no_traceback(proc: subprocess.CompletedProcess) -> None:
    for stream in (proc.stdout, proc.stderr):
        text = stream.decode("utf-8", "replace")
        assert "Traceback" not in text, text
        assert 'File "' not in text, text


def assert_one_line_error(
    proc: subprocess.CompletedProcess, code: int, *needles: str, hint: str | None = None
) -> str:
    """``cvagent: error: …`` on one line (plus at most one ``hint:`` line), the exit code."""
    assert_no_traceback(proc)
    lines = error_lines(proc.stderr)
    assert proc.returncode == code, (proc.returncode, lines)
    assert lines and lines[0].startswith("cvagent: error: "), lines
    assert len(lines) <= 2, lines
    if len(lines) == 2:
        assert lines[1].lstrip().startswith("hint:"), lines
    message = lines[0]
    for needle in needles:
        assert needle.lower() in message.lower(), (needle, lines)
    if hint is not None:
        assert len(lines) == 2 and hint.lower() in lines[1].lower(), (hint, lines)
    return message
