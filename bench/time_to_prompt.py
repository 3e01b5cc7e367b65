"""2. Time to prompt, and how long the first model call waits.

``cvagent chat sample.md`` runs in a pseudo-terminal (pexpect, 40x120, TERM=xterm-256color)
with a model configured (openai/test against the loopback server), so litellm is
imported in the background exactly as for a user.  The clock runs from spawn until
prompt-toolkit has drawn the ``> `` prompt; cursor-position requests are answered like
a real terminal would.

Then the first message is sent, either at once (the worst case: the whole import is
still ahead) or after a pause.  The loopback server echoes it back, and the time to the
first byte of that answer, minus the same round trip once everything is warm (the
second message), is what the first call waited.  It should wait only for what is left
of the import, ``import time − (send time − prompt time)``, plus what any first litellm
call costs after the import (measured in a fresh process: first call − second call).
"""

from __future__ import annotations

import json
import re
import time

from common import Context, Figure, Sandbox, Stat, find_cvagent, ratio

PROMPT_TARGET_S = 0.3  # on an idle machine: the prompt before the agent stack
PROMPT_TARGET_RATIO = 0.08  # × `python -c "import litellm"` measured in the same run
EXCESS_TARGET_RATIO = 0.2  # wait beyond the remaining import, as a share of the import

CPR_REQUEST = re.compile(r"\x1b\[6n")
# prompt-toolkit draws "> " as ">" then moves the cursor (">\b\x1b[2C") or writes the space
PROMPT = re.compile(r">(?:\x08)?(?:\x1b\[\d*C| )")
ANY_OUTPUT = re.compile(r"[^\x1b]")  # the first visible byte (escape sequences come later)


class ChatTerminal:
    def __init__(self, cmd: list[str], env: dict[str, str]) -> None:
        import pexpect

        self.pexpect = pexpect
        self.start = time.perf_counter()
        self.child = pexpect.spawn(
            cmd[0],
            cmd[1:],
            env=env,
            dimensions=(40, 120),
            encoding="utf-8",
            codec_errors="replace",
            timeout=60,
        )
        self.child.delaybeforesend = None

    def wait_for(self, pattern: re.Pattern[str] | str, timeout: float = 60.0) -> float:
        """Wait for ``pattern`` (answering cursor-position requests); returns the time."""
        deadline = time.perf_counter() + timeout
        while True:
            left = max(0.1, deadline - time.perf_counter())
            try:
                index = self.child.expect([CPR_REQUEST, pattern], timeout=left)
            except self.pexpect.EOF:
                raise RuntimeError("cvagent chat exited early:\n" + self.tail()) from None
            except self.pexpect.TIMEOUT:
                raise RuntimeError(f"timed out waiting for {pattern!r}:\n" + self.tail()) from None
            if index == 0:
                self.child.send("\x1b[1;1R")
                continue
            return time.perf_counter()

    def tail(self) -> str:
        text = (self.child.before or "") if isinstance(self.child.before, str) else ""
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
        return text[-2000:]

    def send(self, line: str) -> float:
        t = time.perf_counter()
        self.child.send(line + "\r")
        return t

    def close(self) -> float | None:
        """Type /exit; the seconds until the process has gone (None if it had to be killed)."""
        took = None
        try:
            t = self.send("/exit")
            self.child.expect(self.pexpect.EOF, timeout=30)
            took = time.perf_counter() - t
        except Exception:
            pass
        finally:
            if self.child.isalive():
                self.child.terminate(force=True)
            self.child.close()
        return took


def one_session(cmd: list[str], env: dict[str, str], pause: float) -> dict:
    term = ChatTerminal(cmd, env)
    t_exit = None
    try:
        t_output = term.wait_for(ANY_OUTPUT)
        t_prompt = term.wait_for(PROMPT)
        if pause:
            time.sleep(pause)
        t_send = term.send("hello")
        t_first = term.wait_for("echo: hello")
        term.wait_for(PROMPT)
        t_send2 = term.send("thanks")
        t_second = term.wait_for("echo: thanks")
        term.wait_for(PROMPT)
    finally:
        t_exit = term.close()
    return {
        "first_output_s": t_output - term.start,
        "to_prompt_s": t_prompt - term.start,
        "pause_s": pause,
        "send_after_prompt_s": t_send - t_prompt,
        "first_answer_s": t_first - t_send,
        "warm_answer_s": t_second - t_send2,
        "exit_s": t_exit,
    }


# In a fresh interpreter: import litellm through the gateway, then two calls to the
# loopback server.  first − second = what the first call costs beyond the import
# (litellm's lazy provider modules, the HTTP client, the tokenizer …).
FIRST_CALL_PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
from cvagent_cli.llm.gateway import LiteLLMGateway, load_litellm
from cvagent_cli.settings import load_settings
load_litellm()
t1 = time.perf_counter()
gateway = LiteLLMGateway(load_settings(model="openai/test", api_base=sys.argv[1]))
calls = []
for text in ("hello", "thanks"):
    t = time.perf_counter()
    list(gateway.stream([{"role": "user", "content": text}], None))
    calls.append(time.perf_counter() - t)
print("PROBE " + json.dumps({"import_s": t1 - t0, "first_call_s": calls[0], "second_call_s": calls[1]}))
"""


def first_call_setup(env: dict[str, str], url: str) -> dict:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", FIRST_CALL_PROBE, url],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("PROBE "):
            data = json.loads(line[6:])
            data["setup_s"] = max(0.0, data["first_call_s"] - data["second_call_s"])
            return data
    raise RuntimeError(
        f"the first-call probe failed (exit {proc.returncode}):\n{proc.stderr[-1500:]}"
    )


def prompt_only(cmd: list[str], env: dict[str, str]) -> dict:
    """No model configured: nothing is imported in the background."""
    term = ChatTerminal(cmd, env)
    try:
        t_output = term.wait_for(ANY_OUTPUT)
        t_prompt = term.wait_for(PROMPT)
    finally:
        t_exit = term.close()
    return {
        "first_output_s": t_output - term.start,
        "to_prompt_s": t_prompt - term.start,
        "exit_s": t_exit,
    }


def run(ctx: Context) -> list[Figure]:
    try:
        import pexpect  # noqa: F401
    except ImportError:
        ctx.log("  pexpect is not installed: skipping time to prompt")
        return [
            Figure(
                "time_to_prompt",
                "time to prompt: cvagent chat (pty)",
                "s",
                None,
                value_text="skipped (no pexpect)",
            )
        ]
    from tests.support.openai_server import LoopbackServer

    assert ctx.litellm_import is not None, "cold_start measures the litellm reference first"
    lit = ctx.litellm_import.median
    # how long the import itself takes (without interpreter start-up and teardown)
    imp = ctx.litellm_import_inproc.median if ctx.litellm_import_inproc else lit
    sessions = ctx.reps(6, 1)
    pauses = [0.0 if i % 2 == 0 else round(imp / 2, 2) for i in range(sessions)]
    plain_sessions = ctx.reps(3, 1)
    probe_runs = ctx.reps(3, 0)  # each costs a whole litellm import: not in a smoke run
    results: list[dict] = []
    plain: list[dict] = []
    probes: list[dict] = []
    with Sandbox() as sb, LoopbackServer(echo=True) as srv:
        env = sb.env(
            CVAGENT_MODEL="openai/test",
            CVAGENT_API_BASE=srv.url,
            TERM="xterm-256color",
            NO_COLOR=None,
            COLUMNS=None,
            LINES=None,
        )
        plain_env = sb.env(TERM="xterm-256color", NO_COLOR=None, COLUMNS=None, LINES=None)
        for i, pause in enumerate(pauses):
            resume = sb.resume(
                f"sample-{i}.md"
            )  # a first session on each copy: no history to resume
            cmd = find_cvagent() + ["chat", str(resume)]
            r = one_session(cmd, env, pause)
            r["waited_s"] = max(0.0, r["first_answer_s"] - r["warm_answer_s"])
            r["remaining_import_s"] = max(0.0, imp - r["send_after_prompt_s"])
            results.append(r)
            ctx.log(
                f"  chat session {i + 1}/{sessions}: prompt {r['to_prompt_s'] * 1000:.0f} ms, "
                f"sent after {r['send_after_prompt_s']:.2f} s, first answer {r['first_answer_s'] * 1000:.0f} ms "
                f"(waited {r['waited_s'] * 1000:.0f} ms, import left ≈ {r['remaining_import_s'] * 1000:.0f} ms), "
                f"warm {r['warm_answer_s'] * 1000:.0f} ms"
            )
            if i < plain_sessions:  # interleaved: no model configured → no background import
                p = prompt_only(
                    find_cvagent() + ["chat", str(sb.resume(f"plain-{i}.md"))], plain_env
                )
                plain.append(p)
                ctx.log(
                    f"  chat without a model {i + 1}/{plain_sessions}: prompt {p['to_prompt_s'] * 1000:.0f} ms"
                )
            if i < probe_runs:
                probe = first_call_setup(sb.env(), srv.url)
                probes.append(probe)
                ctx.log(
                    f"  first litellm call in a fresh process: import {probe['import_s'] * 1000:.0f} ms, "
                    f"first call {probe['first_call_s'] * 1000:.0f} ms, second {probe['second_call_s'] * 1000:.0f} ms"
                )
    setup = Stat.of(p["setup_s"] for p in probes) if probes else None
    for r in results:
        r["excess_s"] = r["waited_s"] - r["remaining_import_s"] - (setup.median if setup else 0.0)
    ctx.details["time_to_prompt"] = {
        "sessions": results,
        "sessions_without_model": plain,
        "first_call_probes": probes,
        "litellm_import_median_s": lit,
        "litellm_import_statement_median_s": imp,
        "command": "cvagent chat sample.md",
    }

    ref = "python -c 'import litellm'"
    prompt = Stat.of(r["to_prompt_s"] for r in results)
    prompt_ratio = ratio(prompt.median, lit)
    prompt_met = (
        None
        if ctx.quick
        else (prompt.median < PROMPT_TARGET_S and prompt_ratio <= PROMPT_TARGET_RATIO)
    )
    immediate = [r for r in results if r["pause_s"] == 0]
    delayed = [r for r in results if r["pause_s"] > 0]
    excess = Stat.of(r["excess_s"] for r in results)
    excess_ratio = ratio(excess.median, imp)
    figures = [
        Figure(
            "time_to_prompt",
            "time to prompt: cvagent chat (pty)",
            "s",
            prompt,
            ref,
            lit,
            prompt_ratio,
            target=f"< {PROMPT_TARGET_S * 1000:.0f} ms and ≤ {PROMPT_TARGET_RATIO} × import",
            met=prompt_met,
        ),
        Figure(
            "time_to_prompt_plain",
            "  … with no model configured (no background import)",
            "s",
            Stat.of(p["to_prompt_s"] for p in plain),
            ref,
            lit,
            ratio(Stat.of(p["to_prompt_s"] for p in plain).median, lit),
        ),
        Figure(
            "first_output",
            "  … first byte on the terminal (model configured)",
            "s",
            Stat.of(r["first_output_s"] for r in results),
            ref,
            lit,
            ratio(Stat.of(r["first_output_s"] for r in results).median, lit),
        ),
        Figure(
            "first_wait_now",
            "first call, sent at the prompt: waited",
            "s",
            Stat.of(r["waited_s"] for r in immediate),
            "import statement",
            imp,
            ratio(Stat.of(r["waited_s"] for r in immediate).median, imp),
            note="first answer − warm answer; the import was still ahead",
        ),
    ]
    if delayed:
        d = delayed[0]["pause_s"]
        w = Stat.of(r["waited_s"] for r in delayed)
        figures.append(
            Figure(
                "first_wait_later",
                f"first call, sent {d:.1f} s after the prompt: waited",
                "s",
                w,
                "import statement",
                imp,
                ratio(w.median, imp),
                note=f"import left ≈ {max(0.0, imp - d) * 1000:.0f} ms",
            )
        )
    figures += [
        Figure(
            "first_call_setup",
            "  reference: first litellm call beyond the import",
            "s",
            setup,
            "import statement",
            imp,
            ratio(setup.median, imp) if setup else None,
            value_text="not measured (quick)" if setup is None else "",
            note="fresh process, gateway → loopback: first call − second call",
        ),
        Figure(
            "first_wait_excess",
            "first call: wait beyond import left + first-call set-up",
            "s",
            excess,
            "import statement",
            imp,
            excess_ratio,
            target=f"≤ {EXCESS_TARGET_RATIO} × import",
            met=None if ctx.quick else excess_ratio <= EXCESS_TARGET_RATIO,
            note="waited − max(0, import statement − (send − prompt)) − first-call set-up",
        ),
        Figure(
            "warm_answer",
            "warm answer: send to first byte (loopback)",
            "s",
            Stat.of(r["warm_answer_s"] for r in results),
        ),
    ]
    exits = [r["exit_s"] for r in results if r["exit_s"] is not None]
    if exits:
        figures.append(
            Figure(
                "chat_exit",
                "/exit to process gone (litellm loaded)",
                "s",
                Stat.of(exits),
                ref,
                lit,
                ratio(Stat.of(exits).median, lit),
            )
        )
    return figures
