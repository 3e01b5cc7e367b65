"""4. Agent overhead per step, model time excluded (in-process).

The model is a zero-delay :class:`PlanModel` (tests.support.scripted's ScriptedModel,
answering from the bench script by request content); the time spent inside its
``stream()`` is measured and subtracted, so what is left is cvagent's own work: intent
heuristics, the prompt build, tool execution (reading, the analyzer, edit proposals
with their diff and truthfulness check, applying the edit to disk with its undo
entry), memory bookkeeping and the history save at the end of the turn.

Each measured turn starts from a fresh session on a fresh copy of sample.md whose
memory holds N messages of a real conversation (the bench script's, replayed once),
with the saved history at its 30-message cap.  Per step = (turn wall time − model
time) / model calls.  Also timed one by one at N = 50: the prompt build
(``compose`` + ``request_messages()``), each tool, ``unified_diff`` and the history save.
"""

from __future__ import annotations

import json
import time

from common import Context, Figure, Sandbox, Stat
from script import TURNS, locate

TARGET_MS = 20.0
SIZES = (10, 20, 30, 40, 50)
# turns measured at every memory size: a text answer, read + edit, the analyzer
PROBES = (
    "improve my Experience bullets",
    "how should I prepare for a system design interview?",
    "any ATS problems left in my resume?",
)


def plan_model():
    from tests.support.scripted import Call, Reply, ScriptedModel

    class PlanModel(ScriptedModel):
        """ScriptedModel answering from the bench script; times its own stream()."""

        def __init__(self) -> None:
            super().__init__()
            self.model_time = 0.0
            self.model_cpu = 0.0
            self.calls = 0

        def stream(self, messages, tools=None, **kwargs):
            start, cpu = time.perf_counter(), time.process_time()
            turn, step = locate(messages)
            if turn is not None:
                wire = turn.reply(step)
                self.replies = [
                    Reply(
                        text=wire.text or "", calls=[Call(n, a) for n, a in wire.tool_calls or []]
                    )
                ]
            else:
                self.replies = [Reply(text="OK.")]
            self.calls += 1
            inner = super().stream(messages, tools, **kwargs)
            self._charge(start, cpu)
            while True:
                start, cpu = time.perf_counter(), time.process_time()
                try:
                    item = next(inner)
                except StopIteration:
                    self._charge(start, cpu)
                    return
                self._charge(start, cpu)
                yield item

        def _charge(self, start: float, cpu: float) -> None:
            self.model_time += time.perf_counter() - start
            self.model_cpu += time.process_time() - cpu

    return PlanModel


def approve_all(edit):
    from cvagent_cli.agent import events as ev

    return ev.Decision(ev.Action.APPLY)


def new_session(sb: Sandbox, name: str, model_cls, prefill=None):
    from cvagent_cli.agent.compose import build_session
    from cvagent_cli.document.document import ResumeDocument

    path = sb.resume(name)  # a fresh copy each time: edits always find their text
    session = build_session(
        client=model_cls(), doc=ResumeDocument.from_path(path), classify_with_model=False, new=True
    )
    if prefill is not None:
        session.agent.memory.replace_from(prefill)
        session.save()  # the history file exists and is at its 30-message cap
    return session


def whole_conversation(sb: Sandbox, model_cls) -> list:
    """Every message of the 30-turn script (memory made big enough to keep them all)."""
    from cvagent_cli.agent.memory import Memory

    session = new_session(sb, "replay.md", model_cls)
    session.agent.memory = Memory(10_000)
    for turn in TURNS:
        for _ in session.ask(turn.text, approve_all):
            pass
    messages = session.agent.memory.messages
    session.close()
    return messages


def window(messages: list, size: int) -> list:
    """A valid conversation of (as close as possible to) ``size`` messages, from the end."""
    from cvagent_cli.agent.memory import cleanup_incomplete_sequences

    best: list = []
    starts = [i for i, m in enumerate(messages) if m.role == "user"]
    for start in reversed(starts):
        for end in range(min(len(messages), start + size), start, -1):
            candidate = cleanup_incomplete_sequences(messages[start:end])
            if len(candidate) > len(best) and len(candidate) <= size:
                best = candidate
            if len(best) == size:
                return best
    return best


def measure_turn(sb: Sandbox, model_cls, prefill: list, text: str, index: int) -> dict:
    session = new_session(sb, f"turn-{index}.md", model_cls, prefill)
    model = session.agent.client
    start, cpu = time.perf_counter(), time.process_time()
    for _ in session.ask(text, approve_all):  # ask() saves the history when the turn ends
        pass
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    session.close()
    steps = max(1, model.calls)
    return {
        "wall_s": wall,
        "model_s": model.model_time,
        "cpu_s": cpu,
        "model_cpu_s": model.model_cpu,
        "steps": steps,
        "per_step_ms": (wall - model.model_time) / steps * 1000,
        "per_step_cpu_ms": (cpu - model.model_cpu) / steps * 1000,
    }


def components(sb: Sandbox, model_cls, prefill: list, repeats: int) -> dict[str, list[float]]:
    """Milliseconds for the parts of a step, one by one, at the given memory."""
    from cvagent_cli.agent.intent import classify
    from cvagent_cli.agent.resume_agent import ResumeTurn
    from cvagent_cli.document.editing import unified_diff

    session = new_session(sb, "parts.md", model_cls, prefill)
    agent = session.agent
    text = "improve my Experience bullets"
    doc = agent.workspace.doc
    turn = ResumeTurn(text)  # what ResumeAgent.run makes before its first step
    turn.intent = classify(text, section_names=[s.title for s in doc.sections if s.title])
    ctx = agent.tool_context()
    allowed = agent.allowed_tools()
    edit_args = json.dumps(
        {
            "old_text": "Shipped a self-service query API used by 300+ customer analysts.",
            "new_text": "Shipped a self-service query API for 300+ customer analysts.",
            "section": "experience",
        }
    )
    after = doc.text.replace("used by 300+", "for 300+")
    jobs = {
        "prompt build (compose + request_messages)": lambda: (
            setattr(turn, "prompt", agent.compose(turn)),
            agent.request_messages(turn),
        ),
        "tool: read_resume(experience)": lambda: agent.tools.execute(
            "read_resume", '{"section": "experience"}', ctx, allowed
        ),
        "tool: analyze_resume": lambda: agent.tools.execute("analyze_resume", "{}", ctx, allowed),
        "tool: edit_resume (proposal, diff, fact check)": lambda: agent.tools.execute(
            "edit_resume", edit_args, ctx, allowed
        ),
        "diff rendering (unified_diff)": lambda: unified_diff(doc.text, after, "sample.md"),
        "history save (30 of the messages)": session.save,
    }
    out: dict[str, list[float]] = {k: [] for k in jobs}
    for name, job in jobs.items():
        job()  # warm-up
        for _ in range(repeats):
            t = time.perf_counter()
            job()
            out[name].append((time.perf_counter() - t) * 1000)
    session.close()
    return out


def run(ctx: Context) -> list[Figure]:
    model_cls = plan_model()
    reps = ctx.reps(8, 1)
    with Sandbox() as sb:
        old = sb.apply_to_process()
        try:
            conversation = whole_conversation(sb, model_cls)
            per_size: dict[int, list[dict]] = {}
            actual: dict[int, int] = {}
            index = 0
            for text in PROBES:  # warm-up: lazy imports, regexes, the analyzer's caches
                measure_turn(sb, model_cls, window(conversation, 50), text, -1)
            for r in range(reps):
                for size in SIZES[r % len(SIZES) :] + SIZES[: r % len(SIZES)]:  # rotate the order
                    prefill = window(conversation, size)
                    actual[size] = len(prefill)
                    for text in PROBES:
                        index += 1
                        row = measure_turn(sb, model_cls, prefill, text, index)
                        row["probe"] = text
                        per_size.setdefault(size, []).append(row)
            parts = components(sb, model_cls, window(conversation, 50), ctx.reps(30, 5))
        finally:
            sb.restore_process(old)

    stats = {size: Stat.of(x["per_step_ms"] for x in rows) for size, rows in per_size.items()}
    ctx.details["overhead"] = {
        "conversation_messages": len(conversation),
        "memory_sizes": actual,
        "probes": PROBES,
        "turns": {str(k): v for k, v in per_size.items()},
        "components_ms": parts,
    }
    for size in SIZES:
        ctx.log(
            f"  memory {actual[size]:>2} messages: {stats[size].median:.2f} ms per step "
            f"({stats[size].min:.2f}–{stats[size].max:.2f})"
        )
    cal = ctx.calibration.median * 1000 if ctx.calibration else None
    ref = "CPU workload" if cal else ""
    main = stats[50]
    figures = [
        Figure(
            "overhead_step",
            "agent overhead/step, excl. model (memory 50, history 30)",
            "ms",
            main,
            ref,
            cal,
            main.median / cal if cal else None,
            target=f"< {TARGET_MS:.0f} ms",
            met=None if ctx.quick else main.median < TARGET_MS,
            note="(turn wall − model time) / model calls; read+edit, text and analyzer turns",
        ),
    ]
    cpu_main = Stat.of(x["per_step_cpu_ms"] for x in per_size[50])
    figures.append(
        Figure(
            "overhead_step_cpu",
            "  … CPU time per step (memory 50)",
            "ms",
            cpu_main,
            ref,
            cal,
            cpu_main.median / cal if cal else None,
            note="process CPU time: what is left of the wall time without fsync waits and other load",
        )
    )
    by_probe = {
        text: Stat.of(x["per_step_ms"] for x in per_size[50] if x["probe"] == text)
        for text in PROBES
    }
    figures[0].note += "; per probe: " + ", ".join(
        f"{t!r} {v.median:.1f} ms" for t, v in by_probe.items()
    )
    base = stats[10].median
    for size in SIZES[:-1]:
        figures.append(
            Figure(
                f"overhead_step_{size}",
                f"  … with {actual[size]} messages in memory",
                "ms",
                stats[size],
                f"memory {actual[50]}",
                main.median,
                stats[size].median / main.median if main.median else None,
            )
        )
    figures[-1].note = f"growth 10→50 messages: ×{main.median / base:.2f}" if base else ""
    for name, values in parts.items():
        slug = "".join(c if c.isalnum() else "_" for c in name.split(" (")[0]).strip("_")
        figures.append(
            Figure(
                "part_" + slug,
                f"  part: {name}",
                "ms",
                Stat.of(values),
                ref,
                cal,
                Stat.of(values).median / cal if cal else None,
            )
        )
    return figures
