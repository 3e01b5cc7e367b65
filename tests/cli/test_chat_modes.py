"""``cvagent chat`` non-interactive modes as real subprocesses against the loopback server:
``-m``, batch stdin lines, a resume piped on stdin, and the exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from cvagent_cli.agent.intent import classify_heuristic
from cvagent_cli.paths import session_dir
from tests.cli.conftest import ROOT, SAMPLE, SUMMARY_NEW, SUMMARY_OLD, TIMEOUT, run_chat
from tests.support.openai_server import Reply, status, tool_calls
from tests.support.wire import user_words

EDIT_REQUEST = "rewrite the summary section"
EDIT = {"old_text": SUMMARY_OLD, "new_text": SUMMARY_NEW, "reason": "stronger verb"}
ANSWER = "I tightened the last sentence of your summary."

pytestmark = pytest.mark.slow  # real subprocesses (the project's marker for them)


def script_edit(server, answer: str = ANSWER) -> None:
    server.enqueue(
        tool_calls(("read_resume", {"section": "Summary"})),
        tool_calls(("edit_resume", EDIT)),
        Reply(text=answer),
    )


def test_requests_are_classified_offline():
    # the scripts below assume no classifier round trip consumes a scripted reply
    for text in (EDIT_REQUEST, "shorten the summary", "thanks", "hello"):
        assert classify_heuristic(text) is not None, text


def test_message_with_yes_applies_the_edit_and_prints_the_answer(server, chat_env, resume):
    script_edit(server)
    proc = run_chat([str(resume), "-m", EDIT_REQUEST, "--yes"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode() == ANSWER + "\n"  # only the final answer on stdout
    err = proc.stderr.decode()
    assert "→ edit_resume" in err and "│ +" in err and "✓ applied" in err
    assert SUMMARY_NEW in resume.read_text(encoding="utf-8")
    # every request passed the server's strict validation, tools were sent
    assert len(server.requests) == 3 and server.requests[0]["tools"]
    assert (session_dir(resume, create=False) / "history.json").exists()


def test_message_without_yes_reports_the_edit_as_proposed(server, chat_env, resume):
    before = resume.read_bytes()
    script_edit(server, answer="I proposed a change.")
    proc = run_chat([str(resume), "-m", EDIT_REQUEST], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert resume.read_bytes() == before
    err = proc.stderr.decode()
    assert "proposed, not applied" in err
    assert "run again with --yes" in err
    assert "Apply?" not in err  # nothing waited for a keypress
    assert proc.stdout.decode() == "I proposed a change.\n"
    tool_message = [m for m in server.requests[2]["messages"] if m["role"] == "tool"][-1]
    assert "proposed only" in tool_message["content"]


def test_flagged_edit_is_never_applied_even_with_yes(server, chat_env, resume):
    before = resume.read_bytes()
    invented = dict(EDIT, new_text="Cut on-call pages by 73% while owning services end to end.")
    server.enqueue(tool_calls(("edit_resume", invented)), Reply(text="Proposed."))
    proc = run_chat([str(resume), "-m", EDIT_REQUEST, "--yes"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert resume.read_bytes() == before
    err = proc.stderr.decode()
    assert "possibly invented" in err and "73%" in err
    assert "needs confirmation" in err


def test_model_switch_says_and_uses_the_endpoint(server, chat_env, resume):
    """/model to another provider leaves the local --api-base behind and says where it
    goes; back on the configured provider, requests reach the configured server again."""
    for var in ("DEEPSEEK_API_BASE", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        chat_env.pop(var, None)
    server.enqueue(Reply(text="Hi from the local server."))
    proc = run_chat(
        [
            str(resume),
            "-m",
            "/model deepseek/deepseek-chat",
            "-m",
            "/model openai/local-2",
            "-m",
            "hello",
            "-m",
            "/model",
        ],
        chat_env,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    err = proc.stderr.decode()
    assert f"model: openai/local-2 · endpoint: {server.url}\n" in err  # /model alone
    assert (
        "model: deepseek/deepseek-chat · endpoint: https://api.deepseek.com/beta "
        f"(deepseek's default), no longer {server.url}"
    ) in " ".join(err.split())
    assert (
        f"model: openai/local-2 · endpoint: {server.url} (the configured api_base)"
    ) in " ".join(err.split())
    assert proc.stdout.decode() == "Hi from the local server.\n"
    assert [r["model"] for r in server.requests] == ["local-2"]  # nothing went to deepseek


def test_switched_away_from_the_local_server_a_message_never_reaches_it(server, chat_env, resume):
    """The reset is real, not just printed: without DEEPSEEK_API_KEY the deepseek model
    fails before sending anything, where the old /model sent it to the local server."""
    for var in ("DEEPSEEK_API_KEY", "DEEPSEEK_API_BASE"):
        chat_env.pop(var, None)
    proc = run_chat([str(resume), "-m", "/model deepseek/deepseek-chat", "-m", "hello"], chat_env)
    assert proc.returncode == 3, proc.stderr.decode()
    assert "DEEPSEEK_API_KEY is not set" in " ".join(proc.stderr.decode().split())
    assert server.requests == []


def test_several_messages_run_in_order(server, chat_env, resume):
    server.enqueue(Reply(text="Hello! Ready."), Reply(text="You're welcome."))
    proc = run_chat([str(resume), "-m", "hello", "-m", "thanks"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode() == "Hello! Ready.\nYou're welcome.\n"
    assert [user_words(r["messages"][-1]["content"]) for r in server.requests] == [
        "hello",
        "thanks",
    ]


def test_batch_mode_reads_one_message_per_stdin_line(server, chat_env, resume):
    script_edit(server, answer="Edited.")
    server.enqueue(Reply(text="Anytime."))
    proc = run_chat(
        [str(resume), "--yes"], chat_env, stdin=f"{EDIT_REQUEST}\n\n   \nthanks\n".encode()
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode() == "Edited.\nAnytime.\n"
    assert SUMMARY_NEW in resume.read_text(encoding="utf-8")
    assert user_words(server.requests[-1]["messages"][-1]["content"]) == "thanks"


def test_resume_on_stdin_prints_the_final_resume_on_stdout(server, chat_env):
    script_edit(server)
    original = SAMPLE.read_bytes()
    proc = run_chat(["-", "-m", EDIT_REQUEST, "--yes"], chat_env, stdin=original)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == original.replace(SUMMARY_OLD.encode(), SUMMARY_NEW.encode())
    assert ANSWER in proc.stderr.decode()  # the answer goes to stderr, stdout is the resume


def test_resume_on_stdin_without_dash(server, chat_env):
    server.enqueue(Reply(text="Looks fine."))
    original = SAMPLE.read_bytes()
    proc = run_chat(["-m", "hello"], chat_env, stdin=original)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == original  # unchanged, still a complete resume for the pipe


def test_resume_on_stdin_without_messages_or_terminal_is_a_usage_error(chat_env):
    # a new session has no controlling terminal, so /dev/tty cannot be opened
    proc = run_chat(["-"], chat_env, stdin=SAMPLE.read_bytes(), start_new_session=True)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "no terminal" in err and "-m" in err
    assert "Traceback" not in err
    assert proc.stdout == b""


def test_no_model_configured_exits_3_naming_the_variable(chat_env, resume):
    env = {k: v for k, v in chat_env.items() if k not in ("CVAGENT_MODEL",)}
    proc = run_chat([str(resume), "-m", "hello"], env)
    assert proc.returncode == 3
    err = proc.stderr.decode()
    assert "no model configured" in err and "CVAGENT_MODEL" in err
    assert "-M/--model" in err and "Traceback" not in err
    # "…, set CVAGENT_MODEL" had lost its "or" and named no config key (issue 34, item 20)
    assert "set CVAGENT_MODEL, or add 'model: NAME' to config.yaml" in err


def test_missing_resume_is_one_line_and_exit_2(chat_env, tmp_path):
    proc = run_chat([str(tmp_path / "nope.md"), "-m", "hello"], chat_env)
    assert proc.returncode == 2
    err = proc.stderr.decode().strip()
    assert "no such file" in err and len(err.splitlines()) == 1
    assert "Traceback" not in err


def test_model_error_in_message_mode_exits_3(server, chat_env, resume):
    server.enqueue(status(401))
    proc = run_chat([str(resume), "-m", "hello"], chat_env)
    assert proc.returncode == 3, proc.stderr.decode()
    err = proc.stderr.decode()
    assert "OPENAI_API_KEY" in err
    assert "sk-test" not in err and "Traceback" not in err


def test_a_run_stopped_for_a_repeating_tool_call_exits_3(server, chat_env, resume):
    """Not an error panel and exit 0, which would tell a script all went well."""
    call = tool_calls(("read_resume", {"section": "Skills"}))
    server.enqueue(*[call for _ in range(6)])
    proc = run_chat([str(resume), "-m", "look at my skills section"], chat_env)
    err = proc.stderr.decode()
    assert proc.returncode == 3, err
    assert "repeating the same tool call" in err and "Traceback" not in err
    server.clear()


def test_unreachable_server_says_is_it_running(chat_env, resume):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(chat_env, CVAGENT_API_BASE=f"http://127.0.0.1:{port}/v1", CVAGENT_TIMEOUT="5")
    proc = run_chat([str(resume), "-m", "hello"], env)
    assert proc.returncode == 3
    err = proc.stderr.decode()
    assert "running" in err and str(port) in err


def test_undo_in_a_later_run_restores_the_file(server, chat_env, resume):
    original = resume.read_bytes()
    script_edit(server)
    assert run_chat([str(resume), "-m", EDIT_REQUEST, "--yes"], chat_env).returncode == 0
    assert resume.read_bytes() != original
    proc = run_chat([str(resume), "-m", "/undo"], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert resume.read_bytes() == original
    err = proc.stderr.decode()
    assert "resumed the conversation" in err  # the second run picked up the history
    assert "undid: stronger verb" in err


def test_new_starts_fresh(server, chat_env, resume):
    server.enqueue(Reply(text="one"), Reply(text="two"))
    assert run_chat([str(resume), "-m", "hello"], chat_env).returncode == 0
    proc = run_chat([str(resume), "-m", "hello", "--new"], chat_env)
    assert proc.returncode == 0
    assert "started a new conversation" in proc.stderr.decode()
    assert [m["role"] for m in server.requests[-1]["messages"]] == ["system", "user"]


def test_second_process_on_a_locked_resume_is_refused(server, chat_env, resume):
    server.enqueue(Reply(text="slow answer", delay=30))
    before = sorted(p.name for p in resume.parent.iterdir())
    first = subprocess.Popen(
        [sys.executable, "-m", "cvagent_cli", "chat", str(resume), "-m", "hello"],
        env=chat_env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        # wait until the first process holds the lock: its request reached the server
        for _ in range(1800):
            if server.requests or first.poll() is not None:
                break
            time.sleep(0.1)
        assert server.requests, (
            first.stderr.read().decode() if first.poll() is not None else "no request"
        )
        proc = run_chat([str(resume), "-m", "hello"], chat_env)
        assert proc.returncode == 2
        err = proc.stderr.decode()
        assert str(first.pid) in err
        assert "Traceback" not in err
        # the lock lives in the state dir: nothing was added next to the resume
        assert sorted(p.name for p in resume.parent.iterdir()) == before
        readonly = run_chat([str(resume), "-m", "/show summary", "--read-only"], chat_env)
        assert readonly.returncode == 0, readonly.stderr.decode()
        assert "## Summary" in readonly.stderr.decode()
    finally:
        first.kill()
        first.wait(timeout=60)


def test_start_up_does_not_import_litellm():
    code = (
        "import sys; import cvagent_cli.cli.app, cvagent_cli.cli.chat_runner, cvagent_cli.ui.repl, "
        "cvagent_cli.agent.session, cvagent_cli.llm.gateway; "
        "print(json.dumps(['litellm' in sys.modules]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import json; " + code],
        capture_output=True,
        cwd=ROOT,
        env=dict(os.environ),
        timeout=120,
    )
    assert json.loads(out.stdout) == [False], out.stderr.decode()


def test_the_prompt_comes_up_before_litellm_is_imported(chat_env, resume):
    """Everything run_chat does before the first prompt, with the background preload
    switched off: litellm must still be absent (it is imported while the user types)."""
    code = f"""
import json, sys
import cvagent_cli.cli.chat_runner as runner
runner.preload = lambda client: None
runner._isatty = lambda stream: True  # pretend to be on a terminal
seen = {{}}
def first_prompt(self, first=None):
    seen["litellm"] = "litellm" in sys.modules
    seen["toolbar"] = self.toolbar()
    return 0
runner.Repl.run = first_prompt
from cvagent_cli.cli.chat_request import ChatRequest
code = runner.run_chat(ChatRequest({str(resume)!r}))
print(json.dumps([code, seen]))
"""
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, cwd=ROOT, env=chat_env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr.decode()
    code, seen = json.loads(proc.stdout)
    assert code == 0
    assert seen["litellm"] is False
    assert "resume.md" in seen["toolbar"] and "openai/test-model" in seen["toolbar"]


LOOP = "Led the migration of the billing service to Kafka, cutting latency by 40%. "


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_a_model_looping_on_one_paragraph_is_cut_off_and_the_run_ends(
    server, chat_env, resume, extra
):
    server.enqueue(Reply(text="Try this:\n\n" + LOOP * 400, chunk_delay=0.002))
    proc = run_chat([str(resume), "-m", "rewrite my first bullet", *extra], chat_env)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert "repeating the same passage" in (proc.stderr.decode() + out)
    assert out.count("Led the migration") < 10  # not all 400 copies


@pytest.mark.parametrize("command", ["chat", "analyze", "config"])
def test_a_bad_api_base_option_is_a_usage_error(chat_env, resume, command):
    """`--api-base notaurl` is refused at once (exit 2), before any
    request is retried four times against it."""
    args = {
        "chat": ["chat", str(resume), "-m", "hello"],
        "analyze": ["analyze", str(resume), "--llm"],
        "config": ["config", "show"],
    }[command]
    proc = subprocess.run(
        [sys.executable, "-m", "cvagent_cli", *args, "--api-base", "notaurl"],
        capture_output=True,
        env=chat_env,
        timeout=TIMEOUT,
        cwd=ROOT,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "--api-base" in err and "http://" in err and "Traceback" not in err
