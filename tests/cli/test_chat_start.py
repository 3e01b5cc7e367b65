"""``cvagent chat RESUME`` on a terminal draws its prompt before the agent stack is
imported, builds the chat in one background thread, and the first line waits for it: the
prompt comes at once, not after seconds of imports."""

from __future__ import annotations

import json
import sys

import pytest

from tests.cli.conftest import ROOT

pexpect = pytest.importorskip("pexpect")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty"),
]

# Run as `python -c PROBE RESUME LINE`: the first prompt records what is imported when it
# is drawn, sets off what drawing it sets off, and returns LINE; the next one ends the chat.
PROBE = """
import json, sys, threading
from cvagent_cli.ui import io as chat_io

resume, line = sys.argv[1:3]
calls = []

def prompt(self, message="> "):
    calls.append(message)
    if len(calls) > 1:
        raise EOFError
    loaded = lambda name: name in sys.modules
    print("AT-PROMPT " + json.dumps({
        "agent": loaded("cvagent_cli.agent.session"),
        "tools": loaded("cvagent_cli.tools.base"),
        "pydantic": loaded("pydantic"),
        "litellm": loaded("litellm"),
    }), flush=True)
    if self.after_first_render is not None:
        callback, self.after_first_render = self.after_first_render, None
        callback()
    return line

chat_io.ChatIO.prompt = prompt
from cvagent_cli.cli.app import main
sys.argv = ["cvagent", "chat", resume]
main()
"""


def spawn(chat_env, resume, line: str):
    child = pexpect.spawn(
        sys.executable,
        ["-c", PROBE, str(resume), line],
        env={**chat_env, "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"},
        cwd=str(ROOT),
        dimensions=(40, 80),
        encoding="utf-8",
        timeout=120,
    )
    child.expect(r"AT-PROMPT (\{.*\})\r?\n")
    return child, json.loads(child.match.group(1))


def test_the_prompt_is_drawn_before_the_agent_stack_is_imported(server, chat_env, resume):
    server.echo = True
    child, seen = spawn(chat_env, resume, "hello")
    assert seen["agent"] is False and seen["tools"] is False  # (typer itself loads pydantic)
    assert seen["litellm"] is False
    child.expect("echo: hello")  # the first line waited for the chat to be built
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_build_that_fails_is_a_start_up_error(chat_env, resume, isolated_home):
    config = isolated_home / "config" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("max_steps: lots\n", encoding="utf-8")
    child, _ = spawn(chat_env, resume, "hello")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 3, child.before
    assert "max_steps" in child.before and "Traceback" not in child.before
