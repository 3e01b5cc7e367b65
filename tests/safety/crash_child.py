"""Crash-test worker: edits and saves a resume in a loop until it is SIGKILLed.

Run as a *zygote*: ``python -m tests.safety.crash_child`` imports everything once, prints
``ready``, then for every ``run RESUME LOG SEED`` line on stdin forks a worker, prints
``pid N``, waits for it and prints ``exit STATUS``.  Forking keeps 120 kills cheap: no
worker pays the import time, and every worker is still a separate process killed for real.

The worker opens a ChatSession (which loads -- and if needed recovers -- history.json and
undo.json), then loops turns: a ScriptedModel calls ``edit_resume`` on the first bullet
(appending one lower-case word, so the truth guard has nothing to flag) and the approver
applies it; now and then it undoes, redoes, or reopens the session.  Before any write of
resume.md it appends the sha256 of the bytes it is about to write to LOG (fsynced), so
the test knows every version the file may legitimately hold.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
from pathlib import Path

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.compose import build_session
from cvagent_cli.agent.session import ChatSession
from cvagent_cli.document.document import ResumeDocument
from tests.support.scripted import ScriptedModel, tool

WORDS = [
    "reliably",
    "quickly",
    "carefully",
    "together",
    "daily",
    "safely",
    "cleanly",
    "openly",
    "calmly",
    "steadily",
]
MAX_TURNS = 5000  # a worker nobody kills still ends


def _log(log: Path, data: bytes) -> None:
    with open(log, "a", encoding="ascii") as handle:
        handle.write(hashlib.sha256(data).hexdigest() + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def _apply(edit: ev.ProposedEdit) -> ev.Decision:
    return ev.Decision(ev.Action.APPLY)


def _open(resume: Path, model: ScriptedModel) -> ChatSession:
    return build_session(
        client=model,
        doc=ResumeDocument.from_path(resume),
        auto_apply=True,
    )


def worker(resume: Path, log: Path, seed: int) -> None:
    rng = random.Random(seed)
    model = ScriptedModel()
    session = _open(resume, model)
    for turn in range(MAX_TURNS):
        roll = rng.random()
        ws = session.workspace
        doc = ws.doc
        assert doc is not None
        if roll < 0.08 and ws.undo.done:
            _log(log, doc.with_text(ws.undo.done[-1].before).render())
            ws.undo_last()
            continue
        if roll < 0.12 and ws.undo.undone:
            _log(log, doc.with_text(ws.undo.undone[-1].after).render())
            ws.redo_last()
            continue
        if roll < 0.17:
            session.close()
            session = _open(resume, model)
            continue
        line = next(item for item in doc.text.splitlines() if item.startswith("- "))
        new_line = f"{line} {rng.choice(WORDS)}"
        _log(log, doc.with_text(doc.text.replace(line, new_line, 1)).render())
        model.enqueue(
            tool("edit_resume", old_text=line, new_text=new_line, reason="tighten the bullet"),
            f"Done {turn}.",
        )
        for _ in session.ask("please polish the first bullet of my experience", _apply):
            pass


def main() -> int:
    print("ready", flush=True)
    for raw in sys.stdin:
        parts = raw.split()
        if not parts:
            continue
        if parts[0] == "quit":
            break
        if parts[0] != "run":
            print(f"error unknown command {parts[0]!r}", flush=True)
            continue
        resume, log, seed = Path(parts[1]), Path(parts[2]), int(parts[3])
        pid = os.fork()
        if pid == 0:  # the worker: never return into the zygote's loop
            code = 0
            try:
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)
                os.dup2(null, 1)
                worker(resume, log, seed)
            except BaseException as exc:
                print(f"worker failed: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
                code = 1
            finally:
                os._exit(code)
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {status}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
